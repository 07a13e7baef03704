"""Stonesaga's box (docs/box.md, docs/stonesaga.md "The box"): the printed content the rules
judge with is the box the game was set up with, not the demo's data files. A second box, the
owner's, with values unlike the demo's, shows that every ruling reading a printed value follows
it (the mining table, a campaign card, the valley, the outpost scale), and that a ruling resting
on a demo value says so."""

from __future__ import annotations

import importlib.resources
import json
from typing import Any

import pytest
from stonesaga_play import GAME, Play, of

from engine.core import GameConfigError, Pass, find_game, start
from engine.core.box import Box, BoxError, items_of, kind_of, merged
from engine.stonesaga import campaign as camp
from engine.stonesaga import moves as mv
from engine.stonesaga.catalogue import Catalogue, catalogue, load_catalogue
from engine.stonesaga.picture import picture

DEMO = GAME.demo_box()
NOTE_ZH = "按演示盒的"
NOTE_EN = "judged by the demo box's"

OWNER_ITEMS: dict[str, Any] = {
    # §采矿.5: the owner's row of the mining table at the cave (the Secret Book's entries).
    "mining/table/cave": {
        omen: {"zh": f"洞穴{omen}:得到一枚骨料", "en": f"cave {omen}: gain a bone"}
        for omen in ("cloud", "moon", "comet", "star", "sun")
    },
    # §挑战卡与目标卡: the owner's GI01: another omen, one event at activity 1.
    "campaign/challenges/GI01": {
        "title": {"zh": "活过今夜", "en": "Survive the Night"},
        "kind": "campaign_start",
        "interval": "introduction",
        "omen": "moon",
        "events": [{"threshold": 1, "zh": "狼群逼近营地", "en": "Wolves close on the camp"}],
    },
    # §开局设置.5: a crisis card the demo box does not have.
    "campaign/challenges/CR13": {
        "title": {"zh": "洪水", "en": "The Flood"},
        "kind": "crisis",
        "interval": "season",
        "omen": "star",
        "events": [{"threshold": 2, "zh": "河水漫过堤岸", "en": "The river breaks its banks"}],
    },
    # §建前哨: population 8 allows one outpost, not two.
    "campaign/outpost_limits": [[0, 0], [8, 1], [12, 2]],
    # §地图: the owner's start tile shows a cave and shares an edge with 106.
    "valley/tile/101": {
        "id": "101",
        "tray": 1,
        "features": ["cave", "river"],
        "neighbours": ["102", "104", "106"],
    },
    "valley/tile/106": {
        "id": "106",
        "tray": 2,
        "features": ["moraine"],
        "explored": False,
        "neighbours": ["103", "105", "101"],
        "impassable": ["105"],
    },
}
OWNER = Box.of("stonesaga", merged(DEMO.files, OWNER_ITEMS), owner=OWNER_ITEMS)
"""The owner's box: the demo's items with the ones above over them (the owner's)."""


def owners(players: int = 1, **options: Any) -> Play:
    """A session played with the owner's box (one character per seat, on the start tile)."""
    return Play(players, box=OWNER, **options)


def line(event: Any, play: Play, lang: str = "en") -> str:
    """The kiosk's log line for an event, as the game says it with the state."""
    return GAME.event_text(event.to_dict(), lang, play.state) or ""


# --- the box and its catalogue ----------------------------------------------------------------


def test_the_demo_box_is_the_package_data_and_every_kind_has_a_name() -> None:
    """The demo box is the data package's files (an importable package), and ``tablesight
    box stonesaga show`` names every kind of printed item in both languages."""
    folder = importlib.resources.files("engine.stonesaga.data")
    assert all((folder / name).is_file() for name in GAME.box_files)
    assert set(DEMO.files) == set(GAME.box_files)
    kinds = {kind_of(i) for i in items_of(DEMO.files)}
    assert kinds == set(GAME.box_kinds)
    assert all(t.zh and t.en for t in GAME.box_kinds.values())
    assert isinstance(GAME.load_box(DEMO.files), Catalogue)
    assert GAME.catalogue(start(GAME, {"box": OWNER})[0].options) is catalogue(OWNER)


