"""The timers on the table page (issue 28), in a real Chromium against a real `tablesight run`:
chosen on the set-up page, the time left for whoever acts, in words, and a pause from the
menu; the LED track (the emulated controller behind ``/api/tray``) is the timer's bar."""

from __future__ import annotations

import json
import re

import httpx
from playwright.sync_api import expect
from serving import Server


def test_the_table_page_shows_the_time_left_and_the_menu_pauses_it(fresh: Server, page) -> None:
    page.goto(f"{fresh.url}/setup?lang=en")  # the timers are chosen at set-up
    page.locator('[data-game="greenwood"]').click()
    for step in ("players", "options"):
        page.locator("#next").click()
        expect(page.locator(f'[data-go="{step}"]')).to_have_attribute("aria-current", "step")
    page.locator('#options [data-option="timer"] [data-value="turn"]').click()
    page.locator('#options [data-option="phase_timer"] [data-value="120"]').click()
    page.locator("#next").click()
    expect(page.locator("#summary")).to_contain_text("1:00 per turn; 2:00 per phase")
    with page.expect_request("**/api/timer/choice") as sent:
        page.locator("#start").click()
    assert json.loads(sent.value.post_data) == {"mode": "turn", "seconds": 60, "phase_seconds": 120}
    page.wait_for_url(f"{fresh.url}/")
    timer = page.locator("#timer")
    expect(timer).to_be_visible()  # dusk is played by everyone at once: the phase timer
    expect(page.locator("#timer-text")).to_have_text("Everyone: time left in this phase")
    left = page.locator("#timer-left").inner_text()
    assert re.fullmatch(r"[12]:\d\d", left), left
    assert timer.evaluate("t => parseFloat(getComputedStyle(t.firstChild).fontSize)") >= 56

    page.locator("#menu-button").click()
    pause = page.locator("#menu-timer")
    expect(pause).to_have_text("Pause the timer")
    pause.click()
    expect(timer).to_have_attribute("data-paused", "true")
    expect(page.locator("#timer-text")).to_have_text(
        "Timer paused — Everyone: time left in this phase"
    )
    expect(pause).to_have_text("Resume the timer")
    held = page.locator("#timer-left").inner_text()
    status = httpx.get(f"{fresh.url}/api/status?lang=zh", timeout=10).json()["timer"]
    assert status["paused"] and status["left"] == held  # paused: the same second, in any language
    assert status["text"] == "计时暂停 — 全桌:本阶段剩余时间"

    tray = httpx.get(f"{fresh.url}/api/tray?lang=en", timeout=10).json()
    assert {role["kind"] for role in tray["legend"]} == {"timer"}
    lit = [led for led in tray["track"] if led["effect"] != "off"]
    assert lit and {led["colour"] for led in lit} == {"#ffffff"}  # the whole table: white
    assert {led["effect"] for led in lit} == {"pulse"}  # breathing while paused
    page.goto(f"{fresh.url}/tray?lang=en")  # the tray page's legend says what the bar is
    legend = page.locator('[data-group="timer"]')
    expect(legend).to_contain_text("LEDs 1–24: The whole table: time left")  # under 1/24 used


def test_a_running_timer_never_redraws_the_consoles_buttons(fresh: Server, page) -> None:
    """issue #38: while a timer ran, the console was redrawn every second, so a touch landing
    during a redraw could be lost; a tick now changes the timer's digits only: the same buttons
    stay in the page while the time left counts down."""
    httpx.post(
        f"{fresh.url}/api/timer/choice",
        json={"mode": "turn", "seconds": 60, "phase_seconds": 120},
        timeout=10,
    ).raise_for_status()
    page.goto(f"{fresh.url}/?lang=en")
    expect(page.locator("#timer")).to_be_visible()
    first = page.locator("#console .offer").first
    expect(first).to_be_visible()
    page.evaluate("() => { window.__kept = document.querySelector('#console .offer'); }")
    before = page.locator("#timer-left").inner_text()
    expect(page.locator("#timer-left")).not_to_have_text(before)  # at least one tick came
    expect(page.locator("#timer-left")).not_to_have_text(page.locator("#timer-left").inner_text())
    same = "() => window.__kept.isConnected"
    same += " && window.__kept === document.querySelector('#console .offer')"
    assert page.evaluate(same)
