"""Greenwood's draws come from the table (draws "table", docs/greenwood.md "Draws"): the engine
draws no threat and picks no start player; the table gives each threat card turned up, by its
name or by what it shows, and the start player, and the rules check what is given
(greenwood.zh.md §一.3, §一.10, §三.15 step 3, §四.5)."""

from __future__ import annotations

import json
from pathlib import Path

from engine.core import Advance, EndTurn, Pass, Session, find_game, move_from_dict, offers
from engine.core.box import Box, demo_files, merged
from engine.greenwood.catalogue import FILES, PACKAGE, catalogue
from engine.greenwood.moves import (
    ChooseStartPlayer,
    PlaceDuskMarker,
    Protect,
    ThreatDrawn,
    UseEnergy,
)

GAME = find_game("greenwood")
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def names(session: Session) -> list[str]:
    return [t.name for t in catalogue(session.state).threats]


def draw_offers(session: Session, seat: int = 0) -> dict[str, list]:
    """The offers the seat sees now, by move type."""
    out: dict[str, list] = {}
    for group in offers(GAME, session.state):
        if group.seat == seat:
            for offer in group.offers:
                out.setdefault(offer.move, []).append(offer)
    return out


def given(session: Session, move) -> tuple:
    result = session.submit(move)
    assert result.accepted, result.verdict
    return result.events


def opened(players: int = 2, **options) -> Session:
    """A game with draws "table" (the default) as it opens."""
    return Session(GAME, {"players": players, **options}, seed=4)


def to_next_dusk(session: Session) -> None:
    """Every seat lays its marker and passes, the table confirms, until the next dusk."""
    start = session.state.flow.round
    for _ in range(100):
        flow = session.state.flow
        if flow.phase == "dusk" and flow.round > start:
            return
        if flow.phase in ("dawn", "upkeep"):
            given(session, Advance())
            continue
        seat = flow.current if flow.current is not None else min(set(range(2)) - flow.done)
        player = session.state.data.players[seat]
        if flow.phase == "dusk" and player.marker_round != flow.round:
            effect = "aurora" if player.marker != "aurora" else "recruit"
            given(session, PlaceDuskMarker(seat=seat, effect=effect))
        given(session, Pass(seat=seat))
    raise AssertionError("no next dusk")


def test_the_game_opens_with_the_tables_threat_and_start_player_before_anything_else() -> None:
    """§一.3 随机抽取1张正面朝上 and §一.10 确定起始玩家: with draws "table" nothing is revealed
    and no start player chosen by the engine; every other move, a pass too, waits for them."""
    session = opened()
    assert session.state.data.threats == () and session.state.data.start_due
    assert not any(e.type == "greenwood.threat_revealed" for e in session.start_events)
    marker = PlaceDuskMarker(seat=0, effect="recruit")
    assert session.submit(marker).verdict.code == "greenwood.threat_due"
    assert session.submit(Pass(seat=1)).verdict.code == "greenwood.threat_due"
    shown = draw_offers(session)
    assert set(shown) == {"greenwood.threat_drawn", "greenwood.start_player", "pass"}
    pick, by_points, by_reward = shown["greenwood.threat_drawn"]
    assert {o.values[0] for o in pick.options} == set(names(session))
    labels = [c.label for c in pick.fields[0].choices]
    assert all("(demo box)" in t.en and "(演示盒)" in t.zh for t in labels)
    assert by_points.fixed == {"protection": "vp"} and len(by_points.options) == 6
    assert len(by_reward.options) == 6 * 7
    (start,) = shown["greenwood.start_player"]
    assert [o.values[0] for o in start.options] == [0, 1]

    events = given(session, ThreatDrawn(seat=1, threat="threat 7"))
    assert [(e.type, e.name) for e in events] == [("greenwood.threat_revealed", "threat 7")]
    assert session.submit(marker).verdict.code == "greenwood.start_player_due"
    assert set(draw_offers(session)) == {"greenwood.start_player", "pass"}
    events = given(session, ChooseStartPlayer(seat=0, player=1))
    assert [e.to_dict() for e in events] == [{"type": "greenwood.start_player_chosen", "player": 1}]
    assert session.state.flow.start_seat == 1
    assert session.submit(marker).accepted  # the dusk goes on
    assert GAME.in_progress(session.state) is None


def test_the_start_player_chosen_takes_the_first_night_turn_and_the_marker_passes_on() -> None:
    """§三.4 从起始玩家开始,按照顺时针顺序轮流行动; §三.15 step 5 the marker passes clockwise."""
    session = opened()
    given(session, ThreatDrawn(seat=0, threat="threat 2"))
    given(session, ChooseStartPlayer(seat=0, player=1))
    for seat in (0, 1):
        given(session, PlaceDuskMarker(seat=seat, effect="recruit"))
        given(session, Pass(seat=seat))
    assert session.state.flow.phase == "night" and session.state.flow.current == 1
    assert session.submit(UseEnergy(seat=0, companion=0)).verdict.code == "core.not_your_turn"
    to_next_dusk(session)
    assert session.state.flow.start_seat == 0


