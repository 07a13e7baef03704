"""The campaign's Log and its pure rules: mourning, outposts, the valley's size, ageing.

The ``Log`` is what an ended session hands to the next one (``Stonesaga.campaign_log``; the
next session's option ``log``), as plain JSON that round-trips exactly. The rest are pure
functions of values, used by the rules at night, at the save and in the ``interval`` phase
(``rules/interval.py``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from pydantic import ConfigDict, TypeAdapter, ValidationError

from engine.core import GameConfigError, Text
from engine.stonesaga.catalogue import (
    ATTRIBUTES,
    INTERVALS,
    TRAITS,
    Catalogue,
    Challenge,
    challenge_item,
    demo_text,
    with_note,
)
from engine.stonesaga.state import AGES, LogCharacter, Relics, ValleyRecord

MOURNING_OLD_AGE = 2
"""§角色死亡与传说.1: +2 to the mourning roll for a death between sessions (若因局间年老而死)."""


def mourning(roll: int, old_age: bool = False) -> str:
    """§角色死亡与传说.1: 1 → population −1; 2–4 → unrest +1; 5–6 → an attribute +1 (max 6).

    The roll is a d6, +2 (``old_age``) for a death between sessions, which the rule text knows
    only as a death of old age (也可能在局间老死): a generation's, and an epoch's end too
    (ruling of issue 26), so 7–8 count as 5–6.
    """
    total = roll + (MOURNING_OLD_AGE if old_age else 0)
    if total <= 1:
        return "population"
    if total <= 4:
        return "unrest"
    return "attribute"


def between_sessions_death(interval: str) -> bool:
    """Ruling (issue 26): whether a death at this interval is mourned with the +2 of
    §角色死亡与传说.1. The rule text knows two deaths, 局中 (of illness, a plain d6) and 局间老死
    (+2); a character an interval ends (§间隔与变老: a generation's old, 纪元 Epoch：所有角色死亡
    并成为传说) dies between sessions of the passing of time, young or old: +2."""
    return interval in ("generation", "epoch")


def outpost_limit(population: int, cat: Catalogue) -> int:
    """§建前哨: how many outposts the population allows (population 8 → 2), by the box's
    outpost scale."""
    return cat.outpost_limit(population)


def ruins_needed(outposts: int, population: int, cat: Catalogue) -> int:
    """§建前哨: at the start of a new epoch, how many outposts must become ruins because
    there are more than the population allows (the players choose which)."""
    return max(outposts - outpost_limit(population, cat), 0)


def valley_capacity(epoch: int, cat: Catalogue) -> int:
    """§山谷扩张: terrain trays the valley holds: epoch 1 → 4, 2 → 6, 3 → 8."""
    return cat.valley_capacity(epoch)


def age_after(age: str, interval: str) -> str:
    """§间隔: a character's age after the interval: young, old, or dead (a legend).

    Season and introduction change nothing; a generation ages everyone (young → old,
    old → dead); an epoch ends every character.
    """
    if interval not in INTERVALS:
        raise ValueError(f"unknown interval {interval!r}; one of {', '.join(INTERVALS)}")
    if interval == "epoch":
        return "dead"
    if interval == "generation":
        return "old" if age == "young" else "dead"
    return age


@dataclass(frozen=True)
class AfterInterval:
    """The Log after an interval: the roster aged, who died of old age and the mourning."""

    roster: tuple[Any, ...]
    mourned: tuple[tuple[str, int, str], ...]
    """(name, d6 rolled, effect) for each character who died of old age."""
    population: int = 0
    unrest: int = 0
    """How the society tracks change."""


def after_interval(roster: Sequence[Any], interval: str, rolls: Sequence[int]) -> AfterInterval:
    """§间隔 and §角色死亡与传说: age every living character of the Log (``Hero`` values).

    Each who dies is mourned with the next d6 of ``rolls`` (roster order; ValueError when there
    are too few), +2: every death between sessions comes of the passing of time, a generation's
    and an epoch's alike (``between_sessions_death``).
    On 5–6 the legend's highest attribute below 6 is raised by 1 (the table's choice, 黎明规则).
    """
    out, mourned, population, unrest = [], [], 0, 0
    dice = iter(rolls)
    for hero in roster:
        if hero.age == "dead":
            out.append(hero)
            continue
        age = age_after(hero.age, interval)
        if age != "dead":
            out.append(replace(hero, age=age))
            continue
        roll = next(dice, None)
        if roll is None:
            raise ValueError(f"a mourning roll is needed for {hero.name}")
        effect = mourning(roll, old_age=between_sessions_death(interval))
        hero = replace(hero, age="dead")
        if effect == "population":
            population -= 1
        elif effect == "unrest":
            unrest += 1
        else:
            below = [
                (getattr(hero, a), -k, a) for k, a in enumerate(ATTRIBUTES) if getattr(hero, a) < 6
            ]
            if below:
                _, _, name = max(below)
                hero = replace(hero, **{name: getattr(hero, name) + 1})
                effect = f"{name}+1"
        mourned.append((hero.name, roll, effect))
        out.append(hero)
    return AfterInterval(tuple(out), tuple(mourned), population, unrest)


def keep_problem(items: Sequence[str], materials: Sequence[str], cat: Catalogue) -> str | None:
    """§局间保留与存档: at most 5 items and 5 materials per character; None if allowed."""
    if len(items) > cat.campaign.keep_items:
        return "items"
    if len(materials) > cat.campaign.keep_materials:
        return "materials"
    return None


def challenge_kinds(session: int, epoch: int) -> tuple[str, ...]:
    """§开局设置.5: which challenges may be chosen for a session (1–6) of an epoch.

    First session: campaign start (epoch 1) or epoch start; sessions 2–3: a pending crisis;
    4–5: finale or crisis; 6: finale.
    """
    if session == 1:
        return ("campaign_start",) if epoch == 1 else ("epoch_start",)
    if session in (2, 3):
        return ("crisis",)
    if session in (4, 5):
        return ("finale", "crisis")
    if session == 6:
        return ("finale",)
    raise ValueError(f"an epoch has 4 to 6 sessions, not session {session}")


def rebuild_problems(record: ValleyRecord, seen: ValleyRecord) -> list[str]:
    """§开局设置.7: how a rebuilt valley differs from its record (empty when it matches).

    Each problem is a short English line naming the tile or overlay: missing, not recorded,
    on the wrong tray or slot, turned, or showing the other face.
    """
    problems: list[str] = []
    wanted = {t.tile: t for t in record.tiles}
    got = {t.tile: t for t in seen.tiles}
    for tile_id, want in sorted(wanted.items()):
        have = got.get(tile_id)
        if have is None:
            problems.append(f"tile {tile_id} is missing (tray {want.tray}, slot {want.slot})")
            continue
        if (have.tray, have.slot) != (want.tray, want.slot):
            problems.append(
                f"tile {tile_id} is in tray {have.tray} slot {have.slot};"
                f" it goes in tray {want.tray} slot {want.slot}"
            )
        elif (have.rotation - want.rotation) % 360:
            problems.append(
                f"tile {tile_id} is turned {have.rotation}°; it goes at {want.rotation}°"
            )
        if have.explored != want.explored:
            face = "explored" if want.explored else "unexplored"
            problems.append(f"tile {tile_id} shows the wrong face; it goes {face} side up")
    problems += [f"tile {t} is not in the record" for t in sorted(set(got) - set(wanted))]
    want_overlays = {(o.overlay, o.tile, o.zone) for o in record.overlays}
    have_overlays = {(o.overlay, o.tile, o.zone) for o in seen.overlays}
    problems += [
        f"overlay {o} is missing (tile {t}, zone {z})"
        for o, t, z in sorted(want_overlays - have_overlays)
    ]
    problems += [
        f"overlay {o} on tile {t} zone {z} is not in the record"
        for o, t, z in sorted(have_overlays - want_overlays)
    ]
    return problems


# --- the Log ----------------------------------------------------------------------------------

LOG_VERSION = 1
"""The Log's format; a Log of another version is refused with a clear message."""
STRICT = ConfigDict(extra="forbid")
"""Unknown keys in the Log are refused (a typo would otherwise lose what it held)."""


