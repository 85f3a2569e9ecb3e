"""No import cycles, and the roles protocol depends on nothing: checked on the source and in a fresh interpreter.

The graph is read with `ast` from every module the package ships: run-time imports, lazy ones inside
functions included, `if TYPE_CHECKING:` imports left out (they never run).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# package name -> folder, as pyproject.toml maps them
PACKAGES = {
    "automind": ROOT / "automind",
    "automind.ingest": ROOT / "ingest",
    "automind.retrieval": ROOT / "retrieval",
    "automind.search": ROOT / "search",
    "automind.knowledge": ROOT / "knowledge",
}


def modules() -> dict[str, Path]:
    """Every module of the project by dotted name (a package is its __init__.py)."""
    out: dict[str, Path] = {}
    for pkg, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            rel = path.relative_to(folder).with_suffix("").parts
            if rel[-1] == "__init__":
                rel = rel[:-1]
            out[".".join((pkg, *rel))] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, name: str, is_pkg: bool, known: dict[str, Path]) -> list[str]:
    """Dotted targets of every import statement that runs at some point (not under TYPE_CHECKING)."""
    found: list[str] = []
    package = name if is_pkg else name.rpartition(".")[0]

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, *([base] if base else [])])
            for alias in node.names:  # `from pkg import module` imports the module, else names from pkg
                sub = f"{base}.{alias.name}"
                found.append(sub if sub in known else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def graph() -> dict[str, set[str]]:
    """module -> project modules it imports."""
    mods = modules()
    out: dict[str, set[str]] = {}
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        targets = _imports(tree, name, path.name == "__init__.py", mods)
        out[name] = {t for t in targets if t in mods and t != name}
    return out


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in g.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            strong(v)
    return found


# -- the tests -------------------------------------------------------------------------------------


def test_the_project_has_no_import_cycles():
    g = graph()
    assert len(g) > 50 and "automind.llm.client" in g["automind.llm.replay"]  # the walk sees the code
    assert cycles(g) == []


def test_the_roles_protocol_imports_nothing_from_the_project():
    assert graph()["automind.roles"] == set()
    code = "import json, sys, automind.roles; print(json.dumps(sorted(m for m in sys.modules if m.startswith('automind'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert json.loads(out.stdout) == ["automind", "automind.roles"]


def test_the_check_finds_cycles_and_skips_type_checking_imports():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    source = (
        "from typing import TYPE_CHECKING\n"
        "from automind import errors\n"
        "if TYPE_CHECKING:\n    from automind.llm import client\n"
        "def f():\n    from . import roles\n"
    )
    known = {"automind": ROOT, "automind.errors": ROOT, "automind.llm.client": ROOT, "automind.roles": ROOT}
    assert _imports(ast.parse(source), "automind.run", False, known) == [
        "typing",
        "automind.errors",
        "automind.roles",
    ]
