"""What the kiosk's log says for each Don't Starve event, in Chinese and English; the names of
the things players read on the console and in refusal messages (biomes, resources, symbols,
structures, the numbers a move carries).

``{player}`` is the seat counted from 1; the other names are the event's fields.
"""

from engine.core import Text
from engine.dont_starve.catalogue import PORTAL

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

# --- names (the console's labels, engine/dont_starve/offers.py; refusals, reasons.py) ---------

BIOME_NAMES = {
    "forest": Text("林地", "forest"),
    "grassland": Text("草原", "grassland"),
    "badlands": Text("荒地", "badlands"),
    "marsh": Text("湿地", "marsh"),
    PORTAL: Text("传送门", "portal"),
}
KIND_NAMES = {
    "basic": Text("基础资源", "basic resources"),
    "raw_food": Text("生食", "raw food"),
    "cooked_food": Text("熟食", "cooked food"),
    "loot": Text("战利品", "loot"),
    "item": Text("物品卡", "item cards"),
}
"""What a character holds (the inventory fields), as a kind."""
KIND_ONE = {"basic": "basic resource", "item": "item card"}
"""The English name of one of a kind, where it differs from ``KIND_NAMES``."""
SYMBOL_NAMES = {
    "wet": Text("潮湿", "wet"),
    "overheat": Text("过热", "overheat"),
    "cold": Text("寒冷", "cold"),
}
NUMBER_NAMES = {
    "cv": Text("角色战斗值", "fighters' CV"),
    "monster_cv": Text("怪物战斗值", "monster's CV"),
    "damage": Text("怪物伤害值", "monster's damage"),
    "count": Text("数量", "count"),
    "points": Text("光照点数", "light points"),
    "health": Text("生命", "health"),
    "hunger": Text("饱食", "hunger"),
    "sanity": Text("理智", "sanity"),
}
"""The numbers a move carries, as the console's fields name them."""
STRUCTURE_NAMES = {
    "science machine": Text("科学机器", "Science Machine"),
    "alchemy engine": Text("炼金引擎", "Alchemy Engine"),
    "fire pit": Text("火坑", "Fire Pit"),
    "crock pot": Text("烹饪锅", "Crock Pot"),
    "tent": Text("帐篷", "Tent"),
    "ice box": Text("冰箱", "Ice Box"),
    "drying rack": Text("晾肉架", "Drying Rack"),
    "lightning rod": Text("避雷针", "Lightning Rod"),
    "bee box": Text("蜂箱", "Bee Box"),
    "bird cage": Text("鸟笼", "Birdcage"),
    "chest": Text("箱子", "Chest"),
    "meat effigy": Text("肉块雕像", "Meat Effigy"),
}
"""Structure cards by the name typed at setup (lower case). The rule text names none of the 17
cards: these are the names of the Chinese edition of the video game, to be checked against the
printed cards; a structure not listed is shown by its slot on the base camp board."""


def structure_name(structure: str, slot: int) -> Text:
    """A structure in the base camp: its card's name, or (not in ``STRUCTURE_NAMES``) the base
    camp slot it stands in, counted from 1, with the name typed at setup in English."""
    known = STRUCTURE_NAMES.get(structure.strip().lower())
    if known is not None:
        return known
    return Text(f"营地第{slot}张建筑卡", structure)


def count_of(n: int, kind: str) -> Text:
    """``n`` of a kind held: ``2个基础资源`` / ``2 basic resources``, ``1张物品卡`` /
    ``1 item card``."""
    k = KIND_NAMES.get(kind, Text(kind, kind))
    unit = "张" if kind == "item" else "个"
    en = KIND_ONE.get(kind, k.en) if n == 1 else k.en
    return Text(f"{n}{unit}{k.zh}", f"{n} {en}")


def numbers_named(*fields: str) -> Text:
    """Some of a move's numbers by name, as a list: ``生命、饱食、理智`` / ``health, hunger,
    sanity``."""
    names = [NUMBER_NAMES.get(f, Text(f, f)) for f in fields]
    return Text("、".join(n.zh for n in names), ", ".join(n.en for n in names))
