"""A whole Stonesaga campaign played through the console's offers only (issue 26): from the
campaign start GI01 through three epochs to the third epoch's finale, each session set up from
the Log the one before handed on (``Stonesaga.campaign_log``), with the challenge each session
may take (§开局设置.5: 第一个纪元的第一局必须选「战役起始」；之后每个纪元的第一局选「纪元起始」；
第 2–3 局选悬置的「危机」；第 4–5 局在「终局」与「危机」间选；第 6 局必须选「终局」) and the
campaign's invariants checked after every accepted move: the society tracks never below 0, a
character of the roster a legend exactly when dead with attributes 1–6 (§角色死亡与传说), and
no more outposts than the population allows once a new epoch's interval is over (§建前哨).

The walk steers as a group that wants to see its whole campaign: it builds the outposts its
population allows, loses a character in a session mourned with a 1 (population −1, so that at
the next epoch's start an outpost is over the limit and must become a ruin, §建前哨), chooses
the living characters of its Log (§开局设置.1), moves its outposts free between sessions
(§废墟与迁移前哨) and rebuilds the valley (§开局设置.7); every such move is an option the
console offers. Its figures print with ``.venv/bin/python -m pytest
tests/stonesaga/test_campaign_walk.py -q -s``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from checked_walk import CheckedWalk, checked_walk, offered_option

from engine.core import GameConfigError, Move, State, offered
from engine.core.offers import SeatOffers, sample
from engine.stonesaga import STONESAGA as GAME
from engine.stonesaga import campaign as camp
from engine.stonesaga import moves as mv
from engine.stonesaga.catalogue import catalogue
from engine.stonesaga.rules.basics import health_length, incapacitated

SCHEDULE = (6, 4, 5)
"""Sessions per epoch: the first reaches session 6, which must take a finale (§开局设置.5)."""
MAX_MOVES = 3000
"""A bound per session (a session of this walk takes some dozens to a few hundred moves)."""
BUILD_DAYS = 6
"""Past this day a session may end without its goal (the walk then tries the next one)."""
CAMPAIGN_MOVES = ("choose_character", "move_outpost", "ruin_outpost", "rebuild_valley")
FIRST = {
    "players": 2,
    "challenge": "GI01",
    "roster": [
        {"name": "Elder", "trait": "wise", "strength": 5, "dexterity": 4, "faith": 3,
         "perception": 6, "age": "young"},
    ],
    "behemoths": ["Grumblehorn"],
}  # fmt: skip


def campaign_sound(before: State[Any], after: State[Any], move: Move) -> list[str]:
    """The campaign's invariants (see the module's docstring)."""
    data = after.data
    out = []
    if min(data.population, data.unrest) < 0:
        out.append(f"society tracks {data.population}, {data.unrest}")
    for hero in data.roster:
        if hero.legend != (hero.age == "dead") or any(not 1 <= v <= 6 for _, v in hero.attributes):
            out.append(f"{hero.name}: {hero.age}, legend {hero.legend}, {hero.attributes}")
    left = before.flow.phase == "interval" and after.flow.phase != "interval"
    if (
        left
        and data.session == 1
        and _outposts(after) > camp.outpost_limit(data.population, catalogue(after))
    ):
        out.append(f"{_outposts(after)} outposts at a new epoch, population {data.population}")
    return out


INVARIANTS = (campaign_sound,)


def _outposts(state: State[Any]) -> int:
    return sum(1 for _, t in state.data.tiles if t.outpost)


def _first(open_now: tuple[SeatOffers, ...], move_type: str) -> Move | None:
    """The first offered, legal option of ``move_type`` for any seat."""
    for group in open_now:
        move = offered_option(open_now, group.seat, move_type)
        if move is not None:
            return move
    return None


def _rolled(open_now: tuple[SeatOffers, ...], move_type: str, faces: list[int]) -> Move | None:
    """The first offered, legal option of ``move_type`` with these dice (face indices)."""
    for group in open_now:
        for offer in group.offers:
            if offer.move != move_type:
                continue
            for option in offer.options:
                move = offer.build(option.values, faces={"dice": faces})
                if option.verdict.ok and offered(open_now, move) is not None:
                    return move
    return None


def _without(open_now: tuple[SeatOffers, ...], move_type: str) -> tuple[SeatOffers, ...]:
    return tuple(
        SeatOffers(g.seat, g.acting, tuple(o for o in g.offers if o.move != move_type))
        for g in open_now
    )


def steer(state: State[Any], open_now: tuple[SeatOffers, ...], rnd: random.Random) -> Move | None:
    """A group playing its campaign through: what it wants made, if the console offers it."""
    data = state.data
    phase = state.flow.phase
    if phase == "interval":
        kinds = ["mourn", "ruin_outpost", "move_outpost"]
        for kind in kinds if data.rebuilt else [*kinds, "rebuild_valley"]:
            move = _first(open_now, f"stonesaga.{kind}")
            if move is not None:
                return move
        return _first(open_now, "pass")
    if phase == "creation":
        return _first(open_now, mv.ChooseCharacter.type)
    if _first(open_now, mv.Mourn.type) is not None and data.epoch == 1 and data.population >= 8:
        return _rolled(open_now, mv.Mourn.type, [0])  # §角色死亡与传说.1: 1 → population −1
    if phase != "day":
        return None
    limit = camp.outpost_limit(data.population, catalogue(state))
    building = data.epoch == 1 and data.population >= 8 and _outposts(state) < limit
    losing = data.epoch == 1 and data.population >= 8 and not building and data.session >= 2
    if building:
        move = _first(open_now, mv.BuildOutpost.type)
        if move is not None:
            return move
    if losing and sum(c.alive for c in data.characters) > 1:
        last = max(i for i, c in enumerate(data.characters) if c.alive)
        if incapacitated(data.characters[last].health, health_length(data.party)):
            return sample(_without(open_now, mv.EndChallenge.type), rnd)  # to the night
        for group in open_now:
            move = offered_option(open_now, group.seat, mv.Effect.type, (last, "injury", "heavy"))
            if move is not None:
                return move
    if (building or losing) and state.flow.round <= BUILD_DAYS:
        return sample(_without(open_now, mv.EndChallenge.type), rnd)
    if state.flow.round < 2:  # a night and its steps in every session
        return None
    ending = tuple(
        SeatOffers(g.seat, g.acting, tuple(o for o in g.offers if o.move == mv.EndChallenge.type))
        for g in open_now
    )
    return sample(ending, rnd)


@dataclass
class Campaign:
    """How the campaign went: its sessions, walks and what the Log said after each."""

    walks: list[CheckedWalk] = field(default_factory=list)
    played: list[tuple[int, int, str, str]] = field(default_factory=list)
    """(epoch, session, challenge, result) per session."""
    logs: list[dict[str, Any]] = field(default_factory=list)
    over: str = ""
    """What the engine said when asked for a session after the last."""


def allowed(log: dict[str, Any]) -> list[str]:
    """The challenges the next session may take, as the engine judges them."""
    out = []
    for card in catalogue().challenges:
        try:
            GAME.parse_options({"players": 2, "challenge": card, "log": log})
        except GameConfigError:
            continue
        out.append(card)
    return out


def play_campaign(seed: int) -> Campaign:
    """Every session of a campaign, each from the Log of the one before."""
    rnd = random.Random(seed)
    result = Campaign()
    setup: dict[str, Any] = FIRST
    for epoch, sessions in enumerate(SCHEDULE, start=1):
        for session in range(1, sessions + 1):
            if result.logs:
                log = result.logs[-1]
                cards = allowed(log)
                kinds = {catalogue().challenge(c).kind for c in cards}
                want = "finale" if session == sessions else "crisis"
                if session == 1:
                    want = "epoch_start"
                assert want in kinds, f"epoch {epoch} session {session}: only {sorted(cards)}"
                chosen = rnd.choice([c for c in cards if catalogue().challenge(c).kind == want])
                setup = {"players": 2, "challenge": chosen, "log": log}
            last: list[State[Any]] = []
            keep = last.append
            walk = checked_walk(
                GAME,
                setup,
                seed + len(result.walks),
                MAX_MOVES,
                INVARIANTS,
                steer,
                mark=lambda state, _events, keep=keep: keep(state) or (),
            )
            result.walks.append(walk)
            log = GAME.campaign_log(last[-1])
            assert log is not None, f"epoch {epoch} session {session}: {walk.ending}"
            result.logs.append(log)
            card = log["challenges"][-1]
            result.played.append((log["epoch"], log["session"], card["id"], card["result"]))
    try:
        GAME.parse_options({"players": 2, "challenge": "ES01", "log": result.logs[-1]})
    except GameConfigError as exc:
        result.over = str(exc)
    return result


@pytest.fixture(scope="module")
def campaign() -> Campaign:
    """One campaign, played once for the tests below."""
    return play_campaign(7)


def test_a_whole_campaign_is_played_through_the_offers_to_its_last_finale(
    campaign: Campaign, capsys: Any
) -> None:
    """Issue 26: GI01, then every session from the Log before, three epochs (6, 4 and 5
    sessions: the sixth takes a finale), nothing offered refused, no invariant broken, each
    session ended; after the third epoch's finale the campaign is over (§三个纪元)."""
    kinds = [catalogue().challenge(card).kind for _, _, card, _ in campaign.played]
    assert campaign.played[0][:3] == (1, 1, "GI01")
    assert [(e, s) for e, s, _, _ in campaign.played] == [
        (e, s) for e, n in enumerate(SCHEDULE, 1) for s in range(1, n + 1)
    ]
    assert kinds[5] == kinds[9] == kinds[14] == "finale"
    assert kinds[6] == kinds[10] == "epoch_start"
    for walk in campaign.walks:
        assert walk.refused == (), walk.refused[:3]
        assert walk.breaks == (), walk.breaks[:5]
        assert walk.ending in ("stonesaga.won", "stonesaga.lost"), walk.ending
    assert "this campaign is over" in campaign.over
    moves = sum(w.moves for w in campaign.walks)
    with capsys.disabled():
        print(
            f"\nstonesaga campaign: {len(campaign.walks)} sessions, {moves} moves,"
            f" {sum(len(w.refused) for w in campaign.walks)} offered moves refused,"
            f" {sum(len(w.breaks) for w in campaign.walks)} invariant breaks;"
            f" sessions {', '.join(f'{e}.{s} {c} {r}' for e, s, c, r in campaign.played)};"
            f" ended: {campaign.over}"
        )


