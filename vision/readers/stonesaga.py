"""Stonesaga's camera reader: ore tokens on the draw pad, and the valley map for the Log.

Two jobs (see ``docs/stonesaga.md``, "Camera"):

- **Draws.** The draw pad is a small board with two tags (``draw pad`` in
  ``vision/tags/stonesaga.toml``). Each ore token carries a tag on each face; the omen face's tag
  says the stone and the omen. :class:`DrawPadReader` is fed the stabiliser's observations and
  the engine state by the table loop and returns the moves to submit: a token laid on the pad
  omen side up is a ``stonesaga.draw_ore`` (checked against the bag by the engine first), the
  drawn tokens all leaving the pad is ``stonesaga.finish_mining`` (the tokens go back to the
  supply). Anything else becomes a :class:`Prompt` for the players.
- **The valley.** :func:`read_valley` records the terrain trays, each tile with its slot and its
  orientation, and each overlay with its tile and zone, as the engine's ``ValleyRecord``;
  :func:`placement_guide` shows a recorded valley tile by tile, and
  ``engine.stonesaga.campaign.rebuild_problems`` checks a rebuilt one against its record.

``scan(image_path, lang)`` and ``describe(result, lang)`` serve ``tablesight scan stonesaga``.
"""

from __future__ import annotations

import math
import tomllib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.core import Game, Move, State, Text, apply, find_game, legal
from engine.core.box import Box
from engine.core.text import Language
from engine.stonesaga import campaign as camp
from engine.stonesaga.catalogue import MINING_FEATURES, OMENS, STONES, Catalogue, catalogue
from engine.stonesaga.moves import DrawOre, FinishMining
from engine.stonesaga.state import OverlayPlacement, TilePlacement, ValleyRecord
from vision.calibration import BoardPose, TableCalibration, calibrate_table, locate_board
from vision.detection import Detection
from vision.errors import CalibrationError, ReaderError
from vision.readers.base import Prompt, Reader
from vision.readers.frames import frame_detections, table_poses
from vision.registry import TAGS_DIR, Registry, TagEntry, load_registry
from vision.stabiliser import Observation, SteadyView

ORE_GROUPS = {
    "ore: cloud stone": "cloud_stone",
    "ore: river stone": "river_stone",
    "ore: sun stone": "sun_stone",
    "ore: clay": "clay",
}
"""Registry group name → the engine's stone name."""


@cache
def _layout() -> dict[str, Any]:
    """The reader's own entries in the tag file (zone, overlay kinds, valley settings)."""
    data = tomllib.loads((TAGS_DIR / "stonesaga.toml").read_text(encoding="utf-8"))
    groups = {g["name"]: g for g in data["group"]}
    return {"groups": groups, "valley": data["valley"]}


def ore_of(entry: TagEntry | None, cat: Catalogue) -> tuple[str, str | None] | None:
    """The stone and omen a tag shows: (stone, omen) on the omen face, (stone, None) on the
    plain face; None for a tag that is not an ore token (or a copy the box prints no omen
    for). Copy k of a stone shows the k-th omen of the box's ``omens_per_stone``
    (mining.toml)."""
    if entry is None or entry.name not in ORE_GROUPS:
        return None
    stone = ORE_GROUPS[entry.name]
    if entry.face != "omen":
        return stone, None
    omens = cat.mining.omens_per_stone
    if not 1 <= entry.item <= len(omens):
        return None
    return stone, omens[entry.item - 1]


@dataclass(frozen=True)
class PadZone:
    """Where the draw pad lies on the table and the zone on it where a token counts as drawn."""

    pose: BoardPose
    zone_mm: tuple[float, float, float, float]

    def contains(self, x_mm: float, y_mm: float) -> bool:
        """Whether a table point lies in the pad's zone."""
        bx, by = self.pose.to_board(np.array([[x_mm, y_mm]]))[0]
        x0, y0, x1, y1 = self.zone_mm
        return x0 <= bx <= x1 and y0 <= by <= y1


