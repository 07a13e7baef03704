"""An offer and its parts: the move templates a game offers for the players' console.

A game's ``offers`` hook builds these value types (``engine.core.game``); the core's
``engine.core.offers`` fills in and checks their options. Pure and JSON-ready: choice values
are the move's own JSON values (the field kinds: ``engine/core/offers.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.core.errors import InvalidMoveError
from engine.core.records import Move, Seat, move_from_dict
from engine.core.text import Language, Text, Verdict

FieldKind = Literal["pick", "cells", "number", "dice", "tally", "assign"]
OfferKind = Literal["dice", "main", "free", "card_effect", "camera", "core", "final"]
"""Where the console puts an offer, decided by the game (in this order on the screen):

- ``dice``: the dice the table just rolled, to be entered now;
- ``main``: the game's main actions, in the words of the rules;
- ``free``: free actions the rules name (eat, reroll), after the main ones;
- ``card_effect``: what a card or an ability says (gain, lose, "a card says so"), behind one
  "card effect…" entry that the console opens;
- ``camera``: a move the camera normally reads, offered as its fallback;
- ``core``: the core's own moves (end the turn, done with the phase, confirm);
- ``final``: a move that ends a scenario, a challenge or the session: its own row at the end of
  the seat's moves, made only by a second touch (``Offer.confirm`` says what the first asks).
"""
OFFER_KINDS: tuple[OfferKind, ...] = (
    "dice",
    "main",
    "free",
    "card_effect",
    "camera",
    "core",
    "final",
)
"""The kinds in the console's order."""


@dataclass(frozen=True)
class Choice:
    """One value a pick field may take (the move's JSON value) and what the button says."""

    value: Any
    label: Text
    most: int = 1
    """For a ``tally`` field: the highest count of this choice."""


@dataclass(frozen=True)
class Face:
    """One face of a die: its name, the symbol printed on it, and what it adds to the move."""

    label: Text
    symbol: str
    adds: tuple[tuple[str, int], ...] = ()
    """``(move field, amount)`` pairs, e.g. ``(("hits", 1),)``; empty for a blank face."""


@dataclass(frozen=True)
class Die:
    """A die the players rolled, as the tray lit it (``name`` as in ``DicePoolAnnounced``)."""

    name: str
    label: Text
    faces: tuple[Face, ...]


@dataclass(frozen=True)
class Field:
    """One thing the players choose to complete a move."""

    name: str
    label: Text
    kind: FieldKind = "pick"
    choices: tuple[Choice, ...] = ()
    low: int = 0
    high: int = 0
    default: int = 0
    dice: tuple[Die, ...] = ()
    grid: tuple[int, int] | None = None
    """``(columns, rows)`` of the board a ``cells`` field is drawn on."""
    pool: tuple[int, ...] = ()
    """For an ``assign`` field: the values to place (the dice the players kept), one on each
    choice; each choice's value names the move's field the placed value goes to."""


def field_json(f: Field, lang: Language) -> dict[str, Any]:
    """A field as plain JSON in one language, as the console reads it in an offer (the "Your
    box" page reads a card's fields so too)."""
    return _field_dict(f, lang)


@dataclass(frozen=True)
class Option:
    """One concrete combination of an offer's pick fields and the game's verdict on it."""

    values: tuple[Any, ...]
    verdict: Verdict


