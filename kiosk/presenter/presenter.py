"""The presenter: one snapshot per change of the table and language, built once, and the
diff against the previous snapshot of that language, computed once.

Every reader asks the presenter: the live stream (which sends the same diff to every viewer),
``/api/status`` and ``/api/offers``, the café publisher (a consistent zh + en pair is two
snapshots of the same facts), the tray page. The facts are taken under the table's lock
(``TableFacts``, immutable); the snapshot is built from them outside it, so a move is never
kept waiting by a screen.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import Text
from engine.core.text import Language
from kiosk.presenter.build import Consoles, build, log_line, no_game, seat_names, timer_view
from kiosk.presenter.facts import Event, NoGameError, NoGameFacts, TableFacts, TimerFacts
from kiosk.presenter.snapshot import FIELDS, Snapshot, thaw


def encode(value: Any) -> str:
    """Compact JSON text, as the live stream sends it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class Frame:
    """One snapshot with its JSON, each top-level field encoded once, and what changed since
    the previous snapshot of its language (``base``: that one's ``seq``, None for the first)."""

    snapshot: Snapshot
    fields: Mapping[str, str]
    """Each top-level key's JSON text, in the snapshot's order."""
    base: int | None
    changed: tuple[str, ...]
    """The keys whose JSON differs from the ``base`` snapshot's (``seq`` always)."""
    change_body: str = field(default="", compare=False)
    """The JSON object of the changed keys: the live stream's ``change`` for every viewer."""

    @property
    def seq(self) -> int:
        """The table's change this snapshot is of."""
        return self.snapshot.seq

    def body(self, keys: tuple[str, ...] | None = None, extra: Mapping[str, Any] = {}) -> str:
        """A JSON object of ``keys`` (default: all) of this snapshot, then ``extra``."""
        parts = [f"{encode(k)}:{self.fields[k]}" for k in (self.fields if keys is None else keys)]
        parts += [f"{encode(k)}:{encode(v)}" for k, v in extra.items()]
        return "{" + ",".join(parts) + "}"


def make_frame(snapshot: Snapshot, before: Frame | None) -> Frame:
    """The frame of ``snapshot``, diffed against ``before`` (the previous one of its language)."""
    texts = {}
    for f in FIELDS:  # a part kept from the previous snapshot (the console) is not encoded again
        value = getattr(snapshot, f.name)
        same = before is not None and getattr(before.snapshot, f.name) is value
        texts[f.name] = before.fields[f.name] if same and before else encode(thaw(value))
    if before is None:
        return Frame(snapshot, texts, None, tuple(texts))
    changed = tuple(k for k, text in texts.items() if before.fields.get(k) != text)
    frame = Frame(snapshot, texts, before.seq, changed)
    return Frame(snapshot, texts, before.seq, changed, frame.body(changed))


class Presenter:
    """Builds and keeps the table's snapshots: at most one per (``seq``, language).

    ``facts`` takes the table's facts (under its lock), ``NoGameFacts`` while it has no game
    (the snapshot then says so: ``build.no_game``); ``seq`` reads the table's change
    number without the lock (to answer from what is kept when nothing changed). ``builds``
    counts the snapshots built per language (``tablesight bench kiosk`` reads it).
    """

    def __init__(
        self, facts: Callable[[], TableFacts | NoGameFacts], seq: Callable[[], int]
    ) -> None:
        self._facts = facts
        self._seq = seq
        self._lock = threading.Lock()
        self._frames: dict[Language, Frame] = {}
        self._labels: dict[str, Text] = {}
        self._consoles: Consoles = {}
        self.builds: Counter[Language] = Counter()
        """How many snapshots were built, per language."""
        self.timer: Callable[[], TimerFacts | None] = lambda: None
        """The table's timers now (``kiosk.timers.TableTimers`` sets it; none by default)."""
        self._built: dict[Language, TableFacts | NoGameFacts] = {}

    def frame(self, lang: Language) -> Frame:
        """The current snapshot in ``lang``, with its JSON and its diff (built if not kept)."""
        kept = self._frames.get(lang)
        if kept is not None and kept.seq == self._seq():
            return kept
        with self._lock:
            return self._frame(self._facts(), lang)

    def snapshot(self, lang: Language) -> Snapshot:
        """The current snapshot in ``lang``."""
        return self.frame(lang).snapshot

    def pair(self) -> tuple[Snapshot, Snapshot, TableFacts]:
        """The snapshots in Chinese and in English of one change, and its facts
        (NoGameError while the table has no game)."""
        with self._lock:
            facts = self._facts()
            if isinstance(facts, NoGameFacts):
                raise NoGameError()
            zh = self._frame(facts, "zh").snapshot
            en = self._frame(facts, "en").snapshot
        return zh, en, facts

    def describe(self, event: Event, lang: Language) -> str:
        """One line of the log for an event (as plain data), players named as at the table now."""
        facts = self._facts()
        if isinstance(facts, NoGameFacts):
            raise NoGameError()
        view = facts.game.view(facts.state, lang)
        names = seat_names(view, facts.seats, lang)
        with self._lock:
            return log_line(event, facts, names, lang, self._labels)

    def stats(self) -> dict[str, Any]:
        """What the presenter did: snapshots built per language, the latest ``seq`` of each."""
        return {
            "builds": dict(self.builds),
            "latest": {lang: frame.seq for lang, frame in self._frames.items()},
        }

    def _frame(self, facts: TableFacts | NoGameFacts, lang: Language) -> Frame:
        """Under the lock: the frame of ``facts`` in ``lang``, built unless kept."""
        before = self._frames.get(lang)
        if before is not None and before.seq >= facts.seq:
            return before  # facts are taken under this lock: an older seq is never asked
        timer = self.timer()
        last = self._built.get(lang)
        if isinstance(facts, NoGameFacts):
            snapshot = no_game(facts, lang)
            self.builds[lang] += 1
        elif before is not None and isinstance(last, TableFacts) and _same_but_seq(last, facts):
            # Only the timers moved (a tick): the rest of the snapshot is the one before.
            seats = before.snapshot.seats
            snapshot = dataclasses.replace(
                before.snapshot,
                seq=facts.seq,
                timer=None if timer is None else timer_view(timer, seats, lang),
            )
        else:
            snapshot = build(facts, lang, self._labels, self._consoles, timer)
            self.builds[lang] += 1
        self._built[lang] = facts
        frame = make_frame(snapshot, before)
        self._frames[lang] = frame
        return frame


def _same_but_seq(a: TableFacts, b: TableFacts) -> bool:
    """Whether two moments of the table differ in nothing but their change number."""
    return all(
        getattr(a, f.name) is getattr(b, f.name) or getattr(a, f.name) == getattr(b, f.name)
        for f in dataclasses.fields(TableFacts)
        if f.name != "seq"
    )
