"""The refine and ensemble actions in the search: policy rules, the journal records, one refine step
changing only its block (scripted roles and LLM roles on a replay cassette), ensembles of lineages."""

from __future__ import annotations

import json
import random

import pytest
from search_fakes import ScriptedRoles, make_task, saving, script

from automind.config import SearchConfig, load_config
from automind.llm.replay import ReplayLLM
from automind.llm.roles import LLMRoles
from automind.roles import AblationRun
from automind.run import solve
from automind.search.agent import Agent
from automind.search.journal import Journal, MetricValue, Node
from automind.search.policy import Decision, decide, ensemble_due, fallback_ensemble, refine_due
from automind.search.refine import refine_step
from automind.task import Task

SAVED = ["oof.npy", "submission.csv", "test_pred.npy", "y.npy"]


def valid(value: float, parent: Node | None = None, action: str = "draft", **kw) -> Node:
    kw.setdefault("outputs", SAVED)
    return Node(action=action, parent=parent, metric=MetricValue(value), is_buggy=False, code="x", **kw)


def cfg(**kw) -> SearchConfig:
    base = {"num_drafts": 2, "debug_prob": 1.0, "greedy_prob": 1.0, "trick_prob": 0.0, "max_debug_depth": 2}
    return SearchConfig(**(base | kw))


# --- policy rules -------------------------------------------------------------------------------------


def test_refine_comes_right_after_the_drafts_then_waits_for_a_stall():
    j = Journal(lower_is_better=False)
    a, b = j.append(valid(0.5)), j.append(valid(0.7))
    c = cfg(refine={"outer": 2, "patience": 2}, ensemble={"rounds": 0})
    d = decide(j, c, random.Random(0))
    assert (d.action, d.parent) == ("refine", b)  # the best solution, right after the drafts
    b.ablations.append({"step": 1, "after": 2, "block": "model", "attempts": []})
    j.append(valid(0.6, b, "refine"))
    assert decide(j, c, random.Random(0)).action == "improve"  # one node since: not stalled yet
    j.append(valid(0.65, a, "improve"))
    d = decide(j, c, random.Random(0))
    assert (d.action, d.parent) == ("refine", b)  # best unchanged for 2 nodes, 2 nodes since the step
    b.ablations.append({"step": 2, "after": 4, "block": "features", "attempts": []})
    j.append(valid(0.1, a, "improve"))
    j.append(valid(0.1, a, "improve"))
    assert refine_due(j, c) is None  # outer = 2 steps taken


def test_ensemble_needs_two_lineages_the_last_share_and_rounds_left():
    j = Journal(lower_is_better=False)
    a = j.append(valid(0.5))
    j.append(valid(0.6, a, "improve"))
    c = cfg(refine={"outer": 0}, ensemble={"rounds": 2, "members": 3, "pool": 0, "start_share": 0.7})
    assert ensemble_due(j, c, 0.9) == []  # one lineage only
    j.append(valid(0.9, outputs=["submission.csv"]))  # saved no predictions: never a member
    b = j.append(valid(0.55))
    assert ensemble_due(j, c, 0.5) == []  # not in the last share yet
    d = decide(j, c, random.Random(0), progress=0.8)
    assert d.action == "ensemble" and [m.id for m in d.members] == ["1", "3"]  # best of each lineage
    assert d.parent.id == "1"
    for _ in range(2):
        j.append(valid(0.7, d.parent, "ensemble", ensemble={"members": ["1", "3"]}))
    assert ensemble_due(j, c, 0.9) == [] and fallback_ensemble(j, c) is None  # rounds spent on these members
    j.append(valid(0.65, b, "improve"))  # a better member of lineage b: a new set, new rounds
    assert [m.id for m in ensemble_due(j, c, 0.9)] == ["6", "1"]
    refused = j.append(Node(action="ensemble", parent=j.get("6"), ensemble={"members": ["6", "1"]}))
    refused.is_buggy = True  # the role wrote no script for these members: no more rounds on them
    assert ensemble_due(j, c, 0.9) == [] and fallback_ensemble(j, c) is None
    refused.code = "print(1)\n"  # a script that failed is a round like any other
    assert [m.id for m in ensemble_due(j, c, 0.9)] == ["6", "1"]
    # ensembles are never improved, refined or debugged
    j.get("2").is_buggy = True  # (out of the way: the best solution below is an ordinary node again)
    j.append(valid(0.99, j.get("1"), "ensemble", ensemble={"members": ["6", "1"]}))
    assert j.best_node.action == "ensemble" and j.best_solution().id == "6"
    j.append(Node(action="ensemble", parent=a, ensemble={"members": ["6", "1"]}))
    assert all(n.action != "ensemble" for n in j.debuggable)


