"""What Stonesaga puts on the rebuilt table screen (issue 13) is clean in both languages: the
picture, the view, the log line of every event of the example games, the set-up options and the
end screen's sentences pass ``problems()`` (tests/support/player_texts.py), and name things as
the table does."""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path

import pytest
from offer_walk import example_files
from player_texts import problems
from screen_texts import bad, view_and_picture_problems, walk
from stonesaga_play import Play

from engine.core import DicePoolAnnounced, Session, Text
from engine.core.records import event_types
from engine.stonesaga import STONESAGA, StonesagaOptions
from engine.stonesaga import moves as mv

FILES = example_files("stonesaga")


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_picture_view_and_log_of_every_state_of_the_example_games_are_clean(path: Path) -> None:
    found: list[str] = []
    lines = 0
    for number, state, events in walk(path, "stonesaga"):
        where = f"{path.name}:{number}"
        found += view_and_picture_problems(STONESAGA, state, where)
        for event in events:
            data = event.to_dict()
            zh, en = STONESAGA.event_text(data, "zh"), STONESAGA.event_text(data, "en")
            if event.type.startswith("stonesaga.") or event.type == "dice_pool_announced":
                assert zh and en, (where, event.type)
                lines += 1
                found += bad(iter([zh]), iter([en]), f"{where} {event.type}")
            else:
                assert zh is None and en is None, (where, event.type)
    assert lines > 20
    assert not found, "\n".join(found[:30])


def test_every_event_of_the_game_has_a_line_of_its_own() -> None:
    """Each event type Stonesaga announces is said by ``event_text`` (not the raw template)."""
    from engine.stonesaga.texts import EVENT_LINES

    own = {t for t in event_types() if t.startswith("stonesaga.")}
    assert own <= set(EVENT_LINES)


def test_the_dice_line_names_the_dice_and_why_they_are_rolled() -> None:
    """§创造角色.1: five dice until their sum is 14 or more; §判定 奋力一搏: a 6 calls one more."""
    creation = DicePoolAnnounced(None, ("d6",) * 5, "character_creation").to_dict()
    assert STONESAGA.event_text(creation, "zh") == (
        "每位玩家掷五颗骰:创造角色(合计至少14,去掉最低的一颗)"
    )
    test = DicePoolAnnounced(1, ("d6",), "test").to_dict()
    assert STONESAGA.event_text(test, "en") == (
        "Player 2 rolls 1 die for a test (a 6 means a heroic effort)"
    )
    assert STONESAGA.event_text(DicePoolAnnounced(1, (), "").to_dict(), "zh") == "骰子已掷完"


def test_the_log_says_what_an_event_did_in_words() -> None:
    """§判定: a test's total; a roll without a contest has no success to tell (never None);
    §采矿.5: a placeholder mining-table entry becomes where to read it."""
    tested = mv.TestResolved(0, "faith", (6, 2), 13, None).to_dict()
    assert STONESAGA.event_text(tested, "en") == "character 1's faith test: dice 6, 2, total 13"
    contest = mv.TestResolved(0, "strength", (3,), 9, False).to_dict()
    assert STONESAGA.event_text(contest, "zh") == "第1名角色的力量判定:骰3,合计9,失败"
    gained = mv.ResourcesChanged(1, "cloud_stone:raw", 1).to_dict()
    assert STONESAGA.event_text(gained, "zh") == "第2名角色的云石(未加工)+1"
    ore = mv.OreDrawn(0, "sun_stone", "sun", True, "（占位）秘典183页", "(placeholder) p.183")
    assert "查秘典183页采矿表" in (STONESAGA.event_text(ore.to_dict(), "zh") or "")
    assert STONESAGA.event_text({"type": "turn_started", "seat": 0}, "zh") is None


def test_the_players_strip_is_the_characters_name_and_a_few_fields() -> None:
    play = Play(2)
    play.edit(0, name="Ash", boosts=(("faith", 1),), items=("bone needle",))
    play.edit(1, name="Elder")
    for lang, names in (("zh", ["灰烬", "长者"]), ("en", ["Ash", "Elder"])):
        players = STONESAGA.view(play.state, lang)["players"]
        assert [p["name"] for p in players] == names
        assert all(len(p["fields"]) <= 6 for p in players)
    zh = dict(map(tuple, STONESAGA.view(play.state, "zh")["players"][0]["fields"]))
    assert zh["属性"] == "力量6 灵巧5 信念4+1 觉察6"  # whole names, no 力/灵 or Str/Dex
    assert zh["物品"] == "骨针"
    assert list(zh)[:3] == ["精力", "健康轨", "地块"]


