"""A Stonesaga campaign of two sessions on the table (issue 15; stonesaga.zh.md §战役：纪元、间隔、
扩张与存档, §局间保留与存档, §角色死亡与传说): every move is made by clicking the console in a real
Chromium against a real `tablesight run`, and the kiosk is killed (SIGKILL) between the sessions
and in the middle of the second.

Session 1 is docs/examples/stonesaga-campaign-1.jsonl (its old character, Elder, comes from the
Log of an earlier session: the set-up is posted, as the set-up page takes characters only from a
Log). After the kill, the set-up page offers to go on with that campaign; the players choose a
crisis the rules allow for session 2 (a generation passes), and play
docs/examples/stonesaga-campaign-2.jsonl: Elder dies of old age and is mourned with the +2, Flint
inherits what Elder kept. Ash, who lives on, is a player's character from the moment the session
opens (issue 38: the strips were empty and the Log's characters were picked again by hand), and
creation is played through by touch: every "done" takes effect. The Log the kiosk keeps at the end
is the one the engine gives for the two example files replayed on their own.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from checked_walk import changed_nothing
from console_clicks import click_move
from playwright.sync_api import expect
from serving import Server, post, start_server

from engine.core import Session, find_game, move_from_dict
from engine.stonesaga import campaign
from engine.stonesaga.catalogue import challenge
from kiosk.store import Store

pytestmark = pytest.mark.browser

WAIT_MS = 10_000  # a bound on waiting for the page, not a speed requirement
expect.set_options(timeout=WAIT_MS)
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"


def lines(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """An example file's first line (set-up and seed) and its moves."""
    text = (EXAMPLES / name).read_text(encoding="utf-8").splitlines()
    return json.loads(text[0]), [json.loads(line) for line in text[1:]]


def replayed(name: str) -> tuple[Session, list[bool]]:
    """The example replayed by the engine alone, and whether each line was accepted; each
    accepted line must change something (issue 38: the continued session's "done" in creation
    was answered "accepted" and changed nothing), as the clicks below make exactly these."""
    head, moves = lines(name)
    session = Session(find_game("stonesaga"), head["setup"], head["seed"])
    ok = []
    for number, move in enumerate(moves, 2):
        before = session.state
        result = session.submit(move_from_dict(move))
        idle = result.accepted and changed_nothing(before, session.state, result.events)
        assert not idle, f"{name} line {number}: {idle}"
        ok.append(result.accepted)
    return session, ok


def status(server: Server) -> dict[str, Any]:
    return httpx.get(server.url + "/api/status", params={"lang": "en"}, timeout=10).json()


def campaigns(server: Server) -> dict[str, Any]:
    return httpx.get(server.url + "/api/campaigns", params={"lang": "en"}, timeout=10).json()


def click_all(page: Any, server: Server, moves: list[dict[str, Any]], ok: list[bool]) -> int:
    """Click each accepted move on the console; each must be accepted and saved."""
    made = 0
    for move, accepted in zip(moves, ok, strict=True):
        if not accepted:
            continue
        answer = click_move(page, server.url, move)
        assert answer.endswith("accepted"), f"{json.dumps(move)}: {answer}"
        made += 1
    return made


def restart(server: Server) -> Server:
    """Kill the kiosk without warning (a power cut) and start it again on the same port."""
    server.kill()
    return start_server(server.data_dir, port=server.port)


