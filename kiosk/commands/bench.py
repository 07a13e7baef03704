"""`tablesight bench`: measure speed and memory."""

from kiosk.commands.pending import register_pending


def register(sub) -> None:
    """Add the `bench` verb."""
    register_pending(sub, "bench", "measure speed and memory", "issue #2")
