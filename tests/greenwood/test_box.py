"""Greenwood is judged by the box it is played with (docs/box.md; docs/greenwood.md "Your box"):
a second box whose submarine 0, tracks, threat 1 and moth are the owner's and unlike the demo's
(``SECOND_BOX_ITEMS`` in conftest.py) changes every ruling that reads them, and a ruling that
rests on a demo value says so."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.core import find_game, offers
from engine.core.box import BoxError
from engine.greenwood.catalogue import catalogue, load_catalogue
from engine.greenwood.game import GreenwoodOptions
from engine.greenwood.moves import (
    Gain,
    Hike,
    Place,
    PlaceDuskMarker,
    Protect,
    Rescue,
    Strengthen,
)
from engine.greenwood.state import Placed
from kiosk.cli import main
from vision.readers.greenwood import Reading, judge, piece_shapes
from vision.registry import load_registry

GAME = find_game("greenwood")
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
DEMO_NOTE = ("按演示盒的潜艇0判定", "judged by the demo box's submarine 0")
FIRST_DOMINO = Place(seat=0, piece="domino", cells=((0, 0), (1, 0)))


def awaiting(gw, box, piece: str = "domino", covered=frozenset()):
    """A fresh game in its first dusk, played with ``box``, seat 0 to place ``piece`` now."""
    state = gw.Table(box=box).state
    placed = (Placed("earlier", covered),) if covered else ()
    return gw.with_player(state, 0, pieces=placed, pending=(("test", f"place:{piece}"),))


def log(gw, t, events, lang: str = "en") -> list[str]:
    """The log's lines of these events, as the kiosk writes them for the game now."""
    game = t.session.game
    return [game.event_text(e.to_dict(), lang, t.state) for e in events]


# --- the placement (§三.10) -------------------------------------------------------------------


def test_the_owners_unusable_cell_refuses_the_first_domino_the_demo_accepts(gw, second_box):
    """greenwood.zh.md §三.10 不能覆盖标有不可使用标记的格子: the owner's submarine 0 marks
    (1, 0) unusable, so the first domino on [[0,0],[1,0]] is refused; the demo's accepts it."""
    owners = gw.legal(awaiting(gw, second_box), FIRST_DOMINO)
    assert owners.code == "greenwood.unusable_cell"
    assert "B1" in owners.message.en  # the cell as on the board's edges
    assert not any(note in owners.message.zh + owners.message.en for note in DEMO_NOTE)
    assert gw.legal(awaiting(gw, None), FIRST_DOMINO).ok


def test_a_refusal_on_the_demo_submarine_says_so_and_on_the_owners_does_not(gw, second_box):
    """greenwood.zh.md §三.10 第一块板块必须覆盖起始格: the same refusal on both boxes; only the
    demo's says its board is the demo's, in both languages."""
    off_start = Place(seat=0, piece="domino", cells=((3, 3), (4, 3)))
    demo = gw.legal(awaiting(gw, None), off_start)
    owners = gw.legal(awaiting(gw, second_box), off_start)
    assert demo.code == owners.code == "greenwood.must_cover_start"
    assert DEMO_NOTE[0] in demo.message.zh and DEMO_NOTE[1] in demo.message.en
    assert DEMO_NOTE[0] not in owners.message.zh and DEMO_NOTE[1] not in owners.message.en


def test_the_box_imported_at_the_kiosk_refuses_the_example_games_first_domino(tmp_path, capsys):
    """greenwood.zh.md §三.10: a box whose submarine 0 marks (1, 0) unusable, imported with
    ``tablesight box greenwood import``, makes the example game's first domino on
    [[0,0],[1,0]] refused in ``tablesight replay``; with no box (the demo's) it is accepted."""
    example = EXAMPLES / "greenwood.jsonl"
    line = next(
        n
        for n, text in enumerate(example.read_text(encoding="utf-8").splitlines(), 1)
        if '"cells":[[0,0],[1,0]]' in text
    )

    def verdict_of_line(data: Path) -> dict:
        assert main(["--data-dir", str(data), "replay", "greenwood", str(example), "--json"]) in (
            0,
            1,
        )
        rows = [json.loads(r) for r in capsys.readouterr().out.splitlines()]
        return next(r for r in rows if r.get("line") == line)

    assert verdict_of_line(tmp_path / "none")["accepted"]
    data, folder = tmp_path / "data", tmp_path / "mybox"
    assert main(["--data-dir", str(data), "box", "greenwood", "export", str(folder)]) == 0
    subs = folder / "submarines.toml"
    text = subs.read_text(encoding="utf-8")
    assert text.count("unusable = []") == 1  # layout 0, the only one with none
    subs.write_text(text.replace("unusable = []", "unusable = [[1, 0]]"), encoding="utf-8")
    assert main(["--data-dir", str(data), "box", "greenwood", "import", str(folder)]) == 0
    capsys.readouterr()
    row = verdict_of_line(data)
    assert not row["accepted"] and row["verdict"]["code"] == "greenwood.unusable_cell"
    assert DEMO_NOTE[1] not in row["verdict"]["message"]["en"]


