"""Don't Starve's box (docs/box.md, docs/dont_starve.md "The box"): the printed content the rules
judge with is the box the game was set up with, not the demo's data files. A second box, the
owner's, with values unlike the demo's, shows that every ruling reading a printed value follows
it (a scenario's layout, the tiles' biomes, a weather card's losses, a needs tile, a location's
hostility, a character's stats, the shadow cards, the scenario's monsters), and that a ruling
resting on a demo value says so."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.core import Pass, find_game
from engine.core.box import Box, BoxError, items_of, kind_of, merged
from engine.dont_starve.catalogue import PORTAL, catalogue, load_catalogue
from engine.dont_starve.moves import (
    DrawLocation,
    DrawWeather,
    Explore,
    Fight,
    Interact,
    LayNeedsTile,
    Lose,
    MoveTo,
    WeatherDrawn,
)
from engine.dont_starve.offers import seat_offers
from engine.dont_starve.picture import layout_picture
from vision.readers.dont_starve import DontStarveReader, read_layout
from vision.registry import load_registry

GAME = find_game("dont_starve")
NOTE_ZH = "按演示盒的"
NOTE_EN = "judged by the demo box's"
DEMO = GAME.demo_box()
DEMO_FILES = DEMO.files


def _scenario(**changes: Any) -> dict[str, Any]:
    """A New Beginning as the demo's scenarios.toml writes it, with changes."""
    return {**DEMO_FILES["scenarios.toml"]["a_new_beginning"], **changes}


OWNER_LAYOUT = [
    {**s, "x": 7} if s["name"] == "K" else s
    for s in DEMO_FILES["scenarios.toml"]["a_new_beginning"]["slots"]
]
"""§世界构建: the owner's layout card puts K one tile right of the demo's, away from J."""
BIOMES = list(DEMO_FILES["tiles.toml"]["biomes"])
SWAPPED = [*BIOMES[:1], BIOMES[4], *BIOMES[2:4], BIOMES[1], *BIOMES[5:]]
"""The owner's printed tiles: tile 2 is a grassland, tile 5 a forest (the demo's the other way)."""

OWNER_ITEMS: dict[str, Any] = {
    "scenarios/a_new_beginning": _scenario(
        slots=OWNER_LAYOUT,
        tokens=[{"slot": "G", "name": "spider", "cv": 4, "damage": 3, "hostile": True}],
    ),
    "tiles/biomes": SWAPPED,
    # §天气阶段: two colds left of the storm icon, a wet right of it; the event costs 1 health.
    "weather/card/autumn-3": {
        "id": "autumn-3",
        "title_zh": "霜降",
        "title_en": "Frost's Descent",
        "season": "autumn",
        "symbols": ["cold", "cold", "storm", "wet"],
        "event": [1, 0, 0],
        "world": [],
    },
    # §需求板块: the owner's tile 2 asks for more.
    "needs/tile/2": {"number": 2, "kind": "normal", "day": [0, 3, 2], "night": [2, 2, 2]},
    # §敌意: the owner's Pine Grove has a hostile monster (the demo's a neutral one).
    "locations/forest/forest-01": {
        "id": "forest-01",
        "title_zh": "毒蛛林",
        "title_en": "Venom Grove",
        "hostile": True,
        "monster_cv": 5,
        "damage": 2,
        "mining": 1,
    },
    # §属性, §角色复活: the owner's Wilson.
    "characters/wilson": {
        "name_zh": "威尔逊",
        "name_en": "Wilson",
        "max_health": 7,
        "max_hunger": 9,
        "max_sanity": 12,
        "health": 6,
        "hunger": 5,
        "sanity": 11,
        "focus": 2,
        "focus_thresholds": [[0, 0], [4, 2]],
        "sanity_thresholds": [10, 6, 2],
        "revive": [3, 4, 4],
    },
    # §战斗: a tier 1 shadow creature of CV 5.
    "shadows/tier/1": {"tier": 1, "cv": 5, "shadow_dice": 0},
}
OWNER = Box.of(GAME.name, merged(DEMO_FILES, OWNER_ITEMS), owner=OWNER_ITEMS)
"""The owner's box: the demo's items with the ones above over them (the owner's)."""


def line(p: Any, event: Any, lang: str = "en") -> str:
    """The kiosk's log line for an event, as the game says it with the state."""
    return GAME.event_text(event.to_dict(), lang, p.state) or ""


# --- the box is loaded, named and checked -----------------------------------------------------


