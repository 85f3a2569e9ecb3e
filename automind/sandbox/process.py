"""Process control: start the supervisor, watch the tree's memory and time, kill the whole tree.

The parent (automind) starts `child/supervisor.py`, which runs the script and dies with automind (see its
docstring). The parent polls the tree every POLL_S: memory is the sum over the script's processes of
their resident size, with shared pages counted once (proportional set size) when there are several
processes, so forked workers sharing one numpy array are not counted N times. When an execution ends,
for any reason, the parent kills the process group, every descendant seen while polling, and every
process still carrying the execution's marker variable.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import stat
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import IO, Any

from automind.cpuload import charge_killed
from automind.sandbox.env import MARKER_VAR
from automind.sandbox.errors import SandboxError
from automind.sandbox.result import Kill

POLL_S = 0.1
DISK_EVERY_S = 1.0  # a walk of the workspace costs more than a memory poll
SUPERVISOR_FAILED = 125  # the supervisor's own failure (see child/supervisor.py)


def limit_hit(
    mem_mb: float, memory_mb: float | None, elapsed_s: float, limit_s: float, disk: DiskWatch | None = None
) -> Kill | None:
    """Which limit an execution has crossed, if any: memory is checked first, as the kill reason matters."""
    if memory_mb and mem_mb > memory_mb:
        return "memory"
    if disk is not None and disk.over():
        return "disk"
    if elapsed_s > limit_s:
        return "timeout"
    return None


def _walk(root: Path, skip: frozenset[str]) -> Iterator[tuple[os.DirEntry[str], os.stat_result]]:
    """Every entry under `root` with its own stat (links not followed), leaving out the top-level names in
    `skip`: input/ is read-only to the script (a mount, or copies made before it started) and can be big."""
    stack, top = [root], True
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                for entry in it:
                    if top and entry.name in skip:
                        continue
                    with contextlib.suppress(OSError):  # a file removed while we walk
                        st = entry.stat(follow_symlinks=False)
                        if entry.is_dir(follow_symlinks=False):
                            stack.append(Path(entry.path))
                        yield entry, st
        except OSError:
            pass
        top = False


def tree_bytes(root: Path, skip: frozenset[str] = frozenset({"input"})) -> int:
    """Disk blocks in use under `root`, input/ left out."""
    return sum(st.st_blocks * 512 for _, st in _walk(root, skip))


def disk_cap_mb(workdir: Path, disk_mb: int | None) -> int | None:
    """The disk limit of one execution: `disk_mb` when set (0: none), else half the space free where the
    workspaces go when the sandbox is made, so one runaway script leaves the disk half free."""
    import shutil

    if disk_mb is not None:
        return int(disk_mb) or None
    probe = workdir
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:
        return max(1, shutil.disk_usage(probe).free // 2**21)
    except OSError:
        return None


class DiskWatch:
    """How much an execution has written into its workspace, looked at every DISK_EVERY_S: generated code
    that writes without end (a log in a loop, a checkpoint per step) is stopped before it fills the disk."""

    def __init__(self, workspace: Path, cap_mb: int | None):
        self.workspace, self.cap_mb = workspace, cap_mb
        self.base = tree_bytes(workspace) if cap_mb else 0
        self.due = time.monotonic() + DISK_EVERY_S
        self.started = time.time() - 1  # mtimes are wall-clock; a second of slack for coarse timestamps
        self.written_mb = 0.0

    def over(self) -> bool:
        if not self.cap_mb or time.monotonic() < self.due:
            return False
        self.due = time.monotonic() + DISK_EVERY_S
        self.written_mb = max(0, tree_bytes(self.workspace) - self.base) / 2**20
        return self.written_mb > self.cap_mb

    def free(self, min_bytes: int = 1 << 20) -> float:
        """After a kill: delete the files of at least `min_bytes` written since the start, so the space goes
        back to the user (the next execution starts from a disk as free as before); MB removed."""
        removed = 0
        for entry, st in list(_walk(self.workspace, frozenset({"input"}))):
            if stat.S_ISREG(st.st_mode) and st.st_size >= min_bytes and st.st_mtime >= self.started:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
                    removed += st.st_blocks * 512
        return removed / 2**20


def address_space_cap(memory_mb: int | None) -> int | None:
    """RLIMIT_AS backstop: imports reserve far more virtual memory than they touch, so it is generous."""
    return max(2 * memory_mb, memory_mb + 4096) * 2**20 if memory_mb else None


def pss_bytes(pid: int) -> int | None:
    """Proportional set size: each shared page divided among the processes mapping it."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


