"""What the kiosk's log says for each Greenwood event, in Chinese and English.

``{player}`` is the seat counted from 1; the other names are the event's fields.
"""

from collections.abc import Callable, Iterable
from typing import Any

from engine.core import Text
from engine.core.box import DRAWS_TEXTS, Box, demo_note
from engine.greenwood.catalogue import layout_item, threat_item, threat_number
from engine.greenwood.moves import SPIRIT

EVENT_TEXTS: dict[str, Text] = {
    "greenwood.creature_rescued": Text(
        "{player}号玩家解救了{creature}", "Player {player} rescued {creature}"
    ),
    "greenwood.dusk_marker_placed": Text(
        "{player}号玩家的黄昏标记放在{effect}",
        "Player {player} blocks {effect} with the dusk marker",
    ),
    "greenwood.final_scores": Text("最终得分:{scores}", "Final scores: {scores}"),
    "greenwood.knowledge_changed": Text(
        "{player}号玩家的知识:{knowledge}", "Player {player}'s knowledge: {knowledge}"
    ),
    "greenwood.piece_placed": Text(
        "{player}号玩家把{piece}放进潜艇:{cells}", "Player {player} placed {piece} on {cells}"
    ),
    "greenwood.placement_awaited": Text(
        "{player}号玩家:把{piece}放进潜艇", "Player {player}: place the {piece} in your submarine"
    ),
    "greenwood.reward_gained": Text(
        "{player}号玩家获得{reward}({source})", "Player {player} gains {reward} ({source})"
    ),
    "greenwood.reward_lost": Text(
        "{player}号玩家的潜艇里放不下{piece},这份奖励失去",
        "No cell of player {player}'s submarine can take the {piece}: that reward is lost",
    ),
    "greenwood.solo_rated": Text(
        "单人成绩:{score}分,{title_zh}", "Solo result: {score} points, {title_en}"
    ),
    "greenwood.threat_revealed": Text("翻开威胁:{name}", "Threat revealed: {name}"),
    "greenwood.start_player_chosen": Text(
        "起始玩家标记交给{player}号玩家", "The start-player marker goes to player {player}"
    ),
    "greenwood.token_used": Text(
        "{player}号玩家使用{token}标记", "Player {player} uses a {token} token"
    ),
    "greenwood.virtual_companions": Text(
        "虚拟对手展示{count}名伙伴", "The virtual opponent shows {count} companions"
    ),
}

# --- the players' console (engine/greenwood/offers.py) ----------------------------------------

OFFER_TEXTS: dict[str, Text] = {
    "greenwood.dusk_marker": Text("放置黄昏标记", "Place the dusk marker"),
    "greenwood.recruit": Text("招募伙伴", "Recruit a companion"),
    "greenwood.gain_aurora": Text("获得极光(弃1张牌)", "Gain aurora (discard a card)"),
    "greenwood.protect": Text("保护队伍", "Protect your party"),
    "greenwood.strengthen": Text("强化伙伴队伍", "Strengthen your party"),
    "greenwood.remove_hiker": Text("移除徒步标记(1个极光)", "Remove a hike token (1 aurora)"),
    "greenwood.cast_spell": Text("施放咒语(1个极光)", "Cast a spell (1 aurora)"),
    "greenwood.use_energy": Text("使用能量标记", "Use an energy token"),
    "greenwood.use_spy": Text("使用间谍标记:模仿{owner}的伙伴", "Spy on {owner}'s companion"),
    "greenwood.hike": Text("派遣伙伴进入森林(徒步标记)", "Send a companion hiking (hike token)"),
    "greenwood.spirit_ability": Text("原初之灵的能力", "Primal spirit ability"),
    "gain.points": Text("获得胜利点数", "Gain victory points"),
    "gain.pay": Text("支付胜利点数", "Pay victory points"),
    "gain.other": Text("获得奖励", "Gain a reward"),
    "greenwood.learn": Text("学习:获得知识", "Learn: gain knowledge"),
    "greenwood.rescue": Text("解救囚禁生物", "Rescue a captive creature"),
    "greenwood.take_wisp": Text("鬼火行动:拿取1个鬼火", "Wisp action: take a wisp"),
    "greenwood.swap_knowledge": Text("替换1个知识", "Swap one knowledge token"),
    "greenwood.place": Text("把{piece}放进潜艇", "Place the {piece} in your submarine"),
    "threat.pick": Text("翻开的威胁卡牌:按卡名选", "Threat card turned up: pick its name"),
    "threat.points": Text(
        "翻开的威胁卡牌:录入(保护奖励是胜利点数)",
        "Threat card turned up: enter it (protection pays points)",
    ),
    "threat.other": Text(
        "翻开的威胁卡牌:录入(保护奖励是其他奖励)",
        "Threat card turned up: enter it (protection pays another reward)",
    ),
    "greenwood.start_player": Text(
        "起始玩家(最近一次见过琥珀灵的玩家)", "Start player (who saw an amber spirit last)"
    ),
}
"""What each offer's button says."""

