"""`tablesight run`: resume the last game (or start one) and serve the kiosk until Ctrl-C.

With no hardware attached it runs the embedded simulation: the emulated LED controller on a
pseudo-terminal, gpiozero's mock pins for the buttons, the synthetic camera. The work is in
``kiosk.rig``, imported when the verb runs (``--help`` stays fast).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk.settings import Settings


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `run` verb."""
    parser = sub.add_parser("run", help="start the kiosk", description=__doc__)
    parser.add_argument("--host", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port (default 8000)")
    parser.add_argument("--game", help="game to start when there is no saved game")
    parser.add_argument("--save", help="name of the saved game to resume or create")
    parser.add_argument(
        "--lan",
        action="store_true",
        default=None,
        help="serve read-only pages to the network; control from a phone needs the pairing code",
    )
    parser.add_argument(
        "--speed", type=float, help="speed of the simulated session (1 real time, 0 flat out)"
    )
    parser.add_argument(
        "--repeat",
        action="store_true",
        default=None,
        help="start the simulated session again when it ends (long runs, benchmarks)",
    )
    parser.add_argument(
        "--simulation",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="play (or not) the scripted session on the synthetic table (default: when the"
        " camera is the synthetic one)",
    )
    parser.add_argument(
        "--mqtt",
        metavar="URL",
        help="report this table to a café's MQTT broker: mqtt://HOST[:PORT] or mqtts://… (TLS)",
    )
    parser.add_argument(
        "--table", metavar="NAME", help="this table's name on the broker (default: the machine's)"
    )
    parser.add_argument(
        "--site",
        metavar="SITE",
        help="the site this table belongs to (a café of a chain): its topics are then"
        " tablesight/SITE/NAME/… (default: none)",
    )
    parser.set_defaults(
        handler=run,
        holds_stop_signals=True,  # Ctrl-C during a detection stops cleanly (kiosk.stop_signals)
        setting_flags=lambda a: {
            "host": a.host,
            "port": a.port,
            "game": a.game,
            "save": a.save,
            "lan": a.lan,
            "speed": a.speed,
            "simulation": a.simulation,
            "repeat": a.repeat,
            "mqtt": {k: v for k, v in (("url", a.mqtt), ("table", a.table), ("site", a.site)) if v}
            or None,
        },
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Serve the kiosk until Ctrl-C (``kiosk.rig.serve``)."""
    from kiosk.rig import serve

    return serve(args, settings)
