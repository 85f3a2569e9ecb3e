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


@pytest.fixture(scope="session")
def private_automind_home(tmp_path_factory) -> Iterator[None]:
    """Caches (query vectors, taxonomy vectors, the ONNX model) go to a temp home, never the user's.
    The folders that build stores use it for every test (an autouse fixture in their conftest)."""
    import os

    old = os.environ.get("AUTOMIND_HOME")
    if old is None:
        os.environ["AUTOMIND_HOME"] = str(tmp_path_factory.mktemp("automind-home"))
    yield
    if old is None:
        os.environ.pop("AUTOMIND_HOME", None)
