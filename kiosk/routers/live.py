"""Live updates over server-sent events: a full snapshot on every (re)connect, then changes.

Each message carries the table's sequence number. A ``snapshot`` replaces everything the page
knows; a ``change`` lists only the top-level fields of the status that differ from the last
message this viewer got. The browser's EventSource reconnects by itself (``retry``), and the page
also reopens the stream if it was closed for good.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from kiosk.deps import PairingDep, SettingsDep, TableDep, is_local
from kiosk.routers.status import snapshot
from kiosk.settings import Language
from kiosk.table import Change

router = APIRouter(tags=["live"])

KEEPALIVE_S = 15.0
RETRY_MS = 1000


def sse(kind: str, data: dict[str, Any], seq: int) -> bytes:
    """One server-sent event."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"event: {kind}\nid: {seq}\ndata: {body}\n\n".encode()


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

    def on_change(change: Change) -> None:
        if not loop.is_closed():
            loop.call_soon_threadsafe(wake.set)

    async def stream() -> AsyncIterator[bytes]:
        remove = table.listen(on_change)
        try:
            last = snapshot(table, settings, pairing, local, lang or settings.lang)
            yield f"retry: {RETRY_MS}\n\n".encode() + sse("snapshot", last, last["seq"])
            while True:
                try:
                    await asyncio.wait_for(wake.wait(), KEEPALIVE_S)
                except TimeoutError:
                    yield b": keepalive\n\n"
                    continue
                wake.clear()
                now = snapshot(table, settings, pairing, local, lang or settings.lang)
                changed = {k: v for k, v in now.items() if last.get(k) != v}
                last = now
                yield sse("change", changed, now["seq"])
        finally:
            remove()

    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
