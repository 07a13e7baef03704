"""`tablesight run`: resume the last game (or start one) and serve the kiosk until Ctrl-C.

With no hardware attached it runs the embedded simulation: the emulated LED controller on a
pseudo-terminal, gpiozero's mock pins for the buttons, the synthetic camera. The work is in
``kiosk.rig``, imported when the verb runs (``--help`` stays fast); ``--help`` shows
:data:`DESCRIPTION`, written for the people at the table.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk.settings import Settings

DESCRIPTION = """\
Start the kiosk: the table's screen on http://127.0.0.1:8000/ (open it in a browser; Ctrl-C
stops it). The last game goes on where it stopped, or a new one starts. The camera reads the
table, the LED trays light the dice to roll and the buttons confirm, undo and open the menu.
With none of them attached, a scripted game plays on a simulated table, so that you can watch
every part at work.

Games are saved as they are played, with the calibration and what the settings page chose,
in the data folder (--data-dir chooses another):
  {data}
The start-up lines name it, in the kiosk's language (--lang zh or en, before or after "run")."""
"""What `tablesight run --help` says ({data}: the data folder on this machine)."""


def data_folder() -> str:
    """The default data folder on this machine, as kiosk.settings finds it (platformdirs,
    imported alone: ``--help`` stays fast)."""
    import platformdirs

    return str(platformdirs.user_data_dir("tablesight", appauthor=False))


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `run` verb."""
    parser = sub.add_parser(
        "run",
        help="start the kiosk",
        description=DESCRIPTION.format(data=data_folder()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # The command's own options also after the verb (`tablesight run --lang en`); given before
    # it, they are not undone here (SUPPRESS: nothing set unless given).
    parser.add_argument(
        "--lang",
        choices=["zh", "en"],
        default=argparse.SUPPRESS,
        help="language of the screens and the start-up lines (default: the kiosk's, else zh)",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=argparse.SUPPRESS,
        help="the folder for saves, calibration and settings chosen on the kiosk",
    )
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
