"""`tablesight run`: resume the last game (or start one) and serve the kiosk until Ctrl-C.

With no hardware attached it runs the embedded simulation: the emulated LED controller on a
pseudo-terminal, gpiozero's mock pins for the buttons, the synthetic camera.
"""

from __future__ import annotations

import argparse
import logging
import os
import socket
import sys
import warnings
from typing import Any

import uvicorn
from fastapi import FastAPI
from gpiozero.exc import GPIOZeroError

from engine.core import Advance, EngineError, NothingToUndoError
from firmware_bridge.connect import Leds, open_leds
from firmware_bridge.devices import LedController
from firmware_bridge.emulator import Emulator
from firmware_bridge.errors import BridgeError
from firmware_bridge.link import Link, LinkStatus
from firmware_bridge.state import Effect, Led
from hardware.errors import HardwareError
from hardware.panel import ControlPanel
from hardware.pins import choose_pin_factory
from kiosk.app import create_app
from kiosk.errors import CommandError
from kiosk.settings import Settings, apply_kiosk_changes
from kiosk.store import StoreError
from kiosk.table import Change, Table, open_table

log = logging.getLogger("tablesight.run")

DIE_COLOURS: dict[str, tuple[int, int, int]] = {
    "d6": (255, 255, 255),
    "monster": (255, 40, 40),
    "skill": (40, 120, 255),
    "weather": (80, 220, 255),
}
"""Tray colours of known dice; any other die gets a colour from ``PALETTE`` by its name."""
PALETTE = ((255, 160, 0), (160, 60, 255), (0, 220, 120), (255, 90, 180), (200, 200, 40))
TRACK_COLOUR = (0, 200, 255)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `run` verb."""
    parser = sub.add_parser("run", help="start the kiosk", description=__doc__)
    parser.add_argument("--host", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port (default 8000)")
    parser.add_argument("--game", help="game to start when there is no saved game")
    parser.add_argument("--save", help="name of the saved game to resume or create")
    parser.add_argument(
        "--lan",
        action="store_true",
        default=None,
        help="serve read-only pages to the network; control from a phone needs the pairing code",
    )
    parser.set_defaults(
        handler=run,
        setting_flags=lambda a: {
            "host": a.host,
            "port": a.port,
            "game": a.game,
            "save": a.save,
            "lan": a.lan,
        },
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Serve the kiosk until Ctrl-C; the saved game is closed cleanly on the way out."""
    host = settings.bind_host
    _check_port_free(host, settings.port)
    given = {"lang"} if getattr(args, "lang", None) else set()
    if any(k.startswith("TABLESIGHT_STABILISER__") for k in os.environ):
        given.add("stabiliser")
    problem = apply_kiosk_changes(settings, given)
    if problem:
        print(f"tablesight: {problem}", file=sys.stderr)
    try:
        table, store = open_table(settings)
    except (StoreError, EngineError) as exc:
        raise CommandError(str(exc)) from None
    for notice in table.notices:
        print(f"tablesight: {notice.in_(settings.lang)}", file=sys.stderr)
    app = create_app(settings, table, hardware=TableHardware(settings))
    where = "--lan: every address" if host == "0.0.0.0" else host
    print(
        f"tablesight: kiosk on http://{host}:{settings.port}/ ({where}; Ctrl-C to stop);"
        f" saves in {store.path}",
        file=sys.stderr,
        flush=True,
    )
    if host not in ("127.0.0.1", "::1", "localhost"):
        print(
            f"tablesight: pairing code for phones: {app.state.pairing.code}",
            file=sys.stderr,
            flush=True,
        )
    uvicorn.run(
        app, host=host, port=settings.port, log_level="warning", timeout_graceful_shutdown=2
    )
    print("tablesight: stopped; the game is saved", file=sys.stderr)
    return 0


