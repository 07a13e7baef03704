"""Frame sources behind one small interface, chosen by configuration.

A source is named by a short spec string, so that a settings file, an environment variable
(``TABLESIGHT_SOURCE``) or a command-line flag can choose it:

=========================  ==================================================================
``camera:0``               an OpenCV ``VideoCapture`` on V4L2 index 0 (or ``camera:/dev/video2``)
``picamera2``              the Pi camera through picamera2 (the ``pi`` extra), imported only then
``video:PATH``             a video file
``folder:PATH``            the images of a folder, in name order
``synthetic``              the synthetic table (a scattered table of tags)
=========================  ==================================================================

Every frame carries the real time it was taken (``Frame.timestamp_ms``): a camera's capture
time, a video's own timestamps, a folder's ``fps`` or, with none set, its files' modification
times (when they are distinct and plausible; else ``DEFAULT_FOLDER_FPS``, and ``clock`` says so).

Every source has ``open()``, ``read() -> Frame`` and ``close()``, and raises
:class:`~vision.errors.SourceLostError` when it cannot give a frame. :class:`ResilientSource`
wraps any of them: it reports "lost", retries with a growing back-off and resumes where the
source left off, so an unplugged camera never ends the process.
"""

from __future__ import annotations

import logging
import math
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol, TypeAlias

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import ImageReadError, SourceLostError, VisionError
from vision.registry import load_registry
from vision.synthetic import (
    Camera,
    Component,
    Effects,
    Rendering,
    SyntheticTable,
    render,
    scattered_table,
)

Image: TypeAlias = npt.NDArray[np.uint8]
Kind = Literal["camera", "picamera2", "video", "folder", "synthetic"]
State = Literal["starting", "live", "lost", "ended"]

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
ENV_VAR = "TABLESIGHT_SOURCE"
MAX_IMAGE_PIXELS = 50_000_000
"""The largest image file read (50 megapixels: a 48-megapixel phone photo passes). A 16000 ×
16000 PNG of 249 KB would take 19 s and 1.95 GB to decode: its header is read first and the file
is refused before any pixel is decoded."""
MIN_IMAGE_SIDE = 16
"""An image narrower or lower than this many pixels cannot hold a readable tag; such a file is
refused as an image, and skipped as a frame of a folder."""
DEFAULT_FOLDER_FPS = 10.0
"""A folder's frame rate when none is set and its files' times cannot be used."""
FILE_GAP_MS = (1000 / 240, 10_000.0)
"""The typical (median) gap between a folder's files' modification times must lie in this range
(240 frames a second to one frame in 10 s) for the times to be used: files copied in one go lie
closer together."""
CAPTURE_LAG_MS = (0.0, 2000.0)
"""A camera's own capture time is used when it lies this far before the moment the frame is
taken in (the same monotonic clock); otherwise the frame is stamped when taken in."""
log = logging.getLogger("tablesight.sources")
_PNM_MAGIC = (b"P1", b"P2", b"P3", b"P4", b"P5", b"P6", b"Pf", b"PF")


class SourceConfigError(VisionError, ValueError):
    """A frame-source spec or setting cannot be used (unknown kind, missing extra, bad value)."""


class CameraLoadError(SourceConfigError):
    """The camera's library is installed but fails when imported (a broken install, e.g. a
    module built against another numpy); ``reason`` is the failure in one line."""

    def __init__(self, library: str, reason: str) -> None:
        super().__init__(f"{library} could not be loaded: {reason}")
        self.library = library
        self.reason = reason


class SourceEndedError(VisionError, EOFError):
    """A finite source (video file or folder, not looping) has given its last frame."""


@dataclass(frozen=True)
class Frame:
    """One frame: the BGR image, when it was taken (milliseconds) and its running number."""

    image: Image
    timestamp_ms: float
    index: int


