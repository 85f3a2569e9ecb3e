"""What did a skipped final refit cost? Run it after the fact on a copy of the run and compare.

    python bench/refit_after.py TASKS_DIR RUNS_DIR [RUNS_DIR ...] --out OUT

RUNS_DIR is a folder laid out as bench/offline_vs_automl.py and bench/budget_trend.py write them
(RUNS_DIR/<task>/run). Every finished run there whose final refit was not used (run.json `refit.used` is
false because the time left could not hold it) is copied to OUT/<RUNS_DIR name>/<task>/run and resumed
there with no search step and no time limit left, so it goes straight to the refit (docs/holdout.md, "The
final refit"); the resume points the copy's blends at the copy, as for any moved run. The original run is
never written to. A copy whose refit was already used is kept.

Prints each task's graded score before and after and the refit's seconds, then the refitted submissions
against the search-time ones with bench/paired.py's paired-bootstrap intervals and pooled row: whether
the time a refit needs would have been worth spending on it.

    python bench/refit_after.py TASKS_DIR RUNS_DIR [RUNS_DIR ...] --out OUT --bags N

What the refit's bags give (docs/holdout.md, "Bags"): every finished run with a holdout, its refit used or
not, is refitted twice on copies, OUT/<RUNS_DIR name>/bags1/<task>/run with `verify.refit_bags` 1 and
OUT/<RUNS_DIR name>/bagsN/<task>/run with N, neither with a time limit; the table compares the two.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import Any

from budget_trend import graded_text, load_tasks
from paired import pooled_row, rows_for

from automind.atomic import write_json
from automind.report import json_or_problem
from automind.task import Task


def run_info(run: Path) -> dict[str, Any]:
    """run.json of a run folder ({} for a folder that holds none, or one it cannot read, said on stderr:
    one broken run should not stop the others)."""
    path = run / "run.json"
    if not path.is_file():
        return {}
    info, why = json_or_problem(path)
    if why is not None:
        print(f"{path}: unreadable, {why}; that run is left out", file=sys.stderr)
    return info if isinstance(info, dict) else {}


def refit_of(info: dict[str, Any]) -> dict[str, Any]:
    """run.json's `refit` ({} without a holdout, or for a folder that is not a finished run)."""
    refit = info.get("refit")
    return refit if isinstance(refit, dict) else {}


def made_in(src: Path, info: dict[str, Any]) -> str:
    """The folder the run was made in, which its blends' paths name: run.json's `run_dir`; for runs made
    before it was recorded, the folder of its graded submission (a run copied with `cp -al` still names
    its first folder), else where it is now."""
    if isinstance(info.get("run_dir"), str):
        return str(info["run_dir"])
    sub = (info.get("grade") or {}).get("submission")
    if isinstance(sub, str) and sub.endswith("/submission.csv"):
        return sub.removesuffix("/submission.csv")
    return str(src.resolve())


def refit_copy(src: Path, dst: Path, info: dict[str, Any], bags: int | None = None) -> dict[str, Any]:
    """Copy `src` (whose run.json is `info`) to `dst`, links kept as links, its run.json naming the folder
    the run was made in, so that the resume points the copy's blends at the copy
    (automind.run_setup.relocate_run); resume the copy straight into its refit (with `verify.refit_bags`
    = `bags` when given); the copy's `refit`."""
    from automind.run import resume

    shutil.rmtree(dst, ignore_errors=True)
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(src, dst, symlinks=True)
    write_json(dst / "run.json", {**info, "run_dir": made_in(src, info)})
    overrides = {  # no step or time left to search; the memory already holds this run
        "search.steps": max(1, int(info["steps_done"])),
        "search.time_limit_s": None,
        "experience.enabled": False,
    }
    if bags is not None:
        overrides["verify.refit_bags"] = bags
    return resume(dst, overrides=overrides).refit or {}


def _said(name: str, refit: dict[str, Any]) -> None:
    print(f"{name}: refit {'used' if refit.get('used') else 'not used'}, {refit.get('seconds', 0):.0f} s"
          f"{'' if refit.get('used') else ' (' + str(refit.get('reason')) + ')'}", file=sys.stderr, flush=True)  # fmt: skip


