"""Verifier facts override the verdict; coder choice and one-pass repair, on real sandbox runs."""

from __future__ import annotations

import pytest
from search_fakes import BUG, ScriptedRoles, script

from automind.coding import choose, one_pass, rate_complexity
from automind.config import CodingConfig
from automind.errors import RoleError
from automind.roles import Context, Plan
from automind.sandbox import Sandbox
from automind.search.verifier import read_metric, verify
from automind.task import Task


@pytest.fixture
def task(task_dir):
    return Task.load(task_dir)


@pytest.fixture
def sandbox(task, tmp_path):
    return Sandbox(task, tmp_path / "work", timeout_s=20, memory_mb=2048, threads=1)


def judge(task, sandbox, code, **roles_kw):
    roles = ScriptedRoles(**roles_kw)
    ctx = Context(task=task, action="draft", analysis="")
    return verify(roles, ctx, task, code, sandbox.run_script(code))


def test_clean_script_is_valid_with_metric_from_file(task, sandbox):
    v = judge(task, sandbox, script(0.83))
    assert not v.buggy and v.metric == 0.83 and v.lower_is_better is False and v.notes == []


@pytest.mark.parametrize(
    "code,reason",
    [
        (script(0.8, bug=True), "RuntimeError: injected bug"),
        (script(0.8, submit=False), "no submission/submission.csv"),
        (script(None), "validation metric not found"),
        (
            script(0.8, threshold=0.5).replace('w.writerow(["id", "y"])', 'w.writerow(["idx", "y"])'),
            "invalid submission",
        ),
        ("import sys\nprint('score: 0.9')\nsys.exit(3)\n", "exited with code 3"),
        (script(float("nan")), "validation metric is nan"),
    ],
)
def test_facts_override_a_happy_verdict(task, sandbox, code, reason):
    v = judge(task, sandbox, code)  # the scripted verifier always says "looks fine"
    assert v.buggy and v.metric is None and reason in v.error


def test_rows_missing_from_submission_are_caught(task, sandbox):
    code = script(0.8).replace("    for r in rows:", "    for r in rows[:5]:")
    v = judge(task, sandbox, code)
    assert v.buggy and "invalid submission" in v.error


def test_printed_metric_line_when_no_file(task, sandbox):
    code = script(None) + 'print("Final Validation Performance: 0.77")\n'
    v = judge(task, sandbox, code)
    assert not v.buggy and v.metric == 0.77 and "printed line" in v.notes[0]


def test_a_last_printed_loss_is_never_taken_for_the_metric(task, sandbox):
    """Only the contract's line counts: a script that prints its score informally and ends with a
    training loss has no metric (the old fallback read 0.0412, the loss, as the score)."""
    v = judge(task, sandbox, script(0.77, print_only=True) + 'print("epoch 3 train loss: 0.0412")\n')
    assert v.buggy and v.metric is None and "validation metric not found" in v.error
    assert "Final Validation Performance" in v.error  # the reason says what to print


def test_verdict_bug_makes_node_buggy(task, sandbox):
    v = judge(task, sandbox, script(0.8), verdict_bug=True)
    assert v.buggy and v.error == "verifier: looks fine"


def test_task_direction_wins_and_majority_needs_reports(task, sandbox, monkeypatch):
    v = judge(task, sandbox, script(0.8), lower_is_better=True)
    assert v.lower_is_better is False  # accuracy: higher is better, whatever the verifier says
    monkeypatch.setattr("automind.search.verifier.task_direction", lambda t: None)
    v = judge(task, sandbox, script(0.8), lower_is_better=True)
    assert v.lower_is_better is True  # no known direction: the verifier's report is recorded for the vote


def test_verifier_role_failure_falls_back_to_facts(task, sandbox):
    class Broken(ScriptedRoles):
        def verify(self, ctx, code, result):
            raise RoleError("verifier reply was not JSON")

    ctx = Context(task=task, action="draft", analysis="")
    v = verify(Broken(), ctx, task, script(0.8), sandbox.run_script(script(0.8)))
    assert not v.buggy and v.metric == 0.8 and "verifier role failed" in v.notes[0]


