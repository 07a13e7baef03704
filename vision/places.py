"""What a sticker's place looks like when the detector no longer reads it: bare table, or covered.

While a sticker is read, its place is remembered: the pixel quad of its black square and the
*ring* of table around it (between ``RING`` times the square's side, clear of the sticker's white
border and card), its typical grey level and its spread. When the sticker is missed, one look at
its place answers:

- ``bare``: the square is as plain as the ring was (no black-and-white code in it), as bright
  as the ring around it is now and as the ring was, and the ring is as it was: the sticker has
  been taken away and the table shows;
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

import math
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


@dataclass(frozen=True, eq=False)
class Place:
    """A sticker's place in a frame of ``frame`` (height, width) and what surrounded it when it
    was last read; ``box`` (x0, y0, x1, y1) is the crop holding its ``square`` and ``ring``
    (masks of that crop), ``centre`` and ``radius`` the circle inside its square."""

    quad: FloatArray
    frame: tuple[int, int]
    box: tuple[int, int, int, int]
    square: npt.NDArray[np.bool_]
    ring: npt.NDArray[np.bool_]
    ring_level: float
    ring_spread: float
    centre: tuple[float, float]
    radius: float


def remember(image: Image, quad: FloatArray) -> Place | None:
    """The place of a sticker read at pixel corners ``quad`` (4×2) in ``image`` (grey or BGR),
    or None when its square leaves the frame or under half its ring is in it."""
    quad = np.asarray(quad, float).reshape(4, 2)
    height, width = image.shape[:2]
    if quad.min() < 0 or quad[:, 0].max() > width - 1 or quad[:, 1].max() > height - 1:
        return None
    outer = _scaled(quad, RING[1])
    x0, y0 = np.floor(outer.min(axis=0)).astype(int)
    x1, y1 = np.ceil(outer.max(axis=0)).astype(int) + 1
    box = (max(int(x0), 0), max(int(y0), 0), min(int(x1), width), min(int(y1), height))
    shape = (box[3] - box[1], box[2] - box[0])
    masks = []
    for poly in (quad, _scaled(quad, RING[0]), outer):
        mask = np.zeros(shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(poly - box[:2]).astype(np.int32), 1)
        masks.append(mask > 0)
    square, ring = masks[0], masks[2] & ~masks[1]
    whole = np.zeros((int(y1 - y0), int(x1 - x0)), np.uint8)
    cv2.fillConvexPoly(whole, np.round(outer - (x0, y0)).astype(np.int32), 1)
    if square.sum() < 4 or ring.sum() < max(8, whole.sum() * (1 - (RING[0] / RING[1]) ** 2) / 2):
        return None
    level, spread = _stats(_crop(image, box)[ring])
    centre = quad.mean(axis=0)
    radius = float(np.linalg.norm(quad - centre, axis=1).mean()) / math.sqrt(2)
    return Place(
        quad, (height, width), box, square, ring, level, spread, (centre[0], centre[1]), radius
    )


def look(image: Image, place: Place) -> Look:
    """What the place shows in ``image`` now (see the module); ``unseen`` in a frame of another
    size."""
    if image.shape[:2] != place.frame:
        return "unseen"
    crop = _crop(image, place.box)
    level, spread = _stats(crop[place.square])
    ring_level, _ = _stats(crop[place.ring])
    plain = spread <= PLAIN * place.ring_spread + SPREAD_SLACK
    like_ring = abs(level - ring_level) <= LEVEL * ring_level + LEVEL_SLACK
    kept = _ring_kept(place.ring_level, ring_level) and _ring_kept(place.ring_level, level)
    return "bare" if plain and like_ring and kept else "covered"


def same_surroundings(before: Place, now: Place) -> bool:
    """Whether the ring of ``now`` is as bright as that of ``before`` (within ``RING_KEPT``)."""
    return _ring_kept(before.ring_level, now.ring_level)


def inside(place: Place, point: tuple[float, float]) -> bool:
    """Whether pixel ``point`` lies within the circle inside the place's square."""
    return math.dist(place.centre, point) <= place.radius


def _ring_kept(before: float, now: float) -> bool:
    return abs(now - before) <= RING_KEPT * before + LEVEL_SLACK


def _scaled(quad: FloatArray, factor: float) -> FloatArray:
    centre = quad.mean(axis=0)
    return centre + (quad - centre) * factor


def _crop(image: Image, box: tuple[int, int, int, int]) -> Image:
    """The grey pixels of ``image`` in ``box``."""
    crop = image[box[1] : box[3], box[0] : box[2]]
    if crop.ndim == 3:
        return np.asarray(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), np.uint8)
    return crop


def _stats(pixels: npt.NDArray[np.uint8]) -> tuple[float, float]:
    """The typical level (median) and spread (between the 10th and 90th percentile, halved)."""
    counts = np.bincount(pixels, minlength=256).cumsum()
    low, mid, high = np.searchsorted(counts, counts[-1] * np.array([0.1, 0.5, 0.9]))
    return float(mid), float(high - low) / 2
