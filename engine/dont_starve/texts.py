"""What the kiosk's log says for each Don't Starve event, in Chinese and English; the names of
the things players read on the console and in refusal messages (biomes, resources, symbols,
structures, the numbers a move carries).

``{player}`` is the seat counted from 1; the other names are the event's fields.
"""

from typing import Any

from engine.core import Text
from engine.dont_starve.catalogue import (
    DIFFICULTIES,
    PORTAL,
    Catalogue,
    character_item,
    demo_text,
    location_item,
    location_title,
    scenario_item,
    shadow_item,
    symbols_text,
    weather_item,
    weather_title,
    with_note,
)

EVENT_TEXTS: dict[str, Text] = {
    "dont_starve.character_defeated": Text(
        "{player}号角色被击倒", "Player {player}'s character is defeated"
    ),
    "dont_starve.character_moved": Text(
        "{player}号角色从{from_tile}移动到{to_tile}",
        "Player {player} moves from {from_tile} to {to_tile}",
    ),
    "dont_starve.character_revived": Text(
        "{player}号角色复活(剩余肉雕像{effigies_left})",
        "Player {player} is revived ({effigies_left} effigies left)",
    ),
    "dont_starve.dial_set": Text("行动转盘:{value}({time})", "Action dial: {value} ({time})"),
    "dont_starve.essence_changed": Text("精华:{essence}", "Essence: {essence}"),
    "dont_starve.fight_ended": Text(
        "{tile}的战斗结束:{won}", "The fight on {tile} is over (won: {won})"
    ),
    "dont_starve.fight_started": Text(
        "{player}号角色在{tile}与{target}战斗,怪物骰{monster_dice}个",
        "Player {player} fights {target} on {tile}: {monster_dice} monster dice",
    ),
    "dont_starve.fighter_resolved": Text(
        "{player}号角色:胜{won},伤害{damage}", "Player {player}: won {won}, damage {damage}"
    ),
    "dont_starve.focus_changed": Text(
        "{player}号角色专注:{active}({reason})", "Player {player} focus: {active} ({reason})"
    ),
    "dont_starve.inventory_changed": Text(
        "{player}号角色的{kind}:{count}", "Player {player}'s {kind}: {count}"
    ),
    "dont_starve.location_explored": Text(
        "{player}号角色探索了{tile}({card})", "Player {player} explored {tile} ({card})"
    ),
    "dont_starve.needs_tile_laid": Text(
        "最左侧的需求板块:{tile}号({side}:光照{light},饥饿{hunger},理智{sanity})",
        "The leftmost needs tile: tile {tile} ({side}: light {light}, hunger {hunger},"
        " sanity {sanity})",
    ),
    "dont_starve.needs_announced": Text(
        "每日需求:光照{light},饥饿{hunger},理智{sanity}",
        "Daily needs: light {light}, hunger {hunger}, sanity {sanity}",
    ),
    "dont_starve.needs_tile_removed": Text(
        "移除一块需求板块,剩余{left}({time})", "A needs tile is removed: {left} left ({time})"
    ),
    "dont_starve.scenario_won": Text(
        "剧本胜利!解锁点数{unlock_points}", "Scenario won! {unlock_points} unlock points"
    ),
    "dont_starve.shadow_covered": Text(
        "{player}号角色的{tier}级暗影生物被盖住",
        "Player {player}'s tier {tier} shadow creature is covered",
    ),
    "dont_starve.shadow_revealed": Text(
        "{player}号角色出现{tier}级暗影生物",
        "A tier {tier} shadow creature appears for player {player}",
    ),
    "dont_starve.stats_changed": Text(
        "{player}号角色:生命{health},饥饿{hunger},理智{sanity}",
        "Player {player}: health {health}, hunger {hunger}, sanity {sanity}",
    ),
    "dont_starve.tile_revealed": Text("翻开{tile}:{biome}", "Tile {tile} revealed: {biome}"),
    "dont_starve.weather_announced": Text("天气:{card}", "Weather: {card}"),
    "dont_starve.weather_drawn": Text("抽到天气牌{card}", "Weather card drawn: {card}"),
    "dont_starve.world_event": Text("世界事件:{name}", "World event: {name}"),
}

# --- names (the console's labels, engine/dont_starve/offers.py; refusals, reasons.py) ---------