@dataclass(frozen=True)
class SourceConfig:
    """Which source to open and how; ``width``, ``height``, ``fps``, ``exposure`` and ``gain``
    are requests to a camera (None leaves the camera's own value; an exposure turns auto
    exposure off). ``fps`` is also a folder's frame rate (None: its files' times) and the
    synthetic table's. ``loop`` replays a video or folder from its start when it ends."""

    kind: Kind = "camera"
    device: int | str = 0
    path: Path | None = None
    width: int | None = None
    height: int | None = None
    fps: float | None = None
    exposure: float | None = None
    gain: float | None = None
    loop: bool = False

    @classmethod
    def from_spec(cls, spec: str, **settings: object) -> SourceConfig:
        """Parse ``camera:0``, ``camera:/dev/video2``, ``picamera2``, ``video:PATH``,
        ``folder:PATH`` or ``synthetic``; ``settings`` fill the other fields."""
        kind, _, arg = spec.partition(":")
        kind = kind.strip().lower()
        if kind == "camera":
            device: int | str = int(arg) if arg.strip().isdigit() else (arg or 0)
            return cls("camera", device=device, **settings)  # type: ignore[arg-type]
        if kind in ("video", "folder"):
            if not arg:
                raise SourceConfigError(f"source {spec!r}: give a path, as in {kind}:PATH")
            return cls(kind, path=Path(arg), **settings)  # type: ignore[arg-type]
        if kind in ("picamera2", "synthetic"):
            return cls(kind, **settings)  # type: ignore[arg-type]
        raise SourceConfigError(
            f"unknown source {spec!r}: use camera:N, camera:/dev/videoN, picamera2, "
            "video:PATH, folder:PATH or synthetic"
        )


def image_file_size(path: Path | str) -> tuple[int, int] | None:
    """The width and height an image file declares in its header, read without decoding a
    pixel (Pillow's header parsers; the PNM/PFM text header by hand), or None when the format
    is not one of those (OpenCV then reads it under its own limit)."""
    import warnings

    from PIL import Image as PillowImage
    from PIL import UnidentifiedImageError

    path = Path(path)
    with path.open("rb") as file:
        head = file.read(24)
    if head[:2] in _PNM_MAGIC:
        with path.open("rb") as file:
            return _pnm_size(file.read(4096)[2:], path)
    if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR":  # PNG: size in IHDR
        width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
        if width * height > MAX_IMAGE_PIXELS:  # Pillow would refuse it without its size
            return width, height
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Pillow's own warning about large images
            with PillowImage.open(path) as image:
                return image.size
    except PillowImage.DecompressionBombError as exc:  # more than Pillow's 179 megapixels
        found = re.search(r"\((\d+) pixels\)", str(exc))
        raise ImageReadError(_too_large(path, int(found[1]) if found else None)) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        return None


def _pnm_size(rest: bytes, path: Path) -> tuple[int, int]:
    """Width and height from a PBM/PGM/PPM/PFM header after its two magic bytes."""
    fields: list[bytes] = []
    for line in rest.split(b"\n"):
        fields += line.split(b"#", 1)[0].split()
        if len(fields) >= 2:
            break
    try:
        width, height = int(fields[0]), int(fields[1])
    except (IndexError, ValueError):
        raise ImageReadError(f"{path}: not an image OpenCV can read (a damaged header)") from None
    return width, height


def _too_large(path: Path, size: tuple[int, int] | int | None) -> str:
    """The line refusing an image above ``MAX_IMAGE_PIXELS`` (its size, or pixel count)."""
    if isinstance(size, tuple):
        width, height = size
        what = f"{width}×{height} ({_megapixels(width * height)} megapixels)"
    elif size is not None:
        what = f"{_megapixels(size)} megapixels"
    else:
        what = "too large"
    return (
        f"{path}: the image is {what}, above the limit of {MAX_IMAGE_PIXELS / 1e6:g} "
        "megapixels: scale it down (nothing was decoded)"
    )


def _megapixels(pixels: int) -> str:
    return f"{pixels / 1e6:,.0f}" if pixels >= 10_000_000 else f"{pixels / 1e6:.3g}"


def check_image_file(path: Path | str) -> tuple[int, int] | None:
    """Refuse (ImageReadError) an image file that is missing, a folder, empty, declares a side
    under ``MIN_IMAGE_SIDE`` pixels or more than ``MAX_IMAGE_PIXELS``; the declared size, or
    None when the header is of a format read by OpenCV only."""
    path = Path(path)
    if path.is_dir():
        raise ImageReadError(f"{path}: is a folder, not an image file")
    if not path.is_file():
        raise ImageReadError(f"{path}: no such file")
    if path.stat().st_size == 0:
        raise ImageReadError(f"{path}: the file is empty")
    size = image_file_size(path)
    if size is not None:
        width, height = size
        if width * height > MAX_IMAGE_PIXELS:
            raise ImageReadError(_too_large(path, size))
        if min(width, height) < MIN_IMAGE_SIDE:
            raise ImageReadError(
                f"{path}: the image is {width}×{height}: too small to hold a tag (a side under "
                f"{MIN_IMAGE_SIDE} pixels)"
            )
    return size


