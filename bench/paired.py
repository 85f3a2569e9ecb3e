"""Is one submission really better than another on the test rows, or a few rows luckier? A paired bootstrap.

    python bench/paired.py TASKS_DIR OUT [--against OUT_B]

OUT is a folder written by bench/offline_vs_automl.py (OUT/<task>/run/ for automind, OUT/<task>/flaml.csv,
OUT/<task>/autogluon.csv). For every task found there it prints automind's graded gain over FLAML and over
AutoGluon, and what the search gained between 25 % and 100 % of the budget (the saved search-time
submissions of the best node at each point, so the final refit is in neither); with `--against`,
automind's final submission in OUT against the one in OUT_B (e.g. a 600 s run against a 120 s run).

Each gain is positive when automind (the first submission) is better in the metric's direction, with a
95 % interval from resampling the test rows (the same rows for both submissions, so what they share
cancels). An interval that contains 0 means the test set cannot tell the two apart: the bundled test
sets have 69 to 1000 rows, where one row of accuracy is 0.1 to 1.4 points.
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from automind.grading import resolve_metric, truth_and_predictions, validate_submission
from automind.task import Task

RESAMPLES = 1000


@dataclass
class Gain:
    value: float  # graded score of a minus that of b, signed so that positive means a is better
    low: float  # 2.5 % and 97.5 % quantiles of the same over resamples of the test rows
    high: float
    rows: int

    def __str__(self) -> str:
        mark = "" if self.low <= 0.0 <= self.high else " *"
        return f"{self.value:+.4f} [{self.low:+.4f}, {self.high:+.4f}]{mark}"


def paired_gain(task: Task, a: Path, b: Path, resamples: int = RESAMPLES, seed: int = 0) -> Gain:
    """How much better submission `a` grades than `b` on `task`'s answers, with a paired bootstrap interval."""
    metric = resolve_metric(task)
    params = dict(task.spec.metric.params)
    y, pa = truth_and_predictions(task, validate_submission(task, a), metric)
    _, pb = truth_and_predictions(task, validate_submission(task, b), metric)
    y, pa, pb = np.asarray(y), np.asarray(pa), np.asarray(pb)
    sign = -1.0 if metric.lower_is_better else 1.0

    def gain(idx: np.ndarray) -> float:
        return sign * (metric(y[idx], pa[idx], **params) - metric(y[idx], pb[idx], **params))

    rng = np.random.default_rng(seed)
    values = []
    for _ in range(resamples):
        try:
            v = gain(rng.integers(0, len(y), len(y)))
        except (ValueError, ZeroDivisionError):
            continue  # e.g. a resample with one class only: AUC undefined there
        if math.isfinite(v):
            values.append(v)
    low, high = np.quantile(values, [0.025, 0.975]) if values else (math.nan, math.nan)
    return Gain(gain(np.arange(len(y))), float(low), float(high), len(y))


def checkpoint_submission(task: Task, run: Path, share: float) -> Path | None:
    """The saved submission of the best node as of `share` of the run's time limit (by the score the search
    ranked nodes with), as bench/offline_vs_automl.py grades its checkpoints."""
    info = json.loads((run / "run.json").read_text())
    limit = (info.get("budget") or {}).get("time_limit_s")
    nodes = json.loads((run / "journal.json").read_text())["nodes"]
    lower = resolve_metric(task).lower_is_better
    seen = [n for n in nodes if not n.get("is_buggy", True) and n.get("metric") is not None
            and limit is not None and (n.get("elapsed_s") or 0.0) <= share * limit]  # fmt: skip
    if not seen:
        return None
    best = sorted(seen, key=lambda n: float(n["metric"]), reverse=not lower)[0]
    path = run / "nodes" / str(best["id"]) / "submission" / task.spec.submission_file
    return path if path.is_file() else None


def rows_for(task: Task, out: Path, against: Path | None) -> dict[str, str]:
    """The gains printed for one task (a column is '-' when a submission is missing)."""
    final, run = out / "run" / "submission.csv", out / "run"
    pairs: dict[str, tuple[Path | None, Path | None]] = (
        {"vs other run": (final, against / task.root.name / "run" / "submission.csv")}
        if against is not None
        else {
            "vs FLAML": (final, out / "flaml.csv"),
            "vs AutoGluon": (final, out / "autogluon.csv"),
            # the search alone: both are search-time submissions (the final refit is not in either)
            "best node at 100 % vs 25 %": (
                checkpoint_submission(task, run, 1.0),
                checkpoint_submission(task, run, 0.25),
            )
            if run.is_dir()
            else (None, None),
        }
    )
    return {name: _gain_text(task, a, b) for name, (a, b) in pairs.items()}


def _gain_text(task: Task, a: Path | None, b: Path | None) -> str:
    if a is None or b is None or not a.is_file() or not b.is_file():
        return "-"
    try:
        return str(paired_gain(task, a, b))
    except Exception as e:  # noqa: BLE001 - an unreadable submission is a table cell, not a crashed bench
        return f"error: {type(e).__name__}: {str(e)[:60]}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tasks_dir", type=Path)
    ap.add_argument("out", type=Path, help="a bench/offline_vs_automl.py output folder")
    ap.add_argument("--against", type=Path, default=None, help="another such folder: compare the final runs")
    args = ap.parse_args()
    printed = False
    for folder in sorted(p for p in args.out.iterdir() if p.is_dir()):
        task_dir = args.tasks_dir / folder.name
        if not task_dir.is_dir():
            continue
        row = rows_for(Task.load(task_dir), folder, args.against)
        if not printed:
            print("graded gain (positive: automind's final submission, or the later node, is better), 95 % "
                  "paired-bootstrap interval over the test rows; * = the interval excludes 0\n")  # fmt: skip
            print("| task | " + " | ".join(row) + " |\n|---|" + "---|" * len(row))
            printed = True
        print(f"| {folder.name} | " + " | ".join(row.values()) + " |")
    if not printed:
        print(f"no task of {args.tasks_dir} has results under {args.out}")


if __name__ == "__main__":
    main()