BIOME_NAMES = {
    "forest": Text("林地", "forest"),
    "grassland": Text("草原", "grassland"),
    "badlands": Text("荒地", "badlands"),
    "marsh": Text("湿地", "marsh"),
    PORTAL: Text("传送门", "portal"),
}
KIND_NAMES = {
    "basic": Text("基础资源", "basic resources"),
    "raw_food": Text("生食", "raw food"),
    "cooked_food": Text("熟食", "cooked food"),
    "loot": Text("战利品", "loot"),
    "item": Text("物品卡", "item cards"),
}
"""What a character holds (the inventory fields), as a kind."""
KIND_ONE = {"basic": "basic resource", "item": "item card"}
"""The English name of one of a kind, where it differs from ``KIND_NAMES``."""
SYMBOL_NAMES = {
    "wet": Text("潮湿", "wet"),
    "overheat": Text("过热", "overheat"),
    "cold": Text("寒冷", "cold"),
}
NUMBER_NAMES = {
    "cv": Text("角色战斗值", "fighters' CV"),
    "monster_cv": Text("怪物战斗值", "monster's CV"),
    "damage": Text("怪物伤害值", "monster's damage"),
    "count": Text("数量", "count"),
    "points": Text("光照点数", "light points"),
    "health": Text("生命", "health"),
    "hunger": Text("饱食", "hunger"),
    "sanity": Text("理智", "sanity"),
}
"""The numbers a move carries, as the console's fields name them."""
STRUCTURE_NAMES = {
    "science machine": Text("科学机器", "Science Machine"),
    "alchemy engine": Text("炼金引擎", "Alchemy Engine"),
    "fire pit": Text("火坑", "Fire Pit"),
    "crock pot": Text("烹饪锅", "Crock Pot"),
    "tent": Text("帐篷", "Tent"),
    "ice box": Text("冰箱", "Ice Box"),
    "drying rack": Text("晾肉架", "Drying Rack"),
    "lightning rod": Text("避雷针", "Lightning Rod"),
    "bee box": Text("蜂箱", "Bee Box"),
    "bird cage": Text("鸟笼", "Birdcage"),
    "chest": Text("箱子", "Chest"),
    "meat effigy": Text("肉块雕像", "Meat Effigy"),
}
"""Structure cards by the name typed at setup (lower case). The rule text names none of the 17
cards: these are the names of the Chinese edition of the video game, to be checked against the
printed cards; a structure not listed is shown by its slot on the base camp board."""


def structure_name(structure: str, slot: int) -> Text:
    """A structure in the base camp: its card's name, or (not in ``STRUCTURE_NAMES``) the base
    camp slot it stands in, counted from 1, with the name typed at setup in English."""
    known = STRUCTURE_NAMES.get(structure.strip().lower())
    if known is not None:
        return known
    return Text(f"营地第{slot}张建筑卡", structure)


def count_of(n: int, kind: str) -> Text:
    """``n`` of a kind held: ``2个基础资源`` / ``2 basic resources``, ``1张物品卡`` /
    ``1 item card``."""
    k = KIND_NAMES.get(kind, Text(kind, kind))
    unit = "张" if kind == "item" else "个"
    en = KIND_ONE.get(kind, k.en) if n == 1 else k.en
    return Text(f"{n}{unit}{k.zh}", f"{n} {en}")


def numbers_named(*fields: str) -> Text:
    """Some of a move's numbers by name, as a list: ``生命、饱食、理智`` / ``health, hunger,
    sanity``."""
    names = [NUMBER_NAMES.get(f, Text(f, f)) for f in fields]
    return Text("、".join(n.zh for n in names), ", ".join(n.en for n in names))


# --- the table screen (issue 13): picture, log lines, set-up, end screen, view ----------------

