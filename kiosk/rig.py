"""The rig at the table, wired to the game: `tablesight run`'s serving of the kiosk and
``TableHardware`` (buttons, buzzer, status LED, LED controller, camera or simulated session).

With no hardware attached it runs the embedded simulation: the emulated LED controller on a
pseudo-terminal, gpiozero's mock pins for the buttons, the synthetic camera. Kept apart from
``kiosk.commands.run`` so that building the command line imports none of this.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import os
import signal
import socket
import sys
import warnings
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from gpiozero.exc import GPIOZeroError

from engine.core import EngineError, NothingToUndoError, Text, find_game
from firmware_bridge.connect import Leds, open_leds
from firmware_bridge.devices import LedController
from firmware_bridge.emulator import Emulator
from firmware_bridge.errors import BridgeError
from firmware_bridge.link import Link, LinkStatus
from hardware.errors import HardwareError
from hardware.panel import ControlPanel
from hardware.pins import MockPinsWarning, choose_pin_factory, on_raspberry_pi
from kiosk.app import create_app
from kiosk.errors import CommandError
from kiosk.leds import track_facts, track_leds, tray_leds
from kiosk.loop import TableLoop, load_calibration, wait_until
from kiosk.settings import Settings, apply_kiosk_changes
from kiosk.simulation import (
    PROGRESS_FILE,
    Actions,
    Simulation,
    SimulationError,
    load_script,
    resume_step,
    script_duration_s,
    script_path,
)
from kiosk.speech import Speech, open_speech
from kiosk.stop_signals import serve as serve_app
from kiosk.store import StoreError
from kiosk.table import Change, Table, open_table
from kiosk.timers import MonotonicClock, TableTimers
from vision.errors import VisionError
from vision.registry import load_registry
from vision.sources import CameraLoadError, open_source

log = logging.getLogger("tablesight.run")

PRESS_WAIT_S = 2.0
"""How long a simulated button press waits for gpiozero's thread to act on it."""


def serve(args: argparse.Namespace, settings: Settings) -> int:
    """Serve the kiosk until Ctrl-C; the saved game is closed cleanly on the way out."""
    host = settings.bind_host
    if host in WILDCARDS and not settings.lan:
        raise CommandError(
            f"--host {settings.host!r} would open the kiosk to every address; add --lan to do"
            " that on purpose (phones then need the pairing code), or give one address"
        )
    _check_port_free(host, settings.port)
    given = {"lang"} if getattr(args, "lang", None) else set()
    if any(k.startswith("TABLESIGHT_STABILISER__") for k in os.environ):
        given.add("stabiliser")
    problem = apply_kiosk_changes(settings, given)
    try:
        table, store = open_table(settings, wait=True)  # no game nobody asked for
    except (StoreError, EngineError) as exc:
        raise CommandError(str(exc)) from None
    if problem is not None:  # lost settings: on the screen and in the start-up lines (#40)
        table.warnings.append(problem)
        table.notices.insert(0, problem)
    app = create_app(settings, table, hardware=TableHardware(settings))
    publisher = _publisher(settings, table)
    url = f"http://{host}:{settings.port}/"
    lang = settings.lang
    if host == "0.0.0.0":
        say(KIOSK_LAN.format(url=url, path=store.path).in_(lang))
    else:
        say(KIOSK_ON.format(url=url, path=store.path).in_(lang))
    if host not in ("127.0.0.1", "::1", "localhost"):
        say(PAIRING.format(code=app.state.pairing.code).in_(lang))
    # Ctrl-C stops the kiosk cleanly whatever the parent left SIGINT as (kiosk.stop_signals
    # hands it to this handler, or to uvicorn's while it serves).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    # The door's connection cap, request timeout and keep-alive (kiosk.guard).
    options: dict[str, Any] = {"log_level": "warning", "timeout_graceful_shutdown": 2}
    options.update(app.state.door.uvicorn_options())
    try:  # a stop ends the pages' open streams first (kiosk.stop_signals.serve)
        serve_app(app, host=host, port=settings.port, **options)
    finally:
        if publisher is not None:
            publisher.stop()
    stopped = STOPPED if store.cannot_keep is None else STOPPED_UNSAVED
    if not table.has_game:
        stopped = STOPPED_NO_GAME
    say(stopped.in_(settings.lang))
    return 0


