"""One real headless Chromium per test process, shared by every folder's ``browser`` fixture.

Playwright's sync API cannot be started twice in one thread while the first is running, so the
kiosk tests and the end-to-end tests take their browser from here.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from serving import CHROMIUM_FLAGS, chromium_path

_open: dict[str, Any] = {}


def shared_browser() -> Any:
    """The process's Chromium, launched on first use; skips (fails on CI) without Chromium."""
    if "browser" not in _open:
        path = chromium_path()
        if path is None:
            if os.environ.get("CI"):
                pytest.fail("CI must have Chromium: .ci/run installs it with apt-get")
            pytest.skip("Chromium is not installed (apt-get install -y chromium)")
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        _open["playwright"] = playwright
        _open["browser"] = playwright.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
    return _open["browser"]


def close_shared_browser() -> None:
    """Close the browser and stop Playwright (idempotent)."""
    browser, playwright = _open.pop("browser", None), _open.pop("playwright", None)
    if browser is not None:
        browser.close()
    if playwright is not None:
        playwright.stop()
