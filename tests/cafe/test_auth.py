"""A broker that asks for a user and password (Mosquitto's password file, made with
mosquitto_passwd): the table gets in with them, and without them it plays on regardless."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cafe.broker import Mosquitto, mosquitto_path
from kiosk.mqtt.publisher import Publisher
from kiosk.settings import MqttSettings
from kiosk.store import Store
from kiosk.table import Table

USER, PASSWORD = "table", "s3cret words"


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mosquitto]:
    """This module's Mosquitto: no anonymous clients, one user in a password file."""
    passwd = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    if mosquitto_path() is None or not Path(passwd).is_file():
        pytest.skip("Mosquitto is not installed (apt-get install -y mosquitto)")
    folder = tmp_path_factory.mktemp("broker-auth")
    passwords = folder / "passwords"
    subprocess.run([passwd, "-b", "-c", str(passwords), USER, PASSWORD], check=True)
    server = Mosquitto(folder, passwords=passwords).start()
    try:
        yield server
    finally:
        server.stop()


def publisher(tmp_path: Path, settings: MqttSettings) -> tuple[Publisher, Store]:
    store = Store.open(tmp_path / "games.sqlite")
    table = Table(store.new_game("greenwood-auth", "greenwood", {"players": 2}))
    return Publisher(table, settings, tmp_path), store


@pytest.mark.parametrize("how", ["settings", "url"])
def test_the_table_gets_in_with_its_user_and_password(
    broker: Mosquitto, listen: Any, tmp_path: Path, how: str
) -> None:
    got = listen(auth=(USER, PASSWORD))
    if how == "settings":
        settings = MqttSettings(url=broker.url, table="t-auth", username=USER, password=PASSWORD)
    else:
        url = f"mqtt://{USER}:{PASSWORD.replace(' ', '%20')}@127.0.0.1:{broker.port}"
        settings = MqttSettings(url=url, table="t-auth")
    pub, store = publisher(tmp_path, settings)
    pub.start()
    try:
        got.wait("tablesight/t-auth/status", lambda s: s == "online")
        state = got.wait("tablesight/t-auth/state", lambda s: True)
        assert state["save"] == "greenwood-auth"
    finally:
        pub.stop()
        store.close()


def test_a_wrong_password_is_said_and_the_table_plays_on(
    broker: Mosquitto, wait: Any, tmp_path: Path
) -> None:
    settings = MqttSettings(url=broker.url, table="t-bad", username=USER, password="wrong")
    pub, store = publisher(tmp_path, settings)
    pub.start()
    try:
        wait(lambda: pub.refused, what="the broker's refusal")
        assert "not authori" in str(pub.refused).lower()
        pub.table.set_link("camera", "lost", "unplugged")
        wait(lambda: pub.waiting() == 1, what="the event kept in the outbox")
        assert not pub.connected.is_set()
    finally:
        pub.stop()
        store.close()
