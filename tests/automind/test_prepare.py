"""prepare_task: layout, seeded stratified split, sample submissions that grade, refusal to overwrite."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import yaml

from automind.grading import grade
from automind.prepare import PrepareError, prepare_task
from automind.task import Task


def _imbalanced(n=200, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.1, "rare", "common")
    return pd.DataFrame({"f": rng.random(n), "g": rng.integers(0, 5, n), "y": y})


def test_layout_and_no_leak(tmp_path):
    out = prepare_task(_imbalanced(), tmp_path / "t", "y", "accuracy", test_size=0.25)
    train, test = pd.read_csv(out / "public/train.csv"), pd.read_csv(out / "public/test.csv")
    answers = pd.read_csv(out / "private/answers.csv")
    assert "y" in train.columns and "y" not in test.columns
    assert list(answers.columns) == ["id", "y"] and len(test) == 50 and len(train) == 150
    assert set(test.id) == set(answers.id) and not set(test.id) & set(train.id)
    spec = yaml.safe_load((out / "task.yaml").read_text())
    assert (
        spec["metric"]["name"] == "accuracy"
        and spec["id_column"] == "id"
        and spec["problem_type"] == "binary"
    )
    desc = (out / "description.md").read_text()
    assert "`y`" in desc and "accuracy" in desc and "sample_submission.csv" in desc
    task = Task.load(out)
    assert task.answers_path is not None
    assert grade(task, out / "public/sample_submission.csv").valid


def test_stratified_and_seeded(tmp_path):
    df = _imbalanced(400)
    rates = []
    for seed in (0, 1, 2):
        out = prepare_task(df, tmp_path / f"s{seed}", "y", "f1", seed=seed)
        ans = pd.read_csv(out / "private/answers.csv")
        rates.append((ans.y == "rare").mean())
    overall = (df.y == "rare").mean()
    assert all(abs(r - overall) <= 1 / 80 for r in rates)  # stratified: within one row of the overall rate
    again = prepare_task(df, tmp_path / "again", "y", "f1", seed=1)
    a1 = pd.read_csv(tmp_path / "s1/private/answers.csv")
    assert a1.equals(pd.read_csv(again / "private/answers.csv"))
    assert not a1.equals(pd.read_csv(tmp_path / "s0/private/answers.csv"))


def test_refuses_non_empty_dir_without_force(tmp_path):
    out = tmp_path / "t"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    with pytest.raises(PrepareError, match="--force"):
        prepare_task(_imbalanced(), out, "y", "accuracy")
    assert not (out / "public").exists()
    prepare_task(_imbalanced(), out, "y", "accuracy", force=True)
    assert (out / "keep.txt").read_text() == "mine" and (out / "task.yaml").is_file()


def test_bad_arguments_name_the_columns(tmp_path):
    df = _imbalanced()
    with pytest.raises(PrepareError, match="Available columns: f, g, y"):
        prepare_task(df, tmp_path / "a", "nope", "accuracy")
    with pytest.raises(PrepareError, match="id column 'zz'"):
        prepare_task(df, tmp_path / "b", "y", "accuracy", id_col="zz")
    with pytest.raises(ValueError, match="Known metrics"):
        prepare_task(df, tmp_path / "c", "y", "not-a-metric")
    assert not (tmp_path / "a").exists() and not (tmp_path / "c").exists()


def test_regression_metric_on_text_target_is_a_clear_error(tmp_path):
    df = pd.DataFrame({"f": range(20), "y": ["cat", "dog"] * 10})
    with pytest.raises(PrepareError, match="target 'y' has non-numeric values"):
        prepare_task(df, tmp_path / "r", "y", "rmse")
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize(
    ("metric", "cols", "problem"),
    [("roc_auc", ["id", "y"], "binary"), ("log_loss", ["id", "y"], "binary"),
     ("map@2", ["id", "y"], "binary")],
)  # fmt: skip
def test_sample_submission_shapes(tmp_path, metric, cols, problem):
    df = _imbalanced()
    out = prepare_task(df, tmp_path / "t", "y", metric)
    sample = pd.read_csv(out / "public/sample_submission.csv")
    spec = yaml.safe_load((out / "task.yaml").read_text())
    assert list(sample.columns) == cols and spec["problem_type"] == problem
    report = grade(Task.load(out), out / "public/sample_submission.csv")
    assert report.valid, report.error
    if metric == "roc_auc":
        assert report.score == 0.5 and spec["metric"]["params"]["pos_label"] == "rare"
        assert sample.y.iloc[0] == pytest.approx(
            (pd.read_csv(out / "public/train.csv").y == "rare").mean(), abs=1e-6
        )


def test_regression_and_given_id(tmp_path):
    rng = np.random.default_rng(0)
    df = pd.DataFrame(
        {"key": [f"r{i}" for i in range(100)], "x": rng.random(100), "price": rng.random(100) * 1000}
    )
    out = prepare_task(df, tmp_path / "r", "price", "rmse", id_col="key")
    sample = pd.read_csv(out / "public/sample_submission.csv")
    train = pd.read_csv(out / "public/train.csv")
    assert list(sample.columns) == ["key", "price"] and sample.price.iloc[0] == pytest.approx(
        train.price.mean()
    )
    assert yaml.safe_load((out / "task.yaml").read_text())["problem_type"] == "regression"
    assert "id" not in train.columns
    with pytest.raises(PrepareError, match="duplicates"):
        prepare_task(df.assign(key="same"), tmp_path / "d", "price", "rmse", id_col="key")


def test_multiclass_probability_columns(tmp_path):
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.random(90), "c": rng.choice([3, 1, 2], 90)})
    out = prepare_task(df, tmp_path / "m", "c", "multi-class-log-loss")
    sample = pd.read_csv(out / "public/sample_submission.csv")
    assert list(sample.columns) == ["id", "1", "2", "3"]
    assert sample.iloc[0, 1:].sum() == pytest.approx(1.0, abs=1e-5)
    assert grade(Task.load(out), out / "public/sample_submission.csv").valid
