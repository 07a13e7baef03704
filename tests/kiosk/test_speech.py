"""Spoken announcements (issue 28): lines from the table's changes, rendered by the real
espeak-ng to WAV files and measured; the queue that drops stale lines and never speaks two at
once; the scripted session speaking its phases; the start-up line without espeak-ng."""

from __future__ import annotations

import itertools
import json
import os
import wave
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi import FastAPI

from engine.core import move_from_dict
from engine.core.text import Language
from kiosk.app import create_app
from kiosk.presenter.sentences import SAY_ROUND, SAY_TURN
from kiosk.rig import TableHardware
from kiosk.settings import load_settings
from kiosk.speech import (
    LEVELS,
    Announcer,
    Line,
    Spoken,
    Voice,
    WavFolder,
    find_voice,
    lines_for,
)
from kiosk.table import Change, Table, open_table

WAIT_S = 60.0  # a bound on waits, not a timing check
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "greenwood-solo.jsonl"


def espeak_or_skip() -> Voice:
    """The real espeak-ng; skipped without it, as the browser tests are without Chromium,
    except under CI, where .ci/run installs it and a missing one fails."""
    found = find_voice()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("CI must have espeak-ng: .ci/run installs it with apt-get")
        pytest.skip("espeak-ng is not installed (apt-get install -y espeak-ng)")
    return found


@pytest.fixture(scope="module")
def voice() -> Voice:
    return espeak_or_skip()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    """A table playing the solo Greenwood example's set-up (moves from ``play``)."""
    head = json.loads(EXAMPLE.read_text(encoding="utf-8").splitlines()[0])
    settings = load_settings(data_dir=tmp_path, lang="en", game="greenwood")
    table, store = open_table(settings)
    table.new_game("greenwood", head.get("setup"), "solo", int(head.get("seed", 0)))
    try:
        yield table
    finally:
        store.close()


def moves(upto: int) -> list[Any]:
    """The example's moves on its lines 2 to ``upto`` (line 8 is refused)."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()[1:upto]
    return [move_from_dict(json.loads(line)) for line in lines if line.strip()]


def measure(path: Path) -> tuple[float, float]:
    """A WAV file's length in seconds and its loudness (RMS of the 16-bit samples)."""
    with wave.open(str(path)) as wav:
        assert (wav.getnchannels(), wav.getsampwidth()) == (1, 2)
        samples = np.frombuffer(wav.readframes(wav.getnframes()), np.int16)
        seconds = wav.getnframes() / wav.getframerate()
    assert len(samples) == round(seconds * 22050), "the header's size is not the data's"
    return seconds, float(np.sqrt(np.mean(samples.astype(np.float64) ** 2)))


def assert_one_at_a_time(spoken: list[Spoken]) -> None:
    """Each line began after the one before had ended, its sound's length included."""
    for before, after in itertools.pairwise(spoken):
        assert before.ended <= after.began, (before.line, after.line)


def test_lines_render_to_wav_files_one_a_line_that_sound_and_last_as_they_should(
    tmp_path: Path, voice: Voice
) -> None:
    """Each line its own WAV file from the real espeak-ng, in Mandarin and in English: not
    silent, a plausible length, longer for a longer line; lines paced as if played one after
    another (``pace``: a tenth of their length here) never overlap."""
    folder = WavFolder(voice, tmp_path, pace=0.1)
    texts: list[tuple[Language, str]] = [
        ("zh", SAY_ROUND.zh.format(round=2, phase="黄昏")),
        ("zh", SAY_TURN.zh.format(who="安娜")),
        ("en", SAY_ROUND.en.format(round=2, phase="Dusk")),
        ("en", SAY_TURN.en.format(who="Anna")),
        ("en", "Anna"),
    ]
    spoken = [folder.say(Line(text, lang, "turn", n)) for n, (lang, text) in enumerate(texts)]
    files = sorted(tmp_path.glob("*.wav"))
    assert files == [s.file for s in spoken] and len(files) == len(texts)
    lengths = []
    for said in spoken:
        assert said.file is not None
        seconds, loudness = measure(said.file)
        assert 0.3 < seconds < 6, (said.line.text, seconds)
        assert abs(seconds - said.seconds) < 1e-6
        assert loudness > 500, (said.line.text, loudness)  # silence is 0
        assert said.first_sample is not None and said.began <= said.first_sample <= said.ended
        assert said.ended >= said.began + 0.1 * seconds  # it lasted as long as paced
        lengths.append(seconds)
    assert lengths[4] < lengths[3] < lengths[2]  # "Anna" < "Anna, your turn" < "Round 2: …"
    assert_one_at_a_time(spoken)


