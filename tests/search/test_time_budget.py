"""A budget is a budget: which limit applies, executions cut to the time left and told their limit, an
execution that would not fit is not started, and a timed run ends on time, finishing included."""

from __future__ import annotations

import json
import re
import time

from search_fakes import ScriptedRoles, script
from typer.testing import CliRunner

from automind.cli import app
from automind.config import DEFAULT_STEPS, DEFAULT_TIME_LIMIT_S, SearchConfig, load_config
from automind.roles import AblationRun
from automind.run import solve
from automind.search.budget import (
    FIT_SHARE,
    ablation_slices,
    attempt_cap,
    estimate,
    fits,
    lower_bound,
    start_share,
)
from automind.search.journal import Journal, MetricValue, Node


def test_the_budget_is_steps_time_or_both():
    assert SearchConfig().budget() == (DEFAULT_STEPS, DEFAULT_TIME_LIMIT_S)  # neither set: both defaults
    assert SearchConfig(steps=5).budget() == (5, None)  # steps only: no time limit
    assert SearchConfig(time_limit_s=30).budget() == (None, 30)  # time only: no step limit
    assert SearchConfig(steps=5, time_limit_s=30).budget() == (5, 30)  # both: whichever comes first
    s = load_config({"search.time_limit_s": 60}, environ={"AUTOMIND_SEARCH__REFINE__OUTER": "2"}).settings
    assert s.search.budget() == (None, 60.0) and s.search.refine.outer == 2


def test_solve_help_states_the_budget_rules_and_defaults():
    raw = CliRunner().invoke(app, ["solve", "--help"]).output
    out = " ".join(raw.replace("│", " ").split())  # rich wraps the help in a box
    assert f"{DEFAULT_STEPS} when neither is set" in out and f"{DEFAULT_TIME_LIMIT_S:g} when neither" in out
    assert "no step limit when a time limit is set" in out and "whichever comes first" in out


def _node(action: str, exec_s: float, parent: Node | None = None) -> Node:
    return Node(
        action=action, parent=parent, metric=MetricValue(0.5), is_buggy=False, timings={"exec": exec_s}
    )


def test_estimates_come_from_earlier_executions_of_the_same_kind():
    j = Journal(lower_is_better=False)
    assert estimate(j, "draft") is None and fits(None, 1.0)  # nothing known: it may start
    a = j.append(_node("draft", 40.0))
    j.append(_node("draft", 30.0))
    assert estimate(j, "draft") == 30.0  # the shortest recent one
    assert estimate(j, "improve", a) == 40.0  # none of its kind yet: its parent's own run
    assert estimate(j, "ensemble", a) is None  # ensembles train nothing: not estimated from parents
    j.append(_node("improve", 10.0, a))
    assert estimate(j, "improve", a) == 10.0
    assert fits(30.0, 15.0) and not fits(30.0, 14.0) and fits(30.0, None)  # half the estimate must be left
    assert fits(None, 6.0, floor_s=5.0) and not fits(None, 4.0, floor_s=5.0)  # and never less than the floor
    assert lower_bound(j, "draft") == 10.0 and lower_bound(j, "ensemble") == 0.0  # shortest training run


def test_a_killed_execution_never_shortens_the_estimate_and_an_ensemble_needs_all_of_its_own():
    """A run time cut by the deadline is a lower bound: counted, each kill made the next try look cheaper
    (two ensemble rounds in a row once started with half their estimate left and were both killed)."""
    j = Journal(lower_is_better=False)
    a = j.append(_node("draft", 20.0))
    j.append(_node("ensemble", 4.7, a))
    killed = j.append(_node("ensemble", 3.1, a))
    killed.timings["timeout"] = 3.1
    assert estimate(j, "ensemble") == 4.7
    assert start_share("ensemble") == 1.0 and start_share("draft") == FIT_SHARE
    assert not fits(4.7, 3.8, share=start_share("ensemble")) and fits(4.7, 4.7, share=start_share("ensemble"))
    assert fits(4.7, 3.8, share=start_share("draft"))  # a training script scales down to the time it gets


def test_sandbox_cuts_executions_to_the_deadline_and_tells_the_limit(task_dir, tmp_path):
    from automind.sandbox import Sandbox

    sb = Sandbox(task_dir, tmp_path / "wd", timeout_s=60, memory_mb=None, threads=1)
    sb.deadline = time.monotonic() + 2.0
    code = (
        'import os, time\nprint("limit", os.environ["AUTOMIND_TIME_LIMIT_S"], flush=True)\ntime.sleep(30)\n'
    )
    t0 = time.monotonic()
    res = sb.run_script(code)
    assert res.status == "timeout" and time.monotonic() - t0 < 6
    assert 1.0 < float(res.stdout.split()[1]) <= 2.0


def test_no_model_call_after_the_run_deadline(tmp_path):
    import pytest

    from automind.errors import LLMError
    from automind.llm.replay import ReplayLLM

    tape = tmp_path / "t.jsonl"
    tape.write_text('{"cassette": 1, "ordered": true}\n{"role": "planner", "text": "hi"}\n')
    llm = ReplayLLM(load_config({}, environ={}).settings.llm, tape)
    llm.stop_at = time.monotonic() - 1
    with pytest.raises(LLMError, match="time limit is reached"):
        llm.chat([{"role": "user", "content": "x"}])


