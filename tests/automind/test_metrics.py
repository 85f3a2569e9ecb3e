"""Each registered metric against scikit-learn/scipy or a hand-computed case, plus name resolution."""

from __future__ import annotations

import math
import sys
import types

import numpy as np
import pytest
from scipy import stats
from sklearn import metrics as skm

from automind.metrics import UnknownMetricError, get_metric, metric_names

rng = np.random.default_rng(0)
Y_BIN = rng.integers(0, 2, 200)
P_BIN = np.clip(Y_BIN * 0.3 + rng.random(200) * 0.7, 0.01, 0.99)
Y_MC = rng.integers(0, 3, 200)
P_MC = rng.dirichlet([1, 1, 1], 200)
P_MC[np.arange(200), Y_MC] += 0.5
P_MC /= P_MC.sum(1, keepdims=True)
L_MC = rng.integers(0, 3, 200)
Y_REG = rng.random(200) * 10
P_REG = Y_REG + rng.normal(0, 1, 200)


@pytest.mark.parametrize(
    ("name", "y", "p", "expected"),
    [
        ("accuracy", Y_MC, L_MC, skm.accuracy_score(Y_MC, L_MC)),
        ("balanced_accuracy", Y_MC, L_MC, skm.balanced_accuracy_score(Y_MC, L_MC)),
        ("roc_auc", Y_BIN, P_BIN, skm.roc_auc_score(Y_BIN, P_BIN)),
        ("roc_auc", Y_MC, P_MC, skm.roc_auc_score(Y_MC, P_MC, multi_class="ovr")),
        ("log_loss", Y_BIN, P_BIN, skm.log_loss(Y_BIN, P_BIN)),
        ("log_loss", Y_MC, P_MC, skm.log_loss(Y_MC, P_MC)),
        ("f1", Y_BIN, (P_BIN > 0.5).astype(int), skm.f1_score(Y_BIN, P_BIN > 0.5)),
        ("f1_macro", Y_MC, L_MC, skm.f1_score(Y_MC, L_MC, average="macro")),
        ("f1_micro", Y_MC, L_MC, skm.f1_score(Y_MC, L_MC, average="micro")),
        ("fbeta", Y_BIN, (P_BIN > 0.5).astype(int), skm.fbeta_score(Y_BIN, P_BIN > 0.5, beta=0.5)),
        ("mcc", Y_MC, L_MC, skm.matthews_corrcoef(Y_MC, L_MC)),
        ("cohen_kappa", Y_MC, L_MC, skm.cohen_kappa_score(Y_MC, L_MC)),
        ("qwk", Y_MC, L_MC, skm.cohen_kappa_score(Y_MC, L_MC, weights="quadratic")),
        ("rmse", Y_REG, P_REG, math.sqrt(skm.mean_squared_error(Y_REG, P_REG))),
        ("mse", Y_REG, P_REG, skm.mean_squared_error(Y_REG, P_REG)),
        ("mae", Y_REG, P_REG, skm.mean_absolute_error(Y_REG, P_REG)),
        ("rmsle", Y_REG, np.abs(P_REG), math.sqrt(skm.mean_squared_log_error(Y_REG, np.abs(P_REG)))),
        ("r2", Y_REG, P_REG, skm.r2_score(Y_REG, P_REG)),
        ("spearman", Y_REG, P_REG, stats.spearmanr(Y_REG, P_REG).statistic),
        ("pearson", Y_REG, P_REG, stats.pearsonr(Y_REG, P_REG).statistic),
        ("normalized_gini", Y_BIN, P_BIN, 2 * skm.roc_auc_score(Y_BIN, P_BIN) - 1),
        ("average precision", Y_BIN, P_BIN, skm.average_precision_score(Y_BIN, P_BIN)),
        (
            "balanced_log_loss",
            Y_MC,
            P_MC,
            skm.log_loss(Y_MC, P_MC, sample_weight=1 / np.bincount(Y_MC)[Y_MC]),
        ),
    ],
)
def test_matches_reference(name, y, p, expected):
    assert get_metric(name)(y, p) == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_column_wise_metrics():
    yt = np.column_stack([Y_BIN, 1 - Y_BIN, rng.integers(0, 2, 200)])
    yp = np.column_stack([P_BIN, 1 - P_BIN, rng.random(200)])
    expected = np.mean([skm.roc_auc_score(yt[:, j], yp[:, j]) for j in range(3)])
    assert get_metric("mean-column-wise-roc-auc")(yt, yp) == pytest.approx(expected)
    assert get_metric("roc_auc")(yt, yp) == pytest.approx(expected)  # 2-d truth means column-wise
    rt = np.column_stack([Y_REG, Y_REG * 2])
    rp = np.column_stack([P_REG, np.abs(P_REG) * 2])
    assert get_metric("mcrmse")(rt, rp) == pytest.approx(
        np.mean([math.sqrt(skm.mean_squared_error(rt[:, j], rp[:, j])) for j in range(2)])
    )
    assert get_metric("mean_columnwise_rmsle")(rt, np.abs(rp)) == pytest.approx(
        np.mean([math.sqrt(skm.mean_squared_log_error(rt[:, j], np.abs(rp[:, j]))) for j in range(2)])
    )


