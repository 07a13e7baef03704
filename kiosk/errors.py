"""The kiosk package's exceptions, and the one check of a verb's output file."""

from __future__ import annotations

from pathlib import Path


class KioskError(Exception):
    """Root of the errors raised by the kiosk package."""


class CommandError(KioskError):
    """A verb cannot do what was asked; the message is shown to the user as it is (exit 2)."""


def check_output_file(path: Path, flag: str) -> None:
    """CommandError (one line) unless ``path`` can be written as a file: not a folder, in a
    folder that exists (not under a file)."""
    if path.is_dir():
        raise CommandError(f"{flag}: {path} is a folder; give a file name in it")
    for above in path.parents:
        if above.exists():
            if not above.is_dir():
                raise CommandError(f"{flag}: {above} is a file, not a folder")
            break
    if not path.parent.is_dir():
        raise CommandError(f"{flag}: there is no folder {path.parent}")
