"""`tablesight calibrate`: calibrate the camera to the table."""

from kiosk.commands.pending import register_pending


def register(sub) -> None:
    """Add the `calibrate` verb."""
    register_pending(
        sub, "calibrate", "calibrate the camera to the table", "issue #3 (vision core)"
    )
