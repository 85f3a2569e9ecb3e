"""Validate a submission against a task, score it, and place it on the leaderboard.

Pure functions: nothing is printed. An invalid submission is a `SubmissionError` from
`validate_submission`, and a `GradeReport(valid=False, error=...)` from `grade`; a task that
cannot be graded at all (no private answers, bad metric) is a `GradingError`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from automind.csv_scan import looks_separated_by, read_csv
from automind.metrics import LOG_LOSSES, Metric, UnknownMetricError, get_metric

if TYPE_CHECKING:
    import pandas as pd

    from automind.task import Task

ROUND = 5
SHOW = 5  # how many offending ids/values an error message quotes


class SubmissionError(ValueError):
    """The submission file is unusable; the message says what is wrong and what to do."""


class GradingError(ValueError):
    """The task cannot be graded (no answers, unusable metric or leaderboard)."""


class GradeReport(BaseModel):
    """What `automind grade --json` prints; see docs/grading.md."""

    task: str
    submission: str
    metric: str
    lower_is_better: bool
    valid: bool
    error: str | None = None
    # the file is a valid submission whose predictions are all the same, and the metric is undefined for
    # them (a correlation metric on a sample submission's constant fill); `valid` is False all the same
    score_undefined: bool = False
    score: float | None = None
    n_rows: int | None = None
    # leaderboard placement (None when the task has no leaderboard or the submission is invalid)
    leaderboard_teams: int | None = None
    position: int | None = None
    beats_pct: float | None = None
    human_rank: float | None = None
    medal: str | None = None  # gold | silver | bronze | None
    above_median: bool | None = None
    gold_threshold: float | None = None
    silver_threshold: float | None = None
    bronze_threshold: float | None = None
    median_threshold: float | None = None
    # the public board, when the task has one too (leaderboard_public.csv)
    public_leaderboard_teams: int | None = None
    public_position: int | None = None
    public_human_rank: float | None = None
    human_rank_note: str | None = None  # why there is no HumanRank (no leaderboard), when there is none

    @property
    def mean_human_rank(self) -> float | None:
        """HumanRank averaged over the boards the task has (MLE-Dojo averages public and private)."""
        ranks = [r for r in (self.human_rank, self.public_human_rank) if r is not None]
        return round(sum(ranks) / len(ranks), ROUND) if ranks else None


# ---------------------------------------------------------------- helpers


def _as_task(task: Task | str | Path) -> Task:
    from automind.task import Task

    return task if isinstance(task, Task) else Task.load(task)


def _leaderboard_scores(path: Path) -> list[float]:
    import pandas as pd

    try:
        lb = pd.read_csv(path)
    except Exception as e:  # noqa: BLE001 - any parse failure is a task problem
        raise GradingError(
            f"{path}: cannot read the leaderboard ({e}). Expected a CSV with columns rank,score."
        ) from e
    if "score" not in lb.columns:
        raise GradingError(
            f"{path}: no 'score' column (found {', '.join(map(str, lb.columns))}). Expected rank,score."
        )
    scores = pd.to_numeric(lb["score"], errors="coerce").dropna()
    return [float(s) for s in scores if math.isfinite(s)]


def resolve_metric(task: Task) -> Metric:
    """Direction: task spec, else registry; a custom metric with no direction is read off the leaderboard."""
    m = task.spec.metric
    try:
        return get_metric(m.name, m.lower_is_better, m.kind)
    except UnknownMetricError as e:
        lb = task.leaderboard_path
        if ":" in m.name and m.lower_is_better is None and lb is not None:
            scores = _leaderboard_scores(lb)
            if len(scores) >= 2 and scores[0] != scores[-1]:
                return get_metric(m.name, scores[0] < scores[-1], m.kind)
        raise GradingError(str(e)) from e


def expected_columns(task: Task) -> list[str]:
    """Submission columns: the sample submission's header, else the id column plus the targets."""

    if task.sample_submission_path.is_file():
        return [str(c) for c in read_csv(task.sample_submission_path, nrows=0).columns]
    id_col = task.spec.id_column
    return ([id_col] if id_col else []) + list(task.spec.target_columns)


def _id_column(task: Task, columns: list[str]) -> str:
    return task.spec.id_column or columns[0]


def _key(s: pd.Series) -> pd.Series:
    """Ids compared as text, with integral floats written as integers (1.0 and 1 are the same id), no spaces
    around them: as the recipe scripts match test rows to the sample's (runtime.id_text)."""
    from automind.recipes.runtime import id_text

    return id_text(s)


id_key = _key  # public name: the holdout matches submission rows to ids exactly as grading does