def test_every_kind_of_printed_item_has_a_name_for_players() -> None:
    """``tablesight box dont_starve show`` names each kind of item of the demo box, and the
    files of entries an owner may add to (a scenario card, a character) by their own name."""
    kinds = {kind_of(i) for i in items_of(DEMO_FILES)}
    assert kinds | {"characters", "scenarios"} == set(GAME.box_kinds)
    assert all(t.zh and t.en for t in GAME.box_kinds.values())
    assert "weather/card/autumn-3" in items_of(DEMO_FILES)
    assert "needs/tile/2" in items_of(DEMO_FILES)  # each needs tile an item of its own


def test_the_catalogue_of_a_game_is_its_boxs(play) -> None:
    """The catalogue a state reads is its box's, made once per box; the demo's without one."""
    p = play(box=OWNER)
    assert catalogue(p.state) is catalogue(OWNER) is GAME.catalogue(p.state.options)
    assert catalogue(p.state).weather_card("autumn-3").symbols == ("cold", "cold", "storm", "wet")
    assert catalogue().weather_card("autumn-3").symbols == ("cold", "storm", "cold")
    assert catalogue(OWNER).is_demo("weather/card/autumn-1")
    assert not catalogue(OWNER).is_demo("weather/card/autumn-3")


@pytest.mark.parametrize(
    ("item", "value", "named"),
    [
        (
            "weather/card/autumn-3",
            {"id": "autumn-3", "season": "autumn", "symbols": ["cold", "storm"], "world": []},
            "weather.toml, card autumn-3: missing field 'event'",
        ),
        (
            "weather/card/autumn-3",
            {
                "id": "autumn-3",
                "season": "autumn",
                "symbols": ["cold", "storm", "storm"],
                "event": [0, 0, 0],
                "world": [],
            },
            "weather.toml, card autumn-3: needs exactly one storm icon",
        ),
        (
            "weather/card/autumn-3",
            {"id": "autumn-3", "season": "monsoon", "symbols": ["storm"], "event": [0, 0, 0]},
            "weather.toml, card autumn-3: season must be one of",
        ),
        (
            "locations/forest/forest-01",
            {"id": "forest-01", "mining": 3},
            "locations.toml, forest forest-01: missing field 'hostile'",
        ),
        (
            "needs/tile/2",
            {"number": 2, "kind": "easy", "day": [0, 1, 0], "night": [1, 1, 1]},
            "needs.toml, tile 2: kind must be normal or hard",
        ),
        (
            "characters/wilson",
            {**OWNER_ITEMS["characters/wilson"], "health": 8},
            "characters.toml, wilson: health 8 is above max_health",
        ),
        (
            "scenarios/a_new_beginning",
            _scenario(portal={"x": 1, "y": 0}),
            "scenarios.toml, a_new_beginning: slot P overlaps another",
        ),
        (
            "tiles/biomes",
            ["forest", *BIOMES[1:]],
            "tiles.toml, biomes: must list exactly one portal",
        ),
    ],
)
def test_a_broken_box_is_refused_naming_the_file_and_the_entry(item, value, named) -> None:
    """A box the rules cannot judge with does not load; the problem names its file and entry
    (what ``tablesight box dont_starve import`` prints, changing nothing)."""
    with pytest.raises(BoxError, match=named.replace("(", r"\(").replace(")", r"\)")):
        GAME.load_box(merged(DEMO_FILES, {item: value}))


def test_what_the_table_entered_loads_back_as_the_owners_box(play) -> None:
    """§准备阶段, §探索, §需求板块: a card or tile entered at the console is announced with its
    entry as the data file writes it, which the box takes back (the kiosk keeps it there):
    next game it is picked by its title."""
    p = play(draws="table")
    events = p.do(DrawWeather(0, left_cold=1, right_wet=2, sanity=1, world=("regrow",)))
    events += p.do(LayNeedsTile(0, kind="normal", day_hunger=2, night_light=1))
    p.do(MoveTo(0, "E", biome="forest"))
    p.do(Explore(0))
    events += p.do(DrawLocation(0, hostile=True, monster_cv=4, damage=2, mining=2))
    entered = {e.item: json.loads(e.value) for e in events if e.type == "box_item_entered"}
    assert set(entered) == {"weather/card/autumn-t1", "needs/tile/9", "locations/forest/forest-t1"}
    cat = load_catalogue(merged(DEMO_FILES, entered))
    assert cat.weather_card("autumn-t1").symbols == ("cold", "storm", "wet", "wet")
    assert cat.weather_card("autumn-t1").world == ("regrow",)
    assert cat.needs_tile(9).day == (0, 2, 0) and cat.needs_tile(9).night == (1, 0, 0)
    forest = cat.location("forest-t1")
    assert forest is not None and forest.hostile and forest.mining == 2


