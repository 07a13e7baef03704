"""What Greenwood puts on the rebuilt table screen (issue 13) is clean in both languages: the
picture, the view, the log line of every event of the example games, the set-up options and the
end screen's sentences pass ``problems()`` (tests/support/player_texts.py) and name things as
the table does (三格直条 / straight three, 飞蛾 / moth, 红、黄 / red and yellow), never an id."""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path
from typing import Any

import pytest
from offer_walk import example_files
from player_texts import problems
from screen_texts import bad, view_and_picture_problems, walk

from engine.core import Session, Text, find_game
from engine.core.records import event_types
from engine.greenwood.game import GreenwoodOptions
from engine.greenwood.moves import (
    DuskMarkerPlaced,
    FinalScores,
    PiecePlaced,
    RewardGained,
    ThreatRevealed,
    TokenUsed,
)
from engine.greenwood.texts import EVENT_LINES

FILES = example_files("greenwood")
GAME = find_game("greenwood")


def line(event: Any, lang: str) -> str | None:
    return GAME.event_text(event.to_dict(), lang)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_picture_view_and_log_of_every_state_of_the_example_games_are_clean(path: Path) -> None:
    found: list[str] = []
    lines = 0
    for number, state, events in walk(path, "greenwood"):
        where = f"{path.name}:{number}"
        found += view_and_picture_problems(GAME, state, where)
        for event in events:
            zh, en = line(event, "zh"), line(event, "en")
            if event.type.startswith("greenwood."):
                assert zh and en, (where, event.type)
                lines += 1
                found += bad(iter([zh]), iter([en]), f"{where} {event.type}")
            else:
                assert zh is None and en is None, (where, event.type)
    assert lines > 40
    assert not found, "\n".join(found[:30])


def test_every_event_of_the_game_has_a_line_of_its_own() -> None:
    """Each event type Greenwood announces is said by ``event_text``, not the raw template."""
    own = {t for t in event_types() if t.startswith("greenwood.")}
    assert own and own <= set(EVENT_LINES)


def test_the_log_names_pieces_creatures_tokens_and_rewards_in_words() -> None:
    """Seen on the old screen: 把domino放进潜艇, 获得vp:2(rescue: moth), 使用hike标记."""
    placed = PiecePlaced(0, "domino", ((0, 0), (1, 0)), 0, False)
    assert line(placed, "zh") == "1号玩家把双格板块放进潜艇:A1 B1"
    assert line(placed, "en") == "Player 1 placed the domino on A1 B1"
    rescue = RewardGained(1, "vp:2", "rescue: moth")
    assert line(rescue, "zh") == "2号玩家获得2分(解救飞蛾)"
    assert line(rescue, "en") == "Player 2 gains 2 points (rescuing the moth)"
    hike = TokenUsed(0, "hike", 0, 1)
    assert line(hike, "zh") == "1号玩家派自己的位置2的伙伴徒步(徒步标记)"
    spy = TokenUsed(1, "spy", None, 5)
    assert line(spy, "en") == "Player 2 puts a spy token on the virtual opponent's primal spirit"
    marker = DuskMarkerPlaced(1, "protect")
    assert line(marker, "zh") == "2号玩家把黄昏标记放在“保护队伍”上,本轮放弃该效果"
    threat = ThreatRevealed(1, "threat 2", "spy")
    assert line(threat, "zh") == "翻开威胁2(触发条件:使用间谍标记)"
    final = FinalScores((31, 33), (2, 1))
    assert line(final, "zh") == "最终得分:1号玩家31分(解救2个生物)、2号玩家33分(解救1个生物)"
    assert GAME.event_text({"type": "turn_started", "seat": 0}, "zh") is None


@pytest.mark.parametrize(
    "reward, source, zh",
    [
        ("vp:-2", "card", "1号玩家支付2分(卡牌)"),
        ("energy", "icon (1,2) (2,2)", "1号玩家获得能量标记(潜艇奖励图标B3 C3)"),
        ("vp:4", "area diagonal", "1号玩家获得4分(完成区域对角线)"),
        ("strength", "area conning tower", "1号玩家获得力量+1(完成区域指挥塔)"),
        ("vp:4", "all 4 energy tokens held (§四.7)", "1号玩家获得4分(4个能量标记已满)"),
        ("vp:4", "both spy tokens held (§四.7)", "1号玩家获得4分(2个间谍标记已满)"),
        ("vp:2", "strength track end (§四.3)", "1号玩家获得2分(力量轨道终点)"),
        ("slot", "strength track space 4", "1号玩家解锁1个知识储存格(力量轨道第4格)"),
        ("vp:1", "pathfinding track space 3", "1号玩家获得1分(寻路轨道第3格)"),
        ("energy", "energy:3", "1号玩家获得能量标记(能量标记 ×3)"),
        ("wisp", "protection: threat 12", "1号玩家获得鬼火(立即放入潜艇)(保护:威胁12)"),
        ("vp:1", "spell: request_aid", "1号玩家获得1分(咒语:请求援助)"),
        ("aurora", "something new", "1号玩家获得极光+1"),
    ],
)
def test_every_source_of_a_reward_is_said_in_words(reward: str, source: str, zh: str) -> None:
    """The sources engine/greenwood/rules/ gives: §三.10 icons and areas, §四.7 a full
    supply, §四.3 the track's end, §三.12 the pathfinding track; an unknown one is left out."""
    event = RewardGained(0, reward, source)
    assert line(event, "zh") == zh
    assert not problems(Text(zh, line(event, "en") or ""))


