"""The embedded simulation: a scripted session on the synthetic table, read by the real pipeline.

A script (``kiosk/simulation/<game>.toml``, format in docs/simulation.md) sets up a game and
lists steps: put a tagged component down or lift it, pass a hand over the table, let frames go
by, press a button on the mock GPIO pins, or tap a move the camera cannot see on the kiosk's
console (only a move the console offers at that point: a scripted move it does not offer stops
the session, naming its step).
:class:`Simulation` is a frame source: each ``read()`` carries out the steps that are due, then
renders the synthetic table as the overhead camera sees it. The frames go through the table loop
like a real camera's, so every move the camera makes comes from pixels.

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
from vision.errors import VisionError
from vision.registry import Registry, load_registry
from vision.sources import Frame, SourceEndedError
from vision.synthetic import Camera, Component, Effects, Hand, Rendering, SyntheticTable, render

log = logging.getLogger("tablesight.simulation")

SCRIPTS = Path(__file__).parent
PROGRESS_FILE = "simulation.json"
ACTIONS = ("put", "lift", "wait", "hand", "tap", "press", "say")


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
            tap_s=float(session.get("tap_s", 0.4)),
            camera=dict(data.get("camera", {})),
            steps=tuple(steps),
            path=path,
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
    elif step.action == "say":
        said = step.value
        if not (isinstance(said, dict) and all(isinstance(said.get(k), str) for k in ("zh", "en"))):
            raise SimulationError(f'{where}: say what in both languages: {{ zh = "…", en = "…" }}')


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


@dataclass
class Simulation:
    """The synthetic camera playing a script (a frame source for the table loop).

    ``speed`` scales time: 1 plays at the script's frame rate and pauses ``tap_s`` per tap,
    0 runs as fast as it can. ``start`` is the first step to play (after a restart).
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
        while self._pending_frames == 0:
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
        self._pending_frames -= 1
        if self._pending_frames == 0:
            self._hands = ()
        if self.speed > 0:
            time.sleep(1 / (self.script.fps * self.speed))
        image = self._render()
        frame = Frame(image, self._index * 1000 / self.script.fps, self._index)
        self._index += 1
        return frame

    def _do(self, step: Step) -> None:
        if step.action in ("put", "lift"):
            self._scene(step)
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
            self.actions.tap(move)
            self._pause()
        elif step.action == "press":
            self.actions.press(str(step.value))
            self._pause()
        elif step.action == "say":
            self.actions.say(Text(step.value["zh"], step.value["en"]))

    def _pause(self) -> None:
        if self.speed > 0:
            time.sleep(self.script.tap_s / self.speed)

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