WEATHER_NAMES = {**SYMBOL_NAMES, "storm": Text("风暴", "storm")}
"""The symbols of a weather card, the storm icon among them (天气阶段)."""
BIOME_SHORT = {
    "forest": Text("♣", "♣"),
    "grassland": Text("⚘", "⚘"),
    "badlands": Text("▲", "▲"),
    "marsh": Text("≈", "≈"),
    PORTAL: Text("◎", "◎"),
}
"""A biome as a cell of the picture draws it: one symbol, read from the chairs at any size,
named by the legend with ``BIOME_NAMES``."""
CHARACTER_SHORT = {
    "wilson": Text("威尔逊", "Wilson"),
    "willow": Text("薇洛", "Willow"),
    "wendy": Text("温蒂", "Wendy"),
    "webber": Text("韦伯", "Webber"),
}
"""A character as the picture's legend names its figure (the figure's disc shows its seat's
number, in the seat's colour): the whole name, never cut."""
MONSTER_NAMES = {"spider": Text("蜘蛛", "spider")}
"""Scenario monster tokens by the name in scenarios.toml (剧本设置)."""
DIFFICULTY_NAMES = {
    "classic": Text("经典", "Classic"),
    "survival": Text("生存", "Survival"),
    "nightmare": Text("噩梦", "Nightmare"),
}
"""季节与难度: 经典 → 生存 → 噩梦."""
TIME_NAMES = {"day": Text("白天", "day"), "night": Text("黑夜", "night")}
FIGHT_TARGETS = {
    "location": Text("地点卡上的怪物", "the location's monster"),
    "scenario": Text("剧本怪物", "scenario monsters"),
    "shadow": Text("影怪", "a shadow creature"),
}
WORLD_EVENT_NAMES = {
    "spoil_all": Text("全部腐烂(弃置所有生食)", "everything spoils (all raw food is discarded)"),
    "regrow": Text(
        "再生长(开采标记物回到起点)", "regrowth (the mining markers go back to the start)"
    ),
    "monster_refresh": Text(
        "怪物刷新(移除已击败怪物指示物)", "monsters return (the defeated-monster tokens go)"
    ),
}
AS_CARD = Text("按卡牌所示", "as the card says")
RESULTS = {
    "won": Text("胜利", "won"),
    "dont_starve.out_of_time": Text("失败:需求板块用完", "lost: out of needs tiles"),
    "dont_starve.no_effigy": Text("失败:无法复活", "lost: no effigy to revive"),
    "dont_starve.scenario_lost": Text("失败:剧本卡判负", "lost: the scenario card says so"),
}
"""The game's result in the view's summary, once it is decided (``DSData.result``)."""

OUTCOME_TEXTS: dict[str, Text] = {
    "dont_starve.scenario_won": Text(
        "胜利!剧本卡宣布你们赢得了这个剧本。",
        "Won! The scenario card says you have won the scenario.",
    ),
    "dont_starve.out_of_time": Text(
        "失败:最后一块需求板块已被移除,所有回合都已结束。",
        "Lost: the last needs tile was removed, so every round is over.",
    ),
    "dont_starve.no_effigy": Text(
        "失败:有角色被击败,却没有足够的肉块雕像来复活。",
        "Lost: a character was defeated and there was no meat effigy left to revive them.",
    ),
    "dont_starve.scenario_lost": Text(
        "失败:剧本卡宣布你们输掉了这个剧本。",
        "Lost: the scenario card says you have lost the scenario.",
    ),
}
"""The end screen's sentence for each outcome reason (胜利与失败)."""


def tile_called(tile: str) -> Text:
    """A tile by its place in the layout, as the console names it: ``E格`` / ``tile E``; the
    portal is ``传送门`` / ``the portal``."""
    if tile == "P":
        return Text("传送门", "the portal")
    return Text(f"{tile}格", f"tile {tile}")


def player(seat: int | None) -> Text:
    """Who acts in a log line: ``1号玩家`` / ``Player 1``; None: the whole table."""
    if seat is None:
        return Text("全桌", "The table")
    return Text(f"{seat + 1}号玩家", f"Player {seat + 1}")


def symbols_line(symbols: tuple[str, ...] | list[str]) -> Text:
    """A weather card's symbols in printed order, the storm icon splitting them:
    ``寒冷 | 风暴 | 寒冷`` / ``cold | storm | cold``; none: ``无`` / ``none``."""
    return symbols_text(symbols)


def symbol_counts(symbols: tuple[str, ...] | list[str]) -> Text:
    """Symbols in force, each with its count: ``寒冷×2、潮湿`` / ``cold ×2, wet``."""
    shown: list[Text] = []
    for s in dict.fromkeys(symbols):
        n = WEATHER_NAMES.get(s, Text(s, s))
        count = list(symbols).count(s)
        shown.append(Text(f"{n.zh}×{count}", f"{n.en} ×{count}") if count > 1 else n)
    return Text("、".join(t.zh for t in shown), ", ".join(t.en for t in shown))


