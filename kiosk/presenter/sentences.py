"""What the table screen says in words: what to do now, a refused move, the end of the game,
one line of the log, how a seat is named.

Pure functions of what the presenter already has (the console's groups, the outcome, the
seats), so that every sentence a player reads is made in one place and in both languages.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Text
from engine.core.text import Language
from kiosk.seats import PlayerSeat

OVER = Text("游戏结束。可在菜单中开始新游戏", "The game is over. Start a new one from the menu")
CAMPAIGN_KEPT = Text(
    "本局已存入战役日志。下次:菜单 → 新游戏 → 接着上次",
    "This session is kept in the campaign's Log. Next time: Menu → New game → Go on",
)
CONFIRM = Text("桌上完成后,按确认", "Press Confirm when the table is done")
LAY = Text("{who}:{what}(摄像头会读到)", "{who}: {what} (the camera reads it)")
CHOOSE = Text("{who}:请选择 — {what}", "{who}: choose — {what}")
DONE_ONLY = Text("{who}:做完了就点“{what}”", "{who}: tap “{what}” when done")
NOTHING = Text("请稍候", "Please wait")
EACH_PLAYER = Text("每位玩家", "Each player")
TODO_PLACE = Text(
    "改正桌上的摆放:把这块拿开,或放到允许的位置",
    "Correct it on the table: take the piece away or put it where it is allowed",
)
TODO_CHOOSE = Text("重新选择,或做别的行动", "Choose again, or make another move")
TODO_CONFIRM = Text(
    "先完成这一步要做的事,再按确认", "Finish what this step asks first, then Confirm"
)
TODO_PLAY_ON = Text(
    "用操作台上玩家的行动继续;这一阶段不用按确认",
    "Play on with the players' moves on the console; this phase needs no Confirm",
)
"""What to do about a refused move, by its kind: a placement the camera read, a choice made on
the console, the table's confirm (none of them advises Undo: a refused move changed nothing)."""
CONFIRM_CLOSED = Text("现在不用按确认 — {why}", "No Confirm now — {why}")
UNDO_AGAIN = Text(
    "撤销会回到上一阶段(第{round}轮 {phase}):再按一次撤销",
    "Undo goes back to the phase before (round {round}, {phase}): press Undo again",
)
UNDO_END = Text(
    "游戏已结束:撤销会取消结束、回到最后一步之前。要这样做就再按一次撤销",
    "The game is over: Undo takes it out of its end, back before the last move. Press Undo again"
    " to do so",
)
UNDONE = Text("撤销了:{who} {what}", "Undone: {who} — {what}")
FIX_FIRST = Text("先处理下面被拒的这一步", "First deal with the refused move below")
RULE = Text("规则 {section}", "Rule {section}")
SOMEONE = Text("有人", "Someone")
A_MOVE = Text("这一步", "That move")

WIN_ONE = Text("{names}获胜!", "{names} wins!")
WIN_MANY = Text("{names}共同获胜!", "{names} share the win!")
WE_WON = Text("你们赢了!", "You won!")
WE_LOST = Text("你们输了", "You lost")
FINISHED = Text("游戏结束", "Game over")

TIMER_TURN = Text("{who}:本回合剩余时间", "{who}: time left this turn")
TIMER_BUDGET = Text("{who}:本局剩余时间", "{who}: time left for the game")
TIMER_PHASE = Text("全桌:本阶段剩余时间", "Everyone: time left in this phase")
TIMER_UP = Text("{who}:时间到(由大家决定怎么办)", "{who}: time is up (the table decides)")
TIMER_IDLE = Text("计时器:现在没有人在计时", "Timer: nobody is timed now")
TIMER_PAUSED = Text("计时暂停 — {line}", "Timer paused — {line}")


def clock_text(seconds: float) -> str:
    """Seconds as a clock shows them: ``1:05``, ``1:02:03``, ``−0:12`` once the time is up."""
    whole = math.ceil(seconds)
    sign, whole = ("−", -whole) if whole < 0 else ("", whole)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{sign}{hours}:{minutes:02d}:{secs:02d}" if hours else f"{sign}{minutes}:{secs:02d}"


