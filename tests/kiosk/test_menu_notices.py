"""The table page's menu shows its notices where players read them without scrolling, at
1920×1080 and 1280×720, in Chinese and English: a kiosk whose saved settings were damaged (the
file cut short, as a power cut leaves it) says on its screen which settings were lost
(tests/kiosk/test_settings_writes.py, kiosk/settings.py), and a player opens the menu by touch."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from serving import Server, start_server

from kiosk.settings import KIOSK_FILE, KioskChanges, load_settings, save_kiosk_changes

pytestmark = pytest.mark.browser

WAIT_MS = 15_000  # a bound on the page's first snapshot, not a speed requirement
expect.set_options(timeout=WAIT_MS)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
LOST = {"zh": "看板保存的设置已损坏", "en": "the kiosk's saved settings were damaged"}
"""How the notice of lost settings begins (tests/kiosk/test_settings_writes.py)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A kiosk started on a settings file cut short after two changes were kept."""
    data = tmp_path_factory.mktemp("menu-data")
    settings = load_settings(data_dir=data)
    save_kiosk_changes(settings, KioskChanges(brightness=30, sound=False))
    save_kiosk_changes(settings, KioskChanges(brightness=45))
    (data / KIOSK_FILE).write_text('{"brightness": 45, "sound": fa')  # cut short
    srv = start_server(data)
    try:
        yield srv
    finally:
        srv.stop()


def inside(box: dict[str, float], outer: dict[str, float]) -> bool:
    return (
        box["x"] >= outer["x"] - 0.5
        and box["y"] >= outer["y"] - 0.5
        and box["x"] + box["width"] <= outer["x"] + outer["width"] + 0.5
        and box["y"] + box["height"] <= outer["y"] + outer["height"] + 0.5
    )


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_menus_notice_of_lost_settings_is_read_without_scrolling(
    server: Server, browser: Any, lang: str, size: tuple[int, int]
) -> None:
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    page.goto(f"{server.url}/?lang={lang}")
    menu = page.locator("#menu")
    expect(page.locator("#menu-button")).not_to_be_empty()
    page.locator("#menu-button").tap()
    expect(menu).to_be_visible()
    notice = page.locator("#notices li", has_text=LOST[lang])
    expect(notice).to_have_count(1)
    screen = {"x": 0, "y": 0, "width": width, "height": height}
    menu_box = menu.bounding_box()
    assert menu_box is not None and inside(menu_box, screen), menu_box
    for item in page.locator("#notices li").all():  # every notice, whole, on the screen
        box = item.bounding_box()
        assert box is not None and inside(box, menu_box), (item.inner_text(), box, menu_box)
    # Nothing to scroll to read them: not the menu, not the notices' own box.
    for scroller in ("#menu", "#notices"):
        sizes = page.locator(scroller).evaluate("e => [e.scrollHeight, e.clientHeight]")
        assert sizes[0] <= sizes[1], (scroller, sizes)
    # The menu's entries and Close are there too, whole, and Close closes it.
    for entry in page.locator("#menu nav > a, #menu-close").all():
        box = entry.bounding_box()
        assert box is not None and inside(box, menu_box) and box["height"] >= 64, box
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"menu-notices-{lang}-{width}x{height}.png")
    page.locator("#menu-close").tap()
    expect(menu).to_be_hidden()
    context.close()
