"""The environment's cost per `execute_code` vs `automind exec` on the same script, and a 15-step episode.

usage: python bench/env_overhead.py [--task EXAMPLE_OR_DIR] [--runs 5] [--leaderboard FILE] [--out DIR]

Part 1 (interleaved, same run, wall times): for each script, one `execute_code` step of a TaskEnv
(built once, as an agent would), the same script through `automind exec` as a user runs it (a new
process: start-up included), and through `check_run`, the function behind `automind exec`, in this
process. Medians and ratios are printed; the env/core ratio is what the environment itself adds
(redaction, reward, keeping the submission); the env/CLI ratio is what an agent saves over shelling out.

Part 2: a scripted 15-step episode on the task (default: the bundled penguins example) with the
offline recipe policy's drafts as the agent's code; prints a transcript with rewards.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCRIPTS = {
    "stdlib copy": (
        "import shutil\nshutil.copy('input/sample_submission.csv', 'submission/submission.csv')\nprint('copied')\n"
    ),
    "pandas rule": (
        "import pandas as pd\n"
        "test = pd.read_csv('input/test.csv')\n"
        "sample = pd.read_csv('input/sample_submission.csv')\n"
        "sample.iloc[:, 1] = sample.iloc[:, 1].mode()[0]\n"
        "sample.to_csv('submission/submission.csv', index=False)\n"
        "print('rows', len(test))\n"
    ),
}


def _core(task, path: Path, code: str, workdir: Path, settings) -> dict:
    """What `automind exec` does in-process: a sandbox from the settings, run, judge (no CLI start-up)."""
    from automind.commands.exec import check_run
    from automind.sandbox import Sandbox

    sandbox = Sandbox.from_settings(task, workdir, settings)
    try:
        return check_run(task, path, code, sandbox, settings)
    finally:
        for ws in sandbox.created:
            sandbox.remove(ws)


def _time(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def overhead(task, settings, runs: int, tmp: Path) -> None:
    from automind.env import TaskEnv

    env = TaskEnv(task, settings=settings, workdir=tmp / "env")
    env.reset()
    cli = str(Path(sys.executable).parent / "automind")
    print(f"\n## execute_code vs automind exec ({runs} interleaved runs each, medians; task {task.name})\n")
    print("| script | env step (s) | exec core (s) | exec CLI (s) | env/core | env/CLI |")
    print("|---|---|---|---|---|---|")
    for name, code in SCRIPTS.items():
        path = tmp / f"{name.replace(' ', '_')}.py"
        path.write_text(code)
        envs, cores, clis = [], [], []
        for i in range(runs + 1):  # the first round warms caches and is dropped
            if env.steps_used >= env.limits.max_steps - 1:
                env.reset()
            e = _time(lambda code=code: env.step({"action": "execute_code", "code": code}))
            c = _time(lambda path=path, code=code, wd=tmp / f"core{i}": _core(task, path, code, wd, settings))
            proc_t0 = time.perf_counter()
            proc = subprocess.run([cli, "exec", str(task.root), str(path), "--json", "--workdir", str(tmp / f"cli{i}")],
                                  capture_output=True, text=True)  # fmt: skip
            x = time.perf_counter() - proc_t0
            if proc.returncode != 0:
                raise SystemExit(f"automind exec failed: {proc.stdout[-500:]} {proc.stderr[-500:]}")
            if i:
                envs.append(e)
                cores.append(c)
                clis.append(x)
        me, mc, mx = (statistics.median(v) for v in (envs, cores, clis))
        print(f"| {name} | {me:.3f} | {mc:.3f} | {mx:.3f} | {me / mc:.2f} | {me / mx:.2f} |")
    env.close()


def episode(task, settings, leaderboard: Path | None, tmp: Path) -> list[dict]:
    from automind.env import Limits, TaskEnv
    from automind.env.demo import describe, play, recipe_drafts

    drafts = recipe_drafts(task, settings, 3)
    by_kind = {("baseline" if "baseline" in t.lower() else f"draft{i}"): c for i, (t, c) in enumerate(drafts)}
    base = by_kind.get("baseline", drafts[0][1])
    others = [c for _, c in drafts if c != base]
    wrong = "import pandas as pd\npd.DataFrame({'id': [1], 'x': [2]}).to_csv('submission/submission.csv', index=False)\n"
    actions = [
        {"action": "request_info", "kind": "description"},
        {"action": "request_info", "kind": "metric"},
        {"action": "request_info", "kind": "data"},
        {"action": "request_info", "kind": "sample_submission"},
        {"action": "request_info", "kind": "output"},
        {"action": "validate_code", "code": base},
        {"action": "execute_code", "code": base},
        {"action": "validate_code", "code": others[0] if others else base},
        {"action": "execute_code", "code": others[0] if others else base},
        {"action": "execute_code", "code": others[1] if len(others) > 1 else SCRIPTS["pandas rule"]},
        {"action": "execute_code", "code": wrong},
        {"action": "execute_code", "code": "def broken(:\n"},
        {"action": "validate_code", "code": "import pandas as pd\npd.read_csv('input/missing.csv')\n"},
        {"action": "get_history", "last": 5},
        {"action": "get_history"},
    ]
    env = TaskEnv(task, settings=settings, workdir=tmp / "episode", leaderboard=leaderboard, limits=Limits())
    print(f"\n## 15-step episode on {task.name} (agent: offline recipe drafts)\n")
    print("| step | action | status | outcome / first line | score | reward | reward kind | wall (s) |")
    print("|---|---|---|---|---|---|---|---|")
    rows, total = [], 0.0
    for s in play(env, actions):
        if s.index == 0:
            continue
        data = s.info.get("data") or {}
        first = next((ln for ln in s.observation["text"].splitlines() if ln.strip()), "")[:60]
        line = data.get("outcome") or first.replace("|", "/")
        score = data.get("score")
        total += s.reward
        print(f"| {s.index} | {describe(s.action)} | {s.observation['status']} | {line} | "
              f"{'-' if score is None else score} | {s.reward:g} | {s.info.get('reward_kind')} | {s.wall_s:.2f} |"
              + (" truncated" if s.truncated else ""))  # fmt: skip
        rows.append({"step": s.index, "action": describe(s.action), "status": s.observation["status"],
                     "score": score, "reward": s.reward, "reward_kind": s.info.get("reward_kind"),
                     "truncated": s.truncated, "wall_s": round(s.wall_s, 3), "text": s.observation["text"]})  # fmt: skip
    best = max((r["reward"] for r in rows), default=0.0)
    print(f"\nsum of rewards {total:.4f}, best reward {best:.4f}, truncated at step {rows[-1]['step']}: "
          f"{rows[-1]['truncated']}")  # fmt: skip
    env.close()
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--task", default="penguins", help="task folder or bundled example name")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--leaderboard", type=Path, default=None, help="a leaderboard CSV for HumanRank rewards")
    ap.add_argument("--out", type=Path, default=Path("bench-out/env_overhead"))
    ap.add_argument("--skip-overhead", action="store_true")
    args = ap.parse_args()

    from automind.config import load_config
    from automind.examples import resolve_task
    from automind.task import Task

    settings = load_config({"sandbox.timeout_s": 600}).settings
    with tempfile.TemporaryDirectory(prefix="env-bench-") as tmp:
        task = Task.load(resolve_task(args.task, tasks_dir=tmp))
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, task {task.name} ({task.root})")
        if not args.skip_overhead:
            overhead(task, settings, args.runs, Path(tmp))
        rows = episode(task, settings, args.leaderboard, Path(tmp))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "episode.json").write_text(json.dumps(rows, indent=1))
    print(f"\ntranscript: {args.out / 'episode.json'}")


if __name__ == "__main__":
    main()
