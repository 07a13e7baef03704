"""Synthetic pack-away photos: one game's components laid out in rows under the camera (one
face of each, its first tag), some left out; small frames, as the pack-away tests use them."""

from __future__ import annotations

import math

import numpy as np

from vision.registry import TagEntry, load_registry
from vision.synthetic import Camera, Component, Effects, SyntheticTable, render

GAME = "dont_starve"
LEFT_OUT_EN = ("map tile 7", "Wendy 1", "defeated monster 5")
"""The three pieces the incomplete photo leaves out, by their English sticker names."""
LEFT_OUT_ZH = ("地图板块7", "温蒂1", "已击败怪物5")
"""The same three, as the Chinese sticker sheet prints them."""
SIZE = (960, 540)
HEIGHT_MM = 500.0


def first_tags(game: str = GAME) -> list[TagEntry]:
    """One tag per component of ``game`` (its first face's first tag), in the registry's order."""
    first: dict[tuple[str, int], TagEntry] = {}
    for e in load_registry().for_game(game):
        first.setdefault((e.name, e.item), e)
    return list(first.values())


def sticker_name(e: TagEntry) -> str:
    """The English name of the component ``e`` is on, as ``vision.inventory`` names it."""
    return f"{e.shown or e.name} {e.copy or e.item}"


def layout_photo(game: str = GAME, leave_out: tuple[str, ...] = (), seed: int = 1) -> np.ndarray:
    """A photo (BGR, ``SIZE``) of every component of ``game`` but those named in ``leave_out``
    (English sticker names), each in its own cell of a grid, turned a little each."""
    width, height = SIZE
    camera = Camera.overhead(width, height, height_mm=HEIGHT_MM)
    seen_w = 2 * HEIGHT_MM * math.tan(math.radians(33))
    seen_h = seen_w * height / width
    comps = first_tags(game)
    cols = math.ceil(math.sqrt(len(comps) * seen_w / seen_h))
    rows = math.ceil(len(comps) / cols)
    cell_w, cell_h = (seen_w - 40) / cols, (seen_h - 40) / rows
    x0, y0 = 450 - seen_w / 2 + 20, 300 - seen_h / 2 + 20
    laid = tuple(
        Component(
            e.tag_id,
            x0 + (i % cols + 0.5) * cell_w,
            y0 + (i // cols + 0.5) * cell_h,
            (i * 37) % 360,
            e.tag_mm,
        )
        for i, e in enumerate(comps)
        if sticker_name(e) not in leave_out
    )
    return render(SyntheticTable(laid), camera, Effects(noise=3, blur=0.6), seed=seed).image
