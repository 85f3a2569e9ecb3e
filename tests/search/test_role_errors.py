"""Whatever a role raises costs one node, with the reason on it, never the run (issue 11).

Only a spent budget and Ctrl-C stop a run; every other exception from a role (not just RoleError)
becomes a buggy node whose error names the role, the method and the exception.
"""

from __future__ import annotations

import json

import pytest
from search_fakes import ScriptedRoles, script
from typer.testing import CliRunner

from automind.cli import app
from automind.errors import BudgetExceeded, RoleError
from automind.run import solve
from automind.search.guard import GuardedRoles, guarded


def test_any_exception_in_plan_becomes_a_buggy_node(task_dir, tmp_path, settings_factory):
    roles = ScriptedRoles({"*": [script(0.7)]}, plan_errors={1: KeyError("target")})
    s = settings_factory(**{"search.steps": 2, "search.num_drafts": 2})
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles)
    first, second = res.journal.nodes
    assert res.status == "finished" and first.status == "buggy" and second.metric.value == 0.7
    assert "the llm role's plan raised KeyError: 'target'" in first.error
    assert "test_role_errors.py" not in first.error and "fakes.py:" in first.error  # where it was raised
    saved = json.loads((tmp_path / "run/journal.json").read_text())
    assert saved["nodes"][0]["error"] == first.error


def test_an_exception_in_repair_keeps_the_failed_code(task_dir, tmp_path, settings_factory):
    class BrokenRepair(ScriptedRoles):
        def repair(self, ctx, code, error, step=None):
            raise ZeroDivisionError("division by zero")

    roles = BrokenRepair({"*": [script(0.5, bug=True)]})
    s = settings_factory(**{"search.steps": 1, "search.num_drafts": 1, "coding.one_pass_tries": 3})
    node = solve(task_dir, s, out=tmp_path / "run", roles=roles).journal.get("0")
    assert node.status == "buggy" and "injected bug" in node.code  # the failed code is kept for debug
    assert "repair failed: the llm role's repair raised ZeroDivisionError" in node.output


def test_budget_and_interrupts_pass_the_guard():
    class Stops(ScriptedRoles):
        def plan(self, ctx):
            raise self.error

    roles = Stops({})
    for error in (BudgetExceeded("spent"), KeyboardInterrupt()):
        roles.error = error
        with pytest.raises(type(error)):
            guarded(roles).plan(None)  # type: ignore[arg-type]
    roles.error = RoleError("as it was")
    with pytest.raises(RoleError, match="^as it was$"):  # a RoleError keeps its own message
        guarded(roles).plan(None)  # type: ignore[arg-type]
    g = guarded(roles)
    assert isinstance(g, GuardedRoles) and guarded(g) is g and g.name == "llm" and g.llm is None


@pytest.mark.slow
def test_non_utf8_train_csv_gives_buggy_nodes_not_a_crash(task_dir, tmp_path, monkeypatch):
    """A latin-1 train.csv through a real offline solve: the run finishes, each node says why."""
    train = task_dir / "public" / "train.csv"
    rows = train.read_text().splitlines()
    rows[0] += ",city"
    rows[1:] = [f"{r},Montr\xe9al" for r in rows[1:]]
    train.write_bytes(("\n".join(rows) + "\n").encode("latin-1"))
    before = train.read_bytes()
    out = tmp_path / "run"
    res = CliRunner().invoke(
        app,
        [
            "solve",
            str(task_dir),
            "--steps",
            "2",
            "--llm",
            "none",
            "--no-knowledge",
            "--out",
            str(out),
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output)
    assert summary["status"] == "finished" and summary["steps"] == 2 and summary["valid"] == 0
    nodes = json.loads((out / "journal.json").read_text())["nodes"]
    assert [n["status"] for n in nodes] == ["buggy", "buggy"]
    assert all("recipes cannot read train.csv: it is not UTF-8 text" in n["error"] for n in nodes)
    assert train.read_bytes() == before  # the user's file is untouched
