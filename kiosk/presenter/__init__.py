"""The presenter: the table's facts and the engine's state turned into one typed, immutable
snapshot per change and language (``Snapshot``), and its diff, built once for every reader.

- ``facts``: ``TableFacts``, the immutable copy of the table's facts the presenter reads.
- ``snapshot``: the snapshot's types and its JSON (docs/kiosk.md, "Snapshot").
- ``sentences``: every sentence of the table screen (what to do now, a refusal, the log).
- ``build``: facts → snapshot, in one language.
- ``presenter``: ``Presenter``, which keeps the snapshots by (seq, language) and their diffs.
"""

from kiosk.presenter.build import SHOWN_EVENTS, build, seat_views, the_end
from kiosk.presenter.facts import (
    LINK_STATES,
    NO_GAME,
    Link,
    NoGameError,
    NoGameFacts,
    TableFacts,
    frozen_event,
)
from kiosk.presenter.presenter import Frame, Presenter
from kiosk.presenter.sentences import describe
from kiosk.presenter.snapshot import Console, Snapshot, freeze, thaw

__all__ = [
    "LINK_STATES",
    "NO_GAME",
    "SHOWN_EVENTS",
    "Console",
    "Frame",
    "Link",
    "NoGameError",
    "NoGameFacts",
    "Presenter",
    "Snapshot",
    "TableFacts",
    "build",
    "describe",
    "freeze",
    "frozen_event",
    "seat_views",
    "thaw",
    "the_end",
]
