"""Turn one labelled table into a gradable task folder (MLE-bench style split).

Layout written: public/train.csv (with target), public/test.csv (without), public/sample_submission.csv,
private/answers.csv, task.yaml, description.md. The split is seeded and stratified for classification,
so the same inputs always give the same task.
"""

from __future__ import annotations

import csv
import io
import math
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Literal

import pandas as pd
import yaml

from automind.csv_scan import (
    ArchiveError,
    BadLines,
    default_separator,
    first_undecodable,
    layout_hint,
    looks_separated_by,
    not_text,
    open_bytes,
    scan_csv,
    scan_csv_file,
)
from automind.metrics import Metric, get_metric, positive_label, sorted_labels

OWNED = (
    "public",
    "private",
    "task.yaml",
    "description.md",
)  # what --force may replace; nothing else is touched
MAX_CLASSES = 50  # an integer target with more distinct values than this is treated as regression


class PrepareError(ValueError):
    """Bad arguments to prepare_task; the message names the column/file and what to do."""


def read_labelled_csv(
    path: Path,
    on_bad_lines: Literal["error", "skip"] = "error",
    encoding: str = "utf-8",
    sep: str | None = None,
) -> tuple[pd.DataFrame, BadLines]:
    """Read a labelled CSV, refusing rows with a different field count unless on_bad_lines is "skip".

    pandas alone would take extra fields on the first row as an index (shifting every column) or stop
    at the first long row; this reads each row's field count first so the error can name every bad line.
    `sep` defaults to the suffix's separator (tab for .tsv).
    """
    sep = sep or default_separator(path)
    if len(sep) != 1:
        raise PrepareError(f"--sep {sep!r}: give one character, e.g. ',' or ';' (a tab: --sep $'\\t').")
    if what := not_text(path):
        raise PrepareError(f"{what}.")
    try:
        undecodable = first_undecodable(path, encoding)
        if undecodable is not None:
            _, value, line = undecodable
            raise PrepareError(
                f"{path}: not {encoding} text (byte 0x{value:02x} on line {line}). Pass the file's encoding "
                "with --encoding (e.g. latin-1 or cp1252); the task is written as UTF-8."
            )
        bad = scan_csv_file(path, sep, encoding)
    except ArchiveError as e:
        raise PrepareError(f"{e}: extract the CSV and pass it.") from e
    except (OSError, csv.Error) as e:
        raise PrepareError(f"{path}: cannot read as CSV ({e}).") from e
    if bad.header_fields == 0:
        raise PrepareError(f"{path}: empty file. Pass a CSV with a header row and labelled rows.")
    if guess := looks_separated_by(bad.header, sep):
        flag = "$'\\t'" if guess[0] == "\t" else repr(guess[0])
        raise PrepareError(f"{path}: {guess[1]}. Pass --sep {flag}.")
    source: Path | io.StringIO = path
    if bad.count:
        if on_bad_lines != "skip":
            hint = layout_hint(path, sep, bad, then="and pass the copy")
            raise PrepareError(
                f"{path}: {bad.describe()}. "
                + (
                    f"{hint}."
                    if hint
                    else "Fix those rows (often an unquoted comma inside a value), or pass "
                    "--on-bad-lines skip to leave them out."
                )  # fmt: skip
            )
        rows: list[list[str]] = []
        with open_bytes(path) as raw:  # a compressed CSV (data.csv.gz) is read as the table inside
            scan_csv(io.TextIOWrapper(raw, encoding=encoding, newline=""), sep, rows, bad.escapechar)
        buffer = io.StringIO()
        csv.writer(buffer).writerows(rows)
        buffer.seek(0)
        source = buffer
    try:
        df = pd.read_csv(
            source,
            sep=sep if source is path else ",",
            index_col=False,
            encoding=encoding if source is path else None,
            escapechar=bad.escapechar if source is path else None,
        )
    except Exception as e:  # noqa: BLE001 - any parse failure is the user's file
        raise PrepareError(f"{path}: cannot read as CSV ({e}).") from e
    return df, bad


def infer_problem_type(y: pd.Series | pd.DataFrame, metric: Metric) -> str:
    """Classification vs regression from the metric kind first, then from the target values."""
    if isinstance(y, pd.DataFrame):
        return "multilabel" if metric.kind in ("proba", "label") else "regression"
    n = y.nunique(dropna=True)
    if metric.kind == "value" and metric.name not in ("quadratic_weighted_kappa",):
        return "regression"
    if metric.kind in ("label", "proba", "ranking"):
        return "binary" if n <= 2 else "multiclass"
    numeric_float = pd.api.types.is_float_dtype(y) and not (y.dropna() % 1 == 0).all()
    if numeric_float or (pd.api.types.is_numeric_dtype(y) and n > MAX_CLASSES):
        return "regression"
    return "binary" if n <= 2 else "multiclass"


