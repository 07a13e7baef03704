"""The HTML pages: one frame (``kiosk/templates/base.html``) for every page, through Jinja2;
each page is then drawn by its own script from the API (``kiosk/static``), in the words of the
server's catalogue (``kiosk.words``), which the frame carries."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from kiosk.deps import SettingsDep
from kiosk.words import page_words

KIOSK = Path(__file__).resolve().parent.parent
STATIC = KIOSK / "static"
TEMPLATES = Jinja2Templates(directory=KIOSK / "templates")

router = APIRouter(tags=["pages"])

PAGES = {
    "/": ("table.html", ("board.js", "console.js", "table.js")),
    "/setup": ("setup.html", ("setup.js",)),
    "/settings": ("settings.html", ("settings.js",)),
    "/tray": ("tray.html", ("tray.js",)),
    "/camera": ("camera.html", ("camera.js",)),
    "/calibrate": ("calibrate.html", ("calibrate.js",)),
    "/packaway": ("packaway.html", ("packaway.js",)),
    "/box": ("box.html", ("keyboard.js", "box.js")),
}
"""Each page's path → its template and the scripts it loads after ``common.js``."""

WORDS_JSON = page_words()
"""The pages' words, both languages (``kiosk.words``), put in every page's frame."""


def _page(name: str, scripts: tuple[str, ...]) -> Callable[[Request, SettingsDep], HTMLResponse]:
    def page(request: Request, settings: SettingsDep) -> HTMLResponse:
        lang = request.query_params.get("lang") or settings.lang
        return TEMPLATES.TemplateResponse(
            request,
            name,
            {"scripts": scripts, "lang": lang, "words": WORDS_JSON},
            media_type="text/html; charset=utf-8",
        )

    page.__doc__ = f"The page {name}."
    return page


for _path, (_name, _scripts) in PAGES.items():
    router.add_api_route(_path, _page(_name, _scripts), methods=["GET"], include_in_schema=False)