# --- every ruling that reads a printed value follows the box ----------------------------------


def test_the_layout_check_follows_the_owners_scenario_card(play) -> None:
    """§移动 相邻: whether two tiles are adjacent is the layout card's; on the owner's card K
    lies one tile right, no longer beside J. A refusal on the owner's layout carries no note;
    the same refusal on the demo's says it rests on the demo box."""
    p = play(box=OWNER)
    p.set_char(0, tile="J")
    verdict = p.check(MoveTo(0, "K", biome="forest"))
    assert verdict.code == "dont_starve.not_adjacent" and NOTE_EN not in verdict.message.en
    q = play()
    q.set_char(0, tile="J")
    assert q.check(MoveTo(0, "K", biome="forest")).ok
    q.set_char(0, tile="A")
    demo = q.check(MoveTo(0, "K", biome="forest"))
    assert demo.code == "dont_starve.not_adjacent"
    assert NOTE_ZH in demo.message.zh and "剧本「新的开始」的布局" in demo.message.zh
    assert "layout of scenario 'A New Beginning'" in demo.message.en


def _laid(cat: Any, where: dict[str, tuple[int, int]]) -> dict[int, tuple[str, Any]]:
    """Tiles laid face down on these half-tile places (the portal face up at (4, 2)), each slot
    with a printed tile of a biome the scenario asks for (the box's tiles)."""
    half = cat.tile_mm / 2
    numbers: dict[str, list[int]] = {}
    for number, biome in enumerate(cat.tile_biomes, 1):
        numbers.setdefault(biome, []).append(number)
    sc = cat.scenarios["a_new_beginning"]
    wanted = [b for b, n in sorted(sc.biomes.items()) for _ in range(n)]
    tiles = {numbers[PORTAL][0]: ("revealed", (0.0, 0.0, 0.0))}
    for (x, y), biome in zip(where.values(), wanted, strict=True):
        number = numbers[biome].pop(0)
        tiles[number] = ("hidden", ((x - 4) * half, (y - 2) * half, 0.0))
    return tiles


def test_the_cameras_layout_check_follows_the_owners_box() -> None:
    """§世界构建: the camera judges the map against the box's layout card and tiles: the owner's
    K is right of the demo's (a tile on the demo's place is on no place of the owner's, and K
    is missing); the owner's tile 2 is a grassland. Against the demo box the report says so."""
    owner, demo = catalogue(OWNER), catalogue()
    places = {s.name: (s.x, s.y) for s in demo.scenarios["a_new_beginning"].slots}
    on_demo = read_layout(_laid(owner, places), {}, owner.scenarios["a_new_beginning"], cat=owner)
    assert {(p.code, p.slot) for p in on_demo.problems} >= {("missing", "K"), ("misplaced", None)}
    assert on_demo.note is None
    moved = {**places, "K": (7, 4)}
    fine = read_layout(_laid(owner, moved), {}, owner.scenarios["a_new_beginning"], cat=owner)
    assert fine.ok and fine.note is None
    assert {t.tile: t.biome for t in fine.tiles}[2] == "grassland"
    as_demo = read_layout(_laid(demo, places), {}, demo.scenarios["a_new_beginning"], cat=demo)
    assert as_demo.ok and as_demo.note is not None and NOTE_EN in as_demo.note.en
    assert {t.tile: t.biome for t in as_demo.tiles}[2] == "forest"


def test_the_table_readers_layout_is_the_states_box(play) -> None:
    """The table loop's reader checks the layout in view against the state's box: the owner's
    K place is empty when the tiles lie where the demo's card puts them."""
    registry = load_registry()
    tags = {(e.item, e.face): e.tag_id for e in registry.for_game("dont_starve")}
    owner = catalogue(OWNER)
    places = {s.name: (s.x, s.y) for s in owner.scenarios["a_new_beginning"].slots}
    for box, expected in ((OWNER, []), (None, [("misplaced", None), ("missing", "K")])):
        reader = DontStarveReader(registry)
        for number, (face, pose) in _laid(owner, places).items():  # as the owner's card lays it
            reader.poses[tags[(number, face)]] = pose
        p = play(box=box) if box else play()
        assert sorted(reader.layout_seen(p.state), key=str) == sorted(expected, key=str)