def load_image(path: Path | str) -> Image:
    """The image file at ``path`` as BGR, after :func:`check_image_file`; ImageReadError when
    it cannot be used (never an OpenCV error)."""
    from vision.detection import read_image

    check_image_file(path)
    try:
        image = read_image(path)
    except cv2.error as exc:  # OpenCV's own checks of a header (its limit, a zero side)
        reason = str(exc).strip().splitlines()[-1].split(" in function ")[0]
        raise ImageReadError(f"{path}: not an image OpenCV can read ({reason})") from None
    height, width = image.shape[:2]
    if min(width, height) < MIN_IMAGE_SIDE:
        raise ImageReadError(
            f"{path}: the image is {width}×{height}: too small to hold a tag (a side under "
            f"{MIN_IMAGE_SIDE} pixels)"
        )
    return image


class FrameSource(Protocol):
    """What every source offers. ``read`` raises SourceLostError or SourceEndedError."""

    name: str

    def open(self) -> None:
        """Open (or reopen) the device or file; raises SourceLostError when it cannot."""

    def read(self) -> Frame:
        """The next frame."""

    def close(self) -> None:
        """Release the device; idempotent."""


def open_source(config: SourceConfig | str | None = None) -> FrameSource:
    """The source ``config`` names (a spec string, a SourceConfig, or None for the
    ``TABLESIGHT_SOURCE`` environment variable, else ``camera:0``), not yet opened."""
    if config is None:
        config = os.environ.get(ENV_VAR) or "camera:0"
    if isinstance(config, str):
        config = SourceConfig.from_spec(config)
    if config.kind == "camera":
        return CameraSource(config)
    if config.kind == "picamera2":
        return PiCameraSource(config)
    if config.kind == "video":
        return VideoFileSource(config)
    if config.kind == "folder":
        return FolderSource(config)
    if config.kind == "synthetic":
        return SyntheticSource(fps=config.fps or 30.0)
    raise SourceConfigError(f"unknown source kind {config.kind!r}")


