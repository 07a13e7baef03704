"""What the table screen says in words: what to do now, a refused move, the end of the game.

Pure functions of the status parts the table already has (the console's groups, the outcome,
the seats), so that every sentence a player reads is made in one place and in both languages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from engine.core import Game, Text

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
FIX = Text(
    "改正桌上的摆放,或重新选择;按撤销可退回上一步",
    "Correct it on the table or choose again; Undo takes back the last move",
)
FIX_FIRST = Text("先处理下面被拒的这一步", "First deal with the refused move below")
RULE = Text("规则 {section}", "Rule {section}")
SOMEONE = Text("有人", "Someone")
A_MOVE = Text("这一步", "That move")

WIN_ONE = Text("{names}获胜!", "{names} wins!")
WIN_MANY = Text("{names}共同获胜!", "{names} share the win!")
WE_WON = Text("你们赢了!", "You won!")
WE_LOST = Text("你们输了", "You lost")
FINISHED = Text("游戏结束", "Game over")

CORE_MOVES = {"advance", "end_turn", "pass"}
TRAILING = re.compile(r"\s*(\.\.\.|…)\s*$")


def short(label: str) -> str:
    """An offer's label without the "…" that says a picker follows."""
    return TRAILING.sub("", label)


def joined(names: Sequence[str], lang: str) -> str:
    """Names as a list in a sentence: 甲、乙和丙 / A, B and C."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    last = "和" if lang == "zh" else " and "
    head = "、" if lang == "zh" else ", "
    return head.join(names[:-1]) + last + names[-1]


def what_now(
    groups: Sequence[dict[str, Any]],
    lang: str,
    *,
    over: bool,
    refused: bool,
    campaign: bool = False,
) -> str:
    """The one line of what to do now, from the console's groups (the acting seat first);
    ``campaign``: the game is over and its Log can start the campaign's next session."""
    tr = lambda text: text.in_(lang)  # noqa: E731
    if over:
        return tr(CAMPAIGN_KEPT if campaign else OVER)
    if refused:
        return tr(FIX_FIRST)
    for group in groups:
        legal = [o for o in group["offers"] if o["ok"]]
        if not legal:
            continue
        who = group["name"]
        camera = [o for o in legal if o.get("camera")]
        if camera and len(camera) == len([o for o in legal if o["move"] not in CORE_MOVES]):
            return tr(LAY).format(who=who, what=short(camera[0]["label"]))
        own = [o for o in legal if o["move"] not in CORE_MOVES]
        if not own:
            if any(o["move"] == "advance" for o in legal):
                return tr(CONFIRM)
            return tr(DONE_ONLY).format(who=who, what=short(legal[0]["label"]))
        names = [short(o["label"]) for o in own[:2]]
        sep = "、" if lang == "zh" else ", "
        return tr(CHOOSE).format(who=who, what=sep.join(names) + ("…" if len(own) > 2 else ""))
    return tr(NOTHING)


def rule_citation(rule: str | None, lang: str) -> str | None:
    """A rule reference as players read it (§三.10), without the rule file's name."""
    if not rule:
        return None
    section = rule.split(" ", 1)[1] if ".md" in rule and " " in rule else rule
    if ".md" in section:
        return None
    return RULE.format(section=section).in_(lang)  # type: ignore[arg-type]


def refusal(
    seat_name: str | None, label: str | None, message: str, rule: str | None, lang: str
) -> dict[str, Any]:
    """The banner of a refused move: whose, what was tried, why, and what to do."""
    return {
        "who": seat_name or SOMEONE.in_(lang),  # type: ignore[arg-type]
        "what": short(label) if label else A_MOVE.in_(lang),  # type: ignore[arg-type]
        "why": message,
        "rule": rule_citation(rule, lang),
        "todo": FIX.in_(lang),  # type: ignore[arg-type]
    }


def the_end(
    game: Game,
    outcome: Any,
    seats: Sequence[dict[str, Any]],
    scores: Sequence[int] | None,
    history: Sequence[tuple[int, Sequence[int]]],
    lang: str,
) -> dict[str, Any]:
    """The end screen: a title naming the winners, why, the scores and the per-round chart."""
    winners = [seats[s]["name"] for s in outcome.winners if s < len(seats)]
    everyone = len(outcome.winners) == len(seats) and len(seats) > 1
    if outcome.result == "loss":
        title = WE_LOST
    elif outcome.result in ("win", "shared_win") and winners:
        if everyone and scores is None:
            title = WE_WON
        else:
            title = WIN_ONE if len(winners) == 1 else WIN_MANY
    else:
        title = FINISHED
    why = game.outcome_texts.get(outcome.reason)
    names = joined(winners, lang)
    answer: dict[str, Any] = {
        "result": outcome.result,
        "title": title.in_(lang).format(names=names),  # type: ignore[arg-type]
        "why": why.in_(lang).format(seats=names) if why else "",  # type: ignore[arg-type]
        "scores": None,
        "chart": None,
    }
    if scores is not None:
        rows = [
            {**seats[s], "score": score, "winner": s in outcome.winners}
            for s, score in enumerate(scores)
            if s < len(seats)
        ]
        answer["scores"] = sorted(rows, key=lambda r: -r["score"])
        if history:
            answer["chart"] = {
                "rounds": [r for r, _ in history],
                "series": [
                    {**seats[s], "points": [list(p)[s] for _, p in history]}
                    for s in range(min(len(seats), len(scores)))
                ],
            }
    return answer
