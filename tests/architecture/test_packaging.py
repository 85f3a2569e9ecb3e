"""Every Python package of the project is listed in pyproject's `packages`: a forgotten one works in an
editable install (the source tree is on the path) and is missing from a wheel (`pip install .`)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_with_code_is_shipped():
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed, folders = set(setup["packages"]), setup["package-dir"]  # package -> folder, as installed
    found = set()
    for pkg, folder in folders.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder).parts
            name = ".".join((pkg, *rel))
            if not any(
                name.startswith(f"{other}.") for other in folders if other != pkg and len(other) > len(pkg)
            ):
                found.add(name)  # a folder mapped to a package of its own is counted there
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
