"""`tablesight run`: start the kiosk (and, without hardware, the embedded simulation)."""

from __future__ import annotations

import argparse

import uvicorn

from kiosk.app import create_app
from kiosk.settings import Settings


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `run` verb."""
    parser = sub.add_parser("run", help="start the kiosk", description=__doc__)
    parser.add_argument("--host", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port (default 8000)")
    parser.set_defaults(handler=run, setting_flags=lambda a: {"host": a.host, "port": a.port})


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Serve the kiosk until Ctrl-C."""
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port, log_level="info")
    return 0
