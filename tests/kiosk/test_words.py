"""The pages' words come from the server's catalogue (``kiosk/words.py``), and every key a page
uses is there, in both languages (no browser needed: the scripts and templates are read).

A key is used as ``t("key")`` / ``Kiosk.t("key")`` (either branch of ``t(c ? "a" : "b")``),
``data-t="key"`` (and a page's ``{% block heading %}key{% endblock %}``), or built from a
variable: ``t(link.state)``, ``t(`die_${die.name}`)``…; those are checked for each value the
variable can take, which the project's Python names (:data:`DYNAMIC`). A use the test cannot
read fails it, so that a new kind of key cannot slip past."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from serving import asgi_call as call

from engine.core import Text
from kiosk.words import LANGUAGES, WORDS, page_words

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "kiosk" / "static"
TEMPLATES = ROOT / "kiosk" / "templates"

CALL = re.compile(r"(?<![\w$.])(?:Kiosk\.)?t\(")
STRING = re.compile(r'"([^"\\]*)"|\'([^\'\\]*)\'')
TEMPLATE = re.compile(r"^`(\w*)\$\{([^}]*)\}`$")
DATA_T = re.compile(r'data-t="([^"]*)"|"data-t":\s*"([^"]*)"')
HEADING = re.compile(r"\{%\s*block heading\s*%\}(.*?)\{%\s*endblock\s*%\}")


def _python_literals(pattern: str, *paths: str) -> set[str]:
    """The strings ``pattern``'s group 1 matches in the project's Python files under ``paths``."""
    found: set[str] = set()
    for path in paths:
        for file in sorted((ROOT / path).rglob("*.py")):
            found |= set(re.findall(pattern, file.read_text()))
    return found


def link_states() -> set[str]:
    """Every state a link is set to: ``set_link(name, "state", …)`` literals, and the loop's
    ``"simulated" if … else "not_connected"``."""
    states = _python_literals(r'set_link\(\s*"\w+",\s*"(\w+)"', "kiosk")
    states |= _python_literals(r'"(\w+)" if self\.simulated else "\w+"', "kiosk")
    states |= _python_literals(r'"\w+" if self\.simulated else "(\w+)"', "kiosk")
    states |= _python_literals(r'state, detail = "(\w+)"', "kiosk")
    states.add("not_connected")  # the pages' own default for a link not reported yet
    return states


def die_names() -> set[str]:
    """The dice the games announce: ``DicePoolAnnounced(seat, ("monster",) …)`` literals."""
    return _python_literals(r'DicePoolAnnounced\([^()]*\(\s*"(\w+)",', "engine")


def track_kinds() -> set[str]:
    """What a round-track LED stands for (``kiosk.leds``'s roles), and the legend's columns."""
    kinds = set(re.findall(r'"kind":\s*"(\w+)"', (ROOT / "kiosk" / "leds.py").read_text()))
    kinds |= set(re.findall(r'column\("(\w+)"', (STATIC / "tray.js").read_text()))
    return kinds


def accents() -> set[str]:
    """Day and night, as the LEDs colour them (``kiosk.leds.ACCENT_COLOURS``)."""
    from kiosk.leds import ACCENT_COLOURS

    return set(ACCENT_COLOURS)


DYNAMIC = {
    # (file, the expression passed to t) → the keys it can be
    ("table.js", "name"): lambda: set(
        re.findall(r'"(\w+)"', re.search(r"for \(const name of \[([^\]]*)\]", _js("table.js"))[1])
    ),
    ("table.js", "link.state"): link_states,
    ("camera.js", "cam.link.state"): link_states,
    ("camera.js", "VERDICT[state]"): lambda: set(
        re.findall(r'"(\w+)"', re.search(r"const VERDICT = \{([^}]*)\}", _js("camera.js"))[1])
    ),
    ("setup.js", "cam.link.state"): link_states,
    ("tray.js", "tray.link.state"): link_states,
    ("setup.js", "STEP_WORD[STEPS[at + 1]]"): lambda: set(
        re.findall(r'"(\w+)"', re.search(r"const STEP_WORD = \{([^}]*)\}", _js("setup.js"))[1])
    ),
    ("tray.js", "`die_${die.name}`"): lambda: {f"die_{n}" for n in die_names()},
    ("tray.js", "`accent_${r.accent}`"): lambda: {f"accent_{a}" for a in accents()},
    ("tray.js", "`group_${key}`"): lambda: {f"group_{k}" for k in track_kinds()},
    ("tray.js", "`group_${run.kind}`"): lambda: {f"group_{k}" for k in track_kinds()},
}
"""The keys built from a variable, with the values the variable can take."""

DEFINITIONS = {
    ("common.js", "key"),  # Kiosk.t itself
    ("common.js", "node.dataset.t"),  # the data-t attributes: read from the templates
    ("tray.js", "key"),  # tray.js's own t = (key, params) => Kiosk.t(key, params)
}


def _js(name: str) -> str:
    return (STATIC / name).read_text()


def first_argument(text: str, start: int) -> str:
    """The source of the call's first argument, from just after its ``(``."""
    depth, i, quote = 0, start, ""
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'`":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            break
        i += 1
    return text[start:i].strip()


def used_keys() -> tuple[dict[str, set[str]], list[str]]:
    """Each key the pages use → where; and the uses the test cannot read."""
    used: dict[str, set[str]] = {}
    unread: list[str] = []

    def use(key: str, where: str) -> None:
        used.setdefault(key, set()).add(where)

    for path in sorted(STATIC.glob("*.js")):
        text = path.read_text()
        for match in CALL.finditer(text):
            arg = first_argument(text, match.end())
            where = f"{path.name}: t({arg})"
            literal = STRING.fullmatch(arg)
            if literal:
                use(literal[1] if literal[1] is not None else literal[2], where)
            elif (path.name, arg) in DYNAMIC:
                for key in DYNAMIC[path.name, arg]():
                    use(key, where)
            elif (path.name, arg) in DEFINITIONS:
                continue
            elif "?" in arg and ":" in arg and STRING.search(arg):  # c ? "a" : "b"
                for a, b in STRING.findall(arg):
                    use(a or b, where)
            else:
                unread.append(where)
        for a, b in DATA_T.findall(text):
            use(a or b, f"{path.name}: data-t")
    for path in sorted(TEMPLATES.glob("*.html")):
        text = path.read_text()
        for key in HEADING.findall(text):
            if key.strip():  # base.html's own block is empty: each page fills it
                use(key.strip(), f"{path.name}: heading")
        for a, b in DATA_T.findall(text):
            if "{%" not in a:
                use(a or b, f"{path.name}: data-t")
    return used, unread


def test_the_scan_finds_the_pages_words_and_every_kind_of_use() -> None:
    used, unread = used_keys()
    assert unread == [], f"uses of t() whose keys the test cannot tell: {unread}"
    for key in ("round", "undo", "tray", "toAct", "mayAct", "lost", "die_monster", "die_d6"):
        assert key in used, key  # a literal, a data-t, a heading, a ternary, a dynamic key
    assert {"accent_day", "accent_night", "group_round", "group_unused"} <= set(used)
    camera = {key for key, where in used.items() if any(w.startswith("camera.js") for w in where)}
    assert {"healthHeading", "healthNone", "healthAllGood", "healthBits"} <= camera
    assert {"healthWeak", "healthGood", "healthWatching"} <= camera  # VERDICT[state]
    assert {"ok", "simulated", "lost", "not_connected"} <= link_states()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_the_pages_use_is_in_the_catalogue(lang: str) -> None:
    used, _ = used_keys()
    words = page_words()[lang]
    missing = {key: sorted(where) for key, where in used.items() if not words.get(key)}
    assert missing == {}, f"keys the pages use that kiosk/words.py lacks in {lang}: {missing}"


def test_no_entry_of_the_catalogue_is_empty_and_both_languages_name_the_same_fields() -> None:
    for key, text in WORDS.items():
        assert isinstance(text, Text), key
        assert text.zh.strip() and text.en.strip(), key
        fields = [set(re.findall(r"\{(\w+)\}", s)) for s in (text.zh, text.en)]
        assert fields[0] == fields[1], key


def test_the_pages_keep_no_word_list_of_their_own_and_never_show_a_missing_key() -> None:
    common = _js("common.js")
    assert "?? key" not in common and "|| key" not in common
    assert re.search(r'const WORDS = JSON\.parse\(document\.getElementById\("words"\)', common)
    for path in sorted(STATIC.glob("*.js")):
        text = path.read_text()
        assert not re.search(r"\b(zh|en):\s*\{", text), f"{path.name} keeps words of its own"


def test_every_page_carries_the_servers_catalogue(tmp_path: Path) -> None:
    from kiosk.app import create_app
    from kiosk.routers.pages import PAGES
    from kiosk.settings import load_settings
    from kiosk.table import open_table

    settings = load_settings(data_dir=tmp_path, lang="en")
    table, store = open_table(settings)
    try:
        app = create_app(settings, table)
        for path in PAGES:
            html = call(app, "GET", path).text
            found = re.search(r'<script id="words" type="application/json">(.*?)</script>', html)
            assert found, path
            assert json.loads(found[1]) == page_words(), path
    finally:
        store.close()
