"""Benchmarks behind `tablesight bench`: each module has ``run(quick: bool) -> list[Figure]``.

They print their own progress to stderr; the figures they return are printed as one table and
may be written as JSON. Figures are compared as ratios within one run, never asserted in tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    """One measured number: which suite, what was measured, the value and its unit."""

    suite: str
    name: str
    value: float
    unit: str
    note: str = ""


def live_events(url: str, timeout: float = 30) -> Iterator[tuple[str, str]]:
    """The kiosk's server-sent events at ``url``/api/live as (event kind, data text) pairs."""
    import httpx  # a test dependency: only the kiosk and e2e suites need it

    with httpx.Client(timeout=timeout) as http, http.stream("GET", f"{url}/api/live") as stream:
        kind = ""
        for line in stream.iter_lines():
            if line.startswith("event:"):
                kind = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                yield kind, line[5:]
