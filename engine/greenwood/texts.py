"""What the kiosk's log says for each Greenwood event, in Chinese and English.

``{player}`` is the seat counted from 1; the other names are the event's fields.
"""

from engine.core import Text

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
