"""What the table draws (draws "table", DESIGN.md "Chance comes from the table").

The engine draws no threat and chooses no start player: each is a state of the game that the
table ends by giving what it drew, checked by the rules.

- The threat cards (§一.3: the 15 are shuffled, one goes face up for round 1 and four face
  down; §三.15 step 3: two are turned face up at each upkeep). Each card turned face up is
  given as it is turned: round 1's as the game opens, the upkeep's two as the next dusk begins
  (``greenwood.threat_drawn``), picked by its name among the box's threats or, for a card the
  box does not hold, entered by what sets it off and its protection reward (kept in the game,
  ``GreenwoodData.entered``, under a fresh name, ``entered threat N``, and announced for the
  owner's box, ``BoxItemEntered``). A card the box does not know, one already on the main
  board, an entry beyond what a card prints and a card when none is turned up are refused.
- The start player (§一.10: who saw an amber spirit last, else at random): chosen at the table
  as the game opens (``greenwood.start_player``) unless the set-up named one (``start_seat``)
  or the game is solo.

Nothing else can be played while one of them is due (``in_progress``). The tutorial order
(§一.3 教学威胁顺序) draws nothing: threats 1–5 lie in their places. With draws "virtual" the
engine's seeded deck deals the five threats and picks the start player, as it always did.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.core import ACCEPTED, Event, InProgress, State, Verdict
from engine.core.box import Box, BoxError
from engine.core.vocabulary import BoxItemEntered
from engine.greenwood import reasons as R
from engine.greenwood.catalogue import (
    ENTERED,
    REWARD_KINDS,
    TRIGGERS,
    Catalogue,
    Threat,
    catalogue,
    threat_item,
)
from engine.greenwood.moves import ChooseStartPlayer, StartPlayerChosen, ThreatDrawn, ThreatRevealed
from engine.greenwood.state import GreenwoodData
from engine.greenwood.texts import threat_name

S = State[GreenwoodData]
GAME = "greenwood"

THREATS_IN_PLAY = 5
"""Threat cards on the main board in a game (§一.3)."""
POINTS_MAX = 8
"""The most points a threat's protection reward takes, as an entry takes it."""
REWARD_MAX = 3
"""The most of another reward (energy, aurora…) a protection gives, as an entry takes it."""
DRAW_MOVES = frozenset({ThreatDrawn.type, ChooseStartPlayer.type})
"""What the table may give while a draw is due (the other draw of the opening included)."""


def table_draws(state: S) -> bool:
    """Whether the table gives the threats (draws "table", not the tutorial order)."""
    return state.options.draws == "table" and not state.options.tutorial_threats


def in_progress(state: S) -> InProgress | None:
    """A threat turned face up or the start player that the table has not given yet, once a
    dusk is under way (the game opens in round 1's dusk): any seat gives it."""
    data = state.data
    if state.flow.phase != "dusk" or state.outcome is not None:
        return None
    if data.threats_due:
        return InProgress(None, R.THREAT_DUE.reject(), DRAW_MOVES)
    if data.start_due:
        return InProgress(None, R.START_PLAYER_DUE.reject(), DRAW_MOVES)
    return None


def threats_in(state: S) -> tuple[Threat, ...]:
    """Every threat card this game knows: the box's, then those the table entered
    (``GreenwoodData.threats`` indexes this)."""
    return (*catalogue(state).threats, *state.data.entered)


def threat_at(state: S, place: int) -> Threat:
    """The threat card in ``place`` of the main board (0 = round 1's, in revealed order)."""
    return threats_in(state)[state.data.threats[place]]


def _in_play(state: S) -> set[str]:
    known = threats_in(state)
    return {known[i].name for i in state.data.threats}


# --- the threat card turned face up -----------------------------------------------------------


def entered_threat(state: S, move: ThreatDrawn) -> Threat:
    """The card an entry describes, its trigger and protection reward, under a name no card of
    the box or of this game has yet (``entered threat N``, its id in the owner's box)."""
    reward = move.protection if move.amount == 1 else f"{move.protection}:{move.amount}"
    taken = {t.name for t in threats_in(state)}
    n = 1
    while f"{ENTERED} {n}" in taken:
        n += 1
    return Threat(f"{ENTERED} {n}", move.trigger, (reward,))


