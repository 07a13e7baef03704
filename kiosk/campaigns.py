"""Campaigns: a game whose ended session hands a Log to its next session (Stonesaga).

A campaign is kept as the chain of its saved games. The next session's options carry the Log of
the session before (option ``log``), and the Log of an ended session is computed from that
session's saved moves (``Game.campaign_log``), so nothing is written besides the saves: a
campaign survives whatever a save survives, a kill -9 between or during sessions included.

A session can be continued once its game has ended and until a later session carries its Log.
"""

from __future__ import annotations

import json
import threading
from dataclasses import asdict, dataclass, is_dataclass
from typing import Any

from engine.core import EngineError, Game, Text, find_game
from engine.core.game import available_games
from engine.core.text import Language
from kiosk.seats import PlayerSeat
from kiosk.store import Store, StoreError

EPOCH_SESSION = Text("第{epoch}纪元 第{session}局之后", "Epoch {epoch}, after session {session}")
LIVING = Text("在世:{names}", "Living: {names}")
LEGENDS = Text("传说:{names}", "Legends: {names}")
NOBODY = Text("无", "none")


@dataclass(frozen=True)
class Continuation:
    """An ended session whose campaign can go on: its save, game, Log and players."""

    save: str
    game: str
    updated_at: str
    log: dict[str, Any]
    seats: tuple[PlayerSeat, ...]
    draws: str = "table"
    """Where the session's cards came from (``Options.draws``): the next one goes on so."""


def has_campaign(game: Game) -> bool:
    """Whether the game hands a Log from one session to the next."""
    return type(game).campaign_log is not Game.campaign_log


def campaign_games() -> list[str]:
    """The names of the games that have campaigns."""
    return [g.name for g in available_games() if has_campaign(g)]


_Read = tuple[dict[str, Any] | None, str | None, tuple[PlayerSeat, ...], str]
_cache: dict[tuple[str, str, str, int], _Read]
_cache = {}
_lock = threading.Lock()


def continuations(store: Store) -> list[Continuation]:
    """Every ended session of the saved games in ``store`` whose campaign has not gone on yet,
    the latest first. Each save is replayed once, then kept until it changes."""
    games = set(campaign_games())
    entries: list[Continuation] = []
    carried_on: set[str] = set()
    seen = set()
    where = str(store.path)
    with _lock:
        for info in store.list():
            if info.game not in games:
                continue
            key = (where, info.name, info.updated_at, info.entries)
            seen.add(key)
            if key not in _cache:
                _cache[key] = _read(store, info.name)
            log, carried, seats, draws = _cache[key]
            if carried is not None:
                carried_on.add(carried)
            if log is not None:
                entries.append(
                    Continuation(info.name, info.game, info.updated_at, log, seats, draws)
                )
        for stale in [k for k in _cache if k[0] == where and k not in seen]:
            del _cache[stale]  # a save that changed since: only its newest reading is kept
    return [e for e in entries if _dump(e.log) not in carried_on]


def _read(store: Store, name: str) -> _Read:
    """A save's Log if its game has ended, the Log its options carried, and its seats."""
    try:
        saved = store.load(name)
    except (StoreError, EngineError, ValueError):  # a save that cannot be resumed cannot go on
        return None, None, (), "table"
    session = saved.session
    log = session.game.campaign_log(session.state)
    carried = _option_log(session.options)
    draws = str(getattr(session.options, "draws", "table"))
    return log, None if carried is None else _dump(carried), tuple(saved.seats), draws


def _option_log(options: Any) -> dict[str, Any] | None:
    log = getattr(options, "log", None)
    if log is None:
        return None
    to_json = getattr(log, "to_json", None)
    if callable(to_json):
        return to_json()
    return asdict(log) if is_dataclass(log) and not isinstance(log, type) else log


def _dump(log: dict[str, Any]) -> str:
    return json.dumps(log, sort_keys=True, ensure_ascii=False)


def find(store: Store, save: str) -> Continuation:
    """The continuation of one save; LookupError with a sentence when it cannot go on."""
    for entry in continuations(store):
        if entry.save == save:
            return entry
    raise LookupError(f"the saved game {save!r} has no campaign to continue")


def allowed(
    game: Game,
    log: dict[str, Any] | None,
    field: str,
    values: list[Any],
    players: int,
    box: Any = None,
) -> list[Any]:
    """The values of one option that the game accepts for the next session of this Log, or
    with ``log`` None for a new campaign's first session (the other options as by default),
    judged by ``box`` (the data folder's; None: the demo box)."""
    ok = []
    for value in values:
        raw: dict[str, Any] = {"players": players, field: value, "box": box}
        if log is not None:
            raw["log"] = log
        try:
            game.parse_options(raw)
        except (EngineError, ValueError, TypeError):
            continue
        ok.append(value)
    return ok


def summary(log: dict[str, Any], lang: Language, game: Game | None = None) -> list[str]:
    """Lines that tell players which campaign this is: where it stands and who lives on, each
    character named as the game names it in ``lang`` (its ``roster_name``, if it has one)."""
    roster = [h for h in log.get("roster", []) if isinstance(h, dict)]
    legend = [bool(h.get("legend")) or h.get("age") == "dead" for h in roster]
    named = getattr(game, "roster_name", None)

    def name(hero: dict[str, Any]) -> str:
        raw = str(hero.get("name"))
        return named(raw).in_(lang) if callable(named) else raw

    living = [name(h) for h, gone in zip(roster, legend, strict=True) if not gone]
    legends = [name(h) for h, gone in zip(roster, legend, strict=True) if gone]
    sep = "、" if lang == "zh" else ", "
    lines = [
        EPOCH_SESSION.in_(lang).format(epoch=log.get("epoch", 1), session=log.get("session", 1)),
        LIVING.in_(lang).format(names=sep.join(living) or NOBODY.in_(lang)),
    ]
    if legends:
        lines.append(LEGENDS.in_(lang).format(names=sep.join(legends)))
    return lines


def game_of(entry: Continuation) -> Game:
    """The game of a continuation."""
    return find_game(entry.game)
