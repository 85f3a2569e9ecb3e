"""Submission validation, scoring and leaderboard placement on small prepared tasks."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import yaml
from sklearn import metrics as skm

from automind.grading import GradingError, SubmissionError, grade, medal_positions, place, validate_submission
from automind.prepare import prepare_task
from automind.task import Task


def _frame(n=60, classes=("a", "b"), seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"x1": rng.random(n), "x2": rng.normal(size=n), "label": rng.choice(classes, n)})


@pytest.fixture()
def binary(tmp_path):
    return Task.load(prepare_task(_frame(), tmp_path / "bin", "label", "accuracy"))


def _answers(task):
    return pd.read_csv(task.answers_path)


def _write(df, path):
    df.to_csv(path, index=False)
    return path


def test_perfect_and_shuffled_submission(binary, tmp_path):
    ans = _answers(binary)
    shuffled = ans.sample(frac=1, random_state=1)
    report = grade(binary, _write(shuffled, tmp_path / "s.csv"))
    assert report.valid and report.score == 1.0 and report.n_rows == len(ans)
    wrong = ans.assign(label=np.where(ans.label == "a", "b", "a"))
    wrong.loc[: len(wrong) // 2, "label"] = ans.label[: len(wrong) // 2 + 1]
    expected = round(skm.accuracy_score(ans.label, wrong.label), 5)
    assert grade(binary, _write(wrong.iloc[::-1], tmp_path / "w.csv")).score == expected


def test_grading_without_answers(binary, tmp_path):
    binary.answers_path.unlink()
    with pytest.raises(GradingError, match="private/answers.csv"):
        grade(binary, binary.sample_submission_path)
    # format validation still works from the sample submission alone
    assert len(validate_submission(binary, binary.sample_submission_path)) == len(
        pd.read_csv(binary.sample_submission_path)
    )


@pytest.mark.parametrize(
    ("mutate", "match"),
    [
        (lambda d: d.rename(columns={"label": "target"}), r"missing column\(s\) \['label'\]"),
        (lambda d: d.drop(columns=["id"]), r"missing column\(s\) \['id'\]"),
        (lambda d: d.iloc[:-1], r"rows, expected"),
        (lambda d: pd.concat([d, d.iloc[:1]]), r"duplicated 'id'"),
        (lambda d: d.assign(id=d["id"] + 10_000), r"ids do not match.*missing.*unexpected"),
        (lambda d: d.assign(label=[None] + list(d.label[1:])), r"empty/NaN"),
        (lambda d: d.iloc[:0], r"no rows"),
    ],
)
def test_invalid_submissions(binary, tmp_path, mutate, match):
    path = _write(mutate(_answers(binary)), tmp_path / "bad.csv")
    with pytest.raises(SubmissionError, match=match):
        validate_submission(binary, path)
    report = grade(binary, path)
    assert not report.valid and report.score is None and report.error


@pytest.mark.parametrize(("sep", "said"), [(";", "';'"), ("\t", "tabs")])
def test_a_submission_with_another_separator_says_so(binary, tmp_path, sep, said):
    """Saved from a spreadsheet with ';' or tabs, every row reads as one column: the error says why."""
    path = tmp_path / "sub.csv"
    _answers(binary).to_csv(path, index=False, sep=sep)
    with pytest.raises(SubmissionError, match=f"looks separated by {said}.*comma-separated") as e:
        validate_submission(binary, path)
    assert "missing column" not in str(e.value)
    report = grade(binary, path)
    assert not report.valid and report.score is None


def test_missing_and_unparsable_files(binary, tmp_path):
    with pytest.raises(SubmissionError, match="not found"):
        validate_submission(binary, tmp_path / "nope.csv")
    (tmp_path / "empty.csv").write_text("")
    with pytest.raises(SubmissionError, match="empty"):
        validate_submission(binary, tmp_path / "empty.csv")


def test_numeric_and_finite_required(tmp_path):
    df = pd.DataFrame({"x": np.arange(40.0), "y": np.arange(40.0) * 2.5})
    task = Task.load(prepare_task(df, tmp_path / "reg", "y", "rmse"))
    ans = _answers(task)
    assert grade(task, _write(ans, tmp_path / "ok.csv")).score == 0.0
    with pytest.raises(SubmissionError, match="numeric"):
        validate_submission(task, _write(ans.assign(y="big"), tmp_path / "s.csv"))
    with pytest.raises(SubmissionError, match="infinite"):
        validate_submission(task, _write(ans.assign(y=np.inf), tmp_path / "i.csv"))
    off = ans.assign(y=ans.y + 1.0)
    assert grade(task, _write(off, tmp_path / "off.csv")).score == 1.0


def test_multiclass_probabilities_match_sklearn(tmp_path):
    task = Task.load(prepare_task(_frame(90, ("p", "q", "r")), tmp_path / "mc", "label", "log_loss"))
    ans = _answers(task)
    rng = np.random.default_rng(3)
    probs = rng.dirichlet([1, 1, 1], len(ans))
    sub = pd.DataFrame(probs, columns=["p", "q", "r"]).assign(id=ans.id)[["id", "p", "q", "r"]]
    expected = skm.log_loss(ans.label, probs, labels=["p", "q", "r"])
    assert grade(task, _write(sub.iloc[::-1], tmp_path / "s.csv")).score == pytest.approx(expected, abs=1e-5)
    with pytest.raises(SubmissionError, match=r"outside \[0, 1\]"):
        validate_submission(task, _write(sub.assign(p=2.0), tmp_path / "b.csv"))


@pytest.mark.parametrize(
    ("n", "expected"),
    [(5, (1, 1, 2)), (50, (5, 10, 20)), (99, (9, 19, 39)), (100, (10, 20, 40)), (249, (10, 49, 99)),
     (250, (10, 50, 100)), (999, (11, 50, 100)), (1000, (12, 50, 100)), (5000, (20, 250, 500))],
)  # fmt: skip
def test_medal_positions_by_band(n, expected):
    assert medal_positions(n) == expected


@pytest.mark.parametrize("n", [50, 99, 100, 249, 250, 999, 1000, 5000])
@pytest.mark.parametrize("lower", [False, True])
def test_medal_boundaries(n, lower):
    # team i (1-based, best first) scores n - i (higher better) or i (lower better): distinct scores
    scores = [float(i) if lower else float(n - i) for i in range(1, n + 1)]
    step = 0.5 if lower else -0.5  # a little worse
    for medal, pos in zip(("gold", "silver", "bronze"), medal_positions(n), strict=True):
        at = scores[pos - 1]
        assert place(at, scores, lower)["medal"] == medal
        assert place(at + step, scores, lower)["medal"] != medal
    last = medal_positions(n)[2]
    assert place(scores[last - 1] + step, scores, lower)["medal"] is None


def test_placement_fields_and_strict_median():
    scores = [0.9, 0.8, 0.7, 0.6, 0.5]
    r = place(0.7, scores, lower_is_better=False)
    assert r["position"] == 3 and r["beats_pct"] == 40.0 and r["human_rank"] == pytest.approx(1 - 3 / 5)
    assert r["above_median"] is False  # equal to the median is not above it
    assert place(0.71, scores, False)["above_median"] is True
    low = place(0.55, scores, lower_is_better=True)
    assert low["position"] == 2 and low["above_median"] is True
    assert place(0.1, scores, False)["human_rank"] == 0.0


def test_grade_with_leaderboard_and_inferred_direction(tmp_path, monkeypatch):
    import sys
    import types

    root = prepare_task(_frame(), tmp_path / "lb", "label", "accuracy")
    pd.DataFrame({"rank": range(1, 11), "score": np.linspace(1.0, 0.1, 10)}).to_csv(
        root / "leaderboard.csv", index=False
    )
    task = Task.load(root)
    r = grade(task, _write(_answers(task), tmp_path / "s.csv"))
    assert r.leaderboard_teams == 10 and r.position == 1 and r.medal == "gold" and r.above_median

    # a custom metric without a direction takes it from the leaderboard (best score first)
    mod = types.ModuleType("grading_custom_mod")
    mod.err = lambda y, p: float(np.mean(np.asarray(y) != np.asarray(p)))
    monkeypatch.setitem(sys.modules, "grading_custom_mod", mod)
    spec = yaml.safe_load((root / "task.yaml").read_text())
    spec["metric"] = {"name": "grading_custom_mod:err", "kind": "label"}
    (root / "task.yaml").write_text(yaml.safe_dump(spec))
    pd.DataFrame({"rank": range(1, 11), "score": np.linspace(0.0, 0.9, 10)}).to_csv(
        root / "leaderboard.csv", index=False
    )
    r = grade(Task.load(root), tmp_path / "s.csv")
    assert r.lower_is_better and r.score == 0.0 and r.position == 1


def test_answer_layouts_extra_columns_and_one_hot(tmp_path):
    task = Task.load(prepare_task(_frame(90, ("p", "q", "r")), tmp_path / "mc", "label", "log_loss"))
    ans = _answers(task)
    probs = np.random.default_rng(4).dirichlet([1, 1, 1], len(ans))
    sub = pd.DataFrame(probs, columns=["p", "q", "r"]).assign(id=ans.id)[["id", "p", "q", "r"]]
    path = _write(sub, tmp_path / "s.csv")
    expected = round(skm.log_loss(ans.label, probs, labels=["p", "q", "r"]), 5)
    ans.assign(Usage="Private").to_csv(
        task.answers_path, index=False
    )  # MLE-bench answers carry extra columns
    assert grade(task, path).score == expected
    one_hot = pd.get_dummies(ans.label).astype(int).assign(id=ans.id)  # one-hot answers, same column names
    one_hot.to_csv(task.answers_path, index=False)
    assert grade(task, path).score == expected