def test_a_state_reads_the_catalogue_of_its_own_box() -> None:
    """The catalogue is the box's, made once per box, knowing which items are the owner's."""
    play = owners()
    cat = catalogue(play.state)
    assert cat is catalogue(play.state.options) is catalogue(OWNER)
    assert cat.tiles["101"].features == ("cave", "river")
    assert catalogue(Play(1).state).tiles["101"].features == ("grassland", "river")
    assert not cat.is_demo("valley/tile/101") and cat.is_demo("valley/tile/102")
    assert catalogue().is_demo("valley/tile/101")


@pytest.mark.parametrize(
    ("item", "value", "problem"),
    [
        (
            "mining/table/cave",
            {o: {"zh": "x", "en": "x"} for o in ("cloud", "moon", "comet", "star")},
            "mining.toml, table cave: needs all five omens; sun missing",
        ),
        ("mining/bags/cave", {"flint": 2}, "mining.toml, bags cave: 'flint' is not a stone"),
        ("mining/max_draws", 0, "mining.toml, max_draws: max_draws must be a whole number"),
        (
            "valley/tile/101",
            {"id": "101", "tray": 1, "features": ["cave"], "neighbours": ["102", "106"]},
            "valley.toml, tile 101: lists 106 as a neighbour, but 106 does not list it",
        ),
        (
            "valley/tile/101",
            {"id": "101", "tray": 1, "features": ["volcano"], "neighbours": ["102", "104"]},
            "valley.toml, tile 101 features: 'volcano' is not one of",
        ),
        ("valley/start", "999", "valley.toml, start: tile 999 is not in the valley"),
        (
            "campaign/challenges/CR01",
            {"title": {"zh": "甲", "en": "A"}, "kind": "boss", "interval": "season",
             "omen": "sun", "events": []},
            "campaign.toml, challenges CR01: kind 'boss' is not one of",
        ),
        (
            "campaign/challenges/CR01",
            {"title": {"zh": "甲", "en": "A"}, "kind": "crisis", "interval": "season",
             "events": []},
            "campaign.toml, challenges CR01: missing field 'omen'",
        ),
        ("campaign/outpost_limits", [[8]], "campaign.toml, outpost_limits: must be rows of"),
        ("resources/heat", "fire", "resources.toml, heat: 'fire' is not one of the tools"),
    ],
)  # fmt: skip
def test_a_box_that_cannot_be_played_is_refused_naming_the_file_and_the_entry(
    item: str, value: Any, problem: str
) -> None:
    """``load_catalogue`` (the game's ``load_box``) checks each entry it reads; a BoxError
    names the file and the entry, as ``tablesight box stonesaga import`` prints it."""
    with pytest.raises(BoxError) as caught:
        load_catalogue(merged(DEMO.files, {item: value}))
    assert str(caught.value).startswith(problem), str(caught.value)


# --- the mining table (§采矿.5) ----------------------------------------------------------------


def test_an_ore_on_the_current_omen_reads_the_boxs_mining_table() -> None:
    """stonesaga.zh.md §采矿.5: 若与当前预兆相符 → 查《秘典》第 183 页的「采矿表」，
    按「预兆 × 地物」的交点结算: the entry announced is the owner's (no demo note); with the
    demo box, the placeholder sends players to the book and says the row is the demo box's."""
    play = owners()  # the owner's GI01: the current omen is the moon
    assert play.data.omens == ("moon",)
    play.do(mv.Mine(0, 0, "cave"))  # the owner's tile 101 has a cave
    (drawn,) = of(play.do(mv.DrawOre(0, "sun_stone", "moon")), mv.OreDrawn)
    assert (drawn.entry_zh, drawn.entry_en) == ("洞穴moon:得到一枚骨料", "cave moon: gain a bone")
    assert drawn.feature == "cave"
    assert line(drawn, play).endswith("the current omen; cave moon: gain a bone")
    assert NOTE_ZH not in line(drawn, play, "zh")

    demo = Play(1)
    demo.edit(0, tile="102")  # the demo's cave
    demo.do(mv.Mine(0, 0, "cave"))
    (placeholder,) = of(demo.do(mv.DrawOre(0, "sun_stone", "sun")), mv.OreDrawn)
    assert placeholder.entry_en.startswith("(placeholder)")
    said = line(placeholder, demo)
    assert "read the mining table, Secret Book p.183" in said
    assert f"({NOTE_EN} mining table's cave row: copy your box" in said
    assert "按演示盒的采矿表洞穴一行判定" in line(placeholder, demo, "zh")


