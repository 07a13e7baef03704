"""The players at the table: the name and colour each seat chose at set-up.

The colour is used on the screen (the board, the console, the scores) and on the LEDs (the
active player's phase LED), so one list of colours serves both.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from engine.core import Text
from engine.core.text import Language


@dataclass(frozen=True)
class Colour:
    """A player colour: its name in both languages, its hex for the screen, its LED colour."""

    name: Text
    hex: str
    led: tuple[int, int, int]


COLOURS: dict[str, Colour] = {
    "red": Colour(Text("红", "red"), "#ff6b6b", (255, 50, 50)),
    "blue": Colour(Text("蓝", "blue"), "#5aa9ff", (50, 120, 255)),
    "green": Colour(Text("绿", "green"), "#46d27c", (40, 210, 80)),
    "yellow": Colour(Text("黄", "yellow"), "#ffd23f", (255, 190, 0)),
    "purple": Colour(Text("紫", "purple"), "#c58bff", (160, 60, 255)),
    "orange": Colour(Text("橙", "orange"), "#ff9f43", (255, 120, 0)),
}
"""The colours players choose from, in the order seats get them by default."""

MAX_NAME = 16
"""The longest player name (characters): it must fit a seat's strip on a 7-inch screen."""


@dataclass(frozen=True)
class PlayerSeat:
    """Who sits at one seat: the player's name (None: "player N") and colour (a key of
    ``COLOURS``)."""

    name: str | None
    colour: str

    def shown(self, seat: int, lang: Language) -> str:
        """How the screen names this seat: the chosen name, else "1号玩家" / "Player 1"."""
        return self.name or Text("{n}号玩家", "Player {n}").format(n=seat + 1).in_(lang)


def default_seats(players: int) -> list[PlayerSeat]:
    """Seats with no names and the colours in order."""
    order = list(COLOURS)
    return [PlayerSeat(None, order[i % len(order)]) for i in range(players)]


class SetupError(ValueError):
    """A choice made on the set-up page cannot be used (a seat, the save's name); ``text``
    says why in both languages."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.en)
        self.text = text


def parse_seats(raw: Any, players: int) -> list[PlayerSeat]:
    """Seats from plain data (a list of ``{"name", "colour"}``), filled up to ``players`` with
    the defaults; SetupError with a sentence for the players when a name or colour is wrong."""
    seats = default_seats(players)
    for i, item in enumerate(list(raw or [])[:players]):
        if not isinstance(item, dict):
            raise SetupError(
                Text(f"{i + 1}号玩家:要有名字和颜色", f"seat {i + 1}: expected a name and a colour")
            )
        name = str(item.get("name") or "").strip() or None
        if name is not None and len(name) > MAX_NAME:
            raise SetupError(
                Text(
                    f"{i + 1}号玩家:名字最多{MAX_NAME}个字",
                    f"seat {i + 1}: a name has at most {MAX_NAME} characters",
                )
            )
        colour = item.get("colour") or seats[i].colour
        if colour not in COLOURS:
            names = "、".join(c.name.zh for c in COLOURS.values())
            raise SetupError(
                Text(
                    f"{i + 1}号玩家:没有这种颜色,可选{names}",
                    f"seat {i + 1}: no colour {colour!r}; colours: {', '.join(COLOURS)}",
                )
            )
        seats[i] = PlayerSeat(name, colour)
    taken = [s.colour for s in seats]
    if len(set(taken)) < len(taken):
        raise SetupError(Text("两位玩家选了同一种颜色", "two players chose the same colour"))
    return seats


def seats_json(seats: list[PlayerSeat]) -> list[dict[str, Any]]:
    """Seats as stored (plain data)."""
    return [asdict(s) for s in seats]
