"""The HTML pages: plain files from ``kiosk/static``, drawn by their own script from the API."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

STATIC = Path(__file__).resolve().parent.parent / "static"

router = APIRouter(tags=["pages"])

PAGES = {
    "/": "table.html",
    "/setup": "setup.html",
    "/settings": "settings.html",
    "/tray": "tray.html",
    "/camera": "camera.html",
    "/calibrate": "calibrate.html",
}


def _page(name: str) -> Callable[[], FileResponse]:
    def page() -> FileResponse:
        return FileResponse(STATIC / name, media_type="text/html; charset=utf-8")

    page.__doc__ = f"The page {name}."
    return page


for _path, _name in PAGES.items():
    router.add_api_route(_path, _page(_name), methods=["GET"], include_in_schema=False)
