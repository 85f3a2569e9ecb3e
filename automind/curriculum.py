"""Curriculum over a folder of tasks: pick the next task with Agent K's score, solve, learn, repeat.

score(t) = sim_r(t, solved) + alpha * sim_r(tree(t), solved trees)
         - sim_r(t, failed) - alpha * sim_r(tree(t), failed trees)
         - beta * exp(-lambda_t)
where sim_r is the mean of the top-r cosine similarities and lambda_t the number of picks since t was last
picked (the recency term vanishes for tasks never picked). State lives in curriculum.json, written
atomically after every pick, so an interrupted curriculum resumes where it stopped.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from automind.atomic import write_json


def tree_text(task_dir: Path, max_entries: int = 60) -> str:
    """A short text description of a task's data folder: names, sizes and CSV headers."""
    public = task_dir / "public"
    lines: list[str] = []
    for p in sorted(public.rglob("*"))[:max_entries] if public.is_dir() else []:
        rel = p.relative_to(public)
        if p.is_dir():
            lines.append(f"{rel}/")
            continue
        line = f"{rel} ({p.stat().st_size} bytes)"
        if p.suffix in (".csv", ".tsv"):
            with p.open(encoding="utf-8", errors="replace") as f:
                line += " columns: " + f.readline().strip()[:300]
        lines.append(line)
    return "\n".join(lines) or "(no public files)"


def top_r_similarity(vec: np.ndarray, others: list[np.ndarray], r: int) -> float:
    if not others:
        return 0.0
    sims = sorted((float(np.dot(vec, o)) for o in others), reverse=True)
    return float(np.mean(sims[:r]))


@dataclass
class Pick:
    round: int
    step: int
    task: str
    score: float
    terms: dict[str, float]
    outcome: str = "pending"  # solved | failed | pending
    metric: float | None = None
    run_dir: str = ""
    seconds: float = 0.0


@dataclass
class CurriculumState:
    tasks: list[str]
    picks: list[Pick] = field(default_factory=list)

    @property
    def solved(self) -> set[str]:
        return {p.task for p in self.picks if p.outcome == "solved"}

    @property
    def failed(self) -> set[str]:
        return {p.task for p in self.picks if p.outcome == "failed"} - self.solved

    def last_picked(self, task: str) -> int | None:
        steps = [p.step for p in self.picks if p.task == task]
        return max(steps) if steps else None

    def save(self, path: Path) -> None:
        write_json(path, {"tasks": self.tasks, "picks": [asdict(p) for p in self.picks]}, indent=2)

    @classmethod
    def load(cls, path: Path) -> CurriculumState:
        data = json.loads(path.read_text())
        return cls(tasks=data["tasks"], picks=[Pick(**p) for p in data["picks"]])


def score_tasks(
    state: CurriculumState,
    desc_vecs: dict[str, np.ndarray],
    tree_vecs: dict[str, np.ndarray],
    *,
    alpha: float,
    beta: float,
    r: int,
) -> dict[str, dict[str, float]]:
    """Score terms for every task (higher total = pick sooner)."""
    solved, failed = state.solved, state.failed
    step = len(state.picks)
    out: dict[str, dict[str, float]] = {}
    for t in state.tasks:
        s_desc = top_r_similarity(desc_vecs[t], [desc_vecs[o] for o in solved if o != t], r)
        s_tree = top_r_similarity(tree_vecs[t], [tree_vecs[o] for o in solved if o != t], r)
        f_desc = top_r_similarity(desc_vecs[t], [desc_vecs[o] for o in failed if o != t], r)
        f_tree = top_r_similarity(tree_vecs[t], [tree_vecs[o] for o in failed if o != t], r)
        last = state.last_picked(t)
        recency = math.exp(-(step - last)) if last is not None else 0.0
        total = s_desc + alpha * s_tree - f_desc - alpha * f_tree - beta * recency
        out[t] = {
            "solved_desc": s_desc,
            "solved_tree": s_tree,
            "failed_desc": f_desc,
            "failed_tree": f_tree,
            "recency": recency,
            "total": total,
        }
    return out


def next_task(
    scores: dict[str, dict[str, float]], state: CurriculumState, rounds_done: dict[str, int]
) -> str | None:
    """Best-scoring task not yet attempted this round; ties broken by name for reproducibility."""
    current_round = min(rounds_done.values()) if rounds_done else 0
    candidates = [t for t in state.tasks if rounds_done.get(t, 0) == current_round]
    if not candidates:
        return None
    return max(sorted(candidates), key=lambda t: scores[t]["total"])


SolveFn = Callable[
    [Path, Path], dict[str, Any]
]  # (task_dir, run_dir) -> {"valid": bool, "metric": float|None}


def run_curriculum(
    tasks_dir: Path,
    out_dir: Path,
    solve: SolveFn,
    embed: Callable[[list[str]], np.ndarray],
    *,
    rounds: int = 1,
    alpha: float = 0.5,
    beta: float = 0.3,
    r: int = 3,
    on_pick: Callable[[Pick], None] | None = None,
) -> CurriculumState:
    """Solve every task `rounds` times in curriculum order; resumes from out_dir/curriculum.json."""
    out_dir.mkdir(parents=True, exist_ok=True)
    state_path = out_dir / "curriculum.json"
    task_dirs = {p.name: p for p in sorted(tasks_dir.iterdir()) if (p / "description.md").is_file()}
    if not task_dirs:
        raise FileNotFoundError(f"{tasks_dir}: no task folders (sub-folders with description.md) found")
    if state_path.is_file():
        state = CurriculumState.load(state_path)
        missing = [t for t in state.tasks if t not in task_dirs]
        if missing:
            raise FileNotFoundError(f"{state_path} lists tasks no longer in {tasks_dir}: {missing}")
    else:
        state = CurriculumState(tasks=sorted(task_dirs))
    names = state.tasks
    descs = [
        (task_dirs[t] / "description.md").read_text(encoding="utf-8", errors="replace")[:4000] for t in names
    ]
    trees = [tree_text(task_dirs[t]) for t in names]
    dv, tv = embed(descs), embed(trees)
    desc_vecs = {t: dv[i] for i, t in enumerate(names)}
    tree_vecs = {t: tv[i] for i, t in enumerate(names)}
    # a pending pick means a crash mid-solve: it is re-run
    state.picks = [p for p in state.picks if p.outcome != "pending"]
    while True:
        done = {t: sum(1 for p in state.picks if p.task == t) for t in names}
        if min(done.values()) >= rounds:
            break
        scores = score_tasks(state, desc_vecs, tree_vecs, alpha=alpha, beta=beta, r=r)
        task = next_task(scores, state, done)
        if task is None:
            break
        pick = Pick(
            round=done[task] + 1,
            step=len(state.picks),
            task=task,
            score=scores[task]["total"],
            terms={k: round(v, 5) for k, v in scores[task].items() if k != "total"},
        )
        pick.run_dir = str(out_dir / "runs" / f"{task}-r{pick.round}")
        state.picks.append(pick)
        state.save(state_path)
        t0 = time.time()
        try:
            result = solve(task_dirs[task], Path(pick.run_dir))
        except Exception as e:  # noqa: BLE001 - a crashed task is a failed task, the curriculum goes on
            result = {"valid": False, "metric": None, "error": f"{type(e).__name__}: {e}"}
        pick.seconds = round(time.time() - t0, 2)
        pick.outcome = "solved" if result.get("valid") else "failed"
        pick.metric = result.get("metric")
        state.save(state_path)
        if on_pick:
            on_pick(pick)
    return state
