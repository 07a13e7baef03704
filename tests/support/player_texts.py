"""What a player reads must be words in both languages: the check the player-text tests share.

A Chinese text has no Latin word (a rule citation such as ``(greenwood.zh.md §三.10)`` aside),
and neither language has an id, a Python value, a list or "placeholder" in it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from engine.core import Offer, Text

CITATION = re.compile(r"\s*[(（][^()（）]*\.zh\.md[^()（）]*[)）]")
"""A rule citation such as ``(greenwood.zh.md §三.10)``, which may keep its Latin file name."""
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
NOT_FOR_PLAYERS = re.compile(r"None|True|False|\[|(?i:placeholder)|_")
"""A Python value, a list, a placeholder or an underscore id (``raw_food``), in either language."""


def problems(text: Text) -> list[str]:
    """What is wrong with one text a player reads (empty: nothing)."""
    out = []
    chinese = CITATION.sub("", text.zh)
    if word := LATIN_WORD.search(chinese):
        out.append(f"Latin word {word.group()!r} in the Chinese")
    for lang, shown in (("zh", text.zh), ("en", text.en)):
        if found := NOT_FOR_PLAYERS.search(shown):
            out.append(f"{found.group()!r} in the {lang} text")
    return out


def offer_texts(offer: Offer) -> Iterator[tuple[str, Text]]:
    """Every text of an offer players read: its label, its fields and their choices (and dice),
    and the refusal of each greyed option."""
    yield "label", offer.label
    for f in offer.fields:
        yield f"field {f.name}", f.label
        for c in f.choices:
            yield f"choice of {f.name}", c.label
        for die in f.dice:
            yield f"die of {f.name}", die.label
            for face in die.faces:
                yield f"face of {f.name}", face.label
    for option in offer.options:
        if not option.verdict.ok:
            yield f"refusal {option.verdict.code}", option.verdict.message
