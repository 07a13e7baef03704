"""Player-facing text in Chinese and English, reason codes, and verdicts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Language = Literal["zh", "en"]


@dataclass(frozen=True)
class Text:
    """A message in both languages of the kiosk."""

    zh: str
    en: str

    def in_(self, lang: Language) -> str:
        """The message in one language."""
        return self.zh if lang == "zh" else self.en

    def format(self, **params: Any) -> Text:
        """Both messages with ``{name}`` placeholders filled in; a Text value fills each language.

        >>> Text("{p}阶段", "during {p}").format(p=Text("夜晚", "night")).en
        'during night'
        """
        zh = {k: v.zh if isinstance(v, Text) else v for k, v in params.items()}
        en = {k: v.en if isinstance(v, Text) else v for k, v in params.items()}
        return Text(self.zh.format(**zh), self.en.format(**en))


@dataclass(frozen=True)
class Verdict:
    """The answer to "may this move be made now?": a stable reason code, a message, the rule.

    >>> ACCEPTED.ok, ACCEPTED.code
    (True, 'ok')
    """

    ok: bool
    code: str
    message: Text
    rule: str | None = None
    params: dict[str, Any] = field(default_factory=dict, compare=False)

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        where = f" ({self.rule})" if self.rule else ""
        return f"{self.code}: {self.message.en}{where}"

    def to_dict(self) -> dict[str, Any]:
        """The verdict as plain JSON data."""
        return {
            "ok": self.ok,
            "code": self.code,
            "message": {"zh": self.message.zh, "en": self.message.en},
            "rule": self.rule,
        }


ACCEPTED = Verdict(True, "ok", Text("可以", "Accepted"))


@dataclass(frozen=True)
class Reason:
    """Why a move is refused: a stable code, a message template, and the rule it comes from.

    ``rule`` names the rule text and its section, e.g. ``greenwood.zh.md §三.10``.

    >>> r = Reason("demo.full", Text("第{n}格已满", "Cell {n} is full"), "demo §1")
    >>> r.reject(n=3).message.en
    'Cell 3 is full'
    """

    code: str
    message: Text
    rule: str | None = None

    def reject(self, **params: Any) -> Verdict:
        """A refusing verdict with the message filled in."""
        return Verdict(False, self.code, self.message.format(**params), self.rule, params)
