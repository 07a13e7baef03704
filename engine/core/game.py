"""The Game interface that each game fills in, its setup options, and the registry of games."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal

from pydantic import TypeAdapter, ValidationError

from engine.core.box import Box, BoxError, BoxFiles, demo_box
from engine.core.checklist import ANCHOR_CHECK, BY_EYE, SetupCheck
from engine.core.errors import GameConfigError, UnknownGameError
from engine.core.forms import Field, Offer
from engine.core.phases import END, Phase, TurnOrder
from engine.core.records import Event, Move, Seat
from engine.core.rng import Rng
from engine.core.state import Outcome, State, TrackMarks
from engine.core.text import ACCEPTED, Text, Verdict

GAME_MODULES = {
    "greenwood": "engine.greenwood",
    "dont_starve": "engine.dont_starve",
    "stonesaga": "engine.stonesaga",
}
"""The games tablesight supports, by name, and the package that registers each."""

PICTURE_KINDS = (
    "empty",  # a cell that can be used, nothing on it yet
    "start",  # where something must begin (Greenwood's start cell)
    "blocked",  # a cell that cannot be used
    "reward",  # a cell that gives something when covered (its icon in ``text``)
    "piece",  # covered by a placed piece (``group`` is the piece)
    "done",  # part of a completed area or a finished thing
    "tile",  # a map tile that is laid face up
    "hidden",  # a map tile still face down
    "feature",  # a landmark of the map (a Stonesaga feature, a Don't Starve structure)
    "danger",  # a monster, a behemoth, a hazard
    "camp",  # a camp, an outpost, a home
)
"""The kinds of cell a game's picture may draw (each has its own fill on the kiosk)."""
PICTURE_MARKS = ("refused", "missing", "wrong", "expected", "here")
"""Outlines over a cell: a placement the rules refused (red), a tile missing from the
expected layout (amber, dashed), a wrong tile (red, dashed), where a tile is expected (grey,
dashed), where the acting player is (accent)."""


@dataclass(frozen=True)
class InProgress:
    """An action in progress: a state of the engine with its own legal moves (DESIGN.md,
    "Actions in progress"; OpenSpiel's chance nodes, boardgame.io's stages): a mining bag open,
    a test or a fight waiting for the table's dice, a pending reward or placement.

    While a game's ``in_progress`` names one, the core allows only ``moves`` (those that
    continue or close it, and the free actions the rules allow meanwhile), made by ``seat``
    (None: by any seat); every other move, ending the turn, passing and the table's confirm
    are refused with ``verdict``, which says what to finish first and cites the rule.
    """

    seat: Seat | None
    verdict: Verdict
    moves: frozenset[str]

    def allows(self, move: Move) -> bool:
        """Whether this move may be made while the action is open (the game judges it then)."""
        return move.type in self.moves and (self.seat is None or move.seat == self.seat)


@dataclass(frozen=True)
class Options:
    """Setup options every game has; a game subclasses this with its own fields."""

    players: int = 1
    draws: Literal["table", "virtual"] = "table"
    """Where a drawn card, tile or threat comes from: ``table`` (the default), the one the
    players drew, given by the camera or at the console; ``virtual``, the engine's seeded
    decks (the simulation, the example files, a group with no cards at hand)."""
    box: Box | None = None
    """The printed content played with (``engine.core.box``); None: the game's demo box."""


