"""Don't Starve daily needs, sanity and shadows, weather and the storm marker, revival."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import Pass, find_game, start
from engine.dont_starve.catalogue import catalogue
from engine.dont_starve.moves import Eat, Fight, Gain, Light, Lose, Protect, Roll
from engine.dont_starve.state import change_stats

WILSON = catalogue().characters["wilson"]
"""Wilson's card in the demo box, which these games are played with."""


@pytest.fixture
def staged_needs():
    """Stage the values of the current needs tile (both sides) for one test: the owner's box
    prints them on that tile."""

    def stage(p, light: int, hunger: int, sanity: int) -> None:
        number, _ = p.data.needs[0]
        tile = catalogue(p.state).needs_tile(number)
        values = [light, hunger, sanity]
        entry = {"number": number, "kind": tile.kind, "day": values, "night": values}
        p.use_box({f"needs/tile/{number}": entry})

    return stage


def test_light_is_shared_per_tile_and_each_missing_point_costs_5_health(play, staged_needs) -> None:
    """§每日需求阶段 光照: characters on one tile pool their light; each missing point costs
    every character there 5 health, which nothing can prevent (not even food)."""
    p = play(players=3)
    p.go_to("daily_needs")
    staged_needs(p, 2, 0, 0)
    p.set_char(0, health=8, tile="P")
    p.set_char(1, health=8, tile="P")
    p.set_char(2, health=8, tile="E")
    p.do(Light(seat=1, points=2))  # lights the portal for both characters there
    p.do(Gain(seat=2, kind="cooked_food"))
    p.do(Eat(seat=2, kind="cooked_food", health=3))
    p.do(Light(seat=2, points=1))
    p.finish_phase()
    health = [p.data.char(s).health for s in range(3)]
    assert health[0] == health[1] == 8
    assert health[2] == 8 - 5 + 3  # light first (unavoidable), then the food's health


def test_light_damage_is_five_per_missing_point(play, staged_needs) -> None:
    """§光照: 每缺少1点光照, 角色损失5点生命值."""
    p = play()
    p.go_to("daily_needs")
    staged_needs(p, 2, 0, 0)
    p.set_char(0, health=10)
    p.do(Light(seat=0, points=1))
    p.finish_phase()
    assert p.data.char(0).health == 5


def test_hunger_at_zero_costs_two_health_per_point(play, staged_needs) -> None:
    """§属性 饱食度: 若你的饱食度已为0, 此时每失去1点饱食度, 改为失去2点生命值."""
    p = play()
    p.go_to("daily_needs")
    staged_needs(p, 0, 3, 0)
    p.set_char(0, hunger=1, health=9)
    p.finish_phase()
    c = p.data.char(0)
    assert (c.hunger, c.health) == (0, 9 - 2 * 2)


def test_food_eaten_in_the_needs_phase_offsets_the_loss(play, staged_needs) -> None:
    """§每日需求阶段: food restores hunger or sanity during the phase; §失去与恢复属性: what
    restores a stat can also offset its loss (so food eaten at a full dial is not wasted)."""
    p = play()
    p.go_to("daily_needs")
    staged_needs(p, 0, 2, 1)
    p.set_char(0, hunger=WILSON.max_hunger, sanity=WILSON.max_sanity)
    p.do(Gain(seat=0, kind="raw_food"))
    p.do(Eat(seat=0, kind="raw_food", hunger=2, sanity=1))
    p.finish_phase()
    c = p.data.char(0)
    assert (c.hunger, c.sanity) == (WILSON.max_hunger, WILSON.max_sanity)


def test_sanity_thresholds_reveal_shadows_in_order_and_rising_covers_them(play) -> None:
    """§属性 理智值: below each threshold a shadow creature shows, tier 1 → 2 → 3; rising back
    above a threshold covers that creature."""
    p = play()
    t1, t2, t3 = WILSON.sanity_thresholds
    p.set_char(0, sanity=t1)
    events = p.do(Lose(seat=0, sanity=t1 - t3 + 1))  # straight below the third threshold
    assert [(e.type, e.to_dict()["tier"]) for e in events if "shadow" in e.type] == [
        ("dont_starve.shadow_revealed", 1),
        ("dont_starve.shadow_revealed", 2),
        ("dont_starve.shadow_revealed", 3),
    ]
    p.do(Gain(seat=0, kind="cooked_food"))
    events = p.do(Eat(seat=0, kind="cooked_food", sanity=t2 - (t3 - 1)))
    assert [(e.type, e.to_dict()["tier"]) for e in events if "shadow" in e.type] == [
        ("dont_starve.shadow_covered", 3),
        ("dont_starve.shadow_covered", 2),
    ]
    assert p.data.char(0).shadows(catalogue(p.state)) == 1


