"""What the saved-games store raises, and what the players and the start-up report are told."""

from __future__ import annotations

from pathlib import Path

from engine.core import Text

READ_ONLY = Text(
    "存档只读:什么都不会被保存({why});走棋、撤销和重做都会被拒绝",
    "the saved games are read-only: nothing would be kept ({why}); moves, undos and redos are"
    " refused",
)
NOT_KEPT_CODE = "store.not_kept"
"""The verdict code of a move refused because it could not be saved."""
NOT_KEPT = Text(
    "没有接受:存档无法写入({why}),这一步保存不了",
    "Not accepted: the saved game cannot be written ({why}), so this could not be kept",
)
WHY_FILE = Text("存档文件只读", "the save file is read-only")
WHY_FOLDER = Text("存档文件夹只读", "the save folder is read-only")
WHY_DENIED = Text("没有写入权限", "no permission to write it")
WHY_FULL = Text("磁盘已满", "the disk is full")
WHY_ASKED = Text("按要求只读打开", "opened read-only on purpose")
LOW_DISK = Text(
    "存档所在的磁盘几乎满了(剩余 {free} kB):新的走棋可能保存不了",
    "the disk holding the saved games is almost full ({free} kB free): new moves may not be kept",
)


class StoreError(Exception):
    """Root of the errors of the saved-games store."""


class StoreDamagedError(StoreError):
    """The database file is damaged or not a tablesight save; it has been renamed aside
    (``moved_to``). ``text`` says so in both languages."""

    def __init__(self, path: Path, moved_to: Path, detail: Text) -> None:
        self.text = Text(
            f"存档数据库 {path.name} 已损坏或不是 tablesight 的存档({detail.zh});已原样另存为"
            f" {moved_to.name},并新建了数据库",
            f"the saved-games database {path} is damaged or not a tablesight save"
            f" ({detail.en}); it was set aside as {moved_to.name} and nothing in it was changed",
        )
        super().__init__(self.text.en)
        self.path, self.moved_to, self.detail = path, moved_to, detail


class StoreVersionError(StoreError):
    """The database was written by a newer tablesight."""


class SaveNotFoundError(StoreError, LookupError):
    """No saved game has that name."""


class SaveUnusableError(StoreError):
    """A saved game cannot be resumed as it was saved: its log does not match its chain (an
    entry missing, altered or cut off), or what it holds does not replay (an unknown game, bad
    options, a logged move that is not a move or no longer legal). Nothing was changed.

    ``save`` is the game's name, ``entry`` the first log entry (1-based) that is wrong, or None
    when the game's own row is; ``text`` says it in both languages."""

    def __init__(self, save: str, entry: int | None, total: int, why: Text) -> None:
        if entry is None:
            self.text = Text(
                f"存档“{save}”无法继续:{why.zh}", f"the saved game {save!r} cannot go on: {why.en}"
            )
        else:
            self.text = Text(
                f"存档“{save}”从第{entry}条记录起无法继续(共{total}条):{why.zh}",
                f"the saved game {save!r} cannot go on from entry {entry} of its log"
                f" ({total} entries): {why.en}",
            )
        super().__init__(self.text.en)
        self.save, self.entry, self.total, self.why = save, entry, total, why


class SaveNotKeptError(StoreError):
    """A move, undo or redo was not applied because it could not be written; ``reason`` is why
    (read-only, disk full), ``text`` the players' message in both languages."""

    def __init__(self, reason: Text) -> None:
        self.reason = reason
        self.text = NOT_KEPT.format(why=reason)
        super().__init__(self.text.en)


class _NotOurs(Exception):
    """The database is a valid SQLite file but not a tablesight save (internal)."""

    def __init__(self, detail: Text) -> None:
        super().__init__(detail.en)
        self.detail = detail
