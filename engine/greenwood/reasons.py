"""Why Greenwood refuses a move: stable codes, both languages, the section of the rule text.

Messages are read by players at the console: every name in them is a ``Text`` from
``engine/greenwood/texts.py`` (a piece, a creature, a knowledge colour, a companion), never an id.
The rules that use them are in ``rules/actions.py``; the submarine's placement reasons in
``rules/placement.py``.
"""

from __future__ import annotations

from engine.core import Reason, Text

R = "greenwood.zh.md"


def _r(code: str, zh: str, en: str, rule: str) -> Reason:
    """A reason ``greenwood.<code>`` citing ``greenwood.zh.md <rule>``."""
    return Reason(f"greenwood.{code}", Text(zh, en), f"{R} {rule}")


MARKER_PLACED = _r(
    "marker_placed", "本轮黄昏标记已经放好", "The dusk marker is already placed this round", "§三.2"
)
MARKER_MUST_MOVE = _r(
    "marker_must_move",
    "黄昏标记必须移动到另一种效果(上一轮放弃的是{effect})",
    "The dusk marker must move to another effect (last round it blocked {effect})",
    "§三.2",
)
MARKER_FIRST = _r(
    "marker_first",
    "先放黄昏标记,再执行黄昏效果",
    "Place the dusk marker before any dusk effect",
    "§三.2",
)
MARKER_NOT_LAID = _r(
    "marker_not_laid",
    "先把黄昏标记放在四种黄昏效果之一上,才能结束黄昏(只有效果可以放弃)",
    "Lay your dusk marker on one of the four dusk effects before you finish dusk "
    "(only the effects may be given up)",
    "§三.2",
)
EFFECT_BLOCKED = _r(
    "effect_blocked",
    "本轮黄昏标记挡住了{effect}",
    "The dusk marker blocks {effect} this round",
    "§三.2",
)
EFFECT_DONE = _r(
    "effect_done", "本轮已经执行过{effect}", "{effect} was already done this dusk", "§三.2"
)
NO_SUCH_PLACE = _r(
    "no_such_place", "没有第{place}个伙伴位置", "There is no companion place {place}", "§一.6"
)
REPLACE_ONLY_WHEN_FULL = _r(
    "replace_only_when_full",
    "还有空的伙伴位置,不能替换已有伙伴",
    "A companion may be replaced only when every place is full",
    "§三.2",
)
AURORA_FULL = _r("aurora_full", "极光最多累积至5个", "Aurora is at most 5", "§三.2")
THREAT_HIDDEN = _r(
    "threat_hidden", "威胁{threat}还没有翻开", "Threat {threat} is not revealed yet", "§三.2"
)
ALREADY_PROTECTED = _r(
    "already_protected",
    "这张威胁卡上已经有你的保护标记",
    "You already protect against that threat",
    "§三.2",
)
NO_PROTECTION_LEFT = _r(
    "no_protection_left",
    "保护标记已用完:请指明从哪张威胁卡移过来",
    "Every protection token is placed: say which threat to move one from",
    "§三.2",
)
PROTECTION_LEFT = _r(
    "protection_left",
    "你还有保护标记:用完之后才能移动已放置的标记",
    "You still have a protection token: a placed one moves only when all are placed",
    "§三.2",
)
NOT_PROTECTED = _r(
    "not_protected",
    "威胁{threat}上没有你的保护标记",
    "You have no protection token on threat {threat}",
    "§三.2",
)
NO_AURORA_LEFT = _r(
    "no_aurora_left",
    "本阶段的极光次数已经用完(本阶段获得的极光不能立即使用)",
    "No aurora left this departure (aurora gained now cannot be used now)",
    "§三.3",
)
NO_HIKER = _r(
    "no_hiker",
    "{companion}身上没有徒步标记",
    "{companion} carries no hike token",
    "§三.3",
)
ONE_TOKEN = _r(
    "one_token_per_turn",
    "每个回合只能使用1个行动标记",
    "Only one token per turn: end your turn first",
    "§三.4",
)
NO_ENERGY = _r("no_energy", "没有可用的能量标记", "No energy token left", "§三.5")
NO_SPY = _r("no_spy", "没有可用的间谍标记", "No spy token left", "§三.6")
NO_COMPANION = _r(
    "no_companion", "伙伴位置{place}是空的", "Companion place {place} is empty", "§三.5"
)
COMPANION_BUSY = _r(
    "companion_busy",
    "{companion}已经被能量标记或徒步标记占用",
    "{companion} already carries an energy or hike token",
    "§三.5",
)
SPY_OWN = _r(
    "spy_own", "间谍只能模仿其他玩家的伙伴", "A spy copies another player's companion", "§三.6"
)
NO_VIRTUAL = _r(
    "no_virtual_opponent",
    "只有单人游戏才有虚拟对手",
    "Only a solo game has a virtual opponent",
    "§四.18",
)
SPY_NEEDS_ENERGY = _r(
    "spy_needs_energy",
    "该伙伴必须已经放置能量标记",
    "That companion must already carry an energy token",
    "§三.6",
)
ALREADY_SPIED = _r(
    "already_spied", "该伙伴上已经有间谍标记", "That companion already carries a spy token", "§三.6"
)
SPIRIT_SPIED_TWICE = _r(
    "spirit_spied_twice",
    "原初之灵本轮已经被2个间谍标记使用",
    "That spirit has been spied on twice this round",
    "§三.6",
)
SPIRIT_CANNOT_HIKE = _r(
    "spirit_cannot_hike",
    "原初之灵不能放置徒步标记",
    "The primal spirit cannot take a hike token",
    "§四.1",
)
TOKEN_FIRST = _r(
    "token_first",
    "先使用一个行动标记,再执行行动",
    "Use a token first: actions come from an energy, spy or hike token",
    "§三.4",
)
PLACE_FIRST = _r(
    "place_first",
    "先把{piece}放进潜艇,再继续",
    "First place the {piece} in your submarine",
    "§三.10",
)
TURN_WITHOUT_TOKEN = _r(
    "turn_without_token",
    "轮到你时必须使用1个行动标记,或点「{done}」结束本轮夜晚",
    "On your turn use one token, or end your night ({done})",
    "§三.4",
)
NOTHING_TO_PLACE = _r(
    "nothing_to_place",
    "现在没有要放入潜艇的板块",
    "There is no piece to place now: rescue a creature or take a wisp first",
    "§三.10",
)
NO_ROOM = _r(
    "no_room",
    "你的潜艇里放不下{piece}:每块板块都必须按摆放规则放进潜艇",
    "No cell of your submarine can take the {piece}: every piece must go in by the placement rules",
    "§四.8 §三.10",
)
WRONG_PIECE = _r(
    "wrong_piece",
    "现在要放的是{piece},不是{other}",
    "The piece to place is the {piece}, not {other}",
    "§三.10",
)
UNKNOWN_REWARD = _r("unknown_reward", "卡牌上没有这种奖励", "No card gives such a reward", "§五.2")
SCORE_BELOW_ZERO = _r(
    "score_below_zero",
    "分数不能低于0(现在{score}分)",
    "The score cannot go below 0 (it is {score})",
    "§四.8",
)
NO_FREE_SLOT = _r(
    "no_free_slot",
    "知识储存格已满:请先退回一个知识标记",
    "Every knowledge slot is full: name a token to return first",
    "§三.8",
)
NOT_HELD = _r("not_held", "你没有{knowledge}色知识", "You hold no {knowledge} knowledge", "§三.8")
LEARN_SAME = _r(
    "learn_same",
    "学到的和退回的是同一种知识({knowledge}):什么也不会改变",
    "It returns the very knowledge it learns ({knowledge}): nothing would change",
    "§三.8",
)
SWAP_SAME = _r(
    "swap_same",
    "要换成另一种知识,不能换成同一种({knowledge})",
    "Swap it for another kind of knowledge, not the same ({knowledge})",
    "§三.11",
)
UNKNOWN_CREATURE = _r(
    "unknown_creature", "没有这种囚禁生物", "There is no such captive creature", "§三.9"
)
MISSING_KNOWLEDGE = _r(
    "missing_knowledge",
    "解救{creature}需要知识:{cost};你有:{held}",
    "Rescuing the {creature} takes {cost} knowledge; you hold {held}",
    "§三.9",
)
NO_SWAP = _r(
    "no_swap",
    "只有在鬼火行动放置鬼火之后才能替换1个知识",
    "A knowledge swap comes only after placing the wisp of a wisp action",
    "§三.11",
)

