"""The "Your box" page's download link works from the page's first paint (docs/box.md "Copying
at the kiosk"): a player who touches "Download the box" the moment the page shows gets the
box as it is played, before the page's script has had its data (held here, as a busy kiosk holds
it); with no game asked for, the first game's box, the one the page then shows."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from serving import Server, start_server

from kiosk.cli import main

pytestmark = pytest.mark.browser

WAIT_MS = 15_000  # a bound on waiting for the page and the download, not a speed requirement
expect.set_options(timeout=WAIT_MS)
TITLE = "Frost's Descent"
"""A weather card's title as the owner's box prints it (the demo's: "First Frost")."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A kiosk whose Don't Starve box has one weather card of the owner's, brought in with
    `tablesight box dont_starve import` as the owner would."""
    data = tmp_path_factory.mktemp("box-data")
    work = tmp_path_factory.mktemp("box-files")
    demo = work / "demo.zip"
    assert main(["--data-dir", str(data), "box", "dont_starve", "export", str(demo)]) == 0
    changed = work / "changed.zip"
    with zipfile.ZipFile(demo) as source, zipfile.ZipFile(changed, "w") as target:
        for name in source.namelist():
            text = source.read(name).decode("utf-8")
            if name.endswith("weather.toml"):
                assert 'title_en = "First Frost"' in text
                text = text.replace('title_en = "First Frost"', f'title_en = "{TITLE}"', 1)
            target.writestr(name, text)
    assert main(["--data-dir", str(data), "box", "dont_starve", "import", str(changed)]) == 0
    srv = start_server(data)
    try:
        yield srv
    finally:
        srv.stop()


class HeldPage:
    """The box page on a touch screen, its data (``GET /api/box``) held until ``release``."""

    def __init__(self, browser: Any, size: tuple[int, int]) -> None:
        self.context = browser.new_context(
            viewport={"width": size[0], "height": size[1]}, has_touch=True
        )
        self.page = self.context.new_page()
        self.held: list[Any] = []
        self.page.route(re.compile(r"/api/box(\?|$)"), lambda route: self.held.append(route))

    def wait_held(self) -> bool:
        """Whether the page's data request is held, once Playwright has had up to 10 s to run
        the route's handler (it runs after the request is sent, between Playwright's calls)."""
        for _ in range(200):
            if self.held:
                return True
            self.page.wait_for_timeout(50)
        return False

    def release(self) -> None:
        for route in self.held:
            route.continue_()
        self.held.clear()

    def close(self) -> None:
        self.context.close()


def touch_download(page: Any, tmp_path: Path) -> zipfile.ZipFile:
    """Touch the download link as a player would; the file that came."""
    with page.expect_download() as download:
        page.locator("#box-export").tap()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    return zipfile.ZipFile(io.BytesIO(saved.read_bytes()))


@pytest.mark.parametrize(("lang", "size"), [("zh", (1920, 1080)), ("en", (1280, 720))])
def test_a_touch_on_download_at_load_gives_the_box_as_played(
    server: Server, browser: Any, tmp_path: Path, lang: str, size: tuple[int, int]
) -> None:
    held = HeldPage(browser, size)
    page = held.page
    page.goto(f"{server.url}/box?game=dont_starve&lang={lang}")
    label = {"zh": "下载盒子文件", "en": "Download the box"}[lang]
    expect(page.locator("#box-export")).to_have_text(label)
    assert held.wait_held(), "the page asked for its data"  # and has not had it
    assert page.locator("#box-line").inner_text() == ""  # nothing drawn from it yet
    with touch_download(page, tmp_path) as archive:
        weather = archive.read("dont_starve/weather.toml").decode("utf-8")
    assert f'title_en = "{TITLE}"' in weather  # the owner's card, not the demo's
    assert 'title_en = "First Frost"' not in weather
    held.release()
    expect(page.locator("#box-line")).not_to_be_empty()
    with touch_download(page, tmp_path) as archive:  # the drawn page's link: the same file
        assert archive.read("dont_starve/weather.toml").decode("utf-8") == weather
    held.close()


def test_with_no_game_asked_the_link_gives_the_game_the_page_shows(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    held = HeldPage(browser, (1920, 1080))
    page = held.page
    page.goto(f"{server.url}/box?lang=en")
    assert held.wait_held(), "the page asked for its data"
    with touch_download(page, tmp_path) as archive:
        folders = {name.split("/")[0] for name in archive.namelist()}
    held.release()
    shown = page.locator('#box-games button[aria-pressed="true"]')
    expect(shown).to_have_count(1)
    titles = {"greenwood": "Greenwood", "dont_starve": "Don't Starve", "stonesaga": "Stonesaga"}
    assert len(folders) == 1
    (folder,) = folders
    expect(shown).to_contain_text(titles[folder])
    held.close()
