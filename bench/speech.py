"""`tablesight bench speech`: how soon a phase change is heard (issue 28).

A table in this process replays the solo Greenwood example (docs/examples/greenwood-solo.jsonl)
with spoken announcements at level ``turns`` into WAV files (``kiosk.speech.WavFolder`` with the
real espeak-ng, no pacing), in Chinese and in English. The latency is from the moment the table
tells its listeners of a change that began a phase (after the move was saved) to the moment the
first sample of that phase's line was written to its file; the speech thread is idle at each
phase change (the bench waits for it), so this is the time to start speaking, not time spent
queued behind another line. Also: the time to make one whole line and its real-time factor
(seconds of sound made per second). Without espeak-ng the suite says so and gives no figures.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench import Figure
from engine.core import move_from_dict
from engine.core.text import Language
from kiosk.settings import load_settings
from kiosk.speech import Announcer, Spoken, Voice, WavFolder, find_voice
from kiosk.table import Change, open_table

SUITE = "speech"
EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "greenwood-solo.jsonl"
WAIT_S = 30.0


def run(quick: bool) -> list[Figure]:
    """Measure in both languages (``quick``: the example once, else three times)."""
    voice = find_voice()
    if voice is None:
        print("bench speech: espeak-ng not installed; nothing measured", file=sys.stderr)
        return []
    figures: list[Figure] = []
    repeats = 1 if quick else 3
    for lang in ("zh", "en"):
        latencies: list[float] = []
        spoken: list[Spoken] = []
        for _ in range(repeats):
            with tempfile.TemporaryDirectory() as tmp:
                got, said = replay(Path(tmp), lang, voice)
                latencies += got
                spoken += said
        figures += percentiles(f"phase change → first sample written, {lang}", latencies)
        made = [s.ended - s.began for s in spoken]
        figures += percentiles(f"one line made whole, {lang}", made)
        sound = sum(s.seconds for s in spoken)
        factor = sound / sum(made) if made else 0.0
        note = f"{len(spoken)} lines, {sound:.0f} s of sound"
        figures.append(Figure(SUITE, f"real-time factor, {lang}", factor, "×", note))
    return figures


def replay(folder: Path, lang: Language, voice: Voice) -> tuple[list[float], list[Spoken]]:
    """Replay the example on a fresh table in ``folder``, speaking into files there; returns
    each phase line's latency (seconds) and every line said."""
    head, *lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    setup = json.loads(head)
    settings = load_settings(data_dir=folder, lang=lang, game="greenwood")
    table, store = open_table(settings)
    table.new_game("greenwood", setup.get("setup"), "bench", int(setup.get("seed", 0)))
    changed: dict[int, float] = {}

    def stamp(change: Change) -> None:
        if change.phase_changed:
            changed[change.seq] = time.perf_counter()

    table.listen(stamp)  # before the announcer: told first
    speaker = WavFolder(voice, folder / "speech", pace=0)
    announcer = Announcer(speaker, table.presenter.snapshot, lambda: lang, "turns")
    table.listen(announcer.tell)
    announcer.start()
    try:
        for line in lines:
            if line.strip():
                seq = table.seq
                table.submit(move_from_dict(json.loads(line)))
                if table.seq > seq and table.seq in changed:
                    announcer.wait_idle(WAIT_S)
        announcer.wait_idle(WAIT_S)
    finally:
        announcer.close()
        store.close()
    said = list(announcer.spoken)
    latencies = [
        s.first_sample - changed[s.line.seq]
        for s in said
        if s.line.kind == "phase" and s.first_sample is not None and s.line.seq in changed
    ]
    return latencies, said


def percentiles(name: str, samples_s: list[float]) -> list[Figure]:
    """p50, p95 and the slowest of ``samples_s``, in milliseconds."""
    if not samples_s:
        return []
    ms = sorted(s * 1000 for s in samples_s)
    note = f"{len(ms)} lines"
    return [
        Figure(SUITE, f"{name} p50", statistics.median(ms), "ms", note),
        Figure(SUITE, f"{name} p95", ms[round(0.95 * (len(ms) - 1))], "ms", note),
        Figure(SUITE, f"{name} max", ms[-1], "ms", note),
    ]


if __name__ == "__main__":
    from bench.verb import format_table

    print(format_table(run(quick="--quick" in sys.argv)))