def test_the_players_strip_is_a_few_fields_points_first_and_no_name() -> None:
    """§一.6: the score starts at 5, two energy tokens, one spy, two knowledge slots."""
    session = Session(GAME, {"players": 3, "layout": 2, "tutorial_threats": True})
    for lang in ("zh", "en"):
        view = GAME.view(session.state, lang)
        for player in view["players"]:
            assert "name" not in player
            assert len(player["fields"]) <= 6
        assert view["players"][0]["fields"][0] == (["分数", 5] if lang == "zh" else ["points", 5])
    zh = GAME.view(session.state, "zh")
    assert zh["summary"][0] == ["潜艇布局", "2号布局(较难)"]
    assert dict(map(tuple, zh["players"][1]["fields"]))["知识"] == "无(0/2)"
    assert dict(map(tuple, zh["players"][1]["fields"]))["能量"] == "2/2"
    en = GAME.view(session.state, "en")
    assert en["summary"][1] == ["threats", "threat 1 (using a primal spirit) (demo box)"]


def test_knowledge_on_the_strip_is_named_in_words(gw: Any) -> None:
    """§三.8: knowledge tokens in the unlocked slots, as players say the colours."""
    t = gw.Table()
    state = gw.with_player(t.state, 0, knowledge=("yellow", "red"), slots=3)
    fields = dict(map(tuple, GAME.view(state, "en")["players"][0]["fields"]))
    assert fields["knowledge"] == "yellow and red (2/3)"
    fields = dict(map(tuple, GAME.view(state, "zh")["players"][0]["fields"]))
    assert fields["知识"] == "黄、红(2/3)"


def test_every_option_and_value_of_the_set_up_has_a_label() -> None:
    """§一.1 (a mode, a layout 0–3 shared by everyone), §一.3, §一.10, §四.18."""
    texts = GAME.option_texts
    hints = typing.get_type_hints(GreenwoodOptions)
    for field in dataclasses.fields(GreenwoodOptions):
        if field.name == "box":
            continue  # not chosen at set-up: the data folder's box (docs/box.md)
        assert field.name in texts, field.name
        if typing.get_origin(hints[field.name]) is typing.Literal:
            for value in typing.get_args(hints[field.name]):
                assert f"{field.name}={value}" in texts, (field.name, value)
    assert texts["layout=0"] == Text("0号布局(较简单)", "layout 0 (easier)")
    assert texts["mode=clan"].zh == "氏族进阶模式"
    found = [f"{k}: {problems(t)}" for k, t in texts.items() if problems(t)]
    assert not found, found


def _ending(gw: Any, players: int, scores: list[int], rescued: list[tuple[str, ...]]) -> Any:
    t = gw.Table(players=players)
    state = t.state
    for seat, (score, creatures) in enumerate(zip(scores, rescued, strict=True)):
        state = gw.with_player(state, seat, score=score, rescued=creatures)
    return GAME.final_outcome(state)


@pytest.mark.parametrize(
    "scores, rescued, reason, word",
    [
        ([40, 38], [(), ()], "greenwood.most_points", "最高"),
        ([40, 40], [("moth",), ("moth", "owl")], "greenwood.tie_most_rescued", "解救"),
        ([40, 40], [("moth",), ("owl",)], "greenwood.tie_shared", "共同获胜"),
    ],
)
def test_every_outcome_has_a_sentence(
    gw: Any, scores: list[int], rescued: list[tuple[str, ...]], reason: str, word: str
) -> None:
    """§五.5: most points wins; a tie goes to most rescued creatures; still tied, a shared win."""
    outcome = _ending(gw, 2, scores, rescued)
    assert outcome.reason == reason
    text = GAME.outcome_texts[reason]
    assert word in text.zh and "{seats}" in text.zh and "{seats}" in text.en
    assert not problems(text.format(seats=Text("小明", "Ann")))


@pytest.mark.parametrize("score, band", [(45, 1), (46, 2), (85, 3), (104, 4), (105, 5)])
def test_every_solo_band_has_its_sentence(gw: Any, score: int, band: int) -> None:
    """§五.6: 45分及以下 … 105分及以上."""
    outcome = _ending(gw, 1, [score], [()])
    assert outcome.reason == f"greenwood.solo_band_{band}"
    text = GAME.outcome_texts[outcome.reason]
    assert not problems(text)
    assert text.zh.startswith(
        ("45分及以下", "46至65分", "66至85分", "86至104分", "105分及以上")[band - 1]
    )


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_the_scores_are_the_points_the_view_and_the_final_scoring_show(path: Path) -> None:
    """§五.2: the score track holds each player's points; §五 final scoring announces them."""
    steps = list(walk(path, "greenwood"))
    final = [e.scores for _, _, events in steps for e in events if isinstance(e, FinalScores)]
    state = steps[-1][1]
    assert state.outcome is not None and len(final) == 1
    shown = tuple(p["fields"][0][1] for p in GAME.view(state, "en")["players"])
    assert GAME.scores(state) == shown == final[0]
