"""Don't Starve's offers for the players' console (engine/dont_starve/offers.py).

Random walks through the offers only (no refusal, the game ends), the reasons greyed options
carry, the dice of the roll offers against the pool the tray lit, the labels, and the taps of
the kiosk's scripted session.
"""

from __future__ import annotations

import json
import random
import re
import tomllib
from dataclasses import replace
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from offer_walk import example_files, random_walk, walk_example

from engine.core import (
    Advance,
    DicePoolAnnounced,
    Offer,
    Session,
    find_game,
    match,
    move_from_dict,
    offered,
    offers,
)
from engine.core.offers import SeatOffers, sample
from engine.dont_starve.board import adjacency
from engine.dont_starve.catalogue import catalogue
from engine.dont_starve.common import places
from engine.dont_starve.game import CHARACTERS
from engine.dont_starve.moves import (
    Act,
    Explore,
    Fight,
    Gain,
    Interact,
    Lose,
    MoveTo,
    Roll,
    SpendFocus,
    Trade,
    Transfer,
)
from engine.dont_starve.offers import dice

GAME = find_game("dont_starve")
HOSTILE = next(card.id for card in catalogue().locations["forest"] if card.hostile)
QUIET = next(card.id for card in catalogue().locations["forest"] if not card.hostile)
ROOT = Path(__file__).resolve().parents[2]
MAX_MOVES = 2500
"""A game played through the offers ends (won, out of time, or no effigy) within this many
moves: at most 6 rounds of a 6-step dial for 4 characters, and the upkeep phases."""

SKIPPED = ("dont_starve.scenario_end", "dont_starve.lose")
setups = st.fixed_dictionaries(
    {
        "players": st.integers(1, 4),
        "order": st.permutations(CHARACTERS),
        "scenario": st.sampled_from(sorted(catalogue().scenarios)),
        "difficulty": st.sampled_from(["classic", "survival", "nightmare"]),
        "structures": st.sampled_from([None, ["science machine"]]),
        "draws": st.sampled_from(["virtual", "table"]),
        "seed": st.integers(0, 2**16),
    }
)


def _setup(drawn: dict) -> dict:
    out = {k: drawn[k] for k in ("players", "scenario", "difficulty", "structures", "draws")}
    return {**out, "characters": list(drawn["order"][: drawn["players"]])}


def _open(state) -> tuple[SeatOffers, ...]:
    return offers(GAME, state)


def _offer(state, move_type: str, seat: int | None = None, **fixed) -> list[Offer]:
    return [
        o
        for group in _open(state)
        for o in group.offers
        if o.move == move_type
        and (seat is None or o.seat == seat)
        and all(o.fixed.get(k) == v for k, v in fixed.items())
    ]


@settings(max_examples=6, deadline=None)
@given(setups)
def test_a_random_walk_through_the_offers_is_never_refused_and_ends(drawn: dict) -> None:
    """Uniform over the offers, then over the legal options (scenario cards may end it)."""
    walk = random_walk(GAME, _setup(drawn), drawn["seed"], MAX_MOVES)
    assert walk.refused == []
    assert walk.ended, f"not over after {walk.moves} moves"


@settings(max_examples=3, deadline=None)
@given(setups)
def test_without_the_scenario_card_the_game_still_ends_by_time_or_a_fall(drawn: dict) -> None:
    """胜利与失败: never taking the scenario card's offer nor a card's losses (which end most
    walks early with a fall), the game goes through every phase and ends when the last needs
    tile goes (6 rounds at most) or a fallen character finds no meat effigy; nothing is
    refused. Otherwise uniform: the free actions stop because pass, end turn and the main
    actions are among the offers drawn (a 4-player game takes about 900 moves)."""
    session = Session(GAME, _setup(drawn), drawn["seed"])
    rnd = random.Random(drawn["seed"])
    for _ in range(MAX_MOVES):
        if session.state.outcome is not None:
            break
        groups = tuple(
            SeatOffers(g.seat, g.acting, tuple(o for o in g.offers if o.move not in SKIPPED))
            for g in _open(session.state)
        )
        move = sample(groups, rnd)
        assert move is not None
        result = session.submit(move)
        assert result.accepted, (move, result.verdict.code)
    assert session.state.outcome is not None
    assert session.state.outcome.reason in ("dont_starve.out_of_time", "dont_starve.no_effigy")


