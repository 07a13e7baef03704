"""A broker outage is not the tables' outage: against a real Mosquitto, killed (SIGKILL) or
stopped (SIGTERM: it publishes every table's last will as it goes), the overview marks no table
offline while it has no broker, finds its live tables again when the broker is back, and marks
offline only a table that is really gone (its will, or no word within the grace after the
return). In Chromium, the page says it in one banner, in Chinese and English."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from serving import free_port

from cafe.broker import Mosquitto
from cafe.overview import HOLD_S, Overview
from cafe.simulate import SimulatedTable
from kiosk.seats import PlayerSeat
from kiosk.settings import MqttSettings

GRACE_S = 10.0
"""The grace after a return in these tests (the tables' back-off after a short outage is at
most 4 s)."""
SHOTS = Path(tempfile.gettempdir()) / "tablesight-cafe"
BANNER = {
    "zh": "MQTT 服务器断开了。各桌照常进行,服务器恢复后会自动报告。",
    "en": "The MQTT broker is down. The tables play on and will report when it is back.",
}
TABLE_SCRIPT = """
import sys, time
from pathlib import Path
from cafe.simulate import SimulatedTable
sim = SimulatedTable(sys.argv[1], Path(sys.argv[2]), sys.argv[3], seed=7).start()
sim.move()
time.sleep(3600)
"""


def back_between_retries(broker: Mosquitto, lost: float) -> None:
    """Start the broker 5 s after it went: between the tables' retries at 3 and 7 s (paho's
    back-off from 1 s), so the overview (retrying every 0.1 s) is back before them. A table
    that comes back first can only be heard through what the broker retained, which a killed
    broker's autosave makes stale (docs/mqtt.md)."""
    time.sleep(max(0.0, lost + 5 - time.monotonic()))
    broker.start()


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}


def table_process(name: str, folder: Path, broker: Mosquitto) -> subprocess.Popen[bytes]:
    """A simulated table in its own process (to be killed with SIGKILL: its will fires)."""
    folder.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-c", TABLE_SCRIPT, name, str(folder), broker.url]
    return subprocess.Popen(cmd, env=env(), stderr=subprocess.DEVNULL)


def tile(overview: Overview, name: str) -> dict[str, Any]:
    got = overview.tile(name)
    assert got is not None, f"no tile {name}"
    return got


def online(overview: Overview, name: str) -> bool | None:
    tile = overview.tile(name)
    return None if tile is None else tile["online"]


def moves(overview: Overview, name: str) -> int | None:
    state = tile(overview, name)["state"]
    return None if state is None else int(state["moves"])


def settled(overview: Overview, name: str) -> bool:
    """Online, and heard from since the broker's return."""
    tile = overview.tile(name)
    return tile is not None and tile["online"] is True and not tile["checking"]


def autosaved_after(broker: Mosquitto, moment: float) -> bool:
    db = broker.folder / "mosquitto.db"
    return db.is_file() and db.stat().st_mtime > moment


@pytest.fixture
def overview(broker: Mosquitto) -> Iterator[Overview]:
    """The overview's broker side, in this process, on the module's broker."""
    made = Overview(MqttSettings(url=broker.url), grace=GRACE_S)
    made.start()
    try:
        yield made
    finally:
        made.stop()


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["killed", "stopped"])
def test_a_broker_outage_marks_no_table_offline_and_its_return_finds_the_one_gone(
    broker: Mosquitto, overview: Overview, wait: Any, tmp_path: Path, sig: int
) -> None:
    sims = [
        SimulatedTable(name, tmp_path / name, broker.url, seed=i).start()
        for i, name in enumerate(("t-a", "t-b"))
    ]
    doomed = table_process("t-gone", tmp_path / "t-gone", broker)
    names = ("t-a", "t-b", "t-gone")
    try:
        # heard live ("seen"): the broker still holds what the previous test's tables retained
        wait(
            lambda: all(online(overview, n) and "seen" in tile(overview, n) for n in names),
            what="three tables online, each heard live",
        )
        wait(lambda: moves(overview, "t-gone") == 1, what="the doomed table's move")
        # the broker's autosave holds them "online" (a killed broker comes back from it)
        heard = time.time()
        wait(lambda: autosaved_after(broker, heard), what="the broker's autosave")

        lost = time.monotonic()
        broker.kill(sig)
        wait(lambda: not overview.connected.is_set(), what="the overview to lose the broker")
        time.sleep(HOLD_S + 1)  # past the hold of a will the stopping broker published
        assert overview.snapshot()["broker"] is False
        assert [online(overview, n) for n in names] == [True, True, True], "none offline"

        doomed.send_signal(signal.SIGKILL)  # really gone, while nobody can hear it
        doomed.wait(timeout=10)
        assert sims[0].move() is not None  # the tables play on

        back_between_retries(broker, lost)
        wait(overview.connected.is_set, what="the overview back on the broker")
        assert tile(overview, "t-gone")["online"] is True, "not offline at once"
        # asked as the overview is back: later, a loaded machine may take the whole grace
        # before the live tables have spoken
        assert tile(overview, "t-gone")["checking"], "waiting for its word, not offline yet"
        wait(lambda: settled(overview, "t-a") and settled(overview, "t-b"), what="live tiles")
        wait(
            lambda: online(overview, "t-gone") is False,
            timeout=GRACE_S + 10,
            what="the table that is gone to be offline after the grace",
        )
        assert settled(overview, "t-a") and settled(overview, "t-b"), "live tables stay live"
    finally:
        if broker.process is None:
            broker.start()
        doomed.kill()
        doomed.wait(timeout=10)
        for sim in sims:
            sim.stop()


