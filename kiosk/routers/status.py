"""Read-only answers: the table's status, the games that can be set up, the health check."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request

from engine.core import EngineError, Game, find_game, game_names, move_from_dict
from engine.core.game import GAME_MODULES
from kiosk.deps import Pairing, PairingDep, SettingsDep, TableDep, is_local
from kiosk.routers.controls import MoveBody, verdict_answer
from kiosk.settings import Language, Settings
from kiosk.table import Table

router = APIRouter(tags=["status"])


def snapshot(
    table: Table, settings: Settings, pairing: Pairing, local: bool, lang: str
) -> dict[str, Any]:
    """The status in ``lang`` plus what this viewer may see: the pairing code on the kiosk only."""
    status = table.status(lang)
    status["lang"] = lang
    status["settings"] = {
        "lang": settings.lang,
        "brightness": settings.brightness,
        "sound": settings.sound,
    }
    status["control"] = {
        "local": local,
        "lan": settings.bind_host not in ("127.0.0.1", "::1", "localhost"),
        "code": pairing.code if local else None,
    }
    return status


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """Whether the service answers."""
    return {"status": "ok"}


@router.get("/api/status")
def status(
    request: Request,
    table: TableDep,
    settings: SettingsDep,
    pairing: PairingDep,
    lang: Language | None = None,
) -> dict[str, Any]:
    """Where the game is, in ``lang`` (default: the kiosk's language)."""
    return snapshot(table, settings, pairing, is_local(request), lang or settings.lang)


@router.get("/api/offers")
def offers(table: TableDep, settings: SettingsDep, lang: Language | None = None) -> dict[str, Any]:
    """What each seat may do now (the players' console), in ``lang``: groups of offers, the
    acting seat first; each offer's options carry the rules' verdict (docs/kiosk.md).
    Anyone may read it; moves are made through ``POST /api/move``."""
    return table.console(lang or settings.lang)


@router.post("/api/check")
def check(
    body: MoveBody, table: TableDep, settings: SettingsDep, lang: Language | None = None
) -> dict[str, Any]:
    """Whether a move may be made now, without making it: the console asks while players set
    the counts of a move (a trade's tally, a number), so "Do it" says why before it is touched.
    It changes nothing, so anyone may ask; the answer is that of ``POST /api/move``."""
    try:
        move = move_from_dict(body.model_dump())
    except EngineError as exc:
        raise HTTPException(400, str(exc)) from None
    return verdict_answer(table.check(move), lang or settings.lang)


@router.get("/api/games")
def games(settings: SettingsDep, lang: Language | None = None) -> list[dict[str, Any]]:
    """Every game that can be set up, with its options described for the setup form."""
    lang = lang or settings.lang
    out = []
    for game in available_games():
        out.append(
            {
                "name": game.name,
                "title": game.title.in_(lang),
                "min_players": game.min_players,
                "max_players": game.max_players,
                "options": describe_options(game.options_type),
            }
        )
    return out


def available_games() -> list[Game]:
    """The games that can be played now; a game package still being written is left out."""
    # RecursionError: engine.core.game.find_game recurses through game_names() when a game's
    # package imports without registering its game (a half-written package).
    try:
        names = game_names()
    except (EngineError, RecursionError):
        names = list(GAME_MODULES)
    games = []
    for name in names:
        try:
            games.append(find_game(name))
        except (EngineError, RecursionError):
            continue
    return games


def describe_options(options_type: type) -> list[dict[str, Any]]:
    """The fields of a game's options dataclass as form fields: name, kind, default, choices.

    ``kind`` is ``int``, ``float``, ``bool``, ``choice``, ``list`` (of words) or ``text``;
    ``optional`` says whether
    the field may be left empty (None). ``players`` is left out: the form asks for it apart.
    """
    hints = typing.get_type_hints(options_type)
    fields = []
    for f in dataclasses.fields(options_type):
        if f.name == "players":
            continue
        kind, choices, optional = _kind(hints[f.name])
        default = None if f.default is dataclasses.MISSING else f.default
        fields.append(
            {
                "name": f.name,
                "kind": kind,
                "choices": choices,
                "optional": optional,
                "default": default,
            }
        )
    return fields


def _kind(hint: Any) -> tuple[str, list[Any] | None, bool]:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        optional = len(inner) < len(args)
        if any(typing.get_origin(a) in (tuple, list) for a in inner):
            return "list", None, optional
        kind, choices, _ = _kind(inner[0]) if len(inner) == 1 else ("text", None, False)
        return kind, choices, optional
    if origin in (tuple, list):
        return "list", None, False
    if origin is Literal:
        return "choice", list(args), False
    return {bool: "bool", int: "int", float: "float"}.get(hint, "text"), None, False
