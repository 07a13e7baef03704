"""The café's file of known tables (cafe.known; docs/mqtt.md, Known tables) read back from every
kind of damage: kept aside byte for byte, the good entries kept, the file written anew valid."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cafe.known import KNOWN_FILE, load, save

GOOD = {"table-1": "2026-12-05T20:00:00Z", "north/T1": "2026-12-05T20:00:01Z"}


def damaged_copies(folder: Path) -> list[Path]:
    return sorted(folder.glob("cafe-known-tables.damaged-*.json"))


def test_a_file_written_is_read_back_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / KNOWN_FILE
    save(path, GOOD)
    got = load(path, 200)
    assert got.tables == GOOD and got.lost == 0 and got.aside is None
    assert not damaged_copies(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == [KNOWN_FILE], "no temporary file left"


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"\xff\xfe not utf-8",
        b'{"v": 1, "tables": [',
        b"[" * 20_000 + b"]" * 20_000,  # within the size read, so it reaches the parser
        b'{"v": 2, "tables": []}',
        b'{"v": 1, "tables": {}}',
        b"null",
    ],
    ids=["empty", "not-utf8", "cut", "deep", "version", "not-a-list", "null"],
)
def test_an_unreadable_file_is_kept_aside_and_none_is_known(tmp_path: Path, body: bytes) -> None:
    path = tmp_path / KNOWN_FILE
    path.write_bytes(body)
    got = load(path, 200)
    assert got.tables == {} and got.lost == -1 and got.reason
    [aside] = damaged_copies(tmp_path)
    assert aside == got.aside and aside.read_bytes() == body
    assert load(path, 200).tables == {} and load(path, 200).lost == 0, "written anew, valid"


def test_damaged_entries_are_dropped_and_the_others_kept(tmp_path: Path) -> None:
    path = tmp_path / KNOWN_FILE
    entries = [
        {"key": "table-1", "since": GOOD["table-1"]},
        {"key": "../etc/passwd", "since": "x"},
        {"key": 3, "since": "x"},
        "table-9",
        {"key": "table-2"},
        {"key": "north/T1", "since": GOOD["north/T1"]},
    ]
    body = json.dumps({"v": 1, "tables": entries}).encode()
    path.write_bytes(body)
    got = load(path, 200)
    assert got.tables == GOOD and got.lost == 4
    assert got.reason.startswith("entry 2")
    assert damaged_copies(tmp_path)[0].read_bytes() == body
    assert load(path, 200).tables == GOOD


def test_at_most_the_cap_is_read_the_first_heard_first(tmp_path: Path) -> None:
    path = tmp_path / KNOWN_FILE
    many = {f"table-{n}": "2026-12-05T20:00:00Z" for n in range(1, 11)}
    save(path, many)
    assert list(load(path, 3).tables) == ["table-1", "table-2", "table-3"]
    path.write_bytes(b" " * 10_000_000)  # far longer than the cap's entries: not read in full
    assert load(path, 3).lost == -1
