"""The box: a game's printed content (boards, piece shapes, layouts, cards, tables) as data.

The content is the shipped data files' format: a mapping from a file name
(``submarines.toml``) to its TOML tables. The files are cut into **items**, the unit an owner
copies, imports and is told about:

- an array of tables whose entries each carry an ``id``, ``number``, ``name``, ``kind`` or
  ``tier`` (``[[layout]] number = 0``) gives one item per entry: ``submarines/layout/0``;
- a table of tables (``[wilson]`` in ``characters.toml``, ``[challenges.GI01]``) gives one
  item per inner table: ``characters/wilson``, ``campaign/challenges/GI01``;
- any other top-level key is one item: ``tiles/biomes``.

Keys that only mark invented values (``placeholder``, ``*_placeholder``, ``placeholder_*``) are
no items: whether a value is the owner's is what the box itself knows (``Box.owner``).

A ``Box`` is the content as played, the demo box's items with the owner's over them, and which
items are the owner's. It rides in a game's set-up options, so a save keeps the values it was
played with (in its hash chain), and it is plain data: one canonical JSON string, cheap to
hash, compare and store. Pure: the demo box is read from the game's package data, nothing else.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, TypeVar

from engine.core.errors import EngineError
from engine.core.text import Text, Verdict

BoxFiles = Mapping[str, Mapping[str, Any]]
"""A box's content: file name (``submarines.toml``) → its top-level TOML tables."""

ID_FIELDS = ("id", "number", "name", "kind", "tier")
"""The fields that name an entry of an array of tables, in the order they are looked for."""

T = TypeVar("T")


class BoxError(EngineError, ValueError):
    """A box's content is not valid: ``problems`` holds one line per problem, each naming the
    file and the entry."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(self.problems))


def is_marker(key: str) -> bool:
    """Whether a top-level key only marks invented values (``placeholder``, ``x_placeholder``)."""
    return key == "placeholder" or key.endswith("_placeholder") or key.startswith("placeholder_")


def holds_entries(tables: Mapping[str, Any]) -> bool:
    """Whether a data file is a list of entries as tables of their own (Don't Starve's
    ``[a_new_beginning]``, ``[wilson]``): a table the demo does not have is then a new entry
    (an owner's scenario card or character), checked by the game's loader like any other."""
    values = [v for k, v in tables.items() if not is_marker(k)]
    return len(values) > 1 and all(isinstance(v, dict) for v in values)


def is_new_entry(demo: BoxFiles, item: str, value: Any) -> bool:
    """Whether ``item`` (``scenarios/pig_king``) is a table of its own added to a demo file of
    entries (``holds_entries``)."""
    stem, _, key = item.partition("/")
    tables = demo.get(f"{stem}.toml")
    return (
        bool(key)
        and "/" not in key
        and tables is not None
        and holds_entries(tables)
        and (isinstance(value, dict))
    )


def _stem(file: str) -> str:
    return file.removesuffix(".toml")


def _id_field(entries: list[Any]) -> str | None:
    """The field naming each entry of an array of tables, if every entry has a distinct one."""
    if not entries or not all(isinstance(e, dict) for e in entries):
        return None
    for name in ID_FIELDS:
        values = [e.get(name) for e in entries]
        named = all(isinstance(v, str | int) and not isinstance(v, bool) for v in values)
        if named and len({str(v) for v in values}) == len(values):
            return name
    return None


def _strip(value: Any) -> Any:
    """An item's value without the markers of invented values (for comparing and storing)."""
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if not is_marker(k)}
    return value


def items_of(files: BoxFiles) -> dict[str, Any]:
    """Every item of the content, by item id (``submarines/layout/0``), in file order."""
    out: dict[str, Any] = {}
    for file, tables in files.items():
        stem = _stem(file)
        for key, value in tables.items():
            if is_marker(key):
                continue
            field = _id_field(value) if isinstance(value, list) else None
            if field is not None:
                for entry in value:
                    out[f"{stem}/{key}/{entry[field]}"] = entry
            elif (
                isinstance(value, dict)
                and value
                and all(isinstance(v, dict) for v in value.values())
            ):
                for name, inner in value.items():
                    out[f"{stem}/{key}/{name}"] = inner
            else:
                out[f"{stem}/{key}"] = value
    return out


