"""The ``tablesight`` command line: one sub-command per verb of the design.

Each verb lives in its own module under ``kiosk.commands`` with a ``register(subparsers)``
function; this module only builds the parser, loads the settings and turns known errors into
one clear line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from kiosk.commands import COMMANDS
from kiosk.errors import CommandError
from kiosk.settings import SettingsError, load_settings

EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every verb registered."""
    parser = argparse.ArgumentParser(
        prog="tablesight",
        description="Camera, LED and rules companion for physical board games.",
    )
    parser.add_argument("--config", type=Path, help="settings file (TOML)")
    parser.add_argument("--data-dir", type=Path, help="folder for saves and calibration")
    parser.add_argument("--lang", choices=["zh", "en"], help="language of player messages")
    sub = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        settings = load_settings(
            args.config,
            data_dir=args.data_dir,
            lang=args.lang,
            **getattr(args, "setting_flags", lambda a: {})(args),
        )
        return int(args.handler(args, settings) or 0)
    except (SettingsError, CommandError) as exc:
        print(f"tablesight {args.verb}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"tablesight {args.verb}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader of our output went away (`| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