class CameraSource:
    """A V4L2/UVC webcam (or anything OpenCV's ``VideoCapture`` opens) by index or path."""

    def __init__(self, config: SourceConfig) -> None:
        self.config = config
        self.name = f"camera:{config.device}"
        self._capture: cv2.VideoCapture | None = None
        self._index = 0
        self._last_ms = -math.inf

    def open(self) -> None:
        """Open the camera and request the configured size, rate, exposure and gain."""
        self.close()
        capture = cv2.VideoCapture(self.config.device)
        if not capture.isOpened():
            capture.release()
            raise SourceLostError(f"{self.name}: cannot open the camera (unplugged or busy?)")
        c = self.config
        wanted = [
            (cv2.CAP_PROP_FRAME_WIDTH, c.width),
            (cv2.CAP_PROP_FRAME_HEIGHT, c.height),
            (cv2.CAP_PROP_FPS, c.fps),
            (cv2.CAP_PROP_GAIN, c.gain),
        ]
        if c.exposure is not None:  # V4L2: 1 is manual exposure, 3 is aperture priority (auto)
            wanted += [(cv2.CAP_PROP_AUTO_EXPOSURE, 1), (cv2.CAP_PROP_EXPOSURE, c.exposure)]
        for prop, value in wanted:
            if value is not None:
                capture.set(prop, float(value))
        self._capture = capture

    def read(self) -> Frame:
        """The next frame, stamped with its capture time: the driver's (V4L2 stamps each
        buffer on the monotonic clock) when plausible, else the moment it was taken in."""
        if self._capture is None:
            raise SourceLostError(f"{self.name}: not open")
        grabbed = self._capture.grab()
        now_ms = time.monotonic() * 1000
        ok, image = self._capture.retrieve() if grabbed else (False, None)
        if not ok or image is None:
            raise SourceLostError(f"{self.name}: the camera stopped giving frames")
        self._index += 1
        stamp = self._last_ms = max(
            capture_time(self._capture.get(cv2.CAP_PROP_POS_MSEC), now_ms), self._last_ms
        )
        return Frame(np.asarray(image, dtype=np.uint8), stamp, self._index - 1)

    def close(self) -> None:
        """Release the camera."""
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class PiCameraSource:
    """The Raspberry Pi camera through picamera2, imported only when this source is chosen."""

    def __init__(self, config: SourceConfig) -> None:
        try:
            import picamera2  # noqa: F401  (an optional extra)
        except ModuleNotFoundError as exc:
            if exc.name != "picamera2":  # something picamera2 needs is missing
                raise CameraLoadError("picamera2", _one_line(exc)) from None
            raise SourceConfigError(
                "picamera2 is not installed: on a Pi, `apt install python3-picamera2` "
                "(see docs/pi-setup.md), or choose another source"
            ) from None
        except Exception as exc:  # any failure of a broken install (a numpy mismatch…)
            raise CameraLoadError("picamera2", _one_line(exc)) from None
        self.config = config
        self.name = "picamera2"
        self._camera: object | None = None
        self._index = 0
        self._last_ms = -math.inf

    def open(self) -> None:
        """Start the camera with the configured size, exposure (µs) and gain."""
        from picamera2 import Picamera2

        self.close()
        try:
            camera = Picamera2()
            size = (self.config.width or 1280, self.config.height or 720)
            camera.configure(camera.create_video_configuration({"size": size, "format": "BGR888"}))
            controls: dict[str, float] = {}
            if self.config.exposure is not None:
                controls.update(AeEnable=False, ExposureTime=int(self.config.exposure))
            if self.config.gain is not None:
                controls["AnalogueGain"] = float(self.config.gain)
            if self.config.fps:
                controls["FrameRate"] = float(self.config.fps)
            if controls:
                camera.set_controls(controls)
            camera.start()
        except Exception as exc:  # picamera2 raises RuntimeError, OSError, IndexError…
            raise SourceLostError(f"picamera2: cannot start the camera: {exc}") from exc
        self._camera = camera

    def read(self) -> Frame:
        """The next frame, stamped with its capture time: libcamera's ``SensorTimestamp``
        (the start of its exposure, on the monotonic clock) when plausible, else the moment it
        was taken in."""
        if self._camera is None:
            raise SourceLostError("picamera2: not open")
        try:
            request = self._camera.capture_request()  # type: ignore[attr-defined]
            try:
                image = request.make_array("main")
                sensor_ns = request.get_metadata().get("SensorTimestamp")
            finally:
                request.release()
        except Exception as exc:
            raise SourceLostError(f"picamera2: the camera stopped giving frames: {exc}") from exc
        now_ms = time.monotonic() * 1000
        stamp = capture_time(sensor_ns / 1e6 if sensor_ns else None, now_ms)
        stamp = self._last_ms = max(stamp, self._last_ms)  # never back, whichever clock
        self._index += 1
        return Frame(np.ascontiguousarray(image[:, :, :3]), stamp, self._index - 1)

    def close(self) -> None:
        """Stop and release the camera."""
        camera, self._camera = self._camera, None
        if camera is not None:
            try:
                camera.stop()  # type: ignore[attr-defined]
                camera.close()  # type: ignore[attr-defined]
            except Exception:  # closing a camera that is already gone
                pass


