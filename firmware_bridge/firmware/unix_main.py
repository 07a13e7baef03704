"""Entry point under the MicroPython unix port: ``micropython unix_main.py [trays slots track]``."""

import sys

import device
import hw_unix
import micropython

micropython.kbd_intr(-1)  # a 0x03 byte inside a frame is data, not Ctrl-C
counts = [int(a) for a in sys.argv[1:4]] or [2, 8, 24]
device.Device(hw_unix.Hardware(), counts[0], counts[1], counts[2]).run()
