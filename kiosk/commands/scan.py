"""`tablesight scan`: read one image through a game's reader."""

from kiosk.commands.pending import register_pending


def register(sub) -> None:
    """Add the `scan` verb."""
    register_pending(
        sub, "scan", "read one image through a game's reader", "the game issues #5, #6, #7"
    )
