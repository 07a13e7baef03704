"""A table's publisher: what the table does, told to the café's MQTT broker (docs/mqtt.md).

The table's thread only drops each change into a queue (it never waits on the network or the
disk). One worker thread turns changes into events kept in the outbox (SQLite in the data
folder), rebuilds the state summary, and hands the oldest waiting events to paho-mqtt while the
broker is there, at most ``WINDOW`` at a time; an event leaves the outbox only when the broker
acknowledged it (PUBACK). paho's own thread connects, reconnects with back-off and resends
what was in flight, in order. The same worker takes the café's box of each game that the
broker hands over (``kiosk.mqtt.site_box``), for the table's new games.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import queue
import socket
import ssl
import sys
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from engine.core import Text
from engine.core.text import Language
from kiosk.mqtt.discovery import STAFF, Discovery
from kiosk.mqtt.outbox import OUTBOX_FILE, Outbox
from kiosk.mqtt.site_box import SiteBoxes
from kiosk.mqtt.topics import (
    BOX,
    BOX_SUBSCRIPTION,
    EVENTS,
    OFFLINE,
    ONLINE,
    RESULT,
    ROOT,
    STATE,
    STATUS,
    BrokerAddress,
    check_table_name,
    parse_broker_url,
    topic,
)
from kiosk.settings import MqttSettings, Settings
from kiosk.table import Change, Table

log = logging.getLogger("tablesight.mqtt")

WINDOW = 100
"""How many events are handed to the MQTT client at once (the rest wait in the outbox)."""
EVENT_KINDS = ("move", "rejected", "undo", "new_game", "link")
"""The changes of the table that are published as events (menu, settings, prompts are not)."""
PAYLOAD_VERSION = 1
BOX_TOPICS = f"{ROOT}/{BOX}/"
"""Where the café's boxes are (``tablesight/_box/<game>``)."""
STOP_FLUSH_S = 2.0
"""How long a clean stop waits for the broker to take what is waiting."""


@dataclass(frozen=True)
class _Noted:
    """A change of the table with what it left: the save, its number of moves, the time."""

    change: Change
    save: str
    game: str
    moves: int
    time: str
    links: dict[str, str]
    ended: dict[str, Any] | None = None
    """The state summary when the change ended the game (the next may start before the worker
    looks)."""


@dataclass(frozen=True)
class _Signal:
    kind: str  # connected, disconnected, acked, stop, refresh, announce, box
    value: Any = None


def both(zh: Any, en: Any) -> dict[str, Any]:
    """A text in both languages."""
    return {"zh": zh, "en": en}


def plain(value: Any) -> Any:
    """An event's field as JSON: a ``Text`` in both languages, tuples as lists."""
    if isinstance(value, Text):
        return both(value.zh, value.en)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def now_iso() -> str:
    """The wall-clock time, UTC, to the millisecond (for receivers; never used by the table)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def result_id(epoch: str, save: str, started: str) -> str:
    """An ended game's result id: the save and the table's session (its outbox's epoch, when
    the table first saw the save), so the same game always has the same id."""
    return hashlib.sha256(f"{epoch}\n{save}\n{started}".encode()).hexdigest()[:16]


def default_table_name() -> str:
    """This machine's name, made topic-safe (``table`` when nothing of it is)."""
    host = socket.gethostname().split(".")[0]
    name = "".join(c if c.isalnum() or c in "-_" else "-" for c in host).strip("-_")[:40]
    try:
        return check_table_name(name)
    except ValueError:
        return "table"


def screen_link(settings: Settings) -> str | None:
    """Where the table's screen can be opened from elsewhere: ``mqtt.link``, else this
    machine's address when the kiosk serves the network, else None (only the Pi reaches it)."""
    if settings.mqtt.link:
        return settings.mqtt.link
    host = settings.bind_host
    if host in ("127.0.0.1", "::1", "localhost"):
        return None
    if host in ("0.0.0.0", "::"):
        host = socket.gethostname()
    return f"http://{host}:{settings.port}/"


