"""The ``tablesight`` command line: one sub-command per verb of the design.

Each verb lives in its own module under ``kiosk.commands`` with a ``register(subparsers)``
function; this module only builds the parser, loads the settings and turns known errors into
one clear line on stderr and exit status 2. Nothing heavy is imported before the arguments are
parsed, so ``--help`` answers at once.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import NoReturn

from kiosk.commands import load, summaries
from kiosk.errors import CommandError
from kiosk.stop_signals import held_stop_signals

EXIT_USAGE = 2


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        """Say what is wrong in one line, with where to read more, and exit with status 2."""
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser; the verbs named in ``argv`` are registered in full, the others only
    by name and summary (all of them in full when ``argv`` is None)."""
    parser = Parser(
        prog="tablesight",
        description="Camera, LED and rules companion for physical board games.",
    )
    parser.add_argument("--config", type=Path, help="settings file (TOML)")
    parser.add_argument("--data-dir", type=Path, help="folder for saves and calibration")
    parser.add_argument("--lang", choices=["zh", "en"], help="language of player messages")
    sub = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    words = None if argv is None else set(argv)
    for verb, summary in summaries().items():
        if words is None or verb in words:
            load(verb).register(sub)
        else:
            sub.add_parser(verb, help=summary)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # The detector's matrix products are small, and OpenBLAS's own threads spin on after each
    # one, taking the cores the detector's threads need (docs/detection.md: on two threads a
    # hard table's crops took 57 ms instead of 33). It reads this when numpy first loads it.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    args = build_parser(argv).parse_args(argv)
    # Before numpy starts threads (kiosk.settings imports it): see kiosk.stop_signals.
    with held_stop_signals() if getattr(args, "holds_stop_signals", False) else nullcontext():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """Load the settings and run the verb's handler, each known error as one line."""
    from kiosk.settings import SettingsError, load_settings  # pydantic: after --help

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
