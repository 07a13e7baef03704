"""The owner's box at the command line: `tablesight box GAME show | export | import | reset`,
the box judging `replay` and the table, a save keeping the box it was played with, and every
kind of broken box refused whole, named, with nothing changed."""

from __future__ import annotations

import json
import tomllib
import zipfile
from pathlib import Path

import pytest
import tomli_w

from engine.core import EngineError, find_game, move_from_json
from engine.greenwood.moves import Place
from kiosk.boxes import box_path, current_box
from kiosk.cli import main
from kiosk.settings import load_settings
from kiosk.table import open_table

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "engine" / "greenwood" / "data"
EXAMPLE = REPO / "docs" / "examples" / "greenwood.jsonl"
FIRST_DOMINO = 25
"""The example's line whose domino lies on [[0, 0], [1, 0]], the first piece of seat 0."""


def run(data: Path, *args: str) -> int:
    return main(["--data-dir", str(data), "--lang", "en", *args])


def box_folder(tmp_path: Path, unusable: list[list[int]]) -> Path:
    """A box folder whose submarine 0 marks ``unusable`` cells (the owner's copy, unmarked)."""
    tables = tomllib.loads((DEMO / "submarines.toml").read_text(encoding="utf-8"))
    layout = tables["layout"][0]
    assert layout["number"] == 0
    layout["unusable"] = unusable
    del layout["placeholder"]
    folder = tmp_path / "my-box"
    folder.mkdir(exist_ok=True)
    (folder / "submarines.toml").write_text(tomli_w.dumps(tables), encoding="utf-8")
    return folder


