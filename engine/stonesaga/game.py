"""Stonesaga (石纪元): character creation, the day, the nine-step night, the behemoth, the save.

The flow (``stonesaga.zh.md §一局游戏长什么样``): creation → day (free order) → night steps
1–9, each a phase of its own so that its effect happens when the table reaches it → behemoth
(when one is alert) → day … until ``end_challenge``, then the save.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from engine.core import (
    ACCEPTED,
    END,
    DicePoolAnnounced,
    Event,
    Game,
    GameConfigError,
    Move,
    Offer,
    Options,
    Outcome,
    Phase,
    Reason,
    Rng,
    Seat,
    State,
    Step,
    Text,
    TurnOrder,
    Verdict,
)
from engine.stonesaga import campaign as camp
from engine.stonesaga import model as m
from engine.stonesaga import moves as mv
from engine.stonesaga.catalogue import (
    ATTRIBUTES,
    DELVE_FEATURES,
    FEATURES,
    FORAGE_FEATURES,
    MALADIES,
    MINING_FEATURES,
    OMENS,
    RULES,
    SHELTER_FEATURE,
    STONES,
    TRAITS,
    WATER_FEATURES,
    bag,
    campaign,
    challenge,
    mining,
    resource_data,
    rule,
    table_entry,
    valley,
)
from engine.stonesaga.offers import offers as seat_offers
from engine.stonesaga.picture import picture as valley_picture
from engine.stonesaga.texts import (
    EVENT_TEXTS,
    OUTCOME_TEXTS,
    RESULTS,
    attribute_line,
    behemoth_name,
    character_name,
    character_number,
    counted,
    event_line,
    item_name,
    listed,
    malady_name,
    name_in,
    option_texts,
    resource_name,
    tile_name,
)

Events = tuple[Event, ...]
Data = m.Saga


@dataclass(frozen=True)
class Hero:
    """A living character of the campaign log, available to be chosen (§开局设置.1)."""

    name: str
    trait: str
    strength: int
    dexterity: int
    faith: int
    perception: int
    age: str = "young"


@dataclass(frozen=True)
class StonesagaOptions(Options):
    """Setup of a session: players, challenge, epoch, society tracks, the log's characters,
    and the behemoths whose lairs are active (§开局设置)."""

    players: int = 1
    challenge: str = "GI01"
    epoch: int = 1
    population: int | None = None
    unrest: int | None = None
    roster: tuple[Hero, ...] = ()
    behemoths: tuple[str, ...] = ()


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
BUSY = _reason(
    "busy",
    "{name}正在{what},先完成它",
    "{name} is in the middle of {what}; finish it first",
    "白天阶段",
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
    "test_in_progress", "先把正在进行的判定掷完", "Finish the test in progress first", "判定"
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


# --- small helpers --------------------------------------------------------------------------


def _who(state: State[Data], seat: Seat, index: int) -> Verdict:
    """The move's character exists, is this seat's, and is alive."""
    chars = state.data.characters
    if not 0 <= index < len(chars):
        return NO_SUCH_CHARACTER.reject(n=index + 1)
    char = chars[index]
    if char.seat != seat:
        return NOT_YOURS.reject(name=character_name(char.name), owner=char.seat + 1)
    if not char.alive:
        return DEAD.reject(name=character_name(char.name))
    return ACCEPTED


def _energy(char: m.Character, cost: int) -> Verdict:
    if char.energy < cost:
        return NO_ENERGY.reject(cost=cost, energy=char.energy, name=character_name(char.name))
    return ACCEPTED


def _feature(
    state: State[Data], char: m.Character, feature: str, allowed: tuple[str, ...]
) -> Verdict:
    here = valley()[1][char.tile].features
    if feature not in allowed or feature not in here:
        names = "/".join(FEATURES[f].zh for f in allowed)
        names_en = "/".join(FEATURES[f].en for f in allowed)
        return NO_FEATURE.reject(needed=Text(names, names_en))
    return ACCEPTED


def _first_failure(*checks: Callable[[], Verdict]) -> Verdict:
    for check in checks:
        verdict = check()
        if not verdict.ok:
            return verdict
    return ACCEPTED


def _cap(data: Data) -> int:
    return m.energy_cap(data.party)


def _length(data: Data) -> int:
    return m.health_length(data.party)


def _spend(data: Data, index: int, cost: int, reason: str) -> tuple[Data, Events]:
    char = data.characters[index]
    if cost == 0:
        return data, ()
    char = replace(char, energy=char.energy - cost)
    return data.with_character(index, char), (_energy_event(index, char, -cost, reason),)


def _energy_event(index: int, char: m.Character, delta: int, reason: str) -> mv.EnergyChanged:
    return mv.EnergyChanged(index, char.energy, delta, reason)


def _lose(data: Data, index: int, amount: int, reason: str) -> tuple[Data, Events]:
    """§精力: lose energy; each missing point is a light injury."""
    before = data.characters[index]
    char, missing = m.lose_energy(before, amount)
    data = data.with_character(index, char)
    events: list[Event] = [_energy_event(index, char, char.energy - before.energy, reason)]
    for _ in range(missing):
        data, more = _malady(data, index, "injury", heavy=False)
        events.extend(more)
    return data, tuple(events)


def _gain_energy(data: Data, index: int, amount: int, reason: str) -> tuple[Data, Events]:
    before = data.characters[index]
    char = replace(before, energy=min(before.energy + amount, _cap(data)))
    return data.with_character(index, char), (
        _energy_event(index, char, char.energy - before.energy, reason),
    )


def _malady(data: Data, index: int, kind: str, heavy: bool) -> tuple[Data, Events]:
    char = data.characters[index]
    health, what = m.gain_malady(char.health, _length(data), kind, heavy)
    return _health(data, index, health, what)


def _health(data: Data, index: int, health: m.Health, what: str) -> tuple[Data, Events]:
    char = replace(data.characters[index], health=health)
    full = m.incapacitated(health, _length(data))
    event = mv.HealthChanged(index, tuple(t.label() for t in health), what, full)
    return data.with_character(index, char), (event,)


def _pack(data: Data, index: int, name: str, amount: int) -> tuple[Data, Events]:
    char = data.characters[index]
    char = replace(char, pack=m.add(char.pack, name, amount))
    return data.with_character(index, char), (
        mv.ResourcesChanged(index, m.resource_name(name), amount),
    )


def _deplete(data: Data, tile: str) -> tuple[Data, Events]:
    """An action that depletes its tile puts a depletion marker, arrow side up (§地点标记)."""
    return data.with_tile(tile, depletion=2), (mv.TileMarked(tile, "depletion", 2),)


def _tile(data: Data, tile: str) -> Text:
    """A tile as a message names it: 地块102, or where an unexplored one lies."""
    return tile_name(tile, dict(data.tiles).get(tile, m.TileState()).explored)


def _held(pack: m.Resources, names: tuple[str, ...]) -> str | None:
    """The first resource of ``names`` the pack does not hold enough of, else None."""
    wanted: dict[str, int] = {}
    for name in names:
        wanted[m.resource_name(name)] = wanted.get(m.resource_name(name), 0) + 1
    return next((n for n, k in wanted.items() if m.count(pack, n) < k), None)


def _busy(state: State[Data], seat: Seat) -> Verdict:
    """A mining action or a test of this seat is still open, or its turn had its action."""
    data = state.data
    if data.test is not None:
        return TEST_IN_PROGRESS.reject()
    mine = data.mining
    if mine is not None and mine.seat == seat and state.flow.current == seat:
        name = character_name(data.characters[mine.character].name)
        return BUSY.reject(name=name, what=Text("采矿", "mining"))
    if data.acted and state.flow.current == seat:
        return ONE_ACTION.reject()
    return ACCEPTED


# --- the moves' checks and effects, by type --------------------------------------------------

Check = Callable[[State[Data], Any], Verdict]
Apply = Callable[[State[Data], Any], tuple[Data, Events]]


def _check_travel(state: State[Data], move: mv.Travel) -> Verdict:
    data = state.data
    char = data.characters[move.character]
    here = valley()[1][char.tile]
    if move.to not in here.neighbours:
        return NOT_ADJACENT.reject(to=_tile(data, move.to), tile=_tile(data, char.tile))
    if move.to in here.impassable or char.tile in valley()[1][move.to].impassable:
        return IMPASSABLE.reject(tile=_tile(data, char.tile), to=_tile(data, move.to))
    return ACCEPTED


def _travel(state: State[Data], move: mv.Travel) -> tuple[Data, Events]:
    data = state.data
    char = data.characters[move.character]
    tiles = valley()[1]
    blocked = move.to in tiles[char.tile].blocked or char.tile in tiles[move.to].blocked
    hard = not move.resolved and blocked
    revealed = not data.tile(move.to).explored
    if revealed:
        data = data.with_tile(move.to, explored=True)
    data = data.with_character(move.character, replace(char, tile=move.to))
    events: list[Event] = [mv.Travelled(move.character, move.to, revealed, hard)]
    if hard:
        data, more = _lose(data, move.character, 1, "hard_travel")
        events.extend(more)
    return data, tuple(events)


def _check_exchange(state: State[Data], move: mv.Exchange) -> Verdict:
    data = state.data
    char = data.characters[move.character]
    if not 0 <= move.partner < data.party or move.partner == move.character:
        return NO_SUCH_CHARACTER.reject(n=move.partner + 1)
    partner = data.characters[move.partner]
    if not partner.alive or partner.tile != char.tile:
        return NOT_SAME_TILE.reject(other=character_name(partner.name))
    cost = 0 if data.tile(char.tile).outpost else 1
    for pack, given in ((char.pack, move.give), (partner.pack, move.receive)):
        wanted: dict[str, int] = {}
        for name, amount in given:
            if not m.known_resource(name):
                return UNKNOWN_RESOURCE.reject(what=resource_name(name))
            if amount < 1:
                return NOT_HELD.reject(what=resource_name(name))
            wanted[m.resource_name(name)] = wanted.get(m.resource_name(name), 0) + amount
        for name, amount in wanted.items():
            if m.count(pack, name) < amount:
                return NOT_HELD.reject(what=resource_name(name))
    return _energy(char, cost)


def _exchange(state: State[Data], move: mv.Exchange) -> tuple[Data, Events]:
    data = state.data
    cost = 0 if data.tile(data.characters[move.character].tile).outpost else 1
    data, events = _spend(data, move.character, cost, "exchange")
    out = list(events)
    for src, dst, given in (
        (move.character, move.partner, move.give),
        (move.partner, move.character, move.receive),
    ):
        for name, amount in given:
            data, a = _pack(data, src, name, -amount)
            data, b = _pack(data, dst, name, amount)
            out += [*a, *b]
    return data, tuple(out)


def _check_pack(state: State[Data], move: mv.Pack) -> Verdict:
    return _energy(state.data.characters[move.character], 1)


def _pack_items(state: State[Data], move: mv.Pack) -> tuple[Data, Events]:
    return _spend(state.data, move.character, 1, "pack")


def _check_aid(state: State[Data], move: mv.Aid) -> Verdict:
    data = state.data
    char = data.characters[move.character]
    if not 0 <= move.target < data.party:
        return NO_SUCH_CHARACTER.reject(n=move.target + 1)
    target = data.characters[move.target]
    if not target.alive or target.tile != char.tile:
        return NOT_SAME_TILE.reject(other=character_name(target.name))
    if not m.incapacitated(target.health, _length(data)):
        return NOT_INCAPACITATED.reject(name=character_name(target.name))
    if not 0 <= move.cell < len(target.health):
        return NO_SUCH_MALADY.reject(cell=move.cell + 1)
    return _energy(char, 1)


def _aid(state: State[Data], move: mv.Aid) -> tuple[Data, Events]:
    data, events = _spend(state.data, move.character, 1, "aid")
    target = data.characters[move.target]
    data, more = _health(data, move.target, m.degrade_malady(target.health, move.cell), "degraded")
    return data, events + more


def _check_process(state: State[Data], move: mv.Process) -> Verdict:
    problem = m.processing_problem(move.resources, move.tools)
    if problem is not None:
        return PROCESS[problem].reject()
    char = state.data.characters[move.character]
    raw = tuple(f"{r.partition(':')[0]}:raw" for r in move.resources)
    missing = _held(char.pack, raw)
    if missing is not None:
        return NOT_HELD.reject(what=resource_name(missing))
    return _energy(char, 1 + len(move.resources))


def _process(state: State[Data], move: mv.Process) -> tuple[Data, Events]:
    data, events = _spend(state.data, move.character, 1 + len(move.resources), "process")
    out = list(events)
    for name in move.resources:
        base = name.partition(":")[0]
        data, a = _pack(data, move.character, f"{base}:raw", -1)
        data, b = _pack(data, move.character, f"{base}:processed", 1)
        out += [*a, *b]
    return data, tuple(out)


def _check_craft(state: State[Data], move: mv.Craft) -> Verdict:
    char = state.data.characters[move.character]
    materials = resource_data()["materials"]
    if len(move.materials) != 2 or any(
        s.partition(":")[0] not in materials for s in move.materials
    ):
        return CRAFT_PAIR.reject()
    if _held(char.pack, move.materials) is not None:
        return CRAFT_PAIR.reject()
    return _energy(char, 1)


def _craft(state: State[Data], move: mv.Craft) -> tuple[Data, Events]:
    data, events = _spend(state.data, move.character, 1, "craft")
    out = list(events)
    if move.item:
        for name in move.materials:
            data, more = _pack(data, move.character, name, -1)
            out += more
        char = data.characters[move.character]
        data = data.with_character(move.character, replace(char, items=(*char.items, move.item)))
    return data, tuple(out)


OUTPOST_ENERGY = 4
"""§建前哨: 4 energy, shared freely among the characters on the tile."""


def _check_outpost(state: State[Data], move: mv.BuildOutpost) -> Verdict:
    data = state.data
    char = data.characters[move.character]
    if data.tile(char.tile).outpost:
        return OUTPOST_EXISTS.reject()
    built = sum(1 for _, t in data.tiles if t.outpost)
    limit = camp.outpost_limit(data.population)
    if built >= limit:
        return OUTPOST_LIMIT.reject(population=data.population, limit=limit)
    return _check_shares(state, move, OUTPOST_ENERGY)


def _outpost(state: State[Data], move: mv.BuildOutpost) -> tuple[Data, Events]:
    data, events = _pay_shares(state.data, move, OUTPOST_ENERGY, "build_outpost")
    tile = data.characters[move.character].tile
    data = data.with_tile(tile, outpost=True)
    return data, (*events, mv.TileMarked(tile, "outpost", 1))


def _check_water(state: State[Data], move: mv.CollectWater) -> Verdict:
    char = state.data.characters[move.character]
    return _first_failure(
        lambda: _feature(state, char, move.feature, WATER_FEATURES), lambda: _energy(char, 1)
    )


WATER_COLLECTED = 2
"""§取水: 2 water, and the tile does not deplete."""


def _water(state: State[Data], move: mv.CollectWater) -> tuple[Data, Events]:
    data, events = _spend(state.data, move.character, 1, "collect_water")
    data, more = _pack(data, move.character, "water", WATER_COLLECTED)
    return data, events + more


def _check_shelter(state: State[Data], move: mv.PrepareShelter) -> Verdict:
    char = state.data.characters[move.character]
    if state.data.tile(char.tile).shelter >= 2:
        return SHELTER_FULL.reject()
    return _first_failure(
        lambda: _feature(state, char, SHELTER_FEATURE, (SHELTER_FEATURE,)),
        lambda: _energy(char, 1),
    )


def _shelter(state: State[Data], move: mv.PrepareShelter) -> tuple[Data, Events]:
    data, events = _spend(state.data, move.character, 1, "prepare_shelter")
    tile = data.characters[move.character].tile
    size = data.tile(tile).shelter + 1
    return data.with_tile(tile, shelter=size), (*events, mv.TileMarked(tile, "shelter", size))


FISHING_DICE = 4
"""§钓鱼.3: four dice."""


def _check_fish(state: State[Data], move: mv.Fish) -> Verdict:
    char = state.data.characters[move.character]
    return _first_failure(
        lambda: _feature(state, char, move.feature, WATER_FEATURES), lambda: _energy(char, 2)
    )


def _fish(state: State[Data], move: mv.Fish) -> tuple[Data, Events]:
    data, events = _spend(state.data, move.character, 2, "fish")
    data, more = _deplete(data, data.characters[move.character].tile)
    dice = DicePoolAnnounced(move.seat, ("d6",) * FISHING_DICE, "fishing")
    return replace(data, fishing=(move.seat, move.character)), (*events, *more, dice)


def _check_fishing_roll(state: State[Data], move: mv.FishingRoll) -> Verdict:
    fishing = state.data.fishing
    if fishing is None or fishing[0] != move.seat:
        return NO_FISHING.reject()
    if not all(1 <= d <= 6 for d in (move.d1, move.d2, move.d3, move.d4)):
        return BAD_DIE.reject()
    return ACCEPTED


def _fishing_roll(state: State[Data], move: mv.FishingRoll) -> tuple[Data, Events]:
    """§钓鱼.3: the dice are recorded and the trays clear; the catch follows as effects."""
    fishing = state.data.fishing
    assert fishing is not None
    dice = (move.d1, move.d2, move.d3, move.d4)
    rolled = mv.FishingRolled(fishing[1], dice)
    return replace(state.data, fishing=None), (rolled, DicePoolAnnounced(move.seat, (), ""))


def _check_forage(state: State[Data], move: mv.Forage) -> Verdict:
    char = state.data.characters[move.character]
    return _first_failure(
        lambda: _feature(state, char, move.feature, FORAGE_FEATURES), lambda: _energy(char, 2)
    )


def _forage(state: State[Data], move: mv.Forage) -> tuple[Data, Events]:
    data, events = _spend(state.data, move.character, 2, "forage")
    data, more = _deplete(data, data.characters[move.character].tile)
    return data, events + more


def _check_mine(state: State[Data], move: mv.Mine) -> Verdict:
    char = state.data.characters[move.character]
    return _first_failure(
        lambda: _feature(state, char, move.feature, MINING_FEATURES),
        lambda: _energy(char, mining()["energy"]),
    )


def _mine(state: State[Data], move: mv.Mine) -> tuple[Data, Events]:
    data, events = _spend(state.data, move.character, mining()["energy"], "mine")
    data, more = _deplete(data, data.characters[move.character].tile)
    contents = tuple(sorted(bag(move.feature).items()))
    data = replace(data, mining=m.Mining(move.seat, move.character, move.feature, contents))
    return data, (*events, *more, mv.MiningBagFilled(move.character, move.feature, contents))


def _bag_text(contents: tuple[tuple[str, int], ...]) -> Text:
    return counted(contents, Text("空", "empty"))


def _check_draw(state: State[Data], move: mv.DrawOre) -> Verdict:
    mine = state.data.mining
    if mine is None or mine.seat != move.seat or state.flow.current != move.seat:
        return NOT_MINING.reject()
    if move.stone not in STONES:
        return UNKNOWN_NAME.reject(what=Text("石头", "stone"), name=name_in(STONES, move.stone))
    if move.omen not in OMENS:
        return UNKNOWN_NAME.reject(what=Text("预兆", "omen"), name=name_in(OMENS, move.omen))
    if len(mine.drawn) >= mining()["max_draws"]:
        return DRAW_LIMIT.reject()
    if (move.stone, move.omen) in mine.drawn:
        return TOKEN_DRAWN.reject(stone=STONES[move.stone], omen=OMENS[move.omen])
    left = dict(mine.bag).get(move.stone, 0) - sum(1 for s, _ in mine.drawn if s == move.stone)
    if left <= 0:
        return NOT_IN_BAG.reject(stone=STONES[move.stone], bag=_bag_text(mine.bag))
    return ACCEPTED


def _draw(state: State[Data], move: mv.DrawOre) -> tuple[Data, Events]:
    data = state.data
    mine = data.mining
    assert mine is not None
    data = replace(data, mining=replace(mine, drawn=(*mine.drawn, (move.stone, move.omen))))
    data, events = _pack(data, mine.character, move.stone, 1)
    matched = move.omen in data.omens
    entry = table_entry(mine.feature, move.omen) if matched else None
    drawn = mv.OreDrawn(
        mine.character,
        move.stone,
        move.omen,
        matched,
        entry.zh if entry else "",
        entry.en if entry else "",
    )
    return data, (*events, drawn)


def _check_finish(state: State[Data], move: mv.FinishMining) -> Verdict:
    mine = state.data.mining
    if mine is None or mine.seat != move.seat or state.flow.current != move.seat:
        return NOT_MINING.reject()
    return ACCEPTED


def _finish(state: State[Data], move: mv.FinishMining) -> tuple[Data, Events]:
    mine = state.data.mining
    assert mine is not None
    return replace(state.data, mining=None), (mv.OreReturned(len(mine.drawn)),)


def _check_call_test(state: State[Data], move: mv.CallTest) -> Verdict:
    if state.data.test is not None:
        return TEST_IN_PROGRESS.reject()
    if move.attribute not in ATTRIBUTES:
        return UNKNOWN_NAME.reject(
            what=Text("属性", "attribute"), name=name_in(ATTRIBUTES, move.attribute)
        )
    return ACCEPTED


def _call_test(state: State[Data], move: mv.CallTest) -> tuple[Data, Events]:
    test = m.PendingTest(move.seat, move.character, move.attribute, move.modifier, move.versus)
    why = "test" if move.versus is None else "contest"
    return replace(state.data, test=test), (DicePoolAnnounced(move.seat, ("d6",), why),)


def _check_roll(state: State[Data], move: mv.Roll) -> Verdict:
    test = state.data.test
    if test is None or test.seat != move.seat:
        return NO_TEST.reject()
    if not 1 <= move.value <= 6:
        return BAD_DIE.reject()
    return ACCEPTED


def _roll(state: State[Data], move: mv.Roll) -> tuple[Data, Events]:
    data = state.data
    test = data.test
    assert test is not None
    raw = (*test.raw, move.value)
    dice = (*test.dice, m.change_die(move.value, move.change))
    if move.value == 6 and test.versus is None:
        data = replace(data, test=replace(test, raw=raw, dice=dice))
        return data, (DicePoolAnnounced(move.seat, ("d6",), "heroic_effort"),)
    return _resolve_test(replace(data, test=None), replace(test, raw=raw, dice=dice))


def _resolve_test(data: Data, test: m.PendingTest) -> tuple[Data, Events]:
    """§判定.3–6: dice + attribute (+ boost) + modifiers; the boost degrades after use."""
    char = data.characters[test.character]
    boost = char.boost(test.attribute)
    total = sum(test.dice) + char.attribute(test.attribute) + boost + test.modifier
    success = None if test.versus is None else total >= test.versus
    if test.purpose == "fire":
        success = total >= FIRE_TARGET
    events: list[Event] = [
        mv.TestResolved(test.character, test.attribute, test.dice, total, success)
    ]
    if test.purpose == "fire":
        tile = char.tile
        if success:
            data = data.with_tile(tile, fire=2)
            events.append(mv.TileMarked(tile, "fire", 2))
        else:
            data, more = _pack(data, test.character, "wood", 1)
            events += more
    char = data.characters[test.character]
    if boost:
        level = m.degrade_boost(boost)
        data = data.with_character(test.character, char.with_boost(test.attribute, level))
        events.append(mv.BoostChanged(test.character, test.attribute, level))
    events.append(DicePoolAnnounced(test.seat, (), ""))
    return data, tuple(events)


EFFECT_KINDS = (
    "lose_energy",
    "gain_energy",
    "injury",
    "illness",
    "degrade",
    "boost",
    "gain",
    "lose",
)


def _check_effect(state: State[Data], move: mv.Effect) -> Verdict:
    char = state.data.characters[move.character]
    kind, detail, amount = move.kind, move.detail, move.amount
    problem = None
    if kind not in EFFECT_KINDS:
        problem = Text(f"没有“{kind}”这种效果", f"unknown effect {kind!r}")
    elif kind in ("lose_energy", "gain_energy", "gain", "lose") and amount < 1:
        problem = Text("数量至少为1", "the amount is at least 1")
    elif kind in MALADIES and detail not in ("light", "heavy"):
        problem = Text("疾苦要写轻或重", "a malady is light or heavy")
    elif kind == "degrade" and not 0 <= amount < len(char.health):
        return NO_SUCH_MALADY.reject(cell=amount + 1)
    elif kind == "boost" and (detail not in ATTRIBUTES or amount not in (1, 2)):
        problem = Text("增益要写属性和1或2", "a boost names an attribute and 1 or 2")
    elif kind in ("gain", "lose") and not m.known_resource(detail):
        return UNKNOWN_RESOURCE.reject(what=resource_name(detail))
    elif kind == "lose" and m.count(char.pack, detail) < amount:
        return NOT_HELD.reject(what=resource_name(detail))
    return UNKNOWN_EFFECT.reject(why=problem) if problem else ACCEPTED


def _effect(state: State[Data], move: mv.Effect) -> tuple[Data, Events]:
    data, i, kind = state.data, move.character, move.kind
    if kind == "lose_energy":
        return _lose(data, i, move.amount, "effect")
    if kind == "gain_energy":
        return _gain_energy(data, i, move.amount, "effect")
    if kind in MALADIES:
        return _malady(data, i, kind, heavy=move.detail == "heavy")
    if kind == "degrade":
        return _health(
            data, i, m.degrade_malady(data.characters[i].health, move.amount), "degraded"
        )
    if kind == "boost":
        char = data.characters[i]
        level = m.gain_boost(char.boost(move.detail), move.amount)
        data = data.with_character(i, char.with_boost(move.detail, level))
        return data, (mv.BoostChanged(i, move.detail, level),)
    return _pack(data, i, move.detail, move.amount if kind == "gain" else -move.amount)


def _check_end(state: State[Data], move: mv.EndChallenge) -> Verdict:
    return ACCEPTED if move.result in ("won", "lost") else BAD_RESULT.reject()


def _end(state: State[Data], move: mv.EndChallenge) -> tuple[Data, Events]:
    return replace(state.data, result=move.result), (mv.ChallengeEnded(move.result),)


def _check_card(state: State[Data], move: mv.NightCard) -> Verdict:
    char = state.data.characters[move.character]
    if char.night_card:
        return CARD_DONE.reject(name=character_name(char.name))
    if move.omen not in OMENS:
        return UNKNOWN_NAME.reject(what=Text("预兆", "omen"), name=name_in(OMENS, move.omen))
    full = char.energy >= _cap(state.data)
    if not move.met and full and move.boost not in ATTRIBUTES:
        return BOOST_NEEDED.reject()
    return ACCEPTED


def _card(state: State[Data], move: mv.NightCard) -> tuple[Data, Events]:
    """§夜晚阶段.7: a calm night when the condition fails; the omen of the last card counts."""
    data = state.data
    char = replace(data.characters[move.character], night_card=True)
    data = data.with_character(move.character, char)
    events: list[Event] = []
    if not move.met:
        if char.energy >= _cap(data):
            level = m.gain_boost(char.boost(move.boost), 1)
            data = data.with_character(move.character, char.with_boost(move.boost, level))
            events.append(mv.BoostChanged(move.character, move.boost, level))
        else:
            data, more = _gain_energy(data, move.character, 1, "calm_night")
            events += more
    data = replace(data, omens=(move.omen,))
    return data, (*events, mv.OmenSet(move.omen))


def _check_keep(state: State[Data], move: mv.Keep) -> Verdict:
    char = state.data.characters[move.character]
    if camp.keep_problem(move.items, move.materials) is not None:
        return KEEP.reject()
    missing = [i for i in move.items if move.items.count(i) > char.items.count(i)]
    if missing:
        return NOT_HELD.reject(what=item_name(missing[0]))
    held = {k.partition(":")[0]: 0 for k, _ in char.pack}
    for key, amount in char.pack:
        held[key.partition(":")[0]] += amount
    materials = resource_data()["materials"]
    for name in move.materials:
        base = name.partition(":")[0]
        if base not in materials or move.materials.count(name) > held.get(base, 0):
            return NOT_HELD.reject(what=resource_name(name))
    return ACCEPTED


def _keep(state: State[Data], move: mv.Keep) -> tuple[Data, Events]:
    kept = tuple(k for k in state.data.kept if k[0] != move.character)
    kept = (*kept, (move.character, move.items, move.materials))
    return replace(state.data, kept=kept), (mv.Kept(move.character, move.items, move.materials),)


def _check_record(state: State[Data], move: mv.RecordValley) -> Verdict:
    capacity = camp.valley_capacity(state.data.epoch)
    if move.record.trays > capacity:
        return VALLEY_FULL.reject(
            epoch=state.data.epoch, capacity=capacity, trays=move.record.trays
        )
    return ACCEPTED


def _record(state: State[Data], move: mv.RecordValley) -> tuple[Data, Events]:
    r = move.record
    event = mv.ValleyRecorded(r.region, r.trays, len(r.tiles), len(r.overlays))
    return replace(state.data, valley_record=r), (event,)


def _check_create(state: State[Data], move: mv.CreateCharacter) -> Verdict:
    if _party_full(state, move.seat):
        return PARTY_FULL.reject()
    if move.trait not in TRAITS:
        return UNKNOWN_NAME.reject(what=Text("特质", "trait"), name=name_in(TRAITS, move.trait))
    if _name_taken(state, move.name):
        return NAME_TAKEN.reject(name=character_name(move.name))
    values = (move.strength, move.dexterity, move.faith, move.perception)
    problem = m.creation_problem(move.rolls, values)
    return CREATION[problem].reject() if problem else ACCEPTED


def _check_creation_roll(state: State[Data], move: mv.CreationRoll) -> Verdict:
    dice = (move.d1, move.d2, move.d3, move.d4, move.d5)
    if not all(1 <= d <= 6 for d in dice):
        return CREATION["dice"].reject()
    rolls = state.data.rolls(move.seat)
    if rolls and sum(rolls[-1]) >= m.CREATION_MINIMUM:
        return CREATION["rerolled_too_soon"].reject()
    return ACCEPTED


def _creation_roll(state: State[Data], move: mv.CreationRoll) -> tuple[Data, Events]:
    data = state.data
    dice = (move.d1, move.d2, move.d3, move.d4, move.d5)
    rolls = dict(data.creation_rolls)
    rolls[move.seat] = (*data.rolls(move.seat), dice)
    return replace(data, creation_rolls=tuple(sorted(rolls.items()))), ()


def _party_full(state: State[Data], seat: Seat) -> bool:
    """§开局设置.1–2: one more character for this seat would leave a player without one, or
    make a fifth."""
    having = [c.seat for c in state.data.characters]
    return m.party_full(having, state.players, state.data.party, seat)


def _name_taken(state: State[Data], name: str) -> bool:
    names = {c.name for c in state.data.characters} | {h.name for h in state.options.roster}
    return name in names


def _join(state: State[Data], char: m.Character) -> tuple[Data, Events]:
    data = replace(state.data, characters=(*state.data.characters, char))
    event = mv.CharacterJoined(data.party - 1, char.seat, char.name, char.attributes)
    return data, (event,)


def _create(state: State[Data], move: mv.CreateCharacter) -> tuple[Data, Events]:
    values = (move.strength, move.dexterity, move.faith, move.perception)
    attributes = tuple(zip(ATTRIBUTES, values, strict=True))
    data, events = _join(state, m.Character(move.name, move.seat, move.trait, attributes))
    rolls = tuple((s, r) for s, r in data.creation_rolls if s != move.seat)
    return replace(data, creation_rolls=rolls), events


def _check_choose(state: State[Data], move: mv.ChooseCharacter) -> Verdict:
    hero = next((h for h in state.options.roster if h.name == move.name), None)
    if hero is None or hero.age not in ("young", "old"):
        return NOT_IN_ROSTER.reject(name=character_name(move.name))
    if _party_full(state, move.seat):
        return PARTY_FULL.reject()
    if any(c.name == move.name for c in state.data.characters):
        return NAME_TAKEN.reject(name=character_name(move.name))
    return ACCEPTED


def _choose(state: State[Data], move: mv.ChooseCharacter) -> tuple[Data, Events]:
    hero = next(h for h in state.options.roster if h.name == move.name)
    values = (hero.strength, hero.dexterity, hero.faith, hero.perception)
    attributes = tuple(zip(ATTRIBUTES, values, strict=True))
    return _join(state, m.Character(hero.name, move.seat, hero.trait, attributes, hero.age))


def _check_shares(state: State[Data], move: Any, total: int) -> Verdict:
    """§建前哨.1: ``total`` energy shared freely by living characters on the builder's tile."""
    data = state.data
    char = data.characters[move.character]
    payers = dict(move.shares)
    own = total - sum(payers.values())
    if len(payers) != len(move.shares) or own < 0 or move.character in payers:
        return OUTPOST_SHARES.reject()
    for index, share in payers.items():
        if not 0 <= index < data.party or share < 0:
            return OUTPOST_SHARES.reject()
        other = data.characters[index]
        if not other.alive or other.tile != char.tile:
            return NOT_SAME_TILE.reject(other=character_name(other.name))
        verdict = _energy(other, share)
        if not verdict.ok:
            return verdict
    return _energy(char, own)


