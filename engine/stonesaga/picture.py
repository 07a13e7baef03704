"""Stonesaga's valley as the kiosk draws it (``Game.picture``): the tiles in their trays, the
features on them, the markers, the outposts, where each character stands, and the mining draw.

Each terrain tray holds three tiles in a row (§地图: 地块放进地形托盘(每盘 3 格)拼成地图), so
the picture lays tray after tray top to bottom, slot after slot left to right, as the tiles'
neighbours in ``data/valley.toml`` are laid. A tile is a block of 4 × 2 cells outlined as one
group: its number (over two cells) and its features (at most two printed on a tile of the
starting valley) on the first row, an outpost or a ruin and its markers (fire, shelter,
depletion) after them; the characters' tokens stand on the block's free cells first. Features
and markers are one symbol each, which the legend names, so that every cell reads from the
chairs at any size.
"""

from __future__ import annotations

from typing import Any

from engine.core import Move, State, Text
from engine.stonesaga import state as st
from engine.stonesaga.catalogue import (
    FEATURES,
    OMENS,
    STONES,
    Catalogue,
    catalogue,
    demo_text,
    valley_item,
)
from engine.stonesaga.texts import (
    FEATURE_SHORT,
    behemoth_name,
    character_name,
    counted,
    listed,
    marker_level,
    region_name,
    tile_name,
)

COLS = 4
"""Cells across one tile."""
ROWS = 2
"""Cells down one tile."""
SLOTS = 3
"""Tiles in one terrain tray (§地图)."""

LEGEND: dict[str, Text] = {
    "tile": Text("已探索的地块", "explored tile"),
    "hidden": Text("未探索的地块(迷雾面)", "unexplored tile (fog side)"),
    "feature": Text("地物与废墟", "feature or ruin"),
    "camp": Text("前哨", "outpost"),
    "done": Text("枯竭的地块", "depleted tile"),
    "danger": Text("巨兽", "behemoth"),
    "refused": Text("规则拒绝的地方", "where the rules refused the move"),
    "here": Text("行动中角色的地块", "acting character's tile"),
}
"""What each kind and mark of this picture means, for the legend."""

CELLS: dict[str, Text] = {
    "outpost": Text("⚑", "⚑"),
    "ruin": Text("⚐", "⚐"),
    "fire": Text("♨", "♨"),
    "shelter": Text("⌂", "⌂"),
    "depletion": Text("∅", "∅"),
}
"""The things a tile holds as its cells draw them: one symbol each, named by ``WORDS``."""
WORDS: dict[str, Text] = {
    "outpost": Text("前哨", "outpost"),
    "ruin": Text("废墟", "ruin"),
    "fire": Text("火堆标记", "fire marker"),
    "shelter": Text("庇护所标记", "shelter marker"),
    "depletion": Text("枯竭标记", "depletion marker"),
}
"""What each symbol of ``CELLS`` means, for the legend (after the features)."""
NUMBER_SPAN = 2
"""Cells the tile's number is written across (three digits read from the chairs)."""

TILE_MOVES = ("to",)
"""The fields of a move that name a tile (travel, relocate an outpost)."""


def _tr(text: Text, lang: str) -> str:
    return text.zh if lang == "zh" else text.en


def layout(cat: Catalogue) -> dict[str, tuple[int, int]]:
    """Each tile's top-left cell (col, row) in the picture, from its tray and slot in the
    box's valley."""
    tiles = cat.tiles
    trays = sorted({t.tray for t in tiles.values()})
    slots: dict[int, int] = {}
    out: dict[str, tuple[int, int]] = {}
    for tile in tiles.values():
        slot = slots.get(tile.tray, 0)
        slots[tile.tray] = slot + 1
        out[tile.id] = (slot * COLS, trays.index(tile.tray) * ROWS)
    return out