def _dice(names: list[str]) -> Text:
    """A dice pool: ``1颗角色骰和2颗怪物骰`` / ``1 character die and 2 monster dice``."""
    parts: list[Text] = []
    for key, zh, one, many in (
        ("character", "角色骰", "character die", "character dice"),
        ("monster", "怪物骰", "monster die", "monster dice"),
    ):
        n = names.count(key)
        if n:
            parts.append(Text(f"{n}颗{zh}", f"{n} {one if n == 1 else many}"))
    other = len(names) - sum(names.count(k) for k in ("character", "monster"))
    if other:
        parts.append(Text(f"{other}颗骰子", f"{other} {'die' if other == 1 else 'dice'}"))
    return Text("和".join(p.zh for p in parts), " and ".join(p.en for p in parts))


DICE_REASONS: dict[str, Text] = {
    "fight": Text(
        "战斗(至少一个成功才能获胜,每个闪避抵消一个成功,每个命中造成怪物伤害)",
        "a fight (one success wins; each dodge cancels a success, each hit deals the monster's"
        " damage)",
    ),
    "reroll": Text("花费专注点重掷", "a reroll paid with a focus token"),
    "interact": Text("互动", "an interaction"),
    "hostility": Text("敌意(这块板块上有敌对怪物)", "hostility (a hostile monster is on the tile)"),
    "shadow": Text("影怪的攻击(用最下方影怪卡上的数值)", "the shadow creature's attack"),
}
"""Why the table rolls the dice it is told to (the ``reason`` of ``dice_pool_announced``)."""


def _dice_line(e: dict[str, Any]) -> Text:
    dice = list(e.get("dice") or ())
    if not dice:
        return Text("骰子已掷完,收起骰子", "The dice are done: clear the trays")
    who, pool = player(e.get("seat")), _dice(dice)
    reason = e.get("reason", "")
    if reason == "interact" and "monster" in dice:
        why = Text("互动,加上敌意的怪物骰", "an interaction, with hostility's monster die")
    else:
        why = DICE_REASONS.get(reason, Text("按卡牌的指示", "as a card says"))
    return Text(f"{who.zh}掷{pool.zh}:{why.zh}", f"{who.en} rolls {pool.en} for {why.en}")


def _moved(e: dict[str, Any]) -> Text:
    who, to = player(e["seat"]), tile_called(e["to_tile"])
    if not e.get("from_tile"):
        return Text(f"{who.zh}来到{to.zh}", f"{who.en} comes to {to.en}")
    frm = tile_called(e["from_tile"])
    return Text(f"{who.zh}从{frm.zh}移动到{to.zh}", f"{who.en} moves from {frm.en} to {to.en}")


def _explored(e: dict[str, Any], cat: Catalogue) -> Text:
    card = cat.location(e["card"])
    b = BIOME_NAMES.get(card.biome if card is not None else "", Text("", "new"))
    who, where = player(e["seat"]), tile_called(e["tile"])
    title = location_title(card) if card is not None else Text("", "")
    line = Text(
        f"{who.zh}探索{where.zh},翻开一张{b.zh}地点卡「{title.zh}」",
        f"{who.en} explores {where.en}: the {b.en} location card '{title.en}'",
    )
    if card is not None and card.hostile:
        line = Text(f"{line.zh}(敌对怪物)", f"{line.en} (hostile monster)")
    return line


def _fight_started(e: dict[str, Any]) -> Text:
    who, where = player(e["seat"]), tile_called(e["tile"])
    target = FIGHT_TARGETS.get(e["target"], Text("怪物", "a monster"))
    helpers = [player(s) for s in e.get("fighters", ())[1:]]
    n = e["monster_dice"]
    zh = f"{who.zh}在{where.zh}与{target.zh}战斗"
    en = f"{who.en} fights {target.en} on {where.en}"
    if helpers:
        zh += f",{'、'.join(h.zh for h in helpers)}加入"
        en += f", joined by {' and '.join(h.en for h in helpers)}"
    die = "die" if n == 1 else "dice"
    return Text(f"{zh}:共{n}颗怪物骰", f"{en}: {n} monster {die} in all")


def _fighter(e: dict[str, Any]) -> Text:
    who = player(e["seat"])
    won = Text("胜利", "won") if e["won"] else Text("失败", "lost")
    hurt = (
        Text(f"受到{e['damage']}点伤害", f"{e['damage']} damage taken")
        if e["damage"]
        else Text("没有受伤", "no damage")
    )
    return Text(f"{who.zh}的骰子:{won.zh},{hurt.zh}", f"{who.en}'s dice: {won.en}, {hurt.en}")


