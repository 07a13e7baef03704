"""Home Assistant's MQTT discovery against a real Mosquitto (docs/mqtt.md "Home Assistant"):
the retained configs are JSON of the documented keys and their state topics carry the values
(each ``value_template`` rendered with Jinja, as Home Assistant does, on what the table
published); Home Assistant's ``online`` brings them again; a renamed table and one with
discovery turned off remove theirs; a ``tablesight run`` killed with SIGKILL is unavailable by
its last will."""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

import jinja2
import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from serving import start_server

from cafe.broker import Mosquitto
from engine.core import Advance, offers
from engine.core.offers import sample
from kiosk.mqtt.discovery import ENTITIES, NAMES, Discovery, node_id
from kiosk.mqtt.publisher import Publisher
from kiosk.seats import PlayerSeat
from kiosk.settings import MqttSettings
from kiosk.store import Store
from kiosk.table import Table

DOC = Path(__file__).resolve().parents[2] / "docs" / "mqtt.md"
KINDS = {(e.component, e.key) for e in ENTITIES}
JINJA = jinja2.Environment()
LOOKS = {"icon", "device_class", "entity_category", "json_attributes_topic"}
LOOKS |= {"json_attributes_template"}
"""The keys in which entities differ from the documented example (docs/mqtt.md)."""


def documented_config() -> dict[str, Any]:
    """The example config of docs/mqtt.md's Home Assistant section (the JSON block that starts
    with ``{"name": "Phase"``)."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index('```json\n{\n "name": "Phase"') + len("```json\n")
    example: dict[str, Any] = json.loads(text[start : text.index("```", start)])
    return example


def render(template: str, payload: str) -> str:
    """A template of a config on a payload of its state topic, as Home Assistant renders it."""
    return JINJA.from_string(template).render(value_json=json.loads(payload)).strip()


def heard(listen: Any) -> Any:
    """A receiver (tests/cafe/conftest.py) that hears ``homeassistant/#`` too."""
    got = listen()
    done = threading.Event()
    got.client.on_subscribe = lambda *args: done.set()
    got.client.subscribe("homeassistant/#", qos=1)
    assert done.wait(20), "the subscription to homeassistant/#"
    return got


def configs(got: Any, node: str) -> dict[str, Any]:
    """The latest config per topic of one node, by (component, object id); None: removed."""
    found: dict[Any, Any] = {}
    with got.lock:
        for m in got.messages:
            parts = m.topic.split("/")
            if len(parts) == 5 and parts[0] == "homeassistant" and parts[2] == node:
                found[(parts[1], parts[3])] = json.loads(m.text) if m.text else None
    return found


@dataclass
class HaTable:
    """A table with its saved game and its publisher, discovery as asked."""

    table: Table
    store: Store
    publisher: Publisher

    def stop(self) -> None:
        self.publisher.stop()
        self.store.close()


@pytest.fixture
def tables(tmp_path: Path, broker: Mosquitto) -> Iterator[Any]:
    """``make(name, data, game=…, **mqtt_settings)``: a started table whose publisher keeps its
    files in the folder ``data`` (the same folder: the same kiosk, restarted)."""
    made: list[HaTable] = []

    def make(name: str, data: str, game: str = "greenwood", **settings: Any) -> HaTable:
        store = Store.open(tmp_path / f"games-{len(made)}.sqlite")
        seats = [PlayerSeat("Alice", "red"), PlayerSeat("Bob", "blue")]
        table = Table(
            store.new_game(f"{game}-{name}", game, {"players": 2, "draws": "virtual"}, 7, seats)
        )
        folder = tmp_path / data
        folder.mkdir(exist_ok=True)
        mqtt_settings = MqttSettings(url=broker.url, table=name, **settings)
        link = f"http://{name}.local:8000/"
        publisher = Publisher(table, mqtt_settings, folder, link=link, quiet=True, lang="en")
        made.append(HaTable(table, store, publisher))
        publisher.start()
        return made[-1]

    try:
        yield make
    finally:
        for t in made:
            t.stop()


