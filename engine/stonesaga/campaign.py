"""Between sessions: mourning, outposts, the valley's size, intervals and ageing, what is kept.

Pure functions of values, used by the game at night and at the save, and by the table loop
when a new session is set up from the campaign log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.stonesaga.catalogue import ATTRIBUTES, campaign
from engine.stonesaga.model import ValleyRecord

MOURNING_OLD_AGE = 2
"""§角色死亡与传说.1: +2 to the mourning roll for a death of old age between sessions."""


def mourning(roll: int, old_age: bool = False) -> str:
    """§角色死亡与传说.1: 1 → population −1; 2–4 → unrest +1; 5–6 → an attribute +1 (max 6).

    The roll is a d6, +2 for a death of old age between sessions (so 7–8 count as 5–6).
    """
    total = roll + (MOURNING_OLD_AGE if old_age else 0)
    if total <= 1:
        return "population"
    if total <= 4:
        return "unrest"
    return "attribute"


def outpost_limit(population: int) -> int:
    """§建前哨: how many outposts the population allows (population 8 → 2)."""
    limit = 0
    for lowest, outposts in campaign()["outpost_limits"]:
        if population >= lowest:
            limit = outposts
    return limit


def ruins_needed(outposts: int, population: int) -> int:
    """§建前哨: at the start of a new epoch, how many outposts must become ruins because
    there are more than the population allows (the players choose which)."""
    return max(outposts - outpost_limit(population), 0)


def valley_capacity(epoch: int) -> int:
    """§山谷扩张: terrain trays the valley holds: epoch 1 → 4, 2 → 6, 3 → 8."""
    return int(campaign()["valley_capacity"][str(epoch)])


INTERVALS = ("season", "generation", "epoch", "introduction")
"""§间隔: how long since the last session, printed on each challenge card."""


def age_after(age: str, interval: str) -> str:
    """§间隔: a character's age after the interval: young, old, or dead (a legend).

    Season and introduction change nothing; a generation ages everyone (young → old,
    old → dead); an epoch ends every character.
    """
    if interval not in INTERVALS:
        raise ValueError(f"unknown interval {interval!r}; one of {', '.join(INTERVALS)}")
    if interval == "epoch":
        return "dead"
    if interval == "generation":
        return "old" if age == "young" else "dead"
    return age


@dataclass(frozen=True)
class AfterInterval:
    """The Log after an interval: the roster aged, who died of old age and the mourning."""

    roster: tuple[Any, ...]
    mourned: tuple[tuple[str, int, str], ...]
    """(name, d6 rolled, effect) for each character who died of old age."""
    population: int = 0
    unrest: int = 0
    """How the society tracks change."""


def after_interval(roster: Sequence[Any], interval: str, rolls: Sequence[int]) -> AfterInterval:
    """§间隔 and §角色死亡与传说: age every living character of the Log (``Hero`` values).

    Each who dies is mourned with the next d6 of ``rolls`` (roster order; ValueError when there
    are too few): +2 for death of old age (a generation), no +2 when an epoch ends everyone.
    On 5–6 the legend's highest attribute below 6 is raised by 1 (the table's choice, 黎明规则).
    """
    out, mourned, population, unrest = [], [], 0, 0
    dice = iter(rolls)
    for hero in roster:
        if hero.age == "dead":
            out.append(hero)
            continue
        age = age_after(hero.age, interval)
        if age != "dead":
            out.append(replace(hero, age=age))
            continue
        roll = next(dice, None)
        if roll is None:
            raise ValueError(f"a mourning roll is needed for {hero.name}")
        effect = mourning(roll, old_age=interval == "generation")
        hero = replace(hero, age="dead")
        if effect == "population":
            population -= 1
        elif effect == "unrest":
            unrest += 1
        else:
            below = [
                (getattr(hero, a), -k, a) for k, a in enumerate(ATTRIBUTES) if getattr(hero, a) < 6
            ]
            if below:
                _, _, name = max(below)
                hero = replace(hero, **{name: getattr(hero, name) + 1})
                effect = f"{name}+1"
        mourned.append((hero.name, roll, effect))
        out.append(hero)
    return AfterInterval(tuple(out), tuple(mourned), population, unrest)


def keep_problem(items: Sequence[str], materials: Sequence[str]) -> str | None:
    """§局间保留与存档: at most 5 items and 5 materials per character; None if allowed."""
    if len(items) > campaign()["keep_items"]:
        return "items"
    if len(materials) > campaign()["keep_materials"]:
        return "materials"
    return None


def challenge_kinds(session: int, epoch: int) -> tuple[str, ...]:
    """§开局设置.5: which challenges may be chosen for a session (1–6) of an epoch.

    First session: campaign start (epoch 1) or epoch start; sessions 2–3: a pending crisis;
    4–5: finale or crisis; 6: finale.
    """
    if session == 1:
        return ("campaign_start",) if epoch == 1 else ("epoch_start",)
    if session in (2, 3):
        return ("crisis",)
    if session in (4, 5):
        return ("finale", "crisis")
    if session == 6:
        return ("finale",)
    raise ValueError(f"an epoch has 4 to 6 sessions, not session {session}")


def rebuild_problems(record: ValleyRecord, seen: ValleyRecord) -> list[str]:
    """§开局设置.7: how a rebuilt valley differs from its record (empty when it matches).

    Each problem is a short English line naming the tile or overlay: missing, not recorded,
    on the wrong tray or slot, turned, or showing the other face.
    """
    problems: list[str] = []
    wanted = {t.tile: t for t in record.tiles}
    got = {t.tile: t for t in seen.tiles}
    for tile_id, want in sorted(wanted.items()):
        have = got.get(tile_id)
        if have is None:
            problems.append(f"tile {tile_id} is missing (tray {want.tray}, slot {want.slot})")
            continue
        if (have.tray, have.slot) != (want.tray, want.slot):
            problems.append(
                f"tile {tile_id} is in tray {have.tray} slot {have.slot};"
                f" it goes in tray {want.tray} slot {want.slot}"
            )
        elif (have.rotation - want.rotation) % 360:
            problems.append(
                f"tile {tile_id} is turned {have.rotation}°; it goes at {want.rotation}°"
            )
        if have.explored != want.explored:
            face = "explored" if want.explored else "unexplored"
            problems.append(f"tile {tile_id} shows the wrong face; it goes {face} side up")
    problems += [f"tile {t} is not in the record" for t in sorted(set(got) - set(wanted))]
    want_overlays = {(o.overlay, o.tile, o.zone) for o in record.overlays}
    have_overlays = {(o.overlay, o.tile, o.zone) for o in seen.overlays}
    problems += [
        f"overlay {o} is missing (tile {t}, zone {z})"
        for o, t, z in sorted(want_overlays - have_overlays)
    ]
    problems += [
        f"overlay {o} on tile {t} zone {z} is not in the record"
        for o, t, z in sorted(have_overlays - want_overlays)
    ]
    return problems
