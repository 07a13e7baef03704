"""Verbs whose issue has not landed yet say so in one line and exit 2."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register_pending(sub: Any, verb: str, summary: str, issue: str) -> argparse.ArgumentParser:
    """Add a verb that only reports which issue will bring it."""
    parser = sub.add_parser(verb, help=f"{summary} (not available yet)", description=summary)
    parser.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)

    def handler(args: argparse.Namespace, settings: object) -> int:
        print(f"tablesight {verb}: not available yet; it arrives with {issue}", file=sys.stderr)
        return 2

    parser.set_defaults(handler=handler)
    return parser