def locate_pad(
    detections: Sequence[Detection], calibration: TableCalibration, registry: Registry
) -> PadZone:
    """The draw pad from whichever of its tags are in view; CalibrationError if none is."""
    layout = next(b for b in registry.boards["stonesaga"] if b.name.startswith("draw pad"))
    zone = tuple(float(v) for v in _layout()["groups"]["draw pad"]["zone_mm"])
    return PadZone(locate_board(layout, detections, calibration), zone)  # type: ignore[arg-type]


TURN_TOKEN = Prompt(
    "stonesaga.turn_token",
    Text("把矿石标记翻到预兆面朝上放在抽取垫上", "Lay the ore token omen side up on the draw pad"),
)
NOT_MINING = Prompt(
    "stonesaga.not_mining",
    Text("现在没有人在采矿:先宣布采矿行动", "Nobody is mining: announce the mining action first"),
)


@dataclass
class DrawPadReader(Reader):
    """The table loop's reader for mining draws.

    ``observe(observations, state)`` takes one batch of stabiliser observations (table mm) and
    the current engine state, and returns, in order, the moves to submit (``DrawOre``,
    ``FinishMining``) and the prompts to show. Each move returned is legal in the state left by
    the moves before it in the same batch; a draw the engine refuses (a stone no longer in the
    bag, a fourth draw) comes back as a Prompt carrying the engine's reason code and message.
    """

    pad: PadZone
    registry: Registry = field(default_factory=load_registry)
    game: Game = field(default_factory=lambda: find_game("stonesaga"))
    on_pad: set[int] = field(default_factory=set)
    """Ore tags lying on the pad now."""
    drawn: set[int] = field(default_factory=set)
    """Ore tags on the pad that were accepted as draws of the current mining action."""

    def observe(
        self, observations: Iterable[Observation], state: State[Any]
    ) -> list[Move | Prompt]:
        """The moves to submit and the prompts to show for these observations."""
        out: list[Move | Prompt] = []
        for obs in observations:
            ore = ore_of(self.registry.lookup(obs.tag_id, obs.family), catalogue(state))
            if ore is None or obs.kind == "duplicate":
                continue
            inside = obs.kind != "remove" and self.pad.contains(obs.x_mm, obs.y_mm)
            if inside and obs.tag_id not in self.on_pad:
                self.on_pad.add(obs.tag_id)
                state = self._laid(obs.tag_id, ore, state, out)
            elif not inside and obs.tag_id in self.on_pad:
                self.on_pad.discard(obs.tag_id)
                state = self._lifted(obs.tag_id, state, out)
        return out

    def _laid(
        self, tag_id: int, ore: tuple[str, str | None], state: State[Any], out: list[Move | Prompt]
    ) -> State[Any]:
        stone, omen = ore
        if omen is None:
            out.append(TURN_TOKEN)
            return state
        mine = getattr(state.data, "mining", None)
        if mine is None:
            out.append(NOT_MINING)
            return state
        move = DrawOre(mine.seat, stone, omen)
        verdict = legal(self.game, state, move)
        if not verdict.ok:
            out.append(Prompt(verdict.code, verdict.message))
            return state
        self.drawn.add(tag_id)
        out.append(move)
        return apply(self.game, state, move)[0]

    def _lifted(self, tag_id: int, state: State[Any], out: list[Move | Prompt]) -> State[Any]:
        if tag_id not in self.drawn:
            return state
        self.drawn.discard(tag_id)
        mine = getattr(state.data, "mining", None)
        if self.drawn or mine is None:
            return state
        move = FinishMining(mine.seat)
        if legal(self.game, state, move).ok:
            out.append(move)
            return apply(self.game, state, move)[0]
        return state


def table_reader(
    registry: Registry, calibration: TableCalibration, detections: Sequence[Detection] = ()
) -> DrawPadReader:
    """The table loop's reader (``vision.readers.table_reader``): the draw pad located in the
    first frame's ``detections``; ReaderError if none of its tags is in view."""
    try:
        pad = locate_pad(detections, calibration, registry)
    except CalibrationError:
        raise ReaderError(
            Text(
                "摄像头看不到抽取垫:请把它放在桌上摄像头看得到的地方",
                "the draw pad is not in view: put it on the table where the camera sees it",
            )
        ) from None
    return DrawPadReader(pad, registry)