FIELD_TEXTS: dict[str, Text] = {
    "effect": Text("放弃的黄昏效果", "Dusk effect to give up"),
    "place": Text("伙伴位置", "Companion place"),
    "threat": Text("威胁卡牌", "Threat card"),
    "move_from": Text("保护标记从哪里来", "Protection token from"),
    "companion": Text("伙伴", "Companion"),
    "spell": Text("咒语", "Spell"),
    "ability": Text("能力", "Ability"),
    "reward": Text("奖励", "Reward"),
    "knowledge": Text("知识", "Knowledge"),
    "discard": Text("放入", "Into"),
    "creature": Text("囚禁生物", "Captive creature"),
    "old": Text("换掉", "Give up"),
    "new": Text("换成", "Take instead"),
    "cells": Text("潜艇格子", "Submarine cells"),
    "trigger": Text("触发条件", "set off by"),
    "protection": Text("保护奖励", "protection reward"),
    "points": Text("保护奖励:胜利点数", "protection reward: points"),
    "amount": Text("保护奖励的数量", "how many of the reward"),
    "player": Text("起始玩家", "start player"),
}
"""What each field of an offer is called."""

DUSK_EFFECT_NAMES: dict[str, Text] = {
    "recruit": Text("招募伙伴", "Recruit"),
    "aurora": Text("获得极光", "Gain aurora"),
    "protect": Text("保护队伍", "Protect"),
    "strengthen": Text("强化伙伴队伍", "Strengthen"),
}
"""The four dusk effects (§三.2)."""

KNOWLEDGE_NAMES: dict[str, Text] = {
    "red": Text("红色知识(揭示陷阱)", "red knowledge (reveal traps)"),
    "blue": Text("蓝色知识(消除幻象)", "blue knowledge (dispel illusions)"),
    "yellow": Text("黄色知识(破除咒语)", "yellow knowledge (break spells)"),
}
"""The three knowledge colours (§三.8)."""

KNOWLEDGE_SHORT: dict[str, Text] = {
    "red": Text("红", "red"),
    "blue": Text("蓝", "blue"),
    "yellow": Text("黄", "yellow"),
}

SPELL_NAMES: dict[str, Text] = {
    "request_aid": Text("请求援助:抽1张牌,获得1分", "Request aid: draw a card, 1 point"),
    "stay_alert": Text("保持警觉:弃1张牌,寻路+1", "Stay alert: discard a card, pathfinding +1"),
}
"""The standard spells of the basic mode (§三.3)."""

FOREST_ACTION_NAMES: dict[str, Text] = {
    "learn": Text("学习行动", "a learning action"),
    "rescue": Text("解救行动", "a rescue"),
    "wisp": Text("鬼火行动", "a wisp action"),
}
"""The forest actions a hike may end in (§三.7; the watchtower's comes as rewards)."""

SPIRIT_ABILITY_NAMES: dict[str, Text] = {
    "draw_three": Text("抽3张牌并获得2分", "Draw 3 cards and gain 2 points"),
    "journey": Text(
        "抽1张牌,多走1步并执行森林行动", "Draw a card, move one step further, forest action"
    ),
}
"""The primal spirit's two abilities (§四.1)."""

PIECE_NAMES: dict[str, Text] = {
    "wisp": Text("鬼火", "wisp"),
    "domino": Text("双格板块", "domino"),
    "bar3": Text("三格直条", "straight three"),
    "corner3": Text("三格拐角", "corner three"),
    "tee4": Text("T形四格", "T four"),
    "ell4": Text("L形四格", "L four"),
    "ess4": Text("S形四格", "S four"),
    "square4": Text("方形四格", "square four"),
    "pee5": Text("P形五格", "P five"),
}
"""The rescued-creature and wisp pieces (engine/greenwood/data/pieces.toml; tag 148 on is a
domino)."""

