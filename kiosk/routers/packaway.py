"""Pack away (Menu → "Pack away"): check a game's components laid out under the camera.

``POST /api/packaway`` takes the camera's next few frames together, checks them against the
game's sticker registry (``vision.inventory``) and keeps the outcome: the table then holds what
is missing (the café's alert) until a check finds all. ``GET /api/packaway`` gives the last
check, ``/api/packaway.jpg`` its picture (the seen pieces outlined) and
``/api/packaway/sheet-N.svg`` the sticker sheet's page N with the missing pieces' stickers
marked. The game is the table's, or ``game`` (the set-up page checks the box it is about to
play).
"""

from __future__ import annotations

import functools
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict

from engine.core import find_game
from engine.core.text import Language
from kiosk.deps import Control, SettingsDep, TableDep
from kiosk.packaway import MissingPieces, save_missing
from kiosk.routers.camera import get_feed
from vision.detection import Detection
from vision.inventory import Inventory, check, draw_seen, marked_sheets
from vision.registry import GAMES, TagEntry, load_registry

router = APIRouter(tags=["pack away"])

FRAMES = 3
"""Frames taken together in one check (a hand or a glare in one is made up by the others)."""
WAIT_S = 4.0
"""How long a check waits for the camera's frames."""


class CheckRequest(BaseModel):
    """What to check: the table's game unless ``game`` names another."""

    model_config = ConfigDict(extra="forbid")

    game: str | None = None


@dataclass
class LastCheck:
    """The last check's outcome, picture and marked sheets (drawn once per language)."""

    number: int
    title: dict[str, str]
    result: Inventory
    frames: int
    seconds: float
    picture: bytes
    sheets: dict[Language, list[tuple[int, str]]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """As the page reads it: the check (names in both languages) and its sheet pages."""
        return {
            **self.result.as_json(),
            "number": self.number,
            "title": self.title,
            "frames": self.frames,
            "seconds": round(self.seconds, 3),
            "pages": [n for n, _ in self.sheet_pages("en")],
        }

    def sheet_pages(self, lang: Language) -> list[tuple[int, str]]:
        """The marked pages in ``lang`` (drawn on first use)."""
        with _LOCK:
            if lang not in self.sheets:
                self.sheets[lang] = marked_sheets(_entries(self.result.game), self.result, lang)
            return self.sheets[lang]


_LOCK = threading.Lock()


@functools.cache
def _entries(game: str) -> list[TagEntry]:
    return load_registry().for_game(game)


def _game(table: Any, game: str | None) -> str:
    """The game to check: ``game`` when given (one of the registry's), else the table's."""
    if game is None:
        return str(table.saved.game.name)
    if game not in GAMES:
        raise HTTPException(404, f"no tags for {game!r}; the games are: {', '.join(GAMES)}")
    return game


@router.get("/api/packaway")
def last_check(request: Request, table: TableDep, game: str | None = None) -> dict[str, Any]:
    """The game the page checks and the last check of it (``last`` None before one)."""
    name = _game(table, game)
    title = find_game(name).title
    kept: LastCheck | None = getattr(request.app.state, "packaway", None)
    same = kept is not None and kept.result.game == name
    return {
        "game": name,
        "title": {"zh": title.zh, "en": title.en},
        "last": kept.as_json() if kept is not None and same else None,
    }


@router.post("/api/packaway", dependencies=[Control])
def run_check(
    request: Request, table: TableDep, settings: SettingsDep, body: CheckRequest | None = None
) -> dict[str, Any]:
    """Check the game's pieces in the camera's next frames; 409 (``no_frame``) without a
    frame. A check that sees none of the game's pieces is answered (``empty``) and not kept:
    nothing was laid out yet."""
    name = _game(table, body.game if body else None)
    began = time.perf_counter()
    image, found, frames = _frames(request)
    result = check(name, _entries(name), found)
    title = find_game(name).title
    if result.seen_count == 0:
        return {"game": name, "title": {"zh": title.zh, "en": title.en}, "empty": True}
    with request.app.state.door.heavy.slot("pictures"):
        ok, jpeg = cv2.imencode(
            ".jpg", draw_seen(image, found, result), [cv2.IMWRITE_JPEG_QUALITY, 80]
        )
    with _LOCK:
        before: LastCheck | None = getattr(request.app.state, "packaway", None)
        kept = LastCheck(
            (before.number + 1) if before else 1,
            {"zh": title.zh, "en": title.en},
            result,
            frames,
            time.perf_counter() - began,
            jpeg.tobytes() if ok else b"",
        )
        request.app.state.packaway = kept
    missing = None
    if result.missing:
        missing = MissingPieces(
            game=name, title_zh=title.zh, title_en=title.en, count=len(result.missing)
        )
    save_missing(settings.data_dir, missing)
    table.show_missing(missing)
    return {"game": name, "empty": False, **kept.as_json()}


def _frames(request: Request) -> tuple[np.ndarray, list[Detection], int]:
    """The latest image and the detections of up to ``FRAMES`` frames taken together, each
    read after the request came (the frame shown before may be of a table being laid out)."""
    feed = get_feed(request)
    feed.wanted()
    found: list[Detection] = []
    image, last, frames = None, feed.latest()[0], 0
    deadline = time.monotonic() + WAIT_S
    while frames < FRAMES and time.monotonic() < deadline:
        feed.wanted()
        now, detections, _ = feed.latest()
        if now is not None and now is not last:
            image, last, frames = now, now, frames + 1
            found += detections
        time.sleep(0.05)
    if image is None:
        raise HTTPException(409, "no_frame")
    return image, found, frames


@router.get("/api/packaway.jpg")
def picture(request: Request) -> Response:
    """The last check's picture, the seen pieces outlined (404 before a check)."""
    kept: LastCheck | None = getattr(request.app.state, "packaway", None)
    if kept is None or not kept.picture:
        raise HTTPException(404, "no check yet")
    return Response(kept.picture, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


@router.get("/api/packaway/sheet-{page}.svg")
def sheet(
    request: Request, page: int, settings: SettingsDep, lang: Language | None = None
) -> Response:
    """Page ``page`` of the sticker sheet with the last check's missing pieces marked, in
    ``lang`` (404 unless that page holds a missing piece's sticker)."""
    kept: LastCheck | None = getattr(request.app.state, "packaway", None)
    if kept is None:
        raise HTTPException(404, "no check yet")
    with request.app.state.door.heavy.slot("sticker sheets"):
        pages = dict(kept.sheet_pages(lang or settings.lang))
    if page not in pages:
        raise HTTPException(404, f"page {page} marks no missing piece")
    return Response(pages[page], media_type="image/svg+xml", headers={"Cache-Control": "no-store"})