# --- the valley ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seen:
    """A registered Stonesaga tag on the table: what it is, where (mm), which way it points."""

    entry: TagEntry
    x_mm: float
    y_mm: float
    angle_deg: float


def table_tags(
    detections: Sequence[Detection], calibration: TableCalibration, registry: Registry
) -> list[Seen]:
    """Every Stonesaga tag of one frame placed on the table (its corners through the
    calibration's lens); a tag seen twice in the frame is left out (which one lies where is
    unknown)."""
    known = registry.known(detections)
    counts = Counter((d.family, d.id) for d in known)
    seen = []
    for d, (_, (x, y, angle)) in zip(known, table_poses(known, calibration.to_table), strict=True):
        entry = registry.lookup(d.id, d.family)
        if counts[(d.family, d.id)] == 1 and entry is not None and entry.game == "stonesaga":
            seen.append(Seen(entry, x, y, angle))
    return seen


def _trays(
    detections: Sequence[Detection], calibration: TableCalibration, registry: Registry
) -> dict[int, BoardPose]:
    poses = {}
    for layout in registry.boards["stonesaga"]:
        if layout.name.startswith("terrain tray") and any(
            d.id in layout.tag_ids for d in detections
        ):
            poses[int(layout.name.split()[-1])] = locate_board(layout, detections, calibration)
    return poses


