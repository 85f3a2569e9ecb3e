"""One way code is executed and judged: run a script in the sandbox, check its submission, grade it.

`automind exec`, the search agent (its coders run in `Judge.sandbox`, its verifier checks submissions
with `check_submission`) and the environment's `execute_code` action all go through here, so the
sandbox + validation + grading sequence exists once. The search builds its Judge with `grade=False`:
it never looks at private answers; `exec` and the environment grade when answers exist.

Exactly one outcome per execution: success, execution failed, submission not created, submission invalid,
not graded (the task has answers but grading them failed: a broken answers file, an ungradable metric).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from automind.config import Settings
    from automind.grading import GradeReport
    from automind.sandbox import ExecResult, Sandbox
    from automind.task import Task

Outcome = Literal["success", "execution failed", "submission not created", "submission invalid", "not graded"]
OUTCOMES: tuple[Outcome, ...] = (
    "success",
    "execution failed",
    "submission not created",
    "submission invalid",
    "not graded",
)


@dataclass
class SubmissionCheck:
    """Whether an execution left a usable submission; `reason` says what is wrong (None when fine).

    The file is checked even after a failed execution (`written`, `format_error`), so a judge of a
    crashed script can still say that its submission was missing or malformed.
    """

    outcome: Outcome
    path: Path
    reason: str | None = None
    written: bool = False
    format_error: str | None = None  # the validation message when the file exists but is unusable

    @property
    def ok(self) -> bool:
        return self.outcome == "success"


@dataclass
class Judgement:
    """An execution and what was made of it: the outcome, and the grade when answers were consulted."""

    result: ExecResult
    check: SubmissionCheck
    grade: GradeReport | None = None
    note: str | None = None  # why a valid submission was not graded (no answers, ungradable task)

    @property
    def outcome(self) -> Outcome:
        return self.check.outcome

    @property
    def reason(self) -> str | None:
        return self.check.reason or self.note

    @property
    def submission(self) -> Path:
        return self.check.path

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "reason": self.reason,
            "exec": self.result.to_dict(),
            "submission": str(self.submission),
            "grade": None if self.grade is None else self.grade.model_dump(mode="json"),
        }


def check_submission(task: Task, result: ExecResult) -> SubmissionCheck:
    """The execution's submission against the task's format (sample submission, test ids); no scoring."""
    sub = result.workspace / "submission" / task.spec.submission_file
    written, format_error = sub.is_file(), None
    if written:
        from automind.grading import SubmissionError, validate_submission

        try:
            validate_submission(task, sub)
        except SubmissionError as e:
            format_error = str(e)
        except Exception as e:  # noqa: BLE001 - the task's own files broke the check: say so, no traceback
            return SubmissionCheck("not graded", sub, f"the submission could not be checked: {_why(e)}", True)
    if not result.ok:
        return SubmissionCheck(
            "execution failed", sub, f"{result.status}: {result.message}", written, format_error
        )
    if not written:
        found = sorted(p.name for p in sub.parent.iterdir()) if sub.parent.is_dir() else []
        reason = (
            f"the script finished but wrote no submission/{task.spec.submission_file} "
            f"(submission/ holds: {', '.join(found) or 'nothing'}). Write it relative to the working directory."
        )
        return SubmissionCheck("submission not created", sub, reason)
    if format_error is not None:
        return SubmissionCheck("submission invalid", sub, format_error, True, format_error)
    return SubmissionCheck("success", sub, None, True)


def _why(e: Exception) -> str:
    from automind.grading import GradingError

    return str(e) if isinstance(e, GradingError) else f"{type(e).__name__}: {e}"


@dataclass
class Judge:
    """Runs code for one task in its sandbox and judges what the code wrote."""

    task: Task
    sandbox: Sandbox
    grade: bool = True  # False in the search: private answers are never consulted there

    @classmethod
    def from_settings(
        cls,
        task: Task,
        workdir: str | Path,
        settings: Settings,
        *,
        timeout_s: float | None = None,
        memory_mb: int | None = None,
        grade: bool = True,
        inputs: str | Path | None = None,
        script_env: dict[str, str] | None = None,
    ) -> Judge:
        """A sandbox from the settings' limits, with per-use overrides (None keeps the setting); `inputs`:
        the folder input/ shows instead of the task's public/ (a run's holdout view); `script_env`: what
        automind tells the script (Sandbox)."""
        from automind.sandbox import Sandbox

        kw: dict[str, Any] = {} if inputs is None else {"inputs": inputs}
        if script_env:
            kw["script_env"] = script_env
        if timeout_s:
            kw["timeout_s"] = timeout_s
        if memory_mb:
            kw["memory_mb"] = memory_mb
        return cls(task, Sandbox.from_settings(task, workdir, settings, **kw), grade=grade)

    def run(self, code: str, *, name: str = "solution.py", timeout_s: float | None = None) -> Judgement:
        """Execute `code` in a fresh workspace, then judge it."""
        return self.judge(self.sandbox.run_script(code, name=name, timeout_s=timeout_s))

    def judge(self, result: ExecResult) -> Judgement:
        """Check the submission an execution left; grade it when allowed and possible."""
        from dataclasses import replace

        from automind.grading import grade

        check = check_submission(self.task, result)
        if not check.ok or not self.grade:
            return Judgement(result, check)
        if self.task.answers_path is None:
            return Judgement(result, check, None, "valid; not graded (the task has no private answers)")
        try:
            report = grade(self.task, check.path)
        except Exception as e:  # noqa: BLE001 - GradingError, or answers the grader cannot even read
            why = f"the submission is valid but grading failed: {_why(e)}"
            return Judgement(result, replace(check, outcome="not graded", reason=why))
        if not report.valid:
            why = report.error or "the grader refused it"
            return Judgement(result, replace(check, outcome="submission invalid", reason=why), report)
        return Judgement(result, check, report)
