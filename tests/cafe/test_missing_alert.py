"""The café overview shows a table's missing pieces (issue 28, pack away): "T3: 2 pieces of
Greenwood missing" in both languages, from the state summary a real table publishes to a real
Mosquitto, until a check finds all. The overview is served from a thread of this process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from serving import serve_in_thread

from cafe.broker import Mosquitto
from cafe.overview import Overview, create_app
from cafe.simulate import SimulatedTable
from kiosk.packaway import MissingPieces
from kiosk.settings import MqttSettings

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def cafe(broker: Mosquitto, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The café overview of the module's broker, on a free port; its address."""
    overview = Overview(MqttSettings(url=broker.url), tmp_path_factory.mktemp("cafe"))
    overview.start()
    served = serve_in_thread(create_app(overview, "en"), "the café overview")
    try:
        yield served.url
    finally:
        served.stop()
        overview.stop()


def test_the_overview_names_the_missing_pieces_until_a_check_finds_all(
    browser: Any, broker: Mosquitto, cafe: str, tmp_path: Path
) -> None:
    table = SimulatedTable("T3", tmp_path / "T3", broker.url, game="greenwood").start()
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        table.table.show_missing(
            MissingPieces(game="greenwood", title_zh="苍林秘境", title_en="Greenwood", count=2)
        )
        page = context.new_page()
        page.add_init_script("localStorage.setItem('tablesight.cafe.lang', 'en')")
        page.goto(cafe)
        tile = page.locator(".tile[data-table='T3']")
        expect(tile).to_have_attribute("data-level", "missing", timeout=20_000)
        expect(tile.locator(".alert[data-kind='missing']")).to_have_text(
            "⚠ 2 pieces of Greenwood missing"
        )
        expect(page.locator("#needs")).to_contain_text("T3: 2 pieces of Greenwood missing")
        page.click("button[data-lang='zh']")
        expect(tile.locator(".alert[data-kind='missing']")).to_have_text(
            "⚠ 《苍林秘境》缺 2 件配件"
        )
        expect(page.locator("#needs")).to_contain_text("《苍林秘境》缺 2 件配件")

        table.table.show_missing(None)  # the next check found all
        expect(tile).to_have_attribute("data-level", "none", timeout=20_000)
        expect(tile.locator(".alert")).to_have_count(0)
    finally:
        context.close()
        table.stop()
