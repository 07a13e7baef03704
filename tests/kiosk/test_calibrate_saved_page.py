"""The calibrate page says, as it opens, what the saved calibration made of the camera's lens and
when it was saved, in Chinese and English, against a real `tablesight run` in Chromium driven by
touch: a calibration saved by `tablesight calibrate PHOTO` (the project's render of the table
through a barrel lens, OpenCV k1 -0.2, tilted 10°) says the lens is corrected and by as many
millimetres as the command said; one made on the page with the corner anchors alone says the
table is read flat; none, or a damaged file, is said too."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cv2
import pytest
from playwright.sync_api import expect
from serving import Server, start_server

from kiosk.cli import main
from vision.registry import load_registry
from vision.synthetic import Camera, Component, SyntheticTable, render, scattered_table

pytestmark = pytest.mark.browser

WAIT_MS = 30_000  # a bound on the camera taking the new frame and the page's answers, not speed
expect.set_options(timeout=WAIT_MS)
ANCHORS = load_registry([], anchors=True).anchors()
SIZE = (1920, 1080)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"

CORRECTED = {
    "en": re.compile(
        r"^Lens: corrected \(without it, the table's edge would be read up to (\d+) mm off\)$"
    ),
    "zh": re.compile(r"^镜头:已校正\(不校正的话,桌边最多偏 (\d+) 毫米\)$"),
}
FLAT = {"en": "Lens: not corrected (the table is read flat)", "zh": "镜头:未校正(桌面按平面读取)"}
NOT_MEASURED = {"en": "Lens: not measured (too few stickers)", "zh": "镜头:未测量(贴纸太少)"}
SAVED = {"en": "Saved calibration: ", "zh": "已保存的校准:"}
NONE = {
    "en": "No calibration saved yet: the camera works the table out from the corner anchors it"
    " sees",
    "zh": "还没有保存的校准:摄像头每次从看到的四角定位标签推算桌面",
}
DAMAGED = {
    "en": "The saved calibration's file is damaged and cannot be read: calibrate again",
    "zh": "保存的校准文件已损坏,读不出来:请重新校准",
}
CLI_SHIFT = re.compile(r"without it the play area would be read up to ([\d.]+) mm off")


def table_photo(stickers: int) -> Any:
    """The four anchors and ``stickers`` others, seen 900 mm above the table, tilted 10°,
    through a barrel lens (OpenCV k1 -0.2)."""
    back = 900 * math.tan(math.radians(10))
    cam = Camera.overhead(*SIZE, height_mm=900, over_mm=(450, 300 - back), tilt_deg=10, k1=-0.2)
    parts = [
        Component(a.tag_id, a.x_mm, a.y_mm, a.rotation_deg, a.size_mm) for a in ANCHORS.values()
    ]
    if stickers:
        parts += scattered_table(stickers, seed=3, first_id=300, tag_mm=(20, 26)).components
    return render(SyntheticTable(tuple(parts)), cam).image


def write(path: Path, image: Any) -> None:
    ok, png = cv2.imencode(".png", image)
    assert ok
    aside = path.with_suffix(".tmp")
    aside.write_bytes(png.tobytes())
    aside.replace(path)


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Server]:
    """A kiosk whose camera (a folder) shows the table with the anchors alone."""
    frames = tmp_path / "frames"
    frames.mkdir()
    write(frames / "frame.png", table_photo(0))
    env = {"TABLESIGHT_CAMERA__SOURCE": f"folder:{frames}", "TABLESIGHT_CAMERA__FPS": "4"}
    server = start_server(tmp_path / "data", env=env)
    try:
        yield server
    finally:
        server.stop()


class CalibratePage:
    """The calibrate page on a touch screen (the clock in UTC), with its console errors."""

    def __init__(self, browser: Any, server: Server, lang: str, size: tuple[int, int]) -> None:
        self.context = browser.new_context(
            viewport={"width": size[0], "height": size[1]}, has_touch=True, timezone_id="UTC"
        )
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on(
            "console", lambda m: self.problems.append(m.text) if m.type == "error" else None
        )
        self.page.on("pageerror", lambda e: self.problems.append(str(e)))
        self.page.goto(f"{server.url}/calibrate?lang={lang}")
        self.name = f"calibrate-saved-{lang}-{size[0]}x{size[1]}"

    def shoot(self, what: str) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=SCREENSHOTS / f"{self.name}-{what}.png")

    def in_view(self, selector: str) -> None:
        """``selector`` lies whole on the screen as the page opens (nothing to scroll to)."""
        box = self.page.locator(selector).bounding_box()
        size = self.page.viewport_size
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]

    def close(self) -> None:
        assert self.problems == []
        self.context.close()


@pytest.mark.parametrize(("lang", "size"), [("zh", (1920, 1080)), ("en", (1280, 720))])
def test_a_calibration_saved_by_the_command_is_said_on_opening(
    kiosk: Server, browser: Any, capsys: pytest.CaptureFixture[str], lang: str, size: Any
) -> None:
    photo = kiosk.data_dir.parent / "table.png"
    write(photo, table_photo(30))
    assert main(["--data-dir", str(kiosk.data_dir), "calibrate", str(photo)]) == 0
    said = CLI_SHIFT.search(capsys.readouterr().out)
    assert said, "the command said how far a flat table would be off"
    saved_at = datetime.fromtimestamp((kiosk.data_dir / "calibration.json").stat().st_mtime, UTC)
    calibrate = CalibratePage(browser, kiosk, lang, size)
    page = calibrate.page
    lens = page.locator("#saved-lens")
    expect(lens).to_have_text(CORRECTED[lang])
    assert int(CORRECTED[lang].match(lens.inner_text())[1]) == round(float(said[1]))
    when = page.locator("#saved-when").inner_text()
    assert when.startswith(SAVED[lang]), when
    assert f"{saved_at:%H:%M}" in when and str(saved_at.year) in when, (when, saved_at)
    expect(page.locator("#lens")).to_be_hidden()  # no calibration made on this page yet
    calibrate.in_view("#saved")
    calibrate.shoot("opened")
    # The other language, by touch: the same calibration in its words.
    other = "en" if lang == "zh" else "zh"
    page.locator(f'[data-lang="{other}"]').tap()
    expect(lens).to_have_text(CORRECTED[other])
    expect(page.locator("#saved-when")).to_contain_text(SAVED[other])
    calibrate.close()


@pytest.mark.parametrize(("lang", "size"), [("en", (1920, 1080)), ("zh", (1280, 720))])
def test_a_calibration_made_on_the_page_is_said_when_the_page_opens_again(
    kiosk: Server, browser: Any, lang: str, size: Any
) -> None:
    calibrate = CalibratePage(browser, kiosk, lang, size)
    page = calibrate.page
    expect(page.locator("#saved-when")).to_have_text(NONE[lang])
    calibrate.in_view("#saved")
    calibrate.shoot("none")
    expect(page.locator("#lens-seen")).to_contain_text("0")  # the camera's frame is in
    page.locator("#run").tap()
    expect(page.locator("#lens-line")).to_have_text(NOT_MEASURED[lang])
    expect(page.locator("#saved")).to_be_hidden()  # the answer says it; not twice
    calibrate.close()
    again = CalibratePage(browser, kiosk, lang, size)
    expect(again.page.locator("#saved-lens")).to_have_text(FLAT[lang])
    expect(again.page.locator("#saved-when")).to_contain_text(SAVED[lang])
    again.in_view("#saved")
    again.shoot("flat")
    again.close()
    (kiosk.data_dir / "calibration.json").write_text('{"format": 2, "table_to')  # cut short
    damaged = CalibratePage(browser, kiosk, lang, size)
    expect(damaged.page.locator("#saved-when")).to_have_text(DAMAGED[lang])
    expect(damaged.page.locator("#saved-lens")).to_have_text("")
    damaged.close()
