"""Read-only answers: the table's status, the games that can be set up, the health check."""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request

from engine.core import EngineError, Text, find_game, move_from_dict
from engine.core.box import Box
from engine.core.game import available_games
from engine.core.text import Language
from kiosk.boxes import current_box
from kiosk.deps import PairingDep, SettingsDep, TableDep, is_local
from kiosk.pairing import Pairing
from kiosk.routers.controls import MoveBody, verdict_answer
from kiosk.seats import COLOURS, MAX_NAME
from kiosk.settings import Settings
from kiosk.table import NoGameError, Table
from vision.errors import VisionError
from vision.registry import load_registry

router = APIRouter(tags=["status"])


def viewer_extras(
    settings: Settings, pairing: Pairing, local: bool, lang: Language
) -> dict[str, Any]:
    """What one viewer sees beside the shared snapshot: its language, the kiosk's settings,
    and whether it is the kiosk (the pairing code on the kiosk's own screen only)."""
    return {
        "lang": lang,
        "settings": {
            "lang": settings.lang,
            "brightness": settings.brightness,
            "sound": settings.sound,
        },
        "control": {
            "local": local,
            "lan": settings.bind_host not in ("127.0.0.1", "::1", "localhost"),
            "code": pairing.code if local else None,
        },
    }


def snapshot(
    table: Table, settings: Settings, pairing: Pairing, local: bool, lang: Language
) -> dict[str, Any]:
    """The presenter's snapshot in ``lang`` as JSON plus what this viewer may see
    (``viewer_extras``)."""
    return {
        **table.presenter.snapshot(lang).to_json(),
        **viewer_extras(settings, pairing, local, lang),
    }


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """Whether the service answers (on the event loop itself: a busy thread pool, camera
    readings or sheets being drawn, does not delay it)."""
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
    Anyone may read it; moves are made through ``POST /api/move``. 409 while the table has
    no game (``NoGameError``)."""
    if not table.has_game:
        raise NoGameError()
    return table.presenter.snapshot(lang or settings.lang).console.to_json()


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
    """Every game that can be set up, in ``lang``: its options with their labels and choices
    (``describe_options``) and the set-up checklist the camera confirms (``checklist``)."""
    lang = lang or settings.lang
    out = []
    for game in available_games():
        box = current_box(settings.data_dir, game)
        texts = game.option_texts_for(box)
        out.append(
            {
                "name": game.name,
                "title": game.title.in_(lang),
                "min_players": game.min_players,
                "max_players": game.max_players,
                "players_label": _label(texts, "players", lang),
                "options": describe_options(game.options_type, texts, lang),
                "box": box_state(box, lang),
                "checklist": checklist(game.name, lang),
            }
        )
    return out


@router.get("/api/colours")
def colours(lang: Language = "en") -> dict[str, Any]:
    """The colours players choose from at set-up (key, name in ``lang``, hex), and the longest
    name a player may give (``kiosk.seats``)."""
    return {
        "colours": [
            {"key": key, "name": c.name.in_(lang), "hex": c.hex} for key, c in COLOURS.items()
        ],
        "max_name": MAX_NAME,
    }


def box_state(box: Box, lang: Language) -> dict[str, Any]:
    """What the set-up page says of the box a new game is played with: how many printed
    items are the owner's, of how many, and that line in ``lang``."""
    counts = box.counts().values()
    mine, total = sum(m for m, _ in counts), sum(m + d for m, d in counts)
    if mine == 0:
        line = Text(f"演示盒:{total}项都是编造的值", f"Demo box: all {total} values invented")
    else:
        line = Text(f"你的盒子:{total}项中已录入{mine}项", f"Your box: {mine} of {total} copied")
    return {"mine": mine, "total": total, "line": line.in_(lang)}


def describe_options(
    options_type: type, texts: dict[str, Text] | None = None, lang: Language = "en"
) -> list[dict[str, Any]]:
    """The fields of a game's options dataclass as set-up fields, named in ``lang`` from the
    game's ``option_texts``: name, label, kind, default, choices (each a value and its label).

    ``kind`` is ``int``, ``float``, ``bool``, ``choice``, ``list`` (of words) or ``text``;
    ``optional`` says whether the field may be left empty (None). A text or list field whose
    values the texts name (``"field=value"``) offers those values as its choices, and a ``text``
    or ``int`` field becomes a ``choice`` among them. ``seat`` says an int names a seat (the
    page offers the players). ``players`` is left out: the page asks for it apart.
    """
    texts = texts or {}
    hints = typing.get_type_hints(options_type)
    fields = []
    for f in dataclasses.fields(options_type):
        if f.name == "players" or _holds_records(hints[f.name]):
            continue
        kind, choices, optional = _kind(hints[f.name])
        default = None if f.default is dataclasses.MISSING else f.default
        named = _named_values(texts, f.name, kind)
        if choices is None and named:
            choices = named
            kind = "list" if kind == "list" else "choice"
        fields.append(
            {
                "name": f.name,
                "label": _label(texts, f.name, lang),
                "kind": kind,
                "choices": None
                if choices is None
                else [
                    {"value": c, "label": _label(texts, f"{f.name}={c}", lang, c)} for c in choices
                ],
                "optional": optional,
                "default": list(default) if isinstance(default, tuple) else default,
                "seat": kind == "int" and (f.name == "seat" or f.name.endswith("_seat")),
            }
        )
    return fields


def _named_values(texts: dict[str, Text], field: str, kind: str) -> list[Any]:
    """The values of ``field`` that the texts name, as the field's type spells them."""
    values: list[Any] = []
    for key in texts:
        name, sep, value = key.partition("=")
        if sep and name == field:
            values.append(int(value) if kind == "int" and value.lstrip("-").isdigit() else value)
    if kind == "int" and not all(isinstance(v, int) for v in values):
        return []
    return values if kind in ("text", "list", "int") else []


def _label(texts: dict[str, Text], key: str, lang: Language, value: Any = None) -> str:
    """What players read for an option or value: the game's text, else a humanised key."""
    if key in texts:
        return texts[key].in_(lang)
    if value is not None:
        return str(value).replace("_", " ")
    return key.replace("_", " ").capitalize()


@cache
def _registry() -> Any:
    return load_registry()


def checklist(game: str, lang: Language) -> list[dict[str, Any]]:
    """The set-up checklist of ``game`` in ``lang`` (``Game.checklist``): each line's label,
    and for what the camera can confirm the tags the registry gives it (tag id → which piece)
    and how many pieces it needs."""
    try:
        registry = _registry()
    except VisionError:
        registry = None
    out = []
    for check in find_game(game).checklist():
        tags: dict[str, int] | None = None
        if check.group is not None and registry is not None:
            entries = [e for e in registry.entries.values() if e.name == check.group]
            entries = [e for e in entries if e.game in (game, "anchors")]
            tags = {str(e.tag_id): e.item for e in entries} or None
        out.append(
            {
                "key": check.key,
                "label": check.text.in_(lang),
                "camera": tags is not None,
                "tags": tags,
                "need": check.need,
                "per_player": check.per_player,
            }
        )
    return out


def _holds_records(hint: Any) -> bool:
    """Whether a field's type is, or holds, a dataclass or a mapping (not set up by touch)."""
    if dataclasses.is_dataclass(hint) or typing.get_origin(hint) is dict or hint is dict:
        return True
    return any(_holds_records(arg) for arg in typing.get_args(hint) if arg is not Ellipsis)


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