def test_a_30_s_run_ends_on_time_and_skips_what_would_not_fit(task_dir, tmp_path, settings_factory):
    """Scripts of 12 s: two fit in 30 s less the finishing reserve (3 s); a third, with about 2 s left, is
    not started. The run, finishing and report included, ends within 10 s of its limit."""
    code = script(0.6, sleep=12) + 'import os\nprint("limit", os.environ["AUTOMIND_TIME_LIMIT_S"])\n'
    roles = ScriptedRoles({"*": [code]})
    s = settings_factory(**{"search.steps": None, "search.time_limit_s": 30, "search.num_drafts": 5})
    t0 = time.monotonic()
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles, started=t0)
    wall = time.monotonic() - t0
    assert res.status == "time" and wall <= 40
    assert len(res.journal) == 2 and all(n.status == "valid" for n in res.journal.nodes)
    info = json.loads((tmp_path / "run" / "run.json").read_text())
    # half the 12 s the drafts took, against the search time left: one decimal, so the two never read equal
    assert re.search(r"needs at least 6\.\d s and [0-5]\.\d s of search time were left \(3 s kept for the "
                     r"final refit and report\)", info["stopped_early"]), info["stopped_early"]  # fmt: skip
    assert info["budget"]["time_limit_s"] == 30 and info["budget"]["steps"] is None
    assert info["finished_after_s"] <= 40
    for n in res.journal.nodes:  # each script was told its limit, which ends before the finishing reserve
        limit = float(n.output.split("limit ")[1].split()[0])
        assert limit <= 30 - 3 - n.elapsed_s + n.timings["total"] + 0.5
    log = (tmp_path / "run" / "run.log").read_text()
    assert "s used, " in log and "s left" in log and "stopped: time" in log


def test_an_execution_cut_by_the_deadline_is_not_tried_again(task_dir, tmp_path):
    from automind.coding import one_pass
    from automind.roles import Context
    from automind.sandbox import Sandbox
    from automind.task import Task

    sb = Sandbox(task_dir, tmp_path / "wd", timeout_s=60, memory_mb=None, threads=1)
    sb.deadline = time.monotonic() + 1.0
    roles = ScriptedRoles({})
    ctx = Context(task=Task.load(task_dir), action="improve", analysis="")
    out = one_pass(roles, ctx, script(0.5, sleep=30), sb, 3)
    assert out.result.status == "timeout" and out.attempts == 1
    assert out.log[-1] == "the run's time is up: no further try" and not [
        c for c in roles.calls if c[0] == "repair"
    ]


def test_ablation_scripts_get_enough_time_each_or_do_not_run():
    assert ablation_slices(None, 5, 10.0, least=2) == (5, None)  # no time limit: all, uncut
    assert ablation_slices(60.0, 4, 10.0, least=2) == (4, 15.0)  # enough for all: equal slices
    assert ablation_slices(30.0, 5, 10.0, least=2) == (3, 10.0)  # the first three get what they need
    assert ablation_slices(15.0, 5, 10.0, least=2) == (0, None)  # baseline alone compares with nothing
    assert ablation_slices(15.0, 1, 10.0, least=1) == (1, 15.0)  # one script measuring every variant
    assert ablation_slices(15.0, 0, 10.0, least=0) == (0, None)


def test_a_refine_attempt_gets_time_in_proportion_to_its_base():
    assert attempt_cap(_node("draft", 27.0)) == 81.0  # three times the base's run
    assert attempt_cap(_node("draft", 2.0)) == 20.0  # never below the floor
    assert attempt_cap(Node(action="draft")) is None  # the base never ran: the execution caps alone


LIMIT_LINE = 'import os\nprint("limit", os.environ["AUTOMIND_TIME_LIMIT_S"])\n'


def _draft_and_attempt(task_dir, out, roles, settings_factory, **budget):
    """One draft, then one refine step with one attempt: both nodes and the limit each was told."""
    s = settings_factory(**{"search.steps": 2, "search.num_drafts": 1, "search.refine.outer": 1,
                            "search.refine.inner": 1} | budget)  # fmt: skip
    draft, attempt = solve(task_dir, s, out=out, roles=roles).journal.nodes
    assert attempt.action == "refine" and attempt.status == "valid"
    return draft, attempt, [float(n.output.split("limit ")[1].split()[0]) for n in (draft, attempt)]


def test_refine_attempts_run_under_the_cap_and_ablation_is_skipped_when_it_cannot_measure(
    task_dir, tmp_path, settings_factory
):
    """A draft of 5 s in a 30 s run leaves about 7 s for ablation, less than two scripts need (half of 5 s
    each): none runs and the record says why. The attempt is told a limit of 20 s (3 x 5 s is below the
    floor), not the whole time left."""

    class TwoAblations(ScriptedRoles):
        def ablation_scripts(self, ctx, covered, refined):
            return [AblationRun("baseline", ctx.parent_code or "", "as it is"),
                    *super().ablation_scripts(ctx, covered, refined)]  # fmt: skip

    roles = TwoAblations({"*": [script(0.6, sleep=5) + LIMIT_LINE]})
    draft, _, limits = _draft_and_attempt(task_dir, tmp_path / "run", roles, settings_factory,
                                          **{"search.time_limit_s": 30, "search.exec_timeout_s": 600})  # fmt: skip
    (rec,) = draft.ablations
    assert rec["run_seconds"] == [] and rec["ablation_note"].startswith("no time to ablate")
    assert limits[1] == 20.0
    assert "no time to ablate" in (tmp_path / "run" / "report.html").read_text()


def test_a_refine_attempt_is_told_its_capped_limit(task_dir, tmp_path, settings_factory):
    """With minutes left, the draft may use the execution cap but the attempt on it only ATTEMPT_FLOOR_S."""
    roles = ScriptedRoles({"*": [script(0.6) + LIMIT_LINE]})
    _, _, limits = _draft_and_attempt(task_dir, tmp_path / "run", roles, settings_factory,
                                      **{"search.time_limit_s": 600, "search.exec_timeout_s": 300})  # fmt: skip
    assert limits[0] > 200 and limits[1] == 20.0
