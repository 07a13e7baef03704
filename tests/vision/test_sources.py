"""Frame sources: chosen by spec, read real files, and survive being unplugged."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detection import Detector
from vision.errors import SourceLostError
from vision.sources import (
    Backoff,
    CameraSource,
    FolderSource,
    PiCameraSource,
    ResilientSource,
    SourceConfig,
    SourceConfigError,
    SyntheticSource,
    VideoFileSource,
    open_source,
)
from vision.synthetic import Camera, Effects, SyntheticTable, render, scattered_table


def write_frames(folder: Path, count: int) -> list[set[int]]:
    """Render ``count`` small frames of a table whose tags change per frame; return their ids."""
    folder.mkdir(parents=True, exist_ok=True)
    ids = []
    for i in range(count):
        table = scattered_table(3, seed=i, first_id=10 * i)
        shot = render(table, Camera.overhead(640, 360, height_mm=700))
        cv2.imwrite(str(folder / f"frame{i:03d}.png"), shot.image)
        ids.append({t.tag_id for t in shot.truth})
    return ids


@pytest.mark.parametrize(
    ("spec", "kind"),
    [
        ("camera:0", CameraSource),
        ("camera:/dev/video7", CameraSource),
        ("video:game.mp4", VideoFileSource),
        ("folder:shots", FolderSource),
        ("synthetic", SyntheticSource),
    ],
)
def test_a_spec_chooses_the_source(spec: str, kind: type) -> None:
    assert isinstance(open_source(spec), kind)


def test_the_environment_chooses_when_nothing_is_given(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TABLESIGHT_SOURCE", f"folder:{tmp_path}")
    source = open_source()
    assert isinstance(source, FolderSource)
    assert source.path == tmp_path


@pytest.mark.parametrize("spec", ["webcam:1", "video:", "folder"])
def test_a_bad_spec_says_what_is_accepted(spec: str) -> None:
    with pytest.raises(SourceConfigError, match=r"camera|path"):
        open_source(spec)


@pytest.mark.skipif(
    importlib.util.find_spec("picamera2") is not None, reason="picamera2 is installed here"
)
def test_picamera2_without_the_extra_names_the_extra() -> None:
    with pytest.raises(SourceConfigError, match=r"apt install python3-picamera2"):
        PiCameraSource(SourceConfig("picamera2"))


def test_a_missing_camera_is_lost_not_fatal() -> None:
    states = []
    source = ResilientSource(
        open_source("camera:/dev/no-such-camera"),
        backoff=Backoff(first=0.01, longest=0.02),
        on_state=lambda state, message: states.append((state, message)),
    )
    assert source.read(timeout=0.05) is None
    assert source.state == "lost"
    assert "cannot open the camera" in states[0][1]


def test_folder_frames_are_the_real_images_in_name_order(tmp_path: Path) -> None:
    ids = write_frames(tmp_path / "shots", 3)
    source = ResilientSource(open_source(f"folder:{tmp_path / 'shots'}"))
    detector = Detector()
    seen = []
    while (frame := source.read(timeout=1)) is not None:
        seen.append({d.id for d in detector.detect(frame.image)})
    assert seen == ids
    assert source.state == "ended"


def test_unplugged_folder_is_lost_then_resumes_where_it_was(tmp_path: Path) -> None:
    folder = tmp_path / "shots"
    ids = write_frames(folder, 4)
    states: list[str] = []
    source = ResilientSource(
        FolderSource(SourceConfig("folder", path=folder)),
        backoff=Backoff(first=0.01, longest=0.05),
        on_state=lambda state, message: states.append(state),
    )
    detector = Detector()
    first = source.read(timeout=1)
    assert first is not None
    assert {d.id for d in detector.detect(first.image)} == ids[0]
    folder.rename(tmp_path / "unplugged")
    assert source.read(timeout=0.1) is None
    assert source.state == "lost"
    assert source.backoff.attempts >= 2  # it kept retrying
    (tmp_path / "unplugged").rename(folder)
    rest = []
    while (frame := source.read(timeout=1)) is not None:
        rest.append({d.id for d in detector.detect(frame.image)})
    assert rest == ids[1:]
    assert states[:3] == ["live", "lost", "lost"]
    assert "live" in states[3:]


def test_video_file_plays_then_survives_losing_the_file(tmp_path: Path) -> None:
    path = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (640, 360))
    table = scattered_table(4, seed=5)
    shot = render(table, Camera.overhead(640, 360, height_mm=700))
    for _ in range(6):
        writer.write(shot.image)
    writer.release()
    source = ResilientSource(
        open_source(f"video:{path}"), backoff=Backoff(first=0.01, longest=0.02)
    )
    frames = [source.read(timeout=1) for _ in range(2)]
    assert [f.timestamp_ms for f in frames] == [0.0, 100.0]
    found = {d.id for d in Detector().detect(frames[1].image)}
    assert found == {t.tag_id for t in shot.truth}
    source.close()  # an open capture keeps reading a moved file; close it so it must reopen
    path.rename(tmp_path / "away.avi")
    assert source.read(timeout=0.05) is None
    assert source.state == "lost"
    (tmp_path / "away.avi").rename(path)
    resumed = [source.read(timeout=1) for _ in range(4)]
    assert [f.index for f in resumed] == [2, 3, 4, 5]
    assert source.read(timeout=1) is None
    assert source.state == "ended"


def test_a_folder_of_real_photos_reads_as_frames(apriltag_photos: Path) -> None:
    folder = apriltag_photos / "nasa_swarmathon"
    source = FolderSource(SourceConfig("folder", path=folder))
    source.open()
    frame = source.read()
    assert frame.image.shape == (533, 799, 3)
    assert Detector().detect(frame.image)


def test_synthetic_source_follows_its_script_and_keeps_the_truth() -> None:
    tables = [scattered_table(2, seed=0, first_id=0), scattered_table(2, seed=0, first_id=50)]
    source = SyntheticSource(
        lambda i: (tables[i % 2], Effects()), Camera.overhead(640, 360), fps=20, frames=3
    )
    frames = [source.read() for _ in range(3)]
    assert [f.timestamp_ms for f in frames] == [0.0, 50.0, 100.0]
    assert [t.tag_id for t in source.last.truth] == [0, 1]
    assert [d.id for d in Detector().detect(frames[1].image)] == [50, 51]


def test_a_source_that_cannot_open_raises_lost_for_the_wrapper(tmp_path: Path) -> None:
    with pytest.raises(SourceLostError, match="no such folder"):
        FolderSource(SourceConfig("folder", path=tmp_path / "none")).open()
    (tmp_path / "empty").mkdir()
    with pytest.raises(SourceLostError, match="holds no images"):
        FolderSource(SourceConfig("folder", path=tmp_path / "empty")).open()


def test_backoff_doubles_up_to_its_ceiling() -> None:
    backoff = Backoff(first=0.5, longest=3)
    assert [backoff.next_delay() for _ in range(5)] == [0.5, 1, 2, 3, 3]
    backoff.reset()
    assert backoff.next_delay() == 0.5


def test_an_empty_table_renders_for_a_smoke_frame() -> None:
    source = SyntheticSource(lambda i: (SyntheticTable(), Effects()), Camera.overhead(320, 240))
    assert source.read().image.shape == (240, 320, 3)


def test_the_camera_source_loses_its_device_and_comes_back(tmp_path: Path) -> None:
    # OpenCV's VideoCapture opens a device path or a file path alike: a video file stands in for
    # a V4L2 device node, through the same real capture code (no mock).
    device = tmp_path / "video0.avi"
    writer = cv2.VideoWriter(str(device), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 240))
    shot = render(scattered_table(1, seed=8, tag_mm=(40, 40)), Camera.overhead(320, 240))
    assert len(shot.truth) == 1
    for _ in range(2):
        writer.write(shot.image)
    writer.release()
    states: list[str] = []
    source = ResilientSource(
        open_source(SourceConfig("camera", device=str(device), width=320, exposure=100)),
        backoff=Backoff(first=0.01, longest=0.02),
        on_state=lambda state, message: states.append(state),
    )
    assert [source.read(timeout=1) is not None for _ in range(2)] == [True, True]
    device.rename(tmp_path / "unplugged.avi")
    assert source.read(timeout=0.1) is None  # the stream ran dry and the device is gone
    assert states[:2] == ["live", "lost"]
    (tmp_path / "unplugged.avi").rename(device)
    frame = source.read(timeout=1)
    assert frame is not None and source.state == "live"
    assert {d.id for d in Detector().detect(frame.image)} == {t.tag_id for t in shot.truth}


def test_a_looping_video_keeps_its_time_going_forward(tmp_path: Path) -> None:
    path = tmp_path / "lap.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 240))
    for _ in range(3):
        writer.write(render(scattered_table(2, seed=1), Camera.overhead(320, 240)).image)
    writer.release()
    source = open_source(SourceConfig("video", path=path, loop=True))
    source.open()
    stamps = [source.read().timestamp_ms for _ in range(7)]
    assert stamps == [0.0, 100.0, 200.0, 300.0, 400.0, 500.0, 600.0]  # three laps, no going back


def test_a_video_of_tiny_frames_is_refused_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "tiny.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (8, 8))
    for _ in range(3):
        writer.write(np.zeros((8, 8, 3), np.uint8))
    writer.release()
    source = open_source(f"video:{path}")
    with pytest.raises(SourceLostError, match="8×8, too small"):
        source.open()
