"""Greenwood's offers at the players' console (engine/greenwood/offers.py, DESIGN.md "Offers").

A random walk through the offers plays whole games without a refusal; a greyed option carries
the reason of the rule it breaks (each test cites greenwood.zh.md); the labels are words in
both languages; the scripted kiosk session can be tapped through the offers.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from offer_walk import example_files, random_walk, walk_example

from engine.core import (
    Advance,
    EndTurn,
    Move,
    Pass,
    Session,
    find_game,
    move_from_dict,
    offered,
    offers,
)
from engine.core.forms import Offer
from engine.core.offers import MAX_OPTIONS, match
from engine.greenwood.moves import (
    SPIRIT,
    Gain,
    Hike,
    Learn,
    Place,
    PlaceDuskMarker,
    Recruit,
    Rescue,
    SpiritAbility,
    SwapKnowledge,
    TakeWisp,
    UseEnergy,
    UseSpy,
)
from engine.greenwood.phases import PHASES
from engine.greenwood.state import Placed

GAME = find_game("greenwood")
SIMULATION = Path(__file__).resolve().parents[2] / "kiosk" / "simulation" / "greenwood.toml"
MAX_MOVES = 1500
"""A uniform walk ends a 4-player game in about 300 moves (pass is always one offer among
about a dozen); 1500 leaves room for unlucky ones."""


def open_offers(table: Any) -> Any:
    """Every offer open at the table now."""
    return offers(GAME, table.state)


def find(table: Any, move: Move) -> Any:
    """The (offer, option) that spells ``move`` now, greyed or not; fails if none does."""
    found = match(open_offers(table), move)
    assert found is not None, f"{move} is not among the offers"
    return found


def code(table: Any, move: Move) -> str:
    """The reason code of ``move``'s option at the console ("ok" when it is legal)."""
    return find(table, move)[1].verdict.code


def moves_of(table: Any, seat: int) -> set[str]:
    """The move types offered to ``seat`` now."""
    return {o.move for g in open_offers(table) if g.seat == seat for o in g.offers}


# --- (a) random walks through the offers -----------------------------------------------------


@settings(max_examples=10, deadline=None)
@given(
    players=st.integers(1, 4),
    layout=st.integers(0, 3),
    mode=st.sampled_from(["basic", "clan"]),
    seed=st.integers(0, 10_000),
)
def test_a_walk_through_the_offers_plays_a_whole_game_without_a_refusal(
    players: int, layout: int, mode: str, seed: int
) -> None:
    """Only offered, legal options, chosen at random: never refused, and the game ends."""
    setup = {"players": players, "layout": layout, "mode": mode}
    walk = random_walk(GAME, setup, seed, MAX_MOVES)
    assert walk.refused == []
    assert walk.ended, f"{setup} seed {seed}: no end after {MAX_MOVES} moves"
    assert "pass" in walk.types  # a night ends only when every seat has passed (§三.4)


def test_a_full_submarine_greys_what_brings_a_piece_and_leaves_no_dead_end(gw) -> None:
    """greenwood.zh.md §三.10 (被解救生物和鬼火都必须放入自己的潜艇) and §四.8 (否则不能执行该
    效果): with no cell left, the wisp action, every rescue and a wisp from a card stay on the
    console greyed with the reason; a reward that would chain into a wisp (a strength step to a
    wisp space) is open: that wisp is lost (§三.2), so no choice ends in a dead end."""
    t = gw.Table(1, layout=0)
    t.pass_until("night")
    full = frozenset((c, r) for c in range(6) for r in range(6))
    t.session.state = gw.with_player(t.state, 0, pieces=(Placed("square4", full),))
    t.ok(UseEnergy(seat=0, companion=0))
    assert code(t, TakeWisp(seat=0)) == "greenwood.no_room"
    assert code(t, Gain(seat=0, reward="wisp")) == "greenwood.no_room"
    rescue = next(o for g in open_offers(t) for o in g.offers if o.move == "greenwood.rescue")
    assert {o.verdict.code for o in rescue.options} <= {
        "greenwood.no_room",
        "greenwood.missing_knowledge",
    }
    t.session.state = gw.with_player(t.state, 0, pathfinding=5)  # space 6 pays a wisp
    assert code(t, Gain(seat=0, reward="pathfinding")) == "ok"
    t.ok(Gain(seat=0, reward="pathfinding"))
    assert t.player(0).awaiting is None
    assert offered(open_offers(t), EndTurn(seat=0)) is not None