CREATURE_NAMES: dict[str, Text] = {
    "moth": Text("飞蛾", "moth"),
    "twin newts": Text("双生蝾螈", "twin newts"),
    "beetle": Text("甲虫", "beetle"),
    "glow snail": Text("荧光蜗牛", "glow snail"),
    "stag": Text("雄鹿", "stag"),
    "owl": Text("猫头鹰", "owl"),
    "serpent": Text("巨蛇", "serpent"),
    "boar": Text("野猪", "boar"),
    "bear": Text("熊", "bear"),
}
"""The captive creatures (engine/greenwood/data/pieces.toml)."""

REWARD_NAMES: dict[str, Text] = {
    "vp": Text("{n}分", "{n} points"),
    "vp1": Text("1分", "1 point"),
    "pay": Text("支付{n}分", "pay {n} points"),
    "pay1": Text("支付1分", "pay 1 point"),
    "energy": Text("能量标记", "an energy token"),
    "spy": Text("间谍标记", "a spy token"),
    "aurora": Text("极光+1", "aurora +1"),
    "strength": Text("力量+1", "strength +1"),
    "pathfinding": Text("寻路+1", "pathfinding +1"),
    "slot": Text("解锁1个知识储存格", "unlock a knowledge slot"),
    "wisp": Text("鬼火(立即放入潜艇)", "a wisp (place it now)"),
}
"""Rewards as ``greenwood.gain`` takes them (``vp:N``, ``energy``…, §五.2)."""

CHOICE_TEXTS: dict[str, Text] = {
    "place_empty": Text("位置{n}(空)", "Place {n} (empty)"),
    "place_taken": Text("位置{n}(替换该伙伴)", "Place {n} (replace its companion)"),
    "companion": Text("位置{n}的伙伴", "Companion in place {n}"),
    "spirit": Text("原初之灵", "Primal spirit"),
    "virtual": Text("虚拟对手的第{n}名伙伴", "Virtual opponent's companion {n}"),
    "player": Text("{n}号玩家", "player {n}"),
    "virtual_owner": Text("虚拟对手", "the virtual opponent"),
    "threat": Text("{name}(保护奖励:{reward})", "{name} (protection: {reward})"),
    "unplaced": Text("尚未放置的保护标记", "An unplaced token"),
    "free_slot": Text("空的储存格", "A free slot"),
    "instead_of": Text("替换掉一个{k}", "In place of a {k} one"),
    "creature": Text("{name}(需要知识:{cost};{vp}分)", "{name} (needs {cost}; {vp} points)"),
    "cells": Text("{cells}({turn})", "{cells} ({turn})"),
    "upright": Text("正放", "as printed"),
    "turned": Text("旋转{deg}°", "turned {deg}°"),
    "flipped": Text("翻面后旋转{deg}°", "flipped, turned {deg}°"),
    "demo": Text("{name}(演示盒)", "{name} (demo box)"),
}
"""Labels of the choices, filled in from the state."""

# --- names in refusal messages (engine/greenwood/rules/) -----------------------------------------

NOTHING_HELD = Text("无", "none")
"""What a player holds when they hold no knowledge token."""


def knowledge_list(colours: Iterable[str]) -> Text:
    """Knowledge colours as players say them: ``红、蓝、蓝`` / ``red, blue and blue``."""
    names = [KNOWLEDGE_SHORT.get(k, Text(k, k)) for k in colours]
    if not names:
        return NOTHING_HELD
    en = [n.en for n in names]
    joined = en[0] if len(en) == 1 else f"{', '.join(en[:-1])} and {en[-1]}"
    return Text("、".join(n.zh for n in names), joined)


def piece_name(piece: str) -> Text:
    """A submarine piece by the name the console gives it (``bar3``: 三格直条 / straight three)."""
    return PIECE_NAMES.get(piece, Text(piece, piece))


def creature_name(creature: str) -> Text:
    """A captive creature by its printed name (``twin newts``: 双生蝾螈)."""
    return CREATURE_NAMES.get(creature, Text(creature, creature))


def companion_name(companion: int) -> Text:
    """A companion as the console names it: its place counted from 1, or the primal spirit."""
    if companion == SPIRIT:
        return CHOICE_TEXTS["spirit"]
    return CHOICE_TEXTS["companion"].format(n=companion + 1)


