"""Making a move as a player does: by clicking the console on the table page in Chromium.

The test says which move it wants (a line of an example game); this helper reads the offers the
page shows (``GET /api/offers``, as the page itself does) to know which buttons spell that move,
then clicks them: the offer, each choice, the cells of a placement, the − / + of a number, one
face per die, a die then its place for each die to place, then "Do it". It never posts a move
itself.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from serving import HTTP

from engine.core import find_game, move_from_dict

WAIT_MS = 10_000


def offers(url: str) -> dict[str, Any]:
    """What the console shows now (in English)."""
    response = HTTP.get(f"{url}/api/offers", params={"lang": "en"})
    response.raise_for_status()
    return response.json()


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def find(console: dict[str, Any], move: dict[str, Any]) -> tuple[int, int, dict[str, Any]] | None:
    """(group index, offer index, offer) whose legal option spells ``move``, or None."""
    if "." in move["type"]:
        find_game(move["type"].split(".")[0])  # registers the game's moves
    move = move_from_dict(move).to_dict()
    for gi, group in enumerate(console["groups"]):
        for oi, offer in enumerate(group["offers"]):
            if offer["move"] != move["type"] or offer["seat"] != move.get("seat"):
                continue
            if any(_plain(move.get(k)) != v for k, v in offer["fixed"].items()):
                continue
            picks = [f for f in offer["fields"] if f["kind"] in ("pick", "cells")]
            wanted = _cells_sorted(picks, [move.get(f["name"]) for f in picks])
            if not any(
                o["ok"] and _cells_sorted(picks, o["values"]) == wanted for o in offer["options"]
            ):
                continue
            numbers = [f for f in offer["fields"] if f["kind"] == "number"]
            if any(not f["low"] <= move.get(f["name"], f["default"]) <= f["high"] for f in numbers):
                continue
            tallies = [f for f in offer["fields"] if f["kind"] == "tally"]
            if any(_tally(f, move) is None for f in tallies):
                continue
            if any(_places(f, move) is None for f in offer["fields"] if f["kind"] == "assign"):
                continue
            if all(_faces(f, move) is not None for f in offer["fields"] if f["kind"] == "dice"):
                return gi, oi, offer
    return None


def _cells_sorted(picks: list[dict[str, Any]], values: list[Any]) -> list[Any]:
    """Pick values as JSON, a placement's cells in board order (any order names them)."""
    out = _plain(values)
    for index, f in enumerate(picks):
        if f["kind"] == "cells":
            out[index] = sorted(out[index])
    return out


def _tally(field: dict[str, Any], move: dict[str, Any]) -> list[int] | None:
    """The count of each choice that spells the move's list, or None."""
    counts = [0] * len(field["choices"])
    for element in _plain(move.get(field["name"]) or []):
        for i, c in enumerate(field["choices"]):
            value = c["value"]
            n = element.get("count") if isinstance(value, dict) else element[1]
            same = (
                {k: v for k, v in element.items() if k != "count"} == value
                if isinstance(value, dict)
                else element[0] == value
            )
            if same and not counts[i] and 1 <= n <= c["most"]:
                counts[i] = n
                break
        else:
            return None
    return counts


def _places(field: dict[str, Any], move: dict[str, Any]) -> list[int] | None:
    """For an assign field: the index in its pool of the value placed on each choice (the die
    on each attribute) that spells the move, or None."""
    free = list(range(len(field["pool"])))
    places = []
    for c in field["choices"]:
        index = next((i for i in free if field["pool"][i] == move.get(c["value"])), None)
        if index is None:
            return None
        free.remove(index)
        places.append(index)
    return places


def _faces(field: dict[str, Any], move: dict[str, Any]) -> list[int] | None:
    """One face index per die whose ``adds`` sum to the move's values, or None."""
    targets = sorted({k for d in field["dice"] for face in d["faces"] for k in face["adds"]})
    goal = [move.get(k, 0) for k in targets]
    ranges = [range(len(d["faces"])) for d in field["dice"]]
    for combo in itertools.product(*ranges):
        sums = [0] * len(targets)
        for die, index in zip(field["dice"], combo, strict=True):
            for k, n in die["faces"][index]["adds"].items():
                sums[targets.index(k)] += n
        if sums == goal:
            return list(combo)
    return None


