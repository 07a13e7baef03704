"""Don't Starve's map as the kiosk draws it (``Game.picture``): the tiles of the scenario's
layout, face up or down, what lies on them, and where each character stands.

A tile is 2 × 2 half-tile units (``board.py``) and a layout may shift a row by half a tile, so
the picture's grid is the half-tile grid: each tile is a block of 2 × 2 cells outlined as one
group (its letter in the layout). On a face-up tile: its letter and biome on the first row, its
location card (``feature``, ``done`` once mined out) and its monster (``danger``: a scenario
monster token, else a hostile monster not yet defeated; ``done``: a defeated-monster token) on
the second. A face-down tile shows its letter, and a scenario monster token set on it (剧本设置).
The portal is the ``camp``; a base camp (营地) shows as one symbol beside it and its structures
are named in the notes. Biomes, locations and monsters are symbols (``SYMBOLS``) the legend
names, so that every cell reads from the chairs at any size. Empty rows and columns around the
layout are left out.

The engine lays the whole map face down at set-up (世界构建), so ``picture`` never has a tile
missing; what the camera sees while players lay the map is drawn by :func:`layout_picture`
from the reader's verdicts (``vision/readers/dont_starve.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core import Move, State, Text
from engine.dont_starve.board import TILE
from engine.dont_starve.catalogue import (
    PORTAL,
    PORTAL_SLOT,
    Catalogue,
    Scenario,
    catalogue,
    demo_text,
    scenario_item,
)
from engine.dont_starve.state import DSData
from engine.dont_starve.texts import (
    BIOME_NAMES,
    BIOME_SHORT,
    CHARACTER_SHORT,
    MONSTER_NAMES,
    TIME_NAMES,
    scenario_title,
    structure_name,
)

LEGEND: dict[str, Text] = {
    "camp": Text("传送门与营地", "portal and base camp"),
    "tile": Text("翻开的板块(位置字母)", "face-up tile (its letter)"),
    "hidden": Text("面朝下的板块", "face-down tile"),
    "empty": Text("布局上的空位", "place of the layout with no tile"),
    "feature": Text("地点卡、营地", "location card, base camp"),
    "done": Text("已开采完的地点、已击败的怪物", "mined-out location, defeated monster"),
    "danger": Text("敌对怪物、剧本怪物", "hostile or scenario monster"),
    "missing": Text("缺少的板块", "tile missing"),
    "wrong": Text("放得不对的板块", "tile laid wrong"),
    "refused": Text("规则拒绝的地方", "where the rules refused the move"),
    "here": Text("行动中角色的板块", "acting character's tile"),
}
"""What each kind and mark of this picture means, for the legend (in this order)."""

CELLS: dict[str, Text] = {
    "site": Text("◆", "◆"),
    "mined": Text("◇", "◇"),
    "hostile": Text("☠", "☠"),
    "defeated": Text("✓", "✓"),
    "camp": Text("⌂", "⌂"),
    "monster": Text("✺", "✺"),
}
"""What a tile holds as its cell draws it: one symbol each, named by the legend (``WORDS``)."""
WORDS: dict[str, Text] = {
    "site": Text("地点卡", "location card"),
    "mined": Text("已开采完的地点", "mined-out location"),
    "hostile": Text("敌对怪物", "hostile monster"),
    "defeated": Text("已击败的怪物", "defeated monster"),
    "camp": Text("营地(建筑见下方说明)", "base camp (its structures in the notes)"),
}
"""What each symbol of ``CELLS`` means, for the legend (in this order, after the biomes)."""
SYMBOL_KINDS = frozenset({"feature", "done", "danger", "camp"})
"""Kinds the legend shows as the swatch of a symbol's line rather than a line of their own."""
CAMP_NOTE = Text("营地:{names}", "Base camp: {names}")
"""The note that names the base camp's structures (营地)."""

COVER_ORDER = ((1, 0), (0, 1), (0, 0), (1, 1))
"""The cells of a tile a figure may cover when none is free: biome, location, letter, monster."""
SEAT_TILE_MOVES = (
    "dont_starve.explore",
    "dont_starve.interact",
    "dont_starve.fight",
    "dont_starve.essence",
)
"""Moves made on the seat's own tile: a refusal outlines that tile."""


