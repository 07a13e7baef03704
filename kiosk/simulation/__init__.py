"""The embedded simulation: a scripted session on the synthetic table, read by the real pipeline.

A script (``kiosk/simulation/<game>.toml``, format in docs/simulation.md) sets up a game and
lists steps: put a tagged component down or lift it, pass a hand over the table, let frames go
by, press a button on the mock GPIO pins, or tap a move the camera cannot see on the kiosk's
console (only a move the console offers at that point: a scripted move it does not offer stops
the session, naming its step).
:class:`Simulation` is a frame source: each ``read()`` carries out the steps that are due, then
renders the synthetic table as the overhead camera sees it. The frames go through the table loop
like a real camera's, so every move the camera makes comes from pixels.

Every step is narrated as it is played (a line in the screen's log and on stderr, in the
kiosk's language: the script's own ``say``, else what the step does, naming the components as
their stickers do), and at ``speed`` 1 the session runs at a pace a person can follow: each step
is followed by its beat (``tap_s`` after a tap or a press, ``say_s`` after a line, ``step_s``
after a component is put down or lifted), a ``hold`` leaves the table as it is for its seconds
(a refusal stays on the screen to be read). :func:`script_duration_s` sums those times without
playing them; every one of them is divided by ``speed`` (0: no pause at all).

Progress is kept in the data folder (``simulation.json``) so that a restarted ``tablesight run``
carries the session on from the step it had reached.
"""

from __future__ import annotations

import json
import logging
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core import EngineError, Move, Text, find_game, move_from_dict
from engine.core.offers import CORE_LABELS
from kiosk.timers import TimerChoice
from vision.errors import VisionError
from vision.registry import Registry, load_registry
from vision.sheets import sticker_name
from vision.sources import Frame, SourceEndedError
from vision.synthetic import Camera, Component, Effects, Hand, Rendering, SyntheticTable, render

log = logging.getLogger("tablesight.simulation")

SCRIPTS = Path(__file__).parent
PROGRESS_FILE = "simulation.json"
ACTIONS = ("put", "lift", "wait", "hand", "tap", "press", "say", "hold")


class SimulationError(VisionError, ValueError):
    """A simulation script cannot be read or played (unknown step, bad move, unknown tag)."""


@dataclass(frozen=True)
class Step:
    """One step of a script: its action (one of ``ACTIONS``) and the action's value."""

    action: str
    value: Any
    line: int


@dataclass(frozen=True)
class Script:
    """A scripted session: the game, its set-up and seed, the frame rate and the steps."""

    game: str
    setup: dict[str, Any]
    seed: int
    fps: float
    tap_s: float
    camera: dict[str, Any]
    steps: tuple[Step, ...]
    path: Path
    say_s: float = 3.0
    """The beat after a ``say`` (seconds at speed 1): time to read it."""
    step_s: float = 1.5
    """The beat after a ``put`` or a ``lift`` (seconds at speed 1)."""
    timer: TimerChoice | None = None
    """The timers the session's game is set up with (``[session] timer``, ``kiosk.timers``)."""

    @property
    def save_name(self) -> str:
        """The saved game the simulation plays into."""
        return f"simulation-{self.game}"


def script_path(game: str) -> Path:
    """Where the script of ``game`` is."""
    return SCRIPTS / f"{game}.toml"


