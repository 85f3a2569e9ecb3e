"""The shipped code type-checks: mypy with the project's configuration ([tool.mypy] in pyproject.toml).

This is where CI checks types (`make test` runs pytest). mypy keeps its incremental cache in .mypy_cache
at the repository root: after a small change a run takes seconds, a cold one (a fresh checkout) about a
minute. It runs in a child process: in-process, mypy keeps ~900 MB and its GC and recursion settings
in the test process for the rest of the suite.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_reports_no_errors():
    pytest.importorskip("mypy.api", reason="mypy is not installed (it is in the dev extra)")
    res = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml")],
        cwd=ROOT,  # [tool.mypy] files are relative to the repository root
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, (
        f"mypy found problems (run `mypy` at the repository root):\n{res.stdout}{res.stderr}"
    )
