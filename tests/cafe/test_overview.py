"""`tablesight cafe` in a real Chromium: one tile per table from a real Mosquitto, with its
alerts in words (a refused move, the camera lost, the table offline, the game ended and who
won), live, in Chinese and English, on a staff screen and a phone; the ended games as CSV."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from serving import free_port

from cafe.broker import Mosquitto
from cafe.simulate import SimulatedTable
from engine.core import Advance
from kiosk.seats import PlayerSeat

SHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def cafe(broker: Mosquitto, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real `tablesight cafe` process on the module's broker; its address."""
    port = free_port()
    data = tmp_path_factory.mktemp("cafe")
    cmd = [sys.executable, "-m", "kiosk.cli", "--data-dir", str(data), "--lang", "en"]
    cmd += ["cafe", "--mqtt", broker.url, "--port", str(port)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        if proc.poll() is not None:
            raise AssertionError(f"tablesight cafe exited: {proc.stderr.read()}")
        try:
            urllib.request.urlopen(f"{url}/healthz", timeout=1).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise AssertionError("tablesight cafe did not answer within 30 s") from None
            time.sleep(0.1)
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture(scope="module")
def tables(broker: Mosquitto, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """Five simulated tables: one with a refused move, one whose camera is lost, one whose
    game ended, one that went offline, one playing quietly."""
    folder = tmp_path_factory.mktemp("tables")
    seats = [PlayerSeat("Alice", "red"), PlayerSeat("Bob", "blue")]
    made = {
        name: SimulatedTable(name, folder / name, broker.url, game=game, seed=i, seats=seats)
        for i, (name, game) in enumerate(
            [
                ("table-1", "greenwood"),
                ("table-2", "dont_starve"),
                ("table-3", "stonesaga"),
                ("table-4", "greenwood"),
                ("table-10", "greenwood"),
            ]
        )
    }
    for sim in made.values():
        sim.start()
        sim.move()
    refused = made["table-1"].table.submit(Advance())
    assert not refused.accepted
    made["table-2"].table.set_link("camera", "lost", "no frame for 5 s")
    made["table-3"].play_to_end()
    assert made["table-3"].table.saved.session.state.outcome is not None
    made["table-4"].stop()
    try:
        yield {"sims": made, "refused": refused}
    finally:
        for name, sim in made.items():
            if name != "table-4":
                sim.stop()


def open_page(browser: Any, url: str, width: int, height: int, lang: str) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.add_init_script(f"localStorage.setItem('tablesight.cafe.lang', '{lang}')")
    page.goto(url)
    page.wait_for_selector(".tile[data-table='table-4'][data-level='offline']", timeout=20_000)
    page.wait_for_selector(".tile[data-table='table-3'][data-level='ended']", timeout=20_000)
    return page


def tile_text(page: Any, name: str) -> str:
    return str(page.inner_text(f".tile[data-table='{name}']"))


def test_the_overview_shows_every_table_and_its_alerts(
    browser: Any, cafe: str, tables: dict
) -> None:
    sims, refused = tables["sims"], tables["refused"]
    page = open_page(browser, cafe, 1920, 1080, "en")
    try:
        order = page.eval_on_selector_all(".tile", "ts => ts.map(t => t.dataset.table)")
        assert order == ["table-1", "table-2", "table-3", "table-4", "table-10"]
        levels = page.eval_on_selector_all(".tile", "ts => ts.map(t => t.dataset.level)")
        assert levels == ["refused", "lost", "ended", "offline", "none"]
        assert refused.verdict.message.en in tile_text(page, "table-1")
        assert "Camera lost" in tile_text(page, "table-2")
        end = sims["table-3"].table.status("en")["end"]
        assert end["title"] in tile_text(page, "table-3")
        assert "Table offline" in tile_text(page, "table-4")
        quiet = tile_text(page, "table-10")
        status = sims["table-10"].table.status("en")
        assert status["title"] in quiet and status["phase"]["title"] in quiet
        assert "Alice" in quiet and "Bob" in quiet
        needs = page.inner_text("#needs")
        for name in ("table-1", "table-2", "table-4"):
            assert name in needs
        assert "table-3" not in needs and "table-10" not in needs
        body = page.inner_text("body")
        for raw in ("greenwood", "dont_starve", "stonesaga", "camera_lost", "None", "null"):
            assert raw not in body, f"{raw!r} shown to staff"

        # live: the refused move is put right at the table, and its tile says so at once
        sims["table-1"].move()
        page.wait_for_selector(".tile[data-table='table-1'][data-level='none']", timeout=20_000)

        page.click("button[data-lang='zh']")
        zh = tile_text(page, "table-2")
        assert "摄像头断开" in zh
        assert sims["table-2"].table.status("zh")["title"] in zh
        assert "本桌离线" in tile_text(page, "table-4")
        assert sims["table-3"].table.status("zh")["end"]["title"] in tile_text(page, "table-3")
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    ("width", "height", "tag"), [(1920, 1080, "1920"), (1280, 720, "1280"), (390, 844, "phone")]
)
def test_the_overview_fits_a_staff_screen_and_a_phone(
    browser: Any, cafe: str, tables: dict, width: int, height: int, tag: str, lang: str
) -> None:
    page = open_page(browser, cafe, width, height, lang)
    try:
        page.wait_for_selector(".tile[data-table='table-2'][data-level='lost']", timeout=20_000)
        sizes = page.eval_on_selector_all(
            ".tile, .tile *, .bar, .bar *",
            "els => els.filter(e => e.childNodes.length && [...e.childNodes].some("
            "n => n.nodeType === 3 && n.textContent.trim())).map("
            "e => parseFloat(getComputedStyle(e).fontSize))",
        )
        assert min(sizes) >= 16, "nothing a person reads is smaller than 16 px"
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, "no sideways scrolling"
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"cafe-{tag}-{lang}.png"), full_page=tag == "phone")
    finally:
        page.context.close()


