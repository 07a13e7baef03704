"""The control panel on gpiozero's mock pins: presses, long presses, buzzer patterns, LED."""

from __future__ import annotations

import threading
import time
import warnings
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.errors import PinConfigError
from hardware.panel import ControlPanel
from hardware.pins import MockPinsWarning, choose_pin_factory

WAIT_S = 5.0  # how long to wait for gpiozero's threads (a bound on a wait, not a timing check)
PINS = {"advance_pin": 17, "undo_pin": 27, "menu_pin": 22, "buzzer_pin": 23, "led_pin": 24}


def wait_until(condition, timeout: float = WAIT_S) -> bool:
    """Wait for a background thread's effect; True once ``condition()`` holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def panel_on(factory: MockFactory, **changes: object) -> ControlPanel:
    return ControlPanel(**{**PINS, "long_press_s": 0.05, **changes}, pin_factory=factory)


def recorder(panel: ControlPanel) -> tuple[list[str], threading.Event]:
    calls: list[str] = []
    seen = threading.Event()

    def note(name: str):
        def call() -> None:
            calls.append(name)
            seen.set()

        return call

    panel.on_advance, panel.on_undo, panel.on_menu = note("advance"), note("undo"), note("menu")
    return calls, seen


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()  # buttons pull up: pressed is low


def release(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_high()


def test_a_short_press_advances_and_the_undo_button_undoes(mock_factory: MockFactory) -> None:
    with panel_on(mock_factory, long_press_s=5.0) as panel:
        calls, _ = recorder(panel)
        press(mock_factory, 17)
        release(mock_factory, 17)
        press(mock_factory, 27)
        release(mock_factory, 27)
        assert calls == ["advance", "undo"]


def test_a_long_press_opens_the_menu_instead_of_advancing(mock_factory: MockFactory) -> None:
    with panel_on(mock_factory) as panel:
        calls, seen = recorder(panel)
        press(mock_factory, 17)
        assert seen.wait(WAIT_S), "the hold was never reported"
        release(mock_factory, 17)
        assert calls == ["menu"]
        press(mock_factory, 22)  # the menu button does the same
        assert calls == ["menu", "menu"]


def test_buzzer_patterns_switch_the_pin_as_specified(mock_factory: MockFactory) -> None:
    with panel_on(mock_factory) as panel:
        pin = mock_factory.pin(23)
        for name, beeps in (("accepted", 1), ("rejected", 2), ("phase", 3)):
            pin.clear_states()
            panel.play(name, wait=True)
            states = [s.state for s in pin.states]
            assert states == [False] + [True, False] * beeps, name


def test_a_new_pattern_cuts_the_one_playing(mock_factory: MockFactory) -> None:
    with panel_on(mock_factory) as panel:
        panel.play("phase")
        panel.play("accepted", wait=True)
        assert mock_factory.pin(23).state is False


def test_status_led_heartbeat_blinks_and_close_turns_it_off(mock_factory: MockFactory) -> None:
    panel = panel_on(mock_factory)
    pin = mock_factory.pin(24)
    panel.heartbeat()
    assert wait_until(lambda: any(s.state for s in pin.states)), "the heartbeat never lit the LED"
    panel.error()
    panel.close()
    panel.close()  # idempotent
    assert panel.closed and all(d.closed for d in panel.children)
    assert pin.state is False


def test_a_pin_used_twice_is_refused_before_anything_is_built(mock_factory: MockFactory) -> None:
    with pytest.raises(PinConfigError, match="used twice"):
        panel_on(mock_factory, undo_pin=17)


def test_a_failing_child_closes_the_children_already_built(mock_factory: MockFactory) -> None:
    mock_factory.pin(24)  # reserve nothing; make the LED fail by giving it a pin that is taken
    from gpiozero import LED

    taken = LED(24, pin_factory=mock_factory)
    try:
        with pytest.raises(Exception, match="24"):
            panel_on(mock_factory)
        again = panel_on(mock_factory, led_pin=None)  # the buttons and buzzer were released
        again.close()
    finally:
        taken.close()


def test_without_a_pi_the_mock_factory_is_chosen_with_a_warning(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_text("Generic x86 PC\x00")
    with pytest.warns(MockPinsWarning, match="not on a Raspberry Pi"):
        factory = choose_pin_factory(None, model_file=model)
    assert isinstance(factory, MockFactory)
    factory.close()
    model.write_text("Raspberry Pi 5 Model B Rev 1.0\x00")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert choose_pin_factory(None, model_file=model) is None  # gpiozero's own choice


def test_an_unknown_pin_factory_is_named() -> None:
    with pytest.raises(PinConfigError, match="unknown pin factory 'nonsense'"):
        choose_pin_factory("nonsense")
