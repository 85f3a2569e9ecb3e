"""End-to-end solves with scripted roles: every search path runs real scripts in the real sandbox."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import re
import shutil
import time

import pytest
from search_fakes import BUG, FIX, ScriptedRoles, cells, script

from automind.errors import RoleError
from automind.roles import Context, Plan, Step, Trick
from automind.run import resume, solve
from automind.run_setup import RunKnowledge
from automind.search.journal import Journal


def test_draft_debug_improve_and_run_folder(task_dir, tmp_path, settings_factory):
    roles = ScriptedRoles(
        {
            "draft": [script(0.8), script(None, submit=False)],
            "debug": [script(0.85)],
            "improve": [script(0.9)],
        }
    )
    s = settings_factory(**{"search.steps": 4, "search.greedy_prob": 1.0})
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles)
    j = res.journal
    assert res.status == "finished" and len(j) == 4  # the step limit is honoured exactly
    assert [(n.action, n.status) for n in j.nodes] == [
        ("draft", "valid"),
        ("draft", "buggy"),
        ("debug", "valid"),
        ("improve", "valid"),
    ]
    assert "no submission/submission.csv" in j.get("1").error
    assert j.get("2").parent is j.get("1") and j.get("3").parent is j.get("2")  # greedy: best was 0.85
    assert res.best.id == "3" and res.best.metric.value == 0.9
    improve_ctx = roles.contexts[3]
    assert improve_ctx.parent_code == j.get("2").code and improve_ctx.trick is None
    assert any("-> validation 0.8" in m for m in improve_ctx.memory)
    debug_ctx = roles.contexts[2]
    assert "no submission" in debug_ctx.parent_output

    run = tmp_path / "run"
    for i in range(4):
        assert {p.name for p in (run / "nodes" / str(i)).iterdir()} >= {"plan.md", "code.py", "output.txt"}
    assert (run / "best_solution.py").read_text() == j.get("3").code
    assert (run / "submission.csv").read_bytes() == (run / "nodes/3/submission/submission.csv").read_bytes()
    info = json.loads((run / "run.json").read_text())
    assert info["status"] == "finished" and info["best"] == {"node": "3", "metric": 0.9}
    assert info["config"]["search"]["steps"] == 4 and "python" in info["versions"]
    assert res.grade["score"] == 1.0 and info["grade"]["score"] == 1.0  # graded after the search
    assert Journal.load(run / "journal.json").to_dict() == j.to_dict()
    assert not (run / "work").exists()  # workspaces removed once each node was saved


def test_improve_with_tricks_and_unhelpful_trick(task_dir, tmp_path, settings_factory, monkeypatch):
    pool = [Trick("t1", "target encoding", "a"), Trick("t2", "seed averaging", "b"), Trick("t3", "tta", "c")]
    tips = [Trick("tip", "use lightgbm", "z")]

    def fake_knowledge(task, analysis, settings, use_llm, fallbacks):
        return RunKnowledge(labels=["General Machine Learning/Classification"], tips=tips[:1], pool=pool)

    monkeypatch.setattr("automind.run.load_knowledge", fake_knowledge)
    values = {"t1": 0.7, "t2": 0.9, "t3": 0.95}
    roles = ScriptedRoles({"draft": [script(0.8)], "improve": lambda ctx: script(values[ctx.trick.id])})
    s = settings_factory(
        **{"search.steps": 4, "search.num_drafts": 1, "search.trick_prob": 1.0, "search.greedy_prob": 1.0,
           "knowledge.enabled": True}
    )  # fmt: skip
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles)
    j = res.journal
    assert roles.contexts[0].knowledge == tips and roles.contexts[0].labels[0].startswith("General")
    assert [(n.id, n.parent_id, n.trick and n.trick.id, n.trick_helpful) for n in j.nodes] == [
        ("0", None, None, None),
        ("1", "0", "t1", False),  # 0.7 does not beat 0.8: unhelpful
        ("2", "0", "t2", True),
        ("3", "2", "t3", True),  # t1 was unhelpful on this lineage, t2 is applied: t3 is next
    ]
    assert j.get("3").applied_tricks == ["t2", "t3"]
    assert roles.contexts[1].trick.id == "t1" and "target encoding" in roles.contexts[1].trick.title
    assert roles.contexts[3].parent_tricks == ["t2"] and roles.contexts[3].knowledge == []
    assert json.loads((tmp_path / "run/run.json").read_text())["knowledge"]["pool"] == 3


def test_an_improve_whose_predictions_equal_its_parents_marks_its_trick(
    task_dir, tmp_path, settings_factory, monkeypatch
):
    """A trick that found nothing to change (same score, same predictions as the parent) is marked on its
    node, said in the run's memory and the report, and handed to every later step as ineffective; a trick
    that changed the predictions but not the score is not."""
    pool = [Trick("t1", "group aggregates", "a"), Trick("t2", "threshold", "b"), Trick("t3", "more", "c")]

    def fake_knowledge(task, analysis, settings, use_llm, fallbacks):
        return RunKnowledge(labels=[], tips=[], pool=pool)

    monkeypatch.setattr("automind.run.load_knowledge", fake_knowledge)
    improves = {"t1": lambda ctx: ctx.parent_code, "t2": lambda ctx: script(0.8, threshold=0.1),
                "t3": lambda ctx: script(0.7)}  # fmt: skip
    roles = ScriptedRoles({"draft": [script(0.8)], "improve": lambda ctx: improves[ctx.trick.id](ctx)})
    s = settings_factory(**{"search.steps": 4, "search.num_drafts": 1, "search.trick_prob": 1.0,
                            "search.greedy_prob": 1.0, "knowledge.enabled": True})  # fmt: skip
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles)
    j = res.journal
    assert [(n.trick and n.trick.id, n.no_effect) for n in j.nodes] == [
        (None, False),
        ("t1", True),  # the parent's own script: nothing moved
        ("t2", False),  # same score, other predictions
        ("t3", False),
    ]
    assert roles.contexts[2].ineffective_tricks == ["t1"] and roles.contexts[1].ineffective_tricks == []
    assert any(m.endswith("[changed no prediction]") for m in roles.contexts[2].memory)
    assert "changed no prediction" in (tmp_path / "run" / "report.html").read_text()


def test_debug_until_dead_then_draft(task_dir, tmp_path, settings_factory):
    roles = ScriptedRoles({"*": [script(0.5, bug=True)]}, repair_fixes=False)
    s = settings_factory(**{"search.steps": 4, "search.num_drafts": 1, "search.max_debug_depth": 2,
                            "coding.one_pass_tries": 1})  # fmt: skip
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles)
    j = res.journal
    assert [(n.action, n.debug_depth, n.status) for n in j.nodes] == [
        ("draft", 0, "buggy"),
        ("debug", 1, "buggy"),
        ("debug", 2, "dead"),
        ("draft", 0, "buggy"),  # nothing left to debug or improve: a fresh draft
    ]
    assert "RuntimeError: injected bug" in j.get("0").error
    assert res.best is None and not (tmp_path / "run/submission.csv").exists()
    data = json.loads((tmp_path / "run/journal.json").read_text())
    assert [n["status"] for n in data["nodes"]] == ["buggy", "buggy", "dead", "buggy"]


def test_stepwise_step_repaired_by_search_replace(task_dir, tmp_path, settings_factory):
    roles = ScriptedRoles({"*": [script(0.1)]}, complexity=4.5, step_cells=cells(0.9, bug_at=1))
    s = settings_factory(**{"search.steps": 1})
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles)
    node = res.journal.get("0")
    assert node.coder == "stepwise" and node.complexity == 4.5 and node.status == "valid"
    assert node.metric.value == 0.9
    assert ("repair", "predict") in roles.calls and ("integrate", "draft") in roles.calls
    assert FIX in node.code and BUG not in node.code
    assert ("code", "draft") not in roles.calls  # the whole script came from the steps


def test_stepwise_plan_abandoned_when_a_step_exhausts_tries(task_dir, tmp_path, settings_factory):
    roles = ScriptedRoles({"*": [script(0.1)]}, complexity="not a number", step_cells=cells(0.9, bug_at=2),
                          repair_fixes=False)  # fmt: skip
    s = settings_factory(**{"search.steps": 1, "coding.step_tries": 2})
    node = solve(task_dir, s, out=tmp_path / "run", roles=roles).journal.get("0")
    assert node.coder == "stepwise" and node.complexity == 5.0  # unparseable rating counts as 5
    assert node.status == "buggy" and node.error.startswith("plan abandoned: step 3 'write'")
    assert roles.calls.count(("repair", "write")) == 1 and ("integrate", "draft") not in roles.calls


def test_forced_one_pass_skips_complexity(task_dir, tmp_path, settings_factory):
    roles = ScriptedRoles({"*": [script(0.7)]}, complexity=5)
    s = settings_factory(**{"search.steps": 1, "coding.mode": "one-pass"})
    node = solve(task_dir, s, out=tmp_path / "run", roles=roles).journal.get("0")
    assert node.coder == "one-pass" and node.complexity is None
    assert not any(c[0] in ("complexity", "decompose") for c in roles.calls)


def test_llm_errors_mark_node_buggy_and_search_continues(task_dir, tmp_path, settings_factory):
    roles = ScriptedRoles(
        {"draft": [script(0.6)], "improve": [RoleError("coder reply had no code block"), script(0.7)]},
        plan_errors={2: RoleError("LLM: 503 Service Unavailable after 4 retries")},
    )
    s = settings_factory(**{"search.steps": 5, "search.num_drafts": 2, "search.debug_prob": 0.0})
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles)
    j = res.journal
    assert j.get("1").status == "buggy" and "503 Service Unavailable" in j.get("1").error
    assert j.get("2").action == "improve" and "no code block" in j.get("2").error
    assert len(j) == 5 and res.best.metric.value == 0.7


def test_budget_exceeded_stops_gracefully_keeping_best(task_dir, tmp_path, settings_factory):
    from automind.llm import BudgetExceeded

    roles = ScriptedRoles({"draft": [script(0.6)], "improve": [BudgetExceeded("token budget spent")]})
    s = settings_factory(**{"search.steps": 6, "search.num_drafts": 1})
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles)
    assert res.status == "budget" and len(res.journal) == 1 and res.best.id == "0"
    assert any("budget" in f for f in res.fallbacks)
    assert (tmp_path / "run/submission.csv").is_file()


def _trace(j):
    return [(n.action, n.parent_id, n.status, n.metric and n.metric.value) for n in j.nodes]


def _varied_roles():
    import random as _r

    rng = _r.Random(5)

    def pick(ctx):
        v = round(rng.uniform(0.5, 0.99), 3)
        return script(v, bug=rng.random() < 0.3)

    return ScriptedRoles({"*": pick}, repair_fixes=False)


def test_resume_after_kill_reaches_same_tree(task_dir, tmp_path, settings_factory):
    s = settings_factory(**{"search.steps": 6, "search.num_drafts": 2, "search.debug_prob": 0.5,
                            "search.greedy_prob": 0.5, "coding.one_pass_tries": 1, "search.seed": 3})  # fmt: skip
    full = solve(task_dir, s, out=tmp_path / "full", roles=_varied_roles())

    snapshot = tmp_path / "killed"

    def kill_after_three(kind, data):
        if kind == "node" and data["node"].id == "2":
            shutil.copytree(tmp_path / "part", snapshot)  # the folder as a hard kill would leave it
            raise KeyboardInterrupt

    roles = _varied_roles()
    part = solve(task_dir, s, out=tmp_path / "part", roles=roles, on_event=kill_after_three)
    assert part.status == "interrupted" and len(part.journal) == 3
    before = Journal.load(snapshot / "journal.json")
    assert len(before) == 3

    res = resume(snapshot, roles=roles)  # same roles object: its random stream continues too
    assert res.status == "finished" and len(res.journal) == 6
    assert _trace(res.journal)[:3] == _trace(before)  # nothing lost
    assert [n.code for n in res.journal.nodes[:3]] == [n.code for n in before.nodes]
    assert _trace(res.journal) == _trace(full.journal)  # RNG state restored: same decisions
    info = json.loads((snapshot / "run.json").read_text())
    assert info["sessions"] == 2 and info["steps_done"] == 6


def test_resume_counts_recorded_time(task_dir, tmp_path, settings_factory):
    roles = ScriptedRoles({"*": [script(0.6)]})
    s = settings_factory(**{"search.steps": 2})
    solve(task_dir, s, out=tmp_path / "run", roles=roles)
    path = tmp_path / "run/journal.json"
    data = json.loads(path.read_text())
    data["meta"]["elapsed_s"] = 10_000.0  # pretend the first session used the whole time budget
    path.write_text(json.dumps(data))
    res = resume(tmp_path / "run", overrides={"search.steps": 10}, roles=roles)
    assert res.status == "time" and len(res.journal) == 2


def test_time_limit_caps_execution_and_stops(task_dir, tmp_path, settings_factory):
    roles = ScriptedRoles({"*": [script(0.6, sleep=60)]}, repair_fixes=False)
    s = settings_factory(**{"search.steps": 50, "search.time_limit_s": 3, "coding.one_pass_tries": 1})
    t0 = time.monotonic()
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles)
    assert time.monotonic() - t0 < 12
    assert res.status == "time" and len(res.journal) == 1
    node = res.journal.get("0")
    assert "timed out" in node.error and node.timings["timeout"] == node.timings["exec"]  # marked as cut


def test_safety_net_inserts_recipe_draft(task_dir, tmp_path, settings_factory):
    llm = ScriptedRoles({"*": [script(None, submit=False)]}, repair_fixes=False)
    recipe = ScriptedRoles({"*": [script(0.75)]}, name="recipes")
    s = settings_factory(**{"search.steps": 5, "search.num_drafts": 5, "search.safety_net_share": 0.4,
                            "coding.one_pass_tries": 1})  # fmt: skip
    res = solve(task_dir, s, out=tmp_path / "run", roles=llm, safety_roles=recipe)
    flags = [(n.safety_net, n.roles, n.status) for n in res.journal.nodes]
    assert flags[2] == (True, "recipes", "valid") and sum(f[0] for f in flags) == 1
    assert res.best.safety_net and res.best.roles == "recipes" and res.best.coder in ("one-pass", "stepwise")


def test_no_safety_net_for_recipe_runs(task_dir, tmp_path, settings_factory):
    roles = ScriptedRoles({"*": [script(None, submit=False)]}, name="recipes", repair_fixes=False)
    s = settings_factory(**{"search.steps": 3, "coding.one_pass_tries": 1, "search.safety_net_share": 0.1})
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles, safety_roles=roles)
    assert not any(n.safety_net for n in res.journal.nodes)


def test_existing_run_folder_is_not_overwritten(task_dir, tmp_path, settings_factory):
    from automind.run import RunError

    roles = ScriptedRoles({"*": [script(0.6)]})
    s = settings_factory(**{"search.steps": 1})
    solve(task_dir, s, out=tmp_path / "run", roles=roles)
    with pytest.raises(RunError, match="--resume"):
        solve(task_dir, s, out=tmp_path / "run", roles=roles)


def test_a_users_folder_is_never_written_into(task_dir, tmp_path, settings_factory, folder_state):
    """A run replaces submission.csv, report.html, holdout/... in its folder: only a new or empty folder, or
    one a run marked for itself, is taken. The task's own folder is refused too."""
    from typer.testing import CliRunner

    from automind.cli import app
    from automind.run import RunError
    from automind.run_setup import RUN_MARK

    roles = ScriptedRoles({"*": [script(0.6)]})
    s = settings_factory(**{"search.steps": 1})
    mine = tmp_path / "mine"
    (mine / "holdout").mkdir(parents=True)
    (mine / "submission.csv").write_text("id,y\nmy own work\n")
    (mine / "holdout/data.csv").write_text("a\n1\n")
    before = folder_state(tmp_path)
    for out in (mine, task_dir):
        with pytest.raises(RunError, match="is not empty .* and is not a run folder"):
            solve(task_dir, s, out=out, roles=roles)
        r = CliRunner().invoke(app, ["solve", str(task_dir), "--llm", "none", "--out", str(out)])
        assert (
            r.exit_code == 1
            and "is not a run folder" in r.output
            and "Pass a new or empty folder" in r.output
        )
    assert folder_state(tmp_path) == before  # nothing written, nothing replaced
    # a start interrupted after its folder was marked leaves a folder that the same command reuses
    partial = tmp_path / "partial"
    (partial / "holdout").mkdir(parents=True)
    (partial / RUN_MARK).write_text("")
    assert solve(task_dir, s, out=partial, roles=roles).status == "finished"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert solve(task_dir, s, out=empty, roles=roles).status == "finished"


