"""The table page in a real Chromium against a real `tablesight run`: it loads, follows moves
live, survives a server restart, switches language; and a screenshot per landed game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2
import httpx
import pytest
from playwright.sync_api import expect
from serving import Server, fresh_game, post, start_server

from engine.core.game import GAME_MODULES, available_games
from vision.registry import load_registry
from vision.synthetic import Camera, Component, SyntheticTable, render

pytestmark = pytest.mark.browser

WAIT_MS = 10_000  # a bound on waiting for the page, not a speed requirement (see the benchmark)
expect.set_options(timeout=WAIT_MS)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"


def marker(seat: int) -> dict[str, object]:
    """A Greenwood dusk marker, laid before the seat may pass dusk (greenwood.zh.md §三.2)."""
    return {"type": "greenwood.dusk_marker", "seat": seat, "effect": "recruit"}


@pytest.fixture
def server(fresh: Server) -> Server:
    """Here: the shared server, with a new game for each test (one start for the module)."""
    return fresh


def test_the_table_page_shows_where_the_game_is(server: Server, page) -> None:
    page.goto(server.url + "/")
    expect(page.locator("#phase")).to_have_text("Dusk")
    assert page.locator("#title").inner_text() == "Greenwood"
    assert page.locator("#round").inner_text() == "Round 1 of 3"
    assert page.locator("#track li").count() == 3
    assert page.locator("#track li[aria-current=true]").inner_text() == "1"
    assert page.locator("#phases li[aria-current=true]").get_attribute("data-phase") == "dusk"
    assert page.locator("#next").inner_text().startswith("Each player: choose — ")  # at once
    assert page.locator("#link-controller").get_attribute("title") == "LED controller: simulated"
    assert page.locator("#log li").first.inner_text() == "Dusk begins"


def test_a_move_changes_the_page_live_and_a_refusal_shows_icon_and_text(
    server: Server, page
) -> None:
    page.goto(server.url + "/")
    expect(page.locator("#phase")).to_have_text("Dusk")
    assert post(server, "/api/move", marker(0))["accepted"]
    expect(page.locator("#moves")).to_have_text("1 moves saved")
    closed = post(server, "/api/advance")  # no table step at dusk: confirm is not open
    assert not closed["accepted"] and closed["open"] is False
    assert closed["message"].startswith("Dusk is played by the players")
    recruit = {"type": "greenwood.recruit", "seat": 1, "place": 1}  # before the dusk marker
    answer = post(server, "/api/move", recruit)
    assert not answer["accepted"]
    banner = page.locator("#refusal")
    expect(banner).to_be_visible()
    assert banner.locator(".icon").inner_text() == "✖"
    assert banner.locator("#refusal-who").inner_text().strip() == "Player 2:"
    assert page.locator("#refusal-why").inner_text().startswith(answer["message"])
    expect(page.locator("#refusal-todo")).to_have_text("Choose again, or make another move")
    expect(page.locator("#next")).to_have_text("First deal with the refused move below")
    expect(page.locator("#log li").first).to_have_attribute("data-type", "move_rejected")
    for move in ({"type": "pass", "seat": 0}, marker(1), {"type": "pass", "seat": 1}):
        assert post(server, "/api/move", move)["accepted"]
    # departure moves on by itself: nobody holds aurora (greenwood.zh.md §三.3)
    expect(page.locator("#phase")).to_have_text("Night")
    expect(banner).to_be_hidden()  # a move accepted after it: the table has moved on
    expect(page.locator("#next")).to_contain_text("Player 1")


def test_after_a_restart_the_page_reconnects_and_shows_the_same_state(tmp_path: Path, page) -> None:
    server = start_server(tmp_path)
    try:
        fresh_game(server)  # the threats from the seeded deck: dusk goes on at once
        page.goto(server.url + "/")
        for seat in (0, 1):  # each dusk marker first (greenwood.zh.md §三.2)
            post(server, "/api/move", marker(seat))
        for seat in (0, 1):  # dusk; departure moves on by itself (nobody holds aurora)
            post(server, "/api/move", {"type": "pass", "seat": seat})
        expect(page.locator("#phase")).to_have_text("Night")
        server.kill()
        expect(page.locator("#connection")).to_have_attribute("data-state", "lost")
        server = start_server(tmp_path, port=server.port)
        expect(page.locator("#connection")).to_have_attribute("data-state", "ok")
        assert page.locator("#phase").inner_text() == "Night"
        assert page.locator("#moves").inner_text() == "4 moves saved"
        status = httpx.get(server.url + "/api/status", timeout=10).json()
        turn = {"type": "pass", "seat": status["current_player"] - 1}  # who ends the night
        assert post(server, "/api/move", turn)["accepted"]  # and it follows the new server
        expect(page.locator("#moves")).to_have_text("5 moves saved")
    finally:
        server.stop()


def test_the_language_switch_redraws_the_page_in_chinese_and_back(server: Server, page) -> None:
    page.goto(server.url + "/")
    expect(page.locator("#phase")).to_have_text("Dusk")
    page.click("#lang-zh")
    expect(page.locator("#phase")).to_have_text("黄昏")
    assert page.locator("#title").inner_text() == "苍林秘境"
    assert page.locator("#round").inner_text() == "第 1 / 3 轮"
    assert page.locator("#advance").inner_text() == "确认 / 下一步"
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    page.reload()  # the choice is remembered by this screen
    expect(page.locator("#phase")).to_have_text("黄昏")
    page.click("#lang-en")
    expect(page.locator("#phase")).to_have_text("Dusk")


def test_a_screenshot_of_the_table_page_for_each_landed_game(server: Server, page) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    games = [g for g in available_games() if g.name in GAME_MODULES]  # not the tests' own
    assert "greenwood" in [g.name for g in games]
    page.goto(server.url + "/")
    for game in games:
        name = game.name
        players = max(game.min_players, min(2, game.max_players))
        post(server, "/api/new-game", {"game": name, "players": players})
        expect(page.locator("#title")).to_have_text(game.title.en)
        path = SCREENSHOTS / f"table-{name}.png"
        page.screenshot(path=str(path))
        assert path.stat().st_size > 10_000


def test_every_page_runs_without_a_script_error_or_a_policy_violation(server: Server, page) -> None:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    for path, ready in [
        ("/", "#phase"),
        ("/setup", "#games [data-game]"),
        ("/settings", "#brightness"),
        ("/tray", "#trays .tray"),
        ("/calibrate", "#run"),
        ("/camera", "#sheets a"),
    ]:
        page.goto(server.url + path)
        page.locator(ready).first.wait_for()
    assert problems == []
    # the camera page (the last one): its sticker-sheet downloads, a dash between games only
    sheets = page.locator("#sheets").inner_text().strip()
    assert page.locator("#sheets a").count() == 8 and not sheets.endswith("—"), sheets


BESIDE = """([picture, words]) => {
  const p = document.querySelector(picture).getBoundingClientRect();
  const w = document.querySelector(words).getBoundingClientRect();
  return {pictureRight: p.right, pictureBottom: p.bottom, wordsLeft: w.left, wordsTop: w.top};
}"""
"""Where a page's picture and its words stand (`test_calibrate_lens_page` asks it too)."""


