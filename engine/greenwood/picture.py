"""Greenwood's submarines as the kiosk draws them (``Game.picture``): one board per seat.

Each board is the layout's grid (greenwood.zh.md §一.1: every player uses the same layout) as
the engine holds it: the start cell (§三.10 第一块板块必须覆盖起始格) while it is free, the
unusable cells, the reward icons of the hold with a short text (a several-cell icon writes it
once, on its first cell), each placed piece as one group, and the cells of a completed area
(§三.10 区域完成奖励) drawn ``done``, still outlined piece by piece. A refused placement is
outlined on the cells it tried, on that seat's board. The notes say in words what waits to be
placed, the areas completed and the creatures on top of the submarine (the tie-break, §五.5).
"""

from __future__ import annotations

from typing import Any

from engine.core import Move, State, Text
from engine.greenwood.board import Cell
from engine.greenwood.catalogue import Layout, catalogue
from engine.greenwood.moves import Place
from engine.greenwood.state import GreenwoodData, Player
from engine.greenwood.texts import (
    ICON_WORDS,
    REWARD_ICONS,
    area_name,
    creature_name,
    listed,
    piece_name,
    reward_icon,
)

LEGEND: dict[str, Text] = {
    "empty": Text("空格", "free cell"),
    "start": Text("起始格(第一块必须覆盖)", "start cell (first piece)"),
    "blocked": Text("不可使用的格子", "unusable cell"),
    "reward": Text("奖励(盖满时获得)", "reward (paid when covered)"),
    "piece": Text("已放置的板块", "placed piece"),
    "done": Text("已完成的区域", "completed area"),
    "refused": Text("规则拒绝的放置", "placement the rules refused"),
}
"""What each kind and mark of this picture means, for the legend (in this order)."""

TITLE = Text("{n}号玩家的潜艇", "Player {n}'s submarine")
"""A board's title; the kiosk names the seat as the screen does ("Anna's submarine")."""
WISP = REWARD_ICONS["wisp"]
"""The symbol of a wisp's cell (the legend names it): wisps are no rescued creatures (§五.5)."""
NOTES = {
    "awaiting": Text("待放置:{pieces}", "To place: {pieces}"),
    "done": Text("已完成:{areas}", "Completed: {areas}"),
    "rescued": Text("顶部的生物:{creatures}", "Rescued on top: {creatures}"),
}


def _tr(text: Text, lang: str) -> str:
    return text.zh if lang == "zh" else text.en


def done_areas(layout: Layout, player: Player) -> list[int]:
    """The areas of the layout this submarine has completed (unusable cells count, §三.10)."""
    filled = player.covered | layout.unusable
    return [i for i, area in enumerate(layout.areas) if area.cells <= filled]


def board(layout: Layout, seat: int, player: Player, lang: str) -> dict[str, Any]:
    """One seat's submarine: every cell of the grid once, and the notes."""
    finished = done_areas(layout, player)
    done: set[Cell] = {c for i in finished for c in layout.areas[i].cells}
    cells: dict[Cell, dict[str, Any]] = {}
    for row in range(layout.rows):
        for col in range(layout.cols):
            kind = "blocked" if (col, row) in layout.unusable else "empty"
            cells[(col, row)] = {"col": col, "row": row, "kind": kind}
    if layout.start not in layout.unusable:
        cells[layout.start]["kind"] = "start"
    for icon in layout.icons:
        first = min(icon.cells, key=lambda c: (c[1], c[0]))
        for cell in icon.cells:
            cells[cell]["kind"] = "reward"
        cells[first]["text"] = _tr(reward_icon(icon.reward), lang)
        cells[first]["icon"] = icon.reward.partition(":")[0]
    for number, placed in enumerate(player.pieces, 1):
        for cell in placed.cells:
            if cell not in cells:
                continue
            drawn: dict[str, Any] = {
                "col": cell[0],
                "row": cell[1],
                "kind": "done" if cell in done else "piece",
                "group": f"{seat + 1}-{number}",
            }
            if placed.piece == "wisp":
                drawn["text"] = _tr(WISP, lang)
                drawn["icon"] = "wisp"
            cells[cell] = drawn
    notes = []
    waiting = [r.removeprefix("place:") for _, r in player.pending if r.startswith("place:")]
    if waiting:
        notes.append(NOTES["awaiting"].format(pieces=listed(map(piece_name, waiting))))
    if finished:
        areas = listed(area_name(layout.areas[i].name) for i in finished)
        notes.append(NOTES["done"].format(areas=areas))
    if player.rescued:
        notes.append(NOTES["rescued"].format(creatures=listed(map(creature_name, player.rescued))))
    return {
        "title": _tr(TITLE.format(n=seat + 1), lang),
        "seat": seat,
        "cols": layout.cols,
        "rows": layout.rows,
        "cells": list(cells.values()),
        "tokens": [],
        "marks": [],
        "notes": [_tr(n, lang) for n in notes],
    }


def refused_marks(layout: Layout, refused: Move | None) -> list[dict[str, Any]]:
    """A refused placement outlined on the cells it tried that lie on the grid (§三.10)."""
    if not isinstance(refused, Place):
        return []
    tried = sorted({(c, r) for c, r in refused.cells}, key=lambda x: (x[1], x[0]))
    return [
        {"col": c, "row": r, "kind": "refused"}
        for c, r in tried
        if 0 <= c < layout.cols and 0 <= r < layout.rows
    ]


def picture(state: State[Any], lang: str, refused: Move | None = None) -> dict[str, Any]:
    """Every seat's submarine, and a legend of the kinds and marks drawn (``Game.picture``)."""
    table: GreenwoodData = state.data
    layout = catalogue(state).layouts[state.options.layout]
    boards = [board(layout, seat, p, lang) for seat, p in enumerate(table.players)]
    if isinstance(refused, Place) and 0 <= refused.seat < len(boards):
        boards[refused.seat]["marks"] = refused_marks(layout, refused)
    return {"boards": boards, "legend": legend(boards, lang)}


def legend(boards: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """The kinds and marks drawn, in LEGEND's order (a placed piece with the seats whose
    pieces show, each in its colour; no free cell), then each reward symbol drawn with its
    name (instead of the plain "reward icon")."""
    used = {c["kind"] for b in boards for c in b["cells"]}
    used |= {m["kind"] for b in boards for m in b["marks"]}
    out: list[dict[str, Any]] = []
    icons = {c["icon"] for b in boards for c in b["cells"] if "icon" in c}
    for kind, text in LEGEND.items():
        if kind not in used or kind == "empty" or (kind == "reward" and icons):
            continue  # a free cell is plain; the reward symbols below name the rewards
        entry: dict[str, Any] = {"kind": kind, "text": _tr(text, lang)}
        if kind == "piece":
            entry["seats"] = [
                b["seat"] for b in boards if any(c["kind"] == "piece" for c in b["cells"])
            ]
        out.append(entry)
    for key, word in ICON_WORDS.items():
        if key in icons:
            icon = REWARD_ICONS[key].format(n="") if key == "vp" else REWARD_ICONS[key]
            symbol = _tr(icon, lang)  # the points: 分 in Chinese, ★ in English
            out.append({"kind": "reward", "icon": symbol, "text": _tr(word, lang)})
    return out
