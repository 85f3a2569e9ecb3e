"""Local-model benchmark: generation speed and whether a drafted script runs on a bundled example.

Needs a running OpenAI-compatible server (see `automind llm local-setup`), e.g.
    python bench/local_llm.py --base-url http://127.0.0.1:8765/v1 --example penguins --repairs 2
Prints tokens/s for a fixed prompt, then drafts a plan and a one-pass script for the example with
LLMRoles, runs it in the sandbox (repairing up to --repairs times) and reports the outcome.
Not run by the tests; slow by nature.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


def speed(llm, n: int) -> tuple[float, float]:
    """(completion tokens/s, prompt tokens/s estimate) over n short generations."""
    msgs = [
        {
            "role": "user",
            "content": "Write a Python function that returns the n-th Fibonacci number, with a docstring.",
        }
    ]
    done = toks = prompt = 0.0
    for _ in range(n):
        t0 = time.perf_counter()
        r = llm.chat(msgs, role="coder")
        done += time.perf_counter() - t0
        toks += r.usage.completion_tokens
        prompt += r.usage.prompt_tokens
    return toks / done if done else 0.0, prompt / done if done else 0.0


def analysis_text(task) -> str:
    try:
        from automind.analysis import analyze

        return analyze(task).render()
    except ImportError:
        import pandas as pd

        parts = []
        for p in sorted(task.public_dir.glob("*.csv")):
            df = pd.read_csv(p, nrows=5)
            parts.append(f"{p.name}: columns {list(df.columns)}\n{df.head(3).to_string()}")
        return "\n\n".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base-url", default="http://127.0.0.1:8765/v1")
    ap.add_argument("--model", default="local")
    ap.add_argument("--example", default="penguins")
    ap.add_argument("--task-dir", type=Path, help="use this task folder instead of building the example")
    ap.add_argument("--speed-runs", type=int, default=2)
    ap.add_argument("--repairs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per script execution")
    args = ap.parse_args()

    from automind.config import load_config
    from automind.errors import RoleError
    from automind.llm import make_llm
    from automind.llm.roles import LLMRoles
    from automind.roles import Context
    from automind.sandbox import Sandbox
    from automind.task import Task

    settings = load_config(
        {"llm.base_url": args.base_url, "llm.timeout_s": 600, "llm.max_retries": 1}
    ).settings
    llm = make_llm(settings, f"openai:{args.model}")
    tps, pps = speed(llm, args.speed_runs)
    print(
        f"generation: {tps:.1f} completion tokens/s over wall time ({pps:.0f} prompt tokens/s on the same basis)"
    )

    with tempfile.TemporaryDirectory() as tmp:
        if args.task_dir:
            task_dir = args.task_dir
        else:
            from automind.examples import make_example

            task_dir = make_example(args.example, Path(tmp) / "task")
        task = Task.load(task_dir)
        roles = LLMRoles(llm, settings)
        ctx = Context(task=task, action="draft", analysis=analysis_text(task))
        t0 = time.perf_counter()
        try:
            plan = roles.plan(ctx)
            code = roles.code(ctx, plan)
        except RoleError as e:
            print(f"draft failed: {e}")
            return
        print(f"draft written in {time.perf_counter() - t0:.0f} s; plan: {plan.summary}")
        sandbox = Sandbox(task, Path(tmp) / "work", timeout_s=args.timeout, memory_mb=4096, threads=2)
        for attempt in range(args.repairs + 1):
            result = sandbox.run_script(code)
            has_sub = result.submission_path.is_file()
            print(
                f"try {attempt + 1}: status={result.status} submission={'yes' if has_sub else 'no'} ({result.wall_s:.1f} s)"
            )
            if result.ok and has_sub:
                break
            if attempt < args.repairs:
                try:
                    code = roles.repair(ctx, code, result.output)
                except RoleError as e:
                    print(f"repair failed: {e}")
                    break
        print(
            f"outcome: {'ran and wrote a submission' if result.ok and has_sub else 'did not produce a valid run'}"
        )
        print(f"usage: {llm.usage_summary()['total']}")


if __name__ == "__main__":
    main()
