"""Fixtures shared by every test folder."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

State = dict[str, tuple[str, int, int]]


def _state(root: Path) -> State:
    """Every entry under root (hidden ones included): content hash, mode and mtime."""
    out: State = {}
    for p in sorted(root.rglob("*")):
        st = p.lstat()
        digest = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() and not p.is_symlink() else "dir"
        out[str(p.relative_to(root))] = (digest, st.st_mode, st.st_mtime_ns if p.is_file() else 0)
    return out


@pytest.fixture
def folder_state() -> Callable[[Path], State]:
    """folder_state(root) -> a comparable snapshot, to assert a command changed and left nothing there."""
    return _state


@pytest.fixture
def run_in_workspace(monkeypatch) -> Callable[..., str]:
    """run_in_workspace(task, code, work) -> the printed log of a generated script run in `work`, a workspace
    holding the task's public files under input/ and an empty submission/ (as the sandbox lays it out)."""
    import contextlib
    import io
    import shutil

    def run(task, code: str, work: Path) -> str:
        shutil.copytree(task.public_dir, work / "input")
        (work / "submission").mkdir()
        out = io.StringIO()
        with monkeypatch.context() as m:
            m.chdir(work)
            with contextlib.redirect_stdout(out):
                exec(compile(code, "solution.py", "exec"), {"__name__": "__main__"})
        return out.getvalue()

    return run


@pytest.fixture(scope="session", autouse=True)
def private_automind_home(tmp_path_factory) -> Iterator[None]:
    """Every test's automind home (the default knowledge and experience store, caches, the ONNX model,
    automind.yaml) is a temp folder, never the user's: a run with experience on once wrote a hash-embedder
    store into ~/.automind/knowledge, which the next real solve could not read."""
    import os

    old = os.environ.get("AUTOMIND_HOME")
    if old is None:
        os.environ["AUTOMIND_HOME"] = str(tmp_path_factory.mktemp("automind-home"))
    yield
    if old is None:
        os.environ.pop("AUTOMIND_HOME", None)