def cell_names(cells: Iterable[tuple[int, int]]) -> str:
    """Submarine cells as on the board's edges, row by row: columns as letters, rows from 1
    (``(0, 0), (1, 0)``: ``A1 B1``)."""
    ordered = sorted(cells, key=lambda cell: (cell[1], cell[0]))
    return " ".join(f"{chr(ord('A') + c)}{r + 1}" for c, r in ordered)


# --- the table screen (issue 13): names, the log, set-up and end texts ------------------------

SEAT = Text("{n}号玩家", "player {n}")
"""A seat as the log names it (counted from 1); the kiosk may put the player's own name in."""
SEAT_FIRST = Text("{n}号玩家", "Player {n}")
"""The same at the start of a sentence."""

AREA_NAMES: dict[str, Text] = {
    "diagonal": Text("对角线", "diagonal"),
    "bow": Text("船首", "bow"),
    "stern": Text("船尾", "stern"),
    "engine room": Text("轮机舱", "engine room"),
    "conning tower": Text("指挥塔", "conning tower"),
}
"""The submarines' areas by the names of engine/greenwood/data/submarines.toml (§三.10 区域完成
奖励); ``column N`` is named by ``area_name``."""

TRIGGER_NAMES: dict[str, Text] = {
    "spirit": Text("使用原初之灵", "using a primal spirit"),
    "spy": Text("使用间谍标记", "using a spy token"),
    "rescue": Text("执行解救行动", "a rescue"),
    "watchtower": Text("执行瞭望塔行动", "a watchtower action"),
    "move_spirit": Text("移动原初之灵", "moving the primal spirit"),
    "knowledge": Text("获得知识", "gaining knowledge"),
}
"""What sets off a threat (§四.5 常见触发条件)."""

SPELL_SHORT: dict[str, Text] = {
    "request_aid": Text("请求援助", "request aid"),
    "stay_alert": Text("保持警觉", "stay alert"),
}
"""The standard spells by name alone (§三.3)."""

REWARD_ICONS: dict[str, Text] = {
    "vp": Text("{n}分", "{n}★"),
    "energy": Text("⚡", "⚡"),
    "spy": Text("◉", "◉"),
    "aurora": Text("✦", "✦"),
    "strength": Text("⚒", "⚒"),
    "pathfinding": Text("➹", "➹"),
    "slot": Text("□", "□"),
    "wisp": Text("✶", "✶"),
}
"""A reward icon of the hold as the picture draws it in its cell: one symbol (a number and a
symbol for an amount), each named by the legend (``ICON_WORDS``), so that it is read from the
chairs at any size; Chinese points are the whole word 分."""
ICON_WORDS: dict[str, Text] = {
    "vp": Text("胜利点数", "victory points"),
    "energy": Text("能量标记", "energy token"),
    "spy": Text("间谍标记", "spy token"),
    "aurora": Text("极光", "aurora"),
    "strength": Text("力量", "strength"),
    "pathfinding": Text("寻路", "pathfinding"),
    "slot": Text("知识储存格", "knowledge slot"),
    "wisp": Text("鬼火", "wisp"),
}
"""What each reward icon of the picture means, for the legend (``reward_icon``)."""

MODE_NAMES: dict[str, Text] = {
    "basic": Text("基础模式", "basic game"),
    "clan": Text("氏族进阶模式", "clan mode"),
}
"""The two game modes (§一.1)."""

LAYOUT_NAMES: dict[int, Text] = {
    0: Text("0号布局(较简单)", "layout 0 (easier)"),
    1: Text("1号布局(标准)", "layout 1 (standard)"),
    2: Text("2号布局(较难)", "layout 2 (harder)"),
    3: Text("3号布局(较难)", "layout 3 (harder)"),
}
"""The submarine layouts (§一.1: 编号0为较简单的布局,编号1为标准布局,编号2和3具有更高难度)."""