def repeated_ids(ids: pd.Series) -> list[Any]:
    """The ids (as grading compares them) that occur more than once, each once."""
    keys = _key(ids)
    return keys[keys.duplicated()].unique().tolist()


def quote_values(values: list[Any]) -> str:
    head = ", ".join(repr(v) for v in values[:SHOW])
    return head + (f" (+{len(values) - SHOW} more)" if len(values) > SHOW else "")


def _expected_ids(task: Task, id_col: str) -> tuple[pd.Series | None, str]:
    """Reference ids: the private answers when present, else the sample submission."""

    for path in (task.answers_path, task.sample_submission_path):
        if path is not None and path.is_file():
            df = read_csv(path)
            if id_col in df.columns:
                return _key(df[id_col]), path.name
    return None, ""


# ---------------------------------------------------------------- validation


def validate_submission(task: Task | str | Path, path: str | Path) -> pd.DataFrame:
    """Check a submission's file, columns, rows, ids and values; return it sorted by id.

    Works without private answers (ids are then checked against the sample submission), so the
    agent can validate its own output before grading exists.
    """
    import numpy as np
    import pandas as pd

    task = _as_task(task)
    path = Path(path)
    if not path.is_file():
        raise SubmissionError(
            f"{path}: submission file not found. Write a CSV like public/{task.spec.sample_submission}."
        )
    try:
        sub = read_csv(path)
    except pd.errors.EmptyDataError as e:
        raise SubmissionError(f"{path}: the file is empty. Write a header and one row per test id.") from e
    except Exception as e:  # noqa: BLE001 - any parse failure is the submission's problem
        raise SubmissionError(
            f"{path}: not a readable CSV ({e}). Write it with pandas `to_csv(index=False)`."
        ) from e
    sub.columns = [str(c).strip() for c in sub.columns]

    cols = expected_columns(task)
    if not cols:
        raise GradingError(
            f"{task.root}: no sample submission and no id/target columns in task.yaml to check against."
        )
    id_col = _id_column(task, cols)
    missing = [c for c in cols if c not in sub.columns]
    if missing and (guess := looks_separated_by(list(sub.columns))):
        raise SubmissionError(
            f"{path}: {guess[1]}. A submission is comma-separated like public/{task.spec.sample_submission}: "
            "write it with pandas `to_csv(index=False)` and no `sep`."
        )
    if missing:
        raise SubmissionError(
            f"{path}: missing column(s) {missing}; found {list(sub.columns)}. "
            f"The submission needs the columns of the sample submission: {cols}."
        )
    sub = sub[cols].copy()
    if sub.empty:
        raise SubmissionError(f"{path}: has a header but no rows. Write one row per test id.")

    if sub[id_col].isna().any():
        raise SubmissionError(
            f"{path}: {int(sub[id_col].isna().sum())} row(s) have an empty '{id_col}'. Every row needs an id."
        )
    keys = _key(sub[id_col])
    dup = repeated_ids(sub[id_col])
    if dup:
        raise SubmissionError(
            f"{path}: duplicated '{id_col}' values {quote_values(dup)}. Write one row per test id."
        )
    ref, ref_name = _expected_ids(task, id_col)
    if ref is not None:
        if len(sub) != len(ref):
            raise SubmissionError(
                f"{path}: {len(sub)} rows, expected {len(ref)} (one per test id). Predict every row of the test set once."
            )
        got, want = set(keys), set(ref)
        if got != want:
            extra, lost = sorted(got - want), sorted(want - got)
            raise SubmissionError(
                f"{path}: ids do not match the test set: {len(lost)} missing (e.g. {quote_values(lost)}), "
                f"{len(extra)} unexpected (e.g. {quote_values(extra)}). Use the '{id_col}' values of the test file."
            )

    metric = resolve_metric(task)
    preds = [c for c in cols if c != id_col]
    answers_numeric = _answers_numeric(task, id_col)
    for c in preds:
        col = sub[c]
        if col.isna().any():
            bad = sub.loc[col.isna(), id_col].tolist()
            raise SubmissionError(
                f"{path}: column '{c}' has {len(bad)} empty/NaN value(s) (ids {quote_values(bad)}). Fill every prediction."
            )
        needs_number = metric.kind in ("proba", "value") or (metric.kind == "label" and answers_numeric)
        if needs_number:
            num = pd.to_numeric(col, errors="coerce")
            if num.isna().any():
                bad = col[num.isna()].tolist()
                raise SubmissionError(
                    f"{path}: column '{c}' must be numeric for {metric.name}; found {quote_values(bad)}."
                )
            if not np.isfinite(num.to_numpy(dtype=float)).all():
                bad = sub.loc[~np.isfinite(num.to_numpy(dtype=float)), id_col].tolist()
                raise SubmissionError(
                    f"{path}: column '{c}' has infinite value(s) (ids {quote_values(bad)}). Write finite numbers."
                )
            if metric.name in LOG_LOSSES and ((num < 0) | (num > 1)).any():
                raise SubmissionError(
                    f"{path}: column '{c}' has values outside [0, 1]; log loss needs probabilities."
                )
            sub[c] = num
    order = keys.sort_values(kind="stable").index
    return sub.loc[order].reset_index(drop=True)