def _pay_shares(data: Data, move: Any, total: int, reason: str) -> tuple[Data, Events]:
    payers = {move.character: total - sum(s for _, s in move.shares), **dict(move.shares)}
    out: list[Event] = []
    for index, share in payers.items():
        data, events = _spend(data, index, share, reason)
        out += events
    return data, tuple(out)


MAX_BUILDINGS = 5
"""§建建筑: 每个前哨最多 5 座建筑."""


def _check_build(state: State[Data], move: mv.Build) -> Verdict:
    tile = state.data.tile(state.data.characters[move.character].tile)
    if not tile.outpost:
        return NO_OUTPOST.reject()
    if len(tile.buildings) >= MAX_BUILDINGS:
        return BUILDINGS_FULL.reject()
    if move.energy < 0:
        return OUTPOST_SHARES.reject()
    return _check_shares(state, move, move.energy)


def _build(state: State[Data], move: mv.Build) -> tuple[Data, Events]:
    data, events = _pay_shares(state.data, move, move.energy, "build")
    tile = data.characters[move.character].tile
    buildings = (*data.tile(tile).buildings, move.name)
    data = data.with_tile(tile, buildings=buildings)
    return data, (*events, mv.TileMarked(tile, "buildings", len(buildings)))


RELOCATE_ENERGY = 3
"""§废墟与迁移前哨: 迁移前哨（3 精力）."""


