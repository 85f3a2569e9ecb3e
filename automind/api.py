"""The Python API: `automind.solve`, `automind.resume` and `automind.tips`, the CLI's work as function calls.

Settings layer as on the command line (defaults < automind.yaml < AUTOMIND_* variables < arguments);
`config` takes any other setting by its dotted name ({"search.num_drafts": 5}). Errors are the
CLI's: ValueError subclasses (RunError, TaskError, ConfigError, ExampleError...) whose message says
what was wrong and what to do.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from automind.retrieval.tips import Tips
    from automind.run import RunResult
    from automind.search.journal import Journal, Node
    from automind.task import Task

FROM_CONFIG = "config"  # llm=...: use the llm.provider setting (auto unless configured)
Progress = bool | Callable[[str], None]


@dataclass
class SolveResult:
    """What a run produced. Paths are None when the file does not exist (no valid node, nothing graded)."""

    status: str  # finished (the step budget) | time | budget (LLM money/tokens) | interrupted
    best_score: float | None  # the score the best node was chosen by: with a holdout, automind's holdout
    # score (pooled with the script's own for recipe scripts; docs/holdout.md), else the script's own score
    lower_is_better: bool | None
    test_score: float | None  # the graded score against private answers, when the task has them
    submission: Path | None
    best_solution: Path | None
    report: Path | None
    run_dir: Path
    steps: int
    fallbacks: list[str] = field(default_factory=list)
    grade: dict[str, Any] | None = field(default=None, repr=False)
    journal: Journal | None = field(default=None, repr=False)  # every node: plan, code, output, scores
    best: Node | None = field(default=None, repr=False)
    own_score: float | None = None  # the validation score the best node's script reported about itself
    refit: dict[str, Any] | None = field(default=None, repr=False)  # the final refit on all training rows

    @classmethod
    def from_run(cls, res: RunResult) -> SolveResult:
        def existing(name: str) -> Path | None:
            path = Path(res.run_dir) / name
            return path if path.is_file() else None

        grade = res.grade or None
        return cls(
            status=res.status,
            best_score=None if res.best is None or res.best.metric is None else res.best.metric.value,
            lower_is_better=res.journal.direction,
            test_score=grade.get("score") if grade and grade.get("valid") else None,
            submission=existing("submission.csv"),
            best_solution=existing("best_solution.py"),
            report=existing("report.html"),
            run_dir=Path(res.run_dir),
            steps=len(res.journal),
            fallbacks=list(res.fallbacks),
            grade=grade,
            journal=res.journal,
            best=res.best,
            own_score=None if res.best is None else res.best.reported_metric,
            refit=res.refit,
        )


def _overrides(
    time_limit: float | None, steps: int | None, llm: str | None, seed: int | None, config: Mapping | None
) -> dict[str, Any]:
    out: dict[str, Any] = dict(config or {})
    if time_limit is not None:
        out["search.time_limit_s"] = float(time_limit)
    if steps is not None:
        out["search.steps"] = int(steps)
    if seed is not None:
        out["search.seed"] = int(seed)
    if llm is None:
        out["llm.provider"] = "none"
    elif llm != FROM_CONFIG:
        out["llm.provider"] = llm
    return out


def _listener(progress: Progress) -> Callable[[str, dict[str, Any]], None] | None:
    """The run's events -> one line per step to stderr (True), to a callable, or nowhere (False)."""
    if progress is False:
        return None

    def to_stderr(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    say = to_stderr if progress is True else progress

    def on_event(kind: str, data: dict[str, Any]) -> None:
        if kind == "log":
            say(data["line"])

    return on_event


def solve(
    task: str | os.PathLike[str] | Task,
    *,
    time_limit: float | None = None,
    steps: int | None = None,
    llm: str | None = FROM_CONFIG,
    knowledge: bool = True,
    out: str | os.PathLike[str] | None = None,
    seed: int | None = None,
    config: Mapping[str, Any] | None = None,
    progress: Progress = True,
) -> SolveResult:
    """Search for the best solution of a task; the same run as `automind solve`.

    task: a task folder, a bundled example name ("titanic") or a Kaggle competition slug.
    time_limit: the whole search's wall-clock budget in seconds; steps: its node budget (whichever
    ends first stops it). llm: None runs offline (the recipe policy); "config" (the default) uses
    the llm.provider setting; any `--llm` form ("openai:gpt-4o-mini", "replay:PATH") picks a model.
    knowledge: False searches without the knowledge base. out: the run folder (default
    runs/<task>-<time>). progress: True prints one line per step to stderr, a callable receives
    each line, False prints nothing; the lines are always in RUN_DIR/run.log.
    """
    from automind.config import load_config
    from automind.run import solve as run_solve
    from automind.run_setup import resolve_task

    settings = load_config(_overrides(time_limit, steps, llm, seed, config)).settings
    target = task if not isinstance(task, str | os.PathLike) else resolve_task(task)
    res = run_solve(target, settings, out=out, no_knowledge=not knowledge, on_event=_listener(progress))
    return SolveResult.from_run(res)


def resume(
    run_dir: str | os.PathLike[str],
    *,
    time_limit: float | None = None,
    steps: int | None = None,
    progress: Progress = True,
) -> SolveResult:
    """Continue an interrupted run to its budget (or to a larger one given here)."""
    from automind.run import resume as run_resume

    overrides = _overrides(time_limit, steps, FROM_CONFIG, None, None)
    return SolveResult.from_run(run_resume(Path(run_dir), overrides=overrides, on_event=_listener(progress)))


def tips(
    task: str | os.PathLike[str] | Task | None = None,
    *,
    description: str | None = None,
    k: int = 10,
    llm: str | None = FROM_CONFIG,
    store: str | None = None,
) -> Tips:
    """Labels and tricks (each with its provenance) for a task, without solving it: `automind tips`.

    Give a task (folder, example name or Task) or a `description` text. llm: None labels and picks
    tricks offline; "config" uses the llm.provider setting (offline when none is configured).
    """
    from automind.config import load_config
    from automind.retrieval import KnowledgeBase

    if (task is None) == (description is None):
        raise ValueError("give a task (folder, example name or Task) or description='...', not both")
    overrides: dict[str, Any] = {} if store is None else {"knowledge.store": store}
    settings = load_config(overrides).settings
    notes: list[str] = []
    model = None
    if llm is not None:
        from automind.llm import make_llm

        model = make_llm(settings, None if llm == FROM_CONFIG else llm)
    subject, analysis = (description, None) if description is not None else _task_and_analysis(task, notes)
    kb = KnowledgeBase.open(settings, llm=model)
    result = kb.tips(subject, analysis=analysis, k=k, use_llm=model is not None)
    result.fallbacks[:0] = notes
    return result


def _task_and_analysis(task: Any, notes: list[str]) -> tuple[Any, Any]:
    """The Task and its data analysis; a failed analysis is a note, the tips come from the description."""
    from automind.run_setup import resolve_task

    loaded = task if not isinstance(task, str | os.PathLike) else resolve_task(task)
    try:
        from automind.analysis import analyze

        return loaded, analyze(loaded)
    except Exception as e:  # noqa: BLE001 - tips still work from the description
        notes.append(f"analysis failed ({type(e).__name__}: {e}); labelled from the description only")
        return loaded, None