def test_a_run_inside_the_tasks_public_or_private_folder_is_refused(
    task_dir, tmp_path, settings_factory, folder_state
):
    """`--out TASK/public/run` once wrote a whole run into the task's inputs (every later run read it), and
    `--out TASK/private/run` left a failed run beside the answers; a link to the task hid both."""
    from typer.testing import CliRunner

    from automind.cli import app
    from automind.run import RunError

    roles = ScriptedRoles({"*": [script(0.6)]})
    s = settings_factory(**{"search.steps": 1})
    link = tmp_path / "linked"
    link.symlink_to(task_dir)
    before = folder_state(task_dir)
    for task in (task_dir, link):
        for sub, what in (("public", "inputs (public)"), ("private", "private answers")):
            with pytest.raises(RunError, match=rf"inside the task's {re.escape(what)} folder"):
                solve(task, s, out=task / sub / "run", roles=roles)
            r = CliRunner().invoke(
                app, ["solve", str(task), "--llm", "none", "--out", str(task / sub / "run")]
            )
            assert r.exit_code == 1 and f"inside the task's {what} folder" in " ".join(r.output.split())
    assert folder_state(task_dir) == before


def test_a_run_folder_in_use_is_refused(task_dir, tmp_path, settings_factory, folder_state):
    """Two processes on one run folder once both ran: nodes 1 and 2 written twice, the journal interleaved.
    The folder is locked while a process runs it; a second `--resume` (or a racing new run) is refused."""
    from typer.testing import CliRunner

    from automind.cli import app
    from automind.run import RunError
    from automind.run_setup import lock_run_dir

    roles = ScriptedRoles({"*": [script(0.6)]})
    s = settings_factory(**{"search.steps": 1})
    run = tmp_path / "run"
    solve(task_dir, s, out=run, roles=roles)
    other = tmp_path / "other"
    other.mkdir()
    held = [lock_run_dir(run), lock_run_dir(other)]  # as the process running each folder holds it
    try:
        before = folder_state(tmp_path)
        with pytest.raises(RunError, match=r"being run by another automind process right now \(pid \d+ on "):
            resume(run, overrides={"search.steps": 2}, roles=roles)
        r = CliRunner().invoke(app, ["solve", "--resume", str(run), "--steps", "2", "--llm", "none"])
        assert r.exit_code == 1 and "being run by another automind process" in r.output, r.output
        with pytest.raises(RunError, match="being run by another automind process"):
            solve(task_dir, s, out=other, roles=roles)
        assert folder_state(tmp_path) == before  # neither folder touched
    finally:
        for lock in held:
            lock.close()
    assert resume(run, overrides={"search.steps": 2}, roles=roles).journal.get("1") is not None
    assert solve(task_dir, s, out=other, roles=roles).status == "finished"  # freed when the holder ends
    from automind.run_setup import RunFolderError

    not_a_folder = tmp_path / "file.txt"
    not_a_folder.write_text("x")
    with pytest.raises(RunFolderError, match="cannot write in .*file.txt"):  # a clear error, not an OSError
        lock_run_dir(not_a_folder)


