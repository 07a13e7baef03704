"""Live updates over server-sent events: a full snapshot on every (re)connect, then changes.

Each message carries the table's sequence number. A ``snapshot`` replaces everything the page
knows; a ``change`` lists only the top-level fields of the status that differ from the previous
snapshot (``kiosk.presenter``: built and diffed once, the same ``change`` for every viewer),
with this viewer's own fields (``lang``, ``settings``, ``control``) when they changed. A viewer
that fell behind (it missed a snapshot of its language) gets a ``snapshot`` again. The
browser's EventSource reconnects by itself (``retry``), and the page also reopens the stream if
it was closed for good.

Streams to devices that are neither this machine nor a paired phone are capped at
``http.max_viewers`` (``kiosk.guard.Door``): beyond, 503 with a message and Retry-After.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import StreamingResponse

from engine.core.text import Language
from kiosk.deps import PairingDep, SettingsDep, TableDep, is_local
from kiosk.guard import TOO_MANY_VIEWERS, VIEWERS_RETRY_S
from kiosk.presenter import Frame
from kiosk.routers.status import viewer_extras
from kiosk.table import Change

router = APIRouter(tags=["live"])

KEEPALIVE_S = 15.0
RETRY_MS = 1000


def sse(kind: str, data: dict[str, Any], seq: int) -> bytes:
    """One server-sent event."""
    return sse_text(kind, json.dumps(data, ensure_ascii=False, separators=(",", ":")), seq)


def sse_text(kind: str, body: str, seq: int) -> bytes:
    """One server-sent event of a JSON text."""
    return f"event: {kind}\nid: {seq}\ndata: {body}\n\n".encode()


def message(
    frame: Frame, last: int | None, extras: dict[str, Any], last_extras: dict[str, Any]
) -> bytes | None:
    """What a viewer that last got ``last`` (None: nothing yet) and ``last_extras`` is sent
    for ``frame``: the frame's own ``change`` when it follows ``last``, else a ``snapshot``;
    None when there is nothing new."""
    changed = {k: v for k, v in extras.items() if last_extras.get(k) != v}
    if last is not None and frame.seq == last and not changed:
        return None
    if last is None or frame.base != last:
        return sse_text("snapshot", frame.body(extra=extras), frame.seq)
    if not changed:
        return sse_text("change", frame.change_body, frame.seq)
    return sse_text("change", frame.body(frame.changed, changed), frame.seq)


class ViewerStream(StreamingResponse):
    """A stream counted as a viewer on the door (``counted_by``) until it ends, however it
    ends (the client gone before the first byte included)."""

    counted_by: Any = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Stream, then give the viewer's place back."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            if self.counted_by is not None:
                self.counted_by.viewers -= 1
                self.counted_by = None


@router.get("/api/live/stats")
def live_stats(table: TableDep) -> dict[str, Any]:
    """What the presenter did since the service started (counts only, safe to show anyone):
    ``builds``, the snapshots built per language, and ``latest``, the newest ``seq`` built in
    each (``tablesight bench kiosk`` reads it)."""
    return table.presenter.stats()


@router.get("/api/live")
async def live(
    request: Request,
    table: TableDep,
    settings: SettingsDep,
    pairing: PairingDep,
    lang: Language | None = None,
) -> StreamingResponse:
    """The table's status as a stream of server-sent events (``snapshot``, then ``change``)."""
    loop = asyncio.get_running_loop()
    wake = asyncio.Event()
    local = is_local(request)
    door = request.app.state.door
    client = request.client.host if request.client else None
    counted = not door.privileged(client)
    if counted and door.viewers >= door.http.max_viewers:
        door.refused(f"live viewers from the network beyond {door.http.max_viewers} (503)")
        raise HTTPException(
            503,
            door.say(TOO_MANY_VIEWERS.format(count=door.http.max_viewers)),
            headers={"Retry-After": str(VIEWERS_RETRY_S)},
        )
    if counted:
        door.viewers += 1  # counted now, so that a burst cannot overshoot (ViewerStream uncounts)

    def on_change(change: Change) -> None:
        if not loop.is_closed():
            loop.call_soon_threadsafe(wake.set)

    async def stream() -> AsyncIterator[bytes]:
        remove = table.listen(on_change)
        shown: Language = lang or settings.lang
        try:
            frame = table.presenter.frame(shown)
            extras = viewer_extras(settings, pairing, local, shown)
            first = message(frame, None, extras, {})
            yield f"retry: {RETRY_MS}\n\n".encode() + (first or b"")
            last, last_extras = frame.seq, extras
            while True:
                try:
                    await asyncio.wait_for(wake.wait(), KEEPALIVE_S)
                except TimeoutError:
                    yield b": keepalive\n\n"
                    continue
                wake.clear()
                frame = table.presenter.frame(shown)
                extras = viewer_extras(settings, pairing, local, shown)
                sent = message(frame, last, extras, last_extras)
                if sent is not None:
                    last, last_extras = frame.seq, extras
                    yield sent
        finally:
            remove()

    response = ViewerStream(
        stream(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
    response.counted_by = door if counted else None
    return response
