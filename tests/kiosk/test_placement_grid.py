"""The camera's fallback for a placement, in a real Chromium: the picker draws the acting
player's own board as the table screen draws it (start cell, rewards, placed pieces), its
edges labelled as the board prints them (A–F, 1–6), the cells the offers allow marked and
touchable, the others dimmed with their reason on a touch (issue 24).

Only Greenwood's placement opens the grid (a field of kind ``cells``); Don't Starve's and
Stonesaga's camera fallbacks are picks (tiles by name), which
``test_only_greenwoods_placement_opens_the_grid`` keeps true over every example game.

The game is brought to the placement by posting the example's earlier moves (the set-up, not
the subject); the placement itself is made by touching the grid, as a player does. Screenshots
at each size and language go to out/screenshots/placement-*.png.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from console_clicks import answer_to, offers
from offer_walk import example_files, walk_example
from playwright.sync_api import expect
from serving import Server, post

pytestmark = pytest.mark.browser

WAIT_MS = 10_000  # a bound on waiting for the page, not a speed requirement
expect.set_options(timeout=WAIT_MS)
ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "greenwood.jsonl"
SHOTS = ROOT / "out" / "screenshots"

FIRST = 25  # example line: player 1's first piece (the start cell free on every board)
WISP = 33  # player 2's wisp (player 1's pieces on the other board)
CORNER = 61  # player 1's corner three beside its first piece


def bring_to(server: Server, line: int) -> dict[str, Any]:
    """A new game of the example, its accepted moves before ``line`` made; that line's move."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    setup = head["setup"]
    options = {k: v for k, v in setup.items() if k != "players"}
    body = {"game": "greenwood", "players": setup["players"], "options": options}
    post(server, "/api/new-game", {**body, "seed": head["seed"]})
    for text in lines[1 : line - 1]:
        post(server, "/api/move", json.loads(text))  # a refused one changes nothing
    move: dict[str, Any] = json.loads(lines[line - 1])
    assert move["type"] == "greenwood.place"
    return move


def snapshot(server: Server) -> dict[str, Any]:
    return httpx.get(server.url + "/api/status", params={"lang": "en"}, timeout=10).json()


def place_offer(server: Server, seat: int) -> dict[str, Any]:
    """The placement offer of ``seat``, as GET /api/offers gives it (read apart from the page)."""
    found = [
        o
        for g in offers(server.url)["groups"]
        for o in g["offers"]
        if o["move"] == "greenwood.place" and o["seat"] == seat
    ]
    assert len(found) == 1
    return found[0]


def key(cell: list[int]) -> str:
    return f"{cell[0]},{cell[1]}"


def legal_cells(offer: dict[str, Any]) -> set[str]:
    """Every cell some legal placement covers."""
    return {key(c) for o in offer["options"] if o["ok"] for c in o["values"][0]}


def open_grid(page: Any, server: Server, seat: int, lang: str = "en") -> Any:
    page.goto(f"{server.url}/?lang={lang}")
    place = page.locator(f'#console .offer[data-move="greenwood.place"][data-seat="{seat}"]')
    place.click()
    grid = page.locator('#picker fieldset[data-field="cells"]')
    expect(grid.locator(".cell-stage svg")).to_be_visible()
    return grid


def drawn_cells(locator: Any) -> dict[str, list[str]]:
    """A drawn board's cells: "col,row" → (kind, text)."""
    found: dict[str, list[str]] = locator.evaluate(
        """svg => Object.fromEntries([...svg.querySelectorAll("g.cell")].map((g) => [
             `${g.dataset.col},${g.dataset.row}`,
             [[...g.classList].find((c) => c.startsWith("k-")).slice(2), g.textContent]]))"""
    )
    return found


