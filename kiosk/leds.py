"""What the LED dice trays and the round-track strip show (pure mapping of ``TrackFacts``).

The LEDs read the engine's state and the table's facts (``track_facts``), never the screen's
words: the round and the rounds, the phases' code names and the current one, the acting seat,
the seats' colours, the dice pool, and the game's track marks.

The round track, from LED 0: one LED per round (past rounds dim, the current one pulsing), one
LED for the game's accent (day or night, from its ``Game.track_marks``),
then one LED per phase of the round (past phases dim, the current one lit in the active player's
colour, the one chosen at set-up (a key of ``kiosk.seats.COLOURS``) or else ``SEAT_COLOURS``;
white when nobody in particular acts). A coming round the game marks (``TrackMarks.mark_round``,
the storm in Don't Starve) blinks in the mark colour. What does not fit the
strip is left out, phases first. Open-ended games (``rounds`` None) show the rounds played so
far. ``track_legend`` says what each LED stands for, from the same layout.

While a timer runs (``kiosk.timers``, chosen at set-up) the whole strip is its bar instead: as
many LEDs lit as the share of the time left (in the timed seat's colour, white for a phase
everyone plays), blinking in the last ``TIMER_LAST_S`` seconds, breathing while paused, and
every LED blinking fast once the time is up.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from firmware_bridge.state import Effect, Led
from kiosk.presenter.facts import TableFacts, TimerFacts
from kiosk.seats import COLOURS

Colour = tuple[int, int, int]

DIE_COLOURS: dict[str, Colour] = {
    "d6": (255, 255, 255),
    "monster": (255, 40, 40),
    "skill": (40, 120, 255),
    "weather": (80, 220, 255),
}
"""Tray colours of known dice; any other die gets a colour from ``PALETTE`` by its name."""
PALETTE: tuple[Colour, ...] = (
    (255, 160, 0),
    (160, 60, 255),
    (0, 220, 120),
    (255, 90, 180),
    (200, 200, 40),
)
TRACK_COLOUR: Colour = (0, 200, 255)
"""The current round on the track."""
DONE_COLOUR: Colour = (40, 40, 40)
PHASE_COLOUR: Colour = (255, 255, 255)
SEAT_COLOURS: tuple[Colour, ...] = ((255, 50, 50), (50, 120, 255), (40, 210, 80), (255, 190, 0))
"""Player 1 red, 2 blue, 3 green, 4 yellow."""
ACCENT_COLOURS: dict[str, Colour] = {"day": (255, 170, 30), "night": (70, 40, 255)}
MARK_COLOUR: Colour = (200, 0, 255)
OFF = Led((0, 0, 0), Effect.OFF)
PULSE_MS = 1200
TIMER_LAST_S = 10
"""The timer bar blinks in its last seconds."""
BLINK_MS = 500
"""The timer bar's blink in its last seconds (twice as fast once the time is up)."""


@dataclass(frozen=True)
class TrackFacts:
    """What the trays and the round track show, from the engine's state and the table's
    facts (``track_facts``)."""

    round: int
    rounds: int | None
    """None: an open-ended game."""
    phases: tuple[str, ...]
    """The phases' code names, in the round's order."""
    phase: str
    """The current phase's code name."""
    acting: int | None = None
    """The seat (from 0) to act, None when nobody in particular acts."""
    colours: tuple[str, ...] = ()
    """Each seat's colour (a key of ``kiosk.seats.COLOURS``)."""
    dice: tuple[str, ...] = ()
    """The dice pool to roll, in order."""
    accent: str | None = None
    """The game's accent (``day``, ``night``), from its view's ``track``."""
    mark_round: int | None = None
    """A coming round the game marks, from its view's ``track``."""
    timer: TimerFacts | None = None
    """The timers now (``kiosk.timers``): while one times somebody the strip is its bar."""


def track_facts(facts: TableFacts, timer: TimerFacts | None = None) -> TrackFacts:
    """The LEDs' facts of the table at one change: its game's state, seats and dice pool, and
    its timers (``timer``, when the game has one)."""
    game, state = facts.game, facts.state
    marks = game.track_marks(state)
    return TrackFacts(
        round=state.flow.round,
        rounds=game.rounds,
        phases=tuple(p.name for p in game.phases),
        phase=state.flow.phase,
        acting=state.flow.current,
        colours=tuple(seat.colour for seat in facts.seats),
        dice=tuple(facts.dice["dice"]) if facts.dice is not None else (),
        accent=marks.accent,
        mark_round=marks.mark_round,
        timer=timer,
    )


