"""The kiosk's view of a Stonesaga state: the summary and a strip for each character."""

from __future__ import annotations

from typing import Any

from engine.core import State, Text
from engine.stonesaga import state as st
from engine.stonesaga.catalogue import (
    FEATURES,
    OMENS,
    STONES,
    Catalogue,
    catalogue,
    challenge_item,
    demo_text,
)
from engine.stonesaga.common import _bag_text, _cap, _length, _tile
from engine.stonesaga.texts import (
    INTERVALS,
    RESULTS,
    attribute_line,
    behemoth_name,
    character_name,
    counted,
    item_name,
    listed,
    malady_name,
    name_in,
)

Data = st.Saga
NOBODY = Text("无", "none")


def _bag_rows(mine: st.Mining, tr: Any, label: Any) -> list[list[Any]]:
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


def health_track(covered: int, cells: int) -> Text:
    """§疾苦与健康轨: the track as it lies on the character board, its covered cells first:
    "■□□□□ 疾苦 1/5" / "■□□□□ maladies 1 of 5" (a bare "0/5" read as no health left)."""
    cells_drawn = "■" * covered + "□" * max(cells - covered, 0)
    return Text(
        f"{cells_drawn} 疾苦 {covered}/{cells}", f"{cells_drawn} maladies {covered} of {cells}"
    )


def _strip(cat: Catalogue, data: Data, c: st.Character, tr: Any, label: Any) -> list[list[Any]]:
    """A character's few fields for the kiosk's strip, most important first (at most six)."""
    attributes = tr(attribute_line(c.attributes, c.boosts))
    if not c.alive:
        return [
            [label("状态", "State"), label("已死亡", "dead")],
            [label("属性", "Attributes"), attributes],
        ]
    health = [
        tr(health_track(len(c.health), _length(data))),
        *(tr(malady_name(t.label())) for t in c.health),
    ]
    tile = _tile(cat, data, c.tile) if c.tile else Text("尚未入场", "not on the map yet")
    cap = _cap(data)
    # §开局设置.4: the energy markers go on the duty board when the session begins, not at
    # creation; a bare "0/5" before then read as a character with no energy (issue 24).
    energy = f"{c.energy}/{cap}" if c.tile else tr(Text(f"开局时摆{cap}点", f"{cap} at the start"))
    fields: list[list[Any]] = [
        [label("精力", "Energy"), energy],
        [label("健康轨", "Health track"), " ".join(health)],
        [label("地块", "Tile"), tr(tile)],
        [label("背包", "Pack"), tr(counted(c.pack, Text("空", "empty")))],
        [label("属性", "Attributes"), attributes],
    ]
    if c.items:
        fields.append([label("物品", "Items"), tr(listed(c.items, lambda i: item_name(i, cat)))])
    return fields


def _interval_rows(cat: Catalogue, data: Data, tr: Any, label: Any) -> list[list[Any]]:
    """Between sessions (§间隔与变老, §废墟与迁移前哨, §开局设置.7): the interval, who awaits
    the mourning die, the free outpost moves left, whether the valley was checked, the living."""

    def named(name: str) -> Text:
        return character_name(name, cat)

    due = listed((data.roster[i].name for i in data.old_age), named, NOBODY)
    living = listed((h.name for h in data.roster if h.alive), named, NOBODY)
    checked = Text("已核对", "checked") if data.rebuilt else Text("待摄像头核对", "to be checked")
    return [
        [label("局间", "Between sessions"), tr(name_in(INTERVALS, data.interval))],
        [label("待哀悼", "To mourn"), tr(due)],
        [label("免费迁移前哨", "Free outpost moves"), data.free_moves],
        [label("山谷", "Valley"), tr(checked)],
        [label("《日志》里在世的角色", "Living in the Log"), tr(living)],
    ]


def view(state: State[Any], lang: str) -> dict[str, Any]:
    """Omen, tracks, the bag being drawn from, and a short strip for each character."""
    data: Data = state.data
    cat = catalogue(state)
    tr = (lambda t: t.zh) if lang == "zh" else (lambda t: t.en)
    label = (lambda zh, en: zh) if lang == "zh" else (lambda zh, en: en)
    card = cat.challenge(data.challenge)
    summary: list[list[Any]] = [
        [label("挑战", "Challenge"), tr(card.title)],
        [label("当前预兆", "Current omen"), tr(listed(data.omens, OMENS.__getitem__))],
        [label("活跃度", "Activity"), data.activity],
        [label("人口", "Population"), data.population],
        [label("动荡", "Unrest"), data.unrest],
        [label("纪元", "Epoch"), data.epoch],
        [label("本纪元第几局", "Session of the epoch"), data.session],
    ]
    if state.flow.phase == "interval":
        summary += _interval_rows(cat, data, tr, label)
    if data.alert:
        summary.append([label("警觉巨兽", "Alert behemoth"), tr(behemoth_name(data.alert, cat))])
    elif data.alert_due:
        due = Text("待桌上抽出", "to be drawn at the table")
        summary.append([label("警觉巨兽", "Alert behemoth"), tr(due)])
    if data.result:
        summary.append([label("挑战结果", "Result"), tr(RESULTS[data.result])])
    note = demo_text(cat, challenge_item(card.id))  # its events are the demo box's
    if note is not None:
        summary.append([label("挑战卡", "Challenge card"), tr(note)])
    if data.mining is not None:
        summary += _bag_rows(data.mining, tr, label)
    players = [
        {
            "seat": c.seat,
            "name": tr(character_name(c.name, cat)),
            "fields": _strip(cat, data, c, tr, label),
        }
        for c in data.characters
    ]
    return {"summary": summary, "players": players}
