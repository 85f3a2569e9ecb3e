"""`automind solve`, `automind report` and `automind runs list`: run the search and look at runs."""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path
from typing import Any

import typer

from automind.commands.common import (
    FORCE_FILE_HELP,
    LLM_HELP,
    NO_LLM_HELP,
    console,
    fail,
    interrupt_code,
    json_help,
    llm_spec,
    note,
    print_json,
    refuse_existing_file,
    signals_interrupt,
)
from automind.commands.common import settings as load_settings
from automind.cpuload import busy_text
from automind.limits import DEFAULT_STEPS, DEFAULT_TIME_LIMIT_S

CODERS = ("adaptive", "one-pass", "stepwise")
STEPS_HELP = (
    "Nodes the search may make at most (config search.steps). Default: no step limit when a time limit is "
    f"set; {DEFAULT_STEPS} when neither is set."
)
SOLVE_HELP = (
    "Search for the best solution of TASK and write a run folder (journal, best solution, report).\n\n"
    "The budget: --time-limit alone is a time budget (no step limit), --steps alone a step budget (no time "
    "limit), both: whichever comes first; neither: the defaults below, whichever comes first. A timed run "
    "ends within 5 % (at least 10 s) of the limit, finishing included (docs/search.md)."
)
TIME_HELP = (
    "Seconds the whole run may take, preparation and the final report included (config search.time_limit_s). "
    f"Default: no time limit when --steps is set; {DEFAULT_TIME_LIMIT_S:g} when neither is set. With both, "
    "whichever comes first ends the search."
)


class LiveView:
    """The live terminal view: step, node being worked on, best score, time used and left against the budget.

    The progress bar runs over whichever budget binds (steps or time); figures come from the run's
    `Budget` in each event and the clock ticks between events.
    """

    def __init__(self, steps: int | None, time_limit_s: float | None, task: str):
        from automind.runlog import Budget

        self.task = task
        self.budget = Budget(0, steps, 0.0, time_limit_s)
        self.at: float | None = (
            None  # when the run last reported its budget (None: not yet; the run's clock starts with the process)
        )
        self.doing, self.phase = "preparing (analysis, knowledge)", ""
        self.best: str = "-"
        self.tokens = 0
        self.last: list[str] = []
        self.live = None

    def now(self):
        from dataclasses import replace

        if self.at is None:  # preparation (analysis, knowledge) is not counted against the budget
            return self.budget
        return replace(self.budget, elapsed_s=self.budget.elapsed_s + time.monotonic() - self.at)

    def render(self):
        from rich.console import Group
        from rich.progress_bar import ProgressBar
        from rich.table import Table
        from rich.text import Text

        from automind.runlog import seconds

        b = self.now()
        t = Table.grid(padding=(0, 2))
        t.add_row("[bold]task[/]", self.task)
        t.add_row("[bold]step[/]", b.steps_text())
        t.add_row("[bold]working on[/]", f"{self.doing} [dim]{self.phase}[/]")
        t.add_row("[bold]best[/]", self.best)
        left = b.time_left_s
        clock = f"{seconds(b.elapsed_s)} used, " + (
            "no time limit" if left is None else f"{seconds(left)} left of {seconds(b.time_limit_s or 0)}"
        )
        if b.finish_reserve_s >= 1:
            clock += f" [dim]({seconds(b.finish_reserve_s)} kept for finishing)[/]"
        t.add_row("[bold]time[/]", clock)
        bar = Table.grid(padding=(0, 2))
        bar.add_row(
            ProgressBar(total=1.0, completed=b.fraction, width=40),
            f"{b.fraction:.0%} [dim]({b.binding} binds)[/]",
        )
        t.add_row("[bold]budget[/]", bar)
        if self.tokens:
            t.add_row("[bold]tokens[/]", str(self.tokens))
        recent = Table.grid()
        for line in self.last[-5:]:  # one screen line each: the full lines are in run.log
            recent.add_row(Text(line, style="dim", no_wrap=True, overflow="ellipsis"))
        return Group(t, recent)

    def __call__(self, kind: str, data: dict[str, Any]) -> None:
        if "budget" in data:
            self.budget, self.at = data["budget"], time.monotonic()
        if kind == "step":
            self.doing = data["decision"] + (" [blue](safety net)[/]" if data.get("safety") else "")
            self.phase = ""
        elif kind == "phase":
            self.phase = data["phase"]
        elif kind == "log":
            self.last.append(data["line"])
        elif kind == "node":
            best = data["best"]
            if best is not None and best.metric is not None:
                self.best = f"{best.metric.value:.6g} (node {best.id})"
            total = (data.get("usage") or {}).get("total") or {}
            self.tokens = int(total.get("tokens", 0) or 0)
        if self.live is not None:
            self.live.refresh()


