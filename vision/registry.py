"""The tag registry: which component each tag id belongs to, from one data file per game.

The files live in ``vision/tags/`` (``greenwood.toml``, ``dont_starve.toml``, ``stonesaga.toml``
and ``anchors.toml`` for the calibration anchors). Each holds groups of identical components::

    [[group]]
    name = "wisp"            # what the component is
    kind = "token"           # anchor, board, tile, piece or token
    first_id = 198           # ids are given out in order from here
    count = 45               # how many such components
    faces = ["front", "back"]  # optional: one tag per face (a double-sided tile)
    tags_per_face = 1        # optional: boards carry several tags per face
    tag_mm = 12              # edge of the tag's black square
    source = "greenwood.zh.md §一: 45个鬼火标记"
    placeholder = "tag size is invented until measured"   # set when a value is made up
    label = "wisp"           # optional: the name the kiosk gives it, in English
    # or, when the items differ, names in runs of items: labels = [["domino", 10], ...]

``label`` and ``labels`` name the component as the kiosk and the engine do (``name`` is the
readers' key and stays as it is); a sticker then reads "148 domino 1", numbered within its run.

Boards may add ``board_mm``, ``tag_places_mm`` (one place per tag of a face) and ``grid``;
anchors add ``positions_mm`` (one per anchor). No id may be used twice across all the files:
:func:`load_registry` checks it and names every clash.
"""

from __future__ import annotations

import logging
import os
import time
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from vision.calibration import BoardLayout, Grid, TagPlace
from vision.detection import Detection
from vision.errors import RegistryError

TAGS_DIR = Path(__file__).resolve().parent / "tags"
GAMES = ("greenwood", "dont_starve", "stonesaga")
ANCHORS = "anchors"
KINDS = ("anchor", "board", "tile", "piece", "token")
MAX_ID = {"tag36h11": 586, "tagStandard41h12": 2114}

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TagEntry:
    """One tag: the component it is on (which copy, which face, which of the face's tags)."""

    tag_id: int
    family: str
    game: str
    name: str
    kind: str
    item: int
    face: str | None
    tag_index: int
    tag_mm: float
    source: str
    placeholder: str | None
    position_mm: tuple[float, float] | None = None
    shown: str | None = None
    """The name the kiosk gives the component (the data file's ``label``/``labels``), if any."""
    copy: int | None = None
    """Which of the components so named it is, from 1 (``item`` when all have one name)."""

    @property
    def label(self) -> str:
        """A short label, as printed under the sticker (``domino 1``, ``map tile 3 hidden``)."""
        face = f" {self.face}" if self.face else ""
        return f"{self.shown or self.name} {self.copy or self.item}{face}".strip()


@dataclass
class Registry:
    """Every known tag, keyed by (family, id); unknown ids are reported once, then ignored."""

    entries: dict[tuple[str, int], TagEntry]
    boards: dict[str, list[BoardLayout]] = field(default_factory=dict)
    _reported: set[tuple[str, int]] = field(default_factory=set)

    def lookup(self, tag_id: int, family: str = "tag36h11") -> TagEntry | None:
        """The entry of a tag, or None when no game uses it."""
        return self.entries.get((family, tag_id))

    def for_game(self, game: str) -> list[TagEntry]:
        """The entries of one game (or of the anchors), in id order."""
        found = sorted((e for e in self.entries.values() if e.game == game), key=_entry_key)
        if not found:
            raise RegistryError(f"no tags for game {game!r}: known are {', '.join(self.games)}")
        return found

    @property
    def games(self) -> list[str]:
        """The games (and "anchors") the registry holds."""
        return sorted({e.game for e in self.entries.values()})

    def anchors(self) -> dict[int, TagPlace]:
        """The calibration anchors and where they are on the table."""
        return anchor_places(self.for_game(ANCHORS))

    def known(self, detections: Iterable[Detection]) -> list[Detection]:
        """The detections whose tag is registered; an unknown tag is logged the first time only."""
        kept = []
        for d in detections:
            key = (d.family, d.id)
            if key in self.entries:
                kept.append(d)
            elif key not in self._reported:
                self._reported.add(key)
                log.warning("ignoring tag %s %d: no game or anchor uses it", d.family, d.id)
        return kept

    @property
    def unknown_seen(self) -> list[tuple[str, int]]:
        """The unknown tags reported so far."""
        return sorted(self._reported)


