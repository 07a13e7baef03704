"""`tablesight tags`: write printable sticker sheets."""

from kiosk.commands.pending import register_pending


def register(sub) -> None:
    """Add the `tags` verb."""
    register_pending(sub, "tags", "write printable sticker sheets", "issue #3 (vision core)")