# --- every move of a phase is on offer --------------------------------------------------------


def test_every_move_of_the_phase_is_offered_to_each_acting_seat() -> None:
    """Along the example games, each acting seat sees every move its phase allows (a piece to
    place only while one is awaited)."""
    allowed = {p.name: set(p.moves) for p in PHASES}
    for path in example_files("greenwood"):
        lines = path.read_text(encoding="utf-8").splitlines()
        head = json.loads(lines[0])
        session = Session(GAME, head["setup"], head["seed"])
        for number, line in enumerate(lines[1:], 2):
            state = session.state
            for group in offers(GAME, state):
                if group.seat is None:
                    continue
                seen = {o.move for o in group.offers}
                draws = {"greenwood.threat_drawn", "greenwood.start_player"}
                expected = allowed[state.flow.phase] - {"greenwood.place", *draws}
                if state.data.players[group.seat].awaiting is not None:
                    expected.add("greenwood.place")
                if state.data.threats_due or state.data.start_due:  # §一.3, §一.10: first
                    expected = set()
                    if state.data.threats_due:
                        expected.add("greenwood.threat_drawn")
                    if state.data.start_due:
                        expected.add("greenwood.start_player")
                assert expected <= seen, f"{path.name}:{number} seat {group.seat}"
            session.submit(move_from_dict(json.loads(line)))


def test_offers_stay_small_and_every_label_is_words_in_both_languages() -> None:
    """Labels name things as the table does: Chinese with Chinese characters, never an id,
    a list, a boolean or None; no offer spells out more than a few hundred options."""
    bad = re.compile(r"None|True|False|\[|\]|_|placeholder")
    cjk = re.compile(r"[\u4e00-\u9fff]")
    for path in example_files("greenwood"):
        for step in walk_example(path):
            for offer in (o for g in step.open for o in g.offers):
                assert len(offer.options) <= MAX_OPTIONS // 2, offer.move
                assert json.loads(json.dumps(offer.to_dict("zh")))["label"] == offer.label.zh
                for text in _labels(offer):
                    assert not bad.search(text.zh) and not bad.search(text.en), text
                    assert cjk.search(text.zh), f"{offer.move}: {text.zh!r} is not Chinese"


def _labels(offer: Offer) -> list[Any]:
    out = [offer.label]
    for f in offer.fields:
        out += [f.label, *(c.label for c in f.choices)]
    return out


def test_every_tap_of_the_kiosk_session_is_offered_at_its_point() -> None:
    """kiosk/simulation/greenwood.toml: what its players tap can be tapped at the console (a
    move the console greys cannot be tapped, so the script has none); the piece the camera reads
    there is laid through its fallback offer instead."""
    session_data = tomllib.loads(SIMULATION.read_text(encoding="utf-8"))["session"]
    session = Session(GAME, session_data["setup"], session_data["seed"])
    taps = 0
    for step in session_data["steps"]:
        if step.get("press") == "advance":
            assert session.submit(Advance()).accepted
        if "tap" not in step:
            continue
        taps += 1
        move = move_from_dict(step["tap"])
        if offered(offers(GAME, session.state), move) is None:
            _lay_awaited_pieces(session)
        found = offered(offers(GAME, session.state), move)
        result = session.submit(move)
        assert found is not None and result.accepted, f"tap {taps}: {move} {result.verdict}"
    assert taps > 50 and session.state.outcome is not None


