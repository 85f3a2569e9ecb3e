"""Does a timed run end on time? Wall time of `automind solve --time-limit S` against S.

    python bench/time_budget.py titanic house-prices --budgets 60 120 300 [--llm none] [--out runs/time-budget]

Each task (a bundled example name or a task folder) is solved once per budget, as a user would run it (a
separate `automind solve ... --time-limit S --json` process, so start-up, knowledge loading, finishing and
the interpreter's exit all count). Printed per run: the budget, the wall time of the process, its overshoot
(wall - budget) against the allowed 5 % (at least 10 s), the nodes by action, the best validation score and
the graded score.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path


def solve(task: str, budget: float, out: Path, llm: str) -> dict:
    exe = Path(sys.executable).with_name("automind")  # the console script, exactly as a user runs it
    cmd = [str(exe), "solve", task, "--llm", llm, "--time-limit", str(budget),
           "--out", str(out), "--json"]  # fmt: skip
    t0 = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.monotonic() - t0
    out.mkdir(parents=True, exist_ok=True)
    (out / "stderr.txt").write_text(proc.stderr)
    try:
        summary = json.loads(proc.stdout[proc.stdout.index("{") :])
    except ValueError:
        summary = {}
    journal = json.loads((out / "journal.json").read_text()) if (out / "journal.json").is_file() else {}
    actions = Counter(n["action"] for n in journal.get("nodes", []))
    return {
        "task": task,
        "budget": budget,
        "wall_s": round(wall, 1),
        "overshoot_s": round(wall - budget, 1),
        "allowed_s": max(10.0, 0.05 * budget),
        "status": summary.get("status"),
        "nodes": dict(actions),
        "best": summary.get("best_metric"),
        "graded": (summary.get("grade") or {}).get("score"),
        "exit": proc.returncode,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tasks", nargs="+", help="bundled example names or task folders")
    ap.add_argument("--budgets", nargs="+", type=float, default=[60.0, 120.0, 300.0])
    ap.add_argument("--llm", default="none")
    ap.add_argument("--out", type=Path, default=Path("runs/time-budget"))
    args = ap.parse_args()
    rows = []
    for task in args.tasks:
        for budget in args.budgets:
            out = args.out / f"{Path(task).name}-{budget:g}"
            if out.exists():
                print(f"{out} exists; remove it or pass another --out", file=sys.stderr)
                return 2
            row = solve(task, budget, out, args.llm)
            rows.append(row)
            ok = "ok" if row["overshoot_s"] <= row["allowed_s"] else "OVER"
            nodes = ", ".join(f"{k} {v}" for k, v in sorted(row["nodes"].items()))
            print(f"{row['task']:14s} budget {budget:5.0f} s  wall {row['wall_s']:6.1f} s  "
                  f"overshoot {row['overshoot_s']:+6.1f} s ({ok})  best {row['best']}  graded {row['graded']}  "
                  f"[{nodes}]", flush=True)  # fmt: skip
    (args.out / "time_budget.json").write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
