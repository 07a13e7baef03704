"""Spoken announcements: an output of the table like the LEDs and the buzzer.

What is spoken comes from the table's changes and its snapshot in the kiosk's language
(``lines_for``): at ``[speech] level`` ``phases`` each phase as the log says it (a round's first
phase with the round) and the game's end as the end screen's title; ``turns`` adds whose turn it
is; ``all`` adds the steps of a phase and refusals. The sentences live beside the presenter's
(``kiosk.presenter.sentences``).

``Announcer`` speaks them one at a time on a thread of its own: the table's listener only hands
it the change, so the table's loop never waits for speech. A line still queued when a newer
change brings a line of the same or a higher rank (a refusal < a step or a turn < a phase < the
end) is dropped as stale, as is everything queued before an undo or a new game.

A ``Voice`` is the speech engine (``EspeakNg``: Debian's espeak-ng through its command line, ``-v
cmn`` for Chinese, ``-v en`` for English); a ``Speaker`` is where its sound goes: ``AudioOut``
(the machine's audio out) or ``WavFolder`` (the simulated speaker: one WAV file a line in a
folder, taking as long as the line lasts, as if it were played). A better local voice is another
``Voice``: ``find_voice`` is where one would be chosen.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import struct
import subprocess
import threading
import time
import wave
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import ClassVar, Protocol

from engine.core import Text
from engine.core.text import Language
from kiosk.presenter.sentences import EVENT_TEXT, SAY_REFUSED, SAY_ROUND, SAY_TURN
from kiosk.presenter.snapshot import Snapshot
from kiosk.settings import Settings
from kiosk.table import Change

log = logging.getLogger("tablesight.speech")

LEVELS = ("off", "phases", "turns", "all")
"""``[speech] level``: each one speaks what the one before it does, and more."""
RANKS = {"refusal": 0, "step": 1, "turn": 1, "phase": 2, "end": 3}
"""A line's kind and rank: a newer line drops the queued older lines of its rank and below."""
SIMULATION_LEVEL = "turns"
"""What the embedded simulation speaks when ``[speech] level`` is not set."""
RENDER_TIMEOUT_S = 20.0
"""A bound on one line's rendering (a stuck engine is stopped, the line dropped)."""


class SpeechError(RuntimeError):
    """The speech engine could not speak a line (it failed or is missing)."""


@dataclass(frozen=True)
class Line:
    """One line to speak: its words in ``lang``, its kind (a key of ``RANKS``) and the table's
    change it comes from."""

    text: str
    lang: Language
    kind: str
    seq: int

    @property
    def rank(self) -> int:
        """How much the line matters: it supersedes queued older lines of its rank and below."""
        return RANKS[self.kind]


SPOKEN: dict[str, frozenset[str]] = {
    "off": frozenset(),
    "phases": frozenset({"phase", "end"}),
    "turns": frozenset({"phase", "end", "turn"}),
    "all": frozenset(RANKS),
}
"""The kinds of line each level speaks."""


def lines_for(change: Change, snapshot: Snapshot, level: str, lang: Language) -> list[Line]:
    """What to say about one change of the table at ``level``, with the words of ``snapshot``
    (in ``lang``, the kiosk's language; it may be of a later change than ``change``)."""
    spoken = SPOKEN.get(level, frozenset())
    if snapshot.game is None:  # no game yet (a kiosk waiting for the set-up page)
        return []
    titles = {p.name: p.title for p in snapshot.phases}
    names = [s.name for s in snapshot.seats]
    out: list[Line] = []

    def add(kind: str, text: str) -> None:
        if kind in spoken:
            out.append(Line(text, lang, kind, change.seq))

    if change.kind in ("new_game", "start"):
        add("phase", SAY_ROUND.in_(lang).format(round=snapshot.round, phase=snapshot.phase.title))
    elif change.kind == "rejected" and snapshot.refusal is not None:
        refusal = snapshot.refusal
        add("refusal", SAY_REFUSED.in_(lang).format(who=refusal.who, why=refusal.why))
    events = [e.to_dict() for e in change.events] if change.kind == "move" else []
    new_round = next((e["round"] for e in events if e["type"] == "round_started"), None)
    for event in events:
        kind = event["type"]
        if kind == "phase_started" and event["phase"] in titles:
            title = titles[event["phase"]]
            if new_round is not None:
                add("phase", SAY_ROUND.in_(lang).format(round=new_round, phase=title))
            else:
                add("phase", EVENT_TEXT["phase_started"].in_(lang).format(phase=title))
        elif kind == "step_started" and snapshot.step is not None:
            step = snapshot.step
            if (step.name, step.index) == (event["step"], event["index"]):
                add(
                    "step",
                    EVENT_TEXT["step_started"].in_(lang).format(index=step.index, step=step.title),
                )
        elif kind == "turn_started" and 0 <= event["seat"] < len(names):
            add("turn", SAY_TURN.in_(lang).format(who=names[event["seat"]]))
        elif kind == "game_ended" and snapshot.end is not None:
            add("end", snapshot.end.title)
    return out