class Game:
    """A game is data (phases, options) plus pure hooks; the core driver does the rest.

    Subclasses set the class attributes and override the hooks they need. All hooks are pure:
    they take a State and return new values, never touching the world.
    """

    name: ClassVar[str]
    title: ClassVar[Text]
    rules: ClassVar[str] = ""
    """The rule text this game is built from, e.g. ``greenwood.zh.md``."""
    options_type: ClassVar[type[Options]] = Options
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 4
    phases: ClassVar[tuple[Phase, ...]] = ()
    start_seat_passes: ClassVar[bool] = True
    """Whether the start-player marker passes clockwise at the start of every later round."""
    event_texts: ClassVar[dict[str, Text]] = {}
    """What the kiosk's log says for each of the game's own events (``{player}`` is seat + 1)."""
    rounds: ClassVar[int | None] = None
    """How many rounds the game lasts at most (drawn on the round track); None: open-ended."""
    option_texts: ClassVar[dict[str, Text]] = {}
    """What players read at set-up: ``"season"`` names the option, ``"season=autumn"`` one of
    its values. For an option that holds a list of names (the characters), its ``field=value``
    entries are also the values the set-up page offers."""
    outcome_texts: ClassVar[dict[str, Text]] = {}
    """What the end screen says for each outcome reason code (``greenwood.tie_most_rescued``:
    "tie broken by most rescued creatures"); ``{seats}`` is the winners, named."""
    setup_checks: ClassVar[tuple[SetupCheck, ...]] = ()
    """The game's own lines of the set-up checklist, between the anchors and what is checked by
    eye (``checklist``)."""

    idle_refusals: ClassVar[frozenset[str]] = frozenset()
    """The codes of refusals an earlier version did not make, of moves that change nothing (an
    energy bar already full, a card swapped for itself): it answered them accepted, and a save
    holds them. Replaying such a save applies them as played (``kiosk.store``), which changes
    nothing, instead of setting the save aside as one no longer legal."""

    box_package: ClassVar[str] = ""
    """The package holding the demo box's data files (``engine.greenwood.data``)."""
    box_files: ClassVar[tuple[str, ...]] = ()
    """The names of the box's data files, as shipped and as a box folder holds them."""
    box_kinds: ClassVar[dict[str, Text]] = {}
    """What players call each kind of printed item (``"submarines/layout"``: 潜艇板 /
    submarine boards); a kind not named here is shown by its file and key."""

    def load_box(self, files: BoxFiles) -> Any:
        """The game's catalogue made from a box's content; BoxError (or ValueError) saying
        what is wrong, naming the file and the entry. Default: the content as it is."""
        return files

    def option_texts_for(self, box: Box | None) -> dict[str, Text]:
        """The set-up page's labels for a game played with ``box`` (an owner's scenario card
        adds its title); None, or a game whose labels do not follow its box: ``option_texts``."""
        return self.option_texts

    def box_forms(self, box: Box) -> dict[str, tuple[Field, ...]]:
        """The kinds of printed item copied by filling in what they show (a card's symbols
        and numbers), each with its fields (``pick`` and ``number``, as the console's). Default:
        none."""
        return {}

    def box_entry(self, kind: str, values: Mapping[str, Any], box: Box) -> tuple[str, Any]:
        """The item id and value (as its data file writes it) of a ``kind`` filled in with
        ``values`` (by field name; ``title``: the printed title, optional); BoxError saying
        what is wrong. The id is the next demo item of its kind the owner has not copied, so
        that copying a deck replaces the invented cards one by one."""
        raise BoxError([f"{kind}: not copied by filling in its fields"])

    def demo_box(self) -> Box:
        """The shipped demo box (every item an invented value)."""
        return demo_box(self.name, self.box_package, self.box_files)

    def box(self, options: Any) -> Box:
        """The box a game with these options is played with (the demo box when none is set)."""
        box = getattr(options, "box", None)
        return box if box is not None else self.demo_box()

    def catalogue(self, options: Any) -> Any:
        """The catalogue of the box a game with these options is played with, made once per
        box; BoxError if the box does not load."""
        box = self.box(options)
        try:
            return box.parsed(self.load_box)
        except BoxError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise BoxError([f"{self.name}: {exc}"]) from None

    def checklist(self) -> tuple[SetupCheck, ...]:
        """The set-up checklist: the table's anchors, the game's own lines, the rest by eye."""
        return (ANCHOR_CHECK, *self.setup_checks, BY_EYE)

    def setup(self, options: Any, rng: Rng) -> tuple[Any, Rng, Seat]:
        """The game's own data, the advanced Rng, and the start seat. Default: no data, seat 0."""
        return None, rng, 0

    def legal(self, state: State[Any], move: Move) -> Verdict:
        """The game's own checks of a move the core already allows in this phase and turn."""
        return ACCEPTED

    def legal_pass(self, state: State[Any], move: Move) -> Verdict:
        """The game's own checks of a core ``pass`` or ``end_turn`` (default: always allowed).

        For rules such as "a turn must use a token before it ends"; these moves have no
        effects of the game's own, so there is no matching apply hook.
        """
        return ACCEPTED

    def apply(self, state: State[Any], move: Move) -> tuple[State[Any], tuple[Event, ...]]:
        """The effects of a legal game move (core moves never reach this hook)."""
        return state, ()

    def in_progress(self, state: State[Any]) -> InProgress | None:
        """The action in progress now (the innermost, when one opened inside another), or None
        (default): while one is open the core refuses every move it does not allow
        (``InProgress``), so no turn, pass or phase can leave it half done."""
        return None

    def offers(self, state: State[Any], seat: Seat) -> Iterable[Offer]:
        """The game's own moves this seat may make now, as offers for the players' console.

        Each offer's choices come from the state (``engine.core.offers``); the core adds
        confirm, end turn and pass, and checks every option with ``legal()``, so an offer may
        list choices the rules refuse now: they are shown greyed with the reason.
        Default: none.
        """
        return ()

    def outcome(self, state: State[Any]) -> Outcome | None:
        """Whether the game has ended mid-flow (a loss, say); checked after every change."""
        return None

    def view(self, state: State[Any], lang: str) -> dict[str, Any]:
        """What the kiosk shows of the game's own data, as plain JSON (default: nothing).

        Shape: ``{"summary": [[label, value], ...], "players": [{"seat": 0, "name": ...,
        "fields": [[label, value], ...]}, ...]}``; labels in ``lang``; every key is optional.
        The kiosk draws it generically, so a game appears on the screen without kiosk changes.
        """
        return {}

    def track_marks(self, state: State[Any]) -> TrackMarks:
        """What the round track's LEDs mark for this state, as codes: the accent (day or
        night) and a coming round to blink (default: neither). The LEDs read this, never the
        screen's wording."""
        return TrackMarks()

    def event_text(
        self, event: dict[str, Any], lang: str, state: State[Any] | None = None
    ) -> str | None:
        """One line of the kiosk's log for one of the game's own events (as plain data, the
        ``type`` key naming it), things named as the table does; ``state`` is the game now
        (to name a character an event gives by number). None: the kiosk fills
        ``event_texts[type]`` with the event's fields (default)."""
        return None

    def scores(self, state: State[Any]) -> tuple[int, ...] | None:
        """Each seat's score, where the game keeps one (the end screen and the per-round
        chart); None for a game without scores (default)."""
        return None

    def picture(
        self,
        state: State[Any],
        lang: str,
        refused: Move | None = None,
        seen: Sequence[tuple[str, str | None]] = (),
    ) -> dict[str, Any] | None:
        """The board as the kiosk draws it (SVG), from the state alone: plain JSON, texts in
        ``lang``; ``refused`` is the last move the rules refused while it stands uncorrected
        (outline where it was tried); ``seen`` is what the camera finds wrong with the layout
        on the table, as (reason code, place) pairs (a game whose map is laid by the players
        draws the expected layout with them while any remain). None: nothing to draw
        (default).

        Shape (docs/engine.md "Pictures")::

            {"boards": [{"title": str, "seat": int | None, "cols": int, "rows": int,
                         "cells": [{"col": c, "row": r, "kind": KIND, "text": str,
                                    "group": str}],
                         "tokens": [{"col": c, "row": r, "text": str, "seat": int | None}],
                         "marks": [{"col": c, "row": r, "kind": MARK}],
                         "notes": [str]}],
             "legend": [{"kind": KIND or MARK, "text": str}]}

        ``col``/``row`` count from 0 at the top left; ``text`` (optional) is at most four
        characters drawn in the cell; cells of one ``group`` (a placed piece, a map tile) are
        outlined together. KIND is one of ``PICTURE_KINDS``, MARK one of ``PICTURE_MARKS``.
        """
        return None

    def campaign_log(self, state: State[Any]) -> dict[str, Any] | None:
        """What an ended session hands to the next session of its campaign, as plain JSON (the
        game's option ``log`` of that next session takes it back); None for a game without a
        campaign, or before the game has ended (default)."""
        return None

    def final_outcome(self, state: State[Any]) -> Outcome:
        """The outcome when the flow reaches its end (final scoring)."""
        return Outcome("finished")

    def parse_options(self, raw: Options | dict[str, Any] | None) -> Options:
        """Validated setup options from a dataclass or plain data; GameConfigError if invalid."""
        if isinstance(raw, self.options_type):
            options = raw
        elif isinstance(raw, Options):
            raise GameConfigError(
                f"{self.name} takes {self.options_type.__name__} or plain data,"
                f" not {type(raw).__name__}"
            )
        else:
            unknown = sorted(set(raw or {}) - {f.name for f in fields(self.options_type)})
            if unknown:
                known = ", ".join(f.name for f in fields(self.options_type))
                raise GameConfigError(f"{self.name} has no option {unknown[0]!r}; options: {known}")
            try:
                options = TypeAdapter(self.options_type).validate_python(raw or {}, strict=False)
            except ValidationError as exc:
                problems = "; ".join(
                    f"{'.'.join(str(p) for p in e['loc']) or 'options'}: {e['msg']}"
                    for e in exc.errors()
                )
                raise GameConfigError(f"{self.name} options: {problems}") from None
        if not self.min_players <= options.players <= self.max_players:
            low, high = self.min_players, self.max_players
            raise GameConfigError(
                f"{self.name} is played by {low} to {high} players, not {options.players}",
                Text(
                    f"这个游戏由{low}到{high}人玩,不能{options.players}人开局",
                    f"This game is played by {low} to {high} players, not {options.players}",
                ),
            )
        return options

    def phase(self, name: str) -> Phase:
        """The phase of that name."""
        return self._phase_index[name]

    @property
    def _phase_index(self) -> dict[str, Phase]:
        index: dict[str, Phase] = self.__dict__.get("_index") or {p.name: p for p in self.phases}
        self.__dict__["_index"] = index
        return index


