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
from automind.search.journal import Journal, MetricValue, Node
from automind.search.policy import STUCK_DRAFTS, stuck


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
def test_a_latin1_train_csv_is_read_in_its_own_encoding_and_the_run_says_so(task_dir, tmp_path):
    """A latin-1 train.csv through a real offline solve: the recipes read it (accents intact), the nodes
    are valid, the run names the encoding it chose, and the user's file is untouched."""
    train = task_dir / "public" / "train.csv"
    rows = train.read_text().splitlines()
    rows[0] += ",city"
    cities = ["Montréal", "Québec"]
    rows[1:] = [f"{r},{cities[i % 2]}" for i, r in enumerate(rows[1:])]
    train.write_bytes(("\n".join(rows) + "\n").encode("latin-1"))
    before, stat = train.read_bytes(), train.stat()
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
    assert summary["status"] == "finished" and summary["valid"] == 2
    assert any("train.csv is not UTF-8 text: read as cp1252" in f for f in summary["fallbacks"])
    nodes = json.loads((out / "journal.json").read_text())["nodes"]
    assert all("train.csv is not UTF-8: read as cp1252" in n["output"] for n in nodes)  # the script's log
    analysis = json.loads((out / "analysis.json").read_text())
    city = next(
        c for t in analysis["tables"] if t["role"] == "train" for c in t["columns"] if c["name"] == "city"
    )
    assert "Montréal" in city["summary"] or "Québec" in city["summary"]
    after = train.stat()  # the user's file is untouched: content, mode, modification time
    assert train.read_bytes() == before and (after.st_mode, after.st_mtime_ns) == (
        stat.st_mode,
        stat.st_mtime_ns,
    )


def test_a_search_whose_drafts_all_fail_alike_before_running_stops_and_says_why(
    task_dir, tmp_path, settings_factory
):
    roles = ScriptedRoles({"*": [RoleError("cannot read train.csv: bad bytes")]})
    s = settings_factory(**{"search.steps": 60, "search.num_drafts": 2})
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles)
    assert res.status == "stuck" and len(res.journal) < 60
    assert len(res.journal.drafts) == STUCK_DRAFTS
    assert "cannot read train.csv: bad bytes" in (res.stopped_early or "")
    info = json.loads((tmp_path / "run" / "run.json").read_text())
    assert info["stop_reason"] == "stuck" and "cannot read train.csv" in info["stopped_early"]
    assert res.summary()["stopped_early"] == res.stopped_early
    page = (tmp_path / "run" / "report.html").read_text()
    assert "stopped early" in page and "cannot read train.csv: bad bytes" in page


def _failed(action: str, error: str, parent: Node | None = None) -> Node:
    node = Node(action=action, parent=parent)
    node.is_buggy, node.error = True, error
    return node


def test_stuck_needs_the_same_role_error_on_every_node_of_the_last_drafts_and_no_valid_node():
    same = "RoleError: recipes cannot read train.csv"
    journal = Journal()
    for _ in range(STUCK_DRAFTS - 1):
        draft = journal.append(_failed("draft", same))
        journal.append(_failed("debug", same, draft))
    assert stuck(journal) is None  # one draft short
    journal.append(_failed("draft", same))
    assert stuck(journal) == same
    journal.append(_failed("debug", "RoleError: something else", journal.nodes[-1]))
    assert stuck(journal) is None  # two different failures: the next draft may differ
    ran = Journal()
    for _ in range(STUCK_DRAFTS):
        ran.append(_failed("draft", "ValueError: a script crashed"))
    assert stuck(ran) is None  # a script ran: its errors are its own, not the data's
    valid = Journal()
    valid.append(Node(action="draft", is_buggy=False, metric=MetricValue(0.5)))
    for _ in range(STUCK_DRAFTS):
        valid.append(_failed("draft", same))
    assert stuck(valid) is None
