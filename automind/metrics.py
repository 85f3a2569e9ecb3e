"""Metric registry: every metric knows its direction and what kind of prediction it scores.

`kind` tells the grader how to build y_pred from submission columns:
- "label": predicted class labels (one column);
- "proba": probabilities (one column for binary / per target column, or one column per class);
- "value": numbers (one column, or several column-wise targets);
- "ranking": space-separated ranked predictions per row (MAP@K, NDCG@K).

Names are matched loosely ("ROC AUC", "roc-auc", "auc" are one metric) so task.yaml files,
MLE-bench grader names and Kaggle wording all resolve. Custom metrics are `module:function`
with an explicit direction. sklearn/scipy are imported inside the functions (CLI start-up stays fast).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

Kind = Literal["label", "proba", "value", "ranking"]
KINDS: tuple[str, ...] = ("label", "proba", "value", "ranking")
LOG_LOSSES: tuple[str, ...] = ("log_loss", "balanced_log_loss")  # probabilities only, scored per true class


class UnknownMetricError(ValueError):
    """The metric name matches nothing in the registry; the message lists what is known."""


@dataclass(frozen=True)
class Metric:
    name: str
    fn: Callable[..., float]
    lower_is_better: bool
    kind: Kind
    params: dict[str, Any] = field(default_factory=dict)  # defaults baked in by the name (e.g. k of MAP@5)

    def __call__(self, y_true: Any, y_pred: Any, **params: Any) -> float:
        return float(self.fn(y_true, y_pred, **{**self.params, **params}))

    def better(self, a: float, b: float) -> bool:
        """True when score a is strictly better than b in this metric's direction."""
        return a < b if self.lower_is_better else a > b


# ---------------------------------------------------------------- helpers


def _arr(x: Any) -> np.ndarray:
    return np.asarray(x)


def sorted_labels(values: Any) -> list[Any]:
    """Class labels in natural order (numbers numerically, otherwise as text)."""
    labels = list(set(np.asarray(values).tolist()))
    try:
        return sorted(labels)
    except TypeError:
        return sorted(labels, key=str)


def positive_label(y: Any, pos_label: Any = None) -> Any:
    """The class scored as positive in binary metrics: 1 for 0/1 labels, else the last label in natural order."""
    if pos_label is not None:
        return pos_label
    labels = sorted_labels(y)
    if set(labels) <= {0, 1}:  # True is the label itself, not 1: bool labels are written back as read
        return next((v for v in labels if v == 1), 1)
    return labels[-1]


def _binary(y_true: np.ndarray, pos_label: Any = None) -> np.ndarray:
    return (y_true == positive_label(y_true, pos_label)).astype(int)


# ---------------------------------------------------------------- classification


def accuracy(y_true, y_pred) -> float:
    return float(np.mean(_arr(y_true) == _arr(y_pred)))


def classification_error(y_true, y_pred) -> float:
    return 1.0 - accuracy(y_true, y_pred)


def balanced_accuracy(y_true, y_pred) -> float:
    from sklearn.metrics import balanced_accuracy_score

    return balanced_accuracy_score(_arr(y_true), _arr(y_pred))


def roc_auc(y_true, y_pred, pos_label: Any = None, multi_class: str = "ovr", average: str = "macro") -> float:
    """Binary (1-d scores), multiclass one-vs-rest (labels + n x k scores) or column-wise (2-d truth)."""
    from sklearn.metrics import roc_auc_score

    yt, yp = _arr(y_true), np.asarray(y_pred, dtype=float)
    if yt.ndim == 2:
        return mean_columnwise_roc_auc(yt, yp)
    if yp.ndim == 2 and yp.shape[1] > 2:
        labels = np.arange(yp.shape[1]) if np.issubdtype(yt.dtype, np.integer) else None
        return roc_auc_score(yt, yp, multi_class=multi_class, average=average, labels=labels)
    if yp.ndim == 2:
        yp = yp[:, 1]
    return roc_auc_score(_binary(yt, pos_label), yp)


