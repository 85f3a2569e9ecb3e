"""`automind exec TASK SCRIPT.py`: run your own solution exactly as the agent's code runs, then check it.

Exactly one outcome is reported, each with its exit code (see EXIT_HELP). With private answers a valid
submission is also graded. The workspace is removed when the command ends unless --keep-workspace.
With --holdout the script sees the training rows minus a hidden holdout, whose features are appended to the
test file, and its predictions for them are scored by automind (docs/holdout.md); every report carries the
script's own score, the holdout score, the leak check and the input files the script read.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from automind.commands.common import (
    console,
    fail,
    interrupt_code,
    json_help,
    memory_option,
    print_json,
    signals_interrupt,
    timeout_option,
)

if TYPE_CHECKING:
    from automind.config import Settings
    from automind.holdout import Holdout
    from automind.sandbox import Sandbox

OUTCOMES = {
    "success": 0,
    "execution failed": 1,
    "submission not created": 2,
    "submission invalid": 3,
    "not graded": 4,
}
EXIT_HELP = (
    "Exit codes: 0 success (a valid submission; graded when the task has answers); 1 execution failed "
    "(error, timeout, memory) or the command could not start (bad task, script or --workdir: the message "
    "says which); 2 submission not created; 3 submission invalid (the validator's or the grader's "
    "reason); 4 not graded: the task has answers but grading failed; 130, 143, 129 interrupted (Ctrl-C, SIGTERM, SIGHUP)."
)
TEMP_PREFIX = "automind-exec-"
OWNER_FILE = ".automind-exec.json"  # pid and start time of the exec that owns a temp folder


def check_run(
    task: Any, script: Path, code: str, sandbox: Sandbox, settings: Settings | None = None,
    holdout: Holdout | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Run `code` (read from `script`) in a fresh sandbox workspace, then validate and (if possible) grade.

    With a holdout (the sandbox shows its view) the submission is separated first: the test rows are
    judged and graded as usual, the holdout rows scored. Trust fields are always reported."""
    from automind.config import Settings
    from automind.datause import unused_inputs
    from automind.judge import Judge
    from automind.search.trust import assess
    from automind.search.verifier import read_metric, task_direction

    cfg = (settings or Settings()).verify
    result = sandbox.run_script(code, name=script.name)
    sep = None
    if holdout is not None:
        from automind.holdout import separate

        sub = result.workspace / "submission" / task.spec.submission_file
        sep = separate(holdout, task, sub, result.workspace / "working" / "holdout_predictions.csv")
    judged = Judge(task, sandbox).judge(result)
    report = {"task": task.name, "script": str(script), **judged.to_dict()}
    if sep is not None and sep.error:
        report.update(outcome="submission invalid", reason=sep.error, grade=None)
    reported = read_metric(result)[0]
    score = sep.score if sep is not None else None
    targets = [*task.spec.target_columns, *(holdout.layout.label_cols if holdout is not None else [])]
    leak = assess(code, list(dict.fromkeys(targets)), cfg, reported=reported, score=score, holdout=holdout,
                  lower_is_better=task_direction(task))  # fmt: skip
    report.update(
        reported_metric=reported,
        holdout_metric=None if score is None else score.value,
        holdout_se=None if score is None else score.se,
        holdout=holdout.describe() if holdout is not None else {"enabled": False},
        holdout_error=None if sep is None else sep.score_error,
        leakage=leak.to_dict(),
        inputs_read=list(result.inputs_read),
        unused_inputs=unused_inputs(task, list(result.inputs_read)),
    )
    return report


def read_script(script: Path) -> str:
    """The script's text, or a clear error for a folder, an unreadable or a non-UTF-8 (binary) file."""
    if not script.exists():
        fail(f"{script}: no such script. Pass the path of a Python file.")
    if not script.is_file():
        fail(f"{script}: not a file. Pass the path of a Python file.")
    try:
        data = script.read_bytes()
    except OSError as e:
        fail(f"{script}: cannot read it ({e.strerror}).")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        fail(
            f"{script}: not a UTF-8 text file (byte 0x{data[e.start]:02x} at offset {e.start}); "
            "pass a Python source file."
        )


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def check_workdir(workdir: Path, task_root: Path) -> Path:
    """Refuse a --workdir that is a file, inside the task folder or not writable, before anything is made."""
    wd = workdir.expanduser().resolve()
    root = task_root.resolve()
    if _inside(wd, root):
        fail(
            f"--workdir {workdir}: inside the task folder {root}; workspaces must not be created among the "
            "task's files. Choose a folder outside it (or leave --workdir out for a temporary one)."
        )
    if wd.exists() and not wd.is_dir():
        fail(f"--workdir {workdir}: exists and is not a folder. Pass a folder (it is created if missing).")
    existing = next((p for p in (wd, *wd.parents) if p.exists()), None)
    if existing is None or not os.access(existing, os.W_OK | os.X_OK):
        fail(f"--workdir {workdir}: cannot create workspaces there ({existing} is not writable).")
    return wd


