"""The café's overview: every table's state from the broker, served as one live page.

An MQTT client (paho's thread) keeps the latest ``state``, ``status`` and ``result`` of every
table under ``tablesight/+/`` and, for tables of a site (a café of a chain whose broker is
bridged to this one), ``tablesight/+/+/``; a table is known by its key, ``<site>/<table>`` or
``<table>``. The page gets a snapshot of all tiles and then each table's tile as it changes,
over server-sent events, and groups them by site. Results of ended games are kept once each, by
their id, however often the broker hands them over (a bridge's store-and-forward, QoS 1
repeats, the retained one at each connection), and appended to ``cafe-results.jsonl`` in the
data folder, so a restart keeps them, for the CSV and JSON downloads. With a data folder the
results are taken by a second client with a lasting session named after the folder, so the
broker keeps those said while the overview is stopped.

The broker is not trusted to send what a table would: every payload is checked against its
schema (``kiosk.mqtt.payloads``) before use, and one that is too long, is not JSON or does not
fit is dropped, counted and logged once a minute; a table whose state cannot be read gets a
tile that says so. Nothing in paho's thread can raise out of the callback, so one message never
stops the subscriber. What is kept is bounded (``Limits``): a message's size, the number of
tables, the number of results.

A broker outage is not the tables' outage: they play on and report when it is back. While the
overview has no broker, no tile turns "offline"; a broker that stops cleanly publishes every
table's last will as it goes, so a live "offline" is shown only after ``HOLD_S`` with the broker
still there. After a reconnection the broker's retained words may be stale (a broker killed
comes back from its last autosave; one stopped cleanly keeps the wills it published as it
stopped), so each table that was online must speak for itself within ``GRACE_S`` (its own
"online", a state summary), else its tile says "offline". Retained "online" is taken as is when
the broker did not restart (its ``$SYS/broker/uptime`` went on) or stopped cleanly.

The overview is also what offers the café's box (``cafe.site_box``): the retained message of
each game's box, published again at each connection (a broker that restarted may have lost
it); the tables take it for their new games.
"""

from __future__ import annotations

import asyncio
import csv
import hashlib
import io
import json
import logging
import re
import ssl
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from paho.mqtt.enums import CallbackAPIVersion

from cafe.known import KNOWN_FILE, Loaded, load, now_utc, save
from engine.core import find_game
from kiosk.mqtt.payloads import Result, Text, as_json, read_result, read_site_box, read_state
from kiosk.mqtt.topics import (
    OFFLINE,
    ONLINE,
    RESULT,
    STATE,
    STATUS,
    BrokerAddress,
    box_topic,
    check_site_name,
    check_table_name,
    parse_broker_url,
    subscriptions,
    where_of,
)
from kiosk.settings import MqttSettings

log = logging.getLogger("tablesight.cafe")

HERE = Path(__file__).resolve().parent
TEMPLATES = Jinja2Templates(directory=HERE / "templates")
RESULTS_FILE = "cafe-results.jsonl"
KEEPALIVE_S = 15.0
RETRY_MS = 1000
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}

UPTIME = "$SYS/broker/uptime"
"""Mosquitto's seconds since it started (retained, renewed every ``sys_interval``)."""
GRACE_S = 30.0
"""How long a table has after the broker's return to say it is there (its reconnect back-off
tops out at 16 s)."""
HOLD_S = 1.5
"""How long a live "offline" waits before it is shown: a broker stopping publishes every
table's last will just before it closes the overview's link."""
RECONNECT_S = 0.1
"""The overview retries the broker every 0.1 s (a refused connection costs nothing): back
before the tables (their back-off is 1, 2, 4 … 16 s), it hears their own "online" instead of
what the broker kept."""

