"""Set-up shared by every test folder."""

from __future__ import annotations

import signal

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """pytest-xdist's worker processes ignore SIGINT (the controller takes Ctrl-C), and the
    processes a test starts inherit that: a test that presses Ctrl-C on a `tablesight` child
    would press it on nothing. A player's terminal never ignores it, so the tests' children
    get Python's own handling back."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
