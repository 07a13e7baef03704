"""The owner's boxes in the data folder: what ``tablesight box`` shows, imports, exports and
resets, and the box a new game (or a replay, a scan) is played with.

Each game's owner items live in ``boxes/<game>.json`` in the data folder (the items of
``engine.core.box``, by item id), over the game's shipped demo box. The file is written
atomically (its own temporary file, fsync, rename), so a power cut leaves the old box or the
new one, never half of one. A box to import is a folder, or a zip of one, holding any of the
game's data files (``engine/<game>/data/*.toml``) with the same tables and keys; it is checked
whole before anything is written: one line per problem, naming the file and the entry.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import threading
import tomllib
import zipfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any

import tomli_w
from pydantic import BaseModel, ValidationError

from engine.core import Game, Text
from engine.core.box import (
    Box,
    BoxError,
    BoxFiles,
    holds_entries,
    is_new_entry,
    items_of,
    kind_of,
    merged,
    owners_items,
)
from kiosk.atomic import write_atomically

log = logging.getLogger("kiosk.boxes")

CHANGING = threading.RLock()
"""Held while the owner's items are read and written back (an import, a kept item, a reset):
the "Your box" page and the café's box arriving over MQTT never interleave their writes."""

BOX_FOLDER = "boxes"
MAX_BOX_BYTES = 8 * 2**20
"""A box file or an imported data file larger than this is refused unread."""


class OwnerBox(BaseModel):
    """The owner's items of one game's box as kept in the data folder."""

    version: int = 1
    game: str
    items: dict[str, Any] = {}


def box_path(data_dir: Path, game: Game) -> Path:
    """Where the owner's items of ``game`` are kept."""
    return data_dir / BOX_FOLDER / f"{game.name}.json"


def owner_items(data_dir: Path, game: Game) -> dict[str, Any]:
    """The owner's items of ``game`` (none when the owner copied nothing yet). A file that is
    not a box is set aside (``.damaged``, never overwritten) with one warning, and the demo
    box is used: a damaged box never stops the table."""
    path = box_path(data_dir, game)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        log.warning("the box of %s cannot be read (%s): the demo box is used", game.name, exc)
        return {}
    try:
        if len(raw) > MAX_BOX_BYTES:
            raise ValueError(f"larger than {MAX_BOX_BYTES} bytes")
        kept = OwnerBox.model_validate_json(raw)
        if kept.game != game.name:
            raise ValueError(f"it is the box of {kept.game!r}")
        _check(game, kept.items)
    except (ValidationError, ValueError) as exc:
        aside = path.with_name(path.name + ".damaged")
        log.warning("the box of %s is not valid (%s): set aside as %s", game.name, exc, aside)
        with contextlib.suppress(OSError):
            os.replace(path, aside)
        return {}
    return kept.items


def current_box(data_dir: Path, game: Game) -> Box:
    """The box a new game of ``game`` is played with: the demo's items with the owner's over
    them."""
    items = owner_items(data_dir, game)
    demo = game.demo_box().files
    if not items:
        return game.demo_box()
    return Box.of(game.name, merged(demo, items), items)


def with_box(data_dir: Path, game: Game, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Set-up options with the box a new game is played with: the data folder's (the
    owner's items over the demo's), unless the options name one already."""
    out = dict(options or {})
    if out.get("box") is None:
        out["box"] = current_box(data_dir, game)
    return out


def _check(game: Game, items: Mapping[str, Any]) -> None:
    """BoxError, one line per problem, unless the demo with ``items`` over it loads. When the
    whole does not load, each item is tried alone over the demo to name the bad entries
    (items that only load together, such as valley tiles naming each other, pass as a
    whole)."""
    demo = game.demo_box().files
    known = items_of(demo)
    known_kinds = {kind_of(i) for i in known}
    problems: list[str] = []
    for item, value in items.items():
        known_kind = kind_of(item) in known_kinds and isinstance(value, dict)
        if item not in known and not known_kind and not is_new_entry(demo, item, value):
            problems.append(f"{_where(item)}: not a printed item of {game.name}'s box")
    if problems:
        raise BoxError(problems)
    whole = _loads(game, merged(demo, items))
    if whole is None:
        return
    for item, value in items.items():
        problem = _loads(game, merged(demo, {item: value}))
        if problem:
            entry = _where(item).partition(", ")[2] + ": "  # said once, not twice
            problems.append(f"{_where(item)}: {problem.removeprefix(entry)}")
    raise BoxError(problems or [f"{game.name}'s box as a whole: {whole}"])


def _loads(game: Game, files: BoxFiles) -> str | None:
    """Why the game's catalogue cannot be made from ``files``; None when it can."""
    try:
        game.load_box(files)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        text = f"missing field {exc.args[0]!r}" if isinstance(exc, KeyError) else str(exc)
        return text.split(": ", 1)[1] if text.startswith(tuple(game.box_files)) else text
    return None


def _where(item: str) -> str:
    """An item id as a person reads it: ``submarines.toml, layout 0``."""
    stem, _, rest = item.partition("/")
    key, _, name = rest.partition("/")
    return f"{stem}.toml, {key} {name}".rstrip()


