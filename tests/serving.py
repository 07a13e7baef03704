"""Test helpers: a `tablesight run` child process on a free port, and where Chromium is."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """A `tablesight run` child process serving on a free port."""

    process: subprocess.Popen[str]
    url: str
    data_dir: Path

    @property
    def port(self) -> int:
        """The port it serves on."""
        return int(self.url.rsplit(":", 1)[1])

    def kill(self) -> None:
        """Kill it without warning (SIGKILL), as a power cut or a crash would."""
        self.process.kill()
        self.process.communicate(timeout=30)

    def stop(self) -> tuple[int, str]:
        """Ctrl-C, as a user would; returns the exit status and what it printed on stderr."""
        self.process.send_signal(signal.SIGINT)
        _, err = self.process.communicate(timeout=30)
        return self.process.returncode, err


def start_server(
    data_dir: Path, *args: str, port: int | None = None, env: dict[str, str] | None = None
) -> Server:
    """Start `tablesight run` and wait until it answers (a start-up wait, not an assertion).

    ``port`` reuses a port (to restart a server where the page expects it); ``env`` adds
    environment variables (``TABLESIGHT_*`` settings).
    """
    port = port or free_port()
    cmd = [sys.executable, "-m", "kiosk.cli", "--data-dir", str(data_dir), "--lang", "en"]
    cmd += ["run", "--port", str(port), *args]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), **(env or {})}
    proc = subprocess.Popen(
        cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"tablesight run exited early: {proc.stderr.read()}")
        try:
            urllib.request.urlopen(f"{url}/healthz", timeout=1).close()
            return Server(proc, url, data_dir)
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("tablesight run did not answer within 30 s")


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")