def test_once_the_lineage_rounds_are_spent_the_whole_pool_gets_one_round_per_new_pool():
    """The pool: the best solutions of any lineage that saved predictions, not copies of their parent, re-runs
    or ensembles; one round each time a new solution enters it; none when it adds nothing to the lineage set
    or `ensemble.pool` is 0."""
    j = Journal(lower_is_better=False)
    a, b = j.append(valid(0.5)), j.append(valid(0.6))
    c = cfg(refine={"outer": 0}, ensemble={"rounds": 1, "members": 2, "pool": 4, "start_share": 0.5})
    assert [m.id for m in ensemble_due(j, c, 0.9)] == ["1", "0"]
    j.append(valid(0.7, b, "ensemble", ensemble={"members": ["1", "0"]}))
    assert ensemble_due(j, c, 0.9) == []  # the pool holds nothing the lineage set does not
    j.append(valid(0.55, b, "improve"))  # 3: below its lineage's best; the lineage set stays
    j.append(valid(0.58, b, "improve", no_effect=True))  # 4: a copy of its parent's predictions
    j.append(valid(0.9, b, "improve", rerun=True))  # 5: a re-run, never a member
    j.append(valid(0.95, a, "improve", outputs=["submission.csv"]))  # 6: no saved predictions
    d = decide(j, c, random.Random(0), progress=0.8)
    assert d.action == "ensemble" and [m.id for m in d.members] == ["1", "3", "0"] and d.parent.id == "1"
    assert ensemble_due(j, c, 0.4) == []  # not in the last share yet
    j.append(valid(0.7, b, "ensemble", ensemble={"members": ["1", "3", "0"]}))
    assert ensemble_due(j, c, 0.9) == [] and fallback_ensemble(j, c) is None  # one round per pool
    j.append(valid(0.52, b, "improve"))  # 8: a new pool of the four best
    assert [m.id for m in fallback_ensemble(j, c).members] == ["1", "3", "8", "0"]
    j.append(valid(0.45, a, "improve"))  # 9: ranks below the four best; the pool is unchanged
    assert [m.id for m in ensemble_due(j, c, 0.9)] == ["1", "3", "8", "0"]
    off = cfg(refine={"outer": 0}, ensemble={"rounds": 1, "members": 2, "pool": 0, "start_share": 0.5})
    assert ensemble_due(j, off, 0.9) == []


def test_policy_without_refine_and_ensemble_is_algorithm_1():
    j = Journal(lower_is_better=False)
    j.append(valid(0.5))
    j.append(valid(0.4))
    c = cfg(refine={"outer": 0}, ensemble={"rounds": 0})
    assert decide(j, c, random.Random(0), progress=0.99).action == "improve"


# --- refine and ensemble steps in a run (scripted roles, real sandbox) ---------------------------------


