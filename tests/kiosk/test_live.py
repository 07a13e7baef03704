"""Live updates over server-sent events from a real `tablesight run`: a snapshot with a sequence
number on every (re)connect, then only what changed, to many viewers at once."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import httpx
import pytest
from serving import Server


@pytest.fixture
def server(fresh: Server) -> Server:
    """Here: the shared server, with a new game for each test."""
    return fresh


class Viewer:
    """One open event stream, read an event at a time."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self.lines = response.iter_lines()

    def next(self) -> tuple[str, int, dict]:
        """The next event: its kind, its id (the sequence number) and its data."""
        kind, seq, data = "", -1, ""
        for line in self.lines:
            if not line:
                if data:
                    return kind, seq, json.loads(data)
                continue
            field, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if field == "event":
                kind = value
            elif field == "id":
                seq = int(value)
            elif field == "data":
                data += value
        raise AssertionError("the stream ended")


@contextmanager
def viewers(server: Server, count: int, query: str = "") -> Iterator[list[Viewer]]:
    with httpx.Client(base_url=server.url, timeout=10) as http, ExitStack() as stack:
        yield [
            Viewer(stack.enter_context(http.stream("GET", f"/api/live{query}")))
            for _ in range(count)
        ]


def post_move(server: Server, move: dict) -> dict:
    return httpx.post(f"{server.url}/api/move", json=move, timeout=10).json()


def marker(seat: int) -> dict:
    """A Greenwood dusk marker, laid before the player may pass dusk (§三.2)."""
    return {"type": "greenwood.dusk_marker", "seat": seat, "effect": "recruit"}


def test_every_viewer_gets_a_snapshot_then_only_the_changes(server: Server) -> None:
    with viewers(server, 4) as crowd:
        snapshots = [viewer.next() for viewer in crowd]
        assert {kind for kind, _, _ in snapshots} == {"snapshot"}
        (seq,) = {s for _, s, _ in snapshots}
        first = snapshots[0][2]
        assert first["seq"] == seq and first["phase"]["name"] == "dusk" and first["moves"] == 0
        for seat in (0, 1):  # greenwood.zh.md §三.2: the dusk marker before a player passes
            assert post_move(server, marker(seat))["accepted"]
            for viewer in crowd:
                kind, seq, change = viewer.next()
                assert kind == "change" and change["moves"] == seat + 1
        assert post_move(server, {"type": "pass", "seat": 0})["accepted"]
        for viewer in crowd:
            kind, new_seq, change = viewer.next()
            assert kind == "change" and new_seq > seq and change["seq"] == new_seq
            assert change["moves"] == 3 and change["passed_players"] == [1]
            assert change["recent"][0]["type"] == "seat_passed"
            assert "title" not in change and "phases" not in change  # unchanged: not resent
        assert post_move(server, {"type": "pass", "seat": 1})["accepted"]
        for viewer in crowd:
            kind, _, change = viewer.next()
            assert change["phase"]["name"] == "night"  # departure moved on: nobody had aurora


def test_a_reconnecting_viewer_gets_a_full_snapshot_of_the_current_state(server: Server) -> None:
    with viewers(server, 1) as (viewer,):
        _, seq, _ = viewer.next()
        post_move(server, marker(0))  # greenwood.zh.md §三.2: the marker before passing
        viewer.next()
        post_move(server, {"type": "pass", "seat": 0})
        viewer.next()
    with viewers(server, 1, "?lang=zh") as (again,):
        kind, new_seq, snapshot = again.next()
        assert kind == "snapshot" and new_seq > seq
        assert snapshot["moves"] == 2 and snapshot["passed_players"] == [1]
        assert snapshot["phase"]["title"] == "黄昏" and snapshot["lang"] == "zh"
        assert snapshot["control"]["code"]  # this viewer is the kiosk's own screen
