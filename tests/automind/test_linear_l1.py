"""The sparse linear option of the recipe runtime (rcp-linear-l1): on a table with many columns for its
rows, an L1 penalty whose strength is chosen inside the fold finds the few columns that matter, where the
L2 model spreads its weight over all of them; the card is offered only on such tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from automind.config import load_config
from automind.prepare import prepare_task
from automind.recipes import RecipeRoles, _applies
from automind.recipes import runtime as rt
from automind.roles import Context
from automind.task import Task


def _wide(n: int, p: int = 400, seed: int = 0):
    """n rows of p standardised columns, of which the first five carry the signal."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    signal = X[:, :5] @ np.array([1.5, -1.2, 1.0, 0.8, -0.8])
    return X, signal, rng


def _cfg(problem: str, metric: str) -> None:
    rt.CFG.clear()
    rt.CFG.update(metric=metric, problem=problem, kind="proba" if problem == "binary" else "value",
                  metric_params={}, seed=0, lower_is_better=metric == "rmse", classes=[0, 1], n_classes=2)  # fmt: skip


def _auc(y, p):
    from sklearn.metrics import roc_auc_score

    return roc_auc_score(y, p)


def test_l1_finds_the_few_informative_columns_of_a_wide_binary_table():
    X, signal, rng = _wide(500)
    y = (signal + rng.normal(size=len(signal)) > 0).astype(int)
    _cfg("binary", "roc_auc")
    tr, te = slice(0, 250), slice(250, 500)
    _, l2 = rt.fit_linear(X[tr], y[tr], X[te], y[te], X[te], {"C": 1.0, "tune": True}, rt.CFG)
    _, l1 = rt.fit_linear(X[tr], y[tr], X[te], y[te], X[te], {"C": 1.0, "penalty": "l1"}, rt.CFG)
    assert _auc(y[te], l1) > _auc(y[te], l2) + 0.05
    assert _auc(y[te], l1) > 0.85


def test_lasso_beats_ridge_on_a_wide_regression_table():
    X, signal, rng = _wide(400)
    y = signal + rng.normal(scale=0.5, size=len(signal))
    _cfg("regression", "rmse")
    tr, te = slice(0, 200), slice(200, 400)
    _, ridge = rt.fit_linear(X[tr], y[tr], X[te], y[te], X[te], {"alpha": 3.0, "tune": True}, rt.CFG)
    _, lasso = rt.fit_linear(X[tr], y[tr], X[te], y[te], X[te], {"alpha": 3.0, "penalty": "l1"}, rt.CFG)
    rmse = lambda p: float(np.sqrt(np.mean((y[te] - p) ** 2)))  # noqa: E731
    assert rmse(lasso) < 0.7 * rmse(ridge)


def test_the_strength_is_chosen_without_the_validation_rows():
    """The out-of-fold score stays honest: the fold's validation targets do not move the test predictions."""
    X, signal, rng = _wide(300)
    y = (signal > 0).astype(int)
    _cfg("binary", "roc_auc")
    outs = [
        rt.fit_linear(X[:200], y[:200], X[200:], y_va, X[200:], {"penalty": "l1"}, rt.CFG)[1]
        for y_va in (y[200:], 1 - y[200:])
    ]
    np.testing.assert_array_equal(outs[0], outs[1])


@pytest.mark.parametrize("shape,wide", [((120, 60), True), ((2000, 60), False), ((60, 30), False)])
def test_the_card_is_offered_only_on_tables_with_many_columns_per_row(tmp_path, shape, wide):
    n, p = shape
    rng = np.random.default_rng(0)
    df = pd.DataFrame(rng.normal(size=(n, p)), columns=[f"c{i}" for i in range(p)])
    df["y"] = np.where(df["c0"] > 0, "a", "b")
    task = Task.load(prepare_task(df, tmp_path / "t", "y", "roc_auc", name="t"))
    roles = RecipeRoles(load_config({}, environ={}).settings)
    prof = roles.profile(Context(task=task, action="improve", analysis=""))
    assert ("wide" in prof.flags) is wide
    card = roles.recipes["rcp-linear-l1"]
    assert _applies(card, prof, {"linear"}, prof.flags) is wide
    assert not _applies(card, prof, {"gbdt"}, prof.flags)  # a pipeline without a linear model


@pytest.mark.parametrize("p,joins", [(60, True), (10, False)])
def test_drafts_with_a_linear_model_start_sparse_on_a_wide_table(tmp_path, p, joins):
    """On a table with many columns per row the search may never improve the linear lineage (at 60 s on a
    2,000-column table it only drafted and ensembled), so drafts that train a linear model carry the L1
    option from the start; the LightGBM draft, which has none, does not."""
    rng = np.random.default_rng(0)
    df = pd.DataFrame(rng.normal(size=(120, p)), columns=[f"c{i}" for i in range(p)])
    df["y"] = np.where(df["c0"] > 0, "a", "b")
    task = Task.load(prepare_task(df, tmp_path / "t", "y", "roc_auc", name="t"))
    roles = RecipeRoles(load_config({}, environ={}).settings)
    seen = {}
    memory: list[str] = []
    for _ in range(3):
        plan = roles.plan(Context(task=task, action="draft", analysis="", memory=list(memory)))
        state = plan.meta["state"]
        seen[state["draft"]] = "rcp-linear-l1" in state["tricks"]
        memory.append(f"[draft {state['draft']}]")
    assert set(seen) == {"rcp-lgbm-kfold", "rcp-portfolio", "rcp-linear-baseline"}
    assert seen == {"rcp-lgbm-kfold": False, "rcp-portfolio": joins, "rcp-linear-baseline": joins}