def _check_relocate(state: State[Data], move: mv.RelocateOutpost) -> Verdict:
    data = state.data
    char = data.characters[move.character]
    if not data.tile(char.tile).outpost:
        return NO_OUTPOST.reject()
    here = valley()[1][char.tile]
    if move.to not in here.neighbours:
        return NOT_ADJACENT.reject(to=_tile(data, move.to), tile=_tile(data, char.tile))
    if data.tile(move.to).outpost:
        return OUTPOST_EXISTS.reject()
    return _energy(char, RELOCATE_ENERGY)


def _relocate(state: State[Data], move: mv.RelocateOutpost) -> tuple[Data, Events]:
    data, events = _spend(state.data, move.character, RELOCATE_ENERGY, "relocate_outpost")
    tile = data.characters[move.character].tile
    data = data.with_tile(tile, outpost=False, buildings=())
    data = data.with_tile(move.to, outpost=True)
    moved = (mv.TileMarked(tile, "outpost", 0), mv.TileMarked(move.to, "outpost", 1))
    return data, (*events, *moved)


FIRE_TARGET = 10
"""§生火: 10+ 生火成功."""
FIBER_BONUS = 2
"""§生火: 可先花 1 份纤维给结果 +2."""


def _wood(pack: m.Resources) -> str | None:
    return next((k for k in ("wood:raw", "wood:processed") if m.count(pack, k) > 0), None)


