"""Fixtures for the kiosk tests: a running `tablesight run` process and a real Chromium."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import CHROMIUM_FLAGS, Server, chromium_path, fresh_game, start_server


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
def browser():
    """A real headless Chromium driven by Playwright (Debian's package, not a download)."""
    path = chromium_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("CI must have Chromium: .ci/run installs it with apt-get")
        pytest.skip("Chromium is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()
