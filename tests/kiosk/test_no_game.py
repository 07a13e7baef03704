"""Issue 38: `tablesight run --no-simulation` on an empty data folder starts no game nobody
asked for. It waits on the set-up page: the status has no game, the table page sends the
players to the set-up page in their language, every route that needs a game answers 409
saying so (never a 500), and the first game is the set-up page's. A saved game still resumes;
with the simulation on, the scripted session still starts its own game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from serving import Server, start_server

from engine.greenwood.moves import PlaceDuskMarker
from kiosk.rig import find_camera
from kiosk.settings import load_settings
from kiosk.store import Store
from kiosk.table import NoGameError, open_table

WAITING_EN = "No game yet: set one up on the set-up page (the game, the players), then start it"
WAITING_ZH = "还没有开局:请到开局页面选游戏和玩家,再开始"


def start_waiting(data_dir: Path, *args: str) -> Server:
    """`tablesight run --no-simulation` as a user types it."""
    return launch(data_dir, "--no-simulation", *args)


def launch(data_dir: Path, *args: str) -> Server:
    """`tablesight run ARGS` with no ``--game``, no ``--save`` and no ``TABLESIGHT_*`` variable
    (``serving.start_server`` sets some unless told ``as_typed``)."""
    return start_server(data_dir, *args, as_typed=True)


def get(server: Server, path: str, **params: Any) -> httpx.Response:
    return httpx.get(server.url + path, params=params, timeout=10)


def post(server: Server, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
    return httpx.post(server.url + path, json=body or {}, timeout=10)


def saves(data_dir: Path) -> list[str]:
    with Store.open(data_dir / "games.sqlite") as store:
        return [info.name for info in store.list()]


def test_run_no_simulation_on_an_empty_data_folder_starts_no_game_and_says_why(
    tmp_path: Path,
) -> None:
    server = start_waiting(tmp_path)
    try:
        status = get(server, "/api/status", lang="en").json()
        assert status["game"] is None and status["save"] == "" and status["moves"] == 0
        assert status["title"] == "No game yet" and status["next"] == WAITING_EN
        assert status["console"] == {"moves": 0, "groups": []} and not status["can_undo"]
        assert status["confirm"]["code"] == "kiosk.no_game"
        assert "no saved game to resume: set up a game on the set-up page" in status["notices"]
        assert get(server, "/api/status", lang="zh").json()["next"] == WAITING_ZH
        # Every route that needs a game says there is none: 409 in the asked language.
        needs = [
            get(server, "/api/offers", lang="en"),
            post(server, "/api/move?lang=en", {"type": "pass", "seat": 0}),
            post(server, "/api/check?lang=en", {"type": "pass", "seat": 0}),
            post(server, "/api/timer/choice?lang=en", {"mode": "turn", "seconds": 60}),
            get(server, "/api/packaway", lang="en"),
        ]
        for answer in needs:
            assert answer.status_code == 409, (answer.request.url, answer.text)
            assert answer.json() == {"detail": WAITING_EN, "code": "kiosk.no_game"}
        zh = get(server, "/api/offers", lang="zh")
        assert zh.status_code == 409 and zh.json()["detail"] == WAITING_ZH
        undo = post(server, "/api/undo")
        assert undo.status_code == 409 and "no game" in undo.json()["detail"]
        advance = post(server, "/api/advance?lang=en").json()  # the confirm button's answer
        assert advance == {
            "accepted": False,
            "open": False,
            "code": "kiosk.no_game",
            "message": WAITING_EN,
        }
        assert post(server, "/api/menu", {"open": True}).json() == {"menu": True}
        # The tray page shows the controller and the dark LEDs, and where to set up a game.
        tray = get(server, "/api/tray", lang="en")
        assert tray.status_code == 200, tray.text
        assert tray.json()["next"] == WAITING_EN and tray.json()["dice"] is None
        assert get(server, "/api/camera").status_code == 200
    finally:
        code, err = server.stop()
    assert code == 0, err
    assert "Traceback" not in err and "Error" not in err, err
    assert "tablesight: no saved game to resume: set up a game on the set-up page" in err
    assert "started a new game" not in err
    # Ctrl-C says what it kept: no game, so nothing (it said "the game is saved", issue #38).
    assert "tablesight: stopped (no game was set up, so none to keep)" in err, err
    assert "the game is saved" not in err
    assert saves(tmp_path) == []  # no game was made that nobody asked for


def touch_page(browser: Any) -> tuple[Any, Any, list[str]]:
    """A 1280×720 touch screen's context and page, and the page's errors as they come."""
    context = browser.new_context(viewport={"width": 1280, "height": 720}, has_touch=True)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return context, page, problems


def test_the_table_page_without_a_game_sends_the_players_to_the_set_up_page(
    tmp_path: Path, browser: Any
) -> None:
    server = start_waiting(tmp_path)
    context, page, problems = touch_page(browser)
    try:
        page.goto(server.url + "/?lang=zh")
        expect(page.locator("#next")).to_have_text(WAITING_ZH)
        expect(page.locator("#title")).to_have_text("还没有开局")
        expect(page.locator("#round")).to_have_text("")
        button = page.locator("#no-game button")
        expect(button).to_be_visible()
        expect(button).to_have_text("开一局 ›")
        page.locator('[data-lang="en"]').click()
        expect(page.locator("#next")).to_have_text(WAITING_EN)
        expect(button).to_have_text("Set up a game ›")
        button.tap()
        page.wait_for_url("**/setup**")
        expect(page.locator('[data-game="greenwood"]')).to_be_visible()
        # The set-up page's game reaches the table page that waited (its live stream).
        page.goto(server.url + "/")
        expect(page.locator("#next")).to_have_text(WAITING_EN)
        options = {"start_seat": 0, "draws": "virtual"}
        started = post(
            server, "/api/new-game", {"game": "greenwood", "players": 2, "options": options}
        )
        assert started.status_code == 200, started.text
        expect(page.locator("#title")).to_have_text("Greenwood")
        expect(page.locator("#no-game")).to_be_hidden()
        expect(page.locator("#round")).not_to_have_text("")
        assert problems == []
    finally:
        context.close()
        server.stop()
    assert saves(tmp_path) == [started.json()["save"]]


def test_the_tray_page_without_a_game_shows_its_leds_and_says_where_to_set_one_up(
    tmp_path: Path, browser: Any
) -> None:
    """The tray page answered 409 with no game: it drew nothing, not even the controller."""
    server = start_waiting(tmp_path)
    context, page, problems = touch_page(browser)
    try:
        page.goto(server.url + "/tray?lang=zh")
        expect(page.locator("#message")).to_have_text(WAITING_ZH)
        expect(page.locator("#trays .tray")).to_have_count(2)
        expect(page.locator("#link")).to_contain_text("灯光控制器")
        assert page.locator("#trays .tray-label").first.inner_text().split()[-1] == "现在不用掷骰"
        assert problems == []
    finally:
        context.close()
        server.stop()


def test_a_restart_resumes_the_saved_game_also_with_no_simulation(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.sqlite") as store:
        saved = store.new_game(
            "sunday", "greenwood", {"players": 2, "start_seat": 1, "draws": "virtual"}
        )
        for seat in (0, 1):  # greenwood.zh.md §三.2: each dusk marker before passing dusk
            assert saved.submit(PlaceDuskMarker(seat=seat, effect="recruit")).accepted
    server = start_waiting(tmp_path)
    try:
        status = get(server, "/api/status", lang="en").json()
        assert status["save"] == "sunday" and status["game"] == "greenwood"
        assert status["moves"] == 2 and "resumed saved game 'sunday'" in status["notices"][0]
        assert post(server, "/api/move", {"type": "pass", "seat": 0}).json()["accepted"]
    finally:
        code, err = server.stop()
    assert code == 0, err
    again = start_waiting(tmp_path)  # and once more: the move made is kept
    try:
        status = get(server=again, path="/api/status").json()
        assert status["save"] == "sunday" and status["moves"] == 3
    finally:
        again.stop()
    assert saves(tmp_path) == ["sunday"]


def test_a_game_started_from_the_waiting_kiosk_is_resumed_after_a_restart(
    tmp_path: Path,
) -> None:
    server = start_waiting(tmp_path)
    try:
        options = {"start_seat": 0, "draws": "virtual"}
        body = {"game": "greenwood", "players": 2, "options": options, "name": "friday"}
        assert post(server, "/api/new-game", body).json() == {"save": "friday", "game": "greenwood"}
        assert post(server, "/api/timer/choice", {"mode": "turn", "seconds": 90}).status_code == 200
        move = {"type": "greenwood.dusk_marker", "seat": 0, "effect": "recruit"}
        assert post(server, "/api/move", move).json()["accepted"]
    finally:
        server.stop()
    again = start_waiting(tmp_path)
    try:
        status = get(again, "/api/status").json()
        assert status["save"] == "friday" and status["moves"] == 1
        assert status["timer"] is not None  # the clocks chosen are kept with the save
    finally:
        again.stop()


def test_a_game_asked_for_is_started_and_the_table_waits_only_when_none_is() -> None:
    """In process, as `tablesight run` opens it (``wait``): ``--game`` (or ``--save``, or the
    settings file) asks for a game; nothing asks for one by default (the rig's simulation
    starts its own). Without ``wait`` (scripts, tests), a game of ``settings.game`` starts."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        table, store = open_table(load_settings(data_dir=Path(tmp) / "a", lang="en"), wait=True)
        try:
            assert not table.has_game
            with pytest.raises(NoGameError):
                table.saved  # noqa: B018 (the property raises)
            with pytest.raises(NoGameError):
                table.facts()
            assert table.confirm() is None
            snapshot = table.presenter.snapshot("zh")
            assert snapshot.game is None and snapshot.next == WAITING_ZH
            table.new_game("dont_starve", {"players": 2})
            assert table.has_game and table.status("en")["game"] == "dont_starve"
        finally:
            store.close()
        asked = load_settings(data_dir=Path(tmp) / "b", lang="en", game="stonesaga")
        table, store = open_table(asked, wait=True)
        try:
            assert table.saved.game.name == "stonesaga"
        finally:
            store.close()
        table, store = open_table(load_settings(data_dir=Path(tmp) / "d", lang="en"))
        try:
            assert table.saved.game.name == "greenwood"
        finally:
            store.close()
        named = load_settings(data_dir=Path(tmp) / "c", lang="en", save="tonight")
        table, store = open_table(named, wait=True)
        try:
            assert table.saved.name == "tonight" and table.saved.game.name == "greenwood"
        finally:
            store.close()


def test_with_the_simulation_the_scripted_session_still_starts_its_own_game(
    tmp_path: Path,
) -> None:
    """`tablesight run` (README's first command, `make run`) on an empty data folder with no
    camera: the simulated session starts its game, and it is the only save."""
    if find_camera() is not None:
        pytest.skip("this machine has a camera: `tablesight run` would read it")
    server = launch(tmp_path)
    try:
        status = get(server, "/api/status", lang="en").json()
        assert status["game"] == "greenwood" and status["save"].startswith("simulation-greenwood")
    finally:
        code, err = server.stop()
    assert code == 0, err
    assert f"the scripted session starts a new game saved as {status['save']!r}" in err
    assert saves(tmp_path) == [status["save"]]
