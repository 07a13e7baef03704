"""The readers' registry: one reader per game, found by name, all of one declared protocol."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.core import find_game, game_names, start
from engine.core.game import GAME_MODULES
from vision.calibration import TableCalibration
from vision.errors import ReaderNotFoundError, VisionError
from vision.readers import (
    READERS,
    GameReader,
    Reader,
    dont_starve,
    find_reader,
    greenwood,
    stonesaga,
    table_reader,
)
from vision.registry import load_registry

ROOT = Path(__file__).resolve().parents[2]


def test_every_game_the_engine_offers_has_its_reader_under_its_own_name() -> None:
    shipped = sorted(GAME_MODULES)  # the project's games (tests may register toy games too)
    assert sorted(READERS) == shipped == ["dont_starve", "greenwood", "stonesaga"]
    assert set(shipped) <= set(game_names())
    for name, reader in READERS.items():
        assert reader.game == name and find_reader(name) is reader
    assert find_reader("greenwood").scan is greenwood.scan
    assert find_reader("stonesaga").describe is stonesaga.describe


def test_a_game_without_a_reader_is_refused_with_one_sentence() -> None:
    with pytest.raises(ReaderNotFoundError, match=r"^the toy reader is not available yet$") as e:
        find_reader("toy")
    assert isinstance(e.value, VisionError) and isinstance(e.value, LookupError)


def test_the_players_wording_is_the_games_own_where_it_has_one() -> None:
    assert find_reader("greenwood").describe_for_players is greenwood.describe_for_players
    assert find_reader("dont_starve").describe_for_players is None  # falls back to describe
    own = GameReader("toy", _scan, lambda r, lang: "codes", _factory, lambda r, lang: "names")
    assert own.for_players({}, "en") == "names"
    plain = GameReader("toy", _scan, lambda r, lang: f"codes {lang}", _factory)
    assert plain.for_players({}, "zh") == "codes zh"


def _scan(path: Path, lang: str) -> dict[str, Any]:
    return {}


def _factory(*args: Any) -> Reader:
    raise AssertionError("not built here")


def test_every_table_reader_is_a_reader_and_only_the_laid_map_has_a_layout() -> None:
    registry = load_registry()
    calibration = TableCalibration(np.eye(3), (1280, 720), (), 0.0)
    built = table_reader("dont_starve", registry, calibration)
    assert isinstance(built, dont_starve.DontStarveReader)
    sub = table_reader("greenwood", registry, calibration)
    assert isinstance(sub, greenwood.SubmarineReader)
    for kind in (type(built), type(sub), stonesaga.DrawPadReader):  # declared, so the defaults
        assert Reader in kind.__mro__  # come with it (a structural match would not have them)
    # The default: a reader of a game whose map the players do not lay finds nothing wrong.
    gw_state = start(find_game("greenwood"), {"players": 2}, seed=1)[0]
    assert sub.layout_seen(gw_state) == []
    assert type(sub).layout_seen is Reader.layout_seen
    assert stonesaga.DrawPadReader.layout_seen is Reader.layout_seen
    # Don't Starve's map, laid by the players: nothing in view, every tile is missing.
    ds_state = start(find_game("dont_starve"), {"players": 2}, seed=1)[0]
    seen = built.layout_seen(ds_state)
    assert seen and all(isinstance(code, str) for code, _ in seen)


@pytest.mark.parametrize(
    "path",
    [
        "vision/readers/__init__.py",
        "kiosk/loop.py",
        "kiosk/commands/scan.py",
        "kiosk/routers/camera.py",
    ],
)
def test_readers_are_found_through_the_registry_not_imported_by_name(path: str) -> None:
    text = (ROOT / path).read_text()
    assert "importlib" not in text and "vision.readers.{" not in text
    assert "getattr(self._reader" not in text and "getattr(self._detector" not in text
