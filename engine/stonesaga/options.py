"""Stonesaga's set-up options and the Log's characters that may be chosen (§开局设置)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import Options


@dataclass(frozen=True)
class Hero:
    """A living character of the campaign log, available to be chosen (§开局设置.1)."""

    name: str
    trait: str
    strength: int
    dexterity: int
    faith: int
    perception: int
    age: str = "young"


@dataclass(frozen=True)
class StonesagaOptions(Options):
    """Setup of a session: players, challenge, epoch, society tracks, the log's characters,
    and the behemoths whose lairs are active (§开局设置); or ``log``, the JSON of the Log of
    the session before (``campaign.Log``), which gives all but the players and the challenge.
    ``epoch`` None: 1 for a new campaign, the Log's next otherwise."""

    players: int = 1
    challenge: str = "GI01"
    epoch: int | None = None
    population: int | None = None
    unrest: int | None = None
    roster: tuple[Hero, ...] = ()
    behemoths: tuple[str, ...] = ()
    log: dict[str, Any] | None = None
