"""Submarine placement (greenwood.zh.md §三.10), judged by the real engine through the driver."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import find_game
from engine.core.offers import checked
from engine.greenwood.board import turn
from engine.greenwood.catalogue import catalogue
from engine.greenwood.moves import Place
from engine.greenwood.offers import place_offer
from engine.greenwood.state import Placed

CAT = catalogue()
SHAPES = sorted(CAT.shapes)


_STATES: dict[int, object] = {}


def dusk_state(gw, layout: int):
    """A fresh 2-player game in its first dusk (placements are allowed in any seat phase)."""
    if layout not in _STATES:
        _STATES[layout] = gw.Table(layout=layout).state
    return _STATES[layout]


def prepared(gw, layout: int, covered: frozenset, piece: str):
    """Seat 0 has pieces on ``covered`` and must now place ``piece``."""
    placed = (Placed("earlier", covered),) if covered else ()
    pending = (("test", f"place:{piece}"),)
    return gw.with_player(dusk_state(gw, layout), 0, pieces=placed, pending=pending)


def lay(shape: str, quarter: int, flipped: bool, at: tuple[int, int]) -> tuple:
    """The cells of ``shape`` turned and moved so that its first cell lands on ``at``."""
    cells = [turn(c, quarter, flipped) for c in sorted(CAT.shapes[shape].cells)]
    c0, r0 = cells[0]
    return tuple(sorted((c - c0 + at[0], r - r0 + at[1]) for c, r in cells))


def expected_reason(layout, covered: frozenset, cells: frozenset) -> str:
    """The rules of §三.10 written out plainly, in the order the engine reports them."""
    if any(not (0 <= c < layout.cols and 0 <= r < layout.rows) for c, r in cells):
        return "greenwood.outside_grid"
    if cells & covered:
        return "greenwood.overlap"
    if cells & layout.unusable:
        return "greenwood.unusable_cell"
    if not covered:
        return "ok" if layout.start in cells else "greenwood.must_cover_start"
    edge = {(c + dc, r + dr) for c, r in cells for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    return "ok" if edge & covered else "greenwood.not_adjacent"


GRID = st.tuples(st.integers(0, 5), st.integers(0, 5))


@settings(max_examples=300, deadline=None)
@given(
    layout=st.integers(0, 3),
    covered=st.one_of(st.just(frozenset()), st.frozensets(GRID, max_size=14)),
    shape=st.sampled_from(SHAPES),
    quarter=st.integers(0, 3),
    flipped=st.booleans(),
    at=st.tuples(st.integers(-2, 7), st.integers(-2, 7)),
)
def test_a_placement_is_accepted_exactly_when_every_rule_of_3_10_holds(
    gw, layout, covered, shape, quarter, flipped, at
) -> None:
    """§三.10: inside the grid, no overlap, no unusable cell, the first piece on the start cell,
    later ones edge-adjacent (corners do not count). Any turn of the piece is fine; a flippable
    piece may also lie face down."""
    lay_ = CAT.layouts[layout]
    covered = frozenset(covered) - lay_.unusable
    if flipped and not CAT.shapes[shape].flippable:
        flipped = False
    cells = lay(shape, quarter, flipped, at)
    verdict = gw.legal(
        prepared(gw, layout, covered, shape), Place(seat=0, piece=shape, cells=cells)
    )
    assert verdict.code == expected_reason(lay_, covered, frozenset(cells))
    assert verdict.ok == (verdict.code == "ok")
    if not verdict.ok:
        assert verdict.rule == "greenwood.zh.md §三.10"


@settings(max_examples=60, deadline=None)
@given(
    layout=st.integers(0, 3),
    pieces=st.lists(st.sampled_from(SHAPES), min_size=1, max_size=6),
    data=st.data(),
)
def test_placements_the_console_offers_as_legal_are_accepted_and_cover_their_cells(
    gw, layout, pieces, data
) -> None:
    """§三.10 from the accepting side (the property above could pass on refusals alone): each
    piece is laid on cells drawn from the legal options of the console's placement offer, the
    plain rules agree it may lie there, the driver accepts it and the cells are then covered.
    When no option is legal, the plain rules agree that the piece fits nowhere."""
    game = find_game("greenwood")
    lay_ = CAT.layouts[layout]
    state = dusk_state(gw, layout)
    accepted = 0
    for piece in pieces:
        state = gw.with_player(state, 0, pending=(("test", f"place:{piece}"),))
        covered = state.data.players[0].covered
        offer = checked(game, state, place_offer(state, 0, piece))
        options = [o for o in offer.options if o.verdict.ok]
        if not options:
            assert accepted, "the first piece always fits over the start cell"
            everywhere = (frozenset(map(tuple, c.value)) for c in offer.fields[0].choices)
            assert all(expected_reason(lay_, covered, cells) != "ok" for cells in everywhere)
            break
        move = offer.build(data.draw(st.sampled_from(options)).values)
        assert isinstance(move, Place)
        assert expected_reason(lay_, covered, frozenset(move.cells)) == "ok"
        state, _ = gw.apply(state, move)
        assert state.data.players[0].covered == covered | frozenset(move.cells)
        accepted += 1
    assert accepted


@pytest.mark.parametrize(
    ("layout", "covered", "piece", "cells", "code"),
    [
        (0, set(), "domino", [(5, 5), (6, 5)], "greenwood.outside_grid"),
        (0, {(0, 0), (1, 0)}, "domino", [(1, 0), (1, 1)], "greenwood.overlap"),
        (1, {(3, 0), (4, 0)}, "domino", [(4, 1), (5, 1)], "ok"),
        (1, {(3, 0), (4, 0)}, "domino", [(4, 1), (5, 0)], "greenwood.wrong_shape"),
        (1, {(3, 0), (4, 0)}, "bar3", [(5, 0), (5, 1), (5, 2)], "greenwood.unusable_cell"),
        (0, set(), "domino", [(1, 0), (2, 0)], "greenwood.must_cover_start"),
        (0, set(), "domino", [(0, 0), (1, 0)], "ok"),
        (0, {(0, 0)}, "wisp", [(1, 1)], "greenwood.not_adjacent"),  # corner only
        (0, {(0, 0)}, "wisp", [(0, 1)], "ok"),
        (0, {(0, 0), (0, 2)}, "ell4", [(1, 0), (1, 1), (1, 2), (0, 2)], "greenwood.overlap"),
        (0, {(0, 0)}, "ell4", [(1, 0), (1, 1), (1, 2), (2, 2)], "ok"),
        (0, {(0, 0)}, "ell4", [(1, 0), (2, 0), (3, 0), (3, 1)], "ok"),  # turned a quarter
        (0, {(0, 0)}, "tee4", [(1, 0), (1, 1), (2, 1), (1, 2)], "ok"),
    ],
)
def test_each_placement_rule_of_3_10_names_itself(gw, layout, covered, piece, cells, code) -> None:
    """§三.10, one rule at a time; 只有角落接触不算相邻 (the corner case is refused)."""
    state = prepared(gw, layout, frozenset(covered), piece)
    assert gw.legal(state, Place(seat=0, piece=piece, cells=tuple(cells))).code == code


def test_a_flippable_piece_may_lie_face_down_and_a_plain_one_may_not(gw) -> None:
    """§三.10 with the shape data: only pieces marked flippable may lie as their mirror image."""
    ell_mirror = ((1, 0), (1, 1), (1, 2), (0, 2))  # ell4 face down, touching (0, 0)? no: (0, 1)
    state = prepared(gw, 0, frozenset({(0, 0), (0, 1)}), "ell4")
    assert gw.legal(state, Place(seat=0, piece="ell4", cells=ell_mirror)).ok
    tee_state = prepared(gw, 0, frozenset({(0, 0)}), "corner3")
    assert gw.legal(tee_state, Place(seat=0, piece="corner3", cells=((1, 0), (2, 0), (2, 1)))).ok
    bar_state = prepared(gw, 0, frozenset({(0, 0)}), "domino")
    bad = Place(seat=0, piece="domino", cells=((1, 0), (2, 1)))
    assert gw.legal(bar_state, bad).code == "greenwood.wrong_shape"


@settings(max_examples=40, deadline=None)
@given(
    attempts=st.lists(
        st.tuples(
            st.sampled_from(SHAPES),
            st.integers(0, 3),
            st.tuples(st.integers(0, 5), st.integers(0, 5)),
        ),
        min_size=1,
        max_size=25,
    )
)
def test_placed_pieces_never_move_and_a_refused_piece_changes_nothing(gw, attempts) -> None:
    """§三.10: 已经放入潜艇的板块不能移动,也不能重新排列 — each accepted piece stays where it
    was put, in order; a refused placement leaves the submarine as it was."""
    state = dusk_state(gw, 2)
    accepted: list[tuple] = []
    for shape, quarter, at in attempts:
        state = gw.with_player(state, 0, pending=(("test", f"place:{shape}"),))
        cells = lay(shape, quarter, False, at)
        move = Place(seat=0, piece=shape, cells=cells)
        if gw.legal(state, move).ok:
            state, _ = gw.apply(state, move)
            accepted.append(frozenset(cells))
        me = state.data.players[0]
        assert [p.cells for p in me.pieces] == accepted
    covered = [c for cells in accepted for c in cells]
    assert len(covered) == len(set(covered))  # never two pieces on one cell
    if accepted:
        assert CAT.layouts[2].start in accepted[0]


def test_a_piece_is_placed_only_when_one_is_due_and_only_that_piece(table) -> None:
    """§三.9, §三.11: pieces come from a rescue or a wisp; the engine waits for that piece."""
    assert (
        table.refused(Place(seat=0, piece="wisp", cells=((0, 0),))) == "greenwood.nothing_to_place"
    )
