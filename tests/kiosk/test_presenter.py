"""The presenter (issue 23): one typed, immutable snapshot per change and language, built once
whoever reads it, and one diff per change that every live viewer is sent."""

from __future__ import annotations

import dataclasses
import json
import random
import time

import pytest

from engine.core import Advance, Pass, Text, legal, move_from_dict, offered, offers
from engine.core.offers import sample
from kiosk.presenter import Presenter, Snapshot
from kiosk.routers.live import message
from kiosk.store import Store
from kiosk.table import Table


def dusk_marker(seat: int):
    """A Greenwood dusk marker (greenwood.zh.md §三.2)."""
    return move_from_dict({"type": "greenwood.dusk_marker", "seat": seat, "effect": "recruit"})


@pytest.fixture
def table(tmp_path) -> Table:
    store = Store.open(tmp_path / "t.db")
    return Table(store.new_game("p", "greenwood", {"draws": "virtual"}, 0))


def test_one_build_per_change_and_language_whoever_reads(table: Table) -> None:
    presenter = table.presenter
    for _ in range(10):  # ten viewers, the tray page, /api/status
        presenter.snapshot("en")
    assert presenter.builds == {"en": 1}
    table.submit(Pass(seat=0))
    zh, en, facts = presenter.pair()  # the café publisher
    for _ in range(10):
        assert presenter.snapshot("en") is en
    assert presenter.builds == {"en": 2, "zh": 1}
    assert zh.seq == en.seq == facts.seq == table.seq
    assert (zh.phase.name, zh.moves) == (en.phase.name, en.moves)
    assert zh.title != en.title


def test_the_snapshot_is_typed_and_cannot_be_changed(table: Table) -> None:
    snapshot = table.presenter.snapshot("en")
    assert isinstance(snapshot, Snapshot)
    with pytest.raises(dataclasses.FrozenInstanceError):
        snapshot.moves = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        snapshot.view["summary"] = "changed"
    with pytest.raises(TypeError):
        snapshot.console.groups[0].offers[0]["label"] = "changed"
    table.show_prompts([("lay", Text("摆好", "lay it"))])
    assert snapshot.prompts == ()  # a change makes a new snapshot, the old one stays as it was
    assert table.presenter.snapshot("en").prompts[0].message == "lay it"


def test_the_json_is_the_status_and_fresh_at_every_call(table: Table) -> None:
    snapshot = table.presenter.snapshot("zh")
    data = snapshot.to_json()
    assert data == json.loads(json.dumps(data))  # plain JSON
    assert data["phase"]["name"] == "dusk" and "guide" in data["phase"]
    assert list(data)[:4] == ["seq", "game", "title", "save"]
    data["seats"][0]["name"] = "changed"
    assert snapshot.to_json()["seats"][0]["name"] != "changed"


def test_one_diff_per_change_sent_alike_to_every_viewer(table: Table) -> None:
    presenter = table.presenter
    table.submit(dusk_marker(0))  # greenwood.zh.md §三.2: the dusk marker before passing dusk
    first = presenter.frame("en")
    table.submit(Pass(seat=0))
    frame = presenter.frame("en")
    assert frame.base == first.seq and "seq" in frame.changed and "moves" in frame.changed
    assert "title" not in frame.changed and "phases" not in frame.changed
    change = json.loads(frame.change_body)
    assert (
        change["moves"] == 2
        and change["passed_players"] == [1]
        and set(change) == set(frame.changed)
    )
    extras = {"lang": "en", "settings": {"sound": True}}
    sent = [message(frame, first.seq, extras, extras) for _ in range(10)]
    assert len(set(sent)) == 1 and sent[0] is not None and sent[0].startswith(b"event: change")
    louder = {"lang": "en", "settings": {"sound": False}}
    own = message(frame, first.seq, louder, extras)
    assert own is not None and json.loads(own.split(b"data: ")[1])["settings"] == {"sound": False}
    assert message(frame, frame.seq, extras, extras) is None  # nothing new
    behind = message(frame, first.seq - 1, extras, extras)
    assert behind is not None and behind.startswith(b"event: snapshot")
    whole = json.loads(behind.split(b"data: ")[1])
    assert whole == {**frame.snapshot.to_json(), **extras}