def sweep_stale(tmp: Path | None = None) -> list[Path]:
    """Remove temp workspaces of earlier `exec` runs that were killed (SIGKILL) before cleaning up."""
    import psutil

    removed = []
    for d in Path(tmp or tempfile.gettempdir()).glob(f"{TEMP_PREFIX}*"):
        try:
            owner = json.loads((d / OWNER_FILE).read_text(encoding="utf-8"))
            pid, started = int(owner["pid"]), float(owner["started"])
        except (OSError, ValueError, KeyError, TypeError):
            continue  # not ours, or being created right now
        try:
            alive = abs(psutil.Process(pid).create_time() - started) < 1
        except psutil.Error:
            alive = False
        if not alive:
            _rmtree(d)
            removed.append(d)
    return removed


def _rmtree(path: Path) -> None:
    for root, dirnames, _ in os.walk(path):
        for d in dirnames:
            with contextlib.suppress(OSError):
                os.chmod(Path(root) / d, 0o755)
    shutil.rmtree(path, ignore_errors=True)


def make_temp_workdir() -> Path:
    import psutil

    wd = Path(tempfile.mkdtemp(prefix=TEMP_PREFIX))
    owner = {"pid": os.getpid(), "started": psutil.Process().create_time()}
    (wd / OWNER_FILE).write_text(json.dumps(owner), encoding="utf-8")
    return wd


def register(app: typer.Typer) -> None:
    @app.command("exec", epilog=EXIT_HELP)
    def exec_cmd(
        task: str = typer.Argument(..., help="Task folder (or bundled example name)."),
        script: Path = typer.Argument(
            ..., help="Your solution script; it reads input/ and writes submission/."
        ),
        timeout: float | None = timeout_option("Wall-clock limit in seconds."),
        memory_mb: int | None = memory_option("Memory limit (proportional set size of the process tree)."),
        workdir: Path | None = typer.Option(
            None, "--workdir", help="Where to create the workspace (default: a temporary folder)."
        ),
        keep_workspace: bool = typer.Option(
            False, "--keep-workspace", help="Keep the workspace after the command (default: removed)."
        ),
        allow_external_symlinks: bool = typer.Option(
            False,
            "--allow-external-symlinks",
            help="Accept public/ symlinks that leave the task folder (their files are read, never changed).",
        ),
        holdout: bool = typer.Option(
            False,
            "--holdout",
            help="Hide a share of the training rows from the script, append their features to the test file "
            "and score its predictions for them (a check of your pipeline's own validation score).",
        ),
        holdout_fraction: float | None = typer.Option(
            None,
            "--holdout-fraction",
            metavar="FRACTION",
            min=0.01,
            max=0.5,
            help="Share of the training rows held out (implies --holdout; default verify.holdout_fraction, "
            "0.15, capped at verify.holdout_max_rows rows when that is set; a share given here is not capped).",
        ),
        as_json: bool = typer.Option(
            False,
            "--json",
            help=json_help(
                "the run report: outcome, exec, grade, reported_metric, holdout_metric, holdout_se, holdout, "
                "leakage, inputs_read, unused_inputs"
            ),
        ),
    ) -> None:
        """Run SCRIPT in the sandbox as the agent would, then validate and grade its submission."""
        from automind.commands.common import settings as load_settings
        from automind.commands.grade import load_task
        from automind.sandbox import Sandbox, SandboxError

        code = read_script(script)
        overrides = {"sandbox.timeout_s": timeout, "sandbox.memory_mb": memory_mb}
        if allow_external_symlinks:
            overrides["sandbox.allow_external_symlinks"] = True
        cfg = load_settings(overrides)
        t = load_task(task)
        wd = check_workdir(workdir, t.root) if workdir is not None else None
        created = wd is not None and not wd.exists()
        sweep_stale()
        wd = wd or make_temp_workdir()
        report: dict[str, Any] | None = None
        sandbox: Sandbox | None = None
        received: list[str] = []
        try:
            with signals_interrupt() as received:
                split = _holdout(t, wd, cfg, holdout_fraction) if holdout or holdout_fraction else None
                view = {} if split is None else {"inputs": split.inputs}
                sandbox = Sandbox.from_settings(t, wd, cfg, **view)
                status = f"running {script.name} (timeout {cfg.sandbox.timeout_s:g} s)"
                with console.status(status, spinner="dots") if not as_json else contextlib.nullcontext():
                    report = check_run(t, script.resolve(), code, sandbox, cfg, split)
        except SandboxError as e:
            fail(str(e))
        except KeyboardInterrupt:
            why = received[0] if received else "SIGINT"
            fail(f"interrupted ({why}); the script's processes were killed", interrupt_code(received))
        finally:
            if keep_workspace:  # a kept temp folder is the user's now: the next exec must not sweep it
                (wd / OWNER_FILE).unlink(missing_ok=True)
            kept = keep_workspace or _clean_up(wd, workdir is None or created, sandbox)
        assert report is not None
        report["workspace_kept"] = kept
        if as_json:
            print_json(report)
        else:
            _print(report)
        raise typer.Exit(OUTCOMES[report["outcome"]])