def test_a_draw_that_misses_the_omen_rests_on_no_table_entry() -> None:
    """§采矿.5: 不符 → 无事发生: nothing is read in the table, so no demo note."""
    demo = Play(1)
    demo.edit(0, tile="102")
    demo.do(mv.Mine(0, 0, "cave"))
    (drawn,) = of(demo.do(mv.DrawOre(0, "sun_stone", "moon")), mv.OreDrawn)
    assert not drawn.matched and NOTE_EN not in line(drawn, demo)


# --- a campaign card (§挑战卡与目标卡, §开局设置.5, §夜晚阶段.8) -------------------------------


def test_the_challenge_cards_omen_and_events_are_the_boxs() -> None:
    """§预兆: 弃牌堆为空时用挑战卡上的; §夜晚阶段.8: 结算挑战卡背面所有阈值已达且未结算过的事件:
    the owner's card's omen and its one event at activity 1, without a demo note; the demo's
    card's first event, with one."""
    play = owners()
    events = play.to_night_step(9)
    due = of(events, mv.ChallengeEventDue)
    assert [(e.threshold, e.text_en) for e in due] == [(1, "Wolves close on the camp")]
    assert "Wolves close on the camp" in line(due[0], play) and NOTE_EN not in line(due[0], play)

    demo = Play(1)
    (first,) = of(demo.to_night_step(9), mv.ChallengeEventDue)
    assert first.threshold == 1 and demo.data.omens == ("moon",)  # the night card's omen
    assert "(judged by the demo box's challenge card 'Survive the Night'" in line(first, demo)
    summary = GAME.view(demo.state, "en")["summary"]
    note = "judged by the demo box's challenge card 'Survive the Night': copy your box"
    assert ["Challenge card", f"{note} to make this exact"] in summary
    assert not [r for r in GAME.view(play.state, "en")["summary"] if r[0] == "Challenge card"]


def log_after_gi01(box: Box) -> dict[str, Any]:
    """The Log of a first session (GI01 won) played with ``box``."""
    play = Play(1, box=box)
    play.do(mv.EndChallenge(0, "won"))
    play.do(Pass(0))
    log = GAME.campaign_log(play.state)
    assert log is not None
    return log


def test_which_card_may_come_next_follows_the_boxs_cards() -> None:
    """§开局设置.5: 本纪元第 2–3 局选悬置的「危机」: the owner's crisis CR13 is pending after the
    first session and may be chosen for the second; the demo box has no such card."""
    log = log_after_gi01(OWNER)
    assert "CR13" in log["pending"]
    state, _ = start(GAME, {"challenge": "CR13", "log": log, "box": OWNER})
    assert state.data.challenge == "CR13" and state.data.omens == ("star",)
    assert state.data.interval == "season"
    with pytest.raises(GameConfigError, match="stonesaga has no challenge 'CR13'"):
        GAME.parse_options({"challenge": "CR13", "log": log_after_gi01(DEMO)})


def test_a_card_the_rule_does_not_allow_next_is_refused_and_a_demo_card_says_so() -> None:
    """§开局设置.5: session 2 takes a crisis, not the campaign start; the refusal rests on the
    card's kind, which is invented on a demo card (said) and printed on the owner's (not)."""
    with pytest.raises(GameConfigError) as owner_refused:
        GAME.parse_options({"challenge": "GI01", "log": log_after_gi01(OWNER), "box": OWNER})
    assert "The Flood" in owner_refused.value.text.en
    assert NOTE_EN not in owner_refused.value.text.en
    with pytest.raises(GameConfigError) as demo_refused:
        GAME.parse_options({"challenge": "FI01", "log": log_after_gi01(DEMO)})
    said = demo_refused.value.text
    assert "(judged by the demo box's challenge card 'Finale card 1'" in said.en
    assert "按演示盒的挑战卡「终局卡 1」判定" in said.zh