def _answers_numeric(task: Task, id_col: str) -> bool:
    import pandas as pd

    if task.answers_path is None:
        return False
    ans = read_csv(task.answers_path, nrows=50)
    cols = [c for c in ans.columns if c != id_col]
    return bool(cols) and all(pd.api.types.is_numeric_dtype(ans[c]) for c in cols)


# ---------------------------------------------------------------- scoring


def _targets(
    task: Task, metric: Metric, sub: pd.DataFrame, answers: pd.DataFrame, id_col: str
) -> tuple[Any, Any]:
    """Build (y_true, y_pred) from answer and submission columns, both already in id order."""
    import numpy as np

    ans_cols = [c for c in answers.columns if c != id_col]
    sub_cols = [c for c in sub.columns if c != id_col]
    if not ans_cols:
        raise GradingError(f"{task.answers_path}: only the id column '{id_col}'; add the target column(s).")
    if set(sub_cols) <= set(ans_cols):  # answers name every predicted column (extra answer columns ignored)
        yt = answers[sub_cols]
    elif metric.kind == "proba" and len(sub_cols) > 1:  # one label column against per-class probabilities
        label_col = next(
            (c for c in task.spec.target_columns if c in ans_cols),
            ans_cols[0] if len(ans_cols) == 1 else None,
        )
        if label_col is None:
            raise GradingError(
                f"{task.answers_path}: cannot tell which of {ans_cols} holds the label; set target_columns."
            )
        classes = {c: i for i, c in enumerate(sub_cols)}
        labels = answers[label_col].astype(str).str.strip()
        unknown = sorted(set(labels) - set(classes))
        if unknown:
            raise GradingError(
                f"{task.answers_path}: label(s) {quote_values(unknown)} have no probability column in the sample submission "
                f"(columns {sub_cols}). Add a column per class."
            )
        return labels.map(classes).to_numpy(), sub[sub_cols].to_numpy(dtype=float)
    elif len(ans_cols) == len(sub_cols):  # differently named but corresponding one to one
        yt = answers[ans_cols]
    else:
        raise GradingError(
            f"{task.answers_path}: answer column(s) {ans_cols} do not correspond to submission column(s) {sub_cols} "
            f"for {metric.name} ({metric.kind}). Name the answer columns like the sample submission."
        )
    yp = sub[sub_cols]
    if len(sub_cols) == 1:
        return yt.iloc[:, 0].to_numpy(), yp.iloc[:, 0].to_numpy()
    y_true, y_pred = yt.to_numpy(), yp.to_numpy()
    one_hot = task.spec.problem_type != "multilabel" and bool((y_true.astype(float).sum(axis=1) == 1).all())
    if metric.name in LOG_LOSSES and one_hot:  # one-hot answers against per-class probabilities
        return np.argmax(y_true, axis=1), y_pred.astype(float)
    return y_true, y_pred


def _constant_predictions_only(task: Task, sub: pd.DataFrame) -> bool:
    """A non-finite score caused by constant predictions alone: every answer column varies, no prediction does."""

    assert task.answers_path is not None
    id_col = _id_column(task, list(sub.columns))
    answers = read_csv(task.answers_path)
    varied = all(answers[c].nunique(dropna=False) > 1 for c in answers.columns if c != id_col)
    return varied and all(sub[c].nunique(dropna=False) <= 1 for c in sub.columns if c != id_col)


def score_submission(task: Task, sub: pd.DataFrame, metric: Metric | None = None) -> float:
    """Score a validated submission (from `validate_submission`) against the private answers."""
    metric = metric or resolve_metric(task)
    y_true, y_pred = truth_and_predictions(task, sub, metric)
    try:
        return metric(y_true, y_pred, **task.spec.metric.params)
    except (ValueError, TypeError, ZeroDivisionError) as e:
        raise SubmissionError(f"{metric.name} could not score this submission: {e}") from e


