"""Plain one-line-per-step progress: the run folder's `run.log`, and what a redirected `solve` prints.

A run can be followed anywhere: `tail -f RUN/run.log`, a CI log, `make demo > demo.log`. Each line is
formatted once here, appended to run.log (flushed, appended across resumes) and handed to a listener,
so what the terminal printed and what the file holds are the same text. The rich live view reads the
same figures (`progress`) for its time bar.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from automind.search.journal import Node

LOG_NAME = "run.log"
SEP = " | "
TRICK_CHARS = 48
PLAN_CHARS = 60
ERROR_CHARS = 70


def score(value: float | None) -> str:
    return "-" if value is None else f"{value:.6g}"


def seconds(value: float) -> str:
    """120 -> '2m00s', 45.2 -> '45s', 3725 -> '1h02m'."""
    s = max(0, round(value))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


@dataclass(frozen=True)
class Budget:
    """Where a run stands against its budgets (either may be absent); the one nearer to its end binds."""

    steps_done: int
    steps: int | None  # None: no step limit
    elapsed_s: float
    time_limit_s: float | None  # None: no time limit
    finish_reserve_s: float = 0.0  # kept at the end for the final refit, grading and the report

    @property
    def time_left_s(self) -> float | None:
        """Seconds the search may still use (the finishing reserve kept aside); None without a time limit."""
        if self.time_limit_s is None:
            return None
        return max(0.0, self.time_limit_s - self.elapsed_s - self.finish_reserve_s)

    def _shares(self) -> tuple[float, float]:
        by_steps = self.steps_done / self.steps if self.steps else 0.0
        by_time = self.elapsed_s / self.time_limit_s if self.time_limit_s else 0.0
        return by_steps, by_time

    @property
    def fraction(self) -> float:
        """0..1: the larger of the step share and the time share used."""
        return min(1.0, max(self._shares()))

    @property
    def binding(self) -> str:
        by_steps, by_time = self._shares()
        return "time" if by_time > by_steps else "steps"

    def steps_text(self) -> str:
        return (
            f"{self.steps_done}/{self.steps}"
            if self.steps is not None
            else f"{self.steps_done} (no step limit)"
        )

    def limit_text(self) -> str:
        return "no time limit" if self.time_limit_s is None else seconds(self.time_limit_s)

    def clock(self) -> str:
        left = self.time_left_s
        if left is None:
            return f"{seconds(self.elapsed_s)} used, no time limit"
        return f"{seconds(self.elapsed_s)} used, {seconds(left)} left"

    def info(self) -> dict[str, float | int | None]:
        """The JSON form kept in run.json and the run summary."""
        left = self.time_left_s
        return {
            "steps": self.steps,
            "steps_done": self.steps_done,
            "time_limit_s": self.time_limit_s,
            "finish_reserve_s": round(self.finish_reserve_s, 3),
            "elapsed_s": round(self.elapsed_s, 3),
            "time_left_s": None if left is None else round(left, 3),
        }


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _untag(summary: str) -> str:
    """'[draft rcp-x] Linear baseline' -> 'rcp-x: Linear baseline' (the recipe policy's summaries)."""
    tagged = re.match(r"\[(?:draft|improve|debug) ([^\]]+)\]\s*(.*)", summary, re.S)
    return f"{tagged.group(1)}: {tagged.group(2)}" if tagged else summary


def step_text(node: Node, best: Node | None, budget: Budget) -> str:
    """One finished step: node, action (and parent), trick, status, score, best so far, time."""
    action = node.action + (f" of {node.parent_id}" if node.parent_id is not None else "")
    members = (node.ensemble or {}).get("members") if node.action == "ensemble" else None
    if members:  # its parent is only the first of the solutions it combines
        action = "ensemble of nodes " + ", ".join(str(m) for m in members)
    if node.safety_net:
        action += " (safety net)"
    parts = [f"step {budget.steps_text()}", f"node {node.id}", action]
    if node.trick is not None:
        parts.append(f"trick: {_clip(node.trick.title, TRICK_CHARS)}")
    elif node.action == "draft" and (node.summary or node.plan):
        parts.append(f"plan: {_clip(_untag(node.summary or node.plan), PLAN_CHARS)}")
    if node.is_buggy:
        parts.append(f"{node.status}: {_clip(node.error or 'no score', ERROR_CHARS)}")
    else:
        parts.append(f"valid, score {score(node.metric.value if node.metric else None)}")
    best_value = best.metric.value if best is not None and best.metric is not None else None
    parts.append(
        f"best {score(best_value)}"
        + (f" (node {best.id})" if best is not None and best_value is not None else "")
    )
    parts.append(budget.clock())
    return SEP.join(parts)


class RunLog:
    """Appends stamped lines to RUN/run.log and passes each one to `on_line` (the CLI prints them)."""

    def __init__(
        self,
        run_dir: Path,
        on_line: Callable[[str], None] | None = None,
        fallbacks: list[str] | None = None,
    ):
        self.path = Path(run_dir) / LOG_NAME
        self.on_line = on_line
        self.fallbacks = fallbacks  # where a log that cannot be written is reported, once
        self.broken = False

    def write(self, text: str) -> str:
        """Stamp, append (flushed, so `tail -f` sees it now) and hand on one line; returns the line."""
        line = f"{datetime.now():%H:%M:%S} {text}"
        try:
            with self.path.open("a", encoding="utf-8") as f:
                f.write(line + "\n")
        except OSError as e:  # the journal is the record; a missing log must not stop the search
            if not self.broken and self.fallbacks is not None:
                self.fallbacks.append(
                    f"{self.path.name} not written ({e.strerror or e}); the journal is complete"
                )
            self.broken = True
        if self.on_line is not None:
            self.on_line(line)
        return line


def start_text(
    task: str,
    roles: str,
    budget: Budget,
    session: int,
    knowledge: dict | None,
    experience: dict | None = None,
) -> str:
    """The first line of a session: what runs, with which budget (and where a resume picks up), and what the
    knowledge base and the experience memory start from."""
    head = f"run of '{task}' started" if session <= 1 else f"run of '{task}' resumed (session {session})"
    steps = "no step limit" if budget.steps is None else f"{budget.steps} steps"
    parts = [head, f"roles {roles}", f"budget {steps} / {budget.limit_text()}"]
    if session > 1:
        parts.append(f"at step {budget.steps_done}, {budget.clock()}")
    if knowledge:
        if knowledge.get("disabled"):
            parts.append("knowledge off")
        else:
            parts.append(f"knowledge: {knowledge.get('tips', 0)} tips, {knowledge.get('pool', 0)} tricks")
    if experience is not None:
        if not experience.get("store"):
            parts.append(f"experience {experience.get('hints') or 'off'}")
        else:
            records = experience.get("records")
            held = "unknown number of" if records is None else sum(records.values())
            priors = len(experience.get("priors") or {})
            parts.append(
                f"experience: {held} records in {experience['store']}"
                + (f", {priors} trick priors re-order the pool" if priors else "")
            )
    return SEP.join(parts)


def rank_text(node: Node) -> str:
    """The score a node is ranked by, named for what it is: the holdout's, both pooled by rows (a recipe
    script, docs/holdout.md), or the script's own when no holdout is kept."""
    value = score(node.metric.value if node.metric else None)
    if node.pooled:
        return f"pooled {value} (holdout {score(node.holdout_metric)}, own {score(node.reported_metric)})"
    return f"validation {value}" if node.holdout_metric is None else f"holdout {value}"


def finish_text(status: str, best: Node | None, grade: dict | None, budget: Budget) -> str:
    """The last line of a session: why it stopped, the best node and the graded score if any."""
    parts = [f"stopped: {status}", f"{budget.steps_done} steps"]
    if best is not None and best.metric is not None:
        parts.append(f"best node {best.id}, {rank_text(best)}")
    else:
        parts.append("no valid node")
    if grade:
        parts.append(f"graded {grade.get('score')}" if grade.get("valid") else "graded: invalid")
    parts.append(budget.clock())
    return SEP.join(parts)