def _fight_ended(e: dict[str, Any]) -> Text:
    where = tile_called(e["tile"])
    if e["won"]:
        return Text(f"{where.zh}的战斗胜利", f"The fight on {where.en} is won")
    return Text(f"{where.zh}的战斗失败", f"The fight on {where.en} is lost")


def _focus(e: dict[str, Any]) -> Text:
    who, n = player(e["seat"]), e["active"]
    reason = e.get("reason", "")
    if reason == "reroll":
        return Text(
            f"{who.zh}花费一个专注点重掷(还剩{n}个)",
            f"{who.en} spends a focus token to reroll ({n} left)",
        )
    if reason == "revived":
        return Text(f"{who.zh}复活后有{n}个专注点", f"{who.en} has {n} focus tokens after revival")
    return Text(f"{who.zh}恢复专注点:现有{n}个", f"{who.en} refreshes focus: {n} active")


def _inventory(e: dict[str, Any]) -> Text:
    who, have = player(e["seat"]), count_of(e["count"], e["kind"])
    return Text(f"{who.zh}现有{have.zh}", f"{who.en} now has {have.en}")


def _needs_removed(e: dict[str, Any]) -> Text:
    left = e["left"]
    if not left:
        return Text("最后一块需求板块被移除", "The last needs tile is removed")
    time = TIME_NAMES.get(e.get("time", ""), Text("", ""))
    return Text(
        f"移除最左侧的需求板块:还剩{left}块,现在是{time.zh}",
        f"The leftmost needs tile is removed: {left} left, now {time.en}",
    )


def _weather_announced(e: dict[str, Any]) -> Text:
    symbols = e.get("symbols") or []
    storm = (
        Text("(已越过风暴标记物)", " (past the storm marker)")
        if e.get("past_storm")
        else Text("", "")
    )
    health, hunger, sanity = e.get("losses") or (0, 0, 0)
    parts = [
        (n, zh, en)
        for n, zh, en in (
            (health, "生命", "health"),
            (hunger, "饱食", "hunger"),
            (sanity, "理智", "sanity"),
        )
        if n
    ]
    if parts:
        lost = Text(
            ";每个角色失去" + "、".join(f"{zh}{n}" for n, zh, _ in parts) + "(用物品或食物豁免前)",
            "; each character loses "
            + ", ".join(f"{n} {en}" for n, _, en in parts)
            + " (before items or food exempt any)",
        )
    else:
        lost = Text("", "")
    if not symbols:
        return Text(
            f"天气阶段:没有生效的天气符号{storm.zh}{lost.zh}",
            f"Weather: no symbol in force{storm.en}{lost.en}",
        )
    shown = symbol_counts(symbols)
    return Text(
        f"天气阶段:生效的符号 {shown.zh}{storm.zh}{lost.zh}",
        f"Weather: {shown.en} in force{storm.en}{lost.en}",
    )


def _stats(e: dict[str, Any]) -> Text:
    who = player(e["seat"])
    return Text(
        f"{who.zh}:生命{e['health']},饱食{e['hunger']},理智{e['sanity']}",
        f"{who.en}: health {e['health']}, hunger {e['hunger']}, sanity {e['sanity']}",
    )


def _shadow(e: dict[str, Any], shown: bool) -> Text:
    who, tier = player(e["seat"]), e["tier"]
    if shown:
        return Text(
            f"{who.zh}理智下降,第{tier}级影怪出现",
            f"{who.en}'s sanity falls: a tier {tier} shadow creature appears",
        )
    return Text(
        f"{who.zh}的第{tier}级影怪被盖住", f"{who.en}'s tier {tier} shadow creature is covered"
    )


def _weather_drawn(e: dict[str, Any], cat: Catalogue) -> Text:
    shown = symbols_line(e.get("symbols") or [])
    if not cat.has_weather(e.get("card", "")):
        return Text(f"翻开天气牌:{shown.zh}", f"Weather card turned up: {shown.en}")
    card = cat.weather_card(e["card"])
    if not (card.title_zh and card.title_en):
        return Text(f"翻开天气牌:{shown.zh}", f"Weather card turned up: {shown.en}")
    return Text(
        f"翻开天气牌「{card.title_zh}」:{shown.zh}",
        f"Weather card turned up, '{card.title_en}': {shown.en}",
    )


