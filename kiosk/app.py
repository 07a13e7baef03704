"""The kiosk's FastAPI application: until the kiosk issue lands, a plain status page."""

from __future__ import annotations

import html
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

from kiosk.settings import Settings
from kiosk.table import Table

LABELS = {
    "zh": {
        "round": "第{n}轮",
        "player": "轮到{n}号玩家",
        "moves": "已记录{n}步",
        "over": "游戏结束",
    },
    "en": {
        "round": "Round {n}",
        "player": "Player {n} to act",
        "moves": "{n} moves saved",
        "over": "Game over",
    },
}


def create_app(settings: Settings, table: Table) -> FastAPI:
    """Build the app around the table being played."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        table.saved.store.close()

    app = FastAPI(title="tablesight", docs_url=None, redoc_url=None, lifespan=lifespan)

    @app.get("/api/status")
    def status() -> dict[str, Any]:
        return table.status(settings.lang)

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/", response_class=HTMLResponse)
    def status_page() -> str:
        return render_status(table.status(settings.lang), settings.lang)

    return app


def render_status(status: dict[str, Any], lang: str) -> str:
    """The status page: game, round, phase, step, whose turn, how many moves are saved."""
    words = LABELS[lang]
    esc = html.escape
    lines = [
        f"<h1>{esc(status['title'])}</h1>",
        f"<p id='round'>{esc(words['round'].format(n=status['round']))}</p>",
        f"<p id='phase'>{esc(status['phase']['title'])}</p>",
    ]
    if status["step"]:
        step = status["step"]
        lines.append(f"<p id='step'>{step['index']}/{step['of']} {esc(step['title'])}</p>")
    if status["current_player"]:
        lines.append(f"<p id='turn'>{esc(words['player'].format(n=status['current_player']))}</p>")
    if status["outcome"]:
        lines.append(f"<p id='outcome'>{esc(words['over'])}</p>")
    lines.append(f"<p id='moves'>{esc(words['moves'].format(n=status['moves']))}</p>")
    lines += [f"<p class='notice'>{esc(n)}</p>" for n in status["notices"]]
    body = "\n".join(lines)
    return (
        f"<!doctype html><html lang='{lang}'><head><meta charset='utf-8'>"
        "<meta http-equiv='refresh' content='2'><title>tablesight</title>"
        "<style>body{font:2rem system-ui;margin:2rem;background:#111;color:#eee}"
        "h1{font-size:3rem}.notice{font-size:1rem;color:#aaa}</style></head>"
        f"<body>{body}</body></html>"
    )
