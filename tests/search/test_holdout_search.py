"""The search with automind's own holdout: nodes ranked by hidden rows, flags, the final refit, resume, old
runs, and MLE-STAR's checkers turning into child nodes in LLM mode."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from search_fakes import ScriptedRoles, make_task, saving, script

from automind.config import SearchConfig
from automind.grading import validate_submission
from automind.roles import Context, LeakCheck, Plan, Trick
from automind.run import RunError, resume, solve
from automind.run_setup import RunKnowledge
from automind.search.journal import Journal, MetricValue, Node
from automind.task import Task

N = 600  # 300 training rows: 60 held out at 0.2


@pytest.fixture
def big_task(tmp_path):
    return make_task(tmp_path / "big", n=N)


def _on(settings_factory, **kw):
    return settings_factory(**{"verify.holdout": "on", "verify.holdout_fraction": 0.2, **kw})


def honest(threshold: float) -> str:
    """Predicts x > threshold and reports the accuracy of that rule on the training rows it sees."""
    return (
        "import csv, os\n"
        "from pathlib import Path\n"
        'train = list(csv.DictReader(open("input/train.csv")))\n'
        f"acc = sum(int(float(r['x']) > {threshold}) == int(r['y']) for r in train) / len(train)\n"
        'rows = list(csv.DictReader(open("input/test.csv")))\n'
        'os.makedirs("submission", exist_ok=True)\n'
        'with open("submission/submission.csv", "w", newline="") as f:\n'
        "    w = csv.writer(f)\n"
        '    w.writerow(["id", "y"])\n'
        f"    w.writerows([r['id'], int(float(r['x']) > {threshold})] for r in rows)\n"
        'Path("submission/eval_metric.txt").write_text(f"{acc:.6f}")\n'
        'print(f"validation accuracy: {acc:.6f}")\n'
    )


def test_holdout_scores_rank_nodes_and_the_refit_writes_the_submission(big_task, tmp_path, settings_factory):
    roles = ScriptedRoles({"draft": [script(0.8), script(0.99, threshold=0.9)], "improve": [script(0.95)]})
    s = _on(settings_factory, **{"search.steps": 3, "search.greedy_prob": 1.0})
    res = solve(big_task, s, out=tmp_path / "run", roles=roles)
    j, run = res.journal, tmp_path / "run"
    first, second = j.get("0"), j.get("1")
    assert (first.reported_metric, first.holdout_metric, first.metric.value) == (0.8, 1.0, 1.0)
    assert first.leakage.status == "clean" and first.leakage.gap == pytest.approx(-0.2)
    assert second.reported_metric == 0.99 and second.holdout_metric < 0.8  # the rule x > 0.9 is poor
    assert second.leakage.status == "suspect_leakage" and second.leakage.reasons[0].kind == "score-gap"
    assert second.leakage.gap > second.leakage.band > 0
    assert res.best is first and j.get("2").parent is first  # improve the node the holdout trusts

    task = Task.load(big_task)
    node_sub = run / "nodes/0/submission/submission.csv"
    validate_submission(task, node_sub)  # test rows only, valid for the real task
    assert list(pd.read_csv(node_sub)["id"]) == list(pd.read_csv(task.sample_submission_path)["id"])
    assert len(pd.read_csv(run / "nodes/0/holdout_predictions.csv")) == 60
    assert first.inputs_read == ["test.csv"] and first.unused_inputs == ["train.csv"]
    assert "never read these provided inputs: train.csv" in first.output

    view = run / "holdout/view/public"
    assert len(pd.read_csv(view / "train.csv")) == 240 and len(pd.read_csv(view / "test.csv")) == 360
    info = json.loads((run / "run.json").read_text())
    assert info["holdout"]["enabled"] and info["holdout"]["holdout_rows"] == 60
    assert info["refit"]["used"] and info["refit"]["node"] == "0"
    assert (run / "submission.csv").read_bytes() == (run / "nodes/0/refit/submission.csv").read_bytes()
    assert res.grade["score"] == 1.0
    saved = json.loads((run / "journal.json").read_text())["nodes"][1]
    assert saved["holdout_metric"] == second.holdout_metric and saved["reported_metric"] == 0.99
    assert saved["leakage"]["status"] == "suspect_leakage" and saved["inputs_read"] == ["test.csv"]
    html = (run / "report.html").read_text()
    assert "Trustworthy scores" in html and "suspect_leakage" in html and "used for submission.csv" in html


def test_flagged_nodes_are_not_best_and_their_trick_is_not_credited(
    big_task, tmp_path, settings_factory, monkeypatch
):
    trick = Trick("t1", "magic", "x")
    monkeypatch.setattr("automind.run.load_knowledge", lambda *a: RunKnowledge(pool=[trick]))
    # the improve predicts perfectly (holdout 1.0) but prints a literal score: the code check flags it
    roles = ScriptedRoles({"draft": [honest(0.7)], "improve": [script(0.97)]})
    s = _on(settings_factory, **{"search.steps": 2, "search.num_drafts": 1, "search.trick_prob": 1.0,
                                 "verify.code_check": True, "knowledge.enabled": True})  # fmt: skip
    res = solve(big_task, s, out=tmp_path / "run", roles=roles)
    draft, better = res.journal.get("0"), res.journal.get("1")
    assert draft.leakage.status == "clean" and draft.holdout_metric < 1.0
    assert better.holdout_metric == 1.0 and better.leakage.status == "leak"
    assert {r.kind for r in better.leakage.reasons} == {"hardcoded-metric"}
    assert all(r.line for r in better.leakage.reasons)
    assert res.best is draft  # an unflagged valid node exists
    assert better.trick.id == "t1" and better.trick_helpful is False
    assert "[leak]" in res.journal.memory()[-1]


def test_refit_failure_keeps_the_search_time_submission(big_task, tmp_path, settings_factory):
    fragile = script(0.8).replace(
        'rows = list(csv.DictReader(open("input/test.csv")))',
        'rows = list(csv.DictReader(open("input/test.csv")))\nassert len(rows) > 300, "only the view has more"',
    )
    s = _on(settings_factory, **{"search.steps": 1})
    res = solve(big_task, s, out=tmp_path / "run", roles=ScriptedRoles({"draft": [fragile]}))
    info = json.loads((tmp_path / "run/run.json").read_text())
    assert info["refit"]["used"] is False and "execution failed" in info["refit"]["reason"]
    assert any(f.startswith("final refit not used") for f in res.fallbacks)
    sub = tmp_path / "run/submission.csv"
    assert sub.read_bytes() == (tmp_path / "run/nodes/0/submission/submission.csv").read_bytes()

    off = solve(big_task, _on(settings_factory, **{"search.steps": 1, "verify.refit": False}),
                out=tmp_path / "run2", roles=ScriptedRoles({"draft": [script(0.8)]}))  # fmt: skip
    assert json.loads((tmp_path / "run2/run.json").read_text())["refit"]["reason"] == "verify.refit is off"
    assert off.grade["score"] == 1.0


def test_auto_turns_the_holdout_off_for_tiny_data_and_says_why(task_dir, tmp_path, settings_factory):
    res = solve(task_dir, settings_factory(), out=tmp_path / "run", roles=ScriptedRoles({"*": [script(0.7)]}))
    info = json.loads((tmp_path / "run/run.json").read_text())
    assert info["holdout"] == {"enabled": False, "reason": info["holdout"]["reason"]}
    assert "only 20 labelled training rows" in info["holdout"]["reason"]
    assert any(f.startswith("holdout off: only 20") for f in res.fallbacks)
    n = res.journal.get("0")
    assert n.holdout_metric is None and n.reported_metric == n.metric.value == 0.7 and info["refit"] is None
    assert "No holdout: only 20" in (tmp_path / "run/report.html").read_text()


def test_on_refuses_a_layout_it_cannot_split_before_writing_anything(task_dir, tmp_path, settings_factory):
    (task_dir / "public/train_extra.csv").write_text((task_dir / "public/train.csv").read_text())
    with pytest.raises(RunError, match="verify.holdout is on, but the task has 2 training files"):
        solve(
            task_dir, _on(settings_factory), out=tmp_path / "run", roles=ScriptedRoles({"*": [script(0.7)]})
        )
    assert not (tmp_path / "run").exists()
    (tmp_path / "empty").mkdir()  # an empty folder given by the user is left empty
    with pytest.raises(RunError, match="verify.holdout is on"):
        solve(
            task_dir, _on(settings_factory), out=tmp_path / "empty", roles=ScriptedRoles({"*": [script(0.7)]})
        )
    assert not any((tmp_path / "empty").iterdir())


def test_resume_keeps_the_split_and_old_runs_resume_without_one(big_task, tmp_path, settings_factory):
    roles = ScriptedRoles({"*": [script(0.8)]})
    solve(big_task, _on(settings_factory, **{"search.steps": 1}), out=tmp_path / "run", roles=roles)
    split = json.loads((tmp_path / "run/holdout/holdout.json").read_text())
    res = resume(tmp_path / "run", overrides={"search.steps": 2}, roles=roles)
    assert [n.holdout_metric for n in res.journal.nodes] == [1.0, 1.0]
    assert json.loads((tmp_path / "run/holdout/holdout.json").read_text())["rows"] == split["rows"]

    # a run made before holdouts existed: no record in run.json, no new fields in journal.json
    info_path, journal_path = tmp_path / "run/run.json", tmp_path / "run/journal.json"
    info = json.loads(info_path.read_text())
    del info["holdout"], info["refit"], info["config"]["verify"]
    info_path.write_text(json.dumps(info))
    data = json.loads(journal_path.read_text())
    for nd in data["nodes"]:
        for key in (
            "holdout_metric",
            "holdout_se",
            "reported_metric",
            "leakage",
            "inputs_read",
            "unused_inputs",
        ):
            nd.pop(key)
    journal_path.write_text(json.dumps(data))
    old = resume(tmp_path / "run", overrides={"search.steps": 3}, roles=roles)
    assert old.journal.get("0").leakage.status == "unchecked" and old.journal.get("0").inputs_read == []
    assert old.journal.get("2").holdout_metric is None and old.journal.get("2").metric.value == 0.8


def test_old_journal_nodes_load_with_defaults():
    node = Node.from_dict({"id": "0", "action": "draft", "metric": 0.5, "is_buggy": False, "code": "x"})
    assert node.leakage.status == "unchecked" and not node.flagged and node.holdout_metric is None
    j = Journal.from_dict({"nodes": [node.to_dict()]})
    assert j.to_dict()["nodes"][0]["leakage"]["status"] == "unchecked" and j.best_node.id == "0"


# --- LLM mode: MLE-STAR's leakage and data-usage checkers ------------------------------------------------


BLOCK = 'rows = list(csv.DictReader(open("input/test.csv")))'
FIXED = 'rows = list(csv.DictReader(open("input/test.csv")))  # preparation fitted on training rows only'
USES_TRAIN = 'train = list(csv.DictReader(open("input/train.csv")))\n'


class CheckedRoles(ScriptedRoles):
    """Scripted roles with a model behind them (an empty replay cassette: usage only), and scripted checkers."""

    def __init__(self, llm, *a, **kw):
        super().__init__(*a, **kw)
        self.llm = llm
        self.checked: list[tuple[str, list[str]]] = []

    def check_leakage(self, ctx: Context, code: str, findings: list[str]) -> LeakCheck:
        self.checked.append((ctx.action, findings))
        return LeakCheck(leaky=True, block=BLOCK, fixed=FIXED, reason="the test rows shape the preparation")

    def use_data(self, ctx: Context, code: str, unused: list[str]) -> str:
        return code.replace("import csv, os, time\n", "import csv, os, time\n" + USES_TRAIN, 1)


def test_llm_checkers_add_a_leak_fix_child_and_a_data_use_child(task_dir, tmp_path, settings_factory):
    from automind.llm.replay import ReplayLLM

    tape = tmp_path / "empty.jsonl"
    tape.write_text('{"cassette": 1, "ordered": true}\n')
    s = settings_factory(**{"search.steps": 4, "search.num_drafts": 1, "verify.code_check": True})
    roles = CheckedRoles(ReplayLLM(s.llm, tape), {"draft": [script(0.8)]})
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles)
    draft, fix, use, fix2 = res.journal.nodes
    assert (fix.action, fix.parent, use.action, use.parent) == ("leak-fix", draft, "data-use", draft)
    assert fix.code == draft.code.replace(BLOCK, FIXED, 1) and fix.status == "valid"
    assert draft.leakage.status == "leak" and draft.leakage.fixed_by is None  # the fix still prints a literal
    assert any(r.source == "llm" and "test rows" in r.message for r in draft.leakage.reasons)
    assert roles.checked[0][0] == "leak-fix" and any("hardcoded-metric" in f for f in roles.checked[0][1])
    assert use.inputs_read == ["test.csv", "train.csv"] and use.unused_inputs == []
    assert fix2.action == "leak-fix" and fix2.parent is use  # every new valid script is checked...
    assert [a for a, _ in roles.checked] == ["leak-fix", "leak-fix"]  # ...but a leak-fix child is not


def test_llm_roles_parse_the_checkers_replies(task_dir, tmp_path, settings_factory):
    from automind.llm.replay import ReplayLLM
    from automind.llm.roles import LLMRoles

    verdict = {"leakage": True, "reason": "scaler fit on all rows", "block": "a = 1", "fixed": "a = 2"}
    entries = [{"cassette": 1, "ordered": True}, {"role": "checker", "tool_args": verdict},
               {"role": "checker", "text": "```python\nprint('uses stores')\n```"}]  # fmt: skip
    tape = tmp_path / "tape.jsonl"
    tape.write_text("\n".join(json.dumps(e) for e in entries) + "\n")
    s = settings_factory()
    roles = LLMRoles(ReplayLLM(s.llm, tape), s)
    ctx = Context(task=Task.load(task_dir), action="leak-fix", analysis="")
    check = roles.check_leakage(ctx, "a = 1\n", ["line 1: fit-on-test: x"])
    assert check == LeakCheck(True, "a = 1", "a = 2", "scaler fit on all rows")
    assert roles.use_data(ctx, "print(1)\n", ["stores.csv"]) == "print('uses stores')\n"


def test_offline_nodes_that_ignore_inputs_leave_a_fallback_line(task_dir, tmp_path, settings_factory):
    roles = ScriptedRoles({"*": [script(0.7)]}, name="recipes")
    res = solve(task_dir, settings_factory(**{"search.steps": 2}), out=tmp_path / "run", roles=roles)
    notes = [f for f in res.fallbacks if f.startswith("offline recipes did not read train.csv")]
    assert len(notes) == 1 and res.journal.get("1").unused_inputs == ["train.csv"]


def test_refit_is_skipped_when_the_time_left_cannot_hold_it(big_task, tmp_path, settings_factory):
    s = _on(settings_factory, **{"search.steps": 1, "search.time_limit_s": 7})
    res = solve(big_task, s, out=tmp_path / "run", roles=ScriptedRoles({"draft": [script(0.8, sleep=4)]}))
    assert res.refit["used"] is False and "s left for finishing; the refit needs about" in res.refit["reason"]
    assert res.summary()["refit"] == res.refit and res.summary()["best_holdout_metric"] == 1.0


class MisquotingRoles(CheckedRoles):
    """A checker that finds a leak but quotes a block the script does not contain."""

    def check_leakage(self, ctx: Context, code: str, findings: list[str]) -> LeakCheck:
        return LeakCheck(leaky=True, block="not in the script", fixed="x = 1", reason="scaler on all rows")


def test_a_leak_whose_block_is_not_found_flags_the_node_without_a_child(task_dir, tmp_path, settings_factory):
    from automind.llm.replay import ReplayLLM

    tape = tmp_path / "empty.jsonl"
    tape.write_text('{"cassette": 1, "ordered": true}\n')
    s = settings_factory(**{"search.steps": 2, "search.num_drafts": 1})
    roles = MisquotingRoles(ReplayLLM(s.llm, tape), {"draft": [script(0.8)]})
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles)
    first, second = res.journal.nodes
    assert (first.action, second.action) == ("draft", "data-use")  # no leak-fix child: nothing to splice
    assert first.leakage.status == "leak" and first.leakage.reasons[-1].source == "llm"
    assert "block is not in the script exactly" in first.output and first.leakage.fixed_by is None
    # the last step is checked too (its verdict matters for the best node), though no fix could run
    assert second.leakage.status == "leak" and second.leakage.reasons[-1].source == "llm"


def _bound(runner: Any) -> Any:
    """A stand-in runner with the Runner methods the budget rules call on themselves."""
    from automind.run import Runner

    runner._refit_held = lambda with_ensemble: Runner._refit_held(runner, with_ensemble)
    return runner


def test_the_refit_reserve_holds_back_only_a_refit_that_can_run():
    """The estimate (the best node's run scaled to all rows) is reserved when it is at most REFIT_SHARE of the
    time limit; a bigger one is skipped at the end anyway, so nothing is held back for it."""
    from types import SimpleNamespace

    from automind.run import REFIT_SHARE, Runner

    def runner(
        exec_s: float, limit: float | None, elapsed: float = 0.0, strategy: str = "random", roles: str = "llm"
    ) -> SimpleNamespace:
        best = SimpleNamespace(timings={"exec": exec_s}, code="print(1)", id="0", roles=roles)
        return _bound(SimpleNamespace(
            journal=SimpleNamespace(best_node=best, nodes=[best]), time_limit=limit, run_dir=Path("run"),
            agent=SimpleNamespace(holdout=SimpleNamespace(n_seen=850, n_holdout=150, strategy=strategy)),
            settings=SimpleNamespace(verify=SimpleNamespace(refit=True, refit_bags=3),
                                     search=SearchConfig(finish_reserve_s=5.0)),
            elapsed=lambda: elapsed, progress=lambda: 0.0,  # before the ensemble share
        ))  # fmt: skip

    assert Runner.refit_reserve(runner(17.0, 120.0)) == pytest.approx(20.0)  # 17 s on 85 % of the rows
    assert Runner.refit_reserve(runner(30.0, 120.0)) == 0.0  # 35 s > REFIT_SHARE * 120 s: not reserved
    assert REFIT_SHARE * 120.0 < 35.0
    # with the latest rows held out the submission would never learn the most recent period: up to half
    assert Runner.refit_reserve(runner(30.0, 120.0, strategy="time")) == pytest.approx(30.0 / 0.85)
    assert (
        Runner.refit_reserve(runner(55.0, 120.0, strategy="time")) == 0.0
    )  # 65 s > TIME_REFIT_SHARE * 120 s
    assert Runner.refit_reserve(runner(30.0, None)) == pytest.approx(30.0 / 0.85)  # no time limit: all of it
    assert Runner.refit_reserve(runner(17.0, 120.0, elapsed=90.0)) == pytest.approx(20.0)  # 25 s left
    # a step that ends a second inside the reserve: the refit would still be started, so all that is left is
    # kept for it (the reserve used to drop to 0 here, and the search spent the refit's time)
    assert Runner.refit_reserve(runner(17.0, 120.0, elapsed=96.0)) == pytest.approx(19.0)
    assert Runner.refit_reserve(runner(17.0, 120.0, elapsed=100.0)) == pytest.approx(15.0)  # half of 20 s: 10
    # a best node found so late that its refit would not be started: its time goes to the search instead
    assert Runner.refit_reserve(runner(17.0, 120.0, elapsed=106.0)) == 0.0  # 9 s < half of 20 s

    # a recipe script's refit repeats its K-fold fitting on up to verify.refit_bags shuffles: the reserve
    # holds all of them when the cap and the time left do, else as many as fit, else the single run; and
    # the limit under which the script's own allowance (0.9 * limit - 2 s) holds that work, within the cap
    def limit(work: float) -> float:
        return (work + 2.0) / 0.9

    assert Runner.refit_reserve(runner(17.0, 600.0, roles="recipes")) == pytest.approx(limit(60.0))
    assert Runner.refit_reserve(runner(17.0, 160.0, roles="recipes")) == pytest.approx(40.0)  # cap 40 s: two
    assert Runner.refit_reserve(runner(17.0, 120.0, roles="recipes")) == pytest.approx(limit(20.0))  # one
    # 35 s left: room for one run's 20 s of work (0.9 * 35 - 2 = 29.5), not two
    assert Runner.refit_reserve(runner(17.0, 600.0, elapsed=560.0, roles="recipes")) == pytest.approx(
        limit(20.0)
    )
    assert Runner.refit_reserve(runner(17.0, None, roles="recipes")) == pytest.approx(limit(60.0))  # no limit
    assert Runner.refit_reserve(runner(17.0, 600.0)) == pytest.approx(20.0)  # an LLM script: one run


def test_the_reserve_keeps_time_to_refit_the_ensemble_that_is_due():
    """In the ensemble share the reserve covers the refit of the members the due ensemble would blend (a late
    ensemble best could otherwise not be refitted); before that share, and when that refit would not be
    started with the time left, only the best node's own refit is kept."""
    from types import SimpleNamespace

    from automind.run import Runner

    j = Journal(lower_is_better=False)
    for value, secs in ((0.8, 10.0), (0.7, 8.0), (0.6, 30.0)):  # three lineages that saved predictions
        j.append(Node(action="draft", metric=MetricValue(value), is_buggy=False, code="x",
                      outputs=["oof.npy", "test_pred.npy", "y.npy"], timings={"exec": secs}))  # fmt: skip
    cfg = SearchConfig(finish_reserve_s=5.0, ensemble={"members": 2, "start_share": 0.75})

    def reserve(limit: float, elapsed: float, **search) -> float:
        runner = SimpleNamespace(
            journal=j, time_limit=limit, run_dir=Path("run"), elapsed=lambda: elapsed,
            agent=SimpleNamespace(holdout=SimpleNamespace(n_seen=800, n_holdout=200, strategy="random")),
            settings=SimpleNamespace(verify=SimpleNamespace(refit=True, refit_bags=1),
                                     search=cfg.model_copy(update=search)),
        )  # fmt: skip
        runner.progress = lambda: elapsed / limit
        return Runner.refit_reserve(_bound(runner))

    assert reserve(600.0, 300.0) == pytest.approx(10.0 / 0.8)  # half-way: the best node's refit alone
    assert reserve(600.0, 460.0) == pytest.approx((10.0 + 8.0) / 0.8)  # ensemble due: both members
    both = cfg.ensemble.model_copy(update={"members": 3})
    assert reserve(600.0, 460.0, ensemble=both) == pytest.approx(48.0 / 0.8)  # the three best lineages
    assert reserve(600.0, 550.0, ensemble=both) == pytest.approx(45.0)  # 45 s left: a 60 s refit still starts
    assert reserve(600.0, 570.0, ensemble=both) == pytest.approx(10.0 / 0.8)  # 25 s left: it would not start
    off = cfg.ensemble.model_copy(update={"rounds": 0})
    assert reserve(600.0, 460.0, ensemble=off) == pytest.approx(10.0 / 0.8)  # no ensembles: no such refit
    for _ in range(cfg.ensemble.rounds):
        j.append(Node(action="ensemble", parent=j.get("0"), metric=MetricValue(0.6), is_buggy=False, code="x",
                      ensemble={"members": ["0", "1"]}))  # fmt: skip
    # its rounds are spent: the round on the pool of all three is due, counted as its best two (selection
    # weighs a few members and only those are refitted)
    assert reserve(600.0, 460.0) == pytest.approx((10.0 + 8.0) / 0.8)
    j.append(Node(action="ensemble", parent=j.get("0"), metric=MetricValue(0.6), is_buggy=False, code="x",
                  ensemble={"members": ["0", "1", "2"]}))  # fmt: skip
    assert reserve(600.0, 460.0) == pytest.approx(10.0 / 0.8)  # and that pool had its round: none is due


class BlendingRoles(ScriptedRoles):
    """Drafts that record how many training rows they saw; an ensemble that reads its members' folders."""

    def code_ensemble(self, ctx: Context, plan: Plan, members: list[dict[str, Any]]) -> str:
        dirs = [m["dir"] for m in members]
        return script(0.95) + (
            f"seen = [open(d + '/submission/rows.txt').read() for d in {dirs!r}]\n"
            'print("members trained on", ",".join(seen), "rows")\n'
        )


def rows_seen(code: str) -> str:
    return saving(code) + (
        'open("submission/rows.txt", "w").write(str(len(list(csv.DictReader(open("input/train.csv"))))))\n'
    )


def test_an_ensemble_is_refitted_with_its_members_on_all_rows(big_task, tmp_path, settings_factory):
    drafts = [rows_seen(script(0.7, threshold=0.6)), rows_seen(script(0.7, threshold=0.4))]
    roles = BlendingRoles({"draft": drafts})
    s = _on(settings_factory, **{"search.steps": 3, "search.num_drafts": 2, "search.refine.outer": 0,
                                 "search.ensemble.rounds": 1, "search.ensemble.start_share": 0.5})  # fmt: skip
    res = solve(big_task, s, out=tmp_path / "run", roles=roles)
    run, j = tmp_path / "run", res.journal
    assert [n.action for n in j.nodes] == ["draft", "draft", "ensemble"] and res.best is j.get("2")
    assert "members trained on 240,240 rows" in (run / "nodes/2/output.txt").read_text()  # the search's view
    info = json.loads((run / "run.json").read_text())["refit"]
    assert info["used"] and info["node"] == "2" and sorted(info["members"]) == ["0", "1"]
    for member in ("0", "1"):  # each member re-run on all 300 training rows, its outputs kept beside it
        assert (run / f"nodes/{member}/refit/submission/rows.txt").read_text() == "300"
        assert (run / f"nodes/{member}/submission/rows.txt").read_text() == "240"  # search-time files kept
    assert "members trained on 300,300 rows" in (run / "nodes/2/refit/output.txt").read_text()
    assert (run / "submission.csv").read_bytes() == (run / "nodes/2/refit/submission.csv").read_bytes()
    report = (run / "report.html").read_text()
    assert "Final refit of node 2 (with the nodes it blends, each re-run first: " in report


def test_each_script_of_a_refit_chain_leaves_the_later_ones_their_time(big_task, tmp_path, settings_factory):
    """A blend's members are refitted under a limit that keeps the estimated time of the scripts after them
    (each member's run scaled to all rows, then the blend's): a member may not use what the blend needs."""
    told = 'print("limit", __import__("os").environ.get("AUTOMIND_TIME_LIMIT_S"))\n'
    drafts = [rows_seen(script(0.7, threshold=t, sleep=1.0)) + told for t in (0.6, 0.4)]
    roles = BlendingRoles({"draft": drafts})
    s = _on(settings_factory, **{"search.steps": 3, "search.num_drafts": 2, "search.refine.outer": 0,
                                 "search.ensemble.rounds": 1, "search.ensemble.start_share": 0.5})  # fmt: skip
    res = solve(big_task, s, out=tmp_path / "run", roles=roles)
    run, j = tmp_path / "run", res.journal
    refit = json.loads((run / "run.json").read_text())["refit"]
    assert res.best is j.get("2") and refit["used"]
    cap = min(s.search.exec_timeout_s, s.sandbox.timeout_s)

    def limit(node: str) -> float:
        return float((run / f"nodes/{node}/refit/output.txt").read_text().split("limit ")[1].split()[0])

    first, second = refit["members"]  # the order they are refitted in
    scale = 300 / 240  # the runs on all training rows
    after_first = (j.get(second).timings["exec"] + j.get("2").timings["exec"]) * scale
    assert limit(first) <= cap - after_first + 0.1 and after_first > 1.0  # without the rule: about cap


class WeighingRoles(ScriptedRoles):
    """An ensemble written as automind's own (its tag) whose fitted weights give node 1 nothing; like the
    recipe runtime it leaves out a member whose folder holds no predictions."""

    def code_ensemble(self, ctx: Context, plan: Plan, members: list[dict[str, Any]]) -> str:
        from automind.recipes.ensemble import ENSEMBLE_TAG

        dirs = [m["dir"] for m in members]
        weights = {"node 0": 0.5, "node 1": 0.0, "node 2/lgbm": 0.5}
        return (
            f"# {ENSEMBLE_TAG} caruana\n"
            + script(0.95)
            + (
                "import json, os\n"
                f"seen = [open(d + '/submission/rows.txt').read() for d in {dirs!r}\n"
                "        if os.path.exists(d + '/submission/rows.txt')]\n"
                'print("members trained on", ",".join(seen), "rows")\n'
                f"json.dump({{'method': 'caruana', 'weights': {weights!r}}}, open('submission/ensemble.json', 'w'))\n"
            )
        )


def test_a_blend_refits_only_the_members_its_weights_use(big_task, tmp_path, settings_factory):
    drafts = [rows_seen(script(0.7, threshold=t)) for t in (0.6, 0.4, 0.65)]
    s = _on(settings_factory, **{"search.steps": 4, "search.num_drafts": 3, "search.refine.outer": 0,
                                 "search.ensemble.rounds": 1, "search.ensemble.start_share": 0.5})  # fmt: skip
    res = solve(big_task, s, out=tmp_path / "run", roles=WeighingRoles({"draft": drafts}))
    run, j = tmp_path / "run", res.journal
    assert [n.action for n in j.nodes] == ["draft"] * 3 + ["ensemble"] and res.best is j.get("3")
    assert j.get("3").ensemble["weights"]["node 1"] == 0.0
    info = json.loads((run / "run.json").read_text())["refit"]
    assert info["used"] and sorted(info["members"]) == ["0", "2"] and info["unweighted"] == ["1"]
    assert not (run / "nodes/1/refit").exists()  # never re-run: the blend gives it no weight
    assert "members trained on 300,300 rows" in (run / "nodes/3/refit/output.txt").read_text()
    assert "not 1, which its weights do not use" in (run / "report.html").read_text()


def test_a_moved_run_points_its_blends_at_its_new_folder_and_refits_them(
    big_task, tmp_path, settings_factory
):
    """An ensemble names its members' folders by absolute path; after the run folder is moved, a resume
    points those paths at the new folder, so the blend's final refit re-runs its members there."""
    drafts = [rows_seen(script(0.7, threshold=0.6)), rows_seen(script(0.7, threshold=0.4))]
    s = _on(settings_factory, **{"search.steps": 3, "search.num_drafts": 2, "search.refine.outer": 0,
                                 "search.ensemble.rounds": 1, "search.ensemble.start_share": 0.5,
                                 "verify.refit": False})  # fmt: skip
    res = solve(big_task, s, out=tmp_path / "run", roles=BlendingRoles({"draft": drafts}))
    assert res.best is res.journal.get("2") and res.refit["reason"] == "verify.refit is off"
    old = str((tmp_path / "run").resolve())
    assert json.loads((tmp_path / "run/run.json").read_text())["run_dir"] == old
    moved = tmp_path / "elsewhere" / "run"
    moved.parent.mkdir()
    (tmp_path / "run").rename(moved)

    again = resume(moved, overrides={"verify.refit": True}, roles=BlendingRoles({}))
    assert again.refit["used"] and sorted(again.refit["members"]) == ["0", "1"]
    assert "members trained on 300,300 rows" in (moved / "nodes/2/refit/output.txt").read_text()
    info = json.loads((moved / "run.json").read_text())
    assert info["run_dir"] == str(moved.resolve()) and info["moved_from"] == [old]
    code = again.journal.get("2").code
    assert old not in code and str(moved.resolve()) in code
    assert (moved / "nodes/2/code.py").read_text() == code == (moved / "best_solution.py").read_text()
    assert old not in Journal.load(moved / "journal.json").get("2").code


def test_an_ensemble_whose_member_fails_its_refit_keeps_the_search_time_submission(
    big_task, tmp_path, settings_factory
):
    fails_on_all_rows = rows_seen(script(0.7, threshold=0.6)) + (
        'assert len(list(csv.DictReader(open("input/train.csv")))) < 300, "too many rows"\n'
    )
    roles = BlendingRoles({"draft": [fails_on_all_rows, rows_seen(script(0.7, threshold=0.4))]})
    s = _on(settings_factory, **{"search.steps": 3, "search.num_drafts": 2, "search.refine.outer": 0,
                                 "search.ensemble.rounds": 1, "search.ensemble.start_share": 0.5})  # fmt: skip
    res = solve(big_task, s, out=tmp_path / "run", roles=roles)
    run = tmp_path / "run"
    assert res.best is res.journal.get("2") and res.refit["used"] is False
    assert "the refit of node 0 (blended by the best node) did not produce" in res.refit["reason"]
    assert (run / "submission.csv").read_bytes() == (run / "nodes/2/submission/submission.csv").read_bytes()
    assert any(f.startswith("final refit not used") for f in res.fallbacks)


@pytest.mark.parametrize("author", ["llm", "recipes"])
def test_own_validation_pools_both_scores_and_other_code_is_ranked_by_the_holdout(
    author, big_task, tmp_path, settings_factory
):
    """Two honest drafts with the same holdout score (the rule x > 0.5 is perfect on every row): LLM code
    is ranked by the holdout alone (a tie: the first stays best); automind's own recipes by the row-weighted
    mean of both scores, so the one whose own 5-fold-style estimate is better wins. A blend (it names
    another node's folder) is ranked by its holdout score even when automind wrote it."""
    run = tmp_path / "run"
    blend = f"# reads {(run / 'nodes').resolve()}/1/oof.csv\n" + script(0.999)
    roles = ScriptedRoles({"draft": [script(0.8), script(0.95), blend]}, name=author)
    s = _on(settings_factory, **{"search.steps": 3, "search.num_drafts": 3})
    res = solve(big_task, s, out=run, roles=roles)
    a, b, c = (res.journal.get(i) for i in "012")
    assert a.holdout_metric == b.holdout_metric == c.holdout_metric == 1.0
    assert not any(n.flagged for n in (a, b, c))
    if author == "llm":
        assert [a.metric.value, b.metric.value, c.metric.value] == [1.0, 1.0, 1.0]
        assert res.journal.best_solution() is a
    else:  # 240 rows seen, 60 held out
        assert a.metric.value == pytest.approx((60 * 1.0 + 240 * 0.8) / 300)
        assert b.metric.value == pytest.approx((60 * 1.0 + 240 * 0.95) / 300)
        assert c.metric.value == 1.0  # the blend's own score is not pooled
        assert b.metric > a.metric


def test_the_ensemble_share_is_of_the_search_time_not_of_the_whole_limit():
    """The time share the policy sees leaves out the finishing reserve and the best node's refit, so the
    ensembles' last quarter begins inside the search: credit at 120 s held 30 s for them, the whole-limit share
    reached 0.74 as the search stopped, and the run ended with no ensemble at all."""
    from types import SimpleNamespace

    from automind.run import Runner
    from automind.search.policy import ensemble_due

    j = Journal(lower_is_better=False)
    for value, secs in ((0.8, 20.0), (0.7, 4.0)):  # two lineages that saved predictions
        j.append(Node(action="draft", metric=MetricValue(value), is_buggy=False, code="x",
                      outputs=["oof.npy", "test_pred.npy", "y.npy"], timings={"exec": secs}))  # fmt: skip
    cfg = SearchConfig(finish_reserve_s=10.0, ensemble={"members": 2, "start_share": 0.75})

    def runner(elapsed: float, limit: float | None = 120.0, steps: int | None = None) -> Any:
        r = _bound(SimpleNamespace(
            journal=j, time_limit=limit, max_steps=steps, run_dir=Path("run"), elapsed=lambda: elapsed,
            agent=SimpleNamespace(holdout=SimpleNamespace(n_seen=800, n_holdout=200, strategy="random")),
            settings=SimpleNamespace(verify=SimpleNamespace(refit=True, refit_bags=1), search=cfg),
        ))  # fmt: skip
        r.progress = lambda: Runner.progress(r)
        return r

    # 10 s for the report and 25 s (20 s on 80 % of the rows) for the best node's refit: 85 s of search
    assert Runner.progress(runner(42.5)) == pytest.approx(0.5)
    late = runner(66.0)  # 55 % of the limit, 78 % of the search
    assert Runner.progress(late) == pytest.approx(66.0 / 85.0)
    assert [n.id for n in ensemble_due(j, cfg, Runner.progress(late))] == ["0", "1"]
    # the reserve then also keeps the members' refit (the 4 s draft's too)
    assert Runner.refit_reserve(late) == pytest.approx(24.0 / 0.8)
    assert ensemble_due(j, cfg, Runner.progress(runner(60.0))) == []  # 71 % of the search: not yet
    assert Runner.progress(runner(200.0)) == 1.0
    assert Runner.progress(runner(0.0, limit=None, steps=4)) == pytest.approx(0.5)  # the share of the steps


def test_an_ensemble_may_start_with_less_time_left_than_a_training_run():
    """An ensemble blends saved predictions in a second or two: it starts with ENSEMBLE_START_S left, where a
    training script needs MIN_START_S (college at 120 s stopped with 4 s left and its ensemble due)."""
    from types import SimpleNamespace

    from automind.run import ENSEMBLE_START_S, MIN_START_S, Runner

    j = Journal(lower_is_better=False)
    j.append(Node(action="draft", metric=MetricValue(0.8), is_buggy=False, code="x", timings={"exec": 3.0}))
    r = SimpleNamespace(journal=j, time_limit=120.0)
    assert Runner.start_floor(r, "ensemble") == ENSEMBLE_START_S < MIN_START_S
    assert Runner.start_floor(r, "improve") == MIN_START_S
    assert Runner.start_floor(SimpleNamespace(journal=j, time_limit=10.0), "ensemble") == 1.0  # 10 % of 10 s


def test_the_run_holds_out_at_most_the_configured_rows(big_task, tmp_path, settings_factory):
    s = _on(settings_factory, **{"search.steps": 1, "verify.refit": False, "verify.holdout_max_rows": 25})
    solve(big_task, s, out=tmp_path / "run", roles=ScriptedRoles({"draft": [script(0.8)]}))
    info = json.loads((tmp_path / "run/run.json").read_text())["holdout"]
    assert info["holdout_rows"] == 25 and info["max_rows"] == 25 and info["fraction"] == 0.2  # not 60 rows
    report = (tmp_path / "run/report.html").read_text()
    assert "Hidden holdout: 25 training rows (8.3 %, 20 % capped at about 25 rows" in report


@pytest.mark.parametrize(("roles_name", "bags"), [("recipes", 3), ("llm", 1)])
def test_the_final_refit_of_a_recipe_script_bags_over_fold_shuffles(
    big_task, tmp_path, settings_factory, roles_name, bags
):
    """With time to spare, the refit tells a recipe script to repeat its K-fold fitting on verify.refit_bags
    fold shuffles (AUTOMIND_REFIT_BAGS) and records it; an LLM script's refit runs as it was written."""
    code = script(0.8) + "print('bags', os.environ.get('AUTOMIND_REFIT_BAGS'))\n"
    roles = ScriptedRoles({"*": [code]}, name=roles_name)
    s = _on(settings_factory, **{"search.steps": 1, "search.time_limit_s": 600})
    res = solve(big_task, s, out=tmp_path / "run", roles=roles)
    assert res.refit is not None and res.refit["used"] and res.refit["bags"] == bags
    said = (tmp_path / "run/nodes/0/refit/output.txt").read_text()
    assert f"bags {bags if bags > 1 else None}" in said
    assert "bags None" in res.journal.get("0").output  # the search's own run never bags
    info = json.loads((tmp_path / "run/run.json").read_text())
    assert info["refit"]["bags"] == bags
    html = (tmp_path / "run/report.html").read_text()
    assert ("repeated on 3 fold shuffles" in html) == (bags > 1)
    off = _on(settings_factory, **{"search.steps": 1, "search.time_limit_s": 600, "verify.refit_bags": 1})
    again = solve(big_task, off, out=tmp_path / "run1", roles=ScriptedRoles({"*": [code]}, name=roles_name))
    assert again.refit is not None and again.refit["bags"] == 1
    assert "bags None" in (tmp_path / "run1/nodes/0/refit/output.txt").read_text()


def test_the_refit_of_a_recipe_portfolio_fits_only_the_models_its_ensemble_weighted(
    big_task, tmp_path, settings_factory
):
    """A recipe script whose members.json gives model `b` no weight is refitted with AUTOMIND_REFIT_MEMBERS
    naming the others; run.json says which; a script of another author is told nothing (its file is not
    trusted)."""
    members = {"metric": "accuracy", "lower_is_better": False, "combined": 0.8, "members": {"a": 0.8, "b": 0.7,
               "c": 0.75}, "seconds": {"a": 1.0, "b": 5.0, "c": 1.0}, "weights": {"a": 0.7, "b": 0.0, "c": 0.3}}  # fmt: skip
    code = script(0.8) + (
        f"open('submission/members.json', 'w').write({json.dumps(json.dumps(members))})\n"
        "print('fitting:', os.environ.get('AUTOMIND_REFIT_MEMBERS', 'all'))\n"
    )
    s = _on(settings_factory, **{"search.steps": 1})
    solve(big_task, s, out=tmp_path / "run", roles=ScriptedRoles({"draft": [code]}, name="recipes"))
    info = json.loads((tmp_path / "run/run.json").read_text())
    assert info["refit"]["used"] and info["refit"]["models"] == {"0": ["a", "c"]}
    assert "fitting: all" in (tmp_path / "run/nodes/0/output.txt").read_text()  # the search ran them all
    assert "fitting: a,c" in (tmp_path / "run/nodes/0/refit/output.txt").read_text()

    solve(big_task, s, out=tmp_path / "llm", roles=ScriptedRoles({"draft": [code]}))
    info = json.loads((tmp_path / "llm/run.json").read_text())
    assert info["refit"]["used"] and "models" not in info["refit"]
    assert "fitting: all" in (tmp_path / "llm/nodes/0/refit/output.txt").read_text()