def load_registry(
    games: Iterable[str] = GAMES, folder: Path = TAGS_DIR, *, anchors: bool = True
) -> Registry:
    """Load the games' files (and the anchors) from ``folder``; RegistryError on any problem,
    including an id used twice (every clash is named). The files are parsed once per process
    while they stay as they are (their paths and `_stamp` are the cache's key: an edited file
    is parsed again); each call gets a registry of its own."""
    files = _files((*games, *([ANCHORS] if anchors else [])), folder)
    entries, boards = _loaded(tuple((name, path, _stamp(path)) for name, path in files))
    return Registry(dict(entries), {name: list(layouts) for name, layouts in boards.items()})


_Loaded = tuple[dict[tuple[str, int], TagEntry], dict[str, tuple[BoardLayout, ...]]]
_Stamp = tuple[int, int, int, int] | bytes | None

RACY_S = 3.0
"""A file changed less than this many seconds ago is known by its bytes, not by its times: an
edit within the file system's clock tick (a few milliseconds; 2 s on FAT) leaves them as they
were (git's "racily clean" files)."""


@lru_cache(maxsize=16)
def _files(names: tuple[str, ...], folder: Path) -> tuple[tuple[str, Path], ...]:
    """Each name's tag file in ``folder``."""
    return tuple((name, folder / f"{name}.toml") for name in names)


def _stamp(path: Path) -> _Stamp:
    """A file's key in the cache: its size, times and inode (a look at the file, not a read),
    or its bytes while it changed less than ``RACY_S`` ago (a file edited, even within the
    same clock tick, is read again: a change sets its change time, which nothing sets back);
    None for a file that cannot be read (`load_file` names why)."""
    try:
        info = os.stat(path)
        if time.time() - info.st_ctime >= RACY_S:
            return info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino
        return path.read_bytes()
    except OSError:
        return None


@lru_cache(maxsize=16)
def _loaded(files: tuple[tuple[str, Path, _Stamp], ...]) -> _Loaded:
    """The entries and boards of the files (name, path, `_stamp`), parsed once per process for
    each set of files as they are (a refusal is not kept: the next call reads them again)."""
    entries: list[TagEntry] = []
    boards: dict[str, tuple[BoardLayout, ...]] = {}
    for name, path, _ in files:
        file_entries, file_boards = load_file(path)
        entries += file_entries
        boards[name] = tuple(file_boards)
    clashes = id_clashes(entries)
    if clashes:
        raise RegistryError("tag ids used twice:\n  " + "\n  ".join(clashes))
    return {(e.family, e.tag_id): e for e in entries}, boards


def anchor_places(entries: Iterable[TagEntry]) -> dict[int, TagPlace]:
    """The anchors among ``entries`` that have a place on the table, by id."""
    return {
        e.tag_id: TagPlace(e.tag_id, *e.position_mm, e.tag_mm)
        for e in entries
        if e.kind == "anchor" and e.position_mm is not None
    }


def id_clashes(entries: Iterable[TagEntry]) -> list[str]:
    """One line per id that more than one entry uses."""
    first: dict[tuple[str, int], TagEntry] = {}
    clashes = []
    for e in entries:
        other = first.setdefault((e.family, e.tag_id), e)
        if other is not e:
            clashes.append(
                f"{e.family} {e.tag_id}: {other.game} {other.label!r} and {e.game} {e.label!r}"
            )
    return clashes


