"""The process automind starts for every execution: it runs the script and takes its whole tree down.

usage: python -S -m automind.sandbox.child.supervisor CONFIG.json   (PYTHONPATH: automind's parent)
       python -S -m automind.sandbox.child.supervisor --probe SCRATCH_DIR network|host

Why a separate process: a script (or anything it starts) must never outlive automind, even when automind
is killed with SIGKILL and cannot clean up. The supervisor
- asks the kernel for a signal when automind dies (PR_SET_PDEATHSIG) and then kills every descendant;
- is a child subreaper (PR_SET_CHILD_SUBREAPER): processes that detach with setsid() and double forks
  are re-parented to it instead of init, so "every descendant" really is every one;
- enters the namespaces of `namespaces.py` when the config asks for them (read-only filesystem outside
  the workspace, private network), sets the resource limits, and execs the script in a forked child;
- when the script ends, kills what it left running and exits with the script's status (re-raising the
  signal that killed it), so automind reads the script's fate from the supervisor's.
A failure of the supervisor itself is written to the config's `report` file and ends with exit code 125.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import signal
import sys
import time

from automind.sandbox.child import namespaces

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
SUPERVISOR_FAILED = 125
_libc: Any = None


def _prctl(option: int, value: int) -> None:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    if _libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"prctl({option}): {os.strerror(err)}")


def descendants(root: int) -> list[int]:
    """Every live process below `root`, read from /proc (children before grandchildren)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1 and fields[0] != b"Z":
            children.setdefault(int(fields[1]), []).append(int(name))
    found, queue = [], [root]
    while queue:
        kids = children.get(queue.pop(0), [])
        found.extend(kids)
        queue.extend(kids)
    return found


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def kill_tree(rounds: int = 50) -> None:
    """SIGKILL every descendant until none is left (orphans re-parent here, so repeat)."""
    me = os.getpid()
    for _ in range(rounds):
        pids = descendants(me)
        if not pids:
            return
        for pid in pids:
            try:  # noqa: SIM105 - contextlib costs this short-lived process a noticeable import
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.005)
        _reap()


def _on_signal(signum: int, _frame: object) -> None:
    kill_tree()
    os._exit(128 + signum)


def _run_child(cfg: dict[str, Any], isolated: bool) -> NoReturn:
    """In the forked child: die with the supervisor, limits, no privileges, then exec the script."""
    try:
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != cfg["_supervisor"]:
            os._exit(SUPERVISOR_FAILED)
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGPIPE, signal.SIGXFSZ):
            signal.signal(sig, signal.SIG_DFL)
        limits = cfg.get("limits") or {}
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if limits.get("address_space"):
            cap = int(limits["address_space"])
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        if isolated:
            namespaces.drop_privileges()
        argv = [str(a) for a in cfg["argv"]]
        os.execve(argv[0], argv, {str(k): str(v) for k, v in cfg["env"].items()})
    except BaseException as e:  # noqa: BLE001 - nothing may escape a forked child
        try:
            os.write(2, f"automind sandbox: could not start {cfg.get('argv')}: {e}\n".encode())
        finally:
            os._exit(SUPERVISOR_FAILED)


def _report(path: str | None, data: dict[str, Any]) -> None:
    if not path:
        return
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)
    except OSError:
        pass


def supervise(cfg: dict[str, Any]) -> NoReturn:
    _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, _on_signal)
    if os.getppid() != int(cfg["parent_pid"]):
        os._exit(SUPERVISOR_FAILED)  # automind died before we could watch it
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    notes: list[str] = []
    plan = cfg.get("isolation")
    t0 = time.monotonic()
    try:
        if plan is not None:
            notes = namespaces.enter(namespaces.Plan.from_dict(plan))
            _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)  # kept across unshare, set again to be sure
        os.chdir(cfg["cwd"])  # re-enter the workspace through its new (writable) mount
    except (namespaces.IsolationError, OSError) as e:
        _report(cfg.get("report"), {"error": str(e)})
        os.write(2, f"automind sandbox: isolation failed: {e}\n".encode())
        os._exit(SUPERVISOR_FAILED)
    setup_ms = round((time.monotonic() - t0) * 1000, 2)
    cfg["_supervisor"] = os.getpid()
    child = os.fork()
    if child == 0:
        _run_child(cfg, plan is not None)
    for fd in cfg.get("pass_fds") or []:
        try:  # noqa: SIM105 - see kill_tree
            os.close(int(fd))  # only the script holds the session's pipes: its death is seen as EOF
        except OSError:
            pass
    while True:
        try:
            pid, status, usage = os.wait4(-1, 0)
        except ChildProcessError:
            os._exit(SUPERVISOR_FAILED)
        if pid == child:
            break
    kill_tree()
    # the script's own peak (the supervisor's would include automind's, inherited through fork)
    _report(cfg.get("report"), {"notes": notes, "maxrss_kb": usage.ru_maxrss, "setup_ms": setup_ms})
    if os.WIFSIGNALED(status):
        killer = os.WTERMSIG(status)
        signal.signal(killer, signal.SIG_DFL)
        os.kill(os.getpid(), killer)
        os._exit(128 + killer)
    os._exit(os.waitstatus_to_exitcode(status))


def probe(scratch: str, network: bool) -> dict[str, Any]:
    """Try the isolation on a scratch folder in a throwaway process; report what holds."""
    work = os.path.join(scratch, "work")
    outside = os.path.join(scratch, "outside")
    os.makedirs(work, exist_ok=True)
    os.makedirs(outside, exist_ok=True)
    result: dict[str, Any] = {"ok": False, "notes": []}
    try:
        result["notes"] = namespaces.enter(namespaces.Plan(network=network, writable=[work]))
    except (namespaces.IsolationError, OSError) as e:
        result["error"] = str(e)
        return result
    try:
        with open(os.path.join(work, "w"), "w") as f:
            f.write("ok")
    except OSError as e:
        result["error"] = f"the workspace is not writable inside the namespace: {e}"
        return result
    try:
        with open(os.path.join(outside, "w"), "w") as f:
            f.write("leak")
        result["error"] = "a folder outside the workspace stayed writable"
        return result
    except OSError:
        pass
    result["ok"] = True
    return result


def main(argv: list[str]) -> None:
    if len(argv) == 3 and argv[0] == "--probe":
        print(json.dumps(probe(argv[1], network=argv[2] == "network")), flush=True)
        return
    if len(argv) != 1:
        sys.exit("usage: supervisor CONFIG.json | --probe SCRATCH network|host")
    with open(argv[0], encoding="utf-8") as f:
        supervise(json.load(f))


if __name__ == "__main__":
    main(sys.argv[1:])