def test_the_placement_offer_greys_the_owners_unusable_cell(gw, second_box):
    """§三.10: the console's fallback for the camera judges by the same box."""
    for box, ok in ((second_box, False), (None, True)):
        t = gw.Table(box=box)
        t.session.state = awaiting(gw, box)
        every = [o for g in offers(GAME, t.state) for o in g.offers]
        place = next(o for o in every if o.move == "greenwood.place")
        option = next(o for o in place.options if o.values[0] == [[0, 0], [1, 0]])
        assert option.verdict.ok is ok


# --- rewards a placement pays (§三.10) ----------------------------------------------------------


def test_icons_and_areas_paid_are_the_owners(gw, second_box):
    """§三.10 即时奖励 / 区域完成奖励 (不可使用格子在计算区域完成时视为已经覆盖): the owner's icon
    on (0, 1) pays a spy token; the owner's bow, (1, 0) unusable and (2, 0), pays 6 points once
    (2, 0) is covered; the demo's board pays neither."""
    for box, paid in (
        (second_box, [("spy", "icon (0,1)"), ("vp:6", "area bow")]),
        (None, [("vp:2", "icon (2,0)")]),  # the demo's layout 0: (2, 0) pays 2 points
    ):
        t = gw.Table(box=box)
        t.session.state = awaiting(gw, box, "bar3")
        events = t.ok(Place(seat=0, piece="bar3", cells=((0, 0), (0, 1), (0, 2))))
        for cell in ((1, 1), (2, 1), (2, 0)):
            t.session.state = gw.with_player(t.state, 0, pending=(("test", "place:wisp"),))
            events += t.ok(Place(seat=0, piece="wisp", cells=(cell,)))
        gained = [(e.reward, e.source) for e in events if e.type == "greenwood.reward_gained"]
        assert gained == paid


def test_a_reward_paid_by_a_demo_value_says_so_in_the_log(gw, second_box):
    """§三.10: the demo's icon on (2, 0) pays 2 points, and the log says that icon is the demo
    box's; the owner's icon's line says nothing more."""
    t = gw.Table()
    t.session.state = awaiting(gw, None, "wisp", frozenset({(1, 0)}))
    events = t.ok(Place(seat=0, piece="wisp", cells=((2, 0),)))
    (line,) = [x for x in log(gw, t, events) if "gains" in x]
    assert DEMO_NOTE[1] in line
    (zh,) = [x for x in log(gw, t, events, "zh") if "获得" in x]
    assert DEMO_NOTE[0] in zh
    t = gw.Table(box=second_box)
    t.session.state = awaiting(gw, second_box, "domino")
    events = t.ok(Place(seat=0, piece="domino", cells=((0, 0), (0, 1))))
    (line,) = [x for x in log(gw, t, events) if "gains" in x]
    assert "spy" in line and "demo" not in line


# --- tracks, threats, creatures ----------------------------------------------------------------


def test_a_track_space_pays_the_owners_reward(gw, second_box):
    """§三.2 强化伙伴队伍 (抵达…带有即时奖励的格子时,立即获得) and §四.2 寻路轨道: space 1 of the
    owner's strength track pays 3 points (the demo's a knowledge slot), of the owner's
    pathfinding track an aurora (the demo's 1 point)."""
    for box, strength, path in ((second_box, "vp:3", "aurora"), (None, "slot", "vp:1")):
        t = gw.Table(box=box)
        t.ok(PlaceDuskMarker(seat=0, effect="recruit"))
        events = t.ok(Strengthen(seat=0))
        gained = [(e.reward, e.source) for e in events if e.type == "greenwood.reward_gained"]
        assert (strength, "strength track space 1") in gained
        events = t.ok(Gain(seat=0, reward="pathfinding"))
        gained = [(e.reward, e.source) for e in events if e.type == "greenwood.reward_gained"]
        assert (path, "pathfinding track space 1") in gained
        noted = [x for x in log(gw, t, events) if "track space 1" in x]
        assert noted and all(("demo box" in x) is (box is None) for x in noted)


def test_a_threats_protection_is_the_owners(gw, second_box):
    """§三.2 保护队伍 (立即获得该威胁卡牌右下角显示的保护奖励): threat 1 of the owner's box pays
    5 points (the demo's 2), and only the demo's reward is said to be the demo box's."""
    for box, points in ((second_box, 5), (None, 2)):
        t = gw.Table(box=box)  # the tutorial order: threat 1 face up for round 1 (§一.3)
        t.ok(PlaceDuskMarker(seat=0, effect="recruit"))
        events = t.ok(Protect(seat=0, threat=0))
        assert [e.reward for e in events if e.type == "greenwood.reward_gained"] == [f"vp:{points}"]
        assert t.player(0).score == 5 + points
        (line,) = log(gw, t, events)
        assert ("demo box's threat 1" in line) is (box is None), line


