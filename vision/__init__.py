"""From pixels to observations: frame sources, detection, calibration, stabiliser, readers."""