def test_a_tile_that_is_not_adjacent_is_greyed_with_the_reason(play) -> None:
    """dont-starve.zh.md §移动 相邻: only a tile sharing half an edge is offered as legal; the
    others show greyed, saying they are not adjacent."""
    p = play(players=1)
    moves = _offer(p.state, MoveTo.type, 0)
    far = match(_open(p.state), MoveTo(0, "G"))
    assert far is not None and far[1].verdict.code == "dont_starve.not_adjacent"
    assert offered(_open(p.state), MoveTo(0, "E")) is not None  # adjacent, face down
    turned = next(o for o in moves if any(f.name == "biome" for f in o.fields))
    near = adjacency(places(catalogue(p.state), p.data))["P"]
    assert "G" not in near and sorted(c.value for c in turned.fields[0].choices) == near
    assert all(o.camera for o in moves)


def test_exploring_on_the_portal_is_greyed(play) -> None:
    """dont-starve.zh.md §探索: not on the portal tile."""
    p = play(players=1)
    explores = _offer(p.state, Explore.type, 0)
    assert len(explores) == 2  # the top card, and the bottom one
    assert all(e.refusal.code == "dont_starve.explore_portal" for e in explores)


def test_a_helper_too_far_away_is_offered_greyed_only_alone(play) -> None:
    """dont-starve.zh.md §加入战斗: characters on the same or an adjacent tile may join; one
    further away is offered alone, greyed with the reason, and in no group."""
    p = play(players=3)
    p.do(MoveTo(0, "E", biome="forest"))
    p.do(Explore(0))  # Wilson's turn ends on E; Willow and Wendy are on the portal
    p.set_char(1, tile="E")
    p.set_char(2, tile="G")  # not adjacent to E
    p.set(revealed=(*p.data.revealed, ("G", "marsh")))
    alone, joined = [o for o in _offer(p.state, Fight.type, 1) if "target" not in o.fixed]
    assert alone.ok and not any(f.name == "helpers" for f in alone.fields)
    helpers = next(f for f in joined.fields if f.name == "helpers")
    assert [c.value for c in helpers.choices] == [[0], [2]]
    verdicts = {tuple(o.values[0]): o.verdict.code for o in joined.options}
    assert verdicts[(2,)] == verdicts[(0,)] == "dont_starve.cannot_join"  # Wilson has acted


def test_trading_with_a_character_elsewhere_is_greyed(play) -> None:
    """dont-starve.zh.md §交易: only characters on the same tile trade; on one tile, any count
    of what one holds is offered, no more."""
    p = play(players=2)
    p.do(MoveTo(0, "E", biome="forest"))  # Wilson's optional move: his turn goes on
    (trade,) = _offer(p.state, Trade.type, 0)
    assert not trade.ok and trade.refusal.code == "dont_starve.trade_apart"
    p.set_char(1, tile="E", raw_food=2)
    receive = Trade(0, (Transfer(1, 0, "raw_food", 2),))
    assert offered(_open(p.state), receive) is not None
    assert offered(_open(p.state), Trade(0, (Transfer(1, 0, "raw_food", 3),))) is None


def test_gaining_is_bounded_by_the_room_left(play) -> None:
    """dont-starve.zh.md §上限 物品栏上限: 10 resources in a backpack; a full one is greyed."""
    p = play(players=1)
    p.set_char(0, basic=7)
    (res, _items) = _offer(p.state, Gain.type, 0)
    count = next(f for f in res.fields if f.name == "count")
    assert (count.low, count.high) == (1, 3)
    assert offered(_open(p.state), Gain(0, "raw_food", 3)) is not None
    assert offered(_open(p.state), Gain(0, "raw_food", 4)) is None
    p.set_char(0, basic=10)
    (res, _items) = _offer(p.state, Gain.type, 0)
    assert not res.ok and res.refusal.code == "dont_starve.backpack_full"


def _pools(events) -> dict[int, tuple[str, ...]]:
    return {e.seat: e.dice for e in events if isinstance(e, DicePoolAnnounced) and e.dice}


