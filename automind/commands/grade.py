"""`automind grade TASK SUBMISSION`: validate and score a submission, placing it on the leaderboard."""

from __future__ import annotations

from pathlib import Path

import typer

from automind.commands.common import console, fail, note, print_json


def resolve_task_dir(arg: str) -> Path:
    """A task folder, or a bundled example name (built once under $AUTOMIND_HOME/tasks, announced on stderr)."""
    path = Path(arg).expanduser()
    if path.is_dir():
        return path
    from automind.examples import resolve_task

    try:
        return Path(resolve_task(arg, on_build=note))
    except Exception as e:  # noqa: BLE001 - the examples area reports its own reasons
        fail(str(e) or f"{arg}: not a task folder or a known example.")


def load_task(arg: str, leaderboard: Path | None = None):
    """Load TASK (folder or example); `leaderboard` attaches a leaderboard CSV in memory."""
    from automind.leaderboards import LeaderboardError, attach
    from automind.task import Task, TaskError

    try:
        task = Task.load(resolve_task_dir(arg))
    except TaskError as e:
        fail(str(e) + "\nRun `automind task check TASK` for a full report.")
    if leaderboard is not None:
        try:
            attach(task, leaderboard)
        except LeaderboardError as e:
            fail(str(e))
    return task


LEADERBOARD_HELP = "A leaderboard CSV (rank,score) to place scores on, instead of the task's own."


def register(app: typer.Typer) -> None:
    @app.command("grade")
    def grade_cmd(
        task: str = typer.Argument(..., help="Task folder (or bundled example name)."),
        submission: Path = typer.Argument(..., help="Submission CSV to grade."),
        as_json: bool = typer.Option(
            False, "--json", help="Print the GradeReport as JSON (see docs/grading.md)."
        ),
        leaderboard: Path | None = typer.Option(
            None, "--leaderboard", metavar="CSV", help=LEADERBOARD_HELP, show_default="the task's own, if any"
        ),
    ) -> None:
        """Validate and score a submission against the task's private answers (exit 1 if invalid)."""
        from automind.grading import GradingError, grade

        t = load_task(task, leaderboard)
        try:
            report = grade(t, submission)
        except GradingError as e:
            fail(str(e))
        if as_json:
            print_json(report.model_dump())
        else:
            _print_report(report)
        if not report.valid:
            raise typer.Exit(1)


def _print_report(report) -> None:
    from rich.table import Table

    direction = "lower is better" if report.lower_is_better else "higher is better"
    table = Table(title=f"{report.task}: {report.submission}", show_header=False)
    table.add_row("metric", f"{report.metric} ({direction})")
    if not report.valid:
        table.add_row("valid", "[red]no[/]")
        table.add_row("error", report.error or "")
        console.print(table)
        return
    table.add_row("score", f"[bold]{report.score}[/]")
    table.add_row("rows", str(report.n_rows))
    if report.leaderboard_teams:
        n = report.leaderboard_teams
        table.add_row("position", f"{report.position} of {n}")
        table.add_row("beats", f"{report.beats_pct} % of teams")
        table.add_row("HumanRank", str(report.human_rank))
        table.add_row("medal", report.medal or "none")
        table.add_row("above median", "yes" if report.above_median else "no")
        for name in ("gold", "silver", "bronze", "median"):
            value = getattr(report, f"{name}_threshold")
            table.add_row(f"{name} threshold", "-" if value is None else str(value))
    if report.human_rank_note:
        table.add_row("HumanRank", f"[yellow]unavailable[/] ({report.human_rank_note})")
    if report.public_leaderboard_teams:
        table.add_row(
            "public board", f"position {report.public_position} of {report.public_leaderboard_teams}"
        )
        table.add_row("public HumanRank", str(report.public_human_rank))
        table.add_row("HumanRank (mean)", str(report.mean_human_rank))
    console.print(table)
