"""The set-up checklist: what players lay out before a game, and what the camera confirms.

Each game lists its own lines (``Game.setup_checks``); ``Game.checklist()`` frames them with
the lines every game has: the table's anchors first, what is checked by eye last.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.text import Text


@dataclass(frozen=True)
class SetupCheck:
    """One line of a game's set-up checklist: what players lay out, and the registry group
    (``vision/tags``) whose tags the camera looks for; ``group`` None: checked by eye."""

    key: str
    text: Text
    group: str | None = None
    need: int | None = 1
    """How many distinct pieces of the group must be seen; None: any number (the camera
    counts them, players judge the layout)."""
    per_player: bool = False
    """One per player: ``need`` is then the number of players."""


ANCHOR_CHECK = SetupCheck(
    "anchors", Text("桌角的 4 个定位标记", "The 4 table anchors at the corners"), "table anchor", 4
)
"""Every game's first line: the four tags at the table's corners (the camera's calibration)."""
BY_EYE = SetupCheck(
    "rest", Text("其余配件按规则书的设置摆好", "Everything else laid out as the rule book's set-up")
)
"""Every game's last line: what the camera does not check."""