def test_bad_llm_spec_leaves_no_empty_run_folder(task_dir, tmp_path, settings_factory):
    s = settings_factory(**{"llm.provider": f"replay:{tmp_path / 'missing.jsonl'}"})
    with pytest.raises(Exception, match="missing.jsonl"):
        solve(task_dir, s, out=tmp_path / "run")
    assert not (tmp_path / "run").exists()


def test_stepwise_steps_are_limited(task_dir, tmp_path, settings_factory):
    steps = [Step(f"s{i}", "") for i in range(3)]
    roles = ScriptedRoles({"*": [script(0.1)]}, complexity=5, steps=steps, step_cells=cells(0.9))
    s = settings_factory(**{"search.steps": 1, "coding.max_steps": 2})
    node = solve(task_dir, s, out=tmp_path / "run", roles=roles).journal.get("0")
    assert (
        roles.calls.count(("step_code", "2")) == 0 and node.status == "buggy"
    )  # 2 of 3 cells: no submission


def test_experience_memory_is_wired_into_the_run(task_dir, tmp_path, settings_factory):
    """A real experience store (hash embedder): hints reach the context, outcomes are recorded."""
    roles = ScriptedRoles(
        {"draft": [script(0.6, bug=True), script(0.7)], "*": [script(0.8)]}, repair_fixes=False
    )
    s = settings_factory(
        **{"search.steps": 3, "search.num_drafts": 2, "coding.one_pass_tries": 1, "experience.enabled": True,
           "knowledge.store": str(tmp_path / "store"), "knowledge.embedder": "hash"}
    )  # fmt: skip
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles)
    assert len(res.journal) == 3
    assert not [f for f in res.fallbacks if "experience" in f], res.fallbacks
    from automind.experience import open_experience

    stats = open_experience(s).stats()  # the debug fix was learned; the run's failures purged on success
    assert stats["positive"] == {"error_fix": 1, "summary": 1} and stats["negative"] == {}