FOREST_ACTION_DONE = _r(
    "forest_action_done",
    "这次徒步已经执行了{action}:每次徒步只能执行1个森林行动",
    "This hike has done its forest action ({action}): a hike allows one forest action",
    "§三.7 §三.9",
)
LEARNED_TWICE = _r(
    "learned_twice",
    "学习行动最多学习2次",
    "A learning action learns at most twice",
    "§三.8",
)

NO_SPIRIT_TOKEN = _r(
    "no_spirit_token",
    "原初之灵的能力要在本回合把能量或间谍标记放在原初之灵上之后使用,且只能选一个",
    "A spirit ability follows an energy or spy token put on a primal spirit this turn, once",
    "§四.1",
)

THREAT_DUE = _r(
    "threat_due",
    "先录入翻开的威胁卡牌(按卡名选,或按卡上的内容录入)",
    "First give the threat card turned face up (pick it by its name, or enter what it shows)",
    "§一.3",
)
NO_THREAT_DUE = _r(
    "no_threat_due", "现在没有要翻开的威胁卡牌", "No threat card is to be turned up now", "§一.3"
)
NO_SUCH_THREAT = _r(
    "no_such_threat",
    "盒子里没有这张威胁卡牌",
    "Your box holds no threat card of that name",
    "§一.3",
)
THREAT_IN_PLAY = _r(
    "threat_in_play",
    "{threat}已经在主板上了",
    "The main board already holds {threat}",
    "§一.3",
)
UNKNOWN_TRIGGER = _r(
    "unknown_trigger",
    "威胁卡牌没有这种触发条件",
    "No threat card is set off by that",
    "§四.5",
)
BAD_PROTECTION = _r(
    "bad_protection",
    "威胁卡牌的保护奖励是一种奖励,数量1到{high}",
    "A threat card's protection reward is one reward, 1 to {high} of it",
    "§四.5",
)
START_PLAYER_DUE = _r(
    "start_player_due",
    "先选起始玩家(最近一次见过琥珀灵的玩家;无法确定时随机选)",
    "First choose the start player (who saw an amber spirit last; else at random)",
    "§一.10",
)
NO_START_DUE = _r(
    "no_start_due",
    "起始玩家已经确定",
    "The start player is already chosen",
    "§一.10",
)
NO_SUCH_PLAYER = _r(
    "no_such_player",
    "没有{player}号玩家:这桌有{players}人",
    "There is no player {player}: this table has {players} players",
    "§一.10",
)