def test_hand_computed_cases():
    # SMAPE: |100-110| / 105 = 0.0952..; |0-0| counts 0; mean * 100
    assert get_metric("smape")([100, 0], [110, 0]) == pytest.approx(100 * (10 / 105) / 2)
    # MAPE in percent, a zero target left out: (10/100 + 10/50) / 2
    assert get_metric("Mean Absolute Percentage Error")([100, 0, 50], [110, 5, 40]) == pytest.approx(15.0)
    # multi-label log loss: each column's binary log loss, then their mean (not a distribution per row)
    yt, yp = np.array([[1, 1], [0, 0]]), np.array([[0.8, 0.6], [0.1, 0.3]])
    cols = [-(np.log(0.8) + np.log(0.9)) / 2, -(np.log(0.6) + np.log(0.7)) / 2]
    assert get_metric("MeanColumnwiseLogLoss")(yt, yp) == pytest.approx(np.mean(cols))
    assert get_metric("log_loss")(yt, yp) == pytest.approx(np.mean(cols))
    # MAP@3: row1 hit at rank 2 -> 1/2; row2 hit at rank 1 -> 1; row3 no hit -> 0
    assert get_metric("map@3")(["a", "b", "c"], ["x a y", "b", "z y x"]) == pytest.approx((0.5 + 1 + 0) / 3)
    # duplicate predictions count once; k limits the list
    assert get_metric("MAP@5")(["a"], ["b a a c d e"]) == pytest.approx(0.5)
    assert get_metric("map@1")(["a"], ["b a"]) == 0.0
    # NDCG@5 (Airbnb): a hit at rank 2 gains 1/log2(3), one at rank 1 gains 1; k in the name is honoured
    assert get_metric("ndcg@5")(["a", "b", "c"], ["x a y", "b", "z y x"]) == pytest.approx(
        (1 / np.log2(3) + 1) / 3
    )
    assert get_metric("NDCG@1")(["a"], ["b a"]) == 0.0 and get_metric("ndcg@3").params == {"k": 3}
    # two truths: the best possible gain is 1 + 1/log2(3); the second is missed
    assert get_metric("ndcg")(["a b"], ["a c d"]) == pytest.approx(1 / (1 + 1 / np.log2(3)))
    # string labels: positive class is the last label in natural order
    assert get_metric("auc")(["no", "yes", "no", "yes"], [0.1, 0.9, 0.2, 0.8]) == 1.0
    assert get_metric("f1")(["no", "yes", "yes"], ["yes", "yes", "no"]) == pytest.approx(0.5)
    # qwk rounds float ratings; binary log loss by hand
    assert get_metric("qwk")([1, 2, 3], [1.2, 2.4, 2.6]) == 1.0
    assert get_metric("log_loss")([1, 0], [0.8, 0.3]) == pytest.approx(-(math.log(0.8) + math.log(0.7)) / 2)
    # balanced log loss (ICR): each class's mean -log p, then their mean; one positive among three rows
    assert get_metric("balanced log loss")([0, 0, 1], [0.2, 0.4, 0.7]) == pytest.approx(
        (-(math.log(0.8) + math.log(0.6)) / 2 - math.log(0.7)) / 2
    )
    # edit distances: kitten->sitting 3, abc->abc 0; word jaccard {a b}&{b c} = 1/3, empty pair = 1
    assert get_metric("levenshtein-distance")(["kitten", "abc"], ["sitting", "abc"]) == 1.5
    assert get_metric("word-level-jaccard-score")(["a b", ""], ["B c", ""]) == pytest.approx((1 / 3 + 1) / 2)


def test_directions_and_kinds():
    assert get_metric("rmse").lower_is_better and get_metric("log loss").lower_is_better
    assert not get_metric("accuracy").lower_is_better and not get_metric("Area Under ROC").lower_is_better
    assert get_metric("auc").kind == "proba" and get_metric("accuracy").kind == "label"
    assert get_metric("rmse").kind == "value" and get_metric("map@5").kind == "ranking"
    assert get_metric("rmse").better(0.1, 0.2) and get_metric("auc").better(0.9, 0.8)
    # task spec direction wins over the registry
    assert get_metric("accuracy", lower_is_better=True).lower_is_better


@pytest.mark.parametrize(
    "alias",
    ["roc_auc", "auc", "AUC", "Area Under ROC", "auc-roc", "accuracy", "rmse", "root-mean-squared-error", "log_loss",
     "multi-class-log-loss", "qwk", "quadratic-weighted-kappa", "micro-f1-score", "macro-f1-score", "MAP@5",
     "map-at-5", "matthews-correlation-coefficient", "mean-column-wise-roc-auc", "f0.5-score", "kendall-tau",
     "top-1-classification-error", "multi-class-classification-accuracy", "auroc-multi-label"],
)  # fmt: skip
def test_aliases_resolve(alias):
    assert get_metric(alias).name in metric_names() or get_metric(alias).name.startswith("map@")


def test_unknown_metric_lists_known():
    with pytest.raises(UnknownMetricError) as e:
        get_metric("banana-score")
    msg = str(e.value)
    assert "banana-score" in msg and "rmse" in msg and "roc_auc" in msg and "accuracy" in msg


def test_custom_metric(monkeypatch):
    mod = types.ModuleType("my_metrics_mod")
    mod.neg_abs = lambda y, p: float(np.abs(np.asarray(y) - np.asarray(p)).sum())
    monkeypatch.setitem(sys.modules, "my_metrics_mod", mod)
    m = get_metric("my_metrics_mod:neg_abs", lower_is_better=True)
    assert m.lower_is_better and m([1, 2], [1, 4]) == 2.0
    with pytest.raises(UnknownMetricError, match="lower_is_better"):
        get_metric("my_metrics_mod:neg_abs")
    with pytest.raises(UnknownMetricError, match="cannot import"):
        get_metric("my_metrics_mod:missing", lower_is_better=False)


def test_rmsle_rejects_values_below_minus_one():
    with pytest.raises(ValueError, match="> -1"):
        get_metric("rmsle")([1.0, 2.0], [-2.0, 1.0])
