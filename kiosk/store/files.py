"""Files, folders and SQLite's errors: transactions, the data folder, a read-only copy,
what an SQLite error means (damage, read-only, a full disk), a file set aside."""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from engine.core import Text
from kiosk.store.errors import WHY_DENIED, WHY_FILE, WHY_FOLDER, WHY_FULL, StoreError


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any error."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if conn.in_transaction:  # SQLite may have rolled back already (a full disk)
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _check_place(path: Path, make: bool = True) -> None:
    """StoreError (one line) when the data folder is a file, cannot be made (``make``), or the
    database's name is taken by a folder."""
    folder = path.parent
    for above in (folder, *folder.parents):
        if above.exists() or above.is_symlink():
            if not above.is_dir():
                raise StoreError(f"the data folder {folder} cannot be used: {above} is a file")
            break
    try:
        if make:
            folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot make the data folder {folder}: {exc.strerror}") from None
    if path.exists() and not path.is_file():
        raise StoreError(f"the saved-games database {path} is a folder, not a file")


def _read_only_connection(path: Path) -> sqlite3.Connection:
    """A read-only connection to the file. In a folder where SQLite cannot make the
    write-ahead log's index, the file is read as immutable, but only when no write-ahead log
    is pending (its frames would be missed, a resume short); StoreError then."""
    uri = f"file:{quote(str(path.resolve()))}"
    try:
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, check_same_thread=False)
        conn.execute("PRAGMA schema_version").fetchone()
        return conn
    except sqlite3.Error as exc:
        wal = Path(f"{path}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise StoreError(
                f"the saved games in {path} cannot be read ({exc}): their folder is read-only"
                " and a write-ahead log is pending; make the folder writable and start again"
            ) from None
    try:
        conn = sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, check_same_thread=False)
        conn.execute("PRAGMA schema_version").fetchone()
        return conn
    except sqlite3.Error as exc:
        raise StoreError(f"the saved games in {path} cannot be read: {exc}") from None


def _as_sqlite_error(exc: Exception) -> sqlite3.Error:
    """SQLite's error as such; a message that was not UTF-8 (damage in the schema's text)
    becomes a DatabaseError saying so."""
    if isinstance(exc, sqlite3.Error):
        return exc
    return sqlite3.DatabaseError(f"unreadable text in the database ({exc.__class__.__name__})")


def _denied(exc: sqlite3.Error) -> bool:
    """Whether SQLite's error means the file or folder may not be written (not damage)."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    return name.startswith("SQLITE_READONLY") or name in (
        "SQLITE_CANTOPEN",
        "SQLITE_PERM",
        "SQLITE_AUTH",
    )


def _damage(exc: sqlite3.Error) -> bool:
    """Whether SQLite's error means the file is damaged or not a save (set aside), rather than
    busy, locked, out of memory or failing to read (said, the file left where it is)."""
    name = getattr(exc, "sqlite_errorname", None)
    return (
        name is None
        or name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))
        or (name == "SQLITE_ERROR")
    )


def _full(exc: sqlite3.Error) -> bool:
    """Whether SQLite's error means the disk is full."""
    return (getattr(exc, "sqlite_errorname", "") or "") == "SQLITE_FULL"


def _why_denied(path: Path) -> Text:
    """Why the save cannot be written: its folder or file is read-only, or no permission."""
    if not os.access(path.parent, os.W_OK):
        return WHY_FOLDER
    if path.exists() and not os.access(path, os.W_OK):
        return WHY_FILE
    return WHY_DENIED


def _why_failed(exc: sqlite3.Error, path: Path) -> Text:
    """Why a write failed, for the players."""
    if _full(exc):
        return WHY_FULL
    if _denied(exc):
        return _why_denied(path)
    return Text(f"SQLite:{exc}", f"SQLite: {exc}")


SQLITE_HEADER = b"SQLite format 3\x00"


def _header_problem(path: Path) -> Text | None:
    """What is wrong with the file before SQLite reads it, or None: a file that exists but is
    empty (0 bytes, no write-ahead log to recover from: cut to nothing, or made and never
    written) or shorter than SQLite's header or without it. SQLite would take a short file as
    a new database and write into it; it is set aside with a word instead."""
    try:
        size = path.stat().st_size
        if size == 0:
            wal = Path(f"{path}-wal")
            if wal.exists() and wal.stat().st_size > 0:
                return None
            return Text("文件是空的(0 字节)", "the file is empty (0 bytes)")
        with path.open("rb") as file:
            head = file.read(100)
    except FileNotFoundError:
        return None
    except OSError:
        return None  # unreadable: SQLite will say why
    if len(head) < 100 or not head.startswith(SQLITE_HEADER):
        return Text(
            f"它不是 SQLite 数据库(开头的 {len(head)} 字节不对)",
            f"it is not an SQLite database (its first {len(head)} bytes are not a header)",
        )
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    if page and size % page:
        return Text(
            f"它的长度 {size} 字节不是整页({page} 字节)的倍数:文件被截断了",
            f"its length, {size} bytes, is not a whole number of {page}-byte pages: it was cut",
        )
    return None


def _free_bytes(folder: Path) -> int | None:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def _text(raw: object) -> str | None:
    """Stored text as a str; None when it is not UTF-8 (or not text at all)."""
    if isinstance(raw, bytes):
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return None
    return raw if isinstance(raw, str) else None


def short_reason(exc: BaseException) -> str:
    """An exception's message on one line, at most 160 characters."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "…"


def set_aside(path: Path) -> Path:
    """Rename a database (and its WAL and SHM files) next to itself, untouched; returns the new
    name. StoreError (one line) if it cannot be renamed."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
        n += 1
    try:
        for suffix in ("", "-wal", "-shm"):
            src = Path(f"{path}{suffix}")
            if src.exists():
                src.rename(Path(f"{target}{suffix}"))
    except OSError as exc:
        raise StoreError(
            f"the saved-games database {path} cannot be used and cannot be set aside"
            f" ({exc.strerror}); nothing in it was changed"
        ) from None
    return target


def _set_aside(path: Path, detail: Text) -> Path:
    """``set_aside`` for a damaged file, naming the damage if the rename fails."""
    try:
        return set_aside(path)
    except StoreError as exc:
        raise StoreError(f"{exc} (it is damaged: {detail.en})") from None