OPTION_TEXTS: dict[str, Text] = {
    **DRAWS_TEXTS,
    "players": Text("玩家人数(1人为单人模式)", "Players (1: the solo game)"),
    "mode": Text("游戏模式", "Game mode"),
    "layout": Text("潜艇布局(所有玩家相同)", "Submarine layout (the same for everyone)"),
    "start_seat": Text(
        "起始玩家(留空:开局时在桌上选;程序洗牌时随机)",
        "Start player (blank: chosen at the table as the game opens; at random by the program)",
    ),
    "tutorial_threats": Text("使用教学威胁顺序(威胁1至5)", "Tutorial threats (threats 1 to 5)"),
    **{f"mode={k}": v for k, v in MODE_NAMES.items()},
    **{f"layout={k}": v for k, v in LAYOUT_NAMES.items()},
}
"""What the set-up page reads (``Game.option_texts``): each option of ``GreenwoodOptions`` and
each value of its ``Literal`` fields (§一.1, §一.3, §一.10, §四.18)."""

OUTCOME_TEXTS: dict[str, Text] = {
    "greenwood.most_points": Text(
        "{seats}的胜利点数最高", "{seats} scored the most victory points"
    ),
    "greenwood.tie_most_rescued": Text(
        "胜利点数相同,{seats}潜艇顶部解救的生物更多(鬼火不算)",
        "Tied on points: {seats} rescued more creatures (wisps do not count)",
    ),
    "greenwood.tie_shared": Text(
        "胜利点数与解救的生物数都相同,{seats}共同获胜",
        "Tied on points and on rescued creatures: {seats} share the win",
    ),
    "greenwood.solo_band_1": Text(
        "45分及以下:德鲁伊议会没有特别注意到生物失踪",
        "45 points or fewer: the druid council has not noticed the missing creatures",
    ),
    "greenwood.solo_band_2": Text(
        "46至65分:德鲁伊开始对部分神秘生物失踪感到困惑",
        "46 to 65 points: the druids begin to wonder where the creatures went",
    ),
    "greenwood.solo_band_3": Text(
        "66至85分:玩家的行动开始受到故乡居民关注",
        "66 to 85 points: your deeds catch the eye of your home village",
    ),
    "greenwood.solo_band_4": Text(
        "86至104分:玩家的行动受到越来越多追随者效仿",
        "86 to 104 points: more and more followers copy your deeds",
    ),
    "greenwood.solo_band_5": Text(
        "105分及以上:成功完成解放苍林秘境的壮举",
        "105 points or more: you have set the Greenwood free",
    ),
}
"""The end screen's sentence for each reason ``final_outcome`` gives (§五.5, §五.6);
``{seats}`` is the winners, named by the kiosk."""


def seat_name(seat: int, first: bool = False) -> Text:
    """A seat (0-based) as the log says it: ``1号玩家`` / ``player 1`` (``Player 1`` first)."""
    return (SEAT_FIRST if first else SEAT).format(n=seat + 1)


def listed(names: Iterable[Text], empty: Text = NOTHING_HELD) -> Text:
    """Names as a list players read: ``飞蛾、甲虫`` / ``moth and beetle``."""
    names = list(names)
    if not names:
        return empty
    en = [n.en for n in names]
    joined = en[0] if len(en) == 1 else f"{', '.join(en[:-1])} and {en[-1]}"
    return Text("、".join(n.zh for n in names), joined)


def area_name(name: str) -> Text:
    """A submarine area by the name of the layout data (``column 1``: 第1列 / column 1)."""
    if name in AREA_NAMES:
        return AREA_NAMES[name]
    number = name.removeprefix("column ")
    if number.isdigit():
        return Text(f"第{number}列", f"column {number}")
    return Text("标记区域", "marked area")


def threat_name(name: str) -> Text:
    """A threat card by its number (``threat 2``: 威胁2 / threat 2), one the table entered
    (``entered threat 1``: 录入的威胁1 / entered threat 1), or by the title an owner's box gives
    it."""
    numbered = threat_number(name)
    if numbered is None:
        return Text(name, name)
    entered, n = numbered
    return (
        Text(f"录入的威胁{n}", f"entered threat {n}")
        if entered
        else Text(f"威胁{n}", f"threat {n}")
    )


def trigger_name(trigger: str) -> Text:
    """What sets a threat off, in words (§四.5)."""
    return TRIGGER_NAMES.get(trigger, Text("其他条件", "something else"))


def reward_name(reward: str) -> Text:
    """A reward string in words: ``vp:2`` 2分 / 2 points, ``vp:-1`` 支付1分, ``energy:2``
    能量标记 ×2."""
    kind, _, amount = reward.partition(":")
    n = int(amount) if amount.lstrip("-").isdigit() else 1
    if kind == "vp":
        key = ("vp" if n > 0 else "pay") + ("1" if abs(n) == 1 else "")
        return REWARD_NAMES[key].format(n=abs(n))
    text = REWARD_NAMES.get(kind, Text("奖励", "a reward"))
    return text if n == 1 else Text(f"{text.zh} ×{n}", f"{text.en} ×{n}")


