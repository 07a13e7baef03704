"""The table loop on a camera that fails: lost and back on the kiosk, never an exception."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kiosk.loop import TableLoop
from kiosk.settings import load_settings
from kiosk.table import open_table
from vision.calibration import TableCalibration
from vision.errors import SourceLostError
from vision.sources import Frame, SourceEndedError

WAIT_S = 30.0  # a bound on waits, not a timing check


class FlakyCamera:
    """Frames, then a lost camera for two reads, then frames again, then the end."""

    name = "flaky"

    def __init__(self) -> None:
        self.reads = 0

    def open(self) -> None:
        """Opening always works; reading may not."""

    def read(self) -> Frame:
        self.reads += 1
        if self.reads in (3, 4):
            raise SourceLostError("flaky: the USB cable was pulled")
        if self.reads > 8:
            raise SourceEndedError("flaky: no more frames")
        return Frame(np.full((120, 160, 3), 90, np.uint8), self.reads * 100.0, self.reads)

    def close(self) -> None:
        """Nothing to close."""


def test_a_lost_camera_is_reported_then_back_and_the_loop_carries_on(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path, lang="en", game="greenwood")
    table, store = open_table(settings)
    states: list[tuple[str, str]] = []
    table.listen(lambda change: states.append(tuple(vars(table.links["camera"]).values())))
    loop = TableLoop(table, FlakyCamera())
    try:
        loop.start()
        assert loop.ended.wait(WAIT_S)
    finally:
        loop.stop()
        store.close()
    kinds = [state for state, _ in states]
    assert "lost" in kinds and "ok" in kinds[kinds.index("lost") :], states
    lost = next(detail for state, detail in states if state == "lost")
    assert "USB cable was pulled" in lost
    assert loop.frames == 6  # every frame that came was read: 8 reads less the 2 lost
    # No anchors in these frames: the kiosk asks for them instead of guessing.
    assert [code for code, _ in table.prompts] == ["table.not_calibrated"]


def test_a_calibration_for_another_resolution_is_named_and_not_used(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path, lang="en", game="greenwood")
    table, store = open_table(settings)
    wrong = TableCalibration(np.eye(3), (1920, 1080), (0, 1, 2, 3), 0.1)
    loop = TableLoop(table, FlakyCamera(), calibration=wrong)
    try:
        assert loop.process(Frame(np.full((120, 160, 3), 90, np.uint8), 0.0, 0)) == []
    finally:
        store.close()
    codes = [code for code, _ in table.prompts]
    assert codes == ["table.calibration_size", "table.not_calibrated"]
    assert "1920×1080" in table.prompts[0][1].en and "160×120" in table.prompts[0][1].en
    assert loop.calibration is None
