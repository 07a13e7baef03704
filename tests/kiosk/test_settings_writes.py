"""The settings page's changes survive kills, a second writer and a full disk (issue 40).

Real processes and real files: four writer processes post changes to a real `tablesight run`
(or call the settings writer themselves, as a second kiosk sharing the data folder would),
and are killed with SIGKILL in the middle, the server too; after each kill every change that
was answered 200 is in ``kiosk-settings.json``, no temporary file is left and no change was
answered 503 while the folder could be written. A full disk is a real 64 KiB tmpfs.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from kiosk.settings import (
    DAMAGED_INFIX,
    KIOSK_FILE,
    LAST_GOOD_SUFFIX,
    LOCK_SUFFIX,
    SETTINGS_BUSY,
    KioskChanges,
    apply_kiosk_changes,
    load_settings,
    save_kiosk_changes,
)
from tests.support.serving import Server, start_server

KILLS = 24
"""SIGKILLs per run (the issue asks for 20 or more)."""

KEYS = ("brightness", "add_ms", "remove_ms", "sound")
"""One key per writer, so that each writer's last answered value is known exactly."""

HTTP_WRITER = r"""
import sys, time, httpx
url, key, log, start = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
def body(i):
    value = {"brightness": i % 101, "add_ms": i, "remove_ms": 2 * i, "sound": i % 2 == 0}[key]
    return {"stability": {key: value}} if key.endswith("_ms") else {key: value}
with open(log, "a", buffering=1) as out:
    for i in range(start, 10**6):
        while True:
            out.write(f"sent {i}\n")
            try:
                answer = httpx.post(url + "/api/settings", json=body(i), timeout=30)
            except httpx.TransportError:  # the server is down (killed): the same value again
                time.sleep(0.05)
                continue
            if answer.status_code != 200:
                out.write(f"status {answer.status_code} {answer.text}\n")
                sys.exit(1)
            out.write(f"ok {i}\n")
            break
"""

DIRECT_WRITER = r"""
import sys
from pathlib import Path
from kiosk.settings import KioskChanges, load_settings, save_kiosk_changes
folder, key, log, start = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
settings = load_settings(data_dir=folder)
with open(log, "a", buffering=1) as out:
    for i in range(start, 10**6):
        value = {"brightness": i % 101, "add_ms": i, "remove_ms": 2 * i, "sound": i % 2 == 0}[key]
        out.write(f"sent {i}\n")
        save_kiosk_changes(settings, KioskChanges(**{key: value}))
        out.write(f"ok {i}\n")
"""


def value_of(key: str, i: int) -> object:
    """What writer ``key`` sends as its ``i``-th change (as the writers compute it)."""
    return {"brightness": i % 101, "add_ms": i, "remove_ms": 2 * i, "sound": i % 2 == 0}[key]


def read_log(log: Path) -> tuple[int | None, int | None]:
    """The last value sent and the last one answered 200 by a writer; fails on another answer."""
    sent = answered = None
    for line in log.read_text().splitlines() if log.exists() else []:
        word, _, rest = line.partition(" ")
        assert word in ("sent", "ok", ""), f"{log.name}: a change was answered {rest}"
        if word == "sent" and rest.isdigit():
            sent = int(rest)
        elif word == "ok" and rest.isdigit():
            answered = int(rest)
    return sent, answered


def check_kept(folder: Path, logs: dict[str, Path]) -> None:
    """Each writer's last change answered 200 is in the file (or the one it sent after it, not
    yet answered when the check came: it may have landed)."""
    kept = json.loads((folder / KIOSK_FILE).read_text())
    for key, log in logs.items():
        sent, answered = read_log(log)
        if answered is None:
            continue
        allowed = {value_of(key, answered)}
        if sent is not None and sent > answered:
            allowed.add(value_of(key, sent))
        assert kept.get(key) in allowed, f"{key}: kept {kept.get(key)!r}, answered {answered}"


