"""`automind task prepare|check|fetch`: build, validate and download task folders."""

from __future__ import annotations

from pathlib import Path

import typer

from automind.commands.common import console, fail


def register(app: typer.Typer) -> None:
    group = typer.Typer(
        help="Create, check and fetch task folders (see docs/task-format.md).", no_args_is_help=True
    )

    @group.command("prepare")
    def prepare(
        out_dir: Path = typer.Argument(..., help="Folder to write the task into (new or empty)."),
        data: Path = typer.Option(..., "--data", help="Labelled CSV to split."),
        target: list[str] = typer.Option(..., "--target", help="Target column (repeat for several)."),
        metric: str = typer.Option(
            ..., "--metric", help="Metric name, e.g. accuracy, roc_auc, rmse, log_loss."
        ),
        id_col: str | None = typer.Option(
            None, "--id", help="Id column; an `id` column is added when omitted."
        ),
        test_size: float = typer.Option(
            0.2, "--test-size", help="Share of rows held out as the graded test set."
        ),
        seed: int = typer.Option(0, "--seed", help="Random seed of the split."),
        description: Path | None = typer.Option(
            None, "--description", help="Markdown file to use as description.md."
        ),
        name: str | None = typer.Option(None, "--name", help="Task name (default: the folder name)."),
        force: bool = typer.Option(
            False, "--force", help="Replace public/, private/, task.yaml, description.md."
        ),
    ) -> None:
        """Split a labelled CSV into public train/test, private answers, a sample submission and task.yaml."""
        import pandas as pd

        from automind.metrics import UnknownMetricError
        from automind.prepare import PrepareError, prepare_task

        if not data.is_file():
            fail(f"{data}: data file not found. Pass --data with a labelled CSV.")
        if description is not None and not description.is_file():
            fail(f"{description}: description file not found.")
        try:
            df = pd.read_csv(data)
        except Exception as e:  # noqa: BLE001 - any parse failure is the user's file
            fail(f"{data}: cannot read as CSV ({e}).")
        text = description.read_text(encoding="utf-8") if description else None
        tgt = target[0] if len(target) == 1 else target
        try:
            out = prepare_task(df, out_dir, tgt, metric, id_col=id_col, test_size=test_size, seed=seed,
                               description=text, name=name, force=force)  # fmt: skip
        except (PrepareError, UnknownMetricError) as e:
            fail(str(e))
        console.print(f"[green]prepared[/] {out}")
        _summary(out)

    @group.command("check")
    def check(
        task: str = typer.Argument(..., help="Task folder."),
        allow_external_symlinks: bool = typer.Option(
            False, "--allow-external-symlinks", help="Accept public/ symlinks that leave the task folder."
        ),
    ) -> None:
        """Validate a task folder and print a summary; exit 1 listing every problem."""
        from automind.commands.grade import resolve_task_dir
        from automind.task import TaskError, inspect_task

        path = resolve_task_dir(task)
        loaded, problems = inspect_task(path)
        if loaded is not None:
            problems = _deep_problems(loaded)
            try:  # links into private/ are caught by inspect_task; links out of the task folder here
                loaded.public_files(allow_external=allow_external_symlinks)
            except TaskError as e:
                problems.extend(e.problems)
            _summary(path, loaded)
        if problems:
            console.print(f"[bold red]{len(problems)} problem(s)[/] in {path}:")
            for p in problems:
                console.print(f"  - {p}", highlight=False, soft_wrap=True)
            raise typer.Exit(1)
        console.print("[green]ok[/]")

    @group.command("fetch")
    def fetch(
        competition: str = typer.Argument(..., help="Kaggle competition slug, e.g. spaceship-titanic."),
        out_dir: Path = typer.Argument(..., help="Folder to write the task into (new or empty)."),
        metric: str | None = typer.Option(
            None, "--metric", help="Metric name when Kaggle's is unknown here."
        ),
        target: list[str] | None = typer.Option(
            None, "--target", help="Target column(s) (default: sample submission)."
        ),
        force: bool = typer.Option(False, "--force", help="Write into a non-empty OUT_DIR."),
    ) -> None:
        """Download a Kaggle competition and prepare it (train split 90/10, seed 0, as MLE-bench does)."""
        from automind.kaggle_fetch import FetchError, fetch_competition

        tgt = None if not target else (target[0] if len(target) == 1 else target)
        try:
            with console.status(f"downloading {competition} from Kaggle"):
                out = fetch_competition(competition, out_dir, metric=metric, target=tgt, force=force)
        except FetchError as e:
            fail(str(e))
        console.print(f"[green]prepared[/] {out}")
        _summary(out)

    app.add_typer(group, name="task")


def _deep_problems(task) -> list[str]:
    """Checks that need the data: the sample submission must itself be a valid submission."""
    from automind.grading import GradingError, SubmissionError, validate_submission

    try:
        validate_submission(task, task.sample_submission_path)
    except (SubmissionError, GradingError) as e:
        return [f"sample submission is not a valid submission: {e}"]
    return []


def _rows(path: Path) -> str:
    if path.suffix.lower() not in (".csv", ".tsv"):
        return "-"
    with path.open("rb") as f:
        return str(max(0, sum(1 for _ in f) - 1))


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return ""


def _summary(path: Path, task=None) -> None:
    from rich.table import Table

    from automind.grading import resolve_metric
    from automind.task import Task

    task = task or Task.load(path)
    m = resolve_metric(task)
    s = task.spec
    info = Table(show_header=False, title=f"task {task.name}")
    info.add_row("folder", str(task.root))
    info.add_row("metric", f"{m.name} ({'lower' if m.lower_is_better else 'higher'} is better, {m.kind})")
    info.add_row("id column", str(s.id_column))
    info.add_row("target column(s)", ", ".join(s.target_columns) or "-")
    info.add_row("problem type", str(s.problem_type or "-"))
    ans = task.answers_path
    info.add_row(
        "answers",
        f"{ans.relative_to(task.root)} ({_rows(ans)} rows)" if ans else "[yellow]absent (cannot grade)[/]",
    )
    lb = task.leaderboard_path
    info.add_row("leaderboard", f"{lb.name} ({_rows(lb)} teams)" if lb else "-")
    for w in task.warnings:
        info.add_row("warning", w)
    console.print(info)
    # Top-level entries only: a folder of 1797 images is one row, so train/test stay visible.
    files = Table("public file", "size", "rows", title="public/")
    entries = sorted(task.public_dir.iterdir())
    for p in entries[:30]:
        if p.is_dir():
            inner = [q for q in p.rglob("*") if q.is_file()]
            size = sum(q.stat().st_size for q in inner)
            files.add_row(f"{p.name}/", _size(size), f"{len(inner)} files")
        else:
            files.add_row(p.name, _size(p.stat().st_size), _rows(p))
    if len(entries) > 30:
        files.add_row(f"... {len(entries) - 30} more", "", "")
    console.print(files)
