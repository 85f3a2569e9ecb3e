"""The disk limit: a script that writes without end is killed before it fills the user's disk."""

from __future__ import annotations

from pathlib import Path

from automind.sandbox import Sandbox
from automind.sandbox.process import disk_cap_mb, tree_bytes

# Appends 1 MB at a time for up to 60 s: a log written in a loop, or a checkpoint per step.
RUNAWAY = """
import os, time
chunk = os.urandom(1 << 20)
with open("log.bin", "wb") as f:
    for i in range(10_000):
        f.write(chunk)
        f.flush()
        time.sleep(0.01)
print("survived")
"""


def test_a_script_writing_without_end_is_killed(task, tmp_path):
    sb = Sandbox(task, tmp_path / "runs", timeout_s=60, memory_mb=1024, threads=1, disk_mb=40)
    r = sb.run_script(RUNAWAY)
    assert r.status == "error" and "disk limit of 40 MB" in r.message, r.output
    assert "survived" not in r.stdout and r.wall_s < 30  # stopped by the disk, not by the timeout
    assert not (r.workspace / "log.bin").exists() and "deleted to give the space back" in r.message
    assert (r.workspace / "solution.py").is_file()  # the script itself is kept
    assert tree_bytes(r.workspace) < 2 << 20


def test_writing_under_the_limit_and_no_limit(task, tmp_path):
    small = "open('out.bin', 'wb').write(b'x' * (5 << 20))\nprint('done')\n"
    r = Sandbox(task, tmp_path / "a", timeout_s=60, memory_mb=1024, threads=1, disk_mb=40).run_script(small)
    assert r.ok and "done" in r.stdout, r.output
    assert Sandbox(task, tmp_path / "b", timeout_s=60, memory_mb=1024, threads=1, disk_mb=0).disk_mb is None


def test_the_default_cap_is_half_the_free_space(tmp_path: Path):
    import shutil

    free_mb = shutil.disk_usage(tmp_path).free // 2**20
    cap = disk_cap_mb(tmp_path / "not" / "made" / "yet", None)
    assert cap is not None and abs(cap - free_mb // 2) <= max(16, free_mb // 100)
    assert disk_cap_mb(tmp_path, 0) is None and disk_cap_mb(tmp_path, 123) == 123


def test_inputs_are_not_counted(tmp_path: Path):
    (tmp_path / "input").mkdir()
    (tmp_path / "input" / "big.bin").write_bytes(b"x" * (3 << 20))
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "out.bin").write_bytes(b"y" * (1 << 20))
    assert (1 << 20) <= tree_bytes(tmp_path) < (2 << 20)


def test_a_persistent_session_is_held_to_the_same_limit(task, tmp_path):
    sb = Sandbox(task, tmp_path / "runs", timeout_s=60, memory_mb=1024, threads=1, disk_mb=40)
    with sb.session() as s:
        r = s.run(RUNAWAY)
        assert r.status == "error" and "disk limit of 40 MB" in r.message, r.output
        assert not s.alive and not (s.workspace / "log.bin").exists()