@pytest.fixture(scope="module")
def still_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """`tablesight run` with no game yet, whose camera gave one picture of the table and then
    no new one (a folder of one image, not looped): a still table."""
    root = tmp_path_factory.mktemp("still")
    (root / "frames").mkdir()
    anchors = [
        Component(a.tag_id, a.x_mm, a.y_mm, a.rotation_deg, a.size_mm)
        for a in load_registry([], anchors=True).anchors().values()
    ]
    shot = render(SyntheticTable(tuple(anchors)), Camera.overhead(1280, 720, height_mm=950))
    cv2.imwrite(str(root / "frames" / "000.png"), shot.image)
    env = {
        "TABLESIGHT_CAMERA__SOURCE": f"folder:{root / 'frames'}",
        "TABLESIGHT_CAMERA__LOOP": "false",
    }
    server = start_server(root / "data", "--no-simulation", env=env, as_typed=True)  # no game
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_the_camera_page_shows_a_still_table_and_its_reading_beside_it(
    still_server: Server, browser, size: tuple[int, int]
) -> None:
    """The camera page shows the picture of a still table (the browser showed a picture of the
    stream only once a next one began: a camera with nothing new to send showed nothing); on
    the table's landscape screen the reading stands beside the picture, both in the first
    screen (it was below a picture as wide as the page, out of view at 1280×720), and with no
    game it says why it reads nothing."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    try:
        page.goto(still_server.url + "/camera?lang=zh")
        page.wait_for_function(
            "s => document.querySelector(s).naturalWidth > 0", arg="#view", timeout=WAIT_MS
        )
        # no game yet: the reading says why there is nothing to read, where it was empty
        expect(page.locator("#reading")).to_have_text("还没有开局:请到开局页面选游戏和玩家,再开始")
        at = page.evaluate(BESIDE, ["#view", "#reading"])
        assert at["wordsLeft"] >= at["pictureRight"], (size, at)
        assert at["pictureBottom"] <= height and at["wordsTop"] < height, (size, at)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"camera-still-zh-{width}x{height}.png"))
    finally:
        context.close()


def test_the_menu_opened_on_one_screen_does_not_cover_another(
    server: Server, page, browser
) -> None:
    """Each screen has its own menu: the table's screen opening it leaves a watcher's view
    alone; the table's own menu button (POST /api/menu) shows it on the table's screen."""
    other = browser.new_context(viewport={"width": 1280, "height": 720})
    watcher = other.new_page()
    try:
        page.goto(server.url + "/?lang=en")
        watcher.goto(server.url + "/?lang=en")
        expect(page.locator("#phase")).to_have_text("Dusk")
        expect(watcher.locator("#phase")).to_have_text("Dusk")
        page.click("#menu-button")
        expect(page.locator("#menu")).to_be_visible()
        assert page.locator("#menu a[href='/setup']").inner_text() == "New game"
        watcher.wait_for_timeout(500)  # time for a (wrong) shared menu to arrive
        expect(watcher.locator("#menu")).to_be_hidden()
        page.click("#menu-close")
        expect(page.locator("#menu")).to_be_hidden()
    finally:
        other.close()
