"""Rewards: HumanRank over the boards, else improvement over the trivial baseline, always in [0, 1]."""

from __future__ import annotations

import pytest

from automind.env.reward import RewardModel, baseline_reward, best_value, human_rank_reward
from automind.grading import GradeReport
from automind.metrics import get_metric, metric_names
from automind.task import Task

PERFECT = {
    "label": ([0, 1, 0, 1, 1], [0, 1, 0, 1, 1]),
    "value": ([1.0, 2.0, 3.0, 4.5, 6.0], [1.0, 2.0, 3.0, 4.5, 6.0]),
    "proba": ([0, 1, 0, 1, 1], [0.0, 1.0, 0.0, 1.0, 1.0]),
    "ranking": (["a", "b", "c"], [["a"], ["b"], ["c"]]),
}


@pytest.mark.parametrize("name", metric_names())
def test_every_registered_metric_reaches_its_best_value_on_a_perfect_prediction(name):
    """The baseline reward normalises by the metric's best value; it must be the real optimum."""
    metric = get_metric(name)
    y_true, y_pred = PERFECT[metric.kind]
    assert metric(y_true, y_pred) == pytest.approx(best_value(metric), abs=1e-6)


def test_custom_metrics_have_no_known_best():
    m = get_metric("math:dist", lower_is_better=True)
    assert best_value(m) is None
    r = baseline_reward(1.0, 2.0, m)
    assert r.kind == "none" and r.value == 0.0 and "best value is unknown" in r.note


@pytest.mark.parametrize(
    "metric,baseline,score,expected",
    [
        ("accuracy", 0.4, 0.7, 0.5),
        ("accuracy", 0.4, 1.0, 1.0),
        ("accuracy", 0.4, 0.3, 0.0),  # worse than the baseline: clipped at 0
        ("rmse", 10.0, 5.0, 0.5),
        ("rmse", 10.0, 12.0, 0.0),
        ("log_loss", 0.69, 0.0, 1.0),
        ("accuracy", 1.0, 1.0, 1.0),  # a perfect baseline: only a perfect score earns the reward
        ("rmse", 0.0, 0.1, 0.0),
    ],
)
def test_baseline_improvement(metric, baseline, score, expected):
    r = baseline_reward(score, baseline, get_metric(metric))
    assert r.kind == "baseline_improvement" and r.value == pytest.approx(expected) and r.baseline == baseline
    assert 0.0 <= r.value <= 1.0


def _report(**kw) -> GradeReport:
    base = {"task": "t", "submission": "s.csv", "metric": "accuracy", "lower_is_better": False, "valid": True}
    return GradeReport(**(base | {"score": 0.9} | kw))


def test_human_rank_over_one_or_two_boards():
    assert human_rank_reward(_report()) is None
    one = human_rank_reward(_report(human_rank=0.8))
    assert one.value == 0.8 and one.boards == {"private": 0.8} and "averaged" not in one.note
    two = human_rank_reward(_report(human_rank=0.8, public_human_rank=0.6))
    assert two.value == pytest.approx(0.7) and two.boards == {"private": 0.8, "public": 0.6}
    assert _report(human_rank=0.8, public_human_rank=0.6).mean_human_rank == pytest.approx(0.7)


def test_model_prefers_human_rank_and_falls_back_to_the_sample_submission(binary_task, tmp_path, monkeypatch):
    task = Task.load(binary_task)
    model = RewardModel(task, tmp_path / "w")
    assert model(_report(human_rank=0.5)).kind == "human_rank"
    assert model(None, "no private answers").note == "no private answers"
    assert model(_report(valid=False, score=None, error="bad ids")).note == "bad ids"
    r = model(_report(score=0.9))
    assert r.kind == "baseline_improvement" and "trivial baseline (majority" in r.note

    import automind.baseline as baseline

    monkeypatch.setattr(
        baseline, "trivial_submission", lambda task, out: (_ for _ in ()).throw(KeyError("y"))
    )
    model = RewardModel(task, tmp_path / "w2")
    r = model(_report(score=0.9))
    assert (
        r.kind == "baseline_improvement"
        and "sample submission (the trivial baseline failed: KeyError" in r.note
    )