def test_a_campaign_of_two_sessions_survives_kill_9_between_and_during_them(
    tmp_path: Path, browser: Any
) -> None:
    game = find_game("stonesaga")
    first, ok1 = replayed("stonesaga-campaign-1.jsonl")
    second, ok2 = replayed("stonesaga-campaign-2.jsonl")
    head1, moves1 = lines("stonesaga-campaign-1.jsonl")
    head2, moves2 = lines("stonesaga-campaign-2.jsonl")
    assert head2["setup"]["log"] == game.campaign_log(first.state)  # the files agree

    server = start_server(tmp_path, "--game", "stonesaga")
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        setup = dict(head1["setup"])
        players = setup.pop("players")
        body = {"game": "stonesaga", "players": players, "options": setup, "seed": head1["seed"]}
        post(server, "/api/new-game", body)
        page.goto(server.url + "/?lang=en")
        made = click_all(page, server, moves1, ok1)
        expect(page.locator("#moves")).to_have_text(f"{made} moves saved")
        expect(page.locator("#end")).to_be_visible()
        expect(page.locator("#next")).to_contain_text("This session is kept in the campaign's Log")
        session1 = status(server)["save"]

        server = restart(server)  # between the sessions
        page.goto(server.url + "/setup?lang=en")
        page.locator('[data-game="stonesaga"]').click()
        page.locator("#next").click()
        card = page.locator(f'[data-campaign="{session1}"]')
        expect(card).to_have_attribute("aria-pressed", "true")  # going on is the default
        expect(card).to_contain_text("Epoch 1, after session 1")
        expect(card).to_contain_text("Living: Elder, Ash")
        zh = httpx.get(server.url + "/api/campaigns", params={"lang": "zh"}, timeout=10).json()
        assert "在世:长者、灰烬" in zh["continuations"][0]["lines"]  # as the pickers name them
        page.locator("#next").click()
        expect(page.locator("#seats .seat")).to_have_count(players)  # the same players
        page.locator("#next").click()
        # §开局设置.5: session 2 of an epoch takes a pending crisis, never the campaign start.
        wanted = set(campaign.challenge_kinds(2, 1))
        buttons = page.locator('#options [data-option="challenge"] button')
        offered = [json.loads(b.get_attribute("data-value") or "") for b in buttons.all()]
        chosen = head2["setup"]["challenge"]
        for card in offered:
            assert challenge(card).kind in wanted, card
        assert chosen in offered, offered
        page.locator(f'#options [data-option="challenge"] [data-value=\'"{chosen}"\']').click()
        page.locator("#next").click()
        expect(page.locator("#summary")).to_contain_text("Go on: the next session")
        with page.expect_request("**/api/campaigns/continue?*") as sent:
            page.locator("#start").click()
        assert json.loads(sent.value.post_data)["save"] == session1
        page.wait_for_url(server.url + "/")
        now = status(server)
        assert now["game"] == "stonesaga" and now["save"] != session1 and now["moves"] == 0
        # The session opens with the interval, and the screen says what the table does in it.
        expect(page.locator("#phase")).to_have_text("Between sessions")
        expect(page.locator("#guide")).to_contain_text("Roll the mourning die")
        # Issue 38 (§开局设置.1): Ash lives on and is player 1's character at once; Elder died
        # of old age and sits nowhere; nobody picks Ash again by hand.
        expect(page.locator("#players")).to_contain_text("Ash")
        expect(page.locator("#players")).not_to_contain_text("Elder")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "campaign-interval-en.png"))

        half = sum(ok2) // 2
        accepted = [i for i, ok in enumerate(ok2) if ok]
        split = accepted[half]
        made = click_all(page, server, moves2[:split], ok2[:split])
        assert made == half
        # Creation was played through by touch: each "done" took effect and the day began.
        assert not any(m["type"] == "stonesaga.choose_character" for m in moves2)
        expect(page.locator("#phase")).to_have_text("Day")
        expect(page.locator("#players")).to_contain_text("Flint")

        server = restart(server)  # in the middle of session 2
        page.goto(server.url + "/?lang=en")
        expect(page.locator("#moves")).to_have_text(f"{made} moves saved")
        made += click_all(page, server, moves2[split:], ok2[split:])
        expect(page.locator("#moves")).to_have_text(f"{made} moves saved")
        expect(page.locator("#end")).to_be_visible()
        page.screenshot(path=str(SCREENSHOTS / "campaign-session-2-end-en.png"))

        listed = campaigns(server)["continuations"]
        assert [c["save"] for c in listed] == [status(server)["save"]]  # session 1 went on
        assert listed[0]["lines"][:3] == [
            "Epoch 1, after session 2",
            "Living: Ash, Flint",
            "Legends: Elder",
        ]
        server = restart(server)  # the Log is read from the saves, so it survives as they do
        again = campaigns(server)["continuations"]
        assert again[0]["save"] == listed[0]["save"] and again[0]["lines"] == listed[0]["lines"]
        assert errors == []
        session2 = listed[0]["save"]
    finally:
        context.close()
        server.stop()
    with Store.open(tmp_path / "games.sqlite") as store:  # the real file the kiosk wrote
        saved = store.load(session2)
        assert game.campaign_log(saved.session.state) == game.campaign_log(second.state)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_new_campaign_opens_with_the_campaign_start_card_chosen(
    tmp_path: Path, browser: Any, lang: str
) -> None:
    """§开局设置.5: 第一个纪元的第一局必须选「战役起始」挑战. On the set-up page a new campaign
    offers that card only, already chosen, and the game starts with it (issue 24: all 7 cards,
    none chosen, the opener last)."""
    server = start_server(tmp_path, "--game", "stonesaga")
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.url + f"/setup?lang={lang}")
        page.locator('[data-game="stonesaga"]').click()
        page.locator("#next").click()
        expect(page.locator('[data-campaign=""]')).to_have_attribute("aria-pressed", "true")
        page.screenshot(path=str(tmp_path / f"campaign-new-{lang}.png"))
        page.locator("#next").click()  # players
        page.locator("#next").click()  # options
        cards = page.locator('#options [data-option="challenge"] button')
        expect(cards).to_have_count(1)
        expect(cards.first).to_have_attribute("data-value", '"GI01"')
        expect(cards.first).to_have_attribute("aria-pressed", "true")
        title = "活过今夜" if lang == "zh" else "Survive the Night"
        expect(cards.first).to_contain_text(title)
        epochs = page.locator('#options [data-option="epoch"] button').all_inner_texts()
        assert len(epochs) == 2, epochs  # not set, or the first epoch: a campaign starts there
        page.screenshot(path=str(tmp_path / f"campaign-new-options-{lang}.png"))
        page.locator("#next").click()
        with page.expect_request("**/api/new-game?*") as sent:
            page.locator("#start").click()
        assert json.loads(sent.value.post_data)["options"]["challenge"] == "GI01"
        # the table, in the set-up page's language (the page may say it in the address)
        page.wait_for_url(re.compile(re.escape(server.url) + r"/(\?lang=(zh|en))?$"))
        assert errors == []
    finally:
        context.close()
        server.stop()