@dataclass(frozen=True)
class LogOutpost:
    """An outpost on the valley map and the buildings it holds (§建前哨, §建建筑)."""

    __pydantic_config__ = STRICT
    tile: str
    buildings: tuple[str, ...] = ()


@dataclass(frozen=True)
class LogBehemoth:
    """A behemoth that has arrived: its name, demeanour, and whether its lair is active (§巨兽)."""

    __pydantic_config__ = STRICT
    name: str
    demeanor: int = 4
    lair: bool = True


@dataclass(frozen=True)
class Played:
    """A challenge played in the campaign and how it ended (§挑战卡与目标卡)."""

    __pydantic_config__ = STRICT
    id: str
    result: str


@dataclass(frozen=True)
class Log:
    """The campaign Log after a session (§局间保留与存档 存档六步): where the campaign stands
    (epoch, session, population, unrest), every character (the roster), what each kept, the
    valley map, outposts and ruins, behemoths, the challenges played and those pending.

    ``to_json()`` gives plain JSON; ``from_json()`` takes it back (GameConfigError with a clear
    message for anything else), so that ``Log.from_json(log.to_json()) == log``.
    """

    __pydantic_config__ = STRICT
    epoch: int
    session: int
    population: int
    unrest: int
    roster: tuple[LogCharacter, ...] = ()
    kept: tuple[Relics, ...] = ()
    valley: ValleyRecord | None = None
    outposts: tuple[LogOutpost, ...] = ()
    ruins: tuple[str, ...] = ()
    behemoths: tuple[LogBehemoth, ...] = ()
    challenges: tuple[Played, ...] = ()
    pending: tuple[str, ...] = ()
    version: int = LOG_VERSION

    def to_json(self) -> dict[str, Any]:
        """The Log as plain JSON (lists, strings, numbers, booleans, null)."""
        out: dict[str, Any] = json.loads(json.dumps(asdict(self)))
        return out

    @classmethod
    def from_json(cls, data: Any, cat: Catalogue) -> Log:
        """A Log from its JSON, checked against the box's catalogue (its challenge cards, the
        valley's capacity, the keep limits); GameConfigError naming the first problem
        (``log.roster[1].age``)."""
        if not isinstance(data, dict):
            raise GameConfigError("the log must be a JSON object (the Log of a session)")
        if data.get("version", LOG_VERSION) != LOG_VERSION:
            raise GameConfigError(
                f"this Log has version {data.get('version')!r}; this tablesight reads"
                f" version {LOG_VERSION}"
            )
        try:
            log = _LOG.validate_json(json.dumps(data), strict=True)
        except ValidationError as exc:
            error = exc.errors()[0]
            message = error["msg"]
            if error["type"] == "unexpected_keyword_argument":
                message = "not a part of the Log (a typo?)"
            raise GameConfigError(f"log.{_where(error['loc'])}: {message}") from None
        problem = log_problem(log, cat)
        if problem:
            raise GameConfigError(f"log.{problem}")
        return log

    @property
    def played(self) -> tuple[str, ...]:
        """The ids of the challenges played, in order."""
        return tuple(p.id for p in self.challenges)