def test_health_is_shown_as_the_track_with_its_covered_cells() -> None:
    """§疾苦与健康轨: 健康轨每一格都被疾苦标记盖满 → 角色失能; the strip shows how many of
    the track's cells are covered, never a bare "0/5" that reads as no health left (issue 24)."""
    play = Play(2)  # §健康轨有多长: 5 cells with 1–2 players
    zh = dict(map(tuple, STONESAGA.view(play.state, "zh")["players"][0]["fields"]))
    en = dict(map(tuple, STONESAGA.view(play.state, "en")["players"][0]["fields"]))
    assert zh["健康轨"] == "□□□□□ 疾苦 0/5"
    assert en["Health track"] == "□□□□□ maladies 0 of 5"
    play.do(mv.Effect(0, 0, "injury", detail="light"))
    zh = dict(map(tuple, STONESAGA.view(play.state, "zh")["players"][0]["fields"]))
    assert zh["健康轨"] == "■□□□□ 疾苦 1/5 轻伤"


def test_a_character_being_created_has_its_energy_to_come_not_zero() -> None:
    """§开局设置.4: 按人数摆精力标记:1–2 名角色 → 各 5 点精力 — when the session begins. While
    characters are being created the strip says what they will get, not "精力 0/5" (issue 24);
    once the day begins it shows the track's count."""
    session = Session(STONESAGA, {"players": 1})
    session.submit(mv.CreationRoll(0, 6, 5, 4, 3, 1))
    session.submit(mv.CreateCharacter(0, "Ash", "wise", ((6, 5, 4, 3, 1),), 6, 5, 4, 3))
    assert session.state.flow.phase == "creation"
    zh = dict(map(tuple, STONESAGA.view(session.state, "zh")["players"][0]["fields"]))
    en = dict(map(tuple, STONESAGA.view(session.state, "en")["players"][0]["fields"]))
    assert (zh["精力"], en["Energy"]) == ("开局时摆5点", "5 at the start")
    play = Play(1)  # a session begun: the markers are on the board
    zh = dict(map(tuple, STONESAGA.view(play.state, "zh")["players"][0]["fields"]))
    assert zh["精力"] == "5/5"


def test_the_view_says_the_result_in_words() -> None:
    """Seen on the screen before: "won: True"."""
    play = Play(1)
    play.do(mv.EndChallenge(0, "won"))
    assert ["挑战结果", "胜利"] in STONESAGA.view(play.state, "zh")["summary"]


def test_every_option_and_value_of_the_set_up_has_a_label() -> None:
    """§开局设置.1 (a challenge), §山谷扩张 (epochs 1–3), §巨兽 (behemoths with a lair)."""
    texts = STONESAGA.option_texts
    for field in dataclasses.fields(StonesagaOptions):
        if field.name != "box":  # a record the set-up page shows apart (the box's state)
            assert field.name in texts, field.name
    assert texts["draws=table"].en.startswith("At the table")  # engine.core.box.DRAWS_TEXTS
    assert texts["challenge=GI01"] == Text("活过今夜", "Survive the Night")  # no id (issue 24)
    assert {f"epoch={n}" for n in (1, 2, 3)} <= set(texts)
    assert texts["behemoths=Grumblehorn"].zh == "咕噜角"
    hints = typing.get_type_hints(StonesagaOptions)
    literal = [n for n, t in hints.items() if typing.get_origin(t) is typing.Literal]
    assert literal == ["draws"]  # the core's; each of its values is labelled
    assert all(f"draws={v}" in texts for v in typing.get_args(hints["draws"]))
    found = [f"{k}: {problems(t)}" for k, t in texts.items() if problems(t)]
    assert not found, found


def test_every_outcome_has_a_sentence_won_or_lost() -> None:
    """§挑战卡与目标卡: the challenge ends won or lost; the clan wins or loses together."""
    for result in ("won", "lost"):
        play = Play(1)
        play.do(mv.EndChallenge(0, result))
        reason = STONESAGA.final_outcome(play.state).reason
        text = STONESAGA.outcome_texts[reason]
        assert not problems(text), problems(text)
        assert ("胜利" if result == "won" else "失败") in text.zh
        assert ("Won" if result == "won" else "Lost") in text.en
