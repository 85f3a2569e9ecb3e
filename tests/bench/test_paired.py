"""bench/paired.py: the paired bootstrap that says whether a graded difference is more than a few lucky rows."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from automind.prepare import prepare_task
from automind.task import Task

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def paired():
    spec = importlib.util.spec_from_file_location("paired", ROOT / "bench" / "paired.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["paired"] = module  # dataclasses look the module up by name
    spec.loader.exec_module(module)
    return module


def _task(tmp_path: Path, metric: str, n: int = 400) -> Task:
    rng = np.random.default_rng(0)
    y = rng.choice(["a", "b"], n) if metric == "accuracy" else rng.normal(size=n)
    frame = pd.DataFrame({"x": rng.random(n), "y": y})
    return Task.load(prepare_task(frame, tmp_path / metric, "y", metric))


def _with_errors(task: Task, path: Path, share: float, start: int = 0) -> Path:
    """The answers with `share` of the rows, from row `start` on, made wrong (labels flipped, values shifted)."""
    ans = pd.read_csv(task.answers_path)
    rows = ans.index[start : start + int(share * len(ans))]
    if ans["y"].dtype == object:
        ans.loc[rows, "y"] = ans.loc[rows, "y"].map({"a": "b", "b": "a"})
    else:
        ans.loc[rows, "y"] += 1.0
    ans.to_csv(path, index=False)
    return path


@pytest.mark.parametrize("metric", ["accuracy", "rmse"])
def test_a_clear_difference_is_signed_by_the_metric_direction_and_excludes_zero(paired, tmp_path, metric):
    task = _task(tmp_path, metric)
    good, bad = _with_errors(task, tmp_path / "g.csv", 0.05), _with_errors(task, tmp_path / "b.csv", 0.4)
    gain = paired.paired_gain(task, good, bad, resamples=200)
    assert gain.value > 0 and 0 < gain.low <= gain.value <= gain.high and gain.rows == len(pd.read_csv(good))
    back = paired.paired_gain(task, bad, good, resamples=200)
    assert back.value == pytest.approx(-gain.value) and back.high < 0
    assert str(gain).endswith("*")


def test_a_difference_of_a_few_rows_is_within_the_noise(paired, tmp_path):
    task = _task(tmp_path, "accuracy", n=2000)  # 400 test rows
    # a is wrong on rows 0-79, b on rows 10-93: each is right where the other is wrong on some rows
    a, b = (
        _with_errors(task, tmp_path / "a.csv", 0.20),
        _with_errors(task, tmp_path / "b.csv", 0.21, start=10),
    )
    gain = paired.paired_gain(task, a, b, resamples=300)
    assert (
        gain.value == pytest.approx(4 / 400) and gain.low <= 0.0 <= gain.high and not str(gain).endswith("*")
    )
    same = paired.paired_gain(task, a, a, resamples=50)
    assert (same.value, same.low, same.high) == (0.0, 0.0, 0.0)
