"""The audit-hook guard every sandboxed Python process loads at startup (this folder is on PYTHONPATH).

It turns honest mistakes of generated code into clear PermissionErrors, logged for the parent: writing
outside the workspace or into input/, reading the task's private folder, naming it in a command line.
It also records which input/ files (and folders listed) the script read, once each, so automind can tell
a node that ignored some of the provided data (files opened by native code, e.g. pyarrow, are not seen).
It is a guard, not the boundary: native code can bypass audit hooks; the kernel-side protections are
in `namespaces.py`. Standard library only; configured by the JSON file named in $SANDBOX_GUARD.
The first sandboxed interpreter also records its uncaught exception as JSON for the parent.
"""

from __future__ import annotations

import json
import os
import sys
import threading

TYPE_CHECKING = False  # runs at every sandboxed interpreter's start: no typing import at run time
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

CONFIG_VAR = "SANDBOX_GUARD"
ROOT_PID_VAR = "SANDBOX_ROOT_PID"
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
MODIFY = frozenset(
    {
        "os.remove",
        "os.rmdir",
        "os.mkdir",
        "os.chmod",
        "os.chown",
        "os.truncate",
        "os.utime",
        "os.rename",
        "shutil.rmtree",
        "shutil.move",
        "os.setxattr",
        "os.removexattr",
        "os.chflags",
    }
)
COPY = frozenset(
    {
        "os.link",
        "os.symlink",
        "shutil.copyfile",
        "shutil.copymode",
        "shutil.copystat",
        "shutil.copytree",
    }
)
READ = frozenset(
    {
        "os.listdir",
        "os.scandir",
        "os.chdir",
        "glob.glob",
        "glob.glob/2",
        "os.fwalk",
        "shutil.make_archive",
    }
)
SPAWN = frozenset(
    {
        "subprocess.Popen",
        "os.system",
        "os.exec",
        "os.posix_spawn",
        "os.spawn",
        "pty.spawn",
    }
)
PRIVATE = "the task's private files are not accessible"


def _absolute(p: object) -> str | None:
    """A path argument as an absolute path, links and '..' as written (None for a file descriptor or what is
    no path)."""
    try:
        path = os.fsdecode(os.fspath(p))  # type: ignore[call-overload]
    except TypeError:
        return None
    return os.path.join(os.getcwd(), path) if path else None


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root + os.sep)


