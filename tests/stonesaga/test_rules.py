"""Stonesaga's pure rules, each test citing the section of stonesaga.zh.md it checks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.stonesaga import Hero
from engine.stonesaga import campaign as camp
from engine.stonesaga.catalogue import MINING_FEATURES, catalogue
from engine.stonesaga.rules import basics
from engine.stonesaga.state import Health, Malady

dice = st.integers(1, 6)
maladies = st.builds(Malady, st.sampled_from(["injury", "illness"]), st.booleans())

CAT = catalogue()
"""The demo box's catalogue (the values these rules are checked with)."""


@pytest.mark.parametrize(("party", "cap"), [(1, 5), (2, 5), (3, 4), (4, 4)])
def test_energy_cap_by_party_size(party: int, cap: int) -> None:
    """stonesaga.zh.md §精力, §开局设置.4: 1–2 characters → 5 energy; 3 or more → 4."""
    assert basics.energy_cap(party) == cap


@pytest.mark.parametrize(("party", "cells"), [(1, 5), (2, 5), (3, 4), (4, 3)])
def test_health_track_length_by_party_size(party: int, cells: int) -> None:
    """§健康轨有多长: 3 cells always, a 4th with ≤ 3, a 5th with 1–2."""
    assert basics.health_length(party) == cells


def test_a_light_malady_on_a_light_one_of_the_same_kind_flips_it_to_heavy() -> None:
    """§获得与退化: 若已有一枚同类轻伤，则把它翻成重伤而不是新增一枚."""
    track = (Malady("injury"),)
    assert basics.gain_malady(track, 5, "injury", heavy=False) == (
        (Malady("injury", True),),
        "upgraded",
    )
    other, what = basics.gain_malady(track, 5, "illness", heavy=False)
    assert (other, what) == ((Malady("injury"), Malady("illness")), "added")


def test_a_heavy_malady_takes_a_new_cell_or_counts_as_light_when_full() -> None:
    """§获得与退化: 获得重伤总是新放一枚；若没空格了，改为按轻伤处理."""
    track = (Malady("injury"), Malady("illness", True), Malady("illness", True))
    assert basics.gain_malady(track[:1], 3, "injury", heavy=True)[0] == (
        Malady("injury"),
        Malady("injury", True),
    )
    assert basics.gain_malady(track, 3, "injury", heavy=True) == (
        (Malady("injury", True), *track[1:]),
        "upgraded",
    )
    heavy_only = (Malady("injury", True),) * 3
    assert basics.gain_malady(heavy_only, 3, "illness", heavy=True) == (heavy_only, "no_room")


@given(st.lists(st.tuples(st.sampled_from(["injury", "illness"]), st.booleans()), max_size=12))
def test_the_health_track_never_holds_more_than_its_cells(gains: list) -> None:
    """§健康轨有多长: maladies sit on the track's cells; full means incapacitated."""
    track: Health = ()
    for kind, heavy in gains:
        track, _ = basics.gain_malady(track, 4, kind, heavy)
        assert len(track) <= 4
    assert basics.incapacitated(track, 4) == (len(track) == 4)


def test_degrading_flips_heavy_to_light_and_discards_light() -> None:
    """§获得与退化 退化: 重伤 → 翻面成轻伤；轻伤 → 直接弃回供应堆."""
    track = (Malady("injury", True), Malady("illness"))
    assert basics.degrade_malady(track, 0) == (Malady("injury"), Malady("illness"))
    assert basics.degrade_malady(track, 1) == (Malady("injury", True),)


def test_minor_boosts_merge_into_a_major_one_and_degrade_after_use() -> None:
    """§增益: 微幅 +1，大幅 +2；微幅上再得微幅 → 大幅；使用后 大幅 → 微幅 → 弃掉."""
    assert basics.gain_boost(0, 1) == 1
    assert basics.gain_boost(1, 1) == 2
    assert basics.gain_boost(2, 1) == 2
    assert basics.gain_boost(0, 2) == 2
    assert [basics.degrade_boost(2), basics.degrade_boost(1), basics.degrade_boost(0)] == [1, 0, 0]


@given(dice, st.integers(-10, 10))
def test_a_changed_die_never_leaves_one_to_six(value: int, change: int) -> None:
    """§随机化: 改点效果…不能改出超过 6 或低于 1 的结果."""
    changed = basics.change_die(value, change)
    assert 1 <= changed <= 6
    if 1 <= value + change <= 6:
        assert changed == value + change


