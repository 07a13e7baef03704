"""Pack away: which of a game's components the camera sees, and which are missing.

The game's sticker registry (``vision/tags/<game>.toml``, :mod:`vision.registry`) lists every
tagged component and its tags: a board may carry several tags, a double-sided tile one a face.
A component is *seen* when any of its tags is among the detections (of one photo, or of several
frames taken together), else *missing*. Components are named as their stickers print them
(``wisp 7`` / ``鬼火7``, :data:`vision.sheets.NAMES`, without the face) and counted by that
name (``wisp: 44 of 45``). :func:`check` is pure: the command line (``tablesight inventory``)
and the kiosk's pack-away page feed it detections; :func:`marked_sheets` draws the sticker
sheet's layout with the stickers of the missing components marked.

>>> from vision.registry import load_registry
>>> entries = load_registry().for_game("dont_starve")
>>> found = check("dont_starve", entries, [])
>>> found.seen_count, len(found.pieces), found.counts[1].name.en
(0, 39, 'Wilson')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from engine.core.text import Language, Text
from vision.detection import Detection
from vision.registry import TagEntry
from vision.sheets import NAMES, SheetError, layout, page_svg

SEEN_BGR = (60, 200, 60)
"""The outline of a seen component's tag on the picture (green)."""
MISSING_FILL = "#d0021b"
"""The mark of a missing component's sticker on the sheet (red)."""

SUMMARY = Text("《{title}》:{of} 件中看到 {seen} 件", "{title}: {seen} of {of} pieces seen")
ALL_HERE = Text("全部都在。", "all are here.")
MISSING = Text("缺 {n} 件:", "{n} missing:")
COUNTS = Text("各类数量:", "count of each kind:")
COUNT = Text("{seen} / {of}", "{seen} of {of}")


@dataclass(frozen=True)
class Piece:
    """One physical component of the game: its name as its sticker prints it, its tags (every
    face's), and whether any of them was seen."""

    key: str
    """The name the counts group it under (the tag file's ``label``, else its ``name``)."""
    number: int
    """Which of the components so named it is, from 1."""
    name: Text
    kind: str
    family: str
    tag_ids: tuple[int, ...]
    seen: bool

    def as_json(self) -> dict[str, Any]:
        """As ``tablesight inventory --json`` prints it (the name in both languages)."""
        return {
            "name": {"zh": self.name.zh, "en": self.name.en},
            "kind": self.kind,
            "tags": list(self.tag_ids),
            "seen": self.seen,
        }


@dataclass(frozen=True)
class Count:
    """How many components of one name were seen, of how many the game has."""

    key: str
    name: Text
    seen: int
    of: int

    @property
    def missing(self) -> int:
        """How many of them are missing."""
        return self.of - self.seen

    def as_json(self) -> dict[str, Any]:
        """As ``tablesight inventory --json`` prints it."""
        return {"name": {"zh": self.name.zh, "en": self.name.en}, "seen": self.seen, "of": self.of}


@dataclass(frozen=True)
class Inventory:
    """The outcome of one check: every component of ``game`` in the registry's order."""

    game: str
    pieces: tuple[Piece, ...]

    @property
    def missing(self) -> tuple[Piece, ...]:
        """The components none of whose tags was seen."""
        return tuple(p for p in self.pieces if not p.seen)

    @property
    def seen_count(self) -> int:
        """How many components were seen."""
        return sum(p.seen for p in self.pieces)

    @property
    def complete(self) -> bool:
        """Every component seen."""
        return not self.missing

    @property
    def counts(self) -> tuple[Count, ...]:
        """Seen and total per name, in the registry's order."""
        totals: dict[str, list[Any]] = {}
        for p in self.pieces:
            row = totals.setdefault(p.key, [_plain_name(p.key), 0, 0])
            row[1] += p.seen
            row[2] += 1
        return tuple(Count(key, name, seen, of) for key, (name, seen, of) in totals.items())

    def as_json(self) -> dict[str, Any]:
        """The check as data: totals, the missing components, the counts per name."""
        return {
            "game": self.game,
            "complete": self.complete,
            "seen": self.seen_count,
            "of": len(self.pieces),
            "missing": [p.as_json() for p in self.missing],
            "counts": [c.as_json() for c in self.counts],
        }


