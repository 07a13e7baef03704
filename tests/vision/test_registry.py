"""The tag registry: the shipped data files, the uniqueness check, unknown tags."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

from vision.detection import Detection
from vision.errors import RegistryError
from vision.registry import GAMES, TAGS_DIR, load_file, load_registry

RULES = Path(__file__).resolve().parents[2] / ".." / "shared" / "rules"


def detection(tag_id: int) -> Detection:
    corners = ((0.0, 10.0), (10.0, 10.0), (10.0, 0.0), (0.0, 0.0))
    return Detection("tag36h11", tag_id, corners, (5.0, 5.0), 80.0, 0)


def test_the_shipped_files_load_with_no_id_used_twice() -> None:
    registry = load_registry()
    assert set(registry.games) == {*GAMES, "anchors"}
    ids = [key[1] for key in registry.entries]
    assert len(ids) == len(set(ids))
    assert sorted(registry.anchors()) == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("game", "name", "copies", "faces"),
    [
        ("greenwood", "submarine board", 8, {"front", "back"}),  # 8块双面潜艇版图
        ("greenwood", "wisp", 45, {None}),  # 45个鬼火标记
        ("greenwood", "rescued creature", 50, {None}),  # 50个被解救生物
        ("dont_starve", "map tile", 13, {"revealed", "hidden"}),  # 13块 地图板块
        ("stonesaga", "ore: clay", 5, {"plain", "omen"}),  # 每种石头各 5 枚
    ],
)
def test_counts_follow_the_rule_texts(game: str, name: str, copies: int, faces: set) -> None:
    entries = [e for e in load_registry().for_game(game) if e.name == name]
    assert len({e.item for e in entries}) == copies
    assert {e.face for e in entries} == faces
    assert all(e.placeholder for e in entries)  # sizes are not measured yet: marked as such


@pytest.mark.parametrize("game", GAMES)
def test_every_group_cites_a_rule_text_that_exists(game: str) -> None:
    if not RULES.is_dir():
        pytest.skip(f"the shared rule texts are not at {RULES}")
    for entry in load_registry().for_game(game):
        rule_file = entry.source.split()[0]
        assert (RULES / rule_file).is_file(), entry.source


def test_a_board_face_has_its_tags_and_grid() -> None:
    boards = load_registry().boards["greenwood"]
    submarine = next(b for b in boards if b.name == "submarine board 1 back")
    assert submarine.tag_ids == (102, 103)
    assert submarine.grid is not None and submarine.grid.cols == 6


def test_an_id_used_twice_across_games_is_named(tmp_path: Path) -> None:
    for name in (*GAMES, "anchors"):
        shutil.copy(TAGS_DIR / f"{name}.toml", tmp_path)
    clash = tmp_path / "stonesaga.toml"
    clash.write_text(clash.read_text().replace("first_id = 447", "first_id = 200"))
    with pytest.raises(RegistryError) as err:
        load_registry(folder=tmp_path)
    assert "tag36h11 200: greenwood 'wisp 3' and stonesaga 'companion 1'" in str(err.value)


def test_an_anchor_id_reused_by_a_game_is_named(tmp_path: Path) -> None:
    for name in (*GAMES, "anchors"):
        shutil.copy(TAGS_DIR / f"{name}.toml", tmp_path)
    anchors = tmp_path / "anchors.toml"
    anchors.write_text(anchors.read_text().replace("first_id = 0", "first_id = 300"))
    with pytest.raises(RegistryError, match="dont_starve 'map tile 1 revealed' and anchors"):
        load_registry(folder=tmp_path)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[[group]\n", "cannot read it"),
        ('[[group]]\nname = "x"\nkind = "token"\ncount = 1\ntag_mm = 10\n', "missing field"),
        (
            '[[group]]\nname = "x"\nkind = "dice"\nfirst_id = 1\ncount = 1\ntag_mm = 10\n',
            "kind must be one of",
        ),
        (
            '[[group]]\nname = "x"\nkind = "token"\nfirst_id = 580\ncount = 9\ntag_mm = 10\n',
            "do not fit tag36h11",
        ),
        (
            '[[group]]\nname = "b"\nkind = "board"\nfirst_id = 1\ncount = 1\ntag_mm = 10\n'
            "tag_places_mm = [[15, 15, 0]]\n",
            r"tag_places_mm takes \[x, y\] pairs",
        ),
    ],
)
def test_a_malformed_file_says_where_and_why(tmp_path: Path, text: str, reason: str) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(text)
    with pytest.raises(RegistryError, match=reason):
        load_file(path)


def test_an_unknown_tag_is_reported_once_and_ignored(caplog) -> None:
    registry = load_registry()
    with caplog.at_level(logging.WARNING, logger="vision.registry"):
        first = registry.known([detection(100), detection(586)])
        second = registry.known([detection(586), detection(3)])
    assert [d.id for d in first] == [100]
    assert [d.id for d in second] == [3]
    assert [r.getMessage() for r in caplog.records] == [
        "ignoring tag tag36h11 586: no game or anchor uses it"
    ]
    assert registry.unknown_seen == [("tag36h11", 586)]


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(RegistryError, match="known are anchors, dont_starve"):
        load_registry().for_game("chess")
    with pytest.raises(RegistryError, match="no such tag file"):
        load_registry(["chess"])
