"""What does the ensemble's pool round add? Replay it after the fact on finished runs and compare.

    python bench/pool_after.py TASKS_DIR RUNS_DIR [RUNS_DIR ...] --out OUT

RUNS_DIR is laid out as bench/offline_vs_automl.py and bench/budget_trend.py write it (RUNS_DIR/<task>/run).
For every finished run with a holdout and an offline ensemble round (automind's own ensemble script), the
pool round the policy offers at the end of that run (`search.policy.ensemble_pool` over the run's journal,
`search.ensemble.pool` solutions) is built from the run's first ensemble script with its member list
widened (same method), run in the sandbox under OUT/<RUNS_DIR name>/<task>/ on the run's holdout view
(the run folder is only read), and its holdout rows scored as the search scores them (docs/search.md,
"Twenty-fifth part"). A run whose pool holds no more solutions than that round's members is left out.

Printed per run: the graded score of the lineage round (the run's first ensemble) and of the pool round,
whether the run would have picked the pool round (its holdout score beats the best node's rank, the rule
every ensemble meets), and two paired-bootstrap gains over the test rows (bench/paired.py): the pool round
against the lineage round, and the submission picked with the pool round against the run's own pick
(both search-time: no final refit in either). The last row pools each column. Meant for runs made before
the pool round or with `search.ensemble.pool: 0`: a run that took pool rounds already has them in its pick.
"""

from __future__ import annotations

import argparse
import ast
import pprint
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from budget_trend import graded_text, load_tasks
from paired import paired_gain, pooled_gain

from automind.config import load_config
from automind.search.journal import Journal
from automind.task import Task


def _swap_members(code: str, members: list[dict[str, str]]) -> str | None:
    """`code` (an offline ensemble script) with CFG["ensemble"]["members"] replaced; None when the script has
    no such literal CFG."""
    tree = ast.parse(code)
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["CFG"]:
            segment = ast.get_source_segment(code, node)
            try:
                cfg = ast.literal_eval(node.value)
            except ValueError:
                return None
            if segment is None or not isinstance(cfg.get("ensemble"), dict):
                return None
            cfg["ensemble"]["members"] = members
            return code.replace(segment, f"CFG = {pprint.pformat(cfg, width=108, sort_dicts=False)}", 1)
    return None


@dataclass
class Pool:
    """The pool round to replay: its script, the pool's node ids, the run's best node and first offline
    ensemble round (whose script and members the pool round widens), and the run's journal."""

    code: str
    ids: list[str]
    best: str
    first: str
    journal: Journal


def pool_script(run: Path) -> Pool | str:
    """The pool round of a finished run (the journal read once); or why there is none to replay."""
    from automind.recipes.ensemble import ENSEMBLE_TAG
    from automind.search.policy import ensemble_pool

    journal = Journal.load(run / "journal.json")
    rounds = [
        n for n in journal.nodes if n.action == "ensemble" and not n.is_buggy and ENSEMBLE_TAG in n.code
    ]
    best = journal.best_node
    if not rounds or best is None:
        return "no offline ensemble round"
    first = rounds[0]
    pool = ensemble_pool(journal, load_config().settings.search)
    if len(pool) <= len((first.ensemble or {}).get("members", [])):
        return f"the pool ({len(pool)} solutions) adds nothing to the lineage round"
    folders = [{"id": n.id, "dir": str((run / "nodes" / n.id / "submission").resolve())} for n in pool]
    code = _swap_members(first.code, folders)
    if code is None:
        return "the first ensemble script has no literal CFG"
    return Pool(code, [n.id for n in pool], best.id, first.id, journal)


def _copy(src: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copyfile(src, folder / src.name))


def replay(task: Task, run: Path, out: Path) -> dict[str, Any] | str:
    """Run the pool round of `run` under `out` and score it as the search would; the run is only read.
    `out` then holds lineage/, pool/, own_pick/ and pick/, one test-rows submission each."""
    from automind.holdout.score import separate
    from automind.holdout.view import load_holdout
    from automind.sandbox import Sandbox
    from automind.search.journal import MetricValue

    holdout = load_holdout(run / "holdout")
    if holdout is None:
        return "no holdout"
    made = pool_script(run)
    if isinstance(made, str):
        return made
    journal, best_id = made.journal, made.best
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    box = Sandbox.from_settings(task, out / "work", load_config().settings, inputs=holdout.inputs)
    result = box.run_script(made.code)
    written = result.workspace / "submission" / task.spec.submission_file
    if result.status != "ok" or not written.is_file():
        return f"the pool round failed ({result.status}: {result.message or result.exc_type})"
    sub = _copy(written, out / "pool")
    sep = separate(holdout, task, sub, out / "pool_holdout.csv")  # keeps the test rows in `sub`
    if sep.score is None:
        return f"the pool round's holdout rows could not be scored ({sep.error or sep.score_error})"
    name = task.spec.submission_file
    own = _copy(run / "nodes" / best_id / "submission" / name, out / "own_pick")
    _copy(run / "nodes" / made.first / "submission" / name, out / "lineage")
    picked = MetricValue(sep.score.value, bool(journal.direction)) > journal.score(journal.get(best_id))
    _copy(sub if picked else own, out / "pick")
    return {"members": made.ids, "holdout": sep.score.value, "best": best_id, "picked": picked}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tasks_dir", type=Path)
    ap.add_argument("runs_dirs", type=Path, nargs="+")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    tasks = load_tasks(args.tasks_dir, None)
    pairs: dict[str, list[tuple[Task, Path, Path]]] = {"pool vs lineage round": [], "pick vs run's pick": []}
    rows = []
    for runs in args.runs_dirs:
        for task in tasks:
            run = runs / task.root.name / "run"
            if not (run / "run.json").is_file() or not (run / "journal.json").is_file():
                continue
            out = args.out / runs.resolve().name / task.root.name
            got = replay(task, run, out)
            where = f"{task.root.name} ({runs.name})"
            if isinstance(got, str):
                print(f"{where}: left out, {got}", file=sys.stderr, flush=True)
                continue
            name = task.spec.submission_file
            a = {k: out / k / name for k in ("pool", "lineage", "pick", "own_pick")}
            pairs["pool vs lineage round"].append((task, a["pool"], a["lineage"]))
            pairs["pick vs run's pick"].append((task, a["pick"], a["own_pick"]))
            cells = [graded_text(task, a["lineage"]), graded_text(task, a["pool"]),
                     str(len(got["members"])), "yes" if got["picked"] else "no",
                     str(paired_gain(task, a["pool"], a["lineage"])), str(paired_gain(task, a["pick"], a["own_pick"]))]  # fmt: skip
            rows.append(f"| {where} | " + " | ".join(cells) + " |")
            print(rows[-1], file=sys.stderr, flush=True)
    if not rows:
        print(
            "no finished run with an offline ensemble round and a wider pool in "
            + ", ".join(map(str, args.runs_dirs))
        )
        return
    print("graded scores of the run's first (lineage) ensemble round and of the pool round replayed; whether the "
          "run would have picked it; gains (positive: better), 95 % paired-bootstrap interval over the test "
          "rows; * = the interval excludes 0\n")  # fmt: skip
    print(
        "| task (runs) | lineage round | pool round | pool | picked | pool vs lineage round | pick vs run's pick |"
    )
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print(
        "| pooled (wins - losses) | | | | | " + " | ".join(str(pooled_gain(v)) for v in pairs.values()) + " |"
    )


if __name__ == "__main__":
    main()
