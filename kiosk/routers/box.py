"""The "Your box" page's API (``/box``, docs/box.md "Copying at the kiosk"): what is copied of
each game's box, the camera's view of a board to copy, the item being copied (kept after
every touch), saving it as the owner's, and the box as a zip to download or upload.

Reading is open to every screen; every change is a control request (``Control``: the kiosk's
own screen, or a paired phone).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, HTTPException, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from engine.core import EngineError, Game, find_game
from engine.core.box import Box, BoxError, items_of
from engine.core.forms import field_json
from engine.core.game import available_games
from engine.core.text import Language
from kiosk.boxes import box_zip, current_box, import_box, keep_items, kind_label
from kiosk.copying import (
    Draft,
    copied_item,
    copy_how,
    drop_draft,
    load_draft,
    look_dont_starve,
    look_greenwood,
    progress,
    save_draft,
)
from kiosk.deps import Control, SettingsDep
from kiosk.routers.camera import get_feed

router = APIRouter(prefix="/api/box", tags=["box"])

MAX_DRAFT_BYTES = 256 * 1024
"""The largest item being copied a touch may send, with its undo (a board is under 1 KiB)."""
MAX_UPLOAD_BYTES = 2 * 1024 * 1024
"""The largest box file the page takes (a whole exported box is about 25 KiB)."""


class Keep(BaseModel):
    """An item to keep as the owner's: a board's value as the page built it, or a piece's
    covered cells, its tag's cell and its quarter turns (turned into a shape here)."""

    model_config = ConfigDict(extra="forbid")

    item: str = Field(min_length=3, max_length=120)
    value: dict[str, Any]


def _game(name: str) -> Game:
    try:
        return find_game(name)
    except EngineError:
        raise HTTPException(404, f"no game {name!r}") from None


@router.get("")
def box_page(settings: SettingsDep, game: str | None = None, lang: Language | None = None) -> dict:
    """The games, and for ``game`` (the first by default): each kind of printed item with how
    many are the owner's and how the page copies it, the next thing to do, and the item being
    copied (``draft``), if any."""
    lang = lang or settings.lang
    chosen = _shown(game)
    box = current_box(settings.data_dir, chosen)
    draft = load_draft(settings.data_dir, chosen)
    return {
        "games": [{"name": g.name, "title": g.title.in_(lang)} for g in available_games()],
        "game": chosen.name,
        "title": chosen.title.in_(lang),
        **progress(chosen, box, lang),
        "draft": draft.model_dump() if draft else None,
    }


@router.get("/export.zip")
def export_shown(settings: SettingsDep, game: str | None = None) -> Response:
    """The box file of the game the page shows (``game``, else the first, as ``GET /api/box``
    chooses): the page's download link, whose address the page carries from its first paint,
    before its script has drawn anything."""
    return export(_shown(game).name, settings)


@router.get("/{game}/look")
def look(request: Request, game: str, settings: SettingsDep, lang: Language | None = None) -> dict:
    """What the camera shows now for copying ``game``'s printed items (a board straightened,
    the pieces on it); 404 for a game the page does not copy by camera."""
    chosen = _game(game)
    looks = {"greenwood": look_greenwood, "dont_starve": look_dont_starve}
    if chosen.name not in looks:
        raise HTTPException(404, f"{chosen.name}: nothing is copied by the camera yet")
    feed = get_feed(request)
    feed.wanted()
    image, detections, _ = feed.latest()
    box = current_box(settings.data_dir, chosen)
    with request.app.state.door.heavy.slot("pictures"):
        return looks[chosen.name](image, detections, box, lang or settings.lang)


@router.get("/{game}/form")
def form(game: str, kind: str, settings: SettingsDep, lang: Language | None = None) -> dict:
    """The fields a ``kind`` of printed item is copied by (a weather card: its season, the
    symbols each side of the storm icon, the event's losses, the world events), as the
    console's fields, and whether its items carry a printed title; 404 for a kind not copied
    so."""
    chosen = _game(game)
    lang = lang or settings.lang
    box = current_box(settings.data_dir, chosen)
    fields = chosen.box_forms(box).get(kind)
    if fields is None:
        raise HTTPException(404, f"{chosen.name}: {kind} is not copied by its fields")
    items = [v for k, v in items_of(box.files).items() if k.startswith(kind + "/")]
    return {
        "kind": kind,
        "label": kind_label(chosen, kind, box).in_(lang),
        "fields": [field_json(f, lang) for f in fields],
        "titled": any(isinstance(v, dict) and "title_en" in v for v in items),
    }


