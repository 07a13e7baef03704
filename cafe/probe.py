"""Does the café's broker let anyone write? One anonymous round trip on a private topic.

A client without an account connects, subscribes to a topic of its own under ``tablesight/``
(``tablesight/_probe/<random>``: ``_`` starts no table's name, and no overview reads it) and
publishes one message there, not retained. When the message comes back, the broker lets anyone
on its network publish where the tables do, and ``tablesight cafe`` suggests the broker accounts
of docs/mqtt.md. A refused connection, or no message back (an ACL that drops it), is a broker
that does not; a broker out of reach tells nothing.
"""

from __future__ import annotations

import secrets
import ssl
import threading
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from kiosk.mqtt.topics import ROOT, BrokerAddress
from kiosk.settings import MqttSettings

PROBE_S = 5.0
"""How long the probe waits for the broker's answers."""

SUGGESTION = {
    "zh": "这个 MQTT 服务器允许不登录就发布消息:同一网络上的任何人都能冒充一张桌。请给每张桌一个"
    "以桌名为用户名的账号、给总览账号 cafe,并关闭匿名(allow_anonymous false、password_file、"
    "acl_file;见 docs/mqtt.md「Broker accounts and an ACL」)",
    "en": "this MQTT broker lets anyone publish without an account: anyone on its network can"
    " pose as a table. Give each table an account named after it and the overview the account"
    " 'cafe', and turn anonymous access off (allow_anonymous false, password_file, acl_file:"
    " docs/mqtt.md, Broker accounts and an ACL)",
}
"""What ``tablesight cafe`` says at start when the probe's message came back."""


def anonymous_writes(
    address: BrokerAddress, settings: MqttSettings, timeout: float = PROBE_S
) -> bool | None:
    """True when a client without an account could publish on a private topic under
    ``tablesight/`` and read it back; False when the broker refused it (the connection, or
    the message); None when the broker could not be reached."""
    topic = f"{ROOT}/_probe/{secrets.token_hex(8)}"
    token = secrets.token_hex(16).encode()
    answered, back = threading.Event(), threading.Event()
    outcome: dict[str, bool] = {}
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    if address.tls:
        client.tls_set(
            ca_certs=str(settings.ca_file) if settings.ca_file else None,
            tls_version=ssl.PROTOCOL_TLS_CLIENT,
        )

    def on_connect(c: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        outcome["accepted"] = not reason.is_failure
        answered.set()
        if not reason.is_failure:
            c.subscribe(topic, qos=1)

    def on_subscribe(c: Any, userdata: Any, mid: Any, reasons: Any, props: Any) -> None:
        c.publish(topic, token, qos=1)

    def on_message(c: Any, userdata: Any, message: Any) -> None:
        if message.payload == token:
            back.set()

    client.on_connect = on_connect
    client.on_subscribe = on_subscribe
    client.on_message = on_message
    try:
        client.connect(address.host, address.port, keepalive=30)
    except (OSError, ssl.SSLError, ValueError):
        return None
    client.loop_start()
    try:
        if not answered.wait(timeout):
            return None
        if not outcome.get("accepted"):
            return False
        return back.wait(timeout)
    finally:
        client.disconnect()
        client.loop_stop()