def test_every_table_is_a_device_and_its_state_topics_carry_the_values(
    tables: Any, listen: Any, wait: Any
) -> None:
    got = heard(listen)
    ha = tables("t-ha", "data", game="dont_starve", discovery=True)
    node = node_id("t-ha")
    wait(lambda: len(configs(got, node)) == len(ENTITIES), what="every config")

    late = heard(listen)  # the configs are retained: Home Assistant gets them whenever it starts
    found = wait(lambda: (c := configs(late, node)) and len(c) == len(ENTITIES) and c)
    assert set(found) == KINDS
    assert all(m.retain for m in late.messages if m.topic.startswith("homeassistant/"))
    example = documented_config()
    for (_, key), config in found.items():
        assert set(config) - LOOKS == set(example) - LOOKS
        assert config["unique_id"] == f"{node}_{key}"
        assert config["name"] == NAMES[key].en
        assert config["availability_topic"] == "tablesight/t-ha/status"
        assert config["state_topic"] in ("tablesight/t-ha/state", "tablesight/t-ha/staff")
        assert config["device"] == {
            "identifiers": [node],
            "name": "t-ha",
            "manufacturer": "tablesight",
            "model": "tablesight",
            "sw_version": version("tablesight"),
            "configuration_url": "http://t-ha.local:8000/",
        }
    assert set(found["sensor", "phase"]) == set(example)
    assert set(found["binary_sensor", "needs_staff"]) - set(example) == {
        "device_class",
        "json_attributes_topic",
        "json_attributes_template",
    }
    assert found["binary_sensor", "needs_staff"]["device_class"] == "problem"
    assert found["binary_sensor", "camera"]["device_class"] == "connectivity"
    assert len({c["unique_id"] for c in found.values()}) == len(found)

    def shown() -> dict[str, Any]:
        """What Home Assistant would show: each template on its topic's latest payload."""
        values: dict[str, Any] = {}
        for (_, key), config in found.items():
            payload = got.last(config["state_topic"])
            assert payload is not None and payload.retain is False  # heard live
            values[key] = render(config["value_template"], payload.text)
            if "json_attributes_template" in config:
                attributes = render(config["json_attributes_template"], payload.text)
                values[f"{key} attributes"] = json.loads(attributes)
        return values

    table = ha.table
    rnd = random.Random(0)
    for _ in range(200):  # moves until a phase played in turns
        status = table.status("en")
        if status["order"] != "simultaneous" and status["current_player"]:
            break
        session = table.saved.session
        move = sample(offers(session.game, session.state), rnd)
        assert move is not None
        table.submit(move)
    assert status["outcome"] is None
    moves = status["moves"]
    got.wait("tablesight/t-ha/state", lambda s: s["moves"] == moves)
    seat = status["current_player"]
    player = ("Alice", "Bob")[seat - 1]
    wait(lambda: shown()["turn"].startswith(player), what=f"{player}'s turn")
    values = shown()
    assert values["game"] == "Don't Starve: The Board Game"
    assert values["round"] == str(status["round"])
    assert values["phase"] == status["phase"]["title"]
    assert values["needs_staff"] == "OFF"
    assert values["needs_staff attributes"] == {"reason": None}
    assert values["refusal"] == "None"  # Home Assistant's "unknown"
    assert (values["camera"], values["leds"]) == ("OFF", "OFF")  # not connected

    table.set_link("camera", "ok")
    wait(lambda: shown()["camera"] == "ON", what="the camera's link up")
    table.set_link("controller", "lost", "unplugged")
    wait(lambda: shown()["leds"] == "OFF" and shown()["needs_staff"] == "ON")
    assert shown()["needs_staff attributes"] == {"reason": "LED controller lost"}
    table.set_link("controller", "ok")
    wait(lambda: shown()["needs_staff"] == "OFF", what="nothing for the staff")

    refused = table.submit(Advance())
    assert not refused.accepted
    wait(lambda: shown()["needs_staff"] == "ON", what="the refusal for the staff")
    refusal = table.status("en")["refusal"]
    said = f"{refusal['who']}: {refusal['what']} — {refusal['why']}"
    values = shown()
    assert values["refusal"] == said
    assert values["needs_staff attributes"] == {"reason": f"Refused move waiting: {said}"}
    session = table.saved.session
    table.submit(sample(offers(session.game, session.state), rnd))  # put right
    wait(lambda: shown()["needs_staff"] == "OFF", what="the refusal put right")
    assert shown()["refusal"] == said, "the last refused move stays"


def test_home_assistant_online_brings_every_config_again(
    broker: Mosquitto, tables: Any, listen: Any, wait: Any
) -> None:
    got = heard(listen)
    tables("t-birth", "data", discovery=True)
    node = node_id("t-birth")
    first = f"homeassistant/sensor/{node}/phase/config"
    wait(lambda: len(configs(got, node)) == len(ENTITIES), what="every config")
    assert len(got.on(first)) == 1
    ha = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    ha.connect("127.0.0.1", broker.port)
    ha.loop_start()
    try:

        def announced_again() -> bool:
            if len(got.on(first)) > 1:
                return True  # (the table may not have subscribed yet: say it again)
            ha.publish("homeassistant/status", "online", qos=1).wait_for_publish(5)
            return False

        wait(announced_again, what="the configs again")
    finally:
        ha.disconnect()
        ha.loop_stop()
    wait(lambda: all(len(got.on(t)) > 1 for t in topics(node)), what="every config again")
    assert got.last(first).text == got.on(first)[0].text