def test_a_table_killed_while_the_broker_is_there_is_offline_by_its_will(
    broker: Mosquitto, overview: Overview, wait: Any, tmp_path: Path
) -> None:
    table = table_process("t-will", tmp_path, broker)
    try:
        wait(  # its status and its state summary (a busy machine can send one before the other)
            lambda: online(overview, "t-will") and tile(overview, "t-will")["state"] is not None,
            what="the table online with its state",
        )
        table.send_signal(signal.SIGKILL)
        wait(lambda: online(overview, "t-will") is False, timeout=HOLD_S + 10, what="its will")
        assert not tile(overview, "t-will")["checking"]
        # a table that speaks (its state summary, as after a move) is there again
        summary = json.dumps(tile(overview, "t-will")["state"])
        speaker = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
        speaker.connect("127.0.0.1", broker.port)
        speaker.loop_start()
        try:
            speaker.publish("tablesight/t-will/state", summary, qos=1).wait_for_publish(10)
            wait(lambda: online(overview, "t-will") is True, what="the tile back online")
        finally:
            speaker.disconnect()
            speaker.loop_stop()
    finally:
        table.kill()
        table.wait(timeout=10)


def test_the_overviews_own_link_lost_keeps_quiet_tables_online(
    broker: Mosquitto, overview: Overview, wait: Any, tmp_path: Path
) -> None:
    sim = SimulatedTable("t-quiet", tmp_path, broker.url, seed=5).start()
    try:
        wait(lambda: online(overview, "t-quiet"), what="the table online")
        wait(lambda: (overview.broker_uptime or 0) >= 3, what="the broker's uptime")
        sock = overview.client.socket()
        assert isinstance(sock, socket.socket)
        sock.shutdown(socket.SHUT_RDWR)  # the overview's network, not the broker, goes
        wait(lambda: not overview.connected.is_set(), what="the overview to lose its link")
        wait(overview.connected.is_set, what="the overview back")
        wait(lambda: settled(overview, "t-quiet"), what="the broker's word trusted")
        time.sleep(GRACE_S + 1)  # the quiet table says nothing: it is still there
        assert settled(overview, "t-quiet")
    finally:
        sim.stop()


def test_a_quiet_table_back_before_the_overview_stays_online(
    broker: Mosquitto, overview: Overview, wait: Any, tmp_path: Path
) -> None:
    """Issue 24: after a killed broker, a table that reconnects before the overview and makes
    no move is known by its state summary's connection count, not marked offline."""
    sim = SimulatedTable("t-early", tmp_path, broker.url, seed=9).start()
    try:
        wait(lambda: settled(overview, "t-early"), what="the table online")
        wait(lambda: tile(overview, "t-early")["state"] is not None, what="its state")
        first = tile(overview, "t-early")["state"]["connection"]
        heard = time.time()
        wait(lambda: autosaved_after(broker, heard), what="the broker's autosave")
        lost = time.monotonic()
        broker.kill(signal.SIGKILL)
        wait(lambda: not overview.connected.is_set(), what="the overview to lose the broker")
        # the overview's network is slow to come back (6 s between tries): the table is first
        overview.client.reconnect_delay_set(min_delay=6, max_delay=6)
        time.sleep(max(0.0, lost + 1.5 - time.monotonic()))  # before the table's retry at 3 s
        broker.start()
        wait(sim.publisher.connected.is_set, what="the table back on the broker")
        assert not overview.connected.is_set(), "the table is back first"
        wait(overview.connected.is_set, what="the overview back")
        wait(lambda: settled(overview, "t-early"), what="the table's word since the return")
        assert tile(overview, "t-early")["state"]["connection"] == first + 1
        time.sleep(GRACE_S + 1)  # past the grace, with no move: still there
        assert settled(overview, "t-early")
    finally:
        if broker.process is None:
            broker.start()
        sim.stop()


