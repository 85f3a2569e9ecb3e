"""`automind bench`: every task x variant x seed, graded, aggregated into Markdown and HTML tables.

A job is one `automind solve` run with the variant's config overrides; its record is read back from
the run folder (journal.json / run.json) and graded against the task's private answers. Jobs run
in-process one after another, or on a Ray cluster (`ray_address`), where each worker runs the same
job function (task folders and the output folder must then be on a shared filesystem, and the
knowledge/experience stores on a chroma server: `--store http://host:port`).

Every job has an empty experience store of its own (OUT/experience/<job>) unless `experience.store` is set:
with one shared store a job would learn trick priors from the jobs before it, the same task's other variants
included, and a variant's score would depend on the order of the grid. `automind curriculum run` is the
command whose solves learn from each other.
"""

from __future__ import annotations

import html
import json
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from automind import atomic

# name -> config overrides (dotted keys); "default" changes nothing
VARIANTS: dict[str, dict[str, Any]] = {
    "default": {},
    "no-knowledge": {"knowledge.enabled": False},
    "one-pass": {"coding.mode": "one-pass"},
    "stepwise": {"coding.mode": "stepwise"},
    "no-experience": {"experience.enabled": False},
}


@dataclass
class JobRecord:
    task: str
    variant: str
    seed: int
    valid: bool = False
    score: float | None = None
    lower_is_better: bool | None = None
    beats_pct: float | None = None
    human_rank: float | None = None
    medal: str | None = None
    above_median: bool | None = None
    time_to_first_valid_s: float | None = None
    wall_s: float = 0.0
    tokens: int = 0
    cost_usd: float = 0.0
    run_dir: str = ""
    error: str | None = None


@dataclass
class Row:
    """Aggregate of one task x variant over its seeds."""

    task: str
    variant: str
    n: int
    valid_rate: float
    avg_score: float | None
    best_score: float | None
    avg_beats_pct: float | None
    avg_human_rank: float | None
    medals: dict[str, int] = field(default_factory=dict)
    avg_ttfv_s: float | None = None
    tokens: int = 0
    cost_usd: float = 0.0


def parse_variants(text: str) -> list[str]:
    names = [v.strip() for v in text.split(",") if v.strip()]
    unknown = [v for v in names if v not in VARIANTS]
    if unknown:
        raise ValueError(f"unknown variant(s) {unknown}; known: {', '.join(VARIANTS)}")
    return names


def find_tasks(tasks_dir: Path) -> list[Path]:
    tasks = [p for p in sorted(tasks_dir.iterdir()) if p.is_dir() and (p / "description.md").is_file()]
    if not tasks:
        raise FileNotFoundError(
            f"{tasks_dir}: no task folders (sub-folders with description.md). "
            "Make some with `automind examples make NAME DIR`."
        )
    return tasks


def _mean(values: Iterable[float | None]) -> float | None:
    vals = [v for v in values if v is not None]
    return statistics.fmean(vals) if vals else None


def aggregate(records: list[JobRecord]) -> list[Row]:
    groups: dict[tuple[str, str], list[JobRecord]] = {}
    for r in records:
        groups.setdefault((r.task, r.variant), []).append(r)
    rows = []
    for (task, variant), recs in groups.items():
        scores = [r.score for r in recs if r.valid and r.score is not None]
        lower = next((r.lower_is_better for r in recs if r.lower_is_better is not None), False)
        best = (min(scores) if lower else max(scores)) if scores else None
        medals: dict[str, int] = {}
        for r in recs:
            if r.medal:
                medals[r.medal] = medals.get(r.medal, 0) + 1
        rows.append(
            Row(
                task=task,
                variant=variant,
                n=len(recs),
                valid_rate=sum(r.valid for r in recs) / len(recs),
                avg_score=_mean(scores),
                best_score=best,
                avg_beats_pct=_mean(r.beats_pct for r in recs),
                avg_human_rank=_mean(r.human_rank for r in recs),
                medals=medals,
                avg_ttfv_s=_mean(r.time_to_first_valid_s for r in recs),
                tokens=sum(r.tokens for r in recs),
                cost_usd=round(sum(r.cost_usd for r in recs), 4),
            )
        )
    return sorted(
        rows, key=lambda r: (r.task, list(VARIANTS).index(r.variant) if r.variant in VARIANTS else 99)
    )


