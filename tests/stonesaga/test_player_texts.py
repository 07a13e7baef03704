"""What players read on Stonesaga's console is clean in both languages (docs/kiosk.md "The
players' console"): every label of every offer and every greyed option's refusal names things as
the table does (木材 / wood, 灰烬 / Ash, 地块102(森林、洞穴)), never an id (``wood``,
``dry_flat``, ``cloud_stone``), a Python value (None, True, a list) or an English word in the
Chinese.

The example games are walked offer by offer in tests/engine/test_player_texts.py; here the reason
templates are checked on their own too, with the refusals the examples never reach, and the names.
"""

from __future__ import annotations

import re

from player_texts import problems
from stonesaga_play import Play

from engine.core import Reason, Text
from engine.stonesaga import STONESAGA
from engine.stonesaga import moves as mv
from engine.stonesaga import reasons as sg
from engine.stonesaga.catalogue import catalogue
from engine.stonesaga.texts import character_name, resource_name


def test_the_check_itself_catches_ids_and_python_values() -> None:
    assert problems(Text("背包里没有足够的wood", "Not enough wood in the pack"))
    assert problems(Text("这个行动要在有干涸滩的地块上做", "needs a dry_flat"))
    assert problems(Text("你有[]", "you hold []"))
    assert problems(Text("结果:None", "result: None"))
    assert problems(Text("Ash的力量", "Ash's strength"))
    assert not problems(Text("袋里已经没有云石了(stonesaga.zh.md §采矿.3)", "no cloud stone"))
    assert not problems(Text("灰烬的力量已经是6", "Ash's strength is already 6"))


def test_every_reason_template_is_words_in_both_languages() -> None:
    """Also the refusals the example games never reach: the template itself, its
    ``{placeholders}`` aside, has no English in the Chinese and no id in either language."""
    reasons = [v for v in vars(sg).values() if isinstance(v, Reason)]
    reasons += [r for table in (sg.PROCESS, sg.CREATION) for r in table.values()]
    assert len(reasons) > 40
    for reason in reasons:
        shown = Text(*(re.sub(r"\{\w+\}", "", t) for t in (reason.message.zh, reason.message.en)))
        assert not problems(shown), (reason.code, problems(shown))


# --- the names messages are filled in with ----------------------------------------------------


def test_characters_are_named_in_the_kiosk_language() -> None:
    assert character_name("Ash", catalogue()) == Text("灰烬", "Ash")
    assert character_name("Elder", catalogue()) == Text("长者", "Elder")
    assert character_name("Somebody Else", catalogue()) == Text("Somebody Else", "Somebody Else")


def test_resources_are_named_as_the_rule_text_prints_them() -> None:
    assert resource_name("wood") == Text("木材", "wood")
    assert resource_name("fish:fresh") == Text("鱼(新鲜)", "fish (fresh)")
    assert resource_name("cloud_stone") == Text("云石", "cloud stone")


def test_not_held_names_the_resource_in_both_languages() -> None:
    verdict = sg.NOT_HELD.reject(what=resource_name("wood"))
    assert verdict.code == "stonesaga.not_held"
    assert verdict.message == Text("背包里没有足够的木材", "Not enough wood in the pack")


def named_play() -> Play:
    """Two characters named from our list: Ash (灰烬) on tile 101 and Birch (白桦)."""
    play = Play(1, [0, 0])
    play.edit(0, name="Ash")
    play.edit(1, name="Birch")
    return play


def test_refusals_name_characters_resources_attributes_and_tiles() -> None:
    play = named_play()
    assert play.check(mv.MakeFire(0, 0, "dexterity")).message == Text(
        "背包里没有足够的木材", "Not enough wood in the pack"
    )
    assert play.check(mv.MakeFire(0, 0, "strength")).message == Text(
        "没有这个属性(灵巧或信念):力量",
        "There is no attribute (dexterity or faith) called strength",
    )
    demo = Text(  # the valley is the demo box's: the refusal says so (docs/box.md)
        "(按演示盒的地块101判定:把你的盒子录入后才准确)",
        " (judged by the demo box's tile 101: copy your box to make this exact)",
    )
    assert play.check(mv.Travel(0, 0, "103")).message == Text(
        "地块103与地块101不相邻" + demo.zh,
        "Not next to each other: tile 101 and tile 103" + demo.en,
    )
    play.edit(0, tile="105", energy=0)
    impassable = play.check(mv.Travel(0, 0, "106")).message  # 106 is not explored yet
    assert impassable.zh.startswith("地块105与未探索的地块(托盘")
    assert play.check(mv.Pack(0, 0)).message == Text(
        "需要1点精力,灰烬只有0点", "This needs 1 energy; Ash has 0"
    )
    verdict = play.check(mv.Exchange(0, 1, 0, give=(("fish", 1),)))
    assert verdict.message == Text("灰烬不在同一地块", "Ash is not on the same tile")


def test_the_kiosk_view_names_characters_tiles_packs_and_maladies() -> None:
    play = named_play()
    play.edit(0, pack=(("fish:fresh", 1), ("wood:raw", 2)))
    play.do(mv.Effect(0, 0, "injury", detail="light"))
    zh = STONESAGA.view(play.state, "zh")["players"][0]
    fields = dict(map(tuple, zh["fields"]))
    assert zh["name"] == "灰烬"
    assert fields["地块"] == "地块101"
    assert fields["背包"] == "鱼(新鲜)×1、木材(未加工)×2"
    assert fields["健康轨"].endswith("轻伤")
    en = STONESAGA.view(play.state, "en")["players"][0]
    assert en["name"] == "Ash"
    assert dict(map(tuple, en["fields"]))["Pack"] == "fish (fresh) ×1, wood (raw) ×2"