def test_each_fighters_roll_offer_has_the_dice_the_tray_lit(play) -> None:
    """dont-starve.zh.md §战斗结算, §投骰: each fighter rolls its monster dice and 1 character
    die; the roll offer of each fighter has one control per die of its announced pool, in
    order, and after a focus reroll (§专注点) the same dice again."""
    p = play(players=2)
    p.set(revealed=(*p.data.revealed, ("E", "forest")), locations=(("E", QUIET),))
    p.set_char(0, tile="E")
    p.set_char(1, tile="E")
    events = p.do(Fight(0, monster_cv=5, cv=0, damage=1, helpers=(1,)))
    pools = _pools(events)
    assert pools == {
        0: ("character", "monster", "monster", "monster"),
        1: ("character", "monster", "monster"),
    }
    for fighter, pool in pools.items():
        offers_ = _offer(p.state, Roll.type, 0, fighter=fighter)
        assert len(offers_) == 2  # the plain dice, and with armour blocking hits
        for o in offers_:
            (field,) = o.fields
            assert field.kind == "dice" and tuple(d.name for d in field.dice) == pool
    again = _pools(p.do(SpendFocus(0, for_seat=1)))
    (o, _) = _offer(p.state, Roll.type, 0, fighter=1)
    assert tuple(d.name for d in o.fields[0].dice) == again[1]
    assert offered(_open(p.state), Roll(0, 1, successes=1, dodges=1, hits=1)) is not None
    assert offered(_open(p.state), Roll(0, 1, hits=3)) is None  # two monster dice
    assert offered(_open(p.state), Roll(0, 1, successes=2)) is None  # one character die
    assert offered(_open(p.state), Roll(0, 1, hits=1, blocked=1)) is not None  # armour


def test_the_dice_faces_are_the_symbols_of_the_rule_text() -> None:
    """dont-starve.zh.md §骰子: the character die shows value, daylight, success, durability;
    the monster die hit, ability, dodge, armour durability; success, hit and dodge count."""
    d = dice(catalogue())  # the demo box's dice
    character = {f.label.en: dict(f.adds) for f in d.character.faces}
    monster = {f.label.en: dict(f.adds) for f in d.monster.faces}
    assert {"value", "daylight", "success", "durability"} <= set(character)
    assert character["success"] == {"successes": 1} and character["value"] == {}
    assert {"hit", "ability", "dodge", "armour durability"} <= set(monster)
    assert monster["hit"] == {"hits": 1} and monster["dodge"] == {"dodges": 1}
    assert all(f.symbol and not f.symbol.isdigit() for f in (*d.character.faces, *d.monster.faces))


def test_the_engine_never_rolls_a_die(play) -> None:
    """dont-starve.zh.md §投骰: the table rolls; declaring a fight, a reroll and reading the
    dice draw nothing from the game's seeded randomness."""
    p = play(players=1)
    p.do(MoveTo(0, "E", biome="forest"))
    p.do(Explore(0))
    p.set_char(0, tile="E")
    rng = p.state.rng
    p.state = replace(p.state, flow=replace(p.state.flow, done=frozenset()))
    p.set(locations=(("E", HOSTILE),))
    p.do(Fight(0, monster_cv=2))
    p.do(SpendFocus(0))
    p.do(Roll(0, 0, successes=1))
    assert p.state.rng == rng


def test_the_shadow_attack_offers_the_monster_dice_announced(play) -> None:
    """dont-starve.zh.md §暗影阶段: an attacking shadow creature rolls monster dice (the tier's
    from shadows.toml); the offer to enter its hits has those dice, each hit costing health."""
    p = play(players=1)
    p.set_char(0, sanity=3)  # below two thresholds: tier 2 attacks
    events = p.go_to("shadow")
    pools = _pools(events)
    (attack,) = [o for o in _offer(p.state, "dont_starve.lose", 0) if o.fields[0].kind == "dice"]
    assert tuple(d.name for d in attack.fields[0].dice) == pools[0]
    hit = next(f for f in attack.fields[0].dice[0].faces if f.label.en == "hit")
    assert dict(hit.adds) == {"health": 1}


