"""The engine's exceptions: one root, leaves that also subclass a builtin (python-chess style)."""

from __future__ import annotations

from engine.core.text import Text


class EngineError(Exception):
    """Root of every error raised by the engine."""


class InvalidMoveError(EngineError, ValueError):
    """A move could not be parsed: unknown type, missing or mistyped field."""


class IllegalMoveError(EngineError, ValueError):
    """A well-formed move was applied although the rules forbid it; carries the verdict."""

    def __init__(self, verdict: object) -> None:
        super().__init__(str(verdict))
        self.verdict = verdict


class GameConfigError(EngineError, ValueError):
    """Setup options or a game's phase data are not valid. ``text`` says it to the players in
    both languages: the given sentence for what a set-up page can choose, else a general one
    (the English keeps the detail, which names options as the data files do)."""

    def __init__(self, message: str, text: Text | None = None) -> None:
        super().__init__(message)
        self.text = text or Text(
            "这些设置无法开局,请换一种选择", f"These options cannot start a game: {message}"
        )


class FlowError(EngineError, RuntimeError):
    """The phase machine cannot go on (a phase that can never end, an endless loop)."""


class UnknownGameError(EngineError, LookupError):
    """No game of that name is registered."""


class NothingToUndoError(EngineError, LookupError):
    """Undo or redo was asked for with nothing to undo or redo."""