def summary(
    table: Table,
    name: str,
    link: str | None,
    dropped: int,
    connection: int | None = None,
    box: str | None = None,
) -> dict[str, Any]:
    """The table's state summary, in both languages (the retained ``state`` message): two
    snapshots of one change (``Presenter.pair``); ``connection`` counts the table's
    connections to the broker (a receiver knows from it that the table spoke again); ``box``
    says whose box the game is played with (``SiteBoxes.kind``)."""
    zh, en, facts = table.presenter.pair()
    try:
        scores = facts.game.scores(facts.state)
    except Exception:  # a game's score hook must not stop the publisher
        log.exception("%s: scores failed", facts.game.name)
        scores = None
    players = [
        {
            "seat": z.seat + 1,
            "name": both(z.name, e.name),
            "colour": e.colour,
            "colour_name": both(z.colour_name, e.colour_name),
            "hex": e.hex,
            "score": None if scores is None or i >= len(scores) else scores[i],
        }
        for i, (z, e) in enumerate(zip(zh.seats, en.seats, strict=False))
    ]
    turn = None
    current = en.current_player
    if current is not None and en.order != "simultaneous" and current <= len(players):
        turn = {"seat": current, "name": players[current - 1]["name"]}
    alerts: list[dict[str, Any]] = []
    if en.refusal is not None and zh.refusal is not None:
        rz, re_ = zh.refusal, en.refusal
        alerts.append(
            {
                "kind": "refused",
                "who": both(rz.who, re_.who),
                "what": both(rz.what, re_.what),
                "why": both(rz.why, re_.why),
            }
        )
    for link_name in ("camera", "controller"):
        state = en.links.get(link_name)
        if state is not None and state.state == "lost":
            alerts.append({"kind": f"{link_name}_lost", "detail": state.detail})
    missing = table.missing_pieces  # the last pack-away check's (kiosk.packaway)
    if missing is not None:
        title = both(missing.title_zh, missing.title_en)
        alerts.append({"kind": "missing", "count": missing.count, "title": title})
    end = None
    outcome = facts.state.outcome
    if outcome is not None and en.end is not None and zh.end is not None:
        winners = [players[s]["name"] for s in outcome.winners if s < len(players)]
        end = {
            "result": outcome.result,
            "title": both(zh.end.title, en.end.title),
            "why": both(zh.end.why, en.end.why),
            "winners": winners,
        }
        alerts.append({"kind": "ended", "title": end["title"], "winners": winners})
    step = None
    if en.step is not None and zh.step is not None:
        step = {
            "title": both(zh.step.title, en.step.title),
            "index": en.step.index,
            "of": en.step.of,
        }
    return {
        "v": PAYLOAD_VERSION,
        "table": name,
        "game": en.game,
        "title": both(zh.title, en.title),
        "save": en.save,
        "round": en.round,
        "rounds": en.rounds,
        "phase": {"name": en.phase.name, "title": both(zh.phase.title, en.phase.title)},
        "step": step,
        "order": en.order,
        "turn": turn,
        "next": both(zh.next, en.next),
        "players": players,
        "moves": en.moves,
        "links": {k: v.state for k, v in en.links.items()},
        "alerts": alerts,
        "end": end,
        "url": link,
        "dropped": dropped,
        "connection": connection,
        "box": box,
    }


