"""What the kiosk shows of a Don't Starve game beside the map: the summary and each
character's strip (``Game.view``; docs/dont_starve.md "On the table screen")."""

from __future__ import annotations

from typing import Any

from engine.core import State, Text
from engine.dont_starve.catalogue import PORTAL_SLOT, Catalogue, catalogue, weather_title
from engine.dont_starve.state import ITEM_LIMIT, RESOURCE_LIMIT, Character, DSData
from engine.dont_starve.texts import (
    BIOME_NAMES,
    DIFFICULTY_NAMES,
    RESULTS,
    TIME_NAMES,
    scenario_title,
    symbols_line,
    tile_called,
)


def view(state: State[Any], lang: str) -> dict[str, Any]:
    """Scenario, season, difficulty, day or night, dial, needs, storm, weather, effigies
    (essence with a base camp, the result once decided), and a short strip per character."""
    data: DSData = state.data
    zh = lang == "zh"

    def tr(text: Text) -> str:
        return text.zh if zh else text.en

    cat = catalogue(state)
    light, hunger, sanity = data.current_needs(cat)
    if data.past_storm:
        storm = Text("已越过", "passed")
    else:
        n = data.storm_after - data.needs_removed
        storm = Text(f"还有{n}块需求板块", f"in {n} tile(s)")
    season = cat.season_names[data.season]
    not_given = Text("待录入", "not entered yet")
    if data.needs_due:
        needs = not_given
    else:
        needs = Text(
            f"光照{light} 饥饿{hunger} 理智{sanity}",
            f"light {light}, hunger {hunger}, sanity {sanity}",
        )
    if data.weather:
        card = cat.weather_card(data.weather)
        weather = symbols_line(card.symbols)
        if card.title_zh and card.title_en:
            title = weather_title(card)
            weather = Text(f"「{title.zh}」{weather.zh}", f"'{title.en}': {weather.en}")
    else:
        weather = not_given
    summary: list[list[Any]] = [
        [tr(Text("剧本", "Scenario")), tr(scenario_title(cat, data.scenario))],
        [tr(Text("季节", "Season")), season[0] if zh else season[1]],
        [tr(Text("难度", "Difficulty")), tr(DIFFICULTY_NAMES[data.difficulty])],
        [tr(Text("时间", "Time")), tr(TIME_NAMES[data.time])],
        [tr(Text("行动轮盘", "Action dial")), data.dial],
        [tr(Text("剩余需求板块", "Needs tiles left")), len(data.needs)],
        [tr(Text("需求", "Needs")), tr(needs)],
        [tr(Text("风暴", "Storm")), tr(storm)],
        [tr(Text("天气", "Weather")), tr(weather)],
        [tr(Text("肉块雕像", "Meat effigies")), data.effigies],
    ]
    if data.structures:
        summary.append([tr(Text("精华", "Essence")), data.essence])
    if data.result in RESULTS:
        summary.append([tr(Text("结果", "Result")), tr(RESULTS[data.result])])
    players = [
        {
            "seat": seat,
            "name": c.card(cat).name_zh if zh else c.card(cat).name_en,
            "fields": _strip(cat, data, c, tr),
        }
        for seat, c in enumerate(data.characters)
    ]
    return {"summary": summary, "players": players}


def _strip(cat: Catalogue, data: DSData, c: Character, tr: Any) -> list[list[Any]]:
    """A character's fields for the kiosk's strip, most important first (six at most): the
    three dials (属性; sanity with the shadow creatures showing), the tile, focus, inventory."""
    card = c.card(cat)
    sanity = f"{c.sanity}/{card.max_sanity}"
    shadows = c.shadows(cat)
    if shadows:
        sanity += tr(Text(f"(影怪{shadows}只)", f" ({shadows} shadows)"))
    if c.defeated or c.tile is None:
        where = Text("已被击败,等待复活", "defeated, waiting to be revived")
    else:
        where = tile_called(c.tile)
        biome = data.biome_of(c.tile)
        if c.tile != PORTAL_SLOT and biome is not None:
            b = BIOME_NAMES[biome]
            where = Text(f"{where.zh}({b.zh})", f"{where.en} ({b.en})")
    inventory = Text(
        f"资源{c.resources}/{RESOURCE_LIMIT} 物品{c.item}/{ITEM_LIMIT}",
        f"{c.resources}/{RESOURCE_LIMIT} resources, {c.item}/{ITEM_LIMIT} items",
    )
    return [
        [tr(Text("生命", "Health")), f"{c.health}/{card.max_health}"],
        [tr(Text("饱食", "Hunger")), f"{c.hunger}/{card.max_hunger}"],
        [tr(Text("理智", "Sanity")), sanity],
        [tr(Text("位置", "Where")), tr(where)],
        [tr(Text("专注", "Focus")), f"{c.focus}/{card.focus}"],
        [tr(Text("背包", "Backpack")), tr(inventory)],
    ]