def validate_game(game: Game) -> None:
    """Check a game's phase data when it is registered; GameConfigError names the problem."""
    names = [p.name for p in game.phases]
    if not names:
        raise GameConfigError(f"game {game.name!r} has no phases")
    if len(set(names)) != len(names):
        raise GameConfigError(f"game {game.name!r} lists a phase twice: {names}")
    known_moves = Move._registry
    for phase in game.phases:
        if isinstance(phase.next, str) and phase.next not in (*names, END):
            raise GameConfigError(
                f"{game.name}: phase {phase.name!r} goes to unknown phase {phase.next!r}"
            )
        unknown = sorted(m for m in phase.moves if m not in known_moves)
        if unknown:
            raise GameConfigError(f"{game.name}: phase {phase.name!r} allows unknown {unknown}")
        if phase.order is TurnOrder.TABLE and phase.moves:
            raise GameConfigError(
                f"{game.name}: phase {phase.name!r} has no seat order but allows seat moves"
            )


_GAMES: dict[str, Game] = {}


def register_game(game: Game) -> Game:
    """Add a game to the registry after checking its data; returns it."""
    validate_game(game)
    _GAMES[game.name] = game
    return game


def find_game(name: str) -> Game:
    """The registered game of that name (python-chess ``find_variant`` style).

    Raises UnknownGameError listing the games that can be played.
    """
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    if key not in _GAMES and key in GAME_MODULES and not _import_game(key):
        raise UnknownGameError(f"the game {key!r} is not available yet")
    try:
        return _GAMES[key]
    except KeyError:
        known = ", ".join(game_names())
        raise UnknownGameError(f"no game called {name!r}; the games are: {known}") from None


def game_names() -> list[str]:
    """The names of the games that can be played (those whose package is present)."""
    for key in GAME_MODULES:
        if key not in _GAMES:
            _import_game(key)
    return sorted(_GAMES)


def available_games() -> list[Game]:
    """Every game that can be played now (a game package not yet written is left out), by name."""
    return [_GAMES[name] for name in game_names()]


def _import_game(key: str) -> bool:
    """Import a supported game's package; False when it is not there (not yet written)."""
    try:
        importlib.import_module(GAME_MODULES[key])
    except ModuleNotFoundError as exc:
        if exc.name != GAME_MODULES[key]:
            raise
        return False
    return True
