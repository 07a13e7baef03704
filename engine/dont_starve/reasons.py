"""Why a Don't Starve move is refused: stable codes, both languages, the rule each comes from.

Players read these on the console: a name in a message is a ``Text`` from
``engine/dont_starve/texts.py`` (a biome, a kind and count held, a move's numbers), never an id.
"""

from __future__ import annotations

from engine.core import Reason, Text

RULES = "dont-starve.zh.md"


def rule(section: str) -> str:
    """The citation of a section of the rule text."""
    return f"{RULES} §{section}"


DEFEATED = Reason(
    "dont_starve.defeated",
    Text(
        "{player}号玩家的角色已被击败,等待肉块雕像复活",
        "Player {player}'s character is defeated and waits for a meat effigy",
    ),
    rule("角色复活"),
)
FIGHT_PENDING = Reason(
    "dont_starve.fight_pending",
    Text("先读完这场战斗的骰子", "Read the dice of the fight first"),
    rule("战斗 战斗结算"),
)
INTERRUPTS = Reason(
    "dont_starve.interrupts",
    Text(
        "{player}号玩家的战斗还在进行:自由行动不能打断其他玩家的行动,请等战斗结束",
        "Player {player}'s fight is under way: a free action may not interrupt another"
        " player's action; wait until it is over",
    ),
    rule("自由行动"),
)
NO_SUCH_TILE = Reason(
    "dont_starve.no_such_tile",
    Text("地图上没有板块{tile}", "There is no tile {tile} on this map"),
    rule("世界构建"),
)
NOT_ADJACENT = Reason(
    "dont_starve.not_adjacent",
    Text(
        "{to}与{frm}不相邻(至少共享半条边;仅角落接触不相邻)",
        "Not adjacent: {to} and {frm} (tiles must share at least half an edge; corners"
        " do not count)",
    ),
    rule("移动 相邻"),
)
MOVE_USED = Reason(
    "dont_starve.move_used",
    Text(
        "本回合的可选移动已经用过;再移动只能作为主要行动",
        "The optional move is used; another move must be the main action",
    ),
    rule("行动阶段 执行回合"),
)
WRONG_BIOME = Reason(
    "dont_starve.wrong_biome",
    Text("面朝下的板块中没有{biome}生态域", "No face-down tile of biome {biome} is left"),
    rule("世界构建"),
)
EXPLORE_PORTAL = Reason(
    "dont_starve.explore_portal",
    Text("不能在传送门板块上探索", "You cannot explore on the portal tile"),
    rule("探索"),
)
NO_LOCATION = Reason(
    "dont_starve.no_location",
    Text("板块{tile}上没有翻开的地点卡:先探索", "Tile {tile} has no location card: explore first"),
    rule("互动"),
)
STRUCTURE_OFF_PORTAL = Reason(
    "dont_starve.structure_off_portal",
    Text("只有在传送门板块上才能与建筑互动", "Structures can be used on the portal tile only"),
    rule("与建筑卡互动"),
)
MONSTER_DEFEATED = Reason(
    "dont_starve.monster_defeated",
    Text(
        "板块{tile}的地点上有已击败怪物指示物,不能在此战斗",
        "The location on tile {tile} has a defeated-monster token: no fight there",
    ),
    rule("符号参考 地点效果"),
)
NO_TOKENS = Reason(
    "dont_starve.no_tokens",
    Text(
        "板块{tile}上只有{have}个剧本怪物指示物,不能交战{want}个",
        "Tile {tile} has {have} scenario monster token(s); you cannot engage {want}",
    ),
    rule("与剧本怪物战斗"),
)
NO_SHADOW = Reason(
    "dont_starve.no_shadow",
    Text("没有翻开的{tier}阶影怪纠缠你", "No tier {tier} shadow creature is haunting you"),
    rule("战斗"),
)
SHADOW_ALONE = Reason(
    "dont_starve.shadow_alone",
    Text("角色不能在对抗影怪的战斗中互相支援", "Nobody may join a fight against a shadow"),
    rule("加入战斗"),
)
CANNOT_JOIN = Reason(
    "dont_starve.cannot_join",
    Text(
        "{player}号玩家不能加入战斗:须是尚未行动、位于相同或相邻板块的角色",
        "Player {player} cannot join: a helper must not have acted yet and must stand on the"
        " same or an adjacent tile",
    ),
    rule("加入战斗"),
)
BAD_SPLIT = Reason(
    "dont_starve.bad_split",
    Text(
        "怪物骰分配{split}不对:每名战斗者一个数,总数须为{total}",
        "The split {split} is wrong: one number per fighter, adding up to {total}",
    ),
    rule("战斗结算"),
)
NO_FIGHT = Reason(
    "dont_starve.no_fight",
    Text("现在没有进行中的战斗", "There is no fight to read dice for"),
    rule("战斗结算"),
)
NOT_FIGHTING = Reason(
    "dont_starve.not_fighting",
    Text(
        "{player}号玩家不在这场战斗中或已读过骰子",
        "Player {player} is not in this fight or has already read their dice",
    ),
    rule("战斗结算"),
)
INITIATOR_ROLLS = Reason(
    "dont_starve.initiator_rolls",
    Text(
        "这场战斗由{player}号玩家发起,骰子由{player}号玩家录入",
        "Player {player} started this fight and enters its dice",
    ),
    rule("战斗结算"),
)
BAD_DICE = Reason(
    "dont_starve.bad_dice",
    Text(
        "骰面不对:{dice}个怪物骰最多{dice}个闪避加命中,且不能为负",
        "Those faces cannot be: {dice} monster dice show at most {dice} dodges and hits, none"
        " negative",
    ),
    rule("投骰"),
)
BAD_NUMBER = Reason(
    "dont_starve.bad_number",
    Text("数量必须为正数({what})", "The number must be positive ({what})"),
    rule("上限"),
)
BACKPACK_FULL = Reason(
    "dont_starve.backpack_full",
    Text(
        "背包最多10个资源(这样会有{have}个):先弃置",
        "A backpack holds at most 10 resources (this would make {have}): discard first",
    ),
    rule("上限 物品栏上限"),
)
HAND_FULL = Reason(
    "dont_starve.hand_full",
    Text(
        "手牌最多8张物品卡(这样会有{have}张):先弃置",
        "A hand holds at most 8 item cards (this would make {have}): discard first",
    ),
    rule("上限 物品栏上限"),
)
NOT_IN_INVENTORY = Reason(
    "dont_starve.not_in_inventory",
    Text("{player}号玩家没有{what}", "Player {player} does not have {what}"),
    rule("物品栏"),
)
NO_FOCUS = Reason(
    "dont_starve.no_focus",
    Text("没有激活的专注点", "No active focus token is left"),
    rule("专注点"),
)
TRADE_APART = Reason(
    "dont_starve.trade_apart",
    Text(
        "只有同一地图板块上的角色之间才能交易",
        "Only characters on the same tile may trade",
    ),
    rule("交易"),
)
MINED_OUT = Reason(
    "dont_starve.mined_out",
    Text(
        "板块{tile}的地点已开采完:等再生长",
        "The location on tile {tile} is mined out: wait for regrowth",
    ),
    rule("与地点卡互动"),
)
NO_SUCH_PLAYER = Reason(
    "dont_starve.no_such_player",
    Text("没有{player}号玩家的角色", "There is no character of player {player}"),
    rule("角色设置"),
)
NO_BASE_CAMP = Reason(
    "dont_starve.no_base_camp",
    Text("本局没有营地建筑", "No structure is built in this game's base camp"),
    rule("营地"),
)
NO_ESSENCE = Reason(
    "dont_starve.no_essence",
    Text("精华不足:需要{cost},只有{have}", "Not enough essence: {cost} needed, {have} left"),
    rule("精华"),
)
OFF_PORTAL = Reason(
    "dont_starve.off_portal",
    Text("只有在传送门板块上才能这样做", "Only a character on the portal tile can do this"),
    rule("营地面板"),
)
NO_SANITY = Reason(
    "dont_starve.no_sanity",
    Text("没有理智可以花费", "No sanity left to spend"),
    rule("精华"),
)

