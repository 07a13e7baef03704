"""Stonesaga through the players' console: offers only (engine/stonesaga/offers.py).

A random walk that makes only offered, non-greyed options never meets a refusal and ends the
session; greyed options carry the rule's reason; every dice field has one die per die the tray
lit; every tap of the kiosk's scripted session is offered at its point.
"""

from __future__ import annotations

import itertools
import json
import re
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from offer_walk import EXAMPLES, random_walk, walk_example
from stonesaga_play import GAME, Play

from engine.core import (
    Advance,
    DicePoolAnnounced,
    Offer,
    Pass,
    Session,
    Text,
    match,
    offered,
    offers,
    start,
)
from engine.core.errors import InvalidMoveError
from engine.core.offers import SeatOffers
from engine.core.records import move_from_dict
from engine.stonesaga import moves as mv
from engine.stonesaga.catalogue import ATTRIBUTES
from engine.stonesaga.rules.dispatch import ACTIONS as ACTION_MOVES
from engine.stonesaga.state import Malady

ROOT = Path(__file__).resolve().parents[2]
ACTIONS = {cls.type for cls in ACTION_MOVES}
ELDER = {
    "name": "Elder",
    "trait": "wise",
    "strength": 5,
    "dexterity": 4,
    "faith": 3,
    "perception": 6,
    "age": "old",
}
WALK_BOUND = 3000
"""Moves within which a random walk ends the session: ``end_challenge`` is one offer among
about thirty each day, taken 1/50 as often as another (``engine.core.offers.FINAL_WEIGHT``), so
a walk lasts some hundreds of moves (seen: 110 to beyond 600)."""


def _open(state: Any) -> tuple[SeatOffers, ...]:
    return offers(GAME, state)


def _offer(groups: tuple[SeatOffers, ...], move: str, label: str = "") -> Offer:
    return next(
        o for g in groups for o in g.offers if o.move == move and o.label.en.startswith(label)
    )


def _dice(offer: Offer) -> list[tuple[str, ...]]:
    """Per die of the offer's dice field: its name and what each face adds, in order."""
    (field,) = [f for f in offer.fields if f.kind == "dice"]
    return [
        (d.name, *(f"{a[0][0]}+{a[0][1]}" for a in (x.adds for x in d.faces))) for d in field.dice
    ]


def _pool(events: Any) -> tuple[str, ...]:
    return [e for e in events if isinstance(e, DicePoolAnnounced)][-1].dice


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(1, 4),
    behemoth=st.booleans(),
    roster=st.booleans(),
)
def test_a_random_walk_through_the_offers_is_never_refused_and_ends(
    seed: int, players: int, behemoth: bool, roster: bool
) -> None:
    """Uniform over the open offers, then over their legal options, numbers and die faces: no
    move is refused and the session reaches its end (the save) within WALK_BOUND moves. No
    narrowing was needed: ``end_challenge`` is always among the day's offers."""
    setup = {
        "players": players,
        "behemoths": ["Grumblehorn"] if behemoth else [],
        "roster": [ELDER] if roster else [],
    }
    walk = random_walk(GAME, setup, seed, WALK_BOUND)
    assert walk.refused == []
    assert walk.ended, f"not over after {WALK_BOUND} moves"
    assert "stonesaga.end_challenge" in walk.types
    if not roster or players > 1:  # one player with a Log's character is seated at once
        assert walk.types & {"stonesaga.create_character", "stonesaga.choose_character"}


def test_a_stone_no_longer_in_the_bag_is_greyed_with_the_reason() -> None:
    """stonesaga.zh.md §采矿.3 装袋: the cave's bag holds one cloud stone; once it is drawn, every
    cloud-stone token is greyed with ``not_in_bag`` citing §采矿.3, river stones stay open, and
    after three draws (§采矿: 最多采 3 枚) every token is greyed with ``draw_limit``."""
    play = Play(1)
    play.edit(0, tile="102")
    play.do(mv.Mine(0, 0, "cave"))
    play.do(mv.DrawOre(0, "cloud_stone", "moon"))
    draw = _offer(_open(play.state), "stonesaga.draw_ore")
    assert draw.camera
    verdicts = {o.values: o.verdict for o in draw.options}
    assert set(verdicts) == {(s, o) for s in ("cloud_stone", "river_stone", "sun_stone")
                             for o in ("cloud", "moon", "comet", "star", "sun")}  # fmt: skip
    grey = verdicts[("cloud_stone", "star")]
    assert (grey.ok, grey.code, grey.rule) == (
        False,
        "stonesaga.not_in_bag",
        "stonesaga.zh.md §采矿.3",
    )
    assert "云石" in grey.message.zh and "cloud stone" in grey.message.en
    assert verdicts[("cloud_stone", "moon")].code == "stonesaga.token_drawn"
    assert verdicts[("river_stone", "star")].ok
    play.do(mv.DrawOre(0, "river_stone", "star"))
    play.do(mv.DrawOre(0, "sun_stone", "sun"))
    draw = _offer(_open(play.state), "stonesaga.draw_ore")
    assert {o.verdict.code for o in draw.options} == {"stonesaga.draw_limit"}
    assert not draw.ok and _offer(_open(play.state), "stonesaga.finish_mining").ok


