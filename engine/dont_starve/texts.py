"""What the kiosk's log says for each Don't Starve event, in Chinese and English.

``{player}`` is the seat counted from 1; the other names are the event's fields.
"""

from engine.core import Text

EVENT_TEXTS: dict[str, Text] = {
    "dont_starve.character_defeated": Text(
        "{player}号角色被击倒", "Player {player}'s character is defeated"
    ),
    "dont_starve.character_moved": Text(
        "{player}号角色从{from_tile}移动到{to_tile}",
        "Player {player} moves from {from_tile} to {to_tile}",
    ),
    "dont_starve.character_revived": Text(
        "{player}号角色复活(剩余肉雕像{effigies_left})",
        "Player {player} is revived ({effigies_left} effigies left)",
    ),
    "dont_starve.dial_set": Text("行动转盘:{value}({time})", "Action dial: {value} ({time})"),
    "dont_starve.essence_changed": Text("精华:{essence}", "Essence: {essence}"),
    "dont_starve.fight_ended": Text(
        "{tile}的战斗结束:{won}", "The fight on {tile} is over (won: {won})"
    ),
    "dont_starve.fight_started": Text(
        "{player}号角色在{tile}与{target}战斗,怪物骰{monster_dice}个",
        "Player {player} fights {target} on {tile}: {monster_dice} monster dice",
    ),
    "dont_starve.fighter_resolved": Text(
        "{player}号角色:胜{won},伤害{damage}", "Player {player}: won {won}, damage {damage}"
    ),
    "dont_starve.focus_changed": Text(
        "{player}号角色专注:{active}({reason})", "Player {player} focus: {active} ({reason})"
    ),
    "dont_starve.inventory_changed": Text(
        "{player}号角色的{kind}:{count}", "Player {player}'s {kind}: {count}"
    ),
    "dont_starve.location_explored": Text(
        "{player}号角色探索了{tile}({card})", "Player {player} explored {tile} ({card})"
    ),
    "dont_starve.needs_announced": Text(
        "每日需求:光照{light},饥饿{hunger},理智{sanity}",
        "Daily needs: light {light}, hunger {hunger}, sanity {sanity}",
    ),
    "dont_starve.needs_tile_removed": Text(
        "移除一块需求板块,剩余{left}({time})", "A needs tile is removed: {left} left ({time})"
    ),
    "dont_starve.scenario_won": Text(
        "剧本胜利!解锁点数{unlock_points}", "Scenario won! {unlock_points} unlock points"
    ),
    "dont_starve.shadow_covered": Text(
        "{player}号角色的{tier}级暗影生物被盖住",
        "Player {player}'s tier {tier} shadow creature is covered",
    ),
    "dont_starve.shadow_revealed": Text(
        "{player}号角色出现{tier}级暗影生物",
        "A tier {tier} shadow creature appears for player {player}",
    ),
    "dont_starve.stats_changed": Text(
        "{player}号角色:生命{health},饥饿{hunger},理智{sanity}",
        "Player {player}: health {health}, hunger {hunger}, sanity {sanity}",
    ),
    "dont_starve.tile_revealed": Text("翻开{tile}:{biome}", "Tile {tile} revealed: {biome}"),
    "dont_starve.weather_announced": Text("天气:{card}", "Weather: {card}"),
    "dont_starve.weather_drawn": Text("抽到天气牌{card}", "Weather card drawn: {card}"),
    "dont_starve.world_event": Text("世界事件:{name}", "World event: {name}"),
}
