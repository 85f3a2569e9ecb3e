"""What an action may see and do: the task's public facts, code execution, the episode's history.

Actions receive an `EnvView`, not the environment: it holds no Task object and no path into the task
folder, only public facts (description, metric, the public files as the sandbox shows them under
input/) and callables that run code. Grading happens behind `execute`, which returns the score and
reward but never the answers. Like the sandbox's audit hook this guards against accidental leaks by
honest code; it is not a boundary against an action written to dig through Python's internals.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from automind.csv_scan import ArchiveError, header_row, open_bytes, separator

if TYPE_CHECKING:
    from automind.env.reward import Reward
    from automind.sandbox import ExecResult
    from automind.task import Task

MAX_LISTED = 40  # public entries listed in the data layout
COUNT_ROWS_BELOW = 200 * 2**20  # row counts only for tables smaller than this (bytes)
SAMPLE_ROWS = 5


@dataclass(frozen=True)
class PublicFile:
    path: str  # as the code sees it: input/...
    size_bytes: int
    rows: int | None = None  # data rows of a CSV/TSV (header excluded)
    files: int | None = None  # for a folder: how many files it holds
    columns: tuple[str, ...] = ()


@dataclass(frozen=True)
class PublicInfo:
    """The task as a competitor sees it. Built once from the task's public files."""

    name: str
    description: str
    metric: str
    lower_is_better: bool
    metric_kind: str
    id_column: str | None
    target_columns: tuple[str, ...]
    submission_file: str
    sample_submission: str
    sample_head: str
    sample_rows: int
    files: tuple[PublicFile, ...]
    more_files: int = 0
    boards: tuple[str, ...] = ()  # leaderboards the score is placed on (names only)
    gradable: bool = True

    @classmethod
    def from_task(cls, task: Task) -> PublicInfo:

        from automind.csv_scan import read_csv
        from automind.grading import resolve_metric

        metric = resolve_metric(task)
        sample = task.sample_submission_path
        head = read_csv(sample, nrows=SAMPLE_ROWS)
        entries = sorted(task.public_dir.iterdir())
        boards = tuple(
            b for b, p in (("private", task.leaderboard_path), ("public", task.public_leaderboard_path)) if p
        )
        return cls(
            name=task.name,
            description=task.description,
            metric=metric.name,
            lower_is_better=metric.lower_is_better,
            metric_kind=metric.kind,
            id_column=task.spec.id_column,
            target_columns=tuple(task.spec.target_columns),
            submission_file=task.spec.submission_file,
            sample_submission=sample.name,
            sample_head=head.to_csv(index=False),
            sample_rows=_rows(sample) or 0,
            files=tuple(_describe(p) for p in entries[:MAX_LISTED]),
            more_files=max(0, len(entries) - MAX_LISTED),
            boards=boards,
            gradable=task.answers_path is not None,
        )

    def render(self, kind: str) -> str:
        """One section (description, sample_submission, data, output, metric) or all of them."""
        if kind == "all":
            return "\n\n".join(self.render(k) for k in SECTIONS)
        return SECTIONS[kind](self)


def _rows(path: Path) -> int | None:
    if separator(path) is None or path.stat().st_size > COUNT_ROWS_BELOW:
        return None
    try:
        with open_bytes(path) as f:
            return max(0, sum(1 for _ in f) - 1)
    except (OSError, ArchiveError):
        return None


def _describe(p: Path) -> PublicFile:
    if p.is_dir():
        inner = [q for q in p.rglob("*") if q.is_file()]
        return PublicFile(f"input/{p.name}/", sum(q.stat().st_size for q in inner), files=len(inner))
    cols: tuple[str, ...] = ()
    if sep := separator(p):  # plain or compressed
        try:
            cols = tuple(c.strip() for c in header_row(p, sep))
        except (OSError, ArchiveError):
            cols = ()
    return PublicFile(f"input/{p.name}", p.stat().st_size, rows=_rows(p), columns=cols)


def size_text(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return ""


def _description(i: PublicInfo) -> str:
    return f"# Task description: {i.name}\n\n{i.description.strip()}"


def _sample(i: PublicInfo) -> str:
    return (
        f"# Sample submission: input/{i.sample_submission} ({i.sample_rows} rows; first {SAMPLE_ROWS} shown)\n\n"
        f"{i.sample_head.strip()}\n\nWrite one row per test id with exactly these columns."
    )


def _data(i: PublicInfo) -> str:
    lines = ["# Data layout (read-only, under input/ in the working directory)"]
    for f in i.files:
        if f.files is not None:
            lines.append(f"- {f.path}  {size_text(f.size_bytes)}, {f.files} files")
        else:
            rows = "" if f.rows is None else f", {f.rows} rows"
            cols = (
                f"; columns: {', '.join(f.columns[:30])}" + (" ..." if len(f.columns) > 30 else "")
                if f.columns
                else ""
            )
            lines.append(f"- {f.path}  {size_text(f.size_bytes)}{rows}{cols}")
    if i.more_files:
        lines.append(f"- ... and {i.more_files} more entries")
    return "\n".join(lines)


def _output(i: PublicInfo) -> str:
    return (
        "# Output\n\n"
        f"Write the predictions to submission/{i.submission_file} (relative to the working directory). "
        "Scratch files go to working/. input/ is read-only. "
        "validate_code runs the code briefly and reports errors; execute_code runs it in full, then checks "
        "and scores the submission."
    )


def _metric(i: PublicInfo) -> str:
    direction = "lower is better" if i.lower_is_better else "higher is better"
    targets = ", ".join(i.target_columns) or "-"
    lines = [
        "# Metric",
        f"{i.metric} ({direction}; predictions are {KIND_TEXT.get(i.metric_kind, i.metric_kind)}).",
        f"id column: {i.id_column or '-'}; target column(s): {targets}.",
    ]
    if not i.gradable:
        lines.append("This task has no answers here: submissions are checked but not scored.")
    elif i.boards:
        lines.append(
            f"Scores are placed on the human leaderboard ({' and '.join(i.boards)}): reward = HumanRank."
        )
    else:
        lines.append("No human leaderboard: reward = improvement over the trivial baseline, in [0, 1].")
    return "\n".join(lines)


KIND_TEXT = {
    "label": "class labels",
    "proba": "probabilities",
    "value": "numbers",
    "ranking": "space-separated ranked labels",
}
SECTIONS: dict[str, Callable[[PublicInfo], str]] = {
    "description": _description,
    "sample_submission": _sample,
    "data": _data,
    "output": _output,
    "metric": _metric,
}
INFO_KINDS = (*SECTIONS, "all")


@dataclass
class Execution:
    """A full run as the agent may see it: what happened, the score, and the reward."""

    outcome: str
    reason: str | None
    status: str
    wall_s: float
    peak_mem_mb: float
    output: str
    reward: Reward
    score: float | None = None
    grade: dict[str, Any] = field(default_factory=dict)  # placement fields of the GradeReport


@dataclass
class EnvView:
    """The handle an action gets: public facts, limits, history, and code execution."""

    info: PublicInfo
    limits: Any  # automind.env.core.Limits
    run: Callable[..., ExecResult]  # run(code, timeout_s=None): sandbox only, nothing graded
    execute: Callable[[str], Execution]  # execute(code): run, check, grade, reward
    history: Callable[[], list[dict[str, Any]]]  # past steps (copies)
    steps_left: Callable[[], int]
    time_left_s: Callable[[], float]
    request_reset: Callable[[], None]