@given(st.lists(st.lists(dice, min_size=5, max_size=5), min_size=1, max_size=4), st.randoms())
def test_character_creation_follows_the_reroll_and_drop_rule(rolls: list, rnd) -> None:
    """§创造角色.1–2: reroll until the five dice sum to ≥ 14, drop the lowest, assign four."""
    last = rolls[-1]
    kept = sorted(last)[1:]
    rnd.shuffle(kept)
    problem = basics.creation_problem(rolls, kept)
    if sum(last) < 14:
        assert problem == "reroll_needed"
    elif any(sum(r) >= 14 for r in rolls[:-1]):
        assert problem == "rerolled_too_soon"
    else:
        assert problem is None
        wrong = [*kept[:3], min(last) - 1 if min(last) > 1 else 7]
        assert basics.creation_problem(rolls, wrong) == "assignment"


def test_character_creation_keeps_the_four_highest() -> None:
    """§创造角色.1: 移除点数最低的那颗."""
    assert basics.creation_problem([[2, 3, 4, 5, 6]], [6, 5, 4, 3]) is None
    assert basics.creation_problem([[2, 3, 4, 5, 6]], [6, 5, 4, 2]) == "assignment"
    assert basics.creation_problem([[1, 2, 3, 4, 3]], [4, 3, 3, 2]) == "reroll_needed"
    assert basics.creation_problem([[7, 2, 3, 4, 3]], [7, 3, 4, 3]) == "dice"


@pytest.mark.parametrize(
    ("feature", "contents"),
    [
        ("cave", {"cloud_stone": 1, "river_stone": 2, "sun_stone": 2}),
        ("fissure", {"clay": 2, "river_stone": 2, "sun_stone": 1}),
        ("dry_flat", {"clay": 3, "sun_stone": 2}),
        ("moraine", {"cloud_stone": 2, "river_stone": 2, "sun_stone": 1}),
        ("mountain", {"cloud_stone": 3, "sun_stone": 2}),
    ],
)
def test_the_mining_bag_holds_what_the_rules_list_for_each_feature(feature, contents) -> None:
    """§采矿.3 装袋: the fixed count of each stone per feature (five tokens in every bag)."""
    assert CAT.bag(feature) == contents
    assert sum(CAT.bag(feature).values()) == 5


def test_every_mining_feature_has_a_full_row_of_the_mining_table_marked_placeholder() -> None:
    """§采矿.5: the table is omen × feature; its entries are invented until copied."""
    for feature in MINING_FEATURES:
        for omen in ("cloud", "moon", "comet", "star", "sun"):
            entry = CAT.entry(feature, omen)
            assert entry.placeholder and entry.en


def test_the_starting_valley_has_mutual_edges_and_a_start_tile() -> None:
    """§地图: 相邻 = 两个地块共用一条边 (listed both ways in valley.toml)."""
    start, tiles = CAT.start, CAT.tiles
    assert start in tiles
    for tile in tiles.values():
        assert all(tile.id in tiles[n].neighbours for n in tile.neighbours)


@pytest.mark.parametrize(
    ("resources", "tools", "problem"),
    [
        (("clay", "grain", "wood"), ("cut", "strike", "grind"), None),
        (("clay", "grain", "wood"), ("heat", "heat", "heat"), None),
        (("clay", "grain"), ("cut", "cut"), "same_tool"),
        (("clay", "grain", "wood", "bone"), ("cut", "strike", "grind", "heat"), "count"),
        (("fish",), ("cut",), "not_processable"),
        (("clay",), ("saw",), "unknown_tool"),
        (("clay", "wood"), ("cut",), "pairing"),
    ],
)
def test_processing_takes_three_resources_with_a_different_tool_each(
    resources, tools, problem
) -> None:
    """§加工: 至多 3 个资源；每加工一个必须换用不同的工具图标（加热可用到 3 次）."""
    assert basics.processing_problem(resources, tools, CAT.resources) == problem


def test_perishables_ferment_then_are_discarded_and_hard_food_keeps() -> None:
    """§资源 食物, §夜晚阶段.5 腐败: 新鲜 → 发酵 → 丢弃；粗硬食物不会腐败."""
    pack = (("fish:fermented", 1), ("fish:fresh", 2), ("grain:raw", 1), ("water", 1))
    spoiled, lost = basics.spoil(pack, CAT.resources)
    assert dict(spoiled) == {"fish:fermented": 2, "grain:raw": 1, "water": 1}
    assert lost == 1


@pytest.mark.parametrize(
    ("roll", "old", "effect"),
    [
        (1, False, "population"),
        (2, False, "unrest"),
        (4, False, "unrest"),
        (5, False, "attribute"),
        (6, False, "attribute"),
        (1, True, "unrest"),
        (3, True, "attribute"),
    ],
)
def test_the_mourning_roll_table(roll: int, old: bool, effect: str) -> None:
    """§角色死亡与传说.1: 1 人口−1; 2–4 动荡+1; 5–6 属性+1; 局间年老而死 +2."""
    assert camp.mourning(roll, old_age=old) == effect


