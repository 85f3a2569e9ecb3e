"""bench/budget_trend.py: every task at several budgets and seeds, finished runs kept, larger budgets against
the smallest with paired-bootstrap intervals and a pooled row."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "bench" / "budget_trend.py")


def _finished_run(run: Path, submission: Path, seconds: float) -> None:
    """What bench/budget_trend.py reads of a finished `automind solve` run."""
    run.mkdir(parents=True, exist_ok=True)
    (run / "journal.json").write_text(json.dumps({"nodes": []}))
    (run / "run.json").write_text(json.dumps({"status": "time", "finished_after_s": seconds}))
    (run / "submission.csv").write_bytes(submission.read_bytes())


def test_finished_runs_are_kept_and_the_larger_budget_is_compared_per_seed_and_pooled(
    tmp_path, toy_task, wrong_on
):
    tasks = [
        toy_task(tmp_path / "tasks", name, metric)
        for name, metric in (("alpha", "accuracy"), ("beta", "rmse"))
    ]
    out = tmp_path / "out"
    for task in tasks:
        for seed in (0, 1):
            for budget, share in ((10, 0.4), (20, 0.05)):  # the larger budget is wrong on far fewer rows
                sub = wrong_on(
                    task, tmp_path / "subs" / f"{task.root.name}-{seed}-{budget}.csv", share, start=seed
                )
                _finished_run(out / f"seed{seed}" / f"{budget}s" / task.root.name / "run", sub, budget - 0.5)
    done = subprocess.run([sys.executable, SCRIPT, str(tmp_path / "tasks"), "--budgets", "20", "10",
                           "--seeds", "0", "1", "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr.count(": kept (") == 8 and "wall" not in done.stderr  # nothing was solved again
    lines = done.stdout.splitlines()
    scores = [line for line in lines if line.startswith(("| alpha | ", "| beta | "))]
    assert len(scores) == 8  # four score rows (task x seed), four gain rows
    assert scores[0].startswith("| alpha | 0 | 0.6 / 0 / 10s | 0.95 / 0 / 20s |")
    gains = scores[4:]
    assert all(row.endswith("* |") and " +0." in row for row in gains)  # positive and beyond the noise
    assert lines[-1].startswith("| pooled (wins - losses) |  | net +4 [+4, +4] * (4 pairs: 4 better, 0 worse")


def test_one_budget_is_a_clear_error(tmp_path, toy_task):
    toy_task(tmp_path / "tasks", "alpha", "accuracy", 200)
    done = subprocess.run([sys.executable, SCRIPT, str(tmp_path / "tasks"), "--budgets", "60", "60"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)  # fmt: skip
    assert done.returncode == 2 and "--budgets needs two or more different time limits" in done.stderr
    assert "Traceback" not in done.stderr