def first_domino(data: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    """The verdict `replay` gives the example's first domino, judged by the data folder's box."""
    moves = data.parent / "moves.jsonl"
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()[:FIRST_DOMINO]
    moves.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    run(data, "replay", "greenwood", str(moves), "--json")
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    (row,) = [r for r in rows if r.get("line") == FIRST_DOMINO]
    assert row["move"]["cells"] == [[0, 0], [1, 0]]
    return row["verdict"]


def test_a_fresh_data_folder_shows_the_demo_box_kind_by_kind(tmp_path: Path, capsys) -> None:
    assert run(tmp_path, "box", "greenwood", "show") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Greenwood: 0 of ") and "demo box" in out[0]
    boards = next(line for line in out if "submarine boards" in line.lower())
    assert boards.split()[-4:] == ["yours", "0", "demo", "4"]  # layouts 0-3 (§一.1)
    assert not box_path(tmp_path, find_game("greenwood")).exists()


def test_an_owners_board_judges_the_replay_and_reset_gives_the_demo_back(
    tmp_path: Path, capsys
) -> None:
    """greenwood.zh.md §三.10: a piece may not cover an unusable cell. The demo's submarine 0
    has none; the owner's marks (1, 0), so the first domino on [[0,0],[1,0]] is refused."""
    data = tmp_path / "data"
    assert first_domino(data, capsys)["code"] == "ok"
    assert run(data, "box", "greenwood", "import", str(box_folder(tmp_path, [[1, 0]]))) == 0
    out = capsys.readouterr().out
    assert "took 1 item(s)" in out
    boards = next(line for line in out.splitlines() if "submarine boards" in line.lower())
    assert boards.split()[-4:] == ["yours", "1", "demo", "3"]
    assert first_domino(data, capsys)["code"] == "greenwood.unusable_cell"
    assert run(data, "box", "greenwood", "reset") == 0
    assert "forgot your 1 item(s)" in capsys.readouterr().out
    assert first_domino(data, capsys)["code"] == "ok"


def test_an_exported_box_imports_back_unchanged_folder_and_zip(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    assert run(data, "box", "greenwood", "import", str(box_folder(tmp_path, [[1, 0]]))) == 0
    before = box_path(data, find_game("greenwood")).read_bytes()
    for target in (tmp_path / "exported", tmp_path / "exported.zip"):
        assert run(data, "box", "greenwood", "export", str(target)) == 0
        other = tmp_path / f"other-{target.name}"
        assert run(other, "box", "greenwood", "import", str(target)) == 0
        assert "took 1 item(s)" in capsys.readouterr().out  # the demo's stay the demo's
        assert box_path(other, find_game("greenwood")).read_bytes() == before
    with zipfile.ZipFile(tmp_path / "exported.zip") as archive:
        names = sorted(Path(n).name for n in archive.namelist())
    assert names == sorted(find_game("greenwood").box_files)


def _broken(tmp_path: Path, kind: str) -> Path:
    folder = box_folder(tmp_path, [[1, 0]])
    if kind == "syntax":
        (folder / "pieces.toml").write_text("[[shape]\nname = 'x'\n", encoding="utf-8")
    elif kind == "foreign file":
        (folder / "weather.toml").write_text("x = 1\n", encoding="utf-8")
    elif kind == "unknown table":
        text = (folder / "submarines.toml").read_text(encoding="utf-8")
        (folder / "submarines.toml").write_text(text + "\n[boats]\nx = 1\n", encoding="utf-8")
    elif kind == "cell off the board":
        box_folder(tmp_path, [[9, 0]])
    elif kind == "missing field":
        tables = tomllib.loads((folder / "submarines.toml").read_text(encoding="utf-8"))
        del tables["layout"][2]["cols"]
        (folder / "submarines.toml").write_text(tomli_w.dumps(tables), encoding="utf-8")
    elif kind == "empty":
        for file in folder.iterdir():
            file.unlink()
    return folder


@pytest.mark.parametrize(
    ("kind", "named"),
    [
        ("syntax", "pieces.toml: "),
        ("foreign file", "weather.toml: not a data file of greenwood's box"),
        ("unknown table", "submarines.toml, boats: not a table of submarines.toml"),
        ("cell off the board", "submarines.toml, layout 0: "),
        ("missing field", "submarines.toml, layout 2: missing field 'cols'"),
        ("empty", "holds none of greenwood's data files"),
    ],
)
def test_a_broken_box_changes_nothing_and_names_the_entry(
    tmp_path: Path, capsys, kind: str, named: str
) -> None:
    data = tmp_path / "data"
    assert run(data, "box", "greenwood", "import", str(box_folder(tmp_path, [[2, 2]]))) == 0
    kept = box_path(data, find_game("greenwood")).read_bytes()
    capsys.readouterr()
    assert run(data, "box", "greenwood", "import", str(_broken(tmp_path, kind))) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("tablesight box: 1 problem(s), nothing changed")
    assert err[1].strip().startswith(named) or named in err[1], err
    assert "Traceback" not in "\n".join(err)
    assert box_path(data, find_game("greenwood")).read_bytes() == kept


def test_every_bad_entry_is_named_on_its_own_line(tmp_path: Path, capsys) -> None:
    folder = box_folder(tmp_path, [[9, 0]])
    tables = tomllib.loads((folder / "submarines.toml").read_text(encoding="utf-8"))
    tables["layout"][3]["start"] = [0, 40]
    (folder / "submarines.toml").write_text(tomli_w.dumps(tables), encoding="utf-8")
    assert run(tmp_path / "data", "box", "greenwood", "import", str(folder)) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("tablesight box: 2 problem(s)")
    assert err[1].strip().startswith("submarines.toml, layout 0: ")
    assert err[2].strip().startswith("submarines.toml, layout 3: ")


def to_first_domino(table, name: str) -> Place:
    """Start the example's game at the table and play it up to its first domino (by the
    same moves a player makes); that domino."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    table.new_game("greenwood", head["setup"], name, head["seed"])
    for line in lines[1 : FIRST_DOMINO - 1]:
        try:
            move = move_from_json(line)
        except EngineError:
            continue  # the example's malformed line
        table.submit(move)
    domino = move_from_json(lines[FIRST_DOMINO - 1])
    assert isinstance(domino, Place) and domino.cells == ((0, 0), (1, 0))
    return domino


def test_a_save_keeps_the_box_it_was_played_with(tmp_path: Path, capsys) -> None:
    """A game started with the owner's board is judged by it after the box changes, on
    resume; a new game takes the new box (greenwood.zh.md §三.10, the unusable cell)."""
    data = tmp_path / "data"
    assert run(data, "box", "greenwood", "import", str(box_folder(tmp_path, [[1, 0]]))) == 0
    table, store = open_table(load_settings(None, data_dir=data, game="greenwood"))
    domino = to_first_domino(table, "owners")
    assert table.saved.session.options.box == current_box(data, table.saved.game)
    assert table.check(domino).code == "greenwood.unusable_cell"
    store.close()
    assert run(data, "box", "greenwood", "reset") == 0
    table, store = open_table(load_settings(None, data_dir=data, save="owners"))
    assert table.saved.name == "owners"
    assert table.check(domino).code == "greenwood.unusable_cell"  # the save's box
    domino = to_first_domino(table, "demo's")
    assert table.saved.session.options.box == table.saved.game.demo_box()
    assert table.check(domino).ok
    store.close()


def test_a_damaged_box_file_is_set_aside_and_the_demo_box_used(tmp_path: Path, capsys) -> None:
    path = box_path(tmp_path, find_game("greenwood"))
    path.parent.mkdir(parents=True)
    path.write_text('{"version": 1, "game": "greenwood", "items": {"submarines/layout/0": 7}}')
    assert run(tmp_path, "box", "greenwood", "show") == 0
    assert capsys.readouterr().out.startswith("Greenwood: 0 of ")
    assert not path.exists()
    assert path.with_name(path.name + ".damaged").exists()


def test_the_set_up_and_campaign_pages_offer_an_imported_boxs_own_cards(
    tmp_path: Path, capsys
) -> None:
    """§游戏设置 (dont-starve.zh.md) and §开局设置.5 (stonesaga.zh.md): the set-up page offers
    the data folder's box's scenario cards, and the campaign page its campaign-start cards, by
    their printed titles, an owner's card the demo box does not have included."""
    from serving import asgi_call as call

    from kiosk.app import create_app

    data = tmp_path / "data"
    exported = tmp_path / "exported"
    for game in ("dont_starve", "stonesaga"):
        assert run(data, "box", game, "export", str(exported / game)) == 0
    scenarios = exported / "dont_starve" / "scenarios.toml"
    tables = tomllib.loads(scenarios.read_text(encoding="utf-8"))
    tables["pig_king"] = {
        **tables["a_new_beginning"],
        "title_zh": "猪王的宴会",
        "title_en": "The Pig King's Feast",
    }
    del tables["pig_king"]["placeholder"]
    scenarios.write_text(tomli_w.dumps(tables), encoding="utf-8")
    campaign = exported / "stonesaga" / "campaign.toml"
    tables = tomllib.loads(campaign.read_text(encoding="utf-8"))
    tables["challenges"]["GI02"] = {
        **tables["challenges"]["GI01"],
        "title": {"zh": "长夜将尽", "en": "The Long Night Ends"},
    }
    del tables["challenges"]["GI02"]["placeholder"]
    campaign.write_text(tomli_w.dumps(tables), encoding="utf-8")
    for game in ("dont_starve", "stonesaga"):
        assert run(data, "box", game, "import", str(exported / game)) == 0
    capsys.readouterr()
    assert run(data, "box", "dont_starve", "show") == 0
    assert "scenario card 'The Pig King's Feast'  yours   1  demo   0" in capsys.readouterr().out

    settings = load_settings(data_dir=data, lang="zh")
    table, store = open_table(settings)
    try:
        app = create_app(settings, table)
        games = {g["name"]: g for g in call(app, "GET", "/api/games?lang=en").json()}
        options = {o["name"]: o for o in games["dont_starve"]["options"]}
        labels = {c["value"]: c["label"] for c in options["scenario"]["choices"]}
        assert labels["pig_king"] == "The Pig King's Feast"
        assert labels["a_new_beginning"] == "A New Beginning"
        new = call(app, "GET", "/api/campaigns?lang=zh").json()["new"]["stonesaga"]
        cards = {c["value"]: c["label"] for o in new if o["name"] == "challenge"
                 for c in o["choices"]}  # fmt: skip
        assert "长夜将尽" in cards["GI02"] and "活过今夜" in cards["GI01"]
    finally:
        store.close()
