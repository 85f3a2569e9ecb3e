"""Other programs' share of the CPUs during a run: measured, recorded and said where a user looks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import psutil
import pytest

from automind import cpuload
from automind.cpuload import BUSY_SHARE, CpuWatch, busy_text

BURN = "import time\nt = time.process_time()\nwhile time.process_time() - t < 1.5:\n    pass\n"


@pytest.mark.skipif(not hasattr(os, "waitid"), reason="needs os.waitid to wait without reaping")
def test_a_childs_cpu_counts_as_other_programs_until_it_is_reaped():
    """A script's CPU time joins the run's own when the sandbox reaps it: between executions the figure is
    other programs' alone. A child that has finished but is not reaped yet still counts as another program."""
    watch = CpuWatch.start()
    assert watch is not None
    child = subprocess.Popen([sys.executable, "-c", BURN])
    os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # finished, not reaped
    before = watch.snapshot()
    child.wait()
    after = watch.snapshot()
    assert before is not None and after is not None
    assert before["others_cpu_s"] >= 1.2  # its 1.5 s of CPU, not yet ours
    assert before["others_cpu_s"] - after["others_cpu_s"] >= 1.2  # now ours
    assert after["cpus"] == psutil.cpu_count() and 0.0 <= after["others_share"] <= 1.0


def test_only_a_busy_machine_gets_a_sentence():
    quiet = {"cpus": 2, "seconds": 100.0, "others_cpu_s": 10.0, "others_share": BUSY_SHARE - 0.01}
    assert busy_text(quiet) is None and busy_text(None) is None
    text = busy_text({**quiet, "others_share": 0.62})
    assert text is not None and "62 % of the 2 CPUs" in text and "idle machine" in text
    assert busy_text({**quiet, "others_share": 0.62, "seconds": 0.5}) is None  # too short to judge


def test_a_run_on_a_busy_machine_says_so_in_the_summary_log_report_and_run_json(
    task_dir, tmp_path, monkeypatch
):
    """The machine's busy counter is made to run ahead of this process tree by 60 % of every CPU, as if
    other programs took them: the solve's summary, run.log, report and run.json all record it."""
    from typer.testing import CliRunner

    from automind.cli import app

    real, t0, n = cpuload._busy_seconds, time.monotonic(), psutil.cpu_count() or 1
    monkeypatch.setattr(cpuload, "_busy_seconds", lambda: real() + 0.6 * n * (time.monotonic() - t0))
    out = tmp_path / "run"
    r = CliRunner().invoke(app, ["solve", str(task_dir), "--llm", "none", "--steps", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "machine" in r.output and "other programs used" in r.output
    cpu = json.loads((out / "run.json").read_text())["budget"]["cpu"]
    assert cpu["cpus"] == n and cpu["others_share"] >= 0.5
    assert "note: other programs used" in (out / "run.log").read_text()
    page = (out / "report.html").read_text()
    assert "other programs used" in page and "idle machine" in page


def test_a_run_records_its_cpu_figure(task_dir, tmp_path, settings_factory):
    from search_fakes import ScriptedRoles, script

    from automind.run import solve

    res = solve(task_dir, settings_factory(**{"search.steps": 1}), out=tmp_path / "run",
                roles=ScriptedRoles({"*": [script(0.6)]}))  # fmt: skip
    cpu = json.loads((tmp_path / "run" / "run.json").read_text())["budget"]["cpu"]
    assert cpu == res.budget["cpu"] and cpu["cpus"] == psutil.cpu_count() and cpu["seconds"] > 0
