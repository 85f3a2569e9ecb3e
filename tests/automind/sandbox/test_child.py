"""The child-side modules on their own: guard decisions, session cells, the tree walk, mountinfo."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from automind.sandbox.child import namespaces, session_runner, supervisor
from automind.sandbox.child.startup import sitecustomize as guard_module


@pytest.fixture
def guard(tmp_path: Path) -> guard_module.Guard:
    ws = tmp_path / "ws"
    (ws / "input").mkdir(parents=True)
    (tmp_path / "task" / "private").mkdir(parents=True)
    return guard_module.Guard(
        {
            "workspace": str(ws),
            "input": str(ws / "input"),
            "private": str(tmp_path / "task" / "private"),
            "writable_extra": ["/dev/null"],
            "fast_read": ["/usr/"],
            "violations": str(tmp_path / "violations.log"),
            "exc_json": str(tmp_path / "exc.json"),
        }
    )


def test_guard_decisions(guard, tmp_path):
    ws = tmp_path / "ws"
    assert guard.can_write(str(ws / "working" / "x")) and guard.can_write("/dev/null")
    assert not guard.can_write(str(ws / "input" / "train.csv")) and not guard.can_write(str(tmp_path / "x"))
    assert guard.is_private(str(tmp_path / "task" / "private" / "answers.csv"))
    assert guard.mentions_private(f"cat {tmp_path}/task/private/answers.csv")
    assert not guard.mentions_private("cat input/train.csv")
    guard.check_open((str(ws / "working" / "ok.txt"), "w", 0))
    guard.check_open(("/usr/lib/os-release", "r", 0))
    with pytest.raises(PermissionError, match="input/ is read-only"):
        guard.check_open((str(ws / "input" / "train.csv"), "a", 0))
    with pytest.raises(PermissionError, match="private"):
        guard.check_open((str(tmp_path / "task" / "private" / "answers.csv"), "r", 0))
    with pytest.raises(PermissionError, match="outside the workspace"):
        guard.check("os.remove", (str(tmp_path / "victim"),))
    with pytest.raises(PermissionError, match="private"):
        guard.check("subprocess.Popen", ("cat", [f"{tmp_path}/task/private/answers.csv"]))
    log = (tmp_path / "violations.log").read_text().splitlines()
    assert len(log) == 4 and log[0].startswith("open: input/ is read-only")


def test_guard_records_the_uncaught_exception(guard, tmp_path):
    try:
        raise KeyError("col_x")
    except KeyError as e:
        guard.record_exception(KeyError, e, e.__traceback__)
    text = (tmp_path / "exc.json").read_text()
    assert '"exc_type": "KeyError"' in text and "col_x" in text


def test_session_cells_share_a_namespace_and_report_errors(capsys):
    ns: dict = {"__name__": "__main__"}
    assert session_runner.run_cell("x = 41", "<cell 1>", ns)["exit_code"] == 0
    out = session_runner.run_cell("x += 1\nprint(x)\n{}['k']", "<cell 2>", ns)
    assert out["exc_type"] == "KeyError" and "<cell 2>" in out["traceback"] and "line 3" in out["traceback"]
    assert capsys.readouterr().out.strip() == "42"
    assert session_runner.run_cell("raise SystemExit(3)", "<cell 3>", ns)["exit_code"] == 3
    assert session_runner.run_cell("raise SystemExit", "<cell 4>", ns)["exit_code"] == 0


def test_descendants_sees_the_whole_tree():
    shell = subprocess.Popen(["sh", "-c", "sleep 30 & sleep 30 & wait"])
    try:
        for _ in range(100):
            found = supervisor.descendants(os.getpid())
            if len(found) >= 3:
                break
            __import__("time").sleep(0.02)
        assert shell.pid in found and len(found) >= 3
    finally:
        for pid in supervisor.descendants(shell.pid):
            os.kill(pid, 9)
        shell.kill()
        shell.wait()


def test_mountinfo_names_are_unescaped():
    assert namespaces._unescape(r"/mnt/with\040space") == "/mnt/with space"
    assert namespaces._unescape(r"/a\134b") == "/a\\b"
    points = dict(namespaces.mounts())
    assert "/" in points and points["/"]


def test_plan_from_the_parents_json():
    plan = namespaces.Plan.from_dict({"network": False, "writable": ["/w"], "readonly": [["/s", "/w/input"]]})
    assert plan.network is False and plan.readonly == [("/s", "/w/input")] and plan.hide == []
    assert plan.shm_mb is None


def test_supervisor_refuses_to_start_an_orphan(tmp_path):
    """A supervisor whose parent is already gone exits at once instead of running the script."""
    cfg = tmp_path / "cfg.json"
    marker = tmp_path / "ran"
    argv = [sys.executable, "-c", f"open({str(marker)!r}, 'w')"]
    cfg.write_text(
        json.dumps({"parent_pid": 1, "argv": argv, "env": {}, "cwd": str(tmp_path), "isolation": None})
    )
    root = str(Path(supervisor.__file__).resolve().parents[3])
    done = subprocess.run(
        [sys.executable, "-S", "-m", "automind.sandbox.child.supervisor", str(cfg)],
        env={"PYTHONPATH": root},
        timeout=30,
    )
    assert done.returncode == supervisor.SUPERVISOR_FAILED and not marker.exists()
