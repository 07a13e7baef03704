"""Benchmarks behind `tablesight bench`: each module has ``run(quick: bool) -> list[Figure]``.

They print their own progress to stderr; the figures they return are printed as one table and
may be written as JSON. Figures are compared as ratios within one run, never asserted in tests.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    """One measured number: which suite, what was measured, the value and its unit."""

    suite: str
    name: str
    value: float
    unit: str
    note: str = ""
