"""Control actions: advance, undo, a move, the menu, a new game, the settings; and the pairing
QR code that lets a phone in.

From the kiosk's own screen they are always allowed; from another device only with the pairing
token or code (``kiosk.deps.require_control``). Bodies are validated by pydantic in strict mode
(``"50"`` is not a number) and size-limited by the app; a refused action answers with a readable
message and changes nothing.
"""

from __future__ import annotations

import contextlib
import errno
import io
import ipaddress
import math
import socket
from typing import Any

import segno
from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.core import EngineError, NothingToUndoError, Text, Verdict, move_from_dict
from engine.core.text import Language
from kiosk.deps import Control, PairingDep, SettingsDep, TableDep
from kiosk.seats import MAX_NAME, parse_seats
from kiosk.settings import (
    SETTINGS_BUSY,
    KioskChanges,
    SettingsBusyError,
    save_kiosk_changes,
)
from kiosk.store import (
    NOT_KEPT_CODE,
    WHY_DENIED,
    WHY_FOLDER,
    WHY_FULL,
    SaveNotKeptError,
    StoreError,
)
from kiosk.table import setup_refusal
from kiosk.timers import TableTimers, TimerChoice

router = APIRouter(prefix="/api", tags=["controls"], dependencies=[Control])

NOT_SAVED = Text(
    "设置已生效,但无法保存到数据文件夹({reason});重启后会恢复原样",
    "the settings apply now but could not be saved in the data folder ({reason}); they will be"
    " as before after a restart",
)
WHY_UNWRITABLE = Text("无法写入", "it cannot be written")
WHY_NOT_WRITTEN = {
    errno.EROFS: WHY_FOLDER,
    errno.EACCES: WHY_DENIED,
    errno.EPERM: WHY_DENIED,
    errno.ENOSPC: WHY_FULL,
    errno.EDQUOT: WHY_FULL,
}
"""Why the settings file could not be written, by ``errno``, as the saves say it."""
NOT_ON_NETWORK = Text(
    "看板没有向网络开放(用 --lan 启动),手机无法配对",
    "the kiosk does not serve the network (start it with --lan), so no phone can pair",
)


class Strict(BaseModel):
    """A request body that refuses unknown fields, NaN or infinite numbers, and values of
    another type (``"50"`` for a number, ``1`` for true)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, strict=True)


def _finite(value: Any, where: str) -> None:
    """Raise ValueError if ``value`` holds a NaN or an infinity (JSON has neither)."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{where}: a number must be finite (not {value})")
    if isinstance(value, dict):
        for key, inner in value.items():
            _finite(inner, f"{where}.{key}")
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            _finite(inner, f"{where}[{index}]")


class MoveBody(BaseModel):
    """A move as the engine spells it: ``{"type": "pass", "seat": 0}`` (see docs/engine.md)."""

    model_config = ConfigDict(extra="allow")
    type: str = Field(min_length=1, max_length=64)

    @model_validator(mode="after")
    def _finite_fields(self) -> MoveBody:
        """A move's fields hold no NaN or infinity."""
        _finite(self.model_extra or {}, "move")
        return self


class MenuBody(Strict):
    """Open or close the menu; leave ``open`` out to toggle it."""

    open: bool | None = None


class SeatBody(Strict):
    """One player at set-up: a name (left out: "player N") and a colour (``kiosk.seats``)."""

    name: str | None = Field(None, max_length=MAX_NAME)
    colour: str | None = Field(None, max_length=20)


OptionValue = int | float | bool | str | list[str] | list[dict[str, Any]] | None
"""An option's value as a game takes it (a list of records: e.g. the characters of a Log)."""


class NewGameBody(Strict):
    """A new game: which game, how many players, its options, the players' names and colours,
    and an optional save name."""

    game: str = Field(min_length=1, max_length=40)
    players: int = Field(ge=1, le=8)
    options: dict[str, OptionValue] = Field(default_factory=dict)
    name: str | None = Field(None, min_length=1, max_length=80)
    seed: int = Field(0, ge=0, le=2**31 - 1)
    """The seed of what the game shuffles itself (a replayable set-up, as in docs/examples)."""
    seats: list[SeatBody] = Field(default_factory=list, max_length=8)

    @model_validator(mode="after")
    def _finite_options(self) -> NewGameBody:
        """The options hold no NaN or infinity, records included."""
        _finite(self.options, "options")
        return self


