"""What the last pack-away check found missing, kept until the next check that finds all.

The pack-away page (``kiosk/routers/packaway.py``) sets it on the table
(``Table.missing_pieces``) after each check; the café publisher reports it as the state
summary's ``missing`` alert ("T3: 2 pieces of Greenwood missing"). It is kept in the data folder
(``packaway.json``, checked as data when read), so a restart of the kiosk does not clear it.
"""

from __future__ import annotations

import logging
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.core.text import Text

FILE = "packaway.json"
log = logging.getLogger(__name__)


class MissingPieces(BaseModel):
    """How many pieces of which game the last check did not see (at least one)."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    game: str
    title_zh: str
    title_en: str
    count: int = Field(ge=1)

    @property
    def title(self) -> Text:
        """The game's title in both languages."""
        return Text(self.title_zh, self.title_en)


def load_missing(data_dir: Path) -> MissingPieces | None:
    """The missing pieces kept in ``data_dir``, or None (none kept, or a file that is not one:
    logged, then ignored)."""
    path = data_dir / FILE
    try:
        return MissingPieces.model_validate_json(path.read_bytes())
    except FileNotFoundError:
        return None
    except (OSError, ValidationError) as exc:
        log.warning("%s: ignored, not a pack-away record (%s)", path, str(exc).splitlines()[0])
        return None


def save_missing(data_dir: Path, missing: MissingPieces | None) -> None:
    """Keep ``missing`` in ``data_dir`` (None: a check found all; the file goes)."""
    path = data_dir / FILE
    if missing is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(missing.model_dump_json(), encoding="utf-8")
    temporary.replace(path)
