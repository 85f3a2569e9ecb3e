"""A script the sandbox kills leaves its CPU time with the run, not with "other programs"."""

from __future__ import annotations

from automind.cpuload import CpuWatch
from automind.sandbox import Sandbox

# 1.5 s of CPU, then a wait the timeout cuts short: the script is killed with its supervisor, unreaped
BURN_THEN_WAIT = (
    "import time\nt = time.process_time()\nwhile time.process_time() - t < 1.5:\n    pass\n"
    "print('burnt', flush=True)\ntime.sleep(60)\n"
)


def test_a_timed_out_scripts_cpu_is_the_runs_own(task, tmp_path):
    sb = Sandbox(task, tmp_path / "runs", timeout_s=5, memory_mb=1024, threads=1)
    watch = CpuWatch.start()
    assert watch is not None
    r = sb.run_script(BURN_THEN_WAIT)
    assert r.status == "timeout" and "burnt" in r.stdout, r.output
    snap = watch.snapshot()
    assert snap is not None
    # before the fix the 1.5 s the killed script burnt read as other programs' load
    assert snap["others_cpu_s"] < 1.0, snap