def reward_icon(reward: str) -> Text:
    """A reward icon as a cell of the picture draws it: its symbol, with the amount if not one."""
    kind, _, amount = reward.partition(":")
    if kind == "vp":
        return REWARD_ICONS["vp"].format(n=amount or 1)
    icon = REWARD_ICONS.get(kind, Text("?", "?"))
    return icon if amount in ("", "1") else Text(f"{icon.zh}{amount}", f"{icon.en}{amount}")


SOURCES: dict[str, Text] = {
    "card": Text("卡牌", "a card"),
    "dawn: unused tokens": Text("黎明:未使用的标记", "dawn: unused tokens"),
    "dusk: gain aurora": Text("黄昏:获得极光", "dusk: gain aurora"),
    "dusk: strengthen": Text("黄昏:强化伙伴队伍", "dusk: strengthen"),
    "spirit: draw three": Text("原初之灵:抽3张牌", "primal spirit: draw three"),
    "all 4 energy tokens held (§四.7)": Text("4个能量标记已满", "all 4 energy tokens held"),
    "both spy tokens held (§四.7)": Text("2个间谍标记已满", "both spy tokens held"),
    "strength track end (§四.3)": Text("力量轨道终点", "end of the strength track"),
}
"""What paid a reward, by the ``source`` the rules engine gives it (engine/greenwood/rules/)."""


TRACKS: dict[str, Text] = {
    "strength": Text("力量", "strength"),
    "pathfinding": Text("寻路", "pathfinding"),
}


def source_name(source: str) -> Text | None:
    """What paid a reward, in words; None when the source is not one the rules give."""
    if source in SOURCES:
        return SOURCES[source]
    head, _, rest = source.partition(" ")
    if source.startswith("rescue: "):
        creature = creature_name(source.removeprefix("rescue: "))
        return Text(f"解救{creature.zh}", f"rescuing the {creature.en}")
    if source.startswith("protection: "):
        threat = threat_name(source.removeprefix("protection: "))
        return Text(f"保护:{threat.zh}", f"protection against {threat.en}")
    if source.startswith("spell: "):
        spell = SPELL_SHORT.get(source.removeprefix("spell: "))
        return None if spell is None else Text(f"咒语:{spell.zh}", f"spell: {spell.en}")
    if head == "icon":
        shown = cell_names(_cells_of(rest))
        return Text(f"潜艇奖励图标{shown}", f"the submarine icon on {shown}")
    if head == "area":
        area = area_name(rest)
        return Text(f"完成区域{area.zh}", f"completing the {area.en}")
    for track, text in TRACKS.items():
        n = source.removeprefix(f"{track} track space ")
        if n != source and n.isdigit():
            return Text(f"{text.zh}轨道第{n}格", f"{text.en} track space {n}")
    kind = source.partition(":")[0]
    if kind in REWARD_NAMES:
        return reward_name(source)
    return None


def _cells_of(shown: str) -> list[tuple[int, int]]:
    """The cells of a source such as ``icon (1,2) (2,2)``."""
    out = []
    for cell in shown.split():
        col, _, row = cell.strip("()").partition(",")
        if col.isdigit() and row.isdigit():
            out.append((int(col), int(row)))
    return out


TOKEN_NAMES: dict[str, Text] = {
    "energy": Text("能量标记", "an energy token"),
    "spy": Text("间谍标记", "a spy token"),
    "hike": Text("徒步标记", "a hike token"),
}
"""The night's tokens (§三.4)."""


def _companion_of(owner: int | None, companion: int, seat: int) -> Text:
    """Whose companion a token went on: ``2号玩家位置1的伙伴`` / ``player 2's companion in
    place 1``, the virtual opponent's (solo), or one's own."""
    if companion == SPIRIT:
        own = Text("原初之灵", "primal spirit")
    elif owner is None:
        own = Text(f"第{companion + 1}名伙伴", f"companion {companion + 1}")
    else:
        own = Text(f"位置{companion + 1}的伙伴", f"companion in place {companion + 1}")
    if owner == seat:
        return Text(f"自己的{own.zh}", f"their {own.en}")
    whose = CHOICE_TEXTS["virtual_owner"] if owner is None else seat_name(owner)
    of = "" if own.zh.startswith("位置") else "的"
    return Text(f"{whose.zh}{of}{own.zh}", f"{whose.en}'s {own.en}")


