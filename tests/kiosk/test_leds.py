"""The round track and the dice trays for the table's facts (kiosk/leds.py: ``TrackFacts``)."""

from __future__ import annotations

from dataclasses import replace

from firmware_bridge.state import Effect, Led
from kiosk.leds import (
    ACCENT_COLOURS,
    DIE_COLOURS,
    DONE_COLOUR,
    MARK_COLOUR,
    PHASE_COLOUR,
    SEAT_COLOURS,
    TRACK_COLOUR,
    TrackFacts,
    track_facts,
    track_leds,
    track_legend,
    tray_leds,
)
from kiosk.seats import COLOURS

PHASES = ("dusk", "departure", "night", "dawn", "upkeep", "scoring")


def status(
    round_: int, rounds: int | None, phase: str, player: int | None = None, view=None
) -> TrackFacts:
    """The LEDs' facts of a table: ``player`` from 1 (None: nobody in particular acts),
    ``view`` the game's view (its ``track``)."""
    track = (view or {}).get("track") or {}
    return TrackFacts(
        round=round_,
        rounds=rounds,
        phases=PHASES,
        phase=phase,
        acting=None if player is None else player - 1,
        accent=track.get("accent"),
        mark_round=track.get("mark_round"),
    )


def lit(leds: list[Led]) -> dict[int, tuple]:
    return {
        i: (led.colour, led.effect) for i, led in enumerate(leds) if led.effect is not Effect.OFF
    }


def test_round_two_of_three_at_night_with_player_two_to_act() -> None:
    """Greenwood, issue #5: the track shows the round, the phase and the active player's colour."""
    leds = track_leds(status(2, 3, "night", player=2), 24)
    assert lit(leds) == {
        0: (DONE_COLOUR, Effect.SOLID),  # round 1 over
        1: (TRACK_COLOUR, Effect.PULSE),  # round 2 now
        4: (DONE_COLOUR, Effect.SOLID),  # dusk over (phases start after 3 rounds and the accent)
        5: (DONE_COLOUR, Effect.SOLID),  # departure over
        6: (SEAT_COLOURS[1], Effect.SOLID),  # night, player 2 (blue) to act
    }


def test_a_phase_nobody_in_particular_plays_is_white_and_the_accent_shows_day_or_night() -> None:
    """Don't Starve, issue #6: day or night on the track."""
    leds = track_leds(status(1, 6, "dusk", view={"track": {"accent": "night"}}), 24)
    assert lit(leds) == {
        0: (TRACK_COLOUR, Effect.PULSE),
        6: (ACCENT_COLOURS["night"], Effect.SOLID),
        7: (PHASE_COLOUR, Effect.SOLID),
    }


def test_the_active_player_is_lit_in_the_colour_chosen_at_set_up() -> None:
    """Issue 13: player 2 chose purple, so the phase LED is purple, not the default blue."""
    chosen = replace(status(2, 3, "night", player=2), colours=("orange", "purple"))
    assert lit(track_leds(chosen, 24))[6] == (COLOURS["purple"].led, Effect.SOLID)
    unknown = replace(chosen, colours=("orange", "mauve"))
    assert lit(track_leds(unknown, 24))[6] == (SEAT_COLOURS[1], Effect.SOLID)  # falls back


def test_the_legend_names_every_led_of_the_same_layout() -> None:
    """The tray page's legend says what each LED stands for, LED by LED."""
    st = status(2, 6, "night", player=1, view={"track": {"accent": "day", "mark_round": 5}})
    legend = track_legend(st, 24)
    assert len(legend) == 24
    assert [r["state"] for r in legend[:6]] == [
        "past",
        "current",
        "coming",
        "coming",
        "mark",
        "coming",
    ]
    assert legend[6] == {"kind": "accent", "accent": "day"}
    assert [r["phase"] for r in legend[7:13]] == list(PHASES)
    assert legend[9] == {"kind": "phase", "phase": "night", "state": "current", "seat": 0}
    assert legend[13:] == [{"kind": "unused"}] * 11
    leds = track_leds(st, 24)
    for led, role in zip(leds, legend, strict=False):  # lit exactly where the legend says so
        assert (led.effect is not Effect.OFF) == (
            role.get("state") in ("past", "current", "mark") or role.get("accent") is not None
        )


def test_what_does_not_fit_is_left_out_phases_first() -> None:
    assert len(track_leds(status(2, 6, "night"), 8)) == 7  # 6 rounds + accent; no room for phases
    assert lit(track_leds(status(2, 6, "night"), 3)) == {
        0: (DONE_COLOUR, Effect.SOLID),
        1: (TRACK_COLOUR, Effect.PULSE),
    }


def test_an_open_ended_game_shows_the_rounds_played_so_far() -> None:
    leds = track_leds(status(4, None, "dawn"), 24)
    assert [i for i, _ in lit(leds).items() if i < 4] == [0, 1, 2, 3]
    assert leds[3] == Led(TRACK_COLOUR, Effect.PULSE, 1200)


def test_the_dice_pool_spreads_over_the_trays_in_order() -> None:
    trays = tray_leds(["monster", "d6", "d6"], trays=2, slots=2)
    assert trays == [
        [Led(DIE_COLOURS["monster"]), Led(DIE_COLOURS["d6"])],
        [Led(DIE_COLOURS["d6"])],
    ]


def test_a_coming_round_the_game_marks_blinks_until_it_comes() -> None:
    """Don't Starve, issue #6: the storm's position on the round track."""
    view = {"track": {"mark_round": 4}}
    assert lit(track_leds(status(2, 6, "dawn", view=view), 24))[3] == (MARK_COLOUR, Effect.BLINK)
    now = lit(track_leds(status(4, 6, "dawn", view=view), 24))
    assert now[3] == (TRACK_COLOUR, Effect.PULSE)  # the storm has come: it is this round


def test_the_leds_follow_the_engine_and_the_table_never_the_screen_words(tmp_path) -> None:
    """Issue 23: the LEDs read the state and the table's facts: the phases' code names, the
    acting seat, the seats' colours, the game's track marks and the dice pool announced (Don't
    Starve's example game, up to its first fight)."""
    import json
    from pathlib import Path

    from engine.core import move_from_dict
    from kiosk.store import Store
    from kiosk.table import Table

    lines = Path(__file__).parents[2].joinpath("docs/examples/dont_starve.jsonl").read_text()
    head, *moves = [json.loads(line) for line in lines.splitlines()]
    setup = dict(head["setup"])
    store = Store.open(tmp_path / "t.db")
    table = Table(store.new_game("leds", "dont_starve", setup, head["seed"]))
    facts = track_facts(table.facts())
    state = table.saved.session.state
    assert facts.phases == tuple(p.name for p in table.saved.game.phases)
    assert (facts.phase, facts.acting, facts.round) == (
        state.flow.phase,
        state.flow.current,
        state.flow.round,
    )
    assert facts.colours == tuple(s.colour for s in table.saved.seats)
    assert facts.accent in ACCENT_COLOURS and isinstance(facts.mark_round, int)  # day, storm
    assert facts.dice == ()
    for move in moves:
        assert table.submit(move_from_dict(move)).accepted
        if table.facts().dice is not None:
            break
    pool = table.facts().dice
    assert pool is not None and pool["dice"]
    assert track_facts(table.facts()).dice == tuple(pool["dice"])
