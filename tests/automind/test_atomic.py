"""The one atomic writer: a kill or an error mid-write leaves the old file, never a mix or a stray temp."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from automind import atomic


def test_writes_text_and_json_keeping_the_mode(tmp_path):
    path = tmp_path / "deep" / "run.json"
    atomic.write_json(path, {"a": Path("/x"), "b": [1]})
    assert json.loads(path.read_text()) == {"a": "/x", "b": [1]}
    assert path.stat().st_mode & 0o777 == 0o666 & ~_umask()  # not the 0600 of a temp file
    path.chmod(0o640)
    atomic.write_text(path, "é\n")
    assert path.read_text(encoding="utf-8") == "é\n" and path.stat().st_mode & 0o777 == 0o640
    assert os.listdir(path.parent) == ["run.json"]


def test_temp_names_are_unique_and_beside_the_target(tmp_path, monkeypatch):
    seen: list[str] = []
    real = os.replace

    def spy(src, dst):
        seen.append(str(src))
        real(src, dst)

    monkeypatch.setattr(atomic.os, "replace", spy)
    for _ in range(3):
        atomic.write_text(tmp_path / "journal.json", "{}")
    assert len(set(seen)) == 3  # two writers never share a temporary file
    assert all(Path(s).parent == tmp_path and Path(s).name.startswith(".journal.json-") for s in seen)


@pytest.mark.parametrize("where", ["write", "replace"])
def test_a_failed_write_keeps_the_old_file_and_removes_its_temp(tmp_path, monkeypatch, where):
    path = tmp_path / "state.json"
    path.write_text("old")

    def boom(*a, **k):
        raise OSError("disk full")

    if where == "replace":
        monkeypatch.setattr(atomic.os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        atomic.write_with(path, boom if where == "write" else lambda f: f.write("new"))
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["state.json"]


def test_a_kill_mid_write_leaves_the_old_file(tmp_path):
    path = tmp_path / "journal.json"
    path.write_text('{"nodes": 1}')
    code = (
        "import sys, time; from automind.atomic import write_with\n"
        "def slow(f):\n    f.write('{\"nodes\": '); f.flush(); print('writing', flush=True); time.sleep(30)\n"
        f"write_with({str(path)!r}, slow)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "writing"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=10)
    assert json.loads(path.read_text()) == {"nodes": 1}
    left = [p.name for p in tmp_path.iterdir() if p != path]
    assert len(left) == 1 and left[0].startswith(".journal.json-") and left[0].endswith(".tmp")
    atomic.write_json(path, {"nodes": 2})  # the next write is not confused by the stray temp
    assert json.loads(path.read_text()) == {"nodes": 2}


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
