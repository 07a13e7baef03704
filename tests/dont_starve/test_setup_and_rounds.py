"""Don't Starve setup, the six phases of a round, the action dial, needs tiles and losing."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from engine.core import GameConfigError, Pass, find_game
from engine.core.box import BoxError, merged
from engine.dont_starve.catalogue import DIFFICULTIES, SEASONS, catalogue, load_catalogue
from engine.dont_starve.moves import Eat, Gain, Light, Lose, MoveTo, ScenarioEnd, SpendFocus


def test_setup_puts_each_character_on_the_portal_with_its_card_values(play) -> None:
    """dont-starve.zh.md §角色设置: figure on the portal, dials at the card's start values,
    focus tokens as on the card."""
    p = play(players=3, characters=("webber", "wendy", "wilson"))
    cards = catalogue().characters
    for seat, key in enumerate(("webber", "wendy", "wilson")):
        c = p.data.char(seat)
        card = cards[key]
        assert (c.key, c.tile) == (key, "P")
        assert (c.health, c.hunger, c.sanity, c.focus) == (
            card.health,
            card.hunger,
            card.sanity,
            card.focus,
        )


@pytest.mark.parametrize("season", SEASONS)
@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_needs_tiles_and_storm_follow_the_season_setup_card(play, season, difficulty) -> None:
    """§季节与难度: needs tiles by the card's pattern (kind and side), the storm marker in the
    named space; §难度: classic uses normal tiles only."""
    p = play(season=season, difficulty=difficulty)
    cat = catalogue(p.state)
    setup = cat.seasons[season][difficulty]
    laid = [(cat.needs_tile(n).kind, side) for n, side in p.data.needs]
    assert laid == list(setup.pattern)
    assert len({i for i, _ in p.data.needs}) == len(p.data.needs)  # each tile once
    assert p.data.storm_after == setup.storm_after
    if difficulty == "classic":
        assert {kind for kind, _ in laid} == {"normal"}


def test_the_weather_deck_is_the_seasons_cards_with_one_face_up(play) -> None:
    """§季节与难度: shuffle the current season's weather cards, turn the top one up; the other
    seasons' cards are not used."""
    p = play(season="winter")
    winter = {c.id for c in catalogue(p.state).weather if c.season == "winter"}
    assert {p.data.weather, *p.data.weather_deck} == winter
    assert p.data.weather not in p.data.weather_deck


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 2, "characters": ("wilson",)}, "2 players need 2 characters"),
        ({"characters": ("maxwell",)}, "unknown character 'maxwell'"),
        ({"players": 2, "characters": ("wendy", "wendy")}, "a different character"),
        ({"scenario": "nowhere"}, "unknown scenario 'nowhere'"),
        ({"season": "monsoon"}, "season: Input should be 'autumn'"),
        ({"players": 5}, "1 to 4 players"),
    ],
)
def test_bad_setup_options_are_refused_with_a_message(play, options, message) -> None:
    """§游戏设置 / §简介: 1–4 players, each with a character; a scenario and season that exist."""
    with pytest.raises(GameConfigError, match=message):
        play(**options)


def test_characters_may_be_typed_as_in_the_setup_form(play) -> None:
    """The setup form sends text: "Wendy, webber" picks those characters for seats 1 and 2."""
    p = play(players=2, characters="Wendy, webber", structures="tent")
    assert [c.key for c in p.data.characters] == ["wendy", "webber"]
    assert p.data.structures == ("tent",)
    q = play(players=2, characters=None, season=None)
    assert [c.key for c in q.data.characters] == ["wilson", "willow"]


def test_round_one_skips_preparation_and_a_round_runs_the_six_phases_in_order(play) -> None:
    """§回合结构: 准备 → 行动 → 暗影 → 每日需求 → 天气 → 剧本; §角色设置: the first round
    skips the preparation phase. (No shadow shows, so the shadow phase has nothing to do.)"""
    p = play()
    assert (p.state.flow.round, p.state.flow.phase) == (1, "action")
    seen = []
    while p.state.flow.round < 3:
        seen.append((p.state.flow.round, p.state.flow.phase))
        p.finish_phase()
    assert seen == [
        (1, "action"),
        (1, "daily_needs"),
        (1, "weather"),
        (1, "scenario"),
        (2, "preparation"),
        (2, "action"),
        (2, "daily_needs"),
        (2, "weather"),
        (2, "scenario"),
    ]


