"""Don't Starve's printed content as editable TOML files (a package so that wheels ship them)."""
