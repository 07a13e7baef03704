"""Greenwood's threats come from the table (draws "table", docs/box.md): the engine draws none,
the table gives each card turned up by its name, checked (greenwood.zh.md §一.3)."""

from __future__ import annotations

from engine.core import Session, find_game, offers
from engine.core.box import Box, demo_files, merged
from engine.greenwood.catalogue import FILES, PACKAGE, catalogue
from engine.greenwood.moves import PlaceDuskMarker, ThreatDrawn

GAME = find_game("greenwood")


def names(session: Session) -> list[str]:
    return [t.name for t in catalogue(session.state).threats]


def test_no_threat_is_announced_before_the_table_gives_it() -> None:
    """§一.3: one threat face up for round 1; with draws "table" it is the one the table turned."""
    session = Session(GAME, {"players": 2})
    assert session.state.data.threats == ()
    assert not any(e.type == "greenwood.threat_revealed" for e in session.start_events)
    marker = PlaceDuskMarker(seat=0, effect="recruit")
    assert session.submit(marker).verdict.code == "greenwood.threat_due"
    (group, *_) = offers(GAME, session.state)
    (offer,) = [o for o in group.offers if o.move == "greenwood.threat_drawn"]
    assert {o.values[0] for o in offer.options} == set(names(session))
    assert all("(demo box)" in c.label.en for c in offer.fields[0].choices)
    given = names(session)[6]
    result = session.submit(ThreatDrawn(seat=1, threat=given))
    assert result.accepted
    assert [(e.type, e.name) for e in result.events] == [("greenwood.threat_revealed", given)]
    assert session.submit(marker).accepted  # the dusk goes on


def test_what_the_table_gives_is_checked() -> None:
    """§一.3: a card of the box, not one already on the board, and only when one is due."""
    session = Session(GAME, {"players": 2})
    assert session.submit(ThreatDrawn(seat=0, threat="gold")).verdict.code == (
        "greenwood.no_such_threat"
    )
    assert session.submit(ThreatDrawn(seat=0, threat=names(session)[0])).accepted
    again = session.submit(ThreatDrawn(seat=0, threat=names(session)[1]))
    assert again.verdict.code == "greenwood.no_threat_due"


def test_an_owners_threat_is_not_called_the_demos() -> None:
    demo = demo_files(PACKAGE, FILES)
    threat = dict(demo["tracks.toml"]["threat"][0])
    threat.pop("placeholder", None)
    item = f"tracks/threat/{threat['name']}"
    box = Box.of("greenwood", merged(demo, {item: threat}), [item])
    session = Session(GAME, {"players": 2, "box": box})
    (group, *_) = offers(GAME, session.state)
    (offer,) = [o for o in group.offers if o.move == "greenwood.threat_drawn"]
    labels = {c.value: c.label.en for c in offer.fields[0].choices}
    assert "(demo box)" not in labels[threat["name"]]
    assert all("(demo box)" in v for k, v in labels.items() if k != threat["name"])


def test_virtual_draws_and_the_tutorial_order_are_as_before() -> None:
    """§一.3: the tutorial threats 1–5 in order; the seeded deck gives five at once."""
    tutorial = Session(GAME, {"players": 2, "tutorial_threats": True})
    assert tutorial.state.data.threats == (0, 1, 2, 3, 4)
    virtual = Session(GAME, {"players": 2, "draws": "virtual"}, seed=5)
    assert len(virtual.state.data.threats) == 5 and virtual.state.data.threats_due == 0
    assert GAME.in_progress(virtual.state) is None