SEAT_NAMED = Text("{player}({character})", "{player} ({character})")
TABLE_NAME = Text("全桌", "The whole table")

EVENT_TEXT: dict[str, Text] = {
    "game_started": Text("新开一局,{players}人", "New game, {players} players"),
    "round_started": Text("第{round}轮开始", "Round {round} begins"),
    "phase_started": Text("{phase}开始", "{phase} begins"),
    "step_started": Text("第{index}步:{step}", "Step {index}: {step}"),
    "turn_started": Text("轮到{who}", "{who} to act"),
    "seat_passed": Text("{who}结束本阶段", "{who} is done"),
    "phase_ended": Text("{phase}结束", "{phase} ends"),
    "game_ended": Text("游戏结束", "Game over"),
    "move_undone": Text("撤销了一步:{what}", "Took back a move: {what}"),
    "move_redone": Text("重做了一步:{what}", "Made a move again: {what}"),
    "move_rejected": Text("✖ {who}:{what} — {why}", "✖ {who}: {what} — {why}"),
    "dice_pool_announced": Text("掷骰:{dice}", "Roll: {dice}"),
}
"""The log's line of each core event (a game adds its own in ``Game.event_texts``)."""

SAY_ROUND = Text("第{round}轮,{phase}开始", "Round {round}: {phase} begins")
SAY_TURN = Text("{who},轮到你了", "{who}, your turn")
SAY_REFUSED = Text("{who}:不行。{why}", "{who}: not allowed. {why}")
"""Spoken lines (``kiosk.speech``) that the log's lines above do not already say: a round's
first phase, whose turn it is, a refusal. A phase or a step is spoken as the log says it, the
game's end as the end screen's title."""

CORE_MOVES = {"advance", "end_turn", "pass"}
TRAILING = re.compile(r"\s*(\.\.\.|…|›)\s*$")
MORE = Text("等{n}项", " and {n} more")
"""After the first two choices of the line of what to do now, how many more there are."""
SEAT_NUMBER = re.compile(r"(\d+)号玩家|\b[Pp]layer (\d+)\b")
"""How a game's own log line names a seat ("2号玩家", "Player 2"): replaced by the screen's name."""


def short(label: str) -> str:
    """An offer's label without the "…" that says a picker follows."""
    return TRAILING.sub("", label)


def joined(names: Sequence[str], lang: Language) -> str:
    """Names as a list in a sentence: 甲、乙和丙 / A, B and C."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    last = "和" if lang == "zh" else " and "
    head = "、" if lang == "zh" else ", "
    return head.join(names[:-1]) + last + names[-1]


BEHIND_AN_ENTRY = ("card_effect", "final")
"""Offer kinds the console does not show as buttons of their own at once."""


def what_now(
    groups: Sequence[tuple[str, Sequence[Mapping[str, Any]]]],
    lang: Language,
    *,
    over: bool,
    refused: bool,
    campaign: bool = False,
) -> str:
    """The one line of what to do now, from the console's groups (each seat's name and its
    offers, the acting seat first); ``campaign``: the game is over and its Log can start the
    campaign's next session."""
    if over:
        return (CAMPAIGN_KEPT if campaign else OVER).in_(lang)
    if refused:
        return FIX_FIRST.in_(lang)
    for who, offers in groups:
        legal = [o for o in offers if o["ok"]]
        if not legal:
            continue
        who = _everyone_alike(who, legal, groups, lang)
        camera = [o for o in legal if o.get("camera")]
        own = [o for o in legal if o["move"] not in CORE_MOVES]
        if camera and len(camera) == len(own):
            return LAY.in_(lang).format(who=who, what=short(camera[0]["label"]))
        # A card's effects wait behind one entry and a final move behind a second touch: when
        # they are all that is open besides ending, the line names the end, not them.
        plain = [o for o in own if o.get("kind") not in BEHIND_AN_ENTRY]
        core = [o for o in legal if o["move"] in CORE_MOVES]
        if not plain and (core or not own):
            if any(o["move"] == "advance" for o in legal):
                return CONFIRM.in_(lang)
            return DONE_ONLY.in_(lang).format(who=who, what=short((core or legal)[0]["label"]))
        shown = plain or own
        names = [short(o["label"]) for o in shown[:2]]
        sep = "、" if lang == "zh" else ", "
        rest = len(shown) - len(names)
        more = MORE.in_(lang).format(n=rest) if rest else ""
        return CHOOSE.in_(lang).format(who=who, what=sep.join(names) + more)
    return NOTHING.in_(lang)