def _needs_laid(e: dict[str, Any]) -> Text:
    time = TIME_NAMES.get(e.get("side", ""), Text("", ""))
    light, hunger, sanity = e["light"], e["hunger"], e["sanity"]
    return Text(
        f"本回合的需求板块({time.zh}):光照{light},饥饿{hunger},理智{sanity}",
        f"This round's needs tile ({time.en}): light {light}, hunger {hunger}, sanity {sanity}",
    )


def _revealed(e: dict[str, Any]) -> Text:
    where, biome = tile_called(e["tile"]), BIOME_NAMES.get(e["biome"], Text("", ""))
    en = where.en[:1].upper() + where.en[1:]
    return Text(f"{where.zh}翻开:{biome.zh}", f"{en} turned over: {biome.en}")


def _dial(e: dict[str, Any]) -> Text:
    time = TIME_NAMES.get(e.get("time", ""), Text("", ""))
    return Text(f"行动轮盘转到{e['value']}({time.zh})", f"Action dial at {e['value']} ({time.en})")


def _passed(e: dict[str, Any]) -> Text:
    """The core's ``seat_passed``: in the action phase a turn's end (§结束回合: the activation
    token flips, after a main action or without one), in the others a seat done with it."""
    who = player(e["seat"])
    if e.get("phase") == "action":
        return Text(
            f"{who.zh}的回合结束:激活指示物翻至未激活面",
            f"{who.en}'s turn is over: activation token flipped to inactive",
        )
    return Text(f"{who.zh}完成本阶段", f"{who.en} is done with this phase")


EVENT_LINES: dict[str, Any] = {
    "dice_pool_announced": _dice_line,
    "seat_passed": _passed,
    "dont_starve.dial_set": _dial,
    "dont_starve.needs_tile_removed": _needs_removed,
    "dont_starve.needs_tile_laid": _needs_laid,
    "dont_starve.needs_announced": lambda e: Text(
        f"每日需求:光照{e['light']},饥饿{e['hunger']},理智{e['sanity']}",
        f"Daily needs: light {e['light']}, hunger {e['hunger']}, sanity {e['sanity']}",
    ),
    "dont_starve.weather_announced": _weather_announced,
    "dont_starve.character_moved": _moved,
    "dont_starve.tile_revealed": _revealed,
    "dont_starve.fight_started": _fight_started,
    "dont_starve.fighter_resolved": _fighter,
    "dont_starve.fight_ended": _fight_ended,
    "dont_starve.stats_changed": _stats,
    "dont_starve.shadow_revealed": lambda e: _shadow(e, True),
    "dont_starve.shadow_covered": lambda e: _shadow(e, False),
    "dont_starve.character_defeated": lambda e: Text(
        f"{player(e['seat']).zh}的角色被击败,模型离开地图",
        f"{player(e['seat']).en}'s character is defeated and leaves the map",
    ),
    "dont_starve.character_revived": lambda e: Text(
        f"{player(e['seat']).zh}的角色在传送门复活(还剩{e['effigies_left']}个肉块雕像)",
        f"{player(e['seat']).en}'s character is revived at the portal"
        f" ({e['effigies_left']} meat effigies left)",
    ),
    "dont_starve.focus_changed": _focus,
    "dont_starve.inventory_changed": _inventory,
    "dont_starve.world_event": lambda e: Text(
        f"世界事件:{WORLD_EVENT_NAMES.get(e['name'], AS_CARD).zh}",
        f"World event: {WORLD_EVENT_NAMES.get(e['name'], AS_CARD).en}",
    ),
    "dont_starve.essence_changed": lambda e: Text(
        f"精华:现有{e['essence']}点", f"Essence: {e['essence']}"
    ),
    "dont_starve.scenario_won": lambda e: Text(
        f"剧本胜利!获得{e['unlock_points']}点解锁点数",
        f"Scenario won! {e['unlock_points']} unlock points",
    ),
}
"""The log's line for each of Don't Starve's events and for the dice (``Game.event_text``)."""


CATALOGUE_LINES: dict[str, Any] = {
    "dont_starve.weather_drawn": _weather_drawn,
    "dont_starve.location_explored": _explored,
}
"""The lines that name a printed card by its title in the game's box."""