class TableHardware:
    """The buttons, buzzer and status LED, and the LED controller, wired to the table.

    Opened and closed by the app's lifespan. A device that cannot start is reported on stderr
    and on the screen's link status; the kiosk runs without it.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.table: Table | None = None
        self.panel: ControlPanel | None = None
        self.bridge: Leds | None = None
        self.emulator: Emulator | None = None
        self.link: Link | None = None
        self.leds: LedController | None = None
        self._unlisten: list[Any] = []

    def open(self, app: FastAPI) -> None:
        """Open the panel and the controller; mirror the table on them."""
        self.table = table = app.state.table
        self._open_panel(table)
        self._open_controller(table)
        app.state.leds = self.bridge
        self._unlisten.append(table.listen(self._on_change))
        self._mirror(table)

    def _open_panel(self, table: Table) -> None:
        gpio = self.settings.gpio
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                factory = choose_pin_factory(gpio.pin_factory)
            for warning in caught:
                print(f"tablesight: {warning.message}", file=sys.stderr)
            panel = ControlPanel(
                advance_pin=gpio.advance_pin,
                undo_pin=gpio.undo_pin,
                menu_pin=gpio.menu_pin,
                buzzer_pin=gpio.buzzer_pin,
                led_pin=gpio.led_pin,
                long_press_s=gpio.long_press_s,
                pin_factory=factory,
            )
        except (HardwareError, GPIOZeroError, OSError, RuntimeError) as exc:
            print(f"tablesight: buttons not available: {exc}", file=sys.stderr)
            return
        panel.on_advance = self._advance
        panel.on_undo = self._undo
        panel.on_menu = lambda: table.toggle_menu()
        panel.on_error = lambda exc: log.error("button action failed: %s", exc)
        panel.heartbeat()
        self.panel = panel

    def _advance(self) -> None:
        """A short press: close the menu if it is open, else advance the game."""
        assert self.table is not None
        if self.table.menu_open:
            self.table.toggle_menu(False)
        else:
            self.table.submit(Advance())

    def _undo(self) -> None:
        assert self.table is not None
        try:
            self.table.undo()
        except NothingToUndoError:
            self._beep("rejected")

    def _open_controller(self, table: Table) -> None:
        """The controller at ``settings.controller``, else one found by its stable name, else
        the emulated one (firmware_bridge's ``open_leds``)."""
        try:
            self.bridge = open_leds(self.settings.controller)
        except (BridgeError, OSError) as exc:
            table.set_link("controller", "not_connected", str(exc))
            print(f"tablesight: LED controller not connected: {exc}", file=sys.stderr)
            return
        self.link, self.leds = self.bridge.link, self.bridge.controller
        self.emulator = self.bridge.emulator
        self.link.on_status(lambda status: self._link_status(status))
        self._link_status(self.link.status)
        self.leds.set_brightness(round(self.settings.brightness * 255 / 100))

    def _link_status(self, status: LinkStatus) -> None:
        if self.table is None or self.link is None:
            return
        if status is LinkStatus.CONNECTED:
            state = "simulated" if self.emulator is not None else "ok"
            detail = "emulated controller" if self.emulator is not None else self.link.url
        elif status is LinkStatus.CONNECTING:
            state, detail = "not_connected", f"connecting to {self.link.url}"
        else:
            state, detail = "lost", self.link.problem or str(status)
        self.table.set_link("controller", state, detail)

    def _on_change(self, change: Change) -> None:
        if change.kind == "link" and self.panel is not None and self.table is not None:
            if any(link.state == "lost" for link in self.table.links.values()):
                self.panel.error()
            else:
                self.panel.heartbeat()
        if change.kind in ("move", "undo", "new_game", "settings"):
            assert self.table is not None
            self._mirror(self.table)
        if change.kind == "rejected":
            self._beep("rejected")
        elif change.kind == "move":
            self._beep("phase" if change.phase_changed else "accepted")

    def _beep(self, pattern: str) -> None:
        if self.panel is not None and self.settings.sound:
            self.panel.play(pattern)

    def _mirror(self, table: Table) -> None:
        """Show the dice pool on the trays and the round on the track."""
        if self.leds is None:
            return
        status = table.status("en")
        dice = (status["dice"] or {}).get("dice", [])
        caps = self.leds.link.capabilities
        slots = caps.slots_per_tray if caps else 8
        trays = caps.trays if caps else 2
        lit = [Led(die_colour(d)) for d in dice]
        for index in range(trays):
            self.leds.tray(index).show(lit[index * slots : (index + 1) * slots])
        self.leds.track.mark(max(status["round"] - 1, 0), TRACK_COLOUR, effect=Effect.PULSE)
        self.leds.set_brightness(round(self.settings.brightness * 255 / 100))

    def close_controller(self) -> None:
        """Stop the LED controller's worker, its link and the emulator (idempotent)."""
        if self.bridge is not None:
            self.bridge.close()
        self.bridge = self.leds = self.link = self.emulator = None

    def close(self) -> None:
        """Close every device (idempotent)."""
        for unlisten in self._unlisten:
            unlisten()
        self._unlisten.clear()
        if self.panel is not None:
            self.panel.close()
            self.panel = None
        self.close_controller()


def die_colour(name: str) -> tuple[int, int, int]:
    """The tray colour of a die: a fixed one for known dice, else one from the palette."""
    if name in DIE_COLOURS:
        return DIE_COLOURS[name]
    return PALETTE[sum(name.encode()) % len(PALETTE)]


def _check_port_free(host: str, port: int) -> None:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise CommandError(
                f"cannot listen on {host}:{port} ({exc.strerror}); is tablesight already"
                " running? choose another port with --port"
            ) from None
