"""Worn stickers for tests: rendered frames of a still table where some tags are partly erased
(a band faded most of the way to paper white) or scratched (one data cell wholly erased)."""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

from vision.synthetic import Camera, Component, Effects, SyntheticTable, TagTruth, render


def erase(image: np.ndarray, truth: TagTruth, cells: list[tuple[int, int]], fade: float):
    """Fade ``cells`` (column, row of the tag's 8 × 8 black square) towards white by ``fade``."""
    square = np.float32([[0, 8], [8, 8], [8, 0], [0, 0]])  # the detector's corner order
    to_image = cv2.getPerspectiveTransform(square, np.float32(truth.corners))
    mask = np.zeros(image.shape[:2], np.float32)
    for c, r in cells:
        quad = np.float32([[[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]]])
        corners = cv2.perspectiveTransform(quad, to_image)[0]
        cv2.fillConvexPoly(mask, np.round(corners * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    mask = cv2.GaussianBlur(mask, (0, 0), 0.7)[..., None] * fade
    return np.clip(image * (1 - mask) + 235 * mask, 0, 255).astype(np.uint8)


def still_table(ids: tuple[int, ...], tag_mm: float = 16) -> SyntheticTable:
    """The tags ``ids`` in a row across the table, each turned a little more."""
    return SyntheticTable(
        tuple(Component(t, 200 + 120 * i, 300, 15 * i, tag_mm) for i, t in enumerate(ids))
    )


def worn_frames(
    ids: tuple[int, ...],
    worn: int,
    scratched: int | None,
    count: int,
    camera: Camera | None = None,
    flicker: float = 0.0,
) -> Iterator[tuple[float, np.ndarray]]:
    """``count`` frames (time in ms, BGR image) of the still table with fresh sensor noise each:
    tag ``worn`` has a band of cells faded to 68 % (found in about half the frames), tag
    ``scratched`` one wholly erased data cell (read only by correcting a bit). ``flicker``
    brightens every other frame by that many grey levels (a lamp on mains power), so that an
    incremental detector looks at every frame afresh."""
    camera = camera or Camera.overhead(1280, 720, height_mm=800)
    table = still_table(ids)
    for seed in range(count):
        shot = render(table, camera, Effects(noise=6, blur=0.8), seed=seed)
        truth = shot.truth_by_id()
        image = erase(shot.image, truth[worn], [(c, 3) for c in range(1, 7)], 0.68)
        if scratched is not None:
            image = erase(image, truth[scratched], [(2, 2)], 1.0)
        if flicker and seed % 2:
            image = cv2.add(image, np.full_like(image, round(flicker)))
        yield seed * 100.0, image
