"""The tag files are parsed once per process (a scan no longer reads them again), yet an edited
file is seen at once and every caller gets a registry of its own (issue #39)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from vision import registry
from vision.detection import Detection
from vision.errors import RegistryError
from vision.registry import TAGS_DIR, load_registry


def copied(tmp_path: Path) -> Path:
    folder = tmp_path / "tags"
    shutil.copytree(TAGS_DIR, folder)
    return folder


def test_the_files_are_parsed_once_while_they_stay_as_they_are(tmp_path: Path) -> None:
    folder = copied(tmp_path)
    first, second = load_registry(folder=folder), load_registry(folder=folder)
    assert first is not second and first.entries is not second.entries
    key = next(iter(first.entries))
    assert second.entries[key] is first.entries[key]  # the same parse, not a second one


def test_an_edited_file_is_read_again_even_within_one_clock_tick(tmp_path: Path) -> None:
    """The same size and the same modification time: the edit is still seen."""
    folder = copied(tmp_path)
    path = folder / "dont_starve.toml"
    before = load_registry(folder=folder)
    size = {e.tag_mm for e in before.for_game("dont_starve") if e.name == "map tile"}
    assert size == {25.0}  # the premise: the shipped map tiles' stickers are 25 mm
    stat = path.stat()
    text = path.read_text(encoding="utf-8")
    edited = text.replace("tag_mm = 25", "tag_mm = 26", 1)
    assert edited != text and len(edited) == len(text)
    path.write_text(edited, encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    after = load_registry(folder=folder)
    assert {e.tag_mm for e in after.for_game("dont_starve") if e.name == "map tile"} == {26.0}


def test_a_file_not_changed_lately_is_known_by_its_times_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scan looks at the files, it does not read them again; an edit (its size or times
    changed) is still seen."""
    folder = copied(tmp_path)
    monkeypatch.setattr(registry, "RACY_S", 0.0)  # every file as if changed long ago
    before = load_registry(folder=folder)

    def no_reading(self: Path) -> bytes:
        raise AssertionError(f"{self} was read again")

    with monkeypatch.context() as reading:
        reading.setattr(Path, "read_bytes", no_reading)
        again = load_registry(folder=folder)
    key = next(iter(before.entries))
    assert again.entries[key] is before.entries[key]
    path = folder / "dont_starve.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("tag_mm = 25", "tag_mm = 25.5", 1))
    after = load_registry(folder=folder)
    assert {e.tag_mm for e in after.for_game("dont_starve") if e.name == "map tile"} == {25.5}


def test_a_broken_file_is_refused_every_time_and_its_repair_seen(tmp_path: Path) -> None:
    folder = copied(tmp_path)
    path = folder / "anchors.toml"
    good = path.read_text(encoding="utf-8")
    path.write_text("[[group]\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(RegistryError, match=r"anchors\.toml"):
            load_registry(folder=folder)
    path.write_text(good, encoding="utf-8")
    assert sorted(load_registry(folder=folder).anchors()) == [0, 1, 2, 3]
    path.unlink()
    with pytest.raises(RegistryError, match="no such tag file"):
        load_registry(folder=folder)


def test_each_registry_reports_an_unknown_tag_for_itself() -> None:
    corners = ((0.0, 10.0), (10.0, 10.0), (10.0, 0.0), (0.0, 0.0))
    unknown = Detection("tag36h11", 586, corners, (5.0, 5.0), 80.0, 0)
    first = load_registry()
    assert first.known([unknown]) == []
    assert first.unknown_seen == [("tag36h11", 586)]
    assert load_registry().unknown_seen == []