def _plain(value: Any) -> str:
    """A value as the user wrote it (numpy scalars unwrapped), for error messages."""
    return repr(value.item() if hasattr(value, "item") else value)


def _free_name(columns: list[str], base: str = "id") -> str:
    name, i = base, 0
    while name in columns:
        i += 1
        name = f"{base}_{i}" if i > 1 else f"row_{base}"
    return name


def _refuse_continuous_classes(y: pd.Series, metric: Metric, n_rows: int) -> None:
    """A class-label metric on a measured quantity would make one class per distinct number."""
    if metric.kind not in ("label", "proba", "ranking"):
        return
    values = y.dropna()
    n = values.nunique()
    numeric = pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)
    if numeric and not (values % 1 == 0).all():
        why = (
            f"holds continuous numbers (e.g. {_plain(values[values % 1 != 0].iloc[0])}; {n} distinct values)"
        )
    elif numeric and n > MAX_CLASSES:
        why = f"holds {n} distinct integers, more than the {MAX_CLASSES} classes a class-label task is assumed to have"
    elif not numeric and n > max(MAX_CLASSES, n_rows // 2):
        why = f"has {n} distinct values in {n_rows} rows, so most classes would have a single row"
    else:
        return
    raise PrepareError(
        f"metric '{metric.name}' scores class labels, but target '{y.name}' {why}. Use a regression metric "
        "such as rmse or mae, bin the target into classes first, or pass --problem-type multiclass if these "
        "really are class labels."
    )


def _check_out_dir(out: Path, force: bool, dry_run: bool = False) -> None:
    if out.exists() and not out.is_dir():
        raise PrepareError(f"{out}: exists and is not a directory. Choose another OUT_DIR.")
    if out.is_dir() and any(out.iterdir()):
        if not force:
            raise PrepareError(
                f"{out}: not empty. Choose an empty or new OUT_DIR, or pass --force to replace "
                f"{', '.join(OWNED)} there (other files are left alone)."
            )
        if dry_run:
            return
        for name in OWNED:
            p = out / name
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p)
            elif p.exists() or p.is_symlink():
                p.unlink()


def _sample_submission(ids: pd.Series, y_train: pd.Series | pd.DataFrame, metric: Metric, problem: str,
                       id_col: str, targets: list[str]) -> tuple[pd.DataFrame, dict[str, Any]]:  # fmt: skip
    """Constant predictions that validate and score: prior/majority/mean, per the metric's kind."""
    sub = pd.DataFrame({id_col: ids.to_numpy()})
    params: dict[str, Any] = {}
    if isinstance(y_train, pd.DataFrame):
        for c in targets:
            sub[c] = (
                float(y_train[c].mean())
                if pd.api.types.is_numeric_dtype(y_train[c])
                else y_train[c].mode()[0]
            )
        return sub, params
    target = targets[0]
    counts = y_train.value_counts()
    if metric.kind == "value" and problem == "regression":
        sub[target] = float(y_train.mean())
    elif metric.kind == "proba" and problem == "binary":
        pos = positive_label(y_train)
        if pos != 1:
            params["pos_label"] = pos
        sub[target] = round(float((y_train == pos).mean()), 6)
    elif metric.kind == "proba":
        prior = (counts / counts.sum()).round(6)
        for c in sorted_labels(y_train):
            sub[str(c)] = float(prior[c])
    elif metric.kind == "ranking":
        k = int(metric.params.get("k", 5))
        sub[target] = " ".join(str(c) for c in counts.index[:k])
    else:
        sub[target] = counts.index[0]
    return sub, params


def _describe(name: str, metric: Metric, problem: str, id_col: str, targets: list[str], sub_cols: list[str],
              n_train: int, n_test: int, split: str = "") -> str:  # fmt: skip
    direction = "lower is better" if metric.lower_is_better else "higher is better"
    tgt = ", ".join(f"`{t}`" for t in targets)
    pred = ", ".join(f"`{c}`" for c in sub_cols if c != id_col)
    kind_text = {
        "label": "the predicted label",
        "proba": "predicted probabilities",
        "value": "the predicted value",
        "ranking": f"up to {metric.params.get('k', 5)} space-separated predictions, best first",
    }[metric.kind]
    return (
        f"# {name}\n\n"
        f"Predict {tgt} ({problem}) for every row of the test set.\n\n"
        f"## Evaluation\n\nSubmissions are scored with **{metric.name}** ({direction}).\n\n"
        f"## Files\n\n"
        f"- `train.csv`: {n_train} rows with the features and the target {tgt}.\n"
        f"- `test.csv`: {n_test} rows with the same features but no target{split}.\n"
        f"- `sample_submission.csv`: a valid submission in the expected format.\n\n"
        f"## Submission format\n\n"
        f"A CSV with one row per test row and the columns `{id_col}`, {pred}: {kind_text}. "
        f"Rows are matched by `{id_col}`; their order does not matter.\n"
    )


