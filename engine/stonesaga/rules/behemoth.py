"""The behemoth's tread (§巨兽 警觉巨兽的激活.2) and the start of an encounter, as pure functions.

The behemoth phase's steps are walked on the kiosk; these give the table the answer to the
tread: which adjacent tiles the behemoth may step to, and how a tie between them is broken by
dice and affinity.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence


def distances(neighbours: Mapping[str, Sequence[str]], target: str) -> dict[str, int]:
    """Steps from every tile to ``target`` over shared edges (tiles that cannot reach it are
    left out)."""
    out = {target: 0}
    queue = deque([target])
    while queue:
        tile = queue.popleft()
        for other in neighbours[tile]:
            if other not in out:
                out[other] = out[tile] + 1
                queue.append(other)
    return out


def tread_candidates(neighbours: Mapping[str, Sequence[str]], at: str, target: str) -> list[str]:
    """§巨兽.2 跋涉: the adjacent tiles nearest the target (several on a tie), sorted."""
    far = distances(neighbours, target)
    steps = [(far[t], t) for t in neighbours[at] if t in far]
    if not steps:
        return []
    best = min(d for d, _ in steps)
    return sorted(t for d, t in steps if d == best)


def break_tie(
    candidates: Mapping[str, Sequence[str]], affinity: Sequence[str], rolls: Mapping[str, int]
) -> list[str]:
    """§巨兽.2: each tied tile rolls a die, +1 for each of its features in the behemoth's
    affinity; the highest wins. Returns the winner alone, or the tiles still tied (they
    alone roll again)."""
    scores = {
        tile: rolls[tile] + sum(1 for f in set(features) if f in affinity)
        for tile, features in candidates.items()
    }
    best = max(scores.values())
    return sorted(t for t, s in scores.items() if s == best)