def test_solve_takes_a_refine_step_and_an_ensemble(task_dir, tmp_path, settings_factory):
    roles = ScriptedRoles({"draft": [saving(script(0.6)), saving(script(0.5))], "*": [script(0.55)]})
    s = settings_factory(**{"search.steps": 6, "search.num_drafts": 2, "search.refine.outer": 1,
                            "search.refine.inner": 3, "search.ensemble.rounds": 1,
                            "search.ensemble.start_share": 0.8})  # fmt: skip
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles)
    j = res.journal
    assert [n.action for n in j.nodes] == ["draft", "draft", "refine", "refine", "refine", "ensemble"]
    base = j.get("0")
    (rec,) = base.ablations
    assert rec["rows"] == [{"component": "threshold", "change": "threshold 0.5 -> 0.4", "score": 0.55,
                            "effect": 0.05}]  # fmt: skip
    assert rec["block"] == "metric" and rec["attempts"] == ["2", "3", "4"] and rec["kept"] == "4"
    assert [j.get(i).refine["attempt"] for i in rec["attempts"]] == [1, 2, 3]
    assert [j.get(i).metric.value for i in rec["attempts"]] == [0.7, 0.65, 0.8]
    for i in rec["attempts"]:  # each attempt differs from the refined script in the block only
        lines = [x for x in j.get(i).code.splitlines(keepends=True) if "eval_metric.txt" not in x]
        assert lines == [x for x in base.code.splitlines(keepends=True) if "eval_metric.txt" not in x]
    assert ("plan_block", "2") in roles.calls  # the third plan saw two earlier attempts
    ens = j.get("5")
    assert ens.ensemble == {"round": 1, "members": ["4", "1"], "method": "mean",
                            "weights": {"4": 0.5, "1": 0.5}}  # fmt: skip
    assert j.best_node is ens and j.best_solution().id == "4"
    assert (tmp_path / "run" / "nodes" / "0" / "refine-1" / "threshold.py").is_file()
    report = (tmp_path / "run" / "report.html").read_text()
    assert "Refine step 1 on node #0" in report and "threshold 0.5 -&gt; 0.4" in report
    assert rec["not_tried"] == ["metric -> constant: it would score the same"]  # the roles' reasons, shown
    assert "Not tried: metric -&gt; constant: it would score the same." in report
    assert "ensemble of #4, #1" in report and "4: 0.500" in report
    log = (tmp_path / "run" / "run.log").read_text()
    assert "| node 5 | ensemble of nodes 4, 1 |" in log  # every member named, not only the first


@pytest.mark.parametrize("threshold", [0.5, 0.3])
def test_an_ensemble_whose_weights_all_fall_on_one_member_is_ranked_as_that_member(
    task_dir, tmp_path, settings_factory, threshold
):
    """A blend is ranked by its holdout score, a recipe script by its pooled score: on a task whose holdout
    rows were easier than its folds, a blend giving node 0 all the weight (its predictions node 0's) was
    picked as the best with a better-looking score. Such a copy takes its member's score and is marked; a
    blend whose submission differs is ranked by its own."""

    class OneMember(ScriptedRoles):
        def code_ensemble(self, ctx, plan, members):
            weights = {f"node {m['id']}": float(i == 0) for i, m in enumerate(members)}
            return saving(script(0.95, threshold=threshold)) + (
                "import json\n"
                f'json.dump({{"method": "caruana", "weights": {weights!r}}}, open("submission/ensemble.json", "w"))\n'
            )

    roles = OneMember(
        {"draft": [saving(script(0.6)), saving(script(0.5, threshold=0.7))], "*": [script(0.55)]}
    )
    s = settings_factory(**{"search.steps": 3, "search.num_drafts": 2, "search.refine.outer": 0,
                            "search.ensemble.rounds": 1, "search.ensemble.start_share": 0.5})  # fmt: skip
    j = solve(task_dir, s, out=tmp_path / "run", roles=roles).journal
    ens = j.nodes[-1]
    assert ens.action == "ensemble" and ens.ensemble["weights"] == {"node 0": 1.0, "node 1": 0.0}
    if threshold == 0.5:  # node 0's own submission
        assert ens.no_effect and ens.ensemble["copy_of"] == "0" and ens.metric.value == 0.6
        assert j.best_node is j.get("0")
        assert "weights all on node 0: a copy of it" in (tmp_path / "run" / "report.html").read_text()
    else:
        assert not ens.no_effect and "copy_of" not in ens.ensemble and ens.metric.value == 0.95
        assert j.best_node is ens


def test_a_refine_attempt_that_changed_nothing_is_a_copy_never_improved(task_dir, tmp_path, settings_factory):
    """An attempt whose rewrite gives the parent's own predictions and score is marked as changing nothing and
    is never improved (its improves would repeat the parent's: arrests at 600 s ran six such)."""

    class Idle(ScriptedRoles):
        refine_values = (0.6, 0.65, 0.55)  # the first rewrite writes the solution's own line back

    roles = Idle({"draft": [script(0.6), script(0.5)], "*": [script(0.55)]})
    s = settings_factory(**{"search.steps": 8, "search.num_drafts": 2, "search.refine.outer": 1,
                            "search.refine.inner": 3, "search.ensemble.rounds": 0, "search.greedy_prob": 0.0,
                            "search.debug_prob": 0.0})  # fmt: skip
    j = solve(task_dir, s, out=tmp_path / "run", roles=roles).journal
    assert [(n.action, n.no_effect) for n in j.nodes[:5]] == [
        ("draft", False), ("draft", False), ("refine", True), ("refine", False), ("refine", False),
    ]  # fmt: skip
    assert [n.parent_id for n in j.nodes[5:]] and "2" not in [n.parent_id for n in j.nodes[5:]]
    assert "changed no prediction" in (tmp_path / "run" / "report.html").read_text()