def unlabelled_rows(df: pd.DataFrame, targets: list[str]) -> int:
    """Rows with no value in a target column: prepare_task leaves them out (nothing to grade or learn), and
    the CLI says how many, since on some data (survey panels) that is a large share."""
    return int(df[targets].isna().any(axis=1).sum())


def prepare_task(
    df: pd.DataFrame,
    out_dir: str | Path,
    target: str | list[str],
    metric: str,
    id_col: str | None = None,
    test_size: float = 0.2,
    seed: int = 0,
    description: str | None = None,
    name: str | None = None,
    problem_type: str | None = None,
    force: bool = False,
    lower_is_better: bool | None = None,
    time_col: str | None = None,
    group_col: str | None = None,
) -> Path:
    """Split df into a task folder at out_dir and return its path. Nothing is written on bad input.

    By default the test rows are a random (class-stratified) share. `time_col` makes them the latest rows by
    that column (a forecast: every test row comes after every training row); `group_col` holds out whole
    groups of that column (new patients, shops, users), so a score says how the model does on groups it has
    not seen, as it will be used."""
    from sklearn.model_selection import train_test_split

    out = Path(out_dir).expanduser().resolve()
    targets = [target] if isinstance(target, str) else list(target)
    repeated = sorted({t for t in targets if targets.count(t) > 1})
    if repeated:
        raise PrepareError(
            f"target column(s) {repeated} given more than once; name each target column once (--target COL)."
        )
    cols = [str(c) for c in df.columns]
    missing = [t for t in targets if t not in df.columns]
    if missing:
        raise PrepareError(
            f"target column(s) {missing} not in the data. Available columns: {', '.join(cols)}."
        )
    if id_col is not None and id_col not in df.columns:
        raise PrepareError(f"id column '{id_col}' not in the data. Available columns: {', '.join(cols)}.")
    if id_col in targets:
        raise PrepareError(f"id column '{id_col}' is also the target; pick a different --id.")
    _check_split_columns(df, targets, time_col, group_col)
    if not 0 < test_size < 1:
        raise PrepareError(f"test_size must be between 0 and 1 (exclusive), got {test_size}.")
    m = get_metric(metric, lower_is_better=lower_is_better)
    df = df.dropna(subset=targets).reset_index(drop=True)
    if len(df) < 4:
        raise PrepareError(f"only {len(df)} row(s) with a target value; need at least 4 to split.")
    if id_col is None:
        id_col = _free_name(cols)
        df.insert(0, id_col, range(len(df)))
    elif df[id_col].duplicated().any():
        dup = df.loc[df[id_col].duplicated(), id_col].iloc[0]
        raise PrepareError(
            f"id column '{id_col}' has duplicates (e.g. {_plain(dup)}); ids must be unique. Omit --id to add one."
        )
    else:
        df = df[[id_col] + [c for c in df.columns if c != id_col]]
    for t in targets:
        values = df[t].unique()
        if len(values) < 2:
            raise PrepareError(
                f"target '{t}' has the single value {_plain(values[0])} in all {len(df)} labelled rows: there is "
                f"nothing to predict and {m.name} cannot rank or score it. Check --target and the data."
            )
    y = df[targets[0]] if len(targets) == 1 else df[targets]
    if problem_type is None and isinstance(y, pd.Series):
        _refuse_continuous_classes(y, m, len(df))
    problem = problem_type or infer_problem_type(y, m)
    if problem == "regression":
        for t in targets:
            numbers = pd.to_numeric(df[t], errors="coerce")
            if numbers.isna().any():
                bad = df.loc[numbers.isna(), t].iloc[0]
                raise PrepareError(
                    f"metric '{m.name}' scores numeric predictions, but target '{t}' has non-numeric "
                    f"values (e.g. {_plain(bad)}). Use a classification metric such as accuracy or log_loss, "
                    f"or convert the column to numbers."
                )
        _refuse_out_of_domain(df, targets, m)

    n_test = math.ceil(test_size * len(df))  # as train_test_split counts them
    if n_test < 1 or len(df) - n_test < 2:
        raise PrepareError(
            f"--test-size {test_size:g} of {len(df)} labelled row(s) leaves {len(df) - n_test} for training and "
            f"{n_test} for the test set; each side needs rows (training at least 2). Use a test size such as 0.2."
        )
    stratify = None
    if problem in ("binary", "multiclass") and isinstance(y, pd.Series):
        counts = y.value_counts()
        if counts.min() >= 2 and n_test >= len(counts) and len(df) - n_test >= len(counts):
            stratify = y
    if time_col is not None:
        train, test = _time_split(df, time_col, n_test)
    elif group_col is not None:
        train, test = _group_split(df, group_col, n_test, seed)
    else:
        try:
            train, test = train_test_split(df, test_size=test_size, random_state=seed, stratify=stratify)
        except ValueError as e:  # sklearn's own checks on a split it cannot make
            raise PrepareError(f"cannot split {len(df)} row(s) with --test-size {test_size:g}: {e}") from e
    train, test = train.reset_index(drop=True), test.reset_index(drop=True)
    y_train = train[targets[0]] if len(targets) == 1 else train[targets]
    sub, params = _sample_submission(test[id_col], y_train, m, problem, id_col, targets)

    _check_out_dir(out, force=force, dry_run=True)
    try:  # staged beside OUT_DIR (same filesystem), moved in only once it grades
        stage = Path(tempfile.mkdtemp(prefix=".automind-prepare-", dir=_nearest_dir(out.parent)))
    except OSError as e:
        raise PrepareError(f"{out}: cannot write there ({e.strerror}). Choose a writable OUT_DIR.") from e
    try:
        split = (f": the latest rows by `{time_col}`, all after the training rows" if time_col else
                 f": whole groups of `{group_col}` that the training rows never show" if group_col else "")  # fmt: skip
        _write(stage, train, test, sub, id_col, targets, m, params, problem, lower_is_better,
               name or out.name, description, split)  # fmt: skip
        _sample_must_grade(stage, problem, _missing_classes(df, test, targets, problem))
        _check_out_dir(out, force)
        out.mkdir(parents=True, exist_ok=True)
        for entry in OWNED:
            os.replace(stage / entry, out / entry)
    except OSError as e:
        raise PrepareError(f"{out}: cannot write the task ({e.strerror}). Choose a writable OUT_DIR.") from e
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return out