class StabilityBody(Strict):
    """How long a tag must be seen before it counts, and missed before it is removed."""

    add_ms: float | None = Field(None, ge=0, le=10_000)
    remove_ms: float | None = Field(None, ge=0, le=60_000)


class SettingsBody(Strict):
    """The settings a player may change while the service runs."""

    lang: Language | None = None
    brightness: int | None = Field(None, ge=0, le=100)
    sound: bool | None = None
    stability: StabilityBody | None = None


def verdict_answer(v: Verdict, lang: Language) -> dict[str, Any]:
    """The answer to a move: accepted or not, the reason code, the message and the rule."""
    return {"accepted": v.ok, "code": v.code, "message": v.message.in_(lang), "rule": v.rule}


def kept_answer(v: Verdict, lang: Language) -> dict[str, Any]:
    """``verdict_answer``, but 503 with the reason when the move could not be saved (the saves
    are read-only, the disk is full): it was refused and nothing changed."""
    if v.code == NOT_KEPT_CODE:
        raise HTTPException(503, v.message.in_(lang))
    return verdict_answer(v, lang)


@router.post("/advance")
def advance(table: TableDep, settings: SettingsDep, lang: Language | None = None) -> dict[str, Any]:
    """The confirm button: next step of a table phase, or end it. When the table's confirm is
    not open (``confirm`` in the status), nothing is made: the screen says why, and so does
    the answer (``accepted`` false, ``open`` false), in ``lang`` (default the kiosk's)."""
    lang = lang or settings.lang
    result = table.confirm()
    if result is None:
        why = table.presenter.snapshot(lang).confirm
        return {"accepted": False, "open": False, "code": why.code, "message": why.why}
    return kept_answer(result.verdict, lang)


@router.post("/move")
def move(
    body: MoveBody, table: TableDep, settings: SettingsDep, lang: Language | None = None
) -> dict[str, Any]:
    """Submit any move of the game being played; the answer in ``lang`` (the screen's own)."""
    try:
        parsed = move_from_dict(body.model_dump())
    except EngineError as exc:
        raise HTTPException(400, str(exc)) from None
    return kept_answer(table.submit(parsed).verdict, lang or settings.lang)


@router.post("/undo")
def undo(table: TableDep, settings: SettingsDep) -> dict[str, Any]:
    """The undo button: take back the last move, but one that began a phase only at a second
    press while the screen asks for it (``undone`` false, ``asked`` true: nothing changed)."""
    try:
        if table.take_back() is None:
            return {"undone": False, "asked": True, "moves": len(table.saved.session.moves)}
    except NothingToUndoError as exc:
        raise HTTPException(409, str(exc)) from None
    except SaveNotKeptError as exc:  # read-only saves, a full disk: nothing was changed
        raise HTTPException(503, exc.text.in_(settings.lang)) from None
    return {"undone": True, "moves": len(table.saved.session.moves)}


@router.post("/menu")
def menu(body: MenuBody, table: TableDep) -> dict[str, Any]:
    """Open, close or toggle the menu on the screen."""
    table.toggle_menu(body.open)
    return {"menu": table.menu_open}


@router.post("/new-game")
def new_game(
    body: NewGameBody, table: TableDep, settings: SettingsDep, lang: Language | None = None
) -> dict[str, Any]:
    """Start a new saved game; the old one stays saved. A refusal says why in ``lang`` (the
    set-up page's own), else in the kiosk's language."""
    try:
        seats = parse_seats([seat.model_dump() for seat in body.seats], body.players)
        options = {**body.options, "players": body.players}
        table.new_game(body.game, options, body.name, body.seed, seats)
    except (EngineError, StoreError, ValueError) as exc:
        raise HTTPException(400, setup_refusal(exc).in_(lang or settings.lang)) from None
    return {"save": table.saved.name, "game": table.saved.game.name}


