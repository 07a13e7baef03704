"""The kiosk app in process (httpx's ASGI transport): controls, pairing, validation, headers,
and a game the kiosk has never seen drawn from its data."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, ClassVar, Literal

import pytest
from fastapi import FastAPI
from serving import LOCAL, PHONE
from serving import asgi_call as call

from engine.core import (
    DicePoolAnnounced,
    Game,
    Options,
    Phase,
    Step,
    Text,
    TurnOrder,
    find_game,
    register_game,
)
from engine.greenwood.game import GreenwoodOptions
from kiosk.app import MAX_BODY_BYTES, create_app
from kiosk.deps import get_table
from kiosk.pairing import FREE_TRIES, PAIRING_HEADER, Pairing
from kiosk.seats import COLOURS, MAX_NAME
from kiosk.settings import KIOSK_FILE, SettingsError, apply_kiosk_changes, load_settings
from kiosk.table import open_table

CODE = "246810"


def marker(seat: int) -> dict[str, Any]:
    """A Greenwood dusk marker, laid before a seat may pass dusk (greenwood.zh.md §三.2)."""
    return {"type": "greenwood.dusk_marker", "seat": seat, "effect": "recruit"}


# --- a game the kiosk knows nothing about -----------------------------------------------------


@dataclass(frozen=True)
class DemoOptions(Options):
    players: int = 2
    colour: Literal["red", "blue"] = "red"
    dice: int = 3
    seed_bag: int | None = None
    heroes: tuple[str, ...] | str | None = None


def announce(state: Any) -> tuple[Any, tuple]:
    return state, (DicePoolAnnounced(None, ("d6",) * state.options.dice, "demo roll"),)


class Demo(Game):
    name: ClassVar[str] = "kiosk_demo"
    title: ClassVar[Text] = Text("演示", "Demo game")
    options_type: ClassVar[type[Options]] = DemoOptions
    rounds: ClassVar[int | None] = 4
    phases: ClassVar[tuple[Phase, ...]] = (
        Phase(
            "roll",
            Text("掷骰", "Roll"),
            steps=(Step("gather", Text("集合", "Gather")), Step("throw", Text("投掷", "Throw"))),
            on_begin=announce,
            starts_round=True,
        ),
        Phase("act", Text("行动", "Act"), TurnOrder.CLOCKWISE, next="roll"),
    )

    def view(self, state: Any, lang: str) -> dict[str, Any]:
        colour = "颜色" if lang == "zh" else "colour"
        return {
            "summary": [[colour, state.options.colour]],
            "players": [
                {"seat": s, "name": f"P{s + 1}", "fields": [["gold", s]]} for s in state.seats
            ],
        }


register_game(Demo())


# --- helpers -------------------------------------------------------------------------------------


@pytest.fixture
def app(tmp_path: Path) -> Iterator[FastAPI]:
    settings = load_settings(data_dir=tmp_path, lang="en", lan=True)
    table, store = open_table(settings)
    # The threats from the engine's seeded deck: these tests start from Dusk (docs/box.md).
    table.new_game("greenwood", {"draws": "virtual"}, table.saved.name + "-virtual")
    try:
        yield create_app(settings, table, pairing=Pairing(code=CODE))
    finally:
        store.close()


def moves(app: FastAPI) -> int:
    return call(app, "GET", "/api/status").json()["moves"]


CONTROLS = [
    ("/api/advance", {}),
    ("/api/undo", {}),
    ("/api/move", {"type": "pass", "seat": 0}),
    ("/api/menu", {"open": True}),
    ("/api/new-game", {"game": "greenwood", "players": 3}),
    ("/api/settings", {"lang": "zh"}),
]


# --- pairing -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "body"), CONTROLS)
def test_a_control_from_another_host_without_the_code_is_refused_and_changes_nothing(
    app: FastAPI, path: str, body: dict
) -> None:
    before = call(app, "GET", "/api/status").json()
    refused = call(app, "POST", path, json=body, client=PHONE)
    assert refused.status_code == 403
    assert "pairing code" in refused.json()["detail"]
    wrong = call(app, "POST", path, json=body, client=PHONE, headers={PAIRING_HEADER: "000000"})
    assert wrong.status_code == 403
    after = call(app, "GET", "/api/status").json()
    for key in ("save", "moves", "menu", "phase", "settings"):
        assert after[key] == before[key], key


def test_with_the_pairing_code_a_phone_may_control_the_table(app: FastAPI) -> None:
    answer = call(
        app,
        "POST",
        "/api/move",
        json=marker(0),
        client=PHONE,
        headers={PAIRING_HEADER: CODE},
    )
    assert answer.status_code == 200 and answer.json()["accepted"]
    assert moves(app) == 1
    assert call(app, "POST", "/api/undo", client=PHONE, headers={PAIRING_HEADER: CODE}).is_success
    assert moves(app) == 0


def test_the_code_is_shown_on_the_kiosk_only_and_kept_whatever_another_device_guesses(
    app: FastAPI,
) -> None:
    assert call(app, "GET", "/api/status").json()["control"] == {
        "local": True,
        "lan": True,
        "code": CODE,
    }
    phone_view = call(app, "GET", "/api/status", client=PHONE).json()["control"]
    assert phone_view["code"] is None and not phone_view["local"]
    paired = ("192.168.1.21", 5000)
    first = call(app, "POST", "/api/menu", json={}, client=paired, headers={PAIRING_HEADER: CODE})
    assert first.status_code == 200
    for n in range(FREE_TRIES + 1):  # wrong codes until the guesser must wait (429)
        call(app, "POST", "/api/advance", client=PHONE, headers={PAIRING_HEADER: f"{n:06d}"})
    assert call(app, "GET", "/api/status").json()["control"]["code"] == CODE
    kept = call(app, "POST", "/api/menu", json={}, client=paired, headers={PAIRING_HEADER: CODE})
    assert kept.status_code == 200
    held = call(app, "POST", "/api/menu", json={}, client=PHONE, headers={PAIRING_HEADER: CODE})
    assert held.status_code == 429 and int(held.headers["retry-after"]) > 0


def test_phones_may_read_every_page_without_a_code(app: FastAPI) -> None:
    for path in (
        "/",
        "/setup",
        "/settings",
        "/tray",
        "/camera",
        "/calibrate",
        "/api/status",
        "/api/offers",
        "/api/games",
        "/api/tray",
        "/static/table.js",
    ):
        assert call(app, "GET", path, client=PHONE).status_code == 200, path


def test_a_phone_reads_the_offers_in_its_language_and_moves_only_when_paired(app: FastAPI) -> None:
    """The console's offers are for everyone to read; a move from a phone needs the code."""
    zh = call(app, "GET", "/api/offers?lang=zh", client=PHONE).json()
    en = call(app, "GET", "/api/offers?lang=en", client=PHONE).json()
    assert [g["name"] for g in zh["groups"]] == ["1号玩家", "2号玩家"]
    assert [g["name"] for g in en["groups"]] == ["Player 1", "Player 2"]
    assert call(app, "POST", "/api/move", json=marker(0)).json()["accepted"]  # at the kiosk
    en = call(app, "GET", "/api/offers?lang=en", client=PHONE).json()
    done = next(o for o in en["groups"][0]["offers"] if o["move"] == "pass")
    assert done["label"] == "Done for this phase" and done["ok"]
    move = {"type": "pass", "seat": 0}
    assert call(app, "POST", "/api/move", json=move, client=PHONE).status_code == 403
    assert moves(app) == 1
    paired = call(app, "POST", "/api/move", json=move, client=PHONE, headers={PAIRING_HEADER: CODE})
    assert paired.json()["accepted"] and moves(app) == 2
    after = call(app, "GET", "/api/offers?lang=en", client=PHONE).json()
    assert [g["seat"] for g in after["groups"]] == [1] and after["moves"] == 2