def _check_fire(state: State[Data], move: mv.MakeFire) -> Verdict:
    char = state.data.characters[move.character]
    if move.attribute not in ("dexterity", "faith"):
        return UNKNOWN_NAME.reject(
            what=Text("属性(灵巧或信念)", "attribute (dexterity or faith)"),
            name=name_in(ATTRIBUTES, move.attribute),
        )
    if _wood(char.pack) is None:
        return NOT_HELD.reject(what=resource_name("wood"))
    if move.fiber and m.count(char.pack, "fiber:raw") + m.count(char.pack, "fiber:processed") < 1:
        return NOT_HELD.reject(what=resource_name("fiber"))
    return _energy(char, 1)


def _fire(state: State[Data], move: mv.MakeFire) -> tuple[Data, Events]:
    data, events = _spend(state.data, move.character, 1, "make_fire")
    out = list(events)
    char = data.characters[move.character]
    data, more = _pack(data, move.character, _wood(char.pack) or "wood", -1)
    out += more
    if move.fiber:
        fiber = "fiber:raw" if m.count(char.pack, "fiber:raw") else "fiber:processed"
        data, more = _pack(data, move.character, fiber, -1)
        out += more
    bonus = FIBER_BONUS if move.fiber else 0
    test = m.PendingTest(move.seat, move.character, move.attribute, bonus, purpose="fire")
    return replace(data, test=test), (*out, DicePoolAnnounced(move.seat, ("d6",), "test"))


