"""The shared rules core: moves, verdicts, events, phases as data, the driver, undo.

Pure: no I/O, no clock, randomness only from the seed in the state.
"""

from engine.core.checklist import SetupCheck
from engine.core.errors import (
    EngineError,
    FlowError,
    GameConfigError,
    IllegalMoveError,
    InvalidMoveError,
    NothingToUndoError,
    UnknownGameError,
)
from engine.core.flow import apply, apply_unchecked, legal, start
from engine.core.forms import Choice, Die, Face, Field, Offer, Option
from engine.core.game import (
    PICTURE_KINDS,
    PICTURE_MARKS,
    Game,
    InProgress,
    Options,
    find_game,
    game_names,
    register_game,
)
from engine.core.offers import SeatOffers, match, offered, offers
from engine.core.phases import END, Phase, Step, TurnOrder
from engine.core.records import (
    Event,
    Move,
    Seat,
    event_from_dict,
    move_from_dict,
    move_from_json,
)
from engine.core.rng import Rng
from engine.core.session import Result, Session
from engine.core.state import Flow, Outcome, State, TrackMarks
from engine.core.text import ACCEPTED, Reason, Text, Verdict
from engine.core.vocabulary import Advance, DicePoolAnnounced, EndTurn, Pass

__all__ = [
    "ACCEPTED",
    "END",
    "PICTURE_KINDS",
    "PICTURE_MARKS",
    "Advance",
    "Choice",
    "DicePoolAnnounced",
    "Die",
    "EndTurn",
    "EngineError",
    "Event",
    "Face",
    "Field",
    "Flow",
    "FlowError",
    "Game",
    "GameConfigError",
    "IllegalMoveError",
    "InProgress",
    "InvalidMoveError",
    "Move",
    "NothingToUndoError",
    "Offer",
    "Option",
    "Options",
    "Outcome",
    "Pass",
    "Phase",
    "Reason",
    "Result",
    "Rng",
    "Seat",
    "SeatOffers",
    "Session",
    "SetupCheck",
    "State",
    "Step",
    "Text",
    "TrackMarks",
    "TurnOrder",
    "UnknownGameError",
    "Verdict",
    "apply",
    "apply_unchecked",
    "event_from_dict",
    "find_game",
    "game_names",
    "legal",
    "match",
    "move_from_dict",
    "move_from_json",
    "offered",
    "offers",
    "register_game",
    "start",
]
