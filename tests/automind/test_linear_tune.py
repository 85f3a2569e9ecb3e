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


def _multiplicative(n: int = 300, seed: int = 3):
    """Output that multiplies its inputs' effects (a production function): log(y) is linear in X."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 6))
    y = np.exp(4.0 + X[:, :3] @ np.array([0.9, -0.7, 0.6]) + rng.normal(scale=0.1, size=n))
    return X, y


def _inner_choice(X, y, scales):
    """The candidate (strength, log scale) with the best RMSE on the target's own scale, searched as
    `fit_linear` does: one inner quarter for the raw scale alone, out-of-fold predictions of three inner
    folds when both scales compete; ties to the smaller strength, then the raw scale."""
    from sklearn.model_selection import KFold

    if len(scales) > 1:
        inner = list(KFold(3, shuffle=True, random_state=0).split(X))
    else:
        inner = [tuple(train_test_split(np.arange(len(y)), test_size=0.25, random_state=0))]
    best = None
    for logged in scales:
        for f in (0.03, 0.1, 0.3, 1, 3, 10):
            err = []
            for a, b in inner:
                ya = y[a]
                p = _ridge(3.0 * f, X[a], np.log1p(ya) if logged else ya, X[b])
                if logged:
                    p = np.expm1(np.clip(p, np.log1p(ya.min()) - 1, np.log1p(ya.max()) + 1))
                err.append((y[b] - p) ** 2)
            rmse = float(np.sqrt(np.mean(np.concatenate(err))))
            if best is None or rmse < best[0]:
                best = (rmse, 3.0 * f, logged)
    return best[1], best[2]


def _refit(alpha, logged, X, y, X_te):
    if not logged:
        return _ridge(alpha, X, y, X_te)
    lo, hi = np.log1p(y.min()), np.log1p(y.max())
    return np.expm1(np.clip(_ridge(alpha, X, np.log1p(y), X_te), lo - 1, hi + 1))


def test_a_skewed_non_negative_target_is_also_tried_on_the_log_scale():
    """Effects that multiply: the search scores ridge on log1p(y), mapped back, against ridge on y, both on
    the target's own scale over three inner folds of all the training rows, and the log scale wins here by
    far; the refit predicts through expm1."""
    X, y = _multiplicative()
    cfg = _cfg()
    p_va, p_te = rt.fit_linear(X[:200], y[:200], X[200:], y[200:], X[200:], {"alpha": 3.0, "tune": True}, cfg)
    alpha, logged = _inner_choice(X[:200], y[:200], (False, True))
    assert logged
    np.testing.assert_allclose(p_te, _refit(alpha, True, X[:200], y[:200], X[200:]), rtol=1e-8)
    np.testing.assert_allclose(p_va, p_te, rtol=1e-8)
    raw = _refit(_inner_choice(X[:200], y[:200], (False,))[0], False, X[:200], y[:200], X[200:])
    rmse = lambda p: float(np.sqrt(np.mean((y[200:] - p) ** 2)))  # noqa: E731
    assert rmse(p_te) < 0.5 * rmse(raw), (rmse(p_te), rmse(raw))


def test_a_target_already_transformed_stays_on_its_scale():
    """Under a target hook (rcp-log1p-target: y is log1p already) only the raw scale is searched: the same
    predictions as the strength search alone, although the log scale would win on this table."""
    X, y = _multiplicative()
    alpha, _ = _inner_choice(X[:200], y[:200], (False,))
    rt.TARGET_HOOKS.append(lambda v, cfg, inverse=False: v)
    try:
        _, hooked = rt.fit_linear(
            X[:200], y[:200], X[200:], y[200:], X[200:], {"alpha": 3.0, "tune": True}, _cfg()
        )
    finally:
        rt.TARGET_HOOKS.clear()
    np.testing.assert_allclose(hooked, _refit(alpha, False, X[:200], y[:200], X[200:]), rtol=1e-8)


def test_the_log_scale_is_offered_for_skewed_non_negative_numbers_only():
    X, y = _multiplicative()
    cfg = _cfg()
    assert rt.log_scale_ok(y, cfg)
    assert not rt.log_scale_ok(y - 20.0, cfg)  # values below 0 have no log1p
    symmetric = _data()[1]
    assert not rt.log_scale_ok(symmetric - symmetric.min(), cfg)  # non-negative, not skewed
    assert not rt.log_scale_ok(y[:10], cfg)  # too few rows to compare two scales on a quarter
    assert not rt.log_scale_ok(np.arange(200) % 2, {**cfg, "problem": "binary"})
