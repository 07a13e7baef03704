"""What the kiosk shows of a Greenwood game beside the submarines: the summary and each
player's strip (``Game.view``)."""

from __future__ import annotations

from typing import Any

from engine.core import State, Text
from engine.greenwood.catalogue import Threat, box_of, threat_item
from engine.greenwood.rules.draws import threat_at
from engine.greenwood.state import GreenwoodData
from engine.greenwood.texts import (
    CHOICE_TEXTS,
    LAYOUT_NAMES,
    knowledge_list,
    listed,
    threat_name,
    trigger_name,
)

STRIP = ("points", "energy", "spies", "aurora", "knowledge", "rescued")
"""A player's fields on the kiosk's strip, most important first (at most six)."""
VIEW_LABELS: dict[str, Text] = {
    "layout": Text("潜艇布局", "layout"),
    "threats": Text("已翻开的威胁", "threats"),
    "virtual": Text("虚拟对手伙伴", "virtual companions"),
    "points": Text("分数", "points"),
    "energy": Text("能量", "energy"),
    "spies": Text("间谍", "spies"),
    "aurora": Text("极光", "aurora"),
    "knowledge": Text("知识", "knowledge"),
    "rescued": Text("解救生物", "rescued"),
}
"""The view's labels (lower case in English, as the strip has always shown them)."""


def view(state: State[GreenwoodData], lang: str) -> dict[str, Any]:
    """The layout, the revealed threats and a short strip per player, points first."""
    tr = (lambda t: t.zh) if lang == "zh" else (lambda t: t.en)
    table: GreenwoodData = state.data
    revealed = [threat_at(state, i) for i in range(min(table.revealed, len(table.threats)))]
    box, entered = box_of(state), {t.name for t in table.entered}

    def shown(t: Threat) -> Text:
        text = Text(
            f"{threat_name(t.name).zh}({trigger_name(t.trigger).zh})",
            f"{threat_name(t.name).en} ({trigger_name(t.trigger).en})",
        )
        if t.name in entered or box.is_owners(threat_item(t.name)):
            return text
        return CHOICE_TEXTS["demo"].format(name=text)  # what sets it off is the demo's

    threats = listed(shown(t) for t in revealed)
    summary: list[list[Any]] = [
        [tr(VIEW_LABELS["layout"]), tr(LAYOUT_NAMES[state.options.layout])],
        [tr(VIEW_LABELS["threats"]), tr(threats)],
    ]
    if state.players == 1:
        summary.append([tr(VIEW_LABELS["virtual"]), table.virtual])
    players = []
    for seat, p in enumerate(table.players):
        known = knowledge_list(p.knowledge)
        values = (
            p.score,
            f"{p.energy_left}/{p.energy}",
            f"{p.spies_left}/{p.spies}",
            p.aurora,
            Text(
                f"{known.zh}({len(p.knowledge)}/{p.slots})",
                f"{known.en} ({len(p.knowledge)}/{p.slots})",
            ),
            len(p.rescued),
        )
        fields = [
            [tr(VIEW_LABELS[key]), tr(v) if isinstance(v, Text) else v]
            for key, v in zip(STRIP, values, strict=True)
        ]
        players.append({"seat": seat, "fields": fields})
    return {"summary": summary, "players": players}
