"""Linux namespaces for the sandboxed child: the filesystem outside the workspace read-only, no network.

The supervisor calls `enter(plan)` before it starts the script, then `drop_privileges()` in the script's
process just before exec. The kernel then enforces, for root too and for native code that never meets
Python's audit hook:
- every mount outside the workspace is read-only (EROFS on any write, chmod, rename or delete);
- input/ is a read-only bind mount, the task's private folder is covered by an empty, unreadable tmpfs;
- /dev holds only harmless devices (null, zero, random, ...) and accelerators (GPUs): a read-only mount
  does not stop writes to a device node, so disks and memory devices must be absent; /dev/shm is a fresh
  tmpfs of bounded size, so shared memory is private to the execution;
- with `network` the child gets its own network namespace: loopback only, nothing outside reachable;
- the script runs with no capabilities and no way to gain any (securebits, no_new_privs), so it cannot
  remount anything; a nested namespace it might create inherits the mounts locked read-only.

When user namespaces are unavailable and the supervisor runs as root, mount and network namespaces are
made without one; otherwise `enter` raises IsolationError and automind falls back to copies (logged).
"""

from __future__ import annotations

import ctypes
import errno
import os
import re

TYPE_CHECKING = False  # the supervisor starts with the standard library only; keep its imports few
if TYPE_CHECKING:
    from typing import Any

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
MS_RDONLY = 0x1
MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_NOEXEC = 0x8
MS_REMOUNT = 0x20
MS_NOATIME = 0x400
MS_NODIRATIME = 0x800
MS_BIND = 0x1000
MS_REC = 0x4000
MS_PRIVATE = 0x40000
MS_RELATIME = 0x200000
MS_STRICTATIME = 0x1000000
ST_RELATIME = 0x1000  # statvfs flag (glibc); not exported by the os module everywhere
PR_SET_SECUREBITS = 28
PR_SET_NO_NEW_PRIVS = 38
# NOROOT, NOROOT_LOCKED, NO_SETUID_FIXUP, NO_SETUID_FIXUP_LOCKED, KEEP_CAPS_LOCKED
SECUREBITS = 0x01 | 0x02 | 0x04 | 0x08 | 0x20
SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 0x1
# The device nodes a script may use: the harmless ones, and accelerators. Everything else (disks, memory,
# consoles) is absent from the child's /dev: a read-only mount does not stop writes to a device node.
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
ACCELERATOR_PREFIXES = ("nvidia", "dri", "kfd")
# Kernel pseudo filesystems: a failed read-only remount there is noted, not fatal (their files are
# guarded by capability checks the child no longer passes).
PSEUDO_FS = frozenset(
    {
        "proc",
        "sysfs",
        "cgroup",
        "cgroup2",
        "devpts",
        "securityfs",
        "debugfs",
        "tracefs",
        "bpf",
        "pstore",
        "configfs",
        "fusectl",
        "mqueue",
        "hugetlbfs",
        "autofs",
        "binfmt_misc",
        "efivarfs",
        "rpc_pipefs",
        "nsfs",
        "selinuxfs",
    }
)
_KEEP_FLAGS = (
    (os.ST_NOSUID, MS_NOSUID),
    (os.ST_NODEV, MS_NODEV),
    (os.ST_NOEXEC, MS_NOEXEC),
    (os.ST_NOATIME, MS_NOATIME),
    (os.ST_NODIRATIME, MS_NODIRATIME),
    (ST_RELATIME, MS_RELATIME),
)


class IsolationError(RuntimeError):
    """A namespace step failed; the execution must not run with a weaker guarantee than promised."""


class Plan:
    """What the child may see and change (paths are absolute and resolved by the parent)."""

    def __init__(
        self,
        network: bool = True,
        writable: list[str] | None = None,
        readonly: list[tuple[str, str]] | None = None,
        hide: list[str] | None = None,
        shm_mb: int | None = None,
    ):
        self.network = network  # True: a private network namespace with loopback only
        self.writable = writable or []  # stays writable (the workspace, the report folder)
        self.readonly = readonly or []  # (source, target) bind mounts made read-only
        self.hide = hide or []  # folders covered by an empty tmpfs nobody can read
        self.shm_mb = shm_mb  # size of the private /dev/shm (None: the kernel's default, half of RAM)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Plan:
        return cls(
            network=bool(d.get("network", True)),
            writable=[str(p) for p in d.get("writable", [])],
            readonly=[(str(a), str(b)) for a, b in d.get("readonly", [])],
            hide=[str(p) for p in d.get("hide", [])],
            shm_mb=int(d["shm_mb"]) if d.get("shm_mb") else None,
        )


_libc: Any = None


def _c() -> Any:
    global _libc
    if _libc is None:
        lib = ctypes.CDLL(None, use_errno=True)
        lib.mount.argtypes = [
            ctypes.c_char_p,
            ctypes.c_char_p,
            ctypes.c_char_p,
            ctypes.c_ulong,
            ctypes.c_char_p,
        ]
        lib.unshare.argtypes = [ctypes.c_int]
        lib.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
        _libc = lib
    return _libc


def _check(rc: int, what: str) -> None:
    if rc != 0:
        err = ctypes.get_errno()
        raise IsolationError(f"{what}: {os.strerror(err)}") from OSError(err, os.strerror(err))


def _errno_of(e: IsolationError) -> int:
    return e.__cause__.errno if isinstance(e.__cause__, OSError) and e.__cause__.errno else 0


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    enc = os.fsencode
    rc = _c().mount(
        enc(source) if source else None,
        enc(target),
        enc(fstype) if fstype else None,
        flags,
        enc(data) if data else None,
    )
    _check(rc, f"mount {target}")


def prctl(option: int, value: int) -> None:
    _check(_c().prctl(option, value, 0, 0, 0), f"prctl({option})")