def compare_bags(tasks: list[Task], runs_dirs: list[Path], out: Path, bags: int) -> None:
    """`--bags N`: each finished run with a holdout refitted with 1 and with N bags; graded and compared."""
    columns: dict[str, list[tuple[Task, Path, Path]]] = {}
    rows = []
    for runs in runs_dirs:
        for task in tasks:
            src = runs / task.root.name / "run"
            info = run_info(src)
            if not refit_of(info) or not (src / "submission.csv").is_file():
                continue  # not a finished run with a holdout
            refits = {}
            for b in (1, bags):
                dst = out / runs.resolve().name / f"bags{b}" / task.root.name / "run"
                kept = refit_of(run_info(dst))  # a copy refitted by an earlier call is not run again
                refits[b] = kept if kept.get("used") else refit_copy(src, dst, info, bags=b)
                _said(f"{runs.name}/{task.root.name} bags {b}", refits[b])
            if not all(r.get("used") for r in refits.values()):
                continue
            base = out / runs.resolve().name
            gain = rows_for(task, base / f"bags{bags}" / task.root.name, base / "bags1", columns)[
                "vs other run"
            ]
            graded = [
                graded_text(task, base / f"bags{b}" / task.root.name / "run" / "submission.csv")
                for b in (1, bags)
            ]
            secs = [f"{refits[b].get('seconds', 0):.0f} s ({refits[b].get('bags', 1)})" for b in (1, bags)]
            rows.append(
                f"| {task.root.name} ({runs.name}) | {graded[0]} | {graded[1]} | {secs[0]} | {secs[1]} | {gain} |"
            )
    if not rows:
        print("no finished run with a holdout whose refits both ran in " + ", ".join(map(str, runs_dirs)))
        return
    print(f"graded score of the refit with 1 and with up to {bags} fold shuffles (bags used in brackets); gain "
          "of the bagged one (positive: better), 95 % paired-bootstrap interval over the test rows; * = the "
          "interval excludes 0\n")  # fmt: skip
    print(f"| task (runs) | 1 bag | {bags} bags | took | took | gain |\n|---|---|---|---|---|---|")
    print("\n".join(rows))
    if len(columns.get("vs other run", [])) > 1:
        print(pooled_row(columns, blank=5))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tasks_dir", type=Path)
    ap.add_argument(
        "runs", type=Path, nargs="+", help="folders of <task>/run, as the bench scripts write them"
    )
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument(
        "--bags", type=int, help="compare every run's refit with 1 and with this many fold shuffles"
    )
    args = ap.parse_args()
    if not args.tasks_dir.is_dir():
        ap.error(f"{args.tasks_dir} is not a folder of tasks")
    if len({r.resolve().name for r in args.runs}) < len(args.runs):
        ap.error("two RUNS_DIR folders have the same name; their copies would land in one place")
    tasks = load_tasks(args.tasks_dir, None)
    if args.bags is not None:
        if args.bags < 2:
            ap.error(f"--bags {args.bags}: give 2 or more (it is compared with a single run)")
        compare_bags(tasks, args.runs, args.out, args.bags)
        return
    columns: dict[str, list[tuple[Task, Path, Path]]] = {}
    rows = []
    for runs in args.runs:
        for task in tasks:
            src = runs / task.root.name / "run"
            info = run_info(src)
            if refit_of(info).get("used") is not False or not (src / "submission.csv").is_file():
                continue  # not a finished run whose refit was skipped
            dst = args.out / runs.resolve().name / task.root.name / "run"
            kept = refit_of(run_info(dst))  # a copy refitted by an earlier call is not run again
            refit = kept if kept.get("used") else refit_copy(src, dst, info)
            _said(f"{runs.name}/{task.root.name}", refit)
            gain = rows_for(task, dst.parent, src.parent.parent, columns)["vs other run"]
            after = graded_text(task, dst / "submission.csv") if refit.get("used") else "-"
            rows.append(f"| {task.root.name} ({runs.name}) | {graded_text(task, src / 'submission.csv')} | {after} | "
                        f"{refit.get('seconds', 0):.0f} s | {gain} |")  # fmt: skip
    if not rows:
        print("no finished run with a skipped refit in " + ", ".join(map(str, args.runs)))
        return
    print("graded score of the search-time submission and of the refit on every training row; gain of the refit "
          "(positive: better), 95 % paired-bootstrap interval over the test rows; * = the interval excludes 0\n")  # fmt: skip
    print("| task (runs) | search-time | refitted | refit took | gain |\n|---|---|---|---|---|")
    print("\n".join(rows))
    if len(columns.get("vs other run", [])) > 1:
        print(pooled_row(columns, blank=3))


if __name__ == "__main__":
    main()
