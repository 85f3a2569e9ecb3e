"""The LightGBM tuning option of the recipe runtime (rcp-lgbm-tune): a tree shape chosen on the fold's
training rows only, one that suits the data, within the fold's time."""

from __future__ import annotations

import time

import numpy as np
import pytest

from automind.recipes import runtime as rt

pytest.importorskip("lightgbm")


def _data(n: int = 600, seed: int = 0):
    """An additive signal under heavy noise: deep trees memorise the noise, shallow ones do not."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 8))
    y = X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=1.5, size=n)
    return X, y


def _cfg(**extra):
    return {"problem": "regression", "seed": 0, "n_rows": 600, "lower_is_better": True, **extra}


def test_tuning_picks_a_regularised_shape_for_a_noisy_additive_table():
    X, y = _data()
    cfg = _cfg()
    params = rt.tune_lgbm(X[:480], y[:480], {"learning_rate": 0.05, "num_leaves": 31}, cfg)
    assert cfg["_tuned"] and cfg["_tuned"] in rt.LGBM_SHAPES
    assert params["num_leaves"] <= 15 and params["learning_rate"] == 0.05  # the shape, not the rate
    again = _cfg()
    assert rt.tune_lgbm(X[:480], y[:480], {"learning_rate": 0.05, "num_leaves": 31}, again) == params


def test_the_shape_is_chosen_without_the_validation_rows():
    """The out-of-fold score stays honest: what the fold's validation rows hold does not move the choice."""
    X, y = _data()
    rng = np.random.default_rng(1)
    chosen = []
    for y_va in (y[480:], rng.normal(size=120) * 50):
        cfg = _cfg()
        p_va, _ = rt.fit_lgbm(X[:480], y[:480], X[480:], y_va, X[480:], {"tune": True}, cfg)
        chosen.append(cfg["_tuned"])
        assert len(p_va) == 120
    assert chosen[0] == chosen[1]


def test_tuning_stops_when_the_fold_time_is_spent():
    X, y = _data()
    cfg = _cfg(fold_deadline=time.time() - 1)  # already over: only the model's own shape is fitted
    params = rt.tune_lgbm(X[:480], y[:480], {"num_leaves": 31}, cfg)
    assert cfg["_tuned"] == {} and params == {"num_leaves": 31}
