"""What `automind runs list` knows about a run folder: its summary, and whether it is really still running.

A run records the process that writes it (pid, host, the process's start time) and a heartbeat (the time
of its last write) in run.json after every step. A run left at "running" whose process is gone (SIGKILL,
a crash, a reboot) is reported as interrupted, so it can be resumed; a folder whose journal or run.json
cannot be read is reported as damaged with the reason, and the listing goes on.
"""

from __future__ import annotations

import socket
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

# Only for runs written on another host (no pid to check) or before pids were recorded: no write for this
# long means the run is gone. A step writes run.json when it ends, so this must exceed the longest step.
STALE_FLOOR_S = 3600.0


def this_process() -> dict[str, Any]:
    """Identity of the current process, stored in run.json so a later reader can tell if it still runs."""
    import os

    import psutil

    return {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "started": round(psutil.Process().create_time(), 3),
    }


def process_alive(pid: int, started: float | None) -> bool:
    """True when pid is a live process and (when known) the same one that wrote the run, not a reused pid."""
    import psutil

    try:
        proc = psutil.Process(pid)
        if proc.status() == psutil.STATUS_ZOMBIE:
            return False
        return started is None or abs(proc.create_time() - started) < 1.0
    except (psutil.NoSuchProcess, psutil.AccessDenied, ValueError):
        return False


def _stale_after(info: dict[str, Any]) -> float:
    search = (info.get("config") or {}).get("search") or {}
    return max(STALE_FLOOR_S, 3 * float(search.get("exec_timeout_s") or 0))


def live_status(info: dict[str, Any], now: float | None = None) -> tuple[str, str | None]:
    """(status, note): a recorded "running" becomes "interrupted" when its process is gone."""
    status = str(info.get("status", "unknown"))
    if status != "running":
        return status, None
    proc = info.get("process") or {}
    pid, host = proc.get("pid"), proc.get("host")
    if isinstance(pid, int) and host == socket.gethostname():
        if process_alive(pid, proc.get("started")):
            return "running", None
        return "interrupted", f"process {pid} is gone (killed or crashed)"
    now = time.time() if now is None else now
    beat = info.get("heartbeat")
    if not isinstance(beat, int | float):
        return "running", "no process recorded; cannot tell whether it still runs"
    quiet = now - beat
    if quiet > _stale_after(info):
        where = f" from host {host}" if host else ""
        return "interrupted", f"no update{where} for {quiet / 60:.0f} min"
    return "running", f"on host {host}" if host and host != socket.gethostname() else None


@dataclass
class RunRow:
    run: str
    path: str
    task: str
    steps: int | None
    best_metric: float | None
    score: float | None
    status: str  # finished | time | budget | interrupted | failed | running | damaged | unknown
    note: str | None = None  # why damaged / interrupted, and what to do

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def read_run(run_dir: Path) -> RunRow:
    """One run folder as a row; never raises for a damaged folder (its status says so)."""
    from automind.report import ReportError, json_or_problem, load_run_files

    try:
        info, journal, problems = load_run_files(run_dir)
    except ReportError as e:
        raw, _ = json_or_problem(run_dir / "run.json") if (run_dir / "run.json").is_file() else (None, None)
        info = raw if isinstance(raw, dict) else {}
        why = str(e)
        if not (run_dir / "journal.json").exists():
            why = f"{run_dir / 'journal.json'}: missing, so the run can be neither reported nor resumed."
        return RunRow(run_dir.name, str(run_dir), _task_name(info), info.get("steps_done"), None, None,
                      "damaged", why)  # fmt: skip
    if problems:
        return RunRow(run_dir.name, str(run_dir), "?", len(journal), _best(journal), None, "damaged",
                      " ".join(problems))  # fmt: skip
    status, note = live_status(info)
    if status == "interrupted":
        note = f"{note}; continue it with `automind solve --resume {run_dir}`"
    return RunRow(
        run_dir.name, str(run_dir), _task_name(info), info.get("steps_done", len(journal)), _best(journal),
        (info.get("grade") or {}).get("score"), status, note,
    )  # fmt: skip


def _task_name(info: dict[str, Any]) -> str:
    task = info.get("task")
    return str(task.get("name", "?")) if isinstance(task, dict) else "?"


def _best(journal: Any) -> float | None:
    best = journal.best_node
    return None if best is None or best.metric is None else best.metric.value


def list_runs(base: Path) -> list[RunRow]:
    """Every run folder directly under base (one holding journal.json or run.json), oldest first."""
    dirs = [
        p
        for p in base.iterdir()
        if p.is_dir() and ((p / "journal.json").exists() or (p / "run.json").exists())
    ]
    return [read_run(d) for d in sorted(dirs, key=lambda p: (p.stat().st_mtime, p.name))]
