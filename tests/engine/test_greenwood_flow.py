"""Greenwood's flow of three nights (greenwood.zh.md §三.1, §三.4, §三.13, §三.15, §一.10)."""

from __future__ import annotations

import pytest

from engine.core import Advance, GameConfigError, Pass, Session, find_game
from engine.greenwood.moves import PlaceDuskMarker


def lay_markers(session: Session) -> None:
    """§三.2: every player lays the dusk marker before dusk ends (on another effect each round)."""
    effects = ("recruit", "aurora", "protect", "strengthen")
    for seat in session.state.seats:
        effect = effects[session.state.flow.round - 1]
        assert session.submit(PlaceDuskMarker(seat=seat, effect=effect)).accepted


def finish_seat_phases(session: Session) -> list[str]:
    """Everyone passes through dusk, departure and night (a departure without aurora moves on
    by itself, §三.3); returns the phases begun on the way."""
    seen = [session.state.flow.phase]
    lay_markers(session)
    while session.state.flow.phase in ("dusk", "departure", "night"):
        flow = session.state.flow
        seat = (
            flow.current if flow.current is not None else min(set(session.state.seats) - flow.done)
        )
        result = session.submit(Pass(seat=seat))
        assert result.accepted
        seen += [e.phase for e in result.events if e.type == "phase_started"]
    return [phase for phase in seen if phase != "dawn"]


def test_three_nights_of_four_phases_with_upkeep_only_after_the_first_two() -> None:
    """greenwood.zh.md §三.1: 黄昏 → 启程 → 夜晚 → 黎明; upkeep after rounds 1 and 2 only."""
    session = Session(find_game("greenwood"), {"players": 3, "start_seat": 0, "draws": "virtual"})
    phases = []
    for round_ in (1, 2, 3):
        assert session.state.flow.round == round_
        phases += finish_seat_phases(session)
        assert session.state.flow.phase == "dawn"
        session.submit(Advance())
        if round_ < 3:
            assert session.state.flow.phase == "upkeep"
            # §三.15: five steps, the watchtower's only when preparing round 3 (§三.15.2)
            for _ in range(4 if round_ == 1 else 5):
                assert session.submit(Advance()).accepted
            assert session.state.flow.phase == "dusk"
    assert phases == ["dusk", "departure", "night"] * 3
    assert session.state.flow.phase == "scoring"
    result = session.submit(Advance())
    assert result.events[-1].type == "game_ended" and session.state.outcome is not None


def test_night_is_clockwise_from_the_start_player_and_the_marker_passes_each_round() -> None:
    """§三.4 clockwise from the start player; §三.15 step 5 passes the marker clockwise."""
    session = Session(find_game("greenwood"), {"players": 3, "start_seat": 2, "draws": "virtual"})
    lay_markers(session)
    for seat in (0, 1, 2):
        assert session.submit(Pass(seat=seat)).accepted
    # §三.3: 没有极光的玩家跳过本阶段 — nobody holds aurora, so departure moves on by itself
    assert session.state.flow.phase == "night" and session.state.flow.current == 2
    assert session.submit(Pass(seat=1)).verdict.code == "core.not_your_turn"
    # §三.13: a player who ended the night is skipped; the others go on
    session.submit(Pass(seat=2))
    assert session.state.flow.current == 0
    session.submit(Pass(seat=0))
    session.submit(Pass(seat=1))
    session.submit(Advance())
    for _ in range(4):  # §三.15: four steps after round 1 (§三.15.2)
        assert session.submit(Advance()).accepted
    assert session.state.flow.round == 2 and session.state.flow.start_seat == 0


def test_start_player_is_random_but_seeded_when_not_known() -> None:
    """§一.10: 无法确定时,随机选择起始玩家 — seeded, so a replay gets the same seat (draws
    "virtual"); at a real table the group chose, and player 1 starts (docs/greenwood.md)."""
    game = find_game("greenwood")
    virtual = {"players": 4, "draws": "virtual"}
    seats = {Session(game, virtual, seed=s).state.flow.start_seat for s in range(40)}
    assert seats == {0, 1, 2, 3}
    assert Session(game, virtual, seed=9).state == Session(game, virtual, seed=9).state
    table = {Session(game, {"players": 4}, seed=s).state.flow.start_seat for s in range(10)}
    assert table == {0}


def test_greenwood_is_for_one_to_four_players() -> None:
    with pytest.raises(GameConfigError):
        Session(find_game("greenwood"), {"players": 5})


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 2, "layout": 4}, "layout"),  # §一.1: layouts 0-3
        ({"players": 2, "mode": "expert"}, "mode"),  # §一.1: basic or clan
        ({"players": 2, "start_seat": 2}, "start_seat 2 is not at a 2-player table"),
    ],
)
def test_bad_setup_options_are_refused_with_the_option_named(options, message) -> None:
    """§一.1 (mode, layout 0-3) and §一.10 (a start player at the table)."""
    with pytest.raises(GameConfigError, match=message):
        Session(find_game("greenwood"), options)


def test_the_kiosk_is_told_each_phase_turn_reward_and_refusal() -> None:
    """§三.1-§三.4 announced as events (the kiosk, the round-track LEDs and the buzzer react)."""
    from engine.greenwood.moves import PlaceDuskMarker, Strengthen

    session = Session(find_game("greenwood"), {"players": 2, "start_seat": 1, "draws": "virtual"})
    assert [e.type for e in session.start_events][:3] == [
        "game_started",
        "round_started",
        "phase_started",
    ]
    assert session.submit(PlaceDuskMarker(seat=0, effect="aurora")).accepted
    rewards = session.submit(Strengthen(seat=0)).events
    assert [e.type for e in rewards] == ["greenwood.reward_gained"] * 2  # the step, its space
    refused = session.submit(Strengthen(seat=0)).events
    assert [(e.type, e.code) for e in refused] == [("move_rejected", "greenwood.effect_done")]
    assert session.submit(PlaceDuskMarker(seat=1, effect="aurora")).accepted
    for seat in (0, 1):
        events = session.submit(Pass(seat=seat)).events
    while session.state.flow.phase == "departure":  # one without aurora moved on by itself
        events = session.submit(
            Pass(seat=min(set(session.state.seats) - session.state.flow.done))
        ).events
    assert session.state.flow.phase == "night"
    assert [e.type for e in events][-2:] == ["phase_started", "turn_started"]
    assert events[-1].seat == 1  # the start player acts first


def test_the_view_shows_each_player_in_both_languages() -> None:
    game = find_game("greenwood")
    session = Session(game, {"players": 2, "start_seat": 0, "draws": "virtual"})
    en, zh = game.view(session.state, "en"), game.view(session.state, "zh")
    assert [p["seat"] for p in en["players"]] == [0, 1]
    assert all("name" not in p for p in en["players"])  # the kiosk names seats (players' names)
    assert dict(en["players"][0]["fields"])["points"] == 5  # §一.6: the score starts at 5
    assert dict(zh["players"][0]["fields"])["分数"] == 5
    assert dict(en["players"][0]["fields"])["energy"] == "2/2"