def kind_of(item: str) -> str:
    """The kind of an item: its id without the entry's name (``submarines/layout``), or the
    item itself for a single value (``tiles/biomes``)."""
    parts = item.split("/")
    return "/".join(parts[:2])


def merged(demo: BoxFiles, owner: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The demo's content with the owner's items (by item id) over it: an entry of an array
    replaces the demo's entry of the same name, or joins the array; a table's inner table or
    a single value replaces the demo's. Items of files the demo does not have are ignored."""
    out: dict[str, dict[str, Any]] = {f: dict(t) for f, t in demo.items()}
    stems = {_stem(f): f for f in out}
    for item, value in owner.items():
        stem, _, rest = item.partition("/")
        key, _, name = rest.partition("/")
        file = stems.get(stem)
        if file is None or not key:
            continue
        tables = out[file]
        current = tables.get(key)
        if not name:
            tables[key] = value
            continue
        field = _id_field(current) if isinstance(current, list) else None
        if isinstance(current, list) and field is not None:
            entries = list(current)
            at = [i for i, e in enumerate(entries) if str(e[field]) == name]
            if at:
                entries[at[0]] = value
            else:
                entries.append(value)
            tables[key] = entries
        elif isinstance(current, dict):
            tables[key] = {**current, name: value}
        elif current is None and isinstance(value, dict):
            tables[key] = {name: value}
    return out


def owners_items(demo: BoxFiles, given: BoxFiles) -> dict[str, Any]:
    """The items of ``given`` that are the owner's: every item unless it is the demo's own,
    unchanged and still marked invented (an exported box read back keeps its demo items the
    demo's). Markers of invented values are dropped from the owner's items."""
    demo_items = items_of(demo)
    out: dict[str, Any] = {}
    for item, value in items_of(given).items():
        if value == demo_items.get(item) and _marked(value, given, item):
            continue
        out[item] = _strip(value)
    return out


def _marked(value: Any, files: BoxFiles, item: str) -> bool:
    """Whether an item is marked invented: its own ``placeholder`` or its file's."""
    if isinstance(value, dict) and value.get("placeholder"):
        return True
    stem = item.split("/")[0]
    tables = next((t for f, t in files.items() if _stem(f) == stem), {})
    return any(is_marker(k) and bool(v) for k, v in tables.items())


@dataclass(frozen=True)
class Box:
    """A game's printed content as played: the demo box's items with the owner's over them.

    ``content`` is the canonical JSON of the files' tables; ``owner`` the ids of the items
    that are the owner's (every other item is the demo box's invented value).
    """

    game: str
    content: str
    owner: tuple[str, ...] = ()

    @classmethod
    def of(cls, game: str, files: BoxFiles, owner: Iterable[str] = ()) -> Box:
        """The box holding ``files`` (demo items and the owner's), ``owner`` naming the latter."""
        # the files' order kept: a table of tables is in printed order (Wilson first)
        content = json.dumps(files, ensure_ascii=False, separators=(",", ":"))
        return cls(game, content, tuple(sorted(set(owner))))

    @property
    def files(self) -> dict[str, Any]:
        """The content: file name → its tables (parsed once per Box)."""
        cached: dict[str, Any] | None = self.__dict__.get("_files")
        if cached is None:
            cached = json.loads(self.content)
            self.__dict__["_files"] = cached
        return cached

    def parsed(self, parse: Callable[[BoxFiles], T]) -> T:
        """``parse(self.files)``, computed once per Box (the game's catalogue)."""
        cached = self.__dict__.get("_parsed")
        if cached is None or cached[0] != parse:  # a bound method is equal, not identical
            cached = (parse, parse(self.files))
            self.__dict__["_parsed"] = cached
        return cached[1]

    def is_owners(self, item: str) -> bool:
        """Whether the item (``submarines/layout/0``) is the owner's, not the demo's."""
        return item in self.owner

    def counts(self) -> dict[str, tuple[int, int]]:
        """Per kind of item (``submarines/layout``): how many are the owner's, how many the
        demo's."""
        out: dict[str, tuple[int, int]] = {}
        owned = set(self.owner)
        for item in items_of(self.files):
            mine, demo = out.get(kind_of(item), (0, 0))
            out[kind_of(item)] = (mine + 1, demo) if item in owned else (mine, demo + 1)
        return out


@cache
def demo_files(package: str, names: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """The shipped demo box of a game: its data files (``names``) in ``package``, parsed."""
    out: dict[str, dict[str, Any]] = {}
    if not names:
        return out  # a game with no printed content
    folder = resources.files(package)
    for name in names:
        try:
            out[name] = tomllib.loads((folder / name).read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise BoxError([f"{name}: the shipped demo file cannot be read ({exc})"]) from None
    return out


@cache
def demo_box(game: str, package: str, names: tuple[str, ...]) -> Box:
    """A game's shipped demo box (every item an invented value), made once, so that its
    catalogue is made once."""
    return Box.of(game, demo_files(package, names))


def box_in(options: Any, demo: Box) -> Box:
    """The box of a game's options (or of a State, through its options, or a Box itself);
    ``demo`` when there is none."""
    if isinstance(options, Box):
        return options
    options = getattr(options, "options", options)
    box = getattr(options, "box", None)
    return box if isinstance(box, Box) else demo


DRAWS_TEXTS = {
    "draws": Text("抽牌与翻板", "Cards and tiles drawn"),
    "draws=table": Text("由桌上决定(摄像头或触屏录入)", "At the table (camera or console)"),
    "draws=virtual": Text("由程序洗牌(没有实物牌时)", "By the program (no cards at hand)"),
}
"""What the set-up page says of the ``draws`` option (each game's ``option_texts`` holds them)."""


def demo_note(item: Text) -> Text:
    """What a ruling that rests on a demo value adds: ``item`` names the demo item in both
    languages (``Text("潜艇0", "submarine 0")``)."""
    return Text(
        f"按演示盒的{item.zh}判定:把你的盒子录入后才准确",
        f"judged by the demo box's {item.en}: copy your box to make this exact",
    )


def noted(verdict: Verdict, box: Box, item: str, name: Text) -> Verdict:
    """The verdict, its message followed by ``demo_note(name)`` when ``item`` (an item id of
    ``box``) is a demo value; unchanged when it is the owner's."""
    if box.is_owners(item):
        return verdict
    note = demo_note(name)
    message = Text(f"{verdict.message.zh}({note.zh})", f"{verdict.message.en} ({note.en})")
    return Verdict(verdict.ok, verdict.code, message, verdict.rule, verdict.params)


def with_note(text: Text, note: Text | None) -> Text:
    """``text`` followed by a demo note (``demo_note``); unchanged for None."""
    if note is None:
        return text
    return Text(f"{text.zh}({note.zh})", f"{text.en} ({note.en})")


# --- reading a box's entries: each problem names the file and the entry -----------------------


def entry_problem(where: str, what: str) -> BoxError:
    """A problem of one entry, named as ``tablesight box import`` names it:
    ``weather.toml, card autumn-3: ...``."""
    return BoxError([f"{where}: {what}"])


def entry_field(table: Any, key: str, where: str) -> Any:
    """``table[key]`` of the entry ``where``; BoxError when the entry is no table or lacks it."""
    if not isinstance(table, Mapping):
        raise entry_problem(where, "is not a table")
    if key not in table:
        raise entry_problem(where, f"missing field {key!r}")
    return table[key]


def entry_int(table: Any, key: str, where: str, low: int = 0) -> int:
    """A whole number of at least ``low`` (``entry_field``)."""
    value = entry_field(table, key, where)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise entry_problem(where, f"{key} must be a whole number of at least {low}, not {value!r}")
    return value


def entry_text(table: Any, key: str, where: str) -> str:
    """A text that is not blank (``entry_field``)."""
    value = entry_field(table, key, where)
    if not isinstance(value, str) or not value.strip():
        raise entry_problem(where, f"{key} must be a text, not {value!r}")
    return value
