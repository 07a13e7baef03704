"""Files replaced whole or not at all: the settings, the owner's boxes, the café's known tables.

A power cut or a kill -9 in the middle of a write leaves either the old file or the new one,
never half of one: the data goes to a temporary file of its own in the same folder, is synced to
the disk, renamed over the file, and the folder is synced so that the rename is kept too.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, data: bytes, suffix: str = "") -> None:
    """Replace ``path`` with ``data``: a temporary file ``.<name>.<random><suffix>`` in the same
    folder, fsync, rename, fsync of the folder. On any failure (a full disk) the temporary file
    is removed, ``path`` is left as it was and the OSError is raised."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=suffix)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    fsync_folder(path.parent)


def fsync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (a power cut after it keeps the new name); nothing
    where the folder cannot be opened (some network file systems)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