def _check_delve(state: State[Data], move: mv.Delve) -> Verdict:
    char = state.data.characters[move.character]
    here = valley()[1][char.tile].features
    feature = next((f for f in DELVE_FEATURES if f in here), "")
    return _first_failure(
        lambda: _feature(state, char, feature, DELVE_FEATURES), lambda: _energy(char, 1)
    )


def _delve(state: State[Data], move: mv.Delve) -> tuple[Data, Events]:
    return _spend(state.data, move.character, 1, "delve")


def _check_scavenge(state: State[Data], move: mv.Scavenge) -> Verdict:
    char = state.data.characters[move.character]
    if not state.data.tile(char.tile).ruin:
        return NO_RUIN.reject()
    return _energy(char, 2)


def _scavenge(state: State[Data], move: mv.Scavenge) -> tuple[Data, Events]:
    data, events = _spend(state.data, move.character, 2, "scavenge")
    data, more = _deplete(data, data.characters[move.character].tile)
    return data, events + more


def _check_give(state: State[Data], move: mv.Give) -> Verdict:
    data = state.data
    busy = _busy(state, move.seat)
    if not busy.ok and busy.code != ONE_ACTION.code:
        return busy
    if not 0 <= move.partner < data.party or move.partner == move.character:
        return NO_SUCH_CHARACTER.reject(n=move.partner + 1)
    char, partner = data.characters[move.character], data.characters[move.partner]
    if not partner.alive or partner.tile != char.tile:
        return NOT_SAME_TILE.reject(other=character_name(partner.name))
    base = m.resource_name(move.resource).partition(":")[0]
    food = resource_data()["perishable"] + resource_data()["hard"]
    if base != "water" and base not in food:
        return NOT_FOOD_OR_WATER.reject()
    if not m.known_resource(move.resource):
        return UNKNOWN_RESOURCE.reject(what=resource_name(move.resource))
    if move.amount < 1 or m.count(char.pack, move.resource) < move.amount:
        return NOT_HELD.reject(what=resource_name(move.resource))
    return ACCEPTED


