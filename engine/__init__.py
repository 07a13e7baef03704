"""Pure rules: the shared core and one sub-package per game. No I/O, no clock."""