def test_a_run_records_which_experience_store_it_started_from(
    task_dir, tmp_path, settings_factory, monkeypatch
):
    """run.json and run.log's first line name the store (a relative path made absolute: runs started from one
    folder share it) and how many records it held when the run began, so "an empty store" can be checked."""
    monkeypatch.chdir(tmp_path)
    s = settings_factory(
        **{"search.steps": 2, "search.num_drafts": 2, "experience.enabled": True, "experience.store": "mem",
           "knowledge.store": str(tmp_path / "store"), "knowledge.embedder": "hash"}
    )  # fmt: skip
    seen = []
    for name in ("first", "second"):
        solve(task_dir, s, out=tmp_path / name, roles=ScriptedRoles({"*": [script(0.7)]}))
        info = json.loads((tmp_path / name / "run.json").read_text())["experience"]
        first_line = (tmp_path / name / "run.log").read_text().splitlines()[0]
        assert info["store"] == str(tmp_path / "mem"), info
        held = sum(info["records"].values())
        assert f"experience: {held} records in {tmp_path / 'mem'}" in first_line, first_line
        page = (tmp_path / name / "report.html").read_text()  # and the report says it, too
        assert f"<b>Experience memory</b> {held} records (" in page and "/mem when the run began" in page
        seen.append(held)
    assert seen[0] == 0 and seen[1] > 0  # the second run began with what the first one wrote

    from automind.store import Store

    def broken(self, kind=None):
        raise OSError("disk gone")

    monkeypatch.setattr(Store, "count", broken)  # a store that cannot be counted is not said to be empty
    solve(task_dir, s, out=tmp_path / "uncounted", roles=ScriptedRoles({"*": [script(0.7)]}))
    run = json.loads((tmp_path / "uncounted" / "run.json").read_text())
    assert run["experience"]["records"] is None
    fallbacks = run["fallbacks"]
    assert any("experience count failed (OSError: disk gone)" in f for f in fallbacks), fallbacks
    first_line = (tmp_path / "uncounted" / "run.log").read_text().splitlines()[0]
    assert f"experience: unknown number of records in {tmp_path / 'mem'}" in first_line, first_line
    assert "an unknown number of records" in (tmp_path / "uncounted" / "report.html").read_text()
    monkeypatch.undo()

    off = settings_factory(**{"search.steps": 1, "search.num_drafts": 1, "experience.enabled": False})
    solve(task_dir, off, out=tmp_path / "off", roles=ScriptedRoles({"*": [script(0.7)]}))
    assert json.loads((tmp_path / "off" / "run.json").read_text())["experience"] == {
        "store": None,
        "hints": "off",
    }
    assert "experience off" in (tmp_path / "off" / "run.log").read_text().splitlines()[0]


