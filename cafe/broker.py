"""A local Mosquitto on a loopback port, started and stopped by the tests and the bench.

Its configuration file and its persistence live in a folder of the caller's (a temporary one):
``listener PORT 127.0.0.1``, anonymous clients allowed unless a password file is given, an ACL
file when given, TLS when a certificate is given, a bridge to another broker when given (a
site's broker forwarding its tree to the centre's, as hardware/deploy/mosquitto-site-bridge.conf).
Persistence is on, so a broker that is killed and started again keeps the subscriptions of the
clients with a lasting session (saved every second). ``Gate`` is a TCP relay that a test or the
bench cuts and opens again: a bridge's link to the centre, broken and mended.
"""

from __future__ import annotations

import getpass
import shutil
import signal
import socket
import subprocess
import threading
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

MOSQUITTO_PATHS = ("/usr/sbin/mosquitto", "/usr/bin/mosquitto")


def mosquitto_path() -> str | None:
    """Where Mosquitto is installed (Debian's package), or None."""
    for path in MOSQUITTO_PATHS:
        if Path(path).is_file():
            return path
    return shutil.which("mosquitto")


def free_port() -> int:
    """A free TCP port on the loopback address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Bridge:
    """A site's bridge to the centre's broker: the site's tree goes out at QoS 1, and while the
    link is down Mosquitto keeps it (a lasting session: ``cleansession false``) and forwards
    it, in order, when the link is back (hardware/deploy/mosquitto-site-bridge.conf)."""

    site: str
    port: int
    """The centre's port on the loopback address (or a ``Gate``'s in front of it)."""

    def lines(self) -> list[str]:
        """The bridge's lines of the site broker's configuration."""
        return [
            f"connection tablesight-{self.site}",
            f"address 127.0.0.1:{self.port}",
            f"remote_clientid tablesight-bridge-{self.site}",
            f"topic tablesight/{self.site}/# out 1",
            "cleansession false",
            "bridge_protocol_version mqttv311",
            "try_private true",
            "notifications true",
            "restart_timeout 1 4",
            "keepalive_interval 10",
        ]


class Mosquitto:
    """One Mosquitto process on ``127.0.0.1:port``; ``kill()`` and ``start()`` again keep the
    port, as a broker that crashes and is restarted by its service manager."""

    def __init__(
        self,
        folder: Path,
        *,
        port: int | None = None,
        passwords: Path | None = None,
        tls: tuple[Path, Path, Path] | None = None,
        acl: Path | None = None,
        bridge: Bridge | None = None,
    ):
        path = mosquitto_path()
        if path is None:
            raise FileNotFoundError("Mosquitto is not installed (apt-get install -y mosquitto)")
        self.binary = path
        self.folder = folder
        self.port = port or free_port()
        self.config = folder / "mosquitto.conf"
        self.log = folder / "mosquitto.log"
        lines = [
            f"listener {self.port} 127.0.0.1",
            f"allow_anonymous {'false' if passwords else 'true'}",
            "persistence true",
            f"persistence_location {folder}/",
            "autosave_interval 1",
            "sys_interval 1",  # $SYS/broker/uptime each second (the café overview reads it)
            "max_queued_messages 100000",
            "log_dest stderr",
            # run as root, Mosquitto would become the user "mosquitto", who cannot write here
            f"user {getpass.getuser()}",
        ]
        if passwords is not None:
            lines.append(f"password_file {passwords}")
        if acl is not None:  # who may read and write which topics (docs/mqtt.md)
            lines.append(f"acl_file {acl}")
        if tls is not None:  # (CA certificate, the broker's certificate, its key)
            lines += [f"cafile {tls[0]}", f"certfile {tls[1]}", f"keyfile {tls[2]}"]
        if bridge is not None:  # last: the lines after "connection" belong to the bridge
            lines += bridge.lines()
        folder.mkdir(parents=True, exist_ok=True)
        self.config.write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.process: subprocess.Popen[bytes] | None = None

        self.tls = tls is not None

    @property
    def url(self) -> str:
        """The broker's address as tablesight takes it."""
        return f"{'mqtts' if self.tls else 'mqtt'}://127.0.0.1:{self.port}"

    def start(self, timeout: float = 10.0) -> Mosquitto:
        """Start it and wait until it accepts connections (a start-up wait, not a check)."""
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [self.binary, "-c", str(self.config)], stdout=log, stderr=log
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"mosquitto exited at start: {self.log.read_text(errors='replace')[-500:]}"
                )
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"mosquitto did not listen on port {self.port} within {timeout} s")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Stop it at once (SIGKILL by default, as a crash would)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        """Stop it cleanly (idempotent)."""
        self.kill(signal.SIGTERM)


class Gate:
    """A TCP relay from a loopback port to another: ``cut()`` closes it and every link through
    it (the other side sees its connection refused), ``open()`` listens again on the same port."""

    def __init__(self, target: int, port: int | None = None) -> None:
        self.target = target
        self.port = port or free_port()
        self._listener: socket.socket | None = None
        self._links: list[socket.socket] = []
        self._lock = threading.Lock()

    def open(self) -> Gate:
        """Listen and relay every connection to the target (idempotent)."""
        with self._lock:
            if self._listener is not None:
                return self
            listener = socket.socket()
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(("127.0.0.1", self.port))
            listener.listen(64)
            self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()
        return self

    def cut(self) -> None:
        """Close the port and every link through it at once (idempotent)."""
        with self._lock:
            listener, self._listener = self._listener, None
            links, self._links = self._links, []
        for sock in ([listener] if listener is not None else []) + links:
            with suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                near, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                far = socket.create_connection(("127.0.0.1", self.target), timeout=5)
            except OSError:
                near.close()
                continue
            far.settimeout(None)
            with self._lock:
                if self._listener is not listener:
                    near.close()
                    far.close()
                    return
                self._links += [near, far]
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for sock in (source, sink):
            with suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
