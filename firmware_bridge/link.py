"""The host's serial link to the LED controller: framing, acknowledgement, heartbeat, reconnect.

A :class:`Link` opens its port by URL with pyserial's ``serial_for_url`` (a device path such as
``/dev/serial/by-id/usb-MicroPython_Board_…``, or ``loop://``, ``socket://``, ``spy://``), and
keeps it working on its own: a supervisor thread opens the port, handshakes, sends heartbeats,
notices a controller reset or an unplugged cable, and reopens the port with backoff; a reader
thread decodes every byte that arrives, so a sender waiting for its acknowledgement never blocks
any other traffic. The kiosk watches :attr:`Link.status`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from glob import escape as glob_escape
from glob import glob
from typing import Any

import serial

from firmware_bridge.errors import (
    CommandRefused,
    CommandTimeout,
    IncompatibleDevice,
    NotConnected,
    PayloadError,
)
from firmware_bridge.firmware import protocol as P

log = logging.getLogger(__name__)

SerialFactory = Callable[..., Any]

try:  # pyserial lets termios.error (not an OSError) through when a port vanishes mid-open
    from termios import error as _TermiosError
except ImportError:  # not POSIX
    _TermiosError = OSError  # type: ignore[misc,assignment]

PORT_ERRORS: tuple[type[Exception], ...] = (serial.SerialException, OSError, _TermiosError)
"""What a serial port raises when the device is unplugged or broken under it."""
_OPEN_ERRORS: tuple[type[Exception], ...] = (*PORT_ERRORS, ValueError)
_READ_ERRORS: tuple[type[Exception], ...] = (*PORT_ERRORS, TypeError, AttributeError)


class LinkStatus(StrEnum):
    """What the kiosk shows about the controller."""

    CONNECTING = "connecting"
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"
    INCOMPATIBLE = "incompatible"
    CLOSED = "closed"


@dataclass(frozen=True)
class DeviceEvent:
    """An unsolicited EVENT from the controller (a button press on it)."""

    kind: int
    index: int
    value: int


@dataclass
class LinkStats:
    """Counters for diagnostics and benchmarks."""

    commands: int = 0
    retransmissions: int = 0
    bad_frames: int = 0
    resets: int = 0
    connections: int = 0


class _Waiter:
    __slots__ = ("event", "reply", "retransmit")

    def __init__(self) -> None:
        self.event = threading.Event()
        self.reply: P.Frame | None = None
        self.retransmit = False


_REPLIES = (P.ACK, P.NACK, P.PONG, P.HELLO_ACK)


def find_controller(pattern: str = "/dev/serial/by-id/*MicroPython*") -> str | None:
    """The stable device name of a connected controller, or None.

    Names under ``/dev/serial/by-id`` survive replugging, unlike ``/dev/ttyACM0``.
    """
    matches = sorted(glob(pattern))
    return matches[0] if matches else None


def _notify(listeners: list[Callable[[Any], None]], value: object) -> None:
    """Call every listener; one that raises is logged and does not stop the link."""
    for listener in list(listeners):
        try:
            listener(value)
        except Exception:
            log.exception("LED link listener %r failed", listener)


def stable_name(url: str, by_id: str = "/dev/serial/by-id") -> str:
    """The ``/dev/serial/by-id`` name of a device path such as ``/dev/ttyACM0``, else ``url``.

    ``/dev/ttyACM0`` may come back as ``/dev/ttyACM1`` after a replug; the by-id name does not.
    URLs (``socket://…``, ``spy://…``) and names without a by-id link are returned unchanged.
    """
    if "://" in url or not os.path.exists(url):
        return url
    target = os.path.realpath(url)
    for link in sorted(glob(os.path.join(glob_escape(by_id), "*"))):
        if os.path.realpath(link) == target:
            return link
    return url


class Link:
    """A self-healing connection to one LED controller. Call :meth:`start`, then :meth:`send`."""

    def __init__(
        self,
        url: str,
        *,
        baudrate: int = 115200,
        ack_timeout: float = 0.1,
        retries: int = 6,
        heartbeat: float = 1.0,
        backoff: tuple[float, float] = (0.05, 0.5),
        read_timeout: float = 0.02,
        serial_for_url: SerialFactory = serial.serial_for_url,
    ) -> None:
        self.url = stable_name(url)
        """What the link opens: ``url``, or its stable /dev/serial/by-id name if it has one."""
        self._baudrate = baudrate
        self._ack_timeout = ack_timeout
        self._retries = retries
        self._heartbeat = heartbeat
        self._backoff = backoff
        self._read_timeout = read_timeout
        self._serial_for_url = serial_for_url
        self._cond = threading.Condition()
        self._write_lock = threading.Lock()
        self._seq_lock = threading.Lock()
        self._seq = 0
        self._pending: dict[int, _Waiter] = {}
        self._port: Any = None
        self._lost = threading.Event()
        self._wake = threading.Event()
        self._reset_seen = threading.Event()
        self._reset_boot: int | None = None
        self._recent_events: deque[int] = deque(maxlen=64)
        self._events_boot: int | None = None
        self._closing = threading.Event()
        self._supervisor: threading.Thread | None = None
        self._status = LinkStatus.CONNECTING
        self._status_listeners: list[Callable[[LinkStatus], None]] = []
        self._connect_listeners: list[Callable[[P.Capabilities], None]] = []
        self._event_listeners: list[Callable[[DeviceEvent], None]] = []
        self.events: queue.Queue[DeviceEvent] = queue.Queue(maxsize=1000)
        """Unsolicited device events, oldest first (also given to ``on_event`` listeners)."""
        self.capabilities: P.Capabilities | None = None
        """What the controller reported at the last handshake."""
        self.problem = ""
        """Why the link is not connected, in words for the kiosk."""
        self.stats = LinkStats()

    # --- life cycle ----------------------------------------------------------------------------

    def start(self) -> Link:
        """Start connecting in the background; returns self."""
        if self._supervisor is None:
            self._supervisor = threading.Thread(
                target=self._supervise, name="led-link", daemon=True
            )
            self._supervisor.start()
        return self

    def close(self) -> None:
        """Close the port and stop the threads; idempotent."""
        self._closing.set()
        self._wake.set()
        if self._supervisor is not None:
            self._supervisor.join(5.0)
        self._set_status(LinkStatus.CLOSED)

    def __enter__(self) -> Link:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- observing -----------------------------------------------------------------------------

    @property
    def status(self) -> LinkStatus:
        """Connected, connecting, reconnecting, incompatible, or closed."""
        return self._status

    def on_status(self, listener: Callable[[LinkStatus], None]) -> None:
        """Call ``listener(status)`` at every change (from the link's thread: keep it short)."""
        self._status_listeners.append(listener)

    def on_connect(self, listener: Callable[[P.Capabilities], None]) -> None:
        """Call ``listener(capabilities)`` after every successful (re)handshake."""
        self._connect_listeners.append(listener)

    def on_event(self, listener: Callable[[DeviceEvent], None]) -> None:
        """Call ``listener(event)`` for every unsolicited device event."""
        self._event_listeners.append(listener)

    def wait_status(self, status: LinkStatus, timeout: float) -> bool:
        """Wait until the status is ``status``; whether it is."""
        with self._cond:
            return self._cond.wait_for(lambda: self._status == status, timeout)

    # --- sending -------------------------------------------------------------------------------

    def send(self, msg_type: int, payload: bytes = b"") -> P.Frame:
        """Send one command and wait for its answer (ACK, PONG …), retrying on loss.

        Raises NotConnected or IncompatibleDevice when there is no usable controller,
        CommandRefused on NACK, CommandTimeout when every retry went unanswered.
        """
        if self._status is LinkStatus.INCOMPATIBLE:
            raise IncompatibleDevice(self.problem)
        if self._status is not LinkStatus.CONNECTED:
            raise NotConnected(f"LED controller {self._status.value}: {self.problem}".rstrip(": "))
        return self._request(msg_type, payload)

    def _next_seq(self) -> int:
        with self._seq_lock:
            self._seq = self._seq % 0xFFFF + 1
            return self._seq

    def _request(self, msg_type: int, payload: bytes = b"") -> P.Frame:
        seq = self._next_seq()
        data = P.encode_frame(msg_type, seq, payload)
        waiter = _Waiter()
        self._pending[seq] = waiter
        self.stats.commands += 1
        try:
            for attempt in range(self._retries + 1):
                if attempt:
                    self.stats.retransmissions += 1
                waiter.event.clear()
                waiter.retransmit = False
                self._write(data)
                waiter.event.wait(self._ack_timeout)
                reply = waiter.reply
                if reply is None:
                    if self._lost.is_set():
                        raise NotConnected(self.problem or "serial line lost")
                    continue
                if reply.type == P.NACK:
                    code, detail = P.unpack_nack(reply.payload)
                    if code != P.E_BUSY:
                        raise CommandRefused(msg_type, code, detail)
                    waiter.reply = None
                    continue
                return reply
        finally:
            self._pending.pop(seq, None)
        name = P.TYPE_NAMES.get(msg_type, hex(msg_type))
        raise CommandTimeout(f"{name} unanswered after {self._retries + 1} attempts")

    def _write(self, data: bytes) -> None:
        with self._write_lock:
            port = self._port
            if port is None or self._lost.is_set():
                raise NotConnected(self.problem or "serial port not open")
            try:
                port.write(data)
            except PORT_ERRORS as exc:
                self._lose(f"write failed: {exc}")
                raise NotConnected(self.problem) from None

    # --- the supervisor ------------------------------------------------------------------------

    def _set_status(self, status: LinkStatus, problem: str | None = None) -> None:
        with self._cond:
            if problem is not None:
                self.problem = problem
            changed = status != self._status
            self._status = status
            self._cond.notify_all()
        if changed:
            log.info("LED controller %s %s", status.value, self.problem)
            _notify(self._status_listeners, status)

    def _lose(self, problem: str) -> None:
        if not self._lost.is_set():
            self.problem = problem
            self._lost.set()
            self._wake.set()
            for waiter in list(self._pending.values()):
                waiter.event.set()

    def _supervise(self) -> None:
        delay = self._backoff[0]
        ever_connected = False
        while not self._closing.is_set():
            waiting = LinkStatus.RECONNECTING if ever_connected else LinkStatus.CONNECTING
            try:
                port = self._serial_for_url(
                    self.url,
                    baudrate=self._baudrate,
                    timeout=self._read_timeout,
                    write_timeout=1.0,
                    exclusive=True,
                )
            except _OPEN_ERRORS as exc:
                self._set_status(waiting, f"cannot open {self.url}: {exc}")
                self._closing.wait(delay)
                delay = min(delay * 2, self._backoff[1])
                continue
            self._lost.clear()
            self._port = port
            reader = threading.Thread(target=self._read_loop, args=(port,), name="led-reader")
            reader.start()
            try:
                connected = self._session()
            finally:
                self._lose(self.problem or "closed")
                reader.join()
                with self._write_lock:  # no sender may be writing to a port being closed
                    self._port = None
                    with contextlib.suppress(Exception):
                        port.close()
            if connected:
                ever_connected = True
                delay = self._backoff[0]
            if self._closing.is_set():
                break
            self._set_status(LinkStatus.RECONNECTING, self.problem)
            self._closing.wait(delay)
            delay = min(delay * 2, self._backoff[1])

    def _session(self) -> bool:
        """Handshake, then heartbeat until the line is lost; whether a handshake succeeded."""
        connected = False
        with contextlib.suppress(NotConnected):
            self._write(P.DELIMITER)  # ends any partial frame the controller holds
        while not self._lost.is_set() and not self._closing.is_set():
            self._reset_seen.clear()
            caps = self._handshake()
            if caps is None:
                return connected
            self.capabilities = caps
            if caps.protocol != P.VERSION:
                self._set_status(
                    LinkStatus.INCOMPATIBLE,
                    f"controller speaks protocol v{caps.protocol}, this host speaks "
                    f"v{P.VERSION}: flash the firmware of this tablesight version "
                    f"(firmware {'.'.join(map(str, caps.firmware))} found)",
                )
                while not (self._lost.is_set() or self._reset_seen.is_set()):
                    if self._closing.wait(0.05):
                        return connected
                continue
            connected = True
            if caps.boot_id != self._events_boot:  # a new boot numbers its events from 1 again
                self._recent_events.clear()
                self._events_boot = caps.boot_id
            self.stats.connections += 1
            self._set_status(LinkStatus.CONNECTED, "")
            _notify(self._connect_listeners, caps)
            self._beat(caps.boot_id)
        return connected

    def _handshake(self) -> P.Capabilities | None:
        try:
            reply = self._request(P.HELLO, P.pack_hello())
            return P.Capabilities.unpack(reply.payload)
        except (CommandTimeout, NotConnected):
            self.problem = self.problem if self._lost.is_set() else "no answer to HELLO"
        except CommandRefused as exc:
            self.problem = f"controller refused HELLO: {exc}"
        except PayloadError as exc:
            self.problem = f"unreadable HELLO_ACK: {exc}"
        self._lose(self.problem)
        return None

    def _beat(self, boot_id: int) -> None:
        """Heartbeat until the line is lost (return to reopen) or the controller reset (return)."""
        while True:
            self._wake.wait(self._heartbeat)
            self._wake.clear()
            if self._lost.is_set() or self._closing.is_set():
                return
            if self._reset_seen.is_set():
                if self._reset_boot == boot_id:  # the boot notice of the boot we handshook with
                    self._reset_seen.clear()
                    continue
                self.stats.resets += 1
                self._set_status(LinkStatus.RECONNECTING, "controller restarted")
                return
            try:
                pong = self._request(P.PING)
                seen_boot, _uptime = P.unpack_pong(pong.payload)
            except (CommandTimeout, CommandRefused, PayloadError) as exc:
                self._lose(f"controller stopped answering: {exc}")
                return
            except NotConnected:
                return
            if seen_boot != boot_id:  # rebooted, and its RESET notice was lost
                self._reset_boot = seen_boot
                self._reset_seen.set()
                self._wake.set()

    # --- the reader ----------------------------------------------------------------------------

    def _read_loop(self, port: Any) -> None:
        deframer = P.Deframer()
        while not self._lost.is_set():
            try:
                data = port.read(max(1, port.in_waiting))
            except _READ_ERRORS as exc:
                self._lose(f"serial line lost: {exc}")
                return
            for item in deframer.feed(data) if data else ():
                if isinstance(item, P.Frame):
                    self._dispatch(item)
                else:
                    self.stats.bad_frames += 1

    def _dispatch(self, frame: P.Frame) -> None:
        if frame.type in _REPLIES and frame.seq != P.UNKNOWN_SEQ:
            waiter = self._pending.get(frame.seq)
            if waiter is not None:
                waiter.reply = frame
                waiter.event.set()
            return
        if frame.type == P.NACK:  # a frame of ours arrived damaged: resend at once
            for waiter in list(self._pending.values()):
                waiter.retransmit = True
                waiter.event.set()
        elif frame.type in (P.RESET, P.HELLO, P.HELLO_ACK):
            self._reset_boot = None
            if frame.type == P.RESET:
                with contextlib.suppress(PayloadError):
                    self._reset_boot = P.unpack_reset(frame.payload)[1].boot_id
            self._reset_seen.set()
            self._wake.set()
        elif frame.type == P.EVENT:
            with contextlib.suppress(NotConnected):
                self._write(P.encode_frame(P.ACK, frame.seq))
            if frame.seq in self._recent_events:
                return  # a resend whose first copy arrived: our ACK was lost
            self._recent_events.append(frame.seq)
            try:
                event = DeviceEvent(*P.unpack_event(frame.payload))
            except PayloadError:
                return
            with contextlib.suppress(queue.Full):
                self.events.put_nowait(event)
            _notify(self._event_listeners, event)
