"""A fold's deadline holds for the whole fit, predictions included: on a big table a booster that trains to
its deadline and only then predicts thousands of rounds, or a forest that adds 100 deep trees at a time,
overruns its share and starves the folds after it (the last fold of a 120,000-row table once reached 138
rounds where the first reached 5,990)."""

from __future__ import annotations

import time

import numpy as np
import pytest

from automind.recipes import runtime as rt


def _cfg(deadline: float, **extra):
    return {"problem": "regression", "seed": 0, "threads": 2, "fold_deadline": deadline, **extra}


def _table(n: int, seed: int = 0):
    """A smooth target that trees approach only with many rounds (no early stop within a few seconds)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 10))
    return X, X @ rng.normal(size=10) + np.sin(3 * X[:, 0])


def test_lightgbm_stops_training_in_time_to_predict_its_rounds():
    pytest.importorskip("lightgbm")
    X, y = _table(12000)
    X_te, _ = _table(400_000, seed=1)  # prediction-heavy: every round costs 400,000 more tree walks
    deadline = time.time() + 4.0
    p_va, p_te = rt.fit_lgbm(
        X[:10000], y[:10000], X[10000:], y[10000:], X_te,
        {"learning_rate": 0.01, "num_leaves": 63}, _cfg(deadline),
    )  # fmt: skip
    over = time.time() - deadline
    assert over < 1.5, f"ended {over:.1f}s after the fold's deadline"
    assert len(p_te) == 400_000 and np.isfinite(p_va).all()
    assert np.corrcoef(p_va, y[10000:])[0, 1] > 0.5  # it still learned within the time left


def test_predict_cost_grows_with_the_trees_and_the_rows():
    lgb = pytest.importorskip("lightgbm")
    X, y = _table(3000)
    booster = lgb.train({"verbose": -1, "num_leaves": 31}, lgb.Dataset(X, y), 512)
    small, big = rt.PredictCost(X, 10_000), rt.PredictCost(X, 1_000_000)
    assert small(booster, 10) == 0.0  # too few trees to time yet: nothing is held back
    assert 0 < small(booster, 512) < big(booster, 512)
    assert big(booster, 512) > 20 * small(booster, 512)  # 100 times the rows at about the same pace


def test_a_forest_stops_growing_within_its_deadline():
    X, y = _table(20000)
    start = time.time()
    deadline = start + 1.0
    p_va, _ = rt.fit_forest(
        X[:16000], y[:16000], X[16000:], y[16000:], X[16000:],
        {"kind": "rf", "n_estimators": 1000}, _cfg(deadline),
    )  # fmt: skip
    over = time.time() - deadline
    assert over < 1.0, f"ended {over:.1f}s after the fold's deadline"
    assert np.corrcoef(p_va, y[16000:])[0, 1] > 0.5
