"""Copying a box at the kiosk (the "Your box" page, ``/box``): what is left to copy, the items
being copied, and what the camera shows of a printed board or a piece laid on it.

An item being copied is a **draft**, kept in ``boxes/drafts/<game>.json`` in the data folder
(written atomically after every touch, so a power cut loses nothing) and never used by a game:
only "Save" makes it the owner's item (``kiosk.boxes.keep_items``, checked by the game's own
loader). The draft holds the item's value as it stands, the values before each touch (for
undo) and how many touches it took (the page's counter).

What the camera gives for Greenwood: the submarine board in view, straightened from its own
tags (``vision.calibration.board_in_picture``), with its grid in the picture's pixels, and each
piece laid on it: the cell under its tag and its quarter turns (``tag_square``). The owner then
marks by touch what is printed (the board) or which cells the piece covers (its shape).
"""

from __future__ import annotations

import base64
import contextlib
import functools
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.core import Game, Text
from engine.core.box import Box, BoxError, items_of
from engine.core.text import Language
from engine.dont_starve.catalogue import BIOMES as DS_BIOMES
from engine.dont_starve.catalogue import PORTAL as DS_PORTAL
from engine.dont_starve.catalogue import catalogue as ds_catalogue
from engine.dont_starve.texts import BIOME_NAMES
from engine.greenwood.board import Cell, turn
from engine.greenwood.texts import ICON_WORDS, piece_name, reward_icon, reward_name
from kiosk.atomic import write_atomically
from kiosk.boxes import BOX_FOLDER, kind_label
from vision.calibration import BoardLayout, TagPlace, board_in_picture, straighten
from vision.detection import Detection
from vision.registry import Registry, load_registry

log = logging.getLogger("kiosk.copying")

PX_PER_MM = 5.0
"""The straightened board's scale: a 180 × 140 mm submarine board is 900 × 700 pixels."""
MAX_UNDO = 200
"""How many touches back a draft can undo."""

BOARD_REWARDS = (
    *(f"vp:{n}" for n in range(1, 7)),
    "energy",
    "spy",
    "aurora",
    "strength",
    "pathfinding",
    "slot",
    "wisp",
)
"""The rewards a submarine board prints in its hold and on its areas (greenwood.zh.md §三.10;
the kinds ``submarines.toml`` names)."""

COPY_HOW: dict[str, dict[str, str]] = {
    "greenwood": {"submarines/layout": "board", "pieces/shape": "piece"},
    "dont_starve": {"tiles/biomes": "tiles", "scenarios/*": "layout"},
}
"""Which kinds of item the page copies with the camera, and how: ``board`` (the camera's
straightened board, cells marked by touch), ``piece`` (a piece laid on a board, its cells
touched), ``tiles`` (map tiles under the camera, each one's biome touched), ``layout`` (a
scenario's map laid out under the camera; ``scenarios/*``: every scenario card). A kind the game
fills in by its fields (``Game.box_forms``: a card) is copied as a ``card``."""
TILE_PX_PER_MM = 2.5
"""The scale of a map tile's straightened picture (a 110 mm tile: 275 pixels)."""


def copy_how(game: Game, box: Box) -> dict[str, str]:
    """How the page copies each kind it copies (``COPY_HOW``, and ``card`` for the kinds the
    game fills in by their fields)."""
    how = {**dict.fromkeys(game.box_forms(box), "card")}
    for kind, way in COPY_HOW.get(game.name, {}).items():
        if kind.endswith("/*"):
            how |= {k: way for k in box.counts() if k.startswith(kind[:-1])}
        else:
            how[kind] = way
    return how


class Draft(BaseModel):
    """An item being copied: its value as it stands, the values before each touch, and how
    many touches it took."""

    model_config = ConfigDict(extra="forbid")

    item: str = Field(min_length=3, max_length=120, pattern=r"^[a-z_]+/[A-Za-z0-9_./-]+$")
    value: dict[str, Any]
    touches: int = Field(0, ge=0, le=100_000)
    undo: list[dict[str, Any]] = Field(default_factory=list, max_length=MAX_UNDO)


