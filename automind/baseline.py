"""The trivial baseline of a task: the majority class, the class prior or the training mean.

Computed on the host from the public train file (no model, no sandbox) and written in the sample
submission's shape, so it grades like any submission. `bench/offline_vs_automl.py` reports it next to
automind and FLAML, and the environment's reward measures improvement over it when a task has no
leaderboard.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from automind.recipes.profile import Profile
    from automind.task import Task


def load_public(task: Task, prof: Profile) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The public train (rows with a target) and test tables named by the profile, each with its parts
    (rows split over train_1.csv, train_2.csv or a folder's part files)."""
    from automind.recipes.runtime import read_table, stack_tables

    def read(first: str, parts: list[str]) -> pd.DataFrame:
        table = read_table(task.public_dir / first.removeprefix("./input/"))
        for part in parts:
            table = stack_tables(table, read_table(task.public_dir / part.removeprefix("./input/")))
        return table

    train, test = read(prof.train, prof.train_parts), read(prof.test, prof.test_parts)
    return train.dropna(subset=prof.target).reset_index(drop=True), test


def class_order(train: pd.DataFrame, prof: Profile) -> list[Any]:
    """Classes in a stable order, the positive class last for binary tasks (P(positive) = last column)."""
    classes = sorted(train[prof.target[0]].unique().tolist(), key=str)
    pos = prof.metric_params.get("pos_label")
    if prof.problem == "binary" and pos in classes:
        classes = [c for c in classes if c != pos] + [pos]
    return classes


def fill_submission(
    task: Task, prof: Profile, test: pd.DataFrame, pred: Any, classes: list[Any], out: Path, labelled: int = 0
) -> Path:
    """Write predictions into the sample submission's shape (labels, P(positive) or class columns; a class
    column the `labelled` training rows never show gets runtime.class_columns' add-one share)."""
    import numpy as np

    from automind.csv_scan import read_csv
    from automind.metrics import get_metric
    from automind.recipes.runtime import class_columns, id_order, ranked_labels

    sub = read_csv(task.sample_submission_path)
    cols = [c for c in sub.columns if c != prof.id]
    if prof.id and prof.id in test.columns:
        order = id_order(test[prof.id], sub[prof.id])
        if order.isna().any():
            raise ValueError(
                f"{int(order.isna().sum())} sample-submission ids are not in the test table(s) "
                f"(e.g. {sub[prof.id][order.isna().to_numpy()].iloc[0]!r})"
            )
        pred = np.asarray(pred)[order.to_numpy(dtype=int)]
    if prof.kind == "label":
        sub[cols[0]] = pred if np.ndim(pred) == 1 else np.asarray(classes, dtype=object)[np.argmax(pred, 1)]
    elif prof.kind == "ranking" and np.ndim(pred) == 2:  # the k likeliest classes, best first (MAP@k)
        k = int({**get_metric(prof.metric).params, **prof.metric_params}.get("k", 5))
        sub[cols[0]] = ranked_labels(np.asarray(pred, dtype=float), classes, k)
    elif prof.problem in ("binary", "multiclass"):
        proba = np.asarray(pred, dtype=float)
        if len(cols) == 1:
            sub[cols[0]] = proba[:, -1] if proba.ndim == 2 else proba
        else:
            for c, p in class_columns(cols, proba, classes, labelled).items():
                sub[c] = p
    else:
        sub[cols[0]] = pred
    out.parent.mkdir(parents=True, exist_ok=True)
    sub.to_csv(out, index=False)
    return out


def trivial_submission(task: Task, out: Path) -> Path:
    """Majority class (label metrics), class prior (probability metrics) or training mean, as a CSV at `out`."""
    import numpy as np

    from automind.recipes.profile import profile_task

    prof = profile_task(task)
    train, test = load_public(task, prof)
    y = train[prof.target[0]]
    if prof.problem in ("binary", "multiclass"):
        classes = class_order(train, prof)
        prior = np.array([(y == c).mean() for c in classes])
        pred = np.tile(prior, (len(test), 1)) if prof.kind != "label" else np.array([y.mode()[0]] * len(test))
    else:
        classes, pred = [], np.full(len(test), float(y.mean()))
    return fill_submission(task, prof, test, pred, classes, out, labelled=int(y.notna().sum()))
