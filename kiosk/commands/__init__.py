"""The verbs of the ``tablesight`` command, one module each."""

from kiosk.commands import bench, calibrate, detect, replay, run, scan, tags

COMMANDS = (run, detect, scan, replay, tags, calibrate, bench)