def test_a_new_campaign_takes_a_campaign_start_card_of_the_box() -> None:
    """§开局设置.5: 第一个纪元的第一局必须选「战役起始」挑战 — by the box's cards' kinds."""
    crisis = {**OWNER_ITEMS["campaign/challenges/CR13"], "kind": "campaign_start"}
    box = Box.of("stonesaga", merged(DEMO.files, {"campaign/challenges/CR13": crisis}), ["x"])
    assert start(GAME, {"challenge": "CR13", "box": box})[0].data.challenge == "CR13"
    with pytest.raises(GameConfigError, match="takes a campaign start challenge"):
        GAME.parse_options({"challenge": "CR13", "box": OWNER})


# --- the valley (§地图, §移动, §特性行动) -----------------------------------------------------


def test_travel_and_features_follow_the_boxs_valley() -> None:
    """§移动: 把模型移到相邻地块 (相邻 = 两个地块共用一条边); §特性行动: 必须在有对应地物的地块
    上才能做: the owner's tile 101 shares an edge with 106 and shows a cave; the demo's does
    neither, and its refusals say they rest on the demo valley."""
    play = owners()
    assert play.check(mv.Mine(0, 0, "cave")).ok
    assert play.check(mv.Travel(0, 0, "106")).ok
    demo = Play(1)
    refused = demo.check(mv.Travel(0, 0, "106"))
    assert refused.code == "stonesaga.not_adjacent"
    assert refused.message.en.endswith(f"({NOTE_EN} tile 101: copy your box to make this exact)")
    no_cave = demo.check(mv.Mine(0, 0, "cave"))
    assert no_cave.code == "stonesaga.no_feature" and NOTE_ZH in no_cave.message.zh
    no_lake_mine = demo.check(mv.Mine(0, 0, "lake"))  # §采矿: never at a lake, on any print
    assert no_lake_mine.code == "stonesaga.no_feature" and NOTE_ZH not in no_lake_mine.message.zh
    assert play.check(mv.Travel(0, 0, "103")).code == "stonesaga.not_adjacent"
    assert NOTE_EN not in play.check(mv.Travel(0, 0, "103")).message.en  # 101 is the owner's


def test_the_console_and_the_picture_show_the_boxs_valley() -> None:
    """The travel offer lists the owner's neighbours; the picture draws the owner's features
    on tile 101 and, the valley being partly the demo's, says so in its notes."""
    play = owners()
    offers = GAME.offers(play.state, 0)
    travel = next(o for o in offers if o.move == mv.Travel.type)
    tos = [c.value for f in travel.fields if f.name == "to" for c in f.choices]
    assert tos == ["102", "104", "106"]
    board = picture(play.state, "en")["boards"][0]
    texts = {c.get("text") for c in board["cells"] if c.get("group") == "101"}
    assert "∩" in texts  # the cave
    assert board["title"].endswith("(demo box)")  # tiles 102–105 are still the demo's
    valley = {f"valley/tile/{t}": v for t, v in _valley_items().items()}
    mine = Box.of("stonesaga", merged(DEMO.files, valley), owner=valley)
    assert not any(
        NOTE_EN in n for n in picture(Play(1, box=mine).state, "en")["boards"][0]["notes"]
    )


def _valley_items() -> dict[str, Any]:
    """Every tile of the demo valley, as an owner who copied them all has them."""
    return {str(t["id"]): t for t in DEMO.files["valley.toml"]["tile"]}


# --- the outpost scale (§建前哨) ----------------------------------------------------------------


def test_the_outposts_the_population_allows_follow_the_boxs_scale() -> None:
    """§建前哨: 同时能存在几个前哨由人口决定: the owner's scale allows one at population 8, so a
    second is refused (without a note); the demo's allows two, and night step 9 says its limit
    rests on the demo scale."""
    play = owners(2)
    play.do(mv.BuildOutpost(0, 0, 0))
    play.edit(1, tile="102")
    refused = play.check(mv.BuildOutpost(1, 1, 0))
    assert refused.code == "stonesaga.outpost_limit" and NOTE_EN not in refused.message.en
    (checked,) = of(play.to_night_step(9), mv.SocietyChecked)
    assert checked.outpost_limit == 1 and NOTE_EN not in line(checked, play)

    demo = Play(2)
    demo.do(mv.BuildOutpost(0, 0, 0))
    demo.edit(1, tile="102")
    assert demo.check(mv.BuildOutpost(1, 1, 0)).ok
    (society,) = of(demo.to_night_step(9), mv.SocietyChecked)
    assert society.outpost_limit == 2
    assert "(judged by the demo box's outpost scale" in line(society, demo)