def load_script(path: Path, registry: Registry | None = None) -> Script:
    """Read and check a script; SimulationError names the step that is wrong."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SimulationError(f"{path}: {exc}") from None
    registry = registry or load_registry()
    session = data.get("session", {})
    try:
        find_game(str(session.get("game")))  # registers the game's moves
    except EngineError as exc:
        raise SimulationError(f"{path}: [session] game: {exc}") from None
    steps = []
    for number, raw in enumerate(session.get("steps", []), 1):
        if not isinstance(raw, dict) or len(raw) != 1 or next(iter(raw)) not in ACTIONS:
            raise SimulationError(
                f"{path}: step {number} must be one of {', '.join(ACTIONS)}, not {raw!r}"
            )
        action, value = next(iter(raw.items()))
        step = Step(action, value, number)
        _check(step, registry, path)
        steps.append(step)
    try:
        return Script(
            game=str(session["game"]),
            setup=dict(session.get("setup", {})),
            seed=int(session.get("seed", 0)),
            fps=float(session.get("fps", 10)),
            tap_s=float(session.get("tap_s", 2.5)),
            say_s=float(session.get("say_s", 3.0)),
            step_s=float(session.get("step_s", 1.5)),
            camera=dict(data.get("camera", {})),
            steps=tuple(steps),
            path=path,
            timer=TimerChoice.model_validate(session["timer"]) if "timer" in session else None,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise SimulationError(f"{path}: [session] needs game, setup and seed ({exc})") from None


def _check(step: Step, registry: Registry, path: Path) -> None:
    where = f"{path.name}: step {step.line} ({step.action})"
    if step.action == "tap":
        try:
            move_from_dict(step.value)
        except EngineError as exc:
            raise SimulationError(f"{where}: {exc}") from None
    elif step.action == "put":
        for item in step.value if isinstance(step.value, list) else [step.value]:
            if registry.lookup(int(item["tag"])) is None:
                raise SimulationError(f"{where}: tag {item['tag']} is in no registry file")
    elif step.action == "press" and step.value not in ("advance", "undo", "menu"):
        raise SimulationError(f"{where}: the buttons are advance, undo and menu")
    elif step.action in ("wait", "hold") and not (
        isinstance(step.value, int | float) and not isinstance(step.value, bool) and step.value >= 0
    ):
        unit = "frames" if step.action == "wait" else "seconds"
        raise SimulationError(f"{where}: how many {unit}: a number, not {step.value!r}")
    elif step.action == "say":
        said = step.value
        if not (isinstance(said, dict) and all(isinstance(said.get(k), str) for k in ("zh", "en"))):
            raise SimulationError(f'{where}: say what in both languages: {{ zh = "…", en = "…" }}')


def step_seconds(script: Script, step: Step) -> float:
    """How long ``step`` takes at speed 1: its frames at the script's rate, or its beat."""
    if step.action == "wait":
        return int(step.value) / script.fps
    if step.action == "hand":
        return int(step.value.get("frames", 4)) / script.fps
    if step.action == "hold":
        return float(step.value)
    if step.action in ("tap", "press"):
        return script.tap_s
    if step.action == "say":
        return script.say_s
    return script.step_s  # put, lift


def script_duration_s(script: Script, speed: float = 1.0, steps: slice = slice(None)) -> float:
    """How long the script's ``steps`` (all of them by default) play at ``speed``, summed from
    the script without playing it (0 at speed 0: no pause at all)."""
    if speed <= 0:
        return 0.0
    return sum(step_seconds(script, step) for step in script.steps[steps]) / speed


BUTTONS = {
    "advance": CORE_LABELS["advance"],
    "undo": Text("撤销", "Undo"),
    "menu": Text("菜单", "Menu"),
}
"""The rig's buttons as the narration names them."""

TAPPED = Text("在控制台上点按一步", "A move is tapped on the console")
"""A tap's narration when the kiosk cannot name the move."""


def narration(step: Step, script: Script, registry: Registry, on_table: set[int]) -> Text:
    """What a step does, in both languages, for the narration (``on_table``: the tags lying on
    the table before it; a ``tap`` is named by the kiosk, ``Actions.describe``)."""
    if step.action == "say":
        return Text(step.value["zh"], step.value["en"])
    if step.action in ("put", "lift"):
        items = step.value if isinstance(step.value, list) else [step.value]
        tags = [int(item) if step.action == "lift" else int(item["tag"]) for item in items]
        names = _names([registry.lookup(tag) for tag in tags], tags)
        if step.action == "lift":
            return Text("从桌上拿起:{names}", "Lifted off the table: {names}").format(names=names)
        if all(tag in on_table for tag in tags):
            return Text("在桌上挪动:{names}", "Moved on the table: {names}").format(names=names)
        return Text("放到桌上:{names}", "Put on the table: {names}").format(names=names)
    if step.action == "wait":
        seconds = f"{step_seconds(script, step):.1f}".removesuffix(".0")
        return Text(
            "摄像头看着桌面,约{s}秒", "The camera watches the table for about {s} s"
        ).format(s=seconds)
    if step.action == "hand":
        return Text("一只手从桌面上方伸过", "A hand passes over the table")
    if step.action == "hold":
        return Text(
            "桌面保持{s}秒不动:请看屏幕", "The table is left as it is for {s} s: read the screen"
        ).format(s=f"{float(step.value):g}")
    if step.action == "press":
        return Text("按下按钮“{b}”", "The “{b}” button is pressed").format(b=BUTTONS[step.value])
    return TAPPED


