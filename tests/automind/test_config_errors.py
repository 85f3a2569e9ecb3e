"""Bad configuration from every layer is a clear CLI error naming the source, never a traceback or a silent skip."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from automind.cli import app

runner = CliRunner()


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working folder with its own home, so only what a test writes is configured."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    for name in ("AUTOMIND_SEARCH__STEPS", "AUTOMIND_SEARCH"):
        monkeypatch.delenv(name, raising=False)
    return work


def _text(result) -> str:
    return " ".join(result.output.split())


def test_non_utf8_config_file(here: Path, folder_state) -> None:
    (here / "automind.yaml").write_bytes("search:\n  steps: 3 # caf\xe9\n".encode("latin-1"))
    before = folder_state(here)
    r = runner.invoke(app, ["config", "show"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert f"{here / 'automind.yaml'}: not UTF-8 text (byte 0xe9 on line 2)" in _text(r)
    assert "Save the file as UTF-8" in _text(r)
    assert folder_state(here) == before


def test_env_variable_naming_a_section_is_an_error(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTOMIND_SEARCH", "5")
    r = runner.invoke(app, ["config", "show"])
    assert r.exit_code == 1
    assert "env AUTOMIND_SEARCH='5': 'search' is a section, not a value" in _text(r)
    assert "AUTOMIND_SEARCH__<KEY>" in _text(r)


@pytest.mark.parametrize(
    "name,value,key",
    [
        ("AUTOMIND_SEARCH__TIME_LIMIT_S", "inf", "search.time_limit_s"),
        ("AUTOMIND_SANDBOX__TIMEOUT_S", ".nan", "sandbox.timeout_s"),
        ("AUTOMIND_LLM__BUDGET_USD", ".inf", "llm.budget_usd"),
        ("AUTOMIND_SEARCH__EXEC_TIMEOUT_S", "NaN", "search.exec_timeout_s"),
    ],
)
def test_infinite_or_nan_budgets_from_env(
    here: Path, monkeypatch: pytest.MonkeyPatch, name, value, key
) -> None:
    monkeypatch.setenv(name, value)
    r = runner.invoke(app, ["config", "show"])
    assert r.exit_code == 1
    assert f"{key} (from env {name}): Input should be a finite number" in _text(r)


def test_infinite_time_limit_flag_stops_solve_before_anything_is_written(here: Path, folder_state) -> None:
    (here / "task").mkdir()
    before = folder_state(here)
    r = runner.invoke(app, ["solve", "task", "--time-limit", "inf", "--out", "run"])
    assert r.exit_code == 1
    assert "search.time_limit_s (from a command-line flag): Input should be a finite number" in _text(r)
    assert folder_state(here) == before


def test_infinite_exec_timeout_flag(here: Path) -> None:
    (here / "s.py").write_text("print(1)\n")
    r = runner.invoke(app, ["exec", str(here), str(here / "s.py"), "--timeout", "inf"])
    assert (
        r.exit_code == 1
        and "sandbox.timeout_s (from a command-line flag): Input should be a finite number" in _text(r)
    )
