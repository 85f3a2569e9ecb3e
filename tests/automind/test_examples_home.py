"""Bundled examples named on the command line are built under $AUTOMIND_HOME/tasks, never in the current folder."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from automind.cli import app

runner = CliRunner()


@pytest.fixture
def empty_cwd(tmp_path, monkeypatch) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("AUTOMIND_KNOWLEDGE__EMBEDDER", "hash")
    monkeypatch.setenv("AUTOMIND_EXPERIENCE__ENABLED", "false")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    return work


def _built(home: Path, name: str) -> str:
    return f"note: built example '{name}' in {home / 'tasks' / name} (reused next time)"


def test_grade_and_check_an_example_from_an_empty_folder(empty_cwd, tmp_path, folder_state):
    home = tmp_path / "home"
    r = runner.invoke(app, ["task", "check", "penguins"])
    assert r.exit_code == 0, r.output
    assert r.stderr.strip() == _built(home, "penguins")
    assert list(empty_cwd.iterdir()) == []  # nothing written in the current folder
    shutil.copy(home / "tasks/penguins/public/sample_submission.csv", empty_cwd / "sub.csv")
    before = folder_state(empty_cwd)
    r = runner.invoke(app, ["grade", "penguins", "sub.csv", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["valid"] and r.stderr == ""  # reused: nothing built, nothing said
    assert folder_state(empty_cwd) == before


def test_tips_on_an_example_from_an_empty_folder(empty_cwd, tmp_path, monkeypatch):
    # the configured store (not an explicit --store, which must already exist) is seeded on first use
    monkeypatch.setenv("AUTOMIND_STORE", str(tmp_path / "s"))
    r = runner.invoke(app, ["tips", "titanic", "--json", "--no-llm", "--k", "2"])
    assert r.exit_code == 0, r.output
    assert _built(tmp_path / "home", "titanic") in r.stderr
    assert json.loads(r.stdout)["tricks"]
    assert list(empty_cwd.iterdir()) == []


def test_solve_an_example_announces_where_it_was_built(empty_cwd, tmp_path, monkeypatch):
    seen: list[str] = []

    def fake_solve(task, settings, **kwargs):
        seen.append(task)
        raise KeyboardInterrupt  # stop before any search: only where the task lives matters here

    monkeypatch.setattr("automind.run.solve", fake_solve)
    r = runner.invoke(app, ["solve", "penguins", "--json"])
    assert r.exit_code == 130
    assert seen == [str(tmp_path / "home" / "tasks" / "penguins")]
    assert _built(tmp_path / "home", "penguins") in r.stderr
    assert list(empty_cwd.iterdir()) == []