_LOG = TypeAdapter(Log)


def _where(loc: Sequence[Any]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "log"


def log_problem(log: Log, cat: Catalogue) -> str | None:
    """What makes a well-formed Log impossible (a place and a sentence), else None."""
    if log.epoch not in (1, 2, 3):
        return f"epoch: a campaign has epochs 1 to 3, not {log.epoch}"
    if not 1 <= log.session <= 6:
        return f"session: an epoch has at most 6 sessions, not {log.session}"
    if log.population < 0 or log.unrest < 0:
        return "population, unrest: the society tracks are never below 0"
    names: set[str] = set()
    for k, hero in enumerate(log.roster):
        where = f"roster[{k}]"
        if hero.name in names or not hero.name.strip():
            return f"{where}.name: {hero.name!r} is empty or used twice (names are unique)"
        names.add(hero.name)
        if hero.age not in AGES:
            return f"{where}.age: {hero.age!r} is not one of {', '.join(AGES)}"
        if hero.legend != (hero.age == "dead"):
            return f"{where}.legend: a character is a legend exactly when it is dead"
        if hero.trait not in TRAITS:
            return f"{where}.trait: {hero.trait!r} is not one of {', '.join(TRAITS)}"
        if any(not 1 <= v <= 6 for _, v in hero.attributes):
            return f"{where}: attributes are 1 to 6"
    for k, kept in enumerate(log.kept):
        if kept.name not in names:
            return f"kept[{k}].name: {kept.name!r} is not in the roster"
        problem = keep_problem(kept.items, kept.materials, cat)
        if problem:
            return f"kept[{k}].{problem}: a character keeps at most 5 items and 5 materials"
    for k, played in enumerate(log.challenges):
        if played.result not in ("won", "lost"):
            return f"challenges[{k}].result: {played.result!r} is not won or lost"
        try:
            cat.challenge(played.id)
        except GameConfigError as exc:
            return f"challenges[{k}].id: {exc}"
    if not log.challenges:
        return "challenges: a Log follows a session, so it lists at least one challenge played"
    for k, card in enumerate(log.pending):
        try:
            cat.challenge(card)
        except GameConfigError as exc:
            return f"pending[{k}]: {exc}"
    if log.valley is not None and log.valley.trays > valley_capacity(log.epoch, cat):
        capacity = valley_capacity(log.epoch, cat)
        return f"valley: {log.valley.trays} trays, but epoch {log.epoch} holds {capacity}"
    return None


@dataclass(frozen=True)
class NextSession:
    """Where the session after a Log stands: its epoch, its number, the kinds it may choose."""

    epoch: int
    session: int
    kinds: tuple[str, ...]


def next_session(log: Log, cat: Catalogue) -> NextSession:
    """§开局设置.5, §三个纪元: the session after the Log's. A finale ends the epoch (the next
    session starts the next epoch); GameConfigError when the campaign is over."""
    last = cat.challenge(log.challenges[-1].id)
    if last.kind == "finale":
        if log.epoch == 3:
            raise GameConfigError(
                "this campaign is over: the finale of the third epoch was played",
                Text(
                    "这场战役已经结束:第三纪元的终局挑战已经打完",
                    "This campaign is over: the finale of the third epoch was played",
                ),
            )
        return NextSession(log.epoch + 1, 1, challenge_kinds(1, log.epoch + 1))
    if log.session >= 6:
        raise GameConfigError(
            "the epoch has had 6 sessions; its last must be a finale",
            Text(
                "这个纪元已经玩了6局,最后一局必须是终局挑战",
                "This epoch has had 6 sessions; its last must be a finale",
            ),
        )
    return NextSession(log.epoch, log.session + 1, challenge_kinds(log.session + 1, log.epoch))


def allowed_challenge(log: Log, card_id: str, cat: Catalogue) -> tuple[Challenge, NextSession]:
    """The challenge chosen for the session after the Log, if the rule allows it there
    (§开局设置.5: its kind, and a crisis must be pending), by the box's challenge cards;
    GameConfigError saying which are (and that it judged by the demo box's card, if so)."""
    nxt = next_session(log, cat)
    card = cat.challenge(card_id)
    ok = [c.id for c in cat.sorted_challenges() if _may_choose(log, c, nxt)]
    if card.id not in ok:
        kinds = " or ".join(k.replace("_", " ") for k in nxt.kinds)
        raise GameConfigError(
            f"session {nxt.session} of epoch {nxt.epoch} takes a {kinds} challenge;"
            f" {card.id} is {_a(card.kind.replace('_', ' '))}"
            + ("" if card.kind not in nxt.kinds else " that is not pending")
            + f"; allowed: {', '.join(ok) or 'none in the box'}",
            _not_allowed(nxt.epoch, nxt.session, nxt.kinds, card, ok, cat),
        )
    return card, nxt


def allowed_first(card_id: str, epoch: int, cat: Catalogue) -> Challenge:
    """The challenge chosen for the first session of ``epoch`` without a Log, if §开局设置.5
    allows it there (a campaign start in epoch 1, an epoch start after), by the box's
    challenge cards; GameConfigError saying which are."""
    card = cat.challenge(card_id)
    kinds = challenge_kinds(1, epoch)
    if card.kind not in kinds:
        ok = [c.id for c in cat.sorted_challenges() if c.kind in kinds]
        kind = " or ".join(k.replace("_", " ") for k in kinds)
        raise GameConfigError(
            f"session 1 of epoch {epoch} takes a {kind} challenge (§开局设置.5);"
            f" {card.id} is {_a(card.kind.replace('_', ' '))}"
            f"; allowed: {', '.join(ok) or 'none in the box'}",
            _not_allowed(epoch, 1, kinds, card, ok, cat),
        )
    return card


def _a(noun: str) -> str:
    """The noun with its English article: 'an epoch start', 'a crisis'."""
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


KIND_NAMES: dict[str, Text] = {
    "campaign_start": Text("战役起始", "campaign start"),
    "epoch_start": Text("纪元起始", "epoch start"),
    "crisis": Text("危机", "crisis"),
    "finale": Text("终局", "finale"),
}
"""§开局设置.5: the kinds of challenge card, as players name them."""


def _not_allowed(
    epoch: int,
    session: int,
    kinds: Sequence[str],
    card: Challenge,
    ok: Sequence[str],
    cat: Catalogue,
) -> Text:
    """§开局设置.5, said to the players: which kind this session takes, what the card is, and
    the cards that may be chosen (by their printed titles); the kind of a demo card is an
    invented value, which the sentence then says."""
    want = [KIND_NAMES.get(k, Text(k, k)) for k in kinds]
    have = KIND_NAMES.get(card.kind, Text(card.kind, card.kind))
    pending = card.kind in kinds  # the right kind, but a crisis that is not pending
    titles = [cat.challenge(c).title for c in ok]
    allowed_zh = "、".join(f"「{t.zh}」" for t in titles)
    allowed_en = ", ".join(t.en for t in titles)
    note = demo_text(cat, challenge_item(card.id))
    return with_note(
        Text(
            f"第{epoch}纪元第{session}局要选{'或'.join(k.zh for k in want)}挑战;"
            f"「{card.title.zh}」是{'未待决的' if pending else ''}{have.zh}挑战。"
            + (f"可选:{allowed_zh}" if titles else "现在没有可选的挑战卡"),
            f"Session {session} of epoch {epoch} takes a"
            f" {' or '.join(k.en for k in want)} challenge;"
            f" '{card.title.en}' is {'a crisis that is not pending' if pending else _a(have.en)}."
            + (f" Allowed: {allowed_en}" if titles else " No card is allowed now"),
        ),
        note,
    )


def _may_choose(log: Log, card: Challenge, nxt: NextSession) -> bool:
    if card.kind not in nxt.kinds:
        return False
    return card.kind != "crisis" or card.id in log.pending


def pending_after(log: Log | None, played: Challenge, cat: Catalogue) -> tuple[str, ...]:
    """The crises pending after a session (§开局设置.5 悬置的危机). The cards say which crises
    become pending; the cards do not say so in the box's data, so a campaign's first session
    leaves every crisis card of the box pending. The crisis just played is no longer pending."""
    if log is None:
        pending = tuple(c.id for c in cat.sorted_challenges() if c.kind == "crisis")
    else:
        pending = log.pending
    return tuple(c for c in pending if c != played.id)


def free_relocations(interval: str, outposts: int, epoch_start: bool = False) -> int:
    """§废墟与迁移前哨: outpost moves free between sessions: one after a season; after a
    generation or at an epoch's start, one for each outpost; none after an introduction."""
    if epoch_start:
        return outposts
    if interval == "season":
        return min(1, outposts)
    if interval in ("generation", "epoch"):
        return outposts
    return 0


def rebuild_issues(record: ValleyRecord, seen: ValleyRecord) -> list[tuple[str, dict[str, Any]]]:
    """§开局设置.7, §山谷扩张: how a rebuilt valley differs from its record, as (kind, details)
    pairs for the texts: ``missing``, ``misplaced``, ``turned``, ``face``, ``extra`` (a tile not
    in the record), ``overlay_missing``, ``overlay_extra``. A tile in a tray the record does not
    use, face down, is an expansion (§山谷扩张 ②) and no issue."""
    issues: list[tuple[str, dict[str, Any]]] = []
    wanted = {t.tile: t for t in record.tiles}
    got = {t.tile: t for t in seen.tiles}
    trays = {t.tray for t in record.tiles}
    for tile_id, want in sorted(wanted.items()):
        have = got.get(tile_id)
        if have is None:
            issues.append(("missing", {"tile": tile_id, "tray": want.tray, "slot": want.slot}))
            continue
        if (have.tray, have.slot) != (want.tray, want.slot):
            issues.append(
                (
                    "misplaced",
                    {"tile": tile_id, "tray": want.tray, "slot": want.slot, "at": have.tray},
                )
            )
        elif (have.rotation - want.rotation) % 360:
            issues.append(("turned", {"tile": tile_id, "rotation": want.rotation}))
        if have.explored != want.explored:
            issues.append(("face", {"tile": tile_id, "explored": want.explored}))
    for tile_id in sorted(set(got) - set(wanted)):
        have = got[tile_id]
        if have.tray in trays or have.explored:
            issues.append(("extra", {"tile": tile_id, "tray": have.tray}))
    want_overlays = {(o.overlay, o.tile, o.zone) for o in record.overlays}
    have_overlays = {(o.overlay, o.tile, o.zone) for o in seen.overlays}
    issues += [
        ("overlay_missing", {"overlay": o, "tile": t, "zone": z})
        for o, t, z in sorted(want_overlays - have_overlays)
    ]
    issues += [
        ("overlay_extra", {"overlay": o, "tile": t, "zone": z})
        for o, t, z in sorted(have_overlays - want_overlays)
    ]
    return issues