def test_trick_chosen_by_the_roles_is_the_one_judged(task_dir, tmp_path, settings_factory):
    """Roles that pick their own trick (the recipe policy does) report it in Plan.meta; the node records it."""

    class ChoosingRoles(ScriptedRoles):
        def plan(self, ctx):
            p = super().plan(ctx)
            if ctx.action == "improve":
                p.meta.update(trick_id="own-trick", trick_title="Own trick")
            return p

    roles = ChoosingRoles({"draft": [script(0.8)], "improve": [script(0.7)]})
    s = settings_factory(**{"search.steps": 2, "search.num_drafts": 1, "search.trick_prob": 0.0})
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles)
    improve = res.journal.get("1")
    assert improve.trick is not None and (improve.trick.id, improve.trick.title) == ("own-trick", "Own trick")
    assert improve.trick_helpful is False  # 0.7 does not beat its parent's 0.8


def test_run_knowledge_round_trips_and_reads_old_files():
    k = RunKnowledge(labels=["Computer Vision/Image Classification"], tips=[Trick("a", "A", "x")],
                     pool=[Trick("b", "B", "y", labels=["Computer Vision"])])  # fmt: skip
    assert RunKnowledge.from_json(json.loads(json.dumps(k.to_json()))) == k
    assert "disabled" not in k.to_json() and RunKnowledge(disabled=True).to_json()["disabled"] is True
    old = {"labels": ["NLP"], "pool": [{"id": "c", "title": "C", "text": "z", "gone_field": 1}]}  # no tips
    back = RunKnowledge.from_json(old)
    assert back.labels == ["NLP"] and back.tips == [] and back.pool == [Trick("c", "C", "z")]
    assert not back.disabled


