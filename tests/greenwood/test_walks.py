"""Greenwood played through the console's offers only, with the game's invariants checked after
every accepted move (issue 26), 1 to 4 players (solo walked to its end too).

Invariants (greenwood.zh.md): every player's dusk marker is laid when dusk ends (§三.2); no
reward is pending when a player's turn or part in a phase ends, nor when a phase ends (§三.10:
chains first, every piece in before anything else); counts stay within their tracks: score
not below 0 (§四.8), energy 2–4 and spies 1–2 with no more on companions than held (§一.6,
§四.7), aurora 0–5 (§三.2), the strength and pathfinding markers on their tracks (§四.2,
§四.3), knowledge within the unlocked slots (§四.4), at most 3 protections on distinct revealed
threats, a spirit spied on at most twice (§三.6), pieces inside the grid, on usable cells, not
overlapping, the first over the start cell (§三.10).

The figures (walks, moves, refusals, breaks, endings) print with
``.venv/bin/python -m pytest tests/greenwood/test_walks.py -q -s``.
"""

from __future__ import annotations

from typing import Any

from checked_walk import CheckedWalk, Figures, checked_walk, phase_ended, turn_ended
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import Move, State
from engine.greenwood.catalogue import KNOWLEDGE, catalogue
from engine.greenwood.state import (
    MAX_AURORA,
    MAX_ENERGY,
    MAX_SPIES,
    ORDINARY_PLACES,
    PROTECTION_TOKENS,
    SPIRIT_SPY_PLACES,
    START_ENERGY,
    START_SPIES,
)

MAX_MOVES = 1500
"""A uniform walk ends a 4-player game in about 300 moves; 1500 leaves room for unlucky ones."""
PHASES = {"dusk", "departure", "night", "dawn", "upkeep", "scoring"}


def markers_laid(before: State[Any], after: State[Any], move: Move) -> list[str]:
    """§三.2: dusk ends only with every player's marker on an effect this round."""
    if not phase_ended(before, after, "dusk"):
        return []
    return [
        f"dusk of round {before.flow.round} ended without player {seat + 1}'s marker"
        for seat, p in enumerate(after.data.players)
        if p.marker_round != before.flow.round
    ]


def nothing_pending(before: State[Any], after: State[Any], move: Move) -> list[str]:
    """§三.10: no reward (nor piece) waits when a turn, a player's phase or a phase ends."""
    seats = turn_ended(before, after)
    return [
        f"player {seat + 1}'s turn ended with {after.data.players[seat].pending} pending"
        for seat in sorted(seats)
        if after.data.players[seat].pending
    ]


def within_tracks(before: State[Any], after: State[Any], move: Move) -> list[str]:
    """Every count within its track, every piece where §三.10 allows it."""
    cat = catalogue()
    layout = cat.layouts[after.options.layout]
    data = after.data
    out = []
    for seat, p in enumerate(data.players):
        checks = {
            "score ≥ 0": p.score >= 0,
            "energy 2–4": START_ENERGY <= p.energy <= MAX_ENERGY,
            "energy on companions ≤ held": p.energy_left >= 0,
            "spies 1–2": START_SPIES <= p.spies <= MAX_SPIES,
            "spies out ≤ held": p.spies_left >= 0,
            "aurora 0–5": 0 <= p.aurora <= MAX_AURORA,
            "departure choices 0–aurora": 0 <= p.departure_left <= MAX_AURORA,
            "strength on its track": 0 <= p.strength < len(cat.strength.spaces),
            "pathfinding on its track": 0 <= p.pathfinding < len(cat.pathfinding.spaces),
            "knowledge within the slots": len(p.knowledge) <= p.slots,
            "knowledge colours": set(p.knowledge) <= set(KNOWLEDGE),
            "protections": len(p.protections) <= PROTECTION_TOKENS
            and len(set(p.protections)) == len(p.protections)
            and all(0 <= t < data.revealed for t in p.protections),
            "companions in places 1–5": p.companions <= set(range(ORDINARY_PLACES)),
            "hikers are companions": p.hikers <= p.companions,
            "spirit spied ≤ 2": p.spirit_spies <= SPIRIT_SPY_PLACES,
            "submarine": _submarine_ok(layout, p.pieces),
        }
        out += [f"player {seat + 1}: {name} broken" for name, ok in checks.items() if not ok]
    if data.virtual_spirit_spies > SPIRIT_SPY_PLACES:
        out.append("the virtual opponent's spirit spied on more than twice")
    return out