def _everyone_alike(
    who: str,
    legal: Sequence[Mapping[str, Any]],
    groups: Sequence[tuple[str, Sequence[Mapping[str, Any]]]],
    lang: Language,
) -> str:
    """Who the line speaks to: the seats whose open moves are the same as ``who``'s (a phase
    everyone plays at once: each seat chooses its own), named together, "each player" when
    they are all the seats; else ``who``."""

    def moves(offers: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
        return [(o["move"], o["label"]) for o in offers if o["ok"]]

    mine = moves(legal)
    alike = [name for name, offers in groups if moves(offers) == mine]
    if len(alike) <= 1:
        return who
    return EACH_PLAYER.in_(lang) if len(alike) == len(groups) else joined(alike, lang)


def rule_citation(rule: str | None, lang: Language) -> str | None:
    """A rule reference as players read it (§三.10), without the rule file's name."""
    if not rule:
        return None
    section = rule.split(" ", 1)[1] if ".md" in rule and " " in rule else rule
    if ".md" in section:
        return None
    return RULE.format(section=section).in_(lang)


def named(line: str, names: Sequence[str]) -> str:
    """A game's log line with each seat number replaced by how the screen names that seat."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1) or match.group(2)) - 1
        return names[seat] if 0 <= seat < len(names) else match.group(0)

    return SEAT_NUMBER.sub(name, line)


def named_offer(offer: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """An offer as the console draws it, seats named as on the screen (labels and reasons)."""
    offer["label"] = named(offer["label"], names)
    for f in offer["fields"]:
        f["label"] = named(f["label"], names)
        for choice in f.get("choices") or ():
            choice["label"] = named(choice["label"], names)
    for option in offer["options"]:
        if option.get("reason"):
            option["reason"] = named(option["reason"], names)
    return offer


def seat_name(seat: int, character: str | None, lang: Language, seats: Sequence[PlayerSeat]) -> str:
    """How the screen names a seat: the player's chosen name (else "1号玩家" / "Player 1"),
    with the game's own name for the seat (a character) when it has one."""
    sitting = seats[seat] if seat < len(seats) else PlayerSeat(None, "red")
    player = sitting.shown(seat, lang)
    if character and not any(ch.isdigit() for ch in character):
        return SEAT_NAMED.format(player=player, character=character).in_(lang)
    return player


def describe(event: Mapping[str, Any], game: Any, lang: Language) -> str:
    """One line of the log for an event (as plain data); unknown events are shown generically."""
    kind = event["type"]
    params: dict[str, Any] = dict(event)
    if (phase := _phase_or_none(game, event.get("phase"))) is not None:
        params["phase"] = phase.title.in_(lang)
    if params.get("seat") is not None and "player" not in params:
        params["player"] = params["seat"] + 1
    if kind == "step_started":
        index = int(event.get("index", 0)) - 1
        if phase is not None and 0 <= index < len(phase.steps):
            params["step"] = phase.steps[index].title.in_(lang)
    if kind == "dice_pool_announced":
        params["dice"] = " ".join(event.get("dice") or ()) or "—"
    template = EVENT_TEXT.get(kind) or getattr(game, "event_texts", {}).get(kind)
    if template is None:
        rest = ", ".join(f"{k}={v}" for k, v in event.items() if k != "type")
        return f"{kind}: {rest}" if rest else str(kind)
    try:
        return str(template.in_(lang).format(**params))
    except (KeyError, IndexError):
        return str(kind)


def _phase_or_none(game: Any, name: object) -> Any:
    try:
        return game.phase(str(name))
    except KeyError:
        return None
