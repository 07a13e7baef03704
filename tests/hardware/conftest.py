"""Fixtures for the hardware tests: gpiozero's mock pins, reset after each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """A fresh MockFactory; its pins are released and reset in ``finally``."""
    factory = MockFactory()
    try:
        yield factory
    finally:
        factory.reset()
        factory.close()
