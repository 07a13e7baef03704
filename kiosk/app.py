"""The kiosk's FastAPI application: pages, the status API, live updates and the controls.

Layout after FastAPI's "bigger applications": one router per concern in ``kiosk.routers``,
dependencies in ``kiosk.deps``, hardware (buttons, buzzer, status LED, camera feed) opened and
closed in ``lifespan``. The whole app sits inside ``kiosk.guard.Guard`` (Host and Origin checks,
the security headers on every answer); ``kiosk.guard.Door`` (``app.state.door``) holds the
limits that ``kiosk.rig.serve`` hands to uvicorn.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Protocol

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from kiosk.guard import CSP, SECURITY_HEADERS, Door, Guard, quiet_floods
from kiosk.packaway import load_missing
from kiosk.pairing import Pairing
from kiosk.routers import box, camera, campaign, controls, live, packaway, pages, status, tray
from kiosk.settings import Settings
from kiosk.table import NoGameError, Table

log = logging.getLogger("tablesight.kiosk")

MAX_BODY_BYTES = 16 * 1024
"""The largest request body the kiosk accepts (every control request is a few hundred bytes)."""

__all__ = ["CSP", "MAX_BODY_BYTES", "SECURITY_HEADERS", "KioskApp", "create_app"]


class KioskApp(FastAPI):
    """FastAPI with ``kiosk.guard.Guard`` outside everything, FastAPI's own error and
    body-size layers included (a 413 or a 500 then carries the security headers too)."""

    def build_middleware_stack(self) -> Any:
        """FastAPI's stack, wrapped in the guard."""
        return Guard(super().build_middleware_stack(), self.state.door)


class Hardware(Protocol):
    """What the app opens at start and closes at the end (``kiosk.rig`` builds it)."""

    def open(self, app: FastAPI) -> None:
        """Open the devices and wire them to ``app.state.table``."""

    def close(self) -> None:
        """Close every device (idempotent)."""


def create_app(
    settings: Settings,
    table: Table,
    *,
    hardware: Hardware | None = None,
    pairing: Pairing | None = None,
) -> FastAPI:
    """Build the app around the table being played; ``hardware`` is opened in the lifespan."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        quiet_floods()
        if hardware is not None:
            hardware.open(app)
        watchdog = asyncio.create_task(systemd_watchdog())
        try:
            yield
        finally:
            watchdog.cancel()
            if hardware is not None:
                hardware.close()
            app.state.camera.close()
            table.store.close()

    app = KioskApp(
        title="tablesight",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        lifespan=lifespan,
        max_body_size=MAX_BODY_BYTES,
    )
    app.state.settings = settings
    app.state.table = table
    app.state.pairing = pairing or (
        Pairing(code=settings.pairing_code) if settings.pairing_code else Pairing()
    )
    app.state.door = Door(settings, app.state.pairing)
    app.state.camera = camera.CameraFeed(settings, table)
    app.state.leds = None  # the LED controller, when the hardware opens one
    if (missing := load_missing(settings.data_dir)) is not None:  # the last pack-away check's
        table.show_missing(missing)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own answer, with what was sent made JSON-safe: a NaN or an infinity in
        # the body would otherwise make the 422 itself fail (a 500).
        return JSONResponse({"detail": _json_safe(exc.errors())}, status_code=422)

    @app.exception_handler(NoGameError)
    async def no_game(request: Request, exc: NoGameError) -> JSONResponse:
        # A route that needs a game while the table has none (a kiosk waiting for the set-up
        # page): 409 saying so, in the request's ``lang`` else the kiosk's.
        lang = request.query_params.get("lang")
        said = exc.text.in_("zh" if lang == "zh" else "en" if lang == "en" else settings.lang)
        return JSONResponse({"detail": said, "code": exc.code}, status_code=409)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        log.exception("error while answering %s %s", request.method, request.url.path)
        return JSONResponse(
            {"detail": "internal error; the service log has the details"},
            status_code=500,
            headers=SECURITY_HEADERS,
        )

    routers = (pages, status, live, controls, camera, tray, campaign, packaway, box)
    for module in routers:
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=pages.STATIC), name="static")
    return app


def _json_safe(value: Any) -> Any:
    """``value`` with what JSON cannot hold (NaN, infinities, bytes, other objects) as text."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def sd_notify(message: str) -> bool:
    """Tell systemd about the service (``READY=1``, ``WATCHDOG=1``); False when not under it."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]  # an abstract socket
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError as exc:
        log.warning("cannot notify systemd: %s", exc)
        return False
    return True


async def systemd_watchdog() -> None:
    """Say READY=1 once serving, then WATCHDOG=1 at half the ``WATCHDOG_USEC`` interval.

    The pings come from the event loop itself, so a hung loop stops them and systemd restarts
    the service (``WatchdogSec=`` in hardware/deploy/tablesight.service).
    """
    if not sd_notify("READY=1"):
        return
    usec = int(os.environ.get("WATCHDOG_USEC", "0") or 0)
    if usec <= 0:
        return
    while True:
        await asyncio.sleep(usec / 2e6)
        sd_notify("WATCHDOG=1")
