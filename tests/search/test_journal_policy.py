"""Journal facts (derived tree state, direction, best node, persistence) and Algorithm 1 decisions."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from automind.config import SearchConfig
from automind.roles import Trick
from automind.search.journal import Journal, MetricValue, Node
from automind.search.policy import decide


def valid(value, parent=None, action="draft", lib=None, trick=None):
    return Node(
        plan=f"p{value}",
        action=action,
        parent=parent,
        metric=MetricValue(value, bool(lib)),
        is_buggy=False,
        trick=trick,
        reported_lower_is_better=lib,
    )


def buggy(parent=None, action="draft", trick=None):
    return Node(plan="b", action=action, parent=parent, is_buggy=True, error="boom", trick=trick)


def test_metric_value_orders_best_as_max_in_both_directions():
    assert MetricValue(0.9) > MetricValue(0.8)
    assert MetricValue(0.1, lower_is_better=True) > MetricValue(0.3, lower_is_better=True)
    assert MetricValue(None) < MetricValue(-1e9)
    assert max([MetricValue(3.0, True), MetricValue(1.0, True), MetricValue(2.0, True)]).value == 1.0


@pytest.mark.parametrize("lib,expected", [(False, 0.9), (True, 0.2)])
def test_best_node_follows_task_direction(lib, expected):
    j = Journal(lower_is_better=lib)
    for v in (0.5, 0.9, 0.2):
        j.append(valid(v, lib=not lib))  # the verifier disagrees; the task's direction wins
    j.append(buggy())
    assert j.best_node.metric.value == expected


def test_majority_direction_when_task_has_none():
    j = Journal()
    j.append(valid(0.5, lib=True))
    j.append(valid(0.9, lib=True))
    j.append(valid(0.1, lib=False))  # an inconsistent verifier is outvoted
    assert j.direction is True
    assert j.best_node.metric.value == 0.1
    j.append(valid(0.7, lib=False))
    j.append(valid(0.6, lib=False))
    assert j.direction is False
    assert j.best_node.metric.value == 0.9


def test_debug_depth_and_dead_are_derived():
    j = Journal(lower_is_better=False, max_debug_depth=2)
    root = j.append(buggy())
    d1 = j.append(buggy(root, "debug"))
    d2 = j.append(buggy(d1, "debug"))
    assert [n.debug_depth for n in (root, d1, d2)] == [0, 1, 2]
    assert (root.status, d1.status, d2.status) == ("buggy", "buggy", "dead")
    assert j.debuggable == []  # root and d1 have children, d2 is dead
    fixed = j.append(valid(0.5, d1, "debug"))
    imp = j.append(buggy(fixed, "improve"))
    assert imp.debug_depth == 0 and j.debuggable == [imp]


def test_applied_tricks_and_helpfulness():
    t1, t2 = Trick("t1", "one", "x"), Trick("t2", "two", "y")
    j = Journal(lower_is_better=False, max_debug_depth=1)
    base = j.append(valid(0.5))
    good = j.append(valid(0.7, base, "improve", trick=t1))
    assert good.trick_helpful is True and good.applied_tricks == ["t1"]
    bad = j.append(valid(0.6, good, "improve", trick=t2))
    assert bad.trick_helpful is False and bad.applied_tricks == ["t1", "t2"]
    assert j.excluded_tricks(good) == {"t1", "t2"}  # t2 is unhelpful on this lineage
    assert j.excluded_tricks(base) == {"t1"}
    # a buggy trick node is judged by its debug fix, against the improve's parent
    pending = j.append(buggy(base, "improve", trick=t2))
    assert pending.trick_helpful is None
    j.append(valid(0.55, pending, "debug"))
    assert pending.trick_helpful is True
    # a trick whose fixes die is unhelpful
    dying = j.append(buggy(good, "improve", trick=Trick("t3", "three", "z")))
    j.append(buggy(dying, "debug"))
    assert dying.trick_helpful is False


def test_journal_round_trip_and_atomic_save(tmp_path, monkeypatch):
    t = Trick("t1", "one", "x", labels=["A/B"])
    j = Journal(lower_is_better=True, max_debug_depth=3, meta={"rng": [1, 2]})
    a = j.append(valid(0.5, lib=True))
    j.append(valid(0.4, a, "improve", lib=True, trick=t))
    j.append(buggy(a, "improve"))
    path = tmp_path / "journal.json"
    j.save(path)
    back = Journal.load(path)
    assert [n.id for n in back.nodes] == ["0", "1", "2"]
    assert back.get("1").parent is back.get("0") and back.get("1").trick == t
    assert back.best_node.id == "1" and back.get("1").trick_helpful is True
    assert back.to_dict() == j.to_dict()
    data = json.loads(path.read_text())
    assert data["nodes"][2]["status"] == "buggy" and data["best_node"] == "1"

    # a crash while writing leaves the previous journal intact and no temp files behind
    def explode(*a, **k):
        raise OSError("disk full")

    j.append(valid(0.1, lib=True))
    monkeypatch.setattr("automind.atomic.os.replace", explode)
    with pytest.raises(OSError):
        j.save(path)
    assert len(Journal.load(path)) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.json"]


def cfg(**kw):
    base = dict(num_drafts=2, debug_prob=1.0, greedy_prob=1.0, trick_prob=1.0, max_debug_depth=2,
                refine={"outer": 0}, ensemble={"rounds": 0})  # fmt: skip
    return SearchConfig(**(base | kw))


def test_policy_drafts_first_then_debugs_then_improves():
    rng = random.Random(0)
    j = Journal(lower_is_better=False, max_debug_depth=2)
    assert decide(j, cfg(), rng).action == "draft"
    a = j.append(valid(0.5))
    b = j.append(buggy())
    d = decide(j, cfg(), rng)
    assert (d.action, d.parent) == ("debug", b)
    j.append(buggy(b, "debug"))
    dead = j.append(buggy(j.get("2"), "debug"))
    assert dead.status == "dead"
    d = decide(j, cfg(), rng)
    assert (d.action, d.parent, d.trick) == ("improve", a, None)  # no pool: plain improve


def test_policy_drafts_when_nothing_to_expand():
    j = Journal(lower_is_better=False, max_debug_depth=1)
    j.append(buggy())
    j.append(buggy())
    j.append(buggy(j.get("0"), "debug"))
    j.append(buggy(j.get("1"), "debug"))
    assert decide(j, cfg(max_debug_depth=1), random.Random(0)).action == "draft"


def test_policy_tricks_not_repeated_on_lineage():
    pool = [Trick("t1", "one", "x"), Trick("t2", "two", "y")]
    j = Journal(lower_is_better=False, max_debug_depth=2)
    j.append(valid(0.5))
    j.append(valid(0.4))
    d = decide(j, cfg(), random.Random(0), pool)
    assert d.trick.id == "t1" and d.parent.id == "0"
    j.append(valid(0.3, d.parent, "improve", trick=d.trick))  # did not beat its parent
    d = decide(j, cfg(), random.Random(0), pool)
    assert d.parent.id == "0" and d.trick.id == "t2"
    j.append(valid(0.6, d.parent, "improve", trick=d.trick))
    d = decide(j, cfg(), random.Random(0), pool)
    assert d.parent.id == "3" and d.trick is None  # both tricks used up on this lineage


def test_improves_skip_solutions_whose_improve_came_back_as_a_rerun():
    """Once an improve of a node changed nothing but the seed, greedy improves go to the best node that still
    has something to try, never to the re-run itself; with every node exhausted, back to the best. A re-run
    is never the best node: its score differs from its parent's by the seed's luck alone."""
    j = Journal(lower_is_better=False, max_debug_depth=2)
    best, second = j.append(valid(0.9)), j.append(valid(0.5))
    greedy = cfg(greedy_prob=1.0, debug_prob=0.0)
    d = decide(j, greedy, random.Random(0))
    assert d.parent is best and [a.parent for a in d.alternatives] == [second]
    rerun = valid(0.95, best, "improve")
    rerun.rerun = True
    j.append(rerun)  # scores above both, yet it is the same script with another seed
    assert j.best_node is best and j.best_solution() is best and j.lineage_bests() == [best, second]
    assert [p[2] for p in j.best_over_time()] == ["0"]
    d = decide(j, greedy, random.Random(0))
    assert d.parent is second and d.alternatives == []
    for seed in range(20):  # random improves draw among the same nodes
        assert decide(j, cfg(greedy_prob=0.0, debug_prob=0.0), random.Random(seed)).parent is second
    again = valid(0.4, second, "improve")
    again.rerun = True
    j.append(again)
    d = decide(j, greedy, random.Random(0))
    assert d.parent is best and [a.parent for a in d.alternatives] == [second]  # nothing left: the best


def test_alternatives_carry_their_own_trick():
    pool = [Trick("t1", "one", "x"), Trick("t2", "two", "y")]
    j = Journal(lower_is_better=False, max_debug_depth=2)
    a = j.append(valid(0.9))
    j.append(valid(0.5))
    j.append(valid(0.8, a, "improve", trick=pool[0]))
    d = decide(j, cfg(debug_prob=0.0), random.Random(0), pool)
    assert (d.parent, d.trick.id) == (a, "t2")
    assert [(x.parent.id, x.trick.id) for x in d.alternatives] == [("2", "t2"), ("1", "t1")]


def test_a_trick_that_changed_no_prediction_is_not_offered_again_anywhere_in_the_run():
    """What most tricks act on is the data (group aggregates need a grouping column): one that changed no
    prediction is not offered on other lineages either (wells at 600 s applied three such tricks 40 times in
    117 nodes); one that changed something somewhere stays on offer."""
    pool = [Trick("t1", "one", "x"), Trick("t2", "two", "y"), Trick("t3", "three", "z")]
    j = Journal(lower_is_better=False, max_debug_depth=2)
    a, b = j.append(valid(0.9)), j.append(valid(0.5))
    idle = valid(0.9, a, "improve", trick=pool[0])
    idle.no_effect = True
    j.append(idle)
    assert j.ineffective_tricks() == {"t1"} and "t1" in j.excluded_tricks(b)
    assert "[changed no prediction]" in j.memory()[-1]
    for seed in range(20):  # a copy of its parent is never improved: that would repeat the parent's improves
        assert decide(j, cfg(debug_prob=0.0, greedy_prob=0.0), random.Random(seed), pool).parent is not idle
    d = decide(j, cfg(debug_prob=0.0, greedy_prob=1.0), random.Random(0), pool)
    assert d.trick.id == "t2" and {x.trick.id for x in d.alternatives} == {"t2"}  # b: t2, not t1
    j.append(valid(0.6, b, "improve", trick=pool[0]))  # t1 moved b's predictions
    assert j.ineffective_tricks() == set() and "t1" not in j.excluded_tricks(j.append(valid(0.4)))
    back = Journal.from_dict(json.loads(json.dumps(j.to_dict())))
    assert back.get("2").no_effect and not back.get("3").no_effect


def test_a_trick_that_changed_nothing_under_one_draft_is_not_offered_there_again():
    """What a trick acts on is also the pipeline: tuning the linear model moves a linear draft but not a
    portfolio whose ensemble never picks it (a 600 s run applied it four times there, each a copy of its
    parent). Idle under a draft and never moving anything there, it is off that draft's lineages only."""
    t = Trick("t1", "one", "x")
    j = Journal(lower_is_better=False, max_debug_depth=2)
    a, b = j.append(valid(0.9)), j.append(valid(0.5))
    j.append(valid(0.6, b, "improve", trick=t))  # moved the other draft's predictions
    a1 = j.append(valid(0.91, a, "improve", trick=Trick("t2", "two", "y")))
    idle = valid(0.91, a1, "improve", trick=t)
    idle.no_effect = True
    j.append(idle)
    assert j.ineffective_tricks() == set()  # it changed something in this run ...
    assert "t1" in j.ineffective_tricks(a1) and "t1" in j.excluded_tricks(a)  # ... never under draft a
    assert "t1" not in j.ineffective_tricks(b) and "t1" not in j.excluded_tricks(j.append(valid(0.4)))
    j.append(valid(0.95, a, "improve", trick=t))  # once it moves a's predictions too, it is back on offer
    assert "t1" not in j.ineffective_tricks(a1)


