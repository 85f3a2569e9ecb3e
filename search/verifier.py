"""Judge an executed solution: the verifier role's opinion, overridden by facts on disk.

An LLM can say "looks fine" about a script that crashed, or misread the metric's direction, so the
facts decide: an exception or non-zero exit, a missing or malformed submission, or a missing metric
make the node buggy whatever the verdict says; the task's own metric direction beats the verdict's.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from automind.errors import RoleError
from automind.roles import Context, Roles, Verdict

if TYPE_CHECKING:
    from automind.sandbox import ExecResult
    from automind.task import Task

NUMBER = r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?"
# The script contract's line, and only that: an arbitrary last number (a training loss, a fold's
# score, an epoch count) is never taken for the validation metric.
METRIC_LINE = re.compile(r"(?i)^\s*final validation performance\s*[:=]\s*(" + NUMBER + r")\s*$")


@dataclass
class Verification:
    buggy: bool
    metric: float | None
    lower_is_better: bool | None  # the verifier's report (for the majority vote when the task has none)
    summary: str
    reasons: list[str] = field(default_factory=list)  # why buggy, facts first
    notes: list[str] = field(default_factory=list)  # fallbacks taken while judging
    overfit: bool = False  # the verifier judged the validation setup untrustworthy (is_overfitting)

    @property
    def error(self) -> str | None:
        return "; ".join(self.reasons) or None


def task_direction(task: Task) -> bool | None:
    """lower_is_better from the task spec or the metric registry; None when neither knows."""
    if task.spec.metric.lower_is_better is not None:
        return task.spec.metric.lower_is_better
    try:
        from automind.grading import resolve_metric

        return resolve_metric(task).lower_is_better
    except Exception:  # noqa: BLE001 - an unknown custom metric simply has no known direction
        return None


def _as_float(text: str) -> float | None:
    try:
        return float((text or "").strip())  # also "nan" and "inf", which the verifier must reject
    except ValueError:
        pass
    m = re.search(NUMBER, text or "")
    return float(m.group(0)) if m else None


def read_metric(result: ExecResult) -> tuple[float | None, str]:
    """The script's validation metric: submission/eval_metric.txt, else the last printed contract line
    `Final Validation Performance: <value>`; nothing else."""
    path = result.workspace / "submission" / "eval_metric.txt"
    if path.is_file():
        value = _as_float(path.read_text(encoding="utf-8", errors="replace"))
        if value is not None:
            return value, "eval_metric.txt"
    for line in reversed((result.stdout or "").splitlines()):
        m = METRIC_LINE.match(line)
        if m:
            return float(m.group(1)), f"printed line {line.strip()[:80]!r}"
    return None, ""


def _failure(result: ExecResult) -> str:
    if result.status == "timeout":
        return f"execution timed out ({result.message or f'after {result.wall_s:.0f} s'})"
    if result.status == "memory":
        return f"execution exceeded the memory limit ({result.message or f'{result.peak_mem_mb:.0f} MB'})"
    if result.exc_type:
        last = (result.traceback or result.stderr or "").strip().splitlines()
        return f"{result.exc_type}: {last[-1] if last else ''}".strip()
    return f"exited with code {result.exit_code}" + (f" ({result.message})" if result.message else "")


def verify(
    roles: Roles,
    ctx: Context,
    task: Task,
    code: str,
    result: ExecResult,
    *,
    holdout_error: str | None = None,
    unused: list[str] | None = None,
) -> Verification:
    """`holdout_error`: the combined submission (test + holdout rows) was unusable, said instead of the
    submission check; `unused`: provided input files the script never read (a note, not a bug)."""
    reasons: list[str] = []
    notes: list[str] = []
    try:
        verdict = roles.verify(ctx, code, result)
    except RoleError as e:
        verdict = Verdict(is_bug=False, summary="")
        notes.append(f"verifier role failed ({e}); judged on facts only")

    if not result.ok:
        reasons.append(_failure(result))
    from automind.judge import check_submission

    check = check_submission(task, result)
    if holdout_error:
        reasons.append(holdout_error)
    elif check.format_error:
        reasons.append(f"invalid submission: {check.format_error}")
    elif not check.written:
        reasons.append(f"no submission/{task.spec.submission_file} was written")
    if unused:
        notes.append(f"data usage: the script never read these provided inputs: {', '.join(unused)}")

    metric, source = read_metric(result)
    if metric is None and verdict.metric is not None and _appears(verdict.metric, result.stdout):
        metric, source = float(verdict.metric), "verifier (value found in the output)"
    if metric is None:
        reasons.append(
            "validation metric not found (write it to submission/eval_metric.txt or print "
            "`Final Validation Performance: <value>`)"
        )
    elif not math.isfinite(metric):
        reasons.append(f"validation metric is {metric}")
        metric = None
    if source and source != "eval_metric.txt":
        notes.append(f"metric read from {source}")
    if verdict.is_bug and not reasons:
        reasons.append(f"verifier: {verdict.summary or 'judged buggy'}")

    direction = task_direction(task)
    reported = verdict.lower_is_better if direction is None else direction
    overfit = bool(verdict.is_overfitting) and not reasons
    if overfit:
        notes.append(
            "verifier: the validation setup looks untrustworthy (is_overfitting); the node is flagged "
            "and not chosen as best while an unflagged valid node exists"
        )
    return Verification(
        buggy=bool(reasons),
        metric=None if reasons else metric,
        lower_is_better=reported,
        summary=verdict.summary,
        reasons=reasons,
        notes=notes,
        overfit=overfit,
    )


def _appears(value: float, text: str) -> bool:
    """True when a number printed in `text` equals `value` to the printed precision."""
    for tok in re.findall(NUMBER, text or ""):
        digits = len(tok.split(".")[1]) if "." in tok and "e" not in tok.lower() else 6
        if abs(float(tok) - value) <= 0.5 * 10 ** (-digits) + 1e-12:
            return True
    return False
