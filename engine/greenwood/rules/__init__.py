"""Greenwood's rules: which moves are legal and what they do (``actions``), and the submarine
placement rules with the rewards a placement pays (``placement``)."""

from engine.greenwood.rules.actions import check, check_pass, departure_over, pass_for, play
from engine.greenwood.rules.placement import check_placement, rewards_of

__all__ = [
    "check",
    "check_pass",
    "check_placement",
    "departure_over",
    "pass_for",
    "play",
    "rewards_of",
]
