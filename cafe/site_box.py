"""The café's box: a box exported by one table (``tablesight box GAME export PATH``), imported
into the café (``tablesight cafe --box PATH``) and offered to every table on the broker.

The café keeps its box in its own box folder, ``<data-dir>/cafe/`` (``boxes/<game>.json``
there, as a table keeps its own), so a machine that is both a table and the café's overview
keeps the two apart; ``tablesight --data-dir <data-dir>/cafe box GAME show`` shows it. Every
game whose box there holds items of the café's own is offered (``offered``), as a retained
message on ``tablesight/_box/<game>`` (``kiosk.mqtt.site_box``), each time the overview
connects to the broker.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

from engine.core import Game
from engine.core.box import BoxError
from engine.core.game import available_games
from kiosk.boxes import box_path, import_box
from kiosk.mqtt.site_box import site_box_message

log = logging.getLogger("tablesight.cafe")

CAFE_FOLDER = "cafe"
"""The café's own box folder in the data folder."""


def cafe_folder(data_dir: Path) -> Path:
    """Where the café keeps its box: a data folder of its own inside ``data_dir``."""
    return data_dir / CAFE_FOLDER


@dataclass(frozen=True)
class Imported:
    """A box the café took: its game, the path it came from, and how many items it took."""

    game: Game
    path: Path
    items: int


def game_of(path: Path) -> Game:
    """The game whose box ``path`` (a folder or a zip of one) holds, by the names of its data
    files; BoxError naming the path when it holds none of any game's, or files of two."""
    if path.is_dir():
        names = {file.name for file in path.rglob("*.toml")}
    elif zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            names = {PurePosixPath(n).name for n in archive.namelist() if n.endswith(".toml")}
    elif path.exists():
        raise BoxError([f"{path}: neither a folder nor a zip of one"])
    else:
        raise BoxError([f"{path}: no such folder or file"])
    games = [g for g in available_games() if names & set(g.box_files)]
    if not games:
        raise BoxError([f"{path}: holds none of the data files of any game's box"])
    if len(games) > 1:
        whose = " and ".join(
            f"{g.name}'s {', '.join(sorted(names & set(g.box_files)))}" for g in games
        )
        raise BoxError([f"{path}: holds {whose}: give one game's box per --box"])
    return games[0]


def import_boxes(data_dir: Path, paths: Sequence[Path]) -> list[Imported]:
    """Import each box (one per game) into the café's box folder in ``data_dir``, checked as
    ``tablesight box GAME import`` checks it (one line per problem, naming the file and the
    entry). Every box is checked before any is kept: BoxError, its lines prefixed with the
    path, and nothing changed, when anything is wrong."""
    folder = cafe_folder(data_dir)
    problems: list[str] = []
    found: list[tuple[Game, Path]] = []
    for path in paths:
        try:
            game = game_of(path)
        except BoxError as exc:
            problems += exc.problems
            continue
        twice = [p for g, p in found if g.name == game.name]
        if twice:
            problems.append(f"{path}: a second box of {game.name} (the first: {twice[0]})")
            continue
        found.append((game, path))
    if problems:
        raise BoxError(problems)
    with tempfile.TemporaryDirectory(prefix="tablesight-cafe-box-") as trial:
        for game, path in found:  # a trial on a copy of what the café holds now
            kept = box_path(folder, game)
            if kept.is_file():
                box_path(Path(trial), game).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(kept, box_path(Path(trial), game))
            try:
                import_box(Path(trial), game, path)
                message = site_box_message(Path(trial), game)
            except BoxError as exc:
                problems += [f"{path}: {problem}" for problem in exc.problems]
                continue
            if message is None:
                problems.append(f"{path}: holds nothing of the owner's, only the demo box's")
    if problems:
        raise BoxError(problems)
    return [Imported(game, path, len(import_box(folder, game, path))) for game, path in found]


def offered(data_dir: Path) -> dict[str, str]:
    """The café's box of each game it offers, as the retained message, by game: those whose
    box in the café's folder holds items of its own (``offered``: when that box was kept). A
    box that cannot be offered (too long for a table) is left out, said in the log."""
    folder = cafe_folder(data_dir)
    messages: dict[str, str] = {}
    for game in available_games():
        path = box_path(folder, game)
        try:
            when = datetime.fromtimestamp(path.stat().st_mtime, UTC)
        except OSError:
            continue
        stamp = when.isoformat(timespec="seconds").replace("+00:00", "Z")
        try:
            message = site_box_message(folder, game, stamp)
        except BoxError as exc:
            log.warning("the café's box of %s is not offered: %s", game.name, exc)
            continue
        if message is not None:
            messages[game.name] = message
    return messages