def test_check_answers_whether_a_move_may_be_made_and_changes_nothing(app: FastAPI) -> None:
    refused = call(
        app, "POST", "/api/check?lang=en", json={"type": "pass", "seat": 5}, client=PHONE
    )
    assert refused.status_code == 200 and not refused.json()["accepted"]
    assert refused.json()["code"] == "core.no_such_seat"
    ok = call(app, "POST", "/api/check", json=marker(0), client=PHONE)
    assert ok.json()["accepted"] and moves(app) == 0
    assert call(app, "POST", "/api/check", json={"type": "nope"}).status_code == 400


# --- validation, limits, headers -----------------------------------------------------------------


def test_every_answer_carries_the_content_security_policy(app: FastAPI) -> None:
    for method, path, client in [
        ("GET", "/", LOCAL),
        ("GET", "/api/status", LOCAL),
        ("GET", "/static/style.css", LOCAL),
        ("GET", "/no/such/page", LOCAL),
        ("POST", "/api/advance", PHONE),
    ]:
        response = call(app, method, path, client=client)
        csp = response.headers.get("content-security-policy", "")
        assert "default-src 'self'" in csp and "script-src 'self'" in csp, path
        assert "unsafe-inline" not in csp
        assert response.headers["x-content-type-options"] == "nosniff"


