"""Cost of giving each workspace its inputs: the old hard links vs private copies vs a read-only bind mount.

    python bench/workspace_cost.py [--runs 5] [--big-gb 1.0] [--tmp DIR]

Builds the bundled examples (those whose data packages are installed) and a task with one big input
file of --big-gb GB, then measures, interleaved in one run so machine load affects all alike:
- setup: making one workspace's input/ (median ms): "hardlink" is the mechanism automind used before
  (hard links to the user's files, then chmod, which changed the originals' modes); "copy" is the new
  fallback (private copies, reflinks where the filesystem shares blocks); "bind" is the new default
  (an empty mount point, plus the supervisor's whole namespace setup: the read-only bind mount of the
  inputs, the read-only remount of every other mount, the network namespace);
- disk: bytes of new data blocks one workspace adds;
- run: a whole `Sandbox.run_script("pass")` (median ms), supervisor and namespaces included;
- the ratio of each to the hard links. Prints each figure and the bench's real wall time.
The task folders are scratch copies made here; nothing outside --tmp is touched.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from automind.task import InputEntry

MECHANISMS = ("hardlink", "copy", "bind")


def hardlink_tree(src: str, dst: str, dirs: list[str]) -> None:
    """What automind did before: hard-link (copy across filesystems), chmod 0444 — the user's inode."""
    os.mkdir(dst)
    dirs.append(dst)
    with os.scandir(src) as entries:
        for e in entries:
            target = os.path.join(dst, e.name)
            path = os.path.realpath(e.path) if e.is_symlink() else e.path
            if os.path.isdir(path):
                hardlink_tree(path, target, dirs)
                continue
            try:
                os.link(path, target)
            except OSError:
                shutil.copy2(path, target)
            os.chmod(target, 0o444)


def new_blocks(tree: Path, source_inodes: set[tuple[int, int]]) -> int:
    """Bytes of data blocks under `tree` that are not the source's own inodes."""
    total = 0
    for root, _, files in os.walk(tree):
        for f in files:
            st = os.lstat(os.path.join(root, f))
            if (st.st_dev, st.st_ino) not in source_inodes:
                total += st.st_blocks * 512
    return total


def inodes(folder: Path) -> set[tuple[int, int]]:
    out = set()
    for root, _, files in os.walk(folder, followlinks=True):
        for f in files:
            st = os.stat(os.path.join(root, f))
            out.add((st.st_dev, st.st_ino))
    return out


def big_task(root: Path, gb: float) -> Path:
    """A gradable task whose train.csv is `gb` GB (random digits, written once)."""
    import random

    pub = root / "public"
    pub.mkdir(parents=True)
    (root / "private").mkdir()
    rng = random.Random(0)
    block = "".join(f"{i},{rng.random():.6f},{rng.random():.6f},{rng.randint(0, 1)}\n" for i in range(20000))
    data = block.encode()
    with open(pub / "train.csv", "wb") as f:
        f.write(b"id,a,b,y\n")
        for _ in range(int(gb * 2**30 / len(data)) + 1):
            f.write(data)
    (pub / "test.csv").write_text("id,a,b\n1,0.5,0.5\n")
    (pub / "sample_submission.csv").write_text("id,y\n1,0\n")
    (root / "private" / "answers.csv").write_text("id,y\n1,1\n")
    (root / "description.md").write_text("big input")
    (root / "task.yaml").write_text("name: big\nmetric: accuracy\nid_column: id\ntarget_columns: [y]\n")
    return root


def timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def make_input(mech: str, public: Path, entries: list[InputEntry], dst: Path) -> Callable[[], object]:
    """One workspace's input/ by `mech` (for bind: the mount point; the mount is timed by the child)."""
    from automind.sandbox import workspace as wsp

    if mech == "hardlink":
        return lambda: hardlink_tree(str(public), str(dst), [])
    if mech == "copy":
        return lambda: wsp.copy_inputs(entries, dst)
    return dst.mkdir