def test_a_weather_cards_losses_are_those_of_the_card_given(play) -> None:
    """§天气阶段: the weather phase costs what the card the table gave prints: the owner's
    autumn-3 (two colds, then the storm icon, then a wet; the event costs 1 health) before the
    storm marker: the event and two colds (cold: health and hunger). The demo's autumn-3
    (cold, storm, cold; its event costs 1 sanity): one cold and the event. The log names the
    card by its title; the demo's is said to be the demo box's."""
    losses = {True: (3, 2, 0), False: (1, 1, 1)}
    for box in (OWNER, None):
        p = play(draws="table", box=box) if box else play(draws="table")
        drawn = p.do(DrawWeather(0, card="autumn-3"))
        p.do(LayNeedsTile(0, tile=1))
        p.set_char(0, health=6, hunger=5, sanity=8)
        announced = p.go_to("weather")
        p.set(storm_after=3)
        p.set_char(0, health=6, hunger=5, sanity=8)
        p.finish_phase()
        c = p.data.char(0)
        assert (6 - c.health, 5 - c.hunger, 8 - c.sanity) == losses[box is not None]
        (weather,) = p.events_of("dont_starve.weather_announced", announced)
        assert weather.to_dict()["losses"] == list(losses[box is not None])
        said = line(p, p.events_of("dont_starve.weather_drawn", drawn)[0])
        if box:
            assert weather.to_dict()["symbols"] == ["cold", "cold"]
            assert "Frost's Descent" in said and NOTE_EN not in said
        else:
            assert weather.to_dict()["symbols"] == ["cold"]
            assert "First Frost" in said and NOTE_EN in said


def test_a_needs_tiles_values_are_the_boxs(play) -> None:
    """§每日需求阶段: the needs the tile given asks for are its values in the box: the owner's
    tile 2's day side asks hunger 3 and sanity 2."""
    for box, needs in ((OWNER, (0, 3, 2)), (None, (0, 1, 1))):
        p = play(draws="table", box=box) if box else play(draws="table")
        p.do(DrawWeather(0, card="autumn-1"))
        laid = p.do(LayNeedsTile(0, tile=2))
        assert tuple(laid[0].to_dict()[k] for k in ("light", "hunger", "sanity")) == needs
        events = p.go_to("daily_needs")
        (announced,) = p.events_of("dont_starve.needs_announced", events)
        assert (announced.light, announced.hunger, announced.sanity) == needs
        assert (NOTE_EN in line(p, announced)) == (box is None)


def test_a_locations_hostility_is_the_boxs(play) -> None:
    """§敌意: exploring a location whose monster is hostile adds a monster die; the owner's
    forest-01 is hostile, the demo's is not. The fight offer starts at the card's CV and
    damage (§怪物)."""
    for box, hostile in ((OWNER, True), (None, False)):
        p = play(draws="table", box=box) if box else play(draws="table")
        p.do(DrawWeather(0, card="autumn-1"))
        p.do(LayNeedsTile(0, tile=1))
        p.do(MoveTo(0, "E", biome="forest"))
        p.do(Explore(0))
        events = p.do(DrawLocation(0, card="forest-01"))
        pools = [e.to_dict()["reason"] for e in p.events_of("dice_pool_announced", events)]
        assert pools == (["hostility"] if hostile else [])
        said = line(p, p.events_of("dont_starve.location_explored", events)[0])
        assert ("Venom Grove" in said) == hostile and ("hostile monster" in said) == hostile
        assert (NOTE_EN in said) == (not hostile)
        p.do(Pass(0))  # the dial turns: a new turn
        fight = next(o for o in seat_offers(p.state, 0) if o.move == Fight.type and not o.fixed)
        defaults = {f.name: f.default for f in fight.fields if f.kind == "number"}
        assert (defaults["monster_cv"], defaults["damage"]) == ((5, 2) if hostile else (2, 1))


