"""`tablesight bench cli`: how long the command line takes to answer ``--help``.

Each of ``tablesight --help`` and ``tablesight VERB --help`` (every verb) runs in a fresh Python
process, several times in turn; the figures are the median and the slowest wall-clock time of each,
from starting the process to its exit. This is what a newcomer waits for at their first command.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

from bench import Figure
from kiosk.commands import summaries

SUITE = "cli"


def time_help(words: list[str], runs: int) -> list[float]:
    """Milliseconds taken by ``runs`` fresh ``tablesight WORDS --help`` processes."""
    command = [sys.executable, "-m", "kiosk.cli", *words, "--help"]
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        samples.append((time.perf_counter() - start) * 1000)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {done.stderr.strip()}")
    return samples


def run(quick: bool) -> list[Figure]:
    """Measure ``--help`` of the command and of each verb (``quick``: 3 runs each, else 10)."""
    runs = 3 if quick else 10
    figures = []
    slowest = 0.0
    for words in ([], *([verb] for verb in summaries())):
        name = " ".join(["tablesight", *words, "--help"])
        print(f"bench cli: {name} ×{runs}…", file=sys.stderr)
        samples = time_help(words, runs)
        slowest = max(slowest, *samples)
        note = f"{runs} fresh processes"
        figures.append(Figure(SUITE, f"{name} p50", statistics.median(samples), "ms", note))
        figures.append(Figure(SUITE, f"{name} max", max(samples), "ms", note))
    figures.append(Figure(SUITE, "slowest --help", slowest, "ms", "of every run above"))
    return figures