def test_each_level_speaks_what_it_says_in_both_languages(table: Table) -> None:
    """phases: each phase and the end; turns: and whose turn; all: and steps and refusals (the
    example's line 8 is refused). The same lines in Chinese and in English."""
    seen: list[tuple[Change, Any, Any]] = []
    table.listen(
        lambda c: seen.append((c, table.presenter.snapshot("zh"), table.presenter.snapshot("en")))
    )
    for move in moves(29):
        table.submit(move)
    kinds = {}
    for level in LEVELS:
        zh = [line for c, s, _ in seen for line in lines_for(c, s, level, "zh")]
        en = [line for c, _, s in seen for line in lines_for(c, s, level, "en")]
        assert [(x.kind, x.seq) for x in zh] == [(x.kind, x.seq) for x in en]
        assert all(any("\u4e00" <= ch <= "\u9fff" for ch in x.text) for x in zh), zh
        assert all(x.lang == "en" for x in en) and all(x.lang == "zh" for x in zh)
        kinds[level] = [x.kind for x in en]
        if level == "all":
            texts = [x.text for x in en]
    assert kinds["off"] == []
    assert set(kinds["phases"]) == {"phase"} and kinds["phases"].count("phase") == 5
    assert set(kinds["turns"]) == {"phase", "turn"}
    assert kinds["turns"].count("turn") == 5 and kinds["all"].count("turn") == 5
    assert kinds["all"].count("refusal") == 1 and kinds["all"].count("step") == 4
    assert "Departure begins" in texts and "Round 2: Dusk begins" in texts
    assert "Player 1, your turn" in texts and "Step 1: Take back energy and spy tokens" in texts
    refusal = next(t for t in texts if "not allowed" in t)
    assert refusal.startswith("Player 1: not allowed. "), refusal


def test_a_newer_phase_drops_the_queued_older_lines_and_they_are_said_one_at_a_time(
    table: Table, tmp_path: Path, voice: Voice
) -> None:
    """While nothing is said (the thread not started), a new phase drops every queued line of
    an older change of its rank or below, a turn drops the older turns, an undo drops all;
    then the queue is said in order, one line at a time, one file a line."""
    announcer = Announcer(
        WavFolder(voice, tmp_path, pace=0.2), table.presenter.snapshot, lambda: "en", "all"
    )
    table.listen(announcer.tell)
    for move in moves(23):  # night: player 1's turns
        table.submit(move)
        announcer.queued()  # made into lines with the snapshot of their change
    queued = announcer.queued()
    assert [(x.kind, x.text) for x in queued] == [
        ("phase", "Night begins"),
        ("turn", "Player 1, your turn"),
    ], queued
    assert queued[1].seq > queued[0].seq  # the latest turn's, the earlier turns dropped
    assert ("phase", "Departure begins") in [(x.kind, x.text) for x in announcer.dropped]
    for move in moves(29)[len(moves(23)) :]:  # dawn, upkeep's steps, round 2's dusk
        table.submit(move)
        announcer.queued()
    assert [x.text for x in announcer.queued()] == ["Round 2: Dusk begins"]
    for line in announcer.dropped:  # each dropped by a newer line of its rank or above
        assert any(n.seq > line.seq and n.rank >= line.rank for n in announcer.told), line
    table.submit(moves(30)[-1])  # a dusk marker: nothing to say
    assert len(announcer.queued()) == 1
    table.undo()
    assert announcer.queued() == []  # the undo took back what they were about
    table.submit(moves(30)[-1])
    table.submit(moves(31)[-1])
    announcer.tell(Change(table.seq, "start"))  # where the game is: said again
    queued = announcer.queued()
    assert [x.text for x in queued] == ["Round 2: Dusk begins"]
    announcer.start()
    try:
        assert announcer.wait_idle(WAIT_S)
    finally:
        announcer.close()
    spoken = list(announcer.spoken)
    assert [s.line for s in spoken] == queued
    assert [s.file for s in spoken] == sorted(tmp_path.glob("*.wav"))
    assert_one_at_a_time(spoken)