def draft_path(data_dir: Path, game: Game) -> Path:
    """Where the item being copied of ``game`` is kept."""
    return data_dir / BOX_FOLDER / "drafts" / f"{game.name}.json"


def load_draft(data_dir: Path, game: Game) -> Draft | None:
    """The item being copied, or None; a damaged draft is set aside (``.damaged``) with a
    warning and None returned."""
    path = draft_path(data_dir, game)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        return Draft.model_validate_json(text)
    except ValidationError as exc:
        log.warning("%s is damaged (%s); set aside as .damaged", path, exc.errors()[0]["msg"])
        with contextlib.suppress(OSError):
            path.replace(path.with_suffix(".damaged"))
        return None


def save_draft(data_dir: Path, game: Game, draft: Draft) -> None:
    """Keep the item being copied (atomically: the old draft or the new one after a cut)."""
    path = draft_path(data_dir, game)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, draft.model_dump_json().encode("utf-8"))


def drop_draft(data_dir: Path, game: Game) -> None:
    """Forget the item being copied (saved, or given up)."""
    with contextlib.suppress(FileNotFoundError):
        draft_path(data_dir, game).unlink()


# --- what is left to copy -------------------------------------------------------------------


def progress(game: Game, box: Box, lang: Language) -> dict[str, Any]:
    """The page's list for ``game``: each kind of printed item with how many are the owner's,
    how the page copies it (None: by a box imported from a file), the whole box's line
    ("盒中61项,已录入9项") and the next thing to do."""
    counts = box.counts()
    how = copy_how(game, box)
    kinds: list[dict[str, Any]] = []
    for kind, (mine, demo) in counts.items():
        kinds.append(
            {
                "kind": kind,
                "label": kind_label(game, kind, box).in_(lang),
                "mine": mine,
                "total": mine + demo,
                "how": how.get(kind),
            }
        )
    mine = sum(k["mine"] for k in kinds)
    total = sum(k["total"] for k in kinds)
    # the game is named by its pressed button just above: the line says only the count
    line = Text(f"盒中{total}项,已录入{mine}项", f"{mine} of the box's {total} copied").in_(lang)
    todo = [k for k in kinds if k["how"] and k["mine"] < k["total"]]
    if todo:
        first = todo[0]
        named, left = kind_label(game, first["kind"], box), first["total"] - first["mine"]
        nxt = Text(
            f"下一步:录入{named.zh}(还差{left}项)", f"Next: copy {named.en} ({left} to go)"
        ).in_(lang)
    elif all(k["mine"] == k["total"] for k in kinds):
        nxt = Text("整盒都已录入", "The whole box is copied").in_(lang)
    elif not any(k["how"] for k in kinds):
        nxt = Text(
            "这个游戏的盒子只能用盒子文件录入", "This game's box comes in as a box file only"
        ).in_(lang)
    else:
        nxt = Text(
            "这里能录入的都已录入;其余的请导入盒子文件",
            "Everything this page copies is copied; bring the rest in as a box file",
        ).in_(lang)
    return {"line": line, "next": nxt, "mine": mine, "total": total, "kinds": kinds}


# --- Greenwood: the board and the pieces under the camera -----------------------------------


@functools.cache
def _registry() -> Registry:
    return load_registry()


