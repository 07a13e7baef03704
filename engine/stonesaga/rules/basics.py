"""The small pure rules the moves share, on values of the state: the party size, maladies on
the health track, boosts and dice, character creation, and the resources of a pack.

Every function takes values and returns new values; section names in the docstrings refer to
``stonesaga.zh.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.stonesaga.catalogue import ResourceData
from engine.stonesaga.state import Character, Health, Malady, Resources


def energy_cap(characters: int) -> int:
    """§精力, §开局设置.4: 5 energy with 1–2 characters, 4 with 3 or more."""
    return 5 if characters <= 2 else 4


def health_length(characters: int) -> int:
    """§健康轨有多长: 3 cells; a 4th with 3 or fewer; a 5th with 1–2."""
    return 3 + (characters <= 3) + (characters <= 2)


def rest_energy(characters: int) -> int:
    """§夜晚阶段.2: rest gives +1 with 3–4 characters, +2 with 1–2."""
    return 2 if characters <= 2 else 1


def gain_malady(health: Health, length: int, kind: str, heavy: bool) -> tuple[Health, str]:
    """§获得与退化: gain a malady; returns the track and what happened.

    A light one on top of a light one of the same kind flips it to heavy; a heavy one always
    takes a new cell, or counts as a light one when no cell is free. With no cell and nothing
    to flip, nothing more can happen (the character is already incapacitated).
    """
    if heavy and len(health) < length:
        return (*health, Malady(kind, True)), "added"
    for index, token in enumerate(health):
        if token.kind == kind and not token.heavy:
            upgraded = (*health[:index], Malady(kind, True), *health[index + 1 :])
            return upgraded, "upgraded"
    if len(health) < length:
        return (*health, Malady(kind, False)), "added"
    return health, "no_room"


def degrade_malady(health: Health, index: int) -> Health:
    """§获得与退化 退化: heavy flips to light; light is discarded."""
    token = health[index]
    if token.heavy:
        return (*health[:index], Malady(token.kind, False), *health[index + 1 :])
    return (*health[:index], *health[index + 1 :])


def incapacitated(health: Health, length: int) -> bool:
    """§健康轨有多长: every cell of the track is covered by a malady."""
    return len(health) >= length


def best_to_degrade(health: Health) -> int | None:
    """Which malady to degrade when the table chooses (黎明规则): a light one, freeing a cell."""
    for index, token in enumerate(health):
        if not token.heavy:
            return index
    return 0 if health else None


def gain_boost(level: int, amount: int) -> int:
    """§增益: a minor boost (1) on a minor boost becomes major (2); they never stack past 2."""
    if amount >= 2:
        return 2
    return 2 if level >= 1 else 1


def degrade_boost(level: int) -> int:
    """§增益: after a test with the attribute, major → minor, minor → gone."""
    return max(level - 1, 0)


def change_die(value: int, change: int) -> int:
    """§随机化: a change to a die never takes it above 6 or below 1."""
    return min(6, max(1, value + change))


CREATION_DICE = 5


CREATION_MINIMUM = 14


MAX_PARTY = 4
"""§开局设置.2, §配件一览: four mantles and four character boards: at most four characters."""


def party_full(seats_having: Sequence[int], players: int, party: int, seat: int) -> bool:
    """§开局设置.1–2: whether one more character for ``seat`` would make a fifth, or leave too
    few boards for the players who have none yet (``seats_having``: seats with a character)."""
    waiting = len(set(range(players)) - set(seats_having) - {seat})
    return party + 1 + waiting > MAX_PARTY


def creation_problem(rolls: Sequence[Sequence[int]], values: Sequence[int]) -> str | None:
    """§创造角色.1–2: every roll of five dice is rerolled until its sum is ≥ 14; the lowest
    die of the last roll is dropped and the other four are assigned one per attribute.

    Returns None when the rolls and the assignment follow that rule, else what is wrong
    (``dice``, ``reroll_needed``, ``rerolled_too_soon``, ``assignment``).
    """
    if not rolls or any(len(r) != CREATION_DICE or not all(1 <= d <= 6 for d in r) for r in rolls):
        return "dice"
    if sum(rolls[-1]) < CREATION_MINIMUM:
        return "reroll_needed"
    if any(sum(r) >= CREATION_MINIMUM for r in rolls[:-1]):
        return "rerolled_too_soon"
    kept = sorted(rolls[-1])[1:]
    if sorted(values) != kept:
        return "assignment"
    return None


def resource_name(name: str, kinds: ResourceData) -> str:
    """The full name with its face: a new token comes fresh or raw (§资源); water has one face.
    ``kinds`` is the box's resources.toml (which are perishable, hard, materials)."""
    if ":" in name or name == "water":
        return name
    if name in kinds.perishable:
        return f"{name}:fresh"
    if name in kinds.hard or name in kinds.materials:
        return f"{name}:raw"
    return name


