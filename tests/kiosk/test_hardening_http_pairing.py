"""Pairing that a stranger can neither guess nor block, and the guard's smaller holes (issue 25).

In process (httpx's ASGI transport, requests appearing to come from any address, a clock moved by
hand): a flood of wrong codes from hundreds of addresses, the per-device limits, the network's
limit that pauses the short code but never the QR code's token nor a paired phone; two Origin
headers, the Origin's scheme, strict bodies. Real `tablesight run` processes: the QR code drawn
on the kiosk's own screen in Chromium, read back with OpenCV and opened by a second browser from
this machine's network address (the kiosk sees a phone), after that same address guessed wrong;
an HTTP/1.0 change without Host over a raw socket; the settings in a read-only data folder;
`tablesight calibrate` with a wait without end.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import cv2
import httpx
import numpy as np
import pytest
from axe_playwright_python.sync_playwright import Axe
from fastapi import FastAPI
from hostile_http import (
    CODE,
    REMOTE,
    Clock,
    ask,
    connect,
    menu,
    mount_namespaces,
    needs_remote,
    parse,
    read_all,
    start_read_only,
)
from serving import PHONE, Server, start_server
from serving import asgi_call as call

from kiosk.app import create_app
from kiosk.guard import is_loopback
from kiosk.pairing import (
    FIRST_WAIT_S,
    FREE_TRIES,
    MAX_WAIT_S,
    NETWORK_WRONG_PER_HOUR,
    PAIRING_HEADER,
    Pairing,
)
from kiosk.settings import load_settings
from kiosk.table import open_table

FLOODERS = 300
"""Addresses that guess wrong codes together (each within its own free tries)."""


def flooder(n: int) -> tuple[str, int]:
    return (f"10.0.{n // 250}.{n % 250 + 1}", 40000 + n)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(tmp_path: Path, clock: Clock) -> Iterator[FastAPI]:
    settings = load_settings(data_dir=tmp_path, lang="en", lan=True)
    table, store = open_table(settings)
    try:
        yield create_app(settings, table, pairing=Pairing(code=CODE, clock=clock))
    finally:
        store.close()


def flood(app: FastAPI, clock: Clock, minutes: int) -> int:
    """Wrong codes from ``FLOODERS`` addresses, a round a minute for ``minutes``; how many were
    checked (403) rather than held back (429)."""
    checked = 0
    for minute in range(minutes):
        for n in range(FLOODERS):
            answer = menu(app, flooder(n), f"{(minute * FLOODERS + n) % 10**6:06d}")
            assert answer.status_code in (403, 429), answer.text
            checked += answer.status_code == 403
        clock.now += 60
    return checked


# --- the network's limit: the QR code's token and paired phones are never held back ----------


def test_under_a_flood_from_many_addresses_a_new_phone_with_the_qr_token_gets_in(
    app: FastAPI, clock: Clock
) -> None:
    pairing = app.state.pairing
    paired = ("192.168.1.30", 4000)
    assert menu(app, paired, CODE).status_code == 200
    checked = flood(app, clock, minutes=3)
    # 900 guesses from 300 addresses in three minutes: only the hour's budget was checked.
    assert checked == NETWORK_WRONG_PER_HOUR
    for n in range(26):  # new phones, each with the token from the kiosk's QR code
        phone = (f"192.168.7.{n + 1}", 5000)
        assert menu(app, phone, pairing.token).status_code == 200, n
        assert menu(app, phone, CODE).status_code == 200  # paired: the code works for it too
    assert menu(app, paired, CODE).status_code == 200
    # A new phone that types the code is told to scan the QR code instead.
    typed = menu(app, ("192.168.8.1", 5000), CODE)
    assert typed.status_code == 429 and "scan the QR code" in typed.json()["detail"]


def test_one_device_guessing_alone_never_pauses_the_code_for_the_others(
    app: FastAPI, clock: Clock
) -> None:
    guesser, times = PHONE, []
    while clock.now < 1000.0 + 3 * 3600:  # a wrong code whenever it may try, for three hours
        answer = menu(app, guesser, f"{len(times):06d}")
        if answer.status_code == 429:
            assert "from this device" in answer.json()["detail"]
            clock.now += int(answer.headers["retry-after"])
            continue
        assert answer.status_code == 403
        times.append(clock.now)
        newcomer = menu(app, (f"192.168.9.{len(times) % 250 + 1}", 5000), CODE)
        assert newcomer.status_code == 200, (len(times), newcomer.text)
    # The most in any hour: its first (5 free tries, waits of 2, 4, … 512 s, then 10 min).
    most = max(sum(1 for u in times if t <= u < t + 3600) for t in times)
    assert most == 18 < NETWORK_WRONG_PER_HOUR
    assert (FIRST_WAIT_S, MAX_WAIT_S) == (2, 600)


def test_the_right_code_from_a_device_that_guessed_wrong_works_within_its_own_limits(
    app: FastAPI, clock: Clock
) -> None:
    pairing = app.state.pairing
    clumsy, held = ("192.168.1.41", 5000), ("192.168.1.42", 5000)
    for n in range(FREE_TRIES - 1):
        assert menu(app, clumsy, f"{n:06d}").status_code == 403
    assert menu(app, clumsy, CODE).status_code == 200
    for n in range(FREE_TRIES + 2):
        menu(app, held, f"{n:06d}")
    assert menu(app, held, CODE).status_code == 429  # its own wait, for the code
    assert menu(app, held, pairing.token).status_code == 200  # never for the token
    # A value that cannot be the code (an old run's token, a typo of letters) is not a guess.
    stranger = ("192.168.1.43", 5000)
    for _ in range(3 * FREE_TRIES):
        assert menu(app, stranger, "an-old-runs-token-0123").status_code == 403
    assert app.state.pairing.tries_left(stranger[0]) == FREE_TRIES
    assert menu(app, stranger, CODE).status_code == 200


def test_the_qr_code_is_for_the_kiosk_and_paired_phones_and_only_with_lan(
    app: FastAPI, tmp_path: Path
) -> None:
    own = call(app, "GET", "/api/pairing.svg")
    assert own.status_code == 200 and own.headers["content-type"].startswith("image/svg+xml")
    assert own.headers["cache-control"] == "no-store"
    assert call(app, "GET", "/api/pairing.svg", client=PHONE).status_code == 403
    settings = load_settings(data_dir=tmp_path / "alone", lang="en")
    table, store = open_table(settings)
    try:
        alone = call(create_app(settings, table), "GET", "/api/pairing.svg")
    finally:
        store.close()
    assert alone.status_code == 404 and "--lan" in alone.json()["detail"]


def read_qr(png: bytes) -> str:
    """The text of the QR code in a screenshot (OpenCV's detector)."""
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    return str(text)


@needs_remote
def test_the_qr_code_on_the_kiosk_screen_pairs_a_phone_that_guessed_wrong_before(
    tmp_path: Path, browser: Any
) -> None:
    server = start_server(tmp_path, "--lan", env={"TABLESIGHT_PAIRING_CODE": CODE})
    try:
        # The kiosk's own screen: the footer's pairing button opens the QR code.
        kiosk = browser.new_context(viewport={"width": 1920, "height": 1080})
        screen = kiosk.new_page()
        screen.goto(server.url + "/")
        screen.locator("#pairing").click()
        qr = screen.locator("#pair-qr")
        qr.wait_for(state="visible")
        # a function, not an expression: the page's CSP forbids the eval of a polled expression
        screen.wait_for_function("() => document.getElementById('pair-qr').naturalWidth > 0")
        assert CODE in screen.locator("#pair-code").inner_text()
        link = ""
        for _ in range(80):  # a bound on waiting for the drawn code to settle, not a speed
            link = read_qr(qr.screenshot())
            if link:
                break
            screen.wait_for_timeout(250)
        for lang in ("en", "zh"):  # the open dialog's words are readable (WCAG AA contrast)
            screen.goto(f"{server.url}/?lang={lang}")
            screen.locator("#pairing").click()
            qr.wait_for(state="visible")
            low = Axe().run(screen, options={"runOnly": ["color-contrast"]}).response
            assert low["violations"] == [], (lang, low["violations"])
        kiosk.close()
        parts = urlsplit(link)
        assert (parts.scheme, parts.port, parts.path) == ("http", server.port, "/"), link
        phone_address = str(parts.hostname)  # this machine's address on the network
        assert not is_loopback(phone_address)
        token = parse_qs(parts.query)["pair"][0]
        assert len(token) >= 22
        # A phone at that address guesses wrong until it must wait.
        for n in range(FREE_TRIES + 1):
            code = {PAIRING_HEADER: f"{n:06d}"}
            ask(server, "POST", "/api/menu", source=phone_address, headers=code)
        status, _, body = ask(
            server, "POST", "/api/menu", source=phone_address, headers={PAIRING_HEADER: CODE}
        )
        assert status == 429 and "from this device" in json.loads(body)["detail"]
        # It opens the link: its page keeps the token and controls the table with it at once.
        phone = browser.new_context(viewport={"width": 412, "height": 915})
        page = phone.new_page()
        asked: list[str] = []
        page.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        page.goto(link)
        page.wait_for_function("() => typeof Kiosk !== 'undefined' && Kiosk.status !== null")
        assert "pair=" not in page.url
        opened = page.evaluate("Kiosk.post('/api/menu', {open: true})")
        closed = page.evaluate("Kiosk.post('/api/menu', {open: false})")
        phone.close()
        assert opened["ok"] is True and opened["menu"] is True, opened
        assert closed["ok"] is True and asked == []
    finally:
        server.kill()


# --- the guard's smaller holes -------------------------------------------------------------------


def test_two_origin_headers_are_refused_whichever_comes_last(app: FastAPI) -> None:
    before = call(app, "GET", "/api/status").json()["menu"]
    for origins in (
        ["http://attacker.example", "http://localhost:8000"],
        ["http://localhost:8000", "http://attacker.example"],
        ["http://localhost:8000", "http://localhost:8000"],
    ):
        headers = [("Host", "localhost:8000")] + [("Origin", o) for o in origins]
        refused = call(app, "POST", "/api/menu", json={}, headers=headers)
        assert refused.status_code == 403, origins
        assert "only one Origin" in refused.json()["detail"]
    assert call(app, "GET", "/api/status").json()["menu"] == before
    two_hosts = [("Host", "attacker.example"), ("Host", "localhost:8000")]
    assert call(app, "GET", "/api/status", headers=two_hosts).status_code == 400
    own = [("Host", "localhost:8000"), ("Origin", "http://localhost:8000")]
    assert call(app, "POST", "/api/menu", json={}, headers=own).status_code == 200


def test_an_origin_of_another_scheme_is_another_site(app: FastAPI) -> None:
    for origin in ("https://localhost:8000", "https://localhost", "ws://localhost:8000"):
        headers = {"Host": "localhost:8000", "Origin": origin}
        refused = call(app, "POST", "/api/menu", json={}, headers=headers)
        assert refused.status_code == 403, origin
        assert "another site" in refused.json()["detail"]


@needs_remote
def test_an_http_1_0_change_without_host_is_refused_and_a_read_is_answered(
    server: Server,
) -> None:
    for source in (None, REMOTE):
        with connect(server, source) as sock:
            sock.sendall(
                b"POST /api/menu HTTP/1.0\r\nContent-Type: application/json\r\n"
                b"Content-Length: 2\r\n\r\n{}"
            )
            status, _, body = parse(read_all(sock))
        assert status == 400 and "needs a Host" in json.loads(body)["detail"], source
    with connect(server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.0\r\n\r\n")
        assert parse(read_all(sock))[0] == 200
    assert httpx.get(server.url + "/api/status", timeout=10).json()["menu"] is False


@pytest.mark.parametrize(
    "body",
    [
        {"brightness": "50"},
        {"brightness": True},
        {"sound": 1},
        {"sound": "true"},
        {"stability": {"add_ms": "100"}},
    ],
)
def test_a_value_of_another_type_is_refused_not_converted(
    app: FastAPI, body: dict[str, Any]
) -> None:
    before = call(app, "GET", "/api/status").json()["settings"]
    answer = call(app, "POST", "/api/settings", json=body)
    assert answer.status_code == 422, answer.text
    assert call(app, "GET", "/api/status").json()["settings"] == before
    assert call(app, "POST", "/api/settings", json={"brightness": 50}).status_code == 200


@pytest.mark.skipif(not mount_namespaces(), reason="root without mount namespaces")
def test_settings_in_a_read_only_data_folder_answer_503_with_the_reason_as_moves_do(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "data"
    start_server(folder).stop()  # a saved game in the folder, then the folder is read-only
    server = start_read_only(folder)
    try:
        answer = httpx.post(server.url + "/api/settings", json={"brightness": 40}, timeout=10)
        undo = httpx.post(server.url + "/api/undo", json={}, timeout=10)
        status = httpx.get(server.url + "/api/status", timeout=10).json()
    finally:
        server.stop()
        folder.chmod(0o755)
    root = os.geteuid() == 0
    why = "the save folder is read-only" if root else "no permission to write it"
    assert answer.status_code == 503, answer.text
    assert answer.json()["detail"] == (
        f"the settings apply now but could not be saved in the data folder ({why}); they will"
        " be as before after a restart"
    )
    assert undo.status_code in (409, 503) and status["settings"]["brightness"] == 40


def test_calibrate_with_a_wait_without_end_says_so_in_one_line(tmp_path: Path) -> None:
    for wait in ("1e308", "inf", "nan", "601"):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "kiosk.cli",
                "--data-dir",
                str(tmp_path),
                "calibrate",
                "--wait",
                wait,
                "--source",
                "video:missing",
            ],
            capture_output=True,
            text=True,
            timeout=60,  # a bound on a hang, not a figure
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        assert done.returncode == 2, (wait, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "--wait must be" in lines[0] and "at most 600" in lines[0]