def _names(entries: list[Any], tags: list[int]) -> Text:
    """The components' names as their stickers print them, three at most ("… and 2 more")."""
    names = [
        sticker_name(e) if e is not None else Text(f"{tag}号贴纸", f"sticker {tag}")
        for e, tag in zip(entries, tags, strict=True)
    ]
    names = list(dict.fromkeys(names))  # a board's two tags are one board
    shown = names if len(names) <= 3 else names[:2]
    zh, en = "、".join(n.zh for n in shown), ", ".join(n.en for n in shown)
    if len(names) > len(shown):
        zh, en = f"{zh}等{len(names)}件", f"{en} and {len(names) - 2} more"
    return Text(zh, en)


SESSION_ENDED = Text(
    "脚本演示到此结束;看板继续运行,可在菜单中开始新游戏",
    "The scripted session has ended; the kiosk keeps running: start a new game from the menu",
)
"""Said once when the last step of a script has played."""


@dataclass
class Actions:
    """What the simulation does besides the camera: tap a move on the kiosk, press a button."""

    tap: Callable[[Move], object]
    press: Callable[[str], None]
    say: Callable[[Text], None] = lambda text: log.info("%s", text.en)
    """Narrate a line (the script's ``say``, and the session's end) to whoever watches."""
    moves: Callable[[], int] = lambda: 0
    """How many moves the saved game holds (kept with the progress, for a restart)."""
    restart: Callable[[], None] | None = None
    """Start a new game of the script (set for a repeating session)."""
    offered: Callable[[Move], bool] | None = None
    """Whether the players' console offers a move now; a tap is made only through an offer."""
    describe: Callable[[Move], Text | None] = lambda move: None
    """A tap as the narration says it (who taps which button of the console), or None."""