def _give(state: State[Data], move: mv.Give) -> tuple[Data, Events]:
    data, a = _pack(state.data, move.character, move.resource, -move.amount)
    data, b = _pack(data, move.partner, move.resource, move.amount)
    return data, a + b


ACTIONS: dict[type[Move], tuple[Check, Apply]] = {
    mv.Travel: (_check_travel, _travel),
    mv.Exchange: (_check_exchange, _exchange),
    mv.Pack: (_check_pack, _pack_items),
    mv.Aid: (_check_aid, _aid),
    mv.Process: (_check_process, _process),
    mv.Craft: (_check_craft, _craft),
    mv.BuildOutpost: (_check_outpost, _outpost),
    mv.CollectWater: (_check_water, _water),
    mv.PrepareShelter: (_check_shelter, _shelter),
    mv.Fish: (_check_fish, _fish),
    mv.Forage: (_check_forage, _forage),
    mv.Mine: (_check_mine, _mine),
    mv.Build: (_check_build, _build),
    mv.RelocateOutpost: (_check_relocate, _relocate),
    mv.MakeFire: (_check_fire, _fire),
    mv.Delve: (_check_delve, _delve),
    mv.Scavenge: (_check_scavenge, _scavenge),
}
"""The day's actions: each needs a living character of the seat and no open mining or test."""

OTHERS: dict[type[Move], tuple[Check, Apply]] = {
    mv.DrawOre: (_check_draw, _draw),
    mv.FinishMining: (_check_finish, _finish),
    mv.FishingRoll: (_check_fishing_roll, _fishing_roll),
    mv.CallTest: (_check_call_test, _call_test),
    mv.Roll: (_check_roll, _roll),
    mv.Effect: (_check_effect, _effect),
    mv.Give: (_check_give, _give),
    mv.EndChallenge: (_check_end, _end),
    mv.NightCard: (_check_card, _card),
    mv.Keep: (_check_keep, _keep),
    mv.RecordValley: (_check_record, _record),
    mv.CreateCharacter: (_check_create, _create),
    mv.CreationRoll: (_check_creation_roll, _creation_roll),
    mv.ChooseCharacter: (_check_choose, _choose),
}
"""Moves that are not day actions (their own checks)."""


# --- the night, step by step -----------------------------------------------------------------


def _hook(step: Callable[[State[Data]], tuple[Data, Events]]) -> Callable[[Any], Any]:
    def run(state: State[Data]) -> tuple[State[Data], Events]:
        data, events = step(state)
        return replace(state, data=data), events

    return run


def _night_death(state: State[Data]) -> tuple[Data, Events]:
    """§夜晚阶段.1: an incapacitated character dies; the clan mourns (§角色死亡与传说.1) with a
    d6 rolled at the table and entered with ``mourn`` (the ``mourning`` phase)."""
    data, events = state.data, []
    for index, char in enumerate(data.characters):
        if not char.alive or not m.incapacitated(char.health, _length(data)):
            continue
        data = data.with_character(index, replace(char, alive=False))
        data = replace(data, mourning=(*data.mourning, index))
        events.append(mv.MourningDue(index, char.name))
    return data, (*events, *_mourning_dice(data))


def _mourning_dice(data: Data) -> Events:
    """The tray lights one d6 for the next mourning due, or clears when none is left."""
    if not data.mourning:
        return ()
    seat = data.characters[data.mourning[0]].seat
    return (DicePoolAnnounced(seat, ("d6",), "mourning"),)


def _raisable(char: m.Character) -> tuple[str, ...]:
    """The attributes a mourning 5–6 may raise: those below 6 (§角色死亡与传说.1)."""
    return tuple(name for name, value in char.attributes if value < 6)


def _check_mourn(state: State[Data], move: mv.Mourn) -> Verdict:
    data = state.data
    if not 0 <= move.legend < data.party:
        return NO_SUCH_CHARACTER.reject(n=move.legend + 1)
    char = data.characters[move.legend]
    if move.legend not in data.mourning:
        return NO_MOURNING.reject(name=character_name(char.name))
    if char.seat != move.seat:
        return NOT_YOURS.reject(name=character_name(char.name), owner=char.seat + 1)
    if not 1 <= move.roll <= 6:
        return BAD_DIE.reject()
    if move.attribute and move.attribute not in ATTRIBUTES:
        return UNKNOWN_NAME.reject(
            what=Text("属性", "attribute"), name=name_in(ATTRIBUTES, move.attribute)
        )
    raising = camp.mourning(move.roll) == "attribute"
    if move.attribute and move.attribute not in _raisable(char):
        return ATTRIBUTE_MAX.reject(
            name=character_name(char.name), attribute=ATTRIBUTES[move.attribute]
        )
    if raising and not move.attribute and _raisable(char):
        return ATTRIBUTE_NEEDED.reject()
    return ACCEPTED


def _mourn(state: State[Data], move: mv.Mourn) -> tuple[Data, Events]:
    """§角色死亡与传说.1: 1 population −1; 2–4 unrest +1; 5–6 the chosen attribute +1."""
    data = state.data
    char = data.characters[move.legend]
    effect = camp.mourning(move.roll)
    if effect == "population":
        data = replace(data, population=data.population - 1)
    elif effect == "unrest":
        data = replace(data, unrest=data.unrest + 1)
    else:
        char, effect = _legend_raise(char, move.attribute)
        data = data.with_character(move.legend, char)
    data = replace(data, mourning=tuple(i for i in data.mourning if i != move.legend))
    died = mv.CharacterDied(move.legend, char.name, move.roll, effect)
    clear = () if data.mourning else (DicePoolAnnounced(move.seat, (), ""),)
    return data, (died, *_mourning_dice(data), *clear)


def _legend_raise(char: m.Character, attribute: str) -> tuple[m.Character, str]:
    """§角色死亡与传说.1 5–6: the chosen attribute +1, at most 6."""
    if attribute not in _raisable(char):
        return char, "attribute"
    attrs = tuple((n, v + 1 if n == attribute else v) for n, v in char.attributes)
    return replace(char, attributes=attrs), f"{attribute}+1"


OTHERS[mv.Mourn] = (_check_mourn, _mourn)


def _night_recover(state: State[Data]) -> tuple[Data, Events]:
    """§夜晚阶段.2: rest, one food, one water, comfort (shelter seats or a fire), up to the cap."""
    data, events = state.data, []
    rest = m.rest_energy(data.party)
    seats = {tile: t.shelter for tile, t in data.tiles}
    for index, char in enumerate(data.characters):
        if not char.alive:
            continue
        food = m.edible(char.pack) or ""
        water = m.count(char.pack, "water") > 0
        pack = m.add(char.pack, food, -1) if food else char.pack
        pack = m.add(pack, "water", -1) if water else pack
        comfort = data.tile(char.tile).fire > 0 or seats[char.tile] > 0
        if data.tile(char.tile).fire == 0 and comfort:
            seats[char.tile] -= 1
        gain = rest + bool(food) + water + comfort
        energy = min(char.energy + gain, _cap(data))
        char = replace(char, pack=pack, energy=energy, ate=bool(food), drank=water)
        data = data.with_character(index, char)
        events.append(mv.NightRecovered(index, energy, rest, food, water, comfort))
    return data, tuple(events)


def _night_hunger(state: State[Data]) -> tuple[Data, Events]:
    """§夜晚阶段.3: fed and watered → degrade a malady; neither → a light injury."""
    data, events = state.data, []
    for index, char in enumerate(data.characters):
        if not char.alive:
            continue
        if char.ate and char.drank:
            cell = m.best_to_degrade(char.health)
            if cell is not None:
                data, more = _health(data, index, m.degrade_malady(char.health, cell), "degraded")
                events += more
        elif not char.ate and not char.drank:
            data, more = _malady(data, index, "injury", heavy=False)
            events += more
        data = data.with_character(index, replace(data.characters[index], ate=False, drank=False))
    return data, tuple(events)


