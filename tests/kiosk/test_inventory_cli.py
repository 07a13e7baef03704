"""`tablesight inventory` (issue 28, pack away): a photo with three pieces missing names exactly
those three, in text (zh and en) and in JSON (both languages); a full set, a folder of photos
taken together, and pictures that cannot be read."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest
from packaway_photos import GAME, LEFT_OUT_EN, LEFT_OUT_ZH, first_tags, layout_photo, sticker_name

from kiosk.cli import main


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("packaway")
    names = [sticker_name(e) for e in first_tags()]
    shots = {
        "full.png": layout_photo(),
        "short.png": layout_photo(leave_out=LEFT_OUT_EN),
        "parts/a.png": layout_photo(leave_out=tuple(names[::2])),
        "parts/b.png": layout_photo(leave_out=tuple(names[1::2]), seed=2),
    }
    (folder / "parts").mkdir()
    for name, image in shots.items():
        cv2.imwrite(str(folder / name), image)
    (folder / "parts" / "notes.txt").write_text("not a photo")
    return {name: folder / name for name in [*shots, "parts"]}


def run(tmp_path: Path, *args: str) -> int:
    return main(["--data-dir", str(tmp_path), "--lang", "en", "inventory", GAME, *args])


def test_three_missing_pieces_are_named_in_json_in_both_languages(
    tmp_path: Path, photos, capsys
) -> None:
    assert run(tmp_path, str(photos["short.png"]), "--json") == 1
    record = json.loads(capsys.readouterr().out)
    assert (record["complete"], record["seen"], record["of"]) == (False, 36, 39)
    assert sorted(m["name"]["en"] for m in record["missing"]) == sorted(LEFT_OUT_EN)
    assert sorted(m["name"]["zh"] for m in record["missing"]) == sorted(LEFT_OUT_ZH)
    assert record["title"] == {"zh": "饥荒桌游版", "en": "Don't Starve: The Board Game"}
    counts = {c["name"]["en"]: (c["seen"], c["of"]) for c in record["counts"]}
    assert counts["map tile"] == (12, 13) and counts["Wendy"] == (0, 1)


@pytest.mark.parametrize(
    ("lang", "names", "head"),
    [
        ("en", LEFT_OUT_EN, "Don't Starve: The Board Game: 36 of 39 pieces seen, 3 missing:"),
        ("zh", LEFT_OUT_ZH, "《饥荒桌游版》:39 件中看到 36 件,缺 3 件:"),
    ],
)
def test_three_missing_pieces_are_named_in_text(
    tmp_path: Path, photos, capsys, lang: str, names: tuple[str, ...], head: str
) -> None:
    assert run(tmp_path, str(photos["short.png"]), "--lang", lang) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == head
    assert sorted(line.strip() for line in lines[1:4]) == sorted(names)
    assert "✖" in "\n".join(lines[4:])  # the kinds short of pieces are marked


def test_a_full_set_and_a_folder_of_parts_are_complete(tmp_path: Path, photos, capsys) -> None:
    assert run(tmp_path, str(photos["full.png"])) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("39 of 39 pieces seen, all are here.")
    assert run(tmp_path, str(photos["parts"]), "--json") == 0  # each photo holds half
    record = json.loads(capsys.readouterr().out)
    assert record["complete"] and record["pictures"] == 2


def test_pictures_that_cannot_be_read_are_one_line_each(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"not a png")
    assert run(tmp_path, str(bad)) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert run(tmp_path, str(tmp_path / "nowhere.png")) == 2
    assert "no such photo or folder" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run(tmp_path, str(empty)) == 2
    assert "holds no photo" in capsys.readouterr().err
    assert main(["--data-dir", str(tmp_path), "inventory", "chess", str(bad)]) == 2
