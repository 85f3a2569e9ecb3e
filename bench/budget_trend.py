"""Does automind's graded score rise with its budget? The same tasks solved at several time limits and seeds.

    python bench/budget_trend.py TASKS_DIR --budgets 120 600 [--seeds 0 1 2] [--only NAME ...] [--out DIR]

Every sub-folder of TASKS_DIR that loads as a task is solved offline (`automind solve TASK --llm none
--time-limit B --steps 100000 --seed S`) at every budget B and seed S, one run at a time so that runs do
not share the machine, into DIR/seed<S>/<B>s/<task>/run (the layout bench/paired.py reads). A run that
already finished there is kept, so an interrupted bench resumes and a later call with a new seed adds to
the earlier ones; `--fresh` solves everything again.

Prints each run's graded score (private answers, automind.grading.grade), nodes and run time, then every
larger budget against the smallest, per task and seed, as bench/paired.py computes it: the graded gain of
the final submission with a 95 % paired-bootstrap interval over the test rows, and a last row that pools
all pairs (pairs won minus pairs lost, test rows and seeds resampled). The interval is what says whether
a rise is more than a few lucky rows.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

# bench/offline_vs_automl.py and bench/paired.py (python puts this script's folder on the path)
from offline_vs_automl import automind
from paired import pooled_row, rows_for

from automind.grading import grade
from automind.runs import read_run
from automind.task import Task, TaskError

DONE = {"finished", "time", "budget"}  # a run that stopped on its own (automind.runs statuses)


def run_dir(out: Path, seed: int, budget: float, task: Task) -> Path:
    return out / f"seed{seed}" / f"{budget:g}s" / task.root.name / "run"


def finished(run: Path) -> bool:
    return (run / "submission.csv").is_file() and read_run(run).status in DONE


def graded_text(task: Task, submission: Path) -> str:
    """A submission's graded score as the tables print it ('invalid' when it does not grade)."""
    rep = grade(task, submission)
    return f"{rep.score:.5g}" if rep.valid and rep.score is not None else "invalid"


def summary(task: Task, run: Path) -> dict[str, str]:
    """Graded score, nodes and run time of a finished run, as printed."""
    info = json.loads((run / "run.json").read_text())
    nodes = json.loads((run / "journal.json").read_text())["nodes"]
    score = graded_text(task, run / "submission.csv")
    took = info.get("finished_after_s") or info.get("elapsed_s")
    return {"score": score, "nodes": str(len(nodes)), "time": "-" if took is None else f"{float(took):.0f}s"}


def load_tasks(tasks_dir: Path, only: list[str] | None) -> list[Task]:
    tasks = []
    for folder in sorted(p for p in tasks_dir.iterdir() if p.is_dir()):
        if only and folder.name not in only:
            continue
        try:
            tasks.append(Task.load(folder))
        except TaskError as e:
            print(f"skipped {folder.name}: {e}", file=sys.stderr)
    return tasks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tasks_dir", type=Path)
    ap.add_argument(
        "--budgets", type=float, nargs="+", required=True, help="time limits in seconds (two or more)"
    )
    ap.add_argument("--seeds", type=int, nargs="+", default=[0])
    ap.add_argument("--only", nargs="*", default=None, help="task folder names to run (default: all)")
    ap.add_argument("--out", type=Path, default=Path("bench-out/budget_trend"))
    ap.add_argument("--fresh", action="store_true", help="solve again runs that already finished in --out")
    args = ap.parse_args()
    budgets = sorted(set(args.budgets))
    if len(budgets) < 2:
        ap.error(f"--budgets needs two or more different time limits to compare, got {args.budgets}")
    if not args.tasks_dir.is_dir():
        ap.error(
            f"{args.tasks_dir} is not a folder of tasks (`automind examples make NAME DIR/NAME` makes one)"
        )
    tasks = load_tasks(args.tasks_dir, args.only)
    if not tasks:
        ap.error(f"no task to run in {args.tasks_dir}" + (f" among {args.only}" if args.only else ""))

    for seed in args.seeds:
        for task in tasks:
            for budget in budgets:
                run = run_dir(args.out, seed, budget, task)
                if finished(run) and not args.fresh:
                    print(f"[{time.strftime('%H:%M:%S')}] {task.root.name} {budget:g}s seed {seed}: kept ({run})",
                          file=sys.stderr, flush=True)  # fmt: skip
                    continue
                res = automind(task, budget, run.parent, ["--seed", str(seed)])
                note = f" ({res['note']})" if res.get("note") else ""
                print(f"[{time.strftime('%H:%M:%S')}] {task.root.name} {budget:g}s seed {seed}: "
                      f"{res['t']:.0f}s wall{note}", file=sys.stderr, flush=True)  # fmt: skip

    print(
        f"graded score of the final submission / nodes / run time; budgets {', '.join(f'{b:g}s' for b in budgets)}\n"
    )
    print(
        "| task | seed | " + " | ".join(f"{b:g}s" for b in budgets) + " |\n|---|---|" + "---|" * len(budgets)
    )
    for task in tasks:
        for seed in args.seeds:
            cells = []
            for budget in budgets:
                run = run_dir(args.out, seed, budget, task)
                s = summary(task, run) if finished(run) else None
                cells.append(f"{s['score']} / {s['nodes']} / {s['time']}" if s else "not finished")
            print(f"| {task.root.name} | {seed} | " + " | ".join(cells) + " |")

    base = budgets[0]
    for budget in budgets[1:]:
        print(f"\n{budget:g}s against {base:g}s: graded gain of the final submission (positive: the larger budget is "
              "better), 95 % paired-bootstrap interval over the test rows; * = the interval excludes 0\n")  # fmt: skip
        print("| task | seed | gain |\n|---|---|---|")
        columns: dict[str, list[tuple[Task, Path, Path]]] = {}
        for task in tasks:
            for seed in args.seeds:
                folder = run_dir(args.out, seed, budget, task).parent
                against = run_dir(args.out, seed, base, task).parent.parent
                gain = rows_for(task, folder, against, columns)["vs other run"]
                print(f"| {task.root.name} | {seed} | {gain} |")
        if len(columns.get("vs other run", [])) > 1:
            print(pooled_row(columns, blank=1))


if __name__ == "__main__":
    main()
