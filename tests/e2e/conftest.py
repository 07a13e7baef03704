"""Fixtures for the end-to-end tests: a real headless Chromium (Debian's package)."""

from __future__ import annotations

import os

import pytest
from serving import CHROMIUM_FLAGS, chromium_path


@pytest.fixture(scope="session")
def browser():
    """A real headless Chromium driven by Playwright."""
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
