"""`tablesight cafe` (being built: see the open issue)."""

from __future__ import annotations

from typing import Any

from kiosk.commands import VERBS
from kiosk.errors import CommandError


def register(sub: Any) -> None:
    """Add the `cafe` verb."""
    parser = sub.add_parser("cafe", help=VERBS["cafe"], description=VERBS["cafe"])
    parser.set_defaults(handler=_run)


def _run(args: Any, settings: Any) -> int:
    raise CommandError("tablesight cafe is not built yet")
