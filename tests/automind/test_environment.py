"""The environment probe: the sandbox interpreter's libraries and the hardware, probed once per run."""

from __future__ import annotations

import json
import os
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from automind import environment
from automind.config import load_config


def test_probe_lists_this_interpreters_versions():
    env = environment.probe()
    assert env.libraries["numpy"] == version("numpy") and env.libraries["scikit-learn"] == version(
        "scikit-learn"
    )
    assert env.python_version == ".".join(map(str, sys.version_info[:3]))
    assert f"numpy {version('numpy')}" in env.library_text()
    assert "chromadb" not in env.library_text()  # installed, but not something a solution needs


def test_probe_asks_the_given_interpreter(tmp_path: Path):
    fake = tmp_path / "python"
    fake.write_text(
        '#!/bin/sh\necho \'{"python": "3.9.1", "distributions": {"xgboost": "9.9", "zzz": "1"}}\'\n'
    )
    fake.chmod(0o755)
    env = environment.probe(str(fake))
    assert env.library_text() == "Python 3.9.1: xgboost 9.9"


def test_hardware_text_states_cores_memory_limit_and_gpus():
    env = environment.Environment(
        cpus=16, machine_memory_mb=131072, gpus=[environment.Gpu("NVIDIA H200", 143771)]
    )
    assert (
        env.hardware_text(4, 8192)
        == "16 CPU cores (thread pools set to 4), memory limit 8.0 GB, GPU: NVIDIA H200 (140.4 GB)"
    )
    plain = environment.Environment(cpus=1, machine_memory_mb=2048)
    assert (
        plain.hardware_text(1, None)
        == "1 CPU core (thread pools set to 1), 2.0 GB memory, no limit set, no GPU visible"
    )


def test_gpus_from_nvidia_smi(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    smi = tmp_path / "nvidia-smi"
    smi.write_text("#!/bin/sh\necho 'NVIDIA A10, 23028'\necho 'NVIDIA A10, 23028'\n")
    smi.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert [g.name for g in environment.probe().gpus] == ["NVIDIA A10", "NVIDIA A10"]
    monkeypatch.setenv("PATH", "/nonexistent")
    assert environment._gpus(5) == []


def test_for_run_caches_in_the_run_folder_and_failures_are_noted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    notes: list[str] = []
    first = environment.for_run(tmp_path, notes)
    assert first is not None and notes == []
    cached = json.loads((tmp_path / "environment.json").read_text())
    assert cached["libraries"]["numpy"] == version("numpy")

    def broken(*a, **k):
        raise OSError("no python")

    monkeypatch.setattr(environment, "probe", broken)
    assert environment.for_run(tmp_path, notes) == first  # the cache answers, no second probe
    assert environment.for_run(tmp_path / "other", notes) is None
    assert "environment probe failed (OSError: no python)" in notes[0]
    settings = load_config({"sandbox.memory_mb": 0}, environ={}, cwd=tmp_path).settings
    facts = environment.prompt_facts(first, settings)
    assert "no limit set" in facts["hardware"] and environment.prompt_facts(None, settings) == {}