def load_file(path: Path) -> tuple[list[TagEntry], list[BoardLayout]]:
    """The entries and board layouts of one data file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RegistryError(f"{path}: no such tag file") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise RegistryError(f"{path}: cannot read it: {exc}") from None
    game = data.get("game") or path.stem
    family = data.get("family", "tag36h11")
    if family not in MAX_ID:
        raise RegistryError(f"{path}: unknown family {family!r}")
    entries: list[TagEntry] = []
    boards: list[BoardLayout] = []
    for n, group in enumerate(data.get("group", []), 1):
        try:
            new, layouts = _expand(group, game, family)
        except (KeyError, TypeError, ValueError) as exc:
            what = group.get("name", f"group {n}") if isinstance(group, dict) else f"group {n}"
            raise RegistryError(f"{path}: {what}: {_reason(exc)}") from None
        entries += new
        boards += layouts
    return entries, boards


def _expand(g: dict[str, Any], game: str, family: str) -> tuple[list[TagEntry], list[BoardLayout]]:
    name, kind = str(g["name"]), str(g["kind"])
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    first, count = int(g["first_id"]), int(g["count"])
    faces: list[str | None] = list(g.get("faces") or [None])
    per_face = int(g.get("tags_per_face", 1))
    tag_mm = float(g["tag_mm"])
    if count < 1 or per_face < 1 or tag_mm <= 0:
        raise ValueError("count, tags_per_face and tag_mm must be positive")
    last = first + count * len(faces) * per_face - 1
    if first < 0 or last > MAX_ID[family]:
        raise ValueError(f"ids {first}-{last} do not fit {family} (0-{MAX_ID[family]})")
    positions = [_pair(p, "positions_mm") for p in g.get("positions_mm", [])]
    if positions and len(positions) != count:
        raise ValueError(f"positions_mm has {len(positions)} places for {count} components")
    places = [_pair(p, "tag_places_mm") for p in g.get("tag_places_mm", [])]
    if places and len(places) != per_face:
        raise ValueError(f"tag_places_mm has {len(places)} places for {per_face} tags a face")
    shown = _item_labels(g, count)
    entries, layouts = [], []
    tag_id = first
    for item in range(1, count + 1):
        for face in faces:
            tags = []
            for k in range(per_face):
                entries.append(
                    TagEntry(
                        tag_id,
                        family,
                        game,
                        name,
                        kind,
                        item,
                        face,
                        k,
                        tag_mm,
                        str(g.get("source", "")),
                        g.get("placeholder"),
                        positions[item - 1] if positions else None,
                        *shown[item - 1],
                    )
                )
                if places:
                    tags.append(TagPlace(tag_id, *places[k], tag_mm))
                tag_id += 1
            if kind == "board" and tags:
                label = f"{name} {item}" + (f" {face}" if face else "")
                layouts.append(BoardLayout(label, tuple(tags), _grid(g.get("grid"))))
    return entries, layouts


def _item_labels(g: dict[str, Any], count: int) -> list[tuple[str | None, int | None]]:
    """Each item's kiosk name and its number among the items so named: from ``label`` (one name
    for all) or ``labels`` (runs ``[name, how many]``, or a name for one item), else none."""
    if "labels" not in g:
        label = g.get("label")
        return [(str(label) if label else None, None)] * count
    out: list[tuple[str | None, int | None]] = []
    for run in g["labels"]:
        name, many = (run, 1) if isinstance(run, str) else (str(run[0]), int(run[1]))
        out += [(name, k) for k in range(1, many + 1)]
    if len(out) != count:
        raise ValueError(f"labels name {len(out)} components, not {count}")
    return out


def _grid(g: dict[str, Any] | None) -> Grid | None:
    if g is None:
        return None
    return Grid(
        _pair(g["origin_mm"], "origin_mm"),
        _pair(g["cell_mm"], "cell_mm"),
        int(g["cols"]),
        int(g["rows"]),
    )


def _pair(value: Any, field: str) -> tuple[float, float]:
    """An [x, y] of the data file as two floats; ValueError unless it has two values."""
    if len(value) != 2:
        raise ValueError(f"{field} takes [x, y] pairs, not {value!r}")
    return float(value[0]), float(value[1])


def _reason(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]!r}"
    return str(exc)


def _entry_key(e: TagEntry) -> tuple[str, int]:
    return (e.family, e.tag_id)