def test_an_impassable_edge_and_a_missing_feature_are_greyed_with_their_rule() -> None:
    """§覆盖层 不可通行: from 105 the edge to 106 cannot be crossed (the unexplored 106 shows
    neither number nor features, §地图); §特性行动: collecting water needs a lake, river or
    wetland on the tile, offered greyed where there is none."""
    play = Play(1)
    play.edit(0, tile="105")
    groups = _open(play.state)
    travel = _offer(groups, "stonesaga.travel")
    verdicts = {o.values: o.verdict for o in travel.options}
    assert verdicts[("106", True)].code == "stonesaga.impassable"
    assert verdicts[("104", True)].ok and verdicts[("102", False)].ok
    labels = {c.value: c.label for c in travel.fields[0].choices}
    assert labels["106"] == Text("未探索的地块(托盘2第3格)", "unexplored tile (tray 2, slot 3)")
    assert labels["104"] == Text("地块104(湖泊、湿地)", "tile 104 (lake, wetland)")
    water = _offer(groups, "stonesaga.collect_water")
    assert not water.ok and water.refusal is not None
    assert water.refusal.code == "stonesaga.no_feature"


def test_after_the_turns_action_every_action_is_greyed_with_one_option() -> None:
    """§白天阶段: 每人每次一个行动. After make_fire and its test the turn is still open: every
    action offer is greyed with ``one_action`` and narrowed to one option, while handing over
    food or water (not an action) and ending the turn stay open."""
    play = Play(2)
    play.edit(0, pack=(("water", 1), ("wood:raw", 1)))
    play.do(mv.MakeFire(0, 0, "dexterity"))
    play.do(mv.Roll(0, 3))
    groups = _open(play.state)
    (mine,) = [g for g in groups if g.seat == 0]
    actions = [o for o in mine.offers if o.move in ACTIONS]
    assert len(actions) > 10 and all(len(o.options) == 1 for o in actions)
    assert {o.refusal.code for o in actions if o.refusal is not None} == {"stonesaga.one_action"}
    assert all(not o.ok for o in actions)
    assert _offer(groups, "stonesaga.give").ok and _offer(groups, "end_turn").ok


def test_a_calm_night_at_full_energy_needs_a_boost() -> None:
    """§夜晚阶段.7 静夜: 若精力已满，改为自选一个属性获得微幅增益: the calm-night option
    without an attribute is greyed (``boost_needed``) at full energy, open below it."""
    play = Play(1)
    play.to_night_step(7)
    calm = _offer(_open(play.state), "stonesaga.night_card", "Night card: a calm")
    verdicts = {o.values: o.verdict for o in calm.options}
    assert verdicts[(0, "moon", "")].code == "stonesaga.boost_needed"
    assert verdicts[(0, "moon", "faith")].ok
    play.edit(0, energy=1)
    calm = _offer(_open(play.state), "stonesaga.night_card", "Night card: a calm")
    assert {o.values: o.verdict for o in calm.options}[(0, "moon", "")].ok


