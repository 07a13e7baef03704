"""The alert behemoth comes from the table (docs/stonesaga.md "Draws"; DESIGN.md "Chance comes
from the table"): stonesaga.zh.md §巨兽 警觉 — 每局开始时，从有启用巢穴的巨兽里随机选一头成为警觉，
其余休眠. With ``draws`` "table" (the default) the engine draws nothing: the draw is an action in
progress as the first day begins, the table gives it (``alert_behemoth``), the rules check it;
with "virtual" the engine's seeded draw stays as it was."""

from __future__ import annotations

import random
from typing import Any

from stonesaga_play import GAME, Play, of

from engine.core import Advance, EndTurn, Pass, apply, legal, offered, offers, start
from engine.core.offers import sample
from engine.stonesaga import moves as mv

RULE = "stonesaga.zh.md §巨兽"


def log_with(behemoths: list[dict[str, Any]]) -> dict[str, Any]:
    """A Log after a first session (GI01 won) whose behemoths are ``behemoths``."""
    hero = {"name": "Ash", "trait": "wise", "strength": 4, "dexterity": 4, "faith": 4,
            "perception": 4, "age": "young", "legend": False}  # fmt: skip
    return {
        "epoch": 1, "session": 1, "population": 8, "unrest": 0, "roster": [hero], "kept": [],
        "valley": None, "outposts": [], "ruins": [], "behemoths": behemoths,
        "challenges": [{"id": "GI01", "result": "won"}], "pending": ["CR01"], "version": 1,
    }  # fmt: skip


def announced(events: Any) -> list[str]:
    """The behemoths the events announce as alert."""
    return [e.name for e in of(events, mv.BehemothAlert)]


def test_the_engine_draws_no_alert_behemoth_the_table_gives_it() -> None:
    """§巨兽 警觉: with draws "table" no behemoth is alert, and none announced, until the table
    gives the one it drew; the day waits for it (any other move, passing too, refused with
    ``alert_due``, citing the rule); then it is alert and announced."""
    state, events = start(GAME, {"players": 2, "behemoths": ["Grumblehorn", "Stonetusk"]}, 3)
    assert state.data.alert is None and state.data.alert_due
    play = Play(2, behemoths=["Grumblehorn", "Stonetusk"])
    assert announced(play.events) == [] and play.data.alert is None
    assert play.state.flow.phase == "day"
    for move in (mv.Pack(0, 0), Pass(1), EndTurn(0), mv.EndChallenge(0, "won")):
        verdict = play.check(move)
        assert verdict.code == "stonesaga.alert_due" and verdict.rule == RULE, move
        assert "警觉" in verdict.message.zh and "alert" in verdict.message.en
    events = play.do(mv.AlertBehemoth(1, "Stonetusk"))
    assert announced(events) == ["Stonetusk"]
    assert play.data.alert == "Stonetusk" and not play.data.alert_due
    assert play.state.flow.current is None  # outside the turns: nobody's turn began
    assert play.check(mv.Pack(0, 0)).ok
    again = play.check(mv.AlertBehemoth(0, "Grumblehorn"))
    assert again.code == "stonesaga.no_alert_due" and again.rule == RULE


def test_the_rules_check_the_behemoth_the_table_gives() -> None:
    """§巨兽 警觉: 从有启用巢穴的巨兽里随机选一头 — one that has arrived (the Log names it) and
    whose lair is active; the console lists the Log's behemoths, a dormant one greyed with the
    rule."""
    sleeping = [{"name": "Grumblehorn", "demeanor": 4, "lair": False},
                {"name": "Stonetusk", "demeanor": 2, "lair": True}]  # fmt: skip
    state, _ = start(GAME, {"players": 1, "challenge": "CR01", "log": log_with(sleeping)})
    play = Play.__new__(Play)
    play.state = state
    play.do(Pass(0))  # the interval (a season: nobody ages, nothing to rebuild)
    play.do(Pass(0))  # Ash, of the Log, sits at player 1's seat already (§开局设置.1)
    assert play.state.flow.phase == "day"
    dormant = play.check(mv.AlertBehemoth(0, "Grumblehorn"))
    assert dormant.code == "stonesaga.lair_dormant" and dormant.rule == RULE
    assert "咕噜角的巢穴没有启用" in dormant.message.zh
    unknown = play.check(mv.AlertBehemoth(0, "Mirewing"))
    assert unknown.code == "stonesaga.no_such_behemoth" and unknown.rule == RULE
    (group,) = [g for g in offers(GAME, play.state) if g.seat == 0]
    (alert,) = [o for o in group.offers if o.move == mv.AlertBehemoth.type]
    (field,) = alert.fields
    labels = {c.value: c.label for c in field.choices}
    verdicts = {o.values[0]: o.verdict for o in alert.options}
    assert set(verdicts) == set(labels) == {"Grumblehorn", "Stonetusk"}
    assert verdicts["Grumblehorn"].code == "stonesaga.lair_dormant"
    assert labels["Grumblehorn"].en == "Grumblehorn (lair not active)"
    assert labels["Stonetusk"].zh == "石牙" and verdicts["Stonetusk"].ok
    assert [o.move for o in group.offers if o.move not in ("pass", "end_turn")] == [alert.move]
    assert announced(play.do(mv.AlertBehemoth(0, "Stonetusk"))) == ["Stonetusk"]


