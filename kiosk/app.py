"""The kiosk's FastAPI application."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

from kiosk.settings import Settings


def create_app(settings: Settings) -> FastAPI:
    """Build the app for the given settings."""
    app = FastAPI(title="tablesight", docs_url=None, redoc_url=None)

    @app.get("/", response_class=HTMLResponse)
    def status_page() -> str:
        return "<!doctype html><title>tablesight</title><h1>tablesight</h1>"

    return app