def test_a_locations_mining_track_is_the_boxs(play) -> None:
    """§与地点卡互动: the owner's forest-01 allows one interaction; the refusal after it rests
    on the owner's card (no note)."""
    p = play(box=OWNER)
    p.set_char(0, tile="E")
    p.set(locations=(("E", "forest-01"),), revealed=(*p.data.revealed, ("E", "forest")))
    p.set(defeated_monsters=frozenset({"E"}))  # no hostility die to enter
    p.do(Interact(0))
    p.do(Pass(0))
    verdict = p.check(Interact(0))
    assert verdict.code == "dont_starve.mined_out" and NOTE_EN not in verdict.message.en
    q = play()
    q.set_char(0, tile="E")
    q.set(locations=(("E", "forest-02"),), revealed=(*q.data.revealed, ("E", "forest")))
    q.set(mined=(("E", 3),))
    demo = q.check(Interact(0))
    assert (
        demo.code == "dont_starve.mined_out" and "location card 'Berry Bushes'" in demo.message.en
    )


def test_a_characters_stats_are_its_card_in_the_box(play) -> None:
    """§角色设置: start values and focus from the card; §属性: caps and the shadow thresholds;
    §角色复活: the revival values — all the owner's Wilson's."""
    p = play(box=OWNER)
    c = p.data.char(0)
    assert (c.health, c.hunger, c.sanity, c.focus) == (6, 5, 11, 2)
    events = p.do(Lose(0, sanity=2))  # 11 → 9: below the owner's first threshold (10)
    assert [e.to_dict()["tier"] for e in p.events_of("dont_starve.shadow_revealed", events)] == [1]
    said = line(p, p.events_of("dont_starve.shadow_revealed", events)[0])
    assert NOTE_EN not in said
    view = dict(GAME.view(p.state, "en")["players"][0]["fields"])
    assert view["Health"] == "6/7" and view["Sanity"].startswith("9/12")
    p.set(effigies=1)
    p.do(Lose(0, health=6))
    p.go_to("daily_needs")
    c = p.data.char(0)
    assert (c.health, c.hunger, c.sanity, c.focus) == (3, 4, 4, 2)  # revived at the dial's turn
    q = play()
    events = q.do(Lose(0, sanity=q.data.char(0).sanity - 6))
    said = line(q, p.events_of("dont_starve.shadow_revealed", events)[0])
    assert NOTE_EN in said and "character card of Wilson" in said


def test_the_shadow_cards_and_scenario_monsters_are_the_boxs(play) -> None:
    """§战斗结算: monster dice = the monster's CV − the fighters' CV (at least 1): a tier 1
    shadow's CV 5 and the owner's spider token (CV 4, damage 3, one on G) are the owner's."""
    p = play(box=OWNER)
    p.set_char(0, sanity=9)  # below the owner's tier 1 threshold
    events = p.do(Fight(0, target="shadow", tier=1, cv=1))
    (started,) = p.events_of("dont_starve.fight_started", events)
    assert started.to_dict()["monster_dice"] == 4 and NOTE_EN not in line(p, started)
    q = play(box=OWNER)
    q.set_char(0, tile="G")
    events = q.do(Fight(0, target="scenario", tokens=1, cv=0))
    (started,) = q.events_of("dont_starve.fight_started", events)
    assert started.to_dict()["monster_dice"] == 4 and q.data.fight.damage == 3
    r = play()
    r.set_char(0, tile="G")
    events = r.do(Fight(0, target="scenario", tokens=1, cv=0))
    (started,) = r.events_of("dont_starve.fight_started", events)
    assert NOTE_EN in line(r, started) and started.to_dict()["monster_dice"] == 3 + 1


def test_the_layout_picture_says_when_it_is_the_demos() -> None:
    """§世界构建: while the map is laid the screen draws the box's layout; drawn from the demo
    box it says so, from the owner's it does not."""
    demo = layout_picture(catalogue(), "a_new_beginning", "zh", [("missing", "A")])
    assert any(NOTE_ZH in n for n in demo["boards"][0]["notes"])
    owner = layout_picture(catalogue(OWNER), "a_new_beginning", "zh", [("missing", "K")])
    assert not any(NOTE_ZH in n for n in owner["boards"][0]["notes"])
    cells = {(c["col"], c["row"]) for c in owner["boards"][0]["cells"] if c["group"] == "K"}
    assert (7, 4) in cells  # K at x 7 (the layout's left edge is 0), y 4


def test_a_weather_card_picked_from_the_owners_box_is_labelled_without_demo(play) -> None:
    """The console names the box's cards by their printed titles; the demo box's carry
    "(演示盒)" / "(demo box)", the owner's none."""
    p = play(draws="table", box=OWNER)
    (pick,) = [
        o
        for o in seat_offers(p.state, 0)
        if o.move == DrawWeather.type and o.fields[0].name == "card"
    ]
    labels = {c.value: c.label for c in pick.fields[0].choices}
    assert labels["autumn-3"].zh == "霜降" and labels["autumn-3"].en == "Frost's Descent"
    assert (
        labels["autumn-1"].zh == "秋风(演示盒)"
        and labels["autumn-1"].en == "Autumn Wind (demo box)"
    )
    assert len(labels) == 8 and all(c.season == "autumn" for c in catalogue(OWNER).weather[:8])