def test_what_the_table_gives_is_checked() -> None:
    """§一.3: a card of the box, not one already on the main board, only while one is turned
    up; §一.10: a seat of this table, chosen once."""
    session = opened(3)
    nope = session.submit(ThreatDrawn(seat=0, threat="gold"))
    assert nope.verdict.code == "greenwood.no_such_threat" and "§一.3" in nope.verdict.rule
    given(session, ThreatDrawn(seat=0, threat="threat 1"))
    again = session.submit(ThreatDrawn(seat=0, threat="threat 2"))
    assert again.verdict.code == "greenwood.no_threat_due"
    far = session.submit(ChooseStartPlayer(seat=0, player=3))
    assert far.verdict.code == "greenwood.no_such_player" and "4" in far.verdict.message.en
    given(session, ChooseStartPlayer(seat=2, player=2))
    twice = session.submit(ChooseStartPlayer(seat=0, player=0))
    assert twice.verdict.code == "greenwood.no_start_due"


def test_each_upkeep_turns_up_two_threats_the_table_gives_one_by_one() -> None:
    """§三.15 step 3 翻开下一轮的2张威胁卡牌: the upkeep announces none; the next dusk waits for
    both; a card already on the main board is refused by name."""
    session = opened(start_seat=0)
    assert not session.state.data.start_due  # the set-up named the start player
    given(session, ThreatDrawn(seat=0, threat="threat 9"))
    revealed: list[str] = []
    for _ in range(2):
        to_next_dusk(session)
        data = session.state.data
        assert data.threats_due == 2 and data.revealed == len(data.threats)
        refused = session.submit(PlaceDuskMarker(seat=0, effect="protect"))
        assert refused.verdict.code == "greenwood.threat_due"
        in_play = session.submit(ThreatDrawn(seat=1, threat="threat 9"))
        assert in_play.verdict.code == "greenwood.threat_in_play"
        assert "threat 9" in in_play.verdict.message.en
        for name in ("threat 3", "threat 4") if not revealed else ("threat 11", "threat 12"):
            events = given(session, ThreatDrawn(seat=1, threat=name))
            revealed += [e.name for e in events if e.type == "greenwood.threat_revealed"]
        assert GAME.in_progress(session.state) is None
    assert revealed == ["threat 3", "threat 4", "threat 11", "threat 12"]
    assert len(session.state.data.threats) == 5 and session.state.data.revealed == 5


def test_a_card_the_box_lacks_is_entered_used_at_once_and_kept_for_the_box() -> None:
    """§一.3 and §四.5 (每张威胁卡牌会标明触发条件…以及玩家进行保护后获得的奖励): a card entered
    by what sets it off and its protection reward is on the main board at once, its reward is
    what protecting pays (§三.2), its line says nothing of the demo box, and it is announced
    for the owner's box as the data file writes it."""
    session = opened(start_seat=0)
    move = ThreatDrawn(seat=0, trigger="watchtower", protection="aurora", amount=2)
    events = given(session, move)
    assert [e.type for e in events] == ["greenwood.threat_revealed", "box_item_entered"]
    revealed, entered = events
    assert (revealed.name, revealed.trigger) == ("entered threat 1", "watchtower")
    assert entered.item == "tracks/threat/entered threat 1"
    value = json.loads(entered.value)
    assert value == {
        "name": "entered threat 1",
        "trigger": "watchtower",
        "protection": ["aurora:2"],
    }
    line = GAME.event_text(revealed.to_dict(), "en", session.state)
    assert "entered threat 1" in line and "watchtower" in line and "demo" not in line
    zh = GAME.event_text(revealed.to_dict(), "zh", session.state)
    assert "录入的威胁1" in zh and "演示盒" not in zh
    given(session, PlaceDuskMarker(seat=0, effect="recruit"))
    paid = given(session, Protect(seat=0, threat=0))
    assert [e.reward for e in paid if e.type == "greenwood.reward_gained"] == ["aurora:2"]
    assert session.state.data.players[0].aurora == 2

    # the owner's box keeps it: the next game's pick list has it, as the owner's, and a new
    # entry takes the next name
    demo = demo_files(PACKAGE, FILES)
    box = Box.of("greenwood", merged(demo, {entered.item: value}), [entered.item])
    nxt = opened(start_seat=0, box=box)
    (pick, *_) = draw_offers(nxt)["greenwood.threat_drawn"]
    labels = {c.value: c.label.en for c in pick.fields[0].choices}
    assert "entered threat 1" in labels and "(demo box)" not in labels["entered threat 1"]
    events = given(nxt, ThreatDrawn(seat=0, trigger="spy", protection="vp", amount=4))
    assert events[0].name == "entered threat 2"