def _tile_cells(
    cat: Catalogue, tile_id: str, markers: st.TileState, lang: str
) -> list[dict[str, Any]]:
    """The 4 × 2 cells of one tile, from its top-left corner (0, 0)."""
    if not markers.explored:
        return [{"col": c, "row": r, "kind": "hidden"} for r in range(ROWS) for c in range(COLS)]
    top: list[tuple[str, Text | None]] = [("tile", Text(tile_id, tile_id)), ("tile", None)]
    features = cat.tiles[tile_id].features[: COLS - NUMBER_SPAN]
    top += [("feature", FEATURE_SHORT[f]) for f in features]
    things: list[tuple[str, Text | None]] = []
    if markers.outpost:
        things.append(("camp", CELLS["outpost"]))
    if markers.ruin:
        things.append(("feature", CELLS["ruin"]))
    if markers.fire:
        things.append(("tile", CELLS["fire"]))
    if markers.shelter:
        things.append(("tile", CELLS["shelter"]))
    if markers.depletion:
        things.append(("done", CELLS["depletion"]))
    room = COLS - len(top)
    top += things[:room]
    bottom = things[room:]
    rows = [top, bottom]
    cells = []
    for r, row in enumerate(rows):
        for c in range(COLS):
            kind, text = row[c] if c < len(row) else ("tile", None)
            cell: dict[str, Any] = {"col": c, "row": r, "kind": kind}
            if text is not None:
                cell["text"] = _tr(text, lang)
            cells.append(cell)
    cells[0]["span"] = NUMBER_SPAN
    return cells