def test_a_haunted_character_gets_a_shadow_phase(play) -> None:
    """§暗影阶段: resolved for each character with shadow creatures showing."""
    p = play()
    p.set_char(0, sanity=catalogue().characters["wilson"].sanity_thresholds[1] - 1)
    p.finish_phase()
    assert p.state.flow.phase == "shadow"


def test_the_action_dial_turns_when_everyone_is_inactive_and_ends_the_phase_at_zero(play) -> None:
    """§行动阶段: the dial starts at 6; when every character is inactive it drops by 1 and all
    become active again; at 0 the shadow phase begins."""
    p = play(players=2)
    assert p.data.dial == 6
    p.do(Pass(seat=1))
    assert p.check(Pass(seat=1)).code == "core.already_passed"  # inactive until the dial turns
    events = p.do(Pass(seat=0))
    assert p.data.dial == 5 and p.state.flow.done == frozenset()
    assert [e.to_dict()["value"] for e in p.events_of("dont_starve.dial_set", events)] == [5]
    for _ in range(5):
        p.do(Pass(seat=0))
        p.do(Pass(seat=1))
    assert p.state.flow.phase == "daily_needs"  # shadow skipped: nobody is haunted


def test_the_action_phase_sets_the_dial_to_day_or_night_from_the_leftmost_needs_tile(
    play,
) -> None:
    """§需求板块: day or night is the top symbol of the leftmost needs tile; §行动阶段: the dial
    is turned to that side."""
    p = play()
    for round_ in range(1, 5):
        events = p.go_to("action", round_)
        expected = p.data.needs[0][1]
        dial = p.events_of("dont_starve.dial_set", events or p.events)
        assert dial[-1].to_dict() == {"type": "dont_starve.dial_set", "value": 6, "time": expected}
        p.finish_phase()


def test_preparation_removes_the_leftmost_needs_tile_and_the_last_one_loses(play) -> None:
    """§准备阶段 完成准备阶段: remove the leftmost needs tile; removing the last one loses
    (§胜利与失败); so at most 6 rounds are played (§回合结构)."""
    p = play()
    total = len(p.data.needs)
    assert total == 6
    for round_ in range(1, 7):
        p.go_to("action", round_)
        assert len(p.data.needs) == total - (round_ - 1)
        p.go_to("daily_needs", round_)
        p.do(Light(seat=0, points=5))  # a fire keeps Wilson alive through the nights
        p.set_char(0, hunger=10, sanity=10, health=10)
    p.go_to("scenario", 6)
    assert p.state.outcome is None
    p.finish_phase()  # round 7's preparation removes the last tile
    p.finish_phase()
    assert p.state.outcome is not None
    assert (p.state.outcome.result, p.state.outcome.reason) == ("loss", "dont_starve.out_of_time")
    assert p.state.flow.round == 7


def test_focus_is_refreshed_by_the_hunger_threshold_in_preparation(play) -> None:
    """§准备阶段 恢复专注点: the highest threshold at or below hunger gives that many focus,
    never more than the tokens the character has."""
    p = play()
    card = catalogue().characters["wilson"]
    for _ in range(card.focus):
        p.do(SpendFocus(seat=0))
    assert p.data.char(0).focus == 0
    hunger = card.focus_thresholds[1][0]  # exactly on the second threshold
    p.set_char(0, hunger=hunger + 1)  # the daily needs take 1 (placeholder) hunger or more
    p.go_to("weather")
    p.set_char(0, hunger=hunger)
    p.go_to("preparation", 2)
    assert p.data.char(0).focus == card.focus_thresholds[1][1]


def test_no_focus_left_means_no_reroll(play) -> None:
    """§专注点: a reroll flips an active focus token; none active, none to spend."""
    p = play()
    for _ in range(catalogue().characters["wilson"].focus):
        p.do(SpendFocus(seat=0))
    assert p.check(SpendFocus(seat=0)).code == "dont_starve.no_focus"