def topics(node: str, prefix: str = "homeassistant") -> list[str]:
    """The config topics of one node."""
    return [f"{prefix}/{c}/{node}/{k}/config" for c, k in sorted(KINDS)]


def test_a_renamed_table_and_one_leaving_discovery_remove_their_entities(
    tables: Any, listen: Any, wait: Any
) -> None:
    got = heard(listen)
    old = tables("t-old", "data", discovery=True)
    wait(lambda: len(configs(got, node_id("t-old"))) == len(ENTITIES), what="t-old")
    wait(lambda: got.last("tablesight/t-old/staff"), what="t-old's staff message")
    old.stop()

    renamed = tables("t-new", "data", discovery=True)  # the same kiosk, renamed
    wait(
        lambda: all(v is None for v in configs(got, node_id("t-old")).values()),
        what="t-old's configs emptied",
    )
    wait(lambda: len(configs(got, node_id("t-new"))) == len(ENTITIES), what="t-new")
    wait(lambda: got.last("tablesight/t-old/staff").text == "", what="t-old's staff gone")
    late = heard(listen)  # what the broker keeps: t-new's configs, nothing of t-old's
    wait(lambda: len(configs(late, node_id("t-new"))) == len(ENTITIES), what="retained")
    assert configs(late, node_id("t-old")) == {}
    renamed.stop()

    tables("t-new", "data", discovery=False)  # discovery turned off: its entities go
    wait(
        lambda: all(v is None for v in configs(got, node_id("t-new")).values()),
        what="t-new's configs emptied",
    )
    wait(lambda: got.last("tablesight/t-new/staff").text == "", what="t-new's staff gone")
    later = heard(listen)
    later.wait("tablesight/t-new/status", lambda s: s == "online")
    assert configs(later, node_id("t-new")) == {}


def test_a_killed_table_is_unavailable_by_its_last_will(
    broker: Mosquitto, listen: Any, wait: Any, tmp_path: Path
) -> None:
    got = heard(listen)
    env = {"TABLESIGHT_MQTT__DISCOVERY": "true"}  # as the settings file's [mqtt] discovery
    server = start_server(tmp_path, "--mqtt", broker.url, "--table", "t-dies", env=env)
    try:
        node = node_id("t-dies")
        found = wait(lambda: (c := configs(got, node)) and len(c) == len(ENTITIES) and c)
        assert found["sensor", "phase"]["name"] == "Phase"  # the kiosk's language (--lang en)
        where = {c["availability_topic"] for c in found.values()}
        assert where == {"tablesight/t-dies/status"}
        got.wait("tablesight/t-dies/status", lambda s: s == "online")
        server.kill()  # SIGKILL: the broker says "offline" for the table
        got.wait("tablesight/t-dies/status", lambda s: s == "offline")
    finally:
        if server.process.poll() is None:
            server.kill()


def test_names_node_ids_languages_and_reasons(tmp_path: Path) -> None:
    for key in NAMES:
        assert NAMES[key].zh and NAMES[key].en and NAMES[key].zh != NAMES[key].en
    assert {e.key for e in ENTITIES} == set(NAMES)
    ids = {node_id(n) for n in ("3号桌", "4号桌", "3__", "table-3")}
    assert len(ids) == 4 and all(re.fullmatch(r"[A-Za-z0-9_-]+", n) for n in ids)
    made_by = Discovery(
        enabled=True,
        prefix="cafe/ha",
        table="3号桌",
        site="north",
        topics={"state": "s", "staff": "f"},
        status_topic="a",
        data_dir=tmp_path,
        lang="zh",
    )
    made = made_by.configs()
    phase = json.loads(made[f"cafe/ha/sensor/{node_id('north_3号桌')}/phase/config"])
    assert phase["name"] == "阶段" and phase["device"]["name"] == "north 3号桌"
    assert phase["value_template"] == "{{ value_json.phase.title.zh }}"
    assert "configuration_url" not in phase["device"]

    # the staff message: an alert other than a game over needs the staff, in both languages
    title = {"zh": "石纪元", "en": "Stonesaga"}
    ended = {"kind": "ended", "title": title, "winners": []}
    missing = {"kind": "missing", "count": 1, "title": title}
    staff = json.loads(made_by.staff({"save": "s", "alerts": [missing, ended]}))
    assert staff["needs_staff"] is True
    assert staff["reason"] == {"zh": "《石纪元》缺 1 件配件", "en": "1 piece of Stonesaga missing"}
    assert json.loads(made_by.staff({"save": "s", "alerts": [ended]}))["needs_staff"] is False