def test_the_creation_dice_are_the_five_the_tray_lit() -> None:
    """stonesaga.zh.md §创造角色.1: five dice, rerolled until they sum to 14 or more. The roll
    offer has one d6 per die lit, faces 1–6 each adding to its own die; a create offer is greyed
    (``reroll_needed``) after a roll under 14, and rolling again after 14+ is greyed."""
    session = Session(GAME, {"players": 1})
    assert _pool(start(GAME, {"players": 1})[1]) == ("d6",) * 5
    roll = _offer(_open(session.state), "stonesaga.creation_roll")
    assert _dice(roll) == [("d6", *(f"d{k}+{n}" for n in range(1, 7))) for k in range(1, 6)]
    assert [f.symbol for f in roll.fields[0].dice[0].faces] == list("⚀⚁⚂⚃⚄⚅")
    assert offered(_open(session.state), mv.CreationRoll(0, 1, 2, 3, 2, 1)) is not None
    session.submit(mv.CreationRoll(0, 1, 2, 3, 2, 1))
    (create,) = [
        o for g in _open(session.state) for o in g.offers if o.move.endswith("create_character")
    ]
    assert not create.ok and create.refusal.code == "stonesaga.reroll_needed"
    session.submit(mv.CreationRoll(0, 6, 5, 4, 3, 1))
    groups = _open(session.state)
    (create,) = [o for g in groups for o in g.offers if o.move.endswith("create_character")]
    assert create.ok  # one offer: the dice are placed on it, not one offer per ordering
    (dice,) = [f for f in create.fields if f.kind == "assign"]
    assert dice.pool == (6, 5, 4, 3)  # §创造角色.1: 移除点数最低的那颗
    assert [c.value for c in dice.choices] == ["strength", "dexterity", "faith", "perception"]
    assert [c.label.zh for c in dice.choices] == ["力量", "灵巧", "信念", "觉察"]
    rolls = ((1, 2, 3, 2, 1), (6, 5, 4, 3, 1))
    for order in itertools.permutations(range(4)):  # §创造角色.2: 一颗对一个, any way round
        built = create.build(("Ash", "wise"), places={"attributes": order})
        assert offered(groups, built) is not None
        assert [getattr(built, a) for a in ATTRIBUTES] == [dice.pool[i] for i in order]
    with pytest.raises(InvalidMoveError):  # one die on two attributes
        create.build(("Ash", "wise"), places={"attributes": (0, 0, 1, 2)})
    assert offered(groups, mv.CreateCharacter(0, "Ash", "wise", rolls, 3, 4, 5, 5)) is None
    names = [c.value for c in create.fields[1].choices]
    assert len(names) == 12 and names[:2] == ["Ash", "Birch"]  # §创造角色.4: a list, not two
    traits = [c.label.en for c in create.fields[2].choices]  # §创造角色.6, as buttons print them
    assert traits == ["Cunning", "Fearless", "Unyielding", "Clever", "Wise"]
    again = _offer(groups, "stonesaga.creation_roll")
    assert not again.ok and again.refusal.code == "stonesaga.rerolled_too_soon"
    move = mv.CreateCharacter(0, "Ash", "wise", ((1, 2, 3, 2, 1), (6, 5, 4, 3, 1)), 3, 4, 5, 6)
    assert offered(groups, move) is not None
    assert (
        offered(groups, mv.CreateCharacter(0, "Ash", "wise", ((6, 5, 4, 3, 1),), 3, 4, 5, 6))
        is None
    )


def test_a_character_that_would_leave_a_player_without_one_is_greyed() -> None:
    """§开局设置.1: 每名玩家至少要有 1 名角色，但可以同时操控多名; §开局设置.2: four mantles, so
    four characters at most: with two players, the fourth character of player 1 is greyed."""
    session = Session(GAME, {"players": 2})
    for name in ("Ash", "Birch", "Flint"):
        session.submit(mv.CreationRoll(0, 6, 5, 4, 3, 1))
        session.submit(mv.CreateCharacter(0, name, "wise", ((6, 5, 4, 3, 1),), 6, 5, 4, 3))
    session.submit(mv.CreationRoll(0, 6, 5, 4, 3, 1))
    session.submit(mv.CreationRoll(1, 6, 5, 4, 3, 1))
    creates = [o for g in _open(session.state) for o in g.offers if o.move.endswith("_character")]
    mine = [o for o in creates if o.seat == 0]
    assert mine and all(o.refusal is not None for o in mine)
    assert {o.refusal.code for o in mine if o.refusal is not None} == {"stonesaga.party_full"}
    assert all(o.ok for o in creates if o.seat == 1) and any(o.seat == 1 for o in creates)