def test_stats_stop_at_their_caps_and_at_zero(play) -> None:
    """§属性: values cannot exceed the cap (the rest is wasted); sanity at 0 loses nothing more."""
    p = play()
    card = catalogue().characters["wilson"]
    p.do(Gain(seat=0, kind="cooked_food", count=1))
    p.do(Eat(seat=0, kind="cooked_food", health=50, hunger=50, sanity=50))
    c = p.data.char(0)
    assert (c.health, c.hunger, c.sanity) == (card.max_health, card.max_hunger, card.max_sanity)
    p.do(Lose(seat=0, sanity=99))
    p.do(Lose(seat=0, sanity=3))
    assert p.data.char(0).sanity == 0 and p.data.char(0).health == card.max_health


def test_a_scenario_card_wins_with_the_unlock_points_of_the_difficulty(play) -> None:
    """§胜利与失败: won when a scenario card says so; §营地阶段: classic 4, survival 6,
    nightmare 8 unlock points."""
    for difficulty, points in (("classic", 4), ("survival", 6), ("nightmare", 8)):
        p = play(difficulty=difficulty)
        events = p.do(ScenarioEnd(seat=0, result="win"))
        assert p.events_of("dont_starve.scenario_won", events)[0].to_dict()["unlock_points"] == (
            points
        )
        assert p.state.outcome is not None and p.state.outcome.result == "shared_win"
    p = play()
    p.do(ScenarioEnd(seat=0, result="lose"))
    assert p.state.outcome is not None and p.state.outcome.result == "loss"


def test_the_optional_move_then_one_main_action_per_turn(play) -> None:
    """§行动阶段 执行回合: an optional move, then one main action, in that order."""
    p = play(players=2)
    p.do(MoveTo(seat=0, to="E"))
    assert p.state.flow.current == 0  # the turn goes on
    assert p.check(Pass(seat=1)).code == "core.turn_in_progress"
    assert p.check(MoveTo(seat=0, to="D")).code == "dont_starve.move_used"
    p.do(MoveTo(seat=0, to="D", main=True))
    assert 0 in p.state.flow.done and p.state.flow.current is None


def test_every_data_file_marks_its_placeholders() -> None:
    """Printed values the rule text does not give are marked as placeholders in each file."""
    folder = resources.files("engine.dont_starve.data")
    names = sorted(f.name for f in folder.iterdir() if f.name.endswith(".toml"))
    assert len(names) == 9  # dice.toml: the faces of the dice
    for name in names:
        text = folder.joinpath(name).read_text("utf-8")
        data = tomllib.loads(text)
        marked = any(k.startswith("placeholder") for k in data) or all(
            isinstance(v, dict) and v.get("placeholder") for v in data.values()
        )
        assert marked and "PLACEHOLDER" in text, name


def test_a_contradictory_data_file_is_refused_naming_it() -> None:
    """A scenario whose biome counts do not match its places cannot be played: the box that
    holds it does not load, naming the file and the entry."""
    files = find_game("dont_starve").demo_box().files
    scenario = dict(files["scenarios.toml"]["a_new_beginning"])
    scenario["biomes"] = {**scenario["biomes"], "forest": 9}
    broken = merged(files, {"scenarios/a_new_beginning": scenario})
    with pytest.raises(BoxError, match=r"scenarios\.toml, a_new_beginning: .*biome counts"):
        load_catalogue(broken)


def test_the_round_track_shows_day_or_night() -> None:
    """dont-starve.zh.md §需求板块: 标明当前是白天还是黑夜; the storm marker between needs tiles:
    the round track shows both (issue #6)."""
    from engine.core import Session

    game = find_game("dont_starve")
    session = Session(game, {"players": 1, "draws": "virtual"})
    data = session.state.data
    marks = game.track_marks(session.state)
    assert (marks.accent, marks.mark_round) == (data.time, data.storm_after + 1)
    assert data.time in ("day", "night")
    assert data.past_storm is False or data.storm_after == 0  # round 1: before the storm round
