"""What the table screen shows of a game, as texts to check: shared by each game's
``test_screen_texts.py`` (the picture, the view and the log of every state of the example
games; ``problems()`` is the check, tests/support/player_texts.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from player_texts import problems

from engine.core import Session, State, Text, find_game, move_from_dict


def walk(path: Path, game: str) -> Iterator[tuple[int, State[Any], tuple[Any, ...]]]:
    """Each state of an example game of ``game`` with the line and the events that led to it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    session = Session(find_game(game), head.get("setup"), int(head.get("seed", 0)))
    yield 1, session.state, tuple(session.start_events)
    for number, line in enumerate(lines[1:], 2):
        if line.strip() and not line.lstrip().startswith("#"):
            result = session.submit(move_from_dict(json.loads(line)))
            yield number, session.state, tuple(result.events)


def view_texts(view: dict[str, Any]) -> Iterator[str]:
    """Every text of a game's view: the summary, each seat's name (where it has one) and
    fields."""
    for label, value in view.get("summary", []):
        yield str(label)
        yield str(value)
    for player in view.get("players", []):
        if "name" in player:
            yield str(player["name"])
        for label, value in player["fields"]:
            yield str(label)
            yield str(value)


def picture_texts(drawn: dict[str, Any]) -> Iterator[str]:
    """Every text of a picture: titles, cell texts, tokens, notes and the legend."""
    for board in drawn["boards"]:
        yield board["title"]
        yield from (c["text"] for c in board["cells"] if "text" in c)
        yield from (t["text"] for t in board["tokens"])
        yield from board["notes"]
    yield from (e["text"] for e in drawn["legend"])


CUT = ("…", "...")
"""A text cut short (issue 38: "…" in six samples of the held-out sweep): what players must
read is whole, in both languages."""


def cut(text: Text) -> list[str]:
    """A "…" (or "...") in either language of one text."""
    return [
        f"{mark!r} in the {lang} text"
        for lang in ("zh", "en")
        for mark in CUT
        if mark in text.in_(lang)
    ]


def bad(zh: Iterator[str], en: Iterator[str], where: str) -> list[str]:
    """What is wrong with each pair of texts (the Chinese and the English of one thing): the
    shared player-text check, and no text cut short with "…"."""
    return [
        f"{where}: {z!r} / {e!r}: {found}"
        for z, e in zip(zh, en, strict=True)
        if (found := problems(Text(z, e)) + cut(Text(z, e)))
    ]


def view_and_picture_problems(game: Any, state: State[Any], where: str) -> list[str]:
    """What is wrong with the view and the picture of one state, Chinese against English."""
    empty = {"boards": [], "legend": []}
    found = bad(view_texts(game.view(state, "zh")), view_texts(game.view(state, "en")), where)
    found += bad(
        picture_texts(game.picture(state, "zh") or empty),
        picture_texts(game.picture(state, "en") or empty),
        where,
    )
    return found
