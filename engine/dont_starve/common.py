"""Small pieces the Don't Starve modules share: the scenario's places, whose character a move
is about, the backpack limits, a character's turn ending (结束回合). The printed values come from
the catalogue of the game's box (``catalogue.catalogue(state)``), handed in as ``cat``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from engine.core import ACCEPTED, Event, Seat, State, Text, Verdict
from engine.core.vocabulary import SeatPassed
from engine.dont_starve import reasons as R
from engine.dont_starve.board import Place
from engine.dont_starve.catalogue import Catalogue, Scenario
from engine.dont_starve.moves import InventoryChanged
from engine.dont_starve.state import ITEM_LIMIT, RESOURCE_LIMIT, Character, DSData

Events = tuple[Event, ...]
S = State[DSData]


def scenario_of(cat: Catalogue, data: DSData) -> Scenario:
    """The scenario being played, as the box's scenario card lays it."""
    return cat.scenarios[data.scenario]


def places(cat: Catalogue, data: DSData) -> dict[str, Place]:
    """Every tile of the layout with its place on the half-tile grid."""
    return {s.name: (s.x, s.y) for s in scenario_of(cat, data).all_slots}


def with_data(state: S, data: DSData) -> S:
    """The state with the game's data replaced."""
    return replace(state, data=data)


def finish_turn(state: S, seat: Seat) -> tuple[S, Events]:
    """The character flips its activation token: done until the dial turns, and its turn is
    over (结束回合)."""
    current = None if state.flow.current == seat else state.flow.current
    flow = replace(state.flow, done=state.flow.done | {seat}, current=current)
    data = replace(state.data, moved=state.data.moved - {seat})
    return replace(state, flow=flow, data=data), (SeatPassed(seat, state.flow.phase),)


def tokens_on(cat: Catalogue, data: DSData, tile: str) -> list[int]:
    """The scenario monster tokens still on the tile (their indices in the scenario)."""
    tokens = scenario_of(cat, data).tokens
    return [i for i in data.tokens if tokens[i].slot == tile]


def hostile_here(cat: Catalogue, data: DSData, tile: str) -> bool:
    """Whether an undefeated hostile monster stands on the tile (敌意): a hostile scenario
    token, or the location card's monster if the card's CV is red."""
    tokens = scenario_of(cat, data).tokens
    if any(tokens[i].hostile for i in tokens_on(cat, data, tile)):
        return True
    card = data.location(tile)
    hostile = card is not None and cat.location_hostile(card)
    return hostile and tile not in data.defeated_monsters


def deal_dice(total: int, fighters: int) -> tuple[int, ...]:
    """Monster dice dealt one by one from the initiator."""
    return tuple(total // fighters + (1 if i < total % fighters else 0) for i in range(fighters))


OFF_MAP = Text("地图外", "off the map")
"""Where a character stands that is on no tile (in a refusal message)."""


def listed(numbers: Iterable[int]) -> Text:
    """Numbers as a list in a message: ``1、2`` / ``1, 2``."""
    shown = [str(n) for n in numbers]
    return Text("、".join(shown), ", ".join(shown))


def owner_of(seat: Seat, for_seat: Seat | None) -> Seat:
    """Whose character a move is about: ``for_seat`` when given, else the seat making it."""
    return seat if for_seat is None else for_seat


def within_limits(chars: list[Character]) -> Verdict:
    """上限 物品栏上限: at most 10 resources in a backpack and 8 item cards in a hand."""
    for c in chars:
        if c.resources > RESOURCE_LIMIT:
            return R.BACKPACK_FULL.reject(have=c.resources)
        if c.item > ITEM_LIMIT:
            return R.HAND_FULL.reject(have=c.item)
    return ACCEPTED


def count_change(state: S, seat: Seat, kind: str, delta: int) -> tuple[S, Events]:
    """One character holds ``delta`` more (or fewer) of a kind of token or card."""
    c = state.data.char(seat)
    count = getattr(c, kind) + delta
    data = state.data.with_char(seat, replace(c, **{kind: count}))
    return with_data(state, data), (InventoryChanged(seat, kind, count),)