class Publisher:
    """Tells the broker what one table does; ``start()`` and ``stop()`` around the kiosk's life."""

    def __init__(
        self,
        table: Table,
        mqtt_settings: MqttSettings,
        data_dir: Path,
        *,
        name: str | None = None,
        link: str | None = None,
        client_id: str | None = None,
        quiet: bool = False,
        lang: Language = "zh",
    ) -> None:
        if not mqtt_settings.url:
            raise ValueError("no broker address (mqtt.url)")
        self.table = table
        self.name = check_table_name(name or mqtt_settings.table or default_table_name())
        self.site = mqtt_settings.site
        """The table's site (topics ``tablesight/<site>/<table>/…``), or None."""
        self.address: BrokerAddress = parse_broker_url(mqtt_settings.url)
        self.link = link
        self.outbox = Outbox(data_dir / OUTBOX_FILE, mqtt_settings.outbox_limit)
        self.connected = threading.Event()
        """Set while the broker has us (tests and the bench wait on it)."""
        self.published_state: dict[str, Any] | None = None
        self.refused: str | None = None
        self.quiet = quiet
        """Whether to keep quiet on stderr about the broker going and coming back."""
        """Why the broker refused the last connection (bad user or password), else None."""
        self._queue: queue.SimpleQueue[_Noted | _Signal] = queue.SimpleQueue()
        self._inflight: dict[int, int] = {}  # paho's message id → event number
        self._handed = 0  # the newest event number handed to paho
        self._state: dict[str, Any] | None = None
        self._state_sent: str | None = None
        self._connection: int | None = None  # this table's connections so far (outbox file)
        self._repeat_result = False  # retain the newest result again (after a connection)
        self._results_inflight: dict[int, int] = {}  # paho's message id → result number
        self._result_handed = 0  # the newest result number handed to paho
        self._unlisten: Any = None
        self._lost = False
        self._worker: threading.Thread | None = None
        self.discovery = Discovery(  # Home Assistant's entities of this table (when asked)
            enabled=mqtt_settings.discovery,
            prefix=mqtt_settings.discovery_prefix,
            table=self.name,
            site=self.site,
            topics={"state": self._topic(STATE), "staff": self._topic(STAFF)},
            status_topic=self._topic(STATUS),
            data_dir=data_dir,
            lang=lang,
            link=link,
        )
        self._staff_sent: str | None = None
        self.site_boxes = SiteBoxes(data_dir, self._say)
        """The café's boxes this table takes (``tablesight/_box/<game>``) for its new games."""
        self.client = self._client(mqtt_settings, client_id or f"tablesight-{self.name}")

    def _client(self, settings: MqttSettings, client_id: str) -> mqtt.Client:
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=client_id,
            clean_session=True,
            protocol=mqtt.MQTTv311,
        )
        client.will_set(self._topic(STATUS), OFFLINE, qos=1, retain=True)
        user = settings.username or self.address.username
        password = settings.password or self.address.password
        if user:
            client.username_pw_set(user, password)
        if self.address.tls:
            client.tls_set(
                ca_certs=str(settings.ca_file) if settings.ca_file else None,
                tls_version=ssl.PROTOCOL_TLS_CLIENT,
            )
        client.max_inflight_messages_set(20)
        client.max_queued_messages_set(0)
        client.reconnect_delay_set(min_delay=1, max_delay=16)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_connect_fail = self._on_connect_fail
        client.on_message = self._on_message
        self._keepalive = settings.keepalive
        return client

    def _topic(self, what: str) -> str:
        """This table's topic ``what`` (under its site, when it has one)."""
        return topic(self.name, what, self.site)

    # --- life ----------------------------------------------------------------------------------

    def start(self) -> None:
        """Listen to the table and connect in the background (never waits for the broker)."""
        self._unlisten = self.table.listen(self._on_change)
        self._worker = threading.Thread(target=self._work, name="mqtt-publisher", daemon=True)
        self._worker.start()
        self._queue.put(_Signal("refresh"))
        self.client.connect_async(self.address.host, self.address.port, self._keepalive)
        self.client.loop_start()

    def stop(self) -> None:
        """Stop: keep what is queued in the outbox, give the broker a moment to take it, say
        "offline", disconnect (idempotent)."""
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None
        if self._worker is not None:
            self._queue.put(_Signal("stop"))
            self._worker.join(timeout=STOP_FLUSH_S + 5)
            self._worker = None
            if self.connected.is_set():
                info = self.client.publish(self._topic(STATUS), OFFLINE, qos=1, retain=True)
                with contextlib.suppress(RuntimeError, ValueError):
                    info.wait_for_publish(timeout=STOP_FLUSH_S)
            self.client.disconnect()
            self.client.loop_stop()
            self.outbox.close()

    # --- paho's thread: only signals -------------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if not reason.is_failure:
            self._queue.put(_Signal("connected"))
        else:
            if self.refused != str(reason):
                self._say(f"the MQTT broker {self.address} refused this table: {reason}")
            self.refused = str(reason)

    def _on_disconnect(
        self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        self.connected.clear()
        self._queue.put(_Signal("disconnected", str(reason)))

    def _on_connect_fail(self, client: Any, userdata: Any) -> None:
        self._queue.put(_Signal("disconnected", "cannot connect"))

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason: Any, props: Any) -> None:
        self._queue.put(_Signal("acked", mid))

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        if message.topic.startswith(BOX_TOPICS):  # the café's box: the worker takes it
            if not self.site_boxes.too_long(message.topic, len(message.payload)):
                self._queue.put(_Signal("box", (message.topic, bytes(message.payload))))
            return
        # Home Assistant (re)started: announce again (a retained "online" is not a restart)
        birth = message.topic == self.discovery.birth_topic and not message.retain
        if birth and message.payload == b"online":
            self._queue.put(_Signal("announce"))

    # --- the table's thread: one put -------------------------------------------------------------

    def _on_change(self, change: Change) -> None:
        if not self.table.has_game:  # no game yet: nothing to report until one starts
            return
        saved = self.table.saved  # what the change left, noted now: the worker comes later
        links = {k: v.state for k, v in self.table.links.items()}
        ended = None
        if change.kind in EVENT_KINDS and saved.session.state.outcome is not None:
            ended = summary(self.table, self.name, self.link, 0)  # once a game, no disk
        noted = _Noted(
            change,
            saved.name,
            saved.session.game.name,
            len(saved.session.moves),
            now_iso(),
            links,
            ended,
        )
        self._queue.put(noted)

    # --- the worker ------------------------------------------------------------------------------

    def _work(self) -> None:
        stopping = False
        while True:
            try:
                items = [self._queue.get(timeout=1.0)]
            except queue.Empty:
                continue
            while True:  # take everything waiting: one summary for a burst of changes
                try:
                    items.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            refresh = False
            for item in items:
                try:
                    refresh |= self._handle(item)
                except Exception:
                    log.exception("the MQTT publisher failed on %r", item)
                if isinstance(item, _Signal) and item.kind == "stop":
                    stopping = True
            try:
                if refresh:
                    self._refresh()
                self._pump()
            except Exception:
                log.exception("the MQTT publisher failed")
            if stopping:
                self._flush()
                return

    def _handle(self, item: _Noted | _Signal) -> bool:
        """Act on one item; True when the state summary must be rebuilt."""
        if isinstance(item, _Noted):
            self.outbox.remember(f"started:{item.save}", lambda: item.time)
            if item.change.kind in EVENT_KINDS:
                self.outbox.add(lambda seq: self._event(seq, item))
            if item.ended is not None and item.ended["end"] is not None:
                self._keep_result(item.ended)
            return True
        if item.kind == "acked":
            seq = self._inflight.pop(item.value, None)
            if seq is not None:
                self.outbox.delivered(seq)
            number = self._results_inflight.pop(item.value, None)
            if number is not None:
                self.outbox.result_delivered(number)
            return False
        if item.kind == "connected":
            self.refused = None
            self._connection = self.outbox.count("connections")
            self.connected.set()
            self.client.publish(self._topic(STATUS), ONLINE, qos=1, retain=True)
            self._state_sent = self._staff_sent = None  # a restarted broker lost them
            self._announce(self.discovery.announcement())
            if self.discovery.enabled:
                self.client.subscribe(self.discovery.birth_topic, qos=1)
            self.client.subscribe(BOX_SUBSCRIPTION, qos=1)  # the café's boxes (retained)
            self._repeat_result = True  # and the retained result
            if self._lost:
                self._say(f"back on the MQTT broker {self.address}; sending what waited")
            self._lost = False
            return True
        if item.kind == "disconnected":
            if not self._lost:
                what = (
                    f"cannot reach the MQTT broker {self.address}; retrying"
                    if item.value == "cannot connect"
                    else f"lost the MQTT broker {self.address} ({item.value})"
                )
                self._say(f"{what}: the table plays on, events wait in the outbox")
            self._lost = True
            return False
        if item.kind == "box":
            return self.site_boxes.take(*item.value) is not None
        if item.kind == "announce" and self.connected.is_set():
            self._announce(self.discovery.configs().items())
        return item.kind == "refresh"

    def _announce(self, messages: Iterable[tuple[str, str]]) -> None:
        """Publish Home Assistant's configs (retained; an empty one removes an entity)."""
        for where, payload in messages:
            self.client.publish(where, payload, qos=1, retain=True)

    def _event(self, seq: int, noted: _Noted) -> str:
        """One event's message (docs/mqtt.md "events")."""
        table, change = self.table, noted.change
        payload: dict[str, Any] = {
            "v": PAYLOAD_VERSION,
            "seq": seq,
            "epoch": self.outbox.epoch,
            "table": self.name,
            "time": noted.time,
            "kind": change.kind,
            "save": noted.save,
            "game": noted.game,
            "moves": noted.moves,
            "events": [],
        }
        for event in change.events:
            data = event.to_dict()
            if data.get("type") == "move_rejected" and change.verdict is not None:
                # as the screen's log says it: who, what was tried, why
                data = {**data, "why": change.verdict.message}
            try:
                presenter = table.presenter
                text = both(presenter.describe(data, "zh"), presenter.describe(data, "en"))
            except Exception:  # a sentence the game cannot make never loses the event
                text = None
            payload["events"].append({**plain(data), "text": text})
        if change.kind == "rejected" and change.verdict is not None:
            verdict = change.verdict
            payload["verdict"] = {
                "code": verdict.code,
                "message": both(verdict.message.zh, verdict.message.en),
                "rule": verdict.rule,
            }
        if change.kind == "link":
            payload["links"] = noted.links
        return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))

    def _refresh(self) -> None:
        """Rebuild the state summary; publish it (and the result of an ended game) if it
        changed and the broker is there."""
        if not self.table.has_game:  # no game yet: the summary waits for one
            return
        session = self.table.saved.session
        try:
            box = self.site_boxes.kind(session.game, session.options)
        except Exception:  # which box it is must never keep the summary from the broker
            log.exception("the box of %s could not be judged", session.game.name)
            box = None
        state = summary(
            self.table, self.name, self.link, self.outbox.dropped, self._connection, box
        )
        self._state = state
        staff = self.discovery.staff(state) if self.discovery.enabled else None
        if state["end"] is not None:
            self._keep_result(state)
        if not self.connected.is_set():
            return
        body = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
        if body != self._state_sent:
            self.client.publish(self._topic(STATE), body, qos=1, retain=True)
            self._state_sent = body
            self.published_state = state
        if staff is not None and staff != self._staff_sent:
            self.client.publish(self._topic(STAFF), staff, qos=1, retain=True)
            self._staff_sent = staff
        if self._repeat_result:  # a broker that restarted may have lost the retained one
            self._repeat_result = False
            if (again := self.outbox.delivered_result()) is not None:
                self.client.publish(self._topic(RESULT), again, qos=1, retain=True)

    def _keep_result(self, state: dict[str, Any]) -> None:
        """Keep an ended game's result (from its state summary) once, by its id, to be sent in
        order whether the broker is there or not."""
        started = self.outbox.remember(f"started:{state['save']}", now_iso)
        rid = result_id(self.outbox.epoch, state["save"], started)
        self.outbox.keep_result(rid, lambda n: self._result(state, rid, n, started))

    def _result(self, state: dict[str, Any], rid: str, number: int, started: str) -> str:
        """The ended game's result (docs/mqtt.md "result"); its time is when this table first
        saw it end, kept in the outbox's file so that a restart says the same."""
        ended = self.outbox.remember(f"ended:{state['save']}", now_iso)
        timer = self.table.presenter.snapshot("en").timer  # each seat's time (kiosk.timers)
        times = [row.seconds for row in timer.totals] if timer is not None else []
        result = {
            "v": PAYLOAD_VERSION,
            "table": self.name,
            "save": state["save"],
            "id": rid,
            "site": self.site,
            "number": number,
            "started": started,
            "game": state["game"],
            "title": state["title"],
            "ended": ended,
            "result": state["end"]["result"],
            "winners": state["end"]["winners"],
            "players": [
                {"name": p["name"], "colour": p["colour"], "score": p["score"]}
                | ({"time_s": times[i]} if i < len(times) else {})
                for i, p in enumerate(state["players"])
            ],
            "moves": state["moves"],
            "rounds": state["round"],
        }
        return json.dumps(result, ensure_ascii=False, separators=(",", ":"))

    def _pump(self) -> None:
        """Hand the next waiting events to paho, oldest first, keeping ``WINDOW`` in its hands."""
        room = WINDOW - len(self._inflight)
        if room <= 0 or not self.connected.is_set():
            return  # while the broker is away, events wait in the outbox (not in memory)
        for number, payload in self.outbox.results_after(self._result_handed):
            info = self.client.publish(self._topic(RESULT), payload, qos=1, retain=True)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                break
            self._results_inflight[info.mid] = self._result_handed = number
        for seq, payload in self.outbox.after(self._handed, room):
            info = self.client.publish(self._topic(EVENTS), payload, qos=1)
            if info.rc not in (mqtt.MQTT_ERR_SUCCESS, mqtt.MQTT_ERR_NO_CONN):
                log.warning("event %d not handed to the MQTT client: %s", seq, info.rc)
                return
            self._inflight[info.mid] = seq
            self._handed = seq

    def _flush(self) -> None:
        """At a clean stop: wait a moment for the broker to take what is in flight."""
        deadline = time.monotonic() + STOP_FLUSH_S
        while self._inflight and self.connected.is_set() and time.monotonic() < deadline:
            try:
                item = self._queue.get(timeout=0.1)
            except queue.Empty:
                continue
            if isinstance(item, _Signal) and item.kind == "acked":
                self._handle(item)
                self._pump()

    def _say(self, line: str) -> None:
        """One line on stderr for the person who started the kiosk (and in the log)."""
        log.info("%s", line)
        if not self.quiet:
            sys.stderr.write(f"tablesight: {line}\n")
            sys.stderr.flush()

    def waiting(self) -> int:
        """How many events wait for the broker (in the outbox)."""
        return self.outbox.waiting()