def test_the_facts_are_one_moment_and_the_presenter_builds_from_them_alone(table: Table) -> None:
    facts = table.facts()
    table.set_link("camera", "lost", "unplugged")
    table.submit(Pass(seat=0))
    assert facts.links["camera"].state == "not_connected" and facts.moves == 0
    assert table.facts().links["camera"].state == "lost"
    built = Presenter(lambda: facts, lambda: facts.seq).snapshot("en")
    assert built.moves == 0 and built.links["camera"].state == "not_connected"
    assert table.presenter.snapshot("en").links["camera"].detail == "unplugged"


# --- the table's confirm and undo (issue 24) ---------------------------------------------------


def test_confirm_is_open_exactly_when_the_tables_advance_is_offered_open(table: Table) -> None:
    """Along a random game: the snapshot's confirm follows the offers, never a rule of its own;
    closed, it says the engine's reason for ``advance`` in the language asked."""
    rnd, seen = random.Random(3), set()
    for _ in range(80):
        session = table.saved.session
        game, state = session.game, session.state
        open_ = offered(offers(game, state), Advance()) is not None
        zh, en = table.presenter.snapshot("zh").confirm, table.presenter.snapshot("en").confirm
        assert zh.open is en.open is open_, state.flow
        if not open_:
            verdict = legal(game, state, Advance())
            if verdict.ok:  # offered but refused by the game: the offer's own reason
                assert zh.why and zh.code != "core.no_advance"
            else:
                assert (zh.why, en.why) == (verdict.message.zh, verdict.message.en)
            assert "阶段阶段" not in zh.why and zh.code
        else:
            assert zh.why is None and zh.code is None
        seen.add(open_)
        move = sample(offers(game, state), rnd)
        if move is None:
            break
        table.submit(move)
    assert seen == {True, False}


def test_a_closed_confirm_makes_nothing_and_says_why_in_words(table: Table) -> None:
    dusk = table.presenter.snapshot("zh")
    assert not dusk.confirm.open and dusk.confirm.code == "core.no_advance"
    assert dusk.confirm.why.startswith("黄昏由玩家各自行动")
    assert table.confirm() is None
    zh, en = table.presenter.snapshot("zh"), table.presenter.snapshot("en")
    assert zh.moves == 0 and zh.refusal is None and zh.phase.name == "dusk"
    assert zh.hint is not None and zh.hint.kind == "confirm_closed"
    assert dusk.confirm.why in zh.hint.text and "撤销" not in zh.hint.text
    assert en.hint is not None and en.hint.text.startswith("No Confirm now — Dusk is played")


def test_every_refusal_advises_what_fits_its_kind_and_never_undo(table: Table) -> None:
    table.submit(Advance())  # a script's confirm at dusk: refused by the engine
    confirm = table.presenter.snapshot("zh").refusal
    assert confirm is not None and "撤销" not in confirm.todo and "确认" in confirm.todo
    recruit = move_from_dict({"type": "greenwood.recruit", "seat": 0, "place": 1})
    assert not table.submit(recruit).accepted  # before the dusk marker: a choice refused
    choice = table.presenter.snapshot("en").refusal
    assert choice is not None and choice.todo.startswith("Choose again")
    assert "Undo" not in choice.todo and choice.todo != confirm.todo


def test_undo_names_the_move_it_took_back_and_asks_once_across_a_phase(table: Table) -> None:
    marker = move_from_dict({"type": "greenwood.dusk_marker", "seat": 0, "effect": "protect"})
    assert table.submit(marker).accepted
    assert table.take_back() is not None  # within the phase: at once
    zh, en = table.presenter.snapshot("zh"), table.presenter.snapshot("en")
    assert zh.moves == 0 and zh.hint is not None and zh.hint.kind == "undone"
    assert zh.hint.text == "撤销了:1号玩家 放置黄昏标记(保护队伍)" == zh.recent[0].text
    assert en.hint is not None and en.hint.text.startswith("Undone: Player 1 — Place the dusk")
    for seat in (0, 1):
        table.submit(dusk_marker(seat))  # greenwood.zh.md §三.2: the dusk marker before passing
    for seat in (0, 1):
        table.submit(Pass(seat=seat))
    assert table.presenter.snapshot("en").phase.name == "night"
    table.hint_seconds = 0.3
    assert table.take_back() is None  # it asks
    asked = table.presenter.snapshot("zh")
    assert asked.moves == 4 and asked.hint is not None and asked.hint.kind == "undo_again"
    assert asked.hint.text == "撤销会回到上一阶段(第1轮 黄昏):再按一次撤销"
    time.sleep(0.6)  # the question times out: the next press asks again
    assert table.presenter.snapshot("zh").hint is None
    assert table.take_back() is None and table.presenter.snapshot("zh").moves == 4
    assert table.take_back() is not None  # the second press while it asks
    back = table.presenter.snapshot("zh")
    assert back.moves == 3 and back.phase.name == "dusk"
    assert back.recent[0].text == "撤销了:2号玩家 本阶段结束"


