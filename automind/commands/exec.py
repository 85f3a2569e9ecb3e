"""`automind exec TASK SCRIPT.py`: run your own solution exactly as the agent's code runs, then check it.

Exactly one outcome is reported: success (exit 0), execution failed (1), submission not created (2),
submission invalid (3, with the reason). With private answers a successful submission is also graded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from automind.commands.common import console, fail, print_json

OUTCOMES = {"success": 0, "execution failed": 1, "submission not created": 2, "submission invalid": 3}


def check_run(task: Any, script: Path, workdir: Path, settings: Any) -> dict[str, Any]:
    """Run `script` in a fresh sandbox workspace for `task`, then validate and (if possible) grade."""
    from automind.judge import Judge

    judged = Judge.from_settings(task, workdir, settings).run(
        script.read_text(encoding="utf-8"), name=script.name
    )
    return {"task": task.name, "script": str(script), **judged.to_dict()}


def register(app: typer.Typer) -> None:
    @app.command("exec")
    def exec_cmd(
        task: str = typer.Argument(..., help="Task folder (or bundled example name)."),
        script: Path = typer.Argument(
            ..., help="Your solution script; it reads input/ and writes submission/."
        ),
        timeout: float | None = typer.Option(None, "--timeout", help="Wall-clock limit in seconds."),
        memory_mb: int | None = typer.Option(
            None, "--memory-mb", help="Memory limit (RSS of the process tree)."
        ),
        workdir: Path | None = typer.Option(
            None, "--workdir", help="Where to create the workspace (default: temp)."
        ),
        as_json: bool = typer.Option(False, "--json", help="Machine-readable report."),
    ) -> None:
        """Run SCRIPT in the sandbox as the agent would, then validate and grade its submission.

        Exit codes: 0 success, 1 execution failed, 2 submission not created, 3 submission invalid.
        """
        import tempfile

        from automind.commands.common import settings as load_settings
        from automind.commands.grade import load_task

        if not script.is_file():
            fail(f"{script}: no such script. Pass the path of a Python file.")
        cfg = load_settings({"sandbox.timeout_s": timeout, "sandbox.memory_mb": memory_mb})
        t = load_task(task)
        wd = workdir or Path(tempfile.mkdtemp(prefix="automind-exec-"))
        with console.status(f"running {script.name} (timeout {cfg.sandbox.timeout_s:g} s)", spinner="dots"):
            report = check_run(t, script.resolve(), wd, cfg)
        if as_json:
            print_json(report)
        else:
            _print(report)
        raise typer.Exit(OUTCOMES[report["outcome"]])


def _print(report: dict[str, Any]) -> None:
    from rich.panel import Panel

    ex = report["exec"]
    if ex["output"].strip():
        console.print(Panel(ex["output"], title="output", title_align="left"), highlight=False)
    console.print(
        f"status {ex['status']}, {ex['wall_s']:.2f} s, peak {ex['peak_mem_mb']:.0f} MB, workspace {ex['workspace']}",
        highlight=False,
        soft_wrap=True,
    )
    outcome = report["outcome"]
    color = "green" if outcome == "success" else "red"
    console.print(
        f"[bold {color}]{outcome}[/]" + (f": {report['reason']}" if report["reason"] else ""), soft_wrap=True
    )
    if report["grade"]:
        from automind.commands.grade import _print_report
        from automind.grading import GradeReport

        _print_report(GradeReport(**report["grade"]))
