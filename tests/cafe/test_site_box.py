"""The café's box (docs/box.md, docs/mqtt.md "The café's box"), against a real Mosquitto: a box
exported by one table is imported by a real `tablesight cafe --box`, offered on the broker, and
taken by a second table, whose new game is judged by it (greenwood.zh.md §三.10: a piece may not
cover an unusable cell); a broken box is refused by the café, naming the file and the entry,
with nothing changed; a hostile or oversized message is dropped with its reason, and the table
plays on."""

from __future__ import annotations

import json
import logging
import os
import random
import shutil
import subprocess
import sys
import time
import tomllib
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
import tomli_w
from paho.mqtt.enums import CallbackAPIVersion
from serving import free_port

from cafe.broker import Mosquitto
from cafe.overview import Overview
from cafe.site_box import cafe_folder
from engine.core import EngineError, find_game, move_from_json, offers
from engine.core.offers import sample
from engine.greenwood.moves import Place
from kiosk.boxes import box_path, current_box
from kiosk.cli import main
from kiosk.mqtt.payloads import read_site_box
from kiosk.mqtt.publisher import Publisher
from kiosk.mqtt.site_box import (
    FOLDER,
    MAX_MESSAGE_BYTES,
    SiteBoxes,
    files_digest,
    site_box_message,
)
from kiosk.settings import MqttSettings, load_settings
from kiosk.table import open_table

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "engine" / "greenwood" / "data"
EXAMPLE = REPO / "docs" / "examples" / "greenwood.jsonl"
FIRST_DOMINO = 25
"""The example's line whose domino lies on [[0, 0], [1, 0]], the first piece of seat 0."""
BOARD = "submarines/layout/0"
GREENWOOD = find_game("greenwood")


def run(data: Path, *args: str) -> int:
    return main(["--data-dir", str(data), "--lang", "en", *args])


def box_folder(where: Path, unusable: list[list[int]]) -> Path:
    """A box folder whose submarine 0 marks ``unusable`` cells (an owner's copy, unmarked)."""
    tables = tomllib.loads((DEMO / "submarines.toml").read_text(encoding="utf-8"))
    layout = tables["layout"][0]
    assert layout["number"] == 0
    layout["unusable"] = unusable
    del layout["placeholder"]
    where.mkdir(parents=True, exist_ok=True)
    (where / "submarines.toml").write_text(tomli_w.dumps(tables), encoding="utf-8")
    return where


def exported_by_a_table(tmp_path: Path, unusable: list[list[int]]) -> Path:
    """The box that one table exports (as a zip) after its owner copied submarine 0."""
    table = tmp_path / "table-a"
    assert (
        run(table, "box", "greenwood", "import", str(box_folder(tmp_path / "copied", unusable)))
        == 0
    )
    assert run(table, "box", "greenwood", "export", str(tmp_path / "table-a-box.zip")) == 0
    return tmp_path / "table-a-box.zip"


def to_first_domino(table: Any, name: str) -> Place:
    """Start the example's game at the table and play it up to its first domino; that domino."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    table.new_game("greenwood", head["setup"], name, head["seed"])
    for line in lines[1 : FIRST_DOMINO - 1]:
        try:
            move = move_from_json(line)
        except EngineError:
            continue  # the example's malformed line
        table.submit(move)
    domino = move_from_json(lines[FIRST_DOMINO - 1])
    assert isinstance(domino, Place) and domino.cells == ((0, 0), (1, 0))
    return domino


def unusable_of(data: Path) -> Any:
    """Submarine 0's unusable cells in the data folder's box (None: the demo's)."""
    box = current_box(data, GREENWOOD)
    if not box.is_owners(BOARD):
        return None
    return box.files["submarines.toml"]["layout"][0]["unusable"]


def cafe_command(broker: Mosquitto, data: Path, *args: str) -> list[str]:
    cmd = [sys.executable, "-m", "kiosk.cli", "--data-dir", str(data), "--lang", "en"]
    return [*cmd, "cafe", "--mqtt", broker.url, *args]


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}


