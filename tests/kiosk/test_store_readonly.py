"""Saves that cannot be written: said at start in one line, every move refused with the reason
(503 over HTTP, the same words on the table screen), nothing changed, never taken for damage.

The tests run as root, where ``chmod`` stops nothing. The read-only file and folder are made
real with a read-only bind mount in a mount namespace of the kiosk's own (``unshare -m``: the
kernel answers EROFS to every write, as on a read-only SD card), or with ``chmod`` when the tests
do not run as root. The full disk is a real 256 kB tmpfs, filled, in such a namespace too. Where
neither can be made, the test is skipped and says why.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

import httpx
import pytest
from serving import LOCAL, asgi_call, free_port

from engine.core import Session, find_game, offers
from engine.core.offers import sample
from kiosk.app import create_app
from kiosk.settings import load_settings
from kiosk.store import NOT_KEPT_CODE, SaveNotKeptError, Store
from kiosk.table import open_table

ROOT = os.geteuid() == 0


def namespaces_work() -> bool:
    if not ROOT or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", "mount -t tmpfs none /mnt && umount /mnt"],
        capture_output=True,
    )
    return probe.returncode == 0


NAMESPACES = namespaces_work()


def moves_of(count: int) -> list:
    import random

    session = Session(
        find_game("greenwood"), {"players": 2, "start_seat": 0, "draws": "virtual"}, 0
    )
    rnd = random.Random(0)
    while len(session.moves) < count:
        move = sample(offers(session.game, session.state), rnd)
        assert move is not None
        session.submit(move)
    return list(session.moves)


def saved_game(folder: Path, moves: int = 4) -> Path:
    path = folder / "games.sqlite"
    with Store.open(path) as store:
        saved = store.new_game(
            "friday", "greenwood", {"players": 2, "start_seat": 0, "draws": "virtual"}
        )
        for move in moves_of(moves):
            assert saved.submit(move).accepted
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return path


# --- in process: the store and the app ------------------------------------------------------


def test_a_read_only_store_refuses_moves_and_changes_nothing(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    before = path.read_bytes()
    with Store.open(path, read_only=True) as store:
        assert store.cannot_keep is not None
        saved = store.load("friday")
        assert len(saved.session.moves) == 4
        state = saved.session.state
        with pytest.raises(SaveNotKeptError) as info:
            saved.submit(moves_of(5)[4])
        assert "cannot be written" in info.value.text.en and "无法写入" in info.value.text.zh
        assert saved.session.state == state and len(saved.session.moves) == 4
        with pytest.raises(SaveNotKeptError):
            saved.undo()
        assert len(saved.session.moves) == 4
    assert path.read_bytes() == before


def test_the_app_answers_503_with_the_reason_and_the_screen_says_it(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    settings = load_settings(data_dir=tmp_path, lang="en")
    table, store = open_table(settings, Store.open(path, read_only=True))
    app = create_app(settings, table)
    try:
        (warning,) = table.warnings
        assert warning.en.startswith("the saved games are read-only: nothing would be kept")
        assert warning.zh.startswith("存档只读")
        move = moves_of(5)[4].to_dict()
        answer = asgi_call(app, "POST", "/api/move", json=move, client=LOCAL)
        assert answer.status_code == 503
        reason = answer.json()["detail"]
        assert reason.startswith("Not accepted: the saved game cannot be written")
        status = asgi_call(app, "GET", "/api/status", client=LOCAL).json()
        assert status["moves"] == 4
        assert status["refusal"]["why"] == reason  # the same words on the table screen
        assert reason in status["notices"]
        undo = asgi_call(app, "POST", "/api/undo", client=LOCAL)
        assert undo.status_code == 503 and undo.json()["detail"] == reason
        assert table.saved.session.moves == moves_of(4)
    finally:
        store.close()


def test_a_table_refusal_for_the_save_has_its_own_code(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    table, store = open_table(load_settings(data_dir=tmp_path), Store.open(path, read_only=True))
    try:
        result = table.submit(moves_of(5)[4])
        assert not result.accepted and result.verdict.code == NOT_KEPT_CODE
    finally:
        store.close()


# --- a real `tablesight run` on read-only storage ------------------------------------------------


def start_kiosk(data_dir: Path, read_only: Path | None) -> tuple[subprocess.Popen[str], str]:
    """`tablesight run` on ``data_dir``, with ``read_only`` (a file or folder) bind-mounted
    read-only in the kiosk's own mount namespace (root), or made read-only with chmod."""
    port = free_port()
    cmd = [sys.executable, "-m", "kiosk.cli", "--data-dir", str(data_dir), "--lang", "en"]
    cmd += ["run", "--port", str(port)]
    if read_only is not None and ROOT:
        mount = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'
        cmd = ["unshare", "-m", "sh", "-c", mount, "sh", str(read_only), *cmd]
    elif read_only is not None:
        read_only.chmod(0o555 if read_only.is_dir() else 0o444)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(sys.path),
        "TABLESIGHT_SIMULATION": "false",
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
            return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("tablesight run did not answer within 30 s")