def _fmt(v: Any, digits: int = 5) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.{digits}g}"
    if isinstance(v, dict):
        return ", ".join(f"{k}:{n}" for k, n in v.items()) or "-"
    return str(v)


COLUMNS = [
    "task",
    "variant",
    "n",
    "valid_rate",
    "avg_score",
    "best_score",
    "avg_beats_pct",
    "avg_human_rank",
    "medals",
    "avg_ttfv_s",
    "tokens",
    "cost_usd",
]


def to_markdown(rows: list[Row]) -> str:
    head = "| " + " | ".join(COLUMNS) + " |\n|" + "---|" * len(COLUMNS) + "\n"
    return head + "".join("| " + " | ".join(_fmt(getattr(r, c)) for c in COLUMNS) + " |\n" for r in rows)


def to_html(rows: list[Row], title: str = "automind bench") -> str:
    th = "".join(f"<th>{c}</th>" for c in COLUMNS)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_fmt(getattr(r, c)))}</td>" for c in COLUMNS) + "</tr>"
        for r in rows
    )
    style = (
        "table{border-collapse:collapse;font-family:sans-serif}td,th{border:1px solid #ccc;padding:4px 8px}"
    )
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title><style>{style}</style>"
        f"</head><body><h1>{title}</h1><table><tr>{th}</tr>{body}</table></body></html>"
    )


JobFn = Callable[[str, str, str, int, dict[str, Any]], dict[str, Any]]


def _usage_totals(usage: Any) -> tuple[int, float]:
    """Sum tokens and cost over a per-role usage mapping of any nesting."""
    tokens, cost = 0, 0.0
    if isinstance(usage, dict):
        for k, v in usage.items():
            if k in ("prompt_tokens", "completion_tokens") and isinstance(v, int | float):
                tokens += int(v)
            elif k == "cost_usd" and isinstance(v, int | float):
                cost += float(v)
            elif isinstance(v, dict):
                t, c = _usage_totals(v)
                tokens, cost = tokens + t, cost + c
    return tokens, cost


def solve_task(task_dir: Path, run_dir: Path, overrides: dict[str, Any]) -> dict[str, Any]:
    """One `automind solve` with config overrides; the run summary plus time-to-first-valid and usage.

    A run_dir that already holds a run (this job, interrupted on an earlier try) is resumed. A run that ends
    interrupted raises KeyboardInterrupt: the grid or curriculum stops there instead of recording a cut-short
    run as a finished job, and the next try resumes it."""
    from automind.config import load_config
    from automind.run import resume, solve

    if (run_dir / "journal.json").is_file():
        result = resume(run_dir, overrides=overrides)
    else:
        result = solve(task_dir, load_config(overrides).settings, out=run_dir)
    if result.status == "interrupted":
        raise KeyboardInterrupt(f"{run_dir} was interrupted")
    summary = result.summary()
    valid = result.journal.valid_nodes
    summary["time_to_first_valid_s"] = min((n.elapsed_s for n in valid), default=None)
    info_path = Path(result.run_dir) / "run.json"
    usage = json.loads(info_path.read_text()).get("usage", {}) if info_path.is_file() else {}
    summary["tokens"], summary["cost_usd"] = _usage_totals(usage)
    return summary