def test_a_test_and_its_heroic_effort_light_one_die_each_entered_through_roll() -> None:
    """§判定.1, §奋力一搏: a test lights one die; a 6 lights one more. Each time the roll offer
    has exactly the die lit, faces 1–6 adding to ``value``."""
    play = Play(1)
    events = play.do(mv.CallTest(0, 0, "faith"))
    assert _pool(events) == ("d6",)
    roll = _offer(_open(play.state), "stonesaga.roll")
    assert _dice(roll) == [("d6", *(f"value+{n}" for n in range(1, 7)))]
    assert offered(_open(play.state), mv.Roll(0, 7)) is None  # no face of a d6 shows 7
    events = play.do(mv.Roll(0, 6))
    assert _pool(events) == ("d6",)
    assert len(_dice(_offer(_open(play.state), "stonesaga.roll"))) == 1
    assert offered(_open(play.state), mv.Roll(0, 2, change=1)) is not None


def test_fishing_lights_four_dice_entered_through_the_fishing_roll() -> None:
    """stonesaga.zh.md §钓鱼.3: 掷四颗骰. After ``fish`` the tray lights four d6 for the player;
    the fishing-roll offer has those four dice (faces 1–6 on d1–d4) and only for that player."""
    play = Play(2)
    events = play.do(mv.Fish(0, 0, "river"))
    assert _pool(events) == ("d6",) * 4
    groups = _open(play.state)
    roll = _offer(groups, "stonesaga.fishing_roll")
    assert roll.seat == 0 and roll.ok
    assert _dice(roll) == [("d6", *(f"d{k}+{n}" for n in range(1, 7))) for k in range(1, 5)]
    assert [o.seat for g in groups for o in g.offers if o.move.endswith("fishing_roll")] == [0]
    events = play.do(mv.FishingRoll(0, 5, 2, 6, 3))
    assert _pool(events) == () and offered(_open(play.state), mv.FishingRoll(0, 1, 1, 1, 1)) is None


def test_the_mourning_die_is_entered_by_the_player_and_full_attributes_are_greyed() -> None:
    """stonesaga.zh.md §夜晚阶段.1 and §角色死亡与传说.1: a character who dies is mourned with a
    d6 the players roll: the tray lights one die for its player, the mourn offer has that die,
    an attribute already at 6 is greyed (``attribute_max``), and the player cannot pass first."""
    play = Play(1, [0, 0])
    play.edit(1, health=(Malady("injury", True),) * 5, attributes=(
        ("strength", 6), ("dexterity", 2), ("faith", 3), ("perception", 4)))  # fmt: skip
    events = play.to_night_step(1)
    assert [e for e in events if isinstance(e, DicePoolAnnounced)][-1] == DicePoolAnnounced(
        0, ("d6",), "mourning"
    )
    play.do(Advance())
    groups = _open(play.state)
    mourn = _offer(groups, "stonesaga.mourn")
    assert mourn.fixed == {"legend": 1}
    assert _dice(mourn) == [("d6", *(f"roll+{n}" for n in range(1, 7)))]
    verdicts = {o.values: o.verdict for o in mourn.options}
    assert verdicts[("strength",)].code == "stonesaga.attribute_max"
    assert verdicts[("faith",)].ok
    assert match(groups, Pass(0))[1].verdict.code == "stonesaga.mourning_due"
    assert offered(groups, mv.Mourn(0, 1, 6, "faith")) is not None
    assert offered(groups, mv.Mourn(0, 1, 6, "strength")) is None


BAD_LABEL = re.compile(r"True|False|None|placeholder|占位|stonesaga\.|\[|\{|^\s*$")


def _labels(offer: Offer) -> list[Any]:
    texts = [offer.label]
    for f in offer.fields:
        texts += [f.label, *(c.label for c in f.choices)]
        texts += [x for d in f.dice for x in (d.label, *(face.label for face in d.faces))]
    return texts


def test_every_label_is_chinese_and_english_never_a_raw_value() -> None:
    """Labels are Text in both languages, printed names; never a raw id, list or boolean."""
    seen: set[str] = set()
    for path in sorted(EXAMPLES.glob("stonesaga*.jsonl")):
        for step in walk_example(path):
            for offer in (o for g in step.open for o in g.offers if o.move.startswith("stone")):
                assert re.search("[\u4e00-\u9fff]", offer.label.zh), offer.label
                for text in _labels(offer):
                    for s in (text.zh, text.en):
                        if s not in seen:
                            seen.add(s)
                            assert not BAD_LABEL.search(s), (offer.move, s)
    assert "地块102(森林、洞穴)" in seen and "tile 102 (forest, cave)" in seen