def test_a_creatures_cost_and_points_are_the_owners(gw, second_box):
    """§三.9 必须满足板块显示的全部知识要求 … 立即获得囚禁生物板块显示的胜利点数: the owner's
    moth costs blue and pays 7 points; the demo's costs red."""
    for box in (second_box, None):
        t = gw.Table(box=box)
        t.pass_until("night")
        t.session.state = gw.with_player(t.state, 0, knowledge=("blue",))
        t.ok(Hike(seat=0, companion=0))
        if box is None:
            assert t.refused(Rescue(seat=0, creature="moth")) == "greenwood.missing_knowledge"
            continue
        events = t.ok(Rescue(seat=0, creature="moth"))
        assert ("vp:7", "rescue: moth") in [
            (e.reward, e.source) for e in events if e.type == "greenwood.reward_gained"
        ]
        assert t.refused(FIRST_DOMINO) == "greenwood.unusable_cell"


# --- the camera reader ------------------------------------------------------------------------


def test_the_camera_judges_a_photo_by_the_box_of_its_game(second_box):
    """§三.10 from the camera: the same domino seen on (0,0)-(1,0) is refused on the owner's
    submarine 0 (no demo note) and accepted on the demo's; a refusal on the demo's board says
    it is the demo's."""
    domino = Reading(148, "domino", ((0, 0), (1, 0)))
    owners = judge(catalogue(second_box).layouts[0], [domino], second_box)[148]
    assert owners.code == "greenwood.unusable_cell" and "demo" not in owners.message.en
    assert judge(catalogue().layouts[0], [domino], None)[148].ok
    away = Reading(148, "domino", ((3, 3), (4, 3)))
    demo = judge(catalogue().layouts[0], [away], None)[148]
    assert demo.code == "greenwood.must_cover_start" and DEMO_NOTE[1] in demo.message.en


def test_the_camera_reads_piece_shapes_from_the_box(gw):
    """§三.10: a piece's cells come from its shape in the box (an owner's domino drawn as three
    cells in a row is read as three cells)."""
    box = gw.box_with(
        {
            "pieces/shape/domino": {
                "name": "domino",
                "cells": [[0, 0], [1, 0], [2, 0]],
                "tag_cell": [0, 0],
                "copies": 10,
            }
        }
    )
    registry = load_registry()
    assert len(piece_shapes(registry, box)[148].cells) == 3
    assert len(piece_shapes(registry)[148].cells) == 2


# --- a broken box is named -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "value", "named"),
    [
        (
            "submarines/layout/2",
            {"number": 2, "cols": 6, "rows": 6, "start": [7, 0], "rewards": [], "areas": []},
            "submarines.toml: layout 2: cells [(7, 0)] are outside the 6×6 grid",
        ),
        (
            "tracks/threat/threat 3",
            {"name": "threat 3", "trigger": "gold", "protection": ["vp:2"]},
            "tracks.toml: threat threat 3: unknown trigger 'gold'",
        ),
        (
            "tracks/threat/threat 4",
            {"name": "threat 4", "trigger": "spy", "protection": ["gems"]},
            "tracks.toml: threat threat 4: unknown reward 'gems'",
        ),
        (
            "pieces/creature/moth",
            {"name": "moth", "deck": "A", "shape": "blob", "cost": ["red"], "vp": 2},
            "pieces.toml: creature moth: unknown shape 'blob'",
        ),
        (
            "tracks/pathfinding",
            {"ranges": [2], "spaces": [[], ["vp:1"]], "loop_from": 4},
            "tracks.toml: pathfinding: loop_from must be a space of the track",
        ),
    ],
)
def test_a_broken_entry_is_named_by_its_file_and_entry(gw, item, value, named) -> None:
    """docs/box.md: a box that does not load says which file and which entry, and the game
    refuses it."""
    box = gw.box_with({item: value})
    with pytest.raises(ValueError, match="^" + re.escape(named)):
        load_catalogue(box.files)
    with pytest.raises(BoxError):
        GAME.catalogue(GreenwoodOptions(players=2, box=box))


def test_a_threat_copied_by_its_fields_takes_the_first_demo_threats_place() -> None:
    """greenwood.zh.md §四.5: a threat card is what sets it off and what protecting against it
    pays; copied at the "Your box" page it takes the place (and name) of the first demo threat
    not yet copied, the next copy the next one; a reward a card cannot print is refused."""
    from engine.core.box import Box, merged

    demo = GAME.demo_box()
    item, value = GAME.box_entry(
        "tracks/threat", {"trigger": "rescue", "protection": "energy", "amount": 2}, demo
    )
    first = catalogue(demo).threats[0].name
    assert item == f"tracks/threat/{first}"
    box = Box.of(GAME.name, merged(demo.files, {item: value}), owner=[item])
    copied = next(t for t in catalogue(box).threats if t.name == first)
    assert copied.trigger == "rescue" and copied.protection == ("energy:2",)
    again, _ = GAME.box_entry(
        "tracks/threat", {"trigger": "spy", "protection": "vp", "amount": 5}, box
    )
    assert again == f"tracks/threat/{catalogue(demo).threats[1].name}"
    with pytest.raises(BoxError, match="1 to 3"):
        GAME.box_entry(
            "tracks/threat", {"trigger": "spy", "protection": "aurora", "amount": 5}, demo
        )
    with pytest.raises(BoxError, match="set off by"):
        GAME.box_entry("tracks/threat", {"trigger": "weather", "protection": "vp"}, demo)
