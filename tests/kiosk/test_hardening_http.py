"""The kiosk's HTTP server under a crowded or hostile network (issue #14, the network part).

Real `tablesight run` processes on loopback, real sockets: the connection and viewer caps (set low
in each server's settings), the request timeout, the descriptor budget under a flood. "Another
device" is this machine's own non-loopback address used as the *source* of connections to the
server on 127.0.0.1 (the traffic stays on loopback; the server sees a peer that is not local).
In process (httpx's ASGI transport): pairing with a growing wait, Host and Origin, the security
headers on every answer, NaN in a body, the expensive routes' limit and cache.
"""

from __future__ import annotations

import ipaddress
import json
import os
import resource
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, closing
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from hostile_http import (
    CODE,
    REMOTE,
    WAIT_S,
    Clock,
    ask,
    connect,
    has_security_headers,
    menu,
    needs_remote,
    parse,
    read_all,
)
from serving import LOCAL, PHONE, Server, free_port, start_server
from serving import asgi_call as call

from kiosk.app import create_app
from kiosk.guard import OncePerCause
from kiosk.pairing import FREE_TRIES, NETWORK_WRONG_PER_HOUR, PAIRING_HEADER, Pairing
from kiosk.routers import camera
from kiosk.settings import load_settings
from kiosk.table import open_table


@pytest.fixture
def stop_after() -> Iterator[list[Server]]:
    servers: list[Server] = []
    try:
        yield servers
    finally:
        for srv in servers:
            if srv.process.poll() is None:
                srv.process.kill()
                srv.process.wait()


def serve(tmp_path: Path, stop_after: list[Server], **http: object) -> Server:
    """`tablesight run` with ``http.*`` settings and a fixed pairing code."""
    env = {f"TABLESIGHT_HTTP__{k.upper()}": str(v) for k, v in http.items()}
    env["TABLESIGHT_PAIRING_CODE"] = CODE
    srv = start_server(tmp_path, env=env)
    stop_after.append(srv)
    return srv


# --- timeouts ------------------------------------------------------------------------------------


def test_a_half_sent_request_line_is_answered_408_and_the_connection_closed(
    tmp_path: Path, stop_after: list[Server]
) -> None:
    server = serve(tmp_path, stop_after, header_timeout_s=1)
    with closing(connect(server)) as half:
        half.sendall(b"GET /heal")
        status, headers, body = parse(read_all(half))  # read_all ends when the server closes
    assert status == 408
    assert "did not arrive whole within 1 s" in json.loads(body)["detail"]
    assert has_security_headers(headers)
    with closing(connect(server)) as silent:  # a connection that sends nothing is closed too
        assert parse(read_all(silent))[0] == 408
    with closing(connect(server)) as dribble:  # a byte now and then does not keep it open
        sent = 0
        for byte in b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n":
            try:
                dribble.sendall(bytes([byte]))
            except OSError:
                break
            sent += 1
            time.sleep(0.1)
        assert sent < 41, "the server let a request dribble in for 4 s"
    # A whole request on the same kind of connection is answered as always.
    assert ask(server, "GET", "/healthz")[0] == 200
    # The timeout is for the request only: a live stream outlives it and still gets changes,
    # and a keep-alive connection carries a second request sent after a pause.
    with httpx.Client(base_url=server.url, timeout=WAIT_S) as http:
        with http.stream("GET", "/api/live") as live:
            lines = live.iter_lines()
            assert next(lines).startswith("retry:")
            time.sleep(2.5)
            assert http.post("/api/menu", json={"open": True}).status_code == 200
            assert any(line == "event: change" for line, _ in zip(lines, range(20), strict=False))
        assert http.get("/healthz").status_code == 200
        time.sleep(0.5)
        assert http.get("/healthz").status_code == 200
    # Something that is not HTTP is answered 400 with a message and the headers, and closed.
    with closing(connect(server)) as garbage:
        garbage.sendall(b"\x16\x03\x01 hello\r\n\r\n")
        status, headers, body = parse(read_all(garbage))
    assert status == 400 and "not an HTTP request" in json.loads(body)["detail"]
    assert has_security_headers(headers)


# --- connection and viewer caps ------------------------------------------------------------------