def check(game: str, entries: Sequence[TagEntry], detections: Iterable[Detection]) -> Inventory:
    """Which components of ``game`` (its registry ``entries``) the ``detections`` show: a
    component is seen when any tag of any of its faces is detected. Detections of other games'
    tags, or of no game's, are left out. SheetError when a component has no printed name."""
    found = {(d.family, d.id) for d in detections}
    tags: dict[tuple[str, int], list[TagEntry]] = {}
    for e in entries:
        if e.game == game:
            tags.setdefault((e.name, e.item), []).append(e)
    pieces = []
    for group in tags.values():
        first = group[0]
        key = first.shown or first.name
        number = first.copy or first.item
        base = _plain_name(key)
        pieces.append(
            Piece(
                key,
                number,
                Text(f"{base.zh}{number}", f"{base.en} {number}"),
                first.kind,
                first.family,
                tuple(e.tag_id for e in group),
                any((e.family, e.tag_id) in found for e in group),
            )
        )
    return Inventory(game, tuple(pieces))


def describe(result: Inventory, title: Text, lang: Language) -> str:
    """The check in a few lines of ``lang`` (``tablesight inventory``): the totals, each
    missing piece, each kind's count (✖ where some are missing)."""
    head = SUMMARY.format(title=title, seen=result.seen_count, of=len(result.pieces)).in_(lang)
    sep = "," if lang == "zh" else ", "
    missing = result.missing
    lines = [f"{head}{sep}{(MISSING.format(n=len(missing)) if missing else ALL_HERE).in_(lang)}"]
    lines += [f"  {p.name.in_(lang)}" for p in missing]
    lines.append(COUNTS.in_(lang))
    for c in result.counts:
        mark = "  " if c.seen == c.of else "✖ "
        lines.append(f"  {mark}{c.name.in_(lang)}: {COUNT.format(seen=c.seen, of=c.of).in_(lang)}")
    return "\n".join(lines)


def _plain_name(key: str) -> Text:
    """The sheet's words for a component's name; SheetError when the sheet has none."""
    name = NAMES.get(key)
    if name is None:
        raise SheetError(f"the sticker sheet has no words for {key!r}")
    return name


def marked_sheets(
    entries: Sequence[TagEntry], inventory: Inventory, lang: Language
) -> list[tuple[int, str]]:
    """The sticker sheet's pages (``vision.sheets.layout``, labelled in ``lang``) that hold a
    sticker of a missing component, as SVG documents with each such sticker marked: its page
    number (from 1) and the SVG. None when nothing is missing."""
    missing = {tag for p in inventory.missing for tag in p.tag_ids}
    pages = layout([e for e in entries if e.game == inventory.game], lang=lang)
    out = []
    for n, page in enumerate(pages, 1):
        marks = []
        for placed in page:
            if placed.tag_id not in missing:
                continue
            w, h = placed.size_mm
            marks.append(
                f'<rect class="missing" data-id="{placed.tag_id}" x="{placed.x_mm:.2f}" '
                f'y="{placed.y_mm:.2f}" width="{w:.2f}" height="{h:.2f}" '
                f'fill="{MISSING_FILL}" fill-opacity="0.35" stroke="{MISSING_FILL}" '
                'stroke-width="2"/>'
            )
        if marks:
            svg = page_svg(page, "", lang=lang)
            out.append((n, svg.replace("</svg>", "\n".join(marks) + "\n</svg>")))
    return out


def draw_seen(
    image: npt.NDArray[np.uint8], detections: Iterable[Detection], inventory: Inventory
) -> npt.NDArray[np.uint8]:
    """A copy of ``image`` with the tags of the seen components outlined."""
    ours = {(p.family, t) for p in inventory.pieces for t in p.tag_ids}
    picture = image.copy()
    width = max(2, round(min(image.shape[:2]) / 300))
    for d in detections:
        if (d.family, d.id) in ours:
            corners = np.round(np.asarray(d.corners, np.float64)).astype(np.int32)
            cv2.polylines(picture, [corners], True, SEEN_BGR, width, cv2.LINE_AA)
    return picture