def test_read_metric_prefers_file_then_the_contract_line(task, sandbox):
    lines = ["fold 1 auc: 0.70", "Final Validation Performance: 0.75", "CV AUC = 0.80", "train loss 0.1"]
    code = "import os\nos.makedirs('submission', exist_ok=True)\n" + "".join(
        f"print({ln!r})\n" for ln in lines
    )
    value, source = read_metric(sandbox.run_script(code))
    assert value == 0.75 and "Final Validation Performance" in source
    with_file = code + "open('submission/eval_metric.txt', 'w').write('0.6')\n"
    assert read_metric(sandbox.run_script(with_file)) == (0.6, "eval_metric.txt")


def test_complexity_rating_and_choice(task):
    roles = ScriptedRoles(complexity="hard")
    ctx, plan = Context(task=task, action="draft", analysis=""), Plan("p")
    assert rate_complexity(roles, ctx, plan) == 5.0
    roles._complexity = None
    assert rate_complexity(roles, ctx, plan) == 5.0
    roles._complexity = 9
    assert rate_complexity(roles, ctx, plan) == 5.0
    roles._complexity = 2.5
    assert rate_complexity(roles, ctx, plan) == 2.5
    assert choose("adaptive", 3.5, 3.5) == "one-pass" and choose("adaptive", 4.0, 3.5) == "stepwise"
    assert choose("one-pass", 5.0, 3.5) == "one-pass" and choose("stepwise", 1.0, 3.5) == "stepwise"


def test_syntax_error_is_repaired_without_executing(task, sandbox, tmp_path):
    roles = ScriptedRoles()
    broken = script(0.8).replace("import csv, os, time", "import csv, os, time\n" + BUG + "\ndef oops(:")
    ctx = Context(task=task, action="draft", analysis="")

    class Fixer(ScriptedRoles):
        def repair(self, ctx, code, error, step=None):
            self.calls.append(("repair", error))
            return script(0.8)

    roles = Fixer()
    out = one_pass(roles, ctx, broken, sandbox, tries=3)
    assert out.result.ok and out.attempts == 2 and out.error is None
    assert roles.calls[0][1].startswith("SyntaxError")
    assert len(list((tmp_path / "work").glob("exec-*"))) == 1  # the broken script never ran


def test_one_pass_gives_up_after_tries(task, sandbox):
    roles = ScriptedRoles(repair_fixes=False)
    ctx = Context(task=task, action="improve", analysis="")
    out = one_pass(roles, ctx, script(0.8, bug=True), sandbox, tries=CodingConfig().one_pass_tries)
    assert not out.result.ok and out.attempts == 3 and "injected bug" in out.error
    assert [c[0] for c in roles.calls] == ["repair", "repair"]


def test_failed_repair_keeps_the_failing_code(task, sandbox):
    roles = ScriptedRoles()  # its repair raises RoleError when the injected bug line is absent
    ctx = Context(task=task, action="draft", analysis="")
    code = "raise ValueError('bad column')\n"
    out = one_pass(roles, ctx, code, sandbox, tries=3)
    assert out.code == code and out.attempts == 1 and "ValueError: bad column" in out.error
    assert out.log[-1] == "repair failed: repair: nothing to fix"


def test_integration_check_accepts_moves_and_guards_but_not_changes():
    from automind.coding import integration_problem

    program = "import csv\nrows = [1, 2]\nprint(rows)\ndf_head = rows[:1]\ntotal = sum(rows)\nprint('Final Validation Performance: 1')\n"
    guarded = (
        "import csv\n\n\ndef unused_helper():\n    pass\n\n\n"
        'if __name__ == "__main__":\n    rows = [1, 2]\n    df_head = rows[:1]\n    total = sum(rows)\n'
    )
    assert integration_problem(program, program) is None
    assert (
        integration_problem(guarded, program) == "its statements differ from the executed steps"
    )  # an extra def
    moved = 'import csv\n\nif __name__ == "__main__":\n    rows = [1, 2]\n    df_head = rows[:1]\n    total = sum(rows)\n'
    assert integration_problem(moved, program) is None  # inspection prints dropped, code guarded
    assert integration_problem(moved.replace("sum(rows)", "max(rows)"), program) is not None
    assert (
        integration_problem(moved.replace("import csv", "import json"), program)
        == "it lost imports the steps used"
    )
    assert "does not parse" in integration_problem("def (:", program)
    fitting = "model.fit(X, y)\n"
    assert integration_problem("", fitting) is not None  # a dropped call that does work is a change