class Guard:
    """Decides, per audit event, whether the call may go on; raises PermissionError otherwise."""

    def __init__(self, config: dict[str, Any]):
        self.workspace: str = config["workspace"]
        self.input: str = config["input"]
        self.private: str | None = config.get("private")
        self.writable_extra = tuple(config.get("writable_extra", ()))
        self.fast_read = tuple(config.get("fast_read", ()))
        self.violations: str = config["violations"]
        self.exc_json: str = config["exc_json"]
        self.inputs_log: str | None = config.get("inputs_read")
        self.seen: set[str] = set()  # input paths already recorded by this process
        self.busy = threading.local()  # the hook's own file access must not re-enter it

    # -- path tests ---------------------------------------------------------------------------------
    @staticmethod
    def resolve(p: object) -> str | None:
        path = _absolute(p)
        return os.path.realpath(path) if path is not None else None

    def is_private(self, real: str | None) -> bool:
        return self.private is not None and real is not None and _under(real, self.private)

    def can_write(self, real: str | None) -> bool:
        if real is None:
            return True
        if real in self.writable_extra or real.startswith(("/dev/shm/", "/proc/self/")):
            return True
        return _under(real, self.workspace) and not _under(real, self.input)

    def mentions_private(self, arg: object) -> bool:
        if self.private is None or not isinstance(arg, str | bytes | os.PathLike):
            return False
        text = os.fsdecode(os.fspath(arg))
        if self.private in text:
            return True
        return any(
            "private" in tok and self.is_private(self.resolve(tok.strip("'\""))) for tok in text.split()
        )

    # -- decisions ------------------------------------------------------------------------------------
    def deny(self, event: str, path: object, why: str) -> None:
        try:
            fd = os.open(self.violations, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            os.write(fd, f"{event}: {why}: {path}\n".encode("utf-8", "replace"))
            os.close(fd)
        except OSError:
            pass
        raise PermissionError(f"automind sandbox: {why}: {path}")

    def note_input(self, real: str | None, raw: object = None) -> None:
        """Record a read under input/ (relative path, once per process) for the parent's data-usage check.
        A file of input/ that is a link (the holdout view links the task's other files) resolves outside it:
        the path as the script wrote it, made absolute, says which input it read."""
        if self.inputs_log is None:
            return
        named = _absolute(raw)
        named = os.path.normpath(named) if named is not None else None
        found = [p for p in (real, named) if p is not None and _under(p, self.input) and p != self.input]
        if not found:
            return
        rel = os.path.relpath(found[0], self.input)
        if rel in self.seen:
            return
        self.seen.add(rel)
        try:
            fd = os.open(self.inputs_log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            os.write(fd, (rel + "\n").encode("utf-8", "replace"))
            os.close(fd)
        except OSError:
            pass

    def check_open(self, args: tuple[Any, ...]) -> None:
        path, mode, flags = (list(args) + [None, None, None])[:3]
        if path is None or isinstance(path, int):
            return
        write = any(c in mode for c in "wax+") if isinstance(mode, str) else bool((flags or 0) & WRITE_FLAGS)
        if not write and isinstance(path, str) and path.startswith(self.fast_read) and "/.." not in path:
            return
        real = self.resolve(path)
        if self.is_private(real):
            self.deny("open", path, PRIVATE)
        if write and not self.can_write(real):
            inside_input = real is not None and _under(real, self.input)
            why = "input/ is read-only" if inside_input else "writing outside the workspace is not allowed"
            self.deny("open", path, why)
        if not write:
            self.note_input(real, path)

    def check(self, event: str, args: tuple[Any, ...]) -> None:
        if event in SPAWN:
            for a in _paths_in(args):
                if self.mentions_private(a):
                    self.deny(event, a, PRIVATE)
            return
        found = [(a, self.resolve(a)) for a in _paths_in(args)]
        for raw, real in found:
            if self.is_private(real):
                self.deny(event, raw, PRIVATE)
        if event in READ:
            for raw, real in found:
                self.note_input(real, raw)
        elif event in MODIFY:
            for raw, real in found:
                if not self.can_write(real):
                    self.deny(event, raw, "changing files outside the workspace is not allowed")
        elif event in COPY and found:
            raw, real = found[1] if len(found) > 1 else found[0]
            if not self.can_write(real):
                self.deny(event, raw, "writing outside the workspace is not allowed")

    def hook(self, event: str, args: tuple[Any, ...]) -> None:
        if (
            event != "open"
            and event not in MODIFY
            and event not in COPY
            and event not in READ
            and event not in SPAWN
        ):
            return
        if getattr(self.busy, "on", False):
            return
        self.busy.on = True
        try:
            if event == "open":
                self.check_open(args)
            else:
                self.check(event, args)
        finally:
            self.busy.on = False

    def record_exception(self, tp: type[BaseException], value: BaseException, tb: Any) -> None:
        import traceback

        self.busy.on = True
        try:
            with open(self.exc_json, "w", encoding="utf-8") as f:
                text = "".join(traceback.format_exception(tp, value, tb))
                json.dump(
                    {"exc_type": tp.__name__, "message": str(value)[:2000], "traceback": text[-20000:]}, f
                )
        except Exception:  # noqa: BLE001 - reporting must never mask the real exception
            pass
        finally:
            self.busy.on = False


def _paths_in(args: tuple[Any, ...]) -> Iterator[Any]:
    for a in args:
        if isinstance(a, str | bytes | os.PathLike):
            yield a
        elif isinstance(a, list | tuple):
            yield from (b for b in a if isinstance(b, str | bytes | os.PathLike))


def install(config: dict[str, Any]) -> Guard:
    """Add the audit hook; the first sandboxed interpreter also reports its uncaught exception."""
    guard = Guard(config)
    sys.addaudithook(guard.hook)
    if os.environ.get(ROOT_PID_VAR) is None:
        os.environ[ROOT_PID_VAR] = str(os.getpid())
    if os.environ[ROOT_PID_VAR] == str(os.getpid()):
        previous = sys.excepthook

        def excepthook(tp: type[BaseException], value: BaseException, tb: Any) -> None:
            guard.record_exception(tp, value, tb)
            previous(tp, value, tb)

        sys.excepthook = excepthook
    return guard


def _load() -> None:
    path = os.environ.get(CONFIG_VAR)
    if not path:
        return
    try:
        with open(path, encoding="utf-8") as f:
            config = json.load(f)
    except (OSError, ValueError) as e:
        sys.stderr.write(f"automind sandbox: guard config {path} unreadable ({e}); not running unguarded\n")
        raise SystemExit(125) from e
    install(config)


if __name__ == "sitecustomize":
    _load()
