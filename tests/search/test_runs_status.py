"""Damaged, killed and missing runs: `report`, `runs list`, `solve --resume/--out` say what is wrong, never crash."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from search_fakes import ScriptedRoles, script
from typer.testing import CliRunner

from automind.cli import app
from automind.run import solve
from automind.runs import live_status, this_process

runner = CliRunner()


def _text(result) -> str:
    return " ".join(result.output.split())


@pytest.fixture
def run_dir(task_dir, tmp_path, settings_factory) -> Path:
    """A finished two-step run under tmp/runs/good."""
    roles = ScriptedRoles({"*": [script(0.7), script(0.8)]})
    out = tmp_path / "runs" / "good"
    solve(task_dir, settings_factory(**{"search.steps": 2}), out=out, roles=roles)
    return out


def _copy_run(src: Path, name: str) -> Path:
    import shutil

    dst = src.parent / name
    shutil.copytree(src, dst)
    return dst


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def test_run_json_records_the_writing_process_and_a_heartbeat(run_dir):
    info = json.loads((run_dir / "run.json").read_text())
    assert info["process"]["pid"] == os.getpid() and info["process"]["host"] == socket.gethostname()
    assert abs(info["heartbeat"] - time.time()) < 120


def test_report_on_a_truncated_journal(run_dir, folder_state):
    _truncate(run_dir / "journal.json")
    before = folder_state(run_dir)
    r = runner.invoke(app, ["report", str(run_dir)])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert f"{run_dir / 'journal.json'}: not valid JSON, truncated or damaged" in _text(r)
    assert f"each node's code and output are still under {run_dir / 'nodes'}" in _text(r)
    assert folder_state(run_dir) == before


def test_report_on_a_journal_of_the_wrong_shape(run_dir, folder_state):
    (run_dir / "journal.json").write_text('{"nodes": 5}')
    before = folder_state(run_dir)
    r = runner.invoke(app, ["report", str(run_dir)])
    assert r.exit_code == 1 and "journal.json: not a journal" in _text(r)
    assert folder_state(run_dir) == before


def test_report_with_a_damaged_run_json_is_made_and_says_so(run_dir):
    _truncate(run_dir / "run.json")
    (run_dir / "report.html").unlink()
    r = runner.invoke(app, ["report", str(run_dir)])
    assert r.exit_code == 0, r.output
    assert "the report is made without the run's task, config, usage and grade" in _text(r)
    assert "run.json: not valid JSON" in _text(r)
    assert "report made without run.json" in (run_dir / "report.html").read_text()


def test_report_out_to_a_folder_or_an_unwritable_place(run_dir, tmp_path, folder_state):
    (tmp_path / "reports").mkdir()
    r = runner.invoke(app, ["report", str(run_dir), "--out", str(tmp_path / "reports")])
    assert r.exit_code == 0 and (tmp_path / "reports" / "report.html").is_file()
    (tmp_path / "afile").write_text("x")
    before = folder_state(tmp_path)
    r = runner.invoke(app, ["report", str(run_dir), "--out", str(tmp_path / "afile" / "r.html")])
    assert r.exit_code == 1 and "cannot write the report" in _text(r)
    assert folder_state(tmp_path) == before  # no .tmp left behind


def test_resume_of_a_damaged_run_is_a_clear_error(run_dir, folder_state):
    _truncate(run_dir / "journal.json")
    before = folder_state(run_dir)
    r = runner.invoke(app, ["solve", "--resume", str(run_dir), "--steps", "3"])
    assert r.exit_code == 1 and "cannot resume:" in _text(r) and "truncated or damaged" in _text(r)
    assert folder_state(run_dir) == before


def test_runs_list_marks_damaged_runs_and_lists_the_others(run_dir, folder_state):
    _truncate(_copy_run(run_dir, "cut-journal") / "journal.json")
    (_copy_run(run_dir, "cut-info") / "run.json").write_text("{")
    (_copy_run(run_dir, "no-journal") / "journal.json").unlink()
    base = run_dir.parent
    before = folder_state(base)
    r = runner.invoke(app, ["runs", "list", "--dir", str(base), "--json"])
    assert r.exit_code == 0, r.output
    rows = {row["run"]: row for row in json.loads(r.stdout)}
    assert rows["good"]["status"] == "finished" and rows["good"]["best_metric"] == 0.8
    assert (
        rows["cut-journal"]["status"] == "damaged" and "truncated or damaged" in rows["cut-journal"]["note"]
    )
    assert rows["cut-journal"]["task"] == "tiny"  # still read from run.json
    assert rows["cut-info"]["status"] == "damaged" and "run.json: not valid JSON" in rows["cut-info"]["note"]
    assert rows["no-journal"]["status"] == "damaged" and "journal.json: missing" in rows["no-journal"]["note"]
    r = runner.invoke(app, ["runs", "list", "--dir", str(base)])
    assert r.exit_code == 0 and "cut-journal: damaged:" in _text(r) and "good" in r.output
    assert folder_state(base) == before


def test_runs_list_with_no_runs_says_so_and_exits_0(tmp_path):
    r = runner.invoke(app, ["runs", "list"])  # the default runs/ does not exist yet
    assert r.exit_code == 0 and "no runs in runs (the runs_dir setting; no such folder yet)" in _text(r)
    assert not (tmp_path / "runs").exists()
    (tmp_path / "runs").mkdir()
    r = runner.invoke(app, ["runs", "list"])
    assert r.exit_code == 0 and "no runs in runs. Start one with `automind solve TASK`" in _text(r)
    r = runner.invoke(app, ["runs", "list", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout) == []


def test_live_status_from_the_recorded_process():
    me = this_process()
    assert live_status({"status": "running", "process": me}) == ("running", None)
    reused = {**me, "started": me["started"] - 1000}  # same pid, another process: the writer is gone
    assert live_status({"status": "running", "process": reused})[0] == "interrupted"
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    dead = {"pid": child.pid, "host": socket.gethostname(), "started": None}
    status, note = live_status({"status": "running", "process": dead})
    assert status == "interrupted" and f"process {child.pid} is gone" in note
    away = {"pid": 1, "host": "elsewhere.example", "started": 0.0}
    now = time.time()
    assert live_status({"status": "running", "process": away, "heartbeat": now - 60}, now)[0] == "running"
    status, note = live_status({"status": "running", "process": away, "heartbeat": now - 7200}, now)
    assert status == "interrupted" and "no update from host elsewhere.example for 120 min" in note
    assert live_status({"status": "finished", "process": dead}) == ("finished", None)


CHILD = """
import importlib.util, sys
from pathlib import Path
spec = importlib.util.spec_from_file_location("search_fakes", {fakes!r})
fakes = importlib.util.module_from_spec(spec); sys.modules["search_fakes"] = fakes; spec.loader.exec_module(fakes)
from automind.config import load_config
from automind.run import solve
s = load_config({{"search.steps": 3, "search.num_drafts": 3, "knowledge.enabled": False, "experience.enabled": False,
                 "llm.provider": "none", "search.safety_net_share": 1.0}}, environ={{}}, cwd=Path("/nonexistent")).settings
