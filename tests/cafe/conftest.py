"""Fixtures for the café tests: a real Mosquitto per test module (loopback, a free port, its
configuration in a temporary folder), an MQTT receiver, and the shared Chromium."""

from __future__ import annotations

import json
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from browsers import close_shared_browser, shared_browser
from paho.mqtt.enums import CallbackAPIVersion

from cafe.broker import Mosquitto, mosquitto_path

WAIT_S = 20.0
"""The longest any test waits for a message (a bound, not a measured speed)."""


def wait_for(check: Callable[[], Any], timeout: float = WAIT_S, what: str = "") -> Any:
    """Poll ``check`` until it gives something true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"waited {timeout} s for {what or check}")


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mosquitto]:
    """One real Mosquitto for the test module, anonymous clients allowed."""
    if mosquitto_path() is None:
        if os.environ.get("CI"):
            pytest.fail("CI must have Mosquitto: .ci/run installs it with apt-get")
        pytest.skip("Mosquitto is not installed (apt-get install -y mosquitto)")
    server = Mosquitto(tmp_path_factory.mktemp("broker")).start()
    try:
        yield server
    finally:
        server.stop()


@dataclass
class Message:
    """One message as the receiver got it."""

    topic: str
    text: str
    retain: bool

    def json(self) -> Any:
        """The payload as JSON."""
        return json.loads(self.text)


@dataclass
class Receiver:
    """An MQTT client subscribed to ``tablesight/#`` that keeps every message it gets."""

    client: mqtt.Client
    messages: list[Message] = field(default_factory=list)
    subscribed: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def on(self, topic: str) -> list[Message]:
        """The messages got on one topic, in order."""
        with self.lock:
            return [m for m in self.messages if m.topic == topic]

    def last(self, topic: str) -> Message | None:
        """The latest message on ``topic``."""
        got = self.on(topic)
        return got[-1] if got else None

    def wait(self, topic: str, check: Callable[[Any], bool], what: str = "") -> Any:
        """Wait for a JSON message on ``topic`` for which ``check`` holds; returns it."""

        def find() -> Any:
            for message in reversed(self.on(topic)):
                data = message.json() if message.text[:1] in "{[" else message.text
                if check(data):
                    return data
            return None

        return wait_for(find, what=what or f"a message on {topic}")

    def events(self, table: str) -> list[dict[str, Any]]:
        """The events of one table, as they arrived (duplicates kept)."""
        return [m.json() for m in self.on(f"tablesight/{table}/events")]

    def close(self) -> None:
        """Disconnect."""
        self.client.disconnect()
        self.client.loop_stop()


def receiver(
    broker: Mosquitto, *, lasting: bool = False, auth: tuple[str, str] | None = None
) -> Receiver:
    """A receiver on ``broker``; ``lasting``: a persistent session (QoS 1 messages published
    while it is away wait for it, also across a restart of the broker); ``auth``: user and
    password."""
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=f"receiver-{uuid.uuid4().hex[:8]}",
        clean_session=not lasting,
        protocol=mqtt.MQTTv311,
    )
    client.reconnect_delay_set(min_delay=1, max_delay=2)
    if auth is not None:
        client.username_pw_set(*auth)
    got = Receiver(client)

    def on_connect(c: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        c.subscribe("tablesight/#", qos=1)

    def on_subscribe(c: Any, userdata: Any, mid: Any, reasons: Any, props: Any) -> None:
        got.subscribed.set()

    def on_message(c: Any, userdata: Any, message: Any) -> None:
        with got.lock:
            got.messages.append(Message(message.topic, message.payload.decode(), message.retain))

    client.on_connect = on_connect
    client.on_subscribe = on_subscribe
    client.on_message = on_message
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    wait_for(got.subscribed.is_set, what="the receiver's subscription")
    return got


@pytest.fixture
def listen(broker: Mosquitto) -> Iterator[Callable[..., Receiver]]:
    """Make receivers on the module's broker; they are closed after the test."""
    made: list[Receiver] = []

    def make(**kw: Any) -> Receiver:
        made.append(receiver(broker, **kw))
        return made[-1]

    try:
        yield make
    finally:
        for r in made:
            r.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A real headless Chromium driven by Playwright (tests/support/browsers.py)."""
    try:
        yield shared_browser()
    finally:
        close_shared_browser()


def folder(tmp_path: Path, name: str) -> Path:
    """A sub-folder of the test's temporary folder."""
    path = tmp_path / name
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def wait() -> Callable[..., Any]:
    """``wait(check, timeout=WAIT_S, what="")``: poll until ``check()`` is true (bounded)."""
    return wait_for
