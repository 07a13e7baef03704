"""The building blocks of Stonesaga's offers: dice, pickers, numbers and the small rules of
how an offer is labelled or greyed, used by every phase's offers in this package (a leading
underscore marks a name as the package's own, not the game's API)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

from engine.core import Choice, Die, Face, Field, Offer, Text
from engine.stonesaga.catalogue import (
    ATTRIBUTES,
    Catalogue,
)
from engine.stonesaga.state import Character
from engine.stonesaga.texts import (
    character_name,
)

T = Text
PIPS = "⚀⚁⚂⚃⚄⚅"
NAME_CHOICES = 12
"""How many free character names a create offer lists (the first ones of the names list in
the box's names.toml: §创造角色.4 取名, a touch each instead of typing on a kiosk)."""
OUTPOST_ENERGY = 4
"""§建前哨: the outpost's 4 energy, shared among the characters on the tile."""
MAX_KINDS = 4
"""How many kinds of resource held a pick lists (exchange, craft, process), in pack order, so
that a full pack does not multiply an offer's options."""
MAX_AMOUNT = 5
"""The most energy or resources one recorded effect moves (a card rarely gives more)."""
MODIFIERS = (-5, 5)
"""Bounds of a test's modifier (text, trait and item +/−) and of a change to a die."""


def d6(target: str, label: Text) -> Die:
    """A plain d6 whose face n adds n to the move's ``target`` field."""
    return Die(
        "d6",
        label,
        tuple(
            Face(T(f"{n}点", f"{n} pip{'s' if n > 1 else ''}"), PIPS[n - 1], ((target, n),))
            for n in range(1, 7)
        ),
    )


def _pick(name: str, label: Text, choices: Iterable[tuple[Any, Text]]) -> Field:
    return Field(name, label, choices=tuple(Choice(v, t) for v, t in choices))


def _number(name: str, label: Text, low: int, high: int, default: int | None = None) -> Field:
    value = low if default is None else default
    return Field(name, label, "number", low=low, high=high, default=value)


def _attributes(names_: Iterable[str] = ATTRIBUTES) -> Field:
    return _pick("attribute", T("属性", "Attribute"), ((a, ATTRIBUTES[a]) for a in names_))


def _character_field(
    cat: Catalogue, chars: Sequence[tuple[int, Character]], name: str = "character"
) -> Field:
    return _pick(name, T("角色", "Character"), ((i, character_name(c.name, cat)) for i, c in chars))


def _greyed(offer: Offer) -> Offer:
    """The offer with each pick narrowed to its first choice, when every option would be
    refused for one reason (the turn's action is used, an outpost stands): one option carries
    that reason, the console greys the offer with it, and no ``legal()`` is spent on the rest."""
    fields = tuple(
        dataclasses.replace(f, choices=f.choices[:1]) if f.kind == "pick" else f
        for f in offer.fields
    )
    return dataclasses.replace(offer, fields=fields)


def _with(cat: Catalogue, label: Text, char: Character) -> Text:
    name = character_name(char.name, cat)
    return T(f"{label.zh}:{name.zh}", f"{label.en}: {name.en}")