class VideoFileSource:
    """A video file; on reopen after a loss it resumes at the frame it had reached."""

    def __init__(self, config: SourceConfig) -> None:
        if config.path is None:
            raise SourceConfigError("a video source needs a path")
        self.config = config
        self.path = config.path
        self.name = f"video:{config.path}"
        self._capture: cv2.VideoCapture | None = None
        self._index = 0
        self._fps = 30.0
        self._played_ms = 0.0  # the time of the laps already played (a looping video)
        self._last_ms = -math.inf  # the last frame's time in the video
        self.clock = "the video's own timestamps"

    def open(self) -> None:
        """Open the file and seek to where reading stopped; SourceLostError when it is not a
        video, or its frames are too small to hold a tag."""
        self.close()
        if not self.path.is_file():
            raise SourceLostError(f"{self.name}: no such file")
        capture = cv2.VideoCapture(str(self.path))
        if not capture.isOpened():
            capture.release()
            raise SourceLostError(f"{self.name}: not a video OpenCV can read")
        self._fps = capture.get(cv2.CAP_PROP_FPS) or 30.0
        width = int(capture.get(cv2.CAP_PROP_FRAME_WIDTH))
        height = int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
        if min(width, height) < MIN_IMAGE_SIDE:
            capture.release()
            raise SourceLostError(
                f"{self.name}: its frames are {width}×{height}, too small to hold a tag"
            )
        if self._index:
            capture.set(cv2.CAP_PROP_POS_FRAMES, self._index)
        self._capture = capture

    def read(self) -> Frame:
        """The next frame, stamped with its own time in the video (its presentation
        timestamp; where the file gives none that goes forward, the frame's number over the
        video's rate). A looping video's time goes on from lap to lap: it never goes back."""
        if self._capture is None:
            raise SourceLostError(f"{self.name}: not open")
        ok, image = self._capture.read()
        if not ok:
            if not self.path.is_file():
                raise SourceLostError(f"{self.name}: the file has gone")
            if self.config.loop and self._index:
                self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, image = self._capture.read()
                self._played_ms += self._last_ms + 1000 / self._fps
                self._index, self._last_ms = 0, -math.inf
            if not ok:
                raise SourceEndedError(f"{self.name}: end of the video")
        self._index += 1
        own = self._capture.get(cv2.CAP_PROP_POS_MSEC)
        if not math.isfinite(own) or own < 0 or (self._index > 1 and own <= self._last_ms):
            own = (self._index - 1) * 1000 / self._fps  # no usable timestamp in the file
        self._last_ms = own
        return Frame(np.asarray(image, dtype=np.uint8), self._played_ms + own, self._index - 1)

    def close(self) -> None:
        """Release the file."""
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class FolderSource:
    """The images of a folder in name order; on reopen it resumes after the last one read.

    A file that cannot be used as a frame (not an image, damaged, a side under
    ``MIN_IMAGE_SIDE`` pixels, over ``MAX_IMAGE_PIXELS``) is skipped with a warning, once, and
    kept in ``skipped``: one bad file never stops the images after it.
    """

    def __init__(self, config: SourceConfig) -> None:
        if config.path is None:
            raise SourceConfigError("a folder source needs a path")
        self.config = config
        self.path = config.path
        self.name = f"folder:{config.path}"
        self.fps = config.fps
        """The frame rate set, or None: the files' times (or ``DEFAULT_FOLDER_FPS``)."""
        self.clock = f"{config.fps:g} frames a second (as set)" if config.fps else ""
        """Where the frames' times come from, in words (set when the folder is opened)."""
        self.rate_guessed = False
        """True when neither a rate nor usable file times were there: the frames are stamped at
        ``DEFAULT_FOLDER_FPS`` (a warning says why, once)."""
        self.skipped: list[str] = []
        """Why each skipped file was skipped, in the order met (each file once)."""
        self._files: list[Path] | None = None
        self._last: str | None = None
        self._index = 0
        self._bad: set[str] = set()
        self._times: dict[str, float] = {}  # each file's time (ms from the first), if used
        self._lap_ms = 0.0  # the time of the laps already played (a looping folder)
        self._last_ms = 0.0

    def open(self) -> None:
        """List the folder's images."""
        if not self.path.is_dir():
            raise SourceLostError(f"{self.name}: no such folder")
        files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not files:
            raise SourceLostError(f"{self.name}: holds no images ({', '.join(IMAGE_SUFFIXES)})")
        self._files = files
        if self.fps:
            return
        times, why_not = file_times(files)
        self._times = {p.name: t for p, t in zip(files, times or [], strict=False)}
        clock = (
            "the files' modification times"
            if times
            else f"{DEFAULT_FOLDER_FPS:g} frames a second: the files' modification times "
            f"{why_not} (set the rate with --fps or [camera] fps)"
        )
        if clock != self.clock and not times:
            log.warning("%s: frames stamped at %s", self.name, clock)
        self.clock, self.rate_guessed = clock, not times

    def read(self) -> Frame:
        """The next usable image, stamped by ``fps`` or by its file's time (see ``clock``)."""
        if self._files is None:
            raise SourceLostError(f"{self.name}: not open")
        remaining = [p for p in self._files if self._last is None or p.name > self._last]
        looped = False
        while True:
            if not remaining:
                if not self.config.loop:
                    raise SourceEndedError(f"{self.name}: no more images")
                if looped:
                    raise SourceLostError(f"{self.name}: none of its images can be read")
                remaining, looped = list(self._files), True
                self._lap_ms = self._last_ms + self._frame_ms()
            path = remaining.pop(0)
            if not path.is_file():  # the folder (a card, a share) has gone: lost, not skipped
                self._files = None
                raise SourceLostError(f"{self.name}: cannot read {path.name}")
            image = self._image(path)
            self._last = path.name
            if image is not None:
                break
        self._index += 1
        if self._times:
            stamp = self._lap_ms + self._times.get(path.name, 0.0)
        else:
            stamp = (self._index - 1) * self._frame_ms()
        stamp = max(stamp, self._last_ms)  # a file changed while the folder was lost
        self._last_ms = stamp
        return Frame(image, stamp, self._index - 1)

    def _frame_ms(self) -> float:
        """One frame's time: by the rate, or the files' typical gap."""
        if self._times:
            return float(np.median(np.diff(list(self._times.values()))))
        return 1000 / (self.fps or DEFAULT_FOLDER_FPS)

    def _image(self, path: Path) -> Image | None:
        """The image at ``path``, or None (and a warning the first time) when it is unusable."""
        try:
            return load_image(path)
        except ImageReadError as exc:
            if path.name not in self._bad:
                self._bad.add(path.name)
                self.skipped.append(f"{self.name}: skipped {path.name}: {_short(exc, path)}")
                log.warning("%s", self.skipped[-1])
            return None

    def close(self) -> None:
        """Forget the listing (the position is kept for a reopen)."""
        self._files = None


VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".webm", ".m4v", ".mjpeg", ".mjpg")
"""A file named so is read as a video where a command takes an image or a source
(`tablesight scan`)."""


def take_frames(
    source: FrameSource, seconds: float, frames: int | None = None, *, grey: bool = False
) -> tuple[list[Frame], str | None]:
    """The frames ``source`` gives over ``seconds`` of its own time from its first frame (or
    its first ``frames`` frames, whichever ends first), opened and closed here: all taken
    before any is read, so a camera gives them at its own rate; with ``grey``, each kept in grey
    levels (a third of the memory: a second at 1920 × 1080 and 30 frames a second is 62 MB).
    The second item says why fewer came (the video or folder ended, the camera was lost), else
    None. SourceLostError when not one frame came."""
    source.open()
    taken: list[Frame] = []
    why: str | None = None
    try:
        while frames is None or len(taken) < frames:
            try:
                frame = source.read()
            except (SourceEndedError, SourceLostError) as exc:
                if not taken:
                    raise SourceLostError(str(exc)) from None
                why = str(exc)
                break
            if taken and frame.timestamp_ms - taken[0].timestamp_ms >= seconds * 1000:
                break
            if grey and frame.image.ndim == 3:
                image = np.asarray(cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
                frame = Frame(image, frame.timestamp_ms, frame.index)
            taken.append(frame)
    finally:
        source.close()
    return taken, why


def file_times(files: list[Path]) -> tuple[list[float] | None, str]:
    """The times of ``files`` (in their order) in milliseconds from the first one's
    modification time, or None and why they cannot be used as frame times: fewer than two, not
    increasing in name order, or typically closer or further apart than ``FILE_GAP_MS``."""
    if len(files) < 2:
        return None, "cannot give a rate (a single image)"
    try:
        stamps = [p.stat().st_mtime_ns / 1e6 for p in files]
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror})"
    gaps = np.diff(stamps)
    if np.any(gaps <= 0):
        return None, "do not follow the names' order"
    typical = float(np.median(gaps))
    if not FILE_GAP_MS[0] <= typical <= FILE_GAP_MS[1]:
        return None, f"lie {typical:.3g} ms apart (not a camera's rate: copied files?)"
    return [t - stamps[0] for t in stamps], ""


def capture_time(driver_ms: float | None, now_ms: float) -> float:
    """A camera frame's time: the driver's capture time when it lies at most
    ``CAPTURE_LAG_MS`` before ``now_ms`` (the same monotonic clock), else ``now_ms``."""
    if driver_ms is not None and math.isfinite(driver_ms):
        lag = now_ms - driver_ms
        if CAPTURE_LAG_MS[0] <= lag <= CAPTURE_LAG_MS[1]:
            return driver_ms
    return now_ms


def _one_line(exc: BaseException) -> str:
    """An exception as one line: its type and the first line of its message."""
    message = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {message[0]}" if message else type(exc).__name__


def _short(exc: Exception, path: Path) -> str:
    """An error's message without the path it starts with."""
    return str(exc).removeprefix(f"{path}: ")


Script: TypeAlias = Callable[[int], tuple[SyntheticTable, Effects]]


