"""`tablesight replay`: apply a JSON-lines file of moves and print each verdict."""

from kiosk.commands.pending import register_pending


def register(sub) -> None:
    """Add the `replay` verb."""
    register_pending(
        sub, "replay", "apply a JSON-lines file of moves and print each verdict", "issue #2"
    )