def test_no_label_shows_a_raw_id() -> None:
    """What players read names things as the table does: no ids, lists, booleans, None."""
    bad = re.compile(r"_|\[|\]|\bTrue\b|\bFalse\b|\bNone\b|placeholder|占位")
    seen = set()
    for path in example_files("dont_starve"):
        for step in walk_example(path):
            for group in step.open:
                for o in group.offers:
                    texts = [o.label, *(f.label for f in o.fields)]
                    texts += [c.label for f in o.fields for c in f.choices]
                    texts += [d.label for f in o.fields for d in f.dice]
                    texts += [x.label for f in o.fields for d in f.dice for x in d.faces]
                    for t in texts:
                        for s in (t.zh, t.en):
                            if s not in seen:
                                seen.add(s)
                                assert s.strip() and not bad.search(s), (o.move, s)
                    assert any("\u4e00" <= ch <= "\u9fff" for ch in o.label.zh), o.label


def test_every_tap_of_the_kiosk_session_is_offered_at_its_point() -> None:
    """The scripted session's taps are made through the console: each one is offered (a move
    the console greys cannot be tapped, so the script has none); its first move (Wilson onto E,
    read by the camera) is offered too, as a camera move."""
    script = tomllib.loads((ROOT / "kiosk/simulation/dont_starve.toml").read_text("utf-8"))
    head = script["session"]
    # the simulation's cards come from the engine's seeded decks (kiosk/rig.py)
    session = Session(GAME, {**head["setup"], "draws": "virtual"}, head["seed"])
    camera = MoveTo(0, "E", biome="forest")
    found = offered(_open(session.state), camera)
    assert found is not None and found.camera
    session.submit(camera)
    refused = []
    for step in head["steps"]:
        if "tap" in step:
            move = move_from_dict(step["tap"])
        elif step.get("press") == "advance":
            move = Advance()
        else:
            continue
        open_now = _open(session.state)
        result = session.submit(move)
        if result.accepted:
            assert offered(open_now, move) is not None, step
        else:
            found = match(open_now, move)
            assert found is not None and found[1].verdict.code == result.verdict.code
            refused.append(result.verdict.code)
    assert refused == []
    assert session.state.outcome is not None


def test_the_base_camp_example_is_made_through_the_console() -> None:
    """§营地, §精华: the base-camp example (essence, a structure, trade, act) replays with each
    accepted line offered; of the refused ones, too much essence is beyond the cost's bounds
    and essence off the portal is greyed with its reason."""
    (path,) = [p for p in example_files("dont_starve") if p.name.endswith("basecamp.jsonl")]
    refused = []
    for step in walk_example(path):
        found = match(step.open, step.move)
        if step.accepted:
            assert found is not None and found[1].verdict.ok, step.line
        else:
            assert offered(step.open, step.move) is None
            refused.append(found[1].verdict.code if found else f"out of bounds: {step.code}")
    assert refused == ["out of bounds: dont_starve.no_essence", "dont_starve.off_portal"]
    lines = [json.loads(x) for x in path.read_text("utf-8").splitlines()[1:]]
    assert {x["type"] for x in lines} >= {"dont_starve.essence", "dont_starve.trade"}


def test_a_hostile_monsters_die_is_entered_as_the_explorers_loss(play) -> None:
    """dont-starve.zh.md §敌意: exploring or interacting where a hostile monster stands adds 1
    monster die; the console offers that pool's dice (one hit: health lost) to the one who
    rolled, under that player's name (no other seat's), until the next main action."""
    p = play(players=2)
    p.set(revealed=(*p.data.revealed, ("E", "forest")), locations=(("E", HOSTILE),))
    p.set_char(0, tile="E")
    events = p.do(Interact(0))
    assert _pools(events) == {0: ("character", "monster")}
    assert not [o for o in _offer(p.state, Lose.type, 1) if o.fields[0].kind == "dice"]
    (hostile,) = [o for o in _offer(p.state, Lose.type, 0) if o.fields[0].kind == "dice"]
    assert hostile.fixed == {} and hostile.group == "dice"  # under the roller's own name
    assert tuple(d.name for d in hostile.fields[0].dice) == ("character", "monster")
    assert offered(_open(p.state), Lose(0, health=1)) is not None
    p.do(Act(1, "a scenario card's action"))  # the next main action: the pool is closed
    assert not [o for o in _offer(p.state, Lose.type) if o.fields[0].kind == "dice"]


