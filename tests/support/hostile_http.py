"""Helpers of the HTTP hardening tests: requests over raw sockets, from this machine's own
network address when a test needs "another device" (the traffic stays on this machine; the server
sees a peer that is not loopback), a clock moved by hand, and a control request from any address
to an app in this process."""

from __future__ import annotations

import fcntl
import ipaddress
import os
import shutil
import socket
import struct
import subprocess
import sys
import time
import urllib.request
from contextlib import closing
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from serving import Server, free_port
from serving import asgi_call as call

from kiosk.app import SECURITY_HEADERS
from kiosk.pairing import PAIRING_HEADER

CODE = "246810"
WAIT_S = 10.0
"""How long a socket waits for the server before the test gives up (a bound, not a figure)."""


def own_address() -> str | None:
    """One of this machine's IPv4 addresses that is not loopback, or None."""
    for _, name in socket.if_nameindex():
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            try:
                packed = fcntl.ioctl(
                    probe.fileno(), 0x8915, struct.pack("256s", name.encode()[:15])
                )  # SIOCGIFADDR
            except OSError:
                continue
        address = socket.inet_ntoa(packed[20:24])
        if not ipaddress.ip_address(address).is_loopback:
            return address
    return None


REMOTE = own_address()
needs_remote = pytest.mark.skipif(
    REMOTE is None, reason="this machine has no non-loopback address to stand for a phone"
)


def connect(server: Server, source: str | None = None) -> socket.socket:
    """A TCP connection to the server, from ``source`` (an address of this machine)."""
    sock = socket.socket()
    sock.settimeout(WAIT_S)
    if source is not None:
        sock.bind((source, 0))
    sock.connect(("127.0.0.1", server.port))
    return sock


def request(
    server: Server, method: str, path: str, *, headers: dict[str, str] | None = None
) -> bytes:
    """A whole request that asks the server to close the connection after answering."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{server.port}", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    if method == "POST":
        lines += ["Content-Type: application/json", "Content-Length: 2"]
    return ("\r\n".join(lines) + "\r\n\r\n" + ("{}" if method == "POST" else "")).encode()


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (at most ``WAIT_S``)."""
    chunks = []
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, TimeoutError):
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def parse(answer: bytes) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and body of a raw HTTP answer."""
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines and lines[0].startswith("HTTP/") else 0
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body


def ask(
    server: Server,
    method: str,
    path: str,
    *,
    source: str | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One request on a new connection; the parsed answer."""
    with closing(connect(server, source)) as sock:
        sock.sendall(request(server, method, path, headers=headers))
        return parse(read_all(sock))


def has_security_headers(headers: dict[str, str]) -> bool:
    return all(headers.get(k.lower()) == v for k, v in SECURITY_HEADERS.items())


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def menu(app: FastAPI, client: tuple[str, int], code: str | None) -> httpx.Response:
    headers = {PAIRING_HEADER: code} if code is not None else {}
    return call(app, "POST", "/api/menu", json={}, client=client, headers=headers)


def start_read_only(data_dir: Path) -> Server:
    """`tablesight run` on ``data_dir`` made read-only: bind-mounted read-only in the kiosk's
    own mount namespace (as root, where chmod stops nothing: the kernel answers EROFS, as on a
    read-only SD card), else with chmod (the caller makes it writable again)."""
    port = free_port()
    cmd = [sys.executable, "-m", "kiosk.cli", "--data-dir", str(data_dir), "--lang", "en"]
    cmd += ["run", "--port", str(port)]
    if os.geteuid() == 0:
        mount = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'
        cmd = ["unshare", "-m", "sh", "-c", mount, "sh", str(data_dir), *cmd]
    else:
        data_dir.chmod(0o555)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "TABLESIGHT_SIMULATION": "false"}
    proc = subprocess.Popen(
        cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env
    )
    server = Server(proc, f"http://127.0.0.1:{port}", data_dir)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(
                f"tablesight run exited early: {proc.stderr.read() if proc.stderr else ''}"
            )
        try:
            urllib.request.urlopen(f"{server.url}/healthz", timeout=1).close()
            return server
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("tablesight run did not answer within 30 s")


def mount_namespaces() -> bool:
    """Whether read-only mounts of a kiosk's own can be made (root, ``unshare``); a user other
    than root uses chmod instead."""
    if os.geteuid() != 0:
        return True
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", "mount -t tmpfs none /mnt && umount /mnt"],
        capture_output=True,
    )
    return probe.returncode == 0
