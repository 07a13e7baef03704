"""The layout the docs draw is the layout of the code (DESIGN.md "Architecture", docs/kiosk.md):
packages import only downwards, the kiosk's own modules in the documented order, and no module
imports itself back through others. Imports under ``TYPE_CHECKING`` are types only, not counted.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "vision", "firmware_bridge", "hardware", "kiosk", "cafe", "bench")
MAY_IMPORT = {
    "engine": {"engine"},
    "firmware_bridge": {"firmware_bridge"},
    "hardware": {"hardware"},
    "vision": {"vision", "engine"},
    "kiosk": {"kiosk", "engine", "vision", "firmware_bridge", "hardware"},
    "cafe": {"cafe", "kiosk", "engine"},
    "bench": set(PACKAGES),
}
"""Which packages each package may import (DESIGN.md: arrows point down, nothing points back)."""
KIOSK_ORDER = (
    "errors", "stop_signals", "atomic", "mqtt.topics", "settings", "boxes", "copying", "seats",
    "words", "pairing", "store", "presenter", "packaway", "table", "leds", "timers", "speech",
    "campaigns", "mqtt", "loop", "simulation", "guard", "deps", "routers", "app", "rig", "commands",
    "cli",
)  # fmt: skip
"""The kiosk's modules from the bottom up, as docs/kiosk.md lists them."""


def modules() -> dict[str, Path]:
    """Every module of the project's packages by its dotted name."""
    found = {}
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            parts = path.relative_to(REPO).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imported(path: Path, types_too: bool = False) -> Iterator[str]:
    """The dotted names a module imports at run time (anywhere in it, not under TYPE_CHECKING):
    ``from p import x`` names ``p.x``, which resolves to the module ``p.x`` when there is one,
    else to ``p`` itself (``graph``); ``types_too``: the imports under TYPE_CHECKING as well."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = (
        set()
        if types_too
        else {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for inner in ast.walk(node)
        }
    )
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def graph(types_too: bool = False) -> dict[str, set[str]]:
    """Module -> the project's modules it imports (a name resolves to its longest module);
    ``types_too``: counting the imports made for type hints only."""
    known = modules()
    edges: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        for target in imported(path, types_too):
            parts = target.split(".")
            while parts and ".".join(parts) not in known:
                parts.pop()
            if parts and ".".join(parts) != name:
                edges[name].add(".".join(parts))
    return edges


def test_packages_import_only_downwards() -> None:
    upward = sorted(
        f"{source} imports {target}"
        for source, targets in graph().items()
        for target in targets
        if target.split(".")[0] not in MAY_IMPORT[source.split(".")[0]]
    )
    assert upward == []


def kiosk_layer(module: str) -> int | None:
    """Where a kiosk module stands in ``KIOSK_ORDER`` (the longest listed prefix)."""
    rest = module.removeprefix("kiosk.")
    matches = [u for u in KIOSK_ORDER if rest == u or rest.startswith(u + ".")]
    return KIOSK_ORDER.index(max(matches, key=len)) if matches else None


def test_the_kiosk_modules_import_in_the_documented_order() -> None:
    wrong = []
    for source, targets in graph().items():
        if not source.startswith("kiosk."):
            continue
        for target in targets:
            if not target.startswith("kiosk."):
                continue
            here, there = kiosk_layer(source), kiosk_layer(target)
            if here is not None and there is not None and there > here:
                wrong.append(f"{source} imports {target}")
    assert sorted(wrong) == []


def test_every_kiosk_module_has_its_place_in_the_order() -> None:
    unplaced = [m for m in graph() if m.startswith("kiosk.") and kiosk_layer(m) is None]
    assert unplaced == []


@pytest.mark.parametrize("types_too", [False, True], ids=["run time", "type hints too"])
def test_no_import_circle(types_too: bool) -> None:
    """No module imports itself back, not even for a type hint (the saved game and the save
    file once did: ``kiosk.store.saved`` names what it needs of the file as a Protocol)."""
    edges = graph(types_too)
    circles = []
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in edges[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    assert circles == []


def test_only_the_app_imports_the_routes() -> None:
    """The routes are leaves that only the app imports (DESIGN.md, "Architecture"): a value
    that a route and something below it share lives below both (the calibration's file is
    ``Settings.calibration_file``)."""
    wrong = [
        f"{source} imports {target}"
        for source, targets in graph(types_too=True).items()
        for target in targets
        if target.startswith("kiosk.routers")
        and not source.startswith("kiosk.routers")
        and source != "kiosk.app"
    ]
    assert wrong == []


def test_the_checks_see_imports() -> None:
    """The graph is not empty by mistake: a few imports known to exist are in it."""
    edges = graph()
    assert "kiosk.store" in edges["kiosk.table"]
    assert "engine.core.flow" in edges["engine.core.session"]
    assert any(t.startswith("kiosk.") for t in edges["cafe.overview"])
