"""`Session`: one persistent sandboxed interpreter for stepwise coding (cells share a namespace)."""

from __future__ import annotations

import contextlib
import json
import os
import select
import sys
import time
import weakref
from typing import TYPE_CHECKING, Any

from automind.sandbox.process import POLL_S, DiskWatch, Tree, child_path, exited, kill_and_reap, limit_hit
from automind.sandbox.result import ExecResult, Kill, file_size, load_json

if TYPE_CHECKING:
    import subprocess

    from automind.sandbox.core import Sandbox


def _finalize(proc: subprocess.Popen[bytes], tree: Tree, fds: list[int]) -> None:
    """Last resort (garbage collection or interpreter exit): nothing may outlive its session."""
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)
    with contextlib.suppress(Exception):  # best effort during shutdown
        kill_and_reap(proc, tree)


class Session:
    """A persistent Python interpreter in the sandbox: cells share one namespace, like a notebook.

    A cell that raises reports its traceback and the session keeps going. A cell that times out or
    exceeds the memory limit kills the whole session (state is lost); later cells return an error
    result until `restart()` starts a fresh interpreter in a fresh workspace. The interpreter dies with
    the thread that started it (the parent-death signal follows threads): keep that thread alive.
    """

    def __init__(self, sandbox: Sandbox):
        self.sandbox = sandbox
        self.cells = 0
        self._start()

    def _start(self) -> None:

        sb = self.sandbox
        self.workspace, self.boot = sb.new_workspace("session")
        cmd_r, cmd_w = os.pipe()
        res_r, res_w = os.pipe()
        argv = [sys.executable, str(child_path("session_runner.py")), str(cmd_r), str(res_w)]
        try:
            run = sb.launch(argv, self.workspace, self.boot, pass_fds=(cmd_r, res_w), limit_s=sb.limit())
        finally:
            os.close(cmd_r)
            os.close(res_w)
        self.proc, self.tree, self._out, self._err = run.proc, run.tree, run.out, run.err
        self._cmd, self._res = cmd_w, res_r
        self._buf = b""
        self.dead_reason: str | None = None
        self._finalizer = weakref.finalize(self, _finalize, self.proc, self.tree, [cmd_w, res_r])

    @property
    def alive(self) -> bool:
        return self.dead_reason is None

    def _send(self, code: str) -> None:
        data = code.encode("utf-8")
        try:
            os.write(self._cmd, f"{len(data)}\n".encode())
            view = memoryview(data)
            while view:
                n = os.write(self._cmd, view[:65536])
                view = view[n:]
        except BrokenPipeError:
            pass  # the interpreter is gone; the read loop below reports how it ended

    def _closed_result(self) -> ExecResult:
        sb = self.sandbox
        return ExecResult("error", None, "", "", "SessionClosed", None, 0.0, 0.0, self.workspace,
                          f"the session is closed ({self.dead_reason}); call restart() for a fresh one",
                          head_chars=sb.head_chars, tail_chars=sb.tail_chars,
                          isolation=sb.mechanism)  # fmt: skip

    def run(self, code: str, timeout_s: float | None = None) -> ExecResult:
        sb = self.sandbox
        limit = sb.limit(timeout_s)
        if not self.alive:
            return self._closed_result()
        report = self.boot / "report"
        offsets = [
            file_size(p)
            for p in (self.boot / "stdout.txt", self.boot / "stderr.txt", report / "violations.log")
        ]
        self.cells += 1
        t0 = time.monotonic()
        self.tree.peak_mb = 0.0
        killed: Kill | None = None
        disk = DiskWatch(self.workspace, sb.disk_mb)
        reply: dict[str, Any] | None = None
        self._send(code)
        while reply is None:
            ready, _, _ = select.select([self._res], [], [], POLL_S)
            if ready:
                chunk = os.read(self._res, 65536)
                if not chunk:
                    break  # the interpreter died (os._exit, segfault, ...)
                self._buf += chunk
                if b"\n" in self._buf:
                    line, self._buf = self._buf.split(b"\n", 1)
                    reply = json.loads(line)
                    break
            killed = limit_hit(self.tree.poll(), sb.memory_mb, time.monotonic() - t0, limit, disk)
            if killed:
                break
        wall = time.monotonic() - t0
        code_: int | None
        if reply is not None:
            code_ = int(reply.get("exit_code") or 0)
            exc = {k: reply.get(k) for k in ("exc_type", "traceback")}
        else:
            code_ = kill_and_reap(self.proc, self.tree)
            if killed == "disk":
                disk.free()
            sb.check_supervisor(code_, self.boot)
            exc = load_json(report / "exception.json")
            self.dead_reason = killed or f"the interpreter exited with code {code_}"
            self._close_fds()
        self._out.flush()
        res = sb.result(
            code_, killed, limit, wall, self.tree.peak_mb, self.workspace, self.boot, exc, *offsets
        )
        if reply is None and killed is None:
            if res.status == "ok":
                res.status = "error"
            res.message = (
                f"{res.message or 'exited'}; the interpreter ended during the cell, so the session is closed"
            )
        return res

    def _close_fds(self) -> None:
        for fd in (self._cmd, self._res):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._cmd = self._res = -1

    def close(self) -> None:
        """End the interpreter (EOF on its command pipe, then the tree kill) and close capture files."""
        if self._cmd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._cmd)
            self._cmd = -1
            deadline = time.monotonic() + 2
            while not exited(self.proc.pid) and time.monotonic() < deadline:
                time.sleep(0.02)
        kill_and_reap(self.proc, self.tree)
        self._close_fds()
        self._out.close()
        self._err.close()
        self.dead_reason = self.dead_reason or "closed"
        self._finalizer.detach()

    def restart(self) -> None:
        """Close this interpreter and start a fresh one in a new workspace (all state is lost)."""
        self.close()
        self._start()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
