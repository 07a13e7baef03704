"""Fixtures for the kiosk tests: a running `tablesight run` process and a real Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsers import close_shared_browser, shared_browser
from serving import Server, fresh_game, start_server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = start_server(tmp_path)
    try:
        yield srv
    finally:
        if srv.process.poll() is None:
            srv.process.kill()
            srv.process.wait()


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One `tablesight run` for the tests that start from a fresh game (``fresh_game``)."""
    srv = start_server(tmp_path_factory.mktemp("shared"))
    try:
        yield srv
    finally:
        if srv.process.poll() is None:
            srv.stop()


@pytest.fixture
def fresh(shared_server: Server) -> Server:
    """The shared server with a new two-player game of Greenwood (start seat 1)."""
    fresh_game(shared_server)
    return shared_server


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A real headless Chromium driven by Playwright (Debian's package, not a download; one per
    test process, shared with the end-to-end tests: tests/support/browsers.py)."""
    try:
        yield shared_browser()
    finally:
        close_shared_browser()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page of its own (cookies, storage) in the shared Chromium, at 1920×1080: the
    table's usual HDMI screen."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()