def copied_threat(cat: Catalogue, box: Box, values: Mapping[str, Any]) -> tuple[str, Any]:
    """A threat card copied at the "Your box" page from what sets it off and its protection
    reward (``offers.threat_fields``): in place of the first demo threat the owner has not
    copied (keeping its name), else under a new ``entered threat N``. BoxError when the
    trigger, the reward or its amount is not one a card prints (§四.5)."""
    trigger, protection = str(values.get("trigger", "")), str(values.get("protection", ""))
    amount = int(values.get("amount", 1))
    most = POINTS_MAX if protection == "vp" else REWARD_MAX
    if trigger not in TRIGGERS:
        raise BoxError([f"tracks.toml, threat: set off by one of {', '.join(TRIGGERS)}"])
    if protection not in REWARD_KINDS or not 1 <= amount <= most:
        raise BoxError([f"tracks.toml, threat: a protection reward of 1 to {most}"])
    demo = [t.name for t in cat.threats if not box.is_owners(threat_item(t.name))]
    taken = {t.name for t in cat.threats}
    n = 1
    while f"{ENTERED} {n}" in taken:
        n += 1
    name = demo[0] if demo else f"{ENTERED} {n}"
    reward = protection if amount == 1 else f"{protection}:{amount}"
    return threat_item(name), {"name": name, "trigger": trigger, "protection": [reward]}


def check_threat(state: S, move: ThreatDrawn) -> Verdict:
    """§一.3: a card is turned up; a card of the box not on the main board already; an entry
    with a trigger of §四.5 and a protection reward a card prints."""
    data = state.data
    if not data.threats_due:
        return R.NO_THREAT_DUE.reject()
    if move.threat:
        if move.threat not in {t.name for t in catalogue(state).threats}:
            return R.NO_SUCH_THREAT.reject()
        if move.threat in _in_play(state):
            return R.THREAT_IN_PLAY.reject(threat=threat_name(move.threat))
        return ACCEPTED
    most = POINTS_MAX if move.protection == "vp" else REWARD_MAX
    if move.trigger not in TRIGGERS:
        return R.UNKNOWN_TRIGGER.reject()
    if move.protection not in REWARD_KINDS or not 1 <= move.amount <= most:
        return R.BAD_PROTECTION.reject(high=most)
    return ACCEPTED


def play_threat(state: S, move: ThreatDrawn) -> tuple[S, tuple[Event, ...]]:
    """The card lies face up on the main board (revealed now); an entered one is this game's
    from now on and is announced for the owner's box."""
    data = state.data
    box_threats = catalogue(state).threats
    events: list[Event] = []
    if move.threat:
        index = next(i for i, t in enumerate(box_threats) if t.name == move.threat)
        threat = box_threats[index]
    else:
        threat = entered_threat(state, move)
        index = len(box_threats) + len(data.entered)
        data = replace(data, entered=(*data.entered, threat))
        value = {"name": threat.name, "trigger": threat.trigger, "protection": [*threat.protection]}
        entry = json.dumps(value, ensure_ascii=False)
        events.append(BoxItemEntered(GAME, threat_item(threat.name), entry))
    at = len(data.threats)
    data = replace(
        data, threats=(*data.threats, index), revealed=at + 1, threats_due=data.threats_due - 1
    )
    events.insert(0, ThreatRevealed(at, threat.name, threat.trigger))
    return replace(state, data=data), tuple(events)


# --- the start player -------------------------------------------------------------------------


def check_start(state: S, move: ChooseStartPlayer) -> Verdict:
    """§一.10: the start player is still to be chosen, and sits at this table."""
    if not state.data.start_due:
        return R.NO_START_DUE.reject()
    if not 0 <= move.player < state.players:
        return R.NO_SUCH_PLAYER.reject(player=move.player + 1, players=state.players)
    return ACCEPTED


def play_start(state: S, move: ChooseStartPlayer) -> tuple[S, tuple[Event, ...]]:
    """The start-player marker goes to that seat: the night's first turn is theirs (§三.4) and
    the marker passes clockwise from them at each upkeep (§三.15 step 5)."""
    flow = replace(state.flow, start_seat=move.player)
    data = replace(state.data, start_due=False)
    return replace(state, flow=flow, data=data), (StartPlayerChosen(move.player),)