def _token_line(e: dict[str, Any]) -> Text:
    seat = int(e["seat"])
    who = seat_name(seat, first=True)
    target = _companion_of(e.get("owner"), int(e["companion"]), seat)
    if e["token"] == "hike":
        return Text(f"{who.zh}派{target.zh}徒步(徒步标记)", f"{who.en} sends {target.en} hiking")
    token = TOKEN_NAMES.get(str(e["token"]), Text("标记", "a token"))
    return Text(
        f"{who.zh}把{token.zh}放在{target.zh}上", f"{who.en} puts {token.en} on {target.en}"
    )


def _reward_line(e: dict[str, Any]) -> Text:
    who = seat_name(int(e["seat"]), first=True)
    reward = str(e["reward"])
    kind, _, amount = reward.partition(":")
    n = int(amount) if amount.lstrip("-").isdigit() else 1
    if kind == "vp" and n < 0:
        points = "1 point" if n == -1 else f"{-n} points"
        line = Text(f"{who.zh}支付{-n}分", f"{who.en} pays {points}")
    elif kind == "slot":
        slots = "a knowledge slot" if n == 1 else f"{n} knowledge slots"
        line = Text(f"{who.zh}解锁{n}个知识储存格", f"{who.en} unlocks {slots}")
    else:
        gained = reward_name(reward)
        line = Text(f"{who.zh}获得{gained.zh}", f"{who.en} gains {gained.en}")
    source = source_name(str(e.get("source", "")))
    if source is None:
        return line
    return Text(f"{line.zh}({source.zh})", f"{line.en} ({source.en})")


def _lost_line(e: dict[str, Any]) -> Text:
    piece = piece_name(str(e["piece"]))
    line = Text(
        f"{_who(e).zh}的潜艇里放不下{piece.zh},这份奖励失去",
        f"No cell of {_who(e).en}'s submarine can take the {piece.en}: that reward is lost",
    )
    source = source_name(str(e.get("source", "")))
    if source is None:
        return line
    return Text(f"{line.zh}({source.zh})", f"{line.en} ({source.en})")


def _scores_line(e: dict[str, Any]) -> Text:
    rescued = list(e.get("rescued") or ())
    parts = []
    for seat, score in enumerate(e["scores"]):
        who = seat_name(seat)
        count = rescued[seat] if seat < len(rescued) else 0
        parts.append(
            Text(
                f"{who.zh}{score}分(解救{count}个生物)",
                f"{who.en}: {score} points ({count} rescued)",
            )
        )
    shown = listed(parts, Text("无", "none"))
    return Text(f"最终得分:{shown.zh}", f"Final scores: {shown.en}")


def _threat_line(e: dict[str, Any]) -> Text:
    threat, trigger = threat_name(str(e["name"])), trigger_name(str(e["trigger"]))
    return Text(
        f"翻开{threat.zh}(触发条件:{trigger.zh})",
        f"Threat revealed: {threat.en} (set off by {trigger.en})",
    )


def _start_line(e: dict[str, Any]) -> Text:
    who = seat_name(int(e["player"]))
    return Text(
        f"起始玩家标记交给{who.zh},夜晚从{who.zh}开始",
        f"The start-player marker goes to {who.en}: the night begins with them",
    )


def _virtual_line(e: dict[str, Any]) -> Text:
    n = int(e["count"])
    en = "1 companion" if n == 1 else f"{n} companions"
    return Text(
        f"虚拟对手展示{n}名伙伴,每名带1个能量标记",
        f"The virtual opponent shows {en}, each with an energy token",
    )


def _who(e: dict[str, Any]) -> Text:
    return seat_name(int(e["seat"]), first=True)


