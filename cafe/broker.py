"""A local Mosquitto on a loopback port, started and stopped by the tests and the bench.

Its configuration file and its persistence live in a folder of the caller's (a temporary one):
``listener PORT 127.0.0.1``, anonymous clients allowed unless a password file is given, an ACL
file when given, TLS when a certificate is given.
Persistence is on, so a broker that is killed and started again keeps the subscriptions of the
clients with a lasting session (saved every second).
"""

from __future__ import annotations

import getpass
import shutil
import signal
import socket
import subprocess
import time
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
