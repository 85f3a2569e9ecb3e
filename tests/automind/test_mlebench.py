"""MLE-bench competitions load as MLE-bench prepares them, and every claimed grader mapping scores right."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import numpy as np
import pytest
import yaml
from typer.testing import CliRunner

from automind import mlebench
from automind.metrics import get_metric
from automind.task import Task, inspect_task

SHARED = Path(
    os.environ.get("AUTOMIND_SHARED_DATA") or Path(__file__).resolve().parents[2] / "../shared/data"
)


# ------------------------------------------------------------------ the mappings, against MLE-bench's formulas
# Each reference scores the way the competitions' grade.py files do (sklearn/scipy calls or their formulas).


def _lev(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def _jaccard(a: str, b: str) -> float:
    x, y = set(a.lower().split()), set(b.lower().split())
    return len(x & y) / (len(x) + len(y) - len(x & y))


def _apk(actual: set, predicted: list, k: int) -> float:
    predicted, hits, score = predicted[:k], 0, 0.0
    for i, p in enumerate(predicted):
        if p in actual and p not in predicted[:i]:
            hits += 1
            score += hits / (i + 1)
    return score / min(len(actual), k)


def _rowwise(fn):
    return lambda yt, yp: float(np.mean([fn(a, b) for a, b in zip(yt, yp, strict=True)]))


def _ref(grader: str):
    from scipy.stats import pearsonr
    from sklearn import metrics as m

    labels = (["a", "b", "c", "a", "b", "a"], ["a", "b", "a", "a", "c", "b"])
    binary = ([0, 0, 1, 1, 1, 0], [0.1, 0.4, 0.35, 0.8, 0.7, 0.2])
    multi = ([0, 2, 1, 2], [[0.7, 0.2, 0.1], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3], [0.2, 0.5, 0.3]])
    cols = (
        np.array([[0, 1], [1, 0], [1, 1], [0, 0]]),
        np.array([[0.2, 0.9], [0.7, 0.4], [0.6, 0.3], [0.1, 0.2]]),
    )
    values = ([3.0, 1.5, 8.0, 2.0, 5.5], [2.5, 1.0, 7.0, 3.5, 5.0])
    ranks = (["w1", "w2", "w3 w4"], [["w2", "w1"], ["w2", "w9"], ["w9", "w4", "w3"]])
    texts = (["kitten sat", "the cat", "Hello World"], ["sitting sat", "the hat", "hello there world"])
    table = {
        "accuracy": (labels, lambda yt, yp: m.accuracy_score(yt, yp)),
        "top-1-classification-error": (labels, lambda yt, yp: 1 - m.accuracy_score(yt, yp)),
        "auc-roc": (binary, lambda yt, yp: m.roc_auc_score(yt, yp)),
        "auroc-multi-label": (cols, lambda yt, yp: m.roc_auc_score(yt, yp, average="macro")),
        "mean-column-wise-roc-auc": (cols, lambda yt, yp: np.mean([m.roc_auc_score(yt[:, j], yp[:, j]) for j in (0, 1)])),
        "log-loss": (([0, 1, 1, 0], [0.2, 0.7, 0.9, 0.4]), lambda yt, yp: m.log_loss(yt, yp)),
        "multi-class-log-loss": (multi, lambda yt, yp: m.log_loss(yt, yp, labels=[0, 1, 2])),
        "macro-f1-score": (labels, lambda yt, yp: m.f1_score(yt, yp, average="macro")),
        "micro-f1-score": (labels, lambda yt, yp: m.f1_score(yt, yp, average="micro")),
        "matthews-correlation-coefficient": (([1, 1, 0, 0, 1], [1, 0, 0, 0, 1]), m.matthews_corrcoef),
        "quadratic-weighted-kappa": (([0, 2, 3, 1, 2, 4], [0, 1, 3, 1, 3, 4]),
                                     lambda yt, yp: m.cohen_kappa_score(yp, yt, weights="quadratic")),
        "root-mean-squared-error": (values, lambda yt, yp: m.root_mean_squared_error(yt, yp)),
        "mean-absolute-error": (values, m.mean_absolute_error),
        "mean-column-wise-rmsle": ((np.array([[1.0, 2.0], [3.0, 0.5], [2.0, 4.0]]),
                                    np.array([[1.5, 2.5], [2.0, 0.4], [2.5, 3.0]])),
                                   lambda yt, yp: np.mean([m.root_mean_squared_log_error(yt[:, j], yp[:, j])
                                                           for j in (0, 1)])),
        "pearson-correlation-coefficient": (values, lambda yt, yp: pearsonr(yt, yp)[0]),
        "map-at-5": (ranks, _rowwise(lambda a, p: _apk(set(a.split()), p, 5))),
        "MAP@12": (ranks, _rowwise(lambda a, p: _apk(set(a.split()), p, 12))),
        "levenshtein-distance": (texts, _rowwise(_lev)),
        "jaccard-similarity": (texts, _rowwise(lambda a, b: _jaccard(b, a))),
    }  # fmt: skip
    same = {"multi-class-classification-accuracy": "accuracy", "root_mean_squared_error": "root-mean-squared-error",
            "MAP@5": "map-at-5", "word-level-jaccard-score": "jaccard-similarity"}  # fmt: skip
    return table[same.get(grader, grader)]


@pytest.mark.parametrize("grader", sorted(mlebench.GRADERS))
def test_every_mapped_grader_scores_like_mlebench(grader):
    (y_true, y_pred), reference = _ref(grader)
    metric = get_metric(mlebench.GRADERS[grader])
    assert metric(y_true, y_pred) == pytest.approx(reference(y_true, y_pred), rel=1e-9, abs=1e-12)


@pytest.mark.shared
@pytest.mark.skipif(not SHARED.exists(), reason="needs ../shared/data")
def test_mapped_directions_agree_with_the_shipped_leaderboards():
    """First vs last score on each real leaderboard gives the direction; the mapped metric must share it."""
    from automind.leaderboards import bundled, read_scores

    checked = 0
    for cfg in sorted((SHARED / "competitions").glob("*/config.yaml")):
        data = yaml.safe_load(cfg.read_text())
        metric, _ = mlebench.metric_for(data["grader"]["name"], data["id"])
        lb = bundled(data["id"])
        if metric is None or lb is None:
            continue
        scores = read_scores(lb)
        if scores[0] == scores[-1]:
            continue
        assert get_metric(metric).lower_is_better == (scores[0] < scores[-1]), data["id"]
        checked += 1
    assert checked >= 30


def test_misleading_grader_names_are_refused_with_the_reason():
    assert mlebench.metric_for("multi-class-log-loss", "stanford-covid-vaccine")[0] is None
    assert mlebench.metric_for("multi-class-log-loss", "leaf-classification") == ("log_loss", "")
    metric, why = mlebench.metric_for("kendall-tau", "AI4Code")
    assert metric is None and "cell orders" in why
    assert "no metric" in mlebench.metric_for("dice-coefficient", "hubmap-kidney-segmentation")[1]


# ------------------------------------------------------------------ the prepared layout


def _prepared(data_dir: Path, comp: str = "spaceship-titanic") -> Path:
    """A competition folder as `mlebench prepare` leaves it (tiny)."""
    root = data_dir / comp
    pub, priv = root / "prepared/public", root / "prepared/private"
    pub.mkdir(parents=True)
    priv.mkdir(parents=True)
    (root / "raw").mkdir()
    (root / "raw/train.csv").write_text("PassengerId,Age,Transported\n")
    rows = [(f"{i:04d}_01", 20 + i, i % 2 == 0) for i in range(12)]
    with open(pub / "train.csv", "w", newline="") as f:
        csv.writer(f).writerows([["PassengerId", "Age", "Transported"], *rows[:8]])
    with open(pub / "test.csv", "w", newline="") as f:
        csv.writer(f).writerows([["PassengerId", "Age"], *[r[:2] for r in rows[8:]]])
    with open(pub / "sample_submission.csv", "w", newline="") as f:
        csv.writer(f).writerows([["PassengerId", "Transported"], *[[r[0], False] for r in rows[8:]]])
    with open(priv / "test.csv", "w", newline="") as f:
        csv.writer(f).writerows([["PassengerId", "Transported"], *[[r[0], r[2]] for r in rows[8:]]])
    (pub / "description.md").write_text("# Spaceship Titanic\nPredict Transported.\n")
    return root


def _mlebench_package(
    where: Path, comp: str = "spaceship-titanic", grader: str = "accuracy", lfs: bool = True
) -> Path:
    """A stand-in for the installed mlebench package: competitions/<id>/config.yaml (+ an LFS leaderboard)."""
    d = where / "mlebench" / "competitions" / comp
    d.mkdir(parents=True)
    (where / "mlebench" / "__init__.py").write_text("")
    cfg = {"id": comp, "name": "Spaceship Titanic", "grader": {"name": grader},
           "dataset": {"answers": f"{comp}/prepared/private/test.csv",
                       "sample_submission": f"{comp}/prepared/public/sample_submission.csv"}}  # fmt: skip
    (d / "config.yaml").write_text(yaml.safe_dump(cfg))
    if lfs:
        (d / "leaderboard.csv").write_text(
            "version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 1\n"
        )
    return where


@pytest.fixture
def installed(tmp_path, monkeypatch):
    pkgs = _mlebench_package(tmp_path / "site")
    monkeypatch.syspath_prepend(str(pkgs))
    monkeypatch.delenv("MLEBENCH_REPO", raising=False)
    return pkgs


def test_prepared_folder_loads_with_mlebench_installed(tmp_path, installed):
    root = _prepared(tmp_path / "data")
    t = Task.load(root)
    assert t.public_dir == root / "prepared/public" and t.private_dir == root / "prepared/private"
    assert t.spec.metric.name == "accuracy" and t.slug == "spaceship-titanic"
    assert t.answers_path == root / "prepared/private/test.csv" and "Predict Transported" in t.description
    assert t.spec.id_column == "PassengerId" and t.spec.target_columns == ["Transported"]
    # MLE-bench's leaderboard is an LFS pointer here: the shipped one is used, and the task says so
    assert t.leaderboard_path is not None and t.leaderboard_path.name == "spaceship-titanic.csv.gz"
    assert any("Git LFS pointer" in w for w in t.warnings)


def test_prepared_folder_grades_execs_and_checks_from_the_cli(tmp_path, installed, monkeypatch):
    from automind.cli import app

    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    root = _prepared(tmp_path / "data")
    r = CliRunner().invoke(app, ["task", "check", str(root)])
    assert r.exit_code == 0 and "ok" in r.output and "prepared/private/test.csv" in r.output
    sub = tmp_path / "sub.csv"
    sub.write_text("PassengerId,Transported\n" + "".join(f"{i:04d}_01,{i % 2 == 0}\n" for i in range(8, 12)))
    r = CliRunner().invoke(app, ["grade", str(root), str(sub), "--json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    assert report["score"] == 1.0 and report["leaderboard_teams"] > 1000 and report["human_rank"] > 0.99
    script = tmp_path / "s.py"
    script.write_text(
        "import os, shutil\nshutil.copy('input/sample_submission.csv', 'submission/submission.csv')\n"
        "print(sorted(os.listdir('input')))\n"
    )
    r = CliRunner().invoke(app, ["exec", str(root), str(script), "--json", "--workdir", str(tmp_path / "wd")])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert "'train.csv'" in out["exec"]["output"] and "raw" not in out["exec"]["output"]
    assert out["grade"]["valid"]


def test_mlebench_repo_variable_and_a_real_leaderboard(tmp_path, monkeypatch):
    clone = tmp_path / "mle-bench"
    _mlebench_package(clone, lfs=False)
    (clone / "mlebench/competitions/spaceship-titanic/leaderboard.csv").write_text("score\n1.0\n0.5\n")
    monkeypatch.setenv("MLEBENCH_REPO", str(clone))
    t = Task.load(_prepared(tmp_path / "data"))
    assert t.leaderboard_path == clone / "mlebench/competitions/spaceship-titanic/leaderboard.csv"


def test_prepared_folder_without_mlebench_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.delenv("MLEBENCH_REPO", raising=False)
    root = _prepared(tmp_path / "data", comp="some-competition-nobody-has")
    task, problems = inspect_task(root)
    assert task is None and any("MLEBENCH_REPO" in p and "pip install -e mle-bench" in p for p in problems)


def test_unsupported_grader_is_a_specific_problem(tmp_path, monkeypatch):
    pkgs = _mlebench_package(tmp_path / "site", comp="AI4Code", grader="kendall-tau")
    monkeypatch.syspath_prepend(str(pkgs))
    root = _prepared(tmp_path / "data", comp="AI4Code")
    task, problems = inspect_task(root)
    assert task is None and any("cell orders" in p and "custom metric" in p for p in problems)
    (root / "task.yaml").write_text("name: ai4code\nmetric: {name: accuracy}\n")  # the user's own override
    assert Task.load(root).spec.metric.name == "accuracy"
