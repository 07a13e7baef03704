"""Character creation ends only with a character for every player, and a continued session
opens with the Log's characters seated (issue 38; stonesaga.zh.md §开局设置.1: 每人选一名角色开这局
…每名玩家至少要有 1 名角色; §创造角色).

Before the fix, "done" in creation was answered "accepted" and logged "player 1 is done with
this phase" for a player without a character, then taken back at once (the phase never moved
on, ``passed_players`` stayed empty); a continued session opened with empty player strips.
Also here: the other moves the walks found answered "accepted" while changing nothing
(§精力, §增益, §获得与退化, §交换, §局间保留与存档), each now refused with why.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.core import Pass, Session, State, legal, move_from_dict, offers
from engine.stonesaga import STONESAGA as GAME
from engine.stonesaga import moves as mv
from engine.stonesaga.state import Malady

RULE = "stonesaga.zh.md §开局设置.1"
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def _first_log() -> dict[str, Any]:
    """The Log after docs/examples/stonesaga-campaign-1.jsonl: Elder (old) and Ash (young)
    alive, Elder keeps a river stone spear and a river stone, Ash a bone needle."""
    lines = (EXAMPLES / "stonesaga-campaign-1.jsonl").read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    session = Session(GAME, head["setup"], head["seed"])
    for line in lines[1:]:
        assert session.submit(move_from_dict(json.loads(line))).accepted, line
    log = GAME.campaign_log(session.state)
    assert log is not None
    return log


LOG = _first_log()


def continued(players: int, challenge: str = "CR01") -> Session:
    """The next session from that Log (CR01: a season, nobody ages)."""
    options = {"players": players, "challenge": challenge, "log": LOG, "draws": "virtual"}
    return Session(GAME, options, 0)


def through_the_interval(session: Session) -> None:
    """The valley rebuilt as the Log records it, then every player done with the interval."""
    record = session.state.data.valley_record
    assert session.submit(mv.RebuildValley(0, record)).accepted
    for seat in session.state.seats:
        assert session.submit(Pass(seat)).accepted
    assert session.state.flow.phase == "creation"


def seated(state: State[Any]) -> list[tuple[str, int]]:
    return [(c.name, c.seat) for c in state.data.characters]


def pass_offer(state: State[Any], seat: int) -> Any:
    (group,) = [g for g in offers(GAME, state) if g.seat == seat]
    (offer,) = [o for o in group.offers if o.move == "pass"]
    return offer


def test_a_continued_session_ends_creation_with_the_first_done() -> None:
    """§开局设置.1: the issue's evening, one player continuing the campaign: after the interval
    "done" ends creation and the day begins (it was "accepted" 28 times and nothing moved)."""
    session = continued(1)
    through_the_interval(session)
    result = session.submit(Pass(0))
    assert result.accepted
    assert session.state.flow.phase == "day"
    assert "phase_started" in [e.type for e in result.events]


def test_a_continued_session_opens_with_the_logs_characters_seated_and_drawn() -> None:
    """§开局设置.1, §局间保留与存档: the characters who live on are the seats' characters at
    once, in the order they joined the campaign, with what they kept; the players' strips name
    them from the interval on, in both languages."""
    session = continued(2)
    assert session.state.flow.phase == "interval"
    assert seated(session.state) == [("Elder", 0), ("Ash", 1)]
    elder, ash = session.state.data.characters
    assert elder.items == ("river stone spear",) and dict(elder.pack) == {"river_stone:raw": 1}
    assert ash.items == ("bone needle",)
    for lang, names in (("zh", ["长者", "灰烬"]), ("en", ["Elder", "Ash"])):
        strips = GAME.view(session.state, lang)["players"]
        assert [(p["seat"], p["name"]) for p in strips] == [(0, names[0]), (1, names[1])]
    through_the_interval(session)
    assert session.submit(Pass(0)).accepted and session.state.flow.done == {0}
    assert session.submit(Pass(1)).accepted and session.state.flow.phase == "day"
    assert seated(session.state) == [("Elder", 0), ("Ash", 1)]
    assert all(c.energy == 5 for c in session.state.data.characters)  # §开局设置.4


def test_a_character_who_does_not_live_on_is_not_seated() -> None:
    """§间隔与变老 世代: Elder (old) dies between sessions: only Ash is seated."""
    session = continued(2, "CR02")
    assert seated(session.state) == [("Ash", 0)]


def test_a_player_without_a_character_cannot_end_creation() -> None:
    """§开局设置.1 (每名玩家至少要有 1 名角色): a third player, with both of the Log's living
    characters seated, is refused "done" with what is left, in both languages, and nothing
    changes; after creating a character the player is done."""
    session = continued(3)
    through_the_interval(session)
    assert seated(session.state) == [("Elder", 0), ("Ash", 1)]
    before = session.state
    verdict = legal(GAME, before, Pass(2))
    assert (verdict.ok, verdict.code, verdict.rule) == (False, "stonesaga.create_first", RULE)
    assert verdict.message.zh == "先创造一个角色(掷五颗骰)"
    assert verdict.message.en == "First create a character (roll five dice)"
    assert not session.submit(Pass(2)).accepted and session.state == before
    session.submit(mv.CreationRoll(2, 6, 6, 5, 4, 1))
    create = mv.CreateCharacter(2, "Birch", "wise", ((6, 6, 5, 4, 1),), 6, 6, 5, 4)
    assert session.submit(create).accepted
    assert session.submit(Pass(2)).accepted and session.state.flow.done == {2}


def test_a_first_session_seat_without_a_character_is_refused_done() -> None:
    """§开局设置.1, §创造角色: in a new campaign nobody has a character yet; "done" is refused
    (it was accepted and taken back, and with another player done first it ended nothing)."""
    session = Session(GAME, {"players": 2, "draws": "virtual"}, 0)
    assert session.state.flow.phase == "creation"
    assert legal(GAME, session.state, Pass(0)).code == "stonesaga.create_first"
    assert not session.submit(Pass(1)).accepted
    assert session.state.flow.done == frozenset()


def test_the_log_left_to_choose_from_is_named_in_the_refusal() -> None:
    """§开局设置.1 (每人选一名角色): a player without a character while a living character of
    the Log is not in play is told to choose it or create one: 先从《日志》里选角色,或创造一个
    (a state where the seating has not happened, as in a save of the bug's evening)."""
    session = continued(1)
    through_the_interval(session)
    state = replace(session.state, data=replace(session.state.data, characters=()))
    verdict = legal(GAME, state, Pass(0))
    assert (verdict.code, verdict.rule) == ("stonesaga.character_first", RULE)
    assert verdict.message.zh == "先从《日志》里选角色,或创造一个"
    assert verdict.message.en == "First choose a character from the Log, or create one"
    offer = pass_offer(state, 0)
    (option,) = offer.options
    assert not offer.ok and option.verdict == verdict  # the console greys it with the reason


def test_the_console_greys_done_with_what_is_left() -> None:
    """The offers are a view of legality: the third player's "done" is greyed with the
    engine's verdict, the seated players' is open."""
    session = continued(3)
    through_the_interval(session)
    greyed = pass_offer(session.state, 2)
    assert not greyed.ok
    (option,) = greyed.options
    assert option.verdict.code == "stonesaga.create_first"
    assert option.verdict.message.in_("zh") == "先创造一个角色(掷五颗骰)"
    assert pass_offer(session.state, 0).ok and pass_offer(session.state, 1).ok


def test_choosing_the_seats_own_character_again_is_refused() -> None:
    """§开局设置.1: the Log seated Elder for player 1: choosing Elder again would change
    nothing (refused, not "accepted"); another player cannot take Elder."""
    session = continued(2)
    through_the_interval(session)
    mine = legal(GAME, session.state, mv.ChooseCharacter(0, "Elder"))
    assert (mine.code, mine.message.en) == (
        "stonesaga.already_yours",
        "Elder is already your character",
    )
    theirs = legal(GAME, session.state, mv.ChooseCharacter(1, "Elder"))
    assert theirs.code == "stonesaga.not_your_character"


def test_a_leftover_character_of_the_log_can_be_chosen() -> None:
    """§开局设置.1 (可以同时操控多名): one player, two living characters: Elder is seated,
    Ash may be chosen as a second character."""
    session = continued(1)
    through_the_interval(session)
    assert seated(session.state) == [("Elder", 0)]
    assert session.submit(mv.ChooseCharacter(0, "Ash")).accepted
    assert seated(session.state) == [("Elder", 0), ("Ash", 0)]


# --- moves that would change nothing ---------------------------------------------------------


def day(players: int = 2) -> Session:
    session = continued(players)
    through_the_interval(session)
    for seat in session.state.seats:
        session.submit(Pass(seat))
    assert session.state.flow.phase == "day"
    return session


@pytest.mark.parametrize(
    ("effect", "code", "rule"),
    [
        (mv.Effect(0, 0, "gain_energy", 1), "stonesaga.energy_full", "§精力"),
        (mv.Effect(0, 0, "boost", 1, "strength"), "stonesaga.boost_top", "§增益"),
        (mv.Effect(0, 0, "injury", 1, "light"), "stonesaga.health_full", "§获得与退化"),
        (mv.Effect(0, 0, "lose_energy", 1), "stonesaga.health_full", "§获得与退化"),
    ],
)
def test_an_effect_that_would_change_nothing_is_refused(effect: Any, code: str, rule: str) -> None:
    """§精力 (不能超过上限), §增益 (a major boost goes no higher), §获得与退化 (a full track
    with nothing to flip; energy lost at 0 is an injury there): refused with why."""
    session = day()
    data = session.state.data
    elder = data.characters[0]
    full = tuple(Malady("injury", True) for _ in range(5))
    prepared = replace(elder, boosts=(("strength", 2),), health=full)
    if effect.kind == "lose_energy":
        prepared = replace(prepared, energy=0)
    state = replace(session.state, data=data.with_character(0, prepared))
    verdict = legal(GAME, state, effect)
    assert (verdict.code, verdict.rule) == (code, f"stonesaga.zh.md {rule}")
    assert "长者" in verdict.message.zh and "Elder" in verdict.message.en


def test_an_exchange_of_the_same_things_is_refused() -> None:
    """§交换 (互换任意数量的资源): giving exactly what one receives exchanges nothing."""
    session = day()
    data = session.state.data
    elder, ash = data.characters
    state = replace(
        session.state,
        data=data.with_character(0, replace(elder, pack=(("water", 2),))).with_character(
            1, replace(ash, pack=(("water", 2),))
        ),
    )
    same = mv.Exchange(0, 0, 1, (("water", 2),), (("water", 2),))
    verdict = legal(GAME, state, same)
    assert verdict.code == "stonesaga.exchange_same"
    assert verdict.message.zh == "换出的和换来的完全一样:什么也不会改变"
    assert legal(GAME, state, replace(same, receive=(("water", 1),))).ok