DROP_LOG_S = 60.0
"""Dropped messages are logged at most once a minute (a flood of bad ones is one line)."""
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""A CSV cell starting with one of these is a formula to a spreadsheet: it gets a ``'`` first
(OWASP's rule against CSV injection)."""

Listener = Callable[[str | None], None]


@dataclass(frozen=True)
class Limits:
    """What the overview keeps at most (``tablesight cafe --max-…``; docs/mqtt.md): what it
    keeps is at most ``tables`` state summaries and ``results`` results of ``payload`` bytes
    each."""

    payload: int = 16 * 1024
    """Bytes of one message; a longer one is dropped unread (a real summary is under 2 KiB)."""
    tables: int = 200
    """Tables shown; a message of one more table is dropped."""
    results: int = 2000
    """Results of ended games kept (in memory and in the file); beyond them the oldest go."""


@dataclass
class _Return:
    """What the overview knows in the first ``GRACE_S`` after it has the broker back."""

    until: float  # monotonic: the end of the grace
    lost_at: float  # monotonic: when the link was lost
    uptime_before: int | None  # the broker's uptime last heard before the loss
    clean: bool  # the broker published wills as it went: it stopped cleanly, kept everything
    restarted: bool | None = None  # None until its uptime is heard
    spoke: set[str] = field(default_factory=set)  # tables heard live since the return
    kept_offline: set[str] = field(default_factory=set)  # a retained "offline" in the return

    def trusts_online(self) -> bool:
        """Whether a retained "online" is the table's word since the return (not a stale
        autosave): the broker did not restart, or stopped cleanly (its wills replaced every
        live table's "online", so an "online" now was said after the return)."""
        return self.clean or self.restarted is False


def _later(state: dict[str, Any], old: dict[str, Any]) -> bool:
    """Whether a table's state summary was said after ``old``: the same game further on, or a
    later connection of the table to the broker (its ``connection`` count grew)."""
    moves = state["save"] == old["save"] and state["moves"] > old["moves"]
    now, before = state.get("connection"), old.get("connection")
    return moves or (now is not None and before is not None and now > before)


def natural_key(name: str) -> tuple[Any, ...]:
    """Sort ``table-2`` before ``table-10``."""
    return tuple(int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", name))


class Overview:
    """The latest word of every table on the broker; safe to read from any thread."""

    def __init__(
        self,
        settings: MqttSettings,
        data_dir: Path | None = None,
        *,
        grace: float = GRACE_S,
        hold: float = HOLD_S,
        limits: Limits = Limits(),
        boxes: dict[str, str] | None = None,
    ) -> None:
        if not settings.url:
            raise ValueError("no broker address")
        self.boxes = dict(boxes or {})
        """The café's box of each game it offers, as the retained message, by game
        (``cafe.site_box.offered``)."""
        self.address: BrokerAddress = parse_broker_url(settings.url)
        self.limits = limits
        self.tables: dict[str, dict[str, Any]] = {}
        self.results: dict[str, str] = {}
        """Each ended game's result as checked JSON text, by its id (``result_key``), in the
        order they arrived."""
        self.repeats = 0
        """Results handed over again and kept once (a bridge's store-and-forward, QoS 1
        repeats, the retained one at each connection)."""
        self.dropped = 0
        """Messages dropped since the start (too long, not JSON, not fitting the schema, one
        table too many)."""
        self._unlogged = 0
        self._last_drop = ""
        self._drops_logged_at = -DROP_LOG_S
        self._file_rows = 0
        self._started = False
        self._evicted: list[str] = []  # tiles given up for a table heard live, to be told
        self._heard: set[str] = set()  # tables heard live (not only through retained ones)
        self.connected = threading.Event()
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []
        self.grace, self.hold = grace, hold
        self._doubt: dict[str, float] = {}  # table → when it is offline unless it speaks
        self._held: dict[str, float] = {}  # table → when its live "offline" is shown
        self._lost_at: float | None = None  # monotonic; None before the first connection
        self._clean_stop = False
        self._uptime: int | None = None
        self._uptime_before: int | None = None
        self._return: _Return | None = None
        self._stopping = threading.Event()
        self._clock: threading.Thread | None = None
        self._results_file = None if data_dir is None else data_dir / RESULTS_FILE
        self._load_results()
        self._known_file = None if data_dir is None else data_dir / KNOWN_FILE
        self.known_loaded = (
            Loaded() if self._known_file is None else load(self._known_file, limits.tables)
        )
        """What was read back of the known tables at start (``cafe.known``): said by the
        verb when the file was damaged."""
        self.known: dict[str, str] = dict(self.known_loaded.tables)
        """The tables heard live before (key → when first heard, UTC), first heard first;
        kept in the data folder (``cafe.known``)."""
        self._known_dirty = False
        self.anonymous_writes: bool | None = None
        """Whether the broker lets a client without an account publish and read back
        (``cafe.probe``); None until probed, or when the probe could not tell."""
        client = self._client(settings)
        # paho annotates whole seconds; its wait takes any number of them
        client.reconnect_delay_set(min_delay=RECONNECT_S, max_delay=RECONNECT_S)  # type: ignore[arg-type]
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self.client = client
        self.keeper: mqtt.Client | None = None
        """With a data folder: a second client, with a lasting session named after the folder,
        that takes the results, so the broker keeps those said while the overview is away."""
        if self._results_file is not None:
            digest = hashlib.sha256(str(self._results_file.resolve()).encode()).hexdigest()
            keeper = self._client(settings, f"tablesight-cafe-{digest[:12]}")
            keeper.on_connect = lambda c, *_: c.subscribe(
                [(each, 1) for each in subscriptions(RESULT)]
            )
            keeper.on_message = self._on_message
            self.keeper = keeper
        self._keepalive = settings.keepalive

    def _client(self, settings: MqttSettings, lasting: str | None = None) -> mqtt.Client:
        """A client of the broker (a lasting session under the client id ``lasting``)."""
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=lasting or "",
            clean_session=lasting is None,
            protocol=mqtt.MQTTv311,
        )
        user = settings.username or self.address.username
        if user:
            client.username_pw_set(user, settings.password or self.address.password)
        if self.address.tls:
            client.tls_set(
                ca_certs=str(settings.ca_file) if settings.ca_file else None,
                tls_version=ssl.PROTOCOL_TLS_CLIENT,
            )
        return client

    def start(self) -> None:
        """Connect in the background (reconnecting with back-off while the broker is away)."""
        for client in (self.client, self.keeper):
            if client is not None:
                client.connect_async(self.address.host, self.address.port, self._keepalive)
                client.loop_start()
        self._started = True
        self._stopping.clear()
        self._clock = threading.Thread(target=self._run_clock, name="cafe-clock", daemon=True)
        self._clock.start()

    def stop(self) -> None:
        """Disconnect (idempotent)."""
        self._stopping.set()
        self._started = False
        if self._clock is not None:
            self._clock.join(timeout=5)
            self._clock = None
        for client in (self.client, self.keeper):
            if client is not None:
                client.disconnect()
                client.loop_stop()
        self._save_known()

    # --- the clock: a held "offline" and the grace after a return -------------------------------

    def _run_clock(self) -> None:
        while not self._stopping.wait(0.2):
            try:
                self.tick()
            except Exception:
                log.exception("the overview's clock failed")

    def tick(self, now: float | None = None) -> None:
        """Show what is due: a held "offline" (the broker still there), a table that did not
        speak within the grace after the broker's return."""
        now = time.monotonic() if now is None else now
        self._log_drops(now)
        changed: list[str] = []
        with self._lock:
            due = [n for n, at in self._held.items() if at <= now]
            due += [n for n, at in self._doubt.items() if at <= now]
            for name in due:
                self._held.pop(name, None)
                self._doubt.pop(name, None)
                if name in self.tables:
                    self.tables[name]["online"] = False
                    changed.append(name)
            if self._return is not None and now >= self._return.until:
                self._return = None
        for name in changed:
            self._tell(name)
        self._save_known()

    def _save_known(self) -> None:
        """Write the known tables when they changed (from the clock's thread, and at stop)."""
        with self._lock:
            if not self._known_dirty or self._known_file is None:
                return
            known, self._known_dirty = dict(self.known), False
        try:
            save(self._known_file, known)
        except OSError as exc:
            log.warning("cannot keep the known tables in %s: %s", self._known_file, exc)

    def _know(self, name: str) -> None:
        """A table heard live is known from now on, while fewer than ``limits.tables`` are
        (the caller holds the lock)."""
        if name not in self.known and len(self.known) < self.limits.tables:
            self.known[name] = now_utc()
            self._known_dirty = True

    # --- paho's thread -------------------------------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.warning("the broker %s refused the connection: %s", self.address, reason)
            return
        with self._lock:
            if self._lost_at is not None:  # a return, not the first connection
                back = _Return(
                    until=time.monotonic() + self.grace,
                    lost_at=self._lost_at,
                    uptime_before=self._uptime_before,
                    clean=self._clean_stop,
                )
                self._return = back
                for name, tile in self.tables.items():
                    if tile["online"] is True:
                        self._doubt[name] = back.until
            self._lost_at = None
            self._uptime = None
            doubted = list(self._doubt)
        for game, body in self.boxes.items():  # the café's box, retained for every table
            client.publish(box_topic(game), body, qos=1, retain=True)
        client.subscribe(
            [(UPTIME, 0)]
            + [
                (each, 1)
                for what in (STATE, STATUS) + ((RESULT,) if self.keeper is None else ())
                for each in subscriptions(what)
            ],
        )
        self.connected.set()
        self._tell(None)
        for name in doubted:
            self._tell(name)

    def _on_disconnect(
        self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        with self._lock:
            if self.connected.is_set():  # a link we had, not a failed attempt
                self._lost_at = time.monotonic()
                # the wills a stopping broker published as it went are not the tables' word
                self._clean_stop = bool(self._held)
                self._uptime_before = self._uptime
            touched = set(self._doubt) | set(self._held)
            self._doubt.clear()
            self._held.clear()
            self._return = None
        self.connected.clear()
        self._tell(None)
        for name in sorted(touched):
            self._tell(name)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        """One message from the broker; whatever it holds, nothing raises out of here (an
        exception would end paho's thread, and the overview would hear nothing more)."""
        try:
            self._take(message.topic, message.payload, bool(message.retain))
        except Exception as exc:  # RecursionError and MemoryError included: drop the message
            self._drop(str(message.topic), f"{type(exc).__name__}: {exc}")

    def _take(self, topic_name: str, payload: bytes, retained: bool) -> None:
        try:
            self._read(topic_name, payload, retained)
        finally:
            with self._lock:
                evicted, self._evicted = self._evicted, []
            for name in evicted:
                self._tell(name)

    def _read(self, topic_name: str, payload: bytes, retained: bool) -> None:
        if topic_name == UPTIME:
            self._on_uptime(payload)
            return
        where = where_of(topic_name)
        if where is None:
            return
        check_table_name(where.table)
        if where.site is not None:
            check_site_name(where.site)
        name, what = where.key, where.what
        too_long = len(payload) > self.limits.payload
        if what == STATE:
            try:
                if too_long:
                    raise ValueError(
                        f"{len(payload)} bytes, over the limit of {self.limits.payload}"
                    )
                state = as_json(read_state(payload, where.table)) if payload else None
            except ValueError:
                self._unreadable(name, retained)
                raise
            self._state(name, state, retained)
        elif too_long:
            raise ValueError(f"{len(payload)} bytes, over the limit of {self.limits.payload}")
        elif what == STATUS:
            self._status(name, payload.decode("utf-8"), retained)
        elif what == RESULT and payload:
            self._result(read_result(payload, where.table, where.site))

    def _drop(self, topic_name: str, reason: str) -> None:
        """Count a message that could not be used; logged at most once a minute."""
        with self._lock:
            self.dropped += 1
            self._unlogged += 1
            self._last_drop = f"{topic_name[:120]}: {reason[:200]}"
        self._log_drops()

    def _log_drops(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        with self._lock:
            if not self._unlogged or now - self._drops_logged_at < DROP_LOG_S:
                return
            count, last = self._unlogged, self._last_drop
            self._unlogged, self._drops_logged_at = 0, now
        log.warning(
            "dropped %d message(s) from the broker since the last report (%d in all); the"
            " latest on %s",
            count,
            self.dropped,
            last,
        )

    def _tile(self, name: str, live: bool = False) -> dict[str, Any]:
        """A table's tile, made for a table not seen before if there is room (the caller holds
        the lock). The known tables (``known``) not shown yet keep their places: an unknown
        table gets a tile only while there is room beside them. Beyond, an unknown table heard
        live takes the place of an unknown one that only the broker's retained messages
        brought and that is not online, and a known table that of any unknown one: a known
        table is never given up for an unknown one. Else ValueError."""
        if live:
            self._heard.add(name)
        tile = self.tables.get(name)
        if tile is None:
            waiting = sum(1 for k in self.known if k not in self.tables and k != name)
            if len(self.tables) + waiting + 1 > self.limits.tables:
                gone = self._giving_way(name, live)
                if gone is None:
                    self._heard.discard(name)
                    raise ValueError(f"the overview shows at most {self.limits.tables} tables")
                self._forget(gone)
                self._evicted.append(gone)
            site, _, table = name.rpartition("/")
            tile = {
                "key": name,
                "name": table,
                "site": site or None,
                "online": None,
                "state": None,
                "unreadable": False,
            }
            self.tables[name] = tile
        return tile

    def _giving_way(self, name: str, live: bool) -> str | None:
        """The tile that makes way for ``name`` at the limit, or None (the caller holds the
        lock). For an unknown table heard live: an unknown one that only retained messages
        brought and that is not online. For a known table: any unknown one, those first."""
        if name not in self.known and not live:
            return None
        unknown = [n for n in self.tables if n not in self.known]
        retained = [n for n in unknown if n not in self._heard]
        quiet = [n for n in retained if self.tables[n]["online"] is not True]
        return next(iter(quiet + (retained + unknown if name in self.known else [])), None)

    def _forget(self, name: str) -> None:
        """A tile goes (the caller holds the lock)."""
        del self.tables[name]
        self._doubt.pop(name, None)
        self._held.pop(name, None)
        self._heard.discard(name)

    def _unreadable(self, name: str, retained: bool) -> None:
        """The table's latest state could not be read: its tile says so (what it said before
        is no longer its word)."""
        with self._lock:
            tile = self._tile(name, live=not retained)
            tile["state"] = None
            tile["unreadable"] = True
        self._tell(name)

    def _on_uptime(self, payload: bytes) -> None:
        """The broker's uptime: after a return, one smaller than before, or no longer than the
        outage, says it restarted (a broker up for less than the outage and ``sys_interval``
        is taken as restarted: its tables must speak)."""
        try:
            seconds = int(payload.decode("ascii").split()[0])
        except (ValueError, IndexError, UnicodeDecodeError):
            return
        trusted: list[str] = []
        with self._lock:
            self._uptime = seconds
            back = self._return
            if back is not None and back.restarted is None:
                shorter = back.uptime_before is not None and seconds < back.uptime_before
                back.restarted = shorter or seconds <= time.monotonic() - back.lost_at + 1
                if back.trusts_online():
                    trusted = [n for n in self._doubt if n not in back.kept_offline]
                    for name in trusted:
                        del self._doubt[name]
        for name in trusted:
            self._tell(name)

    def _status(self, name: str, text: str, retained: bool = False) -> None:
        """A table's status: a live one is the table's (or its will's) word now; a retained one
        is what the broker kept, weighed after a return."""
        if text not in (ONLINE, OFFLINE, ""):
            raise ValueError(f"status is {text!r}")
        with self._lock:
            if text == "" and name not in self.tables:
                return
            tile = self._tile(name, live=not retained)
            back = self._return
            if text == "":
                tile["online"] = None
                self._doubt.pop(name, None)
                self._held.pop(name, None)
            elif not retained:
                tile["seen"] = time.time()
                self._doubt.pop(name, None)
                if back is not None:
                    back.spoke.add(name)
                if text == ONLINE:
                    self._know(name)
                    tile["online"] = True
                    self._held.pop(name, None)
                elif tile["online"] is True:  # a stopping broker's will? shown if it stays
                    self._held[name] = time.monotonic() + self.hold
                else:
                    tile["online"] = False
            elif text == ONLINE:
                tile["online"] = True
                if back is not None and name not in back.spoke:
                    if back.trusts_online():
                        self._doubt.pop(name, None)
                    else:
                        self._doubt[name] = back.until
            elif back is not None and tile["online"] is True and name not in back.spoke:
                back.kept_offline.add(name)  # maybe a will the broker published as it stopped
                self._doubt[name] = back.until
            elif back is None or name not in back.spoke:
                tile["online"] = False
            self._forget_if_cleared(name)
        self._tell(name)

    def _state(self, name: str, state: dict[str, Any] | None, retained: bool = False) -> None:
        """A table's state summary: a live one (or, after a return, a retained one of the same
        game further on than before, or sent on a later connection of the table) shows the
        table is there; a live one brings back a tile the grace took for offline. ``state`` is
        checked already (``read_state``)."""
        with self._lock:
            if state is None and name not in self.tables:
                return
            tile = self._tile(name, live=not retained)
            back = self._return
            old = tile["state"]
            further = old is not None and state is not None and _later(state, old)
            if state is not None and (not retained or (back is not None and further)):
                if not retained:  # the table is there (it says "offline" after its last one)
                    self._know(name)
                    tile["seen"] = time.time()
                    tile["online"] = True
                    self._held.pop(name, None)
                if back is not None:
                    back.spoke.add(name)
                self._doubt.pop(name, None)
            tile["state"] = state
            tile["unreadable"] = False
            self._forget_if_cleared(name)
        self._tell(name)

    def _forget_if_cleared(self, name: str) -> None:
        """A table whose retained state and status were both cleared (an empty retained
        message) is gone from the café: its tile goes (the caller holds the lock)."""
        tile = self.tables[name]
        if tile["state"] is None and tile["online"] is None and not tile["unreadable"]:
            self._forget(name)
            if self.known.pop(name, None) is not None:
                self._known_dirty = True

    def _shown(self, name: str) -> dict[str, Any]:
        """One tile as the page gets it: ``checking`` while the table has yet to speak after
        the broker's return (the caller holds the lock)."""
        return {**self.tables[name], "checking": name in self._doubt}

    def _result(self, result: Result) -> None:
        """Keep an ended game's result (checked already) once: the same again is counted
        (``repeats``) and dropped; a new one, or a new word on a game kept (it ended again
        after an undo), is appended to the file."""
        row = result.model_dump_json(exclude_unset=True)
        key = result_key(result)
        with self._lock:
            if self.results.get(key) == row:
                self.repeats += 1
                return
            self.results[key] = row
            self._trim_results()
        if self._results_file is not None:
            try:
                self._results_file.parent.mkdir(parents=True, exist_ok=True)
                with self._results_file.open("a", encoding="utf-8") as out:
                    out.write(row + "\n")
                self._file_rows += 1
                if self._file_rows > 2 * self.limits.results:
                    self._write_results()
            except OSError as exc:
                log.warning("cannot keep the result in %s: %s", self._results_file, exc)

    def _trim_results(self) -> None:
        """Forget the oldest results beyond ``limits.results`` (the caller holds the lock)."""
        for key in list(self.results)[: max(0, len(self.results) - self.limits.results)]:
            del self.results[key]

    def _write_results(self) -> None:
        """Write the file anew with the results kept (atomically: a new file put in place)."""
        assert self._results_file is not None
        with self._lock:
            rows = list(self.results.values())
        part = self._results_file.with_suffix(".part")
        part.write_text("".join(row + "\n" for row in rows), encoding="utf-8")
        part.replace(self._results_file)
        self._file_rows = len(rows)

    def _load_results(self) -> None:
        """Read the kept results back, each row checked as when it was written: a row that
        does not fit (too long, not JSON, not a result) is skipped, and said in one log line;
        the file is then written anew with what was kept."""
        path = self._results_file
        if path is None or not path.is_file():
            return
        rows = skipped = 0
        first_bad = ""
        cap = self.limits.payload + 1
        with path.open(encoding="utf-8", errors="replace") as lines:
            while line := lines.readline(cap):
                rows += 1
                reason = ""
                if not line.endswith("\n") and len(line) >= cap:
                    while (rest := lines.readline(cap)) and not rest.endswith("\n"):
                        pass  # the rest of a line too long to be a result
                    reason = f"longer than {self.limits.payload} bytes"
                elif line.strip():
                    try:
                        result = read_result(line)
                        key = result_key(result)
                        self.results.pop(key, None)  # the latest word on a game, in its place
                        self.results[key] = result.model_dump_json(exclude_unset=True)
                        continue
                    except ValueError as exc:
                        reason = str(exc)
                else:
                    continue
                skipped += 1
                first_bad = first_bad or f"row {rows}: {reason}"
        if skipped:
            log.warning("skipped %d unreadable result(s) in %s (%s)", skipped, path, first_bad)
        self._trim_results()
        self._file_rows = len(self.results)
        if skipped or rows > len(self.results):
            try:
                self._write_results()
            except OSError as exc:
                log.warning("cannot write %s anew: %s", path, exc)

    # --- readers -------------------------------------------------------------------------------

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(table name)`` after each table's change (None: the broker link);
        returns the remover."""
        with self._lock:
            self._listeners.append(listener)

        def remove() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return remove

    def _tell(self, name: str | None) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(name)
            except Exception:
                log.exception("a viewer of the overview failed")

    def tile(self, name: str) -> dict[str, Any] | None:
        """One table's tile: its name, whether it is online and its state summary."""
        with self._lock:
            return None if name not in self.tables else self._shown(name)

    @property
    def broker_uptime(self) -> int | None:
        """The broker's ``$SYS/broker/uptime`` last heard (seconds), None before any."""
        with self._lock:
            return self._uptime

    def snapshot(self, site: str | None = None) -> dict[str, Any]:
        """Every table's tile (by site, then name: table-2 before table-10; the tables with
        no site first), or those of one ``site``, and the broker link."""
        with self._lock:
            keys = sorted(self.tables, key=lambda k: self._order(self.tables[k]))
            tiles = [self._shown(k) for k in keys if site is None or self.tables[k]["site"] == site]
        return {"broker": self.connected.is_set(), "tables": tiles}

    @staticmethod
    def _order(tile: dict[str, Any]) -> tuple[Any, ...]:
        """Where a tile goes: the tables with no site first, then by site, then by name."""
        site = tile["site"]
        return (site is not None, natural_key(site or ""), natural_key(tile["name"]))

    def result_rows(
        self, site: str | None = None, game: str | None = None, player: str | None = None
    ) -> list[Result]:
        """The results kept, by when they ended, oldest first; only those of ``site``, of
        ``game`` (its name or its title in either language, in any case) and with a player
        whose name holds ``player`` (in either language, in any case), when given."""
        with self._lock:
            kept = list(self.results.values())
        rows = sorted((Result.model_validate_json(r) for r in kept), key=lambda r: r.ended)
        if site is not None:
            rows = [r for r in rows if r.site == site]
        if game is not None:
            wanted = game.casefold()
            rows = [
                r for r in rows if wanted in (r.game, r.title.zh.casefold(), r.title.en.casefold())
            ]
        if player is not None:
            part = player.casefold()
            rows = [
                r
                for r in rows
                if any(
                    part in p.name.zh.casefold() or part in p.name.en.casefold() for p in r.players
                )
            ]
        return rows

    def results_json(self, **filters: str | None) -> dict[str, Any]:
        """The results kept (``result_rows``'s filters) as JSON data: each result as the table
        sent it, with ``key`` (what it is kept by) and ``seconds`` (how long the game took,
        null when the table did not say when it began)."""
        rows = self.result_rows(**filters)
        return {
            "results": [{**as_json(r), "key": result_key(r), "seconds": duration(r)} for r in rows]
        }

    def results_csv(self, lang: str, **filters: str | None) -> str:
        """The results of ended games as CSV (a header in ``lang``), oldest first
        (``result_rows``'s filters); a cell that a spreadsheet would take for a formula
        starts with ``'``."""
        rows = self.result_rows(**filters)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(CSV_HEAD[lang])
        for r in rows:
            scored = [
                _in(p.name, lang) if p.score is None else f"{_in(p.name, lang)} {p.score}"
                for p in r.players
            ]
            writer.writerow(
                text_cell(cell)
                for cell in (
                    r.table,
                    _in(r.title, lang),
                    r.save,
                    r.ended,
                    RESULT_WORDS[r.result][lang],
                    "; ".join(_in(w, lang) for w in r.winners),
                    "; ".join(scored),
                    r.moves,
                    r.site or "",
                    r.started or "",
                    clock_time(duration(r)),
                    result_key(r),
                )
            )
        return out.getvalue()

    def kept_bytes(self) -> int:
        """The size of what the overview keeps from the broker, as JSON text: every table's
        state summary and every result (at most ``limits.tables`` + ``limits.results``
        payloads of ``limits.payload`` bytes)."""
        with self._lock:
            states = [t["state"] for t in self.tables.values() if t["state"] is not None]
            results = list(self.results.values())
        size = sum(
            len(json.dumps(s, ensure_ascii=False, separators=(",", ":")).encode()) for s in states
        )
        return size + sum(len(r.encode()) for r in results)

    def offered_boxes(self) -> list[dict[str, Any]]:
        """The café's boxes it offers, for the page: each game's name, title (``zh``, ``en``)
        and how many items are the café's own."""
        shown = []
        for game, body in sorted(self.boxes.items()):
            title = find_game(game).title
            items = read_site_box(body, game).items
            shown.append({"game": game, "title": {"zh": title.zh, "en": title.en}, "items": items})
        return shown

    def subscribing(self) -> bool:
        """Whether the overview's MQTT client is running (paho's network thread alive), as
        it must be between ``start()`` and ``stop()``."""
        # paho clears its thread's handle when the thread ends, whatever ended it
        return self._started and getattr(self.client, "_thread", None) is not None


def result_key(result: Result) -> str:
    """What a result is kept by: its id; for a table older than ids, its site, table and
    save."""
    return result.id or f"{result.site or ''}/{result.table}/{result.save}"


def duration(result: Result) -> int | None:
    """How long the game took, in whole seconds (from when the table first saw its save to
    when it ended); None when the table did not say when it began, or said it oddly."""
    if result.started is None:
        return None
    try:
        began = datetime.fromisoformat(result.started)
        ended = datetime.fromisoformat(result.ended)
        seconds = (ended - began).total_seconds()
    except (ValueError, TypeError):
        return None
    return int(seconds) if seconds >= 0 else None


def clock_time(seconds: int | None) -> str:
    """``H:MM:SS`` (a spreadsheet reads it as a time), or nothing."""
    if seconds is None:
        return ""
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def text_cell(value: object) -> str:
    """A CSV cell as text; one that starts like a formula (``=``, ``+``, ``-``, ``@``, a tab,
    a carriage return) gets a ``'`` first, so a spreadsheet shows it as text."""
    text = str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


CSV_HEAD = {
    "zh": [
        "桌",
        "游戏",
        "存档",
        "结束时间(UTC)",
        "结果",
        "获胜者",
        "玩家与分数",
        "步数",
        "店",
        "开始时间(UTC)",
        "用时",
        "结果编号",
    ],
    "en": [
        "table",
        "game",
        "save",
        "ended (UTC)",
        "result",
        "winners",
        "players and scores",
        "moves",
        "site",
        "started (UTC)",
        "duration",
        "result id",
    ],
}
RESULT_WORDS = {
    "win": {"zh": "胜", "en": "won"},
    "shared_win": {"zh": "共同获胜", "en": "shared win"},
    "loss": {"zh": "失败", "en": "lost"},
    "finished": {"zh": "结束", "en": "finished"},
}


def _in(text: Text, lang: str) -> str:
    """A text given in both languages, in ``lang``."""
    return text.zh if lang == "zh" else text.en


def create_app(overview: Overview, lang: str) -> FastAPI:
    """The overview's web app: the page, its data, its live stream and the results."""
    app = FastAPI(title="tablesight café", docs_url=None, redoc_url=None, openapi_url=None)

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        for key, value in SECURITY_HEADERS.items():
            response.headers.setdefault(key, value)
        return response

    def language(value: str | None) -> str:
        if value is None:
            return lang
        if value not in ("zh", "en"):
            raise HTTPException(400, f"lang must be zh or en, not {value!r}")
        return value

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def page(request: Request, lang: str | None = None) -> Response:
        """The overview page."""
        return TEMPLATES.TemplateResponse(
            request,
            "cafe.html",
            {"lang": language(lang), "boxes": json.dumps(overview.offered_boxes())},
            media_type="text/html; charset=utf-8",
        )

    def filters(site: str | None, game: str | None, player: str | None) -> dict[str, str | None]:
        """The results' filters from the query; an empty one is no filter."""
        if site:
            try:
                check_site_name(site)
            except ValueError as exc:
                raise HTTPException(400, f"site: {exc}") from None
        if len(player or "") > 100 or len(game or "") > 100:
            raise HTTPException(400, "game and player are at most 100 characters")
        return {"site": site or None, "game": game or None, "player": player or None}

    @app.get("/api/tables")
    def tables(site: str | None = None) -> JSONResponse:
        """Every table's tile (``?site=``: one site's)."""
        return JSONResponse(overview.snapshot(filters(site, None, None)["site"]))

    @app.get("/api/live")
    async def live(request: Request) -> StreamingResponse:
        """``snapshot`` (every tile) at each (re)connect, then ``table`` (one tile) per change,
        ``gone`` when a table was cleared from the broker, ``broker`` when the link to the
        broker changes."""
        loop = asyncio.get_running_loop()
        wake = asyncio.Event()
        pending: set[str | None] = set()

        def on_change(name: str | None) -> None:
            def mark() -> None:
                pending.add(name)
                wake.set()

            if not loop.is_closed():
                loop.call_soon_threadsafe(mark)

        async def stream() -> AsyncIterator[bytes]:
            remove = overview.listen(on_change)
            try:
                yield f"retry: {RETRY_MS}\n\n".encode() + sse("snapshot", overview.snapshot())
                while True:
                    try:
                        await asyncio.wait_for(wake.wait(), KEEPALIVE_S)
                    except TimeoutError:
                        yield b": keepalive\n\n"
                        continue
                    wake.clear()
                    names = list(pending)
                    pending.clear()
                    chunks = []
                    for name in names:
                        if name is None:
                            chunks.append(sse("broker", {"broker": overview.connected.is_set()}))
                        elif (tile := overview.tile(name)) is not None:
                            chunks.append(sse("table", tile))
                        else:
                            chunks.append(sse("gone", {"name": name}))
                    yield b"".join(chunks)
            finally:
                remove()

        return StreamingResponse(
            stream(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    @app.get("/results.csv")
    def results(
        lang: str | None = None,
        site: str | None = None,
        game: str | None = None,
        player: str | None = None,
    ) -> Response:
        """The results of ended games, as CSV (UTF-8 with a byte-order mark for spreadsheets);
        ``?site=``, ``?game=``, ``?player=`` keep one site's, one game's, one player's."""
        kept = filters(site, game, player)
        body = "\ufeff" + overview.results_csv(language(lang), **kept)
        return Response(
            body.encode("utf-8"),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": 'attachment; filename="cafe-results.csv"'},
        )

    @app.get("/results.json")
    def results_json(
        site: str | None = None, game: str | None = None, player: str | None = None
    ) -> JSONResponse:
        """The results of ended games as JSON, with the same filters as the CSV."""
        return JSONResponse(overview.results_json(**filters(site, game, player)))

    @app.get("/healthz")
    def healthz() -> JSONResponse:
        """Whether the overview is up and listening (503 when its MQTT client died), whether
        it has the broker, its tables, the messages it dropped and the bytes it keeps."""
        alive = overview.subscribing()
        body = {
            "status": "ok" if alive else "failing",
            "subscriber": alive,
            "broker": overview.connected.is_set(),
            "tables": len(overview.snapshot()["tables"]),
            "known": len(overview.known),
            "anonymous_writes": overview.anonymous_writes,
            "dropped": overview.dropped,
            "kept_bytes": overview.kept_bytes(),
        }
        return JSONResponse(body, status_code=200 if alive else 503)

    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    return app


def sse(kind: str, data: dict[str, Any]) -> bytes:
    """One server-sent event."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"event: {kind}\ndata: {body}\n\n".encode()
