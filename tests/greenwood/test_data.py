"""The component data files: complete, consistent with the tag registry, placeholders marked,
and a malformed file named with its problem (greenwood.zh.md §一)."""

from __future__ import annotations

import re
import shutil
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from engine.greenwood.catalogue import catalogue, load_catalogue
from engine.greenwood.errors import GreenwoodDataError
from vision.readers.greenwood import piece_shapes, submarines
from vision.registry import load_registry

DATA = Path(str(resources.files("engine.greenwood.data")))


def test_four_layouts_every_value_marked_placeholder_until_copied() -> None:
    """§一.1: 潜艇共有不同难度布局,编号0…3; the printed cells are not in the rule text."""
    cat = catalogue()
    assert sorted(cat.layouts) == [0, 1, 2, 3]
    assert all(layout.placeholder for layout in cat.layouts.values())
    for name in ("submarines.toml", "pieces.toml", "tracks.toml"):
        assert "placeholder = true" in (DATA / name).read_text(encoding="utf-8")


def test_the_pieces_match_the_rule_text_counts_and_every_tag_has_a_shape() -> None:
    """§一: 50个被解救生物、45个鬼火标记; each piece tag maps to one shape, each board face to a
    layout the engine knows."""
    cat = catalogue()
    assert cat.shapes["wisp"].copies == 45
    assert sum(s.copies for s in cat.shapes.values() if s.name != "wisp") == 50
    registry = load_registry()
    shapes = piece_shapes(registry)
    assert len(shapes) == 95
    assert sum(1 for s in shapes.values() if s.name == "wisp") == 45
    assert {sub.layout for sub in submarines(registry).values()} == {0, 1, 2, 3}
    for creature in cat.creatures.values():
        assert creature.shape in cat.shapes and creature.pieces in (1, 2)


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        ("submarines.toml", 'reward = "vp:2"', 'reward = "gold"', "unknown reward 'gold'"),
        ("submarines.toml", "start = [0, 0]", "start = [9, 0]", "outside the 6×6 grid"),
        ("pieces.toml", 'shape = "domino"', 'shape = "blob"', "unknown shape"),
        ("pieces.toml", "tag_cell = [1, 0]", "tag_cell = [5, 5]", "must start at [0, 0]"),
        ("tracks.toml", "loop_from = 5", "", "missing field 'loop_from'"),
    ],
)
def test_a_malformed_data_file_is_named_with_its_problem(tmp_path, file, old, new, message) -> None:
    for name in ("submarines.toml", "pieces.toml", "tracks.toml"):
        shutil.copy(DATA / name, tmp_path)
    text = (tmp_path / file).read_text(encoding="utf-8")
    assert old in text
    (tmp_path / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    files = {
        name: tomllib.loads((tmp_path / name).read_text(encoding="utf-8"))
        for name in ("submarines.toml", "pieces.toml", "tracks.toml")
    }
    with pytest.raises(GreenwoodDataError, match=re.escape(message)) as err:
        load_catalogue(files)
    assert file in str(err.value)
