"""Why Stonesaga refuses a move: each reason's code, its text in Chinese and English, its rule."""

from __future__ import annotations

from engine.core import Reason, Text
from engine.stonesaga.catalogue import rule

# --- reasons --------------------------------------------------------------------------------


def _reason(code: str, zh: str, en: str, section: str) -> Reason:
    return Reason(f"stonesaga.{code}", Text(zh, en), rule(section))


NO_SUCH_CHARACTER = _reason(
    "no_such_character", "没有第{n}名角色", "There is no character {n}", "开局设置.1"
)
NOT_YOURS = _reason(
    "not_your_character",
    "{name}由{owner}号玩家操控",
    "{name} is played by player {owner}",
    "开局设置.1",
)
DEAD = _reason("dead", "{name}已经死亡", "{name} is dead", "角色死亡与传说")
NO_ENERGY = _reason(
    "no_energy",
    "需要{cost}点精力,{name}只有{energy}点",
    "This needs {cost} energy; {name} has {energy}",
    "精力",
)
NOT_ADJACENT = _reason(
    "not_adjacent", "{to}与{tile}不相邻", "Not next to each other: {tile} and {to}", "移动"
)
IMPASSABLE = _reason(
    "impassable",
    "{tile}与{to}之间不可通行",
    "The edge from {tile} to {to} cannot be crossed",
    "覆盖层",
)
NO_FEATURE = _reason(
    "no_feature",
    "这个行动要在有{needed}的地块上做",
    "This action needs a tile with {needed}",
    "特性行动",
)
NOT_SAME_TILE = _reason(
    "not_same_tile", "{other}不在同一地块", "{other} is not on the same tile", "交换"
)
NOTHING_EXCHANGED = _reason(
    "nothing_exchanged",
    "交换至少要换出或换来一样资源",
    "An exchange must give or receive something",
    "交换",
)
NOT_INCAPACITATED = _reason(
    "not_incapacitated", "{name}没有失能", "{name} is not incapacitated", "救助"
)
NO_SUCH_MALADY = _reason(
    "no_such_malady", "健康轨第{cell}格没有疾苦", "No malady in cell {cell}", "获得与退化"
)
NOT_HELD = _reason("not_held", "背包里没有足够的{what}", "Not enough {what} in the pack", "资源")
UNKNOWN_RESOURCE = _reason(
    "unknown_resource", "没有叫{what}的资源", "There is no resource called {what}", "资源"
)
PROCESS = {
    "count": _reason("process_count", "一次加工1至3个资源", "Process 1 to 3 resources", "加工"),
    "pairing": _reason(
        "process_pairing", "每个资源配一个工具图标", "Name one tool icon per resource", "加工"
    ),
    "unknown_tool": _reason(
        "unknown_tool", "没有这种工具图标", "There is no such tool icon", "加工"
    ),
    "not_processable": _reason(
        "not_processable",
        "只能加工粗硬食物与材料",
        "Only hard food and materials can be processed",
        "加工",
    ),
    "same_tool": _reason(
        "same_tool",
        "每加工一个资源必须换用不同的工具图标(加热最多3次)",
        "Each resource needs a different tool icon (heat up to 3 times)",
        "加工",
    ),
}
CRAFT_PAIR = _reason(
    "craft_pair", "合成要用背包里的两枚材料", "Crafting takes two materials from the pack", "合成.1"
)
OUTPOST_EXISTS = _reason(
    "outpost_exists", "这一格已有前哨", "This tile already has an outpost", "建前哨.1"
)
OUTPOST_LIMIT = _reason(
    "outpost_limit",
    "人口{population}只允许{limit}个前哨",
    "Population {population} allows {limit} outposts",
    "建前哨",
)
OUTPOST_SHARES = _reason(
    "outpost_shares",
    "分摊的精力必须来自同格角色,合计4点",
    "Shared energy comes from characters on the tile and totals 4",
    "建前哨.1",
)
SHELTER_FULL = _reason(
    "shelter_full", "庇护所已经是2,不能再升级", "The shelter is already a 2", "备庇护所"
)
MINING_OPEN = _reason(
    "mining_open",
    "{name}正在采矿:先决定继续摸还是收手(最多3枚,收手时矿石全部放回)",
    "{name} is mining: decide first whether to draw again or stop (at most 3; stopping"
    " returns every token)",
    "采矿.6",
)
FISHING_OPEN = _reason(
    "fishing_open",
    "{name}正在钓鱼:先输入掷出的四颗骰",
    "{name} is fishing: enter the four dice rolled first",
    "钓鱼.3",
)
NOT_MINING = _reason("not_mining", "现在没有在采矿", "Nobody is mining now", "采矿")
DRAW_LIMIT = _reason("draw_limit", "一次行动最多采3枚", "At most 3 draws per action", "采矿")
NOT_IN_BAG = _reason(
    "not_in_bag",
    "袋里已经没有{stone}了(此地物的袋子:{bag})",
    "There is no {stone} left in the bag (this feature's bag: {bag})",
    "采矿.3",
)
TOKEN_DRAWN = _reason(
    "token_drawn",
    "这枚{stone}({omen})已经摸出来了",
    "This {stone} ({omen}) token was drawn already",
    "采矿.1",
)
UNKNOWN_NAME = _reason(
    "unknown_name", "没有这个{what}:{name}", "There is no {what} called {name}", "图标图例"
)
TEST_IN_PROGRESS = _reason(
    "test_in_progress",
    "{name}的判定还没完:先输入掷出的骰子",
    "{name}'s test is not finished: enter the die rolled first",
    "判定",
)
NO_TEST = _reason("no_test", "现在没有进行中的判定", "There is no test to roll for", "判定")
BAD_DIE = _reason("bad_die", "骰子点数是1到6", "A die shows 1 to 6", "判定.1")
CREATION = {
    "dice": _reason(
        "creation_dice", "每次掷五颗骰(1–6)", "Each roll is five dice of 1–6", "创造角色.1"
    ),
    "reroll_needed": _reason(
        "reroll_needed",
        "五骰之和小于14,必须重掷",
        "The five dice sum to less than 14: roll again",
        "创造角色.1",
    ),
    "roll_again": _reason(  # an answer, not a refusal: the roll is noted, then rolled again
        "roll_again",
        "五骰之和{total},小于14:五颗骰全部重掷",
        "The five dice sum to {total}, less than 14: roll all five again",
        "创造角色.1",
    ),
    "rerolled_too_soon": _reason(
        "rerolled_too_soon",
        "五骰之和已经≥14,不能再重掷",
        "A roll already summed to 14 or more: no more rerolls",
        "创造角色.1",
    ),
    "assignment": _reason(
        "assignment",
        "要把去掉最低一颗后剩下的四个点数分配给四项属性",
        "Assign the four dice left after dropping the lowest, one per attribute",
        "创造角色.2",
    ),
}
PARTY_FULL = _reason(
    "party_full",
    "最多4名角色(4块职责板),且每名玩家至少要有1名",
    "At most four characters (four mantle boards), and every player needs one",
    "开局设置.2",
)
NAME_TAKEN = _reason("name_taken", "名字{name}已被使用", "The name {name} is taken", "创造角色.4")
NOT_IN_ROSTER = _reason(
    "not_in_roster",
    "《日志》里没有可选的角色{name}",
    "The Log has no living character called {name}",
    "开局设置.1",
)
CHARACTER_FIRST = _reason(
    "character_first",
    "先从《日志》里选角色,或创造一个",
    "First choose a character from the Log, or create one",
    "开局设置.1",
)
"""A player without a character ends character creation while the Log has one to choose."""
CREATE_FIRST = _reason(
    "create_first",
    "先创造一个角色(掷五颗骰)",
    "First create a character (roll five dice)",
    "开局设置.1",
)
"""A player without a character ends character creation: every player needs one."""
ALREADY_YOURS = _reason(
    "already_yours",
    "{name}已经是你的角色",
    "{name} is already your character",
    "开局设置.1",
)
ENERGY_FULL = _reason(
    "energy_full",
    "{name}的精力已满({cap}点):获得精力什么也不会改变",
    "{name}'s energy is full ({cap}): gaining energy would change nothing",
    "精力",
)
BOOST_TOP = _reason(
    "boost_top",
    "{name}的{attribute}已有大幅增益:不会再升",
    "{name}'s {attribute} already has a major boost: it goes no higher",
    "增益",
)
HEALTH_FULL = _reason(
    "health_full",
    "{name}的健康轨已盖满,没有可以再放或翻面的疾苦",
    "{name}'s health track is full, with no malady left to place or flip",
    "获得与退化",
)
EXCHANGE_SAME = _reason(
    "exchange_same",
    "换出的和换来的完全一样:什么也不会改变",
    "It gives exactly what it receives: nothing would change",
    "交换",
)
KEPT_ALREADY = _reason(
    "kept_already",
    "{name}已经这样保留了",
    "{name} already keeps exactly this",
    "局间保留与存档",
)
REBUILT_ALREADY = _reason(
    "rebuilt_already",
    "山谷已经按这张地图重建并核对过了",
    "The valley is already rebuilt and checked as this map",
    "开局设置.7",
)
RECORDED_ALREADY = _reason(
    "recorded_already",
    "这张地图已经记录过了",
    "This map is already recorded",
    "局间保留与存档",
)
UNKNOWN_EFFECT = _reason(
    "unknown_effect", "无法记录这个效果:{why}", "This effect cannot be recorded: {why}", "精力"
)
CARD_DONE = _reason(
    "night_card_done", "{name}今晚已结算夜晚卡", "{name} has resolved a night card", "夜晚阶段.7"
)
BOOST_NEEDED = _reason(
    "boost_needed",
    "精力已满:静夜改为选一项属性获得微幅增益",
    "Energy is full: a calm night gives a minor boost; name the attribute",
    "夜晚阶段.7",
)
BAD_RESULT = _reason(
    "bad_result", "挑战的结果是胜利或失败", "A challenge ends won or lost", "挑战卡与目标卡"
)
KEEP = _reason(
    "keep_limit",
    "每名角色至多保留5件物品与5枚材料",
    "Each character keeps at most 5 items and 5 materials",
    "局间保留与存档",
)
ONE_ACTION = _reason(
    "one_action",
    "每人每次只做一个行动:先结束回合",
    "One action per turn: end the turn first",
    "白天阶段",
)
NO_OUTPOST = _reason("no_outpost", "这一格没有前哨", "There is no outpost on this tile", "建建筑")
BUILDINGS_FULL = _reason(
    "buildings_full", "每个前哨最多5座建筑", "An outpost holds at most 5 buildings", "建建筑"
)
NO_RUIN = _reason("no_ruin", "拾荒要在有废墟的地块上做", "Scavenging needs a ruin", "拾荒")
NOT_FOOD_OR_WATER = _reason(
    "not_food_or_water",
    "行动之外只能自由互送食物和水",
    "Only food and water are handed over freely",
    "白天阶段",
)
NO_FISHING = _reason(
    "no_fishing", "没有待掷的钓鱼骰", "No fishing dice are to be entered", "钓鱼.3"
)
NO_MOURNING = _reason(
    "no_mourning",
    "{name}没有待掷的哀悼骰",
    "No mourning roll is due for {name}",
    "角色死亡与传说.1",
)
ATTRIBUTE_MAX = _reason(
    "attribute_max",
    "{name}的{attribute}已经是6,不能再升",
    "{name}'s {attribute} is already 6",
    "角色死亡与传说.1",
)
ATTRIBUTE_NEEDED = _reason(
    "attribute_needed",
    "掷出5–6:选一项属性永久+1",
    "A 5–6: choose the attribute raised by 1",
    "角色死亡与传说.1",
)
MOURNING_DUE = _reason(
    "mourning_due",
    "先为{name}掷哀悼骰",
    "Roll the mourning die for {name} first",
    "夜晚阶段.1",
)
VALLEY_FULL = _reason(
    "valley_capacity",
    "纪元{epoch}的山谷最多{capacity}个托盘,记录里有{trays}个",
    "The valley holds {capacity} trays in epoch {epoch}; the record has {trays}",
    "山谷扩张",
)
NO_RELICS = _reason(
    "no_relics",
    "{name}没有留给新角色的遗物(只有局间死亡的角色才有,且只能交给一名角色)",
    "{name} left no relics to hand on (only a character who died between sessions does, once)",
    "角色死亡与传说",
)
NO_FREE_MOVE = _reason(
    "no_free_move",
    "局间已经没有免费迁移前哨的次数了",
    "No free outpost move is left between these sessions",
    "废墟与迁移前哨",
)
MOVED_ALREADY = _reason(
    "moved_already",
    "这个前哨在局间已经迁移过一次",
    "This outpost was moved once between these sessions already",
    "废墟与迁移前哨",
)
VALLEY_MISMATCH = _reason(
    "valley_mismatch",
    "重建的山谷与《日志》的地图不符:{problem}",
    "The rebuilt valley differs from the Log's map: {problem}",
    "开局设置.7",
)
VALLEY_UNCHECKED = _reason(
    "valley_unchecked",
    "先按《日志》的地图重建山谷,让摄像头核对",
    "Rebuild the valley from the Log's map first, for the camera to check",
    "开局设置.7",
)
RUINS_DUE = _reason(
    "ruins_due",
    "新纪元开始:人口{population}只允许{limit}个前哨,先选{count}个变成废墟",
    "A new epoch: population {population}, outposts allowed: {limit};"
    " choose {count} to become ruins first",
    "建前哨",
)
NO_RUIN_DUE = _reason(
    "no_ruin_due",
    "现在没有前哨必须变成废墟(只在新纪元开始、前哨超过人口上限时)",
    "No outpost must become a ruin now"
    " (only at a new epoch's start, beyond the population's limit)",
    "建前哨",
)
OLD_AGE_DUE = _reason(
    "old_age_due",
    "先为局间死去的{name}掷哀悼骰",
    "Roll the mourning die for {name}, who died between sessions, first",
    "角色死亡与传说.1",
)

# --- the alert behemoth drawn by the table (draws "table") ----------------------------------

ALERT_DUE = _reason(
    "alert_due",
    "先抽出本局警觉的巨兽:从巢穴启用的巨兽里随机选一头,在控制台上选它",
    "First draw the behemoth that is alert this session: one at random among those whose lair"
    " is active; pick it at the console",
    "巨兽",
)
NO_ALERT_DUE = _reason(
    "no_alert_due",
    "现在不用抽警觉的巨兽(每局开始时抽一次)",
    "No alert behemoth is to be drawn now (it is drawn once, as the session begins)",
    "巨兽",
)
NO_SUCH_BEHEMOTH = _reason(
    "no_such_behemoth",
    "山谷里没有巨兽{name}(《日志》只记着已抵达的巨兽)",
    "No behemoth {name} has arrived in the valley (the Log names those that have)",
    "巨兽",
)
LAIR_DORMANT = _reason(
    "lair_dormant",
    "{name}的巢穴没有启用:警觉的巨兽只从巢穴启用的巨兽里选",
    "{name}'s lair is not active: the alert behemoth is one whose lair is active",
    "巨兽",
)