def test_policy_probabilities_with_seeded_rng():
    pool = [Trick(f"t{i}", str(i), "") for i in range(50)]
    j = Journal(lower_is_better=False, max_debug_depth=2)
    for v in (0.1, 0.2, 0.9, 0.3):
        j.append(valid(v))
    j.append(buggy())
    c = cfg(num_drafts=1, debug_prob=0.3, greedy_prob=0.6, trick_prob=0.5)

    def sample(seed):
        rng = random.Random(seed)
        return [decide(j, c, rng, pool) for _ in range(4000)]

    runs = sample(7)
    assert [(d.action, d.parent.id, d.trick and d.trick.id) for d in runs[:50]] == [
        (d.action, d.parent.id, d.trick and d.trick.id) for d in sample(7)[:50]
    ]
    actions = Counter(d.action for d in runs)
    assert abs(actions["debug"] / len(runs) - 0.3) < 0.03
    improves = [d for d in runs if d.action == "improve"]
    greedy = sum(d.parent.id == "2" for d in improves) / len(improves)
    assert abs(greedy - (0.6 + 0.4 / 4)) < 0.03  # a random pick may also land on the best
    with_trick = sum(d.trick is not None for d in improves) / len(improves)
    assert abs(with_trick - 0.5) < 0.03


def test_the_context_carries_every_node_of_the_run(tmp_path):
    """The recipe policy reads which drafts and trick sets the run already tried from Context.memory, so the
    context holds one line per node of the whole run, not a window (a window let long runs repeat a draft
    or an improve that had already run); prompts show only the newest lines (tests/automind/llm)."""
    from automind.config import load_config
    from automind.roles import MEMORY_LINES
    from automind.search.agent import Agent
    from automind.search.policy import Decision
    from automind.task import MetricSpec, Task, TaskSpec

    task = Task(tmp_path, TaskSpec(name="t", metric=MetricSpec(name="accuracy")), "Predict y.")
    j = Journal(lower_is_better=False)
    for i in range(MEMORY_LINES + 3):
        j.append(valid(0.5 + i / 100)).summary = f"idea-{i:02d}"
    agent = Agent(
        task=task, settings=load_config({}, environ={}).settings, journal=j, run_dir=tmp_path / "run"
    )
    memory = agent.context(Decision("improve", j.nodes[-1])).memory
    assert len(memory) == len(j) and "idea-00" in memory[0] and "idea-14" in memory[-1]
    assert j.memory() == memory[-MEMORY_LINES:]  # the windowed view (prompts, experience records)
