"""A toy task with answers and symlinks, and helpers to see which processes are still alive."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

import psutil
import pytest

from automind.sandbox.isolation import probe
from automind.task import MetricSpec, Task, TaskSpec

SECRET = "the-answer-is-42"


@pytest.fixture
def namespaces() -> None:
    """Skip where the kernel refuses the namespaces (the copy fallback has its own tests)."""
    ok, why, _ = probe(True)
    if not ok:
        pytest.skip(f"kernel namespaces unavailable here: {why}")


@pytest.fixture
def secret() -> str:
    return SECRET


def build_task(root: Path) -> Task:
    """public/ with plain files, a nested folder; private/answers.csv holding SECRET."""
    (root / "public" / "images").mkdir(parents=True)
    (root / "private").mkdir()
    (root / "public" / "train.csv").write_text("id,y\n1,0\n2,1\n")
    (root / "public" / "test.csv").write_text("id\n3\n")
    (root / "public" / "images" / "a.txt").write_text("pixels")
    (root / "public" / "sample_submission.csv").write_text("id,y\n3,0\n")
    (root / "private" / "answers.csv").write_text(f"id,y\n3,{SECRET}\n")
    (root / "description.md").write_text("toy")
    (root / "task.yaml").write_text("name: toy\nmetric: accuracy\nid_column: id\ntarget_columns: [y]\n")
    spec = TaskSpec(name="toy", metric=MetricSpec(name="accuracy"), id_column="id", target_columns=["y"])
    return Task(root, spec, "toy")


@pytest.fixture
def task(tmp_path: Path) -> Task:
    return build_task(tmp_path / "task")


@pytest.fixture
def make_task():
    return build_task


class Procs:
    """Waiting on processes and files a sandboxed script reports."""

    @staticmethod
    def alive(pid: int) -> bool:
        return alive(pid)

    @staticmethod
    def wait_gone(pids: list[int], within_s: float) -> list[int]:
        return wait_gone(pids, within_s)

    @staticmethod
    def wait_for(path: Path, within_s: float) -> str:
        return wait_for(path, within_s)

    @staticmethod
    def kill(pids: list[int]) -> None:
        kill_quietly(pids)


@pytest.fixture
def procs() -> Procs:
    return Procs()


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def wait_gone(pids: list[int], within_s: float) -> list[int]:
    """Pids still alive after `within_s` seconds."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        left = [p for p in pids if alive(p)]
        if not left:
            return []
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


def wait_for(path: Path, within_s: float) -> str:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if path.is_file() and path.read_text().endswith("\n"):
            return path.read_text()
        time.sleep(0.05)
    raise AssertionError(f"{path} never appeared")


def kill_quietly(pids: list[int]) -> None:
    for p in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(p, 9)