def measure(task_dir: Path, scratch: Path, runs: int) -> dict[str, dict[str, float]]:
    from automind.sandbox import Sandbox
    from automind.sandbox import workspace as wsp
    from automind.task import Task

    task = Task.load(task_dir)
    size = sum(os.stat(e.real).st_size for e in task.public_files() if not e.is_dir)
    src_inodes = inodes(task.public_dir)
    modes = {p: p.stat().st_mode for p in task.public_dir.rglob("*") if p.is_file()}
    boxes = {
        "copy": Sandbox(task, scratch / "copy", timeout_s=60, memory_mb=None, threads=1, isolation="copy"),
        "bind": Sandbox(task, scratch / "bind", timeout_s=60, memory_mb=None, threads=1),
    }
    if boxes["bind"].input_mode != "bind":
        print(f"  note: no namespaces here ({boxes['bind'].mechanism}); 'bind' is measured as copies")
    setup: dict[str, list[float]] = {m: [] for m in MECHANISMS}
    run: dict[str, list[float]] = {m: [] for m in ("copy", "bind")}
    ns_ms: list[float] = []  # the supervisor's own namespace setup, as it reports it
    disk: dict[str, float] = {}
    for i in range(runs):
        for mech in MECHANISMS:  # interleaved
            dst = scratch / f"{mech}-{i}"
            setup[mech].append(timed(make_input(mech, task.public_dir, boxes["copy"].entries, dst)))
            disk[mech] = new_blocks(dst, src_inodes)
            wsp.remove(dst)
        for mech, sb in boxes.items():
            t0 = time.perf_counter()
            r = sb.run_script("pass\n")
            run[mech].append((time.perf_counter() - t0) * 1000)
            assert r.ok, r.output
            if mech == "bind":
                report = json.loads(
                    (
                        r.workspace.parent / ".sandbox" / r.workspace.name / "report" / "supervisor.json"
                    ).read_text()
                )
                ns_ms.append(float(report.get("setup_ms", 0.0)))
            sb.remove(r.workspace)
    for p, mode in modes.items():  # undo what the old mechanism did to these scratch originals
        os.chmod(p, mode)
    out = {m: {"setup_ms": statistics.median(setup[m]), "disk": disk[m]} for m in MECHANISMS}
    for m in run:
        out[m]["run_ms"] = statistics.median(run[m])
    out["bind"]["setup_ms"] += statistics.median(ns_ms)  # mount point + the mounts in the child
    out["size"] = {"bytes": size}
    return out


def fmt_bytes(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--big-gb", type=float, default=1.0, help="size of the big input (0: skip it)")
    ap.add_argument("--tmp", type=Path, default=None, help="scratch folder (default: the system temp)")
    args = ap.parse_args()
    t_start = time.perf_counter()
    from automind.examples import EXAMPLES, ExampleError, make_example
    from automind.sandbox.isolation import choose

    print(
        f"python {sys.version.split()[0]}, {args.runs} runs each; sandbox here: {choose('auto', False).describe()}"
    )
    with tempfile.TemporaryDirectory(prefix="workspace-cost-", dir=args.tmp) as tmp:
        root = Path(tmp)
        tasks: dict[str, Path] = {}
        for name in EXAMPLES:
            try:
                tasks[name] = make_example(name, root / "tasks" / name)
            except ExampleError as e:
                print(f"  skipped example {name}: {e}")
        if args.big_gb > 0:
            t0 = time.perf_counter()
            tasks[f"big-{args.big_gb:g}GB"] = big_task(root / "tasks" / "big", args.big_gb)
            print(f"  wrote the {args.big_gb:g} GB input in {time.perf_counter() - t0:.1f} s")
        head = f"{'task':<14} {'input':>9} | {'setup ms: hardlink':>18} {'copy':>8} {'bind':>6} |"
        head += f" {'disk: copy':>10} {'bind':>5} | {'run ms: copy':>12} {'bind':>6} | {'copy/hl':>8} {'bind/hl':>8}"
        print(head)
        for name, task_dir in tasks.items():
            scratch = root / "scratch" / name
            scratch.mkdir(parents=True)
            m = measure(task_dir, scratch, args.runs)
            hl = max(m["hardlink"]["setup_ms"], 1e-3)
            print(
                f"{name:<14} {fmt_bytes(m['size']['bytes']):>9} | {m['hardlink']['setup_ms']:>18.2f} "
                f"{m['copy']['setup_ms']:>8.2f} {m['bind']['setup_ms']:>6.2f} | {fmt_bytes(m['copy']['disk']):>10} "
                f"{fmt_bytes(m['bind']['disk']):>5} | {m['copy']['run_ms']:>12.0f} {m['bind']['run_ms']:>6.0f} | "
                f"{m['copy']['setup_ms'] / hl:>8.1f} {m['bind']['setup_ms'] / hl:>8.2f}",
                flush=True,
            )
            shutil.rmtree(scratch, ignore_errors=True)
    print(f"real wall time of the bench: {time.perf_counter() - t_start:.1f} s")


if __name__ == "__main__":
    main()