def test_the_shadow_phase_announces_the_dice_of_an_attacking_shadow(play) -> None:
    """§暗影阶段: if an effect rolls monster dice, the values of the bottom shadow card apply."""
    p = play()
    cat = catalogue(p.state)
    tier = next(t for t, n in cat.shadow_dice.items() if n)
    p.set_char(0, sanity=WILSON.sanity_thresholds[tier - 1] - 1)
    assert p.data.char(0).shadows(cat) == tier
    events = p.go_to("shadow")
    pools = p.events_of("dice_pool_announced", events)
    assert pools[-1].to_dict()["dice"] == ["monster"] * cat.shadow_dice[tier]


def card_entry(symbols, event=(0, 0, 0), world=()) -> dict:
    """A weather card of the owner's box, as weather.toml writes it."""
    return {
        "id": "autumn-1",
        "season": "autumn",
        "symbols": list(symbols),
        "event": list(event),
        "world": list(world),
    }


def weather_round(play, symbols, removed: int, storm_after: int, **moves):
    """Wilson at the weather phase with a card of the owner's box and a staged storm."""
    p = play()
    p.go_to("weather")
    p.use_box({"weather/card/autumn-1": card_entry(symbols)})
    p.set(weather="autumn-1", needs_removed=removed, storm_after=storm_after)
    p.set_char(0, health=10, hunger=10, sanity=10)
    for symbol, count in moves.items():
        p.do(Protect(seat=0, symbol=symbol, count=count))
    p.finish_phase()
    c = p.data.char(0)
    return 10 - c.health, 10 - c.hunger, 10 - c.sanity


def test_before_the_storm_only_symbols_left_of_the_storm_icon_count(play) -> None:
    """§天气阶段: needs tile left of the storm marker: only the symbols left of the storm icon
    apply; right of it: all apply. Wet costs sanity and hunger, cold health and hunger."""
    symbols = ("wet", "storm", "cold", "cold")
    before = weather_round(play, symbols, removed=0, storm_after=3)
    assert before == (0, 1, 1)  # one wet only
    after = weather_round(play, symbols, removed=3, storm_after=3)
    assert after == (2, 3, 1)  # one wet and two cold


def test_the_multiplier_of_a_symbol_type_is_its_unexempted_count(play) -> None:
    """§天气阶段: per symbol type the multiplier is how many of it are not exempted; items or
    food exempt symbols for the whole phase."""
    symbols = ("cold", "cold", "cold", "storm")
    assert weather_round(play, symbols, 0, 3) == (3, 3, 0)
    assert weather_round(play, symbols, 0, 3, cold=2) == (1, 1, 0)
    assert weather_round(play, symbols, 0, 3, cold=5) == (0, 0, 0)


def test_world_events_spoil_food_regrow_and_refresh_monsters(play) -> None:
    """§天气阶段 世界事件: 全部腐烂 (raw food spoils), 再生长 (mining markers back to the
    start), 怪物刷新 (defeated-monster tokens go)."""
    world = ("spoil_all", "regrow", "monster_refresh")
    p = play()
    p.do(Gain(seat=0, kind="raw_food", count=2))
    p.do(Gain(seat=0, kind="cooked_food", count=1))
    p.go_to("weather")
    p.use_box({"weather/card/autumn-1": card_entry(("storm",), world=world)})
    p.set(weather="autumn-1", defeated_monsters=frozenset({"E"}), mined=(("E", 3), ("F", 1)))
    events = p.finish_phase()
    assert [e.to_dict()["name"] for e in p.events_of("dont_starve.world_event", events)] == [
        "spoil_all",
        "regrow",
        "monster_refresh",
    ]
    assert p.data.mined == ()
    assert (p.data.char(0).raw_food, p.data.char(0).cooked_food) == (0, 1)
    assert p.data.defeated_monsters == frozenset()


