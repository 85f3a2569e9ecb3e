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


def test_data_files_are_shipped_from_their_own_listed_package():
    """A package-data glob into a subfolder ("labels/*.yaml") makes setuptools warn that the folder is not a
    listed package, and later setuptools versions drop such files from the wheel: every data folder is a
    listed package of its own, and every glob matches files."""
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders, listed = setup["package-dir"], set(setup["packages"])

    def folder_of(pkg: str) -> Path:
        """The source folder of a package: its nearest mapped parent's folder plus the rest of its name."""
        base = max((p for p in folders if pkg == p or pkg.startswith(f"{p}.")), key=len)
        return ROOT / folders[base] / Path(*pkg[len(base) :].split(".")[1:])

    for pkg, globs in setup["package-data"].items():
        assert pkg in listed, f"package-data for {pkg}, which is not in packages"
        for pattern in globs:
            assert "/" not in pattern, (
                f"{pkg}: {pattern!r} reaches into a subfolder; list that folder as a package"
            )
            assert list(folder_of(pkg).glob(pattern)), f"{pkg}: {pattern!r} matches no file"