def _check_split_columns(
    df: pd.DataFrame, targets: list[str], time_col: str | None, group_col: str | None
) -> None:
    """A split column must exist, not be a target, and only one kind of split can be asked for."""
    if time_col is not None and group_col is not None:
        raise PrepareError(
            f"--time-column {time_col} and --group-column {group_col} both given; a test set is either the "
            "latest rows or whole groups. Pick one."
        )
    for flag, col in (("--time-column", time_col), ("--group-column", group_col)):
        if col is None:
            continue
        if col not in df.columns:
            raise PrepareError(
                f"{flag} '{col}' is not in the data. Available columns: {', '.join(map(str, df.columns))}."
            )
        if col in targets:
            raise PrepareError(f"{flag} '{col}' is the target; split by another column.")


def _time_split(df: pd.DataFrame, col: str, n_test: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The latest `n_test` rows by `col` (numbers, or dates in any format pandas reads) are the test set;
    rows tied with the first test row's time go to the test set too, so no training row is as late as a
    test row."""
    values = df[col]
    if pd.api.types.is_numeric_dtype(values):
        when = pd.to_numeric(values, errors="coerce")
    else:
        from automind.recipes.runtime import read_times

        when = read_times(values, mixed=True)
    bad = when.isna()
    if bad.any():
        raise PrepareError(
            f"--time-column '{col}': {int(bad.sum())} of {len(df)} labelled row(s) have no readable time "
            f"(e.g. {_plain(values[bad].iloc[0])}). Fill or drop them, or split "
            "another way."
        )
    order = when.sort_values(kind="stable")
    cut = order.iloc[len(df) - n_test]
    is_test = when >= cut
    if (~is_test).sum() < 2:
        raise PrepareError(
            f"--time-column '{col}': {int(is_test.sum())} of {len(df)} row(s) share the latest times from "
            f"{_plain(cut)} on, leaving fewer than 2 training rows. Use a smaller --test-size."
        )
    return df[~is_test].reset_index(drop=True), df[is_test].reset_index(drop=True)


def _group_split(df: pd.DataFrame, col: str, n_test: int, seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Whole groups of `col`, drawn in a seeded order until they hold `n_test` rows, are the test set (an
    empty value is a group of its own)."""
    import random

    from automind.holdout.split import take_groups

    keys = df[col].astype(str).where(df[col].notna(), "")
    sizes = keys.value_counts()
    if len(sizes) < 2:
        raise PrepareError(
            f"--group-column '{col}' has a single value in all {len(df)} row(s); it needs at least two groups."
        )
    order = sorted(sizes.index)
    random.Random(seed).shuffle(order)
    chosen = take_groups(order, sizes, n_test)
    if len(chosen) == len(order):
        raise PrepareError(
            f"--group-column '{col}': its {len(order)} group(s) are too few or too large for --test-size to "
            "leave any training group. Use a smaller --test-size or a column with more groups."
        )
    is_test = keys.isin(chosen)
    return df[~is_test].reset_index(drop=True), df[is_test].reset_index(drop=True)


def _nearest_dir(path: Path) -> Path:
    """The closest existing folder at or above path (staging goes there: same filesystem, atomic moves)."""
    while not path.exists():
        path = path.parent
    if not path.is_dir():
        raise PrepareError(
            f"{path}: is a file, so no task folder can be created under it. Choose another OUT_DIR."
        )
    return path


def _missing_classes(df: pd.DataFrame, test: pd.DataFrame, targets: list[str], problem: str) -> str:
    """Which classes the held-out split lacks (the usual reason a ranking metric cannot score it)."""
    if problem not in ("binary", "multiclass") or len(targets) != 1:
        return ""
    lost = sorted(set(df[targets[0]]) - set(test[targets[0]]), key=str)
    return (
        f"; the test split has no row of class(es) {', '.join(_plain(v) for v in lost[:5])}" if lost else ""
    )


def _refuse_out_of_domain(df: pd.DataFrame, targets: list[str], m: Metric) -> None:
    """A regression metric that cannot score the answers against themselves (RMSLE with values <= -1)
    cannot score any submission either: say so before splitting, naming the target and the metric."""
    y = df[targets].apply(pd.to_numeric).to_numpy(dtype=float)
    y = y[:, 0] if len(targets) == 1 else y
    try:
        m(y, y)
    except (ValueError, ZeroDivisionError) as e:
        raise PrepareError(
            f"metric '{m.name}' cannot score target {', '.join(repr(t) for t in targets)}: "
            f"{str(e).rstrip('.')}. Pick a metric defined for these values (rmse or mae take any number)."
        ) from e


def _sample_must_grade(stage: Path, problem: str, hint: str = "") -> None:
    """The sample submission is graded against the answers before anything reaches OUT_DIR."""
    import warnings

    from automind.grading import GradingError, grade
    from automind.task import Task, TaskError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the failure is reported below, in words
            report = grade(Task.load(stage), stage / "public" / "sample_submission.csv")
    except (TaskError, GradingError) as e:
        raise PrepareError(f"the prepared task does not load or grade: {e}") from e
    if not report.valid and not report.score_undefined:  # constant predictions may leave a metric undefined
        raise PrepareError(
            f"the sample submission of this split does not grade ({(report.error or '').rstrip('.')}{hint}). "
            + (
                "Usually a class is too rare for the test set: raise --test-size, drop the rare class, or pick "
                "another metric."
                if problem in ("binary", "multiclass", "multilabel")
                else "Check the metric against the target's values, or pick another metric."
            )
        )


def _write(out: Path, train: pd.DataFrame, test: pd.DataFrame, sub: pd.DataFrame, id_col: str,
           targets: list[str], m: Metric, params: dict[str, Any], problem: str, lower_is_better: bool | None,
           task_name: str, description: str | None, split: str = "") -> None:  # fmt: skip
    (out / "public").mkdir(parents=True, exist_ok=True)
    (out / "private").mkdir(parents=True, exist_ok=True)
    train.to_csv(out / "public" / "train.csv", index=False)
    test.drop(columns=targets).to_csv(out / "public" / "test.csv", index=False)
    sub.to_csv(out / "public" / "sample_submission.csv", index=False)
    test[[id_col, *targets]].to_csv(out / "private" / "answers.csv", index=False)

    metric_spec: dict[str, Any] = {"name": m.name}
    if params:
        metric_spec["params"] = params
    if lower_is_better is not None:
        metric_spec["lower_is_better"] = lower_is_better
    spec = {
        "name": task_name,
        "metric": metric_spec,
        "id_column": id_col,
        "target_columns": targets,
        "problem_type": problem,
        "submission_file": "submission.csv",
    }
    (out / "task.yaml").write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    text = description or _describe(
        task_name, m, problem, id_col, targets, list(sub.columns), len(train), len(test), split
    )
    (out / "description.md").write_text(text, encoding="utf-8")