def plain_lines(kind: str, data: dict[str, Any]) -> None:
    """Where stdout is not a terminal: print each run.log line as it is written, flushed."""
    if kind == "log":
        sys.stdout.write(data["line"] + "\n")
        sys.stdout.flush()


def process_start() -> float:
    """time.monotonic() when this process started, so the time limit covers the interpreter's start-up
    and imports too (now, when the start time cannot be read)."""
    try:
        import psutil

        return time.monotonic() - max(0.0, time.time() - psutil.Process().create_time())
    except Exception:  # noqa: BLE001 - a start a moment late is all that is lost
        return time.monotonic()


def _overrides(**flags: Any) -> dict[str, Any]:
    keys = {
        "steps": "search.steps",
        "time_limit": "search.time_limit_s",
        "llm": "llm.provider",
        "coder": "coding.mode",
        "seed": "search.seed",
        "holdout": "verify.holdout",
    }
    return {keys[k]: v for k, v in flags.items() if v is not None}


def _same_task(arg: str, recorded: dict[str, Any]) -> bool:
    """Whether TASK given with --resume names the run's own task (by name, slug or folder)."""
    if arg in (recorded.get("name"), recorded.get("slug"), recorded.get("path")):
        return True
    path = recorded.get("path")
    if not path:
        return False
    return Path(arg).expanduser().resolve() == Path(path).resolve()


def _print_result(res) -> None:
    from rich.table import Table

    t = Table(show_header=False, title=f"run {res.run_dir}")
    t.add_row("status", res.status)
    t.add_row("steps", f"{len(res.journal)} ({len(res.journal.valid_nodes)} valid)")
    t.add_row("time", res.time_summary())
    if res.stopped_early:
        t.add_row("stopped early", f"[yellow]{res.stopped_early}[/]")
    if busy := busy_text(res.budget.get("cpu")):
        t.add_row("machine", f"[yellow]{busy}[/]")
    if res.best is not None and res.best.metric is not None:
        d = res.journal.direction
        # a recipe script's rank score pools both scores of the next row (docs/holdout.md)
        how = ", both scores below pooled by rows" if res.best.pooled else ""
        t.add_row(
            "best",
            f"node {res.best.id}: {res.best.metric.value:.6g} ({'lower' if d else 'higher'} is better{how})",
        )
        if res.best.holdout_metric is not None:  # trustworthy scores (docs/holdout.md)
            own = "-" if res.best.reported_metric is None else f"{res.best.reported_metric:.6g}"
            t.add_row(
                "scores",
                f"holdout {res.best.holdout_metric:.6g}, its own validation {own}, {res.best.leakage.status}",
            )
        if res.refit:
            bags = int(res.refit.get("bags") or 1)
            used = "on all training rows" + (
                f", K-fold fitting repeated on {bags} fold shuffles" if bags > 1 else ""
            )
            t.add_row(
                "refit", used if res.refit.get("used") else f"[yellow]not used: {res.refit.get('reason')}[/]"
            )
        t.add_row("solution", f"{res.run_dir / 'best_solution.py'}  {res.run_dir / 'submission.csv'}")
    else:
        t.add_row("best", "[red]no valid solution[/]")
    g = res.grade
    if g:
        line = f"[bold]{g.get('score')}[/]" if g.get("valid") else f"[red]invalid: {g.get('error')}[/]"
        if g.get("position"):
            line += f", position {g['position']} of {g['leaderboard_teams']}"
        if g.get("medal"):
            line += f", medal: {g['medal']}"
        t.add_row("graded", line)
    for f in res.fallbacks:
        t.add_row("fallback", f"[yellow]{f}[/]")
    t.add_row("report", str(res.run_dir / "report.html"))
    console.print(t)


