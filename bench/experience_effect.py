"""Does experience help? A second pass over a suite with the memory of a first pass vs a fresh memory.

    python bench/experience_effect.py TASKS_DIR [--budget 120] [--steps 8] [--out runs/exp-effect] [--llm none]

Pass 1 solves every task with an empty experience store A (filling it). Pass 2 solves every task again
twice, in the same run and with the same seeds: once with store A ("with memory") and once with a new
empty store B ("fresh"). Printed: valid rate, mean graded score, mean time to first valid submission,
and per task the two scores side by side.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from automind.benchmark import find_tasks, run_job


def _summary(recs: list[dict]) -> dict:
    """Valid rate and time to first valid; scores are compared per task (metrics differ across tasks)."""
    ttfv = [r["time_to_first_valid_s"] for r in recs if r["time_to_first_valid_s"] is not None]
    return {
        "valid_rate": sum(r["valid"] for r in recs) / len(recs),
        "mean_ttfv_s": statistics.fmean(ttfv) if ttfv else None,
    }


def _verdict(fresh: dict, mem: dict) -> str:
    a, b = fresh["score"], mem["score"]
    if a is None or b is None:
        return "n/a"
    if a == b:
        return "same"
    better = b < a if mem.get("lower_is_better") else b > a
    return "memory better" if better else "memory worse"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tasks_dir", type=Path)
    ap.add_argument("--budget", type=float, default=120.0, help="seconds per solve")
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--llm", default="none")
    ap.add_argument("--out", type=Path, default=Path("runs/exp-effect"))
    args = ap.parse_args()
    tasks = find_tasks(args.tasks_dir)
    base = {"search.time_limit_s": args.budget, "search.steps": args.steps, "llm.provider": args.llm}
    store_a, store_b = args.out / "memory-a", args.out / "memory-b"
    results: dict[str, list[dict]] = {"pass1": [], "with_memory": [], "fresh": []}
    for phase, store, seed in (("pass1", store_a, args.seed), ("with_memory", store_a, args.seed + 1),
                               ("fresh", store_b, args.seed + 1)):  # fmt: skip
        for t in tasks:
            run_dir = args.out / phase / t.name
            rec = run_job(str(t), str(run_dir), "default", seed, {**base, "experience.store": str(store)})
            results[phase].append(rec)
            print(f"{phase:12s} {t.name:24s} valid={rec['valid']} score={rec['score']} "
                  f"ttfv={rec['time_to_first_valid_s']}", file=sys.stderr)  # fmt: skip
    print("\n| phase | valid rate | mean time to first valid (s) |\n|---|---|---|")
    for phase, recs in results.items():
        s = _summary(recs)
        ttfv = "-" if s["mean_ttfv_s"] is None else f"{s['mean_ttfv_s']:.4g}"
        print(f"| {phase} | {s['valid_rate']:.0%} | {ttfv} |")
    print("\n| task | metric direction | fresh | with memory | verdict |\n|---|---|---|---|---|")
    for fresh, mem in zip(results["fresh"], results["with_memory"], strict=True):
        direction = "lower better" if mem.get("lower_is_better") else "higher better"
        print(
            f"| {fresh['task']} | {direction} | {fresh['score']} | {mem['score']} | {_verdict(fresh, mem)} |"
        )
    (args.out / "experience_effect.json").write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