def test_the_campaign_makes_every_move_only_a_continued_session_offers(
    campaign: Campaign,
) -> None:
    """§开局设置.1 (a living character of the Log chosen), §废墟与迁移前哨 (an outpost moved
    free), §建前哨 (at the second epoch's start an outpost over the population's limit turned
    to a ruin: a death in a session mourned with a 1 lowered the population), §开局设置.7 (the
    valley rebuilt from the Log's map) — each made on the way, through the offers."""
    made = set().union(*(w.types for w in campaign.walks))
    for kind in CAMPAIGN_MOVES:
        assert f"stonesaga.{kind}" in made, kind
    epoch_start = campaign.walks[SCHEDULE[0]]
    assert "stonesaga.ruin_outpost" in epoch_start.types
    assert campaign.logs[SCHEDULE[0]]["ruins"]


def test_the_logs_carry_the_campaign_from_session_to_session(campaign: Campaign) -> None:
    """§局间保留与存档, §间隔与变老: each Log lists every challenge played so far; at each epoch's
    start every character of the Log before is a legend (纪元 Epoch：所有角色死亡并成为传说);
    each crisis is played once (悬置的危机)."""
    for k, log in enumerate(campaign.logs):
        assert [c["id"] for c in log["challenges"]] == [p[2] for p in campaign.played[: k + 1]]
    starts = [sum(SCHEDULE[:n]) for n in (1, 2)]
    for start in starts:
        before = {h["name"] for h in campaign.logs[start - 1]["roster"]}
        after = {h["name"]: h["age"] for h in campaign.logs[start]["roster"]}
        assert all(after[name] == "dead" for name in before)
    crises = [c for _, _, c, _ in campaign.played if c.startswith("CR")]
    assert len(crises) == len(set(crises)) == 9
