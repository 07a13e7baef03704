"""A table's publisher against a real Mosquitto: the documented topics and payloads
(docs/mqtt.md), the last will of a `tablesight run` that dies, and one-line errors for bad
addresses and names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from serving import start_server

from cafe.broker import Mosquitto
from cafe.simulate import SimulatedTable
from engine.core import Advance, find_game
from kiosk.cli import main
from kiosk.mqtt.payloads import read_state
from kiosk.seats import COLOURS, PlayerSeat


def alerts(state: dict[str, Any]) -> list[str]:
    return [a["kind"] for a in state["alerts"]]


def test_state_and_events_arrive_with_the_documented_payloads(
    broker: Mosquitto, listen: Any, tmp_path: Path
) -> None:
    got = listen()
    seats = [PlayerSeat("Alice", "red"), PlayerSeat("Bob", "blue")]
    link = "http://table-1.local:8000/"
    sim = SimulatedTable("table-1", tmp_path, broker.url, seats=seats, link=link).start()
    try:
        assert got.wait("tablesight/table-1/status", lambda s: s == "online") == "online"
        state = got.wait("tablesight/table-1/state", lambda s: s["moves"] == 0)
        game = find_game("greenwood")
        assert state["table"] == "table-1"
        assert state["game"] == "greenwood"
        assert state["title"] == {"zh": game.title.zh, "en": game.title.en}
        assert state["save"] == sim.table.saved.name
        assert state["round"] == 1 and state["rounds"] == game.rounds
        first = game.phases[0]
        assert state["phase"] == {
            "name": first.name,
            "title": {"zh": first.title.zh, "en": first.title.en},
        }
        assert [p["name"] for p in state["players"]] == [
            {"zh": "Alice", "en": "Alice"},
            {"zh": "Bob", "en": "Bob"},
        ]
        assert [p["hex"] for p in state["players"]] == [COLOURS["red"].hex, COLOURS["blue"].hex]
        session = sim.table.saved.session
        assert [p["score"] for p in state["players"]] == list(game.scores(session.state))
        assert state["url"] == link
        assert state["alerts"] == [] and state["end"] is None
        assert read_state(json.dumps(state), "table-1").connection == state["connection"] >= 1

        # a refused move: an event with the verdict, and the state's alert until it is fixed
        refused = sim.table.submit(Advance())
        assert not refused.accepted
        event = got.wait("tablesight/table-1/events", lambda e: e["kind"] == "rejected")
        assert event["verdict"]["code"] == refused.verdict.code
        message = {"zh": refused.verdict.message.zh, "en": refused.verdict.message.en}
        assert event["verdict"]["message"] == message
        state = got.wait("tablesight/table-1/state", lambda s: "refused" in alerts(s))
        alert = state["alerts"][alerts(state).index("refused")]
        assert alert["why"] == message

        # an accepted move: its events, each with a line in both languages; the alert goes
        before = len(session.moves)
        sim.move()
        made = got.wait("tablesight/table-1/events", lambda e: e["kind"] == "move")
        assert made["moves"] == before + 1
        results = sim.table.saved.session.moves
        assert len(results) == before + 1
        assert made["events"], "an accepted move tells what happened"
        for e in made["events"]:
            assert isinstance(e["type"], str)
            assert e["text"]["zh"] and e["text"]["en"] and e["text"]["zh"] != e["text"]["en"]
        got.wait("tablesight/table-1/state", lambda s: s["moves"] == before + 1 and not s["alerts"])

        # the camera lost: an event and an alert
        sim.table.set_link("camera", "lost", "no frame for 5 s")
        lost = got.wait("tablesight/table-1/events", lambda e: e["kind"] == "link")
        assert lost["links"]["camera"] == "lost"
        got.wait("tablesight/table-1/state", lambda s: "camera_lost" in alerts(s))

        events = got.events("table-1")
        seqs = [e["seq"] for e in events]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), "numbered one after another"
        assert {e["epoch"] for e in events} == {sim.publisher.outbox.epoch}

        # a receiver that comes later gets the retained state and status at once
        late = listen()
        late.wait("tablesight/table-1/state", lambda s: "camera_lost" in alerts(s))
        assert late.last("tablesight/table-1/state").retain
        assert late.last("tablesight/table-1/status").text == "online"
        assert late.on("tablesight/table-1/events") == [], "events are not retained"
    finally:
        sim.stop()
    got.wait("tablesight/table-1/status", lambda s: s == "offline")


def test_whose_turn_is_named_in_a_game_played_in_turns(
    broker: Mosquitto, listen: Any, tmp_path: Path
) -> None:
    got = listen()
    seats = [PlayerSeat("Mei", "green"), PlayerSeat("Tom", "yellow")]
    sim = SimulatedTable("table-turns", tmp_path, broker.url, game="dont_starve", seats=seats)
    sim.start()
    try:
        for _ in range(200):  # until a phase played in turns
            status = sim.table.status("en")
            if status["order"] != "simultaneous" and status["current_player"]:
                break
            sim.move()
        seat = status["current_player"]
        assert seat is not None
        moves = status["moves"]
        state = got.wait("tablesight/table-turns/state", lambda s: s["moves"] == moves)
        assert state["turn"]["seat"] == seat
        assert state["turn"]["name"]["en"].startswith(seats[seat - 1].name)
    finally:
        sim.stop()


def test_a_table_that_dies_shows_offline_through_its_last_will(
    broker: Mosquitto, listen: Any, tmp_path: Path
) -> None:
    got = listen()
    server = start_server(tmp_path, "--mqtt", broker.url, "--table", "table-dies")
    try:
        got.wait("tablesight/table-dies/status", lambda s: s == "online")
        state = got.wait("tablesight/table-dies/state", lambda s: True)
        assert state["game"] == "greenwood"
        server.kill()  # SIGKILL: no goodbye; the broker says it for the table
        got.wait("tablesight/table-dies/status", lambda s: s == "offline")
    finally:
        if server.process.poll() is None:
            server.kill()
    late = listen()
    late.wait("tablesight/table-dies/status", lambda s: s == "offline")
    assert late.last("tablesight/table-dies/status").retain


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["run", "--mqtt", "http://broker.local"], "mqtt://HOST"),
        (["run", "--mqtt", "mqtt://"], "names no host"),
        (["run", "--mqtt", "mqtt://broker:99999"], "mqtt://HOST"),
        (["run", "--mqtt", "mqtt://broker", "--table", "bar/3"], "not a table name"),
        (["run", "--mqtt", "mqtt://broker", "--table", "#"], "not a table name"),
        (["cafe"], "no broker"),
        (["cafe", "--mqtt", "tcp://broker"], "mqtt://HOST"),
        (["cafe", "--mqtt", "mqtt://broker", "--port", "0"], "--port"),
    ],
)
def test_bad_addresses_and_names_are_one_line_and_exit_2(
    argv: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["--data-dir", str(tmp_path), *argv])
    err = capsys.readouterr().err
    assert status == 2
    assert says in err
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err


def test_a_full_outbox_drops_the_oldest_and_says_how_many(tmp_path: Path, wait: Any) -> None:
    from cafe.broker import free_port
    from kiosk.mqtt.publisher import Publisher, summary
    from kiosk.settings import MqttSettings
    from kiosk.store import Store
    from kiosk.table import Table

    store = Store.open(tmp_path / "games.sqlite")
    table = Table(store.new_game("greenwood-full", "greenwood", {"players": 2, "draws": "virtual"}))
    nobody = f"mqtt://127.0.0.1:{free_port()}"  # no broker there: everything waits
    settings = MqttSettings(url=nobody, table="t-full", outbox_limit=10)
    pub = Publisher(table, settings, tmp_path, quiet=True)
    pub.start()
    try:
        for k in range(15):
            table.set_link("camera", "lost" if k % 2 == 0 else "ok", f"flip {k}")
        wait(lambda: pub.outbox.last_seq() == 15, what="15 events numbered")
        assert pub.waiting() == 10
        assert pub.outbox.dropped == 5
        assert [seq for seq, _ in pub.outbox.after(0, 100)] == list(range(6, 16))
        assert summary(table, "t-full", None, pub.outbox.dropped)["dropped"] == 5
    finally:
        pub.stop()
        store.close()


def test_flags_and_the_settings_file_add_up(tmp_path: Path) -> None:
    from kiosk.settings import load_settings

    toml = tmp_path / "tablesight.toml"
    toml.write_text('[mqtt]\nusername = "table-3"\ntable = "from-file"\n', encoding="utf-8")
    settings = load_settings(toml, mqtt={"url": "mqtts://broker.local", "table": "from-flag"})
    assert settings.mqtt.url == "mqtts://broker.local"
    assert settings.mqtt.table == "from-flag"
    assert settings.mqtt.username == "table-3"