def leftovers(folder: Path) -> list[str]:
    """Temporary files in the data folder."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def writer(script: str, target: str, key: str, log: Path) -> subprocess.Popen[bytes]:
    """A writer process for ``key``, going on from its log's last sent value (sent again: it
    may not have landed)."""
    start = read_log(log)[0] or 0
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.Popen(
        [sys.executable, "-c", script, target, key, str(log), str(start)],
        env=env,
        stderr=subprocess.DEVNULL,
    )


def wait_for_progress(logs: dict[str, Path], at_least: int) -> None:
    """Wait until every writer has been answered ``at_least`` more times (a wait for work to
    happen before the next kill, not an assertion on speed: 60 s at most)."""
    start = {k: read_log(log)[1] or 0 for k, log in logs.items()}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if all((read_log(log)[1] or 0) >= start[k] + at_least for k, log in logs.items()):
            return
        time.sleep(0.05)
    raise AssertionError(f"the writers made no progress: {[read_log(p) for p in logs.values()]}")


@contextlib.contextmanager
def writers(script: str, target: str, logs: dict[str, Path]) -> Iterator[dict[str, object]]:
    """Four writer processes (one per key) that the block may kill and restart; all killed at
    the end."""
    procs: dict[str, object] = {k: writer(script, target, k, log) for k, log in logs.items()}
    try:
        yield procs
    finally:
        for proc in procs.values():
            assert isinstance(proc, subprocess.Popen)
            proc.kill()
            proc.wait(30)


@pytest.mark.slow
@pytest.mark.timeout(360)  # a bound on its work (24 kills, 6 starts of the kiosk), not a speed
def test_four_writers_and_a_server_killed_24_times_lose_no_answered_setting(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    logs = {key: tmp_path / f"{key}.log" for key in KEYS}
    server: Server = start_server(folder)
    port, chance = server.port, random.Random(40)
    server_kills = 0
    try:
        with writers(HTTP_WRITER, server.url, logs) as procs:
            for n in range(KILLS):
                wait_for_progress(logs, 2)
                if n % 4 == 3:  # the server, with the writers held still until it is back
                    for proc in procs.values():
                        assert isinstance(proc, subprocess.Popen)
                        proc.send_signal(signal.SIGSTOP)
                    server.kill()
                    server_kills += 1
                    check_kept(folder, logs)
                    server = start_server(folder, port=port)
                    assert not leftovers(folder)  # the start removed what a kill left
                    check_kept(folder, logs)
                    status = httpx.get(server.url + "/api/status", timeout=30).json()
                    kept = json.loads((folder / KIOSK_FILE).read_text())
                    assert status["settings"]["brightness"] == kept["brightness"]
                    assert status["settings"]["sound"] == kept["sound"]
                    for proc in procs.values():
                        assert isinstance(proc, subprocess.Popen)
                        proc.send_signal(signal.SIGCONT)
                else:  # a writer, in the middle of its changes
                    key = chance.choice(KEYS)
                    proc = procs[key]
                    assert isinstance(proc, subprocess.Popen)
                    proc.kill()
                    proc.wait(30)
                    procs[key] = writer(HTTP_WRITER, server.url, key, logs[key])
            wait_for_progress(logs, 3)
        server.kill()
        check_kept(folder, logs)
        server = start_server(folder, port=port)
        assert not leftovers(folder)
    finally:
        if server.process.poll() is None:
            server.kill()
    assert server_kills == KILLS // 4
    assert all((read_log(log)[1] or 0) > 20 for log in logs.values())  # the writers did write


@pytest.mark.slow
def test_writers_sharing_a_data_folder_killed_24_times_keep_each_others_changes(
    tmp_path: Path,
) -> None:
    """As two kiosk processes (or a café) sharing one data folder: each writer changes only
    its own key, and no writer's change wipes another's."""
    folder = tmp_path / "data"
    folder.mkdir()
    logs = {key: tmp_path / f"{key}.log" for key in KEYS}
    chance = random.Random(41)
    with writers(DIRECT_WRITER, str(folder), logs) as procs:
        for _ in range(KILLS):
            wait_for_progress(logs, 2)
            key = chance.choice(KEYS)
            proc = procs[key]
            assert isinstance(proc, subprocess.Popen)
            proc.kill()
            proc.wait(30)
            procs[key] = writer(DIRECT_WRITER, str(folder), key, logs[key])
        for proc in procs.values():  # all of them, mid-write: then a start
            assert isinstance(proc, subprocess.Popen)
            proc.kill()
            proc.wait(30)
        check_kept(folder, logs)
        settings = load_settings(data_dir=folder)
        assert apply_kiosk_changes(settings) is None  # nothing damaged, nothing to say
        assert not leftovers(folder)  # the start removed what the kills left
        assert settings.brightness == json.loads((folder / KIOSK_FILE).read_text())["brightness"]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 64 KiB filesystem (tmpfs), unmounted afterwards; skipped where it cannot be
    mounted (mounting needs root)."""
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"a 64 KiB tmpfs cannot be mounted here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False)


def fill(folder: Path) -> None:
    """Fill the filesystem of ``folder`` to its last byte."""
    with open(folder / "filler", "wb", buffering=0) as out:
        for size in (4096, 1):
            with contextlib.suppress(OSError):
                while out.write(b"\0" * size):
                    pass


def test_a_full_disk_refuses_the_change_truthfully_and_leaves_no_temporary_file(
    small_disk: Path,
) -> None:
    settings = load_settings(data_dir=small_disk)
    save_kiosk_changes(settings, KioskChanges(brightness=30))
    before = (small_disk / KIOSK_FILE).read_bytes()
    fill(small_disk)
    with pytest.raises(OSError) as refused:
        save_kiosk_changes(settings, KioskChanges(brightness=70))
    assert refused.value.errno == errno.ENOSPC
    assert (small_disk / KIOSK_FILE).read_bytes() == before  # the last kept change stands
    assert not leftovers(small_disk)
    (small_disk / "filler").unlink()  # room again: the same change is kept
    save_kiosk_changes(settings, KioskChanges(brightness=70))
    later = load_settings(data_dir=small_disk)
    apply_kiosk_changes(later)
    assert later.brightness == 70 and not leftovers(small_disk)