def test_at_a_new_epoch_the_ruins_due_follow_the_boxs_scale() -> None:
    """§建前哨: 若在新纪元开始时前哨数超过上限，必须自选若干个变成废墟: two outposts at population
    8 — none must fall with the demo scale, one with the owner's."""
    outposts = [{"tile": "101", "buildings": []}, {"tile": "104", "buildings": []}]
    for box, due in ((OWNER, 1), (DEMO, 0)):
        log = {**log_after_gi01(box), "outposts": outposts}
        log["challenges"] = [*log["challenges"], {"id": "FI01", "result": "won"}]
        state, events = start(GAME, {"challenge": "ES01", "log": log, "box": box})
        assert state.data.session == 1 and state.data.epoch == 2
        assert camp.ruins_needed(2, state.data.population, catalogue(state)) == due
        (reviewed,) = of(events, mv.OutpostsReviewed)
        assert (reviewed.limit, reviewed.ruins_due) == (2 - due, due)
        said = GAME.event_text(reviewed.to_dict(), "en", state) or ""
        assert (NOTE_EN in said) == (box is DEMO), said


def test_the_owners_box_is_kept_in_the_save_options() -> None:
    """A save keeps the box it was played with: the options carry it, and a game set up again
    from them (a replay) judges as the first did."""
    play = owners()
    again, _ = start(GAME, json.loads(json.dumps({"box": {
        "game": OWNER.game, "content": OWNER.content, "owner": list(OWNER.owner)}})))  # fmt: skip
    assert catalogue(again).tiles["101"].features == catalogue(play.state).tiles["101"].features
    assert find_game("stonesaga").catalogue(again.options).tiles["101"].features[0] == "cave"


def test_the_set_up_page_can_list_the_boxs_challenge_cards() -> None:
    """§开局设置.5: the cards a group can choose are the box's: the owner's crisis is labelled by
    its printed title and interval; the demo's labels (``option_texts``) do not have it."""
    texts = GAME.option_texts_for(OWNER)
    assert (
        texts["challenge=CR13"].en
        == "The Flood — interval: a season (the characters do not change)"
    )
    assert "challenge=CR13" not in GAME.option_texts
    assert GAME.option_texts_for(None) == GAME.option_texts


def test_the_camera_reads_each_ore_tokens_omen_from_the_box() -> None:
    """§采矿.1: 每种石头都印着五种预兆之一 — which omen copy k of a stone shows is the box's
    ``omens_per_stone``; the bags the pad's tokens can come from are the box's (§采矿.3)."""
    from vision.readers import stonesaga as reader
    from vision.registry import load_registry

    registry = load_registry()
    entry = next(
        e for e in registry.entries.values()
        if e.name == "ore: sun stone" and e.face == "omen" and e.item == 1
    )  # fmt: skip
    reversed_omens = ["sun", "star", "comet", "moon", "cloud"]
    box = Box.of(
        "stonesaga",
        merged(DEMO.files, {"mining/omens_per_stone": reversed_omens}),
        owner=["mining/omens_per_stone"],
    )
    assert reader.ore_of(entry, catalogue()) == ("sun_stone", "cloud")
    assert reader.ore_of(entry, catalogue(box)) == ("sun_stone", "sun")
    bags = {"mining/bags/mountain": {"cloud_stone": 3, "sun_stone": 2, "clay": 1}}
    clay = Box.of("stonesaga", merged(DEMO.files, bags), owner=bags)
    tokens = [("clay", None), ("sun_stone", None)]
    assert "mountain" not in reader.features_for(tokens, catalogue())
    assert "mountain" in reader.features_for(tokens, catalogue(clay))
