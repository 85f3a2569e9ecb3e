"""Shared fixtures for the search tests: a tiny task, fast settings, and the scripted roles module."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("search_fakes", Path(__file__).with_name("fakes.py"))
fakes = importlib.util.module_from_spec(_spec)
sys.modules["search_fakes"] = fakes
_spec.loader.exec_module(fakes)


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("AUTOMIND_EXPERIENCE__ENABLED", "false")  # CLI runs: no store to open
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def task_dir(tmp_path):
    return fakes.make_task(tmp_path / "task")


def make_settings(**overrides):
    from automind.config import load_config

    base = {
        "search.steps": 4,
        "search.num_drafts": 2,
        "search.time_limit_s": 120,
        "search.exec_timeout_s": 20,
        "search.max_debug_depth": 2,
        "knowledge.enabled": False,
        "experience.enabled": False,
        "llm.provider": "none",
        "sandbox.memory_mb": 2048,
        "search.safety_net_share": 1.0,  # only the safety-net tests lower it
        # the scripted solutions report made-up scores as literals, which the leak check rightly flags;
        # tests/search/test_holdout.py and tests/automind/test_leakage.py cover the checks
        "verify.code_check": False,
        "search.refine.outer": 0,  # Algorithm 1 alone unless a test turns refine/ensemble on
        "search.ensemble.rounds": 0,
    }
    return load_config(base | overrides, environ={}, cwd=Path("/nonexistent")).settings


@pytest.fixture
def settings_factory():
    return make_settings
