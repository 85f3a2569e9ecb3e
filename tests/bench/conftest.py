"""Helpers for the bench scripts' tests: load a script as a module, make a small task, write a submission
that is wrong on chosen rows."""

from __future__ import annotations

import importlib.util
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd
import pytest

from automind.prepare import prepare_task
from automind.task import Task

ROOT = Path(__file__).resolve().parents[2]


def load_bench(name: str) -> ModuleType:
    """bench/<name>.py as a module (its folder on the path, as when python runs the script)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look the module up by name
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "bench"))


def make_task(root: Path, name: str, metric: str, n: int = 2000) -> Task:
    """A two-column task: random x; y two labels for accuracy, normal values otherwise (a fifth is test)."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))  # str hash() differs between processes
    y = rng.choice(["a", "b"], n) if metric == "accuracy" else rng.normal(size=n)
    frame = pd.DataFrame({"x": rng.random(n), "y": y})
    return Task.load(prepare_task(frame, root / name, "y", metric))


def with_errors(task: Task, path: Path, share: float, start: int = 0) -> Path:
    """The answers with `share` of the rows, from row `start` on, made wrong (labels flipped, values shifted)."""
    ans = pd.read_csv(task.answers_path)
    rows = ans.index[start : start + int(share * len(ans))]
    if ans["y"].dtype == object:
        ans.loc[rows, "y"] = ans.loc[rows, "y"].map({"a": "b", "b": "a"})
    else:
        ans.loc[rows, "y"] += 1.0
    path.parent.mkdir(parents=True, exist_ok=True)
    ans.to_csv(path, index=False)
    return path


def two_close(task: Task, folder: Path, flip: bool = False) -> tuple[Path, Path]:
    """Two submissions 6 test rows apart (18 discordant rows of 400): too close to tell apart on one task."""
    a = with_errors(task, folder / "a.csv", 0.20)  # wrong on rows 0-79
    b = with_errors(task, folder / "b.csv", 0.215, start=6)  # wrong on rows 6-91
    return (b, a) if flip else (a, b)


@pytest.fixture(scope="session")
def bench() -> Callable[[str], ModuleType]:
    return load_bench


@pytest.fixture(scope="session")
def toy_task() -> Callable[..., Task]:
    return make_task


@pytest.fixture(scope="session")
def wrong_on() -> Callable[..., Path]:
    return with_errors


@pytest.fixture(scope="session")
def slightly_better() -> Callable[..., tuple[Path, Path]]:
    return two_close
