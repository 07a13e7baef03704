"""The camera page's live view, the calibration from the kiosk, and the sticker sheets.

The camera is opened only while someone watches (the feed stops after ``IDLE_S`` without a
viewer): a kiosk that nobody looks at spends no time on detection.
"""

from __future__ import annotations

import functools
import tempfile
import threading
import time
from collections import Counter, deque
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Literal

import anyio
import cv2
import numpy as np
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response, StreamingResponse

from engine.core import EngineError, Text, find_game
from engine.core.text import Language
from kiosk.deps import Control, SettingsDep, TableDep
from kiosk.settings import Settings
from kiosk.table import Table
from vision.calibration import (
    MIN_LENS_TAGS,
    NOT_A_PLANE,
    TableCalibration,
    TagPlace,
    anchor_report,
    anchors_area,
    calibrate_table,
    caption_lines,
    draw_calibration,
    lens_shift_mm,
)
from vision.detection import Detection, Detector
from vision.errors import ReaderNotFoundError, VisionError
from vision.health import describe, monitor_for, sticker_label
from vision.registry import ANCHORS, GAMES, load_registry
from vision.sheets import sheet_title, write_sheets
from vision.sources import ResilientSource, open_source

router = APIRouter(tags=["camera"])

IDLE_S = 10.0
BOUNDARY = "frame"
FRESH_S = 2.0
"""A frame read this long ago (or three of the feed's own periods, when longer) still shows
the table as it is now: the set-up page's table check counts only such a frame (``seen_now``)."""
HELD_READS = 2
"""A tag is held (``CameraFeed.held``, what the set-up page's table check counts) when the
frames of the fresh window read it this many times (as `vision.stabiliser.steady_view` asks
two reads): a small sticker that some frames miss still counts, a one-frame misread does not."""
NO_CAMERA = "no camera"


