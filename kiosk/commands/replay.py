"""`tablesight replay`: apply a JSON-lines file of moves and print each verdict and the events.

Each line of FILE is one move as JSON (``{"type": "pass", "seat": 0}``). A first line of the form
``{"setup": {...options...}, "seed": N}`` sets the game up (its events are printed first, as
line 1); otherwise ``--options`` and ``--seed``
do, or ``--from-save NAME`` starts from a saved game (which is read, never changed). A refused move
changes nothing and the replay goes on; a malformed line is reported with its number.
Exit status: 0 when every line was read, 1 when a line was malformed, 2 when nothing could be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk.commands import VERBS
from kiosk.errors import CommandError

if TYPE_CHECKING:
    from engine.core import Session
    from engine.core.records import Event
    from engine.core.text import Language
    from kiosk.settings import Settings


MAX_SEED = 2**31 - 1
"""The largest seed, as the set-up page takes it (``kiosk.routers.controls.NewGameBody``)."""
SEED_RANGE = f"a whole number from 0 to {MAX_SEED}"


def seed(text: str) -> int:
    """``--seed``: a whole number in range (argparse's one-line error, exit status 2, if not)."""
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not 0 <= value <= MAX_SEED:
        shown = text if len(text) <= 20 else f"one {len(text)} characters long"
        raise argparse.ArgumentTypeError(f"the seed must be {SEED_RANGE}, not {shown}")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `replay` verb."""
    parser = sub.add_parser(
        "replay",
        help=VERBS["replay"],
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", help="greenwood, dont_starve or stonesaga")
    parser.add_argument("file", type=Path, help="JSON-lines file of moves ('-' for stdin)")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--options", help="setup options as JSON, e.g. '{\"players\": 3}'")
    parser.add_argument(
        "--seed", type=seed, default=0, help=f"seed of the game's randomness ({SEED_RANGE})"
    )
    parser.add_argument("--from-save", metavar="NAME", help="start from this saved game")
    parser.add_argument(
        "--campaign-out",
        metavar="FILE",
        type=Path,
        help="write the Log of the ended session (a campaign's next session starts from it)",
    )
    parser.set_defaults(handler=replay)


def replay(args: argparse.Namespace, settings: Settings) -> int:
    """Run the replay; see the module docstring."""
    from engine.core import EngineError, find_game, move_from_dict

    try:
        game = find_game(args.game)
        lines = _read_lines(args.file)
    except (EngineError, OSError, UnicodeDecodeError) as exc:
        raise CommandError(str(exc)) from None
    first_move_line = 0
    setup = _setup_line(lines[0]) if lines else None
    options: dict[str, Any] | None = None
    seed = args.seed
    if setup is not None:
        options, seed = _setup(setup, seed)
        first_move_line = 1
    elif args.options:
        try:
            options = loads(args.options)
        except ValueError as exc:
            raise CommandError(f"--options is not JSON: {_why(exc)}") from None
        if not isinstance(options, dict):
            raise CommandError(f"--options must be a JSON object, not {_kind(options)}")
    session = _start(game.name, args, settings, options, seed)
    out = Printer(args.json, settings.lang)
    if setup is not None:
        out.setup(seed, session.start_events)
    malformed = 0
    for number, line in enumerate(lines[first_move_line:], start=first_move_line + 1):
        if not line.strip():
            continue
        try:
            move = move_from_dict(loads(line))
        except (ValueError, EngineError) as exc:
            malformed += 1
            out.malformed(number, _why(exc))
            continue
        result = session.submit(move)
        out.result(number, move, result.verdict, result.events)
    out.summary(session)
    if args.campaign_out is not None:
        _write_campaign(session, args.campaign_out)
    return 1 if malformed else 0


def _write_campaign(session: Session, path: Path) -> None:
    """--campaign-out: the Log of the ended session as JSON (``Game.campaign_log``)."""
    log = session.game.campaign_log(session.state)
    if log is None:
        why = "has not ended" if session.state.outcome is None else "keeps no campaign"
        raise CommandError(f"no campaign Log to write: the {session.game.name} session {why}")
    try:
        path.write_text(json.dumps(log, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"--campaign-out {path}: {exc.strerror or exc}") from None


def loads(text: str) -> Any:
    """``json.loads``; what Python refuses beyond JSON (nesting deeper than its recursion
    limit, integers of more than 4300 digits) is a ValueError too, with a readable message."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def _why(exc: Exception) -> str:
    """A parse error as the malformed-line message."""
    if isinstance(exc, json.JSONDecodeError):
        return f"not JSON: {exc.msg}"
    text = str(exc)
    if "integer string conversion" in text:
        return "a number has more digits than can be read (4300 at most)"
    return text


def _kind(value: Any) -> str:
    """The JSON kind of a value, for messages."""
    names = {dict: "an object", list: "a list", str: "a string", bool: "true/false"}
    if value is None:
        return "null"
    return names.get(type(value), "a number")


def _read_lines(path: Path) -> list[str]:
    if str(path) == "-":
        return sys.stdin.read().splitlines()
    if path.is_dir():
        raise OSError(f"{path} is a folder; give the JSON-lines file of moves")
    if not path.is_file():
        raise OSError(f"{path}: no such file")
    return path.read_text(encoding="utf-8").splitlines()


def _setup_line(line: str) -> dict[str, Any] | None:
    """The first line as a set-up line, or None if it is not one (it is then read as a move).
    A line that names ``"setup"`` but cannot be read is a CommandError."""
    try:
        data = loads(line)
    except ValueError as exc:
        if '"setup"' in line:
            raise CommandError(f"line 1: the set-up line cannot be read: {_why(exc)}") from None
        return None
    return data if isinstance(data, dict) and "setup" in data and "type" not in data else None


def _setup(line: dict[str, Any], seed: int) -> tuple[dict[str, Any], int]:
    """The options and seed of a set-up line; CommandError (one line) if they are not usable."""
    options = line.get("setup")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise CommandError(
            f'line 1: "setup" must be a JSON object of options, not {_kind(options)}'
        )
    value = line.get("seed", seed)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        short = isinstance(value, str) and len(value) <= 20
        shown = value if isinstance(value, float) else json.dumps(value) if short else _kind(value)
        raise CommandError(f'line 1: "seed" must be a whole number, not {shown}')
    if not 0 <= value <= MAX_SEED:
        shown = str(value) if len(str(value)) <= 20 else f"one {len(str(value))} digits long"
        raise CommandError(f'line 1: "seed" must be {SEED_RANGE}, not {shown}')
    return options, value


def _start(
    game: str, args: argparse.Namespace, settings: Settings, options: Any, seed: int
) -> Session:
    from engine.core import EngineError, Session, find_game
    from kiosk.boxes import with_box
    from kiosk.store import Store, StoreError

    try:
        if args.from_save:
            with Store.open(settings.database, read_only=True) as store:
                saved = store.load(args.from_save)
            if saved.game.name != game:
                raise CommandError(
                    f"saved game {args.from_save!r} is {saved.game.name}, not {game}"
                )
            return saved.session
        found = find_game(game)
        return Session(found, with_box(settings.data_dir, found, options), seed)
    except (EngineError, StoreError, ValueError, TypeError, RecursionError) as exc:
        raise CommandError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None


class Printer:
    """Prints each step of the replay, for people or as JSON lines."""

    def __init__(self, as_json: bool, lang: Language) -> None:
        self.as_json, self.lang = as_json, lang

    def _emit(self, data: dict[str, Any]) -> None:
        print(json.dumps(data, ensure_ascii=False))

    def setup(self, seed: int, events: tuple[Event, ...]) -> None:
        """What the set-up line (line 1) did as the game began: its events (a Stonesaga session
        set up from a Log shows there the interval's ageing, deaths and outposts)."""
        if self.as_json:
            self._emit(
                {"line": 1, "setup": True, "seed": seed, "events": [e.to_dict() for e in events]}
            )
            return
        print(f"line 1: set up (seed {seed})")
        for event in events:
            print(f"    {event.to_json()}")

    def malformed(self, number: int, message: str) -> None:
        """A line that is not a move."""
        if self.as_json:
            self._emit({"line": number, "error": message})
        else:
            print(f"line {number}: malformed: {message}")

    def result(self, number: int, move: Any, verdict: Any, events: tuple[Event, ...]) -> None:
        """The verdict on one move and the events it caused."""
        if self.as_json:
            self._emit(
                {
                    "line": number,
                    "move": move.to_dict(),
                    "accepted": verdict.ok,
                    "verdict": verdict.to_dict(),
                    "events": [e.to_dict() for e in events],
                }
            )
            return
        if verdict.ok:
            print(f"line {number}: {move.to_json()}  accepted")
            for event in events:
                print(f"    {event.to_json()}")
        else:
            rule = f" [{verdict.rule}]" if verdict.rule else ""
            message = verdict.message.in_(self.lang)
            print(f"line {number}: {move.to_json()}  REJECTED {verdict.code}: {message}{rule}")

    def summary(self, session: Session) -> None:
        """Where the game stands after the replay (not printed with --json)."""
        if self.as_json:
            return
        from kiosk.presenter import seat_views, the_end
        from kiosk.seats import default_seats

        flow, state = session.state.flow, session.state
        where = f"round {flow.round}, phase {flow.phase}"
        if flow.current is not None:
            where += f", player {flow.current + 1} to act"
        if state.outcome is not None:
            game = session.game
            seats = seat_views(default_seats(state.players), (), self.lang)
            end = the_end(game, state.outcome, seats, game.scores(state), (), self.lang)
            where = f"game over: {end.title} {end.why}".rstrip()
            if end.scores:
                where += " (" + ", ".join(f"{r.name} {r.score}" for r in end.scores) + ")"
        print(f"after {len(session.moves)} accepted moves: {where}")
