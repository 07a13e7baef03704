"""What the kiosk's log says for each Greenwood event, in Chinese and English.

``{player}`` is the seat counted from 1; the other names are the event's fields.
"""

from collections.abc import Iterable

from engine.core import Text
from engine.greenwood.records import SPIRIT

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
    "greenwood.solo_rated": Text(
        "单人成绩:{score}分,{title_zh}", "Solo result: {score} points, {title_en}"
    ),
    "greenwood.threat_revealed": Text("翻开威胁:{name}", "Threat revealed: {name}"),
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
    "threat": Text("威胁{n}(保护奖励:{reward})", "{name} (protection: {reward})"),
    "unplaced": Text("尚未放置的保护标记", "An unplaced token"),
    "free_slot": Text("空的储存格", "A free slot"),
    "instead_of": Text("替换掉一个{k}", "In place of a {k} one"),
    "creature": Text("{name}(需要知识:{cost};{vp}分)", "{name} (needs {cost}; {vp} points)"),
    "cells": Text("{cells}({turn})", "{cells} ({turn})"),
    "upright": Text("正放", "as printed"),
    "turned": Text("旋转{deg}°", "turned {deg}°"),
    "flipped": Text("翻面后旋转{deg}°", "flipped, turned {deg}°"),
}
"""Labels of the choices, filled in from the state."""

# --- names in refusal messages (engine/greenwood/rules.py, submarine.py) ---------------------

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