def look_greenwood(
    image: np.ndarray | None, detections: Sequence[Detection], box: Box, lang: Language
) -> dict[str, Any]:
    """What the camera shows for copying Greenwood: ``state`` ``waiting`` (no frame yet),
    ``no_board`` (no submarine board's tag in view), or ``board``: the board's name and the
    layout it shows, its straightened picture (a JPEG data URL) with the grid in its pixels,
    the layout's value in ``box`` (and whether it is the owner's), and each piece whose tag
    lies on it (its shape's item, the cell under its tag and its quarter turns; or ``askew``)."""
    # here, not at the top: vision.readers loads every game (0.15 s of the kiosk's start)
    from vision.readers.greenwood import (
        board_name,
        piece_shapes,
        pixel_pose,
        submarines,
        tag_square,
    )

    if image is None:
        return {"state": "waiting"}
    registry = _registry()
    subs = submarines(registry)
    tags: dict[str, list[Detection]] = {}
    for d in detections:
        if d.id in subs:
            tags.setdefault(subs[d.id].board.name, []).append(d)
    if not tags:
        return {"state": "no_board"}
    name = max(sorted(tags), key=lambda n: len(tags[n]))
    sub = subs[tags[name][0].id]
    to_board = board_in_picture(sub.board, tags[name])
    grid = sub.board.grid
    if to_board is None or grid is None:
        return {"state": "no_board"}
    picture = straighten(image, to_board, sub.size_mm, PX_PER_MM)
    ok, jpeg = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 85])
    shapes = piece_shapes(registry, box)
    pieces = []
    for d in detections:
        if d.id not in shapes:
            continue
        at, angle = pixel_pose(to_board, d.corners)
        square = tag_square(sub, at, angle)
        if square is None:
            continue
        shape = shapes[d.id]
        piece: dict[str, Any] = {
            "tag": d.id,
            "item": f"pieces/shape/{shape.name}",
            "name": piece_name(shape.name).in_(lang),
        }
        if square == "askew":
            piece["askew"] = True
        else:
            (col, row), quarter = square
            piece.update(cell=[col, row], quarter=quarter)
        pieces.append(piece)
    item = f"submarines/layout/{sub.layout}"
    return {
        "state": "board",
        "board": board_name(name, lang),
        "layout": sub.layout,
        "item": item,
        "value": items_of(box.files).get(item),
        "owner": item in box.owner,
        "picture": _data_url(jpeg) if ok else None,
        "size": [picture.shape[1], picture.shape[0]],
        "grid": {
            "origin": [v * PX_PER_MM for v in grid.origin_mm],
            "cell": [v * PX_PER_MM for v in grid.cell_mm],
            "cols": grid.cols,
            "rows": grid.rows,
        },
        "pieces": pieces,
        "rewards": [
            {"reward": r, "icon": reward_icon(r).in_(lang), "name": _icon_word(r).in_(lang)}
            for r in BOARD_REWARDS
        ],
    }


def look_dont_starve(
    image: np.ndarray | None, detections: Sequence[Detection], box: Box, lang: Language
) -> dict[str, Any]:
    """What the camera shows for copying Don't Starve's map tiles: ``state`` ``waiting``,
    ``no_tile``, or ``tiles``: each map tile in view (by its number, either face up) with its
    straightened picture and its biome in ``box``, and the biomes to choose from."""
    # here, not at the top: vision.readers loads every game (0.15 s of the kiosk's start)
    from vision.readers.dont_starve import laid_layout

    if image is None:
        return {"state": "waiting"}
    entries = {e.tag_id: e for e in _registry().for_game("dont_starve") if e.name == "map tile"}
    cat = ds_catalogue(box)
    tiles: list[dict[str, Any]] = []
    for d in sorted(detections, key=lambda d: entries[d.id].item if d.id in entries else 0):
        entry = entries.get(d.id)
        if entry is None or any(t["number"] == entry.item for t in tiles):
            continue
        size = cat.tile_mm
        dx, dy = cat.tag_offset_mm
        place = TagPlace(d.id, size / 2 + dx, size / 2 + dy, entry.tag_mm)
        to_tile = board_in_picture(BoardLayout(entry.label, (place,)), [d])
        if to_tile is None:
            continue
        picture = straighten(image, to_tile, (size, size), TILE_PX_PER_MM)
        ok, jpeg = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 85])
        number = entry.item
        tiles.append(
            {
                "number": number,
                "face": entry.face,
                "biome": cat.tile_biomes[number - 1] if number <= len(cat.tile_biomes) else None,
                "picture": _data_url(jpeg) if ok else None,
            }
        )
    if not tiles:
        return {"state": "no_tile"}
    frame_size = (image.shape[1], image.shape[0])
    return {
        "state": "tiles",
        "tiles": tiles,
        "layout": laid_layout(list(detections), frame_size, cat),
        "all": list(cat.tile_biomes),
        "biomes": [{"biome": b, "name": BIOME_NAMES[b].in_(lang)} for b in (*DS_BIOMES, DS_PORTAL)],
    }


