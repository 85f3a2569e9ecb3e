"""`task check`'s data checks: what would make a solve or a grade fail, found before either starts.

`inspect_task` (automind.task) checks the folder's shape without reading data. These checks read it:
each tabular train/test file parses with one field count per row and has rows; the target column is
present in train with at least two values; the metric accepts the task's params; the sample submission
validates and, when answers exist, grades (its score is reported). Problems make `task check` exit 1;
warnings (e.g. a non-UTF-8 file, which generated code can still read) are printed and do not.
"""

from __future__ import annotations

import csv
import inspect
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from automind.csv_scan import (
    first_undecodable,
    read_csv,
    scan_csv_file,
    separator,
    table_problem,
    table_suffix,
    text_encoding,
)
from automind.task import Task

SHOW_LINES = 8


@dataclass
class CheckResult:
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)  # e.g. sample_score, for the summary table


def check_task(task: Task) -> CheckResult:
    """Every data problem of a loaded task, each naming its file and what to do."""
    res = CheckResult()
    columns: dict[Path, list[str]] = {}
    for path in [*task.train_paths, *task.test_paths]:
        cols = _check_table(path, res)
        if cols is not None:
            columns[path] = cols
    _check_target(task, columns, res)
    _check_metric_params(task, res)
    _check_sample(task, res)
    if not res.problems:
        _recipe_facts(task, res)
    return res


def _recipe_facts(task: Task, res: CheckResult) -> None:
    """What the offline recipes will read, for the summary: the tables they join beside train and test and
    those they leave out with the reason (docs/recipes.md, "Input files"), the images of a class-folder
    task. A task they cannot read is a warning (an LLM planner may still solve it), not silence: an offline
    solve would fail every draft with the same words."""
    from automind.errors import RoleError
    from automind.recipes.profile import profile_task
    from automind.recipes.runtime import key_name

    try:
        prof = profile_task(task)
    except (RoleError, ValueError, OSError) as e:
        res.warnings.append(
            f"the offline recipes cannot read this task: {str(e).rstrip('.')}. An offline solve (--llm none) "
            "would fail every draft with this error; an LLM planner may still read the files."
        )
        return
    lines = []
    for t in prof.side_tables:
        name = t["path"].removeprefix("./input/")
        with_parts = "".join(f" with {p.removeprefix('./input/')}" for p in t.get("parts", []))
        lines.append(f"{name}{with_parts}: joined on {key_name(t['key'])}")
        lines += [f"{c['path'].removeprefix('./input/')}: joined onto {name} on {key_name(c['key'])}"
                  for c in t.get("children", [])]  # fmt: skip
    lines += [f"{name}: not joined ({why})" for name, why in prof.side_left_out.items()]
    if lines:
        res.facts["side_tables"] = lines
    if prof.class_folders:  # the profile's train and test are the two folders
        folders = (task.public_dir / p.removeprefix("./input/") for p in (prof.train, prof.test))
        res.facts["class_folders"] = _folder_counts(*folders)
    if prof.text_files:
        where = {k: prof.text_files[k].removeprefix("./input/") for k in ("train", "test")}
        res.facts["text_files"] = (
            f"each row's text read from {where['train']}/<{prof.id}>.txt and {where['test']}/<{prof.id}>.txt"
            + (" (the test rows are the sample submission's ids)" if prof.test == prof.sample else "")
        )


def _folder_counts(train_dir: Path, test_dir: Path) -> str:
    """'120 training images in 3 class folders (fewest: Maize, 40); 30 test images': a class with a handful
    of images is visible before a run spends its budget on it."""
    from automind.recipes.profile import IMAGE_SUFFIXES

    def images(folder: Path) -> int:
        return sum(1 for f in folder.iterdir() if f.is_file() and f.suffix.lower() in IMAGE_SUFFIXES)

    counts = {d.name: images(d) for d in sorted(train_dir.iterdir()) if d.is_dir()}
    counts = {k: n for k, n in counts.items() if n}
    fewest = min(counts, key=lambda k: counts[k])
    return (
        f"{sum(counts.values())} training images in {len(counts)} class folders (fewest: {fewest}, "
        f"{counts[fewest]}); {images(test_dir)} test images"
    )


