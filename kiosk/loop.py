"""The table loop: camera frames in, moves and prompts out, in a thread of its own.

frames (a ``vision.sources`` source, or the simulation) → incremental detector → registry
(known tags only) → stabiliser (table millimetres through the calibration, its lens included)
→ the game's reader → ``Table.submit`` for moves (saved before they are announced) and
``Table.show_prompts`` for what the players must do. The table's listeners take it from there:
the kiosk's live page, the LEDs and the buzzer (``kiosk.rig.TableHardware``). A camera that
fails is reported on the kiosk as lost and retried; it never ends the process.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from engine.core import EngineError, Move, Text
from kiosk.table import Table
from vision.calibration import TableCalibration, calibrate_table
from vision.detection import Detection, Detector, DetectorConfig
from vision.errors import CalibrationError, ReaderError, VisionError
from vision.health import looked_regions, monitor_for
from vision.incremental import IncrementalDetector
from vision.registry import Registry, load_registry
from vision.sources import Frame, FrameSource, ResilientSource
from vision.stabiliser import Stabiliser, StabiliserConfig

if TYPE_CHECKING:
    from vision.readers import Prompt, Reader

log = logging.getLogger("tablesight.loop")

NOT_CALIBRATED = Text(
    "桌面尚未校准:让四个角的定位标签都在画面中(或运行 tablesight calibrate)",
    "The table is not calibrated: keep the four corner anchor tags in view"
    " (or run tablesight calibrate)",
)

FrameListener = Callable[[Frame, list[Detection]], None]


class TableLoop:
    """Reads frames from ``source`` and plays what the camera sees into ``table``.

    ``calibration`` maps pixels to table millimetres; without one, the loop calibrates from the
    four anchor tags as soon as a frame shows them all. ``simulated`` marks the camera link as
    simulated on the kiosk. ``on_frame(frame, detections)`` is told every frame (the camera page).
    """

    def __init__(
        self,
        table: Table,
        source: FrameSource,
        *,
        calibration: TableCalibration | None = None,
        registry: Registry | None = None,
        detector: DetectorConfig | None = None,
        stabiliser: StabiliserConfig | None = None,
        simulated: bool = False,
        on_frame: FrameListener | None = None,
    ) -> None:
        self.table = table
        self.registry = registry or load_registry()
        self.calibration = calibration
        self.simulated = simulated
        self.on_frame = on_frame
        self.frames = 0
        self._stabiliser_config = stabiliser or StabiliserConfig()
        self._detector = IncrementalDetector(Detector(detector or DetectorConfig()))
        self._stabiliser: Stabiliser | None = None
        self._reader: Reader | None = None
        self._reader_for: str | None = None
        self._wrong_size: Text | None = None
        self._source = ResilientSource(source, on_state=self._camera_state)
        self.health = monitor_for(table)
        """How well each sticker in view reads (``vision.health``; the camera page shows it)."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.ended = threading.Event()
        """Set when the source has ended (a scripted session played to its end)."""

    # --- the thread ------------------------------------------------------------------------

    def start(self) -> None:
        """Start reading frames in a background thread."""
        self._thread = threading.Thread(target=self._run, name="table-loop", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread and close the source (idempotent)."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        self._source.close()

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                frame = self._source.read(timeout=1.0)
                if frame is None:
                    if self._source.state == "ended":
                        break
                    continue
                try:
                    self.process(frame)
                except Exception:  # one bad frame must not end the table
                    log.exception("frame %d could not be processed", frame.index)
        finally:
            self.ended.set()

    def _camera_state(self, state: str, message: str) -> None:
        if state == "live":
            self.table.set_link("camera", "simulated" if self.simulated else "ok", message)
        elif state == "lost":
            self.table.set_link("camera", "lost", message)
        elif state == "ended":  # a video played out, or the scripted session is over
            self.table.set_link(
                "camera", "simulated" if self.simulated else "not_connected", message
            )

    # --- one frame -------------------------------------------------------------------------

    def process(self, frame: Frame) -> list[Move | Prompt]:
        """Play one frame into the table; returns what the reader made of it."""
        self.frames += 1
        detections = self._detector.detect(frame.image)
        self.health.observe(
            detections,
            frame.timestamp_ms,
            looked_regions(self._detector),
            kept=self._detector.last_kept,
        )
        if self.on_frame is not None:
            self.on_frame(frame, detections)
        if not self.table.has_game:  # no game yet: the frames are for the camera's pages only
            return []
        known = self.registry.known(detections)
        if not self._ready(frame, known):
            return []
        assert self._stabiliser is not None and self._reader is not None
        # the frame goes too: a sticker missed is removed at once from a bare place, kept
        # while covered (each remove says why)
        observations = self._stabiliser.update(known, frame.timestamp_ms, frame.image)
        if not observations:
            return []
        state = self.table.saved.session.state
        assert self.calibration is not None  # _ready calibrated
        # stickers in view that are not read: a piece may lie there, unread
        self._reader.see_unread([self.calibration.to_table(q) for q in self._detector.unread])
        out = self._reader.observe(observations, state)
        self.table.show_layout(self._reader.layout_seen(state))  # a map the players lay
        # here, not at the top: vision.readers loads every game (0.15 s of the kiosk's start)
        from vision.readers import Prompt

        prompts = [(p.code, p.message) for p in out if isinstance(p, Prompt)]
        accepted = False
        for item in out:
            if not isinstance(item, Prompt):
                accepted |= self.table.submit(item).accepted
        if prompts:
            self.table.show_prompts(prompts)
        elif accepted:
            self.table.show_prompts([])
        return out

    def _ready(self, frame: Frame, known: list[Detection]) -> bool:
        """Calibrate, then build the stabiliser and the game's reader, as soon as they can be."""
        if self.calibration is not None:
            try:
                self.calibration.check_frame(frame.image)
            except CalibrationError as exc:  # saved for another resolution: not usable
                log.warning("%s", exc)
                self._wrong_size = Text(f"校准不适用:{exc}", str(exc))
                self.calibration = None
        if self.calibration is None:
            height, width = frame.image.shape[:2]
            try:
                self.calibration = calibrate_table(known, self.registry.anchors(), (width, height))
            except CalibrationError:
                prompts = [("table.not_calibrated", NOT_CALIBRATED)]
                if self._wrong_size is not None:
                    prompts.insert(0, ("table.calibration_size", self._wrong_size))
                self.table.show_prompts(prompts)
                return False
            self.table.show_prompts([])
        if self._stabiliser is None:
            self._stabiliser = self._new_stabiliser(self.calibration)
        game = self.table.saved.game.name
        if self._reader is None or self._reader_for != game:
            # here, not at the top: vision.readers loads every game (0.15 s of the kiosk's start)
            from vision.readers import table_reader

            try:
                self._reader = table_reader(game, self.registry, self.calibration, known)
            except (VisionError, EngineError) as exc:  # ReaderNotFoundError is a VisionError
                if isinstance(exc, ReaderError):  # what players can do about it, in both
                    text = Text(
                        f"摄像头暂时无法读取本游戏:{exc.text.zh}",
                        f"The camera cannot read the game yet: {exc.text.en}",
                    )
                else:  # the detail is for the service log, in English only
                    log.warning("the reader of %s cannot start: %s", game, exc)
                    text = Text(
                        "摄像头暂时无法读取本游戏", f"The camera cannot read the game yet: {exc}"
                    )
                self.table.show_prompts([("table.reader_not_ready", text)])
                return False
            self._reader_for = game
            self._stabiliser = self._new_stabiliser(self.calibration)
        return True

    def _new_stabiliser(self, calibration: TableCalibration) -> Stabiliser:
        """A stabiliser placing every tag through ``calibration``'s lens and table plane (its
        ``to_table``: the same mapping the readers and ``scan`` use)."""
        return Stabiliser(self._stabiliser_config, to_table=calibration.to_table)


def load_calibration(path: Path) -> TableCalibration | None:
    """The saved calibration, or None (the loop then calibrates from the anchors in view)."""
    try:
        return TableCalibration.load(path)
    except CalibrationError as exc:
        log.info("%s", exc)
        return None


def wait_until(predicate: Callable[[], bool], timeout: float, step: float = 0.05) -> bool:
    """Poll ``predicate`` until it holds or ``timeout`` seconds pass (start-up waits only)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()