def test_a_defeated_character_is_told_why_it_cannot_act(play) -> None:
    """dont-starve.zh.md §角色复活: a defeated character waits for a meat effigy; its seat sees
    one greyed action saying so, and may still declare a scenario card's result."""
    p = play(players=2)
    p.set_char(1, defeated=True, tile=None, health=0)
    mine = {o.move: o for o in _offer(p.state, "dont_starve.act", 1)}
    assert mine["dont_starve.act"].refusal.code == "dont_starve.defeated"
    assert not _offer(p.state, MoveTo.type, 1)
    ends = _offer(p.state, "dont_starve.scenario_end", 1)
    assert [e.fixed["result"] for e in ends] == ["win", "lose"]
    assert all(e.ok and e.kind == "final" for e in ends)


def test_a_turn_ends_by_flipping_the_token_and_the_log_says_so(play) -> None:
    """dont-starve.zh.md §结束回合: 完成回合后,该角色将其激活指示物翻至"未激活"面 — the action
    phase's one way to end a turn is "end my turn" (the core's ``pass``; no ``end_turn`` that
    would keep the character active); the phase ends only when the dial reaches 0 (§结束回合
    B). In the shadow, daily needs and weather phases the same move is "done with this phase".
    The log line says what happened: the turn ended, not the phase."""
    p = play(players=2)
    p.do(MoveTo(seat=0, to="E"))  # the optional move: the turn is open
    own = [o for o in _open(p.state)[0].offers if o.move in ("pass", "end_turn")]
    assert [(o.move, o.label.zh, o.group) for o in own] == [("pass", "结束回合", "core")]
    events = p.do(Explore(seat=0))  # a main action flips the token by itself
    line = GAME.event_text(p.events_of("seat_passed", events)[0].to_dict(), "zh")
    assert line == "1号玩家的回合结束:激活指示物翻至未激活面"
    assert "本阶段" not in (line or "")
    english = GAME.event_text(p.events_of("seat_passed", events)[0].to_dict(), "en")
    assert english == "Player 1's turn is over: activation token flipped to inactive"
    p.go_to("daily_needs")
    (done,) = _offer(p.state, "pass", 0)
    assert (done.label.zh, done.label.en) == ("本阶段结束", "Done with this phase")
    assert not _offer(p.state, "end_turn")


def test_each_offer_says_where_the_console_puts_it(play) -> None:
    """dont-starve.zh.md §执行回合: 可选的移动行动,然后再执行一个自选的主要行动 — the main
    actions (移动、探索、互动、战斗、交易、其他行动) are ``main`` (the move too, though the camera
    reads it), what a card says (gain, discard, lose, the bottom card) sits behind the "card
    effect" entry, and §胜利与失败's scenario end is ``final``: one offer per result, no picker,
    with what its second touch does."""
    p = play(players=2)
    kinds = {(o.move, o.label.en): o.group for o in _open(p.state)[0].offers}
    for move in (MoveTo, Explore, Interact, Fight, Act):
        assert {k for (m, _), k in kinds.items() if m == move.type} & {"main"}, move
    assert kinds[(MoveTo.type, "Move and turn the tile over")] == "main"
    assert kinds[(Explore.type, "Explore tile P (portal) (bottom card)")] == "card_effect"
    assert {k for (m, _), k in kinds.items() if m in (Gain.type, Lose.type)} == {"card_effect"}
    assert kinds[("dont_starve.eat", "Eat food")] == "free"
    ends = _offer(p.state, "dont_starve.scenario_end", 0)
    assert [(e.group, e.fields, e.confirm.en if e.confirm else None) for e in ends] == [
        ("final", (), "Touch again to end the scenario: won"),
        ("final", (), "Touch again to end the scenario: lost"),
    ]
    assert all(o.to_dict("zh")["kind"] for g in _open(p.state) for o in g.offers)
