"""The serial protocol to the LED controller, its emulator and the firmware."""
