"""Stonesaga's offers for the players' console (DESIGN.md "Offers"; docs/stonesaga.md).

``offers(state, seat)`` lists the moves a seat may make now as templates whose choices come from
the state: the seat's characters, the tiles next to them, the features and resources at hand.
The core checks every option with ``legal()`` and greys the refused ones with their reason, so
choices the rules forbid right now are listed where a player would look for them (a feature of
the tile that needs more energy, a neighbour behind an impassable edge).

The alert behemoth the table drew (§巨兽 警觉, draws "table") is picked by its name among the
behemoths of the Log (``alert_behemoth``), those whose lair is dormant greyed with the rule.

Dice the players roll at the table are entered through ``dice`` fields, one ``Die`` per die the
tray lit: the five creation dice (``creation_roll``), a test's die and each heroic-effort die
(``roll``), the mourning die (``mourn``). Each offer keeps its option product small: moves with
several free choices are split into one offer per character (or per assignment).
"""

from __future__ import annotations

from typing import Any

from engine.core import Offer, Seat, State
from engine.stonesaga.catalogue import catalogue
from engine.stonesaga.offers.day import (
    _actions,
    _alert,
    _effects,
    _end_challenge,
    _fishing,
    _gifts,
    _mining,
    _roll,
    _tests,
)
from engine.stonesaga.offers.fields import _greyed
from engine.stonesaga.offers.night import _keep, _night_cards, _record
from engine.stonesaga.offers.setup import _creation, _interval, _mourning
from engine.stonesaga.state import Saga

# --- the offers, by phase -------------------------------------------------------------------


def offers(state: State[Any], seat: Seat) -> list[Offer]:
    """Every Stonesaga move this seat may make in the current phase, as console offers."""
    phase = state.flow.phase
    data: Saga = state.data
    cat = catalogue(state)
    own = [(i, c) for i, c in enumerate(data.characters) if c.seat == seat and c.alive]
    if phase == "interval":
        return _interval(cat, data, seat)
    if phase == "creation":
        return _creation(cat, state, seat)
    if phase == "mourning":
        return _mourning(cat, data, seat)
    if phase == "save":
        return [*(_keep(cat, seat, i, c) for i, c in own), _record(cat, data, seat)]
    if phase not in ("day", "night_7"):
        return []
    # An action in progress (rules.dice.in_progress): what continues or closes it; the core
    # greys everything else, ending the turn and passing too, with what to finish first.
    if data.alert_due and phase == "day":  # §巨兽 警觉: the behemoth the table drew
        return [_alert(cat, data, seat)]
    if data.test is not None:  # only the die of the test in progress, and what cards did
        if data.test.seat == seat:
            return [_roll(seat), *_effects(cat, data, seat, own)]
        return _night_cards(cat, seat, own) if phase == "night_7" and own else []
    if data.fishing is not None and data.fishing[0] == seat:
        return [_fishing(seat)]
    if not own:  # every character of the seat is dead: the challenge may still end
        return _end_challenge(seat) if phase == "day" else []
    tests = [*_tests(cat, data, seat, own), *_effects(cat, data, seat, own)]
    if phase == "night_7":
        return [*_night_cards(cat, seat, own), *tests]
    mine = data.mining
    if mine is not None and mine.seat == seat:
        return [*_mining(data, seat), *tests]
    actions = _actions(cat, data, seat, own)
    if data.acted and state.flow.current == seat:  # §白天阶段: one action per turn
        actions = [_greyed(o) for o in actions]
    actions += _gifts(cat, data, seat, own)
    return [*actions, *tests, *_end_challenge(seat)]