@dataclass(frozen=True)
class Offer:
    """A move a seat may make now, with what is left to choose.

    A game builds it with ``options`` left empty; ``offers()`` fills them in.
    """

    move: str
    seat: Seat | None
    label: Text
    fixed: dict[str, Any] = field(default_factory=dict)
    """Values of the move's fields that the offer already sets (JSON values)."""
    fields: tuple[Field, ...] = ()
    camera: bool = False
    """A move the camera normally reads, offered as a fallback."""
    options: tuple[Option, ...] = ()
    kind: OfferKind | None = None
    """Where the console puts it (``OfferKind``); None: ``camera`` if the camera reads it,
    else ``main``."""
    confirm: Text | None = None
    """For a ``final`` offer: what the button says after the first touch ("touch again to end
    the scenario"); the second touch makes the move."""

    def __post_init__(self) -> None:
        if self.group == "final" and self.confirm is None:
            raise ValueError(f"{self.move}: a final offer says what its second touch does")

    @property
    def group(self) -> OfferKind:
        """The offer's kind, its default filled in."""
        if self.kind is not None:
            return self.kind
        return "camera" if self.camera else "main"

    @property
    def picks(self) -> tuple[Field, ...]:
        """The fields whose values make up each option."""
        return tuple(f for f in self.fields if f.kind in ("pick", "cells"))

    @property
    def ok(self) -> bool:
        """Whether at least one option of this offer is legal now."""
        return any(o.verdict.ok for o in self.options)

    @property
    def refusal(self) -> Verdict | None:
        """Why the offer cannot be made now (its first option's verdict), or None if it can."""
        return None if self.ok or not self.options else self.options[0].verdict

    def build(
        self,
        values: Sequence[Any] = (),
        numbers: Mapping[str, int] | None = None,
        faces: Mapping[str, Sequence[int]] | None = None,
        counts: Mapping[str, Sequence[int]] | None = None,
        places: Mapping[str, Sequence[int]] | None = None,
    ) -> Move:
        """The concrete move: ``values`` for the pick fields in order, ``numbers`` by field
        name (default: each field's default), ``faces`` the index of each die's face by dice
        field (default: the first face), ``counts`` one count per choice by tally field
        (default: none), ``places`` by assign field the index in its ``pool`` of the value
        placed on each choice (default: in order). InvalidMoveError if the move cannot be
        made of them.
        """
        data = self._data(values, numbers or {}, faces or {}, counts or {}, places or {})
        return move_from_dict(data)

    def _data(
        self,
        values: Sequence[Any],
        numbers: Mapping[str, int],
        faces: Mapping[str, Sequence[int]],
        counts: Mapping[str, Sequence[int]] | None = None,
        places: Mapping[str, Sequence[int]] | None = None,
    ) -> dict[str, Any]:
        """The move as JSON data (``type``, ``seat``, every field the offer sets)."""
        data: dict[str, Any] = {"type": self.move, "seat": self.seat, **self.fixed}
        data.update(zip((f.name for f in self.picks), values, strict=True))
        for f in self.fields:
            if f.kind == "number":
                data[f.name] = numbers.get(f.name, f.default)
            elif f.kind == "dice":
                chosen = faces.get(f.name) or [0] * len(f.dice)
                for die, index in zip(f.dice, chosen, strict=True):
                    for name, amount in die.faces[index].adds:
                        data[name] = data.get(name, 0) + amount
            elif f.kind == "tally":
                tally = (counts or {}).get(f.name) or [0] * len(f.choices)
                data[f.name] = [
                    counted_choice(c.value, n) for c, n in zip(f.choices, tally, strict=True) if n
                ]
            elif f.kind == "assign":
                placed = (places or {}).get(f.name) or range(len(f.choices))
                if sorted(placed) != list(range(len(f.pool))):
                    raise InvalidMoveError(f"{f.name}: place each of {list(f.pool)} once")
                for c, index in zip(f.choices, placed, strict=True):
                    data[c.value] = f.pool[index]
        return data

    def to_dict(self, lang: Language) -> dict[str, Any]:
        """The offer as plain JSON in one language (``GET /api/offers``)."""
        return {
            "move": self.move,
            "seat": self.seat,
            "label": self.label.in_(lang),
            "camera": self.camera,
            "kind": self.group,
            "confirm": None if self.confirm is None else self.confirm.in_(lang),
            "fixed": self.fixed,
            "fields": [_field_dict(f, lang) for f in self.fields],
            "options": [
                {
                    "values": list(o.values),
                    "ok": o.verdict.ok,
                    "code": o.verdict.code,
                    "reason": None if o.verdict.ok else o.verdict.message.in_(lang),
                }
                for o in self.options
            ],
            "ok": self.ok,
        }


def counted_choice(value: Any, count: int) -> Any:
    """One counted choice of a tally, as the move spells it."""
    return {**value, "count": count} if isinstance(value, dict) else [value, count]


# --- inner workings --------------------------------------------------------------------------


def _field_dict(f: Field, lang: Language) -> dict[str, Any]:
    out: dict[str, Any] = {"name": f.name, "label": f.label.in_(lang), "kind": f.kind}
    if f.kind in ("pick", "cells"):
        out["choices"] = [{"value": c.value, "label": c.label.in_(lang)} for c in f.choices]
    if f.kind == "tally":
        out["choices"] = [
            {"value": c.value, "label": c.label.in_(lang), "most": c.most} for c in f.choices
        ]
        out["low"] = f.low
    if f.kind == "assign":
        out["choices"] = [{"value": c.value, "label": c.label.in_(lang)} for c in f.choices]
        out["pool"] = list(f.pool)
    if f.kind == "cells":
        out["grid"] = list(f.grid) if f.grid else None
    if f.kind == "number":
        out.update(low=f.low, high=f.high, default=f.default)
    if f.kind == "dice":
        out["dice"] = [
            {
                "name": d.name,
                "label": d.label.in_(lang),
                "faces": [
                    {"label": face.label.in_(lang), "symbol": face.symbol, "adds": dict(face.adds)}
                    for face in d.faces
                ],
            }
            for d in f.dice
        ]
    return out
