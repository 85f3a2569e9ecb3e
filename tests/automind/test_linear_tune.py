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


def _binary_cfg():
    rt.CFG.clear()
    rt.CFG.update(metric="roc_auc", problem="binary", kind="probability", metric_params={}, seed=0,
                  lower_is_better=False, n_classes=2, classes=[0, 1])  # fmt: skip
    return dict(rt.CFG)


def test_classes_get_the_strength_that_scores_best_on_a_stratified_inner_split():
    """Logistic regression on many noisy columns (the shape where C=1 is far off): the search scores each C
    by the task metric on a quarter of the training rows drawn with the classes' shares, and refits the
    best on all of them."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(1)
    X = rng.normal(size=(240, 300))
    y = (X[:, :3].sum(axis=1) + rng.normal(scale=1.5, size=240) > 1.2).astype(int)  # about a quarter positive
    cfg = _binary_cfg()
    _, pred = rt.fit_linear(X[:160], y[:160], X[160:], y[160:], X[160:], {"C": 1.0, "tune": True}, cfg)
    a, b, ya, yb = train_test_split(X[:160], y[:160], test_size=0.25, random_state=0, stratify=y[:160])
    grid = [0.03, 0.1, 0.3, 1.0, 3.0, 10.0]

    def fit(c, Xf, yf):
        return LogisticRegression(C=c, solver="liblinear", max_iter=1000).fit(Xf, yf)

    auc = [roc_auc_score(yb, fit(c, a, ya).predict_proba(b)[:, 1]) for c in grid]
    best = grid[int(np.argmax(auc))]
    assert best != 1.0  # the default is not the answer here, so the test sees the search
    np.testing.assert_allclose(pred, fit(best, X[:160], y[:160]).predict_proba(X[160:])[:, 1])


def test_the_inner_split_keeps_every_class_a_fold_has():
    """A fold can miss a class of the task entirely (bincount 0); the split is still drawn with the classes'
    shares, so a rare class (four rows here) lands in both parts and a metric like ROC AUC can score them
    (an unstratified quarter of these rows misses it for several seeds)."""
    cfg = {"problem": "multiclass"}
    y = np.array([0] * 30 + [2] * 10 + [3] * 4)  # class 1 absent from this fold
    strata = rt.inner_strata(y, cfg)
    assert strata is not None
    _, b = train_test_split(np.arange(len(y)), test_size=0.25, random_state=0, stratify=strata)
    assert set(y[b]) == {0, 2, 3}
    assert rt.inner_strata(np.array([0] * 30 + [1]), cfg) is None  # one row cannot be in both parts
    assert rt.inner_strata(np.arange(10.0), {"problem": "regression"}) is None


def test_sparse_columns_with_several_classes_get_one_binary_model_per_class():
    """TF-IDF-like sparse columns and four classes, one of them absent from the fold: one liblinear model
    per class (lbfgs's multinomial fit took minutes on such matrices), probabilities over every class of
    the task, the absent one at 0, each row summing to 1."""
    from scipy import sparse
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(2)
    X = sparse.random(200, 500, density=0.02, random_state=3, format="csr")
    y = rng.choice([0, 2, 3], size=200)  # class 1 never appears in this fold
    X = sparse.hstack([X, sparse.csr_matrix(np.eye(4)[y])]).tocsr()  # a signal per class
    rt.CFG.clear()
    rt.CFG.update(metric="log_loss", problem="multiclass", kind="probability", metric_params={}, seed=0,
                  lower_is_better=True, n_classes=4, classes=[0, 1, 2, 3])  # fmt: skip
    _, pred = rt.fit_linear(X[:150], y[:150], X[150:], y[150:], X[150:], {"C": 4.0}, dict(rt.CFG))
    assert pred.shape == (50, 4)
    np.testing.assert_allclose(pred.sum(axis=1), 1.0)
    assert np.all(pred[:, 1] == 0.0)
    per_class = [
        LogisticRegression(C=4.0, solver="liblinear", max_iter=1000).fit(X[:150], y[:150] == c)
        for c in (0, 2, 3)
    ]
    raw = np.column_stack([m.predict_proba(X[150:])[:, 1] for m in per_class])
    np.testing.assert_allclose(pred[:, [0, 2, 3]], raw / raw.sum(axis=1, keepdims=True), rtol=1e-6)
    assert (pred.argmax(axis=1) == y[150:]).mean() > 0.9


def test_a_log_error_search_scores_predictions_below_minus_one_as_zero():
    """File sizes scored by RMSLE: a ridge on the raw seconds predicted below -1 on the inner split, RMSLE
    refused them and the linear draft failed on every try; the search scores them floored at 0, as they
    would be submitted."""
    X, y = _data()
    y = np.exp(y / 2)  # skewed, non-negative: a ridge goes below -1 on some rows
    cfg = _cfg(metric="rmsle")
    rt.CFG["metric"] = "rmsle"
    a, b, ya, _ = train_test_split(X[:200], y[:200], test_size=0.25, random_state=0)
    assert (_ridge(3.0, a, ya, b) <= -1).any()
    _, pred = rt.fit_linear(X[:200], y[:200], X[200:], y[200:], X[200:], {"alpha": 3.0, "tune": True}, cfg)
    assert np.isfinite(pred).all()
