"""The presenter (issue 23): one typed, immutable snapshot per change and language, built once
whoever reads it, and one diff per change that every live viewer is sent."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine.core import Pass, Text
from kiosk.presenter import Presenter, Snapshot
from kiosk.routers.live import message
from kiosk.store import Store
from kiosk.table import Table


@pytest.fixture
def table(tmp_path) -> Table:
    store = Store.open(tmp_path / "t.db")
    return Table(store.new_game("p", "greenwood", None, 0))


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
    first = presenter.frame("en")
    table.submit(Pass(seat=0))
    frame = presenter.frame("en")
    assert frame.base == first.seq and "seq" in frame.changed and "moves" in frame.changed
    assert "title" not in frame.changed and "phases" not in frame.changed
    change = json.loads(frame.change_body)
    assert (
        change["moves"] == 1
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
