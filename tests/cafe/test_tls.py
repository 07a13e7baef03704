"""A broker that speaks TLS only (mqtts://): the table trusts it through the CA file of its
settings, and a table without that CA is refused by its own check and plays on."""

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


def openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def make_certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A CA of the test's own and the broker's certificate for 127.0.0.1, signed by it."""
    ca_key, ca = folder / "ca.key", folder / "ca.pem"
    key, csr, cert = folder / "broker.key", folder / "broker.csr", folder / "broker.pem"
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
            "/CN=tablesight test CA", "-keyout", str(ca_key), "-out", str(ca))  # fmt: skip
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
            "-keyout", str(key), "-out", str(csr))  # fmt: skip
    ext = folder / "san.cnf"
    ext.write_text("subjectAltName = IP:127.0.0.1\n", encoding="utf-8")
    openssl("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key),
            "-CAcreateserial", "-days", "2", "-extfile", str(ext), "-out", str(cert))  # fmt: skip
    return ca, cert, key


@pytest.fixture(scope="module")
def tls_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mosquitto]:
    """This module's Mosquitto, TLS only, with a certificate from the test's own CA."""
    if mosquitto_path() is None or shutil.which("openssl") is None:
        pytest.skip("Mosquitto or openssl is not installed")
    folder = tmp_path_factory.mktemp("broker-tls")
    server = Mosquitto(folder, tls=make_certificates(folder)).start()
    try:
        yield server
    finally:
        server.stop()


def publisher(tmp_path: Path, settings: MqttSettings) -> tuple[Publisher, Store]:
    store = Store.open(tmp_path / "games.sqlite")
    table = Table(store.new_game("greenwood-tls", "greenwood", {"players": 2}))
    return Publisher(table, settings, tmp_path, quiet=True), store


def test_the_table_trusts_the_broker_through_its_ca_file(
    tls_broker: Mosquitto, wait: Any, tmp_path: Path
) -> None:
    assert tls_broker.url.startswith("mqtts://")
    settings = MqttSettings(url=tls_broker.url, table="t-tls", ca_file=tls_broker.folder / "ca.pem")
    pub, store = publisher(tmp_path, settings)
    pub.start()
    try:
        wait(pub.connected.is_set, what="the TLS connection")
        pub.table.set_link("camera", "lost", "unplugged")
        wait(lambda: pub.waiting() == 0 and pub.outbox.last_seq() == 1, what="the event sent")
    finally:
        pub.stop()
        store.close()


def test_without_the_ca_the_table_does_not_connect_and_plays_on(
    tls_broker: Mosquitto, wait: Any, tmp_path: Path
) -> None:
    pub, store = publisher(tmp_path, MqttSettings(url=tls_broker.url, table="t-untrusted"))
    pub.start()
    try:
        pub.table.set_link("camera", "lost", "unplugged")
        wait(lambda: pub.waiting() == 1, what="the event kept in the outbox")
        log = tls_broker.log  # the table refused the broker's certificate: the broker says so
        wait(lambda: "unknown ca" in log.read_text(errors="replace"), what="the refused handshake")
        assert not pub.connected.is_set()
    finally:
        pub.stop()
        store.close()


def test_a_missing_ca_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from kiosk.cli import main

    toml = tmp_path / "tablesight.toml"
    toml.write_text(
        '[mqtt]\nurl = "mqtts://broker.local"\nca_file = "/nonexistent/ca.pem"\n', encoding="utf-8"
    )
    status = main(["--config", str(toml), "--data-dir", str(tmp_path), "run"])
    err = capsys.readouterr().err
    assert status == 2
    assert "no CA file" in err and len(err.strip().splitlines()) == 1