def _check_table(path: Path, res: CheckResult) -> list[str] | None:
    """Header columns of a readable tabular file with rows; None (and a problem) otherwise."""
    try:
        return _table_columns(path, res)
    except OSError as e:
        res.problems.append(f"{path}: cannot be read ({e.strerror}). Check its permissions.")
        return None


def _table_columns(path: Path, res: CheckResult) -> list[str] | None:
    suffix = table_suffix(path)
    if not path.is_file():
        return None  # a folder of files, or missing (inspect_task already said so)
    if path.stat().st_size == 0:
        res.problems.append(f"{path}: empty file. Put the header and the data rows in it.")
        return None
    if why := table_problem(path):  # compressed, binary, or split by another separator than its suffix's
        res.problems.append(why)
        return None
    if suffix == ".parquet":
        return _parquet_columns(path, res)
    sep = separator(path)
    if sep is None:
        return None

    errors = "strict"
    bad_byte = first_undecodable(path)
    if bad_byte is not None:
        offset, value, line = bad_byte
        res.warnings.append(
            f"{path}: not UTF-8 (byte 0x{value:02x} at offset {offset}, line {line}). automind and its "
            f"recipes read it as {text_encoding(path)} (the run report says so); a script must pass that "
            "encoding to pandas' read_csv. If that is not the file's encoding, convert it to UTF-8 "
            "(iconv -f ENCODING -t utf-8)."
        )
        errors = "replace"
    try:
        bad = scan_csv_file(path, sep, text_encoding(path) if bad_byte else "utf-8", errors)
    except (csv.Error, ValueError) as e:
        res.problems.append(f"{path}: cannot be read as a table ({e}).")
        return None
    if not bad.header:
        res.problems.append(f"{path}: no header row. Put the column names on the first line.")
        return None
    if bad.count:  # lines above the header or after the rows were named by table_problem
        res.problems.append(
            f"{path}: {bad.describe(SHOW_LINES)}. pandas would shift columns or stop there; fix those rows "
            "(often an unquoted separator inside a value)."
        )
    elif bad.rows == 0:
        res.problems.append(f"{path}: has a header but no rows. Add the data rows.")
    return bad.header


def _parquet_columns(path: Path, res: CheckResult) -> list[str] | None:
    from automind.extras import MissingExtra, require

    try:
        pq = require("pyarrow.parquet", "reading Parquet files")
        meta = pq.ParquetFile(path).metadata
    except MissingExtra as e:
        res.warnings.append(f"{path}: not checked inside: {e}")
        return None
    except Exception as e:  # noqa: BLE001 - any failure to open is the file's problem
        res.problems.append(f"{path}: cannot be read as Parquet ({e}).")
        return None
    if meta.num_rows == 0:
        res.problems.append(f"{path}: has no rows. Add the data rows.")
    return [meta.schema.column(i).name for i in range(meta.num_columns)]


def _read_column(path: Path, column: str) -> Any:
    import pandas as pd

    if table_suffix(path) == ".parquet":
        return pd.read_parquet(path, columns=[column])[column]
    sep = separator(path)
    return read_csv(path, usecols=[column], sep=sep, low_memory=False)[column]  # in the file's encoding


