"""The table's confirm and undo, click-played in Chromium at 1920×1080 (issue 24): confirm is
greyed in a players' phase and a touch says why without making a move; undo names what it took
back on the screen and in the log, and asks once before it goes back over a phase."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from console_clicks import click_move
from playwright.sync_api import expect
from serving import Server

pytestmark = pytest.mark.browser

WAIT_MS = 10_000  # a bound on waiting for the page, not a speed requirement
expect.set_options(timeout=WAIT_MS)
SHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
LATIN = re.compile(r"[A-Za-z]")


def status(server: Server) -> dict:
    return httpx.get(server.url + "/api/status", timeout=10).json()


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_confirm_in_a_players_phase_is_greyed_and_a_touch_says_why(
    fresh: Server, page, lang: str
) -> None:
    page.goto(f"{fresh.url}/?lang={lang}")
    advance = page.locator("#advance")
    expect(page.locator("#phase")).to_have_text("黄昏" if lang == "zh" else "Dusk")
    expect(advance).to_have_attribute("aria-disabled", "true")
    marker = {"type": "greenwood.dusk_marker", "seat": 0, "effect": "protect"}
    click_move(page, fresh.url, marker)  # a real move first: confirm must not touch it
    expect(page.locator("#moves")).to_contain_text("1")
    assert advance.evaluate("b => getComputedStyle(b).borderStyle") == "dashed"
    advance.click(force=True)  # aria-disabled: Playwright would wait; a finger just touches it
    hint = page.locator("#hint")
    expect(hint).to_be_visible()
    said = hint.inner_text()
    if lang == "zh":
        assert said.startswith("现在不用按确认 — 黄昏由玩家各自行动"), said
        assert not LATIN.search(said) and "阶段阶段" not in said and "撤销" not in said
    else:
        assert said.startswith("No Confirm now — Dusk is played by the players"), said
        assert "Undo" not in said
    expect(page.locator("#refusal")).to_be_hidden()  # nothing was refused: nothing was made
    now = status(fresh)
    assert now["moves"] == 1 and now["phase"]["name"] == "dusk" and now["refusal"] is None
    message = page.locator("#message")
    assert message.inner_text() == ""
    mark = message.evaluate("m => getComputedStyle(m, '::before').content")
    assert mark in ("none", "normal"), mark  # no bare ✖ beside the buttons
    shot(page, f"confirm-greyed-{lang}")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_undo_names_the_move_it_took_back_on_the_screen_and_in_the_log(
    fresh: Server, page, lang: str
) -> None:
    page.goto(f"{fresh.url}/?lang={lang}")
    marker = {"type": "greenwood.dusk_marker", "seat": 0, "effect": "protect"}
    assert click_move(page, fresh.url, marker) != ""
    expect(page.locator("#console-answer")).not_to_be_empty()
    page.locator("#undo").click()
    named = (
        "撤销了:1号玩家 放置黄昏标记(保护队伍)"
        if lang == "zh"
        else ("Undone: Player 1 — Place the dusk marker (Protect")
    )
    expect(page.locator("#hint")).to_contain_text(named)
    expect(page.locator("#log li").first).to_contain_text(named)
    expect(page.locator("#console-answer")).to_be_empty()  # its "accepted" line is gone
    assert status(fresh)["moves"] == 0
    if lang == "zh":
        assert not LATIN.search(page.locator("#hint").inner_text())
    shot(page, f"undone-{lang}")


def test_undo_across_a_phase_needs_the_second_touch(fresh: Server, page) -> None:
    page.goto(f"{fresh.url}/?lang=zh")
    for seat in (0, 1):  # greenwood.zh.md §三.2: each dusk marker before passing dusk
        click_move(
            page, fresh.url, {"type": "greenwood.dusk_marker", "seat": seat, "effect": "recruit"}
        )
    for seat in (0, 1):  # dusk ends; departure moves on by itself (nobody holds aurora)
        click_move(page, fresh.url, {"type": "pass", "seat": seat})
    expect(page.locator("#phase")).to_have_text("夜晚")
    page.locator("#console-undo").click()
    hint = page.locator("#hint")
    expect(hint).to_have_text("撤销会回到上一阶段(第1轮 黄昏):再按一次撤销")
    expect(page.locator("#undo")).to_have_attribute("data-asking", "true")
    assert status(fresh)["moves"] == 4 and page.locator("#phase").inner_text() == "夜晚"
    shot(page, "undo-asks-zh")
    page.locator("#undo").click()
    expect(page.locator("#phase")).to_have_text("黄昏")
    expect(hint).to_have_text("撤销了:2号玩家 本阶段结束")
    assert status(fresh)["moves"] == 3