def mean_columnwise_roc_auc(y_true, y_pred) -> float:
    from sklearn.metrics import roc_auc_score

    yt, yp = np.asarray(y_true), np.asarray(y_pred, dtype=float)
    yt, yp = yt.reshape(len(yt), -1), yp.reshape(len(yp), -1)
    return float(np.mean([roc_auc_score(yt[:, j], yp[:, j]) for j in range(yt.shape[1])]))


def normalized_gini(y_true, y_pred, pos_label: Any = None) -> float:
    return 2.0 * roc_auc(y_true, y_pred, pos_label=pos_label) - 1.0


def log_loss(y_true, y_pred, eps: float = 1e-15, pos_label: Any = None) -> float:
    """Binary (1-d probabilities of the positive class) or multiclass (integer labels + n x k).

    Probabilities are clipped and each row rescaled to sum to 1, as Kaggle does.
    """
    yt, yp = _arr(y_true), np.asarray(y_pred, dtype=float)
    if yt.ndim == 2:  # several yes/no targets: a probability per column, not one distribution per row
        return mean_columnwise_log_loss(yt, yp)
    if yp.ndim == 1 or yp.shape[1] == 1:
        p = np.clip(yp.reshape(-1), eps, 1 - eps)
        y = _binary(yt, pos_label)
        return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    p = np.clip(yp, eps, 1 - eps)
    p = p / p.sum(axis=1, keepdims=True)
    idx = yt.astype(int)
    return float(-np.mean(np.log(p[np.arange(len(idx)), idx])))


def balanced_log_loss(y_true, y_pred, eps: float = 1e-15, pos_label: Any = None) -> float:
    """Log loss with every class weighed alike: the mean over the classes present of each class's mean
    -log p(true class) (ICR's metric; a rare class counts as much as a common one)."""
    yt, yp = _arr(y_true), np.asarray(y_pred, dtype=float)
    if yp.ndim == 1 or yp.shape[1] == 1:
        p1 = np.clip(yp.reshape(-1), eps, 1 - eps)
        yp, idx = np.stack([1 - p1, p1], axis=1), _binary(yt, pos_label).astype(int)
    else:
        idx = yt.astype(int)
    p = np.clip(yp, eps, 1 - eps)
    p = p / p.sum(axis=1, keepdims=True)
    loss = -np.log(p[np.arange(len(idx)), idx])
    return float(np.mean([loss[idx == c].mean() for c in np.unique(idx)]))


def average_precision(y_true, y_pred, pos_label: Any = None) -> float:
    """Area under the precision-recall curve as scikit-learn sums it (binary; the column mean for several
    yes/no targets)."""
    from sklearn.metrics import average_precision_score

    yt, yp = _arr(y_true), np.asarray(y_pred, dtype=float)
    if yt.ndim == 2:
        return float(np.mean([average_precision_score(yt[:, j], yp[:, j]) for j in range(yt.shape[1])]))
    if yp.ndim == 2:
        yp = yp[:, 1]
    return float(average_precision_score(_binary(yt, pos_label), yp))


def f1(y_true, y_pred, average: str | None = None, pos_label: Any = None, beta: float = 1.0) -> float:
    """F-beta; `average` defaults to binary for two classes and macro otherwise."""
    from sklearn.metrics import fbeta_score

    yt, yp = _arr(y_true), _arr(y_pred)
    labels = set(yt.tolist()) | set(yp.tolist())
    if average is None:
        average = "binary" if len(labels) <= 2 else "macro"
    kw: dict[str, Any] = {"average": average, "beta": beta, "zero_division": 0}
    if average == "binary":
        kw["pos_label"] = positive_label(yt, pos_label)
    return fbeta_score(yt, yp, **kw)


def f1_macro(y_true, y_pred) -> float:
    return f1(y_true, y_pred, average="macro")


def f1_micro(y_true, y_pred) -> float:
    return f1(y_true, y_pred, average="micro")


def f1_weighted(y_true, y_pred) -> float:
    return f1(y_true, y_pred, average="weighted")


