"""The offers behind the players' console (engine/core/offers.py, DESIGN.md "Offers").

The core part is checked on the toy games; each real game is checked against its example games
in docs/examples: every accepted line is offered at its point, no refused line is offered as
legal, and every move type the game registers appears in some offer.
"""

from __future__ import annotations

import random

import pytest
from offer_walk import example_files, walk_example
from toy_games import Council, Share, Take, Toy

from engine.core import (
    Advance,
    Choice,
    Die,
    EndTurn,
    Face,
    Field,
    Offer,
    Pass,
    Session,
    Text,
    find_game,
    match,
    offered,
    offers,
    register_game,
)
from engine.core.offers import SeatOffers, acting_seats, checked, sample
from engine.core.records import move_types

TOY = register_game(Toy())
COUNCIL = register_game(Council())


def T(text: str) -> Text:
    return Text(text, text)


def toy_session() -> Session:
    return Session(TOY, {"players": 3})


def test_the_seat_whose_turn_it_is_gets_its_moves_each_option_checked() -> None:
    session = toy_session()
    groups = offers(TOY, session.state)
    assert [g.seat for g in groups] == [0]  # clockwise: only the seat whose turn it is
    by_move = {o.move: o for o in groups[0].offers}
    assert set(by_move) == {"toy.take", "end_turn", "pass"}
    take = by_move["toy.take"]
    verdicts = {o.values: o.verdict for o in take.options}
    assert verdicts[(1,)].ok and verdicts[(2,)].ok
    assert not verdicts[(3,)].ok and verdicts[(3,)].code == "toy.too_many"
    assert take.ok and take.refusal is None


def test_a_move_is_offered_only_as_a_legal_option() -> None:
    session = toy_session()
    groups = offers(TOY, session.state)
    assert offered(groups, Take(0, 2)) is not None
    assert offered(groups, Take(0, 3)) is None  # greyed: refused by legal()
    assert match(groups, Take(0, 3))[1].verdict.code == "toy.too_many"
    assert offered(groups, Take(1, 1)) is None  # not this seat's turn
    assert offered(groups, Take(0, 9)) is None and match(groups, Take(0, 9)) is None
    assert offered(groups, EndTurn(0)) is not None and offered(groups, Pass(0)) is not None


def test_a_table_phase_offers_the_confirm_button_to_the_table() -> None:
    session = toy_session()
    for _ in range(3):
        session.submit(Pass(session.state.flow.current))
    assert session.state.flow.phase == "tally"
    groups = offers(TOY, session.state)
    assert [(g.seat, [o.move for o in g.offers]) for g in groups] == [(None, ["advance"])]
    assert offered(groups, Advance()) is not None


def test_simultaneous_phases_offer_every_seat_not_yet_done() -> None:
    session = Session(COUNCIL, {"players": 3})
    session.submit(Pass(1))
    assert acting_seats(COUNCIL, session.state) == [0, 2]
    assert [g.seat for g in offers(COUNCIL, session.state)] == [0, 2]


def test_numbers_must_be_within_bounds_and_dice_on_their_faces() -> None:
    session = toy_session()
    coins = Field("coins", T("coins"), "number", low=1, high=2, default=1)
    offer = checked(TOY, session.state, Offer("toy.take", 0, T("take"), fields=(coins,)))
    groups = (SeatOffers(0, True, (offer,)),)
    assert offered(groups, Take(0, 2)) is not None
    assert offered(groups, Take(0, 3)) is None
    pips = tuple(Face(T(str(n)), str(n), (("coins", n),)) for n in (0, 1))
    dice = Field("dice", T("dice"), "dice", dice=(Die("d2", T("d2"), pips),) * 2)
    rolled = checked(TOY, session.state, Offer("toy.take", 0, T("take"), fields=(dice,)))
    groups = (SeatOffers(0, True, (rolled,)),)
    assert rolled.build((), faces={"dice": [1, 1]}) == Take(0, 2)
    assert offered(groups, Take(0, 2)) is not None  # 1 + 1
    assert offered(groups, Take(0, 3)) is None  # two d2 of 0/1 never make 3


def test_a_tally_counts_each_choice_within_its_bounds() -> None:
    session = toy_session()
    colours = (Choice("gold", T("gold"), most=2), Choice("red", T("red"), most=3))
    lots = Field("lots", T("lots"), "tally", choices=colours)
    offer = checked(TOY, session.state, Offer("toy.share", 0, T("share"), fields=(lots,)))
    assert [o.verdict.ok for o in offer.options] == [True]  # checked with nothing counted
    assert offer.build(counts={"lots": [2, 1]}) == Share(0, (("gold", 2), ("red", 1)))
    assert offer.build() == Share(0, ())
    groups = (SeatOffers(0, True, (offer,)),)
    assert offered(groups, Share(0, (("red", 3),))) is not None
    assert offered(groups, Share(0, (("gold", 2), ("red", 1)))) is not None
    assert offered(groups, Share(0, (("gold", 3),))) is None  # beyond its most
    assert offered(groups, Share(0, (("gold", 1), ("gold", 1)))) is None  # a choice twice
    assert offered(groups, Share(0, (("blue", 1),))) is None  # not a choice
    rnd = random.Random(4)
    for _ in range(50):
        move = sample(groups, rnd)
        assert move is not None and offered(groups, move) is not None
        assert isinstance(move, Share) and len(move.lots) <= 1  # one count alone, or none
    assert offer.to_dict("en")["fields"][0]["choices"][1] == {
        "value": "red",
        "label": "red",
        "most": 3,
    }