class _RerunRoles(ScriptedRoles):
    """Every improve says it has nothing new to add (as the offline recipes do once a lineage's tricks are
    used up): only its seed changes."""

    def plan(self, ctx: Context) -> Plan:
        plan = super().plan(ctx)
        plan.meta["rerun"] = ctx.action == "improve"
        return plan


def test_a_solution_whose_improve_was_a_rerun_is_not_improved_again(task_dir, tmp_path, settings_factory):
    roles = _RerunRoles({"draft": [script(0.9), script(0.5)], "improve": [script(0.6)]})
    s = settings_factory(**{"search.steps": 5, "search.num_drafts": 2, "search.greedy_prob": 1.0,
                            "search.debug_prob": 0.0})  # fmt: skip
    solve(task_dir, s, out=tmp_path / "run", roles=roles)
    nodes = json.loads((tmp_path / "run" / "journal.json").read_text())["nodes"]
    # the best draft once, then the other draft (not the best's re-run), then nothing is left: the best
    assert [(n["parent_id"], n["rerun"]) for n in nodes] == [
        (None, False),
        (None, False),
        ("0", True),
        ("1", True),
        ("0", True),
    ]
    html = (tmp_path / "run" / "report.html").read_text()
    assert html.count("re-run: another seed, never the best") == 3  # the report's node table says which


