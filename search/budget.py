"""How long the next execution will take, from the journal: the "would it fit" half of the time rules.

The other half lives in `automind.run.Runner` (the clock, the time left, `finish_budget()`): each
execution's timeout ends before the time reserved for finishing, and an execution whose estimate exceeds
what is left is not started (docs/search.md, "Budget"). Estimates are pure functions of the journal.
"""

from __future__ import annotations

from .journal import Journal, Node

RECENT = 5  # executions of a kind looked at
# Scripts scale to the time they are given (the sandbox tells them their limit in AUTOMIND_TIME_LIMIT_S;
# recipe scripts fit their portfolio into it), so an execution still starts with this share of its
# estimate left; with less it would mostly be cut short.
FIT_SHARE = 0.5
# A refine attempt rewrites one block of its base, so it should cost about what the base did. Scripts scale
# to the limit they are told, so without a cap an attempt that swaps in a larger model portfolio fills the
# whole execution cap (digits at 600 s: one attempt took 264 s after its base's 27 s, and the step's other
# attempts never ran).
ATTEMPT_FACTOR = 3.0
ATTEMPT_FLOOR_S = 20.0


# An ensemble script cannot do less in less time: starting the interpreter and loading the saved
# predictions are most of it, so it starts only with its whole estimate left (three of fourteen 60 s runs
# ended on ensemble rounds started with half their estimate left and killed).
ENSEMBLE_SHARE = 1.0


def start_share(kind: str) -> float:
    """The share of its estimate an execution of `kind` needs left to start."""
    return ENSEMBLE_SHARE if kind == "ensemble" else FIT_SHARE


def _exec_times(nodes: list[Node]) -> list[float]:
    """Run times of the executions that ended by themselves: a killed one's time says only that it needed
    more (counted, each kill made the next try's estimate shorter)."""
    return [float(n.timings["exec"]) for n in nodes if "exec" in n.timings and "timeout" not in n.timings]


def ablation_times(journal: Journal) -> list[float]:
    """Seconds each ablation script of the run took (kept on the refine records)."""
    return [float(s) for _, rec in journal.refine_steps for s in rec.get("run_seconds", [])]


def estimate(journal: Journal, kind: str, parent: Node | None = None) -> float | None:
    """Seconds one execution of `kind` (an action, or "ablation") usually takes: the shortest of the
    last executions of that kind; with none yet, the parent's own execution (an improve, refine attempt or
    ablation re-runs much the same script); else None (unknown: it may start). Ensembles are not estimated
    from their parents: they combine saved predictions instead of training."""
    if kind == "ablation":
        same = ablation_times(journal)[-RECENT:]
    else:
        same = _exec_times([n for n in journal.nodes if n.action == kind])[-RECENT:]
    if same:
        return min(same)
    if parent is not None and kind != "ensemble" and "exec" in parent.timings:
        return float(parent.timings["exec"])
    return None


def lower_bound(journal: Journal, kind: str) -> float:
    """The least an execution of `kind` takes in this run: the shortest successful training run so far
    (start-up and the first model cost that much whatever the limit); 0 for ensembles, which train
    nothing."""
    if kind == "ensemble":
        return 0.0
    times = _exec_times([n for n in journal.nodes if not n.is_buggy and n.action != "ensemble"])
    return min(times) if times else 0.0


def fits(
    estimate_s: float | None, left_s: float | None, floor_s: float = 0.0, share: float = FIT_SHARE
) -> bool:
    """Whether an execution expected to take `estimate_s` may start with `left_s` seconds left: at least
    `share` of the estimate (`start_share`), and at least `floor_s` (below it a workspace and an interpreter
    barely start), must be left. None: no estimate, or no time limit."""
    if left_s is None:
        return True
    return left_s >= floor_s and (estimate_s is None or share * estimate_s <= left_s)


def attempt_cap(base: Node) -> float | None:
    """Seconds a refine attempt on `base` may take: ATTEMPT_FACTOR times the base's own run, and at least
    ATTEMPT_FLOOR_S; None when the base's run time is unknown (the execution caps alone apply)."""
    if "exec" not in base.timings:
        return None
    return max(ATTEMPT_FLOOR_S, ATTEMPT_FACTOR * float(base.timings["exec"]))


def ablation_slices(
    total_s: float | None, n_runs: int, need_s: float, least: int
) -> tuple[int, float | None]:
    """How many of `n_runs` ablation scripts run, and the seconds each gets, when they share `total_s`:
    all of them in equal slices when each slice is at least `need_s`; else the first ones that get `need_s`
    each (a slice shorter than that mostly measures start-up: at 120 s every digits script was killed at
    4 s, before its first model); none when fewer than `least` would run (nothing to compare). Without a
    time limit: all, uncut."""
    if total_s is None or n_runs == 0:
        return n_runs, None
    k = n_runs if total_s >= need_s * n_runs else int(total_s // need_s)
    return (k, total_s / k) if k >= max(1, least) else (0, None)