# --- voices ----------------------------------------------------------------------------------

LANGUAGE_NAMES = {"zh": Text("普通话", "Mandarin"), "en": Text("英语", "English")}


class Voice(Protocol):
    """A local speech engine: a line in a language as WAV data, or aloud."""

    name: str
    """The engine's name, as the start-up report says it (``espeak-ng``)."""

    def speaks(self, lang: Language) -> bool:
        """Whether the engine has a voice for ``lang``."""

    def wav(self, text: str, lang: Language) -> Iterator[bytes]:
        """The line as a WAV file's bytes, given as the engine makes them (SpeechError if it
        fails)."""

    def play(self, text: str, lang: Language) -> None:
        """Say the line on the audio out; return when it has been said (SpeechError if not)."""

    def stop(self) -> None:
        """Stop a line being made or said (from another thread)."""


def find_voice(program: str = "espeak-ng") -> Voice | None:
    """The local speech engine on this machine: espeak-ng when it is installed, else None.
    (A better local voice, where one is installed, would be chosen here first.)"""
    found = shutil.which(program)
    return EspeakNg(found) if found else None


class EspeakNg:
    """Debian's espeak-ng through its command line: ``-v cmn`` (Mandarin) or ``-v en``; the
    line goes in on its standard input, never as an argument."""

    name = "espeak-ng"
    VOICES: ClassVar[dict[str, str]] = {"zh": "cmn", "en": "en"}

    def __init__(self, program: str) -> None:
        self.program = program
        self._process: subprocess.Popen[bytes] | None = None
        self._voices: dict[str, bool] = {}

    def speaks(self, lang: Language) -> bool:
        """Whether espeak-ng lists a voice for ``lang`` (asked once)."""
        if lang not in self._voices:
            try:
                listed = subprocess.run(
                    [self.program, f"--voices={self.VOICES[lang]}"],
                    capture_output=True,
                    timeout=RENDER_TIMEOUT_S,
                    check=False,
                ).stdout.decode("utf-8", "replace")
            except (OSError, subprocess.SubprocessError):
                listed = ""
            self._voices[lang] = len(listed.strip().splitlines()) > 1  # a header, then voices
        return self._voices[lang]

    def wav(self, text: str, lang: Language) -> Iterator[bytes]:
        """espeak-ng's ``--stdout``, chunk by chunk as it synthesises."""
        process = self._start(text, lang, "--stdout")
        assert process.stdout is not None
        try:
            while chunk := os.read(process.stdout.fileno(), 65536):
                yield chunk
        finally:
            self._finish(process)

    def play(self, text: str, lang: Language) -> None:
        """espeak-ng's own audio output (PulseAudio or ALSA, through libpcaudio)."""
        self._finish(self._start(text, lang))

    def stop(self) -> None:
        """Kill the espeak-ng making or saying a line, if any."""
        process = self._process
        if process is not None and process.poll() is None:
            process.kill()

    def _start(self, text: str, lang: Language, *extra: str) -> subprocess.Popen[bytes]:
        command = [self.program, "-v", self.VOICES[lang], "-b", "1", *extra]
        try:
            process = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
        except OSError as exc:
            raise SpeechError(f"{self.program} could not start: {exc.strerror}") from None
        self._process = process
        assert process.stdin is not None
        try:
            process.stdin.write(text.encode("utf-8") + b"\n")
            process.stdin.close()
        except OSError:  # it ended at once: _finish says why
            pass
        return process

    def _finish(self, process: subprocess.Popen[bytes]) -> None:
        try:
            process.wait(RENDER_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            raise SpeechError(f"{self.program} took longer than {RENDER_TIMEOUT_S:g} s") from None
        finally:
            self._process = None
            if process.stdout is not None:
                process.stdout.close()
        problem = process.stderr.read().decode("utf-8", "replace") if process.stderr else ""
        if process.stderr is not None:
            process.stderr.close()
        errors = [p for p in problem.splitlines() if p.lower().startswith("error")]
        if process.returncode != 0 or errors:
            why = "; ".join(errors) or f"exit {process.returncode}"
            raise SpeechError(f"{self.program}: {why}")


# --- speakers --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spoken:
    """A line as a speaker said it: when it began and ended (``time.perf_counter``), when its
    first sample was written (a file's), its file and its length in seconds (0: unknown)."""

    line: Line
    began: float
    ended: float
    first_sample: float | None = None
    file: Path | None = None
    seconds: float = 0.0


class Speaker(Protocol):
    """Where the voice's sound goes: one line at a time, each call returning when it is said."""

    def where(self) -> Text:
        """Where the lines go, as the start-up report says it."""

    def say(self, line: Line) -> Spoken:
        """Say one line; return when it has been said (SpeechError if it could not be)."""

    def stop(self) -> None:
        """Stop the line being said (from another thread); later calls return at once."""


class AudioOut:
    """The machine's audio out (the Pi's HDMI or headphone jack), through the voice's own."""

    def __init__(self, voice: Voice) -> None:
        self.voice = voice

    def where(self) -> Text:
        """ "on the audio out"."""
        return Text("从音频输出播放", "on the audio out")

    def say(self, line: Line) -> Spoken:
        """Say the line aloud."""
        began = time.perf_counter()
        self.voice.play(line.text, line.lang)
        return Spoken(line, began, time.perf_counter())

    def stop(self) -> None:
        """Stop the line being said."""
        self.voice.stop()


class WavFolder:
    """The simulated speaker: each line a WAV file in ``folder`` (``000001-phase.wav``, …, on
    from the highest number there; the newest ``keep`` are kept). A line takes as long as it
    would last played, times ``pace`` (0: no wait), so lines queue as on the audio out."""

    def __init__(self, voice: Voice, folder: Path, *, keep: int = 200, pace: float = 1.0) -> None:
        self.voice = voice
        self.folder = folder
        self.keep = keep
        self.pace = pace
        self._stopped = threading.Event()
        folder.mkdir(parents=True, exist_ok=True)
        numbers = [int(p.name[:6]) for p in folder.glob("[0-9]" * 6 + "-*.wav")]
        self._number = max(numbers, default=0)

    def where(self) -> Text:
        """ "WAV files in FOLDER"."""
        return Text("写成 WAV 文件,在 {f}", "WAV files in {f}").format(f=str(self.folder))

    def say(self, line: Line) -> Spoken:
        """Write the line's WAV file as the voice makes it, then wait out its length."""
        began = time.perf_counter()
        self._number += 1
        path = self.folder / f"{self._number:06d}-{line.kind}.wav"
        try:
            first, frames, rate = write_wav(self.voice.wav(line.text, line.lang), path)
        except (SpeechError, OSError, ValueError):
            path.unlink(missing_ok=True)
            raise
        seconds = frames / rate
        self._prune()
        if self.pace > 0:
            self._stopped.wait(max(0.0, began + seconds * self.pace - time.perf_counter()))
        return Spoken(line, began, time.perf_counter(), first, path, seconds)

    def stop(self) -> None:
        """Stop the line being written or waited out."""
        self._stopped.set()
        self.voice.stop()

    def _prune(self) -> None:
        files = sorted(self.folder.glob("[0-9]" * 6 + "-*.wav"))
        for old in files[: max(0, len(files) - self.keep)]:
            old.unlink(missing_ok=True)


def write_wav(chunks: Iterator[bytes], path: Path) -> tuple[float | None, int, int]:
    """Write a WAV stream (a RIFF header of 44 bytes, then PCM; its sizes may be unknown, as
    espeak-ng's ``--stdout`` leaves them) to ``path`` as it comes, with the right sizes.
    Returns when its first sample was written (``time.perf_counter``), its frames and rate."""
    head = b""
    first: float | None = None
    out = wave.open(str(path), "wb")  # noqa: SIM115 (closed below, its refusal kept quiet)
    try:
        frame = 0
        rest = b""
        for chunk in chunks:
            if not frame:
                head += chunk
                if len(head) < 44:
                    continue
                channels, rate, bits = _wav_header(head[:44])
                out.setnchannels(channels)
                out.setsampwidth(bits // 8)
                out.setframerate(rate)
                frame = channels * bits // 8
                chunk = head[44:]
            data = rest + chunk
            whole = len(data) - len(data) % frame
            rest = data[whole:]
            if whole:
                out.writeframesraw(data[:whole])
                if first is None:
                    first = time.perf_counter()
        if not frame:
            raise SpeechError("the speech engine gave no sound")
        return first, out.getnframes(), out.getframerate()
    finally:
        # A line cut off before its header (the engine killed at a stop) leaves the file with
        # no format, which wave refuses to close: the SpeechError above says what happened.
        with contextlib.suppress(wave.Error):
            out.close()


def _wav_header(head: bytes) -> tuple[int, int, int]:
    """Channels, rate and bits per sample of a canonical 44-byte PCM WAV header."""
    riff, _, kind, fmt, _, pcm, channels, rate, _, _, bits, data, _ = struct.unpack(
        "<4sI4s4sIHHIIHH4sI", head
    )
    if (riff, kind, fmt, data, pcm) != (b"RIFF", b"WAVE", b"fmt ", b"data", 1) or bits % 8:
        raise SpeechError("the speech engine's sound is not a plain PCM WAV stream")
    return int(channels), int(rate), int(bits)


# --- the announcer ---------------------------------------------------------------------------


class Announcer:
    """Speaks the table's changes one line at a time on a thread of its own.

    ``tell`` (the table's listener) only queues the change; the thread turns changes into lines
    (``lines_for``, with the snapshot in the kiosk's language ``lang()``), drops the stale ones
    and says the rest in order. ``told``, ``dropped`` and ``spoken`` keep the latest lines.
    """

    HISTORY = 1000

    def __init__(
        self,
        speaker: Speaker,
        snapshot: Callable[[Language], Snapshot],
        lang: Callable[[], Language],
        level: str,
    ) -> None:
        self.speaker = speaker
        self.level = level
        self._snapshot = snapshot
        self._lang = lang
        self._wake = threading.Condition()
        self._changes: deque[Change] = deque()
        self._queue: deque[Line] = deque()
        self._busy = False
        self._closing = False
        self._thread: threading.Thread | None = None
        self.told: deque[Line] = deque(maxlen=self.HISTORY)
        self.dropped: deque[Line] = deque(maxlen=self.HISTORY)
        self.spoken: deque[Spoken] = deque(maxlen=self.HISTORY)
        self.failures = 0

    def start(self) -> None:
        """Start the speaking thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
            self._thread.start()

    def tell(self, change: Change) -> None:
        """Queue a change of the table (returns at once: the table's listener); a change of kind
        ``start`` says where the game is (its round and phase)."""
        if change.kind in ("move", "rejected", "undo", "new_game", "start"):
            with self._wake:
                self._changes.append(change)
                self._wake.notify_all()

    def queued(self) -> list[Line]:
        """The lines waiting to be said, after the changes told so far are made into lines
        (to look at the queue while the thread is not started)."""
        self._take_changes()
        with self._wake:
            return list(self._queue)

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every change told has been said or dropped (False: ``timeout`` ran out)."""
        deadline = time.monotonic() + timeout
        with self._wake:
            while self._changes or self._queue or self._busy:
                left = deadline - time.monotonic()
                if left <= 0 or self._closing:
                    return False
                self._wake.wait(left)
        return True

    def close(self) -> None:
        """Stop speaking (the line being said is cut short) and end the thread (idempotent)."""
        with self._wake:
            self._closing = True
            self._wake.notify_all()
        self.speaker.stop()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None

    def _run(self) -> None:
        while True:
            with self._wake:
                while not (self._changes or self._queue or self._closing):
                    self._wake.wait()
                if self._closing:
                    return
                self._busy = True  # making lines, then saying one
            self._take_changes()
            with self._wake:
                line = self._queue.popleft() if self._queue else None
            try:
                if line is not None:
                    self.spoken.append(self.speaker.say(line))
            except (SpeechError, OSError, ValueError) as exc:
                self.failures += 1  # said once; an audio out that is missing fails every line
                if not self._closing:
                    log.log(
                        logging.WARNING if self.failures == 1 else logging.DEBUG,
                        "a spoken line was not said: %s",
                        exc,
                    )
            finally:
                with self._wake:
                    self._busy = False
                    self._wake.notify_all()

    def _take_changes(self) -> None:
        """Make the changes told so far into lines (outside the lock: the snapshot is built
        there when no screen has built it yet), then queue them, dropping the stale ones."""
        with self._wake:
            changes = list(self._changes)
            self._changes.clear()
        if not changes:
            return
        lang = self._lang()
        snapshot = self._snapshot(lang)
        made = [(change, lines_for(change, snapshot, self.level, lang)) for change in changes]
        with self._wake:
            for change, lines in made:
                self._queue_lines(change, lines)
            self._wake.notify_all()

    def _queue_lines(self, change: Change, lines: Sequence[Line]) -> None:
        """Under the lock: drop what ``change`` makes stale, then queue its lines."""
        if change.kind in ("undo", "new_game"):
            self._drop(lambda old: True)
        elif change.kind == "move":
            self._drop(lambda old: old.kind == "refusal")
        for line in lines:
            self._drop(partial(superseded, line))
            self._queue.append(line)
            self.told.append(line)

    def _drop(self, stale: Callable[[Line], bool]) -> None:
        """Under the lock: drop the queued lines that are ``stale``."""
        kept = [line for line in self._queue if not stale(line)]
        self.dropped.extend(line for line in self._queue if stale(line))
        self._queue = deque(kept)


def superseded(new: Line, old: Line) -> bool:
    """Whether a queued line ``old`` is stale once ``new`` is queued: it comes from an older
    change and is of the same or a lower rank."""
    return old.seq < new.seq and old.rank <= new.rank


# --- the table's speech ----------------------------------------------------------------------

LEVEL_NAMES = {
    "phases": Text("播报阶段", "phases"),
    "turns": Text("播报阶段和轮次", "phases and turns"),
    "all": Text("播报阶段、轮次、步骤和被拒的操作", "phases, turns, steps and refusals"),
}
SPEECH_OFF = Text("语音:关闭", "speech: off")
NOT_INSTALLED = Text(
    "语音:没有安装 espeak-ng(apt-get install espeak-ng);看板照常运行,不播报",
    "speech: espeak-ng not installed (apt-get install espeak-ng); the kiosk runs silent",
)
NO_VOICE = Text(
    "语音:{engine} 没有{language}语音;看板照常运行,不播报",
    "speech: {engine} has no {language} voice; the kiosk runs silent",
)
SPEECH_ON = Text(
    "语音:{engine}({language}),{level},{where}", "speech: {engine} ({language}), {level}, {where}"
)


class Speech:
    """The table's spoken announcements as ``tablesight run`` opens them: the announcer (None
    when speech is off or cannot be had) and the start-up report's line."""

    def __init__(self, announcer: Announcer | None, line: Text) -> None:
        self.announcer = announcer
        self.line = line

    def close(self) -> None:
        """Stop speaking (idempotent)."""
        if self.announcer is not None:
            self.announcer.close()


def open_speech(
    settings: Settings,
    snapshot: Callable[[Language], Snapshot],
    *,
    simulated: bool,
    on_pi: bool,
    voice: Voice | None = None,
) -> Speech:
    """The speech ``settings`` ask for (``[speech]``; the embedded simulation speaks phases and
    turns when no level is set), started; or why there is none. ``voice``: the engine, else
    ``find_voice()``."""
    chosen = settings.speech
    level = chosen.level or (SIMULATION_LEVEL if simulated else "off")
    if level == "off":
        return Speech(None, SPEECH_OFF)
    voice = voice or find_voice()
    if voice is None:
        return Speech(None, NOT_INSTALLED)
    lang = settings.lang
    language = LANGUAGE_NAMES[lang]
    if not voice.speaks(lang):
        return Speech(None, NO_VOICE.format(engine=voice.name, language=language))
    files = chosen.output == "files" or (
        chosen.output == "auto" and chosen.level is None and not on_pi
    )
    speaker: Speaker
    if files:  # each line takes as long as it would played, whatever the simulation's speed
        folder = chosen.folder or settings.data_dir / "speech"
        speaker = WavFolder(voice, folder, keep=chosen.keep)
    else:
        speaker = AudioOut(voice)
    announcer = Announcer(speaker, snapshot, lambda: settings.lang, level)
    announcer.start()
    line = SPEECH_ON.format(
        engine=voice.name, language=language, level=LEVEL_NAMES[level], where=speaker.where()
    )
    return Speech(announcer, line)
