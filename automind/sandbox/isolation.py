"""Which containment this machine allows: kernel namespaces, or copies plus the audit-hook guard.

The first sandbox of a process runs the supervisor's probe once (about 50 ms): it enters the namespaces
on a scratch folder and checks that the folder stays writable and a folder outside does not. The answer
is cached for the process. `Isolation.describe()` is the one line that ExecResult, `automind exec` and the
run's fallbacks report.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Mode = Literal["auto", "namespace", "copy"]
MODES: tuple[Mode, ...] = ("auto", "namespace", "copy")


@dataclass(frozen=True)
class Isolation:
    """How executions are contained on this machine (or as configured)."""

    namespaces: bool  # read-only filesystem outside the workspace, enforced by the kernel
    network_isolated: bool  # the child has its own network namespace (loopback only)
    reason: str = ""  # why namespaces are not used, when they are not
    notes: tuple[str, ...] = field(default_factory=tuple)

    def describe(self) -> str:
        if self.namespaces:
            net = "no network (own namespace, loopback only)" if self.network_isolated else "host network"
            return f"namespaces: read-only filesystem outside the workspace, private answers hidden, {net}"
        return (
            f"copies: inputs are private copies; writes elsewhere and the network are only guarded for "
            f"Python code, not enforced ({self.reason})"
        )

    @property
    def fallback(self) -> str | None:
        """The line a run lists under fallbacks when the strong mechanism is not in use."""
        return None if self.namespaces else f"sandbox: {self.describe()}"


_probed: dict[bool, tuple[bool, str, tuple[str, ...]]] = {}


def probe(network: bool) -> tuple[bool, str, tuple[str, ...]]:
    """(works, why not, notes) for entering the namespaces here; cached per process."""
    if network in _probed:
        return _probed[network]
    if not sys.platform.startswith("linux"):
        _probed[network] = (False, f"namespaces need Linux (this is {sys.platform})", ())
        return _probed[network]
    root = str(Path(__file__).resolve().parents[2])
    env = {"PATH": os.environ.get("PATH", os.defpath), "PYTHONPATH": root, "PYTHONNOUSERSITE": "1"}
    with tempfile.TemporaryDirectory(prefix="automind-probe-") as scratch:
        cmd = [sys.executable, "-S", "-m", "automind.sandbox.child.supervisor", "--probe", scratch]
        cmd.append("network" if network else "host")
        try:
            done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=30, check=False)
            answer = json.loads(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else {}
        except (OSError, subprocess.TimeoutExpired, ValueError) as e:
            answer = {"error": f"probe failed: {e}"}
        if not answer:
            answer = {"error": f"probe failed: {done.stderr.strip()[-300:] or 'no answer'}"}
    result = (bool(answer.get("ok")), str(answer.get("error", "")), tuple(answer.get("notes") or ()))
    _probed[network] = result
    return result


def choose(mode: Mode, network: bool) -> Isolation:
    """The isolation for `mode`: 'auto' uses namespaces when the probe says they work."""
    from automind.sandbox.errors import SandboxError

    if mode not in MODES:
        raise SandboxError(f"sandbox.isolation {mode!r}: use one of {', '.join(MODES)}")
    isolate_net = not network
    if mode == "copy":
        return Isolation(False, False, "sandbox.isolation is 'copy'")
    ok, why, notes = probe(isolate_net)
    if ok:
        return Isolation(True, isolate_net, "", notes)
    if mode == "namespace":
        raise SandboxError(
            f"sandbox.isolation is 'namespace' but namespaces do not work here: {why}. "
            "Set sandbox.isolation to 'auto' to fall back to copies (logged), or run where user namespaces "
            "are allowed (e.g. not inside a default Docker seccomp profile)."
        )
    return Isolation(False, False, f"namespaces unavailable: {why}")