def test_every_tap_of_the_kiosk_session_is_offered_at_its_point() -> None:
    """The scripted kiosk session is the example game as the console makes it: its taps and
    presses are the example's accepted lines in order (a greyed option cannot be tapped: the
    refused lines are left out), the rest being the draws the camera reads off the draw pad.
    Each tap is offered at its point; each refused line is greyed there with its reason; the
    camera's draws are camera offers."""
    script = tomllib.loads((ROOT / "kiosk/simulation/stonesaga.toml").read_text("utf-8"))
    head = script["session"]
    taps = [
        move_from_dict(s["tap"]) if "tap" in s else Advance()
        for s in head["steps"]
        if "tap" in s or s.get("press") == "advance"
    ]
    lines = (EXAMPLES / "stonesaga.jsonl").read_text("utf-8").splitlines()[1:]
    session = Session(GAME, {**head["setup"], "draws": "virtual"}, head["seed"])  # as it runs
    made, refused = 0, []
    for line in lines:
        move = move_from_dict(json.loads(line))
        camera = move.type in ("stonesaga.draw_ore", "stonesaga.finish_mining")
        groups = _open(session.state)
        result = session.submit(move)
        found = offered(groups, move)
        if result.accepted:
            assert found is not None and (found.camera or not camera), line
            if not camera:
                assert taps[made] == move, line
                made += 1
            continue
        assert found is None, line
        shown = {
            option.verdict.code
            for g in groups
            for o in g.offers
            if (o.move, o.seat) == (move.type, move.seat)
            for option in o.options
        }
        assert result.verdict.code in shown, line
        refused.append(result.verdict.code)
    assert made == len(taps) and session.state.outcome is not None
    assert len(refused) == 6  # as test_example lists them, none of them tapped


def test_offers_for_a_day_state_stay_small_and_fast() -> None:
    """The console asks for the offers after every move: in a two-player day state (the example's
    second morning, one of them holding three stones and water) at most 400 options are checked
    (each costs a ``legal()``), which takes about 6 ms; the bound here is 40 ms so that a busy
    machine does not fail it, the option count being the deterministic guard."""
    lines = (EXAMPLES / "stonesaga.jsonl").read_text("utf-8").splitlines()
    head = json.loads(lines[0])
    session = Session(GAME, {**head["setup"], "draws": "virtual"}, head["seed"])  # as it runs
    for line in lines[1:]:
        move = move_from_dict(json.loads(line))
        if move.type == "stonesaga.travel" and move.seat == 1 and move.to == "101":
            break
        session.submit(move)
    assert session.state.flow.phase == "day" and session.state.flow.current is None
    groups = _open(session.state)
    assert len(groups) == 2
    assert sum(len(o.options) for g in groups for o in g.offers) <= 400
    assert max(len(o.options) for g in groups for o in g.offers) <= 130
    best = min(_timed(session.state) for _ in range(5))
    assert best < 0.040, f"{best * 1000:.1f} ms"


def _timed(state: Any) -> float:
    start = time.perf_counter()
    offers(GAME, state)
    return time.perf_counter() - start


def test_the_challenge_end_is_set_apart_and_card_effects_are_grouped() -> None:
    """§挑战卡与目标卡 / §白天阶段: the end of the challenge ends the day and the session, so it is
    a ``final`` offer per result (won, lost), each saying what its second touch does; what a
    card or the Secret Book did (lose / gain energy, a malady, a boost) is ``card_effect``,
    behind the console's one entry; the actions stay ``main``."""
    play = Play(2)
    groups = _open(play.state)
    (mine,) = [g for g in groups if g.seat == 0]
    ends = [o for o in mine.offers if o.move == "stonesaga.end_challenge"]
    assert [(o.fixed, o.group, o.fields) for o in ends] == [
        ({"result": "won"}, "final", ()),
        ({"result": "lost"}, "final", ()),
    ]
    assert ends[0].confirm is not None and "再按一次" in ends[0].confirm.zh
    effects = {o.group for o in mine.offers if o.move == "stonesaga.effect"}
    assert effects == {"card_effect"}
    actions = {o.group for o in mine.offers if o.move in ACTIONS}
    assert actions <= {"main", "camera"} and "main" in actions
