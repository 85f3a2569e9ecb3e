"""The linear model's strength search of the recipe runtime (`fit_linear` with 'tune'): the best strength on
an inner split of the fold's training rows (ties to the smaller multiple of the default, as before), and a
search that stops when the fold's time is spent, as `tune_lgbm` does."""

from __future__ import annotations

import time

import numpy as np
from sklearn.linear_model import Ridge
from sklearn.model_selection import train_test_split

from automind.recipes import runtime as rt


def _data(n: int = 300, p: int = 40, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = X[:, :5] @ np.array([1.5, -1.2, 1.0, 0.8, -0.8]) + rng.normal(scale=2.0, size=n)
    return X, y


def _cfg(**extra):
    rt.CFG.clear()
    rt.CFG.update(metric="rmse", problem="regression", kind="value", metric_params={}, seed=0,
                  lower_is_better=True)  # fmt: skip
    return {**rt.CFG, **extra}


def _ridge(alpha, X, y, X_te):
    return Ridge(alpha=alpha).fit(X, y).predict(X_te)


def test_the_tuned_strength_is_the_best_on_the_inner_split():
    X, y = _data()
    cfg = _cfg()
    _, pred = rt.fit_linear(X[:200], y[:200], X[200:], y[200:], X[200:], {"alpha": 3.0, "tune": True}, cfg)
    a, b, ya, yb = train_test_split(X[:200], y[:200], test_size=0.25, random_state=0)
    grid = [3.0 * f for f in (0.03, 0.1, 0.3, 1, 3, 10)]
    rmse = [float(np.sqrt(np.mean((yb - _ridge(s, a, ya, b)) ** 2))) for s in grid]
    best = grid[int(np.argmin(rmse))]  # argmin: the first of equals, the smaller strength, as before
    np.testing.assert_allclose(pred, _ridge(best, X[:200], y[:200], X[200:]))


def test_the_strength_search_stops_when_the_fold_time_is_spent():
    X, y = _data()
    cfg = _cfg(fold_deadline=time.time() - 1)  # already over: only the model's own strength is scored
    _, pred = rt.fit_linear(X[:200], y[:200], X[200:], y[200:], X[200:], {"alpha": 3.0, "tune": True}, cfg)
    np.testing.assert_allclose(pred, _ridge(3.0, X[:200], y[:200], X[200:]))
    _, tuned = rt.fit_linear(
        X[:200], y[:200], X[200:], y[200:], X[200:], {"alpha": 3.0, "tune": True}, _cfg()
    )
    assert not np.allclose(tuned, pred)  # with time, the search moves off the default on this table
