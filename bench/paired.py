"""Is one submission really better than another on the test rows, or a few rows luckier? A paired bootstrap.

    python bench/paired.py TASKS_DIR OUT [OUT ...] [--against OUT_B [OUT_B ...]]

OUT is a folder written by bench/offline_vs_automl.py (OUT/<task>/run/ for automind, OUT/<task>/flaml.csv,
OUT/<task>/autogluon.csv). For every task found there it prints automind's graded gain over FLAML and over
AutoGluon, and what the search gained between 25 % and 100 % of the budget (the saved search-time
submissions of the best node at each point, so the final refit is in neither); with `--against`,
automind's final submission in each OUT against the one in the OUT_B at the same place (e.g. 600 s runs
against 120 s runs, one pair of folders per seed). `--draft ID` (with `--against`) compares the first valid
draft node of recipe `ID` (e.g. `rcp-portfolio`) in each pair of runs instead of their final submissions: a
change to one component is then read on the node it changes, apart from what the rest of a short search did
with the time (on a 2-core machine two runs of the same code drop different portfolio members, take
different refine and ensemble steps, and their final submissions can differ beyond the test rows' noise).

Each gain is positive when automind (the first submission) is better in the metric's direction, with a
95 % interval from resampling the test rows (the same rows for both submissions, so what they share
cancels). An interval that contains 0 means the test set cannot tell the two apart: the bundled test
sets have 69 to 1000 rows, where one row of accuracy is 0.1 to 1.4 points.

The last row pools every pair of a column (tasks and seeds): "net" is how many more pairs automind (or
the later node) wins than it loses, with an interval that resamples the test rows of every task and,
within a task, the pairs (the seeds); an interval above 0 means it wins more often than it loses by more
than the test rows' noise, however small each win. A large gain on one task counts once, so one task
cannot carry the row; the mean of each pair's gain over its own bootstrap standard error is printed
beside it (metric-free, so accuracy and RMSLE gains add up, but one large gain can dominate it).
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from automind.cpuload import BUSY_SHARE
from automind.grading import resolve_metric, truth_and_predictions, validate_submission
from automind.task import Task

RESAMPLES = 1000
Pair = tuple[Path | None, Path | None]


@dataclass
class Gain:
    value: float  # graded score of a minus that of b, signed so that positive means a is better
    low: float  # 2.5 % and 97.5 % quantiles of the same over resamples of the test rows
    high: float
    rows: int

    def __str__(self) -> str:
        return f"{self.value:+.4f} [{self.low:+.4f}, {self.high:+.4f}]{_mark(self.low, self.high)}"


@dataclass
class Pooled:
    net: int  # pairs where a grades better minus pairs where it grades worse, on all the test rows
    low: float  # 2.5 % and 97.5 % quantiles of the same over resamples (rows, and pairs within a task)
    high: float
    pairs: int
    better: int
    worse: int
    mean_se: float  # mean over pairs of gain / its bootstrap standard error (one large gain can dominate it)

    def __str__(self) -> str:
        equal = self.pairs - self.better - self.worse
        return (f"net {self.net:+d} [{self.low:+.0f}, {self.high:+.0f}]{_mark(self.low, self.high)} "
                f"({self.pairs} pairs: {self.better} better, {self.worse} worse, {equal} equal; "
                f"mean {self.mean_se:+.2f} SE)")  # fmt: skip


def _mark(low: float, high: float) -> str:
    return "" if low <= 0.0 <= high else " *"


def _bootstrap(
    task: Task, pairs: Sequence[tuple[Path, Path]], rng: np.random.Generator, resamples: int
) -> tuple[np.ndarray, np.ndarray, int]:
    """(gains on all the test rows, shape (pairs,); gains on `resamples` draws of the rows with replacement,
    one draw shared by every pair, shape (resamples, pairs), NaN where the metric is undefined on a draw,
    e.g. AUC on a resample with one class; the number of test rows)."""
    metric = resolve_metric(task)
    params = dict(task.spec.metric.params)
    sign = -1.0 if metric.lower_is_better else 1.0
    preds: dict[Path, np.ndarray] = {}
    y = np.empty(0)
    for path in {p for pair in pairs for p in pair}:
        truth, pred = truth_and_predictions(task, validate_submission(task, path), metric)
        y, preds[path] = np.asarray(truth), np.asarray(pred)

    def gain(a: Path, b: Path, idx: np.ndarray) -> float:
        try:
            v = sign * (metric(y[idx], preds[a][idx], **params) - metric(y[idx], preds[b][idx], **params))
        except (ValueError, ZeroDivisionError):
            return math.nan
        return float(v) if math.isfinite(v) else math.nan

    draws = [rng.integers(0, len(y), len(y)) for _ in range(resamples)]
    point = np.array([gain(a, b, np.arange(len(y))) for a, b in pairs])
    boot = np.array([[gain(a, b, idx) for a, b in pairs] for idx in draws]).reshape(resamples, len(pairs))
    return point, boot, len(y)


def paired_gain(task: Task, a: Path, b: Path, resamples: int = RESAMPLES, seed: int = 0) -> Gain:
    """How much better submission `a` grades than `b` on `task`'s answers, with a paired bootstrap interval."""
    point, boot, rows = _bootstrap(task, [(a, b)], np.random.default_rng(seed), resamples)
    values = boot[:, 0][np.isfinite(boot[:, 0])]
    low, high = np.quantile(values, [0.025, 0.975]) if len(values) else (math.nan, math.nan)
    return Gain(float(point[0]), float(low), float(high), rows)