def fbeta(y_true, y_pred, beta: float = 0.5, average: str | None = None, pos_label: Any = None) -> float:
    return f1(y_true, y_pred, average=average, pos_label=pos_label, beta=beta)


def mcc(y_true, y_pred) -> float:
    from sklearn.metrics import matthews_corrcoef

    return matthews_corrcoef(_arr(y_true), _arr(y_pred))


def cohen_kappa(y_true, y_pred, weights: str | None = None) -> float:
    from sklearn.metrics import cohen_kappa_score

    return cohen_kappa_score(_arr(y_true), _arr(y_pred), weights=weights)


def quadratic_weighted_kappa(y_true, y_pred) -> float:
    """Ratings must be integers; float predictions are rounded (a common, explicit choice)."""
    yp = np.asarray(y_pred)
    if np.issubdtype(yp.dtype, np.floating):
        yp = np.rint(yp).astype(int)
    return cohen_kappa(np.asarray(y_true).astype(int), yp, weights="quadratic")


# ---------------------------------------------------------------- regression


def _num(y_true, y_pred) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(y_true, dtype=float), np.asarray(y_pred, dtype=float)


def mse(y_true, y_pred) -> float:
    yt, yp = _num(y_true, y_pred)
    return float(np.mean((yt - yp) ** 2))


def rmse(y_true, y_pred) -> float:
    return float(np.sqrt(mse(y_true, y_pred)))


def mae(y_true, y_pred) -> float:
    yt, yp = _num(y_true, y_pred)
    return float(np.mean(np.abs(yt - yp)))


def median_ae(y_true, y_pred) -> float:
    yt, yp = _num(y_true, y_pred)
    return float(np.median(np.abs(yt - yp)))


def _log1p_checked(x: np.ndarray, what: str) -> np.ndarray:
    if np.any(x <= -1):
        raise ValueError(f"RMSLE/MSLE need values > -1; {what} has {int(np.sum(x <= -1))} value(s) <= -1.")
    return np.log1p(x)


def msle(y_true, y_pred) -> float:
    yt, yp = _num(y_true, y_pred)
    return mse(_log1p_checked(yt, "the answers"), _log1p_checked(yp, "the submission"))


def rmsle(y_true, y_pred) -> float:
    return float(np.sqrt(msle(y_true, y_pred)))


def rmspe(y_true, y_pred) -> float:
    yt, yp = _num(y_true, y_pred)
    keep = yt != 0  # Kaggle's convention: rows with a zero target are ignored
    return float(np.sqrt(np.mean(((yt[keep] - yp[keep]) / yt[keep]) ** 2)))


def mape(y_true, y_pred) -> float:
    """Mean absolute percentage error in percent; rows whose target is 0 are left out (their relative
    error has no value), as RMSPE leaves them out."""
    yt, yp = _num(y_true, y_pred)
    keep = yt != 0
    return float(100.0 * np.mean(np.abs((yt[keep] - yp[keep]) / yt[keep])))


def r2(y_true, y_pred) -> float:
    from sklearn.metrics import r2_score

    yt, yp = _num(y_true, y_pred)
    return r2_score(yt, yp)


def smape(y_true, y_pred) -> float:
    """Symmetric MAPE in percent (0..200); a row where both are 0 counts as 0."""
    yt, yp = _num(y_true, y_pred)
    denom = (np.abs(yt) + np.abs(yp)) / 2.0
    ratio = np.divide(np.abs(yt - yp), denom, out=np.zeros_like(denom), where=denom != 0)
    return float(100.0 * np.mean(ratio))


def _columnwise(fn: Callable[[Any, Any], float]) -> Callable[[Any, Any], float]:
    def wrapped(y_true, y_pred) -> float:
        yt, yp = _num(y_true, y_pred)
        yt, yp = yt.reshape(len(yt), -1), yp.reshape(len(yp), -1)
        return float(np.mean([fn(yt[:, j], yp[:, j]) for j in range(yt.shape[1])]))

    wrapped.__name__ = f"mean_columnwise_{fn.__name__}"
    wrapped.__doc__ = f"Mean over target columns of {fn.__name__}."
    return wrapped


