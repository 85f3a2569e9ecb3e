"""Parity: the validation score a recipe script prints equals the grade of the submission it writes.

Every metric in the registry is covered (or excluded here with the reason), with the edge cases where
two implementations drifted before: string labels, integer labels other than 0/1, an explicit
`pos_label`, multiclass probabilities, several targets, and RMSLE with negative predictions. The
script side runs the composer's real code: the runtime sections plus the metric copied from the
registry (`metric_block`); the grader side is `automind.grading.grade` on the written CSV.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest
import yaml

from automind.grading import grade
from automind.metrics import metric_names
from automind.prepare import prepare_task
from automind.recipes.compose import runtime_sections
from automind.recipes.metric_code import metric_block
from automind.recipes.profile import profile_task
from automind.task import Task

N = 160
EXCLUDED: dict[str, str] = {}  # metric -> why a recipe never writes its kind of submission (none now)


def _frame(kind: str, seed: int = 0) -> tuple[pd.DataFrame, str | list[str], str]:
    """(data, target column(s), problem type) for one scenario."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=N)
    df = pd.DataFrame({"x": x})
    if kind == "yes_no":
        df["y"] = np.where(x + rng.normal(scale=0.8, size=N) > 0, "yes", "no")
        return df, "y", "binary"
    if kind == "one_two":  # integer labels that are not 0/1: the positive class is 2, not 1
        df["y"] = np.where(x > 0.3, 2, 1)
        return df, "y", "binary"
    if kind == "zero_one":
        df["y"] = (x > 0).astype(int)
        return df, "y", "binary"
    if kind == "colours":
        df["y"] = rng.choice(["red", "green", "blue"], N)
        return df, "y", "multiclass"
    if kind == "ratings":
        df["y"] = np.clip(np.rint(x * 1.2 + 3), 1, 5).astype(int)
        return df, "y", "multiclass"
    if kind == "positive":  # non-negative target near 0: predictions dip below 0 (RMSLE's edge)
        df["y"] = np.abs(x) * 0.3
        return df, "y", "regression"
    if kind == "signed":
        df["y"] = x * 3 + rng.normal(size=N)
        return df, "y", "regression"
    if kind == "two_values":
        df["a"], df["b"] = np.abs(x), np.abs(x) * 2 + 0.1
        return df, ["a", "b"], "regression"
    if kind == "two_flags":
        df["a"], df["b"] = (x > 0).astype(int), (x > 0.5).astype(int)
        return df, ["a", "b"], "multilabel"
    raise ValueError(kind)


# (metric, data kind, metric params written to task.yaml)
CASES = [
    ("accuracy", "colours", {}),
    ("accuracy", "one_two", {}),
    ("classification_error", "yes_no", {}),
    ("balanced_accuracy", "colours", {}),
    ("f1", "yes_no", {}),
    ("f1", "one_two", {}),
    ("f1", "yes_no", {"pos_label": "no"}),
    ("f1_macro", "colours", {}),
    ("f1_micro", "colours", {}),
    ("f1_weighted", "colours", {}),
    ("fbeta", "one_two", {}),
    ("mcc", "yes_no", {}),
    ("cohen_kappa", "colours", {}),
    ("map_at_k", "ratings", {"k": 3}),  # each row's 3 likeliest of 5 grades, best first
    ("ndcg_at_k", "ratings", {"k": 3}),
    ("quadratic_weighted_kappa", "ratings", {}),
    ("levenshtein", "colours", {}),
    ("word_jaccard", "colours", {}),
    ("roc_auc", "yes_no", {}),
    ("roc_auc", "one_two", {}),
    ("roc_auc", "yes_no", {"pos_label": "no"}),
    ("roc_auc", "colours", {}),
    ("normalized_gini", "zero_one", {}),
    ("log_loss", "yes_no", {}),
    ("log_loss", "colours", {}),
    ("balanced_log_loss", "yes_no", {}),
    ("balanced_log_loss", "one_two", {}),
    ("balanced_log_loss", "colours", {}),
    ("average_precision", "yes_no", {}),
    ("average_precision", "yes_no", {"pos_label": "no"}),
    ("average_precision", "zero_one", {}),
    ("mean_columnwise_roc_auc", "two_flags", {}),
    ("mean_columnwise_log_loss", "two_flags", {}),
    ("log_loss", "two_flags", {}),
    ("rmse", "signed", {}),
    ("mse", "signed", {}),
    ("mae", "signed", {}),
    ("median_ae", "signed", {}),
    ("rmsle", "positive", {}),
    ("msle", "positive", {}),
    ("rmspe", "positive", {}),
    ("r2", "signed", {}),
    ("smape", "signed", {}),
    ("mape", "positive", {}),
    ("spearman", "signed", {}),
    ("pearson", "signed", {}),
    ("kendall_tau", "signed", {}),
    ("mean_columnwise_rmse", "two_values", {}),
    ("mean_columnwise_rmsle", "two_values", {}),
    ("mean_columnwise_mae", "two_values", {}),
]


