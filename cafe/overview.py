"""The café's overview: every table's state from the broker, served as one live page.

An MQTT client (paho's thread) keeps the latest ``state``, ``status`` and ``result`` of every
table under ``tablesight/+/``; the page gets a snapshot of all tiles and then each table's
tile as it changes, over server-sent events. Results of ended games are kept (and appended to
``cafe-results.jsonl`` in the data folder, so a restart keeps them) for the CSV download.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import logging
import re
import ssl
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from paho.mqtt.enums import CallbackAPIVersion

from kiosk.mqtt.topics import (
    OFFLINE,
    ONLINE,
    RESULT,
    ROOT,
    STATE,
    STATUS,
    BrokerAddress,
    check_table_name,
    parse_broker_url,
    table_of,
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

Listener = Callable[[str | None], None]


def natural_key(name: str) -> tuple[Any, ...]:
    """Sort ``table-2`` before ``table-10``."""
    return tuple(int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", name))


class Overview:
    """The latest word of every table on the broker; safe to read from any thread."""

    def __init__(self, settings: MqttSettings, data_dir: Path | None = None) -> None:
        if not settings.url:
            raise ValueError("no broker address")
        self.address: BrokerAddress = parse_broker_url(settings.url)
        self.tables: dict[str, dict[str, Any]] = {}
        self.results: dict[tuple[str, str], dict[str, Any]] = {}
        self.connected = threading.Event()
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []
        self._results_file = None if data_dir is None else data_dir / RESULTS_FILE
        self._load_results()
        client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
        user = settings.username or self.address.username
        if user:
            client.username_pw_set(user, settings.password or self.address.password)
        if self.address.tls:
            client.tls_set(
                ca_certs=str(settings.ca_file) if settings.ca_file else None,
                tls_version=ssl.PROTOCOL_TLS_CLIENT,
            )
        client.reconnect_delay_set(min_delay=1, max_delay=16)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self.client = client
        self._keepalive = settings.keepalive

    def start(self) -> None:
        """Connect in the background (reconnecting with back-off while the broker is away)."""
        self.client.connect_async(self.address.host, self.address.port, self._keepalive)
        self.client.loop_start()

    def stop(self) -> None:
        """Disconnect (idempotent)."""
        self.client.disconnect()
        self.client.loop_stop()

    # --- paho's thread -------------------------------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.warning("the broker %s refused the connection: %s", self.address, reason)
            return
        client.subscribe(
            [(f"{ROOT}/+/{what}", 1) for what in (STATE, STATUS, RESULT)],
        )
        self.connected.set()
        self._tell(None)

    def _on_disconnect(
        self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        self.connected.clear()
        self._tell(None)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        where = table_of(message.topic)
        if where is None:
            return
        name, what = where
        try:
            check_table_name(name)
            text = message.payload.decode("utf-8")
            if what == STATUS:
                self._status(name, text)
            elif what == STATE:
                self._state(name, json.loads(text) if text else None)
            elif what == RESULT and text:
                self._result(name, json.loads(text))
        except (ValueError, UnicodeDecodeError, TypeError, KeyError) as exc:
            log.warning("ignored a message on %s: %s", message.topic, exc)

    def _status(self, name: str, text: str) -> None:
        if text not in (ONLINE, OFFLINE, ""):
            raise ValueError(f"status is {text!r}")
        with self._lock:
            tile = self.tables.setdefault(name, {"name": name, "online": None, "state": None})
            tile["online"] = None if text == "" else text == ONLINE
            tile["seen"] = time.time()
            self._forget_if_cleared(name)
        self._tell(name)

    def _state(self, name: str, state: dict[str, Any] | None) -> None:
        if state is not None and not isinstance(state, dict):
            raise ValueError("state is not an object")
        with self._lock:
            tile = self.tables.setdefault(name, {"name": name, "online": None, "state": None})
            tile["state"] = state
            tile["seen"] = time.time()
            self._forget_if_cleared(name)
        self._tell(name)

    def _forget_if_cleared(self, name: str) -> None:
        """A table whose retained state and status were both cleared (an empty retained
        message) is gone from the café: its tile goes (the caller holds the lock)."""
        tile = self.tables[name]
        if tile["state"] is None and tile["online"] is None:
            del self.tables[name]

    def _result(self, name: str, result: dict[str, Any]) -> None:
        key = (name, str(result["save"]))
        with self._lock:
            known = key in self.results
            self.results[key] = result
        if not known and self._results_file is not None:
            try:
                self._results_file.parent.mkdir(parents=True, exist_ok=True)
                with self._results_file.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(result, ensure_ascii=False) + "\n")
            except OSError as exc:
                log.warning("cannot keep the result in %s: %s", self._results_file, exc)

    def _load_results(self) -> None:
        if self._results_file is None or not self._results_file.is_file():
            return
        for line in self._results_file.read_text(encoding="utf-8").splitlines():
            try:
                result = json.loads(line)
                self.results[(str(result["table"]), str(result["save"]))] = result
            except (ValueError, KeyError, TypeError):
                continue

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
            tile = self.tables.get(name)
            return None if tile is None else dict(tile)

    def snapshot(self) -> dict[str, Any]:
        """Every table's tile (by name, table-2 before table-10) and the broker link."""
        with self._lock:
            tiles = [dict(self.tables[n]) for n in sorted(self.tables, key=natural_key)]
        return {"broker": self.connected.is_set(), "tables": tiles}

    def results_csv(self, lang: str) -> str:
        """The results of ended games as CSV (a header in ``lang``), oldest first."""
        with self._lock:
            rows = sorted(self.results.values(), key=lambda r: str(r.get("ended", "")))
        head = CSV_HEAD[lang]
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(head)
        for r in rows:
            winners = [_in(w, lang) for w in r.get("winners") or []]
            players = [
                f"{_in(p.get('name'), lang)} {p['score']}"
                if p.get("score") is not None
                else _in(p.get("name"), lang)
                for p in r.get("players") or []
            ]
            writer.writerow(
                [
                    r.get("table", ""),
                    _in(r.get("title"), lang),
                    r.get("save", ""),
                    r.get("ended", ""),
                    RESULT_WORDS.get(str(r.get("result")), {}).get(lang, r.get("result", "")),
                    "; ".join(winners),
                    "; ".join(players),
                    r.get("moves", ""),
                ]
            )
        return out.getvalue()


