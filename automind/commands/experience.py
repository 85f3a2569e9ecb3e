"""`automind experience ...`, `automind curriculum run` and `automind bench`: learning across tasks."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import typer

from automind.commands.common import (
    FORCE_FILE_HELP,
    LLM_HELP,
    NO_LLM_HELP,
    STORE_HELP,
    TIME_LIMIT_HELP,
    console,
    fail,
    interrupt_code,
    json_help,
    llm_spec,
    own_out_folder,
    print_json,
    refuse_existing_file,
    settings,
    signals_interrupt,
)

experience_app = typer.Typer(help="Inspect and manage the experience memory.", no_args_is_help=True)
curriculum_app = typer.Typer(help="Solve a folder of tasks in curriculum order.", no_args_is_help=True)

STORE_OPT = typer.Option(None, "--store", metavar="PATH|URL", help=STORE_HELP)
NO_LLM_OPT = typer.Option(False, "--no-llm", help=NO_LLM_HELP)
STEPS_OPT = typer.Option(
    None, "--steps", metavar="N", help="Search steps per solve.", show_default="search.steps setting"
)


def _time_limit(value: float, old: float | None, old_name: str) -> float:
    """--time-limit, or the option's former name (still accepted, hidden from --help)."""
    if old is None:
        return value
    if value != TIME_LIMIT_DEFAULT and value != old:
        fail(f"--time-limit {value:g} and {old_name} {old:g} disagree: pass --time-limit only.")
    return old


TIME_LIMIT_DEFAULT = 300.0


def _experience(store: str | None):
    """The experience store; a damaged or (for an explicit --store) missing store is a clear error."""
    from automind.experience import ExperienceStore
    from automind.store import DB_FILE, Store, StoreError, StoreMissingError

    s = settings({"experience.store": store} if store else None)
    location = s.experience.store or s.knowledge.store
    try:
        opened = Store.open(
            location, s.knowledge.embedder, create=store is None, timeout=s.knowledge.timeout_s, lazy=True
        )
    except StoreMissingError:  # the generic message would send the user to `automind ingest`
        fail(
            f"no experience store at {location} (no {DB_FILE} there). Check the --store path; "
            "`automind solve` records experience in the experience.store setting's folder "
            "(the knowledge store when that is unset)."
        )
    except (StoreError, ValueError) as e:
        fail(str(e))
    return ExperienceStore(opened)


@contextmanager
def _store_errors():
    from automind.store import StoreError

    try:
        yield
    except StoreError as e:
        fail(str(e))


@experience_app.command("stats")
def stats(
    store: str | None = STORE_OPT,
    as_json: bool = typer.Option(
        False, "--json", help=json_help("{positive: {kind: count}, negative: {...}}")
    ),
) -> None:
    """Counts of positive and negative experience by kind."""
    with _store_errors():
        data = _experience(store).stats()
    if as_json:
        print_json(data)
        return
    for side, counts in data.items():
        console.print(
            f"[bold]{side}[/]: " + (", ".join(f"{k} {n}" for k, n in sorted(counts.items())) or "empty")
        )


@experience_app.command("query")
def query(
    text: str = typer.Argument(..., help="An error message, or a task description."),
    k: int = typer.Option(5, "--k", metavar="N", min=1, help="How many entries."),
    negative: bool = typer.Option(False, "--negative", help="Search the negative store instead."),
    store: str | None = STORE_OPT,
    as_json: bool = typer.Option(False, "--json", help=json_help("the entries (kind, task, text, ...)")),
) -> None:
    """Nearest experience entries to TEXT."""
    from dataclasses import asdict

    if not text.strip():
        fail("empty query: give an error message or a task description to look for")
    with _store_errors():
        found = _experience(store)._search(not negative, text, k)
    if as_json:
        print_json([asdict(e) for e in found])
        return
    if not found:
        console.print("no experience stored yet: solve some tasks first")
    for e in found:
        console.rule(f"{e.kind} · {e.task}")
        console.print(e.text, highlight=False)


@experience_app.command("export")
def export(
    path: Path = typer.Argument(..., help="JSONL file to write."),
    store: str | None = STORE_OPT,
    force: bool = typer.Option(False, "--force", help=FORCE_FILE_HELP),
) -> None:
    """Write every experience entry (both stores) as JSONL."""
    from automind.commands.knowledge import write_jsonl_atomically
    from automind.experience import NEGATIVE, POSITIVE

    if path.is_dir():
        fail(f"{path} is a folder; give a file name for the JSONL export, e.g. {path / 'experience.jsonl'}")
    refuse_existing_file(path, force)
    with _store_errors():
        exp = _experience(store)
        rows = (
            {"id": rec.id, "store": side, "text": rec.document, **rec.metadata}
            for side, kind in (("positive", POSITIVE), ("negative", NEGATIVE))
            for rec in exp.store.get(kind)
        )
        n = write_jsonl_atomically(path, rows)
    console.print(f"wrote {n} entries to {path}")


