"""Stonesaga's demo box: its data files (TOML; invented values are marked placeholder)."""