def start_cafe(broker: Mosquitto, data: Path, *args: str) -> tuple[subprocess.Popen[str], str]:
    """A real `tablesight cafe` with ``args``; its process and address (a start-up wait)."""
    port = free_port()
    cmd = cafe_command(broker, data, "--port", str(port), *args)
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env=env())
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        if proc.poll() is not None:
            raise AssertionError(
                f"tablesight cafe exited: {proc.stderr.read() if proc.stderr else ''}"
            )
        try:
            urllib.request.urlopen(f"{url}/healthz", timeout=1).close()
            return proc, url
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise AssertionError("tablesight cafe did not answer within 30 s") from None
            time.sleep(0.1)


class At:
    """A table as `tablesight run --mqtt URL --table NAME` makes it: its data folder's table
    and its publisher (the café's box is taken by the publisher's worker)."""

    def __init__(self, broker: Mosquitto, data: Path, name: str) -> None:
        self.data = data
        self.table, self.store = open_table(load_settings(None, data_dir=data, game="greenwood"))
        settings = MqttSettings(url=broker.url, table=name)
        self.publisher = Publisher(self.table, settings, data, quiet=True)

    def start(self) -> At:
        self.publisher.start()
        return self

    def stop(self) -> None:
        self.publisher.stop()
        self.store.close()