@router.put("/{game}/draft", dependencies=[Control], max_body_size=MAX_DRAFT_BYTES)
def put_draft(game: str, draft: Draft, settings: SettingsDep) -> dict[str, Any]:
    """Keep the item being copied as it stands after a touch (nothing lost on a power cut)."""
    chosen = _game(game)
    if _how(chosen, draft.item, current_box(settings.data_dir, chosen)) is None:
        raise HTTPException(422, f"{draft.item}: not an item this page copies")
    save_draft(settings.data_dir, chosen, draft)
    return {"kept": True}


@router.delete("/{game}/draft", dependencies=[Control])
def forget_draft(game: str, settings: SettingsDep) -> dict[str, Any]:
    """Give up the item being copied."""
    drop_draft(settings.data_dir, _game(game))
    return {"kept": False}


@router.post("/{game}/keep", dependencies=[Control])
def keep(game: str, body: Keep, settings: SettingsDep, lang: Language | None = None) -> dict:
    """Make the item being copied the owner's: checked by the game's loader first (422 with
    the problems, nothing changed); the draft is then forgotten."""
    chosen = _game(game)
    how = _how(chosen, body.item, current_box(settings.data_dir, chosen))
    if how is None:
        raise HTTPException(422, f"{body.item}: not an item this page copies")
    box = current_box(settings.data_dir, chosen)
    try:
        item, value = copied_item(chosen, how, body.item, body.value, box)
    except BoxError as exc:
        raise HTTPException(422, {"problems": list(exc.problems)}) from None
    try:
        keep_items(settings.data_dir, chosen, {item: value})
    except BoxError as exc:
        raise HTTPException(422, {"problems": list(exc.problems)}) from None
    drop_draft(settings.data_dir, chosen)
    box = current_box(settings.data_dir, chosen)
    return {"kept": item, "value": value, **progress(chosen, box, lang or settings.lang)}


@router.get("/{game}/export.zip")
def export(game: str, settings: SettingsDep) -> Response:
    """The box as played, a zip of its data files (what ``tablesight box GAME import`` and the
    upload read)."""
    chosen = _game(game)
    return Response(
        box_zip(settings.data_dir, chosen),
        media_type="application/zip",
        headers={"Content-Disposition": f'attachment; filename="{chosen.name}-box.zip"'},
    )


@router.post("/{game}/import", dependencies=[Control], max_body_size=MAX_UPLOAD_BYTES)
def upload(
    game: str,
    settings: SettingsDep,
    data: Annotated[bytes, Body(media_type="application/zip")],
    lang: Language | None = None,
) -> dict[str, Any]:
    """Bring in a box (a zip, as the download gives): checked whole first; 422 with one line
    per problem and nothing changed."""
    chosen = _game(game)
    folder = settings.data_dir / "boxes"
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=folder, prefix=".upload-", suffix=".zip") as file:
        file.write(data)
        file.flush()
        try:
            taken = import_box(settings.data_dir, chosen, Path(file.name))
        except BoxError as exc:
            raise HTTPException(422, {"problems": list(exc.problems)}) from None
    box = current_box(settings.data_dir, chosen)
    return {"took": len(taken), **progress(chosen, box, lang or settings.lang)}


def _shown(game: str | None) -> Game:
    """The game the page shows: ``game``, else the first game."""
    return _game(game) if game else available_games()[0]


def _how(game: Game, item: str, box: Box) -> str | None:
    """How the page copies ``item`` (``board``, ``piece``, ``tiles``, ``card``), or None."""
    kind = "/".join(item.split("/")[:2])
    return copy_how(game, box).get(kind)