def _unshare(network: bool) -> bool:
    """New mount (and network) namespaces, inside a new user namespace when possible; True if one was made."""
    extra = CLONE_NEWNET if network else 0
    try:
        _check(_c().unshare(CLONE_NEWUSER | CLONE_NEWNS | extra), "unshare(user, mount, network)")
        return True
    except IsolationError:
        if os.geteuid() != 0:
            raise
    _check(_c().unshare(CLONE_NEWNS | extra), "unshare(mount, network)")
    return False


def _map_ids(uid: int, gid: int) -> None:
    """Keep the same ids inside the user namespace, so file owners read as they do outside."""
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
        try:
            with open(f"/proc/self/{name}", "w") as f:
                f.write(text)
        except OSError as e:
            raise IsolationError(f"writing /proc/self/{name}: {e.strerror}") from e


def _unescape(field: str) -> str:
    """Mount points in mountinfo escape space, tab, newline and backslash as octal."""
    raw = re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m.group(1), 8)]), os.fsencode(field))
    return os.fsdecode(raw)


def mounts() -> list[tuple[str, str]]:
    """(mount point, filesystem type) of every mount this process sees, parents first."""
    out = []
    with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            left, _, right = line.partition(" - ")
            parts = left.split()
            if len(parts) >= 5:
                out.append((_unescape(parts[4]), right.split()[0] if right else ""))
    return out


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _remount_readonly(point: str) -> None:
    st = os.statvfs(point)
    if st.f_flag & os.ST_RDONLY:
        return
    flags = MS_REMOUNT | MS_BIND | MS_RDONLY
    for st_flag, ms_flag in _KEEP_FLAGS:
        if st.f_flag & st_flag:
            flags |= ms_flag
    try:
        mount(None, point, None, flags)
    except IsolationError as e:
        # a locked strictatime mount must be named as such, or the remount counts as an atime change
        if _errno_of(e) != errno.EPERM or flags & (MS_NOATIME | MS_RELATIME):
            raise
        mount(None, point, None, flags | MS_STRICTATIME)


def _loopback_up() -> None:
    """Bring `lo` up in the new network namespace (through libc: the socket module is slow to import)."""
    import fcntl
    import struct

    fd = _c().socket(2, 2, 0)  # AF_INET, SOCK_DGRAM
    if fd < 0:
        _check(fd, "socket")
    try:
        req = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(fd, SIOCGIFFLAGS, req))[1]
        fcntl.ioctl(fd, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))
    finally:
        os.close(fd)


def _private_dev(shm_mb: int | None) -> list[str]:
    """Replace /dev by a small tmpfs holding only DEVICES, accelerators, std links and a private /dev/shm.

    The host's nodes are kept open (O_PATH) before /dev is covered and bind-mounted back from those
    handles. Returns the bind-mounted paths."""
    names = [n for n in DEVICES if os.path.exists(f"/dev/{n}")]
    names += sorted(n for n in os.listdir("/dev") if n.startswith(ACCELERATOR_PREFIXES))
    handles = {n: os.open(f"/dev/{n}", os.O_PATH | os.O_CLOEXEC) for n in names}
    mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,mode=755")
    binds = []
    for name, fd in handles.items():
        target = f"/dev/{name}"
        if os.path.isdir(f"/proc/self/fd/{fd}"):
            os.mkdir(target)
        else:
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT, 0o666))
        mount(f"/proc/self/fd/{fd}", target, None, MS_BIND | MS_REC)
        os.close(fd)
        binds.append(target)
    for name, to in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1")):
        os.symlink(to, f"/dev/{name}")
    os.symlink("/proc/self/fd/2", "/dev/stderr")
    os.mkdir("/dev/shm")
    size = f"size={shm_mb}m," if shm_mb else ""
    mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, f"{size}mode=1777")
    return binds


def enter(plan: Plan) -> list[str]:
    """Move this process into its namespaces and apply the plan; returns notes on harmless leftovers."""
    uid, gid = os.geteuid(), os.getegid()
    if _unshare(plan.network):
        _map_ids(uid, gid)
    mount(None, "/", None, MS_REC | MS_PRIVATE)  # nothing done here propagates back to the host
    writable = list(plan.writable)
    for path in writable:
        mount(path, path, None, MS_BIND | MS_REC)
    for source, target in plan.readonly:
        mount(source, target, None, MS_BIND | MS_REC)
    for path in plan.hide:
        if os.path.isdir(path):
            mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=000")
    dev_binds = _private_dev(plan.shm_mb)
    writable.append("/dev/shm")
    readonly_targets = [t for _, t in plan.readonly]
    notes: list[str] = []
    done: set[str] = set(dev_binds)  # device nodes: a read-only flag means nothing to them
    for point, fstype in mounts():
        if point in done:
            continue
        done.add(point)
        if point.startswith("/dev/") and point != "/dev/shm":
            continue  # the host's /dev mounts lie under the private /dev now, out of reach
        inside = any(_under(point, w) for w in writable)
        if inside and not any(_under(point, t) for t in readonly_targets):
            continue
        try:
            _remount_readonly(point)
        except (IsolationError, OSError) as e:
            if fstype in PSEUDO_FS:
                notes.append(f"{point} ({fstype}) stays as it was: {e}")
                continue
            raise IsolationError(f"cannot make {point} ({fstype}) read-only: {e}") from e
    if plan.network:
        try:
            _loopback_up()
        except OSError as e:
            notes.append(f"loopback left down: {e}")
    return notes


def drop_privileges() -> None:
    """Run the next exec without capabilities and with no way to regain them (setuid, file caps)."""
    prctl(PR_SET_SECUREBITS, SECUREBITS)
    prctl(PR_SET_NO_NEW_PRIVS, 1)
