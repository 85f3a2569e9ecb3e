"""The network draft's model (`fit_realmlp`, RealMLP from pytabkit): it learns what a linear model on the same
matrix cannot, predicts a target on its own scale, and under a fold's deadline shortens its schedule to fit
or gives the fold up at once when not even the shortest worthwhile schedule fits."""

from __future__ import annotations

import time

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from automind.recipes import runtime as rt

pytest.importorskip("pytabkit")


@pytest.fixture(autouse=True)
def _fresh_pace(monkeypatch):
    """Each test measures its own pace (the runtime keeps it for the script's later folds)."""
    monkeypatch.setattr(rt, "_REALMLP_PACE", {})


def _cfg(problem: str, deadline: float | None = None, n_classes: int = 2) -> dict:
    return {"problem": problem, "seed": 0, "threads": 2, "n_classes": n_classes, "fold_deadline": deadline}


def _interaction(n: int, seed: int = 0):
    """Two features whose product decides the class: no linear model on the raw columns can rank it."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 6))
    return X, (X[:, 0] * X[:, 1] > 0).astype(int)


def test_the_network_learns_an_interaction_the_linear_model_cannot(monkeypatch):
    monkeypatch.setattr(rt, "CFG", _cfg("binary"))
    X, y = _interaction(1200)
    args = (X[:800], y[:800], X[800:1000], y[800:1000], X[1000:])
    p_va, net = rt.fit_realmlp(*args, {"n_epochs": 64}, _cfg("binary"))
    _, lin = rt.fit_linear(*args, {}, _cfg("binary"))
    assert p_va.shape == (200,) and net.shape == (200,)  # P(positive), as every binary member returns
    assert roc_auc_score(y[1000:], net) > 0.9
    assert roc_auc_score(y[1000:], lin) < 0.65


def test_classes_come_back_as_one_column_each(monkeypatch):
    monkeypatch.setattr(rt, "CFG", _cfg("multiclass", n_classes=3))
    X, _ = _interaction(600, seed=4)
    y = np.digitize(X[:, 0] * X[:, 1], [-0.3, 0.3])
    p_va, p_te = rt.fit_realmlp(X[:400], y[:400], X[400:500], y[400:500], X[500:], {"n_epochs": 32},
                                _cfg("multiclass", n_classes=3))  # fmt: skip
    assert p_va.shape == (100, 3) and p_te.shape == (100, 3)
    assert np.allclose(p_te.sum(axis=1), 1.0, atol=1e-4)


def test_a_target_in_thousands_is_predicted_on_its_own_scale(monkeypatch):
    monkeypatch.setattr(rt, "CFG", _cfg("regression"))
    rng = np.random.default_rng(1)
    X = rng.normal(size=(1200, 5))
    y = 5000 + 1500 * np.tanh(X[:, 0]) + 800 * X[:, 1] ** 2
    p_va, p_te = rt.fit_realmlp(X[:800], y[:800], X[800:1000], y[800:1000], X[1000:], {"n_epochs": 64},
                                _cfg("regression"))  # fmt: skip
    rmse = float(np.sqrt(np.mean((p_te - y[1000:]) ** 2)))
    assert rmse < 0.3 * float(np.std(y[1000:])), rmse  # the target's level and shape, not its mean
    assert abs(float(np.mean(p_va)) - float(np.mean(y[800:1000]))) < 300


def _counting_classifier(monkeypatch) -> list[int]:
    """The epochs of every RealMLP classifier the member builds, in order."""
    import pytabkit

    epochs: list[int] = []
    original = pytabkit.RealMLP_TD_Classifier

    def counting(**kw):
        epochs.append(kw["n_epochs"])
        return original(**kw)

    monkeypatch.setattr(pytabkit, "RealMLP_TD_Classifier", counting)
    return epochs


def test_under_a_deadline_the_schedule_is_the_epochs_the_measured_pace_fits(monkeypatch):
    """Given its pace (seconds per epoch, fixed seconds), the member trains as many epochs as fit in 95 % of
    the time to the deadline, and never more than its full schedule."""
    monkeypatch.setattr(rt, "CFG", _cfg("binary"))
    X, y = _interaction(500, seed=2)
    args = (X[:300], y[:300], X[300:400], y[300:400], X[400:])
    epochs = _counting_classifier(monkeypatch)
    monkeypatch.setattr(rt, "_realmlp_pace", lambda fit, n: (0.1, 1.0, 0.0))
    rt.fit_realmlp(*args, {}, _cfg("binary", time.time() + 10.0))
    assert 80 <= epochs[0] <= int((0.95 * 10.0 - 1.0) / 0.1), epochs
    monkeypatch.setattr(rt, "_realmlp_pace", lambda fit, n: (0.001, 0.0, 0.0))
    rt.fit_realmlp(*args, {}, _cfg("binary", time.time() + 10.0))
    assert epochs[1] == rt.REALMLP_EPOCHS


def test_the_pace_is_measured_once_and_the_deadline_kept(monkeypatch):
    """Three short fits (1 epoch for the one-time set-up, then 2 and 6 timed) measure the pace on the first
    fold; a later fold reuses it. Whether the loaded machine leaves room for a schedule or not, the fold ends
    by its deadline moved by what the imports and measuring took (the later folds pay for that), or gives up
    with TimeoutError."""
    monkeypatch.setattr(rt, "CFG", _cfg("binary"))
    X, y = _interaction(3000, seed=2)
    args = (X[:2000], y[:2000], X[2000:2500], y[2000:2500], X[2500:])
    epochs = _counting_classifier(monkeypatch)
    measured: list[float] = []
    real_pace = rt._realmlp_pace

    def timed(fit, n):
        out = real_pace(fit, n)
        measured.append(time.time())
        return out

    monkeypatch.setattr(rt, "_realmlp_pace", timed)
    start = time.time()
    deadline = start + 12.0
    try:
        _, p_te = rt.fit_realmlp(*args, {}, _cfg("binary", deadline))
        assert np.isfinite(p_te).all() and len(p_te) == 500
    except TimeoutError:
        pass
    over = time.time() - (deadline + measured[0] - start)
    assert over < 1.5, f"ended {over:.1f}s after the fold's deadline (moved by the measuring)"
    assert epochs[:3] == [1, 2, 6], epochs
    assert set(rt._REALMLP_PACE) == {"epoch_row", "fixed"}
    done = len(epochs)
    rt.fit_realmlp(*args, {"n_epochs": 8}, _cfg("binary", time.time() + 600))
    assert epochs[done:] == [8]  # the pace was kept: no second measurement


def test_a_fold_without_room_for_the_shortest_schedule_is_given_up(monkeypatch):
    monkeypatch.setattr(rt, "CFG", _cfg("binary"))
    X, y = _interaction(3000, seed=3)
    args = (X[:2000], y[:2000], X[2000:2500], y[2000:2500], X[2500:])
    rt.fit_realmlp(*args, {"n_epochs": 8}, _cfg("binary"))  # warm the imports
    t0 = time.time()
    with pytest.raises(TimeoutError, match=f"{rt.REALMLP_MIN_EPOCHS} epochs need about"):
        rt.fit_realmlp(*args, {}, _cfg("binary", time.time() + 0.5))
    assert time.time() - t0 < 5.0  # two short fits to measure, then no full schedule
