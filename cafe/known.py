"""The tables the café has heard from before, kept with its results in the data folder.

A table is *known* once the overview heard it live: a status ``online`` or a readable state
summary that the broker delivered as it was published, while the overview listened, not a
retained copy handed over at subscription. A message the broker kept while the overview was
away never makes a table known, however many the broker keeps. Known tables keep their tiles:
after a restart of the overview, they are shown first whatever the broker kept, and the cap
(``--max-tables``) never evicts a known table for an unknown one (docs/mqtt.md, A hostile
broker). At most ``--max-tables`` tables are known; the first ones heard keep their place.

The file (``cafe-known-tables.json``) is small, checked when read (pydantic, strict) and written
atomically (its own temporary file, fsync, rename). A file that cannot be read, or holds
entries that do not fit, is kept aside (``cafe-known-tables.damaged-<UTC time>.json``) and the
overview starts with the entries it could read, saying so.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from kiosk.atomic import write_atomically
from kiosk.mqtt.topics import check_site_name, check_table_name

log = logging.getLogger("tablesight.cafe")

KNOWN_FILE = "cafe-known-tables.json"
ENTRY_BYTES = 200
"""An entry's size at most (a key of two names of 40 characters and a time), for the bound on
the file read back."""


class KnownTable(BaseModel):
    """One table heard live: its key (``<site>/<table>`` or ``<table>``) and when it was first
    heard (UTC)."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    key: str
    since: str


class KnownFile(BaseModel):
    """The file: its version and the known tables, first heard first."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    v: Literal[1] = 1
    tables: list[KnownTable]


_ENTRY = TypeAdapter(KnownTable)


def check_key(key: str) -> str:
    """A table's key as the overview keeps it; ValueError when it is no table's."""
    site, slash, table = key.rpartition("/")
    check_table_name(table)
    if slash:
        check_site_name(site)
    return key


@dataclass
class Loaded:
    """What was read back: the known tables (key → first heard), and what was wrong."""

    tables: dict[str, str] = field(default_factory=dict)
    lost: int = 0
    """Entries that could not be read (``-1``: the whole file)."""
    reason: str = ""
    aside: Path | None = None
    """Where the damaged file was kept."""


def now_utc() -> str:
    """The time now, UTC, to the second."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def load(path: Path, cap: int) -> Loaded:
    """Read the known tables back (at most ``cap``, the first heard); a damaged file is kept
    aside and what could be read is written anew."""
    got = Loaded()
    if not path.is_file():
        return got
    try:
        with path.open("rb") as source:
            body = source.read((cap + 10) * ENTRY_BYTES + 1)
    except OSError as exc:
        got.lost, got.reason = -1, exc.strerror or str(exc)
        log.warning("cannot read %s: %s; no table is known", path, got.reason)
        return got
    entries: list[object] = []
    try:
        if len(body) > (cap + 10) * ENTRY_BYTES:
            raise ValueError(f"longer than {(cap + 10) * ENTRY_BYTES} bytes")
        data = json.loads(body.decode("utf-8"))
        if not isinstance(data, dict) or data.get("v") != 1:
            raise ValueError("not a file of known tables (version 1)")
        if not isinstance(data.get("tables"), list):
            raise ValueError("tables: not a list")
        entries = data["tables"]
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError and JSON's are ValueErrors
        got.lost, got.reason = -1, str(exc)[:200]
    for number, entry in enumerate(entries, 1):
        try:
            table = _ENTRY.validate_python(entry)
            check_key(table.key)
        except (ValidationError, ValueError) as exc:
            got.lost += 1
            got.reason = got.reason or f"entry {number}: {str(exc).splitlines()[0][:200]}"
            continue
        if table.key not in got.tables and len(got.tables) < cap:
            got.tables[table.key] = table.since
    if got.lost:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
        got.aside = path.with_name(f"{path.stem}.damaged-{stamp}.json")
        try:
            path.replace(got.aside)
        except OSError as exc:
            log.warning("cannot keep %s aside: %s", path, exc)
            got.aside = None
            return got
        try:
            save(path, got.tables)
        except OSError as exc:
            log.warning("cannot write %s anew: %s", path, exc)
        log.warning(
            "%s: %s; kept aside as %s, %d known table(s) read",
            path,
            got.reason,
            got.aside.name,
            len(got.tables),
        )
    return got


def save(path: Path, tables: dict[str, str]) -> None:
    """Write the known tables atomically (own temporary file, fsync, rename)."""
    body = KnownFile(tables=[KnownTable(key=k, since=s) for k, s in tables.items()])
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, body.model_dump_json(indent=1).encode("utf-8"))