def stop(proc: subprocess.Popen[str]) -> str:
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    return err


@pytest.mark.skipif(ROOT and not NAMESPACES, reason="root without mount namespaces")
@pytest.mark.parametrize(
    ("what", "why"),
    [("file", "the save file is read-only"), ("folder", "the save folder is read-only")],
)
def test_run_on_read_only_saves_says_so_at_start_and_refuses_moves(
    tmp_path: Path, what: str, why: str
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    path = saved_game(folder)
    before = path.read_bytes()
    proc, url = start_kiosk(folder, path if what == "file" else folder)
    try:
        answer = httpx.post(f"{url}/api/move", json=moves_of(5)[4].to_dict(), timeout=10)
        status = httpx.get(f"{url}/api/status", timeout=10).json()
    finally:
        err = stop(proc)
        if not ROOT:
            (path if what == "file" else folder).chmod(0o755)
    assert answer.status_code == 503, answer.text
    assert answer.json()["detail"] == (
        f"Not accepted: the saved game cannot be written ({why}), so this could not be kept"
    )
    assert status["moves"] == 4 and status["save"] == "friday"
    assert status["refusal"]["why"] == answer.json()["detail"]
    lines = err.splitlines()
    said = (
        f"tablesight: the saved games are read-only: nothing would be kept ({why}); moves,"
        " undos and redos are refused"
    )
    assert lines.count(said) == 1  # in the start-up report, once
    assert "Traceback" not in err and "damaged" not in err
    assert lines[-1] == "tablesight: stopped; the saves were read-only, nothing was kept"
    assert path.read_bytes() == before
    assert not list(folder.glob("*.damaged-*"))  # a read-only folder is not damage


FULL_DISK = textwrap.dedent(
    """
    import json, os, sqlite3, subprocess, sys
    from pathlib import Path
    from engine.core import Session, find_game, offers
    from engine.core.offers import sample
    from kiosk.store import SaveNotKeptError, Store
    import random
    folder = Path(sys.argv[1])
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "none", str(folder)], check=True)
    path = folder / "games.sqlite"
    store = Store.open(path)
    saved = store.new_game("full", "stonesaga", None, seed=1)
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    for block in (4096, 1):  # fill the disk to the last byte
        try:
            while True:
                os.write(fd, b"x" * block)
        except OSError:
            pass
    os.close(fd)
    rnd = random.Random(1)
    accepted, refused, reason = [], 0, None
    while saved.session.state.outcome is None and refused < 3:
        move = sample(offers(saved.game, saved.session.state), rnd)
        if move is None:
            break
        moves_before = len(saved.session.moves)
        try:
            if saved.submit(move).accepted:
                accepted.append(move.to_json())
        except SaveNotKeptError as exc:
            refused += 1
            reason = exc.text.en
            assert len(saved.session.moves) == moves_before
    store.close()
    filler.unlink()
    with Store.open(path) as again:
        resumed = [m.to_json() for m in again.load("full").session.moves]
    print(json.dumps({"accepted": accepted, "refused": refused, "reason": reason,
                      "resumed": resumed}))
    """
)


@pytest.mark.skipif(not NAMESPACES, reason="needs root and mount namespaces for a small tmpfs")
def test_a_full_disk_refuses_moves_with_the_reason_and_keeps_what_was_accepted(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "small"
    folder.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.run(
        ["unshare", "-m", sys.executable, "-c", FULL_DISK, str(folder)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.splitlines()[-1])
    assert result["refused"] == 3
    assert result["reason"] == (
        "Not accepted: the saved game cannot be written (the disk is full), so this could not"
        " be kept"
    )
    assert result["resumed"] == result["accepted"]  # every accepted move, no refused one
