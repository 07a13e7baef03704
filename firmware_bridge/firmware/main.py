"""Boot entry on the Pico: start the LED controller unless the safe-mode pin is held low."""

import config
import machine
import micropython

if machine.Pin(config.SAFE_MODE_PIN, machine.Pin.IN, machine.Pin.PULL_UP).value():
    import device
    import hw_pico

    micropython.kbd_intr(-1)  # a 0x03 byte inside a frame is data, not Ctrl-C
    hw = hw_pico.Hardware(config)
    device.Device(
        hw,
        config.TRAYS,
        config.SLOTS_PER_TRAY,
        config.TRACK_LEDS,
        config.MAX_BRIGHTNESS,
    ).run(hw.reset_reason())