@dataclass
class Simulation:
    """The synthetic camera playing a script (a frame source for the table loop).

    ``speed`` scales time: 1 plays at the script's frame rate with each step's beat
    (:func:`step_seconds`), 2 twice as fast, 0 as fast as it can (no beat at all). ``start``
    is the first step to play (after a restart).
    """

    script: Script
    actions: Actions
    speed: float = 1.0
    start: int = 0
    registry: Registry = field(default_factory=load_registry)
    progress: Path | None = None
    save: str = ""
    """The saved game being played (kept with the progress)."""
    name: str = "synthetic"
    step: int = 0
    components: dict[int, Component] = field(default_factory=dict)
    last: Rendering | None = None
    _pending_frames: int = 0
    _hands: tuple[Hand, ...] = ()
    _index: int = 0
    _ended: bool = False
    _cache: tuple[Any, Rendering] | None = None
    _hold_until: float = 0.0
    """While a beat or a hold lasts (monotonic time), frames of the table as it is."""

    def __post_init__(self) -> None:
        cam = {"width": 1280, "height": 720, "height_mm": 850.0} | self.script.camera
        self.camera = Camera.overhead(
            int(cam["width"]), int(cam["height"]), height_mm=float(cam["height_mm"])
        )
        anchors = self.registry.anchors()
        self._anchors = set(anchors)
        for a in anchors.values():
            self.components[a.tag_id] = Component(a.tag_id, a.x_mm, a.y_mm, 0, a.size_mm)
        for step in self.script.steps[: self.start]:  # the scene as it was when it stopped
            if step.action in ("put", "lift"):
                self._scene(step)
        self.step = self.start

    # --- the frame source ------------------------------------------------------------------

    def open(self) -> None:
        """Nothing to open."""

    def close(self) -> None:
        """Nothing to close."""

    def read(self) -> Frame:
        """Carry out the steps that are due, then render the next frame."""
        while self._pending_frames == 0 and not self._holding():
            if self.step >= len(self.script.steps) and self.actions.restart is not None:
                self.actions.restart()  # a repeating session: the next game on a clear table
                self.components = {k: c for k, c in self.components.items() if k in self._anchors}
                self.step = 0
                self._pending_frames = 1
                break
            if self.step >= len(self.script.steps):
                if not self._ended:
                    self._ended = True
                    self.actions.say(SESSION_ENDED)
                raise SourceEndedError("simulation: the scripted session has ended")
            self._save_progress()
            step = self.script.steps[self.step]
            self.step += 1
            self._do(step)
        if self._pending_frames:
            self._pending_frames -= 1
            if self._pending_frames == 0:
                self._hands = ()
            if self.speed > 0:
                time.sleep(1 / (self.script.fps * self.speed))
        else:  # a beat: the camera goes on at its own rate while people read the screen
            time.sleep(max(0.0, min(1 / self.script.fps, self._hold_until - time.monotonic())))
        image = self._render()
        frame = Frame(image, self._index * 1000 / self.script.fps, self._index)
        self._index += 1
        return frame

    def _holding(self) -> bool:
        return self._hold_until > time.monotonic()

    def _beat(self, step: Step) -> None:
        """After a step that takes no frames of its own, its time (divided by the speed)."""
        if self.speed > 0:
            self._hold_until = time.monotonic() + step_seconds(self.script, step) / self.speed

    def _do(self, step: Step) -> None:
        if step.action != "tap":  # a tap is narrated once the console offers it
            self.actions.say(narration(step, self.script, self.registry, set(self.components)))
        if step.action in ("put", "lift"):
            self._scene(step)
            self._beat(step)
        elif step.action == "hold":
            self._beat(step)
        elif step.action == "wait":
            self._pending_frames = int(step.value)
        elif step.action == "hand":
            h = step.value
            self._hands = (Hand(float(h["x"]), float(h["y"]), arm_to_mm=(float(h["x"]), 700.0)),)
            self._pending_frames = int(h.get("frames", 4))
        elif step.action == "tap":
            move = move_from_dict(step.value)
            if self.actions.offered is not None and not self.actions.offered(move):
                message = (
                    f"{self.script.path.name}: step {step.line}: the console offers no such"
                    f" move now: {move.to_json()}"
                )
                log.error("simulation stopped: %s", message)
                self.step = len(self.script.steps)
                raise SourceEndedError(f"simulation stopped: {message}")
            self.actions.say(self.actions.describe(move) or TAPPED)
            self.actions.tap(move)
            self._beat(step)
        elif step.action == "press":
            self.actions.press(str(step.value))
            self._beat(step)
        elif step.action == "say":
            self._beat(step)

    def _scene(self, step: Step) -> None:
        items = step.value if isinstance(step.value, list) else [step.value]
        for item in items:
            if step.action == "lift":
                self.components.pop(int(item), None)
                continue
            tag = int(item["tag"])
            entry = self.registry.lookup(tag)
            size = float(item.get("size", entry.tag_mm if entry else 20.0))
            rot = float(item.get("rot", 0.0))
            self.components[tag] = Component(tag, float(item["x"]), float(item["y"]), rot, size)

    def _render(self) -> Any:
        key = (tuple(sorted(self.components.items())), self._hands)
        if self._cache is None or self._cache[0] != key:
            table = SyntheticTable(tuple(self.components[k] for k in sorted(self.components)))
            self._cache = (key, render(table, self.camera, Effects(hands=self._hands)))
        self.last = self._cache[1]
        return self._cache[1].image

    def _save_progress(self) -> None:
        if self.progress is None:
            return
        data = {
            "script": self.script.path.name,
            "save": self.save,
            "step": self.step,
            "moves": self.actions.moves(),
        }
        tmp = self.progress.with_suffix(".tmp")
        tmp.write_text(json.dumps(data) + "\n", encoding="utf-8")
        tmp.replace(self.progress)


def resume_step(progress: Path, script: Script, moves: int) -> int:
    """The step a restarted simulation carries on from (0 when there is no progress).

    A tap or a press that was under way when the process stopped is not made again when the
    saved game (``moves`` moves now) holds more moves than when the step began.
    """
    try:
        data = json.loads(progress.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0
    if data.get("script") != script.path.name:
        return 0
    step = int(data.get("step", 0))
    done = moves > int(data.get("moves", moves))
    if step < len(script.steps) and script.steps[step].action in ("tap", "press") and done:
        step += 1
    return min(step, len(script.steps))
