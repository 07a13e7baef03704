"""Fixtures for the end-to-end tests: a real headless Chromium (Debian's package)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browsers import close_shared_browser, shared_browser


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A real headless Chromium driven by Playwright (shared with the kiosk tests)."""
    try:
        yield shared_browser()
    finally:
        close_shared_browser()
