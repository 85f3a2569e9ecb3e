"""The search without and with automind's hidden holdout, same seed and budget: how far each score is from the truth.

    python bench/holdout_gap.py TASKS_DIR [--make-tasks] [--budget 120] [--steps N] [--seed 0] [--only NAME ...]

Every sub-folder of TASKS_DIR that loads as a task (`--make-tasks` builds the bundled examples there, as
`automind examples make NAME DIR` does) is solved twice by the offline policy (`--llm none`,
`--time-limit BUDGET`, and `--steps N` when given: a step budget makes the comparison independent of how
busy the machine is): (a) `--holdout off`, nodes ranked by the score each script reports about
itself, as before; (b) `--holdout on`, nodes ranked by automind's score on hidden training rows, the best
node re-run on all training rows at the end. For the node each run chose, the table shows its own score,
its holdout score (b), and the graded test score (automind.grading.grade on the private answers: used here
only, never inside a search) of the run's submission.csv and of that node's search-time submission.
"optimism" is how much better an estimate claims to be than the test score (positive: too good).
Prints Markdown tables and writes results.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

# bench/offline_vs_automl.py (python puts this script's folder on the path)
from offline_vs_automl import solve_env

from automind.grading import grade
from automind.metrics import get_metric
from automind.task import Task

MODES = ("off", "on")


def make_tasks(root: Path) -> None:
    from automind.examples import EXAMPLES, make_example

    for name in EXAMPLES:
        if not (root / name / "task.yaml").is_file():
            make_example(name, root / name, force=(root / name).exists())


def _graded(task: Task, path: Path) -> float | None:
    if not path.is_file():
        return None
    rep = grade(task, path)
    return rep.score if rep.valid else None


def solve(task: Task, mode: str, budget: float, seed: int, out: Path, steps: int | None = None) -> dict:
    run = out / task.root.name / mode
    shutil.rmtree(run, ignore_errors=True)
    cmd = [str(Path(sys.executable).parent / "automind"), "solve", str(task.root), "--llm", "none",
           "--time-limit", str(budget), "--steps", str(steps or 100000), "--seed", str(seed), "--holdout", mode,
           "--out", str(run), "--json"]  # fmt: skip
    t0 = time.time()
    proc = subprocess.run(
        cmd, capture_output=True, text=True, env=solve_env(run.parent / f"experience-{mode}")
    )
    wall = time.time() - t0
    if not (run / "journal.json").is_file():
        return {"mode": mode, "wall": wall, "error": proc.stderr.strip()[-400:]}
    journal = json.loads((run / "journal.json").read_text())
    info = json.loads((run / "run.json").read_text())
    nodes = {n["id"]: n for n in journal["nodes"]}
    best = nodes.get(journal.get("best_node"))
    valid = [n for n in journal["nodes"] if not n.get("is_buggy", True)]
    row = {
        "mode": mode,
        "wall": wall,
        "nodes": len(nodes),
        "valid": len(valid),
        "flagged": sum(
            1 for n in valid if (n.get("leakage") or {}).get("status") in ("leak", "suspect_leakage")
        ),
        "holdout": info.get("holdout"),
        "refit": info.get("refit"),
        "best": None if best is None else best["id"],
        "own": None if best is None else best.get("reported_metric", best.get("metric")),
        "holdout_score": None if best is None else best.get("holdout_metric"),
        "test": _graded(task, run / "submission.csv"),
        "test_search_time": None,
    }
    if best is not None:
        row["test_search_time"] = _graded(
            task, run / "nodes" / best["id"] / "submission" / task.spec.submission_file
        )
    return row


def optimism(estimate: float | None, test: float | None, lower: bool) -> float | None:
    """How much better `estimate` claims to be than `test` (positive: too good)."""
    if estimate is None or test is None:
        return None
    return (test - estimate) if lower else (estimate - test)


def _f(x: float | None, nd: int = 4) -> str:
    return "-" if x is None else f"{x:.{nd}f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tasks_dir", type=Path)
    ap.add_argument("--budget", type=float, default=120.0, help="seconds per run (both modes get the same)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", type=int, default=None, help="a step budget as well (default: time only)")
    ap.add_argument("--only", nargs="*", default=None, help="task folder names to run (default: all)")
    ap.add_argument(
        "--make-tasks", action="store_true", help="build the bundled examples into TASKS_DIR first"
    )
    ap.add_argument("--out", type=Path, default=None, help="default: bench-out/holdout_gap/<budget>")
    args = ap.parse_args()
    if args.make_tasks:
        args.tasks_dir.mkdir(parents=True, exist_ok=True)
        make_tasks(args.tasks_dir)
    out = args.out or Path("bench-out/holdout_gap") / f"{int(args.budget)}"
    out.mkdir(parents=True, exist_ok=True)
    results = []
    for folder in sorted(p for p in args.tasks_dir.iterdir() if (p / "task.yaml").is_file()):
        if args.only and folder.name not in args.only:
            continue
        task = Task.load(folder)
        lower = get_metric(task.spec.metric.name, task.spec.metric.lower_is_better).lower_is_better
        runs = []
        for mode in MODES:
            r = solve(task, mode, args.budget, args.seed, out, args.steps)
            r["optimism_own"] = optimism(r.get("own"), r.get("test_search_time"), lower)
            r["optimism_holdout"] = optimism(r.get("holdout_score"), r.get("test_search_time"), lower)
            runs.append(r)
            print(f"{folder.name} holdout {mode}: {json.dumps(r, default=str)}", file=sys.stderr, flush=True)
        results.append(
            {"task": folder.name, "metric": task.spec.metric.name, "lower_is_better": lower, "runs": runs}
        )
        (out / "results.json").write_text(json.dumps(results, indent=1, default=str))

    steps = f", {args.steps} steps" if args.steps else ""
    print(f"\n## Holdout off vs on, offline policy, {args.budget:g} s{steps} per run, seed {args.seed}\n")
    print("| task | metric | holdout | valid (flagged) | best | own score | holdout score | test: submission | "
          "test: search-time | optimism own | optimism holdout | refit |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for res in results:
        for r in res["runs"]:
            if "error" in r:
                print(f"| {res['task']} | {res['metric']} | {r['mode']} | error: {r['error'][:80]} |||||||||")
                continue
            refit = r.get("refit") or {}
            refit_text = (
                "-"
                if not refit
                else ("used" if refit.get("used") else f"kept ({refit.get('reason', '')[:40]})")
            )
            print(f"| {res['task']} | {res['metric']} | {r['mode']} | {r['valid']} ({r['flagged']}) | #{r['best']} | "
                  f"{_f(r['own'])} | {_f(r['holdout_score'])} | {_f(r['test'])} | {_f(r['test_search_time'])} | "
                  f"{_f(r['optimism_own'])} | {_f(r['optimism_holdout'])} | {refit_text} |")  # fmt: skip
    own = [
        abs(r["optimism_own"]) for res in results for r in res["runs"] if r.get("optimism_own") is not None
    ]
    held = [
        abs(r["optimism_holdout"])
        for res in results
        for r in res["runs"]
        if r.get("optimism_holdout") is not None
    ]
    if own and held:
        print(f"\nmean |own score - test| {sum(own) / len(own):.4f} over {len(own)} runs; "
              f"mean |holdout score - test| {sum(held) / len(held):.4f} over {len(held)} runs")  # fmt: skip
    better = 0
    for res in results:
        tests = {r["mode"]: r.get("test") for r in res["runs"]}
        if None not in (tests.get("on"), tests.get("off")):
            on, off = tests["on"], tests["off"]
            better += (on < off) if res["lower_is_better"] else (on > off)
    print(f"holdout on beats off on the test score in {better} of {len(results)} tasks")
    print(f"\nwrote {out / 'results.json'}")


if __name__ == "__main__":
    main()
