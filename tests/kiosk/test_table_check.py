"""Issue 38: the set-up page's table check (its last step) ticks only what the camera of this
game sees now. With no camera ("camera: none" at start-up) every line says "check by eye",
also right after a game that had a synthetic table; the synthetic table's simulated picture
never counts as seen; a frame kept from before (a camera lost, a feed stopped) does not
either. A real camera's picture still ticks what it shows."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from playwright.sync_api import expect
from serving import Server, start_server
from serving import asgi_call as call

from kiosk.app import create_app
from kiosk.rig import find_camera
from kiosk.settings import load_settings
from kiosk.table import open_table
from vision.detection import Detector
from vision.registry import load_registry
from vision.sources import SourceConfig, open_source

BY_EYE = "the camera cannot check this: check by eye"
CAMERA_CHECKS = ("anchors", "submarines", "player_boards")
"""Greenwood's lines the camera can check (the anchors and the boards)."""
PAGE_POLLS = 8
"""How many of the set-up page's camera polls (one a second) a check is given to show what a
camera would tick: a bound on events, not a speed requirement."""


class CheckPage:
    """The set-up page at its table check, with the camera answers it received."""

    def __init__(self, browser: Any, server: Server, game: str = "greenwood") -> None:
        self.context = browser.new_context(viewport={"width": 1920, "height": 1080}, has_touch=True)
        self.page = page = self.context.new_page()
        self.answers: list[dict[str, Any]] = []
        self.problems: list[str] = []
        page.on("console", lambda m: self.problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.problems.append(str(e)))
        page.on("response", self._response)
        page.goto(server.url + "/setup?lang=en")
        page.locator(f'[data-game="{game}"]').tap()
        for step in ("players", "options", "check"):
            page.locator("#next").tap()
            expect(page.locator(f'[data-go="{step}"]')).to_have_attribute("aria-current", "step")

    def _response(self, response: Any) -> None:
        if response.url.split("?")[0].endswith("/api/camera") and response.ok:
            self.answers.append(json.loads(response.body()))

    def wait_for(self, done: Any, what: str) -> None:
        """Wait until the camera answers the page received satisfy ``done`` (a start-up
        wait on the page's own polls, bounded)."""
        for _ in range(120):
            if done(self.answers):
                return
            self.page.wait_for_timeout(250)
        raise AssertionError(f"the page's camera polls never {what}: {self.answers[-1:]}")

    def states(self) -> dict[str, tuple[str, str]]:
        """Each line's state and what it says, as drawn now."""
        lines = self.page.locator("#checklist .check")
        return {
            line.get_attribute("data-check"): (
                line.get_attribute("data-state"),
                line.locator(".check-how").inner_text(),
            )
            for line in lines.all()
        }

    def assert_all_by_eye(self, camera_line: str) -> None:
        expect(self.page.locator("#camera-line")).to_have_text(camera_line)
        for key in CAMERA_CHECKS:
            expect(self.page.locator(f'#checklist [data-check="{key}"]')).to_have_attribute(
                "data-state", "eye"
            )
        states = self.states()
        assert states and all(state == "eye" for state, _ in states.values()), states
        assert all(how == BY_EYE for _, how in states.values()), states  # nothing "seen"
        assert self.page.locator("#checklist").inner_text().count("✔") == 0
        expect(self.page.locator("#check-sum")).to_have_text("")
        expect(self.page.locator("#start")).to_be_enabled()
        assert self.problems == []

    def close(self) -> None:
        self.context.close()


def test_with_no_camera_right_after_a_synthetic_table_every_line_says_check_by_eye(
    tmp_path: Path, browser: Any
) -> None:
    if find_camera() is not None:
        pytest.skip("this machine has a camera: the kiosk would read it")
    # A game with the synthetic table: the scripted session's camera is the simulated one,
    # and even while it shows the boards, its picture ticks nothing.
    simulated = start_server(tmp_path, env={"TABLESIGHT_SIMULATION": "true"})
    try:
        check = CheckPage(browser, simulated)
        check.wait_for(lambda a: any(x["frames"] and x["detections"] for x in a), "had frames")
        check.wait_for(lambda a: len(a) >= 3, "came three times")
        check.assert_all_by_eye("The synthetic table is no camera: check everything by eye")
        assert check.answers[-1]["link"]["state"] == "simulated"
        assert not check.answers[-1]["seen_now"]
        check.close()
    finally:
        simulated.stop()
    # The next evening: `run --no-simulation`, no camera. The saved game (of the synthetic
    # table) resumes; the table check sees nothing.
    still = start_server(tmp_path, "--no-simulation")
    try:
        check = CheckPage(browser, still)
        check.wait_for(lambda a: any(x["frames"] for x in a) or len(a) >= PAGE_POLLS, "ended")
        check.assert_all_by_eye("Camera not connected: check everything by eye")
        last = check.answers[-1]
        assert last["link"] == {"state": "not_connected", "detail": "no camera"}, last
        assert last["frames"] == 0 and last["detections"] == [] and not last["seen_now"]
        check.page.goto(still.url + "/camera?lang=en")  # the camera page loads, sees nothing
        expect(check.page.locator("#link")).to_have_text("Camera: not connected")
        expect(check.page.locator("#tags")).to_have_text("—")
        assert check.problems == []
        check.close()
    finally:
        code, err = still.stop()
    assert code == 0, err
    assert "camera: none (the kiosk runs without reading the table)" in err


