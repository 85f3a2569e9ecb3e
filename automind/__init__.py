"""automind: solve Kaggle-style data-science tasks with a knowledgeable tree search, from Python or the CLI.

    import automind
    result = automind.solve("titanic", time_limit=600, llm=None)
    print(result.best_score, result.test_score, result.submission)

Names below are imported on first use (module `__getattr__`), so `import automind` and
`automind --help` load nothing heavy (no pandas, torch, chromadb or sklearn until a call needs them).
"""

from __future__ import annotations

import importlib
from typing import Any

# public name -> the module that defines it
_LAZY = {
    "solve": "automind.api",
    "resume": "automind.api",
    "tips": "automind.api",
    "SolveResult": "automind.api",
    "KnowledgeBase": "automind.retrieval",
    "Task": "automind.task",
    "RunError": "automind.run",
    "TaskError": "automind.task",
    "ConfigError": "automind.config",
}

__all__ = [*_LAZY, "__version__"]


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("automind")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0+unknown"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        return _version()
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'automind' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