def test_a_tally_with_a_low_is_checked_with_its_first_choices_counted_once() -> None:
    """An offer whose move needs something counted (low 1) is checked as the least it can be
    made with, not as an empty list (Stonesaga's exchange must exchange something)."""
    session = toy_session()
    colours = (Choice("gold", T("gold"), most=2), Choice("red", T("red"), most=3))
    lots = Field("lots", T("lots"), "tally", choices=colours, low=2)
    seen: list[Share] = []

    class Spy(Toy):
        name = "toy_spy"

        def legal(self, state, move):  # type: ignore[no-untyped-def]
            seen.append(move)
            return super().legal(state, move)

    offer = checked(Spy(), session.state, Offer("toy.share", 0, T("share"), fields=(lots,)))
    assert offer.ok and seen == [Share(0, (("gold", 1), ("red", 1)))]
    groups = (SeatOffers(0, True, (offer,)),)
    assert offered(groups, Share(0, (("gold", 1),))) is None  # fewer than low
    assert offered(groups, Share(0, (("gold", 2), ("red", 3)))) is not None


def test_a_field_the_offer_leaves_out_must_keep_its_default() -> None:
    session = toy_session()
    offer = checked(TOY, session.state, Offer("toy.take", 0, T("take")))
    groups = (SeatOffers(0, True, (offer,)),)
    assert offered(groups, Take(0)) is not None  # coins: 1 is the default
    assert offered(groups, Take(0, 2)) is None


def test_a_sampled_move_is_always_an_offered_legal_one() -> None:
    session = toy_session()
    rnd = random.Random(1)
    for _ in range(200):
        groups = offers(TOY, session.state)
        if session.state.outcome is not None:
            break
        move = sample(groups, rnd)
        assert move is not None and offered(groups, move) is not None
        assert session.submit(move).accepted
    assert session.state.outcome is not None


def test_offers_serialise_to_plain_json_in_one_language() -> None:
    take = offers(TOY, toy_session().state)[0].offers[0].to_dict("en")
    assert take["label"] == "take" and take["fields"][0]["choices"][2] == {
        "value": 3,
        "label": "3",
    }
    assert [o["ok"] for o in take["options"]] == [True, True, False]
    assert take["options"][2]["reason"] == "Take at most 2"


GAMES = ["greenwood", "dont_starve", "stonesaga"]


@pytest.mark.parametrize("name", GAMES)
def test_every_line_of_the_example_games_is_offered_at_its_point(name: str) -> None:
    files = example_files(name)
    assert files, f"no example game of {name} in docs/examples"
    missing, wrongly_offered = [], []
    for path in files:
        for step in walk_example(path):
            found = offered(step.open, step.move)
            if step.accepted and found is None:
                missing.append(f"{path.name}:{step.line} {step.move.to_json()}")
            if not step.accepted and found is not None:
                wrongly_offered.append(f"{path.name}:{step.line} {step.code}")
    assert not missing, "moves players could not make at the console:\n" + "\n".join(missing)
    assert not wrongly_offered, "refused moves offered as legal:\n" + "\n".join(wrongly_offered)


@pytest.mark.parametrize("name", GAMES)
def test_no_move_type_of_a_game_is_left_without_an_offer(name: str) -> None:
    find_game(name)
    registered = {t for t in move_types() if t.startswith(f"{name}.")}
    seen: set[str] = set()
    for path in example_files(name):
        for step in walk_example(path):
            seen.update(o.move for group in step.open for o in group.offers)
    assert registered - seen == set(), "move types no offer produced in the example games"


def test_core_moves_are_core_and_a_final_offer_says_what_its_second_touch_does() -> None:
    """The core's own moves are ``core`` (the console puts them after the game's); a game's
    offer is ``main`` unless it says otherwise (``camera`` when the camera reads it); a
    ``final`` offer without the words of its second touch is a programming error."""
    groups = offers(TOY, toy_session().state)
    kinds = {o.move: o.to_dict("en")["kind"] for o in groups[0].offers}
    assert kinds == {"toy.take": "main", "end_turn": "core", "pass": "core"}
    assert Offer("toy.take", 0, T("take"), camera=True).group == "camera"
    with pytest.raises(ValueError, match="second touch"):
        Offer("toy.end", 0, T("end"), kind="final")
    final = Offer("toy.end", 0, T("end"), kind="final", confirm=Text("再按一次", "Again"))
    assert final.to_dict("zh")["confirm"] == "再按一次"


def test_a_game_that_names_its_own_pass_gets_no_core_pass_or_end_turn() -> None:
    """A game that offers ``pass`` itself (its rules' words for it) replaces the core's seat
    moves: neither the core's ``pass`` nor its ``end_turn`` is added beside it."""

    class Named(Toy):
        name = "toy_named"

        def offers(self, state, seat):
            return (*super().offers(state, seat), Offer("pass", seat, T("my pass"), kind="core"))

    game = register_game(Named())
    groups = offers(game, Session(game, {"players": 3}).state)
    core = [(o.move, o.label.en) for o in groups[0].offers if o.group == "core"]
    assert core == [("pass", "my pass")]
