"""Board configuration for the Raspberry Pi Pico: LED counts and pins. Edit, then copy to the board.

The counts are reported to the host at handshake; the host never assumes them.
"""

TRAYS = 2
SLOTS_PER_TRAY = 8
TRACK_LEDS = 24
MAX_BRIGHTNESS = 160
"""Cap on the global brightness, to stay inside the USB power budget (about 60 mA per WS2812)."""

TRAY_PINS = (2, 3)
"""GPIO of each dice tray's WS2812 data line, one per tray."""
TRACK_PIN = 4
"""GPIO of the round-track strip's data line."""
SAFE_MODE_PIN = 22
"""Tie this GPIO to GND while powering up to skip the firmware and keep the REPL (for mpremote)."""
WATCHDOG_MS = 2000