def check_out_dir(out: Path) -> str | None:
    """Why OUT cannot hold a run folder (None when it can); tested before anything is created.

    The probe creates and removes one temporary file in the nearest existing folder: permission bits alone
    do not tell (root ignores them; a read-only mount or /proc refuses anyway).
    """
    import os
    import tempfile

    from automind.run_setup import out_dir_problem

    out = out.expanduser()
    if why := out_dir_problem(out):
        return f"--out {out}: {why.removeprefix(f'{out} ')}"
    probe = out
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        return f"--out {out}: {probe} is a file, so no folder can be created under it. Pass another --out."
    try:
        fd, tmp = tempfile.mkstemp(prefix=".automind-probe-", dir=probe)
    except OSError as e:
        return f"--out {out}: cannot write in {probe} ({e.strerror}). Pass a writable --out folder."
    os.close(fd)
    os.unlink(tmp)
    return None


def register(app: typer.Typer) -> None:
    @app.command("solve", help=SOLVE_HELP)
    def solve_cmd(
        task: str = typer.Argument(
            None, metavar="TASK", help="Task folder, bundled example name, or Kaggle competition."
        ),
        steps: int = typer.Option(None, "--steps", metavar="N", help=STEPS_HELP, show_default=False),
        time_limit: float = typer.Option(
            None, "--time-limit", metavar="SECONDS", help=TIME_HELP, show_default=False
        ),
        llm: str = typer.Option(
            None, "--llm", metavar="SPEC", help=LLM_HELP, show_default="llm.provider setting"
        ),
        no_llm: bool = typer.Option(False, "--no-llm", help=NO_LLM_HELP),
        no_knowledge: bool = typer.Option(
            False, "--no-knowledge", help="Search without retrieved knowledge."
        ),
        coder: str = typer.Option(
            None,
            "--coder",
            metavar="MODE",
            show_default="coding.mode setting",
            help="adaptive (by the plan's complexity) | one-pass (the whole script) | stepwise (step by step).",
        ),  # fmt: skip
        out: Path = typer.Option(
            None, "--out", metavar="FOLDER", help="Run folder.", show_default="runs/<task>-<timestamp>"
        ),
        holdout: str = typer.Option(
            None,
            "--holdout",
            metavar="auto|on|off",
            help="Rank nodes by automind's own hidden holdout of the training rows (automind's recipe scripts: "
            "pooled with their own K-fold score; auto: when the task's layout allows it and it has enough "
            "rows; docs/holdout.md; default verify.holdout, auto).",
        ),
        resume_dir: Path = typer.Option(
            None,
            "--resume",
            metavar="RUN_DIR",
            help="Continue the run in this folder.",
            show_default="a new run",
        ),
        seed: int = typer.Option(
            None, "--seed", metavar="N", help="Seed of the search policy.", show_default="search.seed setting"
        ),
        as_json: bool = typer.Option(
            False,
            "--json",
            help=json_help(
                "the run summary (run_dir, status, steps, best node and metric, grade, fallbacks)"
            ),
        ),  # fmt: skip
        leaderboard: Path = typer.Option(
            None,
            "--leaderboard",
            metavar="CSV",
            help="A leaderboard CSV (rank,score) to grade the result against.",
            show_default="the task's own, if any",
        ),  # fmt: skip
    ) -> None:
        """`automind solve` (its help is SOLVE_HELP: one string, so the terminal wraps it, not the source)."""
        started = process_start()
        from rich.live import Live

        from automind.config import ConfigError
        from automind.leaderboards import LeaderboardError
        from automind.run import RunError, resume, solve
        from automind.task import TaskError

        if coder is not None and coder not in CODERS:
            fail(f"--coder {coder!r}: use one of {', '.join(CODERS)}.")
        if resume_dir is None and not task:
            fail("give a TASK (folder, example name or Kaggle competition), or --resume RUN_DIR.")
        if out is not None and resume_dir is None and (why := check_out_dir(out)):
            fail(why)
        if resume_dir is not None and leaderboard is not None:
            fail("--leaderboard applies to a new run; a resumed run keeps the leaderboard it started with.")
        if resume_dir is not None and holdout is not None:
            fail("--holdout applies to a new run; a resumed run keeps the holdout split it started with.")
        llm = llm_spec(llm, no_llm)
        overrides = _overrides(
            steps=steps, time_limit=time_limit, llm=llm, coder=coder, seed=seed, holdout=holdout
        )
        signals = contextlib.ExitStack()
        received = signals.enter_context(signals_interrupt())  # SIGTERM/SIGHUP stop a run as Ctrl-C does
        try:
            if resume_dir is not None:
                from automind.report import ReportError, load_run_files

                try:
                    info, _, problems = load_run_files(resume_dir)
                except ReportError as e:
                    fail(f"cannot resume: {e}")
                if problems:
                    fail(f"cannot resume: {problems[0]}")
                if task and not _same_task(task, info.get("task") or {}):
                    recorded = (info.get("task") or {}).get("name", "?")
                    fail(
                        f"{resume_dir} is a run of task '{recorded}', not '{task}'. Leave out TASK to "
                        f"continue it (the task is read from run.json), or start a new run without --resume."
                    )
                search = (info.get("config") or {}).get("search", {})
                view = LiveView(
                    overrides.get("search.steps") or search.get("steps"),
                    overrides.get("search.time_limit_s") or search.get("time_limit_s"),
                    (info.get("task") or {}).get("name", str(resume_dir)),
                )
                run = lambda ev: resume(resume_dir, overrides=overrides, on_event=ev, started=started)  # noqa: E731
            else:
                s = load_settings(overrides)
                if not Path(task).expanduser().is_dir():
                    from automind.examples import resolve_task

                    task = str(resolve_task(task, on_build=note))  # announce where an example is built
                view = LiveView(*s.search.budget(), task)
                target = task
                if leaderboard is not None:  # load the task here to attach the board (in memory)
                    from automind.leaderboards import attach
                    from automind.run_setup import resolve_task

                    target = resolve_task(task)
                    attach(target, leaderboard)
                run = lambda ev: solve(  # noqa: E731
                    target, s, out=out, no_knowledge=no_knowledge, on_event=ev, started=started
                )
            if as_json:
                res = run(None)  # the lines still go to RUN/run.log
            elif not console.is_terminal:
                res = run(plain_lines)
            else:
                with Live(
                    get_renderable=view.render, console=console, refresh_per_second=4, transient=True
                ) as live:
                    view.live = live
                    res = run(view)
        except (RunError, TaskError, ConfigError, LeaderboardError) as e:
            fail(str(e))
        except KeyboardInterrupt:
            # Ctrl-C during setup (analysis, knowledge): the loop's own handler never ran.
            if resume_dir is not None:
                fail(
                    f"interrupted before the search went on; {resume_dir} is unchanged. Resume it again.",
                    interrupt_code(received),
                )
            fail(
                "interrupted before the search started; nothing was recorded to resume. Run the same "
                f"command again{f' (the folder {out} can be reused)' if out else ''}.",
                code=interrupt_code(received),
            )
        except Exception as e:
            from pydantic import ValidationError

            from automind.errors import LLMError
            from automind.examples import ExampleError
            from automind.sandbox import SandboxError

            if isinstance(e, ExampleError | LLMError | SandboxError | ValidationError):
                fail(str(e))
            raise
        finally:
            signals.close()
        if as_json:
            print_json(res.summary())
        else:
            _print_result(res)
        if res.status == "interrupted":
            console.print(f"interrupted: continue with `automind solve --resume {res.run_dir}`")
            raise typer.Exit(interrupt_code(received))

    @app.command("report")
    def report_cmd(
        run_dir: Path = typer.Argument(..., metavar="RUN_DIR", help="A run folder made by `automind solve`."),
        out: Path = typer.Option(
            None,
            "--out",
            metavar="PATH",
            help="Where to write the HTML: a file, or a folder for report.html.",
            show_default="RUN_DIR/report.html",
        ),  # fmt: skip
        force: bool = typer.Option(
            False, "--force", help=FORCE_FILE_HELP + " (RUN_DIR/report.html always is)"
        ),
    ) -> None:
        """Write a self-contained HTML report: solution tree, best score over time, tricks, cost, fallbacks."""
        from automind.report import ReportError, load_run_files, report_path, write_report

        target = report_path(run_dir, out)
        if target.resolve() != report_path(run_dir).resolve():  # the run's own report is always rewritten
            refuse_existing_file(target, force)
        try:
            _, _, problems = load_run_files(run_dir)
            for p in problems:
                note(f"the report is made without the run's task, config, usage and grade: {p}")
            console.print(f"wrote {write_report(run_dir, out)}")
        except ReportError as e:
            fail(str(e))

    runs = typer.Typer(help="List recorded runs.", no_args_is_help=True)

    @runs.command("list")
    def runs_list(
        base: Path = typer.Option(
            None,
            "--dir",
            metavar="FOLDER",
            help="Folder holding run folders.",
            show_default="runs_dir setting",
        ),
        as_json: bool = typer.Option(
            False,
            "--json",
            help=json_help("one object per run (run, task, steps, best_metric, score, status)"),
        ),
    ) -> None:
        """One row per run: task, steps, best metric, graded score, status (running, interrupted, damaged...)."""
        from rich.table import Table

        from automind.runs import list_runs

        explicit = base is not None
        base = base or Path(load_settings().runs_dir)
        if base.exists() and not base.is_dir():
            fail(f"{base}: not a folder. Pass --dir with the folder that holds run folders.")
        if explicit and not base.exists():  # a typo in --dir must not read as "no runs"
            fail(f"{base}: no such folder. Pass --dir with the folder that holds run folders.")
        rows = list_runs(base) if base.is_dir() else []
        if as_json:
            print_json([r.to_dict() for r in rows])
            return
        if not rows:
            where = base if base.is_dir() else f"{base} (the runs_dir setting; no such folder yet)"
            console.print(f"no runs in {where}. Start one with `automind solve TASK`.", soft_wrap=True)
            return
        t = Table("run", "task", "steps", "best metric", "score", "status")
        colour = {"damaged": "red", "interrupted": "yellow", "failed": "red", "running": "blue"}
        for r in rows:
            best = "-" if r.best_metric is None else f"{r.best_metric:.6g}"
            score = "-" if r.score is None else str(r.score)
            status = f"[{colour[r.status]}]{r.status}[/]" if r.status in colour else r.status
            t.add_row(r.run, r.task, str(r.steps or 0), best, score, status)
        console.print(t)
        for r in rows:
            if r.note:
                console.print(f"{r.run}: {r.status}: {r.note}", highlight=False, soft_wrap=True)

    app.add_typer(runs, name="runs")