def test_an_oversized_body_is_refused_before_it_is_read(app: FastAPI) -> None:
    padding = "x" * (MAX_BODY_BYTES + 1)
    answer = call(app, "POST", "/api/move", json={"type": "pass", "seat": 0, "pad": padding})
    assert answer.status_code == 413
    assert moves(app) == 0


@pytest.mark.parametrize(
    ("path", "body", "status", "says"),
    [
        ("/api/new-game", {"game": "greenwood"}, 422, "players"),
        ("/api/new-game", {"game": "greenwood", "players": 2, "colour": "red"}, 422, "colour"),
        ("/api/new-game", {"game": "greenwood", "players": 9}, 422, "players"),
        ("/api/new-game", {"game": "chess", "players": 2}, 400, "no game called 'chess'"),
        (
            "/api/new-game",
            {"game": "greenwood", "players": 2, "options": {"x": 1}},
            400,
            "no option",
        ),
        (
            "/api/new-game",
            {"game": "greenwood", "players": 2, "options": {"mode": "x"}},
            400,
            "mode",
        ),
        ("/api/move", {"type": "no_such_move"}, 400, "no_such_move"),
        ("/api/move", {"type": "pass", "seat": "north"}, 400, "seat"),
        ("/api/settings", {"brightness": 101}, 422, "brightness"),
        ("/api/settings", {"stability": {"add_ms": -1}}, 422, "add_ms"),
        ("/api/settings", {"volume": 3}, 422, "volume"),
    ],
)
def test_a_bad_request_gets_a_readable_answer_and_changes_nothing(
    app: FastAPI, path: str, body: dict, status: int, says: str
) -> None:
    before = call(app, "GET", "/api/status").json()
    answer = call(app, "POST", path, json=body)
    assert answer.status_code == status
    assert says in answer.text
    assert "Traceback" not in answer.text
    after = call(app, "GET", "/api/status").json()
    assert (after["save"], after["moves"], after["settings"]) == (
        before["save"],
        before["moves"],
        before["settings"],
    )