def click_move(page: Any, url: str, move: dict[str, Any]) -> str:
    """Make ``move`` by clicking the console; returns the console's answer line. AssertionError
    when the console does not offer the move."""
    console = offers(url)
    found = find(console, move)
    move = move_from_dict(move).to_dict()  # every field, with the defaults a line leaves out
    assert found is not None, f"the console does not offer {json.dumps(move)}"
    gi, oi, offer = found
    seat = "table" if offer["seat"] is None else str(offer["seat"])
    toggle = page.locator(f'#console .effects-toggle[data-seat="{seat}"]')
    if offer.get("kind") == "card_effect" and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()  # a card's effect sits behind the seat's one "card effect…" entry
    button = page.locator(f'#console .offer[data-offer="{gi}.{oi}"]')
    assert button.get_attribute("data-move") == offer["move"]
    if offer.get("kind") == "final":
        button.click()  # the first touch asks "touch again to …"; the second makes the move
        page.locator(f'#console .offer.armed[data-offer="{gi}.{oi}"]').wait_for(timeout=WAIT_MS)
    if not offer["fields"]:
        return answer_to(page, button)
    button.click()
    _fill(page, offer, move)
    return answer_to(page, page.locator("#picker-do"))


def answer_to(page: Any, touch: Any) -> str:
    """Click ``touch`` (a locator) and return the console's answer line that this click brings;
    the line left by an earlier move is cleared first, so it is never taken for this one's."""
    page.locator("#console-answer").evaluate("node => { node.textContent = '' }")
    touch.click()
    page.wait_for_function(
        "() => document.querySelector('#console-answer').textContent !== ''", timeout=WAIT_MS
    )
    return page.locator("#console-answer").inner_text()


def _fill(page: Any, offer: dict[str, Any], move: dict[str, Any]) -> None:
    picker = page.locator("#picker")
    for f in offer["fields"]:
        box = picker.locator(f'fieldset[data-field="{f["name"]}"]')
        value = move.get(f["name"])
        if f["kind"] == "pick":
            if len(f["choices"]) > 1:
                # as the page writes it: JSON.stringify (no spaces, Unicode kept)
                text = json.dumps(_plain(value), separators=(",", ":"), ensure_ascii=False)
                box.locator(f".choice[data-value={json.dumps(text, ensure_ascii=False)}]").click()
        elif f["kind"] == "cells":
            for col, row in value:
                box.locator(f'.grid-cell[data-cell="{col},{row}"]').click()
        elif f["kind"] == "number":
            target = move.get(f["name"], f["default"])
            step = "+1" if target > f["default"] else "-1"
            for _ in range(abs(target - f["default"])):
                box.locator(f'.step-button[data-step="{step}"]').click()
            assert box.locator("output").inner_text() == str(target)
        elif f["kind"] == "tally":
            counts = _tally(f, move)
            assert counts is not None
            for i, n in enumerate(counts):
                for _ in range(n):
                    box.locator(
                        f'.tally-row[data-index="{i}"] .step-button[data-step="+1"]'
                    ).click()
        elif f["kind"] == "assign":  # touch a die, then the attribute it goes on
            places = _places(f, move)
            assert places is not None
            for c, index in zip(f["choices"], places, strict=True):
                box.locator(f'.assign-die[data-die="{index}"]').click()
                text = json.dumps(_plain(c["value"]), separators=(",", ":"), ensure_ascii=False)
                box.locator(f".assign-target[data-value={json.dumps(text)}]").click()
        elif f["kind"] == "dice":
            faces = _faces(f, move)
            assert faces is not None
            for index, face in enumerate(faces):
                box.locator(f'.die-row[data-index="{index}"] .face[data-face="{face}"]').click()