mean_columnwise_rmse = _columnwise(rmse)
mean_columnwise_rmsle = _columnwise(rmsle)
mean_columnwise_mae = _columnwise(mae)
mean_columnwise_log_loss = _columnwise(log_loss)  # multi-label: each yes/no column's binary log loss


def spearman(y_true, y_pred) -> float:
    from scipy.stats import spearmanr

    yt, yp = _num(y_true, y_pred)
    return float(spearmanr(yt, yp).statistic)


def pearson(y_true, y_pred) -> float:
    yt, yp = _num(y_true, y_pred)
    return float(np.corrcoef(yt, yp)[0, 1])


def kendall_tau(y_true, y_pred) -> float:
    from scipy.stats import kendalltau

    yt, yp = _num(y_true, y_pred)
    return float(kendalltau(yt, yp).statistic)


# ---------------------------------------------------------------- ranking


def _as_list(x: Any) -> list[str]:
    if isinstance(x, list | tuple | np.ndarray):
        return [str(v) for v in x]
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return []
    return str(x).split()


def _hit_ranks(y_true, y_pred, k: int) -> Iterator[tuple[int, list[int]]]:
    """Per row with a truth (one label or a space-separated set): how many truths it has and the ranks
    (from 0, within the first k) where the prediction names one for the first time."""
    for actual, predicted in zip(y_true, y_pred, strict=True):
        truth = set(_as_list(actual))
        if not truth:
            continue
        seen: set[str] = set()
        ranks = []
        for i, p in enumerate(_as_list(predicted)[:k]):
            if p in truth and p not in seen:
                ranks.append(i)
            seen.add(p)
        yield len(truth), ranks


def map_at_k(y_true, y_pred, k: int = 5) -> float:
    """Mean average precision at k. Each truth is one label or a space-separated set of labels;
    each prediction is a ranked list (or space-separated string); repeats count once."""
    scores = [
        sum((hits + 1) / (i + 1) for hits, i in enumerate(ranks)) / min(n, k)
        for n, ranks in _hit_ranks(y_true, y_pred, k)
    ]
    return float(np.mean(scores)) if scores else 0.0


def ndcg_at_k(y_true, y_pred, k: int = 5) -> float:
    """Normalised discounted cumulative gain at k with binary relevance (Airbnb's destinations): a right
    label at rank i (from 1) gains 1 / log2(i + 1), divided by the best gain the row's truths allow; truths
    and predictions as for map_at_k."""
    scores = [
        sum(1 / np.log2(i + 2) for i in ranks) / sum(1 / np.log2(i + 2) for i in range(min(n, k)))
        for n, ranks in _hit_ranks(y_true, y_pred, k)
    ]
    return float(np.mean(scores)) if scores else 0.0


# ---------------------------------------------------------------- text


def _levenshtein(a: str, b: str) -> int:
    if len(a) < len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def levenshtein(y_true, y_pred) -> float:
    """Mean character edit distance between predicted and true strings."""
    return float(np.mean([_levenshtein(str(t), str(p)) for t, p in zip(y_true, y_pred, strict=True)]))


def word_jaccard(y_true, y_pred) -> float:
    """Mean Jaccard similarity of lower-cased word sets (two empty strings count as 1)."""
    scores = []
    for t, p in zip(y_true, y_pred, strict=True):
        a, b = set(str(t).lower().split()), set(str(p).lower().split())
        scores.append(1.0 if not a and not b else len(a & b) / len(a | b))
    return float(np.mean(scores))


# ---------------------------------------------------------------- registry

_REGISTRY: dict[str, Metric] = {}
_ALIASES: dict[str, str] = {}


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")


def register(metric: Metric, *aliases: str) -> Metric:
    _REGISTRY[metric.name] = metric
    for a in (metric.name, *aliases):
        _ALIASES[_norm(a)] = metric.name
    return metric


def _add(name: str, fn, lower: bool, kind: Kind, *aliases: str, **params: Any) -> None:
    register(Metric(name, fn, lower, kind, dict(params)), *aliases)


