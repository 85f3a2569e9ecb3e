"""Curriculum over a folder of tasks: pick the next task with Agent K's score, solve, learn, repeat.

score(t) = sim_r(t, solved) + alpha * sim_r(tree(t), solved trees)
         - sim_r(t, failed) - alpha * sim_r(tree(t), failed trees)
         - beta * exp(-lambda_t)
where sim_r is the mean of the top-r cosine similarities and lambda_t the number of picks since t was last
picked (the recency term vanishes for tasks never picked). Selection rules (docs/curriculum.md):
- the pool is every task solved fewer than `rounds` times that has not failed more than `retries`
  times: a failed task stays in the pool and is retried, with the recency term pushing it back;
- among the pool, the tasks solved the fewest times compete (rounds stay in step), best score first,
  ties by name;
- the very first pick, when a model is configured, is the task the model judges easiest.
State lives in curriculum.json, written atomically after every pick, so an interrupted curriculum
resumes where it stopped.
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
    reason: str = "score"  # why this task: "score", or "llm: judged easiest" for the first pick


@dataclass
class CurriculumState:
    tasks: list[str]
    picks: list[Pick] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # fallbacks taken (e.g. the LLM ranking failed)

    @property
    def solved(self) -> set[str]:
        return {p.task for p in self.picks if p.outcome == "solved"}

    @property
    def failed(self) -> set[str]:
        return {p.task for p in self.picks if p.outcome == "failed"} - self.solved

    def count(self, task: str, outcome: str) -> int:
        return sum(1 for p in self.picks if p.task == task and p.outcome == outcome)

    def pool(self, rounds: int, retries: int) -> list[str]:
        """Tasks still to pick: solved fewer than `rounds` times and failed at most `retries` times."""
        return [
            t for t in self.tasks if self.count(t, "solved") < rounds and self.count(t, "failed") <= retries
        ]

    def last_picked(self, task: str) -> int | None:
        steps = [p.step for p in self.picks if p.task == task]
        return max(steps) if steps else None

    def save(self, path: Path) -> None:
        data = {"tasks": self.tasks, "picks": [asdict(p) for p in self.picks], "notes": self.notes}
        write_json(path, data, indent=2)

    @classmethod
    def load(cls, path: Path) -> CurriculumState:
        data = json.loads(path.read_text())
        known = set(Pick.__dataclass_fields__)
        picks = [Pick(**{k: v for k, v in p.items() if k in known}) for p in data["picks"]]
        return cls(tasks=data["tasks"], picks=picks, notes=list(data.get("notes") or []))


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


def next_task(scores: dict[str, dict[str, float]], state: CurriculumState, pool: list[str]) -> str | None:
    """Among the pool's tasks solved the fewest times, the best score; ties broken by name."""
    if not pool:
        return None
    fewest = min(state.count(t, "solved") for t in pool)
    candidates = sorted(t for t in pool if state.count(t, "solved") == fewest)
    return max(candidates, key=lambda t: scores[t]["total"])


SolveFn = Callable[
    [Path, Path], dict[str, Any]
]  # (task_dir, run_dir) -> {"valid": bool, "metric": float|None}
# [{"name", "description", "tree"}] -> task names, easiest first (the LLM's judgement)
RankFn = Callable[[list[dict[str, str]]], list[str]]


def run_curriculum(
    tasks_dir: Path,
    out_dir: Path,
    solve: SolveFn,
    embed: Callable[[list[str]], np.ndarray],
    *,
    rounds: int = 1,
    retries: int = 1,
    alpha: float = 0.5,
    beta: float = 0.3,
    r: int = 3,
    rank: RankFn | None = None,
    on_pick: Callable[[Pick], None] | None = None,
) -> CurriculumState:
    """Solve every task `rounds` times in curriculum order, retrying a failed task up to `retries`
    times; `rank` (an LLM) chooses the first task. Resumes from out_dir/curriculum.json."""
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
        pool = state.pool(rounds, retries)
        scores = score_tasks(state, desc_vecs, tree_vecs, alpha=alpha, beta=beta, r=r)
        task, reason = next_task(scores, state, pool), "score"
        if task is None:
            break
        if not state.picks and rank is not None:
            easiest = _easiest(rank, names, descs, trees, state.notes)
            if easiest is not None:
                task, reason = easiest, "llm: judged easiest"
        pick = Pick(
            round=state.count(task, "solved") + 1,
            step=len(state.picks),
            task=task,
            score=scores[task]["total"],
            terms={k: round(v, 5) for k, v in scores[task].items() if k != "total"},
            reason=reason,
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


def _easiest(
    rank: RankFn, names: list[str], descs: list[str], trees: list[str], notes: list[str]
) -> str | None:
    """The task the model ranks easiest; None (and a note) when the ranking fails."""
    infos = [
        {"name": n, "description": d[:1500], "tree": t[:600]}
        for n, d, t in zip(names, descs, trees, strict=True)
    ]
    try:
        order = [n for n in rank(infos) if n in names]
        if not order:
            raise ValueError("the ranking named no known task")
        return order[0]
    except Exception as e:  # noqa: BLE001 - the score rule still picks a first task
        notes.append(
            f"curriculum: the LLM could not rank the tasks by difficulty ({type(e).__name__}: {str(e)[:200]}); "
            "the first task was chosen by score (ties by name)"
        )
        return None
