"""`automind task prepare|check|fetch`: build, validate and download task folders."""

from __future__ import annotations

from pathlib import Path

import typer

from automind.commands.common import console, fail, note


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
        id_col: str | None = typer.Option(None, "--id", help="Id column.", show_default="a new `id` column"),
        test_size: float = typer.Option(
            0.2, "--test-size", help="Share of rows held out as the graded test set."
        ),
        seed: int = typer.Option(0, "--seed", help="Random seed of the split."),
        time_col: str | None = typer.Option(
            None,
            "--time-column",
            help="Hold out the latest rows by this column (dates or numbers): a forecast's test set.",
            show_default="a random share",
        ),
        group_col: str | None = typer.Option(
            None,
            "--group-column",
            help="Hold out whole groups of this column (patients, shops, users the model has not seen).",
            show_default="a random share",
        ),
        description: Path | None = typer.Option(
            None,
            "--description",
            help="Markdown file to use as description.md.",
            show_default="one written from the data",
        ),
        name: str | None = typer.Option(None, "--name", help="Task name (default: the folder name)."),
        force: bool = typer.Option(
            False, "--force", help="Replace public/, private/, task.yaml, description.md."
        ),
        on_bad_lines: str = typer.Option(
            "error",
            "--on-bad-lines",
            metavar="error|skip",
            help="Rows whose field count differs from the header's: error (list their lines) or skip (count them).",
        ),
        encoding: str = typer.Option(
            "utf-8", "--encoding", help="Text encoding of --data (the task is UTF-8)."
        ),
        sep: str | None = typer.Option(
            None,
            "--sep",
            help="Field separator of --data, one character (a tab: --sep $'\\t').",
            show_default="tab for .tsv, else ','",
        ),
        problem_type: str | None = typer.Option(
            None,
            "--problem-type",
            metavar="binary|multiclass|multilabel|regression",
            help="Override the problem type inferred from the metric and the target.",
            show_default="inferred",
        ),
    ) -> None:
        """Split a labelled CSV into public train/test, private answers, a sample submission and task.yaml."""
        from automind.metrics import UnknownMetricError
        from automind.prepare import PrepareError, prepare_task, read_labelled_csv, unlabelled_rows

        if on_bad_lines not in ("error", "skip"):
            fail(f"--on-bad-lines {on_bad_lines!r}: use error or skip.")
        if problem_type not in (None, "binary", "multiclass", "multilabel", "regression"):
            fail(f"--problem-type {problem_type!r}: use binary, multiclass, multilabel or regression.")
        if not data.is_file():
            fail(f"{data}: data file not found. Pass --data with a labelled CSV.")
        if description is not None and not description.is_file():
            fail(f"{description}: description file not found.")
        try:
            text = description.read_text(encoding="utf-8") if description else None
        except (OSError, UnicodeDecodeError) as e:
            fail(f"{description}: cannot read as UTF-8 Markdown ({e}).")
        tgt = target[0] if len(target) == 1 else target
        try:
            df, bad = read_labelled_csv(data, on_bad_lines, encoding, sep)  # type: ignore[arg-type]
            out = prepare_task(df, out_dir, tgt, metric, id_col=id_col, test_size=test_size, seed=seed,
                               description=text, name=name, force=force, problem_type=problem_type,
                               time_col=time_col, group_col=group_col)  # fmt: skip
        except (PrepareError, UnknownMetricError) as e:
            fail(str(e))
        except LookupError:
            fail(
                f"--encoding {encoding!r}: unknown encoding. Use a Python codec name such as utf-8 or latin-1."
            )
        console.print(f"[green]prepared[/] {out}")
        if bad.count:
            note(f"skipped {bad.describe()} (--on-bad-lines skip).")
        if dropped := unlabelled_rows(df, target):
            note(
                f"left out {dropped} of {len(df)} row(s) of {data} with no value in {', '.join(target)}: "
                "they can be neither trained on nor graded."
            )
        _summary(out)

    @group.command("check")
    def check(
        task: str = typer.Argument(..., help="Task folder."),
        leaderboard: Path | None = typer.Option(
            None,
            "--leaderboard",
            metavar="CSV",
            help="A leaderboard CSV (rank,score) to check and attach.",
            show_default="none",
        ),
        allow_external_symlinks: bool = typer.Option(
            False, "--allow-external-symlinks", help="Accept public/ symlinks that leave the task folder."
        ),
    ) -> None:
        """Validate a task folder and print a summary; exit 1 listing every problem."""
        from automind.commands.grade import resolve_task_dir
        from automind.leaderboards import LeaderboardError, attach
        from automind.task import TaskError, inspect_task
        from automind.task_checks import check_task

        path = resolve_task_dir(task)
        loaded, problems = inspect_task(path)
        if loaded is not None and leaderboard is not None:
            try:
                attach(loaded, leaderboard)
            except LeaderboardError as e:
                fail(str(e))
        if loaded is not None:
            result = check_task(loaded)
            problems = result.problems
            try:  # links into private/ are caught by inspect_task; links out of the task folder here
                loaded.public_files(allow_external=allow_external_symlinks)
            except TaskError as e:
                problems.extend(e.problems)
            _summary(path, loaded, result.facts)
            for w in result.warnings:
                console.print(f"[yellow]warning:[/] {w}", highlight=False, soft_wrap=True)
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
            None, "--metric", help="Metric name when Kaggle's is unknown here.", show_default="Kaggle's"
        ),
        target: list[str] | None = typer.Option(
            None, "--target", help="Target column(s) (default: sample submission)."
        ),
        force: bool = typer.Option(
            False,
            "--force",
            help="Write into a non-empty OUT_DIR: the download goes to raw/; public/, private/, task.yaml and "
            "description.md are replaced.",
        ),
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


def _rows(path: Path) -> str:
    """Records, not lines: a quoted field may hold line breaks (free text), which a line count adds as rows."""
    from automind.csv_scan import ArchiveError, scan_csv_file, separator

    sep = separator(path)
    if sep is None:
        return "-"
    try:
        scan = scan_csv_file(path, sep, errors="replace")
    except (OSError, UnicodeError, ArchiveError):
        return "unreadable"  # `task check` reports why
    return str(scan.rows + scan.count)


def _size(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return ""


def _summary(path: Path, task=None, facts: dict | None = None) -> None:
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
    _leaderboard_rows(info, task)
    if facts and "sample_score" in facts:
        info.add_row("sample submission score", str(facts["sample_score"]))
    for line in (facts or {}).get("side_tables", []):
        info.add_row("side table", line)
    for key, label in (("class_folders", "class folders"), ("text_files", "text files")):
        if facts and key in facts:
            info.add_row(label, facts[key])
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


def _leaderboard_rows(table, task) -> None:
    """The task's boards with their sizes, or why HumanRank is unavailable."""
    from automind.leaderboards import LeaderboardError, missing_reason, read_scores

    for label, lb in (("leaderboard", task.leaderboard_path), ("public board", task.public_leaderboard_path)):
        if lb is None:
            continue
        try:
            table.add_row(label, f"{lb.name} ({len(read_scores(lb))} teams)")
        except LeaderboardError as e:
            table.add_row(label, f"[red]unusable[/]: {e}")
    why = missing_reason(task)
    if why:
        table.add_row("leaderboard", f"[yellow]none[/]: HumanRank unavailable ({why})")