def test_without_an_active_lair_nothing_is_drawn() -> None:
    """§巨兽: only behemoths with an active lair can be alert: with none, no draw is due and the
    behemoth phase is skipped."""
    asleep = [{"name": "Grumblehorn", "demeanor": 4, "lair": False}]
    state, _ = start(GAME, {"players": 1, "challenge": "CR01", "log": log_with(asleep)})
    assert not state.data.alert_due and state.data.alert is None
    play = Play(1)
    assert not play.data.alert_due
    assert play.check(mv.AlertBehemoth(0, "Grumblehorn")).code == "stonesaga.no_alert_due"


def test_the_behemoth_the_table_drew_acts_after_the_night() -> None:
    """§巨兽: 警觉巨兽在巨兽阶段行动（在夜晚阶段之后）: the one the table gave."""
    play = Play(1, behemoths=["Grumblehorn"])
    play.do(mv.AlertBehemoth(0, "Grumblehorn"))
    play.to_night_step(9)
    play.do(Advance())
    assert play.state.flow.phase == "behemoth"


def test_virtual_draws_are_the_engines_seeded_draw_as_before() -> None:
    """draws "virtual": the engine draws the alert behemoth at set-up from its seeded Rng, as it
    always did (the example files replay unchanged), and announces it as the session begins."""
    seen = set()
    for seed in range(12):
        options = {"players": 1, "behemoths": ["Tusk", "Maw"], "draws": "virtual"}
        state, _ = start(GAME, options, seed)
        again, _ = start(GAME, options, seed)
        assert state.data.alert == again.data.alert and not state.data.alert_due
        assert state.data.alert in ("Tusk", "Maw")
        seen.add(state.data.alert)
    assert seen == {"Tusk", "Maw"}  # seeded, not fixed
    play = Play(1, behemoths=["Tusk", "Maw"], draws="virtual", seed=5)
    assert play.check(mv.Pack(0, 0)).ok  # no draw waits
    assert play.check(mv.AlertBehemoth(0, "Tusk")).code == "stonesaga.no_alert_due"


def test_the_virtual_draw_is_announced_when_the_session_begins() -> None:
    """draws "virtual": the engine's draw is announced as the characters take the field."""
    state, _ = start(GAME, {"players": 1, "behemoths": ["Tusk"], "draws": "virtual"}, 0)
    move = mv.CreateCharacter(0, "Ash", "wise", ((6, 6, 5, 4, 1),), 6, 5, 4, 6)
    session = Play.__new__(Play)
    session.state = state
    session.do(move)
    assert announced(session.do(Pass(0))) == ["Tusk"]


def test_a_walk_through_the_offers_never_announces_a_behemoth_the_table_did_not_give() -> None:
    """DESIGN.md "Chance comes from the table": in random walks through the console's offers
    with draws "table", every ``behemoth_alert`` follows the table's ``alert_behemoth`` naming
    that behemoth, and the day's first action comes after it."""
    for seed in range(6):
        rnd = random.Random(seed)
        state, events = start(GAME, {"players": 2, "behemoths": ["Tusk", "Maw", "Fang"]}, seed)
        assert announced(events) == []
        given: list[str] = []
        for _ in range(80):
            if state.outcome is not None:
                break
            move = sample(offers(GAME, state), rnd)
            if move is None:
                break
            assert legal(GAME, state, move).ok and offered(offers(GAME, state), move)
            if move.type == mv.AlertBehemoth.type:
                given.append(move.behemoth)
            elif state.data.alert_due and state.flow.phase == "day":
                raise AssertionError(f"{move.type} offered before the alert behemoth")
            state, events = apply(GAME, state, move)
            assert announced(events) in ([], given[-1:]), (move, announced(events))
        assert len(given) == 1, seed