def test_the_queue_never_says_two_lines_at_once_while_moves_come_fast(
    table: Table, tmp_path: Path, voice: Voice
) -> None:
    """The thread started first: the moves come while lines are being said. What is said is
    in the order told, the last line is said, every other was said or dropped (which ones
    depends on how fast the moves come), and none began before the one before it ended."""
    announcer = Announcer(
        WavFolder(voice, tmp_path, pace=0.2), table.presenter.snapshot, lambda: "zh", "turns"
    )
    table.listen(announcer.tell)
    announcer.start()
    try:
        for move in moves(40):
            table.submit(move)
        assert announcer.wait_idle(WAIT_S)
    finally:
        announcer.close()
    told, spoken = list(announcer.told), [s.line for s in announcer.spoken]
    assert spoken and spoken[-1] == told[-1], (told, spoken)
    assert sorted(spoken + list(announcer.dropped), key=told.index) == told
    assert spoken == sorted(spoken, key=told.index)
    assert len(list(tmp_path.glob("*.wav"))) == len(spoken)
    assert_one_at_a_time(list(announcer.spoken))


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Any]:
    opened: list[tuple[TableHardware, Any]] = []

    def run(**settings: Any) -> tuple[Table, TableHardware]:
        chosen = load_settings(data_dir=tmp_path, **settings)
        chosen.gpio.pin_factory = "mock"
        table, store = open_table(chosen)
        hardware = TableHardware(chosen)
        opened.append((hardware, store))
        app: FastAPI = create_app(chosen, table, hardware=hardware)
        hardware.open(app)
        return table, hardware

    yield run
    for hardware, store in opened:
        hardware.close()
        store.close()


def test_the_scripted_session_speaks_its_phases_into_wav_files(rig: Any, tmp_path: Path) -> None:
    """The embedded simulation off a Pi speaks phases and turns into WAV files in the data
    folder by default: where the game is at start, its phases, its end."""
    espeak_or_skip()
    _table, hardware = rig(lang="zh", game="greenwood", speed=0)
    assert hardware.speech is not None and hardware.speech.announcer is not None
    folder = tmp_path / "speech"
    assert (
        hardware.report()[-1] == f"语音:espeak-ng(普通话),播报阶段和轮次,写成 WAV 文件,在 {folder}"
    )
    assert hardware.loop is not None and hardware.loop.ended.wait(WAIT_S * 2)
    announcer = hardware.speech.announcer
    assert announcer.wait_idle(WAIT_S)
    told, spoken = list(announcer.told), list(announcer.spoken)
    assert told[0].text == "第1轮,黄昏开始"  # said unless a phase came before it was taken
    assert told[-1].kind == "end" and told[-1].text.endswith("获胜!")
    assert spoken[-1].line == told[-1]
    assert {s.line.kind for s in spoken} >= {"phase", "end"}
    titles = {"黄昏", "启程", "夜晚", "黎明", "轮间整理", "最终计分"}
    assert {t for t in titles for line in told if t in line.text} == titles
    files = sorted(folder.glob("*.wav"))
    assert files == [s.file for s in spoken]
    for said in spoken:
        assert said.file is not None
        seconds, loudness = measure(said.file)
        assert seconds > 0.3 and loudness > 500, said
    assert_one_at_a_time(spoken)


def test_without_espeak_ng_the_start_up_report_says_so_and_the_table_plays_on(
    rig: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    table, hardware = rig(lang="en", game="greenwood", simulation=False, speech={"level": "all"})
    table.new_game("greenwood", {"draws": "virtual"}, "seeded")  # dusk goes on at once
    err = capsys.readouterr().err
    line = "speech: espeak-ng not installed (apt-get install espeak-ng); the kiosk runs silent"
    assert f"tablesight: {line}\n" in err and "Traceback" not in err, err
    assert hardware.speech is not None and hardware.speech.announcer is None
    marker = {"type": "greenwood.dusk_marker", "seat": 0, "effect": "recruit"}
    assert table.submit(move_from_dict(marker)).accepted


def test_speech_is_off_by_default_at_a_table_that_is_not_the_simulation(
    rig: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    _, hardware = rig(lang="zh", game="greenwood", simulation=False)
    assert "tablesight: 语音:关闭\n" in capsys.readouterr().err
    assert hardware.speech is not None and hardware.speech.announcer is None


def test_an_engine_cut_off_before_its_first_sound_is_a_failed_line_not_a_crash(
    tmp_path: Path,
) -> None:
    """At a stop the engine making a line is killed; the line then ends with no sound at all.
    That is one failed line (SpeechError, no file left), never wave's "# channels not
    specified" escaping the speech thread (seen as a traceback when a simulation stopped)."""
    from kiosk.speech import EspeakNg, SpeechError

    folder = WavFolder(EspeakNg("false"), tmp_path)  # exits 1 at once, as a killed engine does
    with pytest.raises(SpeechError):
        folder.say(Line("Anna, your turn", "en", "turn", 1))
    assert list(tmp_path.glob("*.wav")) == []