def _publisher(settings: Settings, table: Table) -> Any:
    """The café's MQTT publisher of this table (``cafe``), started; None without
    ``mqtt.url``. It never waits for the broker: events wait in its outbox."""
    if not settings.mqtt.url:
        return None
    from kiosk.mqtt.publisher import Publisher, screen_link

    link = screen_link(settings)
    publisher = Publisher(table, settings.mqtt, settings.data_dir, link=link, lang=settings.lang)
    publisher.start()
    say(
        MQTT_ON.format(
            url=str(publisher.address), table=publisher.name, waiting=publisher.waiting()
        ).in_(settings.lang)
    )
    return publisher


WILDCARDS = ("", "0.0.0.0", "::", "*")
"""Addresses that mean every address of the machine."""


def say(line: str) -> None:
    """One line of the start-up report (and of what happens after) on stderr, written whole,
    so that lines from the session's thread never run into each other."""
    sys.stderr.write(f"tablesight: {line}\n")
    sys.stderr.flush()


KIOSK_ON = Text(
    "看板在 {url}(按 Ctrl-C 停止);存档在 {path}",
    "kiosk on {url} (Ctrl-C to stop); saves in {path}",
)
KIOSK_LAN = Text(
    "看板在 {url},局域网内的设备都能打开(按 Ctrl-C 停止);存档在 {path}",
    "kiosk on {url}, open to every device on the network (Ctrl-C to stop); saves in {path}",
)
PAIRING = Text("手机配对码:{code}", "pairing code for phones: {code}")
MQTT_ON = Text(
    "向 MQTT 服务器 {url} 报告本桌,桌名“{table}”(待发事件 {waiting} 条)",
    "reporting this table to the MQTT broker {url} as {table!r} ({waiting} events waiting)",
)
STOPPED = Text("已停止;游戏已保存", "stopped; the game is saved")
STOPPED_NO_GAME = Text(
    "已停止(还没有开局,没有要保存的)", "stopped (no game was set up, so none to keep)"
)
STOPPED_UNSAVED = Text(
    "已停止;存档只读,这次什么都没有保存", "stopped; the saves were read-only, nothing was kept"
)
NO_CAMERA = Text(
    "没有找到摄像头(没有树莓派摄像头,也没有 /dev/video0):改由合成桌面演示脚本",
    "no camera found (no Pi camera, no /dev/video0): the synthetic table plays the scripted"
    " session instead",
)
CAMERA_NOT_LOADED = Text(
    "树莓派摄像头无法加载:{reason};见 docs/pi-setup.md 的“摄像头无法加载”一节;"
    "看板照常运行,但不读取桌面",
    "the Pi camera could not be loaded: {reason}; see docs/pi-setup.md, “The camera does not"
    " load”; the kiosk runs without reading the table",
)
CAMERA_UNAVAILABLE = Text(
    "摄像头不可用:{reason};看板照常运行,但不读取桌面",
    "camera not available: {reason}; the kiosk runs without reading the table",
)
FIRST_FRAME = Text("摄像头:第一帧 {size}", "camera: first frame {size}")
SIM_RESUMED = Text(
    "继续《{title}》的脚本演示,从第{step}/{of}步接着演示",
    "resuming the scripted session saved as {name!r} at step {step} of {of}",
)
SIM_NEW = Text(
    "《{title}》脚本演示新开一局", "the scripted session starts a new game saved as {name!r}"
)
LINK_STATES = {
    LinkStatus.CONNECTING: Text("正在连接", "connecting"),
    LinkStatus.CONNECTED: Text("已连接", "connected"),
    LinkStatus.RECONNECTING: Text("正在重新连接", "reconnecting"),
    LinkStatus.INCOMPATIBLE: Text("固件版本不兼容", "incompatible firmware"),
    LinkStatus.CLOSED: Text("已关闭", "closed"),
}
"""The controller link's states as the start-up report says them."""
SIM_NEW_KEPT = Text(
    "《{title}》脚本演示新开一局(上一局的存档原样保留)",
    "the scripted session starts a new game saved as {name!r} (the save {before!r} is kept as it"
    " was)",
)


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
        self.loop: TableLoop | None = None
        self.camera = settings.camera
        self._frame_seen = False
        self.simulation: Simulation | None = None
        self.camera_problem: Text | None = None
        """Why the configured camera could not be opened (the report's camera line)."""
        self.timers: TableTimers | None = None
        self._track_shown: list[Any] | None = None
        self.speech: Speech | None = None

    def open(self, app: FastAPI) -> None:
        """Open the panel, the controller and the camera; mirror the table on them; start the
        table loop (or the simulated session); print what was found."""
        self.table = table = app.state.table
        self.save_line: Text | None = None
        self._start_notices = list(table.notices)
        self._open_panel(table)
        self._open_controller(table)
        app.state.leds = self.bridge
        self.timers = TableTimers(table, MonotonicClock(), on_zero=lambda: self._beep("timer"))
        self.timers.start()
        app.state.timers = self.timers
        self._unlisten.append(table.listen(self._on_change))
        self._mirror(table)
        self._open_camera(table, app.state.camera)
        self._open_speech(table)
        for line in self.report():
            say(line)
        if self.loop is not None:
            self.loop.start()  # after the report: the session's narration follows it

    def _open_camera(self, table: Table, feed: Any) -> None:
        """The table loop on the configured camera, or the simulated session on the
        synthetic table (the default when no camera is configured)."""
        camera = self.settings.camera
        if (
            camera.source == "synthetic"
            and "source" not in camera.model_fields_set
            and self.settings.simulation is not True
        ):
            found = find_camera()
            if found is None:
                if self.settings.simulation is None:  # --no-simulation: the report says "none"
                    say(NO_CAMERA.in_(self.settings.lang))
            else:  # the report's camera line names it
                camera = camera.model_copy(update={"source": found})
        self.camera = camera
        synthetic = camera.source == "synthetic"
        play = self.settings.simulation if self.settings.simulation is not None else synthetic
        if synthetic and not play:
            feed.no_camera()  # "camera: none": no page opens the synthetic table on its own
            return
        registry = load_registry()
        if play:
            if not synthetic:
                print(
                    "tablesight: --simulation: the synthetic table replaces the camera"
                    f" {camera.source}",
                    file=sys.stderr,
                )
            try:
                source: Any = self._simulation(table, registry)
            except SimulationError as exc:
                print(f"tablesight: simulation not started: {exc}", file=sys.stderr)
                return
            calibration = None
        else:
            try:
                source = open_source(camera.source_config())
            except VisionError as exc:  # the report's camera line says why; the kiosk runs on
                table.set_link("camera", "lost", str(exc))
                self.camera_problem = (
                    CAMERA_NOT_LOADED.format(reason=exc.reason)
                    if isinstance(exc, CameraLoadError)
                    else CAMERA_UNAVAILABLE.format(reason=str(exc))
                )
                return
            calibration = load_calibration(self.settings.calibration_file)
        feed.fed = True  # the loop reads the camera: the camera page never opens it twice
        self.loop = TableLoop(
            table,
            source,
            calibration=calibration,
            registry=registry,
            detector=self.settings.detector,
            stabiliser=self.settings.stabiliser,
            simulated=play,
            on_frame=lambda frame, found: self._frame(feed, frame, found),
        )

    def _open_speech(self, table: Table) -> None:
        """Spoken announcements (``kiosk.speech``): the table's changes are told to them, and
        where the game is now is said first."""
        self.speech = open_speech(
            self.settings,
            table.presenter.snapshot,
            simulated=self.simulation is not None,
            on_pi=on_raspberry_pi(),
        )
        announcer = self.speech.announcer
        if announcer is not None:
            self._unlisten.append(table.listen(announcer.tell))
            announcer.tell(Change(table.seq, "start"))

    def _frame(self, feed: Any, frame: Any, found: list[Any]) -> None:
        """Every frame goes to the camera page; the first one is reported."""
        if not self._frame_seen:
            self._frame_seen = True
            height, width = frame.image.shape[:2]
            say(FIRST_FRAME.format(size=f"{width}×{height}").in_(self.settings.lang))
        feed.publish(frame.image, found)

    def _simulation(self, table: Table, registry: Any) -> Simulation:
        """The scripted session of the game: resumed where it stopped, else started anew."""
        path = script_path(self.settings.game)
        if not path.is_file():
            raise SimulationError(
                f"there is no scripted session of {self.settings.game!r}"
                f" (scripts: {', '.join(sorted(p.stem for p in path.parent.glob('*.toml')))})"
            )
        script = load_script(path, registry)
        game = find_game(script.game)  # the Chinese lines name it by its title, not its id
        progress = self.settings.data_dir / PROGRESS_FILE
        saved = table.saved if table.has_game else None  # none yet: the session starts it
        start = 0
        resumable = (
            saved is not None
            and saved.name.startswith(script.save_name)
            and saved.session.state.outcome is None
            and _progress_save(progress) == saved.name
        )
        if saved is not None and resumable:
            start = resume_step(progress, script, len(saved.session.moves))
            self.save_line = SIM_RESUMED.format(
                name=saved.name, step=start + 1, of=len(script.steps), title=game.title
            )
        else:
            before, kept = (saved.name, bool(saved.session.moves)) if saved else ("", False)
            self._new_simulated_game(table, script)
            template = SIM_NEW_KEPT if kept else SIM_NEW
            self.save_line = template.format(name=table.saved.name, before=before, title=game.title)
        actions = Actions(
            tap=table.submit,
            offered=table.is_offered,
            press=self._press,
            say=lambda text: self._narrate(table, text),
            describe=lambda move: tap_text(table, move),
            moves=lambda: len(table.saved.session.moves),
            restart=(lambda: self._new_simulated_game(table, script))
            if self.settings.repeat
            else None,
        )
        self.simulation = Simulation(
            script, actions, self.settings.speed, start, registry, progress
        )
        self.simulation.save = table.saved.name
        return self.simulation

    def _narrate(self, table: Table, text: Text) -> None:
        """A line of the scripted session: on stderr in the kiosk's language and in the log."""
        say(text.in_(self.settings.lang))
        table.narrate(text)

    def _new_simulated_game(self, table: Table, script: Any) -> None:
        name = f"{script.save_name}-{datetime.now(UTC):%Y%m%d-%H%M%S-%f}"
        # The simulation's cards come from the engine's seeded decks: no table draws them.
        setup = {**(script.setup or {}), "draws": "virtual"}
        table.new_game(script.game, setup, name, script.seed)
        if script.timer is not None and self.timers is not None:
            self.timers.choose(script.timer)
        if self.simulation is not None:
            self.simulation.save = name

    def _press(self, button: str) -> None:
        """Press a button: on the mock pins when the panel has them, else call its action."""
        device = getattr(self.panel, button, None) if self.panel is not None else None
        pin = getattr(device, "pin", None)
        if pin is not None and hasattr(pin, "drive_low") and self.table is not None:
            seq = self.table.seq
            pin.drive_low()
            pin.drive_high()
            # gpiozero calls the button's action from its own thread: let it land first.
            wait_until(lambda: self.table is None or self.table.seq != seq, PRESS_WAIT_S)
            return
        {"advance": self._advance, "undo": self._undo}.get(button, lambda: None)()

    def report(self) -> list[str]:
        """What was found at start, in the kiosk's language: the save played (after the
        simulation's choice), the camera, the LED controller, the buttons, speech."""
        lines = [
            t.in_(self.settings.lang)
            for t in ([self.save_line] if self.save_line is not None else self._start_notices)
        ]
        for text in (self._camera_line(), self._controller_line(), self._gpio_line()):
            lines.append(text.in_(self.settings.lang))
        if self.speech is not None:
            lines.append(self.speech.line.in_(self.settings.lang))
        return lines

    def _camera_line(self) -> Text:
        camera = self.camera
        if self.camera_problem is not None:
            return self.camera_problem
        if self.simulation is not None:
            c = self.simulation.camera
            sim = self.simulation
            title = find_game(sim.script.game).title  # the game's name, never its id
            minutes = script_duration_s(sim.script, self.settings.speed) / 60
            return Text(
                f"摄像头:合成桌面(模拟),{c.width}×{c.height},每秒{sim.script.fps:g}帧;"
                f"《{title.zh}》脚本演示,共{len(sim.script.steps)}步,速度{self.settings.speed:g}"
                + (f",约{minutes:.0f}分钟" if minutes >= 1 else ""),
                f"camera: synthetic table (simulation), {c.width}×{c.height},"
                f" {sim.script.fps:g} fps; scripted session of {title.en},"
                f" {len(sim.script.steps)} steps, speed {self.settings.speed:g}"
                + (f", about {minutes:.0f} min" if minutes >= 1 else ""),
            )
        if self.loop is not None:
            size = f"{camera.width}×{camera.height}" if camera.width else None
            fps = f"{camera.fps:g}" if camera.fps else None
            return Text(
                f"摄像头:{camera.source},{size or '按摄像头自己的分辨率'},"
                + (f"每秒{fps}帧" if fps else "按摄像头自己的帧率"),
                f"camera: {camera.source}, {size or 'its own resolution'}, "
                + (f"{fps} fps" if fps else "its own frame rate"),
            )
        return Text(
            "摄像头:无(看板运行,但不读取桌面)",
            "camera: none (the kiosk runs without reading the table)",
        )

    def _controller_line(self) -> Text:
        if self.bridge is None:
            return Text("灯光控制器:无", "LED controller: none")
        caps = self.bridge.link.capabilities
        emulated = self.emulator is not None
        what = Text("模拟(没有找到Pico)", "emulated (no Pico found)") if emulated else None
        url = self.link.url if self.link is not None else ""
        name = what or Text(url, url)
        if caps is None:
            link = self.bridge.link
            problem = f" ({link.problem})" if link.problem else ""
            state = LINK_STATES.get(link.status, Text(link.status.value, link.status.value))
            return Text(
                f"灯光控制器:{name.zh}:{state.zh}{problem};正在重试,连上后看板会显示",
                f"LED controller: {name.en}: {state.en}{problem}; retrying, the kiosk"
                " shows when it connects",
            )
        firmware = ".".join(map(str, caps.firmware))
        return Text(
            f"灯光控制器:{name.zh},固件{firmware},{caps.trays}个骰盘×{caps.slots_per_tray}格,"
            f"轮次灯带{caps.track_leds}颗灯",
            f"LED controller: {name.en}, firmware {firmware}, {caps.trays} trays ×"
            f" {caps.slots_per_tray} slots, {caps.track_leds} round-track LEDs",
        )

    def _gpio_line(self) -> Text:
        if self.panel is None:
            return Text(
                "按钮:无(没有按钮、蜂鸣器或状态灯)", "GPIO: none (no buttons, buzzer or status LED)"
            )
        factory = type(self.panel.advance.pin_factory).__name__ if self.panel.advance else "-"
        if "Mock" in factory:
            return Text(
                f"按钮:{factory}(模拟引脚:没有找到树莓派)",
                f"GPIO: {factory} (mock pins: no Pi found)",
            )
        return Text(f"按钮:{factory}", f"GPIO: {factory}")

    def _open_panel(self, table: Table) -> None:
        gpio = self.settings.gpio
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                factory = choose_pin_factory(gpio.pin_factory)
            for warning in caught:
                if not isinstance(warning.message, MockPinsWarning):  # the report says it
                    say(str(warning.message))
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
        """A short press: close the menu if it is open, else confirm as the screen's button
        does (``Table.confirm``): when confirm is not open nothing is made, the screen says
        why and the buzzer gives the refusal's two long beeps."""
        assert self.table is not None
        if self.table.menu_open:
            self.table.toggle_menu(False)
        elif self.table.confirm() is None:
            self._beep("rejected")

    def _undo(self) -> None:
        """Undo as the screen's button does (``Table.take_back``: a move that began a phase
        only at a second press while the screen asks for it); while the menu is open and the
        game has a timer, pause or resume the timers instead."""
        assert self.table is not None
        if self.table.menu_open and self.timers is not None and self.timers.facts() is not None:
            self.timers.pause()
            return
        try:
            self.table.take_back()
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
        if change.kind in ("move", "undo", "new_game", "settings", "timer"):
            assert self.table is not None
            self._mirror(self.table, ticked=change.kind == "timer")
        if change.kind == "rejected":
            self._beep("rejected")
        elif change.kind == "move":
            self._beep("phase" if change.phase_changed else "accepted")

    def _beep(self, pattern: str) -> None:
        if self.panel is not None and self.settings.sound:
            self.panel.play(pattern)

    def _mirror(self, table: Table, ticked: bool = False) -> None:
        """Show the dice pool on the trays and the round on the track (from the table's facts,
        never from the screen's words), or the timer's bar; a tick of the timers (``ticked``)
        that moves no LED sends nothing."""
        if self.leds is None or not table.has_game:  # no game yet: the LEDs stay dark
            return
        track = track_facts(table.facts(), self.timers.facts() if self.timers else None)
        caps = self.leds.link.capabilities
        slots, trays = (caps.slots_per_tray, caps.trays) if caps else (8, 2)
        strip = track_leds(track, caps.track_leds if caps else 24)
        if ticked and strip == self._track_shown:
            return
        self._track_shown = strip
        for index, leds in enumerate(tray_leds(track.dice, trays, slots)):
            self.leds.tray(index).show(leds)
        self.leds.track.show(strip)
        self.leds.set_brightness(round(self.settings.brightness * 255 / 100))

    def close_controller(self) -> None:
        """Stop the LED controller's worker, its link and the emulator (idempotent)."""
        if self.bridge is not None:
            self.bridge.close()
        self.bridge = self.leds = self.link = self.emulator = None

    def close(self) -> None:
        """Close every device (idempotent)."""
        if self.loop is not None:
            self.loop.stop()
            self.loop = None
        for unlisten in self._unlisten:
            unlisten()
        self._unlisten.clear()
        if self.timers is not None:
            self.timers.close()
        if self.speech is not None:
            self.speech.close()
            self.speech = None
        if self.panel is not None:
            self.panel.close()
            self.panel = None
        self.close_controller()


