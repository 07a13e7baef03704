"""What players read on the console is clean in both languages (docs/kiosk.md "The players'
console"): every label of every offer and every greyed option's refusal names things as the
table does (三格直条 / straight three, 双生蝾螈, 红、蓝 / red and blue, 1个基础资源), never an id
(``bar3``, ``raw_food``), a Python value (None, True, a list) or an English word in the Chinese.

The example games in docs/examples are walked offer by offer (Stonesaga's own reason templates and
names are checked in tests/stonesaga/test_player_texts.py).
"""

from __future__ import annotations

import re
from functools import cache

import pytest
from offer_walk import example_files, walk_example
from player_texts import offer_texts, problems

from engine.core import Reason, Text
from engine.dont_starve import reasons as ds_reasons
from engine.dont_starve.texts import count_of, numbers_named, structure_name
from engine.greenwood.moves import SPIRIT
from engine.greenwood.rules import actions as gw_rules
from engine.greenwood.rules import placement as gw_submarine
from engine.greenwood.texts import cell_names, companion_name, knowledge_list, piece_name

GAMES = ("greenwood", "dont_starve", "stonesaga")
"""The games whose example games are walked."""


@cache
def texts_of(game: str) -> dict[tuple[str, str, str], tuple[str, int]]:
    """Every distinct text of the game's example games: (move, where, zh, en) → first line."""
    seen: dict[tuple[str, str, str], tuple[str, int]] = {}
    for path in example_files(game):
        for step in walk_example(path):
            for group in step.open:
                for offer in group.offers:
                    for where, text in offer_texts(offer):
                        key = (f"{offer.move} {where}", text.zh, text.en)
                        seen.setdefault(key, (path.name, step.line))
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_every_label_and_refusal_of_the_example_games_is_clean(game: str) -> None:
    texts = texts_of(game)
    refusals = [k for k in texts if " refusal " in f" {k[0]}"]
    assert texts and refusals, f"{game}: the walk saw no labels or no greyed options"
    bad = [
        f"{line[0]}:{line[1]} {where}: {zh!r} / {en!r}: {'; '.join(found)}"
        for (where, zh, en), line in texts.items()
        if (found := problems(Text(zh, en)))
    ]
    assert not bad, "\n".join(bad[:40])


def test_the_check_itself_catches_ids_and_python_values() -> None:
    assert problems(Text("先把bar3放进潜艇,再继续", "First place the bar3"))
    assert problems(Text("1号玩家没有1个基础资源", "Player 1 does not have 1 raw_food"))
    assert problems(Text("你有[]", "you hold []"))
    assert problems(Text("结果:None", "result: None"))
    assert problems(Text("或结束本轮夜晚(pass)", "or pass"))
    assert not problems(Text("不能覆盖格子F1(greenwood.zh.md §三.10)", "cell F1"))
    assert not problems(Text("你有:无", "you hold none"))


@pytest.mark.parametrize(
    "module", [gw_rules, gw_submarine, ds_reasons], ids=["greenwood", "submarine", "dont_starve"]
)
def test_every_reason_template_is_words_in_both_languages(module: object) -> None:
    """Also the refusals the example games never reach: the template itself, its
    ``{placeholders}`` aside, has no English in the Chinese and no id in either language."""
    reasons = [v for v in vars(module).values() if isinstance(v, Reason)]
    assert reasons
    for reason in reasons:
        shown = Text(*(re.sub(r"\{\w+\}", "", t) for t in (reason.message.zh, reason.message.en)))
        assert not problems(shown), (reason.code, problems(shown))


# --- the names messages are filled in with ----------------------------------------------------


def test_knowledge_colours_are_listed_as_players_say_them() -> None:
    assert knowledge_list(["red", "blue"]) == Text("红、蓝", "red and blue")
    assert knowledge_list(["blue", "blue", "yellow"]) == Text("蓝、蓝、黄", "blue, blue and yellow")
    assert knowledge_list(["red"]) == Text("红", "red")
    assert knowledge_list([]) == Text("无", "none")


def test_greenwood_names_pieces_companions_and_cells_as_the_console_does() -> None:
    assert piece_name("bar3") == Text("三格直条", "straight three")
    assert companion_name(0) == Text("位置1的伙伴", "Companion in place 1")
    assert companion_name(SPIRIT).zh == "原初之灵"
    assert cell_names([(1, 0), (0, 0), (0, 2)]) == "A1 B1 A3"


def test_missing_knowledge_names_the_creature_and_the_colours() -> None:
    verdict = gw_rules.MISSING_KNOWLEDGE.reject(
        creature=Text("双生蝾螈", "twin newts"),
        cost=knowledge_list(["blue", "blue"]),
        held=knowledge_list([]),
    )
    assert verdict.message.zh == "解救双生蝾螈需要知识:蓝、蓝;你有:无"
    assert (
        verdict.message.en == "Rescuing the twin newts takes blue and blue knowledge; you hold none"
    )


def test_dont_starve_names_what_is_held_structures_and_numbers() -> None:
    assert count_of(1, "raw_food") == Text("1个生食", "1 raw food")
    assert count_of(1, "basic") == Text("1个基础资源", "1 basic resource")
    assert count_of(2, "item") == Text("2张物品卡", "2 item cards")
    assert structure_name("Science Machine", 1) == Text("科学机器", "Science Machine")
    assert structure_name("thing we built", 2) == Text("营地第2张建筑卡", "thing we built")
    assert numbers_named("cv", "monster_cv") == Text(
        "角色战斗值、怪物战斗值", "fighters' CV, monster's CV"
    )
    verdict = ds_reasons.NOT_IN_INVENTORY.reject(player=1, what=count_of(1, "cooked_food"))
    assert verdict.message == Text("1号玩家没有1个熟食", "Player 1 does not have 1 cooked food")