def _holdout(task: Any, wd: Path, cfg: Settings, fraction: float | None) -> Holdout:
    """The holdout view for one exec, under the work folder (removed with it); a clear error when impossible."""
    from automind.holdout import HoldoutUnavailable, build_holdout

    frac, cap = (fraction, None) if fraction else (cfg.verify.holdout_fraction, cfg.verify.holdout_max_rows)
    try:
        return build_holdout(task, wd / "holdout", fraction=frac, seed=cfg.search.seed, max_rows=cap)
    except HoldoutUnavailable as e:
        fail(f"--holdout: {e}. Run without --holdout to check the script as it is.")


def _clean_up(wd: Path, ours: bool, sandbox: Sandbox | None) -> bool:
    """Remove this command's workspace (the whole folder when this command created it); False: not kept."""
    if ours:
        _rmtree(wd)
        return False
    if sandbox is not None:
        for ws in sandbox.created:
            sandbox.remove(ws)
    with contextlib.suppress(OSError):
        (wd / ".sandbox").rmdir()
    return False


def _print(report: dict[str, Any]) -> None:
    from rich.panel import Panel

    ex = report["exec"]
    if ex["output"].strip():
        console.print(Panel(ex["output"], title="output", title_align="left"), highlight=False)
    where = (
        f"workspace {ex['workspace']} (kept)"
        if report.get("workspace_kept")
        else "workspace removed (--keep-workspace keeps it)"
    )
    console.print(
        f"status {ex['status']}, {ex['wall_s']:.2f} s, peak {ex['peak_mem_mb']:.0f} MB, {where}",
        highlight=False,
        soft_wrap=True,
    )
    console.print(f"[dim]contained by {ex['isolation']}[/]", highlight=False, soft_wrap=True)
    outcome = report["outcome"]
    color = "green" if outcome == "success" else "red"
    console.print(
        f"[bold {color}]{outcome}[/]" + (f": {report['reason']}" if report["reason"] else ""), soft_wrap=True
    )
    if report["grade"]:
        from automind.commands.grade import _print_report
        from automind.grading import GradeReport

        _print_report(GradeReport(**report["grade"]))
    _print_trust(report)


def _print_trust(report: dict[str, Any]) -> None:
    """The scores side by side, the leak verdict with its lines, and what the script read."""

    def fmt(v: float | None) -> str:
        return "-" if v is None else f"{v:.6g}"

    line = f"own validation score {fmt(report['reported_metric'])}"
    if report["holdout"].get("enabled"):
        h = report["holdout"]
        se = report.get("holdout_se")
        line += f", holdout score {fmt(report['holdout_metric'])}" + (f" ± {se:.2g}" if se else "")
        line += f" ({h['holdout_rows']} hidden rows, {h['strategy']})"
    if report.get("holdout_error"):
        line += f" [red]{report['holdout_error']}[/]"
    console.print(line, highlight=False, soft_wrap=True)
    leak = report["leakage"]
    color = "red" if leak["status"] in ("leak", "suspect_leakage") else "green"
    console.print(f"leakage: [{color}]{leak['status']}[/]", highlight=False)
    for r in leak["reasons"]:
        where = f"line {r['line']}: " if r.get("line") else ""
        console.print(f"  - {where}{r['kind']}: {r['message']}", highlight=False, soft_wrap=True)
    read = ", ".join(report["inputs_read"]) or "nothing seen (native readers are not seen)"
    console.print(f"[dim]inputs read: {read}[/]", highlight=False, soft_wrap=True)
    if report["unused_inputs"]:
        console.print(f"[yellow]never read: {', '.join(report['unused_inputs'])}[/]", highlight=False)
