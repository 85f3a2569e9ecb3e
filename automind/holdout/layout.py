"""What a task's files allow the holdout to do: one train table, one test table, a sample submission.

`read_layout` either describes the layout (which columns hold the answers, how submission rows are matched
to test rows) or raises `HoldoutUnavailable` with a sentence a user can act on. Tables are read as text
(`dtype=str`), so the view rewrites every value exactly as the task wrote it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

    from automind.metrics import Metric
    from automind.task import Task

MAX_TRAIN_BYTES = 1 << 30  # the split reads the train table into memory


class HoldoutUnavailable(ValueError):
    """The task's layout or size does not allow a holdout; the message says why (shown in run.json)."""


@dataclass
class Layout:
    """The three tables and how the holdout maps onto them (paths relative to public/)."""

    train: str
    test: str
    sample: str
    id_col: str  # the submission's id column
    id_in_test: bool  # False: submission rows follow test rows by position
    id_in_train: bool
    label_cols: list[str]  # train columns that hold the answers
    pred_cols: list[str]  # the submission's prediction columns
    problem: str  # binary | multiclass | multilabel | regression | other
    others: list[str] = field(default_factory=list)  # every other public entry, shown unchanged


def read_table(path: Path) -> pd.DataFrame:
    """A CSV or TSV as text: every value exactly as written, empty cells as empty strings (a file not in
    UTF-8 decoded as automind.csv_scan.read_csv decodes it; the view writes each file back in its source's
    encoding and separator), without the rows that repeat the header or give units (runtime.header_rows)."""
    from automind.csv_scan import default_separator, read_csv
    from automind.recipes.runtime import header_rows

    df = read_csv(path, sep=default_separator(path), dtype=str, keep_default_na=False, low_memory=False)
    data = ~header_rows(df)  # the rows the recipes read (a repeated header left out)
    return df[data].reset_index(drop=True)


def _one_csv(paths: list[Path], what: str, task: Task) -> Path:
    names = [p.relative_to(task.public_dir).as_posix() for p in paths]
    if len(paths) != 1:
        listed = ", ".join(names) or "none"
        raise HoldoutUnavailable(
            f"the task has {len(paths)} {what} files ({listed}); the holdout splits exactly one"
        )
    p = paths[0]
    if not p.is_file():
        raise HoldoutUnavailable(f"{names[0]} is a folder; the holdout splits one CSV table of rows")
    from automind.csv_scan import separator, table_suffix

    if separator(p) is None:  # plain or compressed: the view is written the same way
        raise HoldoutUnavailable(
            f"{names[0]}: only delimited tables (CSV, TSV, a .txt table) can be split (found "
            f"{table_suffix(p) or 'no suffix'})"
        )
    return p


def _metric(task: Task) -> Metric:
    from automind.grading import GradingError, resolve_metric

    try:
        metric = resolve_metric(task)
    except GradingError as e:
        raise HoldoutUnavailable(f"the metric cannot be computed by automind ({e})") from e
    if metric.kind == "ranking":
        raise HoldoutUnavailable(
            f"{metric.name} scores rankings, which the holdout does not rebuild from train rows"
        )
    return metric


def _problem(task: Task, labels: pd.DataFrame, metric: Metric) -> str:
    """The task's problem type, else inferred from the answers as `automind task prepare` does."""
    if task.spec.problem_type:
        return task.spec.problem_type
    import pandas as pd

    from automind.prepare import infer_problem_type

    if labels.shape[1] > 1:
        return infer_problem_type(labels, metric)
    y = labels.iloc[:, 0]
    y = y[y != ""]
    numbers = pd.to_numeric(y, errors="coerce")
    return infer_problem_type(numbers if numbers.notna().all() else y, metric)


def read_layout(task: Task) -> tuple[Layout, pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(layout, train, test, sample) as text frames; HoldoutUnavailable when the layout cannot be split."""
    train_path = _one_csv(task.train_paths, "training", task)
    test_path = _one_csv(task.test_paths, "test", task)
    sample_path = task.sample_submission_path
    if not sample_path.is_file():
        raise HoldoutUnavailable(f"no sample submission ({task.spec.sample_submission}) to extend")
    if train_path.stat().st_size > MAX_TRAIN_BYTES:
        gb = train_path.stat().st_size / 2**30
        raise HoldoutUnavailable(
            f"{train_path.name} is {gb:.1f} GB; the holdout splits tables up to 1 GB in memory"
        )
    metric = _metric(task)
    try:
        train, test, sample = read_table(train_path), read_table(test_path), read_table(sample_path)
    except (ValueError, OSError) as e:  # pandas' parser errors are ValueErrors
        raise HoldoutUnavailable(f"the tables cannot be read as CSV ({type(e).__name__}: {e})"[:300]) from e
    id_col = task.spec.id_column or str(sample.columns[0])
    pred_cols = [c for c in sample.columns if c != id_col]
    if id_col not in sample.columns or not pred_cols:
        raise HoldoutUnavailable(f"the sample submission has no id column '{id_col}' and prediction columns")
    if len(sample) != len(test):
        raise HoldoutUnavailable(
            f"the sample submission has {len(sample)} rows for {len(test)} test rows; the holdout needs one "
            "submission row per test row"
        )
    id_in_test = id_col in test.columns
    if id_in_test and set(sample[id_col]) != set(test[id_col]):
        raise HoldoutUnavailable(f"the sample submission's '{id_col}' values are not the test file's")
    if set(pred_cols) <= set(train.columns):
        label_cols = list(pred_cols)
    else:
        only_train = [c for c in train.columns if c not in test.columns and c != id_col]
        if metric.kind == "proba" and len(pred_cols) > 1 and len(only_train) == 1:
            label_cols = only_train  # one label column against per-class probability columns
        elif len(pred_cols) == 1 and len(only_train) == 1:
            label_cols = only_train  # the sample renames the target: 'Predicted' for 'SalePrice'
        else:
            raise HoldoutUnavailable(
                f"cannot tell which training columns hold the answers for the submission columns {pred_cols}"
            )
    names = [p.relative_to(task.public_dir).as_posix() for p in (train_path, test_path, sample_path)]
    nested = [n for n in names if "/" in n]
    if nested:
        raise HoldoutUnavailable(
            f"{nested[0]} sits in a sub-folder; the holdout rewrites top-level tables only"
        )
    others = sorted(
        p.name for p in task.public_dir.iterdir() if p.name not in names and not p.name.startswith(".")
    )
    layout = Layout(
        train=train_path.relative_to(task.public_dir).as_posix(),
        test=test_path.relative_to(task.public_dir).as_posix(),
        sample=sample_path.relative_to(task.public_dir).as_posix(),
        id_col=id_col,
        id_in_test=id_in_test,
        id_in_train=id_col in train.columns,
        label_cols=label_cols,
        pred_cols=pred_cols,
        problem=_problem(task, train[label_cols], metric),
        others=others,
    )
    return layout, train, test, sample