def _tr(text: Text, lang: str) -> str:
    return text.zh if lang == "zh" else text.en


def origin(scenario: Scenario) -> tuple[int, int]:
    """The layout's top-left corner in half-tile units (the picture starts there)."""
    slots = scenario.all_slots
    return min(s.x for s in slots), min(s.y for s in slots)


def layout(scenario: Scenario) -> dict[str, tuple[int, int]]:
    """Each tile's top-left cell (col, row) in the picture: its place, trimmed to the layout."""
    x0, y0 = origin(scenario)
    return {s.name: (s.x - x0, s.y - y0) for s in scenario.all_slots}


def _size(at: dict[str, tuple[int, int]]) -> tuple[int, int]:
    return max(c for c, _ in at.values()) + TILE, max(r for _, r in at.values()) + TILE


def _block(tile: str, texts: list[tuple[str, Text | None]], lang: str) -> list[dict[str, Any]]:
    """The 2 × 2 cells of one tile from (kind, text) in reading order, relative to its corner."""
    cells = []
    for i, (kind, text) in enumerate(texts):
        cell: dict[str, Any] = {"col": i % TILE, "row": i // TILE, "kind": kind, "group": tile}
        if text is not None:
            cell["text"] = _tr(text, lang)
        cells.append(cell)
    return cells


def _letter(tile: str) -> Text:
    return Text(tile, tile)


def _danger(cat: Catalogue, data: DSData, tile: str) -> tuple[str, Text | None] | None:
    """The monster shown on a tile: a scenario token first (敌意: 始终优先结算剧本相关的敌对怪物
    指示物), else a hostile location monster not yet defeated, else a defeated-monster token."""
    tokens = cat.scenarios[data.scenario].tokens
    here = [tokens[i] for i in data.tokens if tokens[i].slot == tile]
    if here:
        return "danger", CELLS["monster"]
    card = data.location(tile)
    if card is None:
        return None
    if tile in data.defeated_monsters:
        return "done", CELLS["defeated"]
    if cat.location_hostile(card):
        return "danger", CELLS["hostile"]
    return None


def _tile_texts(cat: Catalogue, data: DSData, tile: str) -> list[tuple[str, Text | None]]:
    """What the four cells of one tile show, in reading order."""
    biome = data.biome_of(tile)
    danger = _danger(cat, data, tile)
    if tile == PORTAL_SLOT:
        texts: list[tuple[str, Text | None]] = [("camp", BIOME_SHORT[PORTAL])]
        if data.structures:
            texts.append(("feature", CELLS["camp"]))
        kind = "camp"
    elif biome is None:
        texts = [("hidden", _letter(tile))]
        kind = "hidden"
    else:
        texts = [("tile", _letter(tile)), ("tile", BIOME_SHORT[biome])]
        card = data.location(tile)
        if card is not None:
            mined = dict(data.mined).get(tile, 0) >= cat.mining(card)
            texts.append(("done", CELLS["mined"]) if mined else ("feature", CELLS["site"]))
        else:
            texts.append(("tile", None))
        kind = "tile"
    if danger is not None and len(texts) < TILE * TILE:
        while len(texts) < TILE * TILE - 1:
            texts.append((kind, None))
        texts.append(danger)
    while len(texts) < TILE * TILE:
        texts.append((kind, None))
    return texts


def _token_spots(cells: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """Where figures stand on a tile: its cells without text first, then over the biome, the
    location and the letter; last over the monster, which should stay in sight."""
    free = [(c["col"], c["row"]) for c in cells if "text" not in c]
    taken = [p for p in COVER_ORDER if p not in free]
    return free + taken


def _refused_tile(data: DSData, refused: Move | None) -> str | None:
    """The tile a refused move named (a move's ``to``), or the seat's own tile for a move made
    where the figure stands (explore, interact, fight, essence)."""
    if refused is None:
        return None
    to = getattr(refused, "to", None)
    if isinstance(to, str):
        return to
    seat = refused.seat
    if refused.type in SEAT_TILE_MOVES and seat is not None and 0 <= seat < len(data.characters):
        return data.char(seat).tile
    return None


def notes(data: DSData, lang: str) -> list[str]:
    """Day or night with the action dial, and how far the storm is (天气需求: 风暴标记物)."""
    time = TIME_NAMES[data.time]
    first = Text(
        f"{time.zh},行动轮盘{data.dial}", f"{time.en.capitalize()}, action dial {data.dial}"
    )
    if data.past_storm:
        storm = Text(
            "已越过风暴标记物:天气符号全部生效", "Past the storm marker: every symbol counts"
        )
    else:
        n = data.storm_after - data.needs_removed
        storm = Text(f"风暴还有{n}块需求板块", f"Storm in {n} needs tile{'' if n == 1 else 's'}")
    out = [_tr(first, lang), _tr(storm, lang)]
    if data.structures:
        names = _listed([structure_name(name, n) for n, name in enumerate(data.structures, 1)])
        note = Text(CAMP_NOTE.zh.format(names=names.zh), CAMP_NOTE.en.format(names=names.en))
        out.append(_tr(note, lang))
    return out


def _figure(cat: Catalogue, data: DSData, seat: int, lang: str) -> str:
    """The character whose figure shows the seat's number, by its whole name (the legend)."""
    char = data.char(seat)
    card = char.card(cat)
    return _tr(CHARACTER_SHORT.get(char.key, Text(card.name_zh, card.name_en)), lang)


def _listed(texts: list[Text]) -> Text:
    return Text("、".join(t.zh for t in texts), ", ".join(t.en for t in texts))


def _legend(used: set[str], lang: str, cells: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The kinds and marks drawn (in ``LEGEND``'s order; a location's or a monster's colour is
    the swatch of its symbol's line), then each symbol drawn with its name: the biomes, the
    monster tokens, the location and monster symbols."""
    out = [
        {"kind": k, "text": _tr(t, lang)}
        for k, t in LEGEND.items()
        if k in used and k not in SYMBOL_KINDS
    ]
    shown = {(c["kind"], c.get("text")) for c in cells}
    texts = {t for _, t in shown}
    for key, symbol in BIOME_SHORT.items():
        if _tr(symbol, lang) in texts:
            kind = "camp" if key == PORTAL else "tile"
            out.append({"kind": kind, "icon": symbol.en, "text": _tr(BIOME_NAMES[key], lang)})
    if ("danger", CELLS["monster"].en) in shown:
        names = _listed(list(MONSTER_NAMES.values()))
        words = Text(f"剧本怪物({names.zh})", f"scenario monster ({names.en})")
        out.append({"kind": "danger", "icon": CELLS["monster"].en, "text": _tr(words, lang)})
    for key, words in WORDS.items():
        if any(t == CELLS[key].en for t in texts):
            kind = next(k for k, t in shown if t == CELLS[key].en)
            out.append({"kind": kind, "icon": CELLS[key].en, "text": _tr(words, lang)})
    return out


def picture(state: State[Any], lang: str, refused: Move | None = None) -> dict[str, Any]:
    """The map as one board: tiles, locations, monsters, the portal and its base camp, each
    character's figure; day or night and the storm as notes (``Game.picture``)."""
    data: DSData = state.data
    cat = catalogue(state)
    scenario = cat.scenarios[data.scenario]
    at = layout(scenario)
    cells: list[dict[str, Any]] = []
    spots: dict[str, list[tuple[int, int]]] = {}
    for tile, (col, row) in at.items():
        own = _block(tile, _tile_texts(cat, data, tile), lang)
        spots[tile] = [(col + c, row + r) for c, r in _token_spots(own)]
        cells += [{**c, "col": col + c["col"], "row": row + c["row"]} for c in own]
    tokens: list[dict[str, Any]] = []
    for seat, char in enumerate(data.characters):
        if char.defeated or char.tile not in spots or not spots[char.tile]:
            continue
        c, r = spots[char.tile].pop(0)
        tokens.append({"col": c, "row": r, "text": str(seat + 1), "seat": seat})
    marks: list[dict[str, Any]] = []
    current = state.flow.current
    if current is not None and 0 <= current < len(data.characters):
        here = data.char(current).tile
        if here in at:
            marks.append({"col": at[here][0], "row": at[here][1], "kind": "here"})
    tried = _refused_tile(data, refused)
    if tried in at:
        marks.append({"col": at[tried][0], "row": at[tried][1], "kind": "refused"})
    cols, rows = _size(at)
    board = {
        "title": _tr(scenario_title(cat, data.scenario), lang),
        "seat": None,
        "cols": cols,
        "rows": rows,
        "cells": cells,
        "tokens": tokens,
        "marks": marks,
        "notes": notes(data, lang),
    }
    used = {c["kind"] for c in cells} | {m["kind"] for m in marks}
    figures = [
        {
            "kind": "token",
            "token": t["text"],
            "seat": t["seat"],
            "text": _figure(cat, data, t["seat"], lang),
        }
        for t in tokens
    ]
    return {"boards": [board], "legend": figures + _legend(used, lang, cells)}


MISSING = frozenset({"missing"})
"""The reader's verdict code for a place of the layout with no tile."""
LAID_WRONG = frozenset({"wrong_biome", "face_up", "doubled", "off_grid", "not_square"})
"""The reader's verdict codes for a tile laid on a place but wrongly."""


def layout_picture(
    cat: Catalogue, scenario: str, lang: str, verdicts: Iterable[tuple[str, str | None]] = ()
) -> dict[str, Any]:
    """The scenario's layout while players lay the map (世界构建): every place as the layout card
    shows it, the portal in the middle, the others face down; a place the camera found empty is
    an ``empty`` cell marked ``missing``, a tile laid wrong on its place is marked ``wrong``.

    ``verdicts`` are the camera reader's (code, place) pairs: ``LayoutReport.problems`` as
    ``(p.code, p.slot)``, or ``report_json``'s verdicts (``dont_starve.layout.missing``, slot).
    A verdict without a place (a tile on no place of the layout) cannot be drawn here; the
    reader's message says where it is. The layout is the box's scenario card (``cat``); while
    it is the demo box's the notes say so.
    """
    sc = cat.scenarios[scenario]
    at = layout(sc)
    missing: set[str] = set()
    wrong: set[str] = set()
    for code, slot in verdicts:
        short = code.rsplit(".", 1)[-1]
        if short == "no_portal":  # no portal in view: the layout cannot be placed yet
            missing.add(PORTAL_SLOT)
        elif slot in at and short in MISSING:
            missing.add(slot)
        elif slot in at and short in LAID_WRONG:
            wrong.add(slot)
    cells: list[dict[str, Any]] = []
    marks: list[dict[str, Any]] = []
    for tile, (col, row) in at.items():
        if tile in missing:
            texts: list[tuple[str, Text | None]] = [("empty", _letter(tile))]
            texts += [("empty", None)] * (TILE * TILE - 1)
        elif tile == PORTAL_SLOT:
            texts = [("camp", BIOME_SHORT[PORTAL])] + [("camp", None)] * (TILE * TILE - 1)
        else:
            texts = [("hidden", _letter(tile))] + [("hidden", None)] * (TILE * TILE - 1)
        own = _block(tile, texts, lang)
        cells += [{**c, "col": col + c["col"], "row": row + c["row"]} for c in own]
        for kind, tiles in (("missing", missing), ("wrong", wrong)):
            if tile in tiles:
                marks.append({"col": col, "row": row, "kind": kind})
    cols, rows = _size(at)
    left = len(missing)
    note = (
        Text(f"还缺{left}块板块", f"{left} tile{'' if left == 1 else 's'} still to lay")
        if left
        else Text("所有位置都有板块", "Every place has its tile")
    )
    board = {
        "title": _tr(scenario_title(cat, scenario), lang),
        "seat": None,
        "cols": cols,
        "rows": rows,
        "cells": cells,
        "tokens": [],
        "marks": marks,
        "notes": [_tr(n, lang) for n in (note, demo_text(cat, scenario_item(scenario))) if n],
    }
    used = {c["kind"] for c in cells} | {m["kind"] for m in marks}
    return {"boards": [board], "legend": _legend(used, lang, cells)}