CSV_HEAD = {
    "zh": ["桌", "游戏", "存档", "结束时间(UTC)", "结果", "获胜者", "玩家与分数", "步数"],
    "en": [
        "table",
        "game",
        "save",
        "ended (UTC)",
        "result",
        "winners",
        "players and scores",
        "moves",
    ],
}
RESULT_WORDS = {
    "win": {"zh": "胜", "en": "won"},
    "shared_win": {"zh": "共同获胜", "en": "shared win"},
    "loss": {"zh": "失败", "en": "lost"},
    "finished": {"zh": "结束", "en": "finished"},
}


def _in(text: Any, lang: str) -> str:
    """A text given in both languages (``{"zh", "en"}``), in ``lang``."""
    if isinstance(text, dict):
        return str(text.get(lang) or text.get("en") or "")
    return "" if text is None else str(text)


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
            {"lang": language(lang)},
            media_type="text/html; charset=utf-8",
        )

    @app.get("/api/tables")
    def tables() -> JSONResponse:
        """Every table's tile."""
        return JSONResponse(overview.snapshot())

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
    def results(lang: str | None = None) -> Response:
        """The results of ended games, as CSV (UTF-8 with a byte-order mark for spreadsheets)."""
        body = "\ufeff" + overview.results_csv(language(lang))
        return Response(
            body.encode("utf-8"),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": 'attachment; filename="cafe-results.csv"'},
        )

    @app.get("/healthz")
    def healthz() -> dict[str, Any]:
        """Whether the overview is up, and whether it has the broker."""
        return {"status": "ok", "broker": overview.connected.is_set()}

    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    return app


def sse(kind: str, data: dict[str, Any]) -> bytes:
    """One server-sent event."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"event: {kind}\ndata: {body}\n\n".encode()
