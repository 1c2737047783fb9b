"""The layers point one way: tiles ← hand ← scoring ← engine ← bots ← server.

Every ``import`` statement (top level or inside a function: a lazy import is still
a dependency) is read from the source with ``ast``, so the test needs nothing to be
importable and names the file and line of a wrong-way import.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "src" / "twmahjong"

# layer -> packages above it that it must never import
FORBIDDEN = {
    "engine": ("bots", "server", "tui", "web", "commands", "cli", "env", "selfplay"),
    "bots": ("server", "tui", "web", "commands", "cli", "env", "selfplay"),
    "tiles": ("hand", "scoring", "settlement", "engine", "bots", "server", "tui", "commands"),
    "hand": ("scoring", "settlement", "engine", "bots", "server", "tui", "commands"),
    "scoring": ("engine", "bots", "server", "tui", "commands"),
    "settlement": ("engine", "bots", "server", "tui", "commands"),
    "profiles": ("engine", "bots", "server", "tui", "commands"),
    "env": ("server", "tui", "web", "commands", "cli"),
    "analysis": ("server", "tui", "web", "commands", "cli"),
    "coach": ("server", "tui", "web", "commands", "cli"),
}


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``path``."""
    mod = _module_name(path)
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.append((node.lineno, target))
            if not node.module:       # `from . import x` imports the submodule x
                out.extend((node.lineno, f"{target}.{a.name}") for a in node.names)
    return out


def _files(layer: str) -> list[Path]:
    d = PKG / layer
    if d.is_dir():
        return sorted(d.rglob("*.py"))
    f = PKG / f"{layer}.py"
    return [f] if f.exists() else []


def _violations(layer: str) -> list[str]:
    bad = []
    for f in _files(layer):
        for line, target in _imports(f):
            parts = target.split(".")
            if parts[0] == "twmahjong" and len(parts) > 1 and parts[1] in FORBIDDEN[layer]:
                bad.append(f"{f.relative_to(PKG.parent)}:{line} imports {target}")
    return bad


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_point_down(layer: str) -> None:
    assert _files(layer), f"layer {layer} has no source files; update FORBIDDEN"
    assert _violations(layer) == []


def test_engine_modules_import_no_cycle() -> None:
    """Within the engine, no two modules import each other (directly or in a ring)."""
    # the package's own __init__ only re-exports; a module reaching it is not a ring
    engine = {f: _module_name(f) for f in _files("engine") if f.name != "__init__.py"}
    names = set(engine.values())
    graph = {m: {t for _, t in _imports(f) if t in names and t != m} for f, m in engine.items()}
    seen: dict[str, int] = {}
    cycle: list[str] = []

    def visit(m: str, stack: list[str]) -> None:
        seen[m] = 1
        for n in sorted(graph[m]):
            if seen.get(n) == 1 and not cycle:
                cycle.extend(stack[stack.index(n):] + [m, n])
            elif n not in seen:
                visit(n, stack + [m])
        seen[m] = 2

    for m in sorted(graph):
        if m not in seen:
            visit(m, [])
    assert cycle == [], " -> ".join(cycle)


def test_the_walker_resolves_relative_imports() -> None:
    """The walker is not vacuous: ``from . import actions`` and ``from .rules import``
    in the engine resolve to the absolute modules the layer rules compare against."""
    found = [t for _, t in _imports(PKG / "engine" / "table.py")]
    assert "twmahjong.engine.actions" in found
    assert "twmahjong.engine.rules" in found