def truth_and_predictions(task: Task, sub: pd.DataFrame, metric: Metric) -> tuple[Any, Any]:
    """(y_true, y_pred) of a validated submission against the private answers, rows in id order.

    The metric is a function of these two arrays, so resampling their rows resamples the score (the
    holdout's noise band bootstraps it this way)."""

    if task.answers_path is None:
        raise GradingError(
            f"{task.root}: no private answers to grade against. Add private/answers.csv with the id column and the "
            "true target(s) (or set `answers:` in task.yaml); `automind task prepare` writes it."
        )
    answers = read_csv(task.answers_path)
    id_col = _id_column(task, list(sub.columns))
    if id_col not in answers.columns:
        raise GradingError(f"{task.answers_path}: no id column '{id_col}' (found {list(answers.columns)}).")
    answers = answers.assign(_k=_key(answers[id_col])).sort_values("_k", kind="stable").drop(columns="_k")
    answers = answers.reset_index(drop=True)
    return _targets(task, metric, sub, answers, id_col)


# ---------------------------------------------------------------- leaderboard


def medal_positions(n: int) -> tuple[int, int, int]:
    """Last position that earns gold, silver, bronze among n teams (0 = no such medal)."""
    if n < 100:
        return max(1, n // 10), n // 5, (n * 2) // 5
    if n < 250:
        return 10, n // 5, (n * 2) // 5
    if n < 1000:
        return 10 + n // 500, 50, 100
    return 10 + n // 500, n // 20, n // 10


def place(score: float, scores: list[float], lower_is_better: bool) -> dict[str, Any]:
    """Position, share beaten, HumanRank, medal and above-median for a score on a leaderboard."""
    import numpy as np

    n = len(scores)
    if n == 0:
        return {}
    ordered = sorted(scores, reverse=not lower_is_better)  # best first

    def at_least(a: float, b: float) -> bool:
        return a <= b if lower_is_better else a >= b

    better = sum(1 for s in scores if not at_least(score, s))
    worse = sum(1 for s in scores if (s > score if lower_is_better else s < score))
    position = better + 1
    gold, silver, bronze = medal_positions(n)
    thresholds = {
        k: (ordered[p - 1] if 0 < p <= n else None)
        for k, p in (("gold", gold), ("silver", silver), ("bronze", bronze))
    }
    medal = next((k for k, t in thresholds.items() if t is not None and at_least(score, t)), None)
    median = float(np.median(scores))
    return {
        "leaderboard_teams": n,
        "position": position,
        "beats_pct": round(100.0 * worse / n, 2),
        "human_rank": round(max(0.0, 1.0 - position / n), ROUND),
        "medal": medal,
        "above_median": score < median if lower_is_better else score > median,
        "gold_threshold": thresholds["gold"],
        "silver_threshold": thresholds["silver"],
        "bronze_threshold": thresholds["bronze"],
        "median_threshold": median,
    }


def grade(task: Task | str | Path, path: str | Path) -> GradeReport:
    """Validate, score (rounded to 5 decimals) and place a submission. Raises GradingError for ungradable tasks."""
    task = _as_task(task)
    if task.answers_path is None:
        raise GradingError(
            f"{task.root}: no private answers to grade against. Add private/answers.csv with the id column and the "
            "true target(s) (or set `answers:` in task.yaml); `automind task prepare` writes it."
        )
    metric = resolve_metric(task)
    base = {
        "task": task.name,
        "submission": str(path),
        "metric": metric.name,
        "lower_is_better": metric.lower_is_better,
    }
    try:
        sub = validate_submission(task, path)
        score = round(score_submission(task, sub, metric), ROUND)
    except SubmissionError as e:
        return GradeReport(**base, valid=False, error=str(e))
    if not math.isfinite(score):
        return GradeReport(
            **base,
            valid=False,
            score_undefined=_constant_predictions_only(task, sub),
            error=f"{metric.name} gave a non-finite score ({score}).",
        )
    extra: dict[str, Any] = {}
    if task.leaderboard_path is not None:
        extra = place(score, _leaderboard_scores(task.leaderboard_path), metric.lower_is_better)
    if task.public_leaderboard_path is not None:
        pub = place(score, _leaderboard_scores(task.public_leaderboard_path), metric.lower_is_better)
        extra |= {f"public_{k}": pub.get(k) for k in ("leaderboard_teams", "position", "human_rank")}
    if not extra:
        from automind.leaderboards import missing_reason

        extra["human_rank_note"] = missing_reason(task)
    return GradeReport(**base, valid=True, score=score, n_rows=len(sub), **extra)
