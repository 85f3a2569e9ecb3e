"""Workspaces: `input/` (the task's public files), `submission/`, `working/`, and the bootstrap folder.

The user's files are never linked into a workspace and never have their mode changed:
- "bind": with namespaces, input/ stays an empty folder on disk; inside the child's mount namespace the
  source folder is bind-mounted there read-only (no copy, and the kernel refuses every write, for root too);
- "copy": otherwise each workspace gets private copies (a reflink where the filesystem can share blocks
  copy-on-write, a plain copy elsewhere), made read-only. A script can only ever change its own copies.

The bootstrap folder `WORKDIR/.sandbox/<name>/` (outside the workspace) holds the guard's and the
supervisor's configs, the captured output, and `report/` (the only part the child may write besides the
workspace: refusals, the uncaught exception, the supervisor's notes).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from automind.sandbox.errors import SandboxError

if TYPE_CHECKING:
    from automind.task import InputEntry

InputMode = Literal["bind", "copy"]
FICLONE = 0x40049409  # _IOW(0x94, 9, int): share the source's blocks copy-on-write (btrfs, xfs, ...)
WRITABLE_DEVICES = ("/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/full")


@dataclass
class CopyStats:
    files: int = 0
    bytes: int = 0
    reflinked: int = 0


@dataclass(frozen=True)
class Workspace:
    path: Path
    boot: Path

    @property
    def input(self) -> Path:
        return self.path / "input"

    @property
    def report(self) -> Path:
        return self.boot / "report"


_no_reflink: set[tuple[int, int]] = set()  # (source device, target device) pairs that cannot share blocks


def clone_file(src: Path, dst: Path, mode: int = 0o444) -> tuple[bool, int]:
    """Copy src to a new file dst (created with `mode`, src's mtime kept): (shared blocks?, size).

    Shares blocks copy-on-write (FICLONE) when the filesystem can, else copies in the kernel."""
    fi = os.open(src, os.O_RDONLY | os.O_CLOEXEC)
    try:
        st = os.fstat(fi)
        fo = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
        try:
            shared = False
            devices = (st.st_dev, os.fstat(fo).st_dev)
            if devices not in _no_reflink:
                try:
                    fcntl.ioctl(fo, FICLONE, fi)
                    shared = True
                except OSError as e:
                    if e.errno not in (
                        errno.EOPNOTSUPP,
                        errno.ENOTTY,
                        errno.EXDEV,
                        errno.EINVAL,
                        errno.ENOSYS,
                    ):
                        raise
                    _no_reflink.add(devices)
            if not shared:
                _send(fi, fo, st.st_size)
            os.utime(fo, ns=(st.st_atime_ns, st.st_mtime_ns))
        finally:
            os.close(fo)
    finally:
        os.close(fi)
    return shared, st.st_size


def _send(src: int, dst: int, size: int) -> None:
    """Kernel-side copy (copy_file_range, which some filesystems turn into a server-side copy)."""
    left = size
    while left > 0:
        try:
            n = os.copy_file_range(src, dst, min(left, 1 << 30))
        except OSError as e:
            if e.errno not in (errno.EXDEV, errno.ENOSYS, errno.EOPNOTSUPP, errno.EINVAL):
                raise
            n = os.sendfile(dst, src, None, min(left, 1 << 30))
        if n == 0:
            break
        left -= n


def copy_inputs(entries: Sequence[InputEntry], dst: Path) -> CopyStats:
    """Private read-only copies of `entries` under dst (symlinks already followed by the walker)."""
    stats = CopyStats()
    dirs = [dst]
    dst.mkdir()
    for e in entries:
        target = dst / e.rel
        if e.is_dir:
            target.mkdir()
            dirs.append(target)
            continue
        try:
            shared, size = clone_file(e.real, target)
        except OSError as err:
            raise SandboxError(f"cannot copy input {e.path} into the workspace: {err}") from err
        stats.reflinked += shared
        stats.files += 1
        stats.bytes += size
    for d in reversed(dirs):
        os.chmod(d, 0o555)
    return stats


def next_free(workdir: Path, prefix: str) -> Path:
    """Create and return `workdir/<prefix>-NNN` with the first free number."""
    n = 1 + sum(1 for _ in workdir.glob(f"{prefix}-*"))
    while True:
        ws = workdir / f"{prefix}-{n:03d}"
        try:
            ws.mkdir()
            return ws
        except FileExistsError:
            n += 1


def create(
    workdir: Path,
    prefix: str,
    *,
    entries: Sequence[InputEntry],
    mode: InputMode,
    extra_inputs: dict[str, Path],
    private: Path | None,
) -> Workspace:
    """A fresh workspace with its inputs, its extra inputs in working/, and its bootstrap folder."""
    workdir.mkdir(parents=True, exist_ok=True)
    ws = next_free(workdir, prefix)
    for sub in ("submission", "working", "working/tmp"):
        (ws / sub).mkdir()
    if mode == "copy":
        copy_inputs(entries, ws / "input")
    else:
        (ws / "input").mkdir()  # the mount point; the files appear only inside the child's namespace
    for name, src in extra_inputs.items():
        dst = ws / "working" / name
        dst.parent.mkdir(parents=True, exist_ok=True)
        if not src.exists():
            raise SandboxError(f"extra input '{name}': {src} does not exist")
        if src.is_dir():
            shutil.copytree(src, dst)
        else:
            shutil.copy2(src, dst)
    boot = workdir / ".sandbox" / ws.name
    if boot.exists():
        shutil.rmtree(boot)
    (boot / "report").mkdir(parents=True)
    w = Workspace(ws, boot)
    write_guard_config(w, private)
    return w


def guard_config(w: Workspace, private: Path | None) -> dict[str, object]:
    """What the audit-hook guard (child/startup/sitecustomize.py) needs to know."""
    private_real = os.path.realpath(private) if private is not None else None
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, "/usr/", "/proc/", "/sys/", "/etc/", "/dev/"}
    fast = sorted(
        p.rstrip("/") + "/" for p in prefixes if not (private_real and private_real.startswith(p.rstrip("/")))
    )
    return {
        "workspace": os.path.realpath(w.path),
        "input": os.path.realpath(w.input),
        "private": private_real,
        "writable_extra": list(WRITABLE_DEVICES),
        "fast_read": fast,
        "violations": str(w.report / "violations.log"),
        "inputs_read": str(w.report / "inputs_read.log"),
        "exc_json": str(w.report / "exception.json"),
    }


def write_guard_config(w: Workspace, private: Path | None) -> Path:
    path = w.boot / "guard.json"
    path.write_text(json.dumps(guard_config(w, private)), encoding="utf-8")
    return path


def remove(workspace: str | Path) -> None:
    """Delete a workspace and its bootstrap folder (copied inputs are read-only: made writable first)."""
    ws = Path(workspace)
    for root, dirnames, _ in os.walk(ws):
        for d in dirnames:
            os.chmod(Path(root) / d, 0o755)
    if (ws / "input").exists():
        os.chmod(ws / "input", 0o755)
    shutil.rmtree(ws, ignore_errors=True)
    shutil.rmtree(ws.parent / ".sandbox" / ws.name, ignore_errors=True)