def _token_spots(cells: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """Where tokens stand on a tile: its empty cells first, bottom row first, then the rest."""
    under = {(c, 0) for c in range(1, NUMBER_SPAN)} if "span" in cells[0] else set()
    free = [
        (c["col"], c["row"]) for c in cells if "text" not in c and (c["col"], c["row"]) not in under
    ]
    taken = [(c["col"], c["row"]) for c in cells if "text" in c or (c["col"], c["row"]) in under]
    return sorted(free, key=lambda p: (-p[1], p[0])) + sorted(taken, key=lambda p: (-p[1], p[0]))


def _refused_cell(
    cat: Catalogue, data: st.Saga, refused: Move | None, at: dict[str, tuple[int, int]]
) -> tuple[int, int] | None:
    """The cell of the tile a refused move names (travel, relocate: its ``to``); for an action
    at a feature, that feature's cell on the character's tile, else the tile's number."""
    if refused is None:
        return None
    for name in TILE_MOVES:
        tile = getattr(refused, name, None)
        if isinstance(tile, str) and tile in at:
            return at[tile]
    feature = getattr(refused, "feature", None)
    index = getattr(refused, "character", None)
    if not isinstance(feature, str) or not isinstance(index, int):
        return None
    if not 0 <= index < data.party or data.characters[index].tile not in at:
        return None
    tile = data.characters[index].tile
    col, row = at[tile]
    features = cat.tiles[tile].features
    if feature in features[: COLS - NUMBER_SPAN] and dict(data.tiles)[tile].explored:
        return col + NUMBER_SPAN + features.index(feature), row
    return col, row


def mining_notes(cat: Catalogue, data: st.Saga, lang: str) -> list[str]:
    """The mining draw in words (§采矿.4–6): what was drawn, what is left in the bag."""
    mine = data.mining
    if mine is None:
        return []
    who = character_name(data.characters[mine.character].name, cat)
    feature = FEATURES[mine.feature]
    drawn = listed(mine.drawn, _token)
    left = counted(
        tuple((s, n - _drawn(mine, s)) for s, n in mine.bag if n > _drawn(mine, s)),
        Text("空", "empty"),
    )
    more = max(cat.mining.max_draws - len(mine.drawn), 0)
    lines = (
        Text(
            f"{who.zh}在{feature.zh}采矿,已摸出:{drawn.zh}",
            f"{who.en} mines the {feature.en}; drawn: {drawn.en}",
        ),
        Text(
            f"袋中还剩:{left.zh};还可再摸{more}枚",
            f"Left in the bag: {left.en}; {more} more may be drawn",
        ),
    )
    return [_tr(t, lang) for t in lines]


def _drawn(mine: st.Mining, stone: str) -> int:
    return sum(1 for s, _ in mine.drawn if s == stone)


def _token(drawn: tuple[str, str]) -> Text:
    stone, omen = STONES[drawn[0]], OMENS[drawn[1]]
    return Text(f"{stone.zh}({omen.zh})", f"{stone.en} ({omen.en})")


def marker_notes(data: st.Saga, lang: str) -> list[str]:
    """The side each fire and depletion marker shows and each shelter's level, by tile."""
    out = []
    for tile, markers in data.tiles:
        shown = [
            marker_level(name, getattr(markers, name))
            for name in ("fire", "shelter", "depletion")
            if getattr(markers, name)
        ]
        if markers.outpost and markers.buildings:
            shown.append(marker_level("buildings", len(markers.buildings)))
        if shown and markers.explored:
            line = Text(f"{tile_name(tile).zh}:", f"{tile_name(tile).en}: ")
            out.append(_tr(line, lang) + _tr(listed(shown, lambda t: t), lang))
    return out


def behemoth_notes(cat: Catalogue, data: st.Saga, lang: str) -> list[str]:
    """The alert behemoth and its demeanor (§巨兽); the engine keeps no place for its model,
    so it is named here rather than drawn on a tile."""
    out = []
    for beast in data.behemoths:
        name = behemoth_name(beast.name, cat)
        state = Text("警觉", "alert") if beast.name == data.alert else Text("休眠", "dormant")
        line = Text(
            f"巨兽{name.zh}:{state.zh},性情{beast.demeanor}",
            f"Behemoth {name.en}: {state.en}, demeanor {beast.demeanor}",
        )
        out.append(_tr(line, lang))
    return out


def picture(state: State[Any], lang: str, refused: Move | None = None) -> dict[str, Any]:
    """The valley as one board: tiles, features, markers, outposts, characters; the mining
    draw, markers' sides and the behemoths as notes (``Game.picture``); all from the box's
    valley, and a note when that valley is the demo box's."""
    data: st.Saga = state.data
    cat = catalogue(state)
    at = layout(cat)
    cells: list[dict[str, Any]] = []
    tokens: list[dict[str, Any]] = []
    spots: dict[str, list[tuple[int, int]]] = {}
    markers = dict(data.tiles)
    for tile, (col, row) in at.items():
        own = _tile_cells(cat, tile, markers.get(tile, st.TileState()), lang)
        spots[tile] = [(col + c, row + r) for c, r in _token_spots(own)]
        for cell in own:
            cells.append(
                {**cell, "col": col + cell["col"], "row": row + cell["row"], "group": tile}
            )
    figures: list[dict[str, Any]] = []
    for number, char in enumerate(data.characters, 1):
        if not char.alive or char.tile not in spots or not spots[char.tile]:
            continue
        c, r = spots[char.tile].pop(0)
        tokens.append({"col": c, "row": r, "text": str(number), "seat": char.seat})
        name = _tr(character_name(char.name, cat), lang)
        figures.append({"kind": "token", "token": str(number), "seat": char.seat, "text": name})
    marks: list[dict[str, Any]] = []
    current = state.flow.current
    if current is not None:
        for tile in sorted({c.tile for c in data.characters if c.alive and c.seat == current}):
            if tile in at:
                marks.append({"col": at[tile][0], "row": at[tile][1], "kind": "here"})
    where = _refused_cell(cat, data, refused, at)
    if where is not None:
        marks.append({"col": where[0], "row": where[1], "kind": "refused"})
    notes = (
        mining_notes(cat, data, lang) + marker_notes(data, lang) + behemoth_notes(cat, data, lang)
    )
    title = region_name(cat.region)
    if demo_text(cat, *(valley_item(t) for t in cat.tiles)) is not None:
        # the map is drawn from the box's valley: the demo's is invented (said in the title,
        # so that the board keeps its room on the table screen)
        title = Text(f"{title.zh}(演示盒)", f"{title.en} (demo box)")
    used = sorted({c["kind"] for c in cells} | {k["kind"] for k in marks}, key=list(LEGEND).index)
    board = {
        "title": _tr(title, lang),
        "seat": None,
        "cols": SLOTS * COLS,
        "rows": (max(r for _, r in at.values()) + ROWS) if at else ROWS,
        "cells": cells,
        "tokens": tokens,
        "marks": marks,
        "notes": notes,
    }
    kinds = [{"kind": k, "text": _tr(LEGEND[k], lang)} for k in used if k not in SYMBOL_KINDS]
    return {"boards": [board], "legend": figures + kinds + _symbols(cells, lang)}


SYMBOL_KINDS = frozenset({"feature", "camp", "done"})
"""Kinds the legend shows as the swatch of a symbol's line rather than a line of their own."""


def _symbols(cells: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """Each symbol drawn, with its name and the colour of its cell: features, then markers."""
    shown = {c.get("text"): c["kind"] for c in cells if c.get("text")}
    out = []
    for key, symbol in FEATURE_SHORT.items():
        if symbol.en in shown:
            out.append(
                {"kind": shown[symbol.en], "icon": symbol.en, "text": _tr(FEATURES[key], lang)}
            )
    for key, symbol in CELLS.items():
        if symbol.en in shown:
            out.append({"kind": shown[symbol.en], "icon": symbol.en, "text": _tr(WORDS[key], lang)})
    return out