def _submarine_ok(layout: Any, pieces: tuple[Any, ...]) -> bool:
    cells: set[tuple[int, int]] = set()
    for piece in pieces:
        if cells & piece.cells or piece.cells & layout.unusable:
            return False
        if not all(0 <= c < layout.cols and 0 <= r < layout.rows for c, r in piece.cells):
            return False
        cells |= piece.cells
    return not cells or layout.start in cells


INVARIANTS = (markers_laid, nothing_pending, within_tracks)


def walk(setup: dict[str, Any], seed: int) -> CheckedWalk:
    """One walk through the offers with Greenwood's invariants."""
    return checked_walk("greenwood", setup, seed, MAX_MOVES, INVARIANTS, mark=_marks)


def _marks(state: State[Any], events: tuple[Any, ...]) -> list[str]:
    """Pieces placed, and wisps lost because no cell could take them (§三.2)."""
    names = {"greenwood.piece_placed": "a piece placed", "greenwood.reward_lost": "a wisp lost"}
    return [names[e.type] for e in events if e.type in names]


def assert_sound(result: CheckedWalk) -> None:
    """No offered move refused, no invariant broken, every phase reached, the game ended."""
    where = f"{result.setup} seed {result.seed}"
    assert result.refused == (), f"{where}: {result.refused[:3]}"
    assert result.breaks == (), f"{where}: {result.breaks[:5]}"
    assert result.ending != "unfinished", f"{where}: no end after {result.moves} moves"
    assert result.phases == PHASES, f"{where}: phases {sorted(result.phases)}"


@settings(max_examples=8, deadline=None)
@given(
    players=st.integers(1, 4),
    layout=st.integers(0, 3),
    mode=st.sampled_from(["basic", "clan"]),
    seed=st.integers(0, 10_000),
)
def test_walks_keep_every_invariant_through_every_phase(
    players: int, layout: int, mode: str, seed: int
) -> None:
    """Issue 26: only offered options, the invariants above after every accepted move."""
    assert_sound(walk({"players": players, "layout": layout, "mode": mode}, seed))


@settings(max_examples=5, deadline=None)
@given(
    layout=st.integers(0, 3), mode=st.sampled_from(["basic", "clan"]), seed=st.integers(0, 10**4)
)
def test_solo_walks_to_its_rating(layout: int, mode: str, seed: int) -> None:
    """§四.18 and §五.6: a solo game (the virtual opponent's companions spied on through the
    offers) walks to its end and is rated in one of the five bands."""
    result = walk({"players": 1, "layout": layout, "mode": mode}, seed)
    assert_sound(result)
    assert result.ending.startswith("greenwood.solo_band_")


SEEDS = range(3)


def test_the_walks_figures(capsys: Any) -> None:
    """A fixed set of walks (1–4 players × layouts 0–3 × three seeds, basic and clan in turn):
    the figures issue 26 asks for, printed; none refused, none broken, every walk ended."""
    figures = {n: Figures(f"greenwood {n}p") for n in range(1, 5)}
    for players in range(1, 5):
        for layout in range(4):
            for seed in SEEDS:
                mode = ("basic", "clan")[(layout + seed) % 2]
                result = walk({"players": players, "layout": layout, "mode": mode}, seed)
                figures[players].add(result)
                assert_sound(result)
    with capsys.disabled():
        print()
        for f in figures.values():
            print(f.line())