def _lay_awaited_pieces(session: Session) -> None:
    """What the camera does in the scripted session: lay each awaited piece legally."""
    for _ in range(10):
        camera = [
            o
            for g in offers(GAME, session.state)
            for o in g.offers
            if o.camera and o.ok and o.move == "greenwood.place"
        ]
        if not camera:
            return
        option = next(x for x in camera[0].options if x.verdict.ok)
        assert session.submit(camera[0].build(option.values)).accepted


# --- (b) greyed options and their reasons -----------------------------------------------------


def test_the_dusk_marker_shows_greyed_once_placed_and_on_last_rounds_effect(gw) -> None:
    """greenwood.zh.md §三.2: 第二轮和第三轮必须移动到另一种效果."""
    t = gw.Table()
    t.ok(PlaceDuskMarker(seat=0, effect="protect"))
    assert code(t, PlaceDuskMarker(seat=0, effect="recruit")) == "greenwood.marker_placed"
    t.pass_until("dusk", 2)
    assert code(t, PlaceDuskMarker(seat=0, effect="protect")) == "greenwood.marker_must_move"
    assert code(t, PlaceDuskMarker(seat=0, effect="recruit")) == "ok"


def test_recruiting_onto_a_taken_place_is_greyed_while_a_place_is_free(gw) -> None:
    """greenwood.zh.md §三.2 招募伙伴: 若所有普通伙伴位置都已占满,必须选择一个已有伙伴替换."""
    t = gw.Table()
    t.ok(PlaceDuskMarker(seat=0, effect="protect"))
    assert code(t, Recruit(seat=0, place=0)) == "greenwood.replace_only_when_full"
    assert code(t, Recruit(seat=0, place=4)) == "ok"


def test_the_primal_spirit_is_offered_for_a_hike_but_greyed(gw) -> None:
    """greenwood.zh.md §四.1: 原初之灵也视为伙伴,可以使用能量标记激活,但不能放置徒步标记."""
    t = gw.Table()
    t.pass_until("night")
    assert code(t, Hike(seat=0, companion=SPIRIT)) == "greenwood.spirit_cannot_hike"
    assert code(t, UseEnergy(seat=0, companion=SPIRIT)) == "ok"


def test_a_spy_on_a_companion_without_energy_is_greyed(gw) -> None:
    """greenwood.zh.md §三.6: 选择普通伙伴时,该伙伴必须已经放置能量标记."""
    t = gw.Table()
    t.pass_until("night")
    t.ok(Hike(seat=0, companion=0))
    t.ok(Gain(seat=0, reward="vp:1"))
    t.ok(EndTurn(seat=0))
    assert code(t, UseSpy(seat=1, owner=0, companion=0)) == "greenwood.spy_needs_energy"
    assert code(t, UseSpy(seat=1, owner=0, companion=SPIRIT)) == "ok"


def test_a_creature_whose_knowledge_is_missing_is_greyed(gw) -> None:
    """greenwood.zh.md §三.9: 解救生物时,必须满足板块显示的全部知识要求."""
    t = gw.Table()
    t.pass_until("night")
    t.session.state = gw.with_player(t.state, 0, knowledge=("red",))
    t.ok(Hike(seat=0, companion=0))
    assert code(t, Rescue(seat=0, creature="moth")) == "ok"
    assert code(t, Rescue(seat=0, creature="beetle")) == "greenwood.missing_knowledge"


def test_learning_into_a_full_store_is_greyed_unless_a_token_goes_back(gw) -> None:
    """greenwood.zh.md §三.8: 若没有空余位置,可以先将一个已有知识标记退回公共供应区."""
    t = gw.Table()
    t.pass_until("night")
    t.session.state = gw.with_player(t.state, 0, knowledge=("red", "blue"))
    t.ok(Hike(seat=0, companion=0))
    assert code(t, Learn(seat=0, knowledge="yellow")) == "greenwood.no_free_slot"
    assert code(t, Learn(seat=0, knowledge="yellow", discard="red")) == "ok"