@experience_app.command("prune")
def prune(
    task: str | None = typer.Option(
        None,
        "--task",
        metavar="SLUG",
        help="Remove every entry of this task slug.",
        show_default="every task",
    ),
    negative_only: bool = typer.Option(False, "--negative-only", help="Only the negative store."),
    yes: bool = typer.Option(False, "--yes", help="Do not ask for confirmation."),
    store: str | None = STORE_OPT,
) -> None:
    """Delete experience entries (by task, or everything)."""
    from automind.experience import NEGATIVE, POSITIVE

    exp = _experience(store)
    kinds = [NEGATIVE] if negative_only else [POSITIVE, NEGATIVE]
    scope = f"task '{task}'" if task else "ALL tasks"
    if not yes and not typer.confirm(f"Delete experience of {scope} from {', '.join(kinds)}?"):
        raise typer.Exit(1)
    removed = 0
    for kind in kinds:
        before = exp.store.count(kind)
        if before:
            exp.store.delete(kind, where={"task": task} if task else None)
            removed += before - exp.store.count(kind)
    console.print(f"removed {removed} entries")


def stopped(state: Path, command: str, received: list[str]) -> NoReturn:
    """Ctrl-C or SIGTERM during a grid of solves: say where the finished work is and how to go on."""
    fail(
        f"interrupted: the finished jobs are kept in {state}; the cut-short run is not counted. Run the same "
        f"`automind {command}` command again to go on (that run resumes where it stopped).",
        interrupt_code(received),
    )


def _solve_overrides(budget: float, steps: int | None, llm: str | None, store: str | None) -> dict:
    """Config overrides every solve of a curriculum or bench shares; unset flags keep the config's values."""
    values = {
        "search.time_limit_s": budget,
        "search.steps": steps,
        "llm.provider": llm,
        "knowledge.store": store,
    }
    return {k: v for k, v in values.items() if v is not None}


@curriculum_app.command("run")
def curriculum_run(
    tasks_dir: Path = typer.Argument(..., metavar="TASKS_DIR", help="Folder of task folders."),
    out: Path = typer.Option(
        Path("runs/curriculum"), "--out", metavar="FOLDER", help="Curriculum folder (resumable)."
    ),
    time_limit: float = typer.Option(
        TIME_LIMIT_DEFAULT,
        "--time-limit",
        metavar="SECONDS",
        help=f"{TIME_LIMIT_HELP} Each solve has its own.",
    ),
    budget_per_task: float | None = typer.Option(None, "--budget-per-task", hidden=True),  # the old name
    steps: int | None = STEPS_OPT,
    rounds: int = typer.Option(1, "--rounds", metavar="N", min=1, help="Times each task is to be solved."),
    retries: int = typer.Option(
        1, "--retries", metavar="N", min=0, help="Times a failed task is tried again (it stays in the pool)."
    ),
    llm: str | None = typer.Option(
        None, "--llm", metavar="SPEC", help=LLM_HELP, show_default="llm.provider setting"
    ),
    no_llm: bool = NO_LLM_OPT,
    store: str | None = STORE_OPT,
) -> None:
    """Pick tasks with Agent K's score, solve each, update the experience memory; resumable.

    Failed tasks stay in the pool and are retried (--retries); with a model configured, the first task
    is the one the model judges easiest. The rules are in docs/curriculum.md."""
    from automind.benchmark import solve_task
    from automind.curriculum import run_curriculum
    from automind.errors import LLMError
    from automind.llm import make_llm
    from automind.store import get_embedder

    if not tasks_dir.is_dir():
        fail(f"{tasks_dir}: not a directory of task folders")
    budget = _time_limit(time_limit, budget_per_task, "--budget-per-task")
    own_out_folder(out, "curriculum.json")
    overrides = _solve_overrides(budget, steps, llm_spec(llm, no_llm), store)
    cfg = settings(overrides)
    embedder = get_embedder(cfg.knowledge.embedder)
    try:
        model = make_llm(cfg)
    except LLMError as e:
        fail(str(e))
    rank = None
    if model is not None:
        from functools import partial

        from automind.llm.tasks import rank_by_difficulty

        rank = partial(rank_by_difficulty, model)

    def solve(task_dir: Path, run_dir: Path) -> dict:
        summary = solve_task(task_dir, run_dir, overrides)
        return {"valid": summary.get("best_metric") is not None, "metric": summary.get("best_metric")}

    def show(pick) -> None:  # one line per solve, also when redirected to a file (no wrapping)
        terms = " ".join(f"{k}={v:.3f}" for k, v in pick.terms.items())
        console.print(
            f"#{pick.step} {pick.task} (round {pick.round}, {pick.reason}) score={pick.score:.3f} [{terms}] "
            f"-> {pick.outcome} metric={pick.metric} ({pick.seconds:.0f}s)",
            markup=False, highlight=False, soft_wrap=True,
        )  # fmt: skip

    with signals_interrupt() as received:
        try:
            state = run_curriculum(
                tasks_dir,
                out,
                solve,
                embedder.embed,
                rounds=rounds,
                retries=retries,
                rank=rank,
                alpha=cfg.experience.alpha,
                beta=cfg.experience.beta,
                r=cfg.experience.top_r,
                on_pick=show,
            )
        except FileNotFoundError as e:
            fail(str(e))
        except KeyboardInterrupt:
            stopped(out / "curriculum.json", "curriculum run", received)
    for note in state.notes:
        console.print(f"[yellow]fallback:[/] {note}")
    console.print(f"solved {len(state.solved)}/{len(state.tasks)} tasks; log: {out / 'curriculum.json'}")


