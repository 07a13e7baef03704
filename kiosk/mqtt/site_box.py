"""The café's box at a table: every table of a café takes the box the café offers (docs/box.md,
docs/mqtt.md "The café's box").

``tablesight cafe`` publishes its box of each game as a retained message on
``tablesight/_box/<game>`` (``site_box_message``): the box as the café plays it, as the game's
data files. A table's publisher subscribes to ``tablesight/_box/+`` and hands each message to
``SiteBoxes.take`` in its worker thread. A message is checked before anything is written: its
size (``MAX_MESSAGE_BYTES``), its schema (``kiosk.mqtt.payloads.read_site_box``), its digest,
its file names, then the box itself with the same checks as ``tablesight box GAME import``
(``kiosk.boxes.import_box``). A message that fails any of them is dropped, with its reason
logged (and kept in ``SiteBoxes.dropped``); nothing raises out of ``take``.

The rule: **the café's box replaces the table's items item by item**. An export holds every
item of the game (the café's own and the demo's), so each of the table's items the café's box
holds becomes the café's value (or the demo's again); only an entry of the table's own that the
café's box does not hold (a card entered at this table) stays. Before the first replacement of
a box the table changed itself, the table's own items are set aside in
``site-boxes/<game>.before.json`` (the format of ``boxes/<game>.json``). A box is taken once:
the same box again (a retained message after a restart, a reconnection) changes nothing, so
what the table changes afterwards lasts until the café offers another box.

What the table took is kept in its data folder, each file written atomically: the owner's box
(``boxes/<game>.json``, what every new game, replay and scan uses), the café's box as it came
(``site-boxes/<game>.zip``, which ``tablesight box GAME import`` reads) and a note of it
(``site-boxes/<game>.json``). So a restart or a broker outage keeps it. A game in progress
keeps the box it was started with (``Options.box``).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import logging
import os
import zipfile
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.core import EngineError, Game, find_game
from engine.core.box import Box, BoxError
from engine.core.game import available_games
from kiosk.atomic import write_atomically
from kiosk.boxes import box_path, current_box, import_box, owner_items
from kiosk.mqtt.payloads import SiteBox, read_site_box
from kiosk.mqtt.topics import box_game

log = logging.getLogger("tablesight.mqtt.box")

FOLDER = "site-boxes"
"""Where a table keeps the café's boxes it took, in its data folder."""
MAX_MESSAGE_BYTES = 1024 * 1024
"""The longest café's box a table reads; a longer message is dropped unread. A box is the
game's data files as TOML: the demo boxes are 10–25 KiB as a message, and an owner's whole
box of printed cards a few times that, so this leaves room while bounding what a forged
message can cost a Pi (the café overview's own 16 KiB limit is for the tables' summaries)."""
KEPT_BOXES = 16
"""How many boxes taken from the café a table remembers, to say which games in progress play
with one."""
Kind = Literal["cafe", "table", "demo"]


