"""The broker accounts and ACL of docs/mqtt.md, in a real Mosquitto: a table writes only under its
own name, the overview reads every table and writes nothing."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from cafe.broker import Mosquitto, mosquitto_path
from cafe.overview import Overview
from cafe.simulate import SimulatedTable
from kiosk.settings import MqttSettings

DOC = Path(__file__).resolve().parents[2] / "docs" / "mqtt.md"
ACCOUNTS = {"table-3": "three's secret", "cafe": "the staff's secret"}


def documented_acl() -> str:
    """The ACL file as docs/mqtt.md gives it (the fenced block that starts ``# tablesight:``)."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("```\n# tablesight:") + 4
    return text[start : text.index("```", start)]


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mosquitto]:
    """This module's Mosquitto: accounts in a password file, the documented ACL."""
    passwd = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    if mosquitto_path() is None or not Path(passwd).is_file():
        pytest.skip("Mosquitto is not installed (apt-get install -y mosquitto)")
    folder = tmp_path_factory.mktemp("broker-acl")
    passwords = folder / "passwords"
    for user, password in ACCOUNTS.items():
        create = ["-c"] if not passwords.exists() else []
        subprocess.run([passwd, "-b", *create, str(passwords), user, password], check=True)
    acl = folder / "acl"
    acl.write_text(documented_acl(), encoding="utf-8")
    server = Mosquitto(folder, passwords=passwords, acl=acl).start()
    try:
        yield server
    finally:
        server.stop()


def test_a_table_writes_only_under_its_own_name(
    broker: Mosquitto, tmp_path: Path, wait: Any
) -> None:
    staff = MqttSettings(url=broker.url, username="cafe", password=ACCOUNTS["cafe"])
    overview = Overview(staff)
    overview.start()
    url = f"mqtt://table-3:{ACCOUNTS['table-3'].replace(' ', '%20')}@127.0.0.1:{broker.port}"
    sim = SimulatedTable("table-3", tmp_path, url, seed=3).start()
    forger = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    forger.username_pw_set("table-3", ACCOUNTS["table-3"])  # the table's account, misused
    forger.connect("127.0.0.1", broker.port)
    forger.loop_start()
    try:
        wait(lambda: (t := overview.tile("table-3")) and t["online"] and t["state"], what="t3")
        state = overview.tile("table-3")["state"]  # type: ignore[index]
        for name in ("table-4", "x"):
            forged = {**state, "table": name}
            forger.publish(
                f"tablesight/{name}/state", json.dumps(forged), 1, True
            ).wait_for_publish(10)
            forger.publish(f"tablesight/{name}/status", "offline", 1, True).wait_for_publish(10)
        overview.client.publish("tablesight/table-9/status", "online", 1, True).wait_for_publish(10)
        sim.move()  # the table's own next word arrives after every forged one
        moves = len(sim.table.saved.session.moves)
        wait(lambda: overview.tile("table-3")["state"]["moves"] == moves, what="the move")  # type: ignore[index]
        assert [t["name"] for t in overview.snapshot()["tables"]] == ["table-3"]
        assert overview.dropped == 0, "nothing forged reached the overview to be dropped"
        assert overview.broker_uptime is not None, "the overview reads the broker's uptime"
    finally:
        forger.disconnect()
        forger.loop_stop()
        sim.stop()
        overview.stop()
