"""Greenwood's editable component data (TOML files; invented values are marked placeholder)."""
