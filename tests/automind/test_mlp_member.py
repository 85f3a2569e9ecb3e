"""The portfolio's neural network member (`fit_mlp`): it learns what a linear model on the same matrix
cannot, works on targets of any scale, honours the fold's deadline and keeps its best epoch."""

from __future__ import annotations

import time

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from automind.recipes import runtime as rt


def _cfg(problem: str, deadline: float | None = None, n_classes: int = 2) -> dict:
    return {"problem": problem, "seed": 0, "threads": 2, "n_classes": n_classes, "fold_deadline": deadline}


def _interaction(n: int, seed: int = 0):
    """Two features whose product decides the class: no linear model on the raw columns can rank it."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 6))
    return X, (X[:, 0] * X[:, 1] > 0).astype(int)


def test_the_network_learns_an_interaction_the_linear_model_cannot(monkeypatch):
    monkeypatch.setattr(rt, "CFG", _cfg("binary"))
    X, y = _interaction(3000)
    args = (X[:2000], y[:2000], X[2000:2500], y[2000:2500], X[2500:])
    _, net = rt.fit_mlp(*args, {}, _cfg("binary"))
    _, lin = rt.fit_linear(*args, {}, _cfg("binary"))
    assert roc_auc_score(y[2500:], net) > 0.9
    assert roc_auc_score(y[2500:], lin) < 0.65


def test_a_target_in_thousands_is_learned_on_its_own_scale(monkeypatch):
    monkeypatch.setattr(rt, "CFG", _cfg("regression"))
    rng = np.random.default_rng(1)
    X = rng.normal(size=(3000, 5))
    y = 5000 + 1500 * np.tanh(X[:, 0]) + 800 * X[:, 1] ** 2
    p_va, p_te = rt.fit_mlp(X[:2000], y[:2000], X[2000:2500], y[2000:2500], X[2500:], {}, _cfg("regression"))
    rmse = float(np.sqrt(np.mean((p_te - y[2500:]) ** 2)))
    assert rmse < 0.3 * float(np.std(y[2500:])), rmse  # near the target's level and shape, not its mean
    assert abs(float(np.mean(p_va)) - float(np.mean(y[2000:2500]))) < 300


def test_the_network_stops_within_the_folds_deadline(monkeypatch):
    monkeypatch.setattr(rt, "CFG", _cfg("binary"))
    X, y = _interaction(120_000, seed=2)
    deadline = time.time() + 2.0
    _, p_te = rt.fit_mlp(
        X[:100_000], y[:100_000], X[100_000:], y[100_000:], X[100_000:],
        {"patience": 1000, "max_epochs": 1000}, _cfg("binary", deadline),
    )  # fmt: skip
    over = time.time() - deadline
    assert over < 1.0, f"ended {over:.1f}s after the fold's deadline"
    assert np.isfinite(p_te).all() and len(p_te) == 20_000


def test_the_weights_of_the_best_epoch_are_kept(monkeypatch):
    """With a patience longer than the run, training goes on past the best epoch; the predictions returned
    are those of the best epoch, so their validation loss is the lowest any epoch reached."""
    monkeypatch.setattr(rt, "CFG", _cfg("binary"))
    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 30))
    y = (X[:, 0] + rng.normal(scale=2.0, size=400) > 0).astype(int)  # few, noisy rows: it overfits
    params = {"hidden": (256,), "alpha": 0.0, "learning_rate": 0.01, "patience": 60, "max_epochs": 60}
    p_va, _ = rt.fit_mlp(X[:300], y[:300], X[300:], y[300:], X[300:], params, _cfg("binary"))

    def log_loss(p):
        p = np.clip(p, 1e-7, 1 - 1e-7)
        return float(-np.mean(y[300:] * np.log(p) + (1 - y[300:]) * np.log(1 - p)))

    from sklearn.neural_network import MLPClassifier

    # the same network, seed and batches, scored after every epoch
    net = MLPClassifier(
        hidden_layer_sizes=(256,), alpha=0.0, learning_rate_init=0.01, batch_size=256, random_state=0
    )
    losses = []
    for _ in range(60):
        net.partial_fit(X[:300], y[:300], classes=np.arange(2))
        losses.append(log_loss(net.predict_proba(X[300:])[:, 1]))
    assert losses[-1] > min(losses) + 0.05  # the setting really overfits by the end
    assert log_loss(p_va) == pytest.approx(min(losses), abs=1e-6)
