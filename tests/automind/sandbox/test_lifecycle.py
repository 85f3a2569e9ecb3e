"""Nothing left running, nothing left behind: the script's tree dies with automind, workspaces go."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from automind.cli import app
from automind.commands.exec import OWNER_FILE, TEMP_PREFIX, sweep_stale

CLI = [sys.executable, "-c", "from automind.cli import main; main()"]
# a script whose shell starts a grandchild; both report their pids, then everything waits forever
LINGER = """
import os, subprocess, time
subprocess.Popen(["sh", "-c", "sleep 300 & echo $$ $! > working/shell.pid; wait"])
open("working/script.pid", "w").write(f"{os.getpid()}\\n")
time.sleep(300)
"""


def started_pids(ws: Path, procs) -> list[int]:
    pids = [int(x) for x in procs.wait_for(ws / "working" / "shell.pid", 20).split()]
    pids.append(int(procs.wait_for(ws / "working" / "script.pid", 20)))
    assert len(pids) == 3 and all(procs.alive(p) for p in pids)
    return pids


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_killing_automind_exec_kills_the_script_tree(task, tmp_path, procs, sig):
    script = tmp_path / "linger.py"
    script.write_text(LINGER)
    wd = tmp_path / "wd"
    env = os.environ | {"AUTOMIND_HOME": str(tmp_path / "home")}
    cli = subprocess.Popen([*CLI, "exec", str(task.root), str(script), "--workdir", str(wd), "--json"],
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    pids: list[int] = []
    try:
        pids = started_pids(wd / "exec-001", procs)
        cli.send_signal(sig)
        cli.wait(timeout=20)
        assert procs.wait_gone(pids, 5) == [], "the script's processes outlived automind"
        if sig == signal.SIGTERM:  # a catchable signal also cleans up and says so
            assert cli.returncode == 143, cli.stderr.read()
            assert not (wd / "exec-001").exists()
            assert b"interrupted (SIGTERM)" in cli.stderr.read()
    finally:
        cli.kill()
        procs.kill(pids)


def test_killing_a_solve_process_kills_its_session(task, tmp_path, procs):
    """The agent's path (a Python process holding a session) behaves the same on SIGKILL."""
    holder = f"""
import threading, time
from automind.sandbox import Sandbox
sb = Sandbox({str(task.root)!r}, {str(tmp_path / "wd")!r}, timeout_s=300, memory_mb=1024, threads=1)
s = sb.session()
threading.Thread(target=s.run, args=({LINGER!r},), daemon=True).start()  # a busy cell
time.sleep(300)
"""
    parent = subprocess.Popen([sys.executable, "-c", holder], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    pids: list[int] = []
    try:
        pids = started_pids(tmp_path / "wd" / "session-001", procs)
        parent.kill()
        parent.wait(timeout=10)
        assert procs.wait_gone(pids, 5) == []
    finally:
        parent.kill()
        procs.kill(pids)


GOOD = "open('submission/submission.csv', 'w').write('id,y\\n3,0\\n')\n"


def test_exec_removes_its_temp_workspace_unless_kept(task, tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", None)
    script = tmp_path / "s.py"
    script.write_text(GOOD)
    r = CliRunner().invoke(app, ["exec", str(task.root), str(script), "--json"])
    report = json.loads(r.stdout)
    assert r.exit_code == 0 and report["workspace_kept"] is False
    assert not Path(report["exec"]["workspace"]).exists()
    assert list((tmp_path / "tmp").iterdir()) == []
    r = CliRunner().invoke(app, ["exec", str(task.root), str(script), "--json", "--keep-workspace"])
    report = json.loads(r.stdout)
    assert report["workspace_kept"] is True
    kept = Path(report["exec"]["workspace"])
    assert (kept / "submission" / "submission.csv").is_file()
    assert not (kept.parent / OWNER_FILE).exists()  # no later exec sweeps what the user kept
    assert sweep_stale(tmp_path / "tmp") == []
    r = CliRunner().invoke(app, ["exec", str(task.root), str(script)])
    assert "workspace removed" in r.output and "contained by" in r.output


def test_exec_with_a_workdir_removes_only_what_it_made(task, tmp_path):
    wd = tmp_path / "mine"
    wd.mkdir()
    (wd / "notes.txt").write_text("the user's")
    script = tmp_path / "s.py"
    script.write_text(GOOD)
    r = CliRunner().invoke(app, ["exec", str(task.root), str(script), "--workdir", str(wd)])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in wd.iterdir()) == ["notes.txt"]


def test_stale_temp_workspaces_of_killed_runs_are_swept(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f"{TEMP_PREFIX}old"
    (stale / "exec-001" / "input").mkdir(parents=True)
    os.chmod(stale / "exec-001" / "input", 0o555)
    (stale / OWNER_FILE).write_text(json.dumps({"pid": dead.pid, "started": time.time() - 100}))
    live = tmp_path / f"{TEMP_PREFIX}live"
    live.mkdir()
    import psutil

    (live / OWNER_FILE).write_text(
        json.dumps({"pid": os.getpid(), "started": psutil.Process().create_time()})
    )
    foreign = tmp_path / f"{TEMP_PREFIX}foreign"  # no owner file: not ours to judge
    foreign.mkdir()
    assert sweep_stale(tmp_path) == [stale]
    assert not stale.exists() and live.exists() and foreign.exists()


def test_sigterm_stops_a_solve_like_ctrl_c(task, tmp_path):
    """A scheduler's or `timeout`'s SIGTERM once killed `automind solve` mid-step with run.json still saying
    "running": now the run stops as on Ctrl-C, is recorded as interrupted, and exits 143."""
    run = tmp_path / "run"
    env = os.environ | {
        "AUTOMIND_HOME": str(tmp_path / "home"),
        "AUTOMIND_KNOWLEDGE__EMBEDDER": "hash",
        "OPENAI_API_KEY": "",
        "OPENAI_BASE_URL": "",
    }
    argv = [
        *CLI,
        "solve",
        str(task.root),
        "--llm",
        "none",
        "--no-knowledge",
        "--steps",
        "500",
        "--out",
        str(run),
    ]
    cli = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (run / "nodes" / "0").is_dir():
            time.sleep(0.2)  # the search is running its first step
        assert (run / "nodes" / "0").is_dir(), cli.stderr.read() if cli.poll() is not None else "no step yet"
        cli.send_signal(signal.SIGTERM)
        out, err = cli.communicate(timeout=60)
        assert cli.returncode == 143, err.decode()
        assert b"continue with `automind solve --resume" in out
        assert json.loads((run / "run.json").read_text())["status"] == "interrupted"
    finally:
        cli.kill()
