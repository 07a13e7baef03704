"""A broker that dies mid-game and comes back: the table never waits for it, its events wait
in the outbox (also across a restart of the kiosk), and every event arrives once, in order."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from cafe.broker import Mosquitto
from cafe.simulate import SimulatedTable
from kiosk.mqtt.publisher import Publisher
from kiosk.settings import MqttSettings
from kiosk.store import Store
from kiosk.table import Table


def persisted_after(broker: Mosquitto, moment: float) -> bool:
    """Whether the broker saved its state (the receiver's lasting session) after ``moment``."""
    db = broker.folder / "mosquitto.db"
    return db.is_file() and db.stat().st_mtime > moment


def play(sim: SimulatedTable, n: int) -> None:
    for _ in range(n):
        assert sim.move() is not None, "the game ended too early for this test"


def test_killed_broker_every_event_arrives_once_and_in_order(
    broker: Mosquitto, listen: Any, wait: Any, tmp_path: Path
) -> None:
    got = listen(lasting=True)
    sim = SimulatedTable("table-k", tmp_path, broker.url, seed=3).start()
    try:
        wait(sim.publisher.connected.is_set, what="the table's connection")
        play(sim, 5)
        wait(lambda: len(got.events("table-k")) == 5, what="the first five events")
        # An autosave after they were delivered: a killed broker comes back from its last
        # autosave and would hand an event it delivered after it to a lasting session again.
        delivered = time.time()
        wait(lambda: persisted_after(broker, delivered), what="the broker's autosave")

        broker.kill()  # SIGKILL, mid-game
        wait(lambda: not sim.publisher.connected.is_set(), what="the table to notice")
        play(sim, 20)  # the table goes on: every move is accepted and saved
        wait(lambda: sim.publisher.waiting() == 20, what="20 events held in the outbox")

        broker.start()
        wait(lambda: len(got.events("table-k")) >= 25, what="all 25 events")
        wait(lambda: sim.publisher.waiting() == 0, what="the outbox to empty")
        seqs = [e["seq"] for e in got.events("table-k")]
        assert seqs == list(range(seqs[0], seqs[0] + 25)), "each once, in order"
        assert [e["moves"] for e in got.events("table-k")] == list(range(1, 26))
        state = got.wait("tablesight/table-k/state", lambda s: s["moves"] == 25)
        assert state["dropped"] == 0
    finally:
        sim.stop()


def test_events_held_while_the_broker_is_away_survive_a_restart_of_the_kiosk(
    broker: Mosquitto, listen: Any, wait: Any, tmp_path: Path
) -> None:
    got = listen(lasting=True)
    sim = SimulatedTable("table-r", tmp_path, broker.url, seed=4).start()
    wait(sim.publisher.connected.is_set, what="the table's connection")
    play(sim, 2)
    wait(lambda: len(got.events("table-r")) == 2, what="the first events")
    delivered = time.time()
    wait(lambda: persisted_after(broker, delivered), what="the broker's autosave")
    broker.kill()
    wait(lambda: not sim.publisher.connected.is_set(), what="the table to notice")
    play(sim, 6)
    wait(lambda: sim.publisher.waiting() == 6, what="6 events held")
    save = sim.table.saved.name
    sim.stop()  # the kiosk stops while the broker is away

    store = Store.open(tmp_path / "games.sqlite")
    table = Table(store.load(save))
    settings = MqttSettings(url=broker.url, table="table-r")
    publisher = Publisher(table, settings, tmp_path)
    assert publisher.waiting() == 6, "the outbox kept them on disk"
    publisher.start()
    try:
        broker.start()
        wait(lambda: len(got.events("table-r")) >= 8, what="all 8 events")
        wait(lambda: publisher.waiting() == 0, what="the outbox to empty")
        events = got.events("table-r")
        seqs = [e["seq"] for e in events]
        assert seqs == list(range(seqs[0], seqs[0] + 8))
        assert [e["moves"] for e in events] == list(range(1, 9))
    finally:
        publisher.stop()
        store.close()