def _data_url(jpeg: np.ndarray) -> str:
    return "data:image/jpeg;base64," + base64.b64encode(jpeg.tobytes()).decode()


def _icon_word(reward: str) -> Text:
    """What a reward icon of the palette is called beside its symbol: none for points (the
    icon says ``4分``), else the legend's word (能量标记)."""
    kind = reward.partition(":")[0]
    return Text("", "") if kind == "vp" else ICON_WORDS.get(kind, reward_name(reward))


def copied_item(
    game: Game, how: str, item: str, value: Mapping[str, Any], box: Box
) -> tuple[str, Any]:
    """The item id and value to keep for what the page copied ``how``: a board's layout (its
    number from the item), a piece's shape (from the cells it covers, its tag's cell and turn,
    over the shape's other fields), the map tiles' biomes, a card filled in by its fields
    (``Game.box_entry``). BoxError saying what is missing."""
    if how == "card":
        try:
            return game.box_entry(item, value, box)
        except (TypeError, ValueError) as exc:
            raise BoxError([f"{item}: {exc}"]) from None
    if how == "tiles":
        return item, value.get("biomes")
    if how == "layout":
        return item, _laid_scenario(item, value, box)
    if how == "board":
        return item, {**value, "number": int(item.rsplit("/", 1)[1])}
    before = items_of(box.files).get(item)
    if how != "piece" or not isinstance(before, dict):
        raise BoxError([f"{item}: not an item the page copies"])
    try:
        covered = [(int(c), int(r)) for c, r in value["covered"]]
        tag = (int(value["tag_cell"][0]), int(value["tag_cell"][1]))
        quarter = int(value["quarter"])
    except (KeyError, TypeError, ValueError):
        raise BoxError(
            [f"{item}: a piece needs the cells it covers, its tag's cell and turn"]
        ) from None
    if tag not in covered:
        covered.append(tag)
    shape = {k: v for k, v in before.items() if k != "placeholder"}
    return item, {**shape, **piece_shape(covered, tag, quarter)}


def _laid_scenario(item: str, laid: Mapping[str, Any], box: Box) -> dict[str, Any]:
    """A scenario card with the layout laid under the camera (``laid_layout``: the portal, the
    places, the biomes' counts) over its other printed values (title, season); its monster
    tokens kept on the places of the same name (BoxError for a token whose place is gone)."""
    before = items_of(box.files).get(item)
    if not isinstance(before, dict):
        raise BoxError([f"{item}: no such scenario card"])
    try:
        slots = [
            {"name": str(s["name"]), "x": int(s["x"]), "y": int(s["y"])} for s in laid["slots"]
        ]
        portal = {"x": int(laid["portal"]["x"]), "y": int(laid["portal"]["y"])}
        biomes = {str(b): int(n) for b, n in dict(laid["biomes"]).items()}
    except (KeyError, TypeError, ValueError):
        raise BoxError([f"{item}: a layout needs the portal, the places and the biomes"]) from None
    names = {s["name"] for s in slots}
    gone = sorted({t["slot"] for t in before.get("tokens", []) if t["slot"] not in names})
    if gone:
        where = f"scenarios.toml, {item.split('/')[1]}"
        raise BoxError([f"{where}: monster tokens on place(s) {', '.join(gone)}, not laid"])
    value = {k: v for k, v in before.items() if k != "placeholder"}
    return {**value, "portal": portal, "slots": slots, "biomes": biomes}


def piece_shape(covered: Sequence[Cell], tag_cell: Cell, quarter: int) -> dict[str, Any]:
    """A piece's shape as ``pieces.toml`` writes it, from the board cells it covers, the cell
    under its tag and its quarter turns on the board: the cells turned back upright and moved
    so that the smallest column and row are 0, and the tag's cell among them."""
    upright = [turn((c - tag_cell[0], r - tag_cell[1]), -quarter % 4) for c, r in covered]
    left = min(c for c, _ in upright)
    top = min(r for _, r in upright)
    cells = sorted([c - left, r - top] for c, r in upright)
    return {"cells": cells, "tag_cell": [-left, -top]}