@pytest.fixture
def camera_folder(tmp_path: Path) -> Path:
    """A folder holding one photograph of a table (the synthetic table's first picture: the
    anchors and Greenwood's boards), a real camera for the kiosk (``folder:``)."""
    source = open_source(SourceConfig.from_spec("synthetic"))
    try:
        image = source.read().image
    finally:
        source.close()
    folder = tmp_path / "camera"
    folder.mkdir()
    assert cv2.imwrite(str(folder / "table.png"), image)
    return folder


@pytest.fixture
def camera_server(tmp_path: Path, camera_folder: Path) -> Iterator[Server]:
    env = {"TABLESIGHT_CAMERA__SOURCE": f"folder:{camera_folder}", "TABLESIGHT_CAMERA__FPS": "4"}
    server = start_server(tmp_path / "data", env=env)
    try:
        yield server
    finally:
        server.stop()


def test_a_real_camera_ticks_what_it_sees_and_says_check_by_eye_for_the_rest(
    camera_server: Server, browser: Any
) -> None:
    """Moved from test_setup_page.py (it ran on the synthetic table the kiosk opened with no
    camera, the defect of issue 38): a camera showing the anchors and Greenwood's boards gives
    them ✔; the rest is "check by eye"; Don't Starve's round board is missing, Start stays."""
    check = CheckPage(browser, camera_server)
    try:
        page = check.page
        for key in CAMERA_CHECKS:
            expect(page.locator(f'#checklist [data-check="{key}"]')).to_have_attribute(
                "data-state", "ok"
            )
        expect(page.locator("#camera-line")).to_have_text(
            "The camera is watching; the list updates by itself"
        )
        rest = page.locator('#checklist [data-check="rest"]')
        expect(rest).to_have_attribute("data-state", "eye")
        expect(rest).to_contain_text("check by eye")
        assert check.answers[-1]["link"]["state"] == "ok" and check.answers[-1]["seen_now"]
        page.locator('[data-go="game"]').tap()
        page.locator('[data-game="dont_starve"]').tap()
        page.locator('[data-go="check"]').tap()
        expect(page.locator('#checklist [data-check="round_board"]')).to_have_attribute(
            "data-state", "missing"
        )
        expect(page.locator('#checklist [data-check="anchors"]')).to_have_attribute(
            "data-state", "ok"
        )
        expect(page.locator("#check-sum")).to_contain_text("Still missing: The round board")
        expect(page.locator("#start")).to_be_enabled()
        assert check.problems == []
    finally:
        check.close()


def test_only_a_working_cameras_frame_of_just_now_is_seen_now(
    tmp_path: Path, camera_folder: Path
) -> None:
    """In process: the feed's frame counts for the check only while the camera's link works
    and the frame is new; the synthetic table's never; with no camera, nothing is opened."""
    image = cv2.imread(str(camera_folder / "table.png"))
    found = Detector().detect(image)
    settings = load_settings(
        data_dir=tmp_path / "a", lang="en", camera={"source": f"folder:{camera_folder}"}
    )
    table, store = open_table(settings)
    app = create_app(settings, table)
    feed = app.state.camera
    try:
        table.set_link("camera", "ok", str(camera_folder))
        feed.publish(image, found)  # as the table loop does
        now = call(app, "GET", "/api/camera").json()
        assert now["seen_now"] and len(now["detections"]) == len(found) > 4
        assert feed.read_at is not None
        feed.read_at -= 60  # the frame kept from a minute ago: the camera stopped since
        assert not call(app, "GET", "/api/camera").json()["seen_now"]
        feed.publish(image, found)
        table.set_link("camera", "lost", "unplugged")
        assert not call(app, "GET", "/api/camera").json()["seen_now"]
        table.set_link("camera", "simulated", "synthetic table")
        feed.publish(image, found)
        assert not call(app, "GET", "/api/camera").json()["seen_now"]
    finally:
        feed.close()
        store.close()
    synthetic = load_settings(data_dir=tmp_path / "b", lang="en")
    table, store = open_table(synthetic)
    app = create_app(synthetic, table)
    feed = app.state.camera
    try:
        feed.no_camera()  # as the rig does when it reports "camera: none"
        for _ in range(3):
            answer = call(app, "GET", "/api/camera").json()
            assert answer["link"] == {"state": "not_connected", "detail": "no camera"}
            assert answer["frames"] == 0 and answer["detections"] == []
            assert not answer["seen_now"]
        assert feed.latest()[0] is None
    finally:
        feed.close()
        store.close()