def demo_items(event: dict[str, Any], cat: Catalogue, data: Any = None) -> list[str]:
    """The box's items an event rests on (``data``: the game's, None when there is no game):
    the weather card turned up or in force, the needs tile, the location card and its
    monster's hostility, the shadow cards' CV, the scenario's monster tokens, the character
    card's thresholds and revival values."""
    kind = event.get("type", "")
    card = event.get("card", "")
    if kind in ("dont_starve.weather_drawn", "dont_starve.weather_announced"):
        return [weather_item(cat.weather_card(card))] if cat.has_weather(card) else []
    if kind in ("dont_starve.needs_tile_laid", "dont_starve.needs_announced"):
        tile = cat.needs_tile(int(event.get("tile") or 0))
        return [] if tile is None else [f"needs/tile/{tile.number}"]
    if kind == "dont_starve.location_explored":
        location = cat.location(card)
        return [] if location is None else [location_item(location)]
    if kind == "dont_starve.fight_started" and event.get("target") == "shadow":
        return [shadow_item(int(event.get("tier") or 1))]
    if kind == "dont_starve.fight_started" and event.get("target") == "scenario" and data:
        return [scenario_item(data.scenario)]
    characters = [c.key for c in data.characters] if data is not None else []
    seat = event.get("seat")
    rests = kind in ("dont_starve.shadow_revealed", "dont_starve.character_revived")
    rests = rests or (kind == "dont_starve.focus_changed" and event.get("reason") == "refreshed")
    if rests and isinstance(seat, int) and 0 <= seat < len(characters):
        return [character_item(characters[seat])]
    return []


def event_line(event: dict[str, Any], lang: str, cat: Catalogue, data: Any = None) -> str | None:
    """One line of the kiosk's log for one of Don't Starve's events or its dice, things named
    by the game's box (``cat``), with the note of a line resting on a demo value (``demo_items``;
    ``data``: the game's, to note the lines that read a character card or the scenario card);
    None for an event the game does not own."""
    kind = event.get("type", "")
    if kind in CATALOGUE_LINES:
        text: Text = CATALOGUE_LINES[kind](event, cat)
    elif kind in EVENT_LINES:
        text = EVENT_LINES[kind](event)
    else:
        return None
    text = with_note(text, demo_text(cat, *demo_items(event, cat, data)))
    return text.zh if lang == "zh" else text.en


def scenario_title(cat: Catalogue, key: str) -> Text:
    """A scenario by the title on its card in the box."""
    sc = cat.scenarios[key]
    return Text(sc.title_zh, sc.title_en)


def season_name(cat: Catalogue, season: str) -> Text:
    """A season as its season setup card names it (秋季 / Autumn)."""
    zh, en = cat.season_names.get(season, (season, season))
    return Text(zh, en)


def weather_named(cat: Catalogue, card: str) -> Text:
    """The weather card face up, as players find it (its title, else its symbols)."""
    return weather_title(cat.weather_card(card)) if cat.has_weather(card) else Text("", "")


KIND_WORDS = {"normal": Text("普通", "normal"), "hard": Text("困难", "hard")}
"""The two kinds of needs tile (难度)."""


def option_texts(cat: Catalogue) -> dict[str, Text]:
    """What the set-up page reads for each option and each value it offers (``Game.option_texts``,
    游戏设置): the characters and scenarios of the box, the seasons, the difficulties and the
    structures whose names we know."""
    out = {
        "players": Text("玩家人数", "Players"),
        "characters": Text("角色(每位玩家一个,按座位顺序)", "Characters (one per player, by seat)"),
        "scenario": Text("剧本", "Scenario"),
        "season": Text("季节(留空:剧本卡上的季节)", "Season (blank: the scenario card's)"),
        "difficulty": Text("难度", "Difficulty"),
        "structures": Text(
            "营地里已建成的建筑(至多3个;不选:不使用营地)",
            "Structures built in the base camp (up to 3; none: no base camp)",
        ),
    }
    for key, card in cat.characters.items():
        out[f"characters={key}"] = Text(card.name_zh, card.name_en)
    for key in cat.scenarios:
        out[f"scenario={key}"] = scenario_title(cat, key)
    for key, (zh, en) in cat.season_names.items():
        out[f"season={key}"] = Text(zh, en)
    for key in DIFFICULTIES:
        out[f"difficulty={key}"] = DIFFICULTY_NAMES[key]
    for key, name in STRUCTURE_NAMES.items():
        out[f"structures={key}"] = name
    return out