class Tree:
    """Watches the supervisor's process tree: memory, descendants, and the final kill."""

    def __init__(self, pid: int, marker: str, started: float):
        import psutil

        self.psutil = psutil
        self.pid = pid
        self.marker = marker
        self.started = started
        self.known: dict[int, Any] = {}
        self.peak_mb = 0.0
        try:
            self.root: Any = psutil.Process(pid)
            self.known[pid] = self.root
        except psutil.Error:
            self.root = None

    def poll(self) -> float:
        """Memory of the script's processes in MB (the supervisor excluded); remembers every descendant."""
        ps = self.psutil
        if self.root is None:
            return 0.0
        try:
            procs = self.root.children(recursive=True)
        except ps.Error:
            procs = [p for pid, p in self.known.items() if pid != self.pid]
        rss: dict[int, int] = {}
        for p in procs:
            self.known.setdefault(p.pid, p)
            with contextlib.suppress(ps.Error):
                rss[p.pid] = p.memory_info().rss
        total = sum(rss.values())
        if len(rss) > 1:  # shared pages would count once per process: use each one's share instead
            total = sum(self._share(pid, r) for pid, r in rss.items())
        mb = total / 2**20
        self.peak_mb = max(self.peak_mb, mb)
        return mb

    def _share(self, pid: int, rss: int) -> int:
        """A process's proportional set size; when its smaps cannot be read, 0 for a process that is exiting
        (its pages are being unmapped: counting its whole RSS would count shared pages again and kill a
        tree of forked workers as they finish), else its RSS read again now, never more than the `rss` read
        before (the safe side). An exiting worker can still show as running after letting go of its memory
        map; its RSS then reads 0, where the one read a moment earlier held the pages it shared."""
        pss = pss_bytes(pid)
        if pss is not None:
            return pss
        ps = self.psutil
        try:
            proc = self.known[pid]
            if proc.status() in (ps.STATUS_ZOMBIE, ps.STATUS_DEAD):
                return 0
            return min(rss, int(proc.memory_info().rss))
        except (ps.Error, KeyError):
            return 0

    def _marked(self) -> list[Any]:
        """Processes started since this execution began that still carry its marker variable."""
        ps, found = self.psutil, []
        for p in ps.process_iter(["create_time"]):
            try:
                if p.pid == os.getpid() or (p.info["create_time"] or 0) < self.started - 2:
                    continue
                if p.environ().get(MARKER_VAR) == self.marker:
                    found.append(p)
            except ps.Error:
                continue
        return found

    def cpu_s(self, supervisor: bool) -> float:
        """CPU seconds, their reaped children's included, of the supervisor or of the descendants not reaped
        yet (running, or zombies)."""
        total = 0.0
        for pid, p in self.known.items():
            if (pid == self.pid) != supervisor:
                continue
            with contextlib.suppress(self.psutil.Error):
                if p.is_running():  # False once reaped, or when its pid now names another process
                    t = p.cpu_times()
                    total += t.user + t.system + t.children_user + t.children_system
        return total

    def kill_all(self) -> None:
        ps = self.psutil
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        for _ in range(3):
            targets = list(self.known.values()) + self._marked()
            alive = []
            for p in targets:
                try:
                    if p.is_running() and p.status() != ps.STATUS_ZOMBIE:
                        p.kill()
                        alive.append(p)
                except ps.Error:
                    pass
            if not alive:
                break
            ps.wait_procs(alive, timeout=1)


