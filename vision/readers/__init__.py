"""Per-game readers: from steady table observations to engine moves, one module per game.

Each ``vision.readers.<game>`` module provides ``scan(image_path, lang) -> dict`` and
``describe(result, lang) -> str`` for ``tablesight scan``, and a reader class for the table loop.
"""
