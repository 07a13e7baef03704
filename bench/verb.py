"""`tablesight bench`: measure speed and memory and print the figures."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk.errors import CommandError, check_output_file

if TYPE_CHECKING:
    from bench import Figure
    from kiosk.settings import Settings

SUITES = ("engine", "vision", "vision_layouts", "serial", "kiosk", "e2e", "cli", "cafe", "speech")


SUMMARY = "measure speed and memory"
"""This verb's line in ``tablesight --help`` (a plugin of ``kiosk.commands``)."""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `bench` verb."""
    parser = sub.add_parser("bench", help=SUMMARY, description=__doc__)
    parser.add_argument("suite", nargs="?", default="all", choices=(*SUITES, "all"))
    parser.add_argument("--quick", action="store_true", help="smaller inputs, for a smoke run")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures here")
    parser.add_argument(
        "--against",
        metavar="REV",
        help="kiosk: the release (git revision) whose heavy-GET figures are measured in the same"
        " run (default: the previous release; 'none': this tree only)",
    )
    parser.set_defaults(handler=bench)


def bench(args: argparse.Namespace, settings: Settings) -> int:
    """Run the chosen suites and print one table of figures."""
    if args.json:
        check_output_file(args.json, "--json")
    suites = SUITES if args.suite == "all" else (args.suite,)
    figures: list[Figure] = []
    for suite in suites:
        try:
            module = importlib.import_module(f"bench.{suite}")
        except ModuleNotFoundError:
            print(f"bench {suite}: not available yet", file=sys.stderr)
            continue
        print(f"bench {suite}: running…", file=sys.stderr)
        if suite == "kiosk" and args.against is not None:
            against = None if args.against.lower() == "none" else args.against
            figures.extend(module.run(quick=args.quick, against=against))
        else:
            figures.extend(module.run(quick=args.quick))
    print(format_table(figures))
    if args.json:
        try:
            args.json.write_text(json.dumps([f.__dict__ for f in figures], indent=2) + "\n")
        except OSError as exc:
            raise CommandError(f"--json: cannot write {args.json}: {exc.strerror}") from None
    return 0 if figures else 2


def format_table(figures: list[Figure]) -> str:
    """The figures as an aligned plain-text table."""
    rows = [("suite", "figure", "value", "unit", "note")]
    rows += [
        (f.suite, f.name, f"{f.value:,.3f}".rstrip("0").rstrip("."), f.unit, f.note)
        for f in figures
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    return "\n".join(
        "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows
    )