def files_digest(files: Mapping[str, str]) -> str:
    """SHA-256 of a box's data files (name → TOML text) as canonical JSON: which box it is."""
    text = json.dumps(dict(files), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def box_digest(box: Box) -> str:
    """SHA-256 of a box as played (its canonical content)."""
    return hashlib.sha256(box.content.encode("utf-8")).hexdigest()


def now_iso() -> str:
    """The wall-clock time, UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def site_box_message(data_dir: Path, game: Game, offered: str | None = None) -> str | None:
    """The café's box of ``game`` as the retained message (``SiteBox``): the box of the data
    folder ``data_dir`` as played, as the game's data files; None when that folder holds none
    of its own items (the café offers no demo box). BoxError when the message would be longer
    than a table reads (``MAX_MESSAGE_BYTES``)."""
    items = owner_items(data_dir, game)
    if not items:
        return None
    box = current_box(data_dir, game)
    files = {name: tomli_w.dumps(tables) for name, tables in box.files.items()}
    payload = SiteBox(
        v=1,
        game=game.name,
        digest=files_digest(files),
        items=len(items),
        offered=offered or now_iso(),
        files=files,
    )
    body = payload.model_dump_json()
    if len(body.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise BoxError(
            [
                f"{game.name}'s box is {len(body.encode('utf-8')):,} bytes as a message, over"
                f" the {MAX_MESSAGE_BYTES:,} a table reads"
            ]
        )
    return body


class Taken(BaseModel):
    """A table's note of the café's box of one game it took (``site-boxes/<game>.json``)."""

    model_config = ConfigDict(strict=True, extra="ignore")

    v: Literal[1] = 1
    game: str
    digest: str = Field(pattern=r"^[0-9a-f]{64}$")
    """The café's box's digest (``SiteBox.digest``): the same box again is not taken again."""
    items: int = Field(ge=0)
    """The café's own items in it."""
    offered: str
    taken: str
    boxes: list[str] = []
    """The digests of the boxes as played right after taking one (``box_digest``), newest
    last: a game started with one of them is played with the café's box."""


class SiteBoxes:
    """The café's boxes one table takes, kept in its data folder (``site-boxes/``)."""

    def __init__(self, data_dir: Path, say: Callable[[str], None] | None = None) -> None:
        self.data_dir = data_dir
        self.folder = data_dir / FOLDER
        self.say = say or (lambda line: log.info("%s", line))
        self.taken: dict[str, Taken] = {}
        """The note of each game's café's box taken, by game."""
        self.dropped: list[str] = []
        """Why each message dropped was dropped (the latest 20), for the logs and the tests."""
        self._kind: tuple[str, Kind] | None = None  # the last box judged and its kind
        for game in available_games():
            note = self._read_note(game)
            if note is not None:
                self.taken[game.name] = note

    def _note_path(self, game: str) -> Path:
        return self.folder / f"{game}.json"

    def _read_note(self, game: Game) -> Taken | None:
        path = self._note_path(game.name)
        try:
            raw = path.read_bytes()
        except OSError:
            return None
        try:
            note = Taken.model_validate_json(raw[: MAX_MESSAGE_BYTES + 1])
            if note.game != game.name:
                raise ValueError(f"it is the note of {note.game!r}")
        except (ValidationError, ValueError) as exc:
            log.warning("%s is not a note of the café's box (%s): ignored", path, exc)
            return None
        return note

    # --- a message ---------------------------------------------------------------------------

    def too_long(self, topic_name: str, size: int) -> bool:
        """Whether a message of ``size`` bytes is too long to read: then it is dropped (with
        its reason) unread, before it is queued."""
        if size <= MAX_MESSAGE_BYTES:
            return False
        self._drop(topic_name, f"{size:,} bytes, over the limit of {MAX_MESSAGE_BYTES:,}")
        return True

    def take(self, topic_name: str, payload: bytes) -> str | None:
        """Take the café's box in one message, if it is one and a new one; returns the game
        whose box the table took, else None. Nothing raises out of here: a message that is
        not a good box is dropped with its reason logged, and nothing is changed."""
        try:
            return self._take(topic_name, payload)
        except ValueError as exc:
            self._drop(topic_name, str(exc))
        except Exception as exc:  # a RecursionError of a parser, a full disk: drop it
            self._drop(topic_name, f"{type(exc).__name__}: {exc}")
        return None

    def _take(self, topic_name: str, payload: bytes) -> str | None:
        name = box_game(topic_name)
        if name is None:
            raise ValueError("not the topic of a café's box (tablesight/_box/<game>)")
        try:
            game = find_game(name)
        except EngineError:
            raise ValueError(f"no game called {name!r}") from None
        if game.name != name:
            raise ValueError(f"no game called {name!r} (did the café mean {game.name!r}?)")
        if not payload:
            self.say(f"the café offers no box of {name} any more; this table keeps its box")
            return None
        if self.too_long(topic_name, len(payload)):
            return None
        offered = read_site_box(payload, name)
        if files_digest(offered.files) != offered.digest:
            raise ValueError("its digest is not the digest of its files")
        unknown = sorted(set(offered.files) - set(game.box_files))
        if unknown:
            known = ", ".join(game.box_files)
            raise ValueError(f"{unknown[0]}: not a data file of {name}'s box ({known})")
        before = self.taken.get(name)
        if before is not None and before.digest == offered.digest:
            return None  # taken already: what the table changed since stays
        self._keep(game, offered, before)
        return name

    def _keep(self, game: Game, offered: SiteBox, before: Taken | None) -> None:
        """Check the box as ``tablesight box GAME import`` does and keep it (the table's own
        items set aside first); BoxError or OSError with nothing changed in the owner's box."""
        self.folder.mkdir(parents=True, exist_ok=True)
        packed = io.BytesIO()
        with zipfile.ZipFile(packed, "w") as archive:
            for file, text in offered.files.items():
                archive.writestr(f"{game.name}/{file}", text)
        incoming = self.folder / f".{game.name}.zip.incoming"
        write_atomically(incoming, packed.getvalue())
        try:
            mine = current_box(self.data_dir, game)
            ours = before.boxes if before is not None else []
            if mine.owner and box_digest(mine) not in ours:  # the table's own: set aside
                with contextlib.suppress(FileNotFoundError):
                    kept = box_path(self.data_dir, game).read_bytes()
                    write_atomically(self.folder / f"{game.name}.before.json", kept)
            try:
                import_box(self.data_dir, game, incoming)
            except BoxError as exc:
                raise ValueError("; ".join(exc.problems)) from None
            os.replace(incoming, self.folder / f"{game.name}.zip")
        finally:
            incoming.unlink(missing_ok=True)
        played = box_digest(current_box(self.data_dir, game))
        note = Taken(
            game=game.name,
            digest=offered.digest,
            items=offered.items,
            offered=offered.offered,
            taken=now_iso(),
            boxes=[*(b for b in ours if b != played), played][-KEPT_BOXES:],
        )
        write_atomically(self._note_path(game.name), note.model_dump_json(indent=1).encode())
        self.taken[game.name] = note
        self._kind = None
        self.say(
            f"took the café's box of {game.name} ({offered.items} item(s) the café's): new"
            " games use it"
        )

    def _drop(self, topic_name: str, reason: str) -> None:
        line = f"{topic_name[:120]}: {reason[:300]}"
        self.dropped = [*self.dropped[-19:], line]
        log.warning("dropped the café's box on %s", line)

    # --- which box a game plays with -----------------------------------------------------------

    def kind(self, game: Game, options: Any) -> Kind:
        """Which box a game with these options is played with: ``cafe`` (one the table took
        from the café, as it took it), ``table`` (the table's own items), ``demo``."""
        box = game.box(options)
        if not box.owner:
            return "demo"
        if self._kind is not None and self._kind[0] == box.content:
            return self._kind[1]
        taken = self.taken.get(game.name)
        kind: Kind = "cafe" if taken is not None and box_digest(box) in taken.boxes else "table"
        self._kind = (box.content, kind)
        return kind
