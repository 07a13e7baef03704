"""`tablesight track` (being built: see the open issue)."""

from __future__ import annotations

from typing import Any

from kiosk.commands import VERBS
from kiosk.errors import CommandError


def register(sub: Any) -> None:
    """Add the `track` verb."""
    parser = sub.add_parser("track", help=VERBS["track"], description=VERBS["track"])
    parser.set_defaults(handler=_run)


def _run(args: Any, settings: Any) -> int:
    raise CommandError("tablesight track is not built yet")