NO_TIMERS = Text("这台看板没有计时器", "this kiosk runs no timers")
NO_TIMER = Text("这局游戏没有选计时器(开局时选择)", "this game has no timer (chosen at set-up)")


class TimerBody(Strict):
    """Pause or resume the timers; leave ``paused`` out to toggle them."""

    paused: bool | None = None


def _timers(request: Request, lang: Language) -> TableTimers:
    timers: TableTimers | None = getattr(request.app.state, "timers", None)
    if timers is None:
        raise HTTPException(503, NO_TIMERS.in_(lang))
    return timers


@router.post("/timer")
def pause_timer(body: TimerBody, request: Request, settings: SettingsDep) -> dict[str, Any]:
    """Pause, resume or toggle the game's timers (the menu's button; ``kiosk.timers``)."""
    timers = _timers(request, settings.lang)
    if timers.facts() is None:
        raise HTTPException(409, NO_TIMER.in_(settings.lang))
    return {"paused": timers.pause(body.paused)}


@router.post("/timer/choice")
def choose_timer(body: TimerChoice, request: Request, settings: SettingsDep) -> dict[str, Any]:
    """Set the timers of the game being played (the set-up page, after its new game): off,
    seconds per turn or a budget per seat, and a phase timer; the clocks start from nothing."""
    timers = _timers(request, settings.lang)
    timers.choose(body)
    return body.model_dump()


@router.post("/settings")
def change_settings(body: SettingsBody, table: TableDep, settings: SettingsDep) -> dict[str, Any]:
    """Change the language, LED brightness, sound or stability timing of the running service,
    and keep the change for the next start (``kiosk.settings.save_kiosk_changes``: one writer
    at a time). 409 when another screen held the settings too long (nothing changed); 503 when
    the data folder cannot keep it (it applies now, not after a restart)."""
    stability = body.stability.model_dump() if body.stability is not None else {}
    try:
        changes = KioskChanges(
            lang=body.lang, brightness=body.brightness, sound=body.sound, **stability
        )
        now = save_kiosk_changes(settings, changes)
    except SettingsBusyError:
        raise HTTPException(409, SETTINGS_BUSY.in_(settings.lang)) from None
    except OSError as exc:  # a read-only data folder, a full disk: as a move that is not kept
        text = NOT_SAVED.format(reason=WHY_NOT_WRITTEN.get(exc.errno or 0, WHY_UNWRITABLE))
        raise HTTPException(503, text.in_(settings.lang)) from None
    except ValueError as exc:  # the stabiliser refused the timing: nothing changed
        raise HTTPException(400, str(exc)) from None
    table.touch("settings")
    return {
        "lang": now.lang,
        "brightness": now.brightness,
        "sound": now.sound,
        "stability": {"add_ms": now.add_ms, "remove_ms": now.remove_ms},
    }


@router.get("/pairing.svg")
def pairing_qr(pairing: PairingDep, settings: SettingsDep) -> Response:
    """The QR code a phone scans to pair (``kiosk.pairing``): the table page at this machine's
    address on the network, with the run's token. For the kiosk's own screen (and phones already
    paired, who may show it to others); 404 without ``--lan``."""
    if not settings.lan:
        raise HTTPException(404, NOT_ON_NETWORK.in_(settings.lang))
    link = pairing.link(network_address(settings.bind_host), settings.port)
    out = io.BytesIO()
    segno.make(link, error="m").save(
        out, kind="svg", xmldecl=False, omitsize=True, border=4, light="#fff"
    )
    return Response(
        out.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"}
    )


def network_address(bind: str) -> str:
    """The address phones reach this machine at: the bound address when it is one, else the
    source address of the machine's route out (no packet is sent), else ``NAME.local``."""
    if bind not in ("0.0.0.0", "::", ""):
        return bind
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: a route is looked up, nothing is sent
        address = probe.getsockname()[0]
        if not ipaddress.ip_address(address).is_loopback and address != "0.0.0.0":
            return str(address)
    return f"{socket.gethostname().split('.')[0]}.local"