_add(
    "accuracy",
    accuracy,
    False,
    "label",
    "acc",
    "multi-class-classification-accuracy",
    "classification accuracy",
    "categorizationaccuracy",
)
_add(
    "classification_error",
    classification_error,
    True,
    "label",
    "error",
    "error rate",
    "top-1-classification-error",
)
_add("balanced_accuracy", balanced_accuracy, False, "label", "balanced accuracy", "bacc")
_add("roc_auc", roc_auc, False, "proba", "auc", "roc auc", "auc-roc", "auroc", "area under roc", "area under the roc curve",
     "area under curve", "roc_auc_score", "ROC-AUC")  # fmt: skip
_add("mean_columnwise_roc_auc", mean_columnwise_roc_auc, False, "proba", "mean-column-wise-roc-auc",
     "column-wise roc auc", "auroc-multi-label", "multilabel roc auc")  # fmt: skip
_add("mean_columnwise_log_loss", mean_columnwise_log_loss, True, "proba", "mean-column-wise-log-loss",
     "mean columnwise log loss", "column-wise log loss", "multilabel log loss", "meancolumnwiselogloss")  # fmt: skip
_add("normalized_gini", normalized_gini, False, "proba", "gini", "normalized gini coefficient")
_add("log_loss", log_loss, True, "proba", "logloss", "log-loss", "binary log loss", "cross entropy", "multi-class-log-loss",
     "multiclass log loss", "multiclassloss", "multi_logloss", "mlogloss", "binary_logloss", "categorical cross entropy")  # fmt: skip
_add("balanced_log_loss", balanced_log_loss, True, "proba", "balanced log loss", "balanced logarithmic loss",
     "balanced-log-loss", "class-balanced log loss")  # fmt: skip
_add("average_precision", average_precision, False, "proba", "average precision", "average precision score",
     "pr auc", "area under the precision-recall curve", "auprc", "average_precision_score")  # fmt: skip
_add("f1", f1, False, "label", "f1 score", "fscore", "f1-score", "binary f1", "f-score", "f1_binary")
_add("f1_macro", f1_macro, False, "label", "macro f1", "macro-f1-score", "mean f1", "macro-averaged f1")
_add("f1_micro", f1_micro, False, "label", "micro f1", "micro-f1-score", "micro-averaged f1")
_add("f1_weighted", f1_weighted, False, "label", "weighted f1", "weighted-f1-score")
_add("fbeta", fbeta, False, "label", "f-beta", "f0.5", "f0.5-score", "f05", beta=0.5)
_add(
    "mcc",
    mcc,
    False,
    "label",
    "matthews correlation coefficient",
    "matthews-correlation-coefficient",
    "matthews",
)
_add("cohen_kappa", cohen_kappa, False, "label", "kappa", "cohen's kappa", "cohens kappa")
_add("quadratic_weighted_kappa", quadratic_weighted_kappa, False, "label", "qwk", "quadratic-weighted-kappa", "quadraticweightedkappa",
     "quadratic kappa", "weighted kappa")  # fmt: skip
_add(
    "rmse",
    rmse,
    True,
    "value",
    "root mean squared error",
    "root-mean-squared-error",
    "root mean square error",
)
_add("mse", mse, True, "value", "mean squared error", "mean-squared-error", "l2")
_add("mae", mae, True, "value", "mean absolute error", "mean-absolute-error", "l1")
_add("median_ae", median_ae, True, "value", "median absolute error", "medae")
_add("rmsle", rmsle, True, "value", "root mean squared log error", "root-mean-squared-logarithmic-error",
     "root mean squared logarithmic error")  # fmt: skip
_add("msle", msle, True, "value", "mean squared log error", "mean squared logarithmic error")
_add("rmspe", rmspe, True, "value", "root mean squared percentage error")
_add("mape", mape, True, "value", "mean absolute percentage error", "mean-absolute-percentage-error",
     "meanabsolutepercentageerror")  # fmt: skip