def test_the_owners_box_rides_in_the_options_so_a_replay_judges_with_it(play) -> None:
    """docs/box.md "A save keeps its box": the box is part of the set-up options (the save's
    hash chain covers it), so the same moves judge the same after a JSON round trip."""
    p = play(box=OWNER, draws="table")
    options = json.loads(
        json.dumps(
            {"box": {"game": OWNER.game, "content": OWNER.content, "owner": list(OWNER.owner)}}
        )
    )
    again = play(draws="table", **options)
    assert catalogue(again.state).weather_card("autumn-3").title_en == "Frost's Descent"
    assert WeatherDrawn("autumn-3", ("cold", "cold", "storm", "wet")) in p.do(
        DrawWeather(0, card="autumn-3")
    )


def test_the_set_up_page_names_the_owners_scenarios_and_characters() -> None:
    """§游戏设置: the set-up page offers the box's scenario cards by their titles; an owner's
    scenario the demo box does not have is named too."""
    card = {**_scenario(), "title_zh": "猪王的宴会", "title_en": "The Pig King's Feast"}
    box = Box.of(
        GAME.name,
        merged(DEMO_FILES, {"scenarios/pig_king": card}),
        owner=["scenarios/pig_king"],
    )
    texts = GAME.option_texts_for(box)
    assert texts["scenario=pig_king"].en == "The Pig King's Feast"
    assert texts["draws=table"] == GAME.option_texts["draws=table"]
    assert GAME.option_texts_for(None) == GAME.option_texts
    assert "scenario=pig_king" not in GAME.option_texts


# --- copied at the "Your box" page by their fields --------------------------------------------


def _kept(item: str, value: Any) -> Box:
    """The demo box with one copied item the owner's, loaded as a game would (checked)."""
    box = Box.of(GAME.name, merged(DEMO_FILES, {item: value}), owner=[item])
    GAME.load_box(box.files)
    return box


def test_cards_and_tiles_copied_by_their_fields_replace_the_demos_one_by_one() -> None:
    """§天气阶段, §需求板块, §探索: a weather card, a needs tile and a location card filled in
    with the console's own entry fields take the place of the first demo item of their season,
    kind or deck; the next copy takes the next one; the rules then read what was copied."""
    forms = GAME.box_forms(DEMO)
    assert [f.name for f in forms["weather/card"]][:2] == ["season", "left_wet"]
    assert {f.name for f in forms["locations/forest"]} == {
        "hostile",
        "monster_cv",
        "damage",
        "mining",
    }
    item, card = GAME.box_entry(
        "weather/card", {"season": "winter", "left_cold": 2, "right_wet": 1, "sanity": 2}, DEMO
    )
    first_winter = next(c.id for c in catalogue(DEMO).weather if c.season == "winter")
    assert item == f"weather/card/{first_winter}"
    box = _kept(item, card)
    assert catalogue(box).weather_card(first_winter).symbols == ("cold", "cold", "storm", "wet")
    again, _ = GAME.box_entry("weather/card", {"season": "winter"}, box)
    assert again != item and again.startswith("weather/card/winter")
    item, tile = GAME.box_entry("needs/tile", {"kind": "hard", "night_hunger": 4}, DEMO)
    hard = next(t for t in catalogue(DEMO).needs_tiles if t.kind == "hard")
    assert item == f"needs/tile/{hard.number}" and tile["night"] == [0, 4, 0]
    assert catalogue(_kept(item, tile)).needs_tile(hard.number).night == (0, 4, 0)
    item, place = GAME.box_entry(
        "locations/marsh", {"hostile": True, "monster_cv": 6, "damage": 2, "mining": 2}, DEMO
    )
    assert item.startswith("locations/marsh/")
    copied = catalogue(_kept(item, place)).location(place["id"])
    assert copied is not None and copied.hostile and copied.monster_cv == 6
    with pytest.raises(BoxError, match="season"):
        GAME.box_entry("weather/card", {"season": "monsoon"}, DEMO)
    with pytest.raises(BoxError, match="0 to"):
        GAME.box_entry("needs/tile", {"kind": "normal", "day_light": 9}, DEMO)