class WithBaseline(ScriptedRoles):
    """The offline roles' shape: the solution itself first (`reproduces`), then the variants."""

    def __init__(self, codes, baseline):
        super().__init__(codes)
        self.baseline = baseline

    def ablation_scripts(self, ctx, covered, refined):
        code = self.baseline if self.baseline is not None else ctx.parent_code or ""
        return [AblationRun("baseline", code, "as it is", reproduces=True),
                *super().ablation_scripts(ctx, covered, refined)]  # fmt: skip


@pytest.mark.parametrize(
    ("baseline", "why"),
    [
        (script(0.5), "ablation stopped: the solution itself scored 0.5 against its own 0.6"),
        (script(0.6, bug=True), "ablation stopped: the solution itself failed"),
        (None, None),  # the solution reproduces: every variant runs
    ],
)
def test_an_ablation_whose_baseline_is_not_the_solution_stops_there(
    task_dir, tmp_path, settings_factory, baseline, why
):
    """A baseline that scores otherwise than the solution under the ablation's slice (a portfolio cut to its
    first model) means every variant would be compared on a different solution: the other scripts are not
    run, the record says why, and the step still refines a block."""
    roles = WithBaseline({"*": [script(0.6)]}, baseline)
    s = settings_factory(**{"search.steps": 2, "search.num_drafts": 1, "search.refine.outer": 1,
                            "search.refine.inner": 1})  # fmt: skip
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles)
    (rec,) = res.journal.get("0").ablations
    ran = [o["label"] for o in rec["outputs"]]
    assert len(rec["run_seconds"]) == len(ran) and rec["attempts"] == ["1"]
    if why is None:
        assert ran == ["baseline", "threshold"] and "ablation_note" not in rec
        return
    assert ran == ["baseline"] and rec["ablation_note"].startswith(why)
    assert "the block is chosen without measurements" in rec["ablation_note"]
    assert "ablation stopped: the solution itself" in (tmp_path / "run" / "report.html").read_text()


def test_refine_step_with_failing_ablation_is_recorded_and_counted(task_dir, tmp_path, settings_factory):
    from automind.errors import RoleError

    class NoBlock(ScriptedRoles):
        def extract_block(self, ctx, ablation, refined):
            raise RoleError("nothing to refine")

    roles = NoBlock({"*": [script(0.6)]})
    s = settings_factory(**{"search.steps": 3, "search.num_drafts": 1, "search.refine.outer": 1})
    res = solve(task_dir, s, out=tmp_path / "run", roles=roles)
    rec = res.journal.get("0").ablations[0]
    assert rec["error"].endswith("nothing to refine") and rec["attempts"] == []
    assert [n.action for n in res.journal.nodes] == ["draft", "improve", "improve"]  # T = 1 step spent


# --- LLM mode: the refine roles on a replay cassette ---------------------------------------------------

PARENT = script(0.6)
METRIC_LINE = 'open("submission/eval_metric.txt", "w").write("0.6")'


def _answers() -> list[dict]:
    ablation = (
        "```python\nimport os\nif __name__ == '__main__':\n"
        "    print('ablation | baseline | none | 0.6')\n    print('ablation | threshold | 0.4 | 0.5')\n```"
    )
    table = {"rows": [{"component": "threshold", "change": "0.5 -> 0.4", "score": 0.5, "effect": 0.1}],
             "summary": "The threshold matters most."}  # fmt: skip
    new_line = METRIC_LINE.replace("0.6", "0.7")
    return [
        {"role": "coder", "text": ablation},
        {"role": "planner", "tool_args": table},
        # the first block is not in the script verbatim: refused and asked again
        {
            "role": "planner",
            "text": "<block_name>metric</block_name>\n```python\nprint('nope')\n```\n<plan>x</plan>",
        },
        {
            "role": "planner",
            "text": f"<block_name>metric</block_name>\n```python\n{METRIC_LINE}\n```\n"
            "<plan>Report a better score.</plan>",
        },  # fmt: skip
        {"role": "coder", "text": f"```python\n{new_line}\n```"},
        {"role": "planner", "text": "<plan>Try 0.65.</plan>"},
        {"role": "coder", "text": f"```python\n{METRIC_LINE.replace('0.6', '0.65')}\n```"},
        # the verifier of each run
        *[
            {
                "role": "verifier",
                "tool_args": {
                    "is_bug": False,
                    "is_overfitting": False,
                    "has_csv_submission": True,
                    "summary": "ok",
                    "metric": None,
                    "lower_is_better": False,
                },
            }
        ]
        * 2,  # fmt: skip
    ]