def test_a_damaged_file_is_set_aside_and_the_last_good_one_used_with_a_notice(
    tmp_path: Path,
) -> None:
    settings = load_settings(data_dir=tmp_path)
    save_kiosk_changes(settings, KioskChanges(brightness=30, sound=False))
    save_kiosk_changes(settings, KioskChanges(brightness=45))  # 30 is now the last good one
    last_good = json.loads((tmp_path / (KIOSK_FILE + LAST_GOOD_SUFFIX)).read_text())
    assert last_good == {"brightness": 30, "sound": False}
    (tmp_path / KIOSK_FILE).write_text('{"brightness": 45, "sound": fa')  # cut short
    later = load_settings(data_dir=tmp_path)
    notice = apply_kiosk_changes(later)
    assert (later.brightness, later.sound) == (30, False)
    assert notice is not None
    assert "the last change was lost" in notice.en and "the brightness and the sound" in notice.en
    assert "最后一次修改丢失了" in notice.zh and "“亮度”和“声音”" in notice.zh
    aside = [p for p in tmp_path.iterdir() if DAMAGED_INFIX in p.name]
    assert len(aside) == 1 and aside[0].read_text() == '{"brightness": 45, "sound": fa'
    assert json.loads((tmp_path / KIOSK_FILE).read_text()) == last_good  # written back
    again = load_settings(data_dir=tmp_path)
    assert apply_kiosk_changes(again) is None and again.brightness == 30


def test_a_file_with_only_a_foreign_key_still_says_the_last_change_was_lost(
    tmp_path: Path,
) -> None:
    settings = load_settings(data_dir=tmp_path)
    save_kiosk_changes(settings, KioskChanges(sound=False))
    save_kiosk_changes(settings, KioskChanges(sound=True))
    (tmp_path / KIOSK_FILE).write_text('{"volume": 3}')
    later = load_settings(data_dir=tmp_path)
    notice = apply_kiosk_changes(later)
    assert notice is not None and later.sound is False
    assert notice.en.endswith(
        "the last change was lost, and the last good settings are used for the sound"
    )


def test_a_damaged_value_is_named_as_lost(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path)
    save_kiosk_changes(settings, KioskChanges(brightness=30, add_ms=200))
    save_kiosk_changes(settings, KioskChanges(brightness=45))
    (tmp_path / KIOSK_FILE).write_text('{"brightness": 45, "add_ms": -1}')
    later = load_settings(data_dir=tmp_path)
    notice = apply_kiosk_changes(later)
    assert notice is not None
    assert "the latest choice of the brightness and how long a piece is seen" in notice.en
    assert (later.brightness, later.stabiliser.add_ms) == (30, 200)


def test_the_lost_settings_are_on_the_kiosk_screen_not_only_on_stderr(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    settings = load_settings(data_dir=folder)
    save_kiosk_changes(settings, KioskChanges(brightness=30))
    save_kiosk_changes(settings, KioskChanges(brightness=45))
    (folder / KIOSK_FILE).write_text("")  # as the old writer left it after a kill
    server = start_server(folder)
    try:
        status = httpx.get(server.url + "/api/status", timeout=30).json()
        zh = httpx.get(server.url + "/api/status?lang=zh", timeout=30).json()
    finally:
        server.kill()
    assert status["settings"]["brightness"] == 30
    assert any("the kiosk's saved settings were damaged" in n for n in status["notices"])
    assert any("看板保存的设置已损坏" in n for n in zh["notices"])


HOLDER = r"""
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(120)
"""


def test_a_change_while_another_process_holds_the_settings_is_refused_with_the_truth(
    tmp_path: Path,
) -> None:
    """Another process on the same data folder holds the settings' lock longer than
    LOCK_WAIT_S (here one that takes it and sleeps): 409, in the kiosk's words, nothing
    changed; once it lets go, the same change is made."""
    folder = tmp_path / "data"
    server = start_server(folder)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(folder / (KIOSK_FILE + LOCK_SUFFIX))],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        before = httpx.get(server.url + "/api/status", timeout=30).json()["settings"]
        refused = httpx.post(server.url + "/api/settings", json={"brightness": 7}, timeout=60)
        assert refused.status_code == 409
        assert refused.json()["detail"] == SETTINGS_BUSY.en
        assert httpx.get(server.url + "/api/status", timeout=30).json()["settings"] == before
        holder.kill()
        holder.wait(30)
        answer = httpx.post(server.url + "/api/settings", json={"brightness": 7}, timeout=60)
        assert answer.status_code == 200 and answer.json()["brightness"] == 7
        assert json.loads((folder / KIOSK_FILE).read_text())["brightness"] == 7
    finally:
        holder.kill()
        server.kill()
