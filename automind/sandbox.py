"""Run generated code in a disposable workspace with a time limit, a memory limit and a clean exit.

Each execution gets a fresh workspace under `workdir`: `input/` (the task's public files, hardlinked
or copied, read-only), `submission/`, `working/`; the code runs with the workspace as cwd.

What is guaranteed (enforced outside the child, so generated code cannot undo it):
- the workspace never contains or links the private answers; files that resolve into `private/` are skipped;
- the environment is scrubbed of secrets (names containing KEY/TOKEN/SECRET/PASSWORD/CREDENTIAL and
  KAGGLE_*/OPENAI_*/AUTOMIND_*), HOME and TMPDIR point into the workspace, BLAS/OpenMP/torch threads are capped;
- wall-clock timeout and memory limit (tree RSS polled every 0.1 s; RLIMIT_AS as a generous backstop);
- when an execution ends for any reason, its whole process tree dies: the process group, every descendant
  seen while polling, and every process still carrying the execution's marker variable (so a child that
  called setsid() and double-forked is found too). Nothing is left running, also after a successful run.

What is only a guard against buggy code, NOT a security boundary: a generated `sitecustomize.py` (kept
outside the workspace, found via PYTHONPATH, so child Python processes inherit it) installs an audit hook
that refuses to open files for writing outside the workspace, to write into `input/`, to touch the task's
private directory, and to remove/rename/mkdir outside the workspace. Native code (ctypes, C extensions, a
shell command) can bypass audit hooks, and running as root ignores the 0444/0555 modes. Run untrusted code
from hostile sources in a container or VM; this module keeps honest-but-buggy generated code contained.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
import uuid
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from automind.config import Settings
    from automind.task import Task

Status = Literal["ok", "error", "timeout", "memory"]
SECRET_WORDS = ("KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL")
SECRET_PREFIXES = ("KAGGLE_", "OPENAI_", "AUTOMIND_", "ANTHROPIC_", "AWS_", "HF_", "HUGGING")
# Variables that would change which code the child runs; we set our own.
DROPPED_VARS = (
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONSTARTUP",
    "PYTHONSAFEPATH",
    "PYTHONINSPECT",
    "PYTHONUSERBASE",
)
THREAD_VARS = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMEXPR_MAX_THREADS",
    "NUMEXPR_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "BLIS_NUM_THREADS",
    "TORCH_NUM_THREADS",
    "RAYON_NUM_THREADS",
    "POLARS_MAX_THREADS",
)
MARKER_VAR = "SANDBOX_RUN_ID"
POLL_S = 0.1


def _limit_hit(rss_mb: float, memory_mb: float | None, elapsed_s: float, limit_s: float) -> Status | None:
    """Which limit an execution has crossed, if any: memory is checked first, as the kill reason matters."""
    if memory_mb and rss_mb > memory_mb:
        return "memory"
    if elapsed_s > limit_s:
        return "timeout"
    return None


class SandboxError(RuntimeError):
    """The sandbox itself could not be set up (bad workdir, unreadable task files)."""


@dataclass
class ExecResult:
    status: Status
    exit_code: int | None
    stdout: str
    stderr: str
    exc_type: str | None
    traceback: str | None
    wall_s: float
    peak_mem_mb: float
    workspace: Path
    message: str = ""  # one line saying why it ended, e.g. "timed out after 5 s; process tree killed"
    violations: list[str] = field(
        default_factory=list
    )  # what the guard refused (writes outside, private reads)
    head_chars: int = 4000
    tail_chars: int = 6000

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def submission_path(self) -> Path:
        return self.workspace / "submission" / "submission.csv"

    @property
    def output(self) -> str:
        """stdout, stderr and the ending in one text, middle cut out when long (for prompts)."""
        parts = [self.stdout.rstrip("\n")]
        if self.stderr.strip():
            parts.append("[stderr]\n" + self.stderr.rstrip("\n"))
        if self.violations:
            parts.append("[sandbox refused]\n" + "\n".join(self.violations[:20]))
        if not self.ok and self.message:
            parts.append(f"[{self.status}] {self.message}")
        return truncate("\n".join(p for p in parts if p), self.head_chars, self.tail_chars)

    def to_dict(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in ("status", "exit_code", "exc_type", "traceback", "message")}
        d.update(wall_s=round(self.wall_s, 3), peak_mem_mb=round(self.peak_mem_mb, 1))
        d.update(workspace=str(self.workspace), violations=self.violations, output=self.output)
        return d


def truncate(text: str, head: int, tail: int) -> str:
    if len(text) <= head + tail + 100:
        return text
    cut = len(text) - head - tail
    return f"{text[:head]}\n... [{cut} characters cut] ...\n{text[-tail:]}"


def scrub_env(environ: dict[str, str]) -> dict[str, str]:
    """Drop secrets and variables that would redirect Python; keep the rest (PATH, LANG, venv...)."""
    out = {}
    for name, value in environ.items():
        upper = name.upper()
        if (
            any(w in upper for w in SECRET_WORDS)
            or upper.startswith(SECRET_PREFIXES)
            or upper in DROPPED_VARS
        ):
            continue
        out[name] = value
    return out


# ---------------------------------------------------------------------------------------------- bootstrap
# The child-side code is written into a per-execution bootstrap folder outside the workspace. Its
# configuration (paths) is baked in as a literal, never passed through the environment.

_SITECUSTOMIZE = r"""
import os, sys, threading
def _install(C):
    P = os.path
    sep = os.sep
    realpath, getcwd, fspath = P.realpath, os.getcwd, os.fspath
    ws, inp, private = C["workspace"], C["input"], C["private"]
    writable_extra = tuple(C["writable_extra"])
    fast_read = tuple(C["fast_read"])
    busy = threading.local()
    WFLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC

    def under(p, root):
        return p == root or p.startswith(root + sep)

    def resolve(p):
        if p is None or isinstance(p, int):
            return None
        try:
            p = fspath(p)
        except TypeError:
            return None
        if isinstance(p, bytes):
            p = os.fsdecode(p)
        if not isinstance(p, str) or not p:
            return None
        if not P.isabs(p):
            p = P.join(getcwd(), p)
        return realpath(p)

    def is_private(p):
        return private is not None and p is not None and under(p, private)

    def can_write(p):
        if p is None:
            return True
        if p in writable_extra or p.startswith("/dev/shm/") or p.startswith("/proc/self/"):
            return True
        return under(p, ws) and not under(p, inp)

    def deny(event, path, why):
        try:
            fd = os.open(C["violations"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            os.write(fd, (f"{event}: {why}: {path}\n").encode("utf-8", "replace"))
            os.close(fd)
        except OSError:
            pass
        raise PermissionError(f"automind sandbox: {why}: {path}")

    def check_open(args):
        path, mode, flags = (list(args) + [None, None, None])[:3]
        if path is None or isinstance(path, int):
            return
        write = any(c in mode for c in "wax+") if isinstance(mode, str) else bool((flags or 0) & WFLAGS)
        if not write and isinstance(path, str) and path.startswith(fast_read) and "/.." not in path:
            return
        real = resolve(path)
        if is_private(real):
            deny("open", path, "the task's private files are not accessible")
        if write and not can_write(real):
            where = "input/ is read-only" if real and under(real, inp) else "writing outside the workspace is not allowed"
            deny("open", path, where)

    def paths_in(args):
        for a in args:
            if isinstance(a, (str, bytes, os.PathLike)):
                yield a
            elif isinstance(a, (list, tuple)):
                for b in a:
                    if isinstance(b, (str, bytes, os.PathLike)):
                        yield b

    def mentions_private(text):
        if private is None:
            return False
        if isinstance(text, bytes):
            text = os.fsdecode(text)
        text = fspath(text)
        if private in text:
            return True
        for tok in text.split():
            if "private" in tok and is_private(resolve(tok.strip("'\""))):
                return True
        return False

    MODIFY = {"os.remove", "os.rmdir", "os.mkdir", "os.chmod", "os.chown", "os.truncate", "os.utime",
              "os.rename", "shutil.rmtree", "shutil.move", "os.setxattr", "os.removexattr", "os.chflags"}
    COPY = {"os.link", "os.symlink", "shutil.copyfile", "shutil.copymode", "shutil.copystat", "shutil.copytree"}
    READ = {"os.listdir", "os.scandir", "os.chdir", "glob.glob", "glob.glob/2", "os.fwalk", "shutil.make_archive"}
    SPAWN = {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "pty.spawn"}

    def hook(event, args):
        if event == "open":
            if getattr(busy, "on", False):
                return
            busy.on = True
            try:
                check_open(args)
            finally:
                busy.on = False
            return
        if event not in MODIFY and event not in COPY and event not in READ and event not in SPAWN:
            return
        if getattr(busy, "on", False):
            return
        busy.on = True
        try:
            if event in SPAWN:
                for a in paths_in(args):
                    if mentions_private(a):
                        deny(event, a, "the task's private files are not accessible")
                return
            found = [(a, resolve(a)) for a in paths_in(args)]
            for raw, real in found:
                if is_private(real):
                    deny(event, raw, "the task's private files are not accessible")
            if event in MODIFY:
                for raw, real in found:
                    if not can_write(real):
                        deny(event, raw, "changing files outside the workspace is not allowed")
            elif event in COPY and found:
                raw, real = found[1] if len(found) > 1 else found[0]
                if not can_write(real):
                    deny(event, raw, "writing outside the workspace is not allowed")
        finally:
            busy.on = False

    sys.addaudithook(hook)

    # The first sandboxed interpreter records uncaught exceptions as JSON for the parent.
    if os.environ.get("SANDBOX_ROOT_PID") is None:
        os.environ["SANDBOX_ROOT_PID"] = str(os.getpid())
    if os.environ["SANDBOX_ROOT_PID"] == str(os.getpid()):
        previous = sys.excepthook

        def excepthook(tp, value, tb):
            import json, traceback
            busy.on = True
            try:
                with open(C["exc_json"], "w", encoding="utf-8") as f:
                    json.dump({"exc_type": tp.__name__, "message": str(value)[:2000],
                               "traceback": "".join(traceback.format_exception(tp, value, tb))[-20000:]}, f)
            except Exception:
                pass
            finally:
                busy.on = False
            previous(tp, value, tb)

        sys.excepthook = excepthook

_install(CONFIG)
del _install
"""

_SESSION_RUNNER = r'''
"""Persistent interpreter: reads length-prefixed cells from a pipe, runs them in one namespace."""
import json, linecache, os, sys, traceback
cmd = os.fdopen(int(sys.argv[1]), "rb")
res = os.fdopen(int(sys.argv[2]), "wb", buffering=0)
sys.argv = ["session"]
sys.stdin = open(os.devnull)
ns = {"__name__": "__main__", "__builtins__": __builtins__}
n = 0
while True:
    header = cmd.readline()
    if not header:
        break
    code = cmd.read(int(header)).decode("utf-8")
    n += 1
    name = f"<cell {n}>"
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)
    out = {"exit_code": 0, "exc_type": None, "traceback": None}
    try:
        exec(compile(code, name, "exec"), ns)
    except SystemExit as e:
        c = e.code
        out["exit_code"] = c if isinstance(c, int) else (0 if c is None else 1)
        if out["exit_code"]:
            out["exc_type"] = "SystemExit"
    except BaseException as e:
        tb = e.__traceback__.tb_next if e.__traceback__ is not None else None
        text = "".join(traceback.format_exception(type(e), e, tb))
        sys.stderr.write(text)
        out.update(exit_code=1, exc_type=type(e).__name__, traceback=text[-20000:])
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:
            pass
    res.write((json.dumps(out) + "\n").encode())
'''


def _write_bootstrap(boot: Path, workspace: Path, private: Path | None) -> dict[str, str]:
    boot.mkdir(parents=True, exist_ok=True)
    private_real = os.path.realpath(private) if private is not None else None
    fast = [
        p
        for p in {sys.prefix, sys.base_prefix, sys.exec_prefix, "/usr/", "/proc/", "/sys/", "/etc/", "/dev/"}
    ]
    fast = sorted(
        {p.rstrip("/") + "/" for p in fast if not (private_real and private_real.startswith(p.rstrip("/")))}
    )
    config = {
        "workspace": os.path.realpath(workspace),
        "input": os.path.realpath(workspace / "input"),
        "private": private_real,
        "writable_extra": ["/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/full"],
        "fast_read": fast,
        "violations": str(boot / "violations.log"),
        "exc_json": str(boot / "exception.json"),
    }
    (boot / "sitecustomize.py").write_text(f"CONFIG = {config!r}\n{_SITECUSTOMIZE}", encoding="utf-8")
    (boot / "session_runner.py").write_text(_SESSION_RUNNER, encoding="utf-8")
    return config


# ---------------------------------------------------------------------------------------------- process tree


def _set_limits(pid: int, memory_mb: int | None) -> None:
    """Set on the fresh child from outside (no preexec_fn: unsafe with threads, and slower to spawn).

    RLIMIT_AS is a backstop only: imports reserve much more virtual memory than they touch, so the cap is
    generous and the real limit is the polled tree RSS."""
    import resource

    try:
        resource.prlimit(pid, resource.RLIMIT_CORE, (0, 0))
        if memory_mb:
            cap = max(2 * memory_mb, memory_mb + 4096) * 2**20
            resource.prlimit(pid, resource.RLIMIT_AS, (cap, cap))
    except (ProcessLookupError, PermissionError, OSError):
        pass  # already gone, or limits not settable here: the RSS watch still applies


class _Tree:
    """Watches a child's process tree: memory, descendants, and the final kill."""

    def __init__(self, pid: int, marker: str, started: float):
        import psutil

        self.psutil = psutil
        self.pid = pid
        self.marker = marker
        self.started = started
        self.known: dict[int, Any] = {}
        self.peak_mb = 0.0
        try:
            self.root = psutil.Process(pid)
            self.known[pid] = self.root
        except psutil.Error:
            self.root = None

    def poll(self) -> float:
        """Current RSS of the tree in MB (remembers every descendant for the final kill)."""
        ps = self.psutil
        if self.root is None:
            return 0.0
        try:
            procs = [self.root, *self.root.children(recursive=True)]
        except ps.Error:
            procs = list(self.known.values())
        total = 0
        for p in procs:
            self.known.setdefault(p.pid, p)
            with contextlib.suppress(ps.Error):
                total += p.memory_info().rss
        mb = total / 2**20
        self.peak_mb = max(self.peak_mb, mb)
        return mb

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


def _exited(pid: int) -> bool:
    """Has the child exited? Leaves it unreaped (a zombie keeps its pid and group id valid for the kill)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


class _ExitWaiter:
    """Sleep until the child exits or a timeout passes: a pidfd wakes at once (Linux), else short naps."""

    def __init__(self, pid: int):
        self.pid = pid
        try:
            self.fd: int | None = os.pidfd_open(pid)
        except (AttributeError, OSError):
            self.fd = None

    def wait(self, timeout: float) -> bool:
        if self.fd is not None:
            return bool(select.select([self.fd], [], [], timeout)[0]) or _exited(self.pid)
        deadline = time.monotonic() + timeout
        while not _exited(self.pid):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _kill_and_reap(proc: subprocess.Popen, tree: _Tree) -> tuple[int, float]:
    """Kill the whole tree, then reap the child: exit code (negative signal) and its max RSS in MB."""
    tree.kill_all()
    if proc.returncode is not None:
        return proc.returncode, 0.0
    try:
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        return proc.returncode, usage.ru_maxrss / 1024
    except ChildProcessError:
        proc.returncode = -9
        return -9, 0.0


def _read(path: Path, limit: int = 4_000_000, offset: int = 0) -> str:
    """Read captured output; a runaway printer gets its head and tail kept."""
    try:
        size = path.stat().st_size
    except OSError:
        return ""
    with open(path, "rb") as f:
        f.seek(offset)
        n = size - offset
        if n <= limit:
            data = f.read()
        else:
            head = f.read(limit // 2)
            f.seek(size - limit // 2)
            data = head + f"\n... [{n - limit} bytes cut] ...\n".encode() + f.read()
    return data.decode("utf-8", errors="replace")


def _link_tree(src: str, dst: str, private: str, seen: set[str], dirs: list[str]) -> None:
    """Mirror src into dst with hardlinks (copies across filesystems), files read-only.

    Only symlinks need resolving (cheap for folders of many images); a symlink that resolves into the
    private folder is skipped, and symlinked folders are followed once (cycles are ignored)."""
    with os.scandir(src) as entries:
        for e in entries:
            target = os.path.join(dst, e.name)
            path = e.path
            if e.is_symlink():
                path = os.path.realpath(e.path)
                if path == private or path.startswith(private + os.sep):
                    continue
                if os.path.isdir(path):
                    if path in seen:
                        continue
                    seen.add(path)
                    os.mkdir(target)
                    dirs.append(target)
                    _link_tree(path, target, private, seen, dirs)
                    continue
                if not os.path.isfile(path):
                    continue
            elif e.is_dir(follow_symlinks=False):
                os.mkdir(target)
                dirs.append(target)
                _link_tree(path, target, private, seen, dirs)
                continue
            elif not e.is_file(follow_symlinks=False):
                continue
            try:
                os.link(path, target)
            except OSError:
                shutil.copy2(path, target)
            os.chmod(target, 0o444)


# ---------------------------------------------------------------------------------------------- sandbox


class Sandbox:
    """Creates workspaces for a task and runs code in them (see the module docstring for guarantees)."""

    def __init__(
        self,
        task: Task | str | Path | None,
        workdir: str | Path,
        *,
        timeout_s: float,
        memory_mb: int | None,
        threads: int,
        extra_inputs: dict[str, Path] | None = None,
        head_chars: int = 4000,
        tail_chars: int = 6000,
    ):
        if task is not None and not hasattr(task, "public_dir"):
            from automind.task import Task

            task = Task.load(task)
        self.task = task
        self.workdir = Path(workdir).expanduser().resolve()
        self.timeout_s = float(timeout_s)
        self.memory_mb = int(memory_mb) if memory_mb else None
        self.threads = max(1, int(threads))
        self.extra_inputs = {k: Path(v) for k, v in (extra_inputs or {}).items()}
        self.head_chars, self.tail_chars = head_chars, tail_chars
        if task is not None:
            priv = os.path.realpath(task.private_dir)
            if str(self.workdir) == priv or str(self.workdir).startswith(priv + os.sep):
                raise SandboxError(
                    f"workdir {self.workdir} is inside the task's private folder; choose another"
                )

    @classmethod
    def from_settings(
        cls, task: Task | str | Path | None, workdir: str | Path, settings: Settings, **kw: Any
    ) -> Sandbox:
        s = settings.sandbox
        kw.setdefault("timeout_s", s.timeout_s)
        kw.setdefault("memory_mb", s.memory_mb)
        kw.setdefault("threads", s.threads)
        return cls(task, workdir, head_chars=s.output_head_chars, tail_chars=s.output_tail_chars, **kw)

    # -- workspace --------------------------------------------------------------------------------------
    def new_workspace(self, prefix: str = "exec") -> tuple[Path, Path]:
        """Make `workdir/<prefix>-NNN` (input/, submission/, working/) and its bootstrap folder."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        n = 1 + sum(1 for p in self.workdir.glob(f"{prefix}-*"))
        while True:
            ws = self.workdir / f"{prefix}-{n:03d}"
            try:
                ws.mkdir()
                break
            except FileExistsError:
                n += 1
        for sub in ("submission", "working", "working/tmp"):
            (ws / sub).mkdir()
        self._fill_input(ws / "input")
        for name, src in self.extra_inputs.items():
            dst = ws / "working" / name
            dst.parent.mkdir(parents=True, exist_ok=True)
            if not src.exists():
                raise SandboxError(f"extra input '{name}': {src} does not exist")
            if src.is_dir():
                shutil.copytree(src, dst)
            else:
                shutil.copy2(src, dst)
        boot = self.workdir / ".sandbox" / ws.name
        if boot.exists():
            shutil.rmtree(boot)
        _write_bootstrap(boot, ws, self.task.private_dir if self.task is not None else None)
        return ws, boot

    def _fill_input(self, dst: Path) -> None:
        """Hardlink (same filesystem) or copy the public files; nothing that resolves into private/."""
        dst.mkdir()
        dirs = [str(dst)]
        if self.task is not None:
            private = os.path.realpath(self.task.private_dir)
            src = os.path.realpath(self.task.public_dir)
            _link_tree(src, str(dst), private, {src}, dirs)
        for d in reversed(dirs):
            os.chmod(d, 0o555)

    @staticmethod
    def remove(workspace: str | Path) -> None:
        """Delete a workspace (input/ is read-only, so its folders are made writable first)."""
        ws = Path(workspace)
        for root, dirnames, _ in os.walk(ws):
            for d in dirnames:
                os.chmod(Path(root) / d, 0o755)
        if (ws / "input").exists():
            os.chmod(ws / "input", 0o755)
        shutil.rmtree(ws, ignore_errors=True)
        shutil.rmtree(ws.parent / ".sandbox" / ws.name, ignore_errors=True)

    def env(self, workspace: Path, boot: Path, marker: str) -> dict[str, str]:
        env = scrub_env(dict(os.environ))
        bindir = os.path.dirname(sys.executable)
        path = env.get("PATH", "/usr/bin:/bin")
        env.update(
            PATH=bindir + os.pathsep + path if bindir not in path.split(os.pathsep) else path,
            HOME=str(workspace),
            TMPDIR=str(workspace / "working" / "tmp"),
            JOBLIB_TEMP_FOLDER=str(workspace / "working" / "tmp"),
            MPLCONFIGDIR=str(workspace / "working" / "tmp" / "matplotlib"),
            PYTHONPATH=str(boot),
            PYTHONNOUSERSITE="1",
            PYTHONDONTWRITEBYTECODE="1",
            PYTHONUNBUFFERED="1",
            PYTHONIOENCODING="utf-8",
            MPLBACKEND="Agg",
            TQDM_DISABLE="1",
            TOKENIZERS_PARALLELISM="false",
            HF_HUB_OFFLINE="1",
            **{MARKER_VAR: marker},
        )
        env.setdefault("LANG", "C.UTF-8")
        if sys.prefix != sys.base_prefix:
            env["VIRTUAL_ENV"] = sys.prefix
        for var in THREAD_VARS:
            env[var] = str(self.threads)
        env.pop("SANDBOX_ROOT_PID", None)
        return env

    def _spawn(
        self, argv: list[str], ws: Path, boot: Path, **kw: Any
    ) -> tuple[subprocess.Popen, _Tree, Any, Any]:
        marker = uuid.uuid4().hex
        out = open(boot / "stdout.txt", "wb")  # noqa: SIM115 - closed by the caller
        err = open(boot / "stderr.txt", "wb")  # noqa: SIM115
        started = time.time()
        proc = subprocess.Popen(
            argv,
            cwd=ws,
            env=self.env(ws, boot, marker),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
            **kw,
        )
        _set_limits(proc.pid, self.memory_mb)
        return proc, _Tree(proc.pid, marker, started), out, err

    # -- one script ---------------------------------------------------------------------------------------
    def run_script(self, code: str, name: str = "solution.py", timeout_s: float | None = None) -> ExecResult:
        """Write `code` to the workspace as `name` and run it with the sandbox's python."""
        ws, boot = self.new_workspace()
        script = ws / name
        script.write_text(code, encoding="utf-8")
        limit = self.timeout_s if timeout_s is None else float(timeout_s)
        t0 = time.monotonic()
        proc, tree, out, err = self._spawn([sys.executable, name], ws, boot)
        killed: Status | None = None
        waiter = _ExitWaiter(proc.pid)
        try:
            while not waiter.wait(POLL_S):
                killed = _limit_hit(tree.poll(), self.memory_mb, time.monotonic() - t0, limit)
                if killed:
                    break
        finally:
            waiter.close()
            code, maxrss = _kill_and_reap(proc, tree)
            out.close()
            err.close()
        wall = time.monotonic() - t0
        exc = _load_json(boot / "exception.json")
        return self._result(code, killed, limit, wall, max(tree.peak_mb, maxrss), ws, boot, exc)

    def _result(
        self,
        code: int | None,
        killed: Status | None,
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
        stdout = _read(boot / "stdout.txt", offset=out_offset)
        stderr = _read(boot / "stderr.txt", offset=err_offset)
        violations = _read(boot / "violations.log", offset=violations_offset).splitlines()
        exc_type = exc.get("exc_type")
        status: Status
        if killed == "timeout":
            status, message = "timeout", f"timed out after {limit:g} s; the process tree was killed"
        elif killed == "memory":
            status = "memory"
            message = (
                f"exceeded the memory limit of {self.memory_mb} MB (tree RSS); the process tree was killed"
            )
        elif exc_type == "MemoryError":
            status, message = "memory", f"MemoryError (memory limit {self.memory_mb} MB)"
        elif code == 0:
            status, message = "ok", ""
        else:
            status = "error"
            if exc_type:
                message = f"exited with code {code} after an uncaught {exc_type}"
            elif code is not None and code < 0:
                sig = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
                message = f"killed by signal {sig}"
                if -code == signal.SIGKILL:
                    status, message = "memory", "killed by SIGKILL (likely the system's out-of-memory killer)"
            else:
                message = f"exited with code {code}"
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
            head_chars=self.head_chars,
            tail_chars=self.tail_chars,
        )

    # -- persistent interpreter ------------------------------------------------------------------------------
    def session(self) -> Session:
        return Session(self)


def _load_json(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _finalize(proc: subprocess.Popen, tree: _Tree, fds: list[int]) -> None:
    """Last resort (garbage collection or interpreter exit): nothing may outlive its session."""
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)
    with contextlib.suppress(Exception):  # best effort during shutdown
        _kill_and_reap(proc, tree)


class Session:
    """A persistent Python interpreter in the sandbox: cells share one namespace, like a notebook.

    A cell that raises reports its traceback and the session keeps going. A cell that times out or
    exceeds the memory limit kills the whole session (state is lost); later cells return an error
    result until `restart()` starts a fresh interpreter in a fresh workspace.
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
        argv = [sys.executable, str(self.boot / "session_runner.py"), str(cmd_r), str(res_w)]
        try:
            self.proc, self.tree, self._out, self._err = sb._spawn(
                argv, self.workspace, self.boot, pass_fds=(cmd_r, res_w)
            )
        finally:
            os.close(cmd_r)
            os.close(res_w)
        self._cmd, self._res = cmd_w, res_r
        self._buf = b""
        self.dead_reason: str | None = None
        self._finalizer = weakref.finalize(self, _finalize, self.proc, self.tree, [cmd_w, res_r])

    @property
    def alive(self) -> bool:
        return self.dead_reason is None

    def run(self, code: str, timeout_s: float | None = None) -> ExecResult:
        sb = self.sandbox
        limit = sb.timeout_s if timeout_s is None else float(timeout_s)
        if not self.alive:
            return ExecResult("error", None, "", "", "SessionClosed", None, 0.0, 0.0, self.workspace,
                              f"the session is closed ({self.dead_reason}); call restart() for a fresh one",
                              head_chars=sb.head_chars, tail_chars=sb.tail_chars)  # fmt: skip
        offsets = [_size(self.boot / n) for n in ("stdout.txt", "stderr.txt", "violations.log")]
        self.cells += 1
        t0 = time.monotonic()
        self.tree.peak_mb = 0.0
        data = code.encode("utf-8")
        killed: Status | None = None
        reply: dict[str, Any] | None = None
        try:
            os.write(self._cmd, f"{len(data)}\n".encode())
            view = memoryview(data)
            while view:
                n = os.write(self._cmd, view[:65536])
                view = view[n:]
        except BrokenPipeError:
            pass
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
            killed = _limit_hit(self.tree.poll(), sb.memory_mb, time.monotonic() - t0, limit)
            if killed:
                break
        wall = time.monotonic() - t0
        code_: int | None
        if reply is not None:
            code_ = int(reply.get("exit_code") or 0)
            exc = {k: reply.get(k) for k in ("exc_type", "traceback")}
        else:
            code_ = _kill_and_reap(self.proc, self.tree)[0]
            exc = {}
            self.dead_reason = killed or f"the interpreter exited with code {code_}"
            self._close_fds()
        self._out.flush()
        res = sb._result(
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
            while not _exited(self.proc.pid) and time.monotonic() < deadline:
                time.sleep(0.02)
        _kill_and_reap(self.proc, self.tree)
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


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
