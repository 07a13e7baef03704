"""Test helpers: a `tablesight run` child process on a free port, and where Chromium is."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import uvicorn

LOCAL = ("127.0.0.1", 50000)
"""Where requests from the kiosk's own screen come from."""
PHONE = ("192.168.1.20", 5000)
"""Where a phone's requests appear to come from (no traffic is sent there)."""

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
class ThreadServer:
    """An ASGI app served by uvicorn from a thread of this process."""

    server: uvicorn.Server
    thread: threading.Thread
    url: str

    def stop(self) -> None:
        """Ask the server to stop, and wait for its thread (30 s at most)."""
        self.server.should_exit = True
        self.thread.join(30)


def serve_in_thread(app: Any, what: str) -> ThreadServer:
    """``app`` served on a free port of 127.0.0.1 from a daemon thread, once it has started;
    ``what`` names it in the failure if it does not start within 30 s."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), f"{what} did not start"
        time.sleep(0.02)
    return ThreadServer(server, thread, f"http://127.0.0.1:{port}")


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
    data_dir: Path,
    *args: str,
    port: int | None = None,
    env: dict[str, str] | None = None,
    as_typed: bool = False,
) -> Server:
    """Start `tablesight run` and wait until it answers (a start-up wait, not an assertion).

    ``port`` reuses a port (to restart a server where the page expects it); ``env`` adds
    environment variables (``TABLESIGHT_*`` settings). The scripted session is off unless
    ``env`` sets ``TABLESIGHT_SIMULATION=true`` (or ``--simulation`` is among ``args``).
    ``as_typed``: `tablesight run ARGS` as a user types it, with no ``TABLESIGHT_*`` variable
    (no game asked for, the simulation as the arguments say).
    """
    port = port or free_port()
    cmd = [sys.executable, "-m", "kiosk.cli", "--data-dir", str(data_dir), "--lang", "en"]
    cmd += ["run", "--port", str(port), *args]
    outside = {k: v for k, v in os.environ.items() if not k.startswith("TABLESIGHT_")}
    still = {
        "TABLESIGHT_SIMULATION": "false",  # a still table unless a test asks for the session
        "TABLESIGHT_GAME": "greenwood",  # a game asked for: else the kiosk waits for set-up
    }
    env = {
        **(outside if as_typed else os.environ),
        "PYTHONPATH": os.pathsep.join(sys.path),
        **({} if as_typed else still),
        **(env or {}),
    }
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


HTTP = httpx.Client(timeout=10, limits=httpx.Limits(max_keepalive_connections=0))
"""The tests' client for requests to a kiosk: ``httpx.get`` builds a client, and its TLS context,
on every call (some 30 ms of CPU each; a game clicked through makes hundreds). As with
``httpx.get``, each request has a connection of its own (none is kept for the next)."""


def post(server: Server, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A control request from this machine; returns the JSON answer (raises on an HTTP error)."""
    response = HTTP.post(server.url + path, json=body or {})
    response.raise_for_status()
    return response.json()


def fresh_game(server: Server) -> None:
    """Start a new two-player Greenwood game on ``server`` (each test starts from Dusk): its
    threats from the engine's seeded deck (``draws = "virtual"``), so no table draw comes
    first (docs/box.md)."""
    options = {"start_seat": 0, "draws": "virtual"}
    post(server, "/api/new-game", {"game": "greenwood", "players": 2, "options": options})


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def asgi_call(
    app: Any, method: str, path: str, *, client: tuple[str, int] = LOCAL, **kw: Any
) -> httpx.Response:
    """One request to an app in this process (httpx's ASGI transport), appearing to come from
    ``client``; the app's errors become answers, as a server would send them."""

    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, client=client, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as http:
            return await http.request(method, path, **kw)

    # In a thread of its own: Playwright's sync API keeps an event loop running in this one.
    with ThreadPoolExecutor(1) as worker:
        return worker.submit(asyncio.run, go()).result()
