"""Hostile and unlucky image inputs (issue #14) through the real `tablesight` entry point: each
is one clear line and exit status 2, never a traceback, a crash or minutes of decoding; and a
running `tablesight run` whose camera is a folder holding such files keeps running."""

from __future__ import annotations

import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import cv2
import httpx
import numpy as np
import pytest
from serving import start_server

from vision.errors import ImageReadError
from vision.sources import (
    MAX_IMAGE_PIXELS,
    FolderSource,
    SourceConfig,
    check_image_file,
    image_file_size,
)
from vision.synthetic import Camera, SyntheticTable, render, scattered_table

TABLESIGHT = Path(sys.executable).with_name("tablesight")
WAIT_S = 60.0  # a bound on waiting for a server's frames, not a speed requirement


def tablesight(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """Run the installed `tablesight` command (the real entry point) in a fresh data folder."""
    command = [str(TABLESIGHT)] if TABLESIGHT.exists() else [sys.executable, "-m", "kiosk.cli"]
    return subprocess.run(
        [*command, "--data-dir", str(tmp_path / "data"), *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def png_declaring(path: Path, width: int, height: int, rows: int = 1) -> Path:
    """A valid PNG header declaring ``width`` × ``height`` grey pixels, with ``rows`` rows of
    data compressed (a decompression bomb: tiny on disk, huge once decoded)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    packer = zlib.compressobj(9)
    row = b"\0" * (width + 1)
    data = b"".join(packer.compress(row) for _ in range(rows)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )
    return path


def one_clear_line(result: subprocess.CompletedProcess[str], *words: str) -> str:
    """Exit 2, nothing but one line on stderr, holding ``words``; returns that line."""
    lines = result.stderr.splitlines()
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def test_a_zero_by_zero_pfm_is_refused(tmp_path: Path) -> None:
    pfm = tmp_path / "empty.pfm"
    pfm.write_bytes(b"Pf\n0 0\n-1.0\n")
    one_clear_line(tablesight(tmp_path, "detect", str(pfm)), "empty.pfm", "0×0", "too small")


def test_a_decompression_bomb_is_refused_from_its_header(tmp_path: Path) -> None:
    bomb = png_declaring(tmp_path / "bomb.png", 100_000, 100_000)
    assert bomb.stat().st_size < 100_000  # ten thousand megapixels declared in a small file
    line = one_clear_line(tablesight(tmp_path, "detect", str(bomb)), "bomb.png", "50 megapixels")
    assert "100000×100000 (10,000 megapixels)" in line and "nothing was decoded" in line


def test_every_verb_refuses_the_bomb_before_decoding(tmp_path: Path) -> None:
    bomb = png_declaring(tmp_path / "bomb.png", 100_000, 100_000)
    for argv in (["scan", "greenwood", str(bomb)], ["calibrate", str(bomb)]):
        one_clear_line(tablesight(tmp_path, *argv), "bomb.png", "above the limit of 50 megapixels")
    assert not (tmp_path / "data" / "calibration.json").exists()


def test_a_sixteen_thousand_pixel_square_png_is_refused(tmp_path: Path) -> None:
    big = png_declaring(tmp_path / "big.png", 16_000, 16_000, rows=16_000)
    assert MAX_IMAGE_PIXELS < 16_000 * 16_000
    one_clear_line(
        tablesight(tmp_path, "detect", "--json", str(big)),
        "big.png",
        "16000×16000 (256 megapixels)",
    )


def test_the_limit_is_read_from_the_header_below_pillows_own(tmp_path: Path) -> None:
    # 8000 × 8000 is under Pillow's decompression-bomb error: the size itself is named.
    path = png_declaring(tmp_path / "large.png", 8000, 8000)
    assert image_file_size(path) == (8000, 8000)
    with pytest.raises(ImageReadError, match="8000×8000 \\(64 megapixels\\)"):
        check_image_file(path)


@pytest.mark.parametrize(("width", "height"), [(1, 1), (2, 2), (4, 4), (640, 3), (1, 1000)])
def test_tiny_images_are_refused_by_every_verb(tmp_path: Path, width: int, height: int) -> None:
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), np.full((height, width, 3), 200, np.uint8))
    for argv in (["detect", str(tiny)], ["scan", "greenwood", str(tiny)], ["calibrate", str(tiny)]):
        one_clear_line(tablesight(tmp_path, *argv), "tiny.png", f"{width}×{height}", "too small")


def test_a_text_file_named_png_is_not_an_image(tmp_path: Path) -> None:
    text = tmp_path / "notes.png"
    text.write_text("a shopping list\n")
    for argv in (["detect", str(text)], ["scan", "stonesaga", str(text)], ["calibrate", str(text)]):
        one_clear_line(tablesight(tmp_path, *argv), "notes.png", "not an image")


@pytest.mark.parametrize(
    ("flag", "target", "words"),
    [
        ("--picture", "notes.txt", ("not a picture file name", ".png")),
        ("--picture", "folder", ("is a folder",)),
        ("--out", "folder", ("is a folder",)),
        ("--out", "plain-file/calibration.json", ("is a file, not a folder",)),
        ("--picture", "plain-file/seen.png", ("is a file, not a folder",)),
    ],
)
def test_calibrate_refuses_unusable_output_paths_before_working(
    tmp_path: Path, flag: str, target: str, words: tuple[str, ...]
) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "plain-file").write_text("not a folder\n")
    (tmp_path / "notes.txt").write_text("notes\n")
    result = tablesight(
        tmp_path, "calibrate", "--source", "synthetic", flag, str(tmp_path / target)
    )
    one_clear_line(result, flag, *words)
    assert result.stdout == ""  # refused before a frame was taken
    assert not (tmp_path / "data" / "calibration.json").exists()
    assert (tmp_path / "plain-file").read_text() == "not a folder\n"


def test_a_folder_source_skips_unusable_files_and_reads_the_others(tmp_path: Path) -> None:
    folder = tmp_path / "shots"
    folder.mkdir()
    cv2.imwrite(str(folder / "a-tiny.png"), np.zeros((2, 2, 3), np.uint8))
    (folder / "b-broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    png_declaring(folder / "c-bomb.png", 100_000, 100_000)
    shot = scattered_table(3, seed=2).components
    rendering = render(SyntheticTable(shot), Camera.overhead(640, 360, height_mm=700))
    cv2.imwrite(str(folder / "d-good.png"), rendering.image)
    source = FolderSource(SourceConfig("folder", path=folder))
    source.open()
    frame = source.read()
    assert frame.image.shape == (360, 640, 3) and frame.index == 0
    assert [line.split(": ", 2)[1] for line in source.skipped] == [
        "skipped a-tiny.png",
        "skipped b-broken.png",
        "skipped c-bomb.png",
    ]


def test_a_running_kiosk_keeps_reading_a_folder_with_bad_files(tmp_path: Path) -> None:
    folder = tmp_path / "camera"
    folder.mkdir()
    cv2.imwrite(str(folder / "0-tiny.png"), np.zeros((1, 1, 3), np.uint8))
    (folder / "1-broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    pfm = folder / "2-empty.pfm"  # not a frame suffix the folder lists: ignored
    pfm.write_bytes(b"Pf\n0 0\n-1.0\n")
    png_declaring(folder / "3-bomb.png", 100_000, 100_000)
    table = scattered_table(4, seed=3, first_id=100)
    rendering = render(SyntheticTable(table.components), Camera.overhead(960, 540, height_mm=800))
    cv2.imwrite(str(folder / "4-good.png"), rendering.image)
    truth = {t.tag_id for t in rendering.truth}
    server = start_server(tmp_path / "data", env={"TABLESIGHT_CAMERA__SOURCE": f"folder:{folder}"})
    try:
        deadline = time.monotonic() + WAIT_S
        seen: set[int] = set()
        frames = 0
        while time.monotonic() < deadline and (seen != truth or frames < 5):
            state = httpx.get(f"{server.url}/api/camera", timeout=10).json()
            seen, frames = {d["id"] for d in state["detections"]}, state["frames"]
            time.sleep(0.2)
        assert seen == truth
        assert frames >= 5  # the folder loops: the good frame comes round again and again
        assert server.process.poll() is None  # still running
        assert httpx.get(f"{server.url}/healthz", timeout=10).status_code == 200
        status, err = server.stop()
    finally:
        if server.process.poll() is None:
            server.kill()
    assert status == 0
    assert "Traceback" not in err
    assert err.count("skipped 0-tiny.png") == 1  # each bad file said once, not every lap
    assert "skipped 1-broken.jpg" in err and "skipped 3-bomb.png" in err
