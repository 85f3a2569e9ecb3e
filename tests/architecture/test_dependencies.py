"""Every third-party import of the shipped code is declared in pyproject.toml, or optional with a clear message.

Read with `ast` from automind/, ingest/, retrieval/ and search/: a package imported anywhere must be a
core dependency, or belong to an extra and be imported only inside functions, either through
`automind.extras.require` or under an ImportError handler whose message names `automind[EXTRA]`.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from dataclasses import dataclass
from importlib.metadata import packages_distributions
from pathlib import Path

from automind.extras import EXTRAS

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("automind", "ingest", "retrieval", "search")
FIRST_PARTY = {"automind"}
# import name -> distribution, for packages that may not be installed here
KNOWN_DISTRIBUTIONS = {
    "pyarrow": "pyarrow",
    "llama_cpp": "llama-cpp-python",
    "ray": "ray",
    "wordllama": "wordllama",
}
# imports that are neither: each with the reason
EXEMPT = {
    (
        "llama_cpp",
        "automind/commands/llm.py",
    ): "`automind llm local` builds llama-cpp-python itself (CPU flags)",
    # the kscale branch moves this import into automind/embedders.py with its pip message (issue 17);
    # delete this line once that branch is merged
    ("wordllama", "automind/store.py"): "pending: kscale adds the automind[wordllama] message",
}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_name(req: str) -> str:
    return _norm(re.split(r"[\s<>=!~;\[]", req.strip(), maxsplit=1)[0])


def declared() -> tuple[set[str], dict[str, set[str]]]:
    """(core distributions, extra -> its distributions), normalised."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = {_requirement_name(r) for r in project["dependencies"]}
    extras = {
        k: {_requirement_name(r) for r in v} for k, v in project.get("optional-dependencies", {}).items()
    }
    return core, extras


@dataclass(frozen=True)
class Use:
    module: str  # top-level import name
    path: str  # file, relative to the repository
    line: int
    in_function: bool
    guarded_extra: str | None  # the extra a require() call or an ImportError handler names


def _handler_extra(try_node: ast.Try, source: str) -> str | None:
    for h in try_node.handlers:
        names = [h.type] if not isinstance(h.type, ast.Tuple) else list(h.type.elts)
        if any(isinstance(n, ast.Name) and n.id in ("ImportError", "ModuleNotFoundError") for n in names):
            found = re.search(r"automind\[([\w-]+)\]", ast.get_source_segment(source, h) or "")
            if found:
                return found.group(1)
    return None


def uses() -> list[Use]:
    out: list[Use] = []
    stdlib = set(sys.stdlib_module_names)
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            source = path.read_text(encoding="utf-8")
            rel = path.relative_to(ROOT).as_posix()

            def visit(node: ast.AST, in_function: bool, extra: str | None, rel=rel, source=source) -> None:
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                    in_function = True
                if isinstance(node, ast.Try):
                    guarded = _handler_extra(node, source) or extra
                    for child in node.body:
                        visit(child, in_function, guarded)
                    for child in [*node.handlers, *node.orelse, *node.finalbody]:
                        visit(child, in_function, extra)
                    return
                names: list[tuple[str, str | None]] = []
                if isinstance(node, ast.Import):
                    names = [(a.name, extra) for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [(node.module, extra)]
                elif (
                    isinstance(node, ast.Call)
                    and getattr(node.func, "id", getattr(node.func, "attr", None)) == "require"
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                ):
                    top = node.args[0].value.split(".")[0]
                    names = [(node.args[0].value, EXTRAS.get(top))]
                for name, guard in names:
                    top = name.split(".")[0]
                    if top not in stdlib and top not in FIRST_PARTY:
                        out.append(Use(top, rel, node.lineno, in_function, guard))
                for child in ast.iter_child_nodes(node):
                    visit(child, in_function, extra)

            visit(ast.parse(source), False, None)
    return out


def problems() -> list[str]:
    core, extras = declared()
    optional = {name: dists for name, dists in extras.items() if name != "dev"}
    dists = packages_distributions()
    found = []
    for u in uses():
        if (u.module, u.path) in EXEMPT:
            continue
        dist = _norm((dists.get(u.module) or [KNOWN_DISTRIBUTIONS.get(u.module, u.module)])[0])
        if dist in core:
            continue
        where = f"{u.path}:{u.line}: {u.module} ({dist})"
        homes = [name for name, members in optional.items() if dist in members]
        if not homes:
            found.append(f"{where} is not declared: add it to [project] dependencies or an extra")
        elif not u.in_function:
            found.append(f"{where} is optional (extra {homes[0]}) but imported at module level")
        elif u.guarded_extra not in homes:
            found.append(
                f"{where} is optional: import it with automind.extras.require or under an ImportError "
                f'handler that says pip install "automind[{homes[0]}]"'
            )
    return found


def test_every_third_party_import_is_declared_or_an_extra_with_a_message():
    assert len(uses()) > 50  # the walk sees the code
    assert problems() == []


def test_extras_registry_matches_pyproject():
    _, extras = declared()
    for module, extra in EXTRAS.items():
        assert extra in extras, f"automind.extras names extra {extra!r}, which pyproject.toml lacks"
        assert _norm(KNOWN_DISTRIBUTIONS.get(module, module)) in extras[extra]


def test_the_check_catches_undeclared_and_unguarded_imports(tmp_path, monkeypatch):
    pkg = tmp_path / "automind"
    pkg.mkdir()
    (pkg / "m.py").write_text(
        "import yaml\nimport notdeclared\n"
        "def f():\n    import ray\n"
        "def g():\n    try:\n        import ray\n    except ImportError:\n"
        "        raise SystemExit('pip install \"automind[ray]\"')\n"
        "def h():\n    require('ray', '--ray')\n"
    )
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\ndependencies = ["pyyaml"]\n[project.optional-dependencies]\nray = ["ray"]\n'
    )
    for folder in FOLDERS[1:]:
        (tmp_path / folder).mkdir()
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    found = problems()
    assert len(found) == 2, found
    assert "automind/m.py:2: notdeclared" in found[0] and "not declared" in found[0]
    assert "automind/m.py:4: ray" in found[1] and "automind[ray]" in found[1]


def test_missing_extra_message(monkeypatch):
    from automind.extras import MissingExtra, require

    monkeypatch.setitem(sys.modules, "ray", None)  # what Python does for a package that is not there
    try:
        require("ray", "--ray")
    except MissingExtra as e:
        assert str(e) == "--ray needs the 'ray' package, not installed: pip install \"automind[ray]\""
    else:
        raise AssertionError("no MissingExtra")