def bench(
    tasks_dir: Path = typer.Argument(
        ..., metavar="TASKS_DIR", help="Folder of task folders (with private answers for grading)."
    ),
    seeds: int = typer.Option(3, "--seeds", metavar="N", min=1, help="Seeds per task and variant."),
    time_limit: float = typer.Option(
        TIME_LIMIT_DEFAULT,
        "--time-limit",
        metavar="SECONDS",
        help=f"{TIME_LIMIT_HELP} Each solve has its own.",
    ),
    budget: float | None = typer.Option(None, "--budget", hidden=True),  # the old name of --time-limit
    steps: int | None = STEPS_OPT,
    variants: str = typer.Option(
        "default,no-knowledge,one-pass,no-experience",
        "--variants",
        metavar="NAME,...",
        help="Variants to compare, comma-separated.",
    ),  # fmt: skip
    out: Path = typer.Option(
        Path("runs/bench"), "--out", metavar="FOLDER", help="Output folder (rerun skips finished jobs)."
    ),
    llm: str | None = typer.Option(
        None, "--llm", metavar="SPEC", help=LLM_HELP, show_default="llm.provider setting"
    ),
    no_llm: bool = NO_LLM_OPT,
    store: str | None = STORE_OPT,
    ray: str | None = typer.Option(
        None,
        "--ray",
        metavar="ADDRESS",
        show_default="no Ray: jobs run one after another here",
        help="Ray address ('local' starts one) to dispatch jobs; needs pip install \"automind[ray]\".",
    ),  # fmt: skip
    as_json: bool = typer.Option(
        False, "--json", help=json_help("{rows: one per task and variant, records: one per job}")
    ),
) -> None:
    """Run every task x variant x seed, grade, and write bench.md / bench.html.

    Each job starts from an empty experience store of its own (OUT/experience/), so no job learns from the
    jobs before it; `automind curriculum run` is the command whose solves learn from each other."""
    from dataclasses import asdict

    from automind.benchmark import aggregate, find_tasks, parse_variants, run_bench, to_markdown, write_tables

    overrides = _solve_overrides(
        _time_limit(time_limit, budget, "--budget"), steps, llm_spec(llm, no_llm), store
    )
    try:
        names = parse_variants(variants)
        tasks = find_tasks(tasks_dir)
    except (ValueError, FileNotFoundError) as e:
        fail(str(e))
    settings(overrides)  # validate before starting a long grid
    own_out_folder(out, "records.jsonl")
    if ray:
        from automind.extras import MissingExtra, require

        try:
            require("ray", "--ray")
        except MissingExtra as e:
            fail(str(e))

    def show(rec) -> None:
        if not as_json:
            status = "valid" if rec.valid else f"invalid ({rec.error})"
            console.print(
                f"{rec.task} · {rec.variant} · seed {rec.seed}: {status} score={rec.score} ({rec.wall_s:.0f}s)",
                markup=False, highlight=False, soft_wrap=True,
            )  # fmt: skip

    with signals_interrupt() as received:
        try:
            records = run_bench(tasks, out, names, seeds, overrides, ray_address=ray, on_record=show)
        except KeyboardInterrupt:
            stopped(out / "records.jsonl", "bench", received)
    rows = aggregate(records)
    md, page = write_tables(rows, out)
    if as_json:
        print_json({"rows": [asdict(r) for r in rows], "records": [asdict(r) for r in records]})
        return
    console.print(to_markdown(rows), highlight=False)
    console.print(f"tables: {md}, {page}")


def register(app: typer.Typer) -> None:
    app.add_typer(experience_app, name="experience")
    app.add_typer(curriculum_app, name="curriculum")
    app.command("bench")(bench)