def _check_target(task: Task, columns: dict[Path, list[str]], res: CheckResult) -> None:
    """The label column is found the way the solve finds it: a target column in train, else the one
    column only train has."""
    train = next((p for p in task.train_paths if p in columns), None)
    if train is None:
        return
    test = next((p for p in task.test_paths if p in columns), None)
    train_cols, test_cols = columns[train], columns[test] if test is not None else []
    id_col = task.spec.id_column
    wanted = [c for c in task.spec.target_columns if c != id_col]
    found = [c for c in wanted if c in train_cols]
    if not found and test is not None:
        only_train = [c for c in train_cols if c not in test_cols and c != id_col]
        if len(only_train) == 1:
            found = only_train
    if not found:
        where = f"task.yaml target_columns {wanted}" if wanted else "no target_columns in task.yaml"
        res.problems.append(
            f"{train}: no target column ({where}; columns: {', '.join(train_cols[:20])}"
            f"{' ...' if len(train_cols) > 20 else ''}). Set target_columns in task.yaml to the label column."
        )
        return
    for c in found:
        try:
            y = _read_column(train, c)
        except Exception as e:  # noqa: BLE001 - any read failure is the file's problem
            res.problems.append(f"{train}: cannot read column '{c}' ({e}).")
            continue
        values = y.dropna()
        if values.empty:
            res.problems.append(f"{train}: target column '{c}' is empty (every value is missing). Fill it.")
        elif values.nunique() < 2 and task.spec.problem_type != "regression":
            v = values.iloc[0]
            res.problems.append(
                f"{train}: target column '{c}' has the single value {v.item() if hasattr(v, 'item') else v!r}; "
                "there is nothing to learn. Check the data or target_columns."
            )


def _check_metric_params(task: Task, res: CheckResult) -> None:
    """Parameter names the metric function does not take (values are checked by grading the sample)."""
    from automind.grading import GradingError, resolve_metric

    params = task.spec.metric.params
    if not params:
        return
    try:
        metric = resolve_metric(task)
        sig = inspect.signature(metric.fn)
    except (GradingError, TypeError, ValueError):
        return  # an unknown metric is reported by inspect_task; builtins without a signature are not checked
    try:
        sig.bind(None, None, **{**metric.params, **params})
    except TypeError:
        takes = [n for n in list(sig.parameters)[2:] if sig.parameters[n].kind is inspect.Parameter.KEYWORD_ONLY
                 or sig.parameters[n].default is not inspect.Parameter.empty]  # fmt: skip
        unknown = [k for k in params if k not in sig.parameters]
        res.problems.append(
            f"{task.root / 'task.yaml'}: metric {metric.name} does not take parameter(s) {unknown or list(params)} "
            f"(it takes: {', '.join(takes) or 'none'}). Fix metric.params."
        )


def _check_sample(task: Task, res: CheckResult) -> None:
    """The sample submission must validate, and grade against the answers when they exist."""
    from automind.grading import GradingError, SubmissionError, grade, validate_submission

    sample = task.sample_submission_path
    if not sample.is_file():
        return
    if why := table_problem(sample, sample=True):  # e.g. every line ending with a comma: an empty column
        res.problems.append(why)
        return
    if task.answers_path is None:
        try:
            validate_submission(task, sample)
        except (SubmissionError, GradingError) as e:
            res.problems.append(f"sample submission is not a valid submission: {e}")
            return
        res.facts["sample_score"] = "not graded: no private answers (the task can be solved, not graded)"
        return
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. sklearn's undefined-metric warning; the result says it
            report = grade(task, sample)
    except GradingError as e:
        res.problems.append(f"the sample submission cannot be graded: {e}")
        return
    except Exception as e:  # noqa: BLE001 - a broken answers file or metric must be reported, not raised
        res.problems.append(
            f"grading the sample submission against {task.answers_path} failed ({type(e).__name__}: {e}). "
            "Check the answers file and metric.params."
        )
        return
    if report.score_undefined:  # a valid file whose constant predictions leave the metric undefined
        res.facts["sample_score"] = f"undefined ({report.error}); the file itself is a valid submission"
        return
    if not report.valid:
        res.problems.append(
            f"the sample submission does not grade against {task.answers_path.name}: {report.error}"
        )
        return
    res.facts["sample_score"] = f"{report.score} ({report.metric})"