EVENT_LINES: dict[str, Callable[[dict[str, Any]], Text]] = {
    "greenwood.creature_rescued": lambda e: Text(
        f"{_who(e).zh}解救了{creature_name(str(e['creature'])).zh}",
        f"{_who(e).en} rescued the {creature_name(str(e['creature'])).en}",
    ),
    "greenwood.dusk_marker_placed": lambda e: Text(
        f"{_who(e).zh}把黄昏标记放在“{_effect(e).zh}”上,本轮放弃该效果",
        f"{_who(e).en} gives up “{_effect(e).en}” this round (dusk marker)",
    ),
    "greenwood.final_scores": _scores_line,
    "greenwood.knowledge_changed": lambda e: Text(
        f"{_who(e).zh}的知识:{knowledge_list(e['knowledge']).zh}",
        f"{_who(e).en}'s knowledge: {knowledge_list(e['knowledge']).en}",
    ),
    "greenwood.piece_placed": lambda e: Text(
        f"{_who(e).zh}把{piece_name(str(e['piece'])).zh}放进潜艇:{_cells(e)}",
        f"{_who(e).en} placed the {piece_name(str(e['piece'])).en} on {_cells(e)}",
    ),
    "greenwood.placement_awaited": lambda e: Text(
        f"{_who(e).zh}:把{piece_name(str(e['piece'])).zh}放进潜艇",
        f"{_who(e).en}: place the {piece_name(str(e['piece'])).en} in the submarine",
    ),
    "greenwood.reward_gained": _reward_line,
    "greenwood.reward_lost": _lost_line,
    "greenwood.solo_rated": lambda e: Text(
        f"单人成绩:{e['score']}分,第{e['band']}档:{e['title_zh']}",
        f"Solo result: {e['score']} points, band {e['band']} of 5: {e['title_en']}",
    ),
    "greenwood.threat_revealed": _threat_line,
    "greenwood.start_player_chosen": _start_line,
    "greenwood.token_used": _token_line,
    "greenwood.virtual_companions": _virtual_line,
}
"""The log's line for each Greenwood event, from the event as plain data (``Game.event_text``)."""


def _effect(e: dict[str, Any]) -> Text:
    return DUSK_EFFECT_NAMES.get(str(e["effect"]), Text("黄昏效果", "a dusk effect"))


def _cells(e: dict[str, Any]) -> str:
    return cell_names((int(c), int(r)) for c, r in e.get("cells") or ())


BOARD = Text("潜艇{n}", "submarine {n}")
"""A submarine layout as the demo note names it (``demo_note``)."""
TRACK_NAMES: dict[str, Text] = {
    "strength": Text("力量轨", "strength track"),
    "pathfinding": Text("寻路轨", "pathfinding track"),
}


def printed_item(
    event: dict[str, Any], layout: int, entered: Iterable[str] = ()
) -> tuple[str, Text] | None:
    """The printed item (its box id and name) an event's announcement rests on: the submarine
    layout of an icon or area paid or a piece lost, a track space, a threat's protection or
    trigger, a creature's points; None when it rests on the rules alone. ``entered``: threats
    the table entered this game (no box item yet: the table's own values)."""
    kind = str(event.get("type"))
    if kind == "greenwood.threat_revealed":
        name = str(event.get("name"))
        return None if name in entered else (threat_item(name), threat_name(name))
    if kind not in ("greenwood.reward_gained", "greenwood.reward_lost"):
        return None
    source = str(event.get("source", ""))
    if source.startswith(("icon ", "area ")) or kind == "greenwood.reward_lost":
        return layout_item(layout), BOARD.format(n=layout)
    for track, called in TRACK_NAMES.items():
        if source.startswith(f"{track} track"):
            return f"tracks/{track}", called
    if source.startswith("protection: "):
        name = source.removeprefix("protection: ")
        return None if name in entered else (threat_item(name), threat_name(name))
    if source.startswith("rescue: "):
        name = source.removeprefix("rescue: ")
        return f"pieces/creature/{name}", creature_name(name)
    return None


def event_line(
    event: dict[str, Any],
    lang: str,
    box: Box | None = None,
    layout: int = 0,
    entered: Iterable[str] = (),
) -> str | None:
    """The log's line for a Greenwood event (plain data) in ``lang``; None for another's. With
    the game's ``box`` (its ``layout`` and the threats the table ``entered``), a line resting
    on a demo box's value says so (``demo_note``)."""
    line = EVENT_LINES.get(str(event.get("type")))
    if line is None:
        return None
    text = line(event)
    item = None if box is None else printed_item(event, layout, tuple(entered))
    if box is not None and item is not None and not box.is_owners(item[0]):
        note = demo_note(item[1])
        text = Text(f"{text.zh}({note.zh})", f"{text.en} ({note.en})")
    return text.zh if lang == "zh" else text.en