def test_outposts_allowed_by_population_and_trays_by_epoch() -> None:
    """§建前哨: 开局人口 8 → 上限 2 个，人口涨上限涨; §山谷扩张: 纪元 1/2/3 → 4/6/8 个托盘."""
    assert camp.outpost_limit(8, CAT) == 2
    assert camp.outpost_limit(4, CAT) < camp.outpost_limit(8, CAT) < camp.outpost_limit(12, CAT)
    assert [camp.valley_capacity(e, CAT) for e in (1, 2, 3)] == [4, 6, 8]


def test_a_new_epoch_turns_the_outposts_over_the_limit_into_ruins() -> None:
    """§建前哨: 若在新纪元开始时前哨数超过上限，必须自选若干个变成废墟."""
    assert camp.ruins_needed(3, 8, CAT) == 1
    assert camp.ruins_needed(2, 8, CAT) == 0
    assert camp.ruins_needed(2, 4, CAT) == 1


@pytest.mark.parametrize(
    ("age", "interval", "after"),
    [
        ("young", "season", "young"),
        ("old", "introduction", "old"),
        ("young", "generation", "old"),
        ("old", "generation", "dead"),
        ("young", "epoch", "dead"),
    ],
)
def test_intervals_age_the_characters(age: str, interval: str, after: str) -> None:
    """§间隔: 季无影响；世代 年轻→变老、已老→死亡；纪元 所有角色死亡."""
    assert camp.age_after(age, interval) == after


def test_each_character_keeps_five_items_and_five_materials() -> None:
    """§局间保留与存档: 每名角色可保留至多 5 件物品 + 5 枚材料."""
    assert camp.keep_problem(["a"] * 5, ["clay"] * 5, CAT) is None
    assert camp.keep_problem(["a"] * 6, [], CAT) == "items"
    assert camp.keep_problem([], ["clay"] * 6, CAT) == "materials"


@pytest.mark.parametrize(
    ("session", "epoch", "kinds"),
    [
        (1, 1, ("campaign_start",)),
        (1, 2, ("epoch_start",)),
        (3, 1, ("crisis",)),
        (4, 3, ("finale", "crisis")),
        (6, 2, ("finale",)),
    ],
)
def test_which_challenge_each_session_of_an_epoch_takes(session, epoch, kinds) -> None:
    """§开局设置.5: 战役起始 / 纪元起始；第 2–3 局危机；第 4–5 局终局或危机；第 6 局终局."""
    assert camp.challenge_kinds(session, epoch) == kinds


def hero(name: str, age: str, faith: int = 5) -> Hero:
    return Hero(name, "wise", 3, 4, faith, 2, age)


def test_a_generation_ages_the_log_and_mourns_the_old_with_plus_two() -> None:
    """§间隔 世代: 年轻 → 变老；已老 → 死亡; §角色死亡与传说.1: 局间年老而死 +2."""
    roster = [hero("Ash", "young"), hero("Birch", "old"), hero("Cedar", "old"), hero("Elm", "dead")]
    after = camp.after_interval(roster, "generation", [1, 4])
    assert [h.age for h in after.roster] == ["old", "dead", "dead", "dead"]
    assert after.mourned == (("Birch", 1, "unrest"), ("Cedar", 4, "faith+1"))
    assert (after.population, after.unrest) == (0, 1)
    assert after.roster[2].faith == 6 and after.roster[1].faith == 5


def test_an_epoch_ends_everyone_and_mourns_them_between_sessions_with_plus_two() -> None:
    """§间隔 纪元: 所有角色死亡并成为传说; §角色死亡与传说: 也可能在局间老死, 结果 +2 — every
    epoch death is between sessions (the ruling of issue 26): a 1 counts 3, unrest."""
    after = camp.after_interval([hero("Ash", "young"), hero("Birch", "old")], "epoch", [1, 2])
    assert [h.age for h in after.roster] == ["dead", "dead"]
    assert (after.population, after.unrest) == (0, 2)
    with pytest.raises(ValueError, match="mourning roll is needed for Birch"):
        camp.after_interval([hero("Ash", "young"), hero("Birch", "old")], "epoch", [3])


def test_a_season_changes_no_one() -> None:
    """§间隔 季: 对已有角色无影响."""
    roster = [hero("Ash", "young"), hero("Birch", "old")]
    assert camp.after_interval(roster, "season", []).roster == tuple(roster)