def pooled_gain(
    items: Sequence[tuple[Task, Path, Path]], resamples: int = RESAMPLES, seed: int = 0
) -> Pooled:
    """Over many pairs (tasks x seeds): how many more pairs the first submission wins than it loses, with a
    bootstrap interval that resamples the test rows of each task (one draw shared by that task's pairs,
    which grade the same rows) and the pairs within each task (the seeds)."""
    rng = np.random.default_rng(seed)
    groups: dict[Path, tuple[Task, list[tuple[Path, Path]]]] = {}
    for task, a, b in items:
        groups.setdefault(task.root.resolve(), (task, []))[1].append((a, b))
    points, boots = [], []
    for task, pairs in groups.values():
        point, boot, _ = _bootstrap(task, pairs, rng, resamples)
        points.append(point)
        boots.append(boot)
    if not points:
        return Pooled(0, math.nan, math.nan, 0, 0, 0, math.nan)
    every = np.concatenate(points)
    nets = []
    for r in range(resamples):
        drawn = np.concatenate([b[r, rng.integers(0, b.shape[1], b.shape[1])] for b in boots])
        nets.append(int((drawn > 0).sum() - (drawn < 0).sum()))  # NaN (metric undefined) counts neither way
    low, high = np.quantile(nets, [0.025, 0.975])
    scale = np.concatenate([np.nanstd(b, axis=0) for b in boots])
    ok = scale > 0  # identical submissions: a gain of exactly 0 on every draw
    mean_se = float(np.nanmean(np.where(ok, every / np.where(ok, scale, 1.0), 0.0)))
    better, worse = int((every > 0).sum()), int((every < 0).sum())
    return Pooled(better - worse, float(low), float(high), len(every), better, worse, mean_se)


def checkpoint_submission(task: Task, run: Path, share: float) -> Path | None:
    """The saved submission of the best node as of `share` of the run's time limit (by the score the search
    ranked nodes with), as bench/offline_vs_automl.py grades its checkpoints."""
    try:
        info = json.loads((run / "run.json").read_text())
        nodes = json.loads((run / "journal.json").read_text())["nodes"]
    except (OSError, ValueError, KeyError):
        return None  # a run that crashed or is still going: no checkpoint to grade (a '-' cell)
    limit = (info.get("budget") or {}).get("time_limit_s")
    lower = resolve_metric(task).lower_is_better
    seen = [n for n in nodes if not n.get("is_buggy", True) and n.get("metric") is not None
            and limit is not None and (n.get("elapsed_s") or 0.0) <= share * limit]  # fmt: skip
    if not seen:
        return None
    best = sorted(seen, key=lambda n: float(n["metric"]), reverse=not lower)[0]
    return node_submission(task, run, best)


def draft_submission(task: Task, run: Path, draft: str) -> Path | None:
    """The search-time submission of the run's first valid draft node built from recipe `draft` (the
    journal's plan names it in backquotes); None when the run has no such node or cannot be read."""
    try:
        nodes = json.loads((run / "journal.json").read_text())["nodes"]
    except (OSError, ValueError, KeyError):
        return None
    for n in nodes:
        if (
            n.get("action") == "draft"
            and not n.get("is_buggy", True)
            and f"`{draft}`" in (n.get("plan") or "")
        ):
            return node_submission(task, run, n)
    return None


def node_submission(task: Task, run: Path, node: dict) -> Path | None:
    """The submission a node saved while the search ran (None when it saved none)."""
    path = run / "nodes" / str(node["id"]) / "submission" / task.spec.submission_file
    return path if path.is_file() else None


def pairs_for(task: Task, out: Path, against: Path | None, draft: str | None = None) -> dict[str, Pair]:
    """The submissions compared for one task, by column (None where one is missing)."""
    final, run = out / "run" / "submission.csv", out / "run"
    if against is not None and draft is not None:
        other = against / task.root.name / "run"
        return {
            f"{draft} vs other run": (
                draft_submission(task, run, draft),
                draft_submission(task, other, draft),
            )
        }
    if against is not None:
        return {"vs other run": (final, against / task.root.name / "run" / "submission.csv")}
    return {
        "vs FLAML": (final, out / "flaml.csv"),
        "vs AutoGluon": (final, out / "autogluon.csv"),
        # the search alone: both are search-time submissions (the final refit is not in either)
        "best node at 100 % vs 25 %": (
            (checkpoint_submission(task, run, 1.0), checkpoint_submission(task, run, 0.25))
            if run.is_dir()
            else (None, None)
        ),
    }


