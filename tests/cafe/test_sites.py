"""Several sites: a site's Mosquitto bridged to the centre's (two real brokers, the bridge's
link through a relay the test cuts), two tables at the site and one at the centre, and the
central overview (in this process, its page in Chromium): every table under its site, a
filter by site, and every result of a game that ended while the bridge was cut arriving when
it is back, each once, in order per table, also those said while the overview was stopped."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from serving import serve_in_thread

from cafe.broker import Bridge, Gate, Mosquitto
from cafe.overview import Overview, create_app
from cafe.simulate import SimulatedTable
from kiosk.mqtt.payloads import Result
from kiosk.seats import PlayerSeat
from kiosk.settings import MqttSettings

SAMPLE = Path(__file__).resolve().parents[2] / "hardware" / "deploy" / "mosquitto-site-bridge.conf"
SEATS = [PlayerSeat("Mei", "red"), PlayerSeat("Anna", "blue")]
PLACES = (("north", "T1"), ("north", "T2"), ("centre", "T1"))
"""Two tables at the site "north" and one at the centre (named like one of the site's)."""


@dataclass
class Chain:
    """The centre's broker, the site's bridged to it through a gate, the tables, the overview
    on the centre served over HTTP."""

    centre: Mosquitto
    site: Mosquitto
    gate: Gate
    sims: dict[str, SimulatedTable]
    overview: Overview
    url: str
    data: Path


@pytest.fixture(scope="module")
def chain(broker: Mosquitto, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Chain]:
    """``broker`` (the module's) is the centre; the site's broker bridges "north" to it."""
    root = tmp_path_factory.mktemp("sites")
    gate = Gate(broker.port).open()
    site = Mosquitto(root / "site-broker", bridge=Bridge("north", gate.port)).start()
    overview = Overview(MqttSettings(url=broker.url), root / "cafe")
    overview.start()
    served = serve_in_thread(create_app(overview, "en"), "the overview")
    sims = {
        f"{where}/{name}": SimulatedTable(
            name,
            root / where / name,
            (site if where == "north" else broker).url,
            game="dont_starve",
            seed=i,
            seats=SEATS,
            site=where,
        ).start()
        for i, (where, name) in enumerate(PLACES)
    }
    try:
        yield Chain(broker, site, gate, sims, overview, served.url, root / "cafe")
    finally:
        for sim in sims.values():
            sim.stop()
        served.stop()
        overview.stop()
        site.stop()
        gate.cut()


def kept(overview: Overview) -> list[Result]:
    """The results the overview keeps, in the order they arrived."""
    with overview._lock:
        rows = list(overview.results.values())
    return [Result.model_validate_json(r) for r in rows]


def numbers(overview: Overview) -> dict[str, list[int]]:
    """Each table's result numbers (by site/table) in the order they arrived."""
    got: dict[str, list[int]] = defaultdict(list)
    for r in kept(overview):
        got[f"{r.site}/{r.table}"].append(r.number or 0)
    return dict(got)


def test_the_centre_shows_every_table_under_its_site(chain: Chain, browser: Any, wait: Any) -> None:
    overview = chain.overview
    for sim in chain.sims.values():
        sim.move()
    keys = [f"{site}/{name}" for site, name in PLACES]
    wait(
        lambda: all((t := overview.tile(k)) and t["online"] and t["state"] for k in keys),
        what="the three tables on the centre's overview",
    )
    order = [t["key"] for t in overview.snapshot()["tables"]]
    assert order == ["centre/T1", "north/T1", "north/T2"]
    assert [t["key"] for t in overview.snapshot("north")["tables"]] == ["north/T1", "north/T2"]

    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.add_init_script("localStorage.setItem('tablesight.cafe.lang', 'en')")
    try:
        page.goto(chain.url)
        page.wait_for_selector(".tile[data-key='north/T2'][data-level='none']")
        groups = page.eval_on_selector_all(
            "section.group",
            "gs => gs.map(g => [g.dataset.site, [...g.querySelectorAll('.tile')].map("
            "t => t.dataset.table)])",
        )
        assert groups == [["centre", ["T1"]], ["north", ["T1", "T2"]]]
        assert page.inner_text("section.group[data-site='north'] h2") == "north\n2 tables"
        status = chain.sims["north/T2"].table.status("en")
        assert status["phase"]["title"] in page.inner_text(".tile[data-key='north/T2']")

        page.select_option("#site", "north")  # the filter: one site, said in the address
        page.wait_for_selector(".tile[data-key='centre/T1']", state="detached")
        assert page.locator(".tile").count() == 2
        assert page.url.endswith("?site=north")
        assert "site=north" in str(page.get_attribute("#csv", "href"))
        assert page.inner_text("#counts") == "2 tables"

        page.goto(f"{chain.url}/?site=centre")
        page.wait_for_selector(".tile[data-key='centre/T1']")
        assert page.locator(".tile").count() == 1
        page.click("button[data-lang='zh']")
        assert page.inner_text("#sitepick").startswith("店面")
        assert page.inner_text("#site option[value='']") == "全部店面"
        assert page.inner_text("section.group h2") == "centre\n1 张桌"
        page.select_option("#site", "")
        page.wait_for_selector(".tile[data-key='north/T1']")
        assert page.locator(".tile").count() == 3
        body = page.inner_text("body")
        for raw in ("dont_starve", "null", "undefined", "north/T1"):
            assert raw not in body, f"{raw!r} shown to staff"
    finally:
        context.close()


def test_results_held_by_a_cut_bridge_arrive_each_once_in_order(chain: Chain, wait: Any) -> None:
    overview, sims = chain.overview, chain.sims
    for sim in sims.values():
        sim.play_to_end()
    wait(lambda: len(kept(overview)) == 3, what="the three first results at the centre")

    chain.gate.cut()  # the bridge's link is down; the site and its tables play on
    for key in ("north/T1", "north/T2"):
        for _ in range(2):
            sims[key].next_game()
            sims[key].play_to_end()
    sims["centre/T1"].next_game()
    sims["centre/T1"].play_to_end()
    wait(lambda: numbers(overview).get("centre/T1") == [1, 2], what="the centre's own result")
    wait(
        lambda: (
            not any(sims[k].publisher.outbox.results_after(0) for k in ("north/T1", "north/T2"))
        ),
        what="the site's broker to have the site's results",
    )
    assert numbers(overview)["north/T1"] == [1] and numbers(overview)["north/T2"] == [1], (
        "nothing crossed the cut bridge"
    )

    chain.gate.open()  # the bridge comes back: the site's broker forwards what it kept
    want = {"north/T1": [1, 2, 3], "north/T2": [1, 2, 3], "centre/T1": [1, 2]}
    wait(lambda: numbers(overview) == want, what="every result, each once, in order per table")
    results = kept(overview)
    assert len({r.id for r in results}) == len(results) == 8
    rows = (chain.data / "cafe-results.jsonl").read_text().splitlines()
    assert len(rows) == 8, "each kept once in the overview's file"

    # the downloads: all sites, one site, one game, one player; winners and durations
    every = httpx.get(f"{chain.url}/results.json", timeout=10).json()["results"]
    assert len(every) == 8
    for row in every:
        assert isinstance(row["seconds"], int) and row["seconds"] >= 0
        assert row["winners"] is not None and row["key"] == row["id"]
    north = httpx.get(f"{chain.url}/results.json?site=north", timeout=10).json()["results"]
    assert {(r["site"], r["table"]) for r in north} == {("north", "T1"), ("north", "T2")}
    assert len(north) == 6
    by_game = httpx.get(f"{chain.url}/results.json?game=dont_starve", timeout=10).json()
    assert len(by_game["results"]) == 8
    titled = every[0]["title"]["zh"]
    by_title = httpx.get(f"{chain.url}/results.json", params={"game": titled}, timeout=10).json()
    assert len(by_title["results"]) == 8
    assert httpx.get(f"{chain.url}/results.json?game=greenwood", timeout=10).json()["results"] == []
    mei = httpx.get(f"{chain.url}/results.json?player=mei", timeout=10).json()["results"]
    assert len(mei) == 8
    assert httpx.get(f"{chain.url}/results.json?player=Zoe", timeout=10).json()["results"] == []
    table = httpx.get(f"{chain.url}/results.csv?lang=en&site=north", timeout=10).text
    lines = table.lstrip("\ufeff").splitlines()
    assert lines[0].endswith("site,started (UTC),duration,result id")
    assert len(lines) == 1 + 6 and all(",north," in line for line in lines[1:])
    assert all(re.search(r",\d+:\d\d:\d\d,[0-9a-f]{16}$", line) for line in lines[1:])
    assert httpx.get(f"{chain.url}/results.json?site=a/b", timeout=10).status_code == 400

    # a restart of the overview: two more games end at the site while it is away; its lasting
    # session for results has the broker keep both, and the retained ones come again
    overview.stop()
    for _ in range(2):
        sims["north/T2"].next_game()
        sims["north/T2"].play_to_end()
    wait(
        lambda: not sims["north/T2"].publisher.outbox.results_after(0),
        what="the site's broker to have them",
    )
    again = Overview(MqttSettings(url=chain.centre.url), chain.data)
    assert numbers(again) == want, "read back from its data folder"
    again.start()
    want["north/T2"] += [4, 5]
    try:
        wait(lambda: numbers(again) == want, what="both results said while it was away")
        wait(lambda: again.repeats >= 1, what="a result handed over again")
        assert numbers(again) == want, "kept once"
    finally:
        again.stop()
    assert len((chain.data / "cafe-results.jsonl").read_text().splitlines()) == 10


def test_the_sample_bridge_configuration_is_the_tested_one() -> None:
    """hardware/deploy/mosquitto-site-bridge.conf holds every line of the tested bridge but
    the centre's address and the site's name."""
    sample = [
        line.strip()
        for line in SAMPLE.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    tested = Bridge("SITE", 1883).lines()
    for line in tested:
        if line.startswith("address "):
            assert any(s.startswith("address ") for s in sample)
        else:
            assert line.replace("SITE", "north-street") in sample, line
