"""The package layering of DESIGN.md "Layout", checked on the source with ``ast``.

Layers, bottom to top (a module may import its own layer and the layers below it, never one
above)::

    ir < text < dialects < bytecode < execute < passes < frontends < tools < cli < (top)

``passes`` sits above ``execute`` because constant folding reuses the executor's bit-exact
numerics.  ``tools`` holds developer tools over the whole stack (the round-trip checker and
fuzzer).  The top is ``tileir/__init__.py`` (the public API), ``tileir/__main__.py`` and the
``tileir.cutile`` / ``tileir.tinytc`` / ``tileir.gpu`` aliases; no layer may import it except ``cli``, the
application built on the public API (``import tileir`` in a command), which the top never
imports at module level.

Within ``dialects``: ``builtin`` imports no other dialect, and the imports between dialect
packages form no cycle (so a dialect can build on another, e.g. gpu on builtin and arith).

Every import counts: module level, inside functions, under ``if TYPE_CHECKING``, absolute and
relative, ``import a.b`` and ``from a import b`` (where ``b`` is a submodule, the submodule).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterator, Optional

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "tileir"

LAYERS = ("ir", "text", "dialects", "bytecode", "execute", "passes", "frontends", "tools", "cli")
TOP = len(LAYERS)
#: Modules directly in ``tileir/`` that form the top (public API, entry point, aliases).
TOP_MODULES = {"tileir", "tileir.__main__", "tileir.cutile", "tileir.tinytc", "tileir.gpu"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


MODULES = _modules()


def _resolve(base: str, name: str) -> str:
    """``from base import name``: the submodule ``base.name`` when it exists, else ``base``."""
    candidate = f"{base}.{name}"
    if candidate in MODULES or (base == "tileir" and name in LAYERS):
        return candidate
    return base


def imports_of(module: str, path: Path) -> Iterator[tuple[str, int]]:
    """(imported tileir module, line) for every import statement anywhere in ``path``."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "tileir" or alias.name.startswith("tileir."):
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                if node.level > len(parts):
                    yield f"<relative import above the tileir package: {node.level} dots>", node.lineno
                    continue
                base_parts = parts[: len(parts) - node.level + 1]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base != "tileir" and not base.startswith("tileir."):
                continue
            for alias in node.names:
                yield _resolve(base, alias.name), node.lineno


def layer_of(module: str) -> Optional[int]:
    """The layer index of a tileir module (``TOP`` for the top), None if it belongs to none
    (and above everything: an import the checker cannot place is reported)."""
    if module.startswith("<"):
        return TOP + 1
    if module in TOP_MODULES:
        return TOP
    parts = module.split(".")
    if len(parts) >= 2 and parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    return None


def dialect_of(module: str) -> Optional[str]:
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] == "dialects":
        return parts[2]
    return None


def test_the_top_does_not_import_the_cli_at_module_level():
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "cli":
            pytest.fail(f"tileir/__init__.py:{node.lineno} imports the cli")


def _layer_name(index: int) -> str:
    return "top (tileir/__init__.py)" if index == TOP else LAYERS[index]


def test_every_module_belongs_to_a_layer():
    stray = [m for m in MODULES if layer_of(m) is None]
    assert not stray, f"modules outside every layer (move them into one of {LAYERS}): {stray}"


def test_no_layer_imports_a_layer_above_it():
    problems = []
    for module, path in MODULES.items():
        own = layer_of(module)
        if own is None or own == TOP:
            continue
        for target, line in imports_of(module, path):
            other = layer_of(target)
            if other is None:
                continue  # reported by test_every_module_belongs_to_a_layer
            if other == TOP + 1:
                problems.append(f"{path.relative_to(SRC)}:{line}: {module}: {target}")
                continue
            if other == TOP and own == LAYERS.index("cli"):
                continue
            if other > own:
                problems.append(f"{path.relative_to(SRC)}:{line}: {module} ({_layer_name(own)}) "
                                f"imports {target} ({_layer_name(other)})")
    problems = sorted(set(problems))
    assert not problems, "imports against the layering:\n" + "\n".join(problems)


def dialect_graph() -> dict[str, set[str]]:
    """dialect -> the other dialects its modules import."""
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        own = dialect_of(module)
        if own is None:
            continue
        graph.setdefault(own, set())
        for target, _ in imports_of(module, path):
            other = dialect_of(target)
            if other is not None and other != own:
                graph[own].add(other)
    return graph


def test_builtin_dialect_imports_no_other_dialect():
    assert dialect_graph().get("builtin", set()) == set()


def test_dialects_import_each_other_without_cycles():
    graph = dialect_graph()
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                pytest.fail("dialect import cycle: " + " -> ".join(trail + [node, nxt]))
            if nxt not in state:
                visit(nxt, trail + [node])
        state[node] = 2

    for dialect in sorted(graph):
        if dialect not in state:
            visit(dialect, [])


@pytest.mark.parametrize("source, module, expected", [
    ("from ..dialects.cuda_tile import types\n", "tileir.text.parser",
     "tileir.dialects.cuda_tile.types"),
    ("def f():\n    from ..text import parser\n", "tileir.ir.core", "tileir.text.parser"),
    ("import tileir.execute.plan as p\n", "tileir.ir.core", "tileir.execute.plan"),
    ("from tileir import execute\n", "tileir.ir.core", "tileir.execute"),
    ("if False:\n    from .. import passes\n", "tileir.execute.plan", "tileir.passes"),
    ("from .... import x\n", "tileir.ir.core", "<relative import above the tileir package: 4 dots>"),
])
def test_checker_sees_every_import_form(tmp_path, source, module, expected):
    """The checker itself: function-level, relative, absolute, ``from pkg import sub`` and
    relative imports that leave the package are all seen and placed above ``module``."""
    path = tmp_path / "m.py"
    path.write_text(source)
    found = [target for target, _ in imports_of(module, path)]
    assert found == [expected]
    assert layer_of(found[0]) > layer_of(module)
