"""A script the sandbox kills leaves its CPU time with the run, not with "other programs"."""

from __future__ import annotations

import subprocess
import sys

import pytest

from automind import cpuload
from automind.sandbox import Sandbox
from automind.sandbox import process as sp

# 1.5 s of CPU, then a wait the timeout cuts short
BURN_THEN_WAIT = (
    "import time\nt = time.process_time()\nwhile time.process_time() - t < 1.5:\n    pass\n"
    "print('burnt', flush=True)\ntime.sleep(60)\n"
)


def test_a_timed_out_scripts_cpu_is_the_runs_own(task, tmp_path):
    """The run's own CPU seconds (what CpuWatch subtracts from the machine's busy time) hold the killed
    script's 1.5 s whether or not its supervisor reaped it before dying (a race the kernel decides)."""
    sb = Sandbox(task, tmp_path / "runs", timeout_s=4, memory_mb=1024, threads=1)
    own0 = cpuload._own_seconds()
    r = sb.run_script(BURN_THEN_WAIT)
    assert r.status == "timeout" and "burnt" in r.stdout, r.output
    assert 1.5 <= cpuload._own_seconds() - own0 < 2.5  # counted once, not twice


class FakeTree:
    """A supervisor that held 0.2 s of CPU and a script that held 1.5 s when the kill came."""

    def cpu_s(self, supervisor: bool) -> float:
        return 0.2 if supervisor else 1.5

    def kill_all(self) -> None:
        pass


@pytest.mark.parametrize(("supervisor_reaped_it", "charged"), [(False, 1.5), (True, 0.0)])
def test_the_charge_is_what_reaping_the_supervisor_did_not_bring(monkeypatch, supervisor_reaped_it, charged):
    """Killed together, the supervisor sometimes reaps its script first (its time then arrives with the
    supervisor's) and sometimes dies first (its time is lost to us): only the lost part is charged."""
    reaped = iter([10.0, 10.0 + 0.2 + (1.5 if supervisor_reaped_it else 0.0)])
    monkeypatch.setattr(sp, "_reaped_cpu_s", lambda: next(reaped))
    got: list[float] = []
    monkeypatch.setattr(sp, "charge_killed", got.append)
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    sp.kill_and_reap(proc, FakeTree())  # type: ignore[arg-type]
    assert got == [pytest.approx(charged)]