def exited(pid: int) -> bool:
    """Has the child exited? Leaves it unreaped (a zombie keeps its pid and group id valid for the kill)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


class ExitWaiter:
    """Sleep until the child exits or a timeout passes: a pidfd wakes at once (Linux), else short naps."""

    def __init__(self, pid: int):
        self.pid = pid
        self.poll = select.poll()  # not select(): it refuses descriptors above 1023
        try:
            self.fd: int | None = os.pidfd_open(pid)
            self.poll.register(self.fd, select.POLLIN)
        except (AttributeError, OSError):
            self.fd = None

    def wait(self, timeout: float) -> bool:
        if self.fd is not None:
            return bool(self.poll.poll(timeout * 1000)) or exited(self.pid)
        deadline = time.monotonic() + timeout
        while not exited(self.pid):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _reaped_cpu_s() -> float:
    t = os.times()
    return t.children_user + t.children_system


def kill_and_reap(proc: subprocess.Popen[bytes], tree: Tree) -> int:
    """Kill the whole tree, then reap the supervisor: its exit code (negative: the killing signal).

    A descendant killed with the supervisor is reaped by no parent of ours, so the kernel never adds its
    CPU time to automind's; one the supervisor still reaps as it dies is added with the supervisor's. What
    reaping the supervisor brings in beyond its own count is the part that arrived: the rest is charged to
    the run (automind.cpuload), or a timed-out script would read as other programs' load."""
    before, held, own = _reaped_cpu_s(), tree.cpu_s(supervisor=False), tree.cpu_s(supervisor=True)
    tree.kill_all()
    if proc.returncode is None:
        try:
            _, status = os.waitpid(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
        except ChildProcessError:
            proc.returncode = -9
    arrived = max(0.0, _reaped_cpu_s() - before - own)
    charge_killed(max(0.0, held - arrived))
    return proc.returncode


@dataclass
class Launch:
    """A started execution: the supervisor process, its tree watcher and the capture files."""

    proc: subprocess.Popen[bytes]
    tree: Tree
    out: IO[bytes]
    err: IO[bytes]


def spawn(
    argv: list[str],
    workspace: Path,
    boot: Path,
    env: dict[str, str],
    *,
    memory_mb: int | None,
    isolation: dict[str, Any] | None,
    pass_fds: tuple[int, ...] = (),
) -> Launch:
    """Start the supervisor for `argv` (cwd: the workspace; stdout/stderr captured in `boot`)."""
    marker = uuid.uuid4().hex
    config = {
        "parent_pid": os.getpid(),
        "argv": argv,
        "env": env | {MARKER_VAR: marker},
        "cwd": str(workspace),
        "pass_fds": list(pass_fds),
        "limits": {"address_space": address_space_cap(memory_mb)},
        "report": str(boot / "report" / "supervisor.json"),
        "isolation": isolation,
    }
    cfg_path = boot / "supervisor.json"
    cfg_path.write_text(json.dumps(config), encoding="utf-8")
    out = open(boot / "stdout.txt", "wb")  # noqa: SIM115 - closed by the caller
    err = open(boot / "stderr.txt", "wb")  # noqa: SIM115
    started = time.time()
    # The supervisor itself runs unguarded, with just enough environment to import this package; the
    # script gets `env` from the config.
    root = str(Path(__file__).resolve().parents[2])
    own_env = {
        "PATH": env.get("PATH", os.defpath),
        "PYTHONPATH": root,
        "PYTHONNOUSERSITE": "1",
        MARKER_VAR: marker,
    }
    proc = subprocess.Popen(
        [sys.executable, "-S", "-m", "automind.sandbox.child.supervisor", str(cfg_path)],
        cwd=workspace,
        env=own_env,
        stdin=subprocess.DEVNULL,
        stdout=out,
        stderr=err,
        start_new_session=True,
        pass_fds=pass_fds,
    )
    return Launch(proc, Tree(proc.pid, marker, started), out, err)


def child_path(*parts: str) -> Path:
    """A file or folder of automind.sandbox.child on disk (the child runs it by path)."""
    found = resources.files("automind.sandbox.child").joinpath(*parts)
    if not isinstance(found, Path):
        raise SandboxError(f"automind must be installed as files to run the sandbox (found {found!r})")
    return found