def test_an_entry_beyond_what_a_threat_card_prints_is_refused() -> None:
    """§四.5: the triggers the rules name; one protection reward, 1–8 points or 1–3 of another."""
    session = opened(start_seat=0)
    bad = "greenwood.bad_protection"
    for (trigger, protection, amount), code in (
        (("gold", "vp", 1), "greenwood.unknown_trigger"),
        (("spy", "gems", 1), bad),
        (("spy", "vp", 9), bad),
        (("spy", "energy", 4), bad),
        (("spy", "energy", 0), bad),
    ):
        move = ThreatDrawn(seat=0, trigger=trigger, protection=protection, amount=amount)
        verdict = session.submit(move).verdict
        assert verdict.code == code and "§四.5" in verdict.rule, move
    assert session.submit(ThreatDrawn(seat=0, trigger="spy", protection="vp", amount=8)).accepted


def test_an_owners_threat_is_not_called_the_demos() -> None:
    """docs/box.md: a card of the owner's box is offered under its name, not as the demo's."""
    demo = demo_files(PACKAGE, FILES)
    threat = dict(demo["tracks.toml"]["threat"][0])
    threat.pop("placeholder", None)
    item = f"tracks/threat/{threat['name']}"
    box = Box.of("greenwood", merged(demo, {item: threat}), [item])
    session = opened(box=box)
    (pick, *_) = draw_offers(session)["greenwood.threat_drawn"]
    labels = {c.value: c.label.en for c in pick.fields[0].choices}
    assert "(demo box)" not in labels[threat["name"]]
    assert all("(demo box)" in v for k, v in labels.items() if k != threat["name"])


def test_solo_and_a_set_up_start_seat_choose_no_start_player() -> None:
    """§一.10: the set-up's start player stands; a solo game has one seat (§四.18)."""
    assert not opened(1).state.data.start_due
    assert not opened(3, start_seat=2).state.data.start_due
    assert opened(3, start_seat=2).state.flow.start_seat == 2
    tutorial = opened(tutorial_threats=True)  # threats 1–5 lie in their places: none drawn
    assert tutorial.state.data.threats == (0, 1, 2, 3, 4) and tutorial.state.data.start_due
    code = tutorial.submit(PlaceDuskMarker(seat=0, effect="recruit")).verdict.code
    assert code == "greenwood.start_player_due"


def test_the_engine_announces_no_threat_the_table_did_not_give() -> None:
    """DESIGN.md "Chance comes from the table": along the example game played with the table's
    draws, each threat revealed is the one the same line gave, and nothing else reveals one."""
    path = EXAMPLES / "greenwood-table.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    assert "draws" not in head["setup"] and "start_seat" not in head["setup"]
    session = Session(GAME, head["setup"], head["seed"])
    assert not any(e.type.startswith("greenwood.") for e in session.start_events)
    kinds = set()
    for line in lines[1:]:
        move = json.loads(line)
        result = session.submit(move_from_dict(move))
        revealed = [e for e in result.events if e.type == "greenwood.threat_revealed"]
        if move["type"] != "greenwood.threat_drawn":
            assert not revealed, line
            continue
        assert result.accepted and len(revealed) == 1
        kinds.add("picked" if move.get("threat") else "entered")
        if move.get("threat"):
            assert revealed[0].name == move["threat"]
    assert kinds == {"picked", "entered"}
    assert session.state.outcome is not None


def test_virtual_draws_and_the_tutorial_order_are_as_before() -> None:
    """§一.3: the tutorial threats 1–5 in order; the seeded deck gives five at once and the
    seeded Rng the start player, with nothing for the table to give."""
    tutorial = Session(GAME, {"players": 2, "tutorial_threats": True, "start_seat": 0})
    assert tutorial.state.data.threats == (0, 1, 2, 3, 4)
    assert GAME.in_progress(tutorial.state) is None
    seats = set()
    for seed in range(12):
        virtual = Session(GAME, {"players": 2, "draws": "virtual"}, seed=seed)
        data = virtual.state.data
        assert len(data.threats) == 5 and data.threats_due == 0 and not data.start_due
        assert GAME.in_progress(virtual.state) is None
        assert len(set(data.threats)) == 5
        seats.add(virtual.state.flow.start_seat)
    assert seats == {0, 1}  # the seeded Rng picks either
    virtual = Session(GAME, {"players": 2, "draws": "virtual"}, seed=5)
    assert [e.type for e in virtual.start_events if e.type.startswith("greenwood.")] == []
    assert virtual.submit(EndTurn(seat=0)).verdict.code != "greenwood.threat_due"
