"""The table's own controls: the confirm/advance, undo and menu buttons, the buzzer and the
status LED, as one composite (gpiozero ``CompositeDevice`` style).

A short press of the confirm button advances; holding it for ``long_press_s`` opens the menu
instead. The panel owns its children: if building one fails, those built are closed; ``close``
cascades and may be called any number of times. Every device takes the injected
``pin_factory`` (tests pass gpiozero's ``MockFactory`` and drive the pins).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from gpiozero import LED, Button, Buzzer, Factory

from hardware.errors import PinConfigError

Pattern = tuple[tuple[float, float], ...]
"""A buzzer pattern: (seconds on, seconds off) pairs."""

PATTERNS: dict[str, Pattern] = {
    "accepted": ((0.06, 0.0),),
    "rejected": ((0.35, 0.12), (0.35, 0.0)),
    "phase": ((0.08, 0.08), (0.08, 0.08), (0.25, 0.0)),
    "timer": ((0.8, 0.0),),
}
"""What the buzzer plays: a move accepted, a move rejected, a new phase, a timer's zero."""

HEARTBEAT = (0.1, 1.9)
"""Status LED on/off seconds while all is well."""
ERROR_BLINK = (0.15, 0.15)
"""Status LED on/off seconds while something needs attention."""

Callback = Callable[[], None]


class ControlPanel:
    """Buttons, buzzer and status LED; set ``on_advance``, ``on_undo`` and ``on_menu``."""

    def __init__(
        self,
        *,
        advance_pin: int | None,
        undo_pin: int | None = None,
        menu_pin: int | None = None,
        buzzer_pin: int | None = None,
        led_pin: int | None = None,
        long_press_s: float = 1.0,
        pin_factory: Factory | None = None,
    ) -> None:
        pins = [p for p in (advance_pin, undo_pin, menu_pin, buzzer_pin, led_pin) if p is not None]
        if len(set(pins)) != len(pins):
            raise PinConfigError(f"a pin is used twice among the buttons, buzzer and LED: {pins}")
        self.on_advance: Callback | None = None
        self.on_undo: Callback | None = None
        self.on_menu: Callback | None = None
        self.on_error: Callable[[BaseException], None] | None = None
        self.advance: Button | None = None
        self.undo: Button | None = None
        self.menu: Button | None = None
        self.buzzer: Buzzer | None = None
        self.led: LED | None = None
        self._closed = False
        self.led_mode = "off"
        """What the status LED shows: ``off``, ``heartbeat`` or ``error``."""
        self._held = False
        self._tune_stop = threading.Event()
        self._tune: threading.Thread | None = None
        self._lock = threading.Lock()
        made: dict[str, Any] = {"pin_factory": pin_factory}
        try:
            if advance_pin is not None:
                self.advance = Button(advance_pin, hold_time=long_press_s, **made)
                self.advance.when_held = self._advance_held
                self.advance.when_released = self._advance_released
            if undo_pin is not None:
                self.undo = Button(undo_pin, **made)
                self.undo.when_pressed = lambda: self._call(self.on_undo)
            if menu_pin is not None:
                self.menu = Button(menu_pin, **made)
                self.menu.when_pressed = lambda: self._call(self.on_menu)
            if buzzer_pin is not None:
                self.buzzer = Buzzer(buzzer_pin, **made)
            if led_pin is not None:
                self.led = LED(led_pin, **made)
        except BaseException:
            self.close()
            raise

    @property
    def children(self) -> list[Any]:
        """The devices the panel built, in order."""
        return [d for d in (self.advance, self.undo, self.menu, self.buzzer, self.led) if d]

    @property
    def closed(self) -> bool:
        """Whether ``close`` has been called."""
        return self._closed

    # --- buttons ---------------------------------------------------------------------------

    def _advance_held(self) -> None:
        self._held = True
        self._call(self.on_menu)

    def _advance_released(self) -> None:
        if self._held:
            self._held = False
            return
        self._call(self.on_advance)

    def _call(self, callback: Callback | None) -> None:
        if callback is None or self._closed:
            return
        try:
            callback()
        except Exception as exc:  # a button must never kill gpiozero's event thread
            if self.on_error is not None:
                self.on_error(exc)

    # --- buzzer and LED --------------------------------------------------------------------

    def play(self, name: str, *, wait: bool = False) -> None:
        """Play a buzzer pattern (``accepted``, ``rejected``, ``phase``, ``timer``); a new one
        cuts the old."""
        pattern = PATTERNS[name]
        if self.buzzer is None or self._closed:
            return
        with self._lock:
            self._stop_tune()
            self._tune_stop = threading.Event()
            self._tune = threading.Thread(
                target=self._play, args=(pattern, self._tune_stop), name="buzzer", daemon=True
            )
            self._tune.start()
            tune = self._tune
        if wait:
            tune.join()

    def _play(self, pattern: Pattern, stop: threading.Event) -> None:
        buzzer = self.buzzer
        if buzzer is None:
            return
        for on_s, off_s in pattern:
            if stop.is_set():
                break
            buzzer.on()
            stop.wait(on_s)
            buzzer.off()
            if off_s and stop.wait(off_s):
                break

    def _stop_tune(self) -> None:
        self._tune_stop.set()
        if self._tune is not None and self._tune is not threading.current_thread():
            self._tune.join()

    def heartbeat(self) -> None:
        """Status LED: a short blink every two seconds (all is well)."""
        self._blink("heartbeat", HEARTBEAT)

    def error(self) -> None:
        """Status LED: fast blinking (something needs attention)."""
        self._blink("error", ERROR_BLINK)

    def _blink(self, mode: str, timing: tuple[float, float]) -> None:
        with self._lock:  # called from several threads; gpiozero's blink is not thread-safe
            if self.led is None or self._closed or self.led_mode == mode:
                return
            self.led_mode = mode
            self.led.blink(*timing)

    # --- life ------------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the buzzer and LED and release every pin (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._stop_tune()
        for device in reversed(self.children):
            if isinstance(device, LED | Buzzer) and not device.closed:
                device.off()  # leave the pin low: a closed device does not switch it off
            device.close()

    def __enter__(self) -> ControlPanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