class _ProbedRoles(_RerunRoles):
    """Recipes-like roles that know before running that they can only re-run the best draft (0.9)."""

    def offers_change(self, ctx: Context) -> bool:
        return "0.9" not in (ctx.parent_code or "")


def test_an_improve_the_roles_can_only_rerun_goes_to_the_next_solution(task_dir, tmp_path, settings_factory):
    roles = _ProbedRoles({"draft": [script(0.9), script(0.5)], "improve": [script(0.6)]})
    s = settings_factory(**{"search.steps": 3, "search.num_drafts": 2, "search.greedy_prob": 1.0,
                            "search.debug_prob": 0.0})  # fmt: skip
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles)
    assert [n.parent_id for n in res.journal.nodes] == [None, None, "1"]  # not a re-run of the best


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc to list open files")
def test_a_solve_leaves_no_file_of_its_stores_open(task_dir, tmp_path, settings_factory):
    """The knowledge base and the experience store were never closed: each solve left about a dozen of their
    files open, and a process solving task after task (the API, a benchmark, the test suite) ran out of
    descriptors at 1,024. Both are closed once the run has what it needs from them."""
    s = settings_factory(
        **{"search.steps": 1, "experience.enabled": True, "experience.store": str(tmp_path / "mem"),
           "knowledge.store": str(tmp_path / "store"), "knowledge.embedder": "hash"}
    )  # fmt: skip

    def held() -> list[str]:
        gc.collect()  # a connection another thread opened goes with that thread's locals
        paths = []
        for fd in os.listdir("/proc/self/fd"):
            with contextlib.suppress(OSError):
                paths.append(os.readlink(f"/proc/self/fd/{fd}"))
        return [p for p in paths if p.startswith(str(tmp_path))]

    solve(task_dir, s, out=tmp_path / "run", roles=ScriptedRoles({"*": [script(0.7)]}))
    assert (tmp_path / "mem").is_dir()  # the experience store was opened
    assert held() == []
    from automind.run_setup import load_knowledge
    from automind.task import Task

    fallbacks: list[str] = []
    assert load_knowledge(Task.load(task_dir), None, s, None, fallbacks).pool, fallbacks
    assert (tmp_path / "store").is_dir() and held() == []  # the knowledge base was opened and closed
