"""Optional features and the pip extra that installs each: one place for the "pip install" message.

A feature that needs a package outside the core dependencies imports it through `require`, which
turns a missing package into `MissingExtra` with the exact command to run; the CLI prints that
message instead of a traceback. tests/architecture/test_dependencies.py checks that every
third-party import is either a core dependency or reached this way (or behind an equivalent
ImportError handler that names the extra).
"""

from __future__ import annotations

import importlib
from types import ModuleType

# import name -> the extra of pyproject.toml [project.optional-dependencies] that installs it
EXTRAS: dict[str, str] = {
    "ray": "ray",
    "wordllama": "wordllama",
    "pyarrow": "parquet",
}


class MissingExtra(ImportError):
    """An optional feature's package is not installed; the message names the pip command."""


def install_hint(module: str) -> str:
    return f'pip install "automind[{EXTRAS[module.split(".")[0]]}]"'


def require(module: str, feature: str) -> ModuleType:
    """Import `module` for `feature` (how the user asked for it, e.g. "--ray"), or say how to install it."""
    top = module.split(".")[0]
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name is None or e.name.split(".")[0] != top:
            raise  # the package is there but one of its own dependencies is broken: show that as it is
        raise MissingExtra(
            f"{feature} needs the '{top}' package, not installed: {install_hint(top)}"
        ) from None
