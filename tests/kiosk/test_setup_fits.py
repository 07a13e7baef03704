"""Every set-up step fits the table's screen, with and without the on-screen keyboard (issue 38:
the table check was 1,171 px tall at 1920×1080 and a step 769 px at 1280×720; the keyboard
covered Back/Next and the third seat and made the page 1,617 px tall).

For each game, at 1920×1080 and 1280×720, in Chinese and in English, driven by touch as a
player would: the page never scrolls (the document is no taller than the screen); Back and
Next (or Start) are in view and nothing covers them; with the keyboard opened by touching a
name field, that field and the buttons stay in view above the keys; every control a finger
uses is at least 64 px (docs/kiosk.md); no text is smaller than 1rem, and 1rem is what
docs/kiosk.md says for the screen (28 px at 1920×1080, 18.7 px at 1280×720). Screenshots of
the steps with the keyboard open go to out/screenshots/setup-fits-*.png."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from serving import Server, post, start_server

from kiosk.seats import MAX_NAME

pytestmark = pytest.mark.browser

WAIT_MS = 10_000  # a bound on waiting for the page, not a speed requirement
SCREENSHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
FINGER_PX = 64
REM_PX = {(1920, 1080): 28.0, (1280, 720): 18.6}
"""docs/kiosk.md: "1rem = 28 px at 1920×1080" and 18.7 px at 1280×720 (less a rounding)."""
GAMES = ["greenwood", "dont_starve", "stonesaga"]
SIZES = [(1920, 1080), (1280, 720)]

PROBLEMS = """([finger, whole]) => {
  const problems = [];
  const de = document.documentElement;
  if (de.scrollHeight > innerHeight) {
    problems.push(`page ${de.scrollHeight} px tall, screen ${innerHeight}`);
  }
  if (de.scrollWidth > innerWidth) {
    problems.push(`page ${de.scrollWidth} px wide, screen ${innerWidth}`);
  }
  const shown = (el) => el && !el.closest('[hidden]') && el.getClientRects().length > 0;
  // In view and on top: near each corner (a fifth in, clear of the rounding) and at the
  // middle, what a finger touches is the element itself.
  const onTop = (el) => {
    const r = el.getBoundingClientRect();
    const xs = [r.left + r.width / 5, r.right - r.width / 5, (r.left + r.right) / 2];
    const ys = [r.top + r.height / 5, r.bottom - r.height / 5, (r.top + r.bottom) / 2];
    const points = [[0, 0], [1, 0], [0, 1], [1, 1], [2, 2]].map(([i, j]) => [xs[i], ys[j]]);
    return points.every(([x, y]) => {
      const hit = document.elementFromPoint(x, y);
      return hit && el.contains(hit);
    });
  };
  const name = (el) => {
    const text = (el.innerText || el.value || el.placeholder || '').trim().slice(0, 30);
    return `${el.id ? '#' + el.id : el.tagName.toLowerCase()} "${text}"`;
  };
  for (const id of ['prev', 'next', 'start']) {
    const el = document.getElementById(id);
    if (shown(el) && !onTop(el)) problems.push(`${name(el)} not in view or covered`);
  }
  const typed = document.activeElement;
  const keyboard = document.getElementById('keyboard');
  // With the keys closed the step fits its room whole: nothing to scroll to, even inside.
  const body = document.querySelector('.step-body');
  if (whole && !shown(keyboard) && body && body.scrollHeight > body.clientHeight) {
    problems.push(`the step is ${body.scrollHeight} px tall in a room of ${body.clientHeight}`);
  }
  if (shown(keyboard)) {
    if (!(typed instanceof HTMLInputElement)) problems.push('the keyboard is open with no field');
    else if (!onTop(typed)) problems.push(`the field typed in, ${name(typed)}, not in view`);
  }
  const targets = [...document.querySelectorAll('button, input, a, [role=button]')].filter(shown);
  for (const el of targets) {
    if (el.scrollWidth > el.clientWidth + 1) problems.push(`${name(el)}: its text runs out of it`);
    const r = el.getBoundingClientRect();
    if (r.height < finger - 0.5 || r.width < finger - 0.5) {
      problems.push(`${name(el)} is ${Math.round(r.width)}×${Math.round(r.height)} px`);
    }
  }
  const rem = parseFloat(getComputedStyle(de).fontSize);
  for (const el of document.body.querySelectorAll('*')) {
    if (!shown(el)) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (own && px < rem - 0.01) problems.push(`${name(el)}: text ${px} px, under 1rem (${rem} px)`);
  }
  return { problems, rem };
}"""


def check(page: Any, where: str, size: tuple[int, int], whole: bool = True) -> None:
    """Fails with every problem of the page as it is now, named with ``where``; ``whole``:
    the step is to fit its room without scrolling even within itself."""
    found = page.evaluate(PROBLEMS, [FINGER_PX, whole])
    problems = list(found["problems"])
    if found["rem"] < REM_PX[size]:
        problems.append(f"1rem is {found['rem']} px, docs/kiosk.md says {REM_PX[size]}")
    assert not problems, f"{where}: " + "; ".join(problems)


def at_step(page: Any, step: str) -> None:
    expect(page.locator(f'[data-go="{step}"]')).to_have_attribute(
        "aria-current", "step", timeout=WAIT_MS
    )


def type_on_keys(
    page: Any, field: Any, where: str, size: tuple[int, int], shot: Path, done: bool = True
) -> None:
    """Touch ``field``, type on the on-screen keys (Latin, then the Chinese page, the taller
    one), checking the page each time; then close the keys with Done (unless not ``done``)."""
    keyboard = page.locator("#keyboard")
    field.tap()
    expect(keyboard).to_be_visible(timeout=WAIT_MS)
    keyboard.locator('[data-key="A"]').tap()
    check(page, f"{where}, keyboard open", size)
    page.screenshot(path=str(shot))
    keyboard.locator('[data-key="page"]').tap()
    keyboard.locator('[data-key="小"]').tap()
    expect(field).to_have_value("A小", timeout=WAIT_MS)
    check(page, f"{where}, keyboard open on its Chinese page", size)
    keyboard.locator('[data-key="page"]').tap()
    if done:
        keyboard.locator('[data-key="done"]').tap()
        expect(keyboard).to_be_hidden(timeout=WAIT_MS)
        check(page, f"{where}, keyboard closed", size)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", GAMES)
def test_every_set_up_step_fits_the_screen_with_the_keyboard_open(
    shared_server: Server, browser: Any, game: str, size: tuple[int, int], lang: str
) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    tag = f"{game}-{size[0]}x{size[1]}-{lang}"
    try:
        page.goto(shared_server.url + f"/setup?lang={lang}")
        card = page.locator(f'[data-game="{game}"]')
        expect(card).to_be_visible(timeout=WAIT_MS)
        check(page, f"{tag} game", size)
        card.tap()
        check(page, f"{tag} game chosen", size)
        if game == "stonesaga":
            page.locator("#next").tap()
            at_step(page, "campaign")
            page.locator('[data-campaign=""]').tap()  # a new campaign: every seat to name
            check(page, f"{tag} campaign", size)
        page.locator("#next").tap()
        at_step(page, "players")
        counts = page.locator("#counts [data-players]")
        counts.last.tap()  # as many players as the game takes: the most seats to show
        seats = page.locator(".seat-name")
        expect(seats).to_have_count(int(counts.last.get_attribute("data-players") or 0))
        check(page, f"{tag} players", size)
        last = seats.count() - 1
        for i in range(last + 1):
            shot = SCREENSHOTS / f"setup-fits-{tag}-players-keyboard.png"
            where = f"{tag} players, seat {i + 1}"
            type_on_keys(page, seats.nth(i), where, size, shot, done=i < last)
        page.locator("#next").tap()  # the keys still open: they close with their step
        at_step(page, "options")
        expect(page.locator("#keyboard")).to_be_hidden(timeout=WAIT_MS)
        check(page, f"{tag} options", size)
        page.screenshot(path=str(SCREENSHOTS / f"setup-fits-{tag}-options.png"))
        page.locator("#next").tap()
        at_step(page, "check")
        expect(page.locator("#checklist .check").first).to_be_visible(timeout=WAIT_MS)
        check(page, f"{tag} table check", size)
        shot = SCREENSHOTS / f"setup-fits-{tag}-check-keyboard.png"
        type_on_keys(page, page.locator("#name"), f"{tag} table check, save name", size, shot)
        assert errors == []
    finally:
        context.close()


LONG_NAME = {"en": "W" * MAX_NAME, "zh": "小明华红丽伟芳娜静敏强磊军洋勇艳"[:MAX_NAME]}
"""The widest name a seat takes: its most characters, each as wide as a letter gets."""


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("game", ["greenwood", "stonesaga"])
def test_the_longest_names_never_push_the_buttons_away(
    shared_server: Server, browser: Any, game: str, lang: str
) -> None:
    """Four of the longest names, typed on the keys at 1280×720: on the options (the names as
    the start player's buttons) and the table check (the names in the summary) the page still
    does not scroll, Back and Next or Start stay in view, no name runs out of its button, and
    the save's name is typed in view; a step taller than its room scrolls within itself."""
    size = (1280, 720)
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=True)
    page = context.new_page()
    tag = f"long names {game} {lang}"
    try:
        page.goto(shared_server.url + f"/setup?lang={lang}")
        page.locator(f'[data-game="{game}"]').tap()
        if game == "stonesaga":
            page.locator("#next").tap()
            at_step(page, "campaign")
            page.locator('[data-campaign=""]').tap()
        page.locator("#next").tap()
        at_step(page, "players")
        page.locator('#counts [data-players="4"]').tap()
        keyboard = page.locator("#keyboard")
        for i in range(4):
            page.locator(f"#seat-name-{i}").tap()
            if lang == "zh" and keyboard.get_attribute("data-page") != "chinese":
                keyboard.locator('[data-key="page"]').tap()
            for letter in LONG_NAME[lang]:
                keyboard.locator(f'[data-key="{letter}"]').tap()
            expect(page.locator(f"#seat-name-{i}")).to_have_value(LONG_NAME[lang])
            check(page, f"{tag}, seat {i + 1}", size, whole=False)
        keyboard.locator('[data-key="done"]').tap()
        check(page, f"{tag}, players", size)
        page.locator("#next").tap()
        at_step(page, "options")
        check(page, f"{tag}, options", size, whole=False)
        page.screenshot(path=str(SCREENSHOTS / f"setup-fits-long-{game}-{lang}-options.png"))
        page.locator("#next").tap()
        at_step(page, "check")
        check(page, f"{tag}, table check", size, whole=False)
        page.locator("#name").tap()
        if keyboard.get_attribute("data-page") != "latin":  # the keys keep the page last used
            keyboard.locator('[data-key="page"]').tap()
        keyboard.locator('[data-key="B"]').tap()
        check(page, f"{tag}, table check, save name", size, whole=False)
        page.screenshot(path=str(SCREENSHOTS / f"setup-fits-long-{game}-{lang}-check.png"))
    finally:
        context.close()