def test_a_character_defeated_in_a_fight_is_revived_once_everyone_is_inactive(play) -> None:
    """§角色复活: defeated during the action phase → revived with the meat effigy after all
    characters are inactive: revival values, all focus, on the portal."""
    p = play(players=2)
    card = next(c.id for c in catalogue().locations["forest"] if not c.hostile)
    p.set_char(0, tile="E", health=1, focus=0)
    p.set(locations=(("E", card),), revealed=(*p.data.revealed, ("E", "forest")))
    p.do(Fight(seat=0, monster_cv=4))
    events = p.do(Roll(seat=0, fighter=0, successes=1, hits=1))
    assert p.events_of("dont_starve.character_defeated", events)
    assert p.data.char(0).tile is None and p.state.outcome is None  # one effigy left
    assert p.check(Pass(seat=0)).code == "core.already_passed"
    events = p.do(Pass(seat=1))
    c = p.data.char(0)
    assert (c.health, c.hunger, c.sanity) == WILSON.revive
    assert (c.tile, c.focus, p.data.effigies) == ("P", WILSON.focus, 0)
    assert p.events_of("dont_starve.character_revived", events)


def test_defeat_with_no_meat_effigy_left_loses_at_once(play) -> None:
    """§胜利与失败 / §角色复活: a defeated character with no effigy to revive them loses."""
    p = play(players=2)
    p.set(effigies=0)
    p.do(Lose(seat=1, health=99))
    assert p.state.outcome is not None
    assert (p.state.outcome.result, p.state.outcome.reason) == ("loss", "dont_starve.no_effigy")


def test_defeat_outside_the_action_phase_is_revived_in_the_next_preparation(play) -> None:
    """§角色复活: defeated outside the action phase → revived in the next preparation phase."""
    p = play()
    p.go_to("daily_needs")
    p.set_char(0, health=1)
    p.do(Lose(seat=0, health=1))
    assert p.data.char(0).defeated
    p.go_to("preparation", 2)
    assert p.data.char(0).defeated
    p.finish_phase()
    assert not p.data.char(0).defeated and p.data.char(0).tile == "P"


@settings(max_examples=200, deadline=None)
@given(
    values=st.tuples(st.integers(1, 10), st.integers(0, 10), st.integers(0, 10)),
    delta=st.tuples(st.integers(-12, 12), st.integers(-12, 12), st.integers(-12, 12)),
)
def test_stat_changes_respect_caps_zero_and_the_hunger_rule(values, delta) -> None:
    """§属性: dials never pass their cap or 0; hunger lost below 0 costs 2 health a point;
    health at 0 defeats the character (§角色复活: off the map)."""
    state, _ = start(find_game("dont_starve"), {"players": 1, "draws": "virtual"})
    c = state.data.char(0)
    data = state.data.with_char(0, replace(c, health=values[0], hunger=values[1], sanity=values[2]))
    data, _ = change_stats(catalogue(state), data, 0, *delta)
    after = data.char(0)
    overflow = max(0, -(values[1] + delta[1]))
    health = min(WILSON.max_health, max(0, values[0] + delta[0] - 2 * overflow))
    assert after.health == health
    assert after.hunger == min(WILSON.max_hunger, max(0, values[1] + delta[1]))
    assert after.sanity == min(WILSON.max_sanity, max(0, values[2] + delta[2]))
    assert after.defeated == (health == 0) and (after.tile is None) == (health == 0)


def test_the_kiosk_view_shows_time_dial_storm_and_the_dials(play) -> None:
    """§需求板块 day or night, §行动阶段 the dial, §天气阶段 the storm, §属性 each character's
    dials: what the kiosk draws, in both languages."""
    p = play(players=2)
    view = find_game("dont_starve").view(p.state, "en")
    summary = dict(view["summary"])
    assert summary["Time"] == p.data.needs[0][1] and summary["Action dial"] == 6
    assert summary["Storm"] == f"in {p.data.storm_after} tile(s)"
    assert [pl["name"] for pl in view["players"]] == ["Wilson", "Willow"]
    assert dict(view["players"][0]["fields"])["Health"] == f"{WILSON.health}/{WILSON.max_health}"
    zh = find_game("dont_starve").view(p.state, "zh")
    assert dict(zh["summary"])["时间"] in ("白天", "黑夜")
    json.dumps(view, ensure_ascii=False)
