"""`tablesight detect`: print the AprilTags found in images."""

from kiosk.commands.pending import register_pending


def register(sub) -> None:
    """Add the `detect` verb."""
    register_pending(sub, "detect", "print the AprilTags found in images", "issue #3 (vision core)")