@pytest.fixture
def hostile(broker: Mosquitto) -> Iterator[mqtt.Client]:
    """Anyone with an account on the café's broker."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        yield client
    finally:  # the module's next test finds no box retained
        for game in ("greenwood", "dont_starve", "stonesaga", "chess", "Green-Wood"):
            client.publish(f"tablesight/_box/{game}", b"", 1, True).wait_for_publish(10)
        client.disconnect()
        client.loop_stop()


def publish(client: mqtt.Client, topic: str, payload: bytes | str) -> None:
    client.publish(topic, payload, 1, True).wait_for_publish(10)


def test_a_cafe_offers_a_box_exported_by_one_table_and_another_table_plays_by_it(
    broker: Mosquitto, hostile: mqtt.Client, listen: Any, tmp_path: Path, wait: Any
) -> None:
    exported = exported_by_a_table(tmp_path, [[1, 0]])
    got = listen()
    proc, url = start_cafe(broker, tmp_path / "cafe", "--box", str(exported))
    b = At(broker, tmp_path / "table-b", "table-b")
    try:
        # the café took it into its own box folder, and offers it, retained
        assert unusable_of(cafe_folder(tmp_path / "cafe")) == [[1, 0]]
        message = got.wait("tablesight/_box/greenwood", lambda m: m["game"] == "greenwood")
        offered = read_site_box(json.dumps(message), "greenwood")
        assert offered.items == 1 and offered.digest == files_digest(offered.files)
        assert sorted(offered.files) == sorted(GREENWOOD.box_files)
        page = urllib.request.urlopen(url, timeout=10).read().decode()
        assert "Greenwood" in page and "data-boxes" in page

        # a second table on the same broker takes it; its new game is judged by it
        assert unusable_of(b.data) is None
        b.start()
        wait(lambda: unusable_of(b.data) == [[1, 0]], what="table-b taking the café's box")
        # kept after it was brought in (kiosk.mqtt.site_box: imported, then renamed)
        wait(lambda: (b.data / FOLDER / "greenwood.zip").is_file(), what="the box kept")
        domino = to_first_domino(b.table, "with-the-cafes-box")
        assert b.table.check(domino).code == "greenwood.unusable_cell"
        state = got.wait(
            "tablesight/table-b/state",
            lambda s: s["save"] == "with-the-cafes-box" and s.get("box") == "cafe",
            what="table-b's summary saying the café's box",
        )
        assert state["box"] == "cafe"
    finally:
        b.stop()
        proc.terminate()
        proc.wait(timeout=30)

    # kept in the table's data folder: a restart with no broker plays by it still
    settings = load_settings(None, data_dir=b.data, save="with-the-cafes-box")
    table, store = open_table(settings)
    try:
        domino = to_first_domino(table, "after-a-restart")
        assert table.check(domino).code == "greenwood.unusable_cell"
    finally:
        store.close()


def test_the_cafes_box_replaces_the_tables_items_and_is_taken_once(
    broker: Mosquitto, hostile: mqtt.Client, listen: Any, tmp_path: Path, wait: Any
) -> None:
    """The rule of docs/box.md: each item the café's box holds becomes the café's value; the
    table's own box is set aside first; the same box again changes nothing the table did
    since; a game in progress keeps the box it was started with."""
    exported = exported_by_a_table(tmp_path, [[1, 0]])
    got = listen()
    c = tmp_path / "table-c"
    assert run(c, "box", "greenwood", "import", str(box_folder(tmp_path / "own", [[2, 2]]))) == 0
    own = box_path(c, GREENWOOD).read_bytes()
    at = At(broker, c, "table-c")
    domino = to_first_domino(at.table, "before-the-cafe")
    assert at.table.check(domino).ok  # the table's own board: (1, 0) is usable
    proc, _ = start_cafe(broker, tmp_path / "cafe", "--box", str(exported))
    try:
        at.start()
        wait(lambda: unusable_of(c) == [[1, 0]], what="table-c taking the café's box")
        assert (c / FOLDER / "greenwood.before.json").read_bytes() == own
        assert at.table.check(domino).ok, "the game in progress keeps its box"
        assert at.publisher.site_boxes.kind(GREENWOOD, at.table.saved.session.options) == "table"

    finally:
        at.stop()
        proc.terminate()
        proc.wait(timeout=30)

    # the table resets its box: the same café's box again (after a restart, at a reconnection)
    # changes nothing; another box of the café's is taken
    assert run(c, "box", "greenwood", "reset") == 0
    same = got.wait("tablesight/_box/greenwood", lambda m: m["game"] == "greenwood")
    restarted = SiteBoxes(c)
    assert restarted.take("tablesight/_box/greenwood", json.dumps(same).encode()) is None
    assert unusable_of(c) is None and not restarted.dropped
    other = exported_by_a_table(tmp_path / "later", [[1, 0], [2, 0]])
    assert run(tmp_path / "cafe-2", "box", "greenwood", "import", str(other)) == 0
    newer = site_box_message(tmp_path / "cafe-2", GREENWOOD)
    assert newer is not None
    assert restarted.take("tablesight/_box/greenwood", newer.encode()) == "greenwood"
    assert unusable_of(c) == [[1, 0], [2, 0]]


@pytest.mark.parametrize(
    ("kind", "named"),
    [
        ("missing field", "submarines.toml, layout 2: missing field 'cols'"),
        ("cell off the board", "submarines.toml, layout 0: "),
        ("foreign file", "boats.toml: not a data file of greenwood's box"),
        ("two games' files", "holds dont_starve's weather.toml and greenwood's submarines.toml"),
    ],
)
def test_a_broken_box_is_refused_by_the_cafe_naming_the_file_and_entry(
    broker: Mosquitto, tmp_path: Path, kind: str, named: str
) -> None:
    data = tmp_path / "cafe"
    good = exported_by_a_table(tmp_path, [[1, 0]])
    gone = tmp_path / "no-such-box"
    done = subprocess.run(
        cafe_command(
            broker, data, "--port", str(free_port()), "--box", str(good), "--box", str(gone)
        ),
        capture_output=True,
        text=True,
        env=env(),
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert f"{gone}: no such folder or file" in done.stderr
    assert not box_path(cafe_folder(data), GREENWOOD).exists(), "nothing changed"

    folder = box_folder(tmp_path / "broken", [[9, 0]] if kind == "cell off the board" else [[1, 0]])
    if kind == "missing field":
        tables = tomllib.loads((folder / "submarines.toml").read_text(encoding="utf-8"))
        del tables["layout"][2]["cols"]
        (folder / "submarines.toml").write_text(tomli_w.dumps(tables), encoding="utf-8")
    elif kind == "foreign file":
        (folder / "boats.toml").write_text("x = 1\n", encoding="utf-8")
    elif kind == "two games' files":
        (folder / "weather.toml").write_text("x = 1\n", encoding="utf-8")
    done = subprocess.run(
        cafe_command(broker, data, "--port", str(free_port()), "--box", str(folder)),
        capture_output=True,
        text=True,
        env=env(),
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert lines[0].startswith("tablesight cafe: 1 problem(s), nothing changed"), lines
    assert lines[1].strip().startswith(f"{folder}: ") and named in lines[1], lines
    assert "Traceback" not in done.stderr
    assert not box_path(cafe_folder(data), GREENWOOD).exists(), "nothing changed"


def forged(given: dict[str, str], **changes: Any) -> str:
    """A message of the café's box's layout holding ``given``, with ``changes`` made."""
    body = {
        "v": 1,
        "game": "greenwood",
        "digest": files_digest(given),
        "items": 1,
        "offered": "2026-01-01T00:00:00Z",
        "files": given,
    }
    return json.dumps({**body, **changes})


def test_a_hostile_or_oversized_box_is_dropped_with_its_reason_and_the_table_plays_on(
    broker: Mosquitto,
    hostile: mqtt.Client,
    listen: Any,
    tmp_path: Path,
    wait: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="tablesight.mqtt.box")
    d = tmp_path / "table-d"
    at = At(broker, d, "table-d").start()
    try:
        wait(at.publisher.connected.is_set, what="table-d's connection")
        good = (DEMO / "submarines.toml").read_text(encoding="utf-8")
        off_board = tomli_w.dumps(
            tomllib.loads((box_folder(tmp_path / "bad", [[9, 0]]) / "submarines.toml").read_text())
        )
        deep = '{"v": 1, "files": ' + "[" * 100_000 + "]" * 100_000 + "}"
        hostile_messages = [
            ("greenwood", b"x" * (MAX_MESSAGE_BYTES + 1), "over the limit"),
            ("greenwood", b"\xff\xfe not json", "Invalid JSON"),
            ("greenwood", deep, ""),
            ("greenwood", forged({"submarines.toml": good}, files=["a"]), "files"),
            ("greenwood", forged({"submarines.toml": good}, digest="0" * 64), "digest"),
            ("greenwood", forged({"../../etc.toml": "x = 1"}), "not a data file"),
            ("greenwood", forged({"submarines.toml": "[[layout]\n"}), "submarines.toml: "),
            ("greenwood", forged({"submarines.toml": off_board}), "submarines.toml, layout 0"),
            ("greenwood", forged({"submarines.toml": good}, game="stonesaga"), "names game"),
            ("chess", forged({"submarines.toml": good}), "no game called 'chess'"),
            ("Green-Wood", forged({"submarines.toml": good}), "not the topic of a café's box"),
        ]
        for game, payload, _ in hostile_messages:
            publish(hostile, f"tablesight/_box/{game}", payload)
        boxes = at.publisher.site_boxes
        wait(lambda: len(boxes.dropped) >= len(hostile_messages), what="every message dropped")
        drops = boxes.dropped
        for line, (game, _, reason) in zip(drops, hostile_messages, strict=True):
            assert line.startswith(f"tablesight/_box/{game}: ") and reason in line, line
        assert unusable_of(d) is None and not box_path(d, GREENWOOD).exists(), "nothing kept"
        logged = [r.getMessage() for r in caplog.records if r.name == "tablesight.mqtt.box"]
        assert any("over the limit" in line for line in logged), logged

        # the table plays on: a move reaches the broker, and a good box is still taken
        got = listen()  # now: the broker keeps only the last (readable) message of a topic
        moves = len(at.table.saved.session.moves)
        session = at.table.saved.session
        move = sample(offers(session.game, session.state), random.Random(4))
        assert move is not None and at.table.submit(move).accepted
        got.wait("tablesight/table-d/state", lambda s: s["moves"] == moves + 1, what="the move")
        owners = tomllib.loads(good)
        owners["layout"][0]["unusable"] = [[1, 0]]
        del owners["layout"][0]["placeholder"]
        publish(
            hostile, "tablesight/_box/greenwood", forged({"submarines.toml": tomli_w.dumps(owners)})
        )
        wait(lambda: unusable_of(d) == [[1, 0]], what="a good box taken after the bad ones")
    finally:
        at.stop()


@pytest.mark.browser
def test_the_overview_says_which_tables_play_with_the_cafes_box(
    broker: Mosquitto, hostile: mqtt.Client, browser: Any, tmp_path: Path, wait: Any
) -> None:
    """The staff's page names the café's box in the bar and on each tile whose game plays
    with it, in Chinese and English."""
    exported = exported_by_a_table(tmp_path, [[1, 0]])
    proc, url = start_cafe(broker, tmp_path / "cafe", "--box", str(exported))
    e = At(broker, tmp_path / "table-e", "table-e").start()
    f = At(broker, tmp_path / "table-f", "table-f")
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        wait(lambda: unusable_of(e.data) == [[1, 0]], what="table-e taking the café's box")
        to_first_domino(e.table, "with-the-cafes-box")
        f.start()  # its game began before it took the box: the demo box's
        page = context.new_page()
        page.add_init_script("localStorage.setItem('tablesight.cafe.lang', 'en')")
        page.goto(url)
        page.wait_for_selector(".tile[data-table='table-e'] .box[data-box='cafe']", timeout=20_000)
        page.wait_for_selector(".tile[data-table='table-f'] .box[data-box='demo']", timeout=20_000)
        assert page.inner_text("#offered") == "The café's box: Greenwood (1 copied)"
        assert page.inner_text(".tile[data-table='table-e'] .box") == "▣ The café's box"
        assert "demo box" in page.inner_text(".tile[data-table='table-f'] .box")
        page.click("button[data-lang='zh']")
        assert page.inner_text("#offered") == "咖啡馆的盒子:苍林秘境(已录入 1 项)"
        assert page.inner_text(".tile[data-table='table-e'] .box") == "▣ 用咖啡馆的盒子"
        assert "演示盒" in page.inner_text(".tile[data-table='table-f'] .box")
        assert page.evaluate("document.documentElement.scrollHeight <= innerHeight")
        if os.environ.get("SITE_BOX_SHOT"):
            page.screenshot(path=os.environ["SITE_BOX_SHOT"])
    finally:
        context.close()
        e.stop()
        f.stop()
        proc.terminate()
        proc.wait(timeout=30)


def test_with_the_documented_acl_only_the_cafe_offers_a_box(tmp_path: Path, wait: Any) -> None:
    """docs/mqtt.md's ACL: the café's account writes the box, a table's reads it; a table's
    account cannot offer one (Mosquitto drops what it sends there)."""
    passwd = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    if not Path(passwd).is_file():
        pytest.skip("Mosquitto is not installed (apt-get install -y mosquitto)")
    accounts = {"table-g": "g's secret", "table-h": "h's secret", "cafe": "the staff's"}
    passwords = tmp_path / "passwords"
    for user, password in accounts.items():
        create = ["-c"] if not passwords.exists() else []
        subprocess.run([passwd, "-b", *create, str(passwords), user, password], check=True)
    text = (REPO / "docs" / "mqtt.md").read_text(encoding="utf-8")
    start = text.index("```\n# tablesight:") + 4
    (tmp_path / "acl").write_text(text[start : text.index("```", start)], encoding="utf-8")
    server = Mosquitto(tmp_path / "broker", passwords=passwords, acl=tmp_path / "acl").start()
    exported = exported_by_a_table(tmp_path, [[1, 0]])
    assert run(tmp_path / "cafe", "box", "greenwood", "import", str(exported)) == 0
    own = exported_by_a_table(tmp_path / "forger", [[2, 2]])
    assert run(tmp_path / "forger-cafe", "box", "greenwood", "import", str(own)) == 0
    forged_box = site_box_message(tmp_path / "forger-cafe", GREENWOOD)
    assert forged_box is not None

    def url(user: str) -> str:
        return f"mqtt://{user}:{accounts[user].replace(' ', '%20')}@127.0.0.1:{server.port}"

    staff = MqttSettings(url=url("cafe"))
    overview = Overview(
        staff,
        tmp_path / "cafe-data",
        boxes={"greenwood": site_box_message(tmp_path / "cafe", GREENWOOD) or ""},
    )
    g = At(server, tmp_path / "table-g", "table-g")
    g.publisher = Publisher(
        g.table, MqttSettings(url=url("table-g"), table="table-g"), g.data, quiet=True
    )
    forger = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    forger.username_pw_set("table-h", accounts["table-h"])
    try:
        forger.connect("127.0.0.1", server.port)
        forger.loop_start()
        publish(forger, "tablesight/_box/greenwood", forged_box)  # dropped by Mosquitto
        overview.start()
        g.start()
        wait(lambda: unusable_of(g.data) == [[1, 0]], what="table-g taking the café's box")
        publish(forger, "tablesight/_box/greenwood", forged_box)  # acknowledged, not passed on
        # the café's next message reaches the table after anything the broker passed on before
        overview.client.publish("tablesight/_box/stonesaga", b"the staff's", 1).wait_for_publish(10)
        wait(lambda: g.publisher.site_boxes.dropped, what="the café's later message")
        (dropped,) = g.publisher.site_boxes.dropped
        assert dropped.startswith("tablesight/_box/stonesaga: the payload: Invalid JSON")
        assert unusable_of(g.data) == [[1, 0]], "the forged box never reached the table"
    finally:
        forger.disconnect()
        forger.loop_stop()
        g.stop()
        overview.stop()
        server.stop()