def test_ended_games_download_as_csv(cafe: str, tables: dict, wait: Any) -> None:
    sim = tables["sims"]["table-3"]
    status = sim.table.status("en")
    outcome = sim.table.saved.session.state.outcome
    winners = [status["seats"][s]["name"] for s in outcome.winners]

    def rows() -> list[list[str]]:
        answer = httpx.get(f"{cafe}/results.csv?lang=en", timeout=10)
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/csv")
        assert "attachment" in answer.headers["content-disposition"]
        return list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))

    found = wait(lambda: [r for r in rows() if r[:1] == ["table-3"]], what="table-3's result")
    head = rows()[0]
    row = dict(zip(head, found[0], strict=True))
    assert row["save"] == sim.table.saved.name
    assert row["game"] == status["title"]
    assert row["moves"] == str(len(sim.table.saved.session.moves))
    for name in winners:
        assert name in row["winners"]
    ended = {n for n, t in tables["sims"].items() if t.table.saved.session.state.outcome}
    assert {r[0] for r in rows()[1:]} == ended, "ended games only, each once"
    assert len(rows()) == 1 + len(ended)
    zh = httpx.get(f"{cafe}/results.csv?lang=zh", timeout=10).content.decode("utf-8-sig")
    assert zh.splitlines()[0].startswith("桌,游戏")
    assert httpx.get(f"{cafe}/results.csv?lang=fr", timeout=10).status_code == 400


def test_a_table_cleared_from_the_broker_leaves_the_page(
    browser: Any, broker: Mosquitto, cafe: str, tables: dict
) -> None:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    page = open_page(browser, cafe, 1280, 720, "en")
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        info = client.publish("tablesight/table-gone/status", "offline", qos=1, retain=True)
        info.wait_for_publish(10)
        page.wait_for_selector(".tile[data-table='table-gone'][data-level='offline']")
        for what in ("status", "state"):
            client.publish(
                f"tablesight/table-gone/{what}", b"", qos=1, retain=True
            ).wait_for_publish(10)
        page.wait_for_selector(".tile[data-table='table-gone']", state="detached", timeout=20_000)
        assert page.locator(".tile[data-table='table-10']").count() == 1
    finally:
        client.disconnect()
        client.loop_stop()
        page.context.close()
