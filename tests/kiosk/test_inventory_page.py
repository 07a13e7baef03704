"""Menu → "Pack away" (issue 28): the kiosk checks the game's components laid out under its
camera (a folder of one synthetic Don't Starve photo, three pieces left out), names exactly the
three missing in both languages on the page, marks them on the sticker sheet, and the café's
state summary carries the alert until a check finds all."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import httpx
import numpy as np
import pytest
from packaway_photos import GAME, LEFT_OUT_EN, LEFT_OUT_ZH, layout_photo
from playwright.sync_api import expect
from serving import PHONE, serve_in_thread
from serving import asgi_call as call

from kiosk.app import create_app
from kiosk.mqtt.payloads import Missing, read_state
from kiosk.mqtt.publisher import summary
from kiosk.packaway import FILE, MissingPieces, load_missing, save_missing
from kiosk.settings import load_settings
from kiosk.table import open_table


class Kiosk:
    """The kiosk's app for Don't Starve, its camera a folder holding one photo (``show``
    replaces it), served from a thread of this process."""

    def __init__(self, root: Path) -> None:
        self.frames = root / "frames"
        self.frames.mkdir()
        self.show(layout_photo(leave_out=LEFT_OUT_EN), 36)
        self.settings = load_settings(
            data_dir=root / "data",
            lang="en",
            game=GAME,
            camera={"source": f"folder:{self.frames}", "view_fps": 10},
        )
        self.table, self.store = open_table(self.settings)
        self.app = create_app(self.settings, self.table)
        self.served = serve_in_thread(self.app, "the kiosk")
        self.url = self.served.url

    def show(self, image: np.ndarray, tags: int) -> None:
        """What the camera sees from now on (the file replaced at once, never half written),
        once the camera's frames show its ``tags`` tags (a frame read before may be in flight;
        a bound on the wait, not a speed requirement)."""
        part = self.frames.parent / "next.png"
        assert cv2.imwrite(str(part), image, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        os.replace(part, self.frames / "table.png")
        if not hasattr(self, "app"):
            return
        deadline = time.monotonic() + 20
        while len(httpx.get(f"{self.url}/api/camera", timeout=10).json()["detections"]) != tags:
            assert time.monotonic() < deadline, f"the camera never showed {tags} tags"
            time.sleep(0.1)

    def close(self) -> None:
        self.served.stop()


@pytest.fixture(scope="module")
def kiosk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kiosk]:
    served = Kiosk(tmp_path_factory.mktemp("packaway"))
    try:
        yield served
    finally:
        served.close()


def check(kiosk: Kiosk) -> dict[str, Any]:
    answer = httpx.post(f"{kiosk.url}/api/packaway", json={}, timeout=30)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_the_check_keeps_the_missing_pieces_for_the_cafe_until_all_are_seen(kiosk) -> None:
    kiosk.show(layout_photo(leave_out=LEFT_OUT_EN), 36)
    answer = check(kiosk)
    assert (answer["seen"], answer["of"]) == (36, 39)
    assert sorted(m["name"]["en"] for m in answer["missing"]) == sorted(LEFT_OUT_EN)
    assert sorted(m["name"]["zh"] for m in answer["missing"]) == sorted(LEFT_OUT_ZH)
    state = read_state(_summary(kiosk))
    (alert,) = [a for a in state.alerts if isinstance(a, Missing)]
    assert (alert.count, alert.title.en, alert.title.zh) == (
        3,
        "Don't Starve: The Board Game",
        "饥荒桌游版",
    )
    assert load_missing(kiosk.settings.data_dir) == kiosk.table.missing_pieces  # kept on disk

    picture = httpx.get(f"{kiosk.url}/api/packaway.jpg", timeout=10)
    image = cv2.imdecode(np.frombuffer(picture.content, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (540, 960, 3)
    pages = answer["pages"]
    marked = set()
    for n in pages:
        svg = httpx.get(f"{kiosk.url}/api/packaway/sheet-{n}.svg?lang=zh", timeout=10).text
        marked |= {int(p.split('"')[0]) for p in svg.split('class="missing" data-id="')[1:]}
    assert len(marked) == 4  # map tile 7's two faces, Wendy, defeated monster 5
    unmarked = next(n for n in range(1, 5) if n not in pages)
    assert httpx.get(f"{kiosk.url}/api/packaway/sheet-{unmarked}.svg").status_code == 404
    assert call(kiosk.app, "POST", "/api/packaway", json={}, client=PHONE).status_code == 403

    kiosk.show(np.full((540, 960, 3), 90, np.uint8), 0)  # the components packed away already
    assert check(kiosk)["empty"] is True
    assert kiosk.table.missing_pieces is not None and kiosk.table.missing_pieces.count == 3

    kiosk.show(layout_photo(), 39)  # the three found and laid out with the rest
    answer = check(kiosk)
    assert answer["complete"] and answer["missing"] == [] and answer["pages"] == []
    assert kiosk.table.missing_pieces is None
    assert not (kiosk.settings.data_dir / FILE).exists()
    assert not [a for a in read_state(_summary(kiosk)).alerts if a.kind == "missing"]


def _summary(kiosk: Kiosk) -> str:
    """The state summary the café publisher would send now (``kiosk.mqtt.publisher``)."""
    return json.dumps(summary(kiosk.table, "T3", None, 0))


@pytest.mark.browser
def test_the_page_names_exactly_the_three_missing_in_both_languages(kiosk, browser) -> None:
    kiosk.show(layout_photo(leave_out=LEFT_OUT_EN), 36)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    problems: list[str] = []
    try:
        page = context.new_page()
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(kiosk.url)  # the kiosk speaks English: the menu opens the page in English
        page.click("#menu-button")
        page.click("#menu a[href='/packaway']")
        expect(page.locator("#pack-intro")).to_contain_text("Don't Starve: The Board Game")
        page.click("#pack-check")
        missing = page.locator("#pack-missing li")
        expect(missing).to_have_count(3, timeout=30_000)
        assert sorted(missing.all_inner_texts()) == sorted(LEFT_OUT_EN)
        expect(page.locator("#pack-summary")).to_have_text("36 of 39 pieces seen: 3 missing.")
        page.click("button[data-lang='zh']")
        assert sorted(missing.all_inner_texts()) == sorted(LEFT_OUT_ZH)
        expect(page.locator("#pack-summary")).to_have_text("39 件中看到 36 件,缺 3 件。")
        expect(page.locator("#pack-intro")).to_contain_text("《饥荒桌游版》")
        sheets = page.locator("#pack-sheets img")
        expect(sheets.first).to_have_attribute("src", re.compile("lang=zh"))
        assert sheets.count() == 2  # the two pages that hold a missing piece's sticker
        lines = page.locator("main").inner_text().splitlines()
        assert not [line for line in lines if re.search(r"[A-Za-z]{2,}|[\[\]{}_]", line)]
        from axe_playwright_python.sync_playwright import Axe

        contrast = Axe().run(page, options={"runOnly": ["color-contrast"]}).response
        assert contrast["violations"] == []
        body = page.inner_text("body")
        for raw in (GAME, "dont_starve", "undefined", "null", "[object"):
            assert raw not in body

        # the same check at set-up, on the table-check step, without leaving the set-up
        page.goto(f"{kiosk.url}/setup?lang=zh")
        page.click(f'[data-game="{GAME}"]')
        for step in ("players", "options", "check"):
            page.click("#next")
            expect(page.locator(f'[data-go="{step}"]')).to_have_attribute("aria-current", "step")
        page.click("#pack-check")
        line = page.locator("#pack-line")
        expect(line).to_contain_text("39 件中看到 36 件,缺 3 件。", timeout=30_000)
        names = line.inner_text().split("。", 1)[1].strip().split("、")
        assert sorted(names) == sorted(LEFT_OUT_ZH)
        assert problems == []
    finally:
        context.close()


def test_a_restart_keeps_the_missing_pieces_and_a_bad_record_is_ignored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    kept = MissingPieces(game="greenwood", title_zh="苍林秘境", title_en="Greenwood", count=2)
    save_missing(tmp_path, kept)
    settings = load_settings(data_dir=tmp_path, lang="en")
    table, store = open_table(settings)
    try:
        create_app(settings, table)
        assert table.missing_pieces == kept
        (tmp_path / FILE).write_text('{"game": "greenwood", "count": "two"}')
        table.missing_pieces = None
        create_app(settings, table)
        assert table.missing_pieces is None
        assert "not a pack-away record" in caplog.text
    finally:
        store.close()
