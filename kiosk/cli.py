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
from contextlib import nullcontext, suppress
from pathlib import Path
from typing import Any, NoReturn, TextIO

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
    stdout, sys.stdout = sys.stdout, _Output(sys.stdout)
    try:
        return _run_verb(args)
    finally:
        sys.stdout = stdout


def _run_verb(args: argparse.Namespace) -> int:
    """``_run`` with the standard output watched."""
    from kiosk.settings import SettingsError, load_settings  # pydantic: after --help

    try:
        settings = load_settings(
            args.config,
            data_dir=args.data_dir,
            lang=args.lang,
            **getattr(args, "setting_flags", lambda a: {})(args),
        )
        status = int(args.handler(args, settings) or 0)
        sys.stdout.flush()  # what is still buffered fails here, not unseen at exit
        return status
    except (SettingsError, CommandError) as exc:
        print(f"tablesight {args.verb}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:  # a write that failed (a full disk, /dev/full, an I/O error)
        if isinstance(exc, BrokenPipeError):
            return _quiet_stdout(141)
        print(f"tablesight {args.verb}: {_failed_write(exc)}", file=sys.stderr)
        return _quiet_stdout(EXIT_USAGE)
    except KeyboardInterrupt:
        print(f"tablesight {args.verb}: interrupted", file=sys.stderr)
        return 130


class OutputError(OSError):
    """The standard output could not be written (``/dev/full``, a full disk, an I/O error)."""


class _Output:
    """The standard output, whose failed writes are OutputError (told apart from a file's)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        """Write ``text``; OutputError if it cannot be."""
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(exc.errno, exc.strerror) from exc

    def flush(self) -> None:
        """Flush; OutputError if what was buffered cannot be written."""
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(exc.errno, exc.strerror) from exc

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _failed_write(exc: OSError) -> str:
    """One line for an OSError that reached the command line: what could not be written (the
    standard output, or the file it names) and why."""
    why = exc.strerror or str(exc) or type(exc).__name__
    if isinstance(exc, OutputError):
        return f"the output could not be written: {why}"
    if exc.filename is not None:
        return f"{exc.filename}: {why}"
    return why


def _quiet_stdout(status: int) -> int:
    """Point the standard output at /dev/null (its unwritten rest would fail again at exit,
    with a second message) and return ``status``; a BrokenPipeError is the reader gone away
    (`| head`): stopped quietly with 141."""
    with suppress(OSError, ValueError):  # an output that is no file (a test's capture)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return status


if __name__ == "__main__":
    sys.exit(main())
