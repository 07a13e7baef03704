"""What a sticker's place looks like when the detector no longer reads it: bare table, or covered.

While a sticker is read, its place is remembered: the pixel quad of its black square and the
*ring* of table around it (between ``RING`` times the square's side, clear of the sticker's white
border and card), its typical grey level and its spread. When the sticker is missed, one look at
its place answers:

- ``bare``: the square is as plain as the ring was (no black-and-white code in it) and as bright
  as the ring around it is now, and the ring is as it was: the sticker has been taken away and the
  table shows;
- ``covered``: anything else that can be seen (a hand, an arm, a card held above, the sticker
  itself unread in bad light): the square differs from the table or from its surroundings before;
- ``unseen``: the square or most of its ring lies outside the frame.

Levels are compared as shares of the ring's level. The ring is remembered again while the
sticker is read (the stabiliser does it about once a second), so light that changes slowly is
followed; a sudden change of more than about a tenth (``RING_KEPT``) makes a bare place look
covered, which only slows its removal down. Only grey levels are used: a hand of the same
brightness and plainness as the table, held over a sticker and its whole ring, looks like bare
table.

>>> import numpy as np
>>> table = np.full((120, 120), 110, np.uint8)
>>> square = np.array([[50, 50], [70, 50], [70, 70], [50, 70]], float)
>>> sticker = table.copy(); sticker[48:72, 48:72] = 250; sticker[50:70, 50:70] = 20
>>> place = remember(sticker, square)
>>> look(table, place), look(sticker, place)
('bare', 'covered')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

import cv2
import numpy as np
import numpy.typing as npt

FloatArray: TypeAlias = npt.NDArray[np.float64]
Image: TypeAlias = npt.NDArray[np.uint8]
Look = Literal["bare", "covered", "unseen"]

RING = (1.9, 2.6)
"""The ring of table around a sticker, inside and outside edges, in times its square's side
(about its centre). A sticker's card is 1.5 times the square by default (two cells of white
border a side)."""
PLAIN = 1.5
"""A bare square's spread is at most this times the ring's (plus ``SPREAD_SLACK``)."""
SPREAD_SLACK = 8.0
LEVEL = 0.15
"""A bare square's level is within this share of the ring's level now (plus ``LEVEL_SLACK``)."""
LEVEL_SLACK = 8.0
RING_KEPT = 0.12
"""The ring now is within this share of its level when remembered (a dimmer lamp passes; a hand
over the ring does not)."""


@dataclass(frozen=True)
class Place:
    """A sticker's place in the frame and what surrounded it when it was last read."""

    quad: FloatArray
    ring_level: float
    ring_spread: float


def remember(image: Image, quad: FloatArray) -> Place | None:
    """The place of a sticker read at pixel corners ``quad`` (4×2) in ``image`` (grey or BGR),
    or None when its ring is mostly outside the frame."""
    quad = np.asarray(quad, float).reshape(4, 2)
    parts = _parts(image, quad)
    if parts is None:
        return None
    _square, ring = parts
    level, spread = _stats(ring)
    return Place(quad, level, spread)


def look(image: Image, place: Place) -> Look:
    """What the place shows in ``image`` now (see the module)."""
    parts = _parts(image, place.quad)
    if parts is None:
        return "unseen"
    square, ring = parts
    level, spread = _stats(square)
    ring_level, _ = _stats(ring)
    plain = spread <= PLAIN * place.ring_spread + SPREAD_SLACK
    like_ring = abs(level - ring_level) <= LEVEL * ring_level + LEVEL_SLACK
    ring_kept = _ring_kept(place.ring_level, ring_level)
    return "bare" if plain and like_ring and ring_kept else "covered"


def same_surroundings(before: Place, now: Place) -> bool:
    """Whether the ring of ``now`` is as bright as that of ``before`` (within ``RING_KEPT``)."""
    return _ring_kept(before.ring_level, now.ring_level)


def _ring_kept(before: float, now: float) -> bool:
    return abs(now - before) <= RING_KEPT * before + LEVEL_SLACK


def inside(place: Place, point: tuple[float, float]) -> bool:
    """Whether pixel ``point`` lies within the place's square."""
    contour = place.quad.astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0


def _scaled(quad: FloatArray, factor: float) -> FloatArray:
    centre = quad.mean(axis=0)
    return centre + (quad - centre) * factor


def _parts(
    image: Image, quad: FloatArray
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]] | None:
    """The grey pixels of the square and of the ring, or None when the square leaves the frame
    or under half the ring is in it."""
    height, width = image.shape[:2]
    outer = _scaled(quad, RING[1])
    x0, y0 = np.floor(outer.min(axis=0)).astype(int)
    x1, y1 = np.ceil(outer.max(axis=0)).astype(int) + 1
    if quad.min() < 0 or quad[:, 0].max() > width - 1 or quad[:, 1].max() > height - 1:
        return None
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    crop = image[cy0:cy1, cx0:cx1]
    if crop.ndim == 3:
        crop = np.asarray(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), np.uint8)
    shift = np.array([cx0, cy0], float)
    masks = []
    for poly in (quad, _scaled(quad, RING[0]), outer):
        mask = np.zeros(crop.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, np.round(poly - shift).astype(np.int32), 1)
        masks.append(mask)
    whole = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(whole, np.round(outer - (x0, y0)).astype(np.int32), 1)
    square = crop[masks[0] > 0]
    ring_mask = (masks[2] > 0) & (masks[1] == 0)
    ring = crop[ring_mask]
    ring_area = whole.sum() * (1 - (RING[0] / RING[1]) ** 2)
    if square.size < 4 or ring.size < max(8, ring_area / 2):
        return None
    return square, ring


def _stats(pixels: npt.NDArray[np.uint8]) -> tuple[float, float]:
    """The typical level (median) and spread (between the 10th and 90th percentile, halved)."""
    low, mid, high = np.percentile(pixels, (10, 50, 90))
    return float(mid), float(high - low) / 2