def test_malformed_json_is_a_422_not_a_crash(app: FastAPI) -> None:
    answer = call(
        app, "POST", "/api/move", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert answer.status_code == 422


def test_an_internal_error_reaches_the_client_without_a_stack_trace(app: FastAPI) -> None:
    def broken() -> None:
        raise RuntimeError("secret detail from deep inside")

    app.dependency_overrides[get_table] = broken
    answer = call(app, "GET", "/api/status")
    assert answer.status_code == 500
    assert "secret detail" not in answer.text and "Traceback" not in answer.text
    assert answer.json() == {"detail": "internal error; the service log has the details"}


def test_undo_with_nothing_to_undo_is_a_clear_conflict(app: FastAPI) -> None:
    answer = call(app, "POST", "/api/undo")
    assert answer.status_code == 409 and "no move to undo" in answer.json()["detail"]


# --- setup and settings --------------------------------------------------------------------------


def test_the_setup_form_is_generated_from_each_games_options_dataclass(app: FastAPI) -> None:
    games = {g["name"]: g for g in call(app, "GET", "/api/games").json()}
    assert {"greenwood", "kiosk_demo"} <= set(games)
    names = [f["name"] for f in games["greenwood"]["options"]]
    assert names == [f.name for f in fields(GreenwoodOptions) if f.name not in ("players", "box")]
    demo = {f["name"]: f for f in games["kiosk_demo"]["options"]}
    assert demo["colour"] == {
        "name": "colour",
        "label": "Colour",  # the demo game has no texts: its field name, humanised
        "kind": "choice",
        "choices": [{"value": "red", "label": "red"}, {"value": "blue", "label": "blue"}],
        "optional": False,
        "default": "red",
        "seat": False,
    }
    assert demo["dice"]["kind"] == "int" and demo["seed_bag"]["optional"]
    assert demo["heroes"]["kind"] == "list" and demo["heroes"]["optional"]
    assert demo["heroes"]["choices"] is None and demo["seed_bag"]["label"] == "Seed bag"


def test_the_games_name_their_options_and_values_in_the_language_asked(app: FastAPI) -> None:
    """Labels come from each game's ``option_texts``; a list of names offers its names; a text
    field whose values the game names becomes a choice; an int naming a seat says so."""
    zh = {g["name"]: g for g in call(app, "GET", "/api/games?lang=zh").json()}
    en = {g["name"]: g for g in call(app, "GET", "/api/games?lang=en").json()}
    for games, lang in ((zh, "zh"), (en, "en")):
        for name in ("greenwood", "dont_starve"):
            game = find_game(name)
            assert games[name]["players_label"] == game.option_texts["players"].in_(lang)
            for option in games[name]["options"]:
                assert option["label"] == game.option_texts[option["name"]].in_(lang)
                for choice in option["choices"] or []:
                    key = f"{option['name']}={choice['value']}"
                    assert choice["label"] == game.option_texts[key].in_(lang), key
    ds = {o["name"]: o for o in en["dont_starve"]["options"]}
    assert ds["characters"]["kind"] == "list"
    assert [c["label"] for c in ds["characters"]["choices"]] == [
        "Wilson",
        "Willow",
        "Wendy",
        "Webber",
    ]
    assert ds["scenario"]["kind"] == "choice"
    assert {"value": "a_new_beginning", "label": "A New Beginning"} in ds["scenario"]["choices"]
    gw = {o["name"]: o for o in zh["greenwood"]["options"]}
    assert gw["layout"]["choices"][0] == {"value": 0, "label": "0号布局(较简单)"}
    assert gw["start_seat"]["seat"] and gw["start_seat"]["kind"] == "int"


def test_each_game_has_a_checklist_the_camera_confirms_where_it_can(app: FastAPI) -> None:
    games = {g["name"]: g for g in call(app, "GET", "/api/games?lang=zh").json()}
    checks = {c["key"]: c for c in games["greenwood"]["checklist"]}
    assert checks["anchors"]["tags"] == {"0": 1, "1": 2, "2": 3, "3": 4}
    assert checks["anchors"]["need"] == 4 and checks["anchors"]["label"] == "桌角的 4 个定位标记"
    boards = checks["submarines"]
    assert boards["camera"] and boards["per_player"] and len(set(boards["tags"].values())) == 8
    assert not checks["rest"]["camera"] and checks["rest"]["tags"] is None
    for game in games.values():
        assert game["checklist"][0]["key"] == "anchors" and game["checklist"][-1]["key"] == "rest"


def test_the_colours_players_choose_from_are_named_in_each_language(app: FastAPI) -> None:
    zh = call(app, "GET", "/api/colours?lang=zh").json()
    en = call(app, "GET", "/api/colours?lang=en").json()
    assert [c["key"] for c in zh["colours"]] == list(COLOURS)
    assert zh["colours"][0] == {"key": "red", "name": "红", "hex": COLOURS["red"].hex}
    assert en["colours"][0]["name"] == "red" and en["max_name"] == MAX_NAME


def test_a_new_game_starts_with_its_options_and_the_old_one_stays_saved(app: FastAPI) -> None:
    first = call(app, "GET", "/api/status").json()["save"]
    answer = call(
        app,
        "POST",
        "/api/new-game",
        json={
            "game": "greenwood",
            "players": 3,
            "options": {"mode": "clan", "start_seat": 2},
            "name": "friday",
        },
    )
    assert answer.json() == {"save": "friday", "game": "greenwood"}
    status = call(app, "GET", "/api/status").json()
    assert status["save"] == "friday" and status["players"] == 3 and status["start_player"] == 3
    taken = call(
        app, "POST", "/api/new-game", json={"game": "greenwood", "players": 2, "name": first}
    )
    assert taken.status_code == 400 and "exists already" in taken.json()["detail"]


def test_settings_change_the_language_and_the_stability_timing(app: FastAPI) -> None:
    answer = call(
        app,
        "POST",
        "/api/settings",
        json={"lang": "zh", "brightness": 30, "sound": False, "stability": {"add_ms": 250}},
    )
    assert answer.json()["stability"] == {"add_ms": 250.0, "remove_ms": 1500.0}
    status = call(app, "GET", "/api/status").json()
    assert status["lang"] == "zh" and status["phase"]["title"] == "黄昏"
    assert status["settings"] == {"lang": "zh", "brightness": 30, "sound": False}
    assert app.state.settings.stabiliser.add_ms == 250.0
    inverted = call(app, "POST", "/api/settings", json={"stability": {"add_ms": 0}})
    assert inverted.is_success


# --- a game the kiosk has never seen ------------------------------------------------------------


def test_a_game_that_lands_later_is_drawn_from_its_data(app: FastAPI) -> None:
    call(
        app,
        "POST",
        "/api/new-game",
        json={
            "game": "kiosk_demo",
            "players": 2,
            "options": {"colour": "blue", "dice": 4, "heroes": ["wilson", "willow"]},
        },
    )
    status = call(app, "GET", "/api/status").json()
    assert app.state.table.saved.session.options.heroes == ("wilson", "willow")
    assert status["title"] == "Demo game" and status["rounds"] == 4
    assert [p["name"] for p in status["phases"]] == ["roll", "act"]
    assert status["step"] == {"name": "gather", "title": "Gather", "index": 1, "of": 2}
    assert status["dice"] == {"seat": None, "dice": ["d6"] * 4, "text": "Roll: d6 d6 d6 d6"}
    assert status["view"]["summary"] == [["colour", "blue"]]
    assert call(app, "POST", "/api/advance").json()["accepted"]
    status = call(app, "GET", "/api/status").json()
    assert status["step"]["title"] == "Throw"
    assert status["recent"][0]["text"] == "Step 2: Throw"
    zh = call(app, "GET", "/api/status?lang=zh").json()
    assert zh["step"]["title"] == "投掷" and zh["view"]["summary"] == [["颜色", "blue"]]


def test_undo_and_a_restart_keep_the_dice_pool_and_the_log(app: FastAPI, tmp_path: Path) -> None:
    call(app, "POST", "/api/new-game", json={"game": "kiosk_demo", "players": 2, "name": "d"})
    for _ in range(2):
        call(app, "POST", "/api/advance")
    call(app, "POST", "/api/move", json={"type": "pass", "seat": 0})
    before = call(app, "GET", "/api/status").json()
    assert before["phase"]["name"] == "act" and before["moves"] == 3
    settings = load_settings(data_dir=tmp_path, lang="en", save="d")
    table, store = open_table(settings)
    try:
        again = table.status("en")
        for key in ("phase", "step", "round", "dice", "moves"):
            assert again[key] == before[key], key
        assert [e["text"] for e in again["recent"]] == [e["text"] for e in before["recent"]]
    finally:
        store.close()
    call(app, "POST", "/api/undo")
    undone = call(app, "GET", "/api/status").json()
    assert undone["moves"] == 2 and undone["dice"] == before["dice"]
    assert undone["recent"][0]["text"] != before["recent"][0]["text"]


def test_a_refused_move_is_shown_with_its_reason_and_no_pass_is_lost(app: FastAPI) -> None:
    call(app, "POST", "/api/move", json=marker(0))
    call(app, "POST", "/api/move", json={"type": "pass", "seat": 0})
    call(app, "POST", "/api/move", json={"type": "pass", "seat": 5})
    status = call(app, "GET", "/api/status").json()
    assert "player 6" in status["refusal"]["why"] and status["refusal"]["who"] == "Someone"
    assert (
        status["recent"][0]["type"] == "move_rejected" and "player 6" in status["recent"][0]["text"]
    )
    assert status["moves"] == 2  # the accepted marker and pass before it are kept
    call(app, "POST", "/api/move", json=marker(1))
    assert call(app, "GET", "/api/status").json()["refusal"] is None  # gone once a move lands


def test_a_failing_listener_does_not_stop_a_move_or_the_other_listeners(app: FastAPI) -> None:
    heard: list[int] = []

    def broken(change: object) -> None:
        raise RuntimeError("a screen went away badly")

    app.state.table.listen(broken)
    app.state.table.listen(lambda change: heard.append(change.seq))
    answer = call(app, "POST", "/api/move", json=marker(0))
    assert answer.status_code == 200 and answer.json()["accepted"]
    assert heard and moves(app) == 1


def test_settings_from_the_page_are_kept_for_the_next_start_but_flags_and_env_win(
    app: FastAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = call(
        app,
        "POST",
        "/api/settings",
        json={"lang": "zh", "brightness": 30, "stability": {"remove_ms": 900}},
    )
    assert answer.is_success
    later = load_settings(data_dir=tmp_path)
    assert apply_kiosk_changes(later) is None
    assert (later.lang, later.brightness, later.stabiliser.remove_ms) == ("zh", 30, 900)
    flagged = load_settings(data_dir=tmp_path, lang="en")
    apply_kiosk_changes(flagged, given={"lang"})
    assert (flagged.lang, flagged.brightness) == ("en", 30)
    monkeypatch.setenv("TABLESIGHT_BRIGHTNESS", "80")
    from_env = load_settings(data_dir=tmp_path)
    apply_kiosk_changes(from_env)
    assert (from_env.lang, from_env.brightness) == ("zh", 80)


def test_a_damaged_saved_settings_file_is_named_and_ignored(tmp_path: Path) -> None:
    (tmp_path / KIOSK_FILE).write_text('{"lang": "fr", "brightness": 30}')
    settings = load_settings(data_dir=tmp_path, lang="en")
    problem = apply_kiosk_changes(settings)
    assert problem is not None and "the language and the brightness was lost" in problem.en
    assert KIOSK_FILE not in problem.en + problem.zh  # player words, no file names
    assert (settings.lang, settings.brightness) == ("en", 60)
    assert [p.name.startswith(f"{KIOSK_FILE}.damaged-") for p in tmp_path.iterdir()].count(True)


def test_a_fixed_pairing_code_comes_from_the_settings_and_must_be_six_digits(
    tmp_path: Path,
) -> None:
    settings = load_settings(data_dir=tmp_path, pairing_code="135790")
    table, store = open_table(settings)
    try:
        assert create_app(settings, table).state.pairing.code == "135790"
    finally:
        store.close()
    with pytest.raises(SettingsError, match="pairing_code"):
        load_settings(data_dir=tmp_path, pairing_code="12ab")


def test_a_game_whose_picture_fails_keeps_its_screen(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A bug in a game's drawing of the board costs the picture, not the status (the page)."""
    game = type(app.state.table.saved.session.game)

    def broken(self: object, state: object, lang: str, refused: object = None) -> None:
        raise ValueError("a cell outside the grid")

    monkeypatch.setattr(game, "picture", broken)
    answer = call(app, "GET", "/api/status")
    assert answer.status_code == 200 and answer.json()["picture"] is None
    assert "the picture of the board failed" in caplog.text


def test_players_chosen_names_and_colours_are_used_wherever_a_seat_is_named(app: FastAPI) -> None:
    """The names and colours chosen at set-up replace "player N" on the console (groups,
    labels, greyed reasons), in the log and in the line of what to do now."""
    answer = call(
        app,
        "POST",
        "/api/new-game",
        json={
            "game": "greenwood",
            "players": 2,
            "options": {"start_seat": 0, "draws": "virtual"},
            "seats": [{"name": "Ann", "colour": "green"}, {"name": "Bo", "colour": "red"}],
        },
    )
    assert answer.status_code == 200
    status = call(app, "GET", "/api/status").json()
    assert [(s["name"], s["colour"]) for s in status["seats"]] == [("Ann", "green"), ("Bo", "red")]
    assert status["next"].startswith("Each player: choose — ")  # both at once, the same moves
    assert call(app, "POST", "/api/move", json=marker(0)).json()["accepted"]
    assert call(app, "GET", "/api/status").json()["next"].startswith("Ann: choose — ")
    assert call(app, "POST", "/api/move", json=marker(1)).json()["accepted"]
    call(app, "POST", "/api/move", json={"type": "pass", "seat": 1})
    assert call(app, "GET", "/api/status").json()["recent"][0]["text"] == "Bo is done"
    # dusk ends; departure moves on by itself (nobody holds aurora, §三.3): the night, Ann's turn
    assert call(app, "POST", "/api/move", json={"type": "pass", "seat": 0}).json()["accepted"]
    status = call(app, "GET", "/api/status").json()
    groups = status["console"]["groups"]
    assert groups[0]["name"] == "Ann" and groups[0]["hex"] == "#46d27c"  # kiosk.seats: green
    labels = [o["label"] for g in groups for o in g["offers"]]
    assert any("Bo's companion" in label for label in labels), labels
    texts = labels + [x["reason"] or "" for g in groups for o in g["offers"] for x in o["options"]]
    assert not any(re.search(r"[Pp]layer \d", t) for t in texts), texts
    wrong = call(
        app,
        "POST",
        "/api/new-game",
        json={"game": "greenwood", "players": 2, "seats": [{"colour": "red"}, {"colour": "red"}]},
    )
    assert wrong.status_code == 400 and "same colour" in wrong.json()["detail"]


def test_a_closed_confirm_says_why_in_the_language_asked(app: FastAPI) -> None:
    """The table's confirm is offer ``advance`` (seat null), made through POST /api/advance; like
    a move, its answer comes in ``lang`` when asked (issue 26: it took no ``lang``)."""
    call(
        app,
        "POST",
        "/api/new-game",
        json={"game": "greenwood", "players": 2, "options": {"draws": "virtual"}},
    )
    offers = call(app, "GET", "/api/offers").json()
    assert not [o for g in offers["groups"] for o in g["offers"] if o["move"] == "advance"]
    en = call(app, "POST", "/api/advance").json()  # dusk: the players act, confirm is closed
    zh = call(app, "POST", "/api/advance?lang=zh").json()
    assert (en["accepted"], en["open"], zh["accepted"], zh["open"]) == (False, False, False, False)
    assert en["message"].startswith("Dusk is played by the players")
    assert zh["message"].startswith("黄昏") and not re.search(r"[A-Za-z]{3}", zh["message"])
