"""The outbox: events numbered in order, kept in a real SQLite file across a reopen, bounded
with the oldest dropped and counted, deleted only once delivered."""

from __future__ import annotations

import json
from pathlib import Path

from kiosk.mqtt.outbox import Outbox


def put(box: Outbox, n: int) -> list[int]:
    return [box.add(lambda seq: json.dumps({"seq": seq})) for _ in range(n)]


def test_numbers_follow_on_and_survive_a_reopen(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "outbox.sqlite", limit=100)
    first = put(box, 3)
    epoch = box.epoch
    box.delivered(first[0])
    box.close()
    again = Outbox(tmp_path / "outbox.sqlite", limit=100)
    assert again.epoch == epoch
    assert [s for s, _ in again.after(0, 10)] == first[1:]
    later = put(again, 2)
    assert later == [first[-1] + 1, first[-1] + 2]
    # the payload was made with its own number
    assert [json.loads(p)["seq"] for _, p in again.after(0, 10)] == [*first[1:], *later]
    again.close()


def test_a_delivered_number_is_never_given_again(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "outbox.sqlite", limit=100)
    seqs = put(box, 2)
    for seq in seqs:
        box.delivered(seq)
    assert box.waiting() == 0
    assert put(box, 1) == [seqs[-1] + 1]
    box.close()


def test_full_outbox_drops_the_oldest_and_counts_them(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "outbox.sqlite", limit=10)
    seqs = put(box, 15)
    assert box.waiting() == 10
    assert box.dropped == 5
    assert [s for s, _ in box.after(0, 100)] == seqs[5:]
    assert [s for s, _ in box.after(seqs[8], 2)] == seqs[9:11]
    box.close()
    assert Outbox(tmp_path / "outbox.sqlite", limit=10).dropped == 5