@pytest.fixture(scope="module")
def campaign_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A kiosk whose Stonesaga session ended (docs/examples/stonesaga-campaign-1.jsonl, its
    moves posted: what is tried here is the set-up page), so that it offers the next session."""
    server = start_server(tmp_path_factory.mktemp("campaign"), "--game", "stonesaga")
    try:
        text = (EXAMPLES / "stonesaga-campaign-1.jsonl").read_text(encoding="utf-8").splitlines()
        head = json.loads(text[0])
        options = dict(head["setup"])
        players = options.pop("players")
        body = {"game": "stonesaga", "players": players, "options": options, "seed": head["seed"]}
        post(server, "/api/new-game", body)
        for line in text[1:]:
            post(server, "/api/move", json.loads(line))
        yield server
    finally:
        if server.process.poll() is None:
            server.stop()


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_next_session_of_a_campaign_fits_too(
    campaign_server: Server, browser: Any, size: tuple[int, int], lang: str
) -> None:
    """Going on with a campaign: its card (the Log's lines), its players, the options its Log
    leaves open and the summary of the next session, each on one screen, the keys open too."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=True)
    page = context.new_page()
    tag = f"next session {size[0]}x{size[1]} {lang}"
    try:
        page.goto(campaign_server.url + f"/setup?lang={lang}")
        page.locator('[data-game="stonesaga"]').tap()
        page.locator("#next").tap()
        at_step(page, "campaign")
        card = page.locator('#campaigns [data-campaign]:not([data-campaign=""])')
        expect(card).to_have_attribute("aria-pressed", "true", timeout=WAIT_MS)  # the default
        check(page, f"{tag}, campaign", size)
        page.screenshot(path=str(SCREENSHOTS / f"setup-fits-next-session-{size[0]}-{lang}.png"))
        page.locator("#next").tap()
        at_step(page, "players")
        check(page, f"{tag}, players", size)
        shot = SCREENSHOTS / f"setup-fits-next-session-{size[0]}-{lang}-players-keyboard.png"
        type_on_keys(page, page.locator("#seat-name-0"), f"{tag}, players", size, shot)
        page.locator("#next").tap()
        at_step(page, "options")
        page.screenshot(
            path=str(SCREENSHOTS / f"setup-fits-next-session-{size[0]}-{lang}-options.png")
        )
        check(page, f"{tag}, options", size)
        page.locator("#next").tap()
        at_step(page, "check")
        check(page, f"{tag}, table check", size)
        shot = SCREENSHOTS / f"setup-fits-next-session-{size[0]}-{lang}-check-keyboard.png"
        type_on_keys(page, page.locator("#name"), f"{tag}, table check", size, shot)
    finally:
        context.close()
