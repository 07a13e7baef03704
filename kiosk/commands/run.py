"""`tablesight run`: resume the last game (or start one) and serve the kiosk until Ctrl-C."""

from __future__ import annotations

import argparse
import socket
import sys

import uvicorn

from engine.core import EngineError
from kiosk.app import create_app
from kiosk.errors import CommandError
from kiosk.settings import Settings
from kiosk.store import StoreError
from kiosk.table import open_table


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `run` verb."""
    parser = sub.add_parser("run", help="start the kiosk", description=__doc__)
    parser.add_argument("--host", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port (default 8000)")
    parser.add_argument("--game", help="game to start when there is no saved game")
    parser.add_argument("--save", help="name of the saved game to resume or create")
    parser.set_defaults(
        handler=run,
        setting_flags=lambda a: {"host": a.host, "port": a.port, "game": a.game, "save": a.save},
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Serve the kiosk until Ctrl-C; the saved game is closed cleanly on the way out."""
    _check_port_free(settings.host, settings.port)
    try:
        table, store = open_table(settings)
    except (StoreError, EngineError) as exc:
        raise CommandError(str(exc)) from None
    for notice in table.notices:
        print(f"tablesight: {notice.in_(settings.lang)}", file=sys.stderr)
    print(
        f"tablesight: kiosk on http://{settings.host}:{settings.port}/ (Ctrl-C to stop);"
        f" saves in {store.path}",
        file=sys.stderr,
        flush=True,
    )
    app = create_app(settings, table)
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning")
    print("tablesight: stopped; the game is saved", file=sys.stderr)
    return 0


def _check_port_free(host: str, port: int) -> None:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise CommandError(
                f"cannot listen on {host}:{port} ({exc.strerror}); is tablesight already"
                " running? choose another port with --port"
            ) from None