def test_paying_more_points_than_held_is_greyed(gw) -> None:
    """greenwood.zh.md §四.8: 玩家不能通过支付胜利点数使自己的分数低于0."""
    t = gw.Table()
    assert code(t, Gain(seat=0, reward="vp:-5")) == "ok"  # the score starts at 5 (§一.6)
    t.ok(Gain(seat=0, reward="vp:-4"))
    assert code(t, Gain(seat=0, reward="vp:-2")) == "greenwood.score_below_zero"


def test_a_knowledge_swap_is_greyed_outside_a_wisp_action(gw) -> None:
    """greenwood.zh.md §三.11: 完成放置后,玩家还可以将1个知识标记替换为任意另一种知识."""
    t = gw.Table()
    t.pass_until("night")
    t.ok(Hike(seat=0, companion=0))
    t.ok(Learn(seat=0, knowledge="red"))
    assert code(t, SwapKnowledge(seat=0, old="red", new="blue")) == "greenwood.no_swap"


def test_the_piece_to_place_is_offered_on_the_grid_and_greyed_off_the_start(gw) -> None:
    """greenwood.zh.md §三.10: 第一块板块必须覆盖潜艇上标示的起始格; 只有角落接触不算相邻."""
    t = gw.Table()
    t.pass_until("night")
    t.session.state = gw.with_player(t.state, 0, knowledge=("red",))
    t.ok(Hike(seat=0, companion=0))
    t.ok(Rescue(seat=0, creature="moth"))
    offer, option = find(t, Place(seat=0, piece="domino", cells=((1, 0), (2, 0))))
    assert offer.camera and offer.fields[0].kind == "cells" and offer.fields[0].grid == (6, 6)
    assert len(offer.options) == 60  # 5 × 6 across and 6 × 5 down on layout 0
    assert option.verdict.code == "greenwood.must_cover_start"
    assert moves_of(t, 0) >= {"greenwood.place"}
    assert code(t, Gain(seat=0, reward="vp:1")) == "greenwood.place_first"
    t.ok(Place(seat=0, piece="domino", cells=((0, 0), (1, 0))))
    t.ok(EndTurn(seat=0))
    t.ok(Pass(seat=1))
    t.ok(UseEnergy(seat=0, companion=SPIRIT))
    t.ok(SpiritAbility(seat=0, ability="journey"))  # §四.1: a forest action of its own
    t.ok(TakeWisp(seat=0))
    assert code(t, Place(seat=0, piece="wisp", cells=((2, 1),))) == "greenwood.not_adjacent"
    assert code(t, Place(seat=0, piece="wisp", cells=((2, 0),))) == "ok"
    assert match(open_offers(t), Place(seat=0, piece="wisp", cells=((0, 0),))) is None  # covered


def test_no_refused_line_of_the_examples_is_offered_and_the_table_ones_are_greyed() -> None:
    """The examples' refused lines are never offered as legal; a first piece off the start and
    a marker that did not move are greyed with their reason (§三.10, §三.2); a spy on a
    companion the virtual opponent has not shown is not offered at all (§四.18)."""
    greyed, hidden = set(), []
    for path in example_files("greenwood"):
        for step in walk_example(path):
            if step.accepted:
                continue
            assert offered(step.open, step.move) is None, f"{path.name}:{step.line}"
            found = match(step.open, step.move)
            if found is None:
                hidden.append(step.move.type)
            else:
                assert found[1].verdict.code == step.code
                greyed.add(step.code)
    assert greyed >= {"greenwood.must_cover_start", "greenwood.marker_must_move"}
    assert hidden == ["greenwood.use_spy"]
