"""The environment's reward for a graded submission, always in [0, 1], and which kind it was.

- `human_rank`: MLE-Dojo's HumanRank, 1 - p/N for the position p among N human teams, averaged over
  the public and private boards when the task has both.
- `baseline_improvement`: without a leaderboard, how far the score moved from the task's trivial
  baseline (majority class / prior / mean, `automind.baseline`) towards the metric's best value,
  clipped to [0, 1]: (s - b) / (best - b) with the metric's direction.
- `none`: nothing to compare against (no answers, an ungradable submission, or a custom metric whose
  best value is unknown); the reward is 0 and the note says why.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from automind.grading import GradeReport
    from automind.metrics import Metric
    from automind.task import Task

RewardKind = Literal["human_rank", "baseline_improvement", "none"]
# Every registered metric is bounded by its best value: errors and losses by 0, scores by 1
# (accuracy, AUC, F1, kappa, MCC, R2, correlations, MAP, Jaccard). Custom metrics have no known best.
BEST = {True: 0.0, False: 1.0}


@dataclass
class Reward:
    value: float
    kind: RewardKind
    note: str
    boards: dict[str, float] = field(default_factory=dict)  # HumanRank per board
    baseline: float | None = None  # the trivial baseline's score (baseline_improvement)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def best_value(metric: Metric) -> float | None:
    """The metric's best attainable score; None for custom (`module:function`) metrics."""
    return None if ":" in metric.name else BEST[metric.lower_is_better]


def human_rank_reward(report: GradeReport) -> Reward | None:
    """HumanRank over the boards the report was placed on; None when it was placed on none."""
    boards = {
        name: value
        for name, value in (("private", report.human_rank), ("public", report.public_human_rank))
        if value is not None
    }
    if not boards:
        return None
    value = sum(boards.values()) / len(boards)
    how = " and ".join(f"{b} board {v:.4f}" for b, v in boards.items())
    note = f"HumanRank 1 - p/N ({how})" + (", averaged" if len(boards) > 1 else "")
    return Reward(round(value, 5), "human_rank", note, boards)


def baseline_reward(score: float, baseline: float, metric: Metric) -> Reward:
    """Improvement over the baseline towards the metric's best value, in [0, 1]."""
    best = best_value(metric)
    if best is None:
        return Reward(
            0.0, "none", f"custom metric {metric.name}: its best value is unknown", baseline=baseline
        )
    gap = best - baseline
    # a perfect baseline leaves no room: only a perfect score earns the reward
    value = float(score == best) if gap == 0 else min(1.0, max(0.0, (score - baseline) / gap))
    note = (
        f"no leaderboard: improvement of {metric.name} over the trivial baseline ({baseline:.5g}) "
        f"towards its best value ({best:g}), clipped to [0, 1]"
    )
    return Reward(round(value, 5), "baseline_improvement", note, baseline=baseline)


class RewardModel:
    """Rewards for one task; the baseline is graded once, on first need, on the host."""

    def __init__(self, task: Task, workdir: Path):
        self.task = task
        self.workdir = workdir
        self._baseline: tuple[float | None, str] | None = None

    def baseline(self) -> tuple[float | None, str]:
        """(score, what it is): the trivial baseline, else the sample submission, else (None, why)."""
        if self._baseline is None:
            self._baseline = self._grade_baseline()
        return self._baseline

    def _grade_baseline(self) -> tuple[float | None, str]:
        from automind.baseline import trivial_submission
        from automind.grading import grade

        why = ""
        try:
            report = grade(
                self.task, trivial_submission(self.task, self.workdir / "baseline" / "trivial.csv")
            )
            if report.valid and report.score is not None:
                return report.score, "trivial baseline (majority class / prior / mean)"
            why = report.error or "invalid"
        except Exception as e:  # noqa: BLE001 - e.g. an image task with no tabular target; fall back below
            why = f"{type(e).__name__}: {e}"
        try:
            report = grade(self.task, self.task.sample_submission_path)
        except Exception as e:  # noqa: BLE001 - nothing left to compare against
            return None, f"no baseline: trivial baseline failed ({why}); sample submission failed ({e})"
        if report.valid and report.score is not None:
            return report.score, f"sample submission (the trivial baseline failed: {why})"
        return None, f"no baseline: trivial baseline failed ({why}); sample submission invalid"

    def __call__(self, report: GradeReport | None, why_not: str | None = None) -> Reward:
        """The reward of one graded submission (a missing or invalid grade earns 0, with the reason)."""
        if report is None or not report.valid or report.score is None:
            reason = why_not or (report.error if report is not None else None) or "not graded"
            return Reward(0.0, "none", reason)
        hr = human_rank_reward(report)
        if hr is not None:
            return hr
        from automind.grading import resolve_metric

        base, what = self.baseline()
        if base is None:
            return Reward(0.0, "none", what)
        r = baseline_reward(report.score, base, resolve_metric(self.task))
        r.note += f"; baseline: {what}"
        return r
