"""What players read of Stonesaga, in Chinese and English: the names of the things moves carry
as ids (characters, resources, items, tiles, maladies), and what the kiosk's log says for each
event.

Every refusal (``rules/``) and every console label (``offers.py``) names things through the
functions here, so that the Chinese shows 灰烬、木材、地块102 where the move carries ``Ash``,
``wood``, ``102``. The name tables themselves are in ``catalogue.py`` and the box's names list
(``names.toml``): a function that names a thing of the box takes the game's ``Catalogue``
(``catalogue(state)``).

Over 800 lines on purpose: it is the game's catalogue of what players read, kept as one file so
that a translator or a reviewer of the wording reads every Chinese and English line in one place
(as the other games' ``texts.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from engine.core import Text
from engine.core.box import DRAWS_TEXTS
from engine.stonesaga.catalogue import (
    ATTRIBUTES,
    FACES,
    FEATURES,
    MALADIES,
    OMENS,
    OUTPOST_SCALE,
    RESOURCES,
    SEVERITIES,
    STONES,
    Catalogue,
    challenge_item,
    demo_text,
    table_item,
    with_note,
)

K = TypeVar("K")

NOTHING = Text("无", "none")


def name_in(table: Mapping[str, Text], key: str) -> Text:
    """``key``'s name in a table of names; a value the table does not know, as it was written
    (only a move made by hand can carry one: the console offers known values only)."""
    return table.get(key) or Text(key, key)


def character_name(name: str, cat: Catalogue) -> Text:
    """A character by the name its moves carry (``Ash``): 灰烬 / Ash from our names list in
    the box (names.toml); a name of the Log not in the list, as the players wrote it."""
    return name_in(cat.names["characters"], name)


def item_name(item: str, cat: Catalogue) -> Text:
    """An item by its name in our list (the box's names.toml), else as the players wrote it."""
    return name_in(cat.names["items"], item)


def resource_name(key: str) -> Text:
    """``wood`` → 木材 / wood; ``fish:fresh`` → 鱼(新鲜) / fish (fresh)."""
    base, _, face = key.partition(":")
    name = name_in(RESOURCES, base)
    if not face:
        return name
    side = name_in(FACES, face)
    return Text(f"{name.zh}({side.zh})", f"{name.en} ({side.en})")


def malady_name(label: str) -> Text:
    """A malady token (``injury:light``) as the health track shows it: 轻伤 / light injury."""
    kind, _, level = label.partition(":")
    side, what = name_in(SEVERITIES, level), name_in(MALADIES, kind)
    return Text(f"{side.zh}{what.zh}", f"{side.en} {what.en}")


def tile_name(tile: str, hidden_at: tuple[int, int] | None = None) -> Text:
    """A tile by its printed number (地块102 / tile 102); an unexplored one by where it lies,
    ``hidden_at`` its tray and slot (托盘2第3格: §地图, its number is on the fogged face)."""
    if hidden_at is not None:
        tray, slot = hidden_at
        return Text(
            f"未探索的地块(托盘{tray}第{slot + 1}格)",
            f"unexplored tile (tray {tray}, slot {slot + 1})",
        )
    return Text(f"地块{tile}", f"tile {tile}")


def tile_label(tile: str, cat: Catalogue, explored: bool = True) -> Text:
    """A tile with the features the box's valley draws on it, as the console lists it:
    地块102(森林、洞穴); an unexplored one shows neither (only where it lies)."""
    if not explored:
        return tile_name(tile, cat.slots.get(tile))
    features = [FEATURES[f] for f in cat.tiles[tile].features]
    return Text(
        f"地块{tile}({'、'.join(f.zh for f in features)})",
        f"tile {tile} ({', '.join(f.en for f in features)})",
    )


def listed(keys: Iterable[K], name: Callable[[K], Text], none: Text = NOTHING) -> Text:
    """Several names as a list players read: 木材、纤维 / wood, fiber (``none`` for none)."""
    texts = [name(k) for k in keys]
    if not texts:
        return none
    return Text("、".join(t.zh for t in texts), ", ".join(t.en for t in texts))


def counted(lot: Iterable[tuple[str, int]], none: Text = NOTHING) -> Text:
    """Resources with their counts: 云石×1、河石×2 / cloud stone ×1, river stone ×2."""

    def one(lot_: tuple[str, int]) -> Text:
        name = resource_name(lot_[0])
        return Text(f"{name.zh}×{lot_[1]}", f"{name.en} ×{lot_[1]}")

    return listed(lot, one, none)


EVENT_TEXTS: dict[str, Text] = {
    "stonesaga.activity_raised": Text("活动度升至{activity}", "Activity rises to {activity}"),
    "stonesaga.behemoth_alert": Text("巨兽{name}警觉", "The behemoth {name} is alert"),
    "stonesaga.boost_changed": Text(
        "{character}的{attribute}加值:{level}", "{character}'s {attribute} boost: {level}"
    ),
    "stonesaga.challenge_ended": Text("挑战结束:{result}", "The challenge ends: {result}"),
    "stonesaga.challenge_event_due": Text(
        "挑战事件({threshold}):{text_zh}", "Challenge event ({threshold}): {text_en}"
    ),
    "stonesaga.character_died": Text(
        "{name}死去(哀悼骰{roll}:{effect})", "{name} died (mourning roll {roll}: {effect})"
    ),
    "stonesaga.character_joined": Text(
        "{name}加入({player}号玩家)", "{name} joins (player {player})"
    ),
    "stonesaga.energy_changed": Text(
        "{character}的能量:{energy}({reason})", "{character}'s energy: {energy} ({reason})"
    ),
    "stonesaga.health_changed": Text("{character}的健康:{what}", "{character}'s health: {what}"),
    "stonesaga.kept": Text(
        "{character}保留物品{items}与材料{materials}",
        "{character} keeps items {items} and materials {materials}",
    ),
    "stonesaga.mining_bag_filled": Text(
        "{character}在{feature}采矿,袋中:{bag}",
        "{character} mines the {feature}; in the bag: {bag}",
    ),
    "stonesaga.night_recovered": Text(
        "{character}夜间恢复,能量{energy}", "{character} recovers at night: energy {energy}"
    ),
    "stonesaga.fishing_rolled": Text(
        "{character}钓鱼掷出{dice}", "{character} rolls {dice} for fishing"
    ),
    "stonesaga.mourning_due": Text(
        "{name}死去,氏族掷哀悼骰", "{name} died; the clan rolls the mourning die"
    ),
    "stonesaga.omen_set": Text("当前预兆:{omen}", "Current omen: {omen}"),
    "stonesaga.ore_drawn": Text(
        "{character}抽出{stone}({omen}){entry_zh}", "{character} draws {stone} ({omen}) {entry_en}"
    ),
    "stonesaga.ore_returned": Text("矿石放回供应区:{drawn}", "Ore returned to the supply: {drawn}"),
    "stonesaga.resources_changed": Text(
        "{character}的{resource}:{delta}", "{character}'s {resource}: {delta}"
    ),
    "stonesaga.society_checked": Text(
        "社会:人口{population},动荡{unrest},前哨{outposts}/{outpost_limit}",
        "Society: population {population}, unrest {unrest}, outposts {outposts}/{outpost_limit}",
    ),
    "stonesaga.test_resolved": Text(
        "{character}的{attribute}检定:{total}({success})",
        "{character}'s {attribute} test: {total} (success: {success})",
    ),
    "stonesaga.tile_marked": Text("{tile}标记{marker}:{level}", "{tile} marked {marker}: {level}"),
    "stonesaga.travelled": Text("{character}前往{tile}", "{character} travels to {tile}"),
    "stonesaga.valley_recorded": Text("山谷已记录({region})", "The valley is recorded ({region})"),
    "stonesaga.interval_applied": Text("局间:{interval}", "Between sessions: {interval}"),
    "stonesaga.character_aged": Text("{name}:{age}", "{name}: {age}"),
    "stonesaga.outposts_reviewed": Text(
        "前哨:{tiles}(上限{limit},要变废墟{ruins_due},可免费迁移{free_moves})",
        "Outposts: {tiles} (limit {limit}, {ruins_due} to become ruins, {free_moves} free moves)",
    ),
    "stonesaga.legend_mourned": Text(
        "哀悼{name}:骰{roll},合计{total}({effect})",
        "Mourning {name}: rolled {roll}, total {total} ({effect})",
    ),
    "stonesaga.outpost_moved": Text(
        "前哨从{tile}迁到{to}", "The outpost moves from {tile} to {to}"
    ),
    "stonesaga.valley_rebuilt": Text(
        "山谷按《日志》重建:托盘{trays}/{capacity}",
        "Valley rebuilt from the Log: {trays}/{capacity} trays",
    ),
    "stonesaga.outpost_ruined": Text("{tile}的前哨成为废墟", "The outpost on {tile} is a ruin"),
    "stonesaga.relics_inherited": Text(
        "{character}接过{name}的遗物", "{character} takes {name}'s relics"
    ),
}


# --- the table screen: short names, the outcome, the set-up options, the log -----------------

FEATURE_SHORT: dict[str, Text] = {
    "lake": Text("≈", "≈"),
    "forest": Text("♣", "♣"),
    "fissure": Text("⚡", "⚡"),
    "cave": Text("∩", "∩"),
    "mountain": Text("▲", "▲"),
    "moraine": Text("∴", "∴"),
    "dry_flat": Text("▬", "▬"),
    "grassland": Text("⚘", "⚘"),
    "wetland": Text("♒", "♒"),
    "river": Text("∿", "∿"),
}
"""Each feature (§地图) as a cell of the picture draws it: one symbol, read from the chairs at
any size; the legend names it (``FEATURES``)."""

REGIONS: dict[str, Text] = {"green_vale": Text("翠谷", "Green Vale")}
"""The valley's regions (§地图: 起始区域是翠谷与天崖高原); the English names are ours."""


def challenge_title(card: str, cat: Catalogue) -> Text:
    """A challenge card by its printed title in the box (活过今夜 / Survive the Night)."""
    found = cat.challenges.get(card)
    return found.title if found is not None else Text(card, card)


def region_name(key: str) -> Text:
    """A region by the key valley.toml and the Log's record use."""
    return name_in(REGIONS, key)


def behemoth_name(name: str, cat: Catalogue) -> Text:
    """A behemoth by the name the Log gives it (our list in the box's names.toml), else as
    written."""
    return name_in(cat.names["behemoths"], name)


ATTRIBUTE_SHORT: dict[str, Text] = {
    "strength": Text("力量", "strength"),
    "dexterity": Text("灵巧", "dexterity"),
    "faith": Text("信念", "faith"),
    "perception": Text("觉察", "perception"),
}
"""The attributes as a character's strip names them, by their whole names (§创造角色.2)."""


def attribute_line(
    attributes: Iterable[tuple[str, int]], boosts: Iterable[tuple[str, int]] = ()
) -> Text:
    """A character's attributes in one line, boosts added: 力量6 灵巧5+1 信念4 觉察6."""
    extra = dict(boosts)
    parts = []
    for name, value in attributes:
        plus = f"+{extra[name]}" if extra.get(name) else ""
        short_name = name_in(ATTRIBUTE_SHORT, name)
        parts.append(Text(f"{short_name.zh}{value}{plus}", f"{short_name.en} {value}{plus}"))
    return Text(" ".join(p.zh for p in parts), ", ".join(p.en for p in parts))


def character_number(index: int) -> Text:
    """A character as an event names it (events carry the character's number, not its name)."""
    return Text(f"第{index + 1}名角色", f"character {index + 1}")


RESULTS: dict[str, Text] = {"won": Text("胜利", "won"), "lost": Text("失败", "lost")}
"""How a challenge ends (§挑战卡与目标卡)."""

OUTCOME_TEXTS: dict[str, Text] = {
    "stonesaga.won": Text(
        "挑战胜利:氏族一起完成了挑战卡的目标",
        "Won together: the clan met the challenge card's goal",
    ),
    "stonesaga.lost": Text(
        "挑战失败:挑战卡的目标没有完成,氏族一起承担",
        "Lost together: the clan did not meet the challenge card's goal",
    ),
}
"""The end screen's sentence for each reason ``final_outcome`` gives (``stonesaga.<result>``,
§挑战卡与目标卡): Stonesaga is co-operative, so the clan wins or loses as one."""

EPOCHS: dict[int, Text] = {
    1: Text("第一纪元", "first epoch"),
    2: Text("第二纪元", "second epoch"),
    3: Text("第三纪元", "third epoch"),
}
"""§山谷扩张: the three epochs of a campaign."""


KIND_ORDER = ("campaign_start", "epoch_start", "crisis", "finale")
"""§开局设置.5: the kinds of challenge in the order an epoch's sessions take them."""


def option_texts(cat: Catalogue) -> dict[str, Text]:
    """What the set-up page reads for each option and each value it offers (``Game.option_texts``):
    the challenge cards of the box, the epochs, the behemoths of our name list, and where the
    draws come from."""
    out = {
        "players": Text("玩家人数", "Players"),
        "challenge": Text("挑战卡", "Challenge card"),
        "epoch": Text(
            "纪元(留空:按战役开局或《日志》)", "Epoch (blank: as a campaign starts or the Log says)"
        ),
        "population": Text("人口(留空:按战役开局)", "Population (blank: as a campaign starts)"),
        "unrest": Text("动荡(留空:按战役开局)", "Unrest (blank: as a campaign starts)"),
        "roster": Text("《日志》里活着的角色", "Living characters of the Log"),
        "behemoths": Text("巢穴启用的巨兽", "Behemoths whose lair is active"),
        "log": Text("上一局的《日志》", "The Log of the session before"),
    }

    def session_order(card: str) -> tuple[int, str]:
        """Where a challenge card comes in an epoch (the opener first), then by its id."""
        kind = cat.challenges[card].kind
        return (KIND_ORDER.index(kind) if kind in KIND_ORDER else len(KIND_ORDER), card)

    for card in sorted(cat.challenges, key=session_order):
        title, interval = cat.challenges[card].title, cat.challenges[card].interval
        label = title  # the card as printed, without our id (GI01) that no card shows
        if interval != "introduction":  # §间隔与变老: what choosing this card does to the Log
            after = INTERVALS[interval]
            label = Text(f"{label.zh} — 间隔:{after.zh}", f"{label.en} — interval: {after.en}")
        out[f"challenge={card}"] = label
    for epoch, name in EPOCHS.items():
        out[f"epoch={epoch}"] = name
    for key, name in cat.names["behemoths"].items():
        out[f"behemoths={key}"] = name
    return {**out, **DRAWS_TEXTS}


DICE_REASONS: dict[str, Text] = {
    "character_creation": Text(
        "创造角色(合计至少14,去掉最低的一颗)", "a new character (14 or more, the lowest dropped)"
    ),
    "test": Text("判定(掷出6就奋力一搏)", "a test (a 6 means a heroic effort)"),
    "contest": Text("与巨兽角力", "a contest against the behemoth"),
    "heroic_effort": Text("奋力一搏(上一颗是6)", "a heroic effort (the last die was a 6)"),
    "fishing": Text("钓鱼", "fishing"),
    "mourning": Text("哀悼", "the mourning"),
    "mourning_old_age": Text(
        "为局间老死的角色哀悼(年老而死,结果+2)",
        "the mourning of a character who died of old age between sessions (+2)",
    ),
    "mourning_epoch": Text(
        "为纪元交替中死去的角色哀悼(局间而死,结果+2)",
        "the mourning of a character who died as the epoch ended (+2)",
    ),
}
"""Why the table rolls the dice it is told to (the ``reason`` of ``dice_pool_announced``)."""

COUNTS = ("", "一", "两", "三", "四", "五", "六")

ENERGY_REASONS: dict[str, Text] = {
    "setup": Text("开局", "set-up"),
    "hard_travel": Text("艰难跋涉", "hard travel"),
    "exchange": Text("交换", "exchange"),
    "pack": Text("打包与解包", "packing"),
    "aid": Text("救助", "aid"),
    "process": Text("加工", "processing"),
    "craft": Text("合成", "crafting"),
    "build_outpost": Text("建前哨", "building an outpost"),
    "collect_water": Text("取水", "collecting water"),
    "prepare_shelter": Text("备庇护所", "preparing a shelter"),
    "fish": Text("钓鱼", "fishing"),
    "forage": Text("采集", "foraging"),
    "mine": Text("采矿", "mining"),
    "build": Text("建建筑", "building"),
    "relocate_outpost": Text("迁移前哨", "relocating the outpost"),
    "make_fire": Text("生火", "making a fire"),
    "delve": Text("探穴", "delving"),
    "scavenge": Text("拾荒", "scavenging"),
    "effect": Text("卡牌效果", "a card's effect"),
    "calm_night": Text("静夜", "a calm night"),
}
"""What energy was spent on or came from (the ``reason`` of ``energy_changed``)."""

HEALTH_CHANGES: dict[str, Text] = {
    "added": Text("添了一枚疾苦", "a malady added"),
    "upgraded": Text("一枚疾苦加重", "a malady turned heavy"),
    "degraded": Text("一枚疾苦退化", "a malady degraded"),
    "no_room": Text("健康轨已满", "the track is full"),
}
"""What happened on a health track (§获得与退化)."""

MARKERS: dict[str, Text] = {
    "depletion": Text("枯竭", "depleted"),
    "fire": Text("火堆", "fire"),
    "shelter": Text("庇护所", "shelter"),
    "outpost": Text("前哨", "outpost"),
    "buildings": Text("建筑", "buildings"),
}
"""The location markers and what an outpost holds (§地点标记, §建前哨)."""

BOOSTS: dict[int, Text] = {
    0: Text("增益用完", "boost used up"),
    1: Text("微幅增益(+1)", "minor boost (+1)"),
    2: Text("大幅增益(+2)", "major boost (+2)"),
}
"""§增益: the levels of a boost."""


def marker_level(marker: str, level: int) -> Text:
    """A marker at a level, as the tile shows it: 火堆(箭头面) / fire (arrow side)."""
    name = name_in(MARKERS, marker)
    if marker in ("depletion", "fire"):
        if not level:
            return Text(f"{name.zh}移除", f"{name.en} removed")
        side = Text("箭头面", "arrow side") if level >= 2 else Text("×面", "× side")
        return Text(f"{name.zh}({side.zh})", f"{name.en} ({side.en})")
    if marker == "shelter":
        return Text(f"{name.zh}{level}级", f"{name.en} level {level}")
    if marker == "outpost":
        return Text("建起前哨", "an outpost built") if level else Text("前哨迁走", "outpost moved")
    return Text(f"{name.zh}{level}座", f"{name.en}: {level}")


def _signed(delta: int) -> str:
    return f"+{delta}" if delta > 0 else f"−{-delta}"


def _unmarked(zh: str, en: str) -> Text | None:
    """A printed text the data marks as not yet copied from the card (a placeholder): None,
    so that the line says where to read it instead."""
    if "占位" in zh or "placeholder" in en.lower():
        return None
    return Text(zh, en)


def _dice_line(event: dict[str, Any], cat: Catalogue) -> Text:
    """§判定, §钓鱼, §创造角色, §角色死亡与传说: who rolls how many dice, and why."""
    dice = list(event.get("dice") or ())
    if not dice:
        return Text("骰子已掷完", "The dice are done")
    seat = event.get("seat")
    if seat is not None:
        who = Text(f"{seat + 1}号玩家", f"Player {seat + 1}")
    elif event.get("reason") in ("mourning_old_age", "mourning_epoch"):
        who = Text("一位玩家", "A player")
    else:
        who = Text("每位玩家", "Each player")
    count = len(dice)
    n_zh = COUNTS[count] if count < len(COUNTS) else str(count)
    zh = f"{who.zh}掷{n_zh}颗骰"
    en = f"{who.en} rolls {count} {'die' if count == 1 else 'dice'}"
    reason = str(event.get("reason") or "")
    if reason:
        why = name_in(DICE_REASONS, reason)
        zh, en = f"{zh}:{why.zh}", f"{en} for {why.en}"
    return Text(zh, en)


Line = Callable[[dict[str, Any], Catalogue], Text]


def _who(e: dict[str, Any]) -> Text:
    return character_number(int(e["character"]))


def _f(template: Text, **params: object) -> Text:
    return template.format(**params)


def _health_line(e: dict[str, Any], cat: Catalogue) -> Text:
    track = listed(e.get("health") or (), malady_name, Text("无疾苦", "no malady"))
    what = name_in(HEALTH_CHANGES, str(e["what"]))
    out = _f(Text("{c}的健康轨:{t}({w})", "{c}'s health: {t} ({w})"), c=_who(e), t=track, w=what)
    if e.get("incapacitated"):
        out = Text(f"{out.zh},失能", f"{out.en}; incapacitated")
    return out


def _mourning_effect(effect: str, legend: bool = False) -> Text:
    """§角色死亡与传说.1: what the mourning roll did, in words (``legend``: say it made one)."""
    if effect == "population":
        return Text("人口−1", "population −1")
    if effect == "unrest":
        return Text("动荡+1", "unrest +1")
    if effect.endswith("+1"):
        attribute = name_in(ATTRIBUTES, effect.removesuffix("+1"))
        if legend:
            return Text(f"{attribute.zh}+1(成为传说)", f"{attribute.en} +1 (a legend)")
        return Text(f"{attribute.zh}+1", f"{attribute.en} +1")
    return Text("属性都已是6,没有变化", "every attribute is already 6: no change")


def _died_line(e: dict[str, Any], cat: Catalogue) -> Text:
    what = _mourning_effect(str(e["effect"]), legend=True)
    return _f(
        Text("{n}死去,哀悼骰{r}:{w}", "{n} died; mourning roll {r}: {w}"),
        n=character_name(str(e["name"]), cat),
        r=e["roll"],
        w=what,
    )


def _recovered_line(e: dict[str, Any], cat: Catalogue) -> Text:
    parts = [Text(f"休息+{e['rest']}", f"rest +{e['rest']}")]
    if e.get("food"):
        parts.append(
            Text(f"吃了{resource_name(e['food']).zh}+1", f"ate {resource_name(e['food']).en} +1")
        )
    if e.get("water"):
        parts.append(Text("喝水+1", "water +1"))
    if e.get("comfort"):
        parts.append(Text("舒适+1", "comfort +1"))
    why = listed(parts, lambda t: t)
    return _f(
        Text("{c}夜间恢复,精力{n}({w})", "{c} recovers at night: energy {n} ({w})"),
        c=_who(e),
        n=e["energy"],
        w=why,
    )


def _test_line(e: dict[str, Any], cat: Catalogue) -> Text:
    dice = "、".join(str(d) for d in e.get("dice") or ())
    out = _f(
        Text("{c}的{a}判定:骰{d},合计{t}", "{c}'s {a} test: dice {de}, total {t}"),
        c=_who(e),
        a=name_in(ATTRIBUTES, str(e["attribute"])),
        d=dice,
        de=", ".join(str(d) for d in e.get("dice") or ()),
        t=e["total"],
    )
    if e.get("success") is True:
        return Text(f"{out.zh},成功", f"{out.en}: success")
    if e.get("success") is False:
        return Text(f"{out.zh},失败", f"{out.en}: failure")
    return out


def _ore_line(e: dict[str, Any], cat: Catalogue) -> Text:
    out = _f(
        Text("{c}摸出{s}({o})", "{c} draws {s} ({o})"),
        c=_who(e),
        s=name_in(STONES, str(e["stone"])),
        o=name_in(OMENS, str(e["omen"])),
    )
    if not e.get("matched"):
        return Text(f"{out.zh}:不符当前预兆,无事发生", f"{out.en}: not the current omen, nothing")
    entry = _unmarked(str(e.get("entry_zh", "")), str(e.get("entry_en", "")))
    if entry is None:
        entry = Text("查秘典183页采矿表", "read the mining table, Secret Book p.183")
    return Text(f"{out.zh}:符合当前预兆,{entry.zh}", f"{out.en}: the current omen; {entry.en}")


def _challenge_event_line(e: dict[str, Any], cat: Catalogue) -> Text:
    text = _unmarked(str(e.get("text_zh", "")), str(e.get("text_en", "")))
    if text is None:
        text = Text("结算挑战卡背面的这条事件", "resolve this event on the challenge card's back")
    return _f(Text("活跃度达到{t}:{x}", "Activity reached {t}: {x}"), t=e["threshold"], x=text)


def _travel_line(e: dict[str, Any], cat: Catalogue) -> Text:
    out = _f(Text("{c}前往{t}", "{c} travels to {t}"), c=_who(e), t=tile_name(str(e["tile"])))
    notes = []
    if e.get("revealed"):
        notes.append(Text("翻开了未探索的地块", "the unexplored tile is turned over"))
    if e.get("hard_travel"):
        notes.append(Text("艰难跋涉", "hard travel"))
    notes.append(Text("抽一张旅途卡", "draw a journey card"))
    more = listed(notes, lambda t: t)
    return Text(f"{out.zh}:{more.zh}", f"{out.en}: {more.en}")


def _kept_line(e: dict[str, Any], cat: Catalogue) -> Text:
    return _f(
        Text("{c}保留物品:{i};材料:{m}", "{c} keeps items: {i}; materials: {m}"),
        c=_who(e),
        i=listed(e.get("items") or (), lambda i: item_name(i, cat)),
        m=listed(e.get("materials") or (), resource_name),
    )


INTERVALS: dict[str, Text] = {
    "season": Text("季(角色不变)", "a season (the characters do not change)"),
    "generation": Text(
        "世代(每名角色变老,老者死去成为传说)",
        "a generation (every character ages; the old die and become legends)",
    ),
    "epoch": Text("纪元(所有角色死去成为传说)", "an epoch (every character dies, a legend)"),
    "introduction": Text("入门(没有影响)", "the introduction (no effect)"),
}
"""§间隔与变老: the intervals printed on challenge cards and what each does."""

AGE_NAMES: dict[str, Text] = {
    "young": Text("年轻", "young"),
    "old": Text("变老了", "grows old"),
    "dead": Text("在局间死去,成为传说", "dies between the sessions and becomes a legend"),
}
"""§间隔与变老: a character's age after the interval."""

OVERLAY_KINDS: dict[str, Text] = {
    "outpost": Text("前哨", "outpost"),
    "ruin": Text("废墟", "ruin"),
    "lair": Text("巢穴", "lair"),
    "glacier": Text("冰川", "glacier"),
}
"""§覆盖层: the overlay kinds the valley reader names (``outpost 3``)."""


def overlay_name(overlay: str) -> Text:
    """An overlay as the record names it (``outpost 3``): 前哨3 / outpost 3."""
    kind, _, number = overlay.partition(" ")
    name = name_in(OVERLAY_KINDS, kind)
    return Text(f"{name.zh}{number}", f"{name.en} {number}".strip())


def rebuild_issue_text(kind: str, details: dict[str, Any]) -> Text:
    """One difference between the rebuilt valley and the Log's map (``campaign.rebuild_issues``),
    as players read it: which tile or overlay, and where it goes."""
    d = details
    tile = Text(f"地块{d.get('tile')}", f"tile {d.get('tile')}")
    where = Text(
        f"托盘{d.get('tray')}第{int(d.get('slot') or 0) + 1}格",
        f"tray {d.get('tray')} slot {int(d.get('slot') or 0) + 1}",
    )
    if kind == "missing":
        return Text(f"缺{tile.zh}(放在{where.zh})", f"{tile.en} is missing (it goes in {where.en})")
    if kind == "misplaced":
        return Text(
            f"{tile.zh}在托盘{d.get('at')},应放在{where.zh}",
            f"{tile.en} is in tray {d.get('at')}; it goes in {where.en}",
        )
    if kind == "turned":
        return Text(
            f"{tile.zh}的朝向不对,应转{d.get('rotation')}°",
            f"{tile.en} is turned wrong; it goes at {d.get('rotation')}°",
        )
    if kind == "face":
        face = (
            Text("已探索面", "explored side")
            if d.get("explored")
            else Text("未探索面", "unexplored side")
        )
        return Text(f"{tile.zh}应{face.zh}朝上", f"{tile.en} goes {face.en} up")
    if kind == "extra":
        return Text(
            f"{tile.zh}不在《日志》的地图上(扩张的地块放在新托盘里、未探索面朝上)",
            f"{tile.en} is not on the Log's map (an expansion's tiles go face down in a new tray)",
        )
    overlay = overlay_name(str(d.get("overlay")))
    zone = Text(
        f"{tile.zh}第{int(d.get('zone') or 0) + 1}区",
        f"{tile.en} zone {int(d.get('zone') or 0) + 1}",
    )
    if kind == "overlay_missing":
        return Text(f"缺{overlay.zh}(在{zone.zh})", f"{overlay.en} is missing ({zone.en})")
    return Text(
        f"{overlay.zh}在{zone.zh},《日志》里没有", f"{overlay.en} on {zone.en} is not in the Log"
    )


def _mourned_line(e: dict[str, Any], cat: Catalogue) -> Text:
    what = _mourning_effect(str(e["effect"]))
    roll, total = e["roll"], e["total"]
    dice = Text(f"骰{roll}", f"rolled {roll}")
    if total != roll:
        dice = Text(
            f"骰{roll}+{total - roll}(年老)={total}",
            f"rolled {roll} +{total - roll} (old age) = {total}",
        )
    return _f(
        Text("为{n}哀悼,{d}:{w};{n}成为传说", "Mourning {n}, {d}: {w}; {n} is a legend"),
        n=character_name(str(e["name"]), cat),
        d=dice,
        w=what,
    )


def _inherited_line(e: dict[str, Any], cat: Catalogue) -> Text:
    return _f(
        Text(
            "{c}接过{n}的遗物:物品{i};材料{m}", "{c} takes {n}'s relics: items {i}; materials {m}"
        ),
        c=_who(e),
        n=character_name(str(e["name"]), cat),
        i=listed(e.get("items") or (), lambda i: item_name(i, cat)),
        m=listed(e.get("materials") or (), resource_name),
    )


EVENT_LINES: dict[str, Line] = {
    "stonesaga.interval_applied": lambda e, cat: _f(
        Text(
            "第{p}纪元第{s}局开始,挑战{c};局间过去了{i}",
            "Epoch {p}, session {s} begins with challenge {c}; between sessions: {i}",
        ),
        p=e["epoch"],
        s=e["session"],
        c=challenge_title(str(e["challenge"]), cat),
        i=name_in(INTERVALS, str(e["interval"])),
    ),
    "stonesaga.character_aged": lambda e, cat: _f(
        Text("{n}{a}", "{n} {a}"),
        n=character_name(str(e["name"]), cat),
        a=name_in(AGE_NAMES, str(e["age"])),
    ),
    "stonesaga.legend_mourned": _mourned_line,
    "stonesaga.outposts_reviewed": lambda e, cat: _f(
        Text(
            "《日志》上的前哨:{t};人口允许{l}个,现在要有{r}个变成废墟,局间可免费迁移{m}次",
            "The Log's outposts: {t}; the population allows {l}, {r} must become ruins now,"
            " {m} free moves between sessions",
        ),
        t=listed(e.get("tiles") or (), tile_name),
        l=e["limit"],
        r=e["ruins_due"],
        m=e["free_moves"],
    ),
    "stonesaga.outpost_moved": lambda e, cat: _f(
        Text(
            "前哨从{t}免费迁到{o}(局间还可迁{l}次)",
            "The outpost moves free from {t} to {o} ({l} free moves left between sessions)",
        ),
        t=tile_name(str(e["tile"])),
        o=tile_name(str(e["to"])),
        l=e["left"],
    ),
    "stonesaga.valley_rebuilt": lambda e, cat: _f(
        Text(
            "山谷已按《日志》的地图重建:{t}个托盘(本纪元最多{c}个),新扩张的地块{x}块",
            "The valley is rebuilt as the Log's map shows: {t} trays (this epoch holds {c}),"
            " {x} tiles of expansion",
        ),
        t=e["trays"],
        c=e["capacity"],
        x=e["expansion"],
    ),
    "stonesaga.relics_inherited": _inherited_line,
    "stonesaga.outpost_ruined": lambda e, cat: _f(
        Text(
            "{t}的前哨翻到废墟面,其上建筑失效(还要{l}个)",
            "The outpost on {t} is turned to its ruin side; its buildings no longer count"
            " ({l} more to go)",
        ),
        t=tile_name(str(e["tile"])),
        l=e["left"],
    ),
    "stonesaga.activity_raised": lambda e, cat: _f(
        Text("活跃度升至{a}", "Activity rises to {a}"), a=e["activity"]
    ),
    "stonesaga.behemoth_alert": lambda e, cat: _f(
        Text("巨兽{n}本局警觉", "The behemoth {n} is alert this session"),
        n=behemoth_name(str(e["name"]), cat),
    ),
    "stonesaga.boost_changed": lambda e, cat: _f(
        Text("{c}的{a}:{l}", "{c}'s {a}: {l}"),
        c=_who(e),
        a=name_in(ATTRIBUTES, str(e["attribute"])),
        l=BOOSTS.get(int(e["level"]), BOOSTS[2]),
    ),
    "stonesaga.challenge_ended": lambda e, cat: _f(
        Text("挑战结束:{r},开始存档", "The challenge ends {r}; now the save"),
        r=name_in(RESULTS, str(e["result"])),
    ),
    "stonesaga.challenge_event_due": _challenge_event_line,
    "stonesaga.character_died": _died_line,
    "stonesaga.character_joined": lambda e, cat: _f(
        Text("{n}加入({p}号玩家)", "{n} joins (player {p})"),
        n=character_name(str(e["name"]), cat),
        p=int(e["seat"]) + 1,
    ),
    "stonesaga.energy_changed": lambda e, cat: _f(
        Text("{c}的精力{d},现为{n}({r})", "{c}'s energy {d}, now {n} ({r})"),
        c=_who(e),
        d=_signed(int(e["delta"])),
        n=e["energy"],
        r=name_in(ENERGY_REASONS, str(e["reason"])),
    ),
    "stonesaga.fishing_rolled": lambda e, cat: _f(
        Text("{c}的钓鱼骰:{d}", "{c}'s fishing dice: {d}"),
        c=_who(e),
        d=Text(
            "、".join(str(d) for d in e.get("dice") or ()),
            ", ".join(str(d) for d in e.get("dice") or ()),
        ),
    ),
    "stonesaga.health_changed": _health_line,
    "stonesaga.kept": _kept_line,
    "stonesaga.mining_bag_filled": lambda e, cat: _f(
        Text("{c}在{f}采矿,袋中:{b}", "{c} mines the {f}; in the bag: {b}"),
        c=_who(e),
        f=name_in(FEATURES, str(e["feature"])),
        b=counted(tuple((str(s), int(n)) for s, n in e.get("bag") or ())),
    ),
    "stonesaga.mourning_due": lambda e, cat: _f(
        Text("{n}死去,氏族为其掷哀悼骰", "{n} died; the clan rolls the mourning die"),
        n=character_name(str(e["name"]), cat),
    ),
    "stonesaga.night_recovered": _recovered_line,
    "stonesaga.omen_set": lambda e, cat: _f(
        Text("当前预兆:{o}", "Current omen: {o}"), o=name_in(OMENS, str(e["omen"]))
    ),
    "stonesaga.ore_drawn": _ore_line,
    "stonesaga.ore_returned": lambda e, cat: _f(
        Text("采矿结束,{n}枚矿石标记倒回供应堆", "Mining done: {n} ore tokens back to the supply"),
        n=e["drawn"],
    ),
    "stonesaga.resources_changed": lambda e, cat: _f(
        Text("{c}的{r}{d}", "{c}'s {r} {d}"),
        c=_who(e),
        r=resource_name(str(e["resource"])),
        d=_signed(int(e["delta"])),
    ),
    "stonesaga.society_checked": lambda e, cat: _f(
        Text(
            "社会:人口{p},动荡{u},前哨{o}/{l}",
            "Society: population {p}, unrest {u}, outposts {o} of {l}",
        ),
        p=e["population"],
        u=e["unrest"],
        o=e["outposts"],
        l=e["outpost_limit"],
    ),
    "stonesaga.test_resolved": _test_line,
    "stonesaga.tile_marked": lambda e, cat: _f(
        Text("{t}:{m}", "{t}: {m}"),
        t=tile_name(str(e["tile"])),
        m=marker_level(str(e["marker"]), int(e["level"])),
    ),
    "stonesaga.travelled": _travel_line,
    "stonesaga.valley_recorded": lambda e, cat: _f(
        Text(
            "山谷记入《日志》:{r},托盘{a}个、地块{t}块、覆盖层{o}个",
            "The valley is written into the Log: {r}; trays: {a}, tiles: {t}, overlays: {o}",
        ),
        r=region_name(str(e["region"])),
        a=e["trays"],
        t=e["tiles"],
        o=e["overlays"],
    ),
    "dice_pool_announced": _dice_line,
}
"""One line of the kiosk's log for each of Stonesaga's events and for the dice it lights."""


def event_line(
    event: dict[str, Any], lang: str, cat: Catalogue, card: str | None = None
) -> str | None:
    """The log's line for an event (plain data) in ``lang``, things named by the box ``cat``;
    None for an event not Stonesaga's. A line resting on a printed value of the demo box says
    so (``event_note``; ``card`` is the session's challenge card, whose events are due)."""
    line = EVENT_LINES.get(str(event.get("type")))
    if line is None:
        return None
    text = with_note(line(event, cat), event_note(event, cat, card))
    return text.zh if lang == "zh" else text.en


def event_note(event: dict[str, Any], cat: Catalogue, card: str | None = None) -> Text | None:
    """The demo note of an event that rests on a printed value (docs/box.md, honest rulings):
    an ore drawn on the current omen reads the mining table's row of its feature (§采矿.5), a
    challenge event is the session's card's (§夜晚阶段.8), the outposts the population allows
    come from the outpost scale (§建前哨); None when that value is the owner's."""
    kind = event.get("type")
    if kind == "stonesaga.ore_drawn" and event.get("matched") and event.get("feature"):
        return demo_text(cat, table_item(str(event["feature"])))
    if kind == "stonesaga.challenge_event_due" and card:
        return demo_text(cat, challenge_item(card))
    if kind in ("stonesaga.society_checked", "stonesaga.outposts_reviewed"):
        return demo_text(cat, OUTPOST_SCALE)
    return None
