"""The tray view's data: the LED state the controller is kept showing, its link, and what each
tray and each track LED stands for (the legend from the table's facts through ``kiosk.leds``,
the words from the presenter's snapshot)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from engine.core.text import Language
from firmware_bridge.errors import BridgeError
from firmware_bridge.state import Led
from kiosk.deps import SettingsDep, TableDep
from kiosk.leds import track_facts, track_legend
from kiosk.presenter import Snapshot, thaw

router = APIRouter(prefix="/api", tags=["tray"])


@router.get("/tray")
def tray(
    request: Request, table: TableDep, settings: SettingsDep, lang: Language | None = None
) -> dict[str, Any]:
    """The trays and the round track as the controller is kept showing them (firmware_bridge's
    ``Leds.view()``: ``status``, ``trays``, ``track``…), with the link as the screen shows it;
    ``connected`` is False when there is no controller at all. With the emulated controller,
    ``device`` is what the emulated device itself last received over its serial port.

    For the labels, in ``lang`` (default: the kiosk's language): ``dice`` (who rolls, the
    sentence saying what and why, and each die of the pool with the console's name for it when
    the table is asked for those dice), ``legend`` (``kiosk.leds.track_legend``, one entry per
    track LED) and the status's ``seats``, ``phases``, ``round`` and ``rounds``. With no game
    yet, ``next`` says where to set one up (else it is empty) and there is no legend."""
    snapshot = table.presenter.snapshot(lang or settings.lang)
    link = table.link("controller").to_json()
    leds = getattr(request.app.state, "leds", None)
    labels = {
        "dice": dice_labels(snapshot),
        "seats": thaw(snapshot.seats),
        "phases": thaw(snapshot.phases),
        "round": snapshot.round,
        "rounds": snapshot.rounds,
        "next": "" if table.has_game else snapshot.next,
    }
    if leds is None:
        return {"connected": False, "link": link, "trays": [], "track": [], **labels}
    answer = {"connected": True, "link": link, **leds.view(), **labels}
    if table.has_game:  # no game yet: the LEDs stand for nothing
        timer = table.presenter.timer()  # the track is the timer's bar while one runs
        answer["legend"] = track_legend(track_facts(table.facts(), timer), len(answer["track"]))
    if leds.emulator is not None:
        try:
            state = leds.emulator.state
            answer["device"] = {
                "trays": [[_led(led) for led in tray] for tray in state.trays],
                "track": [_led(led) for led in state.track],
                "brightness": state.brightness,
            }
        except BridgeError:
            answer["device"] = None  # not booted yet
    return answer


def dice_labels(snapshot: Snapshot) -> dict[str, Any] | None:
    """The dice pool for the trays: ``seat`` (from 0, None for the whole table), ``text`` and
    ``dice``: ``{"name", "label"}`` per die in pool order, ``label`` being the console's name for
    it (its dice field for this pool: the same dice, else as many) or None."""
    pool = snapshot.dice
    if pool is None or not pool.dice:
        return None
    names = list(pool.dice)
    fields = [
        (offer.get("seat"), field)
        for group in snapshot.console.groups
        for offer in group.offers
        for field in offer.get("fields") or ()
        if field.get("kind") == "dice" and len(field.get("dice") or ()) == len(names)
    ]
    fields.sort(  # the roller's own field, with the pool's dice by name, first
        key=lambda sf: (sf[0] != pool.seat, [d["name"] for d in sf[1]["dice"]] != names)
    )
    labels = [d["label"] for d in fields[0][1]["dice"]] if fields else [None] * len(names)
    return {
        "seat": pool.seat,
        "text": pool.text,
        "dice": [{"name": n, "label": label} for n, label in zip(names, labels, strict=True)],
    }


def _led(led: Led) -> dict[str, Any]:
    return {
        "colour": "#{:02x}{:02x}{:02x}".format(*led.colour),
        "effect": led.effect.name.lower(),
        "period_ms": led.period_ms,
    }