def test_every_registry_metric_is_covered():
    assert {m for m, _, _ in CASES} | set(EXCLUDED) == set(metric_names())


def _script(task: Task, out: str) -> dict:
    """The generated script's functions and CFG, as `compose.render` would emit them, with real paths."""
    profile = profile_task(task)
    cfg = profile.cfg() | {
        "train": str(task.public_dir / "train.csv"),
        "test": str(task.public_dir / "test.csv"),
        "sample": str(task.sample_submission_path),
        "out": out,
    }
    rt = runtime_sections()
    code = "\n\n".join(
        [rt["imports"], f"CFG = {cfg!r}", rt["load"], metric_block(profile.metric), rt["submit"]]
    )
    ns: dict = {"__name__": "parity"}
    exec(compile(code, "<recipe script>", "exec"), ns)
    os.makedirs(out, exist_ok=True)  # report() makes it in a real script
    return ns


def _predictions(ns: dict, truth: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Imperfect model-space predictions: P(positive), class probabilities or noisy values."""
    cfg = ns["CFG"]
    n = len(truth)
    if cfg["problem"] == "binary":
        return np.clip(0.35 * truth + rng.random(n) * 0.65, 0, 1)
    if cfg["problem"] == "multiclass":
        p = rng.dirichlet(np.ones(cfg["n_classes"]), n)
        p[np.arange(n), truth] += 0.4
        return p / p.sum(axis=1, keepdims=True)
    if cfg["problem"] == "multilabel":
        return np.clip(0.4 * truth + rng.random(truth.shape) * 0.6, 0, 1)
    pred = truth + rng.normal(scale=0.25 if np.min(truth) >= 0 else 1.0, size=truth.shape)
    return np.maximum(pred, -0.5)  # RMSLE accepts values above -1: some negatives stay


@pytest.mark.parametrize(("metric", "data", "params"), CASES, ids=[f"{m}-{d}-{p}" for m, d, p in CASES])
def test_script_score_equals_grade(tmp_path, metric, data, params):
    df, target, problem = _frame(data)
    root = prepare_task(df, tmp_path / "task", target, metric, problem_type=problem)
    if params:
        spec = yaml.safe_load((root / "task.yaml").read_text())
        spec["metric"]["params"] = params
        (root / "task.yaml").write_text(yaml.safe_dump(spec))
    task = Task.load(root)
    ns = _script(task, str(tmp_path / "out"))
    train, test, sample = ns["load_data"]()
    ns["encode_target"](train)
    answers = pd.read_csv(task.answers_path).set_index(task.spec.id_column).loc[test[task.spec.id_column]]
    cols = [target] if isinstance(target, str) else target
    if problem in ("binary", "multiclass"):
        index = {c: i for i, c in enumerate(ns["CFG"]["classes"])}
        truth = answers[cols[0]].map(index).to_numpy(dtype=int)
    else:
        truth = answers[cols].to_numpy(dtype=float if problem == "regression" else int)
        truth = truth[:, 0] if len(cols) == 1 else truth
    pred = _predictions(ns, truth, np.random.default_rng(1))
    if problem == "regression" and metric in ("rmsle", "msle"):
        assert (pred < 0).any()  # the edge the two tables used to disagree on
    script_score = ns["metric_score"](truth, pred)
    ns["write_submission"](test, sample, pred)
    report = grade(task, tmp_path / "out" / "submission.csv")
    assert report.valid, report
    assert report.score == pytest.approx(script_score, abs=1e-5)


def test_binary_class_order_follows_the_grader(tmp_path):
    """Index 1 is the grader's positive class: natural order (2 after 10 as text, not as numbers)."""
    df = pd.DataFrame({"x": range(40), "y": [2, 10] * 20})
    root = prepare_task(df, tmp_path / "task", "y", "roc_auc", problem_type="binary")
    spec = yaml.safe_load((root / "task.yaml").read_text())
    spec["metric"].pop("params", None)  # no pos_label: the natural order alone decides
    (root / "task.yaml").write_text(yaml.safe_dump(spec))
    task = Task.load(root)
    ns = _script(task, str(tmp_path / "out"))
    train, _, _ = ns["load_data"]()
    ns["encode_target"](train)
    assert ns["CFG"]["classes"] == [2, 10]


def test_log_error_metrics_clip_predictions_of_a_non_negative_target():
    ns: dict = {"__name__": "parity"}
    rt = runtime_sections()
    exec(compile(rt["imports"] + "\n" + rt["model"], "<model>", "exec"), ns)
    ns.update(CFG={"problem": "regression", "metric": "rmsle"})
    oof, test = ns["clip_log_error"](np.array([-0.2, 1.0]), np.array([-3.0, 2.0]), np.array([0.0, 1.0]))
    assert oof.tolist() == [0.0, 1.0] and test.tolist() == [0.0, 2.0]  # validation sees what is submitted
    ns["CFG"]["metric"] = "rmse"
    oof, _ = ns["clip_log_error"](np.array([-0.2, 1.0]), np.array([-3.0, 2.0]), np.array([0.0, 1.0]))
    assert oof.tolist() == [-0.2, 1.0]
