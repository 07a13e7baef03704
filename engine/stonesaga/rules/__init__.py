"""Stonesaga's rules: each move's check and effect by move type (``dispatch``), and the rules
they use: the day's actions (``day``), tests and dice (``dice``), character creation
(``creation``), the night (``night``), the save (``save``), the interval between sessions
(``interval``), the behemoth's tread (``behemoth``) and the small rules they share
(``basics``).

This face imports nothing, so that the modules may use each other's helpers.
"""