@needs_remote
def test_beyond_the_connection_cap_other_devices_get_503_and_the_kiosk_stays_answerable(
    tmp_path: Path, stop_after: list[Server]
) -> None:
    cap = 4
    server = serve(tmp_path, stop_after, max_connections=cap, header_timeout_s=60)
    with ExitStack() as stack:
        idle = [stack.enter_context(closing(connect(server, REMOTE))) for _ in range(cap)]
        assert len(idle) == cap
        status, headers, body = ask(server, "GET", "/api/status", source=REMOTE)
        assert status == 503
        assert "too many visitors" in json.loads(body)["detail"]
        assert int(headers["retry-after"]) > 0 and has_security_headers(headers)
        # The kiosk's own screen: read, and change the table.
        assert ask(server, "GET", "/healthz")[0] == 200
        status, _, body = ask(server, "POST", "/api/menu")
        assert status == 200 and json.loads(body)["menu"] is True
        # A phone with the pairing code gets through, and is let in from then on.
        paired = {PAIRING_HEADER: CODE}
        status, _, body = ask(server, "POST", "/api/menu", source=REMOTE, headers=paired)
        assert status == 200 and json.loads(body)["menu"] is False
        assert ask(server, "GET", "/api/status", source=REMOTE)[0] == 200
    # The idle connections gone, everything answers.
    assert ask(server, "GET", "/healthz", source=REMOTE)[0] == 200


@needs_remote
def test_a_wrong_code_over_the_cap_is_refused_and_counted_as_a_try(
    tmp_path: Path, stop_after: list[Server]
) -> None:
    server = serve(tmp_path, stop_after, max_connections=1, header_timeout_s=60)
    with closing(connect(server, REMOTE)):
        for _ in range(FREE_TRIES):
            status, _, _ = ask(
                server, "POST", "/api/menu", source=REMOTE, headers={PAIRING_HEADER: "000000"}
            )
            assert status == 503
    # The cap gone, the device must now wait: its guesses over the cap were tries too.
    for _ in range(50):  # until the server has seen the idle connection close
        status, headers, body = ask(
            server, "POST", "/api/menu", source=REMOTE, headers={PAIRING_HEADER: CODE}
        )
        if status != 503:
            break
        time.sleep(0.1)
    assert status == 429 and int(headers["retry-after"]) >= 1
    assert "too many wrong pairing codes" in json.loads(body)["detail"]


@needs_remote
def test_live_viewers_beyond_the_cap_get_503_while_the_kiosk_and_freed_places_stream(
    tmp_path: Path, stop_after: list[Server]
) -> None:
    server = serve(tmp_path, stop_after, max_viewers=2)
    transport = httpx.HTTPTransport(local_address=REMOTE)
    with (
        httpx.Client(base_url=server.url, timeout=WAIT_S, transport=transport) as phones,
        httpx.Client(base_url=server.url, timeout=WAIT_S) as kiosk,
        ExitStack() as stack,
    ):
        streams = [stack.enter_context(phones.stream("GET", "/api/live")) for _ in range(2)]
        assert [s.status_code for s in streams] == [200, 200]
        refused = phones.get("/api/live")
        assert refused.status_code == 503
        assert "viewers from the network" in refused.json()["detail"]
        assert int(refused.headers["retry-after"]) > 0
        assert has_security_headers({k.lower(): v for k, v in refused.headers.items()})
        with kiosk.stream("GET", "/api/live") as own:
            assert own.status_code == 200
            assert next(own.iter_lines()).startswith("retry:")
        streams[0].close()
        # The place freed is given back (the server may take a moment to see the close).
        for _ in range(50):
            with phones.stream("GET", "/api/live") as again:
                if again.status_code == 200:
                    break
            time.sleep(0.1)
        assert again.status_code == 200