solve({task!r}, s, out={out!r}, roles=fakes.ScriptedRoles({{"*": [fakes.script(0.7, sleep=60)]}}))
"""


@pytest.mark.slow
def test_a_run_killed_with_sigkill_is_listed_as_interrupted(task_dir, tmp_path):
    out = tmp_path / "runs" / "killed"
    code = CHILD.format(fakes=str(Path(__file__).with_name("fakes.py")), task=str(task_dir), out=str(out))
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            info = out / "run.json"
            if info.is_file() and json.loads(info.read_text()).get("status") == "running":
                break
            assert proc.poll() is None, "the run ended before it could be killed"
            time.sleep(0.2)
        r = runner.invoke(app, ["runs", "list", "--dir", str(out.parent), "--json"])
        assert json.loads(r.stdout)[0]["status"] == "running"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the run and the script it was executing
        proc.wait()
    r = runner.invoke(app, ["runs", "list", "--dir", str(out.parent), "--json"])
    row = json.loads(r.stdout)[0]
    assert row["status"] == "interrupted" and f"process {proc.pid} is gone" in row["note"]
    assert f"automind solve --resume {out}" in row["note"]


def test_solve_out_that_cannot_be_written(task_dir, tmp_path, folder_state):
    (tmp_path / "afile").write_text("x")
    before = folder_state(tmp_path)
    r = runner.invoke(app, ["solve", str(task_dir), "--out", str(tmp_path / "afile")])
    assert r.exit_code == 1 and "afile: exists and is not a folder" in _text(r)
    r = runner.invoke(app, ["solve", str(task_dir), "--out", str(tmp_path / "afile" / "run")])
    assert r.exit_code == 1 and "is a file, so no folder can be created under it" in _text(r)
    assert folder_state(tmp_path) == before


@pytest.mark.skipif(not Path("/sys/class").is_dir(), reason="needs sysfs")
def test_solve_out_in_a_place_that_refuses_writes(task_dir, tmp_path, folder_state):
    before = folder_state(tmp_path)
    r = runner.invoke(app, ["solve", str(task_dir), "--out", "/sys/automind-run"])
    assert r.exit_code == 1 and "--out /sys/automind-run: cannot write in /sys" in _text(r)
    assert "Pass a writable --out folder" in _text(r) and not Path("/sys/automind-run").exists()
    assert folder_state(tmp_path) == before
