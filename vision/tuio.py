"""TUIO 1.1 output: the stabilised observations as ``/tuio/2Dobj`` bundles over OSC/UDP.

Software built for reacTIVision listens for TUIO on UDP port 3333. For every frame the tracker
turns what changed into one or more OSC bundles (python-osc builds and sends them), each holding,
as the TUIO 1.1 specification asks:

- ``/tuio/2Dobj source tablesight@HOST``
- ``/tuio/2Dobj alive s_id…`` (every object on the table now)
- ``/tuio/2Dobj set s i x y a X Y A m r`` for each object added or moved in this frame: session
  id, class id (the tag id), position (0–1 across and down the camera frame), angle (radians,
  clockwise as seen from the camera), velocity (frame widths and heights per second), rotation
  velocity (turns per second), motion and rotation acceleration (per second)
- ``/tuio/2Dobj fseq f`` (the frame number; every bundle of one frame has the same)

At most ``SETS_PER_BUNDLE`` set messages go in one bundle (a datagram stays well under a typical
1500-byte MTU); every ``refresh_ms`` every object is sent again with ``set`` (its velocity then
zero unless it moved in that frame), so a client that lost a datagram catches up.
"""

from __future__ import annotations

import math
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pythonosc.osc_bundle import OscBundle
from pythonosc.osc_bundle_builder import IMMEDIATELY, OscBundleBuilder
from pythonosc.osc_message import OscMessage
from pythonosc.osc_message_builder import OscMessageBuilder

from vision.errors import VisionError
from vision.stabiliser import Observation

ADDRESS = "/tuio/2Dobj"
DEFAULT_PORT = 3333
SETS_PER_BUNDLE = 16

Normalise = Callable[[float, float], tuple[float, float]]
"""Maps an observation's place (table mm or pixels) to 0–1 across and down the camera frame."""


class TuioError(VisionError, ValueError):
    """A TUIO destination cannot be used (a bad HOST:PORT, a name that does not resolve)."""


@dataclass
class TuioObject:
    """One object as TUIO describes it (see the module for the units)."""

    session_id: int
    class_id: int
    x: float
    y: float
    angle: float
    x_speed: float = 0.0
    y_speed: float = 0.0
    turn_speed: float = 0.0
    motion_accel: float = 0.0
    turn_accel: float = 0.0
    time_ms: float = 0.0

    def args(self, still: bool = False) -> list[object]:
        """The arguments after ``set`` (velocities zero when ``still``)."""
        speeds = (
            [0.0] * 5
            if still
            else [
                self.x_speed,
                self.y_speed,
                self.turn_speed,
                self.motion_accel,
                self.turn_accel,
            ]
        )
        return [self.session_id, self.class_id, self.x, self.y, self.angle, *speeds]


class TuioTracker:
    """Keeps the objects alive from the observations and builds each frame's bundles."""

    def __init__(
        self, normalise: Normalise, *, source: str = "tablesight", refresh_ms: float = 1000.0
    ) -> None:
        self.normalise = normalise
        self.source = source
        self.refresh_ms = refresh_ms
        self.objects: dict[int, TuioObject] = {}
        self.fseq = 0
        self._refreshed_ms: float | None = None

    def frame(self, observations: Iterable[Observation], timestamp_ms: float) -> list[OscBundle]:
        """The bundles of one frame (never none: at least source, alive and fseq)."""
        changed: list[TuioObject] = []
        for o in observations:
            if o.kind == "remove":
                self.objects.pop(o.session_id, None)
            elif o.kind in ("add", "update"):
                changed.append(self._place(o, timestamp_ms))
        self.fseq += 1
        refresh = self._refreshed_ms is None or timestamp_ms - self._refreshed_ms >= self.refresh_ms
        moved = {t.session_id for t in changed}
        if refresh:
            self._refreshed_ms = timestamp_ms
            sets = [(t, t.session_id not in moved) for t in self.objects.values()]
        else:
            sets = [(t, False) for t in changed]
        sets.sort(key=lambda item: item[0].session_id)
        chunks = [sets[i : i + SETS_PER_BUNDLE] for i in range(0, len(sets), SETS_PER_BUNDLE)]
        return [self._bundle(chunk) for chunk in chunks or [[]]]

    def _place(self, o: Observation, now: float) -> TuioObject:
        x, y = self.normalise(o.x_mm, o.y_mm)
        angle = math.radians(o.angle_deg) % math.tau
        old = self.objects.get(o.session_id)
        obj = TuioObject(o.session_id, o.tag_id, x, y, angle, time_ms=now)
        if old is not None and now > old.time_ms:
            dt = (now - old.time_ms) / 1000
            obj.x_speed, obj.y_speed = (x - old.x) / dt, (y - old.y) / dt
            turn = (angle - old.angle + math.pi) % math.tau - math.pi
            obj.turn_speed = turn / math.tau / dt
            speed, old_speed = (
                math.hypot(obj.x_speed, obj.y_speed),
                math.hypot(old.x_speed, old.y_speed),
            )
            obj.motion_accel = (speed - old_speed) / dt
            obj.turn_accel = (obj.turn_speed - old.turn_speed) / dt
        self.objects[o.session_id] = obj
        return obj

    def _bundle(self, sets: list[tuple[TuioObject, bool]]) -> OscBundle:
        bundle = OscBundleBuilder(IMMEDIATELY)
        bundle.add_content(_message("source", self.source))
        bundle.add_content(_message("alive", *sorted(self.objects)))
        for obj, still in sets:
            bundle.add_content(_message("set", *obj.args(still)))
        bundle.add_content(_message("fseq", self.fseq))
        return bundle.build()


def _message(command: str, *args: object) -> OscMessage:
    message = OscMessageBuilder(ADDRESS)
    message.add_arg(command, "s")
    for arg in args:
        if isinstance(arg, bool) or not isinstance(arg, int | float | str):
            raise TuioError(f"a TUIO argument must be a number or text, not {arg!r}")
        message.add_arg(
            arg, "i" if isinstance(arg, int) else "f" if isinstance(arg, float) else "s"
        )
    return message.build()


def parse_destination(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[v6]:PORT`` for an IPv6 address; ``HOST`` alone: port 3333), checked
    and resolved; TuioError says what is wrong."""
    host, port_text = text, str(DEFAULT_PORT)
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        if rest:
            if not rest.startswith(":"):
                raise TuioError(f"--tuio {text!r}: give HOST:PORT, as in 127.0.0.1:3333")
            port_text = rest[1:]
    elif ":" in text:
        host, _, port_text = text.rpartition(":")
    if not host:
        raise TuioError(f"--tuio {text!r}: give HOST:PORT, as in 127.0.0.1:3333")
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise TuioError(f"--tuio {text!r}: the port must be a number from 1 to 65535")
    try:
        socket.getaddrinfo(host, int(port_text), type=socket.SOCK_DGRAM)
    except (OSError, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise TuioError(f"--tuio {text!r}: cannot find the host {host!r} ({reason})") from None
    return host, int(port_text)


class TuioSender:
    """Sends bundles to one ``host``/``port`` over UDP (python-osc's client)."""

    def __init__(self, host: str, port: int) -> None:
        from pythonosc.udp_client import UDPClient

        self.host, self.port = host, port
        self._client = UDPClient(host, port)
        self.sent = 0
        self.failed = 0

    def send(self, bundles: Iterable[OscBundle]) -> None:
        """Send each bundle; a network error is counted, never raised (UDP may be lost: no
        listener yet, a network that went away)."""
        for bundle in bundles:
            try:
                self._client.send(bundle)
                self.sent += 1
            except OSError:
                self.failed += 1
