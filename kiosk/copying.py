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
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.core import Game, Text
from engine.core.box import Box, items_of
from engine.core.text import Language
from engine.greenwood.board import Cell, turn
from engine.greenwood.texts import ICON_WORDS, piece_name, reward_icon, reward_name
from kiosk.boxes import BOX_FOLDER, kind_label, write_atomically
from vision.calibration import board_in_picture, straighten
from vision.detection import Detection
from vision.readers.greenwood import board_name, piece_shapes, pixel_pose, submarines, tag_square
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
}
"""Which kinds of item the page copies, and how: ``board`` (the camera's straightened board,
cells marked by touch) or ``piece`` (a piece laid on a board, its cells touched)."""


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
    ("苍林秘境:61 项中已录入 9 项") and the next thing to do."""
    counts = box.counts()
    how = COPY_HOW.get(game.name, {})
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
    title = game.title
    line = Text(
        f"{title.zh}:{total}项中已录入{mine}项", f"{title.en}: {mine} of {total} copied"
    ).in_(lang)
    todo = [k for k in kinds if k["how"] and k["mine"] < k["total"]]
    if todo:
        first = todo[0]
        named, left = kind_label(game, first["kind"], box), first["total"] - first["mine"]
        nxt = Text(
            f"下一步:录入{named.zh}(还差{left}项)", f"Next: copy the {named.en} ({left} to go)"
        ).in_(lang)
    elif any(k["mine"] < k["total"] for k in kinds):
        nxt = Text(
            "这里能录入的都已录入;其余的请导入盒子文件",
            "Everything this page copies is copied; bring the rest in as a box file",
        ).in_(lang)
    else:
        nxt = Text("整盒都已录入", "The whole box is copied").in_(lang)
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
        "picture": "data:image/jpeg;base64," + base64.b64encode(jpeg.tobytes()).decode()
        if ok
        else None,
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


def _icon_word(reward: str) -> Text:
    """What a reward icon of the palette is called beside its symbol: none for points (the
    icon says ``4分``), else the legend's word (能量标记)."""
    kind = reward.partition(":")[0]
    return Text("", "") if kind == "vp" else ICON_WORDS.get(kind, reward_name(reward))


def piece_shape(covered: Sequence[Cell], tag_cell: Cell, quarter: int) -> dict[str, Any]:
    """A piece's shape as ``pieces.toml`` writes it, from the board cells it covers, the cell
    under its tag and its quarter turns on the board: the cells turned back upright and moved
    so that the smallest column and row are 0, and the tag's cell among them."""
    upright = [turn((c - tag_cell[0], r - tag_cell[1]), -quarter % 4) for c, r in covered]
    left = min(c for c, _ in upright)
    top = min(r for _, r in upright)
    cells = sorted([c - left, r - top] for c, r in upright)
    return {"cells": cells, "tag_cell": [-left, -top]}