def known_resource(name: str, kinds: ResourceData) -> bool:
    """Whether the name is a resource of §资源 (with or without its face)."""
    base, _, face = resource_name(name, kinds).partition(":")
    if base == "water":
        return not face
    if base in kinds.perishable:
        return face in ("fresh", "fermented")
    if base in kinds.hard or base in kinds.materials:
        return face in ("raw", "processed")
    return False


def count(pack: Resources, name: str, kinds: ResourceData) -> int:
    """How many of that resource the pack holds."""
    return dict(pack).get(resource_name(name, kinds), 0)


def add(pack: Resources, name: str, amount: int, kinds: ResourceData) -> Resources:
    """The pack with ``amount`` more (or fewer, if negative) of a resource."""
    held = dict(pack)
    key = resource_name(name, kinds)
    held[key] = held.get(key, 0) + amount
    return tuple(sorted((k, v) for k, v in held.items() if v > 0))


def spoil(pack: Resources, kinds: ResourceData) -> tuple[Resources, int]:
    """§夜晚阶段.5 腐败: fresh perishables ferment, fermented ones are discarded."""
    out: dict[str, int] = {}
    lost = 0
    for key, amount in pack:
        base, _, face = key.partition(":")
        if base in kinds.perishable:
            if face == "fresh":
                out[f"{base}:fermented"] = out.get(f"{base}:fermented", 0) + amount
            else:
                lost += amount
            continue
        out[key] = out.get(key, 0) + amount
    return tuple(sorted(out.items())), lost


def edible(pack: Resources, kinds: ResourceData) -> str | None:
    """The food eaten at night (§夜晚阶段.2), the table choosing (黎明规则): what spoils first:
    fermented, then fresh perishables, then processed hard food; None if nothing is edible."""
    order = [f"{b}:fermented" for b in kinds.perishable]
    order += [f"{b}:fresh" for b in kinds.perishable]
    order += [f"{b}:processed" for b in kinds.hard]
    held = dict(pack)
    return next((name for name in order if held.get(name, 0) > 0), None)


def processing_problem(
    resources: Sequence[str], tools: Sequence[str], kinds: ResourceData
) -> str | None:
    """§加工: at most 3 resources, each hard food or material, each with a tool icon of its own
    (heat may be used up to 3 times). None when allowed, else ``count``, ``pairing``,
    ``unknown_tool``, ``not_processable`` or ``same_tool``."""
    if not resources or len(resources) > kinds.max_processed:
        return "count"
    if len(tools) != len(resources):
        return "pairing"
    if any(t not in kinds.tools for t in tools):
        return "unknown_tool"
    for name in resources:
        base = name.partition(":")[0]
        if base not in kinds.hard and base not in kinds.materials:
            return "not_processable"
    others = [t for t in tools if t != kinds.heat]
    if len(set(others)) != len(others) or tools.count(kinds.heat) > kinds.heat_uses:
        return "same_tool"
    return None


def lose_energy(character: Character, amount: int) -> tuple[Character, int]:
    """§精力: lose energy; each point missing gives a light injury. Returns the injuries due."""
    missing = max(amount - character.energy, 0)
    return replace(character, energy=max(character.energy - amount, 0)), missing