@needs_remote
def test_a_flood_beyond_the_descriptor_budget_is_closed_at_once_and_logged_once(
    tmp_path: Path,
) -> None:
    """With 160 descriptors (soft and hard), 150 idle connections from another device: before,
    the process ran out of descriptors and logged a traceback per failed accept; now the excess
    is answered 503 and closed, the kiosk answers during the flood, and the log has one line
    for the cause."""
    limit, flood = 160, 150
    port = free_port()
    cmd = [sys.executable, "-m", "kiosk.cli", "--data-dir", str(tmp_path), "--lang", "en"]
    cmd += ["run", "--port", str(port)]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(sys.path),
        "TABLESIGHT_SIMULATION": "false",
        "TABLESIGHT_HTTP__MAX_CONNECTIONS": "10000",  # only the descriptor budget holds
        "TABLESIGHT_HTTP__HEADER_TIMEOUT_S": "60",
    }

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    process = subprocess.Popen(
        cmd,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env=env,
        preexec_fn=low_limit,  # the limit is the child's only
    )
    server = Server(process, f"http://127.0.0.1:{port}", tmp_path)
    try:
        for _ in range(300):  # start-up wait, not an assertion
            try:
                urllib.request.urlopen(f"{server.url}/healthz", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        refused = 0
        with ExitStack() as stack:
            held = [stack.enter_context(closing(connect(server, REMOTE))) for _ in range(flood)]
            for sock in held:
                sock.settimeout(0.2)
                try:
                    data = sock.recv(4096)
                except TimeoutError:
                    continue  # held open: within the budget
                refused += data.startswith(b"HTTP/1.1 503")
            assert 0 < refused < flood
            # The flood still connected, the kiosk's own screen is answered.
            assert ask(server, "GET", "/healthz")[0] == 200
            assert ask(server, "POST", "/api/menu")[0] == 200
        _, err = server.stop()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert "Too many open files" not in err
    assert err.count("refused: connections beyond the descriptor budget") == 1
    assert "Traceback" not in err


# --- pairing -------------------------------------------------------------------------------------


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(tmp_path: Path, clock: Clock) -> Iterator[FastAPI]:
    settings = load_settings(data_dir=tmp_path, lang="en", lan=True, http={"hosts": ["table.lan"]})
    table, store = open_table(settings)
    try:
        yield create_app(settings, table, pairing=Pairing(code=CODE, clock=clock))
    finally:
        store.close()


def test_wrong_codes_make_a_device_wait_longer_and_longer_and_never_unpair_others(
    app: FastAPI, clock: Clock
) -> None:
    paired_phone = ("192.168.1.30", 4000)
    assert menu(app, paired_phone, CODE).status_code == 200
    guesser = PHONE
    for n in range(FREE_TRIES):
        wrong = menu(app, guesser, f"{n:06d}")
        assert wrong.status_code == 403 and "wrong pairing code" in wrong.json()["detail"]
    waits = []
    for _ in range(4):
        held = menu(app, guesser, CODE)  # even the right code must wait its turn
        assert held.status_code == 429
        assert "too many wrong pairing codes from this device" in held.json()["detail"]
        wait = int(held.headers["retry-after"])
        waits.append(wait)
        clock.now += wait
        assert menu(app, guesser, "999999").status_code == 403  # the next try, a wrong one
    assert waits == sorted(waits) and waits[-1] >= 4 * waits[0]
    # Through all of it the code stayed the same and the paired phone kept control.
    assert call(app, "GET", "/api/status").json()["control"]["code"] == CODE
    assert menu(app, paired_phone, CODE).status_code == 200
    # A code left out is not a guess: it is refused without making anyone wait.
    assert menu(app, ("192.168.1.31", 4000), None).status_code == 403


def test_many_devices_guessing_together_pause_the_code_but_never_the_qr_token_or_paired_phones(
    app: FastAPI, clock: Clock
) -> None:
    pairing = app.state.pairing
    paired_phone = ("192.168.1.30", 4000)
    assert menu(app, paired_phone, CODE).status_code == 200
    for n in range(NETWORK_WRONG_PER_HOUR):
        assert menu(app, (f"10.0.{n // 200}.{n % 200 + 1}", 4000), "000000").status_code == 403
    fresh = menu(app, ("10.9.9.9", 4000), CODE)
    assert fresh.status_code == 429 and "from the network" in fresh.json()["detail"]
    assert "scan the QR code" in fresh.json()["detail"]
    assert int(fresh.headers["retry-after"]) > 59 * 60
    # The QR code's token lets a new phone in at once, and a paired phone stays in.
    assert menu(app, ("10.9.9.10", 4000), pairing.token).status_code == 200
    assert menu(app, paired_phone, CODE).status_code == 200
    clock.now += 30 * 60
    assert menu(app, ("10.9.9.9", 4000), CODE).status_code == 429
    clock.now += 30 * 60 + 1
    assert menu(app, ("10.9.9.9", 4000), CODE).status_code == 200


# --- Host and Origin -----------------------------------------------------------------------------


def test_a_request_for_another_name_is_refused_so_dns_rebinding_cannot_read_the_code(
    app: FastAPI,
) -> None:
    rebound = call(app, "GET", "/api/status", headers={"Host": "attacker.example:8000"})
    assert rebound.status_code == 400
    assert "does not answer to the name" in rebound.json()["detail"]
    assert CODE not in rebound.text
    assert has_security_headers({k.lower(): v for k, v in rebound.headers.items()})
    names = ["localhost:8000", "127.0.0.1", "[::1]:8000", "table.lan", socket.gethostname()]
    names.append(f"{socket.gethostname()}.local:8000")
    for host in names:
        answer = call(app, "GET", "/api/status", headers={"Host": host})
        assert answer.status_code == 200, host
    if REMOTE is not None:  # with --lan, the machine's own addresses
        assert call(app, "GET", "/healthz", headers={"Host": REMOTE}).status_code == 200
    assert call(app, "GET", "/healthz", headers={"Host": "192.0.2.254"}).status_code == 400


def test_without_lan_only_the_loopback_names_are_answered(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path, lang="en")
    table, store = open_table(settings)
    try:
        app = create_app(settings, table)
        assert call(app, "GET", "/healthz", headers={"Host": "127.0.0.1:8000"}).status_code == 200
        hostname = socket.gethostname()
        assert call(app, "GET", "/healthz", headers={"Host": hostname}).status_code == 400
    finally:
        store.close()


def test_a_page_of_another_site_cannot_change_the_table(app: FastAPI) -> None:
    before = call(app, "GET", "/api/status").json()
    for headers in (
        {"Origin": "http://attacker.example"},
        {"Origin": "null"},
        {"Origin": "http://localhost:9999", "Host": "localhost:8000"},
        {"Sec-Fetch-Site": "cross-site"},
    ):
        refused = call(app, "POST", "/api/advance", headers=headers)
        assert refused.status_code == 403, headers
        assert "another site" in refused.json()["detail"]
        assert has_security_headers({k.lower(): v for k, v in refused.headers.items()})
    after = call(app, "GET", "/api/status").json()
    assert (after["seq"], after["moves"], after["menu"]) == (
        before["seq"],
        before["moves"],
        before["menu"],
    )
    # The kiosk's own page (same origin) and a client that sends no Origin may.
    own = {"Origin": "http://localhost:8000", "Host": "localhost:8000"}
    assert call(app, "POST", "/api/menu", json={}, headers=own).status_code == 200
    assert call(app, "POST", "/api/menu", json={}).status_code == 200
    # Reading is not a change: a GET with a foreign Origin is answered (CORS keeps it unread).
    assert call(app, "GET", "/healthz", headers={"Origin": "http://x.example"}).status_code == 200


def test_the_refusals_a_player_may_read_are_in_the_kiosk_language(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path, lang="zh", lan=True)
    table, store = open_table(settings)
    try:
        app = create_app(settings, table, pairing=Pairing(code=CODE))
        no_code = call(app, "POST", "/api/menu", json={}, client=PHONE)
        wrong = call(app, "POST", "/api/menu", json={}, client=PHONE, headers={PAIRING_HEADER: "1"})
        name = call(app, "GET", "/healthz", headers={"Host": "attacker.example"})
        site = call(app, "POST", "/api/menu", json={}, headers={"Origin": "http://x.example"})
    finally:
        store.close()
    assert "配对码" in no_code.json()["detail"] and "配对码不对" in wrong.json()["detail"]
    assert "不接受名称" in name.json()["detail"]
    assert "其他网站" in site.json()["detail"]
    for answer in (no_code, wrong, name, site):
        assert " the " not in answer.json()["detail"]


# --- every answer's headers, bad numbers ---------------------------------------------------------


def test_every_answer_carries_the_security_headers_errors_included(
    tmp_path: Path, app: FastAPI
) -> None:
    answers = {
        413: call(app, "POST", "/api/move", json={"type": "pass", "pad": "x" * 20000}),
        404: call(app, "GET", "/no/such/page"),
        422: call(app, "POST", "/api/settings", json={"brightness": 500}),
        403: call(app, "POST", "/api/advance", client=PHONE),
    }
    settings = load_settings(data_dir=tmp_path / "b", lang="en", http={"max_viewers": 0})
    table, store = open_table(settings)
    try:
        answers[503] = call(create_app(settings, table), "GET", "/api/live", client=PHONE)
    finally:
        store.close()
    for status, answer in answers.items():
        assert answer.status_code == status
        assert has_security_headers({k.lower(): v for k, v in answer.headers.items()}), status


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/settings", '{"stability": {"add_ms": NaN}}'),
        ("/api/settings", '{"stability": {"remove_ms": Infinity}}'),
        ("/api/move", '{"type": "pass", "seat": 0, "count": -Infinity}'),
        ("/api/new-game", '{"game": "greenwood", "players": 2, "options": {"x": NaN}}'),
    ],
)
def test_a_number_json_cannot_hold_answers_422_with_a_message(
    app: FastAPI, path: str, body: str
) -> None:
    answer = call(app, "POST", path, content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 422
    assert "finite" in json.dumps(answer.json()["detail"])


# --- the expensive routes ------------------------------------------------------------------------


def test_sticker_sheets_are_drawn_a_few_at_a_time_and_kept(app: FastAPI) -> None:
    camera._SHEETS.pop(("anchors", "svg"), None)
    busy = app.state.door.heavy
    for _ in range(busy.slots):  # every slot taken, as by slow requests
        busy._semaphore.acquire()
    try:
        refused = call(app, "GET", "/api/sheets/anchors.svg", client=PHONE)
    finally:
        for _ in range(busy.slots):
            busy._semaphore.release()
    assert refused.status_code == 503 and "busy" in refused.json()["detail"]
    assert int(refused.headers["retry-after"]) > 0
    first = call(app, "GET", "/api/sheets/anchors.svg", client=PHONE)
    assert first.status_code == 200 and b"<svg" in first.content[:1000]
    for _ in range(busy.slots):
        busy._semaphore.acquire()
    try:  # drawn once, answered from what was kept even while every slot is taken
        again = call(app, "GET", "/api/sheets/anchors.svg", client=PHONE)
    finally:
        for _ in range(busy.slots):
            busy._semaphore.release()
    assert again.status_code == 200 and again.content == first.content


def test_a_camera_reading_is_kept_for_its_frame_and_limited_for_a_new_one(app: FastAPI) -> None:
    import numpy as np

    feed = app.state.camera
    feed.publish(np.full((240, 320, 3), 90, np.uint8), [])
    first = call(app, "GET", "/api/camera/reading?lang=en", client=PHONE)
    assert first.status_code == 200 and first.json()["text"]
    busy = app.state.door.heavy
    for _ in range(busy.slots):
        busy._semaphore.acquire()
    try:
        kept = call(app, "GET", "/api/camera/reading?lang=en", client=PHONE)
        feed.publish(np.full((240, 320, 3), 30, np.uint8), [])  # a new frame: read anew
        refused = call(app, "GET", "/api/camera/reading?lang=en", client=PHONE)
    finally:
        for _ in range(busy.slots):
            busy._semaphore.release()
    assert kept.status_code == 200 and kept.json() == first.json()
    assert refused.status_code == 503 and "busy" in refused.json()["detail"]
    assert call(app, "GET", "/api/camera/reading?lang=en", client=PHONE).status_code == 200


# --- the log -------------------------------------------------------------------------------------


def test_a_flood_of_one_error_is_logged_once_a_minute_with_a_count(clock: Clock) -> None:
    import logging

    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    logger = logging.getLogger("test.hardening.flood")
    logger.propagate = False
    logger.addHandler(Keep())
    logger.addFilter(OncePerCause(60, clock))
    for n in range(1000):
        try:
            raise OSError(24, "Too many open files", f"/static/{n}.js")
        except OSError:
            logger.exception("error while answering %s", f"/static/{n}.js")
    try:
        raise ValueError("another cause")
    except ValueError:
        logger.exception("error while answering %s", "/api/x")
    assert len(records) == 2
    assert records[0].exc_info is not None and records[1].exc_info is not None
    clock.now += 61
    try:
        raise OSError(24, "Too many open files", "/static/last.js")
    except OSError:
        logger.exception("error while answering %s", "/static/last.js")
    assert len(records) == 3
    assert "999 more like it" in records[2].getMessage() and records[2].exc_info is None


# --- the command line ----------------------------------------------------------------------------


def test_an_empty_host_without_lan_is_refused_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "--data-dir", str(tmp_path), "run", "--host", ""],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "--lan" in lines[0] and "every address" in lines[0]


def test_loopback_is_the_kiosk_own_screen() -> None:
    """The helpers' premise: LOCAL stands for this machine, PHONE for another device."""
    assert ipaddress.ip_address(LOCAL[0]).is_loopback
    assert not ipaddress.ip_address(PHONE[0]).is_loopback
