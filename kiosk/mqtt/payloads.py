"""The retained payloads, as schemas (docs/mqtt.md): a table's ``state`` and ``result``, and the
café's box of a game (``tablesight/_box/<game>``) that the tables take.

A receiver reads a payload with ``read_state``, ``read_result`` or ``read_site_box``: pydantic
parses the bytes and checks every field in one step (strict: a string is not a number, ``null``
is not a list), so what it returns is safe to draw and to write out. Its parser is iterative:
a payload nested a hundred thousand levels deep is one ``ValueError``, not a
``RecursionError``. Unknown fields are dropped (a version may add fields); a missing one or a
wrong type is a ``ValueError`` naming the field.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError


class _Payload(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class Text(_Payload):
    """A text a person reads, in both languages."""

    zh: str
    en: str


class Phase(_Payload):
    """The phase: its code name and its title."""

    name: str
    title: Text


class Step(_Payload):
    """The step within the phase."""

    title: Text
    index: int
    of: int


class Turn(_Payload):
    """Whose turn it is (seat from 1)."""

    seat: int = Field(ge=1)
    name: Text


class Player(_Payload):
    """One seat as the screen names it."""

    seat: int = Field(ge=1)
    name: Text
    colour: str
    colour_name: Text
    hex: str = Field(pattern=r"^#[0-9A-Fa-f]{6}$")
    score: int | None


class Refused(_Payload):
    """A refused move nobody has put right yet."""

    kind: Literal["refused"]
    who: Text
    what: Text
    why: Text


class LinkLost(_Payload):
    """The camera or the LED controller lost."""

    kind: Literal["camera_lost", "controller_lost"]
    detail: str | None = None


class Ended(_Payload):
    """The game is over."""

    kind: Literal["ended"]
    title: Text
    winners: list[Text]


class Missing(_Payload):
    """Pieces of the game that the last pack-away check did not see, until a check finds all."""

    kind: Literal["missing"]
    count: int = Field(ge=1)
    title: Text


Alert = Annotated[Refused | LinkLost | Ended | Missing, Field(discriminator="kind")]


class End(_Payload):
    """How the game ended."""

    result: Literal["win", "shared_win", "loss", "finished"]
    title: Text
    why: Text
    winners: list[Text]


class State(_Payload):
    """The retained state summary of one table (``tablesight/<table>/state``)."""

    v: Literal[1]
    table: str
    game: str
    title: Text
    save: str
    round: int
    rounds: int | None
    phase: Phase
    step: Step | None
    order: str
    turn: Turn | None
    next: Text
    players: list[Player]
    moves: int = Field(ge=0)
    links: dict[str, str]
    alerts: list[Alert]
    end: End | None
    url: str | None
    dropped: int = Field(ge=0)
    connection: int | None = Field(None, ge=1)
    """The table's connections to the broker so far (added in version 1; absent from older
    tables)."""
    box: Literal["cafe", "table", "demo"] | None = None
    """The box the game in progress is played with: the café's (as the table took it), the
    table's own items, or the demo box alone (added in version 1; absent from older tables)."""


class ResultPlayer(_Payload):
    """One seat of an ended game."""

    name: Text
    colour: str
    score: int | None
    time_s: int | None = Field(None, ge=0)
    """Seconds the seat spent on its own turns, when the game had a timer (``kiosk.timers``;
    absent from older tables and from games without one)."""


class Result(_Payload):
    """The result of one ended game (``tablesight/[<site>/]<table>/result``, one row of the
    café's results)."""

    v: Literal[1]
    table: str
    save: str
    id: str | None = Field(None, pattern=r"^[0-9a-f]{16}$")
    """The game's result id, made from the save and the table's session (its outbox's epoch and
    when it first saw the save): the same ended game always has the same id, two games never
    one (added in version 1; absent from older tables)."""
    site: str | None = None
    """The table's site (None in the tree without sites)."""
    number: int | None = Field(None, ge=1)
    """The table's results so far, 1, 2, 3 … in the order its games ended."""
    started: str | None = None
    """When the table first saw the save (UTC)."""
    game: str
    title: Text
    ended: str
    result: Literal["win", "shared_win", "loss", "finished"]
    winners: list[Text]
    players: list[ResultPlayer]
    moves: int = Field(ge=0)
    rounds: int | None


class SiteBox(_Payload):
    """The café's box of one game (``tablesight/_box/<game>``, retained): the box as the café
    plays it, as the game's data files (TOML texts, what ``tablesight box GAME export``
    writes), which every table of the café takes for its new games."""

    v: Literal[1]
    game: str
    digest: str = Field(pattern=r"^[0-9a-f]{64}$")
    """SHA-256 of the files as canonical JSON (``kiosk.mqtt.site_box.files_digest``): which
    box it is; a table checks it against the files."""
    items: int = Field(ge=0)
    """How many of the box's items are the café's own (the rest are the demo box's)."""
    offered: str
    """When the café took this box (UTC)."""
    files: dict[str, str] = Field(max_length=64)
    """Each data file's name and its TOML text."""


_STATE = TypeAdapter(State)
_SITE_BOX = TypeAdapter(SiteBox)
_RESULT = TypeAdapter(Result)


def _read(adapter: TypeAdapter[Any], payload: bytes | str, table: str | None) -> Any:
    try:
        value = adapter.validate_json(payload)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "the payload"
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise ValueError(f"{where}: {first['msg']}{more}") from None
    if table is not None and value.table != table:
        raise ValueError(f"names table {value.table!r} on the topic of {table!r}")
    return value


def read_state(payload: bytes | str, table: str | None = None) -> State:
    """A state summary checked against its schema (and naming ``table``, when given);
    ValueError saying the first field that is wrong."""
    state: State = _read(_STATE, payload, table)
    return state


def read_result(payload: bytes | str, table: str | None = None, site: str | None = None) -> Result:
    """A result checked against its schema (and naming ``table`` and ``site``, when a table
    is given); ValueError saying the first field that is wrong."""
    result: Result = _read(_RESULT, payload, table)
    if table is not None and result.site != site:
        raise ValueError(f"names site {result.site!r} on the topic of site {site!r}")
    return result


def read_site_box(payload: bytes | str, game: str | None = None) -> SiteBox:
    """The café's box checked against its schema (and naming ``game``, when given);
    ValueError saying the first field that is wrong."""
    box: SiteBox = _read(_SITE_BOX, payload, None)
    if game is not None and box.game != game:
        raise ValueError(f"names game {box.game!r} on the topic of {game!r}")
    return box


def as_json(value: BaseModel) -> dict[str, Any]:
    """A checked payload as JSON data, with only the fields it was given."""
    return value.model_dump(mode="json", exclude_unset=True)
