"""`make demo` / `make test` check the Python version before installing anything, and say how to pick one."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def fake_python(folder: Path, version: str) -> Path:
    """A stand-in interpreter that only answers the version question."""
    path = folder / f"python{version}"
    path.write_text(f"#!/bin/sh\necho {version}\n")
    path.chmod(0o755)
    return path


def make(*args: str, venv: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["make", "-s", *args, f"VENV={venv}"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("goal", ["demo", "test"])
def test_an_unsupported_python_stops_before_anything_is_installed(goal, tmp_path):
    res = make(goal, f"PY={fake_python(tmp_path, '3.9')}", venv=tmp_path / "venv")
    assert res.returncode != 0 and not (tmp_path / "venv").exists()
    assert "is Python 3.9; automind needs Python 3.11 or 3.12" in res.stderr
    assert f"make {goal} PY=python3.11" in res.stderr


def test_not_a_python_and_a_venv_of_another_python_are_refused(tmp_path):
    res = make("demo", "PY=/no/such/python", venv=tmp_path / "venv")
    assert res.returncode != 0 and "is not a Python interpreter" in res.stderr
    (tmp_path / "venv" / "bin").mkdir(parents=True)
    shutil.copy(fake_python(tmp_path, "3.8"), tmp_path / "venv" / "bin" / "python")
    res = make("python-version", f"PY={fake_python(tmp_path, '3.11')}", venv=tmp_path / "venv")
    assert res.returncode != 0 and "was made with Python 3.8" in res.stderr and "make clean" in res.stderr


def test_a_supported_python_passes_the_check(tmp_path):
    assert (
        make("python-version", f"PY={fake_python(tmp_path, '3.11')}", venv=tmp_path / "venv").returncode == 0
    )


def test_ci_runs_exactly_make_test():
    lines = [x.strip() for x in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert [x for x in lines if x.startswith("make")] == ["make test"]
