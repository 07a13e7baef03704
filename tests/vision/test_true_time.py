"""True time: every frame carries the time it was taken — a folder's rate or its files' times, a
video's own timestamps, a camera's capture time — and `tablesight track` uses it."""

from __future__ import annotations

import json
import os
import struct
import time
from pathlib import Path

import cv2
import pytest

from kiosk.cli import main
from vision.sources import (
    CameraSource,
    FolderSource,
    SourceConfig,
    VideoFileSource,
    capture_time,
)
from vision.synthetic import Camera, Component, SyntheticTable, render

CAMERA = Camera.overhead(320, 240, height_mm=500)
TABLE = SyntheticTable((Component(150, 450, 300, 20, 40),))


def folder_of(path: Path, count: int, gaps_ms: list[float] | None = None) -> Path:
    """``count`` small frames of one sticker; with ``gaps_ms``, their files' modification times
    lie that far apart (from a second ago)."""
    path.mkdir()
    image = render(TABLE, CAMERA).image
    start_ns = time.time_ns() - 10**9
    at = 0.0
    for i in range(count):
        file = path / f"{i:03d}.png"
        cv2.imwrite(str(file), image)
        if gaps_ms is not None:
            at += gaps_ms[i - 1] if i else 0.0
            stamp = start_ns + round(at * 1e6)
            os.utime(file, ns=(stamp, stamp))
    return path


def stamps(source, count: int) -> list[float]:
    source.open()
    return [round(source.read().timestamp_ms, 3) for _ in range(count)]


def test_a_folder_plays_at_its_fps(tmp_path: Path) -> None:
    folder = folder_of(tmp_path / "f", 3, gaps_ms=[500, 500])  # its times are not used
    source = FolderSource(SourceConfig("folder", path=folder, fps=25))
    assert stamps(source, 3) == [0.0, 40.0, 80.0]
    assert source.clock == "25 frames a second (as set)"


def test_without_fps_a_folder_follows_its_files_times_lap_after_lap(tmp_path: Path) -> None:
    folder = folder_of(tmp_path / "f", 4, gaps_ms=[33, 37, 30])
    source = FolderSource(SourceConfig("folder", path=folder, loop=True))
    assert stamps(source, 6) == [0.0, 33.0, 70.0, 100.0, 133.0, 166.0]  # a lap: + typical gap
    assert source.clock == "the files' modification times" and not source.rate_guessed


@pytest.mark.parametrize(
    ("gaps", "why"),
    [([0.5, 0.5], "lie 0.5 ms apart"), ([40, -10], "do not follow the names' order")],
)
def test_files_times_that_are_no_camera_s_give_the_default_rate_and_say_why(
    tmp_path: Path, gaps: list[float], why: str
) -> None:
    folder = folder_of(tmp_path / "f", 3, gaps_ms=gaps)
    source = FolderSource(SourceConfig("folder", path=folder))
    assert stamps(source, 3) == [0.0, 100.0, 200.0]
    assert source.clock.startswith("10 frames a second: the files' modification times " + why)
    assert source.rate_guessed


def retime(path: Path, deltas: list[int]) -> None:
    """Give the frames of an MP4 file these durations (in its track's time units), by rewriting
    its sample-to-time table (``stts``); the index lies after the pictures, so no offset moves."""
    containers = {b"moov", b"trak", b"mdia", b"minf", b"stbl"}

    def rebuild(data: bytes) -> bytes:
        out, at = b"", 0
        while at < len(data):
            size, kind = struct.unpack(">I4s", data[at : at + 8])
            body = data[at + 8 : at + size]
            if kind in containers:
                body = rebuild(body)
            elif kind == b"stts":
                entries = b"".join(struct.pack(">II", 1, d) for d in deltas)
                body = struct.pack(">II", 0, len(deltas)) + entries
            out += struct.pack(">I4s", 8 + len(body), kind) + body
            at += size
        return out

    path.write_bytes(rebuild(path.read_bytes()))


def test_a_video_s_frames_carry_its_own_timestamps(tmp_path: Path) -> None:
    path = tmp_path / "uneven.mp4"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 25, (320, 240))
    for _ in range(5):
        writer.write(render(TABLE, CAMERA).image)
    writer.release()
    retime(path, [256, 768, 512, 512, 512])  # 25 a second on average, in units of 1/12800 s
    source = VideoFileSource(SourceConfig("video", path=path, loop=True))
    assert stamps(source, 7) == [0.0, 20.0, 80.0, 120.0, 160.0, 200.0, 220.0]


def test_a_camera_s_capture_time_is_used_when_plausible(tmp_path: Path) -> None:
    assert capture_time(1000.0, 1030.0) == 1000.0  # the driver's time, 30 ms before
    assert capture_time(30.0, 50_000.0) == 50_000.0  # another clock (a file's position)
    assert capture_time(1100.0, 1000.0) == 1000.0  # in the future
    assert capture_time(None, 1000.0) == 1000.0
    # A video file stands in for a V4L2 device (the same capture code): its positions are not
    # the monotonic clock, so each frame is stamped when it was taken in, never going back.
    device = tmp_path / "video0.avi"
    writer = cv2.VideoWriter(str(device), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 240))
    for _ in range(3):
        writer.write(render(TABLE, CAMERA).image)
    writer.release()
    before = time.monotonic() * 1000
    times = stamps(CameraSource(SourceConfig("camera", device=str(device))), 3)
    assert before <= times[0] <= times[1] <= times[2] <= time.monotonic() * 1000


def track_times(tmp_path: Path, capsys, *argv: str) -> tuple[list[float], str]:
    """The times of `tablesight track --json`'s adds, and its stderr."""
    assert main(["--data-dir", str(tmp_path / "data"), "track", *argv, "--json"]) == 0
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    return [e["time_ms"] for e in lines if e["event"] == "add"], err


def test_track_stamps_a_folder_by_fps_the_settings_or_its_files(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    folder = folder_of(tmp_path / "f", 4, gaps_ms=[50, 50, 50])
    spec = f"folder:{folder}"
    # added when seen in 3 frames and for 100 ms: frame 3 at 25 a second, frame 2 from 5
    assert track_times(tmp_path, capsys, spec, "--fps", "25")[0] == [120.0]
    times, err = track_times(tmp_path, capsys, spec)
    assert times == [100.0]  # frame 2 by the files' times, 50 ms apart
    assert "frame times: the files' modification times" in err
    monkeypatch.setenv("TABLESIGHT_CAMERA__FPS", "5")
    times, err = track_times(tmp_path, capsys, spec)
    assert times == [400.0]
    assert "frame times: 5 frames a second (as set)" in err
    assert main(["--data-dir", str(tmp_path), "track", spec, "--fps", "0"]) == 2
    assert "--fps must be above 0" in capsys.readouterr().err