def read_valley(
    detections: Sequence[Detection],
    calibration: TableCalibration,
    registry: Registry,
    region: str,
    known: ValleyRecord | None = None,
) -> tuple[ValleyRecord, list[str]]:
    """The valley map as the Log records it (§局间保留与存档 记录地图), and what could not be
    placed (a tile outside every tray, an overlay outside every tray, an overlay on a tile
    whose sticker is covered and that ``known`` does not name).

    A tile is placed by the tray slot under its sticker and turned as its sticker is; an
    overlay lies wherever its sticker is on a tile (§覆盖层: a third of a tile, aligned to a
    zone, or the whole tile): on the tile in the tray slot under the overlay's sticker, in the
    zone (three 120° sectors from the tile's up, about the slot's middle) its sticker lies in.
    An overlay may cover the tile's own sticker: the tile in that slot is then the one
    ``known`` (the Log's record being rebuilt, or the valley as last read) puts there, turned
    and faced as it says."""
    settings = _layout()["valley"]
    step = float(settings["rotation_step_deg"])
    trays = _trays(detections, calibration, registry)
    if not trays:
        raise ReaderError(
            Text(
                "摄像头看不到地形板块托盘:读不了山谷",
                "no terrain tray is in view: the valley cannot be read",
            )
        )
    seen = table_tags(detections, calibration, registry)
    tiles: dict[tuple[int, int], TilePlacement] = {}
    problems: list[str] = []
    for s in (s for s in seen if s.entry.name == "terrain tile"):
        tile_id = str(int(settings["tile_id_base"]) + s.entry.item)
        place = _slot(trays, s.x_mm, s.y_mm)
        if place is None:
            problems.append(f"tile {tile_id} is not in a tray")
            continue
        tray, slot = place
        if place in tiles:
            other = tiles[place].tile
            problems.append(f"tiles {other} and {tile_id} both lie in tray {tray} slot {slot + 1}")
            continue
        turn = (s.angle_deg - trays[tray].angle_deg) % 360
        rotation = int(round(turn / step) * step) % 360
        tiles[place] = TilePlacement(tile_id, tray, slot, rotation)
    recorded = {(t.tray, t.slot): t for t in (known.tiles if known else ())}
    overlays: list[OverlayPlacement] = []
    kinds = _layout()["groups"]["overlay"]["overlay_kinds"]
    for s in (s for s in seen if s.entry.name == "overlay"):
        name = f"{kinds[s.entry.item - 1]} {s.entry.item}"
        place = _slot(trays, s.x_mm, s.y_mm)
        if place is None:
            problems.append(f"overlay {name} is not on a tile")
            continue
        tray, slot = place
        if place not in tiles and place in recorded:
            tiles[place] = recorded[place]  # its sticker under the overlay
        under = tiles.get(place)
        if under is None:
            problems.append(
                f"overlay {name} covers the sticker of the tile in tray {tray} slot {slot + 1}: "
                "lift it so the camera reads the tile, then put it back"
            )
            continue
        cx, cy = trays[tray].cell_centre(slot, 0)
        bearing = math.degrees(math.atan2(s.x_mm - cx, -(s.y_mm - cy)))
        up = trays[tray].angle_deg + under.rotation
        zone = int(((bearing - up) % 360) // 120)
        overlays.append(OverlayPlacement(name, under.tile, zone))
    record = ValleyRecord(
        region,
        tuple(sorted(tiles.values(), key=lambda t: (t.tray, t.slot))),
        tuple(sorted(overlays, key=lambda o: (o.tile, o.zone, o.overlay))),
    )
    return record, problems


def _slot(trays: dict[int, BoardPose], x_mm: float, y_mm: float) -> tuple[int, int] | None:
    """The tray and slot under a table point, or None outside every tray's slots."""
    for number, pose in sorted(trays.items()):
        cell = pose.cell_at(x_mm, y_mm)
        if cell is not None:
            return number, cell[0]
    return None


def placement_guide(record: ValleyRecord, lang: Language = "en") -> list[str]:
    """Where each recorded tile and overlay goes, one line each, for rebuilding the valley."""
    lines = []
    for t in record.tiles:
        face = "" if t.explored else (" 未探索面" if lang == "zh" else " unexplored side up")
        if lang == "zh":
            lines.append(f"托盘 {t.tray} 第 {t.slot + 1} 格: 地块 {t.tile} 转 {t.rotation}°{face}")
        else:
            lines.append(f"tray {t.tray} slot {t.slot + 1}: tile {t.tile} at {t.rotation}°{face}")
    for o in record.overlays:
        if lang == "zh":
            lines.append(f"覆盖层 {o.overlay}: 地块 {o.tile} 第 {o.zone + 1} 区")
        else:
            lines.append(f"overlay {o.overlay}: tile {o.tile} zone {o.zone + 1}")
    return lines


# --- tablesight scan -------------------------------------------------------------------------


def features_for(tokens: Sequence[tuple[str, str | None]], cat: Catalogue) -> list[str]:
    """The mining features whose bag (§采矿.3) in the box can hold these tokens, at most 3
    (§采矿)."""
    if len(tokens) > cat.mining.max_draws:
        return []
    counts = Counter(stone for stone, _ in tokens)
    omens = Counter(tokens)
    if any(n > 1 for (stone, omen), n in omens.items() if omen is not None):
        return []  # the same token twice: two tags of one copy cannot both be on the pad
    return [f for f in MINING_FEATURES if all(cat.bag(f).get(s, 0) >= n for s, n in counts.items())]


def pad_unread(
    pad: PadZone,
    quads: Sequence[npt.NDArray[np.float64]],
    calibration: TableCalibration,
    registry: Registry,
    cat: Catalogue,
    seen: Sequence[Seen],
) -> int:
    """How many ore tokens on the pad the camera saw and could not read: the quads (pixels)
    that lie on the pad, square on the table (no side over 1.3 times another) and of an ore
    token's size (its sticker's black square, 12 mm in the demo box, to the token's edge,
    22 mm), away from every tag read and from each other."""
    sizes = [e.tag_mm for e in registry.entries.values() if ore_of(e, cat) is not None]
    if not sizes or not quads:
        return 0
    tag_mm = min(sizes)
    mapped = np.asarray(calibration.to_table(np.vstack(quads)), np.float64).reshape(-1, 4, 2)
    places: list[tuple[float, float]] = [(s.x_mm, s.y_mm) for s in seen]
    count = 0
    for quad in mapped:
        x, y = quad.mean(axis=0)
        sides = np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)
        side = float(sides.mean())
        if not 0.7 * tag_mm <= side <= 2.0 * tag_mm or sides.max() > 1.3 * sides.min():
            continue
        if not pad.contains(x, y):
            continue
        if all(math.dist((x, y), p) >= tag_mm for p in places):
            places.append((x, y))
            count += 1
    return count


