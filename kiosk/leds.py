"""What the LED dice trays and the round-track strip show for the table's status (pure mapping).

The round track, from LED 0: one LED per round (past rounds dim, the current one pulsing), one
LED for the game's accent (day or night, when its ``view`` gives ``{"track": {"accent": ...}}``),
then one LED per phase of the round (past phases dim, the current one lit in the active player's
colour, the one chosen at set-up (``status["seats"][i]["colour"]``, a key of
``kiosk.seats.COLOURS``) or else ``SEAT_COLOURS``; white when nobody in particular acts). A
coming round the game marks (``{"track": {"mark_round": n}}``, the storm in Don't Starve) blinks
in the mark colour. What does not fit the strip is left out, phases first. Open-ended games
(``rounds`` None) show the rounds played so far. ``track_legend`` says what each LED stands for,
from the same layout.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from firmware_bridge.state import Effect, Led
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


def die_colour(name: str) -> Colour:
    """The tray colour of a die: a fixed one for known dice, else one from the palette."""
    if name in DIE_COLOURS:
        return DIE_COLOURS[name]
    return PALETTE[sum(name.encode()) % len(PALETTE)]


def tray_leds(dice: Sequence[str], trays: int, slots: int) -> list[list[Led]]:
    """The dice pool spread over the trays, one slot per die, in order."""
    lit = [Led(die_colour(d)) for d in dice]
    return [lit[i * slots : (i + 1) * slots] for i in range(trays)]


def track_leds(status: Mapping[str, Any], length: int) -> list[Led]:
    """The round track for a table status (``Table.status``) on a strip of ``length`` LEDs."""
    return [led for led, _ in _track(status, length)]


def track_legend(status: Mapping[str, Any], length: int) -> list[dict[str, Any]]:
    """What each LED of ``track_leds`` stands for, in the same order: ``{"kind": "round",
    "round": n, "state": "past" | "current" | "coming" | "mark"}``, ``{"kind": "accent",
    "accent": "day" | "night" | None}``, ``{"kind": "phase", "phase": name, "state": "past" |
    "current" | "coming", "seat": the active seat from 0 or None}``; the LEDs after them are
    ``{"kind": "unused"}``."""
    roles = [role for _, role in _track(status, length)]
    return roles + [{"kind": "unused"}] * (length - len(roles))


def seat_colour(status: Mapping[str, Any], seat: int) -> Colour:
    """The LED colour of a seat (from 0): the colour chosen at set-up, else ``SEAT_COLOURS``."""
    seats = status.get("seats") or ()
    chosen = seats[seat].get("colour") if seat < len(seats) else None
    if chosen in COLOURS:
        return COLOURS[chosen].led
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _track(status: Mapping[str, Any], length: int) -> list[tuple[Led, dict[str, Any]]]:
    current_round = max(int(status["round"]), 1)
    rounds = int(status.get("rounds") or current_round)
    track = (status.get("view") or {}).get("track") or {}
    mark = track.get("mark_round")
    leds = []
    for r in range(1, rounds + 1):
        if r == current_round:
            leds.append((Led(TRACK_COLOUR, Effect.PULSE, PULSE_MS), "current"))
        elif isinstance(mark, int) and r == mark and current_round < mark:
            leds.append((Led(MARK_COLOUR, Effect.BLINK, PULSE_MS), "mark"))
        elif r < current_round:
            leds.append((Led(DONE_COLOUR), "past"))
        else:
            leds.append((OFF, "coming"))
    out = [(led, {"kind": "round", "round": r, "state": st}) for r, (led, st) in enumerate(leds, 1)]
    accent = track.get("accent")
    shown = accent if accent in ACCENT_COLOURS else None
    out.append((Led(ACCENT_COLOURS[accent]) if shown else OFF, {"kind": "accent", "accent": shown}))
    names = [p["name"] for p in status.get("phases") or ()]
    phase = (status.get("phase") or {}).get("name")
    if phase in names and len(out) + len(names) <= length:
        now = names.index(phase)
        player = status.get("current_player")
        seat = player - 1 if player else None
        colour = PHASE_COLOUR if seat is None else seat_colour(status, seat)
        for i, name in enumerate(names):
            state = "past" if i < now else "current" if i == now else "coming"
            led = Led(DONE_COLOUR) if i < now else Led(colour) if i == now else OFF
            role = {"kind": "phase", "phase": name, "state": state}
            out.append((led, {**role, "seat": seat} if i == now else role))
    return out[:length]
