"""Walking a game through its offers only: the example games, and random walks.

Used by each game's offer tests and by the engine bench: a move is made only through an open
offer, as a player at the console would make it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core import Game, Move, Session, find_game, move_from_dict, offered, offers
from engine.core.offers import SeatOffers, match, sample

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


@dataclass(frozen=True)
class ExampleStep:
    """One line of an example game: where, the offers open before it, the move, its verdict."""

    path: Path
    line: int
    open: tuple[SeatOffers, ...]
    move: Move
    accepted: bool
    code: str


def example_files(game: str) -> list[Path]:
    """The example games of ``game`` in docs/examples."""
    return sorted(EXAMPLES.glob(f"{game}*.jsonl"))


def walk_example(path: Path) -> Iterator[ExampleStep]:
    """Replay an example game, yielding each move with the offers open just before it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    game = find_game(path.name.split("-")[0].removesuffix(".jsonl"))
    session = Session(game, head.get("setup"), int(head.get("seed", 0)))
    for number, line in enumerate(lines[1:], 2):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        move = move_from_dict(json.loads(line))
        before = offers(game, session.state)
        result = session.submit(move)
        yield ExampleStep(path, number, before, move, result.accepted, result.verdict.code)


@dataclass(frozen=True)
class Walk:
    """How a random walk through the offers went."""

    moves: int
    ended: bool
    refused: list[tuple[int, Move, str]]
    types: set[str]


def random_walk(game: Game | str, setup: dict[str, Any] | None, seed: int, max_moves: int) -> Walk:
    """Play only offered, legal options chosen at random until the game ends or the bound."""
    game = find_game(game) if isinstance(game, str) else game
    session = Session(game, setup, seed)
    rnd = random.Random(seed)
    refused: list[tuple[int, Move, str]] = []
    types: set[str] = set()
    for count in range(max_moves):
        open_now = offers(game, session.state)
        if session.state.outcome is not None:
            return Walk(count, True, refused, types)
        move = sample(open_now, rnd)
        for _ in range(20):  # a tally's whole the console's check would grey: draw again
            found = None if move is None else match(open_now, move)
            tally = found is not None and any(f.kind == "tally" for f in found[0].fields)
            if move is None or not tally or session.check(move).ok:
                break
            move = sample(open_now, rnd)
        assert move is not None, f"nothing is offered at move {count} but the game goes on"
        assert offered(open_now, move) is not None, f"sample gave a move not offered: {move}"
        types.add(move.type)
        result = session.submit(move)
        if not result.accepted:
            refused.append((count, move, result.verdict.code))
    return Walk(max_moves, session.state.outcome is not None, refused, types)
