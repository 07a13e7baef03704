"""Greenwood's exceptions, under the engine's root."""

from engine.core.errors import EngineError


class GreenwoodError(EngineError):
    """Root of the errors raised by the Greenwood package."""


class GreenwoodDataError(GreenwoodError, ValueError):
    """A component data file (``engine/greenwood/data/*.toml``) is malformed."""