def die_colour(name: str) -> Colour:
    """The tray colour of a die: a fixed one for known dice, else one from the palette."""
    if name in DIE_COLOURS:
        return DIE_COLOURS[name]
    return PALETTE[sum(name.encode()) % len(PALETTE)]


def tray_leds(dice: Sequence[str], trays: int, slots: int) -> list[list[Led]]:
    """The dice pool spread over the trays, one slot per die, in order."""
    lit = [Led(die_colour(d)) for d in dice]
    return [lit[i * slots : (i + 1) * slots] for i in range(trays)]


def track_leds(track: TrackFacts, length: int) -> list[Led]:
    """The round track on a strip of ``length`` LEDs."""
    return [led for led, _ in _track(track, length)]


def track_legend(track: TrackFacts, length: int) -> list[dict[str, Any]]:
    """What each LED of ``track_leds`` stands for, in the same order: ``{"kind": "round",
    "round": n, "state": "past" | "current" | "coming" | "mark"}``, ``{"kind": "accent",
    "accent": "day" | "night" | None}``, ``{"kind": "phase", "phase": name, "state": "past" |
    "current" | "coming", "seat": the active seat from 0 or None}``; the LEDs after them are
    ``{"kind": "unused"}``. While a timer runs: ``{"kind": "timer", "seat": the timed seat
    from 0 or None, "state": "left" | "gone" | "over"}`` for every LED."""
    roles = [role for _, role in _track(track, length)]
    return roles + [{"kind": "unused"}] * (length - len(roles))


def seat_colour(track: TrackFacts, seat: int) -> Colour:
    """The LED colour of a seat (from 0): the colour chosen at set-up, else ``SEAT_COLOURS``."""
    chosen = track.colours[seat] if seat < len(track.colours) else None
    if chosen in COLOURS:
        return COLOURS[chosen].led
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def timer_bar(timer: TimerFacts, colour: Colour, length: int) -> list[tuple[Led, dict[str, Any]]]:
    """The strip as the timer's bar: the share of the time left, lit from LED 0."""
    role: dict[str, Any] = {"kind": "timer", "seat": timer.seat}
    left = math.ceil(timer.left_s)
    if left <= 0:
        return [(Led(colour, Effect.BLINK, BLINK_MS // 2), {**role, "state": "over"})] * length
    share = left / timer.limit_s if timer.limit_s > 0 else 1.0
    lit = max(1, min(length, math.ceil(length * share)))
    if timer.paused:
        on = Led(colour, Effect.PULSE, PULSE_MS)
    elif left <= TIMER_LAST_S:
        on = Led(colour, Effect.BLINK, BLINK_MS)
    else:
        on = Led(colour)
    return [(on, {**role, "state": "left"})] * lit + [(OFF, {**role, "state": "gone"})] * (
        length - lit
    )


def _track(track: TrackFacts, length: int) -> list[tuple[Led, dict[str, Any]]]:
    timer = track.timer
    if timer is not None and timer.kind is not None and length > 0:
        seat = timer.seat
        return timer_bar(timer, PHASE_COLOUR if seat is None else seat_colour(track, seat), length)
    current_round = max(track.round, 1)
    rounds = track.rounds or current_round
    mark = track.mark_round
    leds = []
    for r in range(1, rounds + 1):
        if r == current_round:
            leds.append((Led(TRACK_COLOUR, Effect.PULSE, PULSE_MS), "current"))
        elif mark is not None and r == mark and current_round < mark:
            leds.append((Led(MARK_COLOUR, Effect.BLINK, PULSE_MS), "mark"))
        elif r < current_round:
            leds.append((Led(DONE_COLOUR), "past"))
        else:
            leds.append((OFF, "coming"))
    out = [(led, {"kind": "round", "round": r, "state": st}) for r, (led, st) in enumerate(leds, 1)]
    accent = track.accent
    shown = accent if accent in ACCENT_COLOURS else None
    lit = Led(ACCENT_COLOURS[accent]) if shown and accent else OFF
    out.append((lit, {"kind": "accent", "accent": shown}))
    names = list(track.phases)
    if track.phase in names and len(out) + len(names) <= length:
        now = names.index(track.phase)
        seat = track.acting
        colour = PHASE_COLOUR if seat is None else seat_colour(track, seat)
        for i, name in enumerate(names):
            state = "past" if i < now else "current" if i == now else "coming"
            led = Led(DONE_COLOUR) if i < now else Led(colour) if i == now else OFF
            role: dict[str, Any] = {"kind": "phase", "phase": name, "state": state}
            out.append((led, {**role, "seat": seat} if i == now else role))
    return out[:length]
