"""What the kiosk's log says for each Stonesaga event, in Chinese and English.

``{player}`` is the seat counted from 1; the other names are the event's fields.
"""

from engine.core import Text

EVENT_TEXTS: dict[str, Text] = {
    "stonesaga.activity_raised": Text("活动度升至{activity}", "Activity rises to {activity}"),
    "stonesaga.behemoth_alert": Text("巨兽{name}警觉", "The behemoth {name} is alert"),
    "stonesaga.boost_changed": Text(
        "{character}的{attribute}加值:{level}", "{character}'s {attribute} boost: {level}"
    ),
    "stonesaga.challenge_ended": Text("挑战结束:{result}", "The challenge ends: {result}"),
    "stonesaga.challenge_event_due": Text(
        "挑战事件({threshold}):{text_zh}", "Challenge event ({threshold}): {text_en}"
    ),
    "stonesaga.character_died": Text(
        "{name}死去(哀悼骰{roll}:{effect})", "{name} died (mourning roll {roll}: {effect})"
    ),
    "stonesaga.character_joined": Text(
        "{name}加入({player}号玩家)", "{name} joins (player {player})"
    ),
    "stonesaga.energy_changed": Text(
        "{character}的能量:{energy}({reason})", "{character}'s energy: {energy} ({reason})"
    ),
    "stonesaga.health_changed": Text("{character}的健康:{what}", "{character}'s health: {what}"),
    "stonesaga.kept": Text(
        "{character}保留物品{items}与材料{materials}",
        "{character} keeps items {items} and materials {materials}",
    ),
    "stonesaga.mining_bag_filled": Text(
        "{character}在{feature}采矿,袋中:{bag}",
        "{character} mines the {feature}; in the bag: {bag}",
    ),
    "stonesaga.night_recovered": Text(
        "{character}夜间恢复,能量{energy}", "{character} recovers at night: energy {energy}"
    ),
    "stonesaga.fishing_rolled": Text(
        "{character}钓鱼掷出{dice}", "{character} rolls {dice} for fishing"
    ),
    "stonesaga.mourning_due": Text(
        "{name}死去,氏族掷哀悼骰", "{name} died; the clan rolls the mourning die"
    ),
    "stonesaga.omen_set": Text("当前预兆:{omen}", "Current omen: {omen}"),
    "stonesaga.ore_drawn": Text(
        "{character}抽出{stone}({omen}){entry_zh}", "{character} draws {stone} ({omen}) {entry_en}"
    ),
    "stonesaga.ore_returned": Text("矿石放回供应区:{drawn}", "Ore returned to the supply: {drawn}"),
    "stonesaga.resources_changed": Text(
        "{character}的{resource}:{delta}", "{character}'s {resource}: {delta}"
    ),
    "stonesaga.society_checked": Text(
        "社会:人口{population},动荡{unrest},前哨{outposts}/{outpost_limit}",
        "Society: population {population}, unrest {unrest}, outposts {outposts}/{outpost_limit}",
    ),
    "stonesaga.test_resolved": Text(
        "{character}的{attribute}检定:{total}({success})",
        "{character}'s {attribute} test: {total} (success: {success})",
    ),
    "stonesaga.tile_marked": Text("{tile}标记{marker}:{level}", "{tile} marked {marker}: {level}"),
    "stonesaga.travelled": Text("{character}前往{tile}", "{character} travels to {tile}"),
    "stonesaga.valley_recorded": Text("山谷已记录({region})", "The valley is recorded ({region})"),
}
