"""How much of the machine other programs took while a run searched.

Recipe scripts fit what their time allowance holds, so a run on a machine that something else keeps busy
fits fewer models and can end with a different (usually worse) solution than the same command on an idle
machine. A run records the share of the CPUs used by processes that are not its own, so its report can say
so and two runs can be compared knowingly (on a two-core machine a parallel test suite made the same
LightGBM fit take 49 s instead of 2 s).

Own CPU time is this process's plus that of every child it has reaped (the sandbox supervisor collects its
script's), so a snapshot is exact only between executions; the run takes it after each step. A script the
sandbox kills (a timeout, the memory limit) often dies with its supervisor unreaped, and then the kernel's
counters never add its time to ours: the sandbox reads its CPU time just before the kill and charges here
(`charge_killed`) what did not arrive with the supervisor's, or a timed-out script would read as another
program's load (sandbox/process.py, `kill_and_reap`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

BUSY_SHARE = 0.2  # from this share of the CPUs used by other programs, the run says the machine was busy
BUSY_MIN_S = 1.0  # over a shorter session the counters' ticks (10 ms) make the share noise


def _busy_seconds() -> float:
    """CPU seconds every process on the machine has used since boot (all CPUs together)."""
    import psutil

    t = psutil.cpu_times()
    idle = t.idle + getattr(t, "iowait", 0.0)
    return sum(t) - idle - getattr(t, "guest", 0.0) - getattr(t, "guest_nice", 0.0)


_killed = {"cpu_s": 0.0}  # CPU seconds of killed sandbox processes that no parent of ours reaped


def charge_killed(cpu_s: float) -> None:
    """Count the CPU time of sandbox processes killed before their parent could reap them as this run's own."""
    _killed["cpu_s"] += max(0.0, cpu_s)


def _own_seconds() -> float:
    import psutil

    t = psutil.Process().cpu_times()
    return t.user + t.system + t.children_user + t.children_system + _killed["cpu_s"]


@dataclass
class CpuWatch:
    """CPU use of the whole machine and of this process tree from the moment it was made."""

    cpus: int
    wall0: float
    busy0: float
    own0: float

    @classmethod
    def start(cls) -> CpuWatch | None:
        """None where the counters cannot be read (the run then records no figure, nothing else changes)."""
        try:
            import psutil

            return cls(psutil.cpu_count() or 1, time.monotonic(), _busy_seconds(), _own_seconds())
        except Exception:  # noqa: BLE001 - a missing counter must never stop a run
            return None

    def snapshot(self) -> dict[str, Any] | None:
        """{cpus, seconds (wall), others_cpu_s, others_share} since start; None if unreadable."""
        wall = max(time.monotonic() - self.wall0, 1e-3)
        try:
            others = max(0.0, (_busy_seconds() - self.busy0) - (_own_seconds() - self.own0))
        except Exception:  # noqa: BLE001
            return None
        return {
            "cpus": self.cpus,
            "seconds": round(wall, 1),
            "others_cpu_s": round(others, 1),
            "others_share": round(min(1.0, others / (wall * self.cpus)), 3),
        }


def busy_text(cpu: dict[str, Any] | None) -> str | None:
    """A sentence for the summary, log and report when other programs took BUSY_SHARE or more; else None."""
    if not cpu or float(cpu.get("others_share") or 0.0) < BUSY_SHARE or cpu.get("seconds", 0) < BUSY_MIN_S:
        return None
    return (
        f"other programs used {100 * cpu['others_share']:.0f} % of the {cpu['cpus']} CPUs during the search: "
        "time-limited scripts fit less than on an idle machine, so scores may differ from a run on one"
    )
