"""After an execution: split the script's submission into the test rows and the holdout rows, score the latter.

The script predicted the view's test file, so its submission holds one row per test row and per holdout
row. `separate` checks it against the view (same checks as any submission), rewrites the submission file
with the test rows only, in the sample submission's order and exactly as the script wrote them (so it
validates against the real task), and scores the holdout rows with the task's metric against their
answers. The score's standard error comes from a bootstrap of the holdout rows (see `band`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from automind.holdout.view import Holdout
    from automind.metrics import Metric
    from automind.task import Task

RESAMPLES = 200  # bootstrap resamples of the holdout rows for the score's standard error
RESAMPLE_SECONDS = 2.0  # ... fewer (at least MIN_RESAMPLES) when the metric is slow on these rows
MIN_RESAMPLES = 30


@dataclass
class HoldoutScore:
    value: float
    se: float  # bootstrap standard error of `value` (nan when it could not be estimated)
    n: int  # holdout rows scored
    resamples: int


@dataclass
class Separation:
    """What became of one submission: `error` when the script's file is unusable (the node is buggy),
    else the holdout score, or `score_error` when the holdout rows could not be scored."""

    error: str | None = None
    score: HoldoutScore | None = None
    score_error: str | None = None
    predictions: Path | None = None  # the holdout rows as the script wrote them


def resampled_scores(
    metric: Metric, y_true: Any, y_pred: Any, params: dict[str, Any], seed: int = 0
) -> list[float]:
    """The metric on bootstrap resamples of the rows (nan where a resample cannot be scored). The resamples
    depend only on `seed` and the row count, so two nodes' lists, index by index, score the same rows (a paired
    comparison of two nodes: bench/selection_rules.py)."""
    import numpy as np

    yt, yp = np.asarray(y_true), np.asarray(y_pred)
    rng = np.random.default_rng(seed)
    values: list[float] = []
    t0 = time.monotonic()
    for _ in range(RESAMPLES):
        idx = rng.integers(0, len(yt), len(yt))
        try:
            v = float(metric(yt[idx], yp[idx], **params))
        except (ValueError, TypeError, ZeroDivisionError, IndexError):
            v = math.nan  # e.g. a resample with one class only: AUC undefined there
        values.append(v if math.isfinite(v) else math.nan)
        finite = sum(math.isfinite(x) for x in values)
        if finite >= MIN_RESAMPLES and time.monotonic() - t0 > RESAMPLE_SECONDS:
            break
    return values


def bootstrap_se(
    metric: Metric, y_true: Any, y_pred: Any, params: dict[str, Any], seed: int = 0
) -> tuple[float, int]:
    """(standard deviation of the metric over resamples of the rows, resamples used)."""
    import numpy as np

    values = [v for v in resampled_scores(metric, y_true, y_pred, params, seed) if math.isfinite(v)]
    return (float(np.std(values, ddof=1)) if len(values) >= 2 else math.nan), len(values)


def score_rows(task: Task, path: Path) -> HoldoutScore:
    """Validate and score a submission of the holdout rows against `task` (a holdout's score task)."""
    from automind.grading import SubmissionError, resolve_metric, truth_and_predictions, validate_submission

    metric = resolve_metric(task)
    sub = validate_submission(task, path)
    y_true, y_pred = truth_and_predictions(task, sub, metric)
    params = dict(task.spec.metric.params)
    try:
        value = float(metric(y_true, y_pred, **params))
    except (ValueError, TypeError, ZeroDivisionError) as e:
        raise SubmissionError(f"{metric.name} could not score the holdout rows: {e}") from e
    if not math.isfinite(value):
        raise SubmissionError(f"{metric.name} on the holdout rows is {value}")
    se, used = bootstrap_se(metric, y_true, y_pred, params)
    return HoldoutScore(value, se, len(sub), used)


def separate(holdout: Holdout, task: Task, submission: Path, out: Path) -> Separation:
    """Split `submission` (rewritten with the test rows only) and score the holdout rows (written to `out`)."""
    import pandas as pd

    from automind.grading import GradingError, SubmissionError, id_key, validate_submission
    from automind.holdout.layout import read_table

    lay = holdout.layout
    if not submission.is_file():
        return Separation()  # nothing written: the verifier says so against the real task
    try:
        validate_submission(holdout.view_task(task), submission)
    except (SubmissionError, GradingError) as e:
        return Separation(
            error=f"invalid submission (the test rows plus automind's {holdout.n_holdout} holdout rows): {e}"
        )
    raw = read_table(submission)
    keys = id_key(pd.read_csv(submission, usecols=[lay.id_col])[lay.id_col])
    where = pd.Series(range(len(keys)), index=keys.to_numpy())
    wanted = id_key(pd.read_csv(holdout.inputs / lay.sample, usecols=[lay.id_col])[lay.id_col]).to_numpy()
    columns = list(pd.read_csv(holdout.inputs / lay.sample, nrows=0).columns)
    test_rows = where.loc[wanted[: holdout.n_test]].to_numpy()
    held_rows = where.loc[wanted[holdout.n_test :]].to_numpy()
    out.parent.mkdir(parents=True, exist_ok=True)
    raw.iloc[held_rows][columns].to_csv(out, index=False)
    raw.iloc[test_rows][columns].to_csv(submission, index=False)
    try:
        score = score_rows(holdout.score_task(task), out)
    except (SubmissionError, GradingError) as e:
        return Separation(score_error=f"the holdout rows could not be scored: {e}", predictions=out)
    return Separation(score=score, predictions=out)
