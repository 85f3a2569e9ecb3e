"""Sandbox overhead per execution vs plain `python script.py`, measured side by side in one run.

usage: python bench/sandbox_overhead.py [--runs 15] [--task TASK_DIR] [--isolation auto|copy]

With --task each workspace also gets that task's public files (as in a real solve): bind-mounted where
namespaces work (--isolation auto), private copies with --isolation copy.
Prints the median wall time of each way for a trivial script and a pandas-import script, and the ratio.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCRIPTS = {
    "trivial": "print('hello')\n",
    "pandas import": "import pandas as pd\nprint(pd.DataFrame({'a': [1, 2]}).sum().iloc[0])\n",
}


def plain(path: Path, cwd: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, str(path)], cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--task", type=Path, default=None, help="task folder whose public files are the inputs")
    ap.add_argument("--isolation", choices=("auto", "copy"), default="auto")
    args = ap.parse_args()

    from automind.sandbox import Sandbox

    with tempfile.TemporaryDirectory(prefix="sandbox-bench-") as tmp:
        root = Path(tmp)
        sb = Sandbox(
            args.task, root / "sandbox", timeout_s=120, memory_mb=4096, threads=1, isolation=args.isolation
        )
        print(f"python {sys.version.split()[0]}, {args.runs} runs each, task: {args.task or 'none'}")
        print(f"contained by {sb.mechanism}")
        print(f"{'script':<15} {'plain (ms)':>11} {'sandbox (ms)':>13} {'overhead (ms)':>14} {'ratio':>6}")
        for name, code in SCRIPTS.items():
            path = root / f"{name.replace(' ', '_')}.py"
            path.write_text(code)
            plain(path, root), sb.run_script(code)  # warm the page cache for both
            a, b = [], []
            for _ in range(args.runs):  # interleaved, so machine load affects both alike
                a.append(plain(path, root))
                t0 = time.perf_counter()
                r = sb.run_script(code)
                b.append(time.perf_counter() - t0)
                assert r.ok, r.output
                Sandbox.remove(r.workspace)
            pa, pb = statistics.median(a) * 1000, statistics.median(b) * 1000
            print(f"{name:<15} {pa:>11.1f} {pb:>13.1f} {pb - pa:>14.1f} {pb / pa:>6.2f}")


if __name__ == "__main__":
    main()