def _night_decay(state: State[Data]) -> tuple[Data, Events]:
    """§夜晚阶段.5: perishables spoil; depletion markers and fires degrade one level."""
    data, events = state.data, []
    for index, char in enumerate(data.characters):
        pack, _ = m.spoil(char.pack)
        before, after = dict(char.pack), dict(pack)
        for key in sorted(set(before) | set(after)):
            delta = after.get(key, 0) - before.get(key, 0)
            if delta:
                events.append(mv.ResourcesChanged(index, key, delta))
        data = data.with_character(index, replace(char, pack=pack))
    for tile, markers in data.tiles:
        for marker in ("depletion", "fire"):
            level = getattr(markers, marker)
            if level:
                data = data.with_tile(tile, **{marker: level - 1})
                events.append(mv.TileMarked(tile, marker, level - 1))
    return data, tuple(events)


def _night_cards_begin(state: State[Data]) -> tuple[Data, Events]:
    data = state.data
    chars = tuple(replace(c, night_card=not c.alive) for c in data.characters)
    return replace(data, characters=chars), ()


def _night_activity(state: State[Data]) -> tuple[Data, Events]:
    """§夜晚阶段.8: activity +1, then each challenge event reached and not yet resolved."""
    data = replace(state.data, activity=state.data.activity + 1)
    events: list[Event] = [mv.ActivityRaised(data.activity)]
    for event in challenge(data.challenge).events:
        if event.threshold <= data.activity and event.threshold not in data.events_done:
            data = replace(data, events_done=(*data.events_done, event.threshold))
            events.append(mv.ChallengeEventDue(event.threshold, event.text.zh, event.text.en))
    return data, tuple(events)


def _night_society(state: State[Data]) -> tuple[Data, Events]:
    """§夜晚阶段.9: population and unrest, and the outposts they allow."""
    data = state.data
    built = sum(1 for _, t in data.tiles if t.outpost)
    limit = camp.outpost_limit(data.population)
    return data, (mv.SocietyChecked(data.population, data.unrest, built, limit),)


def _nothing(state: State[Data]) -> tuple[Data, Events]:
    return state.data, ()


NIGHT = (
    ("death", "查死亡", "Check for death", _night_death),
    (
        "recovery",
        "恢复:休息、进食、补水、舒适",
        "Recover: rest, food, water, comfort",
        _night_recover,
    ),
    ("hunger", "饥渴", "Hunger and thirst", _night_hunger),
    ("night_actions", "执行夜间行动", "Night actions", _nothing),
    ("decay", "退化标记:腐败、复原、照看火堆", "Degrade: spoilage, depletion, fires", _night_decay),
    ("pack_check", "清点背包", "Pack check", _nothing),
    ("night_cards", "结算夜晚卡", "Night cards", _night_cards_begin),
    ("activity", "活跃度+1与挑战事件", "Activity +1 and challenge events", _night_activity),
    ("society", "核查人口与动荡", "Population and unrest", _night_society),
)
"""The nine night steps (§夜晚阶段.1–9) in order: name, titles, effect on reaching the step."""


def _night_phase(number: int) -> Phase:
    name, zh, en, effect = NIGHT[number - 1]
    step = Step(
        f"{number}.{name}",
        Text(f"第{number}步 {zh}", f"Step {number}: {en}"),
        rule(f"夜晚阶段.{number}"),
    )
    title = Text(f"夜晚 {number}/9 {zh}", f"Night {number}/9: {en}")
    common: dict[str, Any] = {"steps": (step,), "on_begin": _hook(effect), "rule": step.rule}
    if name == "night_cards":
        return Phase(
            f"night_{number}",
            title,
            TurnOrder.SIMULTANEOUS,
            moves=frozenset({mv.NightCard.type, mv.CallTest.type, mv.Roll.type, mv.Effect.type}),
            end_if=_cards_done,
            **common,
        )
    return Phase(f"night_{number}", title, **common)


def _mourned(state: State[Data]) -> bool:
    return not state.data.mourning


MOURNING_PHASE = Phase(
    "mourning",
    Text("哀悼", "Mourning"),
    TurnOrder.SIMULTANEOUS,
    moves=frozenset({mv.Mourn.type}),
    skip_if=_mourned,
    end_if=_mourned,
    rule=rule("角色死亡与传说.1"),
)
"""§夜晚阶段.1: after the deaths, the mourning d6 of each dead character, entered by its
player; skipped when nobody died."""


def _cards_done(state: State[Data]) -> bool:
    everyone = all(c.night_card for c in state.data.characters)
    return (everyone and state.data.test is None) or len(state.flow.done) >= state.players


# --- the other phases -----------------------------------------------------------------------


def _creation_begin(state: State[Data]) -> tuple[State[Data], Events]:
    return state, (DicePoolAnnounced(None, ("d6",) * m.CREATION_DICE, "character_creation"),)


def _creation_done(state: State[Data]) -> bool:
    seats = {c.seat for c in state.data.characters}
    return len(state.flow.done) >= state.players and seats >= set(state.seats)


def _reopen(state: State[Data]) -> tuple[State[Data], Events]:
    """§开局设置.1: every player has at least one character; a player who passed without one
    is asked again."""
    seats = {c.seat for c in state.data.characters}
    done = frozenset(s for s in state.flow.done if s in seats)
    return replace(state, flow=replace(state.flow, done=done)), ()


def _session_begin(state: State[Data]) -> tuple[State[Data], Events]:
    """§开局设置.4, .8: energy to the cap for the party's size, figures on the start tile."""
    data = state.data
    cap, start = _cap(data), valley()[0]
    chars = tuple(replace(c, energy=cap, tile=start) for c in data.characters)
    events: list[Event] = [_energy_event(i, c, cap, "setup") for i, c in enumerate(chars)]
    if data.alert:
        events.append(mv.BehemothAlert(data.alert))
    return replace(state, data=replace(data, characters=chars)), tuple(events)


def _day_begin(state: State[Data]) -> tuple[State[Data], Events]:
    data = replace(state.data, mining=None, test=None, fishing=None)
    return replace(state, data=data), ()


def _day_over(state: State[Data]) -> bool:
    return state.data.result is not None or len(state.flow.done) >= state.players


def _after_day(state: State[Data]) -> str:
    return "save" if state.data.result is not None else "night_1"


DAY_MOVES = frozenset(
    cls.type
    for cls in (
        *ACTIONS,
        mv.DrawOre,
        mv.FinishMining,
        mv.FishingRoll,
        mv.CallTest,
        mv.Roll,
        mv.Effect,
        mv.Give,
        mv.EndChallenge,
    )
)

BEHEMOTH_STEPS = (
    Step("aim", Text("确定目标", "Aim"), rule("巨兽.1")),
    Step("tread", Text("跋涉", "Tread"), rule("巨兽.2")),
    Step("encounter", Text("遭遇", "Encounter"), rule("巨兽.3")),
)

PHASES = (
    Phase(
        "creation",
        Text("选择与创造角色", "Choose and create characters"),
        TurnOrder.SIMULTANEOUS,
        moves=frozenset({mv.CreationRoll.type, mv.CreateCharacter.type, mv.ChooseCharacter.type}),
        on_begin=_creation_begin,
        end_if=_creation_done,
        on_all_done=_reopen,
        on_end=_session_begin,
        next="day",
        rule=rule("开局设置.1"),
    ),
    Phase(
        "day",
        Text("白天", "Day"),
        TurnOrder.FREE,
        moves=DAY_MOVES,
        on_begin=_day_begin,
        end_if=_day_over,
        next=_after_day,
        rule=rule("白天阶段"),
    ),
    _night_phase(1),
    MOURNING_PHASE,
    *(_night_phase(n) for n in range(2, 10)),
    Phase(
        "behemoth",
        Text("巨兽阶段", "Behemoth phase"),
        steps=BEHEMOTH_STEPS,
        starts_round=True,
        skip_if=lambda s: s.data.alert is None,
        next="day",
        rule=rule("巨兽"),
    ),
    Phase(
        "save",
        Text("存档", "Save the session"),
        TurnOrder.SIMULTANEOUS,
        moves=frozenset({mv.Keep.type, mv.RecordValley.type}),
        next=END,
        rule=rule("局间保留与存档"),
    ),
)


