"""`automind exec --holdout`: a user's pipeline checked on hidden training rows, with the trust fields in --json.

Runs scripts of the leak suite for real: a made-up score and a target-as-feature leak are caught by the gap
to the holdout score; a clean K-fold target encoding is not flagged."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from automind.cli import app
from automind.prepare import prepare_task

SUITE = Path(__file__).with_name("leak_suite")


def suite_task(root: Path) -> Path:
    """The leak suite's task: a binary label from two numbers and a categorical with its own effect."""
    rng = np.random.default_rng(0)
    n = 800
    cat = rng.choice([f"c{i}" for i in range(12)], size=n)
    x1, x2 = rng.normal(size=n), rng.normal(size=n)
    effect = dict(zip([f"c{i}" for i in range(12)], rng.normal(scale=0.8, size=12), strict=True))
    logit = 1.2 * x1 - 0.8 * x2 + np.array([effect[c] for c in cat])
    y = (logit + rng.logistic(size=n) > 0).astype(int)
    df = pd.DataFrame({"cat": cat, "x1": x1, "x2": x2, "y": y})
    return prepare_task(df, root, "y", "accuracy", name="leak-suite")


@pytest.fixture(scope="module")
def task_dir(tmp_path_factory):
    return suite_task(tmp_path_factory.mktemp("t") / "suite")


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))


def run(task_dir: Path, tmp_path: Path, name: str, *extra: str) -> tuple[int, dict]:
    args = ["exec", str(task_dir), str(SUITE / name), "--workdir", str(tmp_path / "wd"), "--json", *extra]
    r = CliRunner().invoke(app, args)
    return r.exit_code, json.loads(r.stdout)


@pytest.mark.slow
def test_a_made_up_score_is_caught_by_the_code_check_and_the_holdout(task_dir, tmp_path):
    code, out = run(task_dir, tmp_path, "fake_metric.py", "--holdout")
    assert code == 0 and out["outcome"] == "success" and out["grade"]["n_rows"] == 160  # the real test rows
    assert out["reported_metric"] == 0.99 and out["holdout_metric"] < 0.7 and out["holdout_se"] > 0
    assert out["holdout"]["enabled"] and out["holdout"]["holdout_rows"] == 96
    leak = out["leakage"]
    assert leak["status"] == "leak" and leak["gap"] > leak["band"] > 0
    assert {(r["kind"], r["line"]) for r in leak["reasons"]} >= {
        ("hardcoded-metric", 11),
        ("score-gap", None),
    }
    assert out["inputs_read"] == ["test.csv"] and out["unused_inputs"] == ["train.csv"]


@pytest.mark.slow
def test_the_target_as_a_feature_shows_as_a_gap(task_dir, tmp_path):
    _, out = run(task_dir, tmp_path, "leaky_target_feature.py", "--holdout")
    assert out["reported_metric"] > 0.95 and out["holdout_metric"] < 0.8
    kinds = {r["kind"] for r in out["leakage"]["reasons"]}
    assert kinds == {"target-feature", "score-gap"}


@pytest.mark.slow
def test_clean_kfold_target_encoding_is_trusted(task_dir, tmp_path):
    code, out = run(task_dir, tmp_path, "clean_kfold_target_encoding.py", "--holdout-fraction", "0.2")
    assert code == 0 and out["holdout"]["holdout_rows"] == 128
    assert out["leakage"]["status"] == "clean" and out["leakage"]["gap"] < out["leakage"]["band"]
    assert abs(out["reported_metric"] - out["holdout_metric"]) < 0.15
    assert out["inputs_read"] == ["test.csv", "train.csv"] and out["unused_inputs"] == []


@pytest.mark.slow
def test_without_holdout_the_trust_fields_are_still_reported(task_dir, tmp_path):
    r = CliRunner().invoke(app, ["exec", str(task_dir), str(SUITE / "clean_pipeline_cv.py"),
                                 "--workdir", str(tmp_path / "wd")])  # fmt: skip
    assert r.exit_code == 0 and "leakage: clean" in r.stdout and "own validation score" in r.stdout
    _, out = run(task_dir, tmp_path, "clean_pipeline_cv.py")
    assert out["holdout"] == {"enabled": False} and out["holdout_metric"] is None
    assert out["leakage"]["status"] == "clean" and out["leakage"]["gap"] is None


def test_holdout_on_a_task_it_cannot_split_is_a_clear_error(task_dir, tmp_path):
    import shutil

    task = tmp_path / "two"
    shutil.copytree(task_dir, task)
    shutil.copy(task / "public/train.csv", task / "public/train_more.csv")
    r = CliRunner().invoke(app, ["exec", str(task), str(SUITE / "fake_metric.py"), "--holdout"])
    assert r.exit_code == 1 and "--holdout: the task has 2 training files" in r.output
    assert "Traceback" not in r.output


@pytest.mark.slow
def test_the_row_cap_applies_to_the_default_share_and_not_to_one_given(task_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOMIND_VERIFY__HOLDOUT_MAX_ROWS", "40")
    _, capped = run(task_dir, tmp_path, "clean_pipeline_cv.py", "--holdout")
    _, given = run(task_dir, tmp_path, "clean_pipeline_cv.py", "--holdout-fraction", "0.15")
    assert capped["holdout"]["holdout_rows"] == 40 and capped["holdout"]["max_rows"] == 40
    assert given["holdout"]["holdout_rows"] == 96 and given["holdout"]["max_rows"] is None