def read_source(path: Path, game: Game) -> dict[str, dict[str, Any]]:
    """The data files in a box folder or a zip of one (at any depth, by file name), parsed;
    BoxError naming every file that is not one of the game's or does not parse."""
    texts: dict[str, bytes] = {}
    problems: list[str] = []
    if path.is_dir():
        for file in sorted(path.rglob("*.toml")):
            texts.setdefault(file.name, file.read_bytes()[: MAX_BOX_BYTES + 1])
    elif zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                name = PurePosixPath(info.filename).name
                if name.endswith(".toml") and not info.is_dir():
                    if info.file_size > MAX_BOX_BYTES:
                        problems.append(f"{name}: larger than {MAX_BOX_BYTES} bytes")
                        continue
                    texts.setdefault(name, archive.read(info))
    elif path.exists():
        raise BoxError([f"{path}: neither a folder nor a zip of one"])
    else:
        raise BoxError([f"{path}: no such folder or file"])
    files: dict[str, dict[str, Any]] = {}
    for name, raw in texts.items():
        if name not in game.box_files:
            problems.append(
                f"{name}: not a data file of {game.name}'s box ({', '.join(game.box_files)})"
            )
            continue
        try:
            if len(raw) > MAX_BOX_BYTES:
                raise ValueError(f"larger than {MAX_BOX_BYTES} bytes")
            files[name] = tomllib.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            problems.append(f"{name}: {exc}")
    if not files and not problems:
        problems.append(
            f"{path}: holds none of {game.name}'s data files ({', '.join(game.box_files)})"
        )
    if problems:
        raise BoxError(problems)
    return files


def import_box(data_dir: Path, game: Game, source: Path) -> dict[str, Any]:
    """Check the box at ``source`` whole, then keep its items that are the owner's over those
    kept before; returns the items it took. BoxError (one line per problem) with nothing
    changed when anything is wrong."""
    files = read_source(source, game)
    with CHANGING:
        return _take(data_dir, game, files)


def _take(data_dir: Path, game: Game, files: dict[str, Any]) -> dict[str, Any]:
    """Check a box's files read for an import and keep the owner's items they hold."""
    demo = game.demo_box().files
    problems: list[str] = []
    for name, tables in files.items():
        unknown = sorted(
            key
            for key in set(tables) - set(demo[name])
            if not (holds_entries(demo[name]) and isinstance(tables[key], dict))
        )
        problems += [f"{name}, {key}: not a table of {name}" for key in unknown]
    if problems:
        raise BoxError(problems)
    taken = owners_items(demo, files)
    # An item the import gives back as the demo's own drops the owner's earlier value.
    given_demo = set(items_of(files)) - set(taken)
    items = {k: v for k, v in owner_items(data_dir, game).items() if k not in given_demo} | taken
    _check(game, items)
    _write(data_dir, game, items)
    return taken


def keep_items(data_dir: Path, game: Game, items: Mapping[str, Any]) -> None:
    """Keep these items as the owner's (over those kept before), checked first (BoxError)."""
    with CHANGING:
        merged_items = owner_items(data_dir, game) | dict(items)
        _check(game, merged_items)
        _write(data_dir, game, merged_items)


def reset_box(data_dir: Path, game: Game) -> int:
    """Forget the owner's items (the demo box again); returns how many were forgotten."""
    with CHANGING:
        count = len(owner_items(data_dir, game))
        with contextlib.suppress(FileNotFoundError):
            box_path(data_dir, game).unlink()
        return count


def export_box(data_dir: Path, game: Game, target: Path) -> list[str]:
    """Write the box as played (the owner's items over the demo's, the demo's still marked
    invented) as the game's data files, to a folder or, for a name ending ``.zip``, a zip of
    one; returns the file names written. What ``import_box`` reads back unchanged."""
    texts = _box_texts(data_dir, game)
    if target.suffix.lower() == ".zip":
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, box_zip(data_dir, game))
    else:
        target.mkdir(parents=True, exist_ok=True)
        for name, text in texts.items():
            write_atomically(target / name, text.encode("utf-8"))
    return list(texts)


def box_zip(data_dir: Path, game: Game) -> bytes:
    """The box as played as a zip of a folder named after the game (``export_box``'s zip; the
    page's download)."""
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        for name, text in _box_texts(data_dir, game).items():
            archive.writestr(f"{game.name}/{name}", text)
    return packed.getvalue()


def _box_texts(data_dir: Path, game: Game) -> dict[str, str]:
    """The box as played, file by file, as TOML."""
    box = current_box(data_dir, game)
    return {name: tomli_w.dumps(tables) for name, tables in box.files.items()}


def _write(data_dir: Path, game: Game, items: Mapping[str, Any]) -> None:
    """Write the owner's items atomically (nothing half written after a power cut)."""
    path = box_path(data_dir, game)
    path.parent.mkdir(parents=True, exist_ok=True)
    body = OwnerBox(game=game.name, items=dict(items)).model_dump_json(indent=1)
    write_atomically(path, body.encode("utf-8"))


def kind_label(game: Game, kind: str, box: Box | None = None) -> Text:
    """What players call a kind of item: the game's name for it; for an owner's new entry of
    a named file (a scenario card of their own), the file's name and the entry's printed
    title in ``box``; else its file and key."""
    if kind in game.box_kinds:
        return game.box_kinds[kind]
    stem, _, key = kind.partition("/")
    value = items_of(box.files).get(kind) if box is not None else None
    if stem in game.box_kinds and isinstance(value, dict):
        zh = value.get("title_zh") or value.get("name_zh")
        en = value.get("title_en") or value.get("name_en")
        if isinstance(zh, str) and isinstance(en, str):
            named = game.box_kinds[stem]
            return Text(f"{named.zh}「{zh}」", f"{named.en} '{en}'")
    return Text(f"{stem}.toml 的 {key}", f"{stem}.toml: {key.replace('_', ' ')}")
