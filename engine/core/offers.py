"""What can be done now: the offers behind the players' console (DESIGN.md, "Offers").

For a state, each seat that may act gets *offers*: move templates whose fields carry their
choices, drawn from the state by the game (``Game.offers``), or the bounds of a number, or the
dice the players rolled. The core adds its own moves (confirm, end the turn, pass;
``kind="core"``) unless the game offers them itself, named as its rules name them (Don't
Starve's ``pass`` in the action phase is "end my turn": the activation token flips), and checks
every concrete option with the game's ``legal()``: a refused option keeps its verdict, so the
console can grey it with the reason instead of letting players find out by trying. Each offer
has a kind (``engine.core.forms.OfferKind``) that says where the console puts it.

Field kinds:

- ``pick``: one of ``choices``. All pick fields of an offer together give its *options*, each
  checked with ``legal()`` (the numbers at their defaults, the dice at their first faces).
- ``cells``: a pick whose choices are sets of board cells, drawn as a ``grid`` (columns, rows)
  on which players tap the cells (a submarine placement the camera could not read).
- ``number``: an integer from ``low`` to ``high``; the game gives bounds within which every
  value is legal once the picks are legal.
- ``dice``: one control per die the players rolled, each with that die's own faces; each face
  adds to one or more of the move's number fields (a ``hit`` face: ``hits + 1``). Not checked
  per face: the table rolled what it rolled.
- ``tally``: a count from 0 to its ``most`` for each choice (a trade: how many of each kind
  each player gives); the move's field is the list of the choices counted, each as
  ``{**value, "count": n}`` for a dict value, else ``[value, n]``; at least ``low`` choices
  counted. The options are checked with the first ``low`` choices counted once; the whole is
  checked when the move is made; the game gives each choice's ``most`` so that any one count
  alone is legal.
- ``assign``: each value of ``pool`` (the dice the players kept) placed on one of ``choices``
  (a die on an attribute), each choice's value naming the move's field that gets the value;
  the console draws the dice and the choices, a touch on a die then on a choice places it.
  Not checked per placement (the options place the pool in order): the game gives the field
  only where every placement is legal once the picks are.

Everything here is pure and JSON-ready: choice values are the move's own JSON values.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import flow
from engine.core.forms import Die, Field, Offer, Option, counted_choice
from engine.core.game import Game
from engine.core.phases import TurnOrder
from engine.core.records import Move, Seat, _adapter, move_from_dict
from engine.core.state import State
from engine.core.text import Text

MAX_OPTIONS = 600
"""The most concrete options one offer may spell out (a guard against a runaway product)."""

CORE_LABELS = {
    "advance": Text("确认 / 下一步", "Confirm / next"),
    "end_turn": Text("结束回合", "End turn"),
    "pass": Text("本阶段结束", "Done for this phase"),
}
"""The console's labels of the core's own moves."""
CORE_SEAT_MOVES = frozenset({"end_turn", "pass"})
"""The core's moves of a seat: a game that offers one of them itself (with its own label) for
a seat offers all the core moves that seat gets; the core then adds none of its own."""


@dataclass(frozen=True)
class SeatOffers:
    """Everything one seat (None: the whole table) may do now; ``acting``: it is this seat's
    turn (in a phase where everyone acts at once, no seat is *the* acting one)."""

    seat: Seat | None
    acting: bool
    offers: tuple[Offer, ...]


def acting_seats(game: Game, state: State[Any]) -> list[Seat]:
    """The seats that may act now: the one whose turn it is first, then the others clockwise."""
    if state.outcome is not None:
        return []
    phase = game.phase(state.flow.phase)
    current = state.flow.current
    if phase.order is TurnOrder.TABLE:
        return []
    if phase.order is TurnOrder.CLOCKWISE or (
        phase.order is TurnOrder.FREE and current is not None
    ):
        return [] if current is None else [current]
    origin = state.flow.start_seat
    return [
        seat
        for seat in ((origin + k) % state.players for k in range(state.players))
        if seat not in state.flow.done
    ]


def free_seats(game: Game, state: State[Any]) -> list[Seat]:
    """The other seats, which may take only free actions now (``Move.out_of_turn``): in a
    phase played in turns that allows such moves, every seat that may not take a turn now,
    clockwise from the start seat."""
    if state.outcome is None:
        phase = game.phase(state.flow.phase)
        if phase.order in (TurnOrder.CLOCKWISE, TurnOrder.FREE) and any(
            _is_free(name) for name in phase.moves
        ):
            acting = set(acting_seats(game, state))
            origin = state.flow.start_seat
            seats = ((origin + k) % state.players for k in range(state.players))
            return [seat for seat in seats if seat not in acting]
    return []


def offers(game: Game, state: State[Any]) -> tuple[SeatOffers, ...]:
    """Every offer open now, grouped by seat (the acting seat first, then the seats that may
    take free actions outside their turn; the table's last)."""
    out: list[SeatOffers] = []
    phase = game.phase(state.flow.phase) if state.outcome is None else None
    for seat in acting_seats(game, state):
        drafts: list[Offer] = list(game.offers(state, seat))
        if not any(d.move in CORE_SEAT_MOVES for d in drafts):  # else the game named its own
            turns = phase is not None and phase.order in (TurnOrder.CLOCKWISE, TurnOrder.FREE)
            if turns and state.flow.current == seat:
                drafts.append(Offer("end_turn", seat, CORE_LABELS["end_turn"], kind="core"))
            drafts.append(Offer("pass", seat, CORE_LABELS["pass"], kind="core"))
        out.append(
            SeatOffers(
                seat, state.flow.current == seat, tuple(checked(game, state, d) for d in drafts)
            )
        )
    for seat in free_seats(game, state):
        free = [d for d in game.offers(state, seat) if _is_free(d.move)]
        if free:
            out.append(SeatOffers(seat, False, tuple(checked(game, state, d) for d in free)))
    if phase is not None and phase.order is TurnOrder.TABLE:
        confirm = Offer("advance", None, CORE_LABELS["advance"], kind="core")
        advance = checked(game, state, confirm)
        out.append(SeatOffers(None, True, (advance,)))
    return tuple(out)


def checked(game: Game, state: State[Any], offer: Offer) -> Offer:
    """The offer with every combination of its pick fields checked by ``legal()`` (a tally
    with its first ``low`` choices counted once, the least it can be made with)."""
    picks = offer.picks
    combos = itertools.product(*(tuple(c.value for c in f.choices) for f in picks))
    options = []
    make = _maker(offer.move)
    least = {
        f.name: [int(k < f.low) for k in range(len(f.choices))]
        for f in offer.fields
        if f.kind == "tally" and f.low
    }
    for values in itertools.islice(combos, MAX_OPTIONS + 1):
        move = make(offer._data(values, {}, {}, least))
        options.append(Option(tuple(values), flow.legal(game, state, move)))
    if len(options) > MAX_OPTIONS:
        raise ValueError(
            f"{offer.move}: more than {MAX_OPTIONS} options; split the offer or narrow its choices"
        )
    return dataclasses.replace(offer, options=tuple(options))


def offered(open_offers: Iterable[SeatOffers], move: Move) -> Offer | None:
    """The open offer through which players can make exactly this move now, or None.

    The move must match an offer's fixed values and one of its legal options, have its numbers
    within bounds and its dice results on faces the dice have; any field the offer does not
    mention must keep its default.
    """
    found = match(open_offers, move)
    return found[0] if found is not None and found[1].verdict.ok else None


def match(open_offers: Iterable[SeatOffers], move: Move) -> tuple[Offer, Option] | None:
    """The offer and option (legal or greyed) that spell this move, or None if none does."""
    data = _plain(move.to_dict())
    for group in open_offers:
        for offer in group.offers:
            if offer.move == move.type and offer.seat == move.seat:
                option = _matching_option(offer, data, move)
                if option is not None:
                    return offer, option
    return None


FINAL_WEIGHT = 0.02
"""How likely ``sample`` takes a final offer (a scenario or challenge end) beside another one."""


def sample(open_offers: Iterable[SeatOffers], rnd: random.Random) -> Move | None:
    """A random legal move among the open offers (uniform over offers, then over options;
    a ``final`` offer, which ends the game at the players' word, ``FINAL_WEIGHT`` as likely, so
    that a walk plays the game rather than ending it in its first moves); None when nothing is
    open. For random walks in tests and benchmarks."""
    usable = [o for group in open_offers for o in group.offers if o.ok]
    if not usable:
        return None
    weights = [FINAL_WEIGHT if o.kind == "final" else 1.0 for o in usable]
    offer = rnd.choices(usable, weights)[0]
    option = rnd.choice([o for o in offer.options if o.verdict.ok])
    numbers = {f.name: rnd.randint(f.low, f.high) for f in offer.fields if f.kind == "number"}
    faces = {
        f.name: [rnd.randrange(len(d.faces)) for d in f.dice]
        for f in offer.fields
        if f.kind == "dice"
    }
    counts = {}
    for f in offer.fields:  # nothing, or one choice counted (any one count alone is legal)
        if f.kind == "tally" and f.choices and (f.low or rnd.random() < 0.5):
            k = rnd.randrange(len(f.choices))
            counts[f.name] = [
                rnd.randint(1, c.most) if i == k else 0 for i, c in enumerate(f.choices)
            ]
    places = {
        f.name: rnd.sample(range(len(f.pool)), len(f.pool))
        for f in offer.fields
        if f.kind == "assign"
    }
    return offer.build(option.values, numbers, faces, counts, places)


# --- inner workings --------------------------------------------------------------------------


def _is_free(move_type: str) -> bool:
    """Whether moves of this type are free actions a seat may take outside its turn."""
    cls = Move._registry.get(move_type)
    return cls is not None and bool(getattr(cls, "out_of_turn", False))


def _plain(value: Any) -> Any:
    """JSON-normal form (tuples as lists) so values compare as JSON does."""
    return json.loads(json.dumps(value))


def _matching_option(offer: Offer, data: dict[str, Any], move: Move) -> Option | None:
    if any(data.get(k) != v for k, v in _plain(offer.fixed).items()):
        return None
    picks = offer.picks
    wanted = _canonical(picks, [data.get(f.name) for f in picks])
    option = next((o for o in offer.options if _canonical(picks, o.values) == wanted), None)
    if option is None:
        return None
    covered = {"type", "seat", *offer.fixed, *(f.name for f in picks)}
    for f in offer.fields:
        if f.kind == "number":
            covered.add(f.name)
            value = data.get(f.name)
            if not (isinstance(value, int) and f.low <= value <= f.high):
                return None
        elif f.kind == "dice":
            targets = sorted({name for d in f.dice for face in d.faces for name, _ in face.adds})
            covered.update(targets)
            if tuple(data.get(name, 0) for name in targets) not in _sums(f.dice, targets):
                return None
        elif f.kind == "tally":
            covered.add(f.name)
            if not _tallied(f, data.get(f.name)):
                return None
        elif f.kind == "assign":
            targets = [c.value for c in f.choices]
            covered.update(targets)
            given = [data.get(name) for name in targets]
            placed = [v for v in given if isinstance(v, int)]
            if len(placed) != len(given) or sorted(placed) != sorted(f.pool):
                return None
    defaults = {
        f.name: f.default
        for f in dataclasses.fields(move)  # type: ignore[arg-type]
        if f.default is not dataclasses.MISSING
    }
    for name, value in data.items():
        if name not in covered and not (name in defaults and _plain(defaults[name]) == value):
            return None
    return option


def _tallied(f: Field, given: Any) -> bool:
    """Whether a move's list is a tally of ``f``: each choice at most once, counts in bounds."""
    if not isinstance(given, list):
        return False
    allowed = {
        json.dumps(_plain(counted_choice(c.value, n)), sort_keys=True): index
        for index, c in enumerate(f.choices)
        for n in range(1, c.most + 1)
    }
    used = [allowed.get(json.dumps(element, sort_keys=True)) for element in given]
    return None not in used and len(set(used)) == len(used) >= f.low


def _maker(move_type: str) -> Callable[[dict[str, Any]], Move]:
    """A fast maker of one move type from JSON data the game itself gave (no JSON round trip:
    ``checked`` makes hundreds of moves per touch); ``Offer.build`` checks players' data."""
    cls = Move._registry.get(move_type)
    if cls is None:
        return move_from_dict  # an unknown type: let it raise its own clear error
    adapter = _adapter(cls)
    return lambda data: adapter.validate_python({k: v for k, v in data.items() if k != "type"})


def _canonical(picks: Sequence[Field], values: Sequence[Any]) -> list[Any]:
    """Pick values as JSON, the cells of a ``cells`` field in board order (any order names the
    same cells: the camera may list them differently)."""
    out: list[Any] = _plain(list(values))
    for index, f in enumerate(picks):
        if f.kind == "cells" and isinstance(out[index], list):
            out[index] = sorted(out[index], key=json.dumps)
    return out


def _sums(dice: Sequence[Die], targets: Sequence[str]) -> set[tuple[int, ...]]:
    """Every total (per target field) that one face of each die can add up to."""
    totals = {tuple(0 for _ in targets)}
    for die in dice:
        steps = []
        for face in die.faces:
            adds = dict(face.adds)
            steps.append(tuple(adds.get(name, 0) for name in targets))
        totals = {tuple(a + b for a, b in zip(t, s, strict=True)) for t in totals for s in steps}
    return totals
