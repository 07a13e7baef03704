"""Campaigns at set-up: which ended sessions can go on, and starting the next session of one.

``GET /api/campaigns`` lists them in the screen's language; ``POST /api/campaigns/continue``
starts the next session with the Log of the one chosen (``kiosk.campaigns``). Starting needs
control, as a new game does (``kiosk.deps.require_control``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, ConfigDict, Field

from engine.core import EngineError, Text, find_game
from engine.core.text import Language
from kiosk import campaigns
from kiosk.boxes import current_box
from kiosk.deps import Control, SettingsDep, TableDep
from kiosk.routers.controls import SeatBody
from kiosk.routers.status import describe_options
from kiosk.seats import parse_seats, seats_json
from kiosk.store import StoreError
from kiosk.table import setup_refusal

router = APIRouter(prefix="/api/campaigns", tags=["campaigns"])

ENDED = Text("{when} 结束", "ended {when}")
CONTINUED_FIELDS = ("challenge",)
"""The options players choose again for the next session; the Log gives the others."""


class ContinueBody(BaseModel):
    """The next session of a campaign: the save it follows, the chosen options (the
    challenge), the players and their names and colours, and an optional save name."""

    model_config = ConfigDict(extra="forbid")
    save: str = Field(min_length=1, max_length=80)
    players: int = Field(ge=1, le=8)
    options: dict[str, str | int | None] = Field(default_factory=dict)
    seats: list[SeatBody] = Field(default_factory=list, max_length=8)
    name: str | None = Field(None, min_length=1, max_length=80)
    seed: int = Field(0, ge=0, le=2**31 - 1)


@router.get("")
def list_campaigns(
    table: TableDep, settings: SettingsDep, lang: Language | None = None
) -> dict[str, Any]:
    """The games that have campaigns, and each ended session that can go on: when, where the
    campaign stands and who lives on, its players, and the options to choose for the next
    session (only the values the game allows after this Log); and under ``new`` each game's
    options for a new campaign, the choices the game allows for its first session
    (§开局设置.5 in Stonesaga: the campaign-start card, chosen)."""
    lang = lang or settings.lang
    out = []
    for entry in _continuations(table):
        game = campaigns.game_of(entry)
        players = len(entry.seats) or game.min_players
        box = current_box(settings.data_dir, game)
        fields = []
        for field in describe_options(game.options_type, game.option_texts_for(box), lang):
            if field["name"] not in CONTINUED_FIELDS or not field["choices"]:
                continue
            values = [c["value"] for c in field["choices"]]
            ok = campaigns.allowed(game, entry.log, field["name"], values, players, box)
            field["choices"] = [c for c in field["choices"] if c["value"] in ok]
            field["default"] = ok[0] if ok else None
            fields.append(field)
        out.append(
            {
                "save": entry.save,
                "game": entry.game,
                "title": game.title.in_(lang),
                "lines": [
                    *campaigns.summary(entry.log, lang, game),
                    ENDED.in_(lang).format(when=_when(entry.updated_at, lang)),
                ],
                "players": players,
                "seats": seats_json(list(entry.seats)),
                "options": fields,
            }
        )
    fresh = {}
    for name in campaigns.campaign_games():
        game = find_game(name)
        box = current_box(settings.data_dir, game)
        fields = describe_options(game.options_type, game.option_texts_for(box), lang)
        for field in fields:
            if field["kind"] != "choice" or not field["choices"]:
                continue
            values = [c["value"] for c in field["choices"]]
            ok = campaigns.allowed(game, None, field["name"], values, game.min_players, box)
            field["choices"] = [c for c in field["choices"] if c["value"] in ok]
            if field["default"] not in ok and not (field["optional"] and field["default"] is None):
                field["default"] = ok[0] if ok else None
        fresh[name] = fields
    return {"games": campaigns.campaign_games(), "continuations": out, "new": fresh}


@router.post("/continue", dependencies=[Control])
def continue_campaign(
    body: ContinueBody, table: TableDep, settings: SettingsDep, lang: Language | None = None
) -> dict[str, Any]:
    """Start the next session of a campaign from the Log of the session ``save``; a refusal
    says why in ``lang`` (the set-up page's own), else in the kiosk's language."""
    try:
        with table.store_held() as store:
            entry = campaigns.find(store, body.save)
    except LookupError as exc:
        raise HTTPException(404, str(exc)) from None
    except StoreError as exc:
        raise HTTPException(503, str(exc)) from None
    try:
        seats = parse_seats([seat.model_dump() for seat in body.seats], body.players)
        chosen = {k: v for k, v in body.options.items() if k in CONTINUED_FIELDS}
        options = {**chosen, "players": body.players, "log": entry.log, "draws": entry.draws}
        table.new_game(entry.game, options, body.name, body.seed, seats)
    except (EngineError, StoreError, ValueError) as exc:
        raise HTTPException(400, setup_refusal(exc).in_(lang or settings.lang)) from None
    return {"save": table.saved.name, "game": table.saved.game.name}


def _continuations(table: Any) -> list[campaigns.Continuation]:
    try:
        with table.store_held() as store:
            return campaigns.continuations(store)
    except StoreError as exc:
        raise HTTPException(503, str(exc)) from None


def _when(stamp: str, lang: str) -> str:
    """A save's time as players read it: 12月3日 14:02 / 3 Dec 14:02 (the kiosk's local time)."""
    try:
        moment = datetime.fromisoformat(stamp).astimezone()
    except ValueError:
        return stamp
    if lang == "zh":
        return f"{moment.month}月{moment.day}日 {moment:%H:%M}"
    return f"{moment.day} {moment:%b %H:%M}"