class CameraFeed:
    """Frames from the configured source with the detections drawn on them, at ``view_fps``."""

    def __init__(self, settings: Settings, table: Table) -> None:
        self.settings, self.table = settings, table
        self.jpeg: bytes | None = None
        self.detections: list[Detection] = []
        self.size: tuple[int, int] = (0, 0)
        self.frames = 0
        self._image: np.ndarray | None = None
        self.read_at: float | None = None
        """When the last frame was read (monotonic), None before any."""
        self._recent: deque[tuple[float, frozenset[int]]] = deque()
        """The ids each frame of the fresh window read, with when (monotonic), oldest first."""
        self.none = False
        """True once the rig found no camera to read (``no_camera``): nothing is ever opened."""
        self._seen = time.monotonic()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.health = monitor_for(table)
        """How well each sticker in view reads: fed by the table loop, or by this feed's own
        reader when no loop runs (``vision.health``)."""
        source = self.settings.camera.source
        if source == "synthetic":
            table.set_link("camera", "simulated", "synthetic table")
        else:
            table.set_link("camera", "not_connected", f"{source}: opened while it is viewed")

    fed = False
    """True once the table loop reads the camera (set before its first frame) and publishes
    its frames here: the camera is then never opened a second time."""

    def no_camera(self) -> None:
        """The kiosk runs without a camera (the start-up report's "camera: none"): the feed
        never opens a source of its own (not even the synthetic table), and the link says so."""
        with self._lock:
            self.none = True
            self._image, self.detections, self.read_at = None, [], None
            self._recent.clear()
        self.table.set_link("camera", "not_connected", NO_CAMERA)

    def publish(self, image: np.ndarray, detections: list[Detection]) -> None:
        """A frame the table loop read; drawn and encoded only while someone watches."""
        with self._lock:
            self.fed = True
            self._image, self.detections = image, list(detections)
            self.read_at = time.monotonic()
            self._remember(detections, self.read_at)
            self.size = (image.shape[1], image.shape[0])
            watched = time.monotonic() - self._seen < IDLE_S
        if not watched:
            return
        picture = draw_calibration(image, detections, self._anchors(), None, caption=False)
        ok, encoded = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 75])
        with self._lock:
            self.jpeg = encoded.tobytes() if ok else self.jpeg
            self.frames += 1

    def _anchors(self) -> Any:
        if not hasattr(self, "_anchor_places"):
            self._anchor_places = load_registry([], anchors=True).anchors()
        return self._anchor_places

    def wanted(self) -> None:
        """A viewer wants frames: start the reader if it is not running (and the table loop
        does not already publish them)."""
        with self._lock:
            self._seen = time.monotonic()
            if self.fed or self.none:
                return
            if self._thread is None or not self._thread.is_alive():
                self._stop.clear()
                self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
                self._thread.start()

    def close(self) -> None:
        """Stop the reader and release the camera (idempotent)."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)

    def _run(self) -> None:
        period = 1.0 / self.settings.camera.view_fps
        try:
            source = ResilientSource(
                open_source(self.settings.camera.source_config()), on_state=self._on_state
            )
        except VisionError as exc:
            self.table.set_link("camera", "lost", str(exc))
            return
        detector = Detector(self.settings.detector)
        anchors = load_registry([], anchors=True).anchors()
        try:
            while not self._stop.is_set() and time.monotonic() - self._seen < IDLE_S:
                started = time.monotonic()
                frame = source.read(timeout=1.0)
                if frame is None:
                    continue
                found = detector.detect(frame.image)
                self.health.observe(found, frame.timestamp_ms)
                picture = draw_calibration(frame.image, found, anchors, None, caption=False)
                ok, encoded = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 75])
                with self._lock:
                    self._image, self.detections = frame.image, found
                    self.read_at = time.monotonic()
                    self._remember(found, self.read_at)
                    self.size = (frame.image.shape[1], frame.image.shape[0])
                    self.jpeg = encoded.tobytes() if ok else self.jpeg
                    self.frames += 1
                self._stop.wait(max(0.0, period - (time.monotonic() - started)))
        finally:
            source.close()

    def _on_state(self, state: str, message: str) -> None:
        if self.settings.camera.source == "synthetic":
            return
        self.table.set_link("camera", "ok" if state == "live" else "lost", message)

    def latest(self) -> tuple[np.ndarray | None, list[Detection], tuple[int, int]]:
        """The last frame read, its detections and its size."""
        with self._lock:
            return self._image, list(self.detections), self.size

    def _window(self) -> float:
        """How long ago a frame still shows the table as it is now (seconds)."""
        return max(FRESH_S, 3.0 / self.settings.camera.view_fps)

    def _remember(self, found: list[Detection], read_at: float) -> None:
        """Keep which tags the frame read at ``read_at`` (under the lock), and forget frames
        older than the fresh window."""
        self._recent.append((read_at, frozenset(d.id for d in found)))
        while self._recent and read_at - self._recent[0][0] > self._window():
            self._recent.popleft()

    def held(self) -> list[int]:
        """The tags the frames of the fresh window read ``HELD_READS`` times (or in every
        frame, when the window holds fewer): what the camera sees over the last seconds, so a
        small sticker that some frames miss still counts. Empty once the frames are old."""
        now = time.monotonic()
        with self._lock:
            frames = [ids for at, ids in self._recent if now - at <= self._window()]
        counts = Counter(tag for ids in frames for tag in ids)
        need = min(HELD_READS, len(frames))
        return sorted(tag for tag, n in counts.items() if n >= need) if frames else []

    def seen_now(self) -> bool:
        """Whether the detections are what a camera sees now: a frame read within
        ``FRESH_S`` (or three of the feed's own periods) by a camera whose link is working.
        Never the synthetic table's (its link is ``simulated``), never a frame kept from
        before the camera was lost or the feed stopped for want of a viewer."""
        if self.table.link("camera").state != "ok":
            return False
        with self._lock:
            read_at = self.read_at
        return read_at is not None and time.monotonic() - read_at <= self._window()


def get_feed(request: Request) -> CameraFeed:
    """The app's camera feed."""
    return request.app.state.camera


@router.get("/camera.mjpg")
async def camera_stream(request: Request) -> StreamingResponse:
    """The live view as motion JPEG, at most ``camera.view_fps`` frames per second."""
    feed = get_feed(request)

    async def frames() -> AsyncIterator[bytes]:
        if feed.none:  # no camera: one blank picture, so the page loads and shows nothing seen
            yield _NEXT + _blank(feed.settings) + f"\r\n--{BOUNDARY}--\r\n".encode()
            return
        yield _NEXT
        last = -1
        while True:
            feed.wanted()
            jpeg = feed.jpeg
            if jpeg is not None and feed.frames != last:
                last = feed.frames
                yield _part(jpeg)
            await anyio.sleep(0.5 / feed.settings.camera.view_fps)

    return StreamingResponse(frames(), media_type=f"multipart/x-mixed-replace; boundary={BOUNDARY}")


_NEXT = f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n\r\n".encode()
"""The boundary and the head of the next picture of the motion JPEG stream."""


def _part(jpeg: bytes) -> bytes:
    """One picture of the motion JPEG stream and, at once, the boundary and head of the next:
    a browser shows a picture only once the next one has begun, so a still table (its camera
    sends no new picture) showed none; the parts carry no length, which the head of the next
    would have to know."""
    return jpeg + b"\r\n" + _NEXT


@functools.cache
def _blank_jpeg(width: int, height: int) -> bytes:
    ok, encoded = cv2.imencode(".jpg", np.full((height, width, 3), 32, np.uint8))
    return encoded.tobytes() if ok else b""


def _blank(settings: Settings) -> bytes:
    """A dark picture of the camera's size (1280×720 unless set): the view with no camera."""
    return _blank_jpeg(settings.camera.width or 1280, settings.camera.height or 720)


@router.get("/api/camera")
def camera_state(
    request: Request, table: TableDep, settings: SettingsDep, lang: Language | None = None
) -> dict[str, Any]:
    """What the camera sees now: the tags in view and how well each reads, the weak ones
    first with what to do in ``lang`` (asks the feed to run). ``seen_now``: whether these
    detections are what a working camera read just now (``CameraFeed.seen_now``); ``held``:
    the tags its frames of the last seconds read twice (``CameraFeed.held``), what the set-up
    page's table check counts while ``seen_now``."""
    feed = get_feed(request)
    feed.wanted()
    _, found, size = feed.latest()
    return {
        "link": table.link("camera").to_json(),
        "size": list(size),
        "frames": feed.frames,
        "seen_now": feed.seen_now(),
        "held": feed.held(),
        "detections": [d.as_json() for d in found],
        "stickers": _stickers(feed, lang or settings.lang),
    }


def _stickers(feed: CameraFeed, lang: str) -> list[dict[str, Any]]:
    """Each tag's health with the name a player finds on its sticker; the weak ones first."""
    registry = _registry()
    out = []
    for health in feed.health.report():
        entry = registry.lookup(health.tag_id, health.family)
        label = sticker_label(health.tag_id, entry, lang)
        line, why = describe(health, label, lang)
        out.append({**health.as_json(), "label": label, "line": line, "why": why})
    return sorted(out, key=lambda s: (not s["weak"], s["id"]))


@functools.cache
def _registry() -> Any:
    """Every game's tags and the anchors (loaded once)."""
    return load_registry()


@router.get("/api/camera/reading")
def reading(
    request: Request, table: TableDep, settings: SettingsDep, lang: Language | None = None
) -> dict[str, Any]:
    """The game's reader on the last frame: what it makes of the table (``vision.readers``).

    Kept until the next frame (the same frame reads the same); a few at a time
    (``kiosk.guard.Busy``), 503 beyond."""
    lang = lang or settings.lang
    feed = get_feed(request)
    feed.wanted()
    image, _, _ = feed.latest()
    if image is None:
        raise HTTPException(409, NO_FRAME.in_(lang))
    game = table.saved.game.name
    kept = getattr(request.app.state, "last_reading", None)
    if kept is not None and kept[0] is image and kept[1:3] == (game, lang):
        return kept[3]
    with request.app.state.door.heavy.slot("camera readings"):
        answer = _read(image, game, lang, table.saved.game.box(table.saved.session.options))
    request.app.state.last_reading = (image, game, lang, answer)
    return answer


def _read(image: np.ndarray, game: str, lang: Language, box: Any = None) -> dict[str, Any]:
    """The reader of ``game`` on ``image``, judged by the game's ``box``, as ``reading``
    answers it."""
    # here, not at the top: vision.readers loads every game (0.15 s of the kiosk's start)
    from vision.readers import find_reader

    try:
        reader = find_reader(game)
    except ReaderNotFoundError:
        return {"game": game, "available": False, "text": NO_READER.in_(lang)}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "frame.png"
        cv2.imwrite(str(path), image)
        try:
            result = reader.scan(path, lang, box=box)
        except (VisionError, EngineError) as exc:
            return {"game": game, "available": True, "text": _why_unread(exc, path, lang)}
    # Worded for players (names, no reason codes), apart from `tablesight scan`'s wording.
    return {"game": game, "available": True, "text": reader.for_players(result, lang)}


NO_READER = Text("这个游戏没有摄像头读取", "the camera does not read this game")
CANNOT_READ = Text(
    "摄像头现在读不出这局游戏的桌面", "the camera cannot read this game's table now: {why}"
)
NO_FRAME = Text(
    "摄像头还没有画面;打开摄像头页面后再试一次",
    "no camera frame yet; open the camera page and try again",
)


def _why_unread(exc: Exception, path: Path, lang: Language) -> str:
    """A reader's failure in ``lang``: its own words where it has them in both languages
    (``ReaderError``, the anchors), else a line saying the table cannot be read (the detail,
    in English only, on the English page)."""
    text = getattr(exc, "text", None)
    if isinstance(text, Text):
        return text.in_(lang)
    return CANNOT_READ.format(why=str(exc).replace(str(path), "frame")).in_(lang)


@router.post("/api/calibrate", dependencies=[Control])
def calibrate(
    request: Request, settings: SettingsDep, lang: Language | None = None
) -> dict[str, Any]:
    """Calibrate the table from the last frame; saves it when enough anchors are in view. The
    report, the problem and the caption in ``lang`` (default: the kiosk's language); ``lens``:
    what the calibration made of the camera's lens (``_lens_result``), in numbers the page
    words."""
    lang = lang or settings.lang
    feed = get_feed(request)
    feed.wanted()
    image, found, size = feed.latest()
    if image is None:
        raise HTTPException(409, NO_FRAME.in_(lang))
    anchors = load_registry([], anchors=True).anchors()
    report = anchor_report(found, anchors)
    answer: dict[str, Any] = {
        "found": list(report.found),
        "missing": list(report.missing),
        "report": report.describe(anchors, lang),
        "calibrated": False,
        "error_px": None,
    }
    try:
        calibration: TableCalibration = calibrate_table(found, anchors, size)
    except VisionError:
        answer["problem"] = (report.problem(anchors) or NOT_A_PLANE).in_(lang)
        answer["caption"] = [t.in_(lang) for t in caption_lines(found, anchors, None)]
        answer["lens"] = _lens_seen(found, anchors)
        return answer
    calibration.save(settings.calibration_file)
    answer.update(calibrated=True, error_px=round(calibration.reprojection_error_px, 3))
    answer["caption"] = [t.in_(lang) for t in caption_lines(found, anchors, calibration)]
    answer["lens"] = _lens_result(calibration, found, anchors)
    return answer


def _lens_seen(found: list[Detection], anchors: dict[int, TagPlace]) -> dict[str, Any]:
    """How many stickers besides the anchors are in view (each seen once, as the lens fit
    counts them) and how many the lens fit needs (``MIN_LENS_TAGS``): the page words them."""
    counts: dict[int, int] = {}
    for d in found:
        counts[d.id] = counts.get(d.id, 0) + 1
    seen = sum(1 for tag, n in counts.items() if n == 1 and tag not in anchors)
    return {"seen": seen, "needed": MIN_LENS_TAGS}


def _lens_result(
    calibration: TableCalibration, found: list[Detection], anchors: dict[int, TagPlace]
) -> dict[str, Any]:
    """What the calibration made of the camera's lens, for the page to word: ``measured``
    (a lens fitted: its coefficients, the stickers it rests on, and ``shift_mm``, how far the
    flat table of before would misplace a point of the play area), else ``why``: ``few``
    (fewer stickers than needed) or ``straight`` (enough, but no lens read them better than a
    flat table)."""
    lens = {**_lens_seen(found, anchors), **_lens_fitted(calibration, anchors)}
    if not calibration.lens.bends:
        lens["why"] = "few" if lens["seen"] < MIN_LENS_TAGS else "straight"
    return lens


def _lens_fitted(calibration: TableCalibration, anchors: dict[int, TagPlace]) -> dict[str, Any]:
    """A calibration's lens in numbers: ``measured``, and for a lens fitted its coefficients,
    the stickers it rests on and ``shift_mm`` (how far the flat table would be off)."""
    if not calibration.lens.bends:
        return {"measured": False}
    return {
        "measured": True,
        "stickers": calibration.lens_tags,
        "k1": round(calibration.lens.k1, 4),
        "k2": round(calibration.lens.k2, 4),
        "shift_mm": round(lens_shift_mm(calibration, anchors_area(anchors)), 1),
    }


@router.get("/api/calibration/saved")
def saved_calibration(settings: SettingsDep) -> dict[str, Any]:
    """The calibration saved in the data folder (what the table loop takes when the kiosk
    starts), for the calibrate page to word when it opens: ``saved`` (False when none is
    kept, with ``damaged`` when its file cannot be read), ``made`` (when it was saved: the
    file's time, seconds since 1970), the frame ``size`` it was made at, its ``error_px``,
    and its ``lens`` (``_lens_fitted``)."""
    path = settings.calibration_file
    if not path.exists():
        return {"saved": False, "damaged": False}
    try:
        calibration = TableCalibration.load(path)
        made = path.stat().st_mtime
    except (VisionError, OSError):
        return {"saved": False, "damaged": True}
    anchors = load_registry([], anchors=True).anchors()
    return {
        "saved": True,
        "made": made,
        "size": list(calibration.image_size),
        "error_px": round(calibration.reprojection_error_px, 3),
        "lens": _lens_fitted(calibration, anchors),
    }


@router.get("/api/calibration")
def calibration_caption(
    request: Request, settings: SettingsDep, lang: Language | None = None
) -> dict[str, Any]:
    """The calibration picture's caption in ``lang`` (the picture itself carries none): whether
    the last frame calibrates and its error, or the anchors missing; the tags in view; and
    ``lens``: the stickers in view besides the anchors and how many the lens fit needs."""
    feed = get_feed(request)
    feed.wanted()
    image, found, size = feed.latest()
    if image is None:
        raise HTTPException(404, NO_FRAME.in_(lang or settings.lang))
    anchors = load_registry([], anchors=True).anchors()
    try:
        calibration: TableCalibration | None = calibrate_table(found, anchors, size)
    except VisionError:
        calibration = None
    lines = caption_lines(found, anchors, calibration)
    return {
        "caption": [t.in_(lang or settings.lang) for t in lines],
        "lens": _lens_seen(found, anchors),
    }


@router.get("/api/calibration.png")
def calibration_picture(request: Request) -> Response:
    """The last frame with anchors and the table grid drawn on it (404 before any frame); its
    caption, in the page's language, is ``GET /api/calibration``."""
    feed = get_feed(request)
    feed.wanted()
    image, found, size = feed.latest()
    if image is None:
        raise HTTPException(404, "no camera frame yet")
    with request.app.state.door.heavy.slot("pictures"):
        anchors = load_registry([], anchors=True).anchors()
        try:
            calibration = calibrate_table(found, anchors, size)
        except VisionError:
            calibration = None
        picture = draw_calibration(image, found, anchors, calibration, caption=False)
        _, encoded = cv2.imencode(".png", picture)
    return Response(encoded.tobytes(), media_type="image/png")


@router.get("/api/sheets/{game}.{fmt}")
def sheets(
    request: Request,
    game: str,
    fmt: Literal["svg", "pdf"],
    settings: SettingsDep,
    lang: Language | None = None,
) -> Response:
    """The true-size sticker sheet of a game's tags (the first page for SVG; all pages in PDF),
    labelled in ``lang`` (default: the kiosk's language).

    Drawn once per game and format (the registry does not change while the kiosk runs), a few
    at a time (``kiosk.guard.Busy``), 503 beyond."""
    if game not in (*GAMES, ANCHORS):
        raise HTTPException(404, f"no tags for {game!r}; the games are: {', '.join(GAMES)}")
    key = (game, fmt, lang or settings.lang)
    data = _SHEETS.get(key)
    if data is None:
        with request.app.state.door.heavy.slot("sticker sheets"):
            data = _SHEETS.get(key) or _sheet(*key)
        _SHEETS[key] = data
    media = "image/svg+xml" if fmt == "svg" else "application/pdf"
    return Response(
        data,
        media_type=media,
        headers={"Content-Disposition": f'attachment; filename="tablesight-{game}.{fmt}"'},
    )


_SHEETS: dict[tuple[str, str, Language], bytes] = {}
"""Sticker sheets drawn so far, by game, format and language."""


def _sheet(game: str, fmt: str, lang: Language) -> bytes:
    """The sticker sheet of ``game`` in ``fmt``, in ``lang`` (404 when the registry has none)."""
    try:
        entries = load_registry().for_game(game)
    except VisionError as exc:
        raise HTTPException(404, str(exc)) from None
    title = sheet_title(None if game == ANCHORS else find_game(game).title).in_(lang)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / f"{game}.{fmt}"
        paths = write_sheets(entries, out, title=title, lang=lang)
        return paths[0].read_bytes()
