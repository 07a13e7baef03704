"""`tablesight run` as a user runs it: the simulated session of each game played to its end and
seen in a real Chromium, and a kill -9 mid-game followed by a restart that shows the same game
on the screen and on the (emulated) LEDs, then carries the session on to the same end."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from serving import Server, start_server

from kiosk.leds import TRACK_COLOUR

SIMULATE = {"TABLESIGHT_SIMULATION": "true"}
STILL = {"TABLESIGHT_SIMULATION": "false"}
WAIT_S = 90.0  # a bound on waits for the session, not a timing check
TRACK_HEX = "#{:02x}{:02x}{:02x}".format(*TRACK_COLOUR)


def get(server: Server, path: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}{path}", timeout=10) as response:
        return json.load(response)


def wait_for(server: Server, predicate: Any) -> dict[str, Any]:
    """Poll the status until ``predicate(status)`` holds (bounded by WAIT_S)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        status = get(server, "/api/status")
        if predicate(status):
            return status
        assert time.monotonic() < deadline, f"gave up waiting; last status: {status['moves']}"
        assert server.process.poll() is None, server.process.stderr.read()
        time.sleep(0.1)


def device_matches(server: Server) -> dict[str, Any]:
    """The tray view once the emulated device shows what the controller is kept showing."""
    deadline = time.monotonic() + 10
    while True:
        tray = get(server, "/api/tray")
        device = tray.get("device")
        if device and device["trays"] == tray["trays"] and device["track"] == tray["track"]:
            return tray
        assert time.monotonic() < deadline, tray
        time.sleep(0.1)


def stop(server: Server) -> None:
    if server.process.poll() is None:
        server.process.kill()
        server.process.communicate(timeout=30)


@pytest.mark.browser
@pytest.mark.parametrize("game", ["greenwood", "stonesaga", "dont_starve"])
def test_the_simulated_session_plays_to_the_end_on_the_kiosk_page(
    tmp_path: Path, browser: Any, game: str
) -> None:
    server = start_server(tmp_path, "--game", game, "--speed", "0", env=SIMULATE)
    try:
        status = wait_for(server, lambda s: s["outcome"] is not None)
        assert status["game"] == game and status["save"].startswith(f"simulation-{game}")
        tray = device_matches(server)
        assert tray["emulated"] and tray["track"][status["round"] - 1]["colour"] == TRACK_HEX
        page = browser.new_page()
        try:
            page.goto(server.url + "/?lang=en")
            page.wait_for_selector("#end:not([hidden])")
            outcome = status["outcome"]
            if outcome["result"] == "loss":
                expected = "You lost"
            elif outcome["result"] == "win":
                expected = " and ".join(f"Player {w + 1}" for w in outcome["winners"]) + " wins!"
            else:  # a shared win of the whole table (both cooperative games)
                assert len(outcome["winners"]) == status["players"]
                expected = "You won!"
            assert page.inner_text("#end-title") == expected
            assert page.inner_text("#end-why").strip()  # and why, in words
            assert page.inner_text("#title") == status["title"]
            assert page.inner_text("#phase") == status["phase"]["title"]
            assert "simulated" in page.get_attribute("#link-camera", "title").lower()
        finally:
            page.close()
    finally:
        stop(server)


def saved_moves(data_dir: Path, save: str) -> int:
    """The moves of ``save`` in the database, read without writing to it."""
    uri = f"file:{data_dir / 'games.sqlite'}?mode=ro"
    with sqlite3.connect(uri, uri=True) as db:
        row = db.execute(
            "SELECT count(*) FROM log JOIN games ON games.id = log.game_id"
            " WHERE games.name = ? AND log.kind = 'move'",
            (save,),
        ).fetchone()
    return int(row[0])


@pytest.mark.browser
def test_kill_9_mid_game_then_restart_shows_the_same_game_and_leds(
    tmp_path: Path, browser: Any
) -> None:
    server = start_server(tmp_path, "--game", "greenwood", "--speed", "12", env=SIMULATE)
    try:
        wait_for(server, lambda s: s["moves"] >= 8)
        for _ in range(50):  # a snapshot of the screen that the database agrees with
            before, tray, again = get(server, "/api/status"), device_matches(server), None
            again = get(server, "/api/status")
            if before["seq"] != again["seq"]:
                continue
            os.kill(server.process.pid, signal.SIGSTOP)
            if saved_moves(tmp_path, before["save"]) == before["moves"]:
                break
            os.kill(server.process.pid, signal.SIGCONT)
        else:
            pytest.fail("no quiet moment to take a snapshot in")
        assert before["outcome"] is None, "the game ended before the kill"
        server.kill()  # SIGKILL, as a power cut would
    finally:
        stop(server)

    restarted = start_server(tmp_path, port=server.port, env=STILL)
    try:
        after = get(restarted, "/api/status")
        for key in ("save", "moves", "round", "phase", "step", "current_player", "dice", "view"):
            assert after[key] == before[key], key
        tray_after = device_matches(restarted)
        assert (tray_after["trays"], tray_after["track"]) == (tray["trays"], tray["track"])
        page = browser.new_page()
        try:
            page.goto(restarted.url + "/")
            page.wait_for_function(
                "t => document.getElementById('phase').textContent === t",
                arg=before["phase"]["title"],
            )
            assert f"{before['moves']}" in page.inner_text("#moves")
        finally:
            page.close()
    finally:
        stop(restarted)

    resumed = start_server(tmp_path, "--speed", "0", port=server.port, env=SIMULATE)
    try:
        end = wait_for(resumed, lambda s: s["outcome"] is not None)
        assert end["save"] == before["save"]
        # kiosk/simulation/greenwood.toml makes the 119 accepted moves of
        # docs/examples/greenwood.jsonl (departure moves on by itself: no passes there)
        assert end["moves"] == 119, "the resumed session lost or repeated a move"
    finally:
        stop(resumed)


@pytest.mark.browser
def test_the_cameras_prompt_is_shown_in_each_screens_language(tmp_path: Path, browser: Any) -> None:
    """stonesaga.zh.md §采矿: an ore token laid plain side up is read, and the kiosk asks for
    it to be turned over, on a Chinese screen in Chinese and on an English one in English."""
    server = start_server(tmp_path, "--game", "stonesaga", "--speed", "6", env=SIMULATE)
    try:
        english, chinese = browser.new_page(), browser.new_page()
        try:
            english.goto(server.url + "/?lang=en")
            chinese.goto(server.url + "/?lang=zh")
            selector = '#prompts li[data-code="stonesaga.turn_token"]'
            item = english.wait_for_selector(selector, timeout=WAIT_S * 1000)
            assert item is not None and "omen side up" in item.inner_text()
            item = chinese.wait_for_selector(selector, timeout=WAIT_S * 1000)
            assert item is not None and "预兆面朝上" in item.inner_text()
        finally:
            english.close()
            chinese.close()
    finally:
        stop(server)
