"""Moves and events: frozen dataclasses with a ``type`` and an exact JSON round trip.

A move or event class declares ``type: ClassVar[str]`` and is registered by that name when it is
defined. ``to_dict`` gives plain JSON data with the ``type`` first; ``move_from_dict`` and
``event_from_dict`` turn such data back into the same value, or raise InvalidMoveError with a
message that names the bad field.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Nudge(Move):
...     type: ClassVar[str] = "doc.nudge"
...     seat: int
...     cells: tuple[tuple[int, int], ...] = ()
>>> data = Nudge(seat=1, cells=((0, 1),)).to_dict()
>>> data
{'type': 'doc.nudge', 'seat': 1, 'cells': [[0, 1]]}
>>> move_from_dict(data) == Nudge(seat=1, cells=((0, 1),))
True
"""

from __future__ import annotations

import builtins
import dataclasses
import json
from typing import Any, ClassVar, TypeVar

from pydantic import TypeAdapter, ValidationError

from engine.core.errors import InvalidMoveError

Seat = int
"""A player's place at the table, counted from 0 clockwise from the first player."""


class Record:
    """Common base of moves and events; subclasses are frozen dataclasses."""

    type: ClassVar[str]
    _registry: ClassVar[dict[str, builtins.type[Record]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("type")
        if isinstance(name, str):
            known = cls._registry.get(name)
            if known is not None and known.__qualname__ != cls.__qualname__:
                raise TypeError(f"record type {name!r} is used by {known.__qualname__} already")
            cls._registry[name] = cls

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data: ``{"type": ..., field: value, ...}``."""
        data = _adapter(type(self)).dump_python(self, mode="json")
        return {"type": self.type, **data}

    def to_json(self) -> str:
        """The record as one line of JSON."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))


class Move(Record):
    """Something a player (or the table, through a button) does; checked before it is applied.

    ``seat`` is None for moves made by the table as a whole (the confirm button).
    ``ends_turn`` tells the phase machine whether the move uses up the seat's turn.
    ``out_of_turn`` marks a free action that a seat may take outside its own turn in a phase
    played in turns (while another seat's turn is open, or after it has passed); it neither
    starts nor ends a turn, and the game's ``legal`` may still refuse it (an action it would
    interrupt).
    """

    _registry: ClassVar[dict[str, type[Record]]] = {}
    ends_turn: ClassVar[bool] = True
    out_of_turn: ClassVar[bool] = False
    seat: Seat | None


class Event(Record):
    """Something that happened, for the world outside the engine to react to."""

    _registry: ClassVar[dict[str, type[Record]]] = {}


_ADAPTERS: dict[type, TypeAdapter[Any]] = {}

R = TypeVar("R", bound=Record)


def _adapter(cls: type) -> TypeAdapter[Any]:
    """The pydantic adapter of one record class, made once."""
    adapter = _ADAPTERS.get(cls)
    if adapter is None:
        adapter = _ADAPTERS[cls] = TypeAdapter(cls)
    return adapter


def _from_dict(base: type[R], data: Any, what: str) -> R:
    if not isinstance(data, dict):
        raise InvalidMoveError(f"a {what} must be a JSON object, not {type(data).__name__}")
    name = data.get("type")
    cls = base._registry.get(name) if isinstance(name, str) else None
    if cls is None:
        raise InvalidMoveError(f"unknown {what} type {name!r}")
    fields = {k: v for k, v in data.items() if k != "type"}
    known: set[str] = (
        {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    )
    unknown = sorted(set(fields) - known)
    if unknown:
        raise InvalidMoveError(f"{what} {name!r} has no field {unknown[0]!r}")
    try:
        record = _adapter(cls).validate_json(json.dumps(fields), strict=True)
    except RecursionError:
        raise InvalidMoveError(f"{what} {name!r}: nested too deeply") from None
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or name}: {e['msg']}" for e in exc.errors()
        )
        raise InvalidMoveError(f"{what} {name!r}: {problems}") from None
    assert isinstance(record, base)  # the registry holds only subclasses of its base
    return record


def move_from_dict(data: Any) -> Move:
    """The move that ``Move.to_dict`` gave this data for; InvalidMoveError if malformed."""
    return _from_dict(Move, data, "move")


def event_from_dict(data: Any) -> Event:
    """The event that ``Event.to_dict`` gave this data for; InvalidMoveError if malformed."""
    return _from_dict(Event, data, "event")


def move_from_json(line: str) -> Move:
    """Parse one JSON line into a move; InvalidMoveError if malformed."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InvalidMoveError(f"not JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise InvalidMoveError("not a move: nested too deeply") from None
    except ValueError as exc:  # a number longer than Python reads (4300 digits)
        raise InvalidMoveError(f"not a move: {exc}") from None
    return move_from_dict(data)


def move_types() -> dict[str, type[Record]]:
    """Every registered move type by name (for documentation and tests)."""
    return dict(Move._registry)


def event_types() -> dict[str, type[Record]]:
    """Every registered event type by name."""
    return dict(Event._registry)