# --- the table's draws (draws "table": chance comes from the table) -------------------------

WEATHER_DUE = Reason(
    "dont_starve.weather_due",
    Text(
        "先录入抽到的天气卡:按卡名选出,或按卡上的符号录入",
        "Enter the weather card drawn first: pick it by its title, or enter its symbols",
    ),
    rule("准备阶段 抽取天气卡"),
)
NEEDS_DUE = Reason(
    "dont_starve.needs_due",
    Text(
        "先录入本回合的需求板块(回合面板上最左侧的那块)",
        "Enter this round's needs tile first (the leftmost on the round board)",
    ),
    rule("需求板块"),
)
LOCATION_DUE = Reason(
    "dont_starve.location_due",
    Text(
        "先录入{player}号玩家探索时抽到的地点卡",
        "Enter the location card player {player} drew when exploring first",
    ),
    rule("探索"),
)
NO_WEATHER_DUE = Reason(
    "dont_starve.no_weather_due",
    Text("现在没有刚抽的天气卡要录入", "No weather card was just drawn to be entered"),
    rule("准备阶段 抽取天气卡"),
)
NO_NEEDS_DUE = Reason(
    "dont_starve.no_needs_due",
    Text("本回合的需求板块已经录入过了", "This round's needs tile is already entered"),
    rule("需求板块"),
)
NO_LOCATION_DUE = Reason(
    "dont_starve.no_location_due",
    Text("现在没有刚抽的地点卡要录入", "No location card was just drawn to be entered"),
    rule("探索"),
)
UNKNOWN_CARD = Reason(
    "dont_starve.unknown_card",
    Text(
        "你的盒子里没有这张卡:请按卡上印的内容录入",
        "Your box does not hold this card: enter what is printed on it instead",
    ),
    rule("配件列表"),
)
WRONG_SEASON = Reason(
    "dont_starve.wrong_season",
    Text(
        "这是{card}季节的天气卡,本局是{season}:只用当前季节的天气牌库,其他季节的放回盒中",
        "This is a {card} weather card and the game is in {season}: only the current season's"
        " weather deck is used, the other seasons' cards go back in the box",
    ),
    rule("季节与难度"),
)
WEATHER_DRAWN = Reason(
    "dont_starve.weather_drawn",
    Text(
        "这张天气卡本局已经抽过,在弃牌堆里,不在牌库中",
        "This weather card was drawn already this game: it is in the discards, not the deck",
    ),
    rule("准备阶段 抽取天气卡"),
)
BAD_ENTRY = Reason(
    "dont_starve.bad_entry",
    Text(
        "录入的数值不对:{what}须在{low}到{high}之间",
        "That entry cannot be: {what} must be from {low} to {high}",
    ),
    rule("符号参考"),
)
WORLD_TWICE = Reason(
    "dont_starve.world_twice",
    Text("每种世界事件只写一次", "Name each world event once"),
    rule("天气阶段 世界事件"),
)
NEEDS_WRONG_KIND = Reason(
    "dont_starve.needs_wrong_kind",
    Text(
        "季节设置卡在这个位置放{want}需求板块,这块是{kind}的",
        "The season setup card puts a {want} needs tile here; this one is {kind}",
    ),
    rule("季节与难度"),
)
NEEDS_TILE_USED = Reason(
    "dont_starve.needs_tile_used",
    Text(
        "{tile}号需求板块本局已经放在更早的回合了",
        "Needs tile {tile} lay in an earlier round of this game already",
    ),
    rule("季节与难度"),
)
UNKNOWN_TILE = Reason(
    "dont_starve.unknown_tile",
    Text(
        "你的盒子里没有{tile}号需求板块:请按板块上的数值录入",
        "Your box has no needs tile {tile}: enter the values printed on it instead",
    ),
    rule("需求板块"),
)
WRONG_DECK = Reason(
    "dont_starve.wrong_deck",
    Text(
        "这张是{deck}的地点卡,而{tile}是{biome}:从与板块生态域相同的牌库抽",
        "This is a {deck} location card and {tile} is {biome}: draw from the deck of the"
        " tile's biome",
    ),
    rule("探索"),
)
LOCATION_OUT = Reason(
    "dont_starve.location_out",
    Text(
        "这张地点卡已经不在牌库里:{where}",
        "This location card is not in the deck: {where}",
    ),
    rule("探索"),
)
BIOME_NEEDED = Reason(
    "dont_starve.biome_needed",
    Text(
        "{tile}翻开后是哪种生态域?请选出板块上印的生态域",
        "Which biome does {tile} show once turned over? Pick the one printed on it",
    ),
    rule("移动"),
)