class Stonesaga(Game):
    """Stonesaga: 1–4 players, a co-operative session of a campaign."""

    name: ClassVar[str] = "stonesaga"
    title: ClassVar[Text] = Text("石纪元", "Stonesaga")
    rules: ClassVar[str] = RULES
    options_type: ClassVar[type[Options]] = StonesagaOptions
    phases: ClassVar[tuple[Phase, ...]] = PHASES
    event_texts: ClassVar[dict[str, Text]] = EVENT_TEXTS
    option_texts: ClassVar[dict[str, Text]] = option_texts()
    outcome_texts: ClassVar[dict[str, Text]] = OUTCOME_TEXTS
    start_seat_passes: ClassVar[bool] = False

    def setup(self, options: Any, rng: Rng) -> tuple[Any, Rng, Seat]:
        """The valley's tiles, the society tracks, the challenge's omen, the alert behemoth."""
        card = challenge(options.challenge)
        if options.epoch not in (1, 2, 3):
            raise GameConfigError(f"stonesaga has epochs 1 to 3, not {options.epoch}")
        tiles = tuple(
            (t.id, m.TileState(explored=t.explored, ruin=t.ruin)) for t in valley()[1].values()
        )
        alert = None
        if options.behemoths:
            alert, rng = rng.choice(options.behemoths)
        data = m.Saga(
            tiles=tiles,
            omens=(card.omen,),
            population=campaign()["population"]
            if options.population is None
            else options.population,
            unrest=campaign()["unrest"] if options.unrest is None else options.unrest,
            epoch=options.epoch,
            challenge=card.id,
            behemoths=tuple(m.Behemoth(b) for b in options.behemoths),
            alert=alert,
        )
        return data, rng, 0

    def legal(self, state: State[Any], move: Move) -> Verdict:
        """The seat's character, then the move's own rule (see the reasons above)."""
        character = getattr(move, "character", None)
        if character is not None and move.seat is not None:
            verdict = _who(state, move.seat, character)
            if not verdict.ok:
                return verdict
        if type(move) in ACTIONS:
            verdict = _busy(state, move.seat or 0)
            if not verdict.ok:
                return verdict
            return ACTIONS[type(move)][0](state, move)
        if type(move) in OTHERS:
            return OTHERS[type(move)][0](state, move)
        return ACCEPTED

    def legal_pass(self, state: State[Any], move: Move) -> Verdict:
        """§夜晚阶段.1: a player whose character died rolls the mourning die before passing."""
        data: Data = state.data
        due = [i for i in data.mourning if data.characters[i].seat == move.seat]
        if state.flow.phase == "mourning" and due:
            return MOURNING_DUE.reject(name=character_name(data.characters[due[0]].name))
        return ACCEPTED

    def offers(self, state: State[Any], seat: Seat) -> Iterable[Offer]:
        """What this seat may do now, for the players' console (``engine/stonesaga/offers.py``)."""
        return seat_offers(state, seat)

    def apply(self, state: State[Any], move: Move) -> tuple[State[Any], Events]:
        """The move's effects on the saga's data; an action marks the seat's turn as used."""
        if state.flow.current is None and state.data.acted:
            state = replace(state, data=replace(state.data, acted=False))  # a new turn
        action = type(move) in ACTIONS
        data, events = (ACTIONS if action else OTHERS)[type(move)][1](state, move)
        return replace(state, data=replace(data, acted=True) if action else data), events

    def final_outcome(self, state: State[Any]) -> Outcome:
        """A shared win when the challenge ended won, else a loss."""
        won = state.data.result == "won"
        winners = tuple(state.seats) if won else ()
        return Outcome("shared_win" if won else "loss", winners, f"stonesaga.{state.data.result}")

    def picture(
        self,
        state: State[Any],
        lang: str,
        refused: Move | None = None,
        seen: Sequence[tuple[str, str | None]] = (),
    ) -> dict[str, Any] | None:
        """The valley, its tiles, markers and characters, and the mining draw (``picture.py``)."""
        return valley_picture(state, lang, refused)

    def scores(self, state: State[Any]) -> tuple[int, ...] | None:
        """None: Stonesaga is co-operative and keeps no score (§挑战卡与目标卡)."""
        return None

    def event_text(
        self, event: dict[str, Any], lang: str, state: State[Any] | None = None
    ) -> str | None:
        """The log's line for Stonesaga's events and the dice it lights (``texts.py``); with
        the state, a character the event gives by number is named."""
        line = event_line(event, lang)
        if line is None or state is None:
            return line
        characters = list(enumerate(state.data.characters))
        for index, c in reversed(characters):  # "character 12" before "character 1"
            number, name = character_number(index), character_name(c.name)
            line = line.replace(
                number.zh if lang == "zh" else number.en, name.zh if lang == "zh" else name.en
            )
        return line

    def view(self, state: State[Any], lang: str) -> dict[str, Any]:
        """Omen, tracks, the bag being drawn from, and a short strip for each character."""
        data: Data = state.data
        tr = (lambda t: t.zh) if lang == "zh" else (lambda t: t.en)
        label = (lambda zh, en: zh) if lang == "zh" else (lambda zh, en: en)
        summary: list[list[Any]] = [
            [label("挑战", "Challenge"), tr(challenge(data.challenge).title)],
            [label("当前预兆", "Current omen"), tr(listed(data.omens, OMENS.__getitem__))],
            [label("活跃度", "Activity"), data.activity],
            [label("人口", "Population"), data.population],
            [label("动荡", "Unrest"), data.unrest],
            [label("纪元", "Epoch"), data.epoch],
        ]
        if data.alert:
            summary.append([label("警觉巨兽", "Alert behemoth"), tr(behemoth_name(data.alert))])
        if data.result:
            summary.append([label("挑战结果", "Result"), tr(RESULTS[data.result])])
        if data.mining is not None:
            summary += _bag_rows(data.mining, tr, label)
        players = [
            {
                "seat": c.seat,
                "name": tr(character_name(c.name)),
                "fields": _strip(data, c, tr, label),
            }
            for c in data.characters
        ]
        return {"summary": summary, "players": players}


def _bag_rows(mine: m.Mining, tr: Any, label: Any) -> list[list[Any]]:
    """§采矿.3–6: the bag for the feature being mined, what is left in it, what was drawn."""
    feature = tr(FEATURES[mine.feature])
    left = tuple((s, n - sum(1 for d, _ in mine.drawn if d == s)) for s, n in mine.bag)
    drawn = listed(
        mine.drawn,
        lambda d: Text(
            f"{STONES[d[0]].zh}/{OMENS[d[1]].zh}", f"{STONES[d[0]].en}/{OMENS[d[1]].en}"
        ),
    )
    return [
        [label(f"{feature}的袋子", f"Bag for the {feature}"), tr(_bag_text(mine.bag))],
        [label("袋中还剩", "Left in the bag"), tr(_bag_text(left))],
        [label("已摸出", "Drawn"), tr(drawn)],
    ]


def _strip(data: Data, c: m.Character, tr: Any, label: Any) -> list[list[Any]]:
    """A character's few fields for the kiosk's strip, most important first (at most six)."""
    attributes = tr(attribute_line(c.attributes, c.boosts))
    if not c.alive:
        return [
            [label("状态", "State"), label("已死亡", "dead")],
            [label("属性", "Attributes"), attributes],
        ]
    health = [f"{len(c.health)}/{_length(data)}", *(tr(malady_name(t.label())) for t in c.health)]
    tile = _tile(data, c.tile) if c.tile else Text("尚未入场", "not on the map yet")
    fields: list[list[Any]] = [
        [label("精力", "Energy"), f"{c.energy}/{_cap(data)}"],
        [label("健康", "Health"), " ".join(health)],
        [label("地块", "Tile"), tr(tile)],
        [label("背包", "Pack"), tr(counted(c.pack, Text("空", "empty")))],
        [label("属性", "Attributes"), attributes],
    ]
    if c.items:
        fields.append([label("物品", "Items"), tr(listed(c.items, item_name))])
    return fields