def test_a_sticker_some_frames_miss_is_still_seen_over_the_last_seconds(
    tmp_path: Path, browser: Any
) -> None:
    """Issue 39: the table check counts what the frames of the last seconds read (twice),
    not the last frame alone. The camera's frames take turns: one has player board 1's
    stickers under a hand, the next player board 2's. No single frame shows both boards, so
    a check of the last frame always missed one; over the frames both are seen."""
    source = open_source(SourceConfig.from_spec("synthetic"))
    try:
        image = source.read().image
    finally:
        source.close()
    registry = load_registry()
    boards: dict[int, list[Any]] = {}
    for d in Detector().detect(image):
        entry = registry.lookup(d.id, d.family)
        if entry is not None and entry.name == "player board":
            boards.setdefault(entry.item, []).append(d)
    assert sorted(boards) == [1, 2], boards  # the synthetic table's two player boards
    folder = tmp_path / "camera"
    folder.mkdir()
    for n, (item, tags) in enumerate(sorted(boards.items())):
        covered = image.copy()
        for d in tags:  # a hand over each of the board's stickers (and their white border)
            quad = np.asarray(d.corners, np.float32)
            centre = quad.mean(axis=0)
            grown = (centre + 1.6 * (quad - centre)).astype(np.int32)
            cv2.fillConvexPoly(covered, grown, (120, 140, 170))
        assert not {d.id for d in Detector().detect(covered)} & {d.id for d in tags}, item
        assert cv2.imwrite(str(folder / f"frame-{n}.png"), covered)
    env = {"TABLESIGHT_CAMERA__SOURCE": f"folder:{folder}", "TABLESIGHT_CAMERA__FPS": "4"}
    server = start_server(tmp_path / "data", env=env)
    check = CheckPage(browser, server)
    try:
        line = check.page.locator('#checklist [data-check="player_boards"]')
        expect(line).to_have_attribute("data-state", "ok")
        expect(line).to_contain_text("seen")
        # it stays seen poll after poll, though each frame shows one of the two boards
        polls = len(check.answers)
        check.wait_for(lambda a: len(a) >= polls + 4, "came four more times")
        expect(line).to_have_attribute("data-state", "ok")
        expect(check.page.locator("#check-sum")).not_to_contain_text("Still missing")
        last = check.answers[-1]
        assert last["seen_now"], last
        shown = {d["id"] for d in last["detections"]}
        boards_ids = [{d.id for d in tags} for tags in boards.values()]
        assert any(not ids & shown for ids in boards_ids), "the last frame showed both boards"
        assert all(ids <= set(last["held"]) for ids in boards_ids), last["held"]
        assert check.problems == []
    finally:
        check.close()
        server.stop()


def test_a_tag_is_held_when_two_frames_of_the_window_read_it(
    tmp_path: Path, camera_folder: Path
) -> None:
    """In process: one frame's read is held only while it is the window's only frame; a tag a
    later frame misses stays held once two frames read it; old frames hold nothing."""
    image = cv2.imread(str(camera_folder / "table.png"))
    found = Detector().detect(image)
    settings = load_settings(
        data_dir=tmp_path, lang="en", camera={"source": f"folder:{camera_folder}"}
    )
    table, store = open_table(settings)
    feed = create_app(settings, table).state.camera
    try:
        first, rest = found[0], found[1:]
        feed.publish(image, rest)
        assert feed.held() == sorted(d.id for d in rest)  # one frame: all it read
        feed.publish(image, found)  # the first tag read once in two frames: not held yet
        assert first.id not in feed.held() and set(feed.held()) == {d.id for d in rest}
        feed.publish(image, found)
        feed.publish(image, rest)  # missed again, but two frames of the window read it
        assert first.id in feed.held()
        assert feed.read_at is not None
        feed._recent = type(feed._recent)((at - 60, ids) for at, ids in feed._recent)
        assert feed.held() == []  # a minute old: nothing is held
    finally:
        feed.close()
        store.close()