@pytest.mark.parametrize("line", [FIRST, WISP, CORNER])
def test_the_grid_is_the_acting_players_board_and_a_touch_places_the_piece(
    shared_server: Server, page: Any, line: int
) -> None:
    """greenwood.zh.md §三.10: the piece goes on the player's own submarine; the grid shows
    that board (start cell, rewards, placed pieces), the offered cells, and makes the move."""
    move = bring_to(shared_server, line)
    seat = move["seat"]
    status = snapshot(shared_server)
    offer = place_offer(shared_server, seat)
    grid = open_grid(page, shared_server, seat)

    who = next(s for s in status["seats"] if s["seat"] == seat)
    expect(page.locator("#picker-title .picker-who")).to_have_text(who["name"])
    body = page.locator("#picker .picker-body")
    assert body.evaluate("n => n.style.getPropertyValue('--seat')") == who["hex"]

    board = next(b for b in status["picture"]["boards"] if b["seat"] == seat)
    want = {f"{c['col']},{c['row']}": [c["kind"], c.get("text") or ""] for c in board["cells"]}
    assert drawn_cells(grid.locator(".cell-stage svg")) == want
    kinds = Counter(kind for kind, _ in want.values())
    assert kinds["reward"] and (kinds["start"] or kinds["piece"])
    expect(grid.locator(".col-labels span")).to_have_text(["A", "B", "C", "D", "E", "F"])
    expect(grid.locator(".row-labels span")).to_have_text(["1", "2", "3", "4", "5", "6"])

    legal = legal_cells(offer)
    marked = grid.locator(".grid-cell.legal").evaluate_all("bs => bs.map((b) => b.dataset.cell)")
    refused = grid.locator(".grid-cell.refused").evaluate_all("bs => bs.map((b) => b.dataset.cell)")
    assert set(marked) == legal and legal
    assert len(refused) == 36 - len(legal)

    # A dimmed cell says why on a touch: the rules' reason for the placements over it, or
    # that a piece covers it already.
    covered = [c for c, (kind, _) in want.items() if kind in ("piece", "done")]
    reasons: dict[str, Counter[str]] = {}
    for o in offer["options"]:
        for c in o["values"][0] if not o["ok"] else ():
            reasons.setdefault(key(c), Counter())[o["reason"]] += 1
    for cell in [*covered[:1], *(c for c in refused if c in reasons)][:3]:
        said = reasons[cell].most_common(1)[0][0] if cell in reasons else "A piece already covers"
        grid.locator(f'.grid-cell[data-cell="{cell}"]').click(force=True)  # greyed: still touchable
        expect(page.locator("#picker-why")).to_contain_text(said)
    assert snapshot(shared_server)["moves"] == status["moves"]  # a dimmed cell makes nothing

    # The example's placement, touched cell by cell; a second touch on a chosen cell makes it.
    for cell in move["cells"]:
        grid.locator(f'.grid-cell[data-cell="{key(cell)}"]').click()
    expect(page.locator("#picker-do")).to_be_enabled()
    second = grid.locator(f'.grid-cell[data-cell="{key(move["cells"][0])}"]')
    assert answer_to(page, second).endswith("accepted")
    expect(page.locator("#picker")).to_be_hidden()
    assert snapshot(shared_server)["moves"] == status["moves"] + 1
    table = page.locator(f'#board .board-panel[data-seat="{seat}"]')
    for col, row in move["cells"]:
        cell = table.locator(f'g.cell[data-col="{col}"][data-row="{row}"]')
        expect(cell).to_have_class(re.compile(r"\bk-(piece|done)\b"))


def test_a_touch_on_a_legal_cell_that_does_not_fit_starts_again_and_do_it_places(
    shared_server: Server, page: Any
) -> None:
    """Changing one's mind needs no clearing: a legal cell that no placement shares with the
    cells chosen starts the choice again there; "Do it" makes the move as the second touch
    does."""
    move = bring_to(shared_server, CORNER)
    grid = open_grid(page, shared_server, move["seat"])
    far = next(
        c
        for c in sorted(legal_cells(place_offer(shared_server, move["seat"])))
        if all(abs(int(c[0]) - x) + abs(int(c[2]) - y) > 2 for x, y in move["cells"])
    )
    grid.locator(f'.grid-cell[data-cell="{far}"]').click()
    for cell in move["cells"]:
        grid.locator(f'.grid-cell[data-cell="{key(cell)}"]').click()
    chosen = grid.locator('.grid-cell[aria-pressed="true"]')
    expect(chosen).to_have_count(len(move["cells"]))
    assert far not in chosen.evaluate_all("bs => bs.map((b) => b.dataset.cell)")
    assert answer_to(page, page.locator("#picker-do")).endswith("accepted")


SIZES = [(1920, 1080), (1280, 720), (390, 844)]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_grid_reads_at_each_size_in_both_languages(
    shared_server: Server, page: Any, lang: str
) -> None:
    """At the table's screens (1920×1080, 1280×720) and on a phone (390×844): the board, its
    labels and "Do it" inside the screen, no sideways scroll, cells a fingertip wide (44 px),
    labels as large as the page's type (16 px at 1280×720)."""
    move = bring_to(shared_server, CORNER)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        grid = open_grid(page, shared_server, move["seat"], lang)
        for part in (grid.locator(".cell-board"), page.locator("#picker-do")):
            box = part.bounding_box()
            assert box is not None
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (width, lang)
            assert box["y"] >= 0 and box["y"] + box["height"] <= height, (width, lang)
        assert page.evaluate("document.scrollingElement.scrollWidth") <= width
        cell = grid.locator('.grid-cell[data-cell="5,5"]').bounding_box()
        assert cell is not None and min(cell["width"], cell["height"]) >= 44 - 4  # its margins
        label = grid.locator(".col-labels span").first
        size = float(label.evaluate("n => getComputedStyle(n).fontSize").removesuffix("px"))
        assert size >= (16 if width >= 1280 else 14)
        page.screenshot(path=str(SHOTS / f"placement-{lang}-{width}x{height}.png"))


def test_only_greenwoods_placement_opens_the_grid() -> None:
    """Every offer with a ``cells`` field in every example game is Greenwood's placement (the
    other games' camera fallbacks are picks): the grid tests above cover every grid."""
    grids = {
        o.move
        for game in ("greenwood", "dont_starve", "stonesaga")
        for path in example_files(game)
        for step in walk_example(path)
        for group in step.open
        for o in group.offers
        if any(f.kind == "cells" for f in o.fields)
    }
    assert grids == {"greenwood.place"}