def tap_text(table: Table, move: Any) -> Text | None:
    """A scripted tap as the narration says it: who taps which button of the console, with the
    choices made (None when the console does not offer the move)."""
    from engine.core.offers import match, offers

    session = table.saved.session
    found = match(offers(session.game, session.state), move)
    if found is None:
        return None
    offer, option = found
    chosen = [
        next((c.label for c in f.choices if c.value == value), None)
        for f, value in zip(offer.picks, option.values, strict=False)
    ]
    words = [offer.label, *(c for c in chosen if c is not None)]
    button = Text("、".join(w.zh for w in words[1:]), ", ".join(w.en for w in words[1:]))
    what = (
        offer.label
        if len(words) == 1
        else Text(f"{offer.label.zh}:{button.zh}", f"{offer.label.en}: {button.en}")
    )
    if move.seat is None:
        return Text("在控制台上点按“{b}”", "“{b}” is tapped on the console").format(b=what)
    zh, en = (table.presenter.snapshot(lang).seats for lang in ("zh", "en"))
    if move.seat >= min(len(zh), len(en)):
        return None
    return Text("{who}在控制台上点按“{b}”", "{who} taps “{b}” on the console").format(
        who=Text(zh[move.seat].name, en[move.seat].name), b=what
    )


def find_camera(dev: Path = Path("/dev")) -> str | None:
    """A camera on this machine: the Pi camera when picamera2 is installed on a Pi, else the
    first V4L2 device (``/dev/video0``); None when there is none."""
    if importlib.util.find_spec("picamera2") is not None and on_raspberry_pi():
        return "picamera2"
    if (dev / "video0").exists():
        return f"camera:{dev / 'video0'}"
    return None


def _progress_save(progress: Path) -> str | None:
    try:
        return str(json.loads(progress.read_text(encoding="utf-8")).get("save"))
    except (OSError, ValueError, AttributeError):
        return None


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