def run_job(
    task_dir: str, run_dir: str, variant: str, seed: int, overrides: dict[str, Any]
) -> dict[str, Any]:
    """Solve one task with one variant and seed, grade it, and return a JobRecord as a dict.

    Module-level and argument-only so it can be shipped to Ray workers as is.
    """
    rec = JobRecord(task=Path(task_dir).name, variant=variant, seed=seed, run_dir=run_dir)
    t0 = time.time()
    try:
        summary = solve_task(
            Path(task_dir), Path(run_dir), {**VARIANTS[variant], **overrides, "search.seed": seed}
        )
        rec.time_to_first_valid_s = summary.get("time_to_first_valid_s")
        rec.tokens, rec.cost_usd = summary["tokens"], round(summary["cost_usd"], 6)
        rec.lower_is_better = summary.get("lower_is_better")
        grade = summary.get("grade")
        if summary.get("best_metric") is None:
            rec.error = "no valid submission"
        elif grade is None:
            rec.error = "task has no private answers: not graded"
        else:
            rec.valid = bool(grade.get("valid"))
            rec.score = grade.get("score")
            rec.lower_is_better = grade.get("lower_is_better", rec.lower_is_better)
            rec.beats_pct = grade.get("beats_pct")
            rec.human_rank = grade.get("human_rank")
            rec.medal = grade.get("medal")
            rec.above_median = grade.get("above_median")
            rec.error = grade.get("error")
    except Exception as e:  # noqa: BLE001 - one broken job must not end the benchmark
        rec.error = f"{type(e).__name__}: {e}"
    rec.wall_s = round(time.time() - t0, 2)
    return asdict(rec)


def run_bench(
    tasks: list[Path],
    out_dir: Path,
    variants: list[str],
    seeds: int,
    overrides: dict[str, Any],
    *,
    ray_address: str | None = None,
    job: JobFn = run_job,
    on_record: Callable[[JobRecord], None] | None = None,
) -> list[JobRecord]:
    """Run the grid; results are appended to out_dir/records.jsonl so a rerun skips finished jobs."""
    out_dir.mkdir(parents=True, exist_ok=True)
    log = out_dir / "records.jsonl"
    log.touch()  # marks the folder as a bench's before any run is written there (the CLI's own_out_folder)
    done: dict[tuple[str, str, int], JobRecord] = {}
    if log.is_file():
        for line in log.read_text().splitlines():
            if line.strip():
                r = JobRecord(**json.loads(line))
                done[(r.task, r.variant, r.seed)] = r
    grid = [(t, v, s) for t in tasks for v in variants for s in range(seeds)]
    todo = [(t, v, s) for t, v, s in grid if (t.name, v, s) not in done]

    def args(t: Path, v: str, s: int) -> tuple:
        name = f"{t.name}__{v}__s{s}"
        own = {"experience.store": str(out_dir / "experience" / name)}  # jobs do not learn from each other
        return (str(t), str(out_dir / "runs" / name), v, s, {**own, **overrides})

    def keep(d: dict[str, Any]) -> None:
        rec = JobRecord(**d)
        done[(rec.task, rec.variant, rec.seed)] = rec
        with log.open("a") as f:
            f.write(json.dumps(d) + "\n")
        if on_record:
            on_record(rec)

    if ray_address:
        from automind.extras import require

        ray = require("ray", "--ray (bench jobs on a Ray cluster)")
        if ray_address == "local":  # a private single-node instance bound to loopback
            ray.init(_node_ip_address="127.0.0.1", include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=ray_address, log_to_driver=False, ignore_reinit_error=True)
        remote = ray.remote(num_cpus=1)(job)
        pending = [remote.remote(*args(t, v, s)) for t, v, s in todo]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            keep(ray.get(ready[0]))
    else:
        for t, v, s in todo:
            keep(job(*args(t, v, s)))
    return [done[(t.name, v, s)] for t, v, s in grid]


def write_tables(rows: list[Row], out_dir: Path) -> tuple[Path, Path]:
    md, page = out_dir / "bench.md", out_dir / "bench.html"
    atomic.write_text(md, to_markdown(rows))
    atomic.write_text(page, to_html(rows))
    atomic.write_json(out_dir / "bench.json", [asdict(r) for r in rows], indent=2)
    return md, page