def test_llm_refine_rewrites_only_the_extracted_block(tmp_path):
    task = Task.load(make_task(tmp_path / "task"))
    cassette = tmp_path / "tape.jsonl"
    lines = [{"cassette": 1, "ordered": True}, *_answers()]
    cassette.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    s = load_config({"search.refine.inner": 2, "knowledge.enabled": False, "search.exec_timeout_s": 30},
                    environ={}).settings  # fmt: skip
    llm = ReplayLLM(s.llm, cassette)
    roles = LLMRoles(llm, s)
    journal = Journal(lower_is_better=False)
    base = journal.append(
        Node(action="draft", code=PARENT, plan="p", metric=MetricValue(0.6), is_buggy=False)
    )
    agent = Agent(task=task, settings=s, journal=journal, run_dir=tmp_path / "run")
    nodes = refine_step(agent, Decision("refine", base), roles)
    rec = base.ablations[0]
    assert rec["rows"][0]["effect"] == 0.1 and rec["summary"] == "The threshold matters most."
    assert rec["block"] == "metric" and rec["block_code"] == METRIC_LINE
    assert [n.metric.value for n in nodes] == [0.7, 0.65]
    for n, value in zip(nodes, ("0.7", "0.65"), strict=True):
        assert n.code == PARENT.replace(
            METRIC_LINE, METRIC_LINE.replace("0.6", value)
        )  # the rest byte-identical
        assert n.refine == {"step": 1, "block": "metric", "attempt": nodes.index(n) + 1, "base": "0"}
    assert rec["kept"] == nodes[0].id


@pytest.mark.parametrize(
    "block, why",
    [("print('nope')", "not in the script verbatim"), ("w.writerow", "appears 2 times")],
)
def test_a_block_that_cannot_be_spliced_is_refused(block, why):
    from automind.llm.search_roles import find_block

    code = 'w.writerow(["id"])\nw.writerow([1])\n'
    assert why in find_block(code, block)
    assert find_block(code, "w.writerow([1])") is None


def test_llm_ensemble_roles_see_members_paths_and_history(tmp_path):
    from automind.roles import Attempt, Context

    class Capturing(ReplayLLM):
        def _complete(self, req):
            self.prompts = [*getattr(self, "prompts", []), req.messages[-1]["content"]]
            return super()._complete(req)

    task = Task.load(make_task(tmp_path / "task"))
    tape = tmp_path / "tape.jsonl"
    answers = [{"role": "planner", "text": "<plan>Weighted mean fitted on oof.npy.</plan>"},
               {"role": "coder", "text": "```python\nprint('ens')\n```"}]  # fmt: skip
    tape.write_text("\n".join(json.dumps(x) for x in [{"cassette": 1, "ordered": True}, *answers]) + "\n")
    s = load_config({}, environ={}).settings
    llm = Capturing(s.llm, tape)
    roles = LLMRoles(llm, s)
    member = {"id": "3", "metric": 0.8, "summary": "lightgbm", "code": 'np.save("submission/oof.npy", oof)\n',
              "dir": "/runs/r/nodes/3", "files": ["oof.npy", "y.npy"]}  # fmt: skip
    ctx = Context(task=task, action="ensemble", analysis="")
    plan = roles.plan_ensemble(ctx, [member], [Attempt("mean of 3, 4", 0.79)])
    assert plan.text == "Weighted mean fitted on oof.npy."
    assert roles.code_ensemble(ctx, plan, [member]) == "print('ens')\n"
    first, second = llm.prompts
    for text in (first, second):
        assert "/runs/r/nodes/3/submission" in text and "oof.npy, y.npy" in text
        assert 'np.save("submission/oof.npy", oof)' in text  # how the member saved its predictions
    assert "mean of 3, 4 -> validation 0.79" in first and "Weighted mean fitted on oof.npy." in second
