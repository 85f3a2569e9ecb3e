"""`Sandbox`: run generated code in a disposable workspace with limits, containment and a clean exit."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from automind.sandbox import workspace as wsp
from automind.sandbox.env import child_env
from automind.sandbox.errors import SandboxError
from automind.sandbox.isolation import Isolation, Mode, choose
from automind.sandbox.process import (
    POLL_S,
    SUPERVISOR_FAILED,
    DiskWatch,
    ExitWaiter,
    Launch,
    child_path,
    disk_cap_mb,
    kill_and_reap,
    limit_hit,
    spawn,
)
from automind.sandbox.result import ExecResult, Kill, Status, load_json, read_capture

if TYPE_CHECKING:
    from automind.config import Settings
    from automind.sandbox.session import Session
    from automind.task import InputEntry, Task, TaskError


def refused(e: TaskError) -> SandboxError:
    """The walker's problems (each naming a link) as the sandbox's own error."""
    return SandboxError("the sandbox refuses these inputs:\n" + "\n".join(f"  - {p}" for p in e.problems))


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


class Sandbox:
    """Creates workspaces for a task and runs code in them; docs/sandbox.md lists the guarantees."""

    def __init__(
        self,
        task: Task | str | Path | None,
        workdir: str | Path,
        *,
        timeout_s: float,
        memory_mb: int | None,
        threads: int,
        disk_mb: int | None = None,
        extra_inputs: dict[str, Path] | None = None,
        head_chars: int = 4000,
        tail_chars: int = 6000,
        inputs: str | Path | None = None,
        allow_external_symlinks: bool = False,
        isolation: Mode = "auto",
        network: bool = False,
        script_env: dict[str, str] | None = None,
    ):
        """`inputs`: the folder input/ shows (default: the task's public/, e.g. a run-prepared view instead).

        `allow_external_symlinks`: accept symlinks in it that leave the task folder (read, never changed).
        `isolation`: 'auto' (namespaces where the kernel allows, else copies, logged), 'namespace'
        (required: error when unavailable) or 'copy'. `network`: let the child reach the network.
        `script_env`: AUTOMIND_* values automind itself tells every script (the final refit's bags); the
        user's environment still reaches the child only through the allow-list."""
        from automind.task import Task, TaskError, walk_inputs

        if task is not None and not isinstance(task, Task):
            task = Task.load(task)
        self.task: Task | None = task
        self.workdir = Path(workdir).expanduser().resolve()
        self.timeout_s = float(timeout_s)
        self.memory_mb = int(memory_mb) if memory_mb else None
        self.disk_mb = disk_cap_mb(self.workdir, disk_mb)
        self.threads = max(1, int(threads))
        self.extra_inputs = {k: Path(v) for k, v in (extra_inputs or {}).items()}
        self.head_chars, self.tail_chars = head_chars, tail_chars
        self.network = network
        bad = [k for k in script_env or {} if not k.startswith("AUTOMIND_")]
        if bad:
            raise SandboxError(f"script_env may only set AUTOMIND_* variables, not {', '.join(bad)}")
        self.script_env = dict(script_env or {})
        # time.monotonic() by which every execution must have ended (a run's time limit); None: no deadline.
        # Each execution's limit is cut to it, and the script learns its limit from AUTOMIND_TIME_LIMIT_S.
        self.deadline: float | None = None
        self.created: list[Path] = []  # workspaces made by this sandbox (for callers that clean up)
        self.env_allow: list[str] = list(task.spec.env) if task is not None else []
        self.source: Path | None = Path(inputs).expanduser().resolve() if inputs is not None else None
        if self.source is None and task is not None:
            self.source = task.public_dir
        private = task.private_dir if task is not None else None
        self._refuse_workdir(private)
        self.entries: list[InputEntry] = []
        if self.source is not None:
            if not self.source.is_dir():
                raise SandboxError(f"inputs {self.source}: not a folder. Pass the folder input/ should show.")
            root = task.root if task is not None else self.source
            try:
                self.entries = walk_inputs(
                    self.source, root, private or root / "private", allow_external=allow_external_symlinks
                )
            except TaskError as e:
                raise refused(e) from e
        self.isolation: Isolation = choose(isolation, network)
        escaping = [e for e in self.entries if e.escapes]
        self.input_mode: wsp.InputMode = "bind" if self.isolation.namespaces and not escaping else "copy"
        self.input_note = (
            f"inputs copied: {escaping[0].path} is a relative symlink out of the inputs folder"
            if self.isolation.namespaces and escaping
            else ""
        )

    def _refuse_workdir(self, private: Path | None) -> None:
        wd = str(self.workdir)
        for folder, what in ((private, "the task's private folder"), (self.source, "the inputs folder")):
            if folder is not None and _inside(wd, os.path.realpath(folder)):
                raise SandboxError(f"workdir {self.workdir} is inside {what} ({folder}); choose another")

    @classmethod
    def from_settings(
        cls, task: Task | str | Path | None, workdir: str | Path, settings: Settings, **kw: Any
    ) -> Sandbox:
        s = settings.sandbox
        kw.setdefault("timeout_s", s.timeout_s)
        kw.setdefault("memory_mb", s.memory_mb)
        kw.setdefault("disk_mb", s.disk_mb)
        kw.setdefault("threads", s.threads)
        kw.setdefault("allow_external_symlinks", s.allow_external_symlinks)
        kw.setdefault("isolation", s.isolation)
        kw.setdefault("network", s.network)
        return cls(task, workdir, head_chars=s.output_head_chars, tail_chars=s.output_tail_chars, **kw)

    @property
    def mechanism(self) -> str:
        """One line: how executions are contained (for results, `automind exec` and run fallbacks)."""
        return self.isolation.describe() + (f"; {self.input_note}" if self.input_note else "")

    # -- workspace --------------------------------------------------------------------------------------
    def new_workspace(self, prefix: str = "exec") -> tuple[Path, Path]:
        """Make `workdir/<prefix>-NNN` (input/, submission/, working/) and its bootstrap folder."""
        w = wsp.create(
            self.workdir,
            prefix,
            entries=self.entries,
            mode=self.input_mode,
            extra_inputs=self.extra_inputs,
            private=self.task.private_dir if self.task is not None else None,
        )
        self.created.append(w.path)
        return w.path, w.boot

    @staticmethod
    def remove(workspace: str | Path) -> None:
        """Delete a workspace and its bootstrap folder."""
        wsp.remove(workspace)

    def plan(self, ws: Path, boot: Path) -> dict[str, Any] | None:
        """The supervisor's namespace plan for this workspace (None without namespaces)."""
        if not self.isolation.namespaces:
            return None
        ws_real = os.path.realpath(ws)
        source = (
            os.path.realpath(self.source) if self.source is not None and self.input_mode == "bind" else None
        )
        inp = os.path.join(ws_real, "input")
        hide = [os.path.realpath(self.task.private_dir)] if self.task is not None else []
        # /run holds the host's unix sockets (docker, dbus, systemd): out of sight, out of reach
        hide += [p for p in ("/run",) if not _inside(ws_real, p) and not _inside(str(boot), p)]
        return {
            "network": not self.network,
            "writable": [ws_real, os.path.realpath(boot / "report")],
            "readonly": [[source or inp, inp]],
            "hide": [h for h in hide if os.path.isdir(h)],
            "shm_mb": self.memory_mb,
        }

    def limit(self, timeout_s: float | None = None) -> float:
        """Seconds the next execution may run: `timeout_s` (default: the sandbox's), cut to the deadline."""
        limit = self.timeout_s if timeout_s is None else float(timeout_s)
        if self.deadline is not None:
            limit = min(limit, max(0.1, self.deadline - time.monotonic()))
        return limit

    def launch(
        self,
        argv: list[str],
        ws: Path,
        boot: Path,
        pass_fds: tuple[int, ...] = (),
        limit_s: float | None = None,
    ) -> Launch:
        """Start `argv` contained; `limit_s` (the kill limit) is told to the child as AUTOMIND_TIME_LIMIT_S
        so a script can plan its own time (recipe scripts stay under 90 % of it)."""
        env = child_env(ws, boot / "guard.json", child_path("startup"), self.threads, allow=self.env_allow)
        env.update(self.script_env)
        if limit_s is not None:
            env["AUTOMIND_TIME_LIMIT_S"] = f"{limit_s:.1f}"
        return spawn(
            argv,
            ws,
            boot,
            env,
            memory_mb=self.memory_mb,
            isolation=self.plan(ws, boot),
            pass_fds=pass_fds,
        )

    # -- one script ---------------------------------------------------------------------------------------
    def run_script(self, code: str, name: str = "solution.py", timeout_s: float | None = None) -> ExecResult:
        """Write `code` to the workspace as `name` and run it with the sandbox's python."""
        ws, boot = self.new_workspace()
        (ws / name).write_text(code, encoding="utf-8")
        limit = self.limit(timeout_s)
        t0 = time.monotonic()
        run = self.launch([sys.executable, name], ws, boot, limit_s=limit)
        killed: Kill | None = None
        disk = DiskWatch(ws, self.disk_mb)
        waiter = ExitWaiter(run.proc.pid)
        try:
            while not waiter.wait(POLL_S):
                killed = limit_hit(run.tree.poll(), self.memory_mb, time.monotonic() - t0, limit, disk)
                if killed:
                    break
        finally:
            waiter.close()
            code_ = kill_and_reap(run.proc, run.tree)
            if killed == "disk":
                disk.free()
            run.out.close()
            run.err.close()
        wall = time.monotonic() - t0
        self.check_supervisor(code_, boot)
        exc = load_json(boot / "report" / "exception.json")
        maxrss = float(load_json(boot / "report" / "supervisor.json").get("maxrss_kb") or 0) / 1024
        return self.result(code_, killed, limit, wall, max(run.tree.peak_mb, maxrss), ws, boot, exc)

    def check_supervisor(self, code: int | None, boot: Path) -> None:
        """Fail closed: an execution whose containment could not be set up is an error, not a result."""
        if code != SUPERVISOR_FAILED:
            return
        error = load_json(boot / "report" / "supervisor.json").get("error")
        if error:
            raise SandboxError(f"the sandbox could not contain the execution ({self.mechanism}): {error}")

    def result(
        self,
        code: int | None,
        killed: Kill | None,
        limit: float,
        wall: float,
        peak: float,
        ws: Path,
        boot: Path,
        exc: dict[str, Any],
        out_offset: int = 0,
        err_offset: int = 0,
        violations_offset: int = 0,
    ) -> ExecResult:
        stdout = read_capture(boot / "stdout.txt", offset=out_offset)
        stderr = read_capture(boot / "stderr.txt", offset=err_offset)
        violations = read_capture(boot / "report" / "violations.log", offset=violations_offset).splitlines()
        inputs_read = sorted(set(read_capture(boot / "report" / "inputs_read.log").splitlines()) - {""})
        exc_type = exc.get("exc_type")
        status, message = self._ending(code, killed, limit, exc_type)
        return ExecResult(
            status=status,
            exit_code=code,
            stdout=stdout,
            stderr=stderr,
            exc_type=exc_type,
            traceback=exc.get("traceback"),
            wall_s=wall,
            peak_mem_mb=peak,
            workspace=ws,
            message=message,
            violations=violations,
            inputs_read=inputs_read,
            head_chars=self.head_chars,
            tail_chars=self.tail_chars,
            isolation=self.mechanism,
        )

    def _ending(
        self, code: int | None, killed: Kill | None, limit: float, exc_type: str | None
    ) -> tuple[Status, str]:
        if killed == "timeout":
            return "timeout", f"timed out after {limit:g} s; the process tree was killed"
        if killed == "disk":
            return "error", (
                f"wrote more than the disk limit of {self.disk_mb} MB into its working folder (sandbox.disk_mb); "
                "the process tree was killed and the large files it wrote were deleted to give the space back. "
                "Write less: no per-step files, no copies of the inputs"
            )
        if killed == "memory":
            return "memory", (
                f"exceeded the memory limit of {self.memory_mb} MB (the process tree's proportional set "
                "size); the process tree was killed"
            )
        if exc_type == "MemoryError":
            return "memory", f"MemoryError (memory limit {self.memory_mb} MB)"
        if code == 0:
            return "ok", ""
        if exc_type:
            return "error", f"exited with code {code} after an uncaught {exc_type}"
        if code is not None and code < 0:
            if -code == signal.SIGKILL:
                return "memory", "killed by SIGKILL (likely the system's out-of-memory killer)"
            sig = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
            return "error", f"killed by signal {sig}"
        return "error", f"exited with code {code}"

    # -- persistent interpreter ------------------------------------------------------------------------------
    def session(self) -> Session:
        from automind.sandbox.session import Session

        return Session(self)


def preflight(task: Task, settings: Settings) -> Isolation:
    """Check a run's inputs before it starts and say how its executions will be contained.

    Raises SandboxError naming every public symlink the sandbox would refuse, so a run fails before
    its first step instead of at it. The Isolation's `fallback` is the run's fallback line when the
    weaker mechanism (copies) is in force."""
    from automind.task import TaskError

    s = settings.sandbox
    try:
        task.public_files(allow_external=s.allow_external_symlinks)
    except TaskError as e:
        raise refused(e) from e
    return choose(s.isolation, s.network)