# --- the page ---------------------------------------------------------------------------------


@pytest.fixture
def own_broker(broker: Mosquitto, tmp_path: Path) -> Iterator[Mosquitto]:
    """A Mosquitto of the test's own (no tables of the other tests retained on it)."""
    server = Mosquitto(tmp_path / "own-broker").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def cafe(own_broker: Mosquitto, tmp_path: Path) -> Iterator[str]:
    """A real `tablesight cafe` process (Chinese by default) on the test's own broker."""
    broker = own_broker
    port = free_port()
    cmd = [sys.executable, "-m", "kiosk.cli", "--data-dir", str(tmp_path / "cafe"), "--lang"]
    cmd += ["zh", "cafe", "--mqtt", broker.url, "--port", str(port), "--grace", str(GRACE_S)]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env=env())
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        if proc.poll() is not None:
            raise AssertionError(f"tablesight cafe exited: {proc.stderr.read()}")  # type: ignore[union-attr]
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


@pytest.mark.browser
def test_the_page_tells_a_broker_outage_from_a_table_offline(
    browser: Any, own_broker: Mosquitto, cafe: str, wait: Any, tmp_path: Path
) -> None:
    broker = own_broker
    seats = [PlayerSeat("小明", "red"), PlayerSeat("Anna", "blue")]
    sims = [
        SimulatedTable(name, tmp_path / name, broker.url, game=game, seed=i, seats=seats).start()
        for i, (name, game) in enumerate((("T1", "greenwood"), ("T2", "dont_starve")))
    ]
    doomed = table_process("T3", tmp_path / "T3", broker)
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.add_init_script("localStorage.setItem('tablesight.cafe.lang', 'zh')")
    try:
        for sim in sims:
            sim.move()
        page.goto(cafe)
        for name in ("T1", "T2", "T3"):
            page.wait_for_selector(f".tile[data-table='{name}'][data-level='none']")
        assert page.is_hidden("#outage")

        lost = time.monotonic()
        broker.stop()  # SIGTERM: Mosquitto publishes every table's will as it stops
        page.wait_for_selector("#outage", state="visible", timeout=20_000)
        time.sleep(HOLD_S + 1)
        assert page.inner_text("#outage").strip() == f"⚠ {BANNER['zh']}"
        assert page.locator(".tile").count() == 3
        assert page.locator(".tile[data-level='offline'], .alert[data-kind='offline']").count() == 0
        assert page.is_hidden("#needs"), "the outage is no table's alert"
        assert "离线" not in page.inner_text("main")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "cafe-outage-1920-zh.png"))
        page.click("button[data-lang='en']")
        assert page.inner_text("#outage").strip() == f"⚠ {BANNER['en']}"
        assert "offline" not in page.inner_text("main").lower()
        page.screenshot(path=str(SHOTS / "cafe-outage-1920-en.png"))
        page.click("button[data-lang='zh']")

        doomed.send_signal(signal.SIGKILL)  # T3 really goes while the broker is away
        doomed.wait(timeout=10)
        back_between_retries(broker, lost)
        page.wait_for_selector("#outage", state="hidden", timeout=20_000)

        def live(name: str) -> bool:
            tile = page.locator(f".tile[data-table='{name}']")
            return bool(
                tile.get_attribute("data-level") == "none"
                and tile.locator(".checking").count() == 0
            )

        wait(lambda: live("T1") and live("T2"), what="T1 and T2 live again")
        gone = page.locator(".tile[data-table='T3']")
        assert gone.get_attribute("data-level") == "none", "not offline before the grace ends"
        assert gone.locator(".checking").inner_text() == "服务器已恢复,等待本桌报告…"
        page.screenshot(path=str(SHOTS / "cafe-checking-1920-zh.png"))
        page.wait_for_selector(
            ".tile[data-table='T3'][data-level='offline']", timeout=(GRACE_S + 10) * 1000
        )
        needs = page.inner_text("#needs")
        assert "T3" in needs and "T1" not in needs and "T2" not in needs
        page.screenshot(path=str(SHOTS / "cafe-back-1920-zh.png"))
    finally:
        context.close()
        if broker.process is None:
            broker.start()
        doomed.kill()
        doomed.wait(timeout=10)
        for sim in sims:
            sim.stop()
