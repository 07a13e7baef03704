"""Each player's time is in the end screen and the café's result of a game played with a timer
(issue 28): a table's publisher against a real Mosquitto, the time counted on the manual
clock."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from cafe.broker import Mosquitto, mosquitto_path
from cafe.simulate import SimulatedTable
from kiosk.mqtt.payloads import read_result
from kiosk.timers import ManualClock, TableTimers, TimerChoice


def retained(port: int, topic: str, wait_s: float = 20.0) -> bytes:
    """The message retained (or next published) on ``topic``; fails after ``wait_s``."""
    got: list[bytes] = []
    arrived = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.on_connect = lambda c, *_: c.subscribe(topic, qos=1)

    def on_message(c: Any, userdata: Any, message: Any) -> None:
        got.append(message.payload)
        arrived.set()

    client.on_message = on_message
    client.connect("127.0.0.1", port)
    client.loop_start()
    try:
        assert arrived.wait(wait_s), f"nothing on {topic} within {wait_s} s"
    finally:
        client.disconnect()
        client.loop_stop()
    return got[0]


def test_each_players_time_is_in_the_result(tmp_path: Path) -> None:
    if mosquitto_path() is None:
        if os.environ.get("CI"):
            pytest.fail("CI must have Mosquitto: .ci/run installs it with apt-get")
        pytest.skip("Mosquitto is not installed (apt-get install -y mosquitto)")
    broker = Mosquitto(tmp_path / "broker").start()
    sim = SimulatedTable("timed", tmp_path, broker.url, seed=3)
    clock = ManualClock()
    timers = TableTimers(sim.table, clock, tick_s=None)
    try:
        timers.start()
        timers.choose(TimerChoice(mode="budget", seconds=3600))
        sim.start()
        while sim.move() is not None:
            clock.advance(2)  # each move takes its player 2 s
        facts = timers.facts()
        assert facts is not None
        spent = [round(t) for t in facts.totals]
        assert all(t > 0 for t in spent)
        status = sim.table.status("en")  # the end screen gives the same times
        assert status["end"] is not None and status["timer"]["kind"] is None
        assert [r["seconds"] for r in status["timer"]["totals"]] == spent
        assert status["timer"]["totals"][0]["text"] == f"{spent[0] // 60}:{spent[0] % 60:02d}"
        result = read_result(retained(broker.port, "tablesight/timed/result"), "timed")
        assert [p.time_s for p in result.players] == spent
        assert [p.name.en for p in result.players] == ["Player 1", "Player 2"]
    finally:
        timers.close()
        sim.stop()
        broker.stop()
