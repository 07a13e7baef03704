"""The kiosk's door: who may connect, to which name, from which page, and how much at once.

The kiosk serves its own screen (this machine, over loopback) and, with ``--lan``, the phones at
the table. A crowded or hostile network must never make it unanswerable for those two, so:

- ``Door`` counts the open connections. Connections from devices that are neither this machine
  nor a paired phone are *anonymous*; beyond ``http.max_connections`` of them, each new one is
  answered 503 with a message and closed. Beyond the file-descriptor budget (``max_total``,
  from ``RLIMIT_NOFILE``) every new connection is closed at once, so the process never runs out
  of descriptors (1,100 idle connections used to make ``/healthz`` time out); the last
  ``LOCAL_RESERVE`` of that budget are for this machine and paired phones only.
- ``guarded_protocol`` is uvicorn's h11 protocol with that cap and a request timeout: a request's
  head and body must arrive within ``http.header_timeout_s`` (uvicorn has no such timeout: a
  half-sent request line was held for ever), else 408 and the connection is closed.
- ``Guard`` wraps the whole ASGI app (outside FastAPI's own error and body-size layers, so that
  every answer, a 413 or a 500 included, carries ``SECURITY_HEADERS``). It checks each request's
  ``Host`` against the names the kiosk answers to (``HostNames``: a DNS-rebinding page has a
  foreign name) and each state-changing request's ``Origin``, scheme, name and port (a page of
  another site may not post to the kiosk). A header that decides (``Host``, and ``Origin`` on a
  change) must come once: two of them are refused, whichever one a layer would have read. A
  change without ``Host`` (HTTP/1.0 allows it) is refused too: there is no name to check.
- ``Busy`` limits the expensive routes (camera reading, sheets): a few at a time, then 503.
- ``OncePerCause`` keeps the log readable under a flood: one record per cause and minute, then
  how many more there were.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import math
import resource
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import urlsplit

import h11
from fastapi import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from engine.core import Text
from engine.core.text import Language
from kiosk.pairing import PAIRING_HEADER, Pairing, TooManyTriesError

if TYPE_CHECKING:
    from kiosk.settings import Settings

log = logging.getLogger("tablesight.kiosk")


CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:;"
    " connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none';"
    " form-action 'self'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
FD_RESERVE = 64
"""File descriptors kept for the service itself (the database, the serial link, the camera)."""
FD_WANTED = 65536
"""The soft ``RLIMIT_NOFILE`` asked for at start (up to the hard limit)."""
LOCAL_RESERVE = 16
"""Connections of the descriptor budget kept for this machine and paired phones."""
BUSY_RETRY_S = 2
VIEWERS_RETRY_S = 30
CONNECTIONS_RETRY_S = 10

BUSY = Text(
    "看板正忙于其他{what_zh};请稍后再试",
    "the kiosk is busy with other {what}; try again in a moment",
)
NO_HOST = Text("请求缺少 Host 请求头", "a request needs a Host header")
TWO_HOSTS = Text("请求只能有一个 Host 请求头", "a request may have only one Host header")
TWO_ORIGINS = Text(
    "改变桌面的请求只能有一个 Origin 请求头",
    "a request that changes the table may have only one Origin header",
)
UNKNOWN_NAME = Text(
    "看板不接受名称 {name};请用它的地址打开(或把该名称加入 http.hosts 设置)",
    "this kiosk does not answer to the name {name}; open it by its address (or add the name to"
    " the http.hosts setting)",
)
OTHER_SITE = Text(
    "其他网站的页面({origin})不能改变桌面;请使用看板自己的页面",
    "a page of another site ({origin}) may not change the table; use the kiosk's own pages",
)
TOO_MANY_CONNECTIONS = Text(
    "看板打开的连接太多;请稍后再试",
    "the kiosk has too many connections open; try again in a moment",
)
TOO_MANY_VISITORS = Text(
    "看板现在访客太多;请稍后再试",
    "the kiosk has too many visitors right now; try again in a moment",
)
TOO_MANY_VIEWERS = Text(
    "桌面已有 {count} 位来自网络的观看者;请稍后再试",
    "the table already has {count} viewers from the network; try again in a moment",
)
NOT_HTTP = Text("这不是 HTTP 请求", "not an HTTP request")
TOO_SLOW = Text(
    "请求未在 {seconds} 秒内完整到达", "the request did not arrive whole within {seconds} s"
)


# --- answers written by the door itself ------------------------------------------------------


def raw_answer(status: int, detail: str, retry_after: int | None = None) -> bytes:
    """A complete HTTP/1.1 answer that closes the connection (JSON ``detail``, the security
    headers), for the door to write before or instead of the app."""
    body = json.dumps({"detail": detail}).encode()
    lines = [f"HTTP/1.1 {status} {_reason(status)}", "content-type: application/json"]
    lines += [f"content-length: {len(body)}", "connection: close"]
    if retry_after is not None:
        lines.append(f"retry-after: {retry_after}")
    lines += [f"{k.lower()}: {v}" for k, v in SECURITY_HEADERS.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def _reason(status: int) -> str:
    from http import HTTPStatus

    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


async def send_json(
    send: Send, status: int, detail: str, *, retry_after: int | None = None, close: bool = False
) -> None:
    """Answer ``{"detail": detail}`` with ``status`` and the security headers through ASGI."""
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    headers += [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


# --- names and origins ---------------------------------------------------------------------------


def split_host(value: str) -> tuple[str, int | None]:
    """``Host`` (or an origin's netloc) as a lower-case name without brackets or trailing dot,
    and its port (None when absent); ``("", None)`` for something that is not a host."""
    value = value.strip().lower()
    if value.startswith("["):
        name, _, rest = value[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
        if rest and not rest.startswith(":"):
            return "", None
    else:
        name, _, port_text = value.partition(":")
    try:
        port = int(port_text) if port_text else None
    except ValueError:
        return "", None
    if port is not None and not 0 < port < 65536:
        return "", None
    return name.rstrip("."), port


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` (a peer's address) is this machine's loopback."""
    try:
        return ipaddress.ip_address(host or "").is_loopback
    except ValueError:
        return False


@lru_cache(maxsize=256)
def _is_own_address(address: str, minute: int) -> bool:
    """Whether ``address`` is one of this machine's addresses (a socket can be bound to it);
    cached per minute, so that a new DHCP lease is seen."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((address, 0))
    except OSError:
        return False
    return True


class HostNames:
    """The names the kiosk answers to: ``localhost``, ``127.0.0.1``, ``[::1]``, the address it
    is bound to, ``http.hosts``, and with ``--lan`` the machine's name (also with ``.local``)
    and any of its addresses. A page served under another name (DNS rebinding) is refused."""

    def __init__(self, settings: Settings) -> None:
        self.lan = settings.lan
        extra = {split_host(h)[0] or h.strip().lower() for h in settings.http.hosts}
        self.any = "*" in extra
        names = {"localhost", "127.0.0.1", "::1", *extra}
        bind = split_host(settings.bind_host)[0]
        if bind and bind not in ("0.0.0.0", "::"):
            names.add(bind)
        if self.lan:
            # The machine's name as set (no DNS lookup: an offline Pi must start at once); a
            # fully qualified name can be added to http.hosts.
            name = socket.gethostname().lower().rstrip(".")
            if name:
                names.update({name, name.split(".")[0], f"{name.split('.')[0]}.local"})
        self.names = frozenset(n for n in names if n != "*")

    def allows(self, host: str) -> bool:
        """Whether a request naming ``host`` (no port) is for this kiosk."""
        if self.any or host in self.names:
            return True
        if not self.lan:
            return False
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return _is_own_address(str(address), int(time.monotonic() // 60))


class Guard:
    """The outermost ASGI layer: Host and Origin checks, and the security headers on every
    answer (those of FastAPI's body limit and error handler included)."""

    def __init__(self, app: ASGIApp, door: Door) -> None:
        self.app, self.door = app, door

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the request, then pass it on with headers added to the answer."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers: dict[str, str] = {}
        repeated: set[str] = set()
        for key, value in scope["headers"]:
            name = key.decode("latin-1").lower()
            if name in headers:
                repeated.add(name)
            headers[name] = value.decode("latin-1")
        problem = self.door.refusal(scope, headers, repeated)
        if problem is not None:
            status, detail, cause = problem
            self.door.refused(cause)
            await send_json(send, status, detail)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", ())}
                extra = [
                    (k.lower().encode(), v.encode())
                    for k, v in SECURITY_HEADERS.items()
                    if k.lower().encode() not in present
                ]
                if extra:
                    message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


# --- limits --------------------------------------------------------------------------------------


class Busy:
    """At most ``slots`` expensive answers at a time; a request waits ``wait_s`` for a slot,
    then is answered 503 with Retry-After (the kiosk's own screen and ``/healthz`` stay fast)."""

    WHAT_ZH: ClassVar[dict[str, str]] = {
        "camera readings": "摄像头读取",
        "pictures": "画面",
        "sticker sheets": "贴纸页",
    }

    def __init__(
        self, slots: int, wait_s: float = 1.0, lang: Callable[[], Language] = lambda: "en"
    ):
        self.slots, self.wait_s, self.lang = slots, wait_s, lang
        self._semaphore = threading.BoundedSemaphore(slots)

    @contextmanager
    def slot(self, what: str) -> Iterator[None]:
        """Hold a slot while drawing ``what`` (``WHAT_ZH`` names it in Chinese); raises
        HTTPException 503 when none frees up."""
        if not self._semaphore.acquire(timeout=self.wait_s):
            log.warning("busy: refusing %s beyond %d at a time (503)", what, self.slots)
            text = BUSY.format(what=what, what_zh=self.WHAT_ZH.get(what, what))
            raise HTTPException(
                503, text.in_(self.lang()), headers={"Retry-After": str(BUSY_RETRY_S)}
            )
        try:
            yield
        finally:
            self._semaphore.release()


def raise_fd_limit(wanted: int = FD_WANTED) -> int:
    """Raise the soft ``RLIMIT_NOFILE`` towards the hard limit (systemd's ``LimitNOFILE``);
    returns the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


class Door:
    """Counts connections and live viewers and decides who is let in (see the module's text).

    One per app (``app.state.door``); the protocol class from ``guarded_protocol`` and the live
    route report to it. Everything runs on the event loop's thread, so plain counters suffice.
    """

    def __init__(self, settings: Settings, pairing: Pairing) -> None:
        self.settings, self.pairing = settings, pairing
        self.http = settings.http
        self.hosts = HostNames(settings)
        self.heavy = Busy(settings.http.heavy_requests, lang=lambda: settings.lang)
        self.anonymous = 0
        """Open connections from devices neither local nor paired."""
        self.viewers = 0
        """Live streams open to devices neither local nor paired."""
        self.max_total = 1 << 30
        self.backlog = 2048
        """Connections of any kind beyond which new ones are closed at once (set by
        ``budget_descriptors`` from the file-descriptor limit)."""

    def budget_descriptors(self) -> int:
        """Raise the descriptor limit and derive ``max_total`` from it: each connection may
        hold a second descriptor (a static file), and ``FD_RESERVE`` stay for the service.

        The listening backlog is sized from what is left: asyncio accepts up to ``backlog``
        connections in one go before any of them is closed, so a burst must fit beside the
        connections held (else "Too many open files" at accept)."""
        limit = raise_fd_limit()
        self.max_total = max(8, (limit - FD_RESERVE) // 2)
        self.backlog = min(2048, max(16, (limit - self.max_total - FD_RESERVE) // 2))
        return limit

    def uvicorn_options(self) -> dict[str, Any]:
        """uvicorn's settings for this door: the guarded protocol, the keep-alive, the largest
        request head (16 KiB), no proxy headers (nothing stands before the kiosk: a loopback
        client must not pass for another) and no ``server`` header. The descriptor budget is
        taken now. uvicorn's own ``limit_concurrency`` is not used: it would refuse the
        kiosk's own screen as readily as a stranger."""
        self.budget_descriptors()
        return {
            "http": guarded_protocol(self),
            "timeout_keep_alive": self.http.keep_alive_s,
            "backlog": self.backlog,
            "h11_max_incomplete_event_size": 16 * 1024,
            "proxy_headers": False,
            "server_header": False,
        }

    def say(self, text: Text) -> str:
        """``text`` in the kiosk's language."""
        return text.in_(self.settings.lang)

    def privileged(self, client: str | None) -> bool:
        """This machine, or a phone that sent the right pairing code."""
        return is_loopback(client) or (client is not None and self.pairing.is_paired(client))

    def refusal(
        self,
        scope: Scope,
        headers: dict[str, str],
        repeated: frozenset[str] | set[str] = frozenset(),
    ) -> tuple[int, str, str] | None:
        """Why a request is refused (status, message, the cause for the log), or None: no Host
        or more than one, or a Host the kiosk does not answer to; on a state-changing request,
        an Origin of another site (another scheme, name or port) or more than one Origin.
        ``repeated`` names the headers sent more than once (``headers`` keeps the last)."""
        changes = scope["method"] not in SAFE_METHODS
        host_header = headers.get("host")
        if "host" in repeated:
            return 400, self.say(TWO_HOSTS), "more than one Host header (400)"
        if host_header is None:
            if scope.get("http_version") == "1.0" and not changes:
                return None  # HTTP/1.0 may leave Host out to read; a change needs a name to check
            return 400, self.say(NO_HOST), "no Host header (400)"
        host, port = split_host(host_header)
        if not host or not self.hosts.allows(host):
            return (
                400,
                self.say(UNKNOWN_NAME.format(name=repr(host_header[:80]))),
                "a Host the kiosk does not answer to (400)",
            )
        if not changes:
            return None
        if "origin" in repeated:  # a browser sends one; which one counts is the attacker's pick
            return 403, self.say(TWO_ORIGINS), "more than one Origin header (403)"
        origin = headers.get("origin")
        if origin is None:
            site = headers.get("sec-fetch-site")
            if site is not None and site not in ("same-origin", "none"):
                return (
                    403,
                    self.say(OTHER_SITE.format(origin=headers.get("sec-fetch-site"))),
                    "a cross-site request (403)",
                )
            return None
        if not self._same_origin(origin, host, port, scope):
            return (
                403,
                self.say(OTHER_SITE.format(origin=origin[:80])),
                "an Origin of another site (403)",
            )
        return None

    def _same_origin(self, origin: str, host: str, port: int | None, scope: Scope) -> bool:
        try:
            parts = urlsplit(origin)
        except ValueError:  # "http://[": not a URL at all
            return False
        scheme = scope.get("scheme", "http")
        if parts.scheme != scheme or not parts.netloc:
            return False  # another scheme, "null" (a sandboxed frame, a file), something else
        name, origin_port = split_host(parts.netloc)
        default = 443 if scheme == "https" else 80
        server = scope.get("server") or (None, None)
        request_port = port or server[1] or default
        return name == host and (origin_port or default) == request_port

    def refused(self, cause: str) -> None:
        """Log a refusal; ``cause`` is a fixed phrase, so that ``OncePerCause`` keeps one line
        per cause and minute."""
        log.warning("refused: " + cause.replace("%", "%%"))

    def viewer(self, client: str | None) -> bool:
        """Whether a new live stream may open for ``client`` (counted when it does)."""
        if self.privileged(client):
            return True
        return self.viewers < self.http.max_viewers


def guarded_protocol(door: Door) -> type[H11Protocol]:
    """uvicorn's h11 protocol with ``door``'s connection cap and a request timeout (pass the
    class as ``uvicorn.run(http=…)``)."""

    class GuardedH11Protocol(H11Protocol):
        """One connection, counted by the door, timed until its request has arrived."""

        _anonymous = False
        _timer: asyncio.TimerHandle | None = None
        _started = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            host = self.client[0] if self.client else None
            self._anonymous = anonymous = not door.privileged(host)
            room = door.max_total - (LOCAL_RESERVE if anonymous else 0)
            if len(self.connections) > room:
                self._anonymous = False
                door.refused("connections beyond the descriptor budget (closed at once)")
                transport.write(
                    raw_answer(
                        503,
                        door.say(TOO_MANY_CONNECTIONS),
                        CONNECTIONS_RETRY_S,
                    )
                )
                transport.close()
                return
            if anonymous:
                door.anonymous += 1
                if door.anonymous > door.http.max_connections:
                    self.app = _over_capacity(self.app, door, host)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._anonymous:
                door.anonymous -= 1
                self._anonymous = False
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if not self._waiting():
                self._disarm()  # the request is in: the answer may take its time

        def on_response_complete(self) -> None:
            super().on_response_complete()  # may take in a request already received
            if not self.transport.is_closing() and self._waiting():
                self._arm()  # the next request on this connection has the same time

        def _waiting(self) -> bool:
            """Whether (the rest of) a request is still to come."""
            return self.conn.their_state in (h11.IDLE, h11.SEND_BODY)

        def send_400_response(self, msg: str) -> None:
            """uvicorn's answer to a request it cannot parse, with the security headers."""
            door.refused("a request that is not HTTP (400)")
            self.transport.write(raw_answer(400, door.say(NOT_HTTP)))
            self.transport.close()

        def _arm(self) -> None:
            self._disarm()
            self._started = False
            self._timer = self.loop.call_later(door.http.header_timeout_s, self._timed_out)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _timed_out(self) -> None:
            self._timer = None
            if self.transport.is_closing():
                return
            waiting = self.cycle is None or self.cycle.response_complete
            if waiting or not self.cycle.response_started:
                door.refused("a request not sent whole in time (408)")
                seconds = f"{door.http.header_timeout_s:g}"
                self.transport.write(raw_answer(408, door.say(TOO_SLOW.format(seconds=seconds))))
            if self.cycle is not None and not self.cycle.response_complete:
                self.cycle.disconnected = True
                self.cycle.message_event.set()
            self.transport.close()

    return GuardedH11Protocol


def _over_capacity(app: ASGIApp, door: Door, client: str | None) -> ASGIApp:
    """The app for a connection that came beyond the anonymous cap: 503, except for a request
    that carries the right pairing code (a phone pairing during a flood), which is counted as a
    pairing attempt like any other."""
    header = PAIRING_HEADER.lower().encode()

    async def over(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            offered = next((v.decode() for k, v in scope["headers"] if k == header), None)
            try:
                paired = offered is not None and door.pairing.check(offered, client or "")
            except TooManyTriesError:
                paired = False
            if paired or door.privileged(client):
                await app(scope, receive, send)
                return
            door.refused(f"connections from the network beyond {door.http.max_connections} (503)")
            await send_json(
                send,
                503,
                door.say(TOO_MANY_VISITORS),
                retry_after=CONNECTIONS_RETRY_S,
                close=True,
            )
            return
        await app(scope, receive, send)

    return over


# --- the log under a flood ----------------------------------------------------------------------


def _cause(record: logging.LogRecord) -> tuple[Any, ...]:
    exc = record.exc_info[1] if record.exc_info else None
    detail: Any = None
    if isinstance(exc, OSError) and exc.errno is not None:
        detail = exc.errno  # "Too many open files: '/x'" is one cause whatever the file
    elif exc is not None:
        detail = str(exc)[:120]
    return (record.name, str(record.msg), type(exc).__name__ if exc else None, detail)


class OncePerCause(logging.Filter):
    """Let through one record per cause (logger, message, exception type and errno or text) per
    ``window_s``; the next one after the window says how many were left out, without a
    traceback. A flood of identical errors then costs a line a minute, not megabytes."""

    MAX_CAUSES = 1024

    def __init__(self, window_s: float = 60.0, clock: Callable[[], float] = time.monotonic):
        super().__init__()
        self.window_s, self.clock = window_s, clock
        self._seen: dict[tuple[Any, ...], list[float]] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` is logged (it may be given a count of those left out)."""
        key = _cause(record)
        now = self.clock()
        with self._lock:
            entry = self._seen.get(key)
            if entry is not None and now - entry[0] < self.window_s:
                entry[1] += 1
                return False
            if len(self._seen) >= self.MAX_CAUSES:
                self._seen.clear()
            self._seen[key] = [now, 0]
        if entry is not None:
            if entry[1]:
                minutes = math.ceil((now - entry[0]) / 60)
                record.msg = f"{record.msg} (again; {int(entry[1])} more like it left out of the"
                record.msg += f" log in the last {minutes} min)"
            record.exc_info, record.exc_text = None, None  # the first one had the traceback
        return True


LOGGERS = ("tablesight", "tablesight.kiosk", "tablesight.run", "uvicorn.error", "asyncio")


def quiet_floods(window_s: float = 60.0) -> None:
    """Put ``OncePerCause`` on the loggers a flood of requests can fill (once per process)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, OncePerCause) for f in logger.filters):
            logger.addFilter(OncePerCause(window_s))
