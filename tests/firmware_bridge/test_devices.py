"""The device API keeps the controller showing the desired state through every fault.

Each test ends by comparing the emulator's commanded LED state with the desired state.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from firmware_bridge.devices import LedController
from firmware_bridge.emulator import Emulator, Faults
from firmware_bridge.errors import LedValueError
from firmware_bridge.link import Link, LinkStatus
from firmware_bridge.state import DARK, Effect, Led, LedState

RED = Led((255, 0, 0))
AMBER_BLINK = Led((255, 160, 0), Effect.BLINK, 400)
BLUE_SPIN = Led((0, 80, 255), Effect.SPIN, 900)


def expected(
    tray0: list[Led] = (),  # type: ignore[assignment]
    tray1: list[Led] = (),  # type: ignore[assignment]
    track: list[Led] = (),  # type: ignore[assignment]
    brightness: int = 255,
) -> LedState:
    """A full LedState of the default 2 × 8 + 24 controller, unlisted LEDs dark."""

    def pad(leds: list[Led], n: int) -> tuple[Led, ...]:
        return tuple(leds) + (DARK,) * (n - len(leds))

    return LedState((pad(tray0, 8), pad(tray1, 8)), pad(track, 24), brightness)


def scene(controller: LedController, step: int) -> LedState:
    """Put the game in a recognisable state number ``step``; the state the LEDs must show."""
    dice = step % 9
    controller.tray(0).light(dice, AMBER_BLINK.colour, Effect.BLINK, 400)
    controller.tray(1).show([BLUE_SPIN] * (8 - dice))
    controller.track.mark(step % 24, (0, 200, 255))
    track = [Led((40, 40, 40))] * (step % 24) + [Led((0, 200, 255), Effect.PULSE, 1200)]
    return expected([AMBER_BLINK] * dice, [BLUE_SPIN] * (8 - dice), track)


def test_the_desired_state_reaches_the_leds(controller: LedController, emulator: Emulator) -> None:
    want = scene(controller, 5)
    emulator.assert_state(want)
    assert controller.wait_synced(5)
    assert controller.tray(1).desired == (BLUE_SPIN,) * 3


def test_a_burst_of_updates_is_coalesced_to_the_latest(
    controller: LedController, emulator: Emulator
) -> None:
    for step in range(300):
        want = scene(controller, step)
    emulator.assert_state(want)
    assert controller.commands_sent < 300  # 900 updates, far fewer commands
    assert emulator.history[-1] == want


def test_replug_restores_the_state_on_a_controller_that_lost_it(
    controller: LedController, emulator: Emulator, link: Link
) -> None:
    want = scene(controller, 7)
    emulator.assert_state(want)
    emulator.unplug()
    changed = scene(controller, 8)  # set while the cable is out
    emulator.replug()
    emulator.assert_state(changed)
    assert link.stats.connections == 2
    # the controller powered on dark, and was then brought back
    dark = expected()
    assert dark in emulator.history[emulator.history.index(want) :]


def test_a_rebooted_controller_is_brought_back(
    controller: LedController, emulator: Emulator
) -> None:
    controller.set_brightness(120)
    want = scene(controller, 3)
    want = LedState(want.trays, want.track, 120)
    emulator.assert_state(want)
    emulator.reboot()
    emulator.assert_state(want)


def test_a_reset_in_the_middle_of_a_frame_is_survived(
    controller: LedController, emulator: Emulator
) -> None:
    scene(controller, 1)
    emulator.assert_state(scene(controller, 1))
    emulator.set_faults(Faults(reset_after=2))
    want = scene(controller, 2)
    emulator.assert_state(want)
    assert emulator.boots == 2
    assert emulator.frames_dropped == 1


@pytest.mark.parametrize(
    "faults",
    [
        Faults(corrupt=0.01, seed=1),
        Faults(drop=0.05, seed=2),
        Faults(corrupt=0.01, drop=0.05, delay_ms=1, seed=3),
    ],
    ids=["corrupt 1%", "drop 5%", "corrupt, drop and delay"],
)
def test_a_noisy_line_ends_in_the_desired_state(
    faults: Faults, emulator: Emulator, make_link: Callable[..., Link]
) -> None:
    emulator.set_faults(faults)
    link = make_link(emulator.path)
    controller = LedController(link, retry_interval=0.02)
    try:
        for step in range(40):
            want = scene(controller, step)
            controller.wait_synced(0.02)  # let some go out mid-way, so faults hit real traffic
        emulator.assert_state(want, timeout=15)
        assert emulator.frames_received > 40
    finally:
        controller.close()
    if faults.drop:
        assert emulator.frames_dropped > 0
    if faults.corrupt:
        assert link.stats.bad_frames + link.stats.retransmissions > 0


def test_unplug_replug_under_noise_ends_right(
    emulator: Emulator, make_link: Callable[..., Link]
) -> None:
    emulator.set_faults(Faults(corrupt=0.01, drop=0.05, seed=4))
    link = make_link(emulator.path)
    controller = LedController(link, retry_interval=0.02)
    try:
        for round_ in range(3):
            scene(controller, round_)
            emulator.unplug()
            want = scene(controller, round_ + 10)
            emulator.replug()
            emulator.assert_state(want, timeout=15)
    finally:
        controller.close()


def test_brightness_is_capped_by_the_controller(make_link: Callable[..., Link]) -> None:
    with Emulator(max_brightness=100) as emu:
        link = make_link(emu.path)
        controller = LedController(link)
        try:
            controller.set_brightness(250)
            controller.tray(0).show([RED])
            emu.assert_state(expected([RED], brightness=100))
            # rendered (at the next 20 ms tick) through the brightness cap
            assert emu.wait_for(lambda: emu.pixels[0][0][0] == (100, 0, 0), 5), emu.pixels
        finally:
            controller.close()


def test_a_tray_the_controller_lacks_does_not_block_the_others(
    controller: LedController, emulator: Emulator, caplog: pytest.LogCaptureFixture
) -> None:
    controller.tray(5).show([RED])
    controller.track.show([RED] * 30)  # the strip has 24: the rest is dropped, with a warning
    emulator.assert_state(expected(track=[RED] * 24))
    assert controller.wait_synced(5)
    assert "tray 5" in caplog.text and "6 more" in caplog.text


@pytest.mark.parametrize(
    "make",
    [
        lambda: Led((256, 0, 0)),
        lambda: Led((1, 2)),
        lambda: Led((1, 2, 3), Effect.BLINK, 5),
        lambda: Led((1, 2, 3), 9),
        lambda: Led("red"),  # type: ignore[arg-type]
    ],
)
def test_bad_leds_are_refused_with_a_clear_message(make: Callable[[], Led]) -> None:
    with pytest.raises(LedValueError):
        make()


def test_the_api_refuses_what_is_not_an_led(controller: LedController) -> None:
    with pytest.raises(LedValueError, match="Led"):
        controller.tray(0).show([(255, 0, 0)])  # type: ignore[list-item]
    with pytest.raises(LedValueError):
        controller.set_brightness(300)
    assert controller.link.status is LinkStatus.CONNECTED


def test_a_controller_that_stalls_mid_stream_is_recovered(
    controller: LedController, emulator: Emulator, link: Link
) -> None:
    emulator.set_faults(Faults(stall_after=2, stall_ms=1500))
    for step in range(5):
        want = scene(controller, step)
    emulator.assert_state(want, timeout=10)
    assert link.stats.retransmissions > 0
