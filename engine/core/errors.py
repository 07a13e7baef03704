"""The engine's exceptions: one root, leaves that also subclass a builtin (python-chess style)."""


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
    """Setup options or a game's phase data are not valid."""


class FlowError(EngineError, RuntimeError):
    """The phase machine cannot go on (a phase that can never end, an endless loop)."""


class UnknownGameError(EngineError, LookupError):
    """No game of that name is registered."""


class NothingToUndoError(EngineError, LookupError):
    """Undo or redo was asked for with nothing to undo or redo."""