def rows_for(
    task: Task,
    out: Path,
    against: Path | None,
    columns: dict[str, list[tuple[Task, Path, Path]]] | None = None,
    draft: str | None = None,
) -> dict[str, str]:
    """The gains printed for one task (a column is '-' when a submission is missing); each complete pair is
    also added to `columns`, by column, for pooled_row."""
    cells = {}
    for name, pair in pairs_for(task, out, against, draft).items():
        cells[name] = _gain_text(task, *pair)
        item = _complete(task, pair)
        if columns is not None:  # every column, pairs or not: pooled_row gives an empty one its "-"
            columns.setdefault(name, [])
            if item is not None:
                columns[name].append(item)
    return cells


def pooled_row(columns: dict[str, list[tuple[Task, Path, Path]]], blank: int = 0) -> str:
    """The table's last row: every column's pairs pooled (see the module's docstring), after `blank` empty
    cells (a table with more label columns)."""
    cells = []
    for items in columns.values():
        try:
            cells.append(str(pooled_gain(items)) if items else "-")
        except Exception as e:  # noqa: BLE001 - as in _gain_text
            cells.append(f"error: {type(e).__name__}: {str(e)[:60]}")
    return "| " + " | ".join(["pooled (wins - losses)", *[""] * blank, *cells]) + " |"


def _complete(task: Task, pair: Pair) -> tuple[Task, Path, Path] | None:
    """(task, a, b) when both submissions exist (what pooled_row pools)."""
    a, b = pair
    return (task, a, b) if a is not None and b is not None and a.is_file() and b.is_file() else None


def _gain_text(task: Task, a: Path | None, b: Path | None) -> str:
    if _complete(task, (a, b)) is None:
        return "-"
    assert a is not None and b is not None
    try:
        return str(paired_gain(task, a, b))
    except Exception as e:  # noqa: BLE001 - an unreadable submission is a table cell, not a crashed bench
        return f"error: {type(e).__name__}: {str(e)[:60]}"


def busy_share(run: Path) -> float | None:
    """The share of the CPUs other programs took during an automind run (run.json), when it was busy enough
    to make the run's scripts fit less (automind.cpuload.BUSY_SHARE); None otherwise or unknown."""
    try:
        cpu = json.loads((run / "run.json").read_text(encoding="utf-8"))["budget"].get("cpu") or {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    share = float(cpu.get("others_share") or 0.0)
    return share if share >= BUSY_SHARE else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tasks_dir", type=Path)
    ap.add_argument(
        "out", type=Path, nargs="+", help="bench/offline_vs_automl.py output folders (e.g. one per seed)"
    )
    ap.add_argument("--against", type=Path, nargs="+", default=None,
                    help="as many such folders: compare each OUT's final runs with the folder at its place")  # fmt: skip
    ap.add_argument("--draft", default=None, metavar="ID",
                    help="with --against: compare the first valid draft node of this recipe (e.g. rcp-portfolio)")  # fmt: skip
    args = ap.parse_args()
    if args.draft is not None and args.against is None:
        ap.error("--draft compares two runs' draft nodes: give the other runs with --against")
    if args.against is not None and len(args.against) != len(args.out):
        ap.error(
            f"--against needs one folder per OUT: got {len(args.out)} OUT and {len(args.against)} --against"
        )
    againsts = args.against or [None] * len(args.out)
    columns: dict[str, list[tuple[Task, Path, Path]]] = {}
    printed, busy = False, []
    for out, against in zip(args.out, againsts, strict=True):
        if not out.is_dir():
            ap.error(f"{out} is not a folder: give a bench/offline_vs_automl.py output folder")
        for folder in sorted(p for p in out.iterdir() if p.is_dir()):
            task_dir = args.tasks_dir / folder.name
            if not task_dir.is_dir():
                continue
            cells = rows_for(Task.load(task_dir), folder, against, columns, args.draft)
            if not printed:
                print("graded gain (positive: automind's final submission, or the later node, is better), 95 % "
                      "paired-bootstrap interval over the test rows; * = the interval excludes 0\n")  # fmt: skip
                print("| task | " + " | ".join(cells) + " |\n|---|" + "---|" * len(cells))
                printed = True
            label = folder.name if len(args.out) == 1 else f"{folder.name} ({out.name})"
            print(f"| {label} | " + " | ".join(cells.values()) + " |")
            for run in [folder / "run", *([against / folder.name / "run"] if against else [])]:
                if (share := busy_share(run)) is not None:
                    busy.append(f"{run} ({100 * share:.0f} %)")
    if not printed:
        print(f"no task of {args.tasks_dir} has results under {', '.join(map(str, args.out))}")
    elif max(map(len, columns.values()), default=0) > 1:
        print(pooled_row(columns))
    if busy:  # their scripts fit less than on an idle machine: such a row measures the machine, not the code
        print("\nautomind runs on a busy machine (other programs' share of the CPUs): " + ", ".join(busy))


if __name__ == "__main__":
    main()