def pad_unread_text(count: int) -> Text:
    """What a scan says of ``count`` ore tokens on the pad it could not read."""
    if count == 1:
        return Text(
            "抽取垫上有 1 个矿石标记看不清:把它平放在光线好的地方",
            "An ore token on the draw pad cannot be read: lay it flat, in good light",
        )
    return Text(
        f"抽取垫上有 {count} 个矿石标记看不清:把它们平放在光线好的地方",
        f"{count} ore tokens on the draw pad cannot be read: lay them flat, in good light",
    )


def scan(
    image_path: Path | None,
    lang: Language,
    box: Box | None = None,
    *,
    view: SteadyView | None = None,
    frame_size: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """Read one overhead photo, or with ``view`` what a run of frames of ``frame_size`` (width,
    height) showed together (`vision.stabiliser.steady_view`; ``image_path`` is then not read):
    the ore tokens on the draw pad and the valley in the trays, read with ``box`` (the owner's
    box; None: the demo box's omens, bags and region).

    Needs the four calibration anchors in view (CalibrationError names a missing one).
    """
    cat = catalogue(box)
    detections, (width, height), unread = frame_detections(image_path, view, frame_size)
    registry = load_registry()
    calibration = calibrate_table(detections, registry.anchors(), (width, height))
    seen = table_tags(detections, calibration, registry)
    result: dict[str, Any] = {"pad": None, "valley": None, "problems": []}
    try:
        pad = locate_pad(detections, calibration, registry)
    except CalibrationError:
        pad = None
    if pad is not None:
        tokens = []
        ores: list[tuple[str, str | None]] = []
        for s in seen:
            ore = ore_of(s.entry, cat)
            if ore is not None and pad.contains(s.x_mm, s.y_mm):
                tokens.append({"tag": s.entry.tag_id, "stone": ore[0], "omen": ore[1]})
                ores.append(ore)
        not_read = pad_unread(pad, unread, calibration, registry, cat, seen)
        result["pad"] = {
            "tokens": tokens,
            "features": features_for(ores, cat),
            "unread": not_read,
        }
        if any(omen is None for _, omen in ores):
            result["problems"].append(TURN_TOKEN.message.in_(lang))
        if not_read:
            result["problems"].append(pad_unread_text(not_read).in_(lang))
    try:
        record, problems = read_valley(detections, calibration, registry, cat.region)
    except ReaderError:
        record, problems = None, []
    if record is not None:
        result["valley"] = asdict(record)
        result["problems"] += problems
    if result["pad"] is None and result["valley"] is None:
        raise ReaderError(
            Text(
                "摄像头既看不到抽取垫,也看不到地形板块托盘",
                "neither the draw pad nor a terrain tray is in view",
            )
        )
    return result


def describe(result: dict[str, Any], lang: Language) -> str:
    """The scan result for people, in the kiosk language."""
    zh = lang == "zh"
    lines: list[str] = []
    pad = result.get("pad")
    if pad is not None:
        names = [
            f"{STONES[t['stone']].in_(lang)}/{OMENS[t['omen']].in_(lang) if t['omen'] else '?'}"
            for t in pad["tokens"]
        ]
        lines.append(("抽取垫: " if zh else "draw pad: ") + (", ".join(names) or "-"))
        features = ", ".join(pad["features"]) or ("无" if zh else "none")
        lines.append(("可能来自: " if zh else "bags that can hold them: ") + features)
    if result.get("valley") is not None:
        v = result["valley"]
        record = ValleyRecord(
            v["region"],
            tuple(TilePlacement(**t) for t in v["tiles"]),
            tuple(OverlayPlacement(**o) for o in v["overlays"]),
        )
        lines.append(f"{'山谷' if zh else 'valley'}: {record.trays} tray(s)")
        lines += ["  " + line for line in placement_guide(record, lang)]
    lines += [("问题: " if zh else "problem: ") + p for p in result.get("problems", [])]
    return "\n".join(lines)


def check_rebuild(record: ValleyRecord, seen: ValleyRecord) -> list[str]:
    """How the rebuilt valley on the table differs from the Log's record (empty: it matches)."""
    return camp.rebuild_problems(record, seen)