def test_the_next_line_names_the_end_not_a_cards_effect_when_no_main_action_is_open(
    table: Table,
) -> None:
    """When a player's main actions are all greyed and only what a card says (behind the
    console's one "card effect…" entry) remains besides ending the turn, the line says to end
    the night when done: it named "gain victory points, pay victory points…" (greenwood.zh.md
    §三.13: a player who cannot or will not use another token ends their night)."""
    rnd, met = random.Random(5), 0
    for _ in range(400):
        snap = table.presenter.snapshot("en")
        group = next((g for g in snap.console.groups if any(o["ok"] for o in g.offers)), None)
        if group is None:
            break
        open_ = [o for o in group.offers if o["ok"]]
        effects = [o for o in open_ if o["kind"] == "card_effect"]
        others = [o for o in open_ if o["kind"] not in ("card_effect", "core", "final")]
        ending = [o for o in open_ if o["kind"] == "core"]
        if effects and ending and not others:
            met += 1
            assert not any(o["label"].split(" (")[0] in snap.next for o in effects), snap.next
            assert ending[0]["label"].split(" (")[0] in snap.next, snap.next
        move = sample(offers(table.saved.session.game, table.saved.session.state), rnd)
        if move is None:
            break
        table.submit(move)
    assert met > 0


def test_undoing_the_tables_confirm_names_the_step_it_went_past(tmp_path) -> None:
    """issue #38: a table step's undo said "撤销了:全桌 确认 / 下一步" without the step; it
    names the phase or step the confirm went past (dont-starve.zh.md §回合流程: after the
    action phase the table confirms its phases)."""
    store = Store.open(tmp_path / "s.db")
    options = {"characters": ["wilson"], "scenario": "a_new_beginning", "draws": "virtual"}
    table = Table(store.new_game("s", "dont_starve", options, 4))
    for _ in range(30):  # the action dial turned down by ending turns, to a table phase
        if legal(table.saved.game, table.saved.session.state, Advance()).ok:
            break
        assert table.submit(Pass(seat=0)).accepted
    before = table.presenter.snapshot("zh")
    assert legal(table.saved.game, table.saved.session.state, Advance()).ok, before.phase.name
    step = (
        before.step.title if before.step is not None and before.step.of > 1 else before.phase.title
    )
    assert table.submit(Advance()).accepted
    if table.take_back() is None:  # it went past a phase: the second press undoes
        assert table.take_back() is not None
    said = table.presenter.snapshot("zh").hint
    assert said is not None and said.kind == "undone"
    assert said.text.startswith("撤销了:全桌") and step in said.text, said.text


def test_undo_asks_before_it_takes_a_game_out_of_its_end(tmp_path) -> None:
    """issue #38: after the end, the first press silently took the game out of its end; it asks
    first, and only the second press while it asks undoes (dont-starve.zh.md §剧本结束)."""
    store = Store.open(tmp_path / "d.db")
    options = {"characters": ["wilson"], "scenario": "a_new_beginning", "draws": "virtual"}
    table = Table(store.new_game("d", "dont_starve", options, 4))
    end = move_from_dict({"type": "dont_starve.scenario_end", "seat": 0, "result": "win"})
    assert table.submit(end).accepted
    assert table.saved.session.state.outcome is not None
    moves = len(table.saved.session.moves)
    assert table.take_back() is None  # it asks
    asked = table.presenter.snapshot("en")
    assert asked.hint is not None and asked.hint.kind == "undo_end"
    assert "takes it out of its end" in asked.hint.text
    assert len(table.saved.session.moves) == moves and table.saved.session.state.outcome
    assert table.take_back() is not None  # the second press while it asks
    assert table.saved.session.state.outcome is None