_add("r2", r2, False, "value", "r2 score", "r squared", "coefficient of determination", "r^2")
_add("smape", smape, True, "value", "symmetric mean absolute percentage error")
_add("mean_columnwise_rmse", mean_columnwise_rmse, True, "value", "mcrmse", "mean-column-wise-rmse",
     "mean columnwise root mean squared error", "column-wise rmse")  # fmt: skip
_add("mean_columnwise_rmsle", mean_columnwise_rmsle, True, "value", "mean-column-wise-rmsle", "column-wise rmsle",
     "mean columnwise root mean squared log error")  # fmt: skip
_add(
    "mean_columnwise_mae",
    mean_columnwise_mae,
    True,
    "value",
    "mcmae",
    "mean-column-wise-mae",
    "column-wise mae",
)
_add("spearman", spearman, False, "value", "spearman correlation", "spearman's rank correlation", "spearmanr")
_add("pearson", pearson, False, "value", "pearson correlation", "pearson correlation coefficient", "pearsonr")
_add("kendall_tau", kendall_tau, False, "value", "kendall-tau", "kendall tau", "kendall's tau")
_add(
    "map_at_k",
    map_at_k,
    False,
    "ranking",
    "map@k",
    "mean average precision",
    "mean-average-precision",
    "mapatk",
    k=5,
)
_add("ndcg_at_k", ndcg_at_k, False, "ranking", "ndcg@k", "ndcg", "normalized discounted cumulative gain", k=5)

_add(
    "levenshtein", levenshtein, True, "label", "levenshtein-distance", "levenhstein-distance", "edit distance"
)
_add("word_jaccard", word_jaccard, False, "label", "word-level-jaccard-score", "jaccard", "word jaccard")

_AT_K = re.compile(r"^(map|mean_average_precision|ndcg)_(?:at_)?(\d+)$")  # map@5, ndcg@5: the k in the name


def metric_names() -> list[str]:
    return sorted(_REGISTRY)


def _custom(name: str, lower_is_better: bool | None, kind: str | None) -> Metric:
    module, _, attr = name.partition(":")
    if lower_is_better is None:
        raise UnknownMetricError(
            f"custom metric '{name}' needs an explicit direction: set `metric.lower_is_better: true|false` in task.yaml."
        )
    try:
        fn = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:
        raise UnknownMetricError(
            f"custom metric '{name}': cannot import {attr!r} from module {module!r} ({e})."
        ) from e
    if not callable(fn):
        raise UnknownMetricError(f"custom metric '{name}': {attr!r} in {module!r} is not callable.")
    if kind is not None and kind not in KINDS:
        raise UnknownMetricError(f"custom metric '{name}': kind {kind!r} is not one of {', '.join(KINDS)}.")
    return Metric(name, fn, bool(lower_is_better), kind or "value")  # type: ignore[arg-type]


def get_metric(name: str, lower_is_better: bool | None = None, kind: str | None = None) -> Metric:
    """Resolve a metric by name or alias, `map@K`, or `module:function` (custom, direction required).

    An explicit `lower_is_better` overrides the registry's direction (task spec wins).
    """
    if ":" in name:
        return _custom(name, lower_is_better, kind)
    key = _norm(name)
    metric: Metric | None = None
    if key in _ALIASES:
        metric = _REGISTRY[_ALIASES[key]]
    elif m := _AT_K.match(key):
        short = "ndcg" if m.group(1) == "ndcg" else "map"
        base = _REGISTRY[f"{short}_at_k"]
        metric = Metric(f"{short}@{m.group(2)}", base.fn, False, "ranking", {"k": int(m.group(2))})
    if metric is None:
        raise UnknownMetricError(
            f"unknown metric '{name}'. Known metrics: {', '.join(metric_names())} (also map@K and ndcg@K for any K, aliases such "
            "as auc/qwk/logloss, and custom `module:function` with `lower_is_better` set in task.yaml)."
        )
    if lower_is_better is not None and lower_is_better != metric.lower_is_better:
        metric = Metric(metric.name, metric.fn, lower_is_better, metric.kind, metric.params)
    return metric