class SyntheticSource:
    """The synthetic table: ``script(index)`` gives the scene of each frame (default: the
    still :func:`default_table`). The last rendering, with its ground truth, is kept in
    ``last``."""

    def __init__(
        self,
        script: Script | None = None,
        camera: Camera | None = None,
        *,
        fps: float = 30.0,
        frames: int | None = None,
        seed: int = 0,
    ) -> None:
        still = default_table(seed)
        self.script: Script = script or (lambda i: (still, Effects()))
        self.camera = camera or Camera.overhead()
        self.fps = fps
        self.frames = frames
        self.seed = seed
        self.name = "synthetic"
        self.last: Rendering | None = None
        self._index = 0

    def open(self) -> None:
        """Nothing to open."""

    def read(self) -> Frame:
        """Render the next scene of the script."""
        if self.frames is not None and self._index >= self.frames:
            raise SourceEndedError("synthetic: the script has ended")
        table, effects = self.script(self._index)
        self.last = render(table, self.camera, effects, seed=self.seed + self._index)
        self._index += 1
        return Frame(self.last.image, (self._index - 1) * 1000 / self.fps, self._index - 1)

    def close(self) -> None:
        """Nothing to close."""


def default_table(seed: int = 0) -> SyntheticTable:
    """The registry's four calibration anchors in their places and 40 Greenwood tags."""
    anchors = load_registry([], anchors=True).anchors()
    scattered = scattered_table(40, seed=seed, first_id=100, margin_mm=80)
    stuck = tuple(Component(a.tag_id, a.x_mm, a.y_mm, 0, a.size_mm) for a in anchors.values())
    return SyntheticTable(stuck + scattered.components)


@dataclass
class Backoff:
    """Retry delays in seconds: ``first``, doubling up to ``longest``."""

    first: float = 0.5
    longest: float = 10.0
    attempts: int = field(default=0, init=False)

    def next_delay(self) -> float:
        """The delay before the next attempt (and count the attempt)."""
        self.attempts += 1
        return min(self.longest, self.first * math.pow(2, self.attempts - 1))

    def reset(self) -> None:
        """A frame arrived: start again from the first delay."""
        self.attempts = 0


class ResilientSource:
    """Wraps a source so that a failure is reported as "lost" and retried, never raised.

    ``read(timeout)`` returns the next frame, or None when no frame came within ``timeout``
    seconds (still lost) or the source has ended. ``on_state(state, message)`` is called on
    every change of ``state``. ``clock`` and ``sleep`` can be swapped in tests.
    """

    def __init__(
        self,
        source: FrameSource,
        *,
        backoff: Backoff | None = None,
        on_state: Callable[[State, str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.source = source
        self.backoff = backoff or Backoff()
        self.on_state = on_state or (lambda state, message: None)
        self.state: State = "starting"
        self.message = ""
        self._clock, self._sleep = clock, sleep
        self._open = False
        self._retry_at = clock()

    def read(self, timeout: float | None = None) -> Frame | None:
        """The next frame, reopening the source as often as needed (see the class)."""
        deadline = None if timeout is None else self._clock() + timeout
        while self.state != "ended":
            now = self._clock()
            if not self._open and now >= self._retry_at:
                try:
                    self.source.open()
                    self._open = True
                except SourceLostError as exc:
                    self._lost(str(exc))
            if self._open:
                try:
                    frame = self.source.read()
                except SourceLostError as exc:
                    self._lost(str(exc))
                except SourceEndedError as exc:
                    self._set("ended", str(exc))
                    return None
                else:
                    self.backoff.reset()
                    self._set("live", f"{self.source.name}: live")
                    return frame
            now = self._clock()
            if deadline is not None and now >= deadline:
                return None
            wait = self._retry_at - now
            if deadline is not None:
                wait = min(wait, deadline - now)
            self._sleep(max(wait, 0.0))
        return None

    def close(self) -> None:
        """Close the wrapped source."""
        self.source.close()
        self._open = False

    def _lost(self, message: str) -> None:
        self.source.close()
        self._open = False
        delay = self.backoff.next_delay()
        self._retry_at = self._clock() + delay
        self._set("lost", f"{message}; retrying in {delay:g} s")

    def _set(self, state: State, message: str) -> None:
        changed = state != self.state or (state == "lost" and message != self.message)
        self.state, self.message = state, message
        if changed:
            self.on_state(state, message)
