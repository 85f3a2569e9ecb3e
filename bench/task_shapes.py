"""Task shapes the bundled tables lack, each solved offline: does every one end valid and beat its sample?

    python bench/task_shapes.py OUT [--budget 60] [--only NAME ...] [--make-only]

Builds small tasks under OUT/tasks/ with `automind.prepare.prepare_task` from scikit-learn's generators and
sets (seeded, so every run builds the same rows), then edits some public files the way real competitions
differ from a clean split: a shuffled sample submission, a column only the training file has, a True/False
column, training rows without a target. Each task is solved by `automind solve TASK --llm none --time-limit
BUDGET --seed 0` with an empty experience store of its own, and graded on its private answers beside the
sample submission's own score (what a constant prediction gets). Prints a Markdown table (graded, sample,
failed nodes, fallbacks, wall) and writes OUT/results.json.

What it catches is a script that runs and scores well on its own folds but not on the test rows (a leak
through a training-only column: graded no better than the sample), one that crashes on a shape (failed
nodes), and a solve that ends in an error. The tasks are synthetic: scores say nothing about real data.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

# bench/offline_vs_automl.py (python puts this script's folder on the path)
from offline_vs_automl import automind

from automind.grading import grade
from automind.prepare import prepare_task
from automind.task import Task

Maker = Callable[[Path], None]


def _wine(out: Path) -> None:
    from sklearn.datasets import load_wine

    X, y = load_wine(return_X_y=True, as_frame=True)
    df = X.assign(cultivar=y.map({0: "class A", 1: "class B", 2: "class C"}))
    prepare_task(df, out, "cultivar", "log_loss", name=out.name)


def _wine_shuffled(out: Path) -> None:
    _wine(out)
    path = out / "public" / "sample_submission.csv"
    pd.read_csv(path).sample(frac=1.0, random_state=1).to_csv(path, index=False)


def _three_targets(out: Path) -> None:
    from sklearn.datasets import load_linnerud

    X, Y = load_linnerud(return_X_y=True, as_frame=True)
    prepare_task(pd.concat([X, Y], axis=1), out, list(Y.columns), "rmse", name=out.name)


def _hourly_frame(n: int = 3000, seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    stamps = pd.date_range("2020-01-01", periods=n, freq="h")
    temp = 10 + 10 * np.sin(np.arange(n) / 24 * 2 * np.pi) + rng.normal(0, 2, n)
    zone = rng.choice(["nord", "süd", "ost"], n)
    y = 0.5 * temp - 3 + (stamps.hour > 17) * 4 + (zone == "süd") * 2 + rng.normal(0, 1, n)
    df = pd.DataFrame({"time stamp": stamps.astype(str), "température": temp, "zone": zone, "y": y})
    df.loc[rng.random(n) < 0.1, "température"] = np.nan
    return df


def _hourly(out: Path) -> None:
    prepare_task(_hourly_frame(), out, "y", "mae", name=out.name)


def _hourly_untidy(out: Path) -> None:
    """The hourly task with a column only the training file has (twice the target), a True/False column and
    5 % of training rows without a target."""
    _hourly(out)
    rng = np.random.default_rng(2)
    train_path, test_path = out / "public" / "train.csv", out / "public" / "test.csv"
    train, test = pd.read_csv(train_path), pd.read_csv(test_path)
    train["flag"], test["flag"] = rng.random(len(train)) < 0.5, rng.random(len(test)) < 0.5
    train["y_doubled"] = train["y"] * 2
    train.loc[rng.random(len(train)) < 0.05, "y"] = np.nan
    train.to_csv(train_path, index=False)
    test.to_csv(test_path, index=False)


def _imbalanced(out: Path) -> None:
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=5000, n_features=20, weights=[0.95], random_state=0)
    df = pd.DataFrame(X, columns=[f"f{i}" for i in range(20)]).assign(target=y)
    df["row_key"] = [f"k{i:05d}" for i in range(len(df))]
    prepare_task(df, out, "target", "log_loss", id_col="row_key", name=out.name)


def _large(out: Path) -> None:
    from sklearn.datasets import make_regression

    X, y = make_regression(n_samples=150_000, n_features=30, noise=10, random_state=0)
    prepare_task(pd.DataFrame(X, columns=[f"x{i}" for i in range(30)]).assign(target=y), out, "target",
                 "rmse", name=out.name)  # fmt: skip


def _many_classes(out: Path) -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(4000, 8))
    label = np.argmax(X[:, :5] @ rng.normal(size=(5, 50)), axis=1)
    df = pd.DataFrame(X, columns=[f"v{i}" for i in range(8)]).assign(label=[f"k{v}" for v in label])
    prepare_task(df, out, "label", "accuracy", name=out.name)


def _two_labels(out: Path) -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(4000, 8))
    df = pd.DataFrame(X, columns=[f"v{i}" for i in range(8)])
    df["t1"] = (X[:, 0] + rng.normal(size=4000) > 0).astype(int)
    df["t2"] = (X[:, 1] * X[:, 2] > 0).astype(int)
    prepare_task(df, out, ["t1", "t2"], "roc_auc", name=out.name)


def _wide(out: Path) -> None:
    rng = np.random.default_rng(5)
    X = rng.normal(size=(400, 2000))
    df = pd.DataFrame(X, columns=[f"g{i}" for i in range(2000)])
    df["Outcome (flag)"] = (X[:, :5].sum(axis=1) + rng.normal(size=400) > 0).astype(int)
    df.insert(0, "PassengerKey", [f"P{i}" for i in range(400)])
    prepare_task(df, out, "Outcome (flag)", "roc_auc", id_col="PassengerKey", name=out.name)


def _text_counts(out: Path) -> None:
    rng = np.random.default_rng(5)
    words = np.array(
        [
            "good",
            "bad",
            "great",
            "awful",
            "fine",
            "cheap",
            "expensive",
            "broken",
            "works",
            "love",
            "hate",
            "ok",
        ]
    )
    text = [
        " ".join(rng.choice(words, rng.integers(3, 12))) if rng.random() > 0.1 else None for _ in range(3000)
    ]
    price = rng.gamma(2, 10, 3000)
    mood = np.array(
        [(t or "").count("good") + (t or "").count("great") - (t or "").count("bad") for t in text]
    )
    sales = np.maximum(0, np.round(0.3 * price + 2 * mood + rng.normal(0, 1, 3000)))
    prepare_task(pd.DataFrame({"review": text, "price": price, "sales": sales}), out, "sales", "rmsle",
                 name=out.name)  # fmt: skip


def _ordinal(out: Path) -> None:
    """Five ordered grades 0-4 from a noisy score, quadratic weighted kappa (an ordinal Kaggle metric)."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(3000, 6))
    score = X[:, 0] + 0.5 * X[:, 1] - 0.5 * X[:, 2] ** 2 + rng.normal(0, 0.5, 3000)
    grade = np.digitize(score, np.quantile(score, [0.1, 0.35, 0.7, 0.9]))
    df = pd.DataFrame(X, columns=[f"m{i}" for i in range(6)]).assign(grade=grade)
    prepare_task(df, out, "grade", "qwk", name=out.name)


def _tiny_f1(out: Path) -> None:
    """80 rows, yes/no labels (the positive class is a word, not 1), F1."""
    rng = np.random.default_rng(8)
    X = rng.normal(size=(80, 4))
    label = np.where(X[:, 0] + X[:, 1] + rng.normal(0, 0.7, 80) > 0.4, "yes", "no")
    df = pd.DataFrame(X, columns=["a", "b", "c", "d"]).assign(answer=label)
    prepare_task(df, out, "answer", "f1", name=out.name)


def _high_cardinality(out: Path) -> None:
    """A category of 4,000 levels carrying the signal, zip codes with leading zeros, ROC AUC."""
    rng = np.random.default_rng(9)
    n = 20_000
    shop = rng.integers(0, 4000, n)
    effect = rng.normal(0, 1.5, 4000)
    zipc = rng.integers(0, 300, n)
    amount = rng.gamma(2, 50, n)
    logit = effect[shop] + 0.01 * (amount - 100) + (zipc < 30) * 1.0 - 1
    df = pd.DataFrame({"shop": [f"S{v}" for v in shop], "zip": [f"{v:05d}" for v in zipc], "amount": amount})
    df["churn"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    prepare_task(df, out, "churn", "roc_auc", name=out.name)


def _numbers_as_text(out: Path) -> None:
    """Numbers written for people: thousands separators, a currency sign, percentages; RMSE."""
    rng = np.random.default_rng(10)
    n = 3000
    area, price, rate = rng.gamma(3, 400, n), rng.gamma(2, 30, n), rng.uniform(0, 1, n)
    y = 0.01 * area + 0.5 * price + 20 * rate + rng.normal(0, 2, n)
    df = pd.DataFrame({"area": [f"{v:,.1f}" for v in area], "price": [f"${v:.2f}" for v in price],
                       "rate": [f"{100 * v:.0f}%" for v in rate], "target": y})  # fmt: skip
    prepare_task(df, out, "target", "rmse", name=out.name)


def _integer_classes(out: Path) -> None:
    """Seven classes labelled 1-7 (integers, as in forest cover type), accuracy: not a regression."""
    rng = np.random.default_rng(11)
    X = rng.normal(size=(4000, 6))
    label = 1 + np.argmax(X[:, :4] @ rng.normal(size=(4, 7)) + rng.normal(0, 0.3, (4000, 7)), axis=1)
    df = pd.DataFrame(X, columns=[f"e{i}" for i in range(6)]).assign(cover=label)
    prepare_task(df, out, "cover", "accuracy", name=out.name)


def _reordered(out: Path) -> None:
    """The test file's columns in another order, an id column in the middle, category levels the training
    rows never show and a column the test file leaves empty; MAE."""
    rng = np.random.default_rng(12)
    n = 3000
    df = pd.DataFrame({"size": rng.gamma(2, 2, n), "colour": rng.choice(["red", "green", "blue"], n),
                       "Id": np.arange(1000, 1000 + n), "weight": rng.normal(10, 2, n),
                       "note_score": rng.normal(0, 1, n)})  # fmt: skip
    df["value"] = 3 * df["size"] + (df["colour"] == "red") * 5 + df["weight"] + rng.normal(0, 1, n)
    prepare_task(df, out, "value", "mae", id_col="Id", name=out.name)
    test_path = out / "public" / "test.csv"
    test = pd.read_csv(test_path)
    test.loc[test.sample(frac=0.2, random_state=0).index, "colour"] = "purple"
    test["note_score"] = np.nan
    test[list(reversed(test.columns))].to_csv(test_path, index=False)


def _near_zero(out: Path) -> None:
    """A target around zero, half of it negative, symmetric MAPE (scale-free, undefined-looking at 0)."""
    rng = np.random.default_rng(13)
    X = rng.normal(size=(3000, 5))
    y = 2 * X[:, 0] - X[:, 1] + 0.5 * X[:, 2] * X[:, 3] + rng.normal(0, 0.3, 3000)
    prepare_task(pd.DataFrame(X, columns=[f"q{i}" for i in range(5)]).assign(y=y), out, "y", "smape",
                 name=out.name)  # fmt: skip


def _conflicting_duplicates(out: Path) -> None:
    """Few distinct rows, each repeated with conflicting labels (a noisy survey), MCC."""
    rng = np.random.default_rng(14)
    base = rng.integers(0, 4, size=(150, 3))
    idx = rng.integers(0, 150, 3000)
    X = base[idx]
    p = 1 / (1 + np.exp(-(X[:, 0] - X[:, 1] + 0.5 * X[:, 2] - 1)))
    df = pd.DataFrame(X, columns=["u", "v", "w"]).assign(bought=(rng.random(3000) < p).astype(int))
    prepare_task(df, out, "bought", "mcc", name=out.name)


def _unseen_groups(out: Path) -> None:
    """Repeated visits of 400 patients; the test patients are new ones (a grouped split), RMSE. A patient's
    own level is half the signal, so a model can look good by recognising patients it has seen."""
    rng = np.random.default_rng(15)
    n_pat = 400
    visits = rng.integers(3, 15, n_pat)
    pat = np.repeat(np.arange(n_pat), visits)
    age, weight = rng.uniform(20, 80, n_pat), rng.normal(75, 12, n_pat)
    level = 0.05 * (age - 50) + rng.normal(0, 1.5, n_pat)
    n = len(pat)
    dose, week = rng.uniform(0, 10, n), rng.integers(0, 52, n)
    y = level[pat] + 0.4 * dose - 0.02 * dose**2 + 0.01 * week + rng.normal(0, 0.7, n)
    df = pd.DataFrame({"patient_id": [f"P{v:04d}" for v in pat], "age": age[pat].round(1),
                       "weight": weight[pat].round(1), "dose": dose, "week": week, "response": y})  # fmt: skip
    prepare_task(df, out, "response", "rmse", group_col="patient_id", name=out.name)


def _forecast(out: Path) -> None:
    """Daily sales of 20 shops over four years with a trend and a weekly and yearly cycle; the test rows are
    the last 20 % of the days (a forecast), MAE."""
    rng = np.random.default_rng(16)
    days = pd.date_range("2019-01-01", periods=4 * 365, freq="D")
    shops = np.arange(20)
    d, s = np.repeat(np.arange(len(days)), len(shops)), np.tile(shops, len(days))
    base = rng.uniform(50, 150, len(shops))
    promo = rng.random(len(d)) < 0.15
    temp = 12 + 10 * np.sin(2 * np.pi * (d - 100) / 365) + rng.normal(0, 3, len(d))
    y = (base[s] * (1 + 0.0004 * d) + 15 * (days[d].dayofweek >= 5) + 20 * promo + 0.8 * temp
         + rng.normal(0, 8, len(d)))  # fmt: skip
    df = pd.DataFrame({"date": days[d].strftime("%Y-%m-%d"), "shop": [f"shop{v}" for v in s],
                       "promo": promo.astype(int), "temperature": temp.round(1), "sales": y})  # fmt: skip
    prepare_task(df.sample(frac=0.5, random_state=0).sort_index(), out, "sales", "mae", time_col="date",
                 name=out.name)  # fmt: skip


def _map3(out: Path) -> None:
    """Twelve products, MAP@3: each row's submission is up to three labels, best first."""
    rng = np.random.default_rng(17)
    n = 6000
    X = rng.normal(size=(n, 6))
    logits = X @ rng.normal(size=(6, 12)) + rng.normal(0, 1.0, (n, 12))
    df = pd.DataFrame(X, columns=[f"f{i}" for i in range(6)]).assign(
        product=[f"prod_{v:02d}" for v in np.argmax(logits, axis=1)]
    )
    prepare_task(df, out, "product", "map@3", name=out.name)


def _multiclass_auc(out: Path) -> None:
    """Four classes scored by ROC AUC (one against the rest, averaged): a probability column per class."""
    prepare_task(_four_classes(np.random.default_rng(18), ["alpha", "beta", "gamma", "delta"], "kind"), out, "kind", "roc_auc",
                 name=out.name)  # fmt: skip


def _four_classes(rng: np.random.Generator, labels: list[str], column: str) -> pd.DataFrame:
    """4,000 rows of five numbers x0..x4 drawn from `rng`, the class in `column` the largest of four noisy
    scores of the first three."""
    n = 4000
    X = rng.normal(size=(n, 5))
    logits = X[:, :3] @ rng.normal(size=(3, 4)) + rng.normal(0, 0.8, (n, 4))
    return pd.DataFrame(X, columns=[f"x{i}" for i in range(5)]).assign(
        **{column: np.array(labels)[np.argmax(logits, axis=1)]}
    )


def _latin1(out: Path) -> None:
    """Files written in Latin-1, not UTF-8, with accented category levels and an accented column name."""
    rng = np.random.default_rng(19)
    n = 3000
    city = rng.choice(["Zürich", "Genève", "São Paulo", "Málaga", "Köln"], n)
    rooms, area = rng.integers(1, 6, n), rng.gamma(3, 25, n)
    bonus = (
        pd.Series(city).map({"Zürich": 3, "Genève": 2, "São Paulo": -2, "Málaga": 0, "Köln": 1}).to_numpy()
    )
    score = 0.5 * rooms + 0.02 * area + bonus + rng.normal(0, 1, n)
    df = pd.DataFrame({"ville": city, "pièces": rooms, "surface": area.round(1),
                       "cher": np.where(score > np.median(score), "oui", "non")})  # fmt: skip
    prepare_task(df, out, "cher", "accuracy", name=out.name)
    for f in ("train.csv", "test.csv"):
        path = out / "public" / f
        path.write_bytes(path.read_text(encoding="utf-8").encode("latin-1"))


def _day_first_dates(out: Path) -> None:
    """Dates written day first (31/12/2019) with a trend and a weekly cycle; RMSE on a random split."""
    rng = np.random.default_rng(20)
    n = 5000
    days = pd.Timestamp("2018-01-01") + pd.to_timedelta(rng.integers(0, 3 * 365, n), unit="D")
    load = rng.uniform(0, 10, n)
    age = (days - days.min()).days.to_numpy()
    y = 0.01 * age + 4 * (days.dayofweek >= 5) + load + rng.normal(0, 1, n)
    df = pd.DataFrame({"when": days.strftime("%d/%m/%Y"), "load": load, "y": y})
    prepare_task(df, out, "y", "rmse", name=out.name)


def _rare_events(out: Path, seed: int, n: int, k: int, prefix: str, logit: Callable[[np.ndarray], np.ndarray],
                 target: str, metric: str) -> None:  # fmt: skip
    """k normal columns and a 0/1 target drawn from a logistic model (rare when the intercept is low)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, k))
    df = pd.DataFrame(X, columns=[f"{prefix}{i}" for i in range(k)])
    df[target] = (rng.random(n) < 1 / (1 + np.exp(-logit(X)))).astype(int)
    prepare_task(df, out, target, metric, name=out.name)


def _gini(out: Path) -> None:
    """30,000 rows with 3 % positives, normalised Gini (an insurance-claims metric: 2 AUC - 1)."""
    _rare_events(out, 21, 30_000, 10, "ps_", lambda X: -4 + 0.8 * X[:, 0] - 0.6 * X[:, 1] + 0.4 * X[:, 2] * X[:, 3],
                 "claim", "gini")  # fmt: skip


def _spearman(out: Path) -> None:
    """A heavy-tailed target scored by Spearman's rank correlation: only the order of the predictions counts."""
    rng = np.random.default_rng(22)
    n = 3000
    X = rng.normal(size=(n, 5))
    y = np.exp(X[:, 0] + 0.5 * X[:, 1] ** 2 + rng.normal(0, 0.5, n))
    prepare_task(pd.DataFrame(X, columns=[f"s{i}" for i in range(5)]).assign(y=y), out, "y", "spearman",
                 name=out.name)  # fmt: skip


def _bool_target(out: Path) -> None:
    """A True/False target, one class four times the other, balanced accuracy."""
    rng = np.random.default_rng(23)
    n = 2500
    X = rng.normal(size=(n, 4))
    label = X[:, 0] - X[:, 1] + rng.normal(0, 0.8, n) > 1.2
    df = pd.DataFrame(X, columns=["p", "q", "r", "s"]).assign(defaulted=np.where(label, "True", "False"))
    prepare_task(df, out, "defaulted", "balanced_accuracy", name=out.name)


def _question_marks(out: Path) -> None:
    """Numeric columns that write a gap as '?' (UCI style) and one that writes it as 'NA' or '-'; RMSE."""
    rng = np.random.default_rng(24)
    n = 3000
    X = rng.normal(size=(n, 4))
    y = 3 * X[:, 0] - 2 * X[:, 1] + X[:, 2] * X[:, 3] + rng.normal(0, 0.5, n)
    df = pd.DataFrame(X.round(4), columns=["power", "weight", "accel", "year"]).astype(object)
    df.loc[rng.random(n) < 0.05, "power"] = "?"
    gaps = rng.random(n) < 0.05
    df.loc[gaps, "weight"] = rng.choice(["NA", "-"], int(gaps.sum()))
    df["y"] = y
    prepare_task(df, out, "y", "rmse", name=out.name)


def _odd_names(out: Path) -> None:
    """Column names with JSON-special characters, dots, spaces and keywords (LightGBM refuses some); AUC."""
    rng = np.random.default_rng(25)
    n = 3000
    X = rng.normal(size=(n, 6))
    names = ["feat[0]", 'a"quoted"', "x.y", "class", "with space", "{brace}:colon"]
    df = pd.DataFrame(X, columns=names)
    df["label"] = (X[:, 0] + X[:, 2] - X[:, 4] + rng.normal(0, 0.7, n) > 0).astype(int)
    prepare_task(df, out, "label", "roc_auc", name=out.name)


def _tiny_train_big_test(out: Path) -> None:
    """150 training rows and 15,000 test rows (a competition scored on far more rows than it teaches), MAE."""
    rng = np.random.default_rng(26)
    n = 15_150
    X = rng.normal(size=(n, 5))
    y = 2 * X[:, 0] + np.sin(2 * X[:, 1]) + rng.normal(0, 0.3, n)
    df = pd.DataFrame(X, columns=[f"v{i}" for i in range(5)]).assign(y=y)
    prepare_task(df, out, "y", "mae", test_size=15_000 / n, name=out.name)


def _rare_positives_f1(out: Path) -> None:
    """1 % positives scored by F1: predicting the majority scores 0, so the cut point decides."""
    _rare_events(out, 27, 20_000, 6, "r", lambda X: -5.5 + 1.5 * X[:, 0] + X[:, 1] - X[:, 2], "fraud", "f1")


def _mixed_types(out: Path) -> None:
    """A column of numbers with a few words among them ('unknown', 'n/a'), and a 0/1 column read as text."""
    rng = np.random.default_rng(28)
    n = 3000
    income = rng.gamma(2, 20_000, n)
    text_income = income.round(0).astype(int).astype(str).astype(object)
    text_income[rng.random(n) < 0.03] = "unknown"
    text_income[rng.random(n) < 0.02] = "n/a"
    owner = rng.integers(0, 2, n)
    y = 1e-5 * income + 0.8 * owner + rng.normal(0, 0.3, n)
    df = pd.DataFrame({"income": text_income, "owner": np.where(owner, "1", "0"), "age": rng.integers(18, 80, n),
                       "score": y})  # fmt: skip
    prepare_task(df, out, "score", "rmse", name=out.name)


def _zoned_times(out: Path) -> None:
    """ISO timestamps with time-zone offsets (+02:00, -05:00) carrying an hour-of-day effect; MAE."""
    rng = np.random.default_rng(29)
    n = 4000
    when = pd.Timestamp("2021-01-01", tz="UTC") + pd.to_timedelta(rng.integers(0, 365 * 24, n), unit="h")
    zone = rng.choice(["+02:00", "-05:00", "+00:00"], n)
    local = [
        w.tz_convert(f"Etc/GMT{'-' if z[0] == '+' else '+'}{int(z[1:3])}")
        for w, z in zip(when, zone, strict=True)
    ]
    hour = np.array([t.hour for t in local])
    y = 10 * np.sin(2 * np.pi * hour / 24) + rng.normal(0, 1, n)
    df = pd.DataFrame({"stamp": [t.isoformat() for t in local], "load": rng.normal(size=n), "demand": y})
    prepare_task(df, out, "demand", "mae", name=out.name)


def _id_last(out: Path) -> None:
    """A sample submission whose id column comes last (prediction first), accuracy on 3 classes."""
    rng = np.random.default_rng(30)
    n = 3000
    X = rng.normal(size=(n, 4))
    label = np.array(["low", "mid", "high"])[np.digitize(X[:, 0] + X[:, 1], [-0.7, 0.7])]
    df = pd.DataFrame(X, columns=["m", "n", "o", "p"]).assign(level=label)
    prepare_task(df, out, "level", "accuracy", name=out.name)
    for name in ("public/sample_submission.csv", "private/answers.csv"):
        path = out / name
        table = pd.read_csv(path)
        table[list(reversed(table.columns))].to_csv(path, index=False)


def _simple_frame(seed: int, n: int = 3000) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5))
    colour = rng.choice(["red", "green", "blue"], n)
    df = pd.DataFrame(X, columns=[f"k{i}" for i in range(5)]).assign(colour=colour)
    df["y"] = 2 * X[:, 0] - X[:, 1] + (colour == "red") * 1.5 + rng.normal(0, 0.5, n)
    return df


def _parquet(out: Path) -> None:
    """Training and test tables as Parquet files (task.yaml names them), RMSE."""
    prepare_task(_simple_frame(31), out, "y", "rmse", name=out.name)
    _convert_tables(out, ".parquet", lambda df, p: df.to_parquet(p, index=False))


def _tsv(out: Path) -> None:
    """Training and test tables separated by tabs (.tsv), RMSE."""
    prepare_task(_simple_frame(32), out, "y", "rmse", name=out.name)
    _convert_tables(out, ".tsv", lambda df, p: df.to_csv(p, sep="\t", index=False))


def _convert_tables(out: Path, suffix: str, write: Callable[[pd.DataFrame, Path], None]) -> None:
    import yaml

    for name in ("train", "test"):
        src = out / "public" / f"{name}.csv"
        write(pd.read_csv(src), src.with_suffix(suffix))
        src.unlink()
    spec_path = out / "task.yaml"
    spec = yaml.safe_load(spec_path.read_text())
    spec["train_files"], spec["test_files"] = [f"train{suffix}"], [f"test{suffix}"]
    spec_path.write_text(yaml.safe_dump(spec, sort_keys=False))


def _positional(out: Path) -> None:
    """A test file without the id column: submission rows follow the test rows in order; MAE."""
    prepare_task(_simple_frame(33), out, "y", "mae", name=out.name)
    test_path = out / "public" / "test.csv"
    pd.read_csv(test_path).drop(columns="id").to_csv(test_path, index=False)


def _binary_two_columns(out: Path) -> None:
    """A binary task whose submission has one probability column per class ('no', 'yes'), log loss."""
    df = _simple_frame(34)
    df["y"] = np.where(df["y"] > df["y"].median(), "yes", "no")
    prepare_task(df, out, "y", "log_loss", name=out.name)
    path = out / "public" / "sample_submission.csv"
    sample = pd.read_csv(path)
    pd.DataFrame({"id": sample["id"], "no": 0.5, "yes": 0.5}).to_csv(path, index=False)


def _text_macro_f1(out: Path) -> None:
    """Short reviews in five topics, macro F1 (every class counts alike, one rare)."""
    rng = np.random.default_rng(35)
    topics = {"battery": ["charge", "battery", "power", "hours"], "screen": ["display", "bright", "pixels"],
              "price": ["cheap", "expensive", "cost", "value"], "sound": ["speaker", "loud", "bass"],
              "shipping": ["delivery", "late", "box", "courier"]}  # fmt: skip
    filler = ["the", "was", "really", "quite", "this", "phone", "and", "not", "very", "my"]
    names = list(topics)
    rows = []
    for _ in range(2500):
        topic = rng.choice(names, p=[0.3, 0.3, 0.2, 0.15, 0.05])
        words = list(rng.choice(filler, 9)) + list(rng.choice(topics[topic], 2))
        rng.shuffle(words)
        rows.append({"review": " ".join(words), "stars": int(rng.integers(1, 6)), "topic": topic})
    prepare_task(pd.DataFrame(rows), out, "topic", "f1_macro", name=out.name)


def _zero_inflated(out: Path) -> None:
    """A count that is zero nine times in ten (claims, sales of a rare item), MAE: the median is 0."""
    rng = np.random.default_rng(36)
    n = 5000
    X = rng.normal(size=(n, 4))
    active = rng.random(n) < 1 / (1 + np.exp(-(X[:, 0] * 2 - 3)))
    y = np.where(active, rng.poisson(np.exp(1 + X[:, 1])), 0)
    prepare_task(pd.DataFrame(X, columns=["z0", "z1", "z2", "z3"]).assign(claims=y), out, "claims", "mae",
                 name=out.name)  # fmt: skip


def _big_values(out: Path) -> None:
    """House prices in the billions (a currency with small units), RMSE on that scale."""
    df = _simple_frame(37)
    df["y"] = (df["y"] * 3e8 + 2e9).round(0)
    prepare_task(df, out, "y", "rmse", name=out.name)


def _jpeg_images(out: Path) -> None:
    """Colour JPEG images of different sizes in class-named sub-folders, the table naming each file by
    its path; three shapes told apart by colour and position, accuracy."""
    from PIL import Image

    rng = np.random.default_rng(38)
    rows = []
    df_rows = []
    for i in range(360):
        label = ["red-square", "green-bar", "blue-dot"][i % 3]
        w, h = int(rng.integers(24, 48)), int(rng.integers(24, 48))
        img = rng.integers(0, 60, size=(h, w, 3)).astype(np.uint8)
        if label == "red-square":
            img[h // 4 : 3 * h // 4, w // 4 : 3 * w // 4, 0] = 220
        elif label == "green-bar":
            img[:, w // 2 - 3 : w // 2 + 3, 1] = 220
        else:
            img[h // 2 - 4 : h // 2 + 4, w // 2 - 4 : w // 2 + 4, 2] = 220
        rows.append((f"img_{i:04d}", label, img))
        df_rows.append({"image": f"img_{i:04d}", "label": label})
    prepare_task(pd.DataFrame(df_rows), out, "label", "accuracy", name=out.name)
    for key, label, img in rows:
        folder = out / "public" / "images" / label[0]  # nested, not by the label a model must predict
        folder.mkdir(parents=True, exist_ok=True)
        Image.fromarray(img).save(folder / f"{key}.jpg", quality=90)


def _text_pairs(out: Path) -> None:
    """Two short texts per row (a question and a candidate answer); is the answer on topic? Log loss."""
    rng = np.random.default_rng(39)
    topics = {"tax": ["refund", "income", "deduction", "filing"], "car": ["engine", "tyres", "brakes", "oil"],
              "pet": ["puppy", "kitten", "vet", "leash"], "trip": ["flight", "hotel", "passport", "visa"]}  # fmt: skip
    filler = ["how", "do", "i", "the", "my", "what", "is", "a", "for", "to"]
    rows = []
    for _ in range(3000):
        q_topic = rng.choice(list(topics))
        same = rng.random() < 0.5
        a_topic = q_topic if same else rng.choice([t for t in topics if t != q_topic])
        q = " ".join([*rng.choice(filler, 5), *rng.choice(topics[q_topic], 2)])
        a = " ".join([*rng.choice(filler, 6), *rng.choice(topics[a_topic], 2)])
        rows.append({"question": q, "answer": a, "relevant": int(same)})
    prepare_task(pd.DataFrame(rows), out, "relevant", "log_loss", name=out.name)


def _text_cjk(out: Path) -> None:
    """Reviews in Japanese (no spaces between words), positive or negative, ROC AUC."""
    rng = np.random.default_rng(40)
    good, bad = (
        ["とても良い", "最高です", "満足しました", "おすすめ"],
        ["最悪です", "壊れていた", "残念", "返品したい"],
    )
    filler = ["この商品は", "配送は", "値段の割に", "使ってみて", "家族も", "今回は"]
    rows = []
    for _ in range(2500):
        pos = rng.random() < 0.5
        words = [*rng.choice(filler, 3), *rng.choice(good if pos else bad, 1), *rng.choice(filler, 2)]
        rng.shuffle(words)
        rows.append(
            {"review": "".join(words) + "。", "stars_shown": int(rng.integers(1, 6)), "positive": int(pos)}
        )
    prepare_task(pd.DataFrame(rows), out, "positive", "roc_auc", name=out.name)


def _long_text_regression(out: Path) -> None:
    """Essays of 150-400 words scored 1-10 by how many topic words they use, RMSE."""
    rng = np.random.default_rng(41)
    vocab = [f"w{i}" for i in range(400)]
    topic = [f"key{i}" for i in range(20)]
    rows = []
    for _ in range(1500):
        n_key = int(rng.integers(0, 20))
        words = [*rng.choice(vocab, int(rng.integers(150, 400))), *rng.choice(topic, n_key)]
        rng.shuffle(words)
        rows.append({"essay": " ".join(words), "score": 1 + 9 * n_key / 19 + rng.normal(0, 0.5)})
    prepare_task(pd.DataFrame(rows), out, "score", "rmse", name=out.name)


def _class_index_columns(out: Path) -> None:
    """Three classes labelled 0, 1, 2 with one probability column per class named by the index, log loss."""
    rng = np.random.default_rng(42)
    n = 3000
    X = rng.normal(size=(n, 4))
    label = np.argmax(X[:, :3] + rng.normal(0, 0.7, (n, 3)), axis=1)
    prepare_task(pd.DataFrame(X, columns=["a", "b", "c", "d"]).assign(cls=label), out, "cls", "log_loss",
                 name=out.name)  # fmt: skip
    path = out / "public" / "sample_submission.csv"
    sample = pd.read_csv(path)
    pd.DataFrame({"id": sample["id"], "0": 1 / 3, "1": 1 / 3, "2": 1 / 3}).to_csv(path, index=False)


def _target_in_test(out: Path) -> None:
    """A test file that carries the target column, empty (as some competitions ship it), RMSE."""
    prepare_task(_simple_frame(43), out, "y", "rmse", name=out.name)
    path = out / "public" / "test.csv"
    pd.read_csv(path).assign(y=np.nan).to_csv(path, index=False)


def _labels_with_zeros(out: Path) -> None:
    """Class codes written with leading zeros ('01'-'04'), accuracy: the submission must keep them."""
    rng = np.random.default_rng(44)
    n = 3000
    X = rng.normal(size=(n, 4))
    codes = np.array(["01", "02", "03", "04"])[np.argmax(X + rng.normal(0, 0.5, (n, 4)), axis=1)]
    prepare_task(pd.DataFrame(X, columns=["e", "f", "g", "h"]).assign(code=codes), out, "code", "accuracy",
                 name=out.name)  # fmt: skip


def _rewrite_tables(out: Path, write: Callable[[pd.DataFrame, Path], None], files: tuple[str, ...]) -> None:
    """Rewrite public CSV files in place with another writer (same rows, another byte layout)."""
    for f in files:
        path = out / "public" / f
        write(pd.read_csv(path, dtype=str, keep_default_na=False), path)


def _bom(out: Path) -> None:
    """Every public file starts with a UTF-8 byte-order mark (a spreadsheet's CSV export); ROC AUC."""
    prepare_task(_binary_frame(40), out, "bought", "roc_auc", name=out.name)
    _rewrite_tables(out, lambda df, p: df.to_csv(p, index=False, encoding="utf-8-sig"),
                    ("train.csv", "test.csv", "sample_submission.csv"))  # fmt: skip


def _binary_frame(seed: int, n: int = 3000) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    shop = rng.choice(["web", "store", "phone"], n)
    logit = 1.2 * X[:, 0] - X[:, 1] + (shop == "web") * 0.8 + rng.normal(0, 0.7, n)
    return pd.DataFrame(X, columns=[f"f{i}" for i in range(4)]).assign(
        shop=shop, bought=(logit > 0).astype(int)
    )


def _semicolon(out: Path) -> None:
    """Tables in the European spreadsheet layout: ';' between fields, decimal commas; RMSE."""
    prepare_task(_simple_frame(41), out, "y", "rmse", name=out.name)
    _rewrite_tables(out, lambda df, p: df.apply(lambda c: c.str.replace(".", ",", regex=False)
                                               if c.name != "colour" else c).to_csv(p, sep=";", index=False),
                    ("train.csv", "test.csv"))  # fmt: skip


def _zipped(out: Path) -> None:
    """Training and test tables shipped as train.csv.zip / test.csv.zip (as Kaggle downloads them); accuracy."""
    import zipfile

    import yaml

    df = _binary_frame(42)
    df["bought"] = df["bought"].map({0: "no", 1: "yes"})
    prepare_task(df, out, "bought", "accuracy", name=out.name)
    for name in ("train", "test"):
        src = out / "public" / f"{name}.csv"
        with zipfile.ZipFile(src.with_suffix(".csv.zip"), "w", zipfile.ZIP_DEFLATED) as z:
            z.write(src, f"{name}.csv")
        src.unlink()
    spec_path = out / "task.yaml"
    spec = yaml.safe_load(spec_path.read_text())
    spec["train_files"], spec["test_files"] = ["train.csv.zip"], ["test.csv.zip"]
    spec_path.write_text(yaml.safe_dump(spec, sort_keys=False))


def _unnamed_index(out: Path) -> None:
    """Training and test files written with pandas' row index as an unnamed first column; MAE."""
    prepare_task(_simple_frame(43), out, "y", "mae", name=out.name)
    _rewrite_tables(out, lambda df, p: df.to_csv(p, index=True), ("train.csv", "test.csv"))


def _crlf_quoted(out: Path) -> None:
    """Windows line ends and quoted free text holding commas, quotes and line breaks; log loss."""
    rng = np.random.default_rng(44)
    good = ["great value", "works well", "arrived early", "love it", "five stars"]
    bad = [
        "broke after a week",
        "never arrived",
        "poor, cheap plastic",
        'the "deal" was a lie',
        "refund please",
    ]
    rows = []
    for _ in range(3000):
        happy = rng.random() < 0.5
        words = rng.choice(good if happy else bad, 2)
        text = f"{words[0]},\n{words[1]}" if rng.random() < 0.3 else f"{words[0]}, {words[1]}"
        rows.append({"review": text, "stars": int(rng.integers(3, 6) if happy else rng.integers(1, 4)),
                     "happy": int(happy)})  # fmt: skip
    prepare_task(pd.DataFrame(rows), out, "happy", "log_loss", name=out.name)
    _rewrite_tables(out, lambda df, p: df.to_csv(p, index=False, lineterminator="\r\n"),
                    ("train.csv", "test.csv", "sample_submission.csv"))  # fmt: skip


def _uuid_ids(out: Path) -> None:
    """Row ids that are random hex UUIDs, four classes, macro F1."""
    import uuid

    rng = np.random.default_rng(45)
    n = 3000
    X = rng.normal(size=(n, 5))
    kind = np.array(["w", "x", "y", "z"])[np.argmax(X[:, :4] + rng.normal(0, 0.5, (n, 4)), axis=1)]
    ids = [
        str(uuid.UUID(int=int(rng.integers(0, 2**63)) << 64 | int(rng.integers(0, 2**63)))) for _ in range(n)
    ]
    df = pd.DataFrame(X, columns=[f"v{i}" for i in range(5)]).assign(row_id=ids, kind=kind)
    prepare_task(df, out, "kind", "f1_macro", id_col="row_id", name=out.name)


def _mape(out: Path) -> None:
    """A positive amount with multiplicative noise (sales, prices), scored by mean absolute percentage error."""
    rng = np.random.default_rng(46)
    n = 3000
    X = rng.normal(size=(n, 4))
    region = rng.choice(["north", "south", "east", "west"], n)
    log_y = 3 + 0.6 * X[:, 0] - 0.4 * X[:, 1] + (region == "east") * 0.5 + rng.normal(0, 0.3, n)
    df = pd.DataFrame(X, columns=[f"d{i}" for i in range(4)]).assign(
        region=region, sales=np.exp(log_y).round(2)
    )
    prepare_task(df, out, "sales", "mape", name=out.name)


def _multilabel_logloss(out: Path) -> None:
    """Six yes/no targets per row (some rows none, some several), scored by mean column-wise log loss."""
    rng = np.random.default_rng(47)
    n = 3000
    X = rng.normal(size=(n, 10))
    W = rng.normal(size=(10, 6))
    flags = (X @ W + rng.normal(0, 1.5, (n, 6)) > 2.0).astype(int)
    df = pd.DataFrame(X, columns=[f"g{i}" for i in range(10)])
    targets = [f"moa_{j}" for j in range(6)]
    df[targets] = flags
    prepare_task(df, out, targets, "mean_columnwise_log_loss", name=out.name)


def _label_commas(out: Path) -> None:
    """Class labels holding commas and quotes ("New York, NY", 'the "Big" one'); accuracy."""
    rng = np.random.default_rng(48)
    n = 3000
    X = rng.normal(size=(n, 4))
    names = np.array(["New York, NY", "Paris, France", 'the "Big" one', "plain"])
    df = pd.DataFrame(X, columns=[f"c{i}" for i in range(4)]).assign(
        city=names[np.argmax(X + rng.normal(0, 0.6, (n, 4)), axis=1)]
    )
    prepare_task(df, out, "city", "accuracy", name=out.name)


def _padded_ids(out: Path) -> None:
    """Ids written with leading zeros ("000123") in every file; RMSE."""
    df = _simple_frame(49)
    df.insert(0, "code", [f"{i:06d}" for i in range(len(df))])
    prepare_task(df, out, "y", "rmse", id_col="code", name=out.name)


def _minus_one_labels(out: Path) -> None:
    """Labels -1 and 1, ROC AUC."""
    df = _binary_frame(50)
    df["bought"] = np.where(df["bought"] == 1, 1, -1)
    prepare_task(df, out, "bought", "roc_auc", name=out.name)


def _float_labels(out: Path) -> None:
    """Class labels written as floats (0.0, 1.0, 2.0) in the training file and the answers; accuracy."""
    rng = np.random.default_rng(51)
    n = 3000
    X = rng.normal(size=(n, 3))
    df = pd.DataFrame(X, columns=["a", "b", "c"]).assign(
        grade=np.argmax(X + rng.normal(0, 0.5, (n, 3)), axis=1).astype(float)
    )
    prepare_task(df, out, "grade", "accuracy", name=out.name)


def _mostly_missing(out: Path) -> None:
    """Twelve columns, each 70 % empty, the gaps themselves telling (missing more often for positives); log loss."""
    rng = np.random.default_rng(52)
    n = 4000
    X = rng.normal(size=(n, 12))
    y = (X[:, :4].sum(axis=1) + rng.normal(0, 1, n) > 0).astype(int)
    gaps = rng.random((n, 12)) < np.where(y[:, None] == 1, 0.6, 0.8)
    df = pd.DataFrame(np.where(gaps, np.nan, X), columns=[f"m{i}" for i in range(12)]).assign(target=y)
    prepare_task(df, out, "target", "log_loss", name=out.name)


def _outlier_target(out: Path) -> None:
    """A target with 1 % wild values (data-entry errors a hundred times too large), MAE."""
    df = _simple_frame(53)
    rng = np.random.default_rng(53)
    wild = rng.random(len(df)) < 0.01
    df.loc[wild, "y"] = df.loc[wild, "y"] * 100 + 500
    prepare_task(df, out, "y", "mae", name=out.name)


def _epoch_times(out: Path) -> None:
    """Times as Unix epoch seconds with an hour-of-day effect; RMSE."""
    rng = np.random.default_rng(54)
    n = 3000
    t = rng.integers(1_600_000_000, 1_630_000_000, n)
    hour = (t // 3600) % 24
    x = rng.normal(size=n)
    df = pd.DataFrame({"ts": t, "x": x, "y": x + np.where((hour >= 8) & (hour < 18), 3.0, 0.0)
                       + rng.normal(0, 0.5, n)})  # fmt: skip
    prepare_task(df, out, "y", "rmse", name=out.name)


def _jsonl(out: Path) -> None:
    """Training and test tables as JSON lines (.jsonl), accuracy."""
    df = _binary_frame(55)
    df["bought"] = df["bought"].map({0: "no", 1: "yes"})
    prepare_task(df, out, "bought", "accuracy", name=out.name)
    _convert_tables(out, ".jsonl", lambda df, p: df.to_json(p, orient="records", lines=True))


def _tsv_gz(out: Path) -> None:
    """Tab-separated tables compressed with gzip (train.tsv.gz), RMSE."""
    prepare_task(_simple_frame(56), out, "y", "rmse", name=out.name)
    _convert_tables(out, ".tsv.gz", lambda df, p: df.to_csv(p, sep="\t", index=False))


def _few_values(out: Path) -> None:
    """A number with only three values (1, 2, 3) scored by RMSE: a regression, not three classes."""
    rng = np.random.default_rng(57)
    n = 3000
    X = rng.normal(size=(n, 4))
    y = np.clip(np.rint(2 + X[:, 0] * 0.8 + rng.normal(0, 0.5, n)), 1, 3).astype(int)
    prepare_task(pd.DataFrame(X, columns=[f"q{i}" for i in range(4)]).assign(level=y), out, "level", "rmse",
                 name=out.name)  # fmt: skip


def _three_texts(out: Path) -> None:
    """A title, a body and tags per row, a price to predict from them; RMSLE."""
    rng = np.random.default_rng(58)
    kinds = {"phone": 300.0, "case": 15.0, "laptop": 900.0, "cable": 8.0}
    words = ["new", "used", "good", "black", "white", "fast", "sale", "box", "mint", "cheap"]
    rows = []
    for _ in range(3000):
        kind = rng.choice(list(kinds))
        used = rng.random() < 0.4
        rows.append({"title": f"{kind} {' '.join(rng.choice(words, 2))}",
                     "body": " ".join([*rng.choice(words, 8), "used" if used else "new", kind]),
                     "tags": ",".join(rng.choice(["tech", "home", "gift", "deal"], 2)),
                     "price": round(kinds[kind] * (0.6 if used else 1.0) * float(np.exp(rng.normal(0, 0.2))), 2)})  # fmt: skip
    prepare_task(pd.DataFrame(rows), out, "price", "rmsle", name=out.name)


def _r2_skewed(out: Path) -> None:
    """A right-skewed amount scored by R squared."""
    rng = np.random.default_rng(59)
    n = 3000
    X = rng.normal(size=(n, 5))
    y = np.exp(1 + 0.7 * X[:, 0] + 0.3 * X[:, 1] + rng.normal(0, 0.4, n))
    prepare_task(pd.DataFrame(X, columns=[f"r{i}" for i in range(5)]).assign(amount=y), out, "amount", "r2",
                 name=out.name)  # fmt: skip


def _cohen_kappa(out: Path) -> None:
    """Four named grades (unweighted Cohen's kappa)."""
    rng = np.random.default_rng(60)
    n = 3000
    X = rng.normal(size=(n, 4))
    names = np.array(["poor", "fair", "good", "great"])
    df = pd.DataFrame(X, columns=[f"h{i}" for i in range(4)]).assign(
        grade=names[np.argmax(X + rng.normal(0, 0.7, (n, 4)), axis=1)]
    )
    prepare_task(df, out, "grade", "cohen_kappa", name=out.name)


def _duplicate_test_ids(out: Path) -> None:
    """A test file and sample submission whose id column repeats some values; MAE."""
    prepare_task(_simple_frame(61), out, "y", "mae", name=out.name)
    for name in ("test.csv", "sample_submission.csv"):
        path = out / "public" / name
        df = pd.read_csv(path)
        df.loc[df.index[:5], "id"] = df["id"].iloc[5]
        df.to_csv(path, index=False)


def _rmspe(out: Path) -> None:
    """Daily takings of shops, some days zero (closed), scored by RMSPE (zero rows left out)."""
    rng = np.random.default_rng(62)
    n = 4000
    X = rng.normal(size=(n, 3))
    shop = rng.choice(["a", "b", "c", "d"], n)
    y = np.exp(7 + 0.5 * X[:, 0] + (shop == "a") * 0.4 + rng.normal(0, 0.2, n)).round(0)
    y[rng.random(n) < 0.05] = 0.0
    df = pd.DataFrame(X, columns=["promo", "temp", "rain"]).assign(shop=shop, takings=y)
    prepare_task(df, out, "takings", "rmspe", name=out.name)


def _pearson(out: Path) -> None:
    """A noisy return-like target scored by Pearson correlation (only the ordering and scale-free fit count)."""
    rng = np.random.default_rng(63)
    n = 4000
    X = rng.normal(size=(n, 8))
    y = 0.3 * X[:, 0] - 0.2 * X[:, 1] + 0.1 * X[:, 2] * X[:, 3] + rng.normal(0, 1, n)
    prepare_task(pd.DataFrame(X, columns=[f"s{i}" for i in range(8)]).assign(ret=y), out, "ret", "pearson",
                 name=out.name)  # fmt: skip


def _fbeta(out: Path) -> None:
    """10 % positives scored by F2 (recall weighs four times precision): the cut should sit low."""
    rng = np.random.default_rng(64)
    n = 4000
    X = rng.normal(size=(n, 5))
    logit = 1.5 * X[:, 0] + X[:, 1] - 3.0 + rng.normal(0, 0.8, n)
    df = pd.DataFrame(X, columns=[f"b{i}" for i in range(5)]).assign(fraud=(logit > 0).astype(int))
    prepare_task(df, out, "fraud", "fbeta", name=out.name)
    _set_metric_params(out, beta=2.0)  # the registry's fbeta is F0.5 unless told


def _set_metric_params(out: Path, **params: float) -> None:
    import yaml

    spec_path = out / "task.yaml"
    spec = yaml.safe_load(spec_path.read_text())
    spec["metric"]["params"] = params
    spec_path.write_text(yaml.safe_dump(spec, sort_keys=False))


def _median_ae(out: Path) -> None:
    """A target with heavy-tailed (Student t, 1.5 degrees) noise scored by the median absolute error."""
    rng = np.random.default_rng(65)
    df = _simple_frame(65)
    df["y"] = df["y"] + rng.standard_t(1.5, len(df)) * 2
    prepare_task(df, out, "y", "median_ae", name=out.name)


def _msle(out: Path) -> None:
    """A count target (visits), scored by mean squared log error."""
    rng = np.random.default_rng(66)
    n = 3000
    X = rng.normal(size=(n, 4))
    visits = rng.poisson(np.exp(1.5 + 0.6 * X[:, 0] - 0.4 * X[:, 1]))
    prepare_task(pd.DataFrame(X, columns=[f"p{i}" for i in range(4)]).assign(visits=visits), out, "visits",
                 "msle", name=out.name)  # fmt: skip


def _kendall_tau(out: Path) -> None:
    """A score to rank, Kendall's tau."""
    rng = np.random.default_rng(67)
    n = 2000
    X = rng.normal(size=(n, 4))
    y = np.tanh(X[:, 0]) + 0.5 * X[:, 1] ** 2 + rng.normal(0, 0.5, n)
    prepare_task(pd.DataFrame(X, columns=[f"t{i}" for i in range(4)]).assign(score=y), out, "score",
                 "kendall_tau", name=out.name)  # fmt: skip


def _integer_regression(out: Path) -> None:
    """An age in whole years (18-90, 73 values) scored by MAE: a number, not 73 classes."""
    rng = np.random.default_rng(68)
    n = 3000
    X = rng.normal(size=(n, 4))
    age = np.clip(np.rint(45 + 12 * X[:, 0] + 5 * X[:, 1] + rng.normal(0, 4, n)), 18, 90).astype(int)
    prepare_task(pd.DataFrame(X, columns=[f"m{i}" for i in range(4)]).assign(age=age), out, "age", "mae",
                 name=out.name)  # fmt: skip


def _sorted_by_target(out: Path) -> None:
    """The training file's rows sorted by the target (an export ordered by value); RMSE."""
    prepare_task(_simple_frame(69), out, "y", "rmse", name=out.name)
    path = out / "public" / "train.csv"
    pd.read_csv(path).sort_values("y").to_csv(path, index=False)


def _trailing_commas(out: Path) -> None:
    """Every line of the training and test files ends with a comma (an empty unnamed last field); accuracy.
    (A sample submission written so is refused before the run: its empty column would have to be filled.)"""
    df = _binary_frame(70)
    df["bought"] = df["bought"].map({0: "no", 1: "yes"})
    prepare_task(df, out, "bought", "accuracy", name=out.name)
    for f in ("train.csv", "test.csv"):
        path = out / "public" / f
        lines = path.read_text().splitlines()
        path.write_text("".join(f"{line},\n" for line in lines))


def _constant_and_empty(out: Path) -> None:
    """Beside the real features: an all-empty column, a constant one and an exact copy of a feature; RMSE."""
    df = _simple_frame(71)
    df.insert(2, "blank", np.nan)
    df.insert(3, "version", "v1")
    df.insert(4, "k0_copy", df["k0"])
    prepare_task(df, out, "y", "rmse", name=out.name)


def _lat_lon(out: Path) -> None:
    """House prices whose level follows the distance to two centres (latitude, longitude columns); RMSE."""
    rng = np.random.default_rng(72)
    n = 4000
    lat, lon = rng.uniform(40.0, 41.0, n), rng.uniform(-74.5, -73.5, n)
    d1 = np.hypot(lat - 40.7, lon - (-74.0))
    d2 = np.hypot(lat - 40.2, lon - (-73.7))
    rooms = rng.integers(1, 6, n)
    y = 5.0 - 4 * np.minimum(d1, d2) + 0.3 * rooms + rng.normal(0, 0.2, n)
    prepare_task(pd.DataFrame({"latitude": lat, "longitude": lon, "rooms": rooms, "price": y}), out, "price",
                 "rmse", name=out.name)  # fmt: skip


def _json_cells(out: Path) -> None:
    """A column of JSON lists of objects (genres as [{"id": 18, "name": "Drama"}, ...]), the revenue following
    the genres; RMSLE."""
    rng = np.random.default_rng(73)
    genres = {18: ("Drama", 0.0), 28: ("Action", 1.0), 35: ("Comedy", 0.3), 27: ("Horror", -0.5)}
    rows = []
    for _ in range(3000):
        picked = [int(g) for g in rng.choice(list(genres), int(rng.integers(1, 3)), replace=False)]
        budget = float(rng.gamma(2, 10))
        cells = [{"id": g, "name": genres[g][0]} for g in picked]
        rows.append({"genres": json.dumps(cells), "budget": round(budget, 1),
                     "revenue": round(budget * float(np.exp(sum(genres[g][1] for g in picked)
                                                            + rng.normal(0, 0.3))), 2)})  # fmt: skip
    prepare_task(pd.DataFrame(rows), out, "revenue", "rmsle", name=out.name)


def _one_feature(out: Path) -> None:
    """A single feature column (beside the id) with a curved effect; RMSE."""
    rng = np.random.default_rng(74)
    x = rng.uniform(-3, 3, 3000)
    prepare_task(pd.DataFrame({"x": x, "y": np.sin(2 * x) + rng.normal(0, 0.2, 3000)}), out, "y", "rmse",
                 name=out.name)  # fmt: skip


def _quote_all(out: Path) -> None:
    """Every field of every public file in double quotes, numbers too; macro F1."""
    import csv

    df = _binary_frame(75)
    prepare_task(df, out, "bought", "f1_macro", name=out.name)
    _rewrite_tables(out, lambda df, p: df.to_csv(p, index=False, quoting=csv.QUOTE_ALL),
                    ("train.csv", "test.csv", "sample_submission.csv"))  # fmt: skip


def _unseen_class(out: Path) -> None:
    """Log loss over four classes of which the training rows hold three: the sample submission and the
    answers name a fourth, rare one never seen in training."""
    rng = np.random.default_rng(76)
    n = 3000
    X = rng.normal(size=(n, 3))
    kind = np.array(["ant", "bee", "cat"])[np.argmax(X + rng.normal(0, 0.6, (n, 3)), axis=1)]
    prepare_task(pd.DataFrame(X, columns=["u0", "u1", "u2"]).assign(kind=kind), out, "kind", "log_loss",
                 name=out.name)  # fmt: skip
    answers = pd.read_csv(out / "private" / "answers.csv")
    sample_path = out / "public" / "sample_submission.csv"
    sample = pd.read_csv(sample_path)
    answers.loc[answers.index[:6], "kind"] = "dog"  # six test rows turn out to be the fourth class
    answers.to_csv(out / "private" / "answers.csv", index=False)
    sample[["ant", "bee", "cat", "dog"]] = 0.25
    sample.to_csv(sample_path, index=False)


def _side_lookup(out: Path) -> None:
    """Sales of shops whose level follows the shop's own attributes, kept in a side table (stores.csv, one row
    per shop); the test rows are new shops, so only the attributes carry over; RMSE."""
    rng = np.random.default_rng(77)
    shops = pd.DataFrame({"store": np.arange(300), "size_m2": rng.gamma(3, 200, 300).round(0),
                          "kind": rng.choice(["mall", "street", "outlet"], 300),
                          "staff": rng.integers(2, 40, 300)})  # fmt: skip
    n = 6000
    store = rng.integers(0, 300, n)
    promo = rng.integers(0, 2, n)
    s = shops.iloc[store]
    y = (np.log(s["size_m2"].to_numpy()) + (s["kind"].to_numpy() == "mall") * 0.8 + 0.02 * s["staff"].to_numpy()
         + 0.5 * promo + rng.normal(0, 0.3, n))  # fmt: skip
    df = pd.DataFrame({"store": store, "promo": promo, "weekday": rng.integers(0, 7, n), "sales": y})
    prepare_task(df, out, "sales", "rmse", name=out.name, group_col="store")
    shops.to_csv(out / "public" / "stores.csv", index=False)


def _side_many(out: Path) -> None:
    """Applicants with their past loans in a side table (bureau.csv, several rows per applicant, keyed by the
    applicant id): default follows the count and mean overdue days of those loans; ROC AUC."""
    rng = np.random.default_rng(78)
    n = 5000
    ids = np.arange(100_000, 100_000 + n)
    loans = rng.poisson(3, n)
    owner = np.repeat(ids, loans)
    overdue = rng.exponential(np.repeat(rng.gamma(2, 5, n), loans))
    bureau = pd.DataFrame({"applicant_id": owner, "overdue_days": overdue.round(1),
                           "amount": rng.gamma(2, 3000, len(owner)).round(0),
                           "status": rng.choice(["active", "closed"], len(owner))})  # fmt: skip
    mean_overdue = bureau.groupby("applicant_id")["overdue_days"].mean().reindex(ids).fillna(0).to_numpy()
    income = rng.gamma(3, 10000, n)
    logit = 0.12 * mean_overdue - 0.4 * loans + 0.3 * np.log(income / 30000) - 0.2 + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"applicant_id": ids, "income": income.round(0), "default": (logit > 0).astype(int)})
    prepare_task(df, out, "default", "roc_auc", id_col="applicant_id", name=out.name)
    bureau.to_csv(out / "public" / "bureau.csv", index=False)


def _side_two_keys(out: Path) -> None:
    """Weekly sales of departments of shops, the shop's local conditions of each week (a temperature, a
    price cut) in a side table keyed by shop and week together (features.csv); RMSE."""
    rng = np.random.default_rng(79)
    weeks = pd.date_range("2020-01-05", periods=60, freq="W").strftime("%Y-%m-%d")
    feats = pd.DataFrame([(s, w) for s in range(20) for w in weeks], columns=["store", "week"])
    feats["temperature"] = rng.normal(15, 8, len(feats)).round(1)
    feats["markdown"] = np.where(rng.random(len(feats)) < 0.3, rng.gamma(2, 500, len(feats)), 0.0).round(0)
    rows = feats.sample(n=len(feats) * 4, replace=True, random_state=79).reset_index(drop=True)
    rows["dept"] = rng.integers(1, 6, len(rows))
    y = (10 + 0.8 * rows["dept"] + 0.004 * rows["markdown"] - 0.15 * (rows["temperature"] - 15).abs()
         + rng.normal(0, 0.5, len(rows)))  # fmt: skip
    df = rows[["store", "week", "dept"]].assign(sales=y.round(3))
    prepare_task(df, out, "sales", "rmse", name=out.name)
    feats.to_csv(out / "public" / "features.csv", index=False)


def _span_extraction(out: Path) -> None:
    """Tweets with their sentiment; the words that carry it (a span of the tweet) to predict, scored by the
    word-level Jaccard score (Kaggle's tweet sentiment extraction)."""
    rng = np.random.default_rng(80)
    filler = ["i", "just", "got", "home", "today", "the", "bus", "was", "and", "then", "we", "went", "out"]
    moods = {
        "positive": ["love it", "so happy", "great day"],
        "negative": ["hate this", "so sad", "awful day"],
    }
    rows = []
    for _ in range(3000):
        mood = str(rng.choice(["positive", "negative", "neutral"]))
        words = list(rng.choice(filler, int(rng.integers(5, 12))))
        if mood == "neutral":
            span = " ".join(words)
        else:
            span = str(rng.choice(moods[mood]))
            at = int(rng.integers(0, len(words) + 1))
            words = [*words[:at], span, *words[at:]]
        rows.append({"text": " ".join(words), "sentiment": mood, "selected_text": span})
    prepare_task(pd.DataFrame(rows), out, "selected_text", "word_jaccard", name=out.name)


def _mcrmse_text(out: Path) -> None:
    """Essays scored on three scales (each from its own topic words), mean column-wise RMSE."""
    rng = np.random.default_rng(81)
    vocab = [f"w{i}" for i in range(300)]
    scales = {"cohesion": [f"link{i}" for i in range(10)], "syntax": [f"clause{i}" for i in range(10)],
              "vocabulary": [f"rare{i}" for i in range(10)]}  # fmt: skip
    rows = []
    for _ in range(2000):
        counts = {k: int(rng.integers(0, 10)) for k in scales}
        words = [*rng.choice(vocab, int(rng.integers(80, 200)))]
        for k, n in counts.items():
            words += list(rng.choice(scales[k], n))
        rng.shuffle(words)
        rows.append({"full_text": " ".join(words),
                     **{k: round(1 + 4 * n / 9 + float(rng.normal(0, 0.3)), 2) for k, n in counts.items()}})  # fmt: skip
    prepare_task(pd.DataFrame(rows), out, list(scales), "mean_columnwise_rmse", name=out.name)


def _classification_error(out: Path) -> None:
    """Three classes scored by the classification error (lower is better)."""
    rng = np.random.default_rng(82)
    n = 3000
    X = rng.normal(size=(n, 4))
    kind = np.array(["x", "y", "z"])[np.argmax(X[:, :3] + rng.normal(0, 0.6, (n, 3)), axis=1)]
    prepare_task(pd.DataFrame(X, columns=[f"e{i}" for i in range(4)]).assign(kind=kind), out, "kind",
                 "classification_error", name=out.name)  # fmt: skip


def _f1_weighted(out: Path) -> None:
    """Four classes of 55/25/15/5 %, scored by the support-weighted F1."""
    rng = np.random.default_rng(83)
    n = 4000
    X = rng.normal(size=(n, 5))
    shift = np.log([0.55, 0.25, 0.15, 0.05])
    kind = np.argmax(X[:, :4] + shift + rng.gumbel(0, 0.5, (n, 4)), axis=1)
    df = pd.DataFrame(X, columns=[f"w{i}" for i in range(5)]).assign(
        kind=np.array(["a", "b", "c", "d"])[kind]
    )
    prepare_task(df, out, "kind", "f1_weighted", name=out.name)


def _target_as_text(out: Path) -> None:
    """A price to predict written as text in the training file ("$1,234.50"), RMSE on the number."""
    df = _simple_frame(84)
    df["y"] = (df["y"] * 100 + 1500).round(2)
    prepare_task(df, out, "y", "rmse", name=out.name)
    path = out / "public" / "train.csv"
    train = pd.read_csv(path)
    train["y"] = train["y"].map(lambda v: f"${v:,.2f}")
    train.to_csv(path, index=False)


def _image_regression(out: Path) -> None:
    """Grey PNG images whose number to predict is the size of a bright square in them; RMSE."""
    from PIL import Image

    rng = np.random.default_rng(85)
    rows = []
    images = []
    for i in range(400):
        side = int(rng.integers(4, 28))
        img = rng.integers(0, 40, size=(32, 32)).astype(np.uint8)
        top, left = int(rng.integers(0, 33 - side)), int(rng.integers(0, 33 - side))
        img[top : top + side, left : left + side] = 230
        images.append((f"p{i:04d}.png", img))
        rows.append({"file": f"p{i:04d}.png", "side": side})
    prepare_task(pd.DataFrame(rows), out, "side", "rmse", name=out.name)
    (out / "public" / "pics").mkdir()
    for name, img in images:
        Image.fromarray(img).save(out / "public" / "pics" / name)


def _side_unjoinable(out: Path) -> None:
    """A side table keyed by something the rows do not hold (loan months keyed by a loan id), beside one that
    joins: the first is left out with its reason, the second joined; ROC AUC."""
    _side_many(out)
    rng = np.random.default_rng(86)
    pd.DataFrame({"loan_id": rng.integers(0, 10_000, 5000), "month": rng.integers(-12, 0, 5000),
                  "late": rng.integers(0, 2, 5000)}).to_csv(out / "public" / "loan_months.csv", index=False)  # fmt: skip


def _inf_values(out: Path) -> None:
    """A ratio column that is +inf or -inf on 5 % of the rows (a division by zero), as written by pandas
    ("inf", "-inf"); RMSE."""
    df = _simple_frame(87)
    rng = np.random.default_rng(87)
    df["ratio"] = df["k0"] / np.where(rng.random(len(df)) < 0.05, 0.0, 1.0 + rng.random(len(df)))
    prepare_task(df, out, "y", "rmse", name=out.name)


def _many_classes_200(out: Path) -> None:
    """200 classes over 12,000 rows, accuracy: a booster grows 200 trees a round."""
    rng = np.random.default_rng(88)
    n, k = 12_000, 200
    centres = rng.normal(0, 3, (k, 6))
    label = rng.integers(0, k, n)
    X = centres[label] + rng.normal(0, 1.0, (n, 6))
    df = pd.DataFrame(X, columns=[f"z{i}" for i in range(6)]).assign(label=[f"c{v:03d}" for v in label])
    prepare_task(df, out, "label", "accuracy", name=out.name)


def _side_in_folder(out: Path) -> None:
    """The side-lookup task with its side table in a folder (public/extra/stores.csv); RMSE."""
    _side_lookup(out)
    (out / "public" / "extra").mkdir()
    (out / "public" / "stores.csv").rename(out / "public" / "extra" / "stores.csv")


def _duplicate_column_names(out: Path) -> None:
    """Two columns with the same name in every table (pandas reads the second as 'k1.1'); RMSE."""
    prepare_task(_simple_frame(89), out, "y", "rmse", name=out.name)
    for name in ("train.csv", "test.csv"):
        path = out / "public" / name
        lines = path.read_text().splitlines()
        path.write_text("\n".join([lines[0].replace("k2", "k1"), *lines[1:]]) + "\n")


def _big_int_ids(out: Path) -> None:
    """Ids of 19 digits (tweet or order numbers, beyond a float's 15-16 exact digits); log loss."""
    df = _binary_frame(90)
    rng = np.random.default_rng(90)
    df.insert(0, "order_id", 10**18 + rng.choice(10**12, len(df), replace=False).astype(np.int64))
    prepare_task(df, out, "bought", "log_loss", id_col="order_id", name=out.name)


def _million_rows(out: Path) -> None:
    """A million rows of eight numbers and a category; RMSE (does the run keep to its budget?)."""
    rng = np.random.default_rng(91)
    n = 1_000_000
    X = rng.normal(size=(n, 8)).astype(np.float32)
    grade = rng.choice(["a", "b", "c", "d"], n)
    y = X[:, 0] * 2 - X[:, 1] + np.sin(X[:, 2] * 2) + (grade == "a") * 1.0 + rng.normal(0, 0.5, n)
    df = pd.DataFrame(X.round(4), columns=[f"m{i}" for i in range(8)]).assign(grade=grade, y=y.round(4))
    prepare_task(df, out, "y", "rmse", name=out.name)


def _huge_test(out: Path) -> None:
    """2,000 training rows and 300,000 test rows, 3 classes, accuracy (predicting is the long part)."""
    rng = np.random.default_rng(92)
    n = 302_000
    X = rng.normal(size=(n, 6))
    label = np.argmax(X[:, :3] + rng.normal(0, 0.5, (n, 3)), axis=1)
    df = pd.DataFrame(X.round(4), columns=[f"h{i}" for i in range(6)]).assign(kind=[f"t{v}" for v in label])
    prepare_task(df, out, "kind", "accuracy", test_size=300_000 / n, name=out.name)


def _extra_test_columns(out: Path) -> None:
    """The test file holds two columns the training file lacks (a batch note and a number); RMSE."""
    prepare_task(_simple_frame(93), out, "y", "rmse", name=out.name)
    rng = np.random.default_rng(93)
    path = out / "public" / "test.csv"
    test = pd.read_csv(path)
    test["batch_note"] = rng.choice(["late", "on time"], len(test))
    test["scanner_reading"] = rng.normal(size=len(test)).round(3)
    test.to_csv(path, index=False)


def _shuffled_columns(out: Path) -> None:
    """The test file's columns in another order than the training file's; MAE."""
    prepare_task(_simple_frame(94), out, "y", "mae", name=out.name)
    path = out / "public" / "test.csv"
    test = pd.read_csv(path)
    test[list(reversed(test.columns))].to_csv(path, index=False)


def _id_case(out: Path) -> None:
    """The sample submission names the id column 'Id' where the training and test files say 'id'; RMSE."""
    prepare_task(
        _simple_frame(95).rename_axis("id").reset_index(), out, "y", "rmse", id_col="id", name=out.name
    )
    path = out / "public" / "sample_submission.csv"
    pd.read_csv(path).rename(columns={"id": "Id"}).to_csv(path, index=False)
    answers = out / "private" / "answers.csv"
    pd.read_csv(answers).rename(columns={"id": "Id"}).to_csv(answers, index=False)
    meta = out / "task.yaml"
    meta.write_text(meta.read_text().replace("id_column: id\n", "id_column: Id\n"))


def _lag_panel(out: Path) -> None:
    """Forty meters whose daily level wanders (a random walk of its own), the test rows the last fifth of the
    days; RMSE: the meter's recent level is what carries over."""
    rng = np.random.default_rng(96)
    days = pd.date_range("2021-01-01", periods=200, freq="D")
    rows = []
    for m in range(40):
        level = 50 + np.cumsum(rng.normal(0, 1.5, len(days)))
        y = level + 3 * (days.dayofweek >= 5) + rng.normal(0, 1, len(days))
        rows.append(pd.DataFrame({"day": days.strftime("%Y-%m-%d"), "meter": f"m{m:02d}", "reading": y}))
    prepare_task(pd.concat(rows, ignore_index=True), out, "reading", "rmse", time_col="day", name=out.name)


def _nested_side(out: Path) -> None:
    """The side-many task whose loans carry their own monthly balances in a second table keyed by the loan
    (bureau.csv -> bureau_balance.csv, as Home Credit's); ROC AUC."""
    _side_many(out)
    rng = np.random.default_rng(97)
    path = out / "public" / "bureau.csv"
    bureau = pd.read_csv(path)
    bureau.insert(0, "loan_id", np.arange(len(bureau)) + 5_000_000)
    bureau.to_csv(path, index=False)
    months = rng.integers(1, 6, len(bureau))
    pd.DataFrame({"loan_id": np.repeat(bureau["loan_id"].to_numpy(), months),
                  "months_ago": np.concatenate([np.arange(1, k + 1) for k in months]),
                  "late": rng.integers(0, 2, months.sum())}).to_csv(out / "public" / "bureau_balance.csv",
                                                                    index=False)  # fmt: skip


def _url_text(out: Path) -> None:
    """A web address per row whose site and path words tell its topic (4 classes), accuracy."""
    rng = np.random.default_rng(98)
    sites = {"sport": ["espn.com", "goal.com"], "money": ["ft.com", "wsj.com"], "tech": ["wired.com", "verge.com"],
             "food": ["bonappetit.com", "eater.com"]}  # fmt: skip
    words = {"sport": ["match", "league", "score"], "money": ["stocks", "rates", "bank"],
             "tech": ["chips", "phone", "software"], "food": ["recipe", "pasta", "bake"]}  # fmt: skip
    rows = []
    for _ in range(3000):
        topic = rng.choice(list(sites))
        site = rng.choice(sites[topic] if rng.random() < 0.6 else sum(sites.values(), []))
        path = "-".join([*rng.choice(words[topic], 2), *rng.choice(sum(words.values(), []), 1)])
        rows.append({"url": f"https://www.{site}/{rng.integers(2015, 2024)}/{path}-{rng.integers(1000, 9999)}",
                     "topic": topic})  # fmt: skip
    prepare_task(pd.DataFrame(rows), out, "topic", "accuracy", name=out.name)


def _mixed_datetimes(out: Path) -> None:
    """A date column where some rows carry a time ('2021-03-04 17:30:00') and others not ('2021-03-04'),
    a trend over the days; RMSE."""
    rng = np.random.default_rng(99)
    n = 4000
    stamps = pd.Timestamp("2020-01-01") + pd.to_timedelta(rng.uniform(0, 700, n), unit="D")
    text = np.where(rng.random(n) < 0.5, stamps.strftime("%Y-%m-%d %H:%M:%S"), stamps.strftime("%Y-%m-%d"))
    x = rng.normal(size=n)
    y = 0.01 * (stamps - pd.Timestamp("2020-01-01")).days + x + rng.normal(0, 0.5, n)
    prepare_task(pd.DataFrame({"when": text, "x": x, "y": y}), out, "y", "rmse", name=out.name)


def _multilabel_text(out: Path) -> None:
    """Comments with three yes/no labels each (rude, threat, spam), ROC AUC averaged over the labels."""
    rng = np.random.default_rng(100)
    filler = ["the", "this", "is", "was", "you", "post", "about", "a", "really", "and", "thanks", "read"]
    marks = {"rude": ["idiot", "stupid", "dumb"], "threat": ["hurt", "destroy", "punch"],
             "spam": ["click", "free", "winner"]}  # fmt: skip
    rows = []
    for _ in range(4000):
        flags = {k: int(rng.random() < 0.15) for k in marks}
        toks = list(rng.choice(filler, 8))
        for k, on in flags.items():
            if on or rng.random() < 0.03:
                toks += list(rng.choice(marks[k], 1))
        rng.shuffle(toks)
        rows.append({"comment": " ".join(toks), **flags})
    prepare_task(pd.DataFrame(rows), out, list(marks), "roc_auc", name=out.name)


def _extrapolation(out: Path) -> None:
    """Flats whose price follows the floor area in a straight line; the test flats are larger than any in the
    training rows (the split is on the area); RMSE: trees cannot follow the line beyond what they saw."""
    rng = np.random.default_rng(101)
    n = 3000
    area = rng.uniform(20, 200, n)
    rooms = np.clip((area / 30).round() + rng.integers(-1, 2, n), 1, None)
    y = 3.0 * area + 10 * rooms + rng.normal(0, 15, n)
    df = pd.DataFrame({"area_m2": area.round(1), "rooms": rooms, "price": y})
    prepare_task(df, out, "price", "rmse", time_col="area_m2", name=out.name)


def _yes_no_features(out: Path) -> None:
    """Flags written 'Y'/'N', 'yes'/'no' and 'True'/'False' beside numbers; ROC AUC."""
    df = _binary_frame(102)
    rng = np.random.default_rng(102)
    own = rng.random(len(df)) < 0.5
    df["owns_home"] = np.where(own, "Y", "N")
    df["newsletter"] = np.where(rng.random(len(df)) < 0.3, "yes", "no")
    df["is_member"] = np.where(rng.random(len(df)) < 0.5, "True", "False")
    flip = own & (rng.random(len(df)) < 0.3)
    df.loc[flip, "bought"] = 1 - df.loc[flip, "bought"]
    prepare_task(df, out, "bought", "roc_auc", name=out.name)


def _int_coded_category(out: Path) -> None:
    """A product code (300 numbers with no order) whose own level moves the target, shared by the test rows;
    RMSE."""
    rng = np.random.default_rng(103)
    n = 20_000
    code = rng.choice(rng.choice(90_000, 300, replace=False) + 10_000, n)
    effect = dict(zip(np.unique(code), rng.normal(0, 2, 300), strict=False))
    x = rng.normal(size=(n, 3))
    y = np.vectorize(effect.get)(code) + x[:, 0] + rng.normal(0, 0.7, n)
    df = pd.DataFrame(x.round(4), columns=["u0", "u1", "u2"]).assign(product_code=code, y=y)
    prepare_task(df, out, "y", "rmse", name=out.name)


def _nested_balance(out: Path) -> None:
    """Applicants whose default follows how often their past loans were paid late, recorded month by month
    in a table keyed by the loan (bureau_balance.csv) beside the loans (bureau.csv, keyed by applicant);
    ROC AUC."""
    rng = np.random.default_rng(104)
    n = 4000
    ids = np.arange(200_000, 200_000 + n)
    count = rng.integers(1, 5, n)
    bureau = pd.DataFrame({"loan_id": np.arange(count.sum()) + 7_000_000, "applicant_id": np.repeat(ids, count),
                           "amount": rng.gamma(2, 3000, count.sum()).round(0)})  # fmt: skip
    risk = rng.beta(1, 4, n)
    months = rng.integers(3, 13, len(bureau))
    late = rng.random(months.sum()) < np.repeat(np.repeat(risk, count), months)
    balance = pd.DataFrame({"loan_id": np.repeat(bureau["loan_id"].to_numpy(), months),
                            "months_ago": np.concatenate([np.arange(1, k + 1) for k in months]),
                            "status": np.where(late, "late", "paid")})  # fmt: skip
    income = rng.gamma(3, 10000, n)
    logit = 8 * risk - 0.3 * np.log(income / 30000) - 1.6 + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"applicant_id": ids, "income": income.round(0), "default": (logit > 0).astype(int)})
    prepare_task(df, out, "default", "roc_auc", id_col="applicant_id", name=out.name)
    bureau.to_csv(out / "public" / "bureau.csv", index=False)
    balance.to_csv(out / "public" / "bureau_balance.csv", index=False)


def _nested_lookup(out: Path) -> None:
    """Card holders' loyalty follows the share of their purchases made at merchants of one category, the
    category kept in merchants.csv (one row per merchant) beside the purchases (purchases.csv, keyed by
    card); RMSE."""
    rng = np.random.default_rng(105)
    n, m = 5000, 800
    merchants = pd.DataFrame({"merchant_id": [f"M_{i:05d}" for i in range(m)],
                              "category": rng.choice(["grocery", "fuel", "luxury", "travel"], m, p=[.4, .3, .15, .15]),
                              "city": rng.integers(1, 30, m)})  # fmt: skip
    cards = [f"C_{i:06d}" for i in range(n)]
    count = rng.integers(3, 20, n)
    taste = rng.beta(1, 3, n)
    luxury = merchants.index[merchants["category"] == "luxury"].to_numpy()
    other = merchants.index[merchants["category"] != "luxury"].to_numpy()
    picks = np.where(rng.random(count.sum()) < np.repeat(taste, count), rng.choice(luxury, count.sum()),
                     rng.choice(other, count.sum()))  # fmt: skip
    purchases = pd.DataFrame({"card_id": np.repeat(cards, count), "merchant_id": merchants["merchant_id"].to_numpy()[picks],
                              "amount": rng.gamma(2, 30, count.sum()).round(2)})  # fmt: skip
    share = (
        purchases.assign(lux=merchants["category"].to_numpy()[picks] == "luxury")
        .groupby("card_id")["lux"]
        .mean()
    )
    df = pd.DataFrame({"card_id": cards, "tenure": rng.integers(1, 60, n)})
    df["loyalty"] = 4 * share.reindex(cards).to_numpy() + 0.01 * df["tenure"] + rng.normal(0, 0.3, n)
    prepare_task(df, out, "loyalty", "rmse", id_col="card_id", name=out.name)
    purchases.to_csv(out / "public" / "purchases.csv", index=False)
    merchants.to_csv(out / "public" / "merchants.csv", index=False)


def _otto_like(out: Path) -> None:
    """93 count columns, mostly zero, and 9 product classes (the layout of Otto's product table); log loss."""
    rng = np.random.default_rng(106)
    n, k = 15_000, 9
    label = rng.integers(0, k, n)
    rates = rng.gamma(0.3, 1.0, (k, 93))
    X = rng.poisson(rates[label])
    df = pd.DataFrame(X, columns=[f"feat_{i + 1}" for i in range(93)]).assign(
        target=[f"Class_{v + 1}" for v in label]
    )
    prepare_task(df, out, "target", "log_loss", name=out.name)


def _sample_subset(out: Path) -> None:
    """The test file holds a fifth more rows than are scored: the sample submission (and the answers) list
    only the scored ids; RMSE."""
    prepare_task(_simple_frame(107), out, "y", "rmse", name=out.name)
    rng = np.random.default_rng(107)
    sample_path, answers_path = out / "public" / "sample_submission.csv", out / "private" / "answers.csv"
    sample, answers = pd.read_csv(sample_path), pd.read_csv(answers_path)
    keep = rng.random(len(sample)) < 0.8
    sample[keep].to_csv(sample_path, index=False)
    answers[answers["id"].isin(sample.loc[keep, "id"])].to_csv(answers_path, index=False)


def _header_whitespace(out: Path) -> None:
    """Column names with spaces around them (' age', 'income ') in the training and test files; MAE."""
    prepare_task(_simple_frame(108), out, "y", "mae", name=out.name)
    for name in ("train.csv", "test.csv"):
        path = out / "public" / name
        lines = path.read_text().splitlines()
        path.write_text(
            "\n".join([lines[0].replace("k0", " k0").replace("colour", "colour "), *lines[1:]]) + "\n"
        )


def _test_column_empty(out: Path) -> None:
    """A strong column whose every test value is missing (the sensor failed after the training period), a
    weaker one that stays; RMSE: a model leaning on the first predicts the test rows from its gap."""
    rng = np.random.default_rng(109)
    n = 3000
    x = rng.normal(size=(n, 3))
    strong = x[:, 0] + rng.normal(0, 0.1, n)
    df = pd.DataFrame({"sensor_a": strong.round(4), "b": x[:, 1], "c": x[:, 2],
                       "y": 2 * x[:, 0] + x[:, 1] + rng.normal(0, 0.5, n)})  # fmt: skip
    df["proxy"] = (x[:, 0] + rng.normal(0, 0.6, n)).round(4)
    prepare_task(df, out, "y", "rmse", name=out.name)
    path = out / "public" / "test.csv"
    test = pd.read_csv(path)
    test["sensor_a"] = np.nan
    test.to_csv(path, index=False)


def _float_ids(out: Path) -> None:
    """The test file writes its ids as 12.0 (pandas wrote it from a column with a gap), the sample as 12;
    ROC AUC."""
    df = _binary_frame(110)
    prepare_task(df, out, "bought", "roc_auc", name=out.name)
    path = out / "public" / "test.csv"
    test = pd.read_csv(path)
    test["id"] = test["id"].astype(float)
    test.to_csv(path, index=False)


def _very_long_text(out: Path) -> None:
    """1,500 documents of 1,500-2,500 words in three topics; macro F1."""
    rng = np.random.default_rng(111)
    common = [f"w{i}" for i in range(3000)]
    topic_words = {t: [f"{t}{i}" for i in range(40)] for t in ("law", "med", "bio")}
    rows = []
    for _ in range(1500):
        t = rng.choice(list(topic_words))
        n = rng.integers(1500, 2500)
        words = np.where(rng.random(n) < 0.03, rng.choice(topic_words[t], n), rng.choice(common, n))
        rows.append({"document": " ".join(words), "field": t})
    prepare_task(pd.DataFrame(rows), out, "field", "f1_macro", name=out.name)


def _unseen_levels(out: Path) -> None:
    """A product category whose test rows are half levels the training rows never show, beside a price that
    carries over; RMSE."""
    rng = np.random.default_rng(112)
    n = 4000
    price = rng.gamma(3, 10, n)
    level = rng.integers(0, 60, n)
    effect = rng.normal(0, 1, 60)
    df = pd.DataFrame({"price": price.round(2), "category": [f"cat{v}" for v in level],
                       "y": 0.05 * price + effect[level] + rng.normal(0, 0.5, n)})  # fmt: skip
    prepare_task(df, out, "y", "rmse", group_col="category", name=out.name)


def _named_days(out: Path) -> None:
    """Weekday and month names as words ('Monday', 'Jan') with a weekend and a season effect; MAE."""
    rng = np.random.default_rng(113)
    n = 4000
    day = rng.integers(0, 7, n)
    month = rng.integers(0, 12, n)
    names = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    x = rng.normal(size=n)
    y = 3 * (day >= 5) + 2 * np.sin(2 * np.pi * month / 12) + x + rng.normal(0, 0.5, n)
    df = pd.DataFrame(
        {"weekday": np.array(names)[day], "month": np.array(months)[month], "x": x, "visits": y}
    )
    prepare_task(df, out, "visits", "mae", name=out.name)


def _signed_classes(out: Path) -> None:
    """Three classes labelled -1, 0 and 1 (down, flat, up), a probability column for each; log loss."""
    rng = np.random.default_rng(114)
    n = 4000
    X = rng.normal(size=(n, 4))
    score = X[:, 0] - 0.5 * X[:, 1] + rng.normal(0, 0.6, n)
    df = pd.DataFrame(X, columns=[f"s{i}" for i in range(4)]).assign(move=np.digitize(score, [-0.5, 0.5]) - 1)
    prepare_task(df, out, "move", "log_loss", name=out.name)


def _date_only(out: Path) -> None:
    """A daily count with only the date to go by (a weekly and a yearly cycle, a trend), random days held
    out; RMSE."""
    rng = np.random.default_rng(115)
    days = pd.date_range("2018-01-01", periods=1500, freq="D")
    t = np.arange(len(days))
    y = (
        100
        + 0.02 * t
        + 15 * (days.dayofweek >= 5)
        + 10 * np.sin(2 * np.pi * t / 365.25)
        + rng.normal(0, 3, len(t))
    )
    prepare_task(
        pd.DataFrame({"date": days.strftime("%Y-%m-%d"), "count": y}), out, "count", "rmse", name=out.name
    )


def _tiny_test(out: Path) -> None:
    """3,000 training rows and 12 test rows; MAE."""
    prepare_task(_simple_frame(116, 3012), out, "y", "mae", test_size=12 / 3012, name=out.name)


def _rare_class_logloss(out: Path) -> None:
    """Five classes, one of them 0.5 % of the rows (a few dozen); log loss."""
    rng = np.random.default_rng(117)
    n = 8000
    label = rng.choice(5, n, p=[0.4, 0.3, 0.2, 0.095, 0.005])
    X = rng.normal(size=(n, 6)) + np.eye(5, 6)[label] * 1.5
    df = pd.DataFrame(X, columns=[f"r{i}" for i in range(6)]).assign(grade=[f"g{v}" for v in label])
    prepare_task(df, out, "grade", "log_loss", name=out.name)


def _emoji_text(out: Path) -> None:
    """Short posts whose sentiment is carried by emoji more than by words; ROC AUC."""
    rng = np.random.default_rng(118)
    words = ["today", "the", "game", "was", "just", "my", "day", "lunch", "train", "so", "really", "this"]
    happy, angry = ["😀", "😍", "🎉", "👍"], ["😡", "😞", "👎", "💔"]
    rows = []
    for _ in range(3000):
        pos = rng.random() < 0.5
        toks = list(rng.choice(words, rng.integers(4, 9)))
        marks = rng.choice(happy if (pos if rng.random() < 0.9 else not pos) else angry, rng.integers(1, 3))
        toks += list(marks)
        rng.shuffle(toks)
        rows.append({"post": " ".join(toks), "positive": int(pos)})
    prepare_task(pd.DataFrame(rows), out, "positive", "roc_auc", name=out.name)


def _numbers_with_units(out: Path) -> None:
    """Used cars with '18.9 kmpl', '1248 CC' and '74 bhp' columns (numbers written with their unit); price
    follows the power and the mileage; RMSE."""
    rng = np.random.default_rng(119)
    n = 4000
    power = rng.gamma(6, 15, n)
    mileage = rng.uniform(10, 28, n)
    engine = (power * 14 + rng.normal(0, 150, n)).clip(600)
    km = rng.integers(5_000, 200_000, n)
    price = 0.05 * power + 0.1 * mileage - 0.00002 * km + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"Mileage": [f"{v:.1f} kmpl" for v in mileage], "Engine": [f"{v:.0f} CC" for v in engine],
                       "Power": [f"{v:.2f} bhp" for v in power], "Kilometers_Driven": km, "Price": price})  # fmt: skip
    prepare_task(df, out, "Price", "rmse", name=out.name)


def _two_train_files(out: Path) -> None:
    """The training rows in two files (train_part1.csv, train_part2.csv), listed in task.yaml; RMSE."""
    prepare_task(_simple_frame(120), out, "y", "rmse", name=out.name)
    _split_in_two(out, "train")


def _split_in_two(out: Path, role: str) -> None:
    """The task's `role` table (train or test) as two files, <role>_part1.csv and <role>_part2.csv, listed
    in task.yaml."""
    path = out / "public" / f"{role}.csv"
    rows = pd.read_csv(path)
    half = len(rows) // 2
    rows.iloc[:half].to_csv(out / "public" / f"{role}_part1.csv", index=False)
    rows.iloc[half:].to_csv(out / "public" / f"{role}_part2.csv", index=False)
    path.unlink()
    meta = out / "task.yaml"
    meta.write_text(meta.read_text() + f"{role}_files: [{role}_part1.csv, {role}_part2.csv]\n")


def _id_named_index(out: Path) -> None:
    """The id column is named 'index' in every file; 3 classes, micro F1."""
    rng = np.random.default_rng(121)
    n = 3000
    X = rng.normal(size=(n, 4))
    label = np.argmax(X[:, :3] + rng.normal(0, 0.7, (n, 3)), axis=1)
    df = pd.DataFrame(X, columns=[f"q{i}" for i in range(4)]).assign(kind=[f"k{v}" for v in label])
    df.insert(0, "index", np.arange(n) + 10)
    prepare_task(df, out, "kind", "f1_micro", id_col="index", name=out.name)


def _sample_header_spaces(out: Path) -> None:
    """The sample submission's header has a space after its comma ('id, y'), as some spreadsheets write it;
    RMSE."""
    prepare_task(_simple_frame(122), out, "y", "rmse", name=out.name)
    path = out / "public" / "sample_submission.csv"
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0].replace(",", ", "), *lines[1:]]) + "\n")


def _empty_rows(out: Path) -> None:
    """A spreadsheet's export: the training file ends with 40 lines of bare commas; MAE."""
    prepare_task(_simple_frame(123), out, "y", "mae", name=out.name)
    path = out / "public" / "train.csv"
    width = path.read_text().splitlines()[0].count(",")
    with path.open("a") as f:
        f.write(("," * width + "\n") * 40)


def _html_text(out: Path) -> None:
    """Reviews with HTML in them ('<br />', '<b>'), the words inside carrying the rating; RMSE."""
    rng = np.random.default_rng(124)
    good, bad = ["superb", "loved", "brilliant", "moving"], ["dull", "awful", "boring", "mess"]
    filler = ["the", "film", "was", "and", "a", "plot", "acting", "it", "story", "really"]
    rows = []
    for _ in range(3000):
        score = rng.integers(1, 11)
        toks = list(rng.choice(filler, 10)) + list(
            rng.choice(good if score > 5 else bad, 1 + abs(score - 5) // 2)
        )
        rng.shuffle(toks)
        text = " ".join(f"<b>{t}</b>" if rng.random() < 0.1 else t for t in toks)
        rows.append({"review": text.replace(" and ", " <br /><br /> and "), "rating": float(score)})
    prepare_task(pd.DataFrame(rows), out, "rating", "rmse", name=out.name)


def _identity_split(out: Path) -> None:
    """Card payments in train_transaction.csv / test_transaction.csv, device details for about a third of them
    in train_identity.csv / test_identity.csv keyed by TransactionID, the test file naming its columns id-01
    where the training file says id_01 (IEEE-CIS Fraud Detection's layout); task.yaml lists no files; ROC
    AUC."""
    rng = np.random.default_rng(124)
    n = 8000
    ids = np.arange(2_987_000, 2_987_000 + n)
    amount = rng.gamma(2, 50, n).round(2)
    has = rng.random(n) < 0.35
    score = rng.normal(size=n)
    device = np.where(rng.random(n) < 0.5, "mobile", "desktop")
    logit = (0.5 * np.log(amount / 100) + np.where(has, 2.5 * score + (device == "mobile"), 0) - 1.5
             + rng.normal(0, 0.5, n))  # fmt: skip
    df = pd.DataFrame({"TransactionID": ids, "TransactionAmt": amount,
                       "card4": rng.choice(["visa", "mastercard", "discover", "amex"], n, p=[.6, .3, .05, .05]),
                       "isFraud": (logit > 0).astype(int)})  # fmt: skip
    prepare_task(df, out, "isFraud", "roc_auc", id_col="TransactionID", name=out.name)
    pub = out / "public"
    identity = pd.DataFrame({"TransactionID": ids[has], "id_01": score[has].round(3),
                             "id_02": rng.integers(1, 100_000, has.sum()), "DeviceType": device[has]})  # fmt: skip
    for part in ("train", "test"):
        rows = pd.read_csv(pub / f"{part}.csv")
        rows.to_csv(pub / f"{part}_transaction.csv", index=False)
        (pub / f"{part}.csv").unlink()
        mine = identity[identity["TransactionID"].isin(rows["TransactionID"])]
        if part == "test":
            mine = mine.rename(columns={"id_01": "id-01", "id_02": "id-02"})
        mine.to_csv(pub / f"{part}_identity.csv", index=False)


def _two_test_files(out: Path) -> None:
    """The test rows in two files (test_part1.csv, test_part2.csv) listed in task.yaml; MAE."""
    prepare_task(_simple_frame(125), out, "y", "mae", name=out.name)
    _split_in_two(out, "test")


def _yyyymmdd_dates(out: Path) -> None:
    """Daily visits of eight shops with a trend and busier weekends, the date written as a number 20210304;
    the test rows the last fifth of the days; RMSE."""
    rng = np.random.default_rng(126)
    days = pd.date_range("2019-01-01", periods=900, freq="D")
    n = 7000
    d = rng.integers(0, len(days), n)
    shop = rng.integers(0, 8, n)
    level = rng.uniform(20, 60, 8)
    y = level[shop] + 0.02 * d + 8 * (days[d].dayofweek >= 5) + rng.normal(0, 2, n)
    df = pd.DataFrame({"date": days[d].strftime("%Y%m%d").astype(int), "shop": [f"s{v}" for v in shop],
                       "visits": y.round(1)})  # fmt: skip
    prepare_task(df, out, "visits", "rmse", time_col="date", name=out.name)


def _category_path(out: Path) -> None:
    """Second-hand prices by a category written as a path ('Women/Tops/Blouse', 150 leaves, most rare), the
    price set by its first two levels, and a brand often missing (Mercari's layout); RMSLE."""
    rng = np.random.default_rng(127)
    n = 6000
    tops = {"Women": 1.0, "Men": 0.8, "Electronics": 1.8, "Home": 0.6, "Kids": 0.3}
    paths, value = [], []
    for top, base in tops.items():
        for j in range(6):
            for k in range(5):
                paths.append(f"{top}/{top[:3]}Sub{j}/Leaf{j}{k}")
                value.append(base + 0.25 * j)
    pick = rng.integers(0, len(paths), n)
    brand = np.where(rng.random(n) < 0.5, "", rng.choice([f"brand{i}" for i in range(40)], n))
    price = np.exp(2.5 + np.array(value)[pick] + (brand != "") * 0.3 + rng.normal(0, 0.3, n))
    df = pd.DataFrame({"category_name": np.array(paths)[pick], "brand_name": brand,
                       "item_condition_id": rng.integers(1, 6, n), "price": price.round(0)})  # fmt: skip
    prepare_task(df, out, "price", "rmsle", name=out.name)


def _events_per_id(out: Path) -> None:
    """Objects observed many times (training_set.csv: object_id, time, band, flux) with their class in
    training_set_metadata.csv beside a few columns of their own; the test objects the same way (test_set.csv,
    test_set_metadata.csv); the class shows in how much the flux varies (PLAsTiCC's layout); log loss."""
    rng = np.random.default_rng(128)
    n = 2000
    ids = np.arange(615, 615 + n) * 7
    kind = rng.integers(0, 3, n)
    spread = np.array([0.5, 2.0, 5.0])[kind]
    count = rng.integers(20, 60, n)
    events = pd.DataFrame({"object_id": np.repeat(ids, count), "mjd": rng.uniform(59580, 60580, count.sum()).round(3),
                           "passband": rng.integers(0, 6, count.sum()),
                           "flux": rng.normal(0, np.repeat(spread, count))})  # fmt: skip
    meta = pd.DataFrame({"object_id": ids, "ra": rng.uniform(0, 360, n).round(4),
                         "hostgal_photoz": rng.gamma(2, 0.2, n).round(4),
                         "target": np.array([6, 42, 90])[kind]})  # fmt: skip
    prepare_task(meta, out, "target", "log_loss", id_col="object_id", name=out.name)
    pub = out / "public"
    for part, stem in (("train", "training_set"), ("test", "test_set")):
        rows = pd.read_csv(pub / f"{part}.csv")
        rows.to_csv(pub / f"{stem}_metadata.csv", index=False)
        (pub / f"{part}.csv").unlink()
        events[events["object_id"].isin(rows["object_id"])].to_csv(pub / f"{stem}.csv", index=False)


def _null_strings(out: Path) -> None:
    """Numeric columns whose gaps are written 'NULL', 'None', 'n/a' and '-' (a database export), a category
    whose gaps say 'NULL'; RMSE."""
    df = _simple_frame(129)
    rng = np.random.default_rng(129)
    for col in ("k0", "k1", "k2"):
        gaps = rng.random(len(df)) < 0.1
        df[col] = df[col].round(4).astype(object)
        df.loc[gaps, col] = rng.choice(["NULL", "None", "n/a", "-"], gaps.sum())
    df.loc[rng.random(len(df)) < 0.1, "colour"] = "NULL"
    prepare_task(df, out, "y", "rmse", name=out.name)


def _unlabelled_rows(out: Path) -> None:
    """A sixth of the training rows carry no label (the class left empty), 4 classes, log loss."""
    rng = np.random.default_rng(130)
    prepare_task(_four_classes(rng, ["A", "B", "C", "D"], "grade"), out, "grade", "log_loss", name=out.name)
    path = out / "public" / "train.csv"
    train = pd.read_csv(path)
    train.loc[rng.random(len(train)) < 1 / 6, "grade"] = np.nan
    train.to_csv(path, index=False)


def _yyyymm_months(out: Path) -> None:
    """Monthly sales of 30 shops over six years, the month written as a number 201903 (the column named
    'month'), a trend and a December peak; the test rows the last fifth of the months; RMSE."""
    rng = np.random.default_rng(131)
    months = pd.period_range("2016-01", periods=72, freq="M")
    shop = np.repeat(np.arange(30), 72)
    m = np.tile(np.arange(72), 30)
    level = rng.uniform(50, 150, 30)
    y = level[shop] + 0.8 * m + 25 * (months[m].month == 12) + rng.normal(0, 4, len(m))
    df = pd.DataFrame({"month": months[m].strftime("%Y%m").astype(int), "shop": [f"shop{v}" for v in shop],
                       "sales": y.round(1)})  # fmt: skip
    prepare_task(df, out, "sales", "rmse", time_col="month", name=out.name)


def _image_class_folders(out: Path) -> None:
    """Plant Seedlings Classification's layout: the training images in a folder per class (train/<class>/
    *.png), the test images in test/, no training table; the sample names each test file and its class;
    three shapes told apart by colour and position, accuracy."""
    from PIL import Image

    rng = np.random.default_rng(132)
    labels = ["Charlock", "Cleavers", "Maize"]
    pub, priv = out / "public", out / "private"
    rows = []
    for i in range(420):
        label = labels[i % 3]
        img = rng.integers(0, 60, size=(32, 32, 3)).astype(np.uint8)
        channel = labels.index(label)
        img[8:24, 8:24, channel] = 220
        name = f"{i:05d}.png"
        test = i % 5 == 0
        folder = pub / "test" if test else pub / "train" / label
        folder.mkdir(parents=True, exist_ok=True)
        Image.fromarray(img).save(folder / name)
        if test:
            rows.append({"file": name, "species": label})
    answers = pd.DataFrame(rows)
    priv.mkdir(parents=True, exist_ok=True)
    answers.to_csv(priv / "answers.csv", index=False)
    answers.assign(species=labels[0]).to_csv(pub / "sample_submission.csv", index=False)
    (out / "description.md").write_text("# Seedlings\n\nName the species of each test image.\n")
    (out / "task.yaml").write_text(f"name: {out.name}\nmetric:\n  name: accuracy\nid_column: file\n"
                                   "target_columns: [species]\nproblem_type: multiclass\n")  # fmt: skip


def _ingredients_json(out: Path) -> None:
    """What's Cooking's layout: train.json and test.json as one JSON array of recipes, each with a list of
    ingredients; the cuisine follows the ingredients; accuracy."""
    rng = np.random.default_rng(133)
    cuisines = {"italian": ["basil", "parmesan", "olive oil", "tomato"], "mexican": ["cumin", "tortilla",
                "jalapeno", "lime"], "indian": ["garam masala", "turmeric", "ghee", "cumin"]}  # fmt: skip
    common = ["salt", "onion", "garlic", "water", "pepper"]
    rows = []
    for i in range(2400):
        cuisine = list(cuisines)[int(rng.integers(0, 3))]
        own = list(rng.choice(cuisines[cuisine], int(rng.integers(1, 3)), replace=False))
        rows.append({"id": 10_000 + i, "cuisine": cuisine,
                     "ingredients": "|".join(own + list(rng.choice(common, int(rng.integers(2, 5)), replace=False)))})  # fmt: skip
    prepare_task(pd.DataFrame(rows), out, "cuisine", "accuracy", id_col="id", name=out.name)
    pub = out / "public"
    for part in ("train", "test"):
        frame = pd.read_csv(pub / f"{part}.csv")
        frame["ingredients"] = frame["ingredients"].str.split("|")
        (pub / f"{part}.json").write_text(frame.to_json(orient="records"))
        (pub / f"{part}.csv").unlink()


def _multiline_text(out: Path) -> None:
    """Reviews whose quoted text runs over several lines (line breaks inside the field), the score following
    their words; RMSE."""
    rng = np.random.default_rng(134)
    good, bad = ["lovely", "great", "fresh", "friendly"], ["cold", "rude", "slow", "dirty"]
    rows = []
    for _ in range(3000):
        g, b = int(rng.integers(0, 4)), int(rng.integers(0, 4))
        words = list(rng.choice(good, g)) + list(rng.choice(bad, b)) + ["the", "food", "was", "ok"]
        rng.shuffle(words)
        text = " ".join(words[: len(words) // 2]) + "\n\n" + " ".join(words[len(words) // 2 :])
        rows.append({"review": text, "stars": 3 + 0.5 * g - 0.5 * b + rng.normal(0, 0.3)})
    prepare_task(pd.DataFrame(rows), out, "stars", "rmse", name=out.name)


def _mcc_edible(out: Path) -> None:
    """Playground S4E8's mushrooms: single-letter codes in eight columns, a fifth of some empty, two sizes;
    edible 'e' or poisonous 'p' follows the smell code and the cap size; Matthews correlation."""
    rng = np.random.default_rng(135)
    n = 4000
    letters = list("abcfgklnopswxy")
    df = pd.DataFrame({f"c{j}": rng.choice(letters[: 4 + j], n) for j in range(8)})
    df = df.rename(columns={"c0": "odor", "c1": "cap-shape", "c2": "gill-color", "c3": "ring-type"})
    for col in ("gill-color", "ring-type", "c6"):
        df.loc[rng.random(n) < 0.2, col] = np.nan
    df["cap-diameter"] = rng.gamma(4, 2, n).round(2)
    df["stem-height"] = rng.gamma(3, 2, n).round(2)
    risk = (df["odor"].isin(["a", "c"])).astype(float) * 2 + (df["cap-diameter"] > 9) - 1.2
    df["class"] = np.where(risk + rng.normal(0, 0.6, n) > 0, "p", "e")
    prepare_task(df, out, "class", "mcc", name=out.name)


def _smape_sales(out: Path) -> None:
    """Store Item Demand's shape: daily units of 5 items in 3 stores over 600 days, a weekly cycle and a
    trend, some days at zero; the last fifth of the days to predict; SMAPE (0/0 counts as 0)."""
    rng = np.random.default_rng(136)
    days = pd.date_range("2016-01-01", periods=600, freq="D")
    rows = []
    for store in range(1, 4):
        for item in range(1, 6):
            base = rng.uniform(2, 20)
            t = np.arange(len(days))
            mean = base * (1 + 0.3 * (days.dayofweek >= 5)) * (1 + t / 1500)
            sales = rng.poisson(mean)
            rows.append(pd.DataFrame({"date": days.strftime("%Y-%m-%d"), "store": store, "item": item,
                                      "sales": sales}))  # fmt: skip
    df = pd.concat(rows, ignore_index=True)
    prepare_task(df, out, "sales", "smape", time_col="date", name=out.name)


def _balanced_accuracy(out: Path) -> None:
    """Five classes in shares 60/25/10/4/1 %, ten numbers; balanced accuracy (each class's recall counts
    the same, so the rare classes matter as much as the common one)."""
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=3000, n_features=10, n_informative=6, n_classes=5,
                               weights=[0.6, 0.25, 0.1, 0.04, 0.01], class_sep=1.2, random_state=137)  # fmt: skip
    df = pd.DataFrame(X.round(4), columns=[f"f{i}" for i in range(10)])
    df["grade"] = np.array(["A", "B", "C", "D", "E"])[y]
    prepare_task(df, out, "grade", "balanced_accuracy", name=out.name)


def _hashed_categories(out: Path) -> None:
    """Avazu's click logs: twelve columns of 8-character hex hashes from pools of 5 to 3,000 values, the hour
    written YYMMDDHH (14102100), 17 % clicks following a few hashes; log loss."""
    rng = np.random.default_rng(138)
    n = 20000
    df = pd.DataFrame({"id": rng.choice(10**15, n, replace=False).astype(str)})
    hours = pd.date_range("2014-10-21", periods=240, freq="h")
    df["hour"] = hours[rng.integers(0, 240, n)].strftime("%y%m%d%H").astype(int)
    logit = np.full(n, -2.0)
    for j, size in enumerate([5, 7, 20, 50, 100, 300, 800, 1500, 3000, 10, 30, 200]):
        pool = np.array([f"{v:08x}" for v in rng.integers(0, 2**32, size)])
        pick = rng.zipf(1.6, n) % size
        df[f"h{j}" if j > 2 else ["site_id", "app_id", "device_model"][j]] = pool[pick]
        if j < 4:
            logit += 0.6 * (pick % 3 == 0)
    df["banner_pos"] = rng.integers(0, 3, n)
    df["click"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    prepare_task(df, out, "click", "log_loss", id_col="id", name=out.name)


def _text_files(out: Path) -> None:
    """Feedback Prize's layout: train.csv holds only an id and a score, the essay of each id is
    train/<id>.txt, the test essays test/<id>.txt with no test table; the sample names the test ids; RMSE
    on a score the words give."""
    rng = np.random.default_rng(139)
    good, bad = (
        ["evidence", "because", "therefore", "clearly", "example"],
        ["stuff", "things", "like", "whatever"],
    )
    filler = ["the", "school", "students", "should", "think", "that", "day", "we", "in", "a"]
    pub, priv = out / "public", out / "private"
    for d in (pub / "train", pub / "test", priv):
        d.mkdir(parents=True, exist_ok=True)
    train, test = [], []
    for i in range(1500):
        g, b = int(rng.integers(0, 6)), int(rng.integers(0, 6))
        words = list(rng.choice(good, g)) + list(rng.choice(bad, b)) + list(rng.choice(filler, 40))
        rng.shuffle(words)
        essay_id = f"{rng.integers(16**11, 16**12):012X}"
        score = round(3 + 0.4 * g - 0.4 * b + rng.normal(0, 0.3), 2)
        role = "test" if i % 5 == 0 else "train"
        (pub / role / f"{essay_id}.txt").write_text(" ".join(words).capitalize() + ".\n")
        (test if role == "test" else train).append({"essay_id": essay_id, "score": score})
    pd.DataFrame(train).to_csv(pub / "train.csv", index=False)
    answers = pd.DataFrame(test)
    answers.to_csv(priv / "answers.csv", index=False)
    answers.assign(score=3.0).to_csv(pub / "sample_submission.csv", index=False)
    (out / "description.md").write_text("# Essays\n\nScore each essay; the texts are in train/ and test/.\n")
    (out / "task.yaml").write_text(f"name: {out.name}\nmetric:\n  name: rmse\n")


def _text_image(out: Path) -> None:
    """PetFinder's shape: a description, a photo path and an age per pet; how fast it is adopted (3 grades)
    follows the description's words, the photo a little; accuracy."""
    from PIL import Image

    rng = np.random.default_rng(140)
    words = {0: ["playful", "friendly", "cute", "healthy"], 1: ["calm", "shy", "quiet", "old"],
             2: ["sick", "injured", "aggressive", "scared"]}  # fmt: skip
    common = ["dog", "cat", "rescued", "needs", "home", "loving", "vaccinated", "good"]
    rows = []
    for i in range(900):
        speed = int(rng.integers(0, 3))
        text = " ".join(list(rng.choice(words[speed], 2)) + list(rng.choice(common, 6)))
        img = rng.integers(0, 80, size=(24, 24, 3)).astype(np.uint8)
        img[6:18, 6:18, speed] += 40
        rows.append({"pet_id": f"p{i:04d}", "description": text, "photo": f"photos/p{i:04d}.jpg",
                     "age_months": int(rng.integers(1, 120)), "speed": speed, "_img": img})  # fmt: skip
    df = pd.DataFrame(rows)
    prepare_task(df.drop(columns="_img"), out, "speed", "accuracy", id_col="pet_id", name=out.name,
                 problem_type="multiclass")  # fmt: skip
    folder = out / "public" / "photos"
    folder.mkdir(parents=True, exist_ok=True)
    for r in rows:
        Image.fromarray(r["_img"]).save(folder / f"{r['pet_id']}.jpg", quality=90)


def _txt_table(out: Path) -> None:
    """The tables as train.txt and test.txt, split by tabs (a header line), the sample a .csv; RMSE."""
    df = _simple_frame(141)
    prepare_task(df, out, "y", "rmse", name=out.name)
    pub = out / "public"
    for part in ("train", "test"):
        pd.read_csv(pub / f"{part}.csv").to_csv(pub / f"{part}.txt", sep="\t", index=False)
        (pub / f"{part}.csv").unlink()


def _month_names(out: Path) -> None:
    """Monthly sales of 30 shops over six years, the month written 'Mar 2019', a trend and a December peak;
    the test rows the last fifth of the months; RMSE."""
    rng = np.random.default_rng(142)
    months = pd.period_range("2016-01", periods=72, freq="M")
    shop = np.repeat(np.arange(30), 72)
    m = np.tile(np.arange(72), 30)
    level = rng.uniform(50, 150, 30)
    y = level[shop] + 0.8 * m + 25 * (months[m].month == 12) + rng.normal(0, 4, len(m))
    df = pd.DataFrame({"month": months[m].strftime("%b %Y"), "shop": [f"shop{v}" for v in shop],
                       "sales": y.round(1), "_t": m})  # fmt: skip
    prepare_task(df, out, "sales", "rmse", time_col="_t", name=out.name)
    pub = out / "public"
    for part in ("train.csv", "test.csv"):
        pd.read_csv(pub / part).drop(columns="_t").to_csv(pub / part, index=False)


def _columnwise_mae(out: Path) -> None:
    """Two targets on different scales (an energy near 0.2, a gap near 2), twelve numbers; the mean of the
    columns' MAE."""
    rng = np.random.default_rng(143)
    n = 2400
    X = rng.normal(size=(n, 12))
    df = pd.DataFrame(X.round(4), columns=[f"x{i}" for i in range(12)])
    df["energy"] = (0.2 + 0.05 * X[:, 0] - 0.03 * X[:, 1] ** 2 + rng.normal(0, 0.01, n)).round(4)
    df["gap"] = (2 + 0.8 * np.tanh(X[:, 2]) + 0.5 * X[:, 3] * X[:, 4] + rng.normal(0, 0.1, n)).round(3)
    prepare_task(df, out, ["energy", "gap"], "mean_columnwise_mae", name=out.name)


def _zip_codes(out: Path) -> None:
    """House prices by a five-digit postcode written with its leading zero ('02139', 300 codes) and the
    floor area; the price follows the postcode's region (its first digit) and the area; RMSE."""
    rng = np.random.default_rng(144)
    n = 4000
    codes = np.array([f"{v:05d}" for v in rng.choice(99999, 300, replace=False)])
    zip_ = codes[rng.integers(0, 300, n)]
    region = np.array([int(z[0]) for z in zip_])
    area = rng.uniform(40, 250, n).round(1)
    price = 100 + 30 * region + 2.0 * area + rng.normal(0, 20, n)
    df = pd.DataFrame({"zip": zip_, "area_m2": area, "price": price.round(0)})
    prepare_task(df, out, "price", "rmse", name=out.name)


def _pixels_string(out: Path) -> None:
    """FER2013's layout: each 12x12 grey image as one 'pixels' cell of 144 space-separated numbers; three
    classes by where a bright patch sits (top, middle, bottom); accuracy."""
    rng = np.random.default_rng(145)
    n = 3000
    cls = rng.integers(0, 3, n)
    img = rng.integers(0, 120, (n, 12, 12))
    for i, c in enumerate(cls):
        r, col = 1 + 4 * c + rng.integers(0, 2), rng.integers(0, 9)
        img[i, r : r + 3, col : col + 3] += 120
    pixels = [" ".join(map(str, v)) for v in img.reshape(n, -1)]
    df = pd.DataFrame({"emotion": cls, "pixels": pixels})
    prepare_task(df, out, "emotion", "accuracy", name=out.name)


def _balanced_logloss(out: Path) -> None:
    """ICR's layout: 600 subjects, 40 anonymised measurements with gaps and a two-level code 'EJ', a
    condition in 17 % of them; balanced log loss (each class weighs half)."""
    rng = np.random.default_rng(146)
    n = 600
    X = rng.lognormal(0, 0.6, size=(n, 40))
    ej = rng.choice(["A", "B"], n, p=[0.35, 0.65])
    z = 1.5 * np.log(X[:, 0]) - 1.2 * np.log(X[:, 3]) + 0.8 * (ej == "A") + rng.normal(0, 0.7, n) - 1.9
    y = (z > 0).astype(int)
    df = pd.DataFrame(X.round(4), columns=[f"m{i:02d}" for i in range(40)])
    df = df.mask(rng.random(df.shape) < 0.03)
    df.insert(20, "EJ", ej)
    df["Class"] = y
    prepare_task(df, out, "Class", "balanced_log_loss", name=out.name)


def _average_precision(out: Path) -> None:
    """Fraud among card payments, 3 % positives, amounts and hours and a merchant type; average precision
    (the area under the precision-recall curve)."""
    rng = np.random.default_rng(147)
    n = 8000
    amount = rng.lognormal(3.5, 1.0, n)
    hour = rng.integers(0, 24, n)
    merchant = rng.choice(["grocery", "fuel", "online", "travel", "cash"], n, p=[0.35, 0.2, 0.25, 0.1, 0.1])
    X = rng.normal(size=(n, 6))
    z = 0.9 * np.log(amount) + 1.2 * ((hour < 5) | (hour > 22)) + 1.0 * (merchant == "online") + X[:, 0] - 8.2
    y = (z + rng.logistic(size=n) * 0.6 > 0).astype(int)
    df = pd.DataFrame(X.round(3), columns=[f"v{i}" for i in range(6)])
    df["amount"], df["hour"], df["merchant"], df["fraud"] = amount.round(2), hour, merchant, y
    prepare_task(df, out, "fraud", "average_precision", name=out.name)


def _clock_times(out: Path) -> None:
    """Flights with a departure time written '07:45' and a planned duration written '01:30:00'; the delay in
    minutes grows in the evening and with the duration; RMSE."""
    rng = np.random.default_rng(148)
    n = 5000
    minute = rng.integers(5 * 60, 23 * 60, n)
    dur = rng.integers(40, 400, n)
    carrier = rng.choice(["AA", "BB", "CC", "DD"], n)
    y = 4 + 12 * (minute > 17 * 60) + 0.03 * dur + 5 * (carrier == "CC") + rng.normal(0, 4, n)
    df = pd.DataFrame({"carrier": carrier, "dep_time": [f"{m // 60:02d}:{m % 60:02d}" for m in minute],
                       "planned": [f"{d // 60:02d}:{d % 60:02d}:00" for d in dur], "delay": y.round(1)})  # fmt: skip
    prepare_task(df, out, "delay", "rmse", name=out.name)


def _point_strings(out: Path) -> None:
    """Places given as one 'location' cell '(40.71280, -74.00600)', as city open-data portals write them; the
    rent follows the district (a 3 x 3 grid of the area) and the rooms; RMSE."""
    rng = np.random.default_rng(149)
    n = 4000
    lat, lon = rng.uniform(40.5, 40.9, n), rng.uniform(-74.2, -73.7, n)
    cell = (np.floor((lat - 40.5) / 0.4 * 3) * 3 + np.floor((lon + 74.2) / 0.5 * 3)).astype(int)
    level = rng.uniform(1000, 4000, 9)
    rooms = rng.integers(1, 5, n)
    rent = level[cell] + 400 * rooms + rng.normal(0, 150, n)
    df = pd.DataFrame({"location": [f"({a:.5f}, {b:.5f})" for a, b in zip(lat, lon, strict=True)],
                       "rooms": rooms, "rent": rent.round(0)})  # fmt: skip
    prepare_task(df, out, "rent", "rmse", name=out.name)


def _airbnb_listings(out: Path) -> None:
    """Inside Airbnb's listings: flags written 't'/'f', a response rate '95%', amenities as a set in braces
    '{Wifi,"Air conditioning",Kitchen}', a room type; the nightly price written '$1,234.00'; RMSLE."""
    rng = np.random.default_rng(150)
    n = 4000
    amen = ["Wifi", "Kitchen", "Air conditioning", "Pool", "Washer", "Free parking", "Hot tub", "TV"]
    has = rng.random((n, len(amen))) < 0.4
    room = rng.choice(["Entire home/apt", "Private room", "Shared room"], n, p=[0.55, 0.4, 0.05])
    guests = rng.integers(1, 9, n)
    superhost = rng.random(n) < 0.3
    rate = rng.integers(50, 101, n)
    price = np.exp(3.6 + 0.12 * guests + 0.6 * (room == "Entire home/apt") - 0.5 * (room == "Shared room")
                   + 0.35 * has[:, 3] + 0.25 * has[:, 6] + 0.1 * superhost + rng.normal(0, 0.15, n))  # fmt: skip
    amen_txt = ["{" + ",".join(f'"{a}"' if " " in a else a for a, h in zip(amen, row, strict=True) if h) + "}"
                for row in has]  # fmt: skip
    df = pd.DataFrame({"host_is_superhost": np.where(superhost, "t", "f"), "host_response_rate": [f"{r}%" for r in rate],
                       "room_type": room, "accommodates": guests, "amenities": amen_txt,
                       "instant_bookable": rng.choice(["t", "f"], n), "price": price.round(2)})  # fmt: skip
    prepare_task(df, out, "price", "rmsle", name=out.name)
    train = pd.read_csv(out / "public" / "train.csv")
    train["price"] = [f"${p:,.2f}" for p in train["price"]]
    train.to_csv(out / "public" / "train.csv", index=False)


def _percent_target(out: Path) -> None:
    """A share between 0 and 1 (a party's vote share per district), a tenth of the districts at exactly 0 or
    1 (uncontested), nine census numbers; RMSE."""
    rng = np.random.default_rng(151)
    n = 3000
    X = rng.normal(size=(n, 9))
    share = 1 / (1 + np.exp(-(1.2 * X[:, 0] - 0.8 * X[:, 1] + 0.5 * X[:, 2] * X[:, 3])))
    share = np.clip(share + rng.normal(0, 0.04, n), 0, 1)
    fixed = rng.random(n) < 0.1
    share[fixed] = (X[fixed, 0] > 0).astype(float)
    df = pd.DataFrame(X.round(3), columns=[f"c{i}" for i in range(9)])
    df["share"] = share.round(4)
    prepare_task(df, out, "share", "rmse", name=out.name)


def _fold_column(out: Path) -> None:
    """A training table shipped with a 'kfold' column 0-4 from someone's notebook (the test rows have none),
    the rows grouped in blocks of ten by a device id; MAE."""
    rng = np.random.default_rng(152)
    n = 4000
    dev = np.repeat(np.arange(n // 10), 10)
    bias = rng.normal(0, 3, n // 10)[dev]
    X = rng.normal(size=(n, 6))
    y = 10 + 3 * X[:, 0] + 2 * np.abs(X[:, 1]) + bias + rng.normal(0, 1, n)
    df = pd.DataFrame(X.round(3), columns=[f"s{i}" for i in range(6)])
    df["device"] = [f"dev{d}" for d in dev]
    df["reading"] = y.round(3)
    prepare_task(df, out, "reading", "mae", name=out.name)
    train = pd.read_csv(out / "public" / "train.csv")
    train.insert(1, "kfold", np.arange(len(train)) % 5)
    train.to_csv(out / "public" / "train.csv", index=False)


def _date_parts(out: Path) -> None:
    """Daily bike hires with the date split into 'year', 'month' and 'day' columns and no date column; a
    trend, a summer peak, weekends lower; the last fifth of the days to predict; RMSE."""
    rng = np.random.default_rng(153)
    days = pd.date_range("2019-01-01", periods=1100, freq="D")
    t = np.arange(len(days))
    temp = 12 + 10 * np.sin(2 * np.pi * (days.dayofyear - 110) / 365) + rng.normal(0, 2, len(days))
    y = 2000 + 1.5 * t + 80 * temp - 600 * (days.dayofweek >= 5) + rng.normal(0, 150, len(days))
    df = pd.DataFrame({"year": days.year, "month": days.month, "day": days.day, "temp": temp.round(1),
                       "hires": y.round(0), "_t": t})  # fmt: skip
    prepare_task(df, out, "hires", "rmse", time_col="_t", name=out.name)
    for part in ("train.csv", "test.csv"):
        pd.read_csv(out / "public" / part).drop(columns="_t").to_csv(out / "public" / part, index=False)


def _mercedes_r2(out: Path) -> None:
    """Mercedes-Benz's layout: eight letter-coded columns X0-X8 (one constant) and 300 sparse 0/1 columns, a
    test time in seconds with a few slow outliers; R2."""
    rng = np.random.default_rng(154)
    n = 4200
    cats = {f"X{i}": rng.choice([f"{a}{b}" for a in "abcdefgh" for b in ("", "a")][: 4 + 2 * i], n)
            for i in range(9) if i != 7}  # fmt: skip
    cats["X4"] = np.full(n, "d")
    B = (rng.random((n, 300)) < 0.1).astype(int)
    x0 = pd.Series(cats["X0"]).astype("category").cat.codes.to_numpy()
    y = 100 + 2.5 * (x0 % 5) + 6 * B[:, 10] - 4 * B[:, 42] * B[:, 43] + rng.normal(0, 2.5, n)
    y[rng.random(n) < 0.005] += 60
    df = pd.DataFrame(cats)
    df = pd.concat([df, pd.DataFrame(B, columns=[f"X{i}" for i in range(10, 310)])], axis=1)
    df.insert(0, "y", y.round(2))
    prepare_task(df, out, "y", "r2", name=out.name)


def _sensor_sequences(out: Path) -> None:
    """A cell of 20-60 comma-separated sensor readings per row (lengths vary), three machine states by the
    readings' level and their spikes; log loss."""
    rng = np.random.default_rng(155)
    n = 3000
    state = rng.integers(0, 3, n)
    cells = []
    for s_ in state:
        x = rng.normal(0.5 * (s_ == 1), 1.0, rng.integers(20, 61))
        if s_ == 2:
            x[rng.integers(0, len(x), 3)] += 6
        cells.append(",".join(f"{v:.3f}" for v in x))
    df = pd.DataFrame({"machine": rng.choice(["m1", "m2", "m3"], n), "signal": cells, "state": state})
    prepare_task(df, out, "state", "log_loss", name=out.name)


def _hotel_bookings(out: Path) -> None:
    """Hotel bookings' arrival_date_year / arrival_date_month (a name) / arrival_date_day_of_month columns;
    cancellations follow the lead time, the deposit type and the arrival's day of week; ROC AUC."""
    rng = np.random.default_rng(156)
    n = 6000
    day = pd.Timestamp("2015-07-01") + pd.to_timedelta(rng.integers(0, 790, n), unit="D")
    lead = rng.exponential(80, n).round()
    deposit = rng.choice(["No Deposit", "Non Refund", "Refundable"], n, p=[0.8, 0.15, 0.05])
    z = (
        -2.0
        + 0.01 * lead
        + 2.0 * (deposit == "Non Refund")
        + 1.2 * (day.dayofweek >= 4)
        + rng.logistic(size=n)
    )
    df = pd.DataFrame({"hotel": rng.choice(["City Hotel", "Resort Hotel"], n), "lead_time": lead,
                       "arrival_date_year": day.year, "arrival_date_month": day.strftime("%B"),
                       "arrival_date_day_of_month": day.day, "adults": rng.integers(1, 4, n),
                       "deposit_type": deposit, "is_canceled": (z > 0).astype(int)})  # fmt: skip
    prepare_task(df, out, "is_canceled", "roc_auc", name=out.name)


def _embedding_column(out: Path) -> None:
    """A precomputed 16-number embedding per row written as a JSON list '[0.12, -0.3, ...]' beside a
    category; the target follows three of the embedding's dimensions; RMSE."""
    rng = np.random.default_rng(157)
    n = 4000
    E = rng.normal(size=(n, 16))
    cat = rng.choice(["a", "b", "c"], n)
    y = 2 * E[:, 0] - 1.5 * E[:, 5] + E[:, 9] ** 2 + (cat == "b") + rng.normal(0, 0.3, n)
    df = pd.DataFrame({"embedding": ["[" + ", ".join(f"{v:.4f}" for v in row) + "]" for row in E],
                       "kind": cat, "score": y.round(4)})  # fmt: skip
    prepare_task(df, out, "score", "rmse", name=out.name)


def _laptop_prices(out: Path) -> None:
    """The laptop-prices table: 'Ram' '8GB', 'Weight' '1.37kg', 'ScreenResolution' 'IPS Panel Full HD
    1920x1080', 'Memory' '256GB SSD + 1TB HDD', 'Cpu' 'Intel Core i5 2.3GHz'; the price in euros; RMSLE."""
    rng = np.random.default_rng(158)
    n = 1300
    ram = rng.choice([4, 8, 16, 32], n, p=[0.3, 0.45, 0.2, 0.05])
    res = rng.choice(["1366x768", "1920x1080", "2560x1440", "3840x2160"], n, p=[0.3, 0.5, 0.12, 0.08])
    panel = rng.choice(["", "IPS Panel ", "Touchscreen "], n)
    ssd = rng.choice([0, 128, 256, 512], n)
    hdd = rng.choice([0, 1], n, p=[0.6, 0.4])
    cpu = rng.choice(["Intel Core i3", "Intel Core i5", "Intel Core i7", "AMD Ryzen 5"], n)
    ghz = rng.choice([1.6, 2.3, 2.8, 3.1], n)
    weight = rng.uniform(1.0, 3.5, n).round(2)
    pixels = np.array([int(r.split("x")[0]) for r in res])
    price = np.exp(5.6 + 0.06 * ram + 0.0003 * pixels + 0.0012 * ssd + 0.25 * (cpu == "Intel Core i7")
                   - 0.1 * weight + 0.1 * (panel == "IPS Panel ") + rng.normal(0, 0.12, n))  # fmt: skip
    memory = [" + ".join([f"{s}GB SSD"] * bool(s) + ["1TB HDD"] * bool(h)) or "32GB Flash Storage"
              for s, h in zip(ssd, hdd, strict=True)]  # fmt: skip
    df = pd.DataFrame({"Company": rng.choice(["Dell", "HP", "Lenovo", "Asus", "Apple"], n),
                       "Ram": [f"{r}GB" for r in ram], "Weight": [f"{w}kg" for w in weight],
                       "ScreenResolution": [f"{p}{'Full HD ' if r == '1920x1080' else ''}{r}" for p, r in zip(panel, res, strict=True)],
                       "Memory": memory, "Cpu": [f"{c} {g}GHz" for c, g in zip(cpu, ghz, strict=True)],
                       "Price_euros": price.round(2)})  # fmt: skip
    prepare_task(df, out, "Price_euros", "rmsle", name=out.name)


def _minus_999(out: Path) -> None:
    """The Higgs challenge's gaps written -999.0 (a third of the rows lack the three jet columns, by design);
    signal or background; ROC AUC."""
    rng = np.random.default_rng(159)
    n = 6000
    X = rng.normal(size=(n, 10))
    jets = rng.random(n) < 0.67
    z = X[:, 0] + 0.8 * X[:, 1] * X[:, 2] + np.where(jets, 1.2 * X[:, 7], -0.5) + rng.logistic(size=n) * 0.7
    df = pd.DataFrame(X.round(3), columns=[f"DER_{i}" for i in range(10)])
    for c in ("DER_7", "DER_8", "DER_9"):
        df.loc[~jets, c] = -999.0
    df["Label"] = np.where(z > 0, "s", "b")
    prepare_task(df, out, "Label", "roc_auc", name=out.name)


def _taxi_trips(out: Path) -> None:
    """NYC taxi fares: pickup and dropoff latitude/longitude, the fare following the trip's great-circle
    length, the passenger count and the hour; RMSE."""
    rng = np.random.default_rng(160)
    n = 6000
    plat, plon = rng.uniform(40.60, 40.85, n), rng.uniform(-74.05, -73.75, n)
    dlat, dlon = plat + rng.normal(0, 0.04, n), plon + rng.normal(0, 0.05, n)
    p1, p2, dl = np.radians(plat), np.radians(dlat), np.radians(dlon - plon)
    km = (
        6371
        * 2
        * np.arcsin(np.sqrt(np.sin((p2 - p1) / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(dl / 2) ** 2))
    )
    hour = rng.integers(0, 24, n)
    fare = 2.5 + 1.6 * km + 1.0 * ((hour >= 16) & (hour < 20)) + rng.normal(0, 0.8, n)
    when = pd.Timestamp("2015-01-01") + pd.to_timedelta(rng.integers(0, 365 * 24, n), unit="h")
    when = when.floor("D") + pd.to_timedelta(hour, unit="h")
    df = pd.DataFrame({"pickup_datetime": when.strftime("%Y-%m-%d %H:%M:%S UTC"), "pickup_longitude": plon.round(6),
                       "pickup_latitude": plat.round(6), "dropoff_longitude": dlon.round(6),
                       "dropoff_latitude": dlat.round(6), "passenger_count": rng.integers(1, 6, n),
                       "fare_amount": fare.round(2)})  # fmt: skip
    prepare_task(df, out, "fare_amount", "rmse", name=out.name)


def _age_bands(out: Path) -> None:
    """Insurance claims with the age as bands '18-24', '25-34', ..., '65+' and the income as '$50k-$75k'
    bands; the claim cost rises with age; RMSE."""
    rng = np.random.default_rng(161)
    n = 4000
    age = rng.integers(18, 90, n)
    edges = [18, 25, 35, 45, 55, 65]
    band = np.array(["18-24", "25-34", "35-44", "45-54", "55-64", "65+"])[
        np.searchsorted(edges, age, "right") - 1
    ]
    income = rng.choice(["<$25k", "$25k-$50k", "$50k-$75k", "$75k-$100k", ">$100k"], n)
    smoker = rng.choice(["yes", "no"], n, p=[0.2, 0.8])
    cost = 2000 + 80 * age + 9000 * (smoker == "yes") + rng.normal(0, 1500, n)
    df = pd.DataFrame({"age_band": band, "income": income, "smoker": smoker, "charges": cost.round(2)})
    prepare_task(df, out, "charges", "rmse", name=out.name)


def _smiles_strings(out: Path) -> None:
    """Molecules as SMILES strings ('CC(=O)Oc1ccccc1C(=O)O'); a property that grows with carbon and ring
    atoms and falls with hydroxyl groups; RMSE."""
    rng = np.random.default_rng(162)
    parts = ["C", "CC", "O", "N", "c1ccccc1", "C(=O)O", "Cl", "F", "C(=O)N", "OC", "S"]
    weight = {"C": 0.5, "CC": 1.0, "O": -0.3, "N": -0.2, "c1ccccc1": 2.0, "C(=O)O": -0.8, "Cl": 0.7,
              "F": 0.1, "C(=O)N": -0.9, "OC": 0.1, "S": 0.3}  # fmt: skip
    rows = []
    for _ in range(3500):
        pick = list(rng.choice(parts, rng.integers(3, 10)))
        rows.append({"smiles": "".join(pick), "logp": sum(weight[p] for p in pick) + rng.normal(0, 0.2)})
    prepare_task(pd.DataFrame(rows), out, "logp", "rmse", name=out.name)


def _dna_motifs(out: Path) -> None:
    """DNA reads of 60 bases ('ACGT...'); a read binds when it holds the motif TATAAT or GGGCGG; accuracy."""
    rng = np.random.default_rng(163)
    n = 4000
    reads, bound = [], []
    for _ in range(n):
        s_ = list(rng.choice(list("ACGT"), 60))
        b = int(rng.random() < 0.4)
        if b:
            at = rng.integers(0, 54)
            s_[at : at + 6] = list(rng.choice(["TATAAT", "GGGCGG"]))
        reads.append("".join(s_))
        bound.append(b)
    prepare_task(pd.DataFrame({"sequence": reads, "bound": bound}), out, "bound", "accuracy", name=out.name)


def _likert_answers(out: Path) -> None:
    """Survey answers on a five-point scale written out ('Strongly disagree' ... 'Strongly agree'), eight
    questions; a satisfaction score that follows three of them; RMSE."""
    rng = np.random.default_rng(164)
    n = 3000
    scale = np.array(["Strongly disagree", "Disagree", "Neutral", "Agree", "Strongly agree"])
    A = rng.integers(0, 5, (n, 8))
    y = 3 * A[:, 0] + 2 * A[:, 3] - 1.5 * A[:, 6] + rng.normal(0, 1, n)
    df = pd.DataFrame({f"q{i + 1}": scale[A[:, i]] for i in range(8)})
    df["satisfaction"] = y.round(2)
    prepare_task(df, out, "satisfaction", "rmse", name=out.name)


def _ip_addresses(out: Path) -> None:
    """Network requests with the client's IPv4 address '10.12.3.45'; attacks come from two /16 subnets;
    ROC AUC."""
    rng = np.random.default_rng(165)
    n = 6000
    a, b = rng.choice([10, 172, 192], n), rng.integers(0, 40, n)
    ip = [f"{x}.{y}.{rng.integers(0, 256)}.{rng.integers(1, 255)}" for x, y in zip(a, b, strict=True)]
    size = rng.lognormal(6, 1, n)
    bad = ((a == 172) & (b == 16)) | ((a == 10) & (b == 7))
    z = -2.5 + 4 * bad + 0.3 * (np.log(size) - 6) + rng.logistic(size=n) * 0.5
    df = pd.DataFrame({"client_ip": ip, "bytes": size.round(), "attack": (z > 0).astype(int)})
    prepare_task(df, out, "attack", "roc_auc", name=out.name)


def _iso_weeks(out: Path) -> None:
    """Weekly sales of 20 stores with the week written '2019-W05', a trend and a summer peak; the last fifth
    of the weeks to predict; RMSE."""
    rng = np.random.default_rng(166)
    weeks = pd.date_range("2018-01-01", periods=156, freq="W-MON")
    store = np.repeat(np.arange(20), 156)
    w = np.tile(np.arange(156), 20)
    level = rng.uniform(100, 300, 20)
    y = level[store] + 0.7 * w + 40 * np.sin(2 * np.pi * (weeks[w].isocalendar().week.to_numpy() - 13) / 52)
    y = y + rng.normal(0, 5, len(w))
    iso = weeks[w].isocalendar()
    df = pd.DataFrame({"week": [f"{yy}-W{ww:02d}" for yy, ww in zip(iso.year, iso.week, strict=True)],
                       "store": [f"s{v}" for v in store], "sales": y.round(1), "_t": w})  # fmt: skip
    prepare_task(df, out, "sales", "rmse", time_col="_t", name=out.name)
    for part in ("train.csv", "test.csv"):
        pd.read_csv(out / "public" / part).drop(columns="_t").to_csv(out / "public" / part, index=False)


def _quarters(out: Path) -> None:
    """Quarterly revenue of 40 firms with the quarter written '2015Q3', a trend and a fourth-quarter peak; the
    last fifth of the quarters to predict; MAE."""
    rng = np.random.default_rng(167)
    q = pd.period_range("2010Q1", periods=48, freq="Q")
    firm = np.repeat(np.arange(40), 48)
    t = np.tile(np.arange(48), 40)
    y = rng.uniform(50, 500, 40)[firm] + 3 * t + 30 * (q[t].quarter == 4) + rng.normal(0, 4, len(t))
    df = pd.DataFrame({"quarter": q[t].astype(str), "firm": [f"f{v}" for v in firm], "revenue": y.round(1),
                       "_t": t})  # fmt: skip
    prepare_task(df, out, "revenue", "mae", time_col="_t", name=out.name)
    for part in ("train.csv", "test.csv"):
        pd.read_csv(out / "public" / part).drop(columns="_t").to_csv(out / "public" / part, index=False)


def _excel_serial_dates(out: Path) -> None:
    """Dates as Excel writes them when a sheet is saved without formats: day numbers since 1899-12-30 (43831
    is 2020-01-01) in an 'order_date' column; orders fall at weekends; the last fifth to predict; RMSE."""
    rng = np.random.default_rng(168)
    days = pd.date_range("2019-01-01", periods=900, freq="D")
    t = np.arange(900)
    y = 500 + 0.8 * t + 150 * (days.dayofweek >= 5) + rng.normal(0, 20, 900)
    serial = (days - pd.Timestamp("1899-12-30")).days
    df = pd.DataFrame({"order_date": serial, "promo": rng.integers(0, 2, 900), "orders": y.round(0), "_t": t})
    prepare_task(df, out, "orders", "rmse", time_col="_t", name=out.name)
    for part in ("train.csv", "test.csv"):
        pd.read_csv(out / "public" / part).drop(columns="_t").to_csv(out / "public" / part, index=False)


def _scientific_text(out: Path) -> None:
    """Lab readings written in scientific notation as text ('1.2E+05', '3.4e-3') with 'n.d.' (not detected)
    for a tenth of them; a concentration; RMSE."""
    rng = np.random.default_rng(169)
    n = 3000
    a, b = rng.lognormal(10, 1.5, n), rng.lognormal(-6, 1, n)
    y = 2 * np.log(a) - np.log(b) + rng.normal(0, 0.3, n)
    text_a = np.array([f"{v:.2E}" for v in a], dtype=object)
    text_a[rng.random(n) < 0.1] = "n.d."
    df = pd.DataFrame({"reading_a": text_a, "reading_b": [f"{v:.3e}" for v in b], "conc": y.round(3)})
    prepare_task(df, out, "conc", "rmse", name=out.name)


def _json_objects(out: Path) -> None:
    """Google Analytics' layout: a 'totals' cell holding a JSON object of counts written as strings
    ('{"visits": "1", "hits": "7", "pageviews": "5"}') and a 'device' object; the log revenue follows the
    page views; RMSE."""
    rng = np.random.default_rng(170)
    n = 4000
    hits = rng.integers(1, 60, n)
    views = np.minimum(hits, rng.integers(1, 40, n))
    browser = rng.choice(["Chrome", "Safari", "Firefox"], n)
    mobile = rng.random(n) < 0.4
    y = 0.08 * views - 0.5 * mobile + 0.3 * (browser == "Chrome") + rng.normal(0, 0.3, n)
    totals = [
        json.dumps({"visits": "1", "hits": str(h), "pageviews": str(v)})
        for h, v in zip(hits, views, strict=True)
    ]
    device = [json.dumps({"browser": b, "isMobile": bool(m)}) for b, m in zip(browser, mobile, strict=True)]
    df = pd.DataFrame({"totals": totals, "device": device, "revenue": y.round(3)})
    prepare_task(df, out, "revenue", "rmse", name=out.name)


def _pipe_lists(out: Path) -> None:
    """MovieLens' genres written 'Action|Comedy|Drama' (one to four of twelve); the rating follows two
    genres; RMSE."""
    rng = np.random.default_rng(171)
    genres = np.array(["Action", "Comedy", "Drama", "Horror", "Romance", "Sci-Fi", "Thriller", "Animation",
                       "Documentary", "Crime", "War", "Western"])  # fmt: skip
    rows = []
    for _ in range(4000):
        g = list(rng.choice(genres, rng.integers(1, 5), replace=False))
        y = 3.3 + 0.6 * ("Documentary" in g) - 0.7 * ("Horror" in g) + rng.normal(0, 0.3)
        rows.append({"genres": "|".join(g), "year": int(rng.integers(1950, 2020)), "rating": round(y, 2)})
    prepare_task(pd.DataFrame(rows), out, "rating", "rmse", name=out.name)


def _decimal_commas(out: Path) -> None:
    """A comma-separated file whose 'price' column writes decimals with a comma, quoted ('"3,14"'), as
    spreadsheets in much of Europe do; the demand falls with the price; RMSE."""
    rng = np.random.default_rng(172)
    n = 3000
    price = rng.uniform(0.5, 9.5, n).round(2)
    y = 100 - 8 * price + rng.normal(0, 3, n)
    df = pd.DataFrame(
        {"price": price, "shelf": rng.choice(["top", "middle", "bottom"], n), "demand": y.round(1)}
    )
    prepare_task(df, out, "demand", "rmse", name=out.name)
    for part in ("train.csv", "test.csv"):
        t = pd.read_csv(out / "public" / part)
        t["price"] = t["price"].map(lambda v: f"{v:.2f}".replace(".", ","))
        t.to_csv(out / "public" / part, index=False)


def _ordinal_floors(out: Path) -> None:
    """Flats on the '1st' to '12th' floor ('Ground' for 0) and a size band 'S'/'M'/'L'/'XL'; the rent rises
    with the floor; RMSE."""
    rng = np.random.default_rng(173)
    n = 3000
    floor = rng.integers(0, 13, n)
    suffix = {1: "st", 2: "nd", 3: "rd"}
    written = ["Ground" if f == 0 else f"{f}{suffix.get(f if f < 20 else f % 10, 'th')}" for f in floor]
    size = rng.choice(["S", "M", "L", "XL"], n)
    y = 800 + 40 * floor + 300 * (pd.Series(size).map({"S": 0, "M": 1, "L": 2, "XL": 3}).to_numpy())
    df = pd.DataFrame({"floor": written, "size": size, "rent": (y + rng.normal(0, 50, n)).round(0)})
    prepare_task(df, out, "rent", "rmse", name=out.name)


def _mixed_case_flags(out: Path) -> None:
    """Yes/no answers written every way a form allows ('Yes', 'YES', 'y', 'no', 'N', 'false', '0'); a
    default follows two of them; log loss."""
    rng = np.random.default_rng(174)
    n = 4000
    A = rng.random((n, 4)) < 0.4
    yes = np.array(["Yes", "YES", "yes", "y", "Y", "true", "1"])
    no = np.array(["No", "NO", "no", "n", "N", "false", "0"])
    z = -1 + 2 * A[:, 0] - 1.5 * A[:, 2] + rng.logistic(size=n) * 0.5
    df = pd.DataFrame(
        {f"flag{i}": np.where(A[:, i], rng.choice(yes, n), rng.choice(no, n)) for i in range(4)}
    )
    df["income"] = rng.lognormal(10, 0.5, n).round(0)
    df["default"] = (z > 0).astype(int)
    prepare_task(df, out, "default", "log_loss", name=out.name)


def _flight_durations(out: Path) -> None:
    """The flight-price table: a departure '22:20', an arrival '01:10 22 Mar', a duration '2h 50m', stops
    'non-stop' / '1 stop' / '2 stops', a journey date '24/03/2019'; the price follows the duration, the
    stops and the days before a holiday; RMSE."""
    rng = np.random.default_rng(175)
    n = 5000
    minutes = rng.integers(50, 1500, n)
    stops = np.minimum(minutes // 400, 3)
    dep = rng.integers(0, 24 * 60, n)
    day = pd.Timestamp("2019-03-01") + pd.to_timedelta(rng.integers(0, 120, n), unit="D")
    arr = day + pd.to_timedelta(dep + minutes, unit="m")
    airline = rng.choice(["IndiGo", "Air India", "Jet Airways", "SpiceJet", "Vistara"], n)
    price = 3000 + 4 * minutes + 1500 * stops + 2000 * (airline == "Jet Airways") + rng.normal(0, 500, n)
    df = pd.DataFrame({
        "Airline": airline, "Date_of_Journey": day.strftime("%d/%m/%Y"),
        "Dep_Time": [f"{d // 60:02d}:{d % 60:02d}" for d in dep],
        "Arrival_Time": [a.strftime("%H:%M") + ("" if a.normalize() == d else a.strftime(" %d %b"))
                         for a, d in zip(arr, day, strict=True)],
        "Duration": [f"{m // 60}h {m % 60}m" if m % 60 else f"{m // 60}h" for m in minutes],
        "Total_Stops": np.array(["non-stop", "1 stop", "2 stops", "3 stops"])[stops],
        "Price": price.round(0),
    })  # fmt: skip
    prepare_task(df, out, "Price", "rmse", name=out.name)


def _feet_inches(out: Path) -> None:
    """NFL combine rows: a height written '6-2' (feet-inches) and a weight '225 lbs'; the forty-yard time
    follows the weight per inch; RMSE."""
    rng = np.random.default_rng(176)
    n = 3000
    inches = rng.integers(66, 80, n)
    lbs = (inches * 3.1 + rng.normal(0, 25, n)).round()
    y = 4.2 + 0.25 * (lbs / inches - 3) + rng.normal(0, 0.05, n)
    df = pd.DataFrame({"Ht": [f"{i // 12}-{i % 12}" for i in inches], "Wt": [f"{w:.0f} lbs" for w in lbs],
                       "Pos": rng.choice(["WR", "RB", "OL", "DL", "LB", "QB"], n), "Forty": y.round(2)})  # fmt: skip
    prepare_task(df, out, "Forty", "rmse", name=out.name)


def _number_words(out: Path) -> None:
    """The automobile table's counts written as words ('four' doors, 'six' cylinders, 'twelve'); the price
    follows the cylinders; RMSE."""
    rng = np.random.default_rng(177)
    n = 3000
    words = np.array(["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                      "eleven", "twelve"])  # fmt: skip
    cyl = rng.choice([2, 3, 4, 5, 6, 8, 10, 12], n, p=[0.02, 0.05, 0.5, 0.08, 0.2, 0.1, 0.03, 0.02])
    doors = rng.choice([2, 4], n)
    hp = 40 * cyl + rng.normal(0, 20, n)
    y = 5000 + 2500 * cyl + 40 * hp + 800 * (doors == 4) + rng.normal(0, 1500, n)
    df = pd.DataFrame({"num_of_doors": words[doors], "num_of_cylinders": words[cyl], "horsepower": hp.round(),
                       "price": y.round(0)})  # fmt: skip
    prepare_task(df, out, "price", "rmse", name=out.name)


def _play_store(out: Path) -> None:
    """Google Play apps: installs '10,000+', a size '19M' / '201k' / 'Varies with device', a price '$4.99'
    or '0', the Android version '4.0.3 and up', an update date 'January 7, 2018'; the rating follows the
    installs and the size; RMSE."""
    rng = np.random.default_rng(178)
    n = 5000
    installs = 10 ** rng.integers(1, 9, n) * rng.choice([1, 5], n)
    size_kb = rng.lognormal(9.5, 1.2, n)
    paid = rng.random(n) < 0.1
    y = 3.2 + 0.12 * np.log10(installs) + 0.1 * np.log(size_kb / 1000) + rng.normal(0, 0.15, n)
    size = np.where(size_kb >= 1000, [f"{s / 1024:.1f}M" for s in size_kb], [f"{s:.0f}k" for s in size_kb])
    size[rng.random(n) < 0.15] = "Varies with device"
    updated = pd.Timestamp("2016-01-01") + pd.to_timedelta(rng.integers(0, 900, n), unit="D")
    df = pd.DataFrame({
        "Category": rng.choice(["GAME", "FAMILY", "TOOLS", "FINANCE", "MEDICAL"], n),
        "Installs": [f"{v:,}+" for v in installs], "Size": size,
        "Price": np.where(paid, [f"${p:.2f}" for p in rng.uniform(0.99, 9.99, n)], "0"),
        "Android Ver": rng.choice(["4.0.3 and up", "4.1 and up", "5.0 and up", "Varies with device"], n),
        "Last Updated": [f"{d:%B} {d.day}, {d.year}" for d in updated],
        "Rating": y.clip(1, 5).round(1),
    })  # fmt: skip
    prepare_task(df, out, "Rating", "rmse", name=out.name)


def _ndcg_at_5(out: Path) -> None:
    """Airbnb's first destination: twelve countries, NDCG@5 (up to five countries per row, best first, one
    right answer)."""
    rng = np.random.default_rng(179)
    n = 6000
    X = rng.normal(size=(n, 5))
    countries = np.array(["NDF", "US", "other", "FR", "IT", "GB", "ES", "CA", "DE", "NL", "AU", "PT"])
    logits = (
        X @ rng.normal(size=(5, 12))
        + np.log([40, 30, 6, 5, 4, 3, 3, 2, 2, 1.5, 1, 0.5])
        + rng.normal(0, 1.0, (n, 12))
    )
    df = pd.DataFrame(X, columns=[f"f{i}" for i in range(5)]).assign(
        gender=rng.choice(["MALE", "FEMALE", "-unknown-"], n), country_destination=countries[np.argmax(logits, axis=1)]
    )  # fmt: skip
    prepare_task(df, out, "country_destination", "ndcg@5", name=out.name)


def _iso_durations(out: Path) -> None:
    """YouTube videos with their length as ISO 8601 durations ('PT4M13S', 'PT1H2M', 'PT45S'); the log views
    follow the length and the category; RMSE."""
    rng = np.random.default_rng(180)
    n = 4000
    secs = rng.integers(15, 3 * 3600, n)
    cat = rng.choice(["Music", "Gaming", "News", "Education"], n)
    y = 10 - 1.2 * np.abs(np.log(secs / 600)) + 0.8 * (cat == "Music") + rng.normal(0, 0.3, n)

    def iso(s: int) -> str:
        h, m, sec = s // 3600, s % 3600 // 60, s % 60
        return "PT" + (f"{h}H" if h else "") + (f"{m}M" if m else "") + (f"{sec}S" if sec else "")

    df = pd.DataFrame({"duration": [iso(int(s)) for s in secs], "category": cat, "log_views": y.round(3)})
    prepare_task(df, out, "log_views", "rmse", name=out.name)


def _wide_date_columns(out: Path) -> None:
    """Web traffic's layout: a row per page, a column per day named by its date ('2017-01-01' .. 60 days);
    the next week's mean visits; SMAPE."""
    rng = np.random.default_rng(181)
    n = 3000
    level = rng.lognormal(5, 1.5, n)
    trend = rng.normal(0, 0.01, n)
    days = pd.date_range("2017-01-01", periods=67, freq="D")
    t = np.arange(67)
    weekly = 1 + 0.2 * np.sin(2 * np.pi * t / 7)
    visits = level[:, None] * np.exp(trend[:, None] * t) * weekly * rng.lognormal(0, 0.1, (n, 67))
    df = pd.DataFrame(visits[:, :60].round(0), columns=[d.strftime("%Y-%m-%d") for d in days[:60]])
    df.insert(
        0, "Page", [f"page_{i}_{rng.choice(['en', 'de', 'ja'])}.wikipedia.org_all-access" for i in range(n)]
    )
    df["next_week_mean"] = visits[:, 60:].mean(axis=1).round(1)
    prepare_task(df, out, "next_week_mean", "smape", name=out.name)


def _fractions(out: Path) -> None:
    """Horse racing: the odds written as fractions ('5/2', '11/4', '100/30', 'Evens') and the draw; a win
    follows the odds' implied chance; log loss."""
    rng = np.random.default_rng(182)
    n = 6000
    pairs = [(1, 1), (5, 4), (6, 4), (2, 1), (5, 2), (11, 4), (3, 1), (100, 30), (4, 1), (9, 2), (5, 1),
             (6, 1), (8, 1), (10, 1), (12, 1), (16, 1), (20, 1), (33, 1), (50, 1)]  # fmt: skip
    pick = rng.integers(0, len(pairs), n)
    chance = np.array([b / (a + b) for a, b in pairs])[pick]
    won = (rng.random(n) < chance * 0.9).astype(int)
    odds = ["Evens" if pairs[i] == (1, 1) else f"{pairs[i][0]}/{pairs[i][1]}" for i in pick]
    df = pd.DataFrame({"odds": odds, "draw": rng.integers(1, 15, n), "going": rng.choice(["Good", "Soft", "Firm"], n),
                       "won": won})  # fmt: skip
    prepare_task(df, out, "won", "log_loss", name=out.name)


def _relative_dates(out: Path) -> None:
    """Job posts scraped with their age as text ('Just posted', 'Today', '3 days ago', '2 weeks ago', '30+
    days ago'); the applications follow the age; RMSE."""
    rng = np.random.default_rng(183)
    n = 4000
    age = rng.integers(0, 45, n)

    def said(d: int) -> str:
        if d == 0:
            return str(rng.choice(["Just posted", "Today"]))
        if d >= 30:
            return "30+ days ago"
        if d % 7 == 0 and rng.random() < 0.5:
            return f"{d // 7} week{'s' if d > 7 else ''} ago"
        return f"{d} day{'s' if d > 1 else ''} ago"

    y = 5 + 3 * np.sqrt(age) + rng.normal(0, 1, n)
    df = pd.DataFrame({"posted": [said(int(d)) for d in age], "remote": rng.choice(["yes", "no"], n),
                       "applications": y.round(1)})  # fmt: skip
    prepare_task(df, out, "applications", "rmse", name=out.name)


def _structured_codes(out: Path) -> None:
    """M5's item codes 'FOODS_3_090' and store codes 'CA_3': the category and department inside each code
    set the sales; the test rows are items the training rows never name; RMSE."""
    rng = np.random.default_rng(184)
    cats = {"FOODS": 3, "HOBBIES": 2, "HOUSEHOLD": 2}
    items = [f"{c}_{d}_{k:03d}" for c, nd in cats.items() for d in range(1, nd + 1) for k in range(1, 60)]
    base = {f"{c}_{d}": rng.uniform(1, 20) for c, nd in cats.items() for d in range(1, nd + 1)}
    rows = []
    for item in items:
        for store in rng.choice(["CA_1", "CA_2", "TX_1", "TX_2", "WI_1"], 8):
            y = base[item.rsplit("_", 1)[0]] * (1.5 if store.startswith("CA") else 1) + rng.normal(0, 1)
            rows.append(
                {
                    "item_id": item,
                    "store_id": store,
                    "price": round(rng.uniform(1, 10), 2),
                    "sales": round(y, 2),
                }
            )
    prepare_task(pd.DataFrame(rows), out, "sales", "rmse", group_col="item_id", name=out.name)


def _temperatures(out: Path) -> None:
    """Weather-station rows: a temperature '23.5°C' (a degree sign before the unit), humidity '65%', wind
    '12 km/h', pressure '1013 hPa', a few 'N/A'; the power demand follows how far the temperature is from
    18 °C; RMSE."""
    rng = np.random.default_rng(185)
    n = 4000
    temp = rng.uniform(-5, 35, n).round(1)
    hum = rng.integers(20, 100, n)
    y = 500 + 1.5 * (temp - 18) ** 2 + 0.5 * hum + rng.normal(0, 20, n)
    text = np.array([f"{t}°C" for t in temp], dtype=object)
    text[rng.random(n) < 0.02] = "N/A"
    df = pd.DataFrame({"Temp": text, "Humidity": [f"{h}%" for h in hum],
                       "Wind": [f"{w} km/h" for w in rng.integers(0, 60, n)],
                       "Pressure": [f"{p} hPa" for p in rng.integers(990, 1035, n)], "Demand": y.round(1)})  # fmt: skip
    prepare_task(df, out, "Demand", "rmse", name=out.name)


def _am_pm_times(out: Path) -> None:
    """Call-centre rows: a time of day written '2:30 PM' (twelve-hour clock), a date '03/14/2019', a
    district; the waiting minutes peak at 9 AM and 5 PM; RMSE."""
    rng = np.random.default_rng(186)
    n = 5000
    minute = rng.integers(0, 24 * 60, n)
    hour = minute / 60
    y = 5 + 6 * np.exp(-((hour - 9) ** 2) / 2) + 8 * np.exp(-((hour - 17) ** 2) / 2) + rng.normal(0, 1, n)
    day = pd.Timestamp("2019-01-01") + pd.to_timedelta(rng.integers(0, 365, n), unit="D")
    clock = [f"{(m // 60) % 12 or 12}:{m % 60:02d} {'AM' if m < 720 else 'PM'}" for m in minute]
    df = pd.DataFrame({"Date": day.strftime("%m/%d/%Y"), "Time": clock,
                       "District": rng.choice(["North", "South", "East", "West"], n), "Wait": y.round(2)})  # fmt: skip
    prepare_task(df, out, "Wait", "rmse", name=out.name)


def _accounting_negatives(out: Path) -> None:
    """Company accounts as a spreadsheet exports them: losses in brackets '(1,234.50)', '$12,345' revenue,
    '-' for nothing; distress follows the net margin; ROC AUC."""
    rng = np.random.default_rng(187)
    n = 4000
    revenue = rng.lognormal(10, 1, n)
    margin = rng.normal(0.02, 0.1, n)
    income = revenue * margin
    distress = (margin + rng.normal(0, 0.03, n) < -0.03).astype(int)
    income_text = np.array([f"({-v:,.2f})" if v < 0 else f"{v:,.2f}" for v in income], dtype=object)
    income_text[rng.random(n) < 0.03] = "-"
    df = pd.DataFrame({"Revenue": [f"${v:,.0f}" for v in revenue], "Net Income": income_text,
                       "Employees": rng.integers(5, 500, n), "Distress": distress})  # fmt: skip
    prepare_task(df, out, "Distress", "roc_auc", name=out.name)


def _twitter_dates(out: Path) -> None:
    """Tweets with Twitter's own time format 'Tue Mar 05 14:22:01 +0000 2019' for the post and for the
    account's creation; the engagement follows the hour, the weekend and the account's age; RMSE."""
    rng = np.random.default_rng(188)
    n = 5000
    posted = pd.Timestamp("2019-01-01") + pd.to_timedelta(rng.integers(0, 365 * 24 * 3600, n), unit="s")
    created = posted - pd.to_timedelta(rng.integers(30, 3000, n), unit="D")
    age_years = (posted - created).days / 365
    y = (1 + np.sin(posted.hour.to_numpy() / 24 * 2 * np.pi) + 0.8 * (posted.dayofweek.to_numpy() >= 5)
         + 0.3 * age_years + rng.normal(0, 0.3, n))  # fmt: skip
    fmt = "%a %b %d %H:%M:%S +0000 %Y"
    df = pd.DataFrame({"created_at": posted.strftime(fmt), "user_created_at": created.strftime(fmt),
                       "lang": rng.choice(["en", "es", "fr"], n), "engagement": y.round(3)})  # fmt: skip
    prepare_task(df, out, "engagement", "rmse", name=out.name)


def _version_strings(out: Path) -> None:
    """App releases: a version '2.13.4' (hundreds of levels, most test versions never seen in training), an
    OS floor '4.0.3 and up' or 'Varies with device'; the crash rate falls with the major and minor version;
    RMSE."""
    rng = np.random.default_rng(189)
    n = 4000
    major, minor, patch = rng.integers(1, 6, n), rng.integers(0, 20, n), rng.integers(0, 30, n)
    y = 3 - 0.4 * major - 0.05 * minor + rng.normal(0, 0.1, n)
    df = pd.DataFrame({
        "Version": [f"{a}.{b}.{c}" for a, b, c in zip(major, minor, patch, strict=True)],
        "OS": rng.choice(["4.0.3 and up", "4.1 and up", "5.0 and up", "Varies with device"], n),
        "Downloads": rng.integers(100, 100000, n), "CrashRate": y.round(3),
    })  # fmt: skip
    prepare_task(df, out, "CrashRate", "rmse", name=out.name)


def _currency_codes(out: Path) -> None:
    """Listings priced in their own currency, the code first: 'USD 1,200.00', 'EUR 950.00', 'JPY 130,000';
    the import duty is a tenth of the price in dollars; RMSE."""
    rng = np.random.default_rng(190)
    n = 5000
    rates = {"USD": 1.0, "EUR": 1.1, "GBP": 1.27, "JPY": 0.0068}
    cur = rng.choice(list(rates), n)
    usd = rng.lognormal(6.5, 0.8, n)
    local = usd / np.array([rates[c] for c in cur])
    df = pd.DataFrame({"Price": [f"{c} {v:,.0f}" if c == "JPY" else f"{c} {v:,.2f}" for c, v in zip(cur, local, strict=True)],
                       "Weight": rng.uniform(0.1, 20, n).round(2), "Duty": (0.1 * usd + rng.normal(0, 5, n)).round(2)})  # fmt: skip
    prepare_task(df, out, "Duty", "rmse", name=out.name)


def _street_addresses(out: Path) -> None:
    """House listings with one address column '1234 Oak St, Springfield, IL 62704' (every value different):
    the city and state set the price per square foot; RMSE."""
    rng = np.random.default_rng(191)
    n = 5000
    cities = [(f"{c}", s) for c, s in zip(
        ["Springfield", "Riverton", "Fairview", "Madison", "Georgetown", "Salem", "Franklin", "Clinton",
         "Greenville", "Bristol", "Dover", "Oxford", "Ashland", "Milton", "Newport", "Jackson"],
        ["IL", "IL", "OH", "OH", "TX", "TX", "MA", "MA", "NC", "NC", "CA", "CA", "OR", "OR", "WA", "WA"],
        strict=True)]  # fmt: skip
    per_sqft = {c: rng.uniform(80, 600) for c, _ in cities}
    pick = rng.integers(0, len(cities), n)
    sqft = rng.integers(600, 4000, n)
    streets = ["Oak St", "Maple Ave", "Pine Rd", "Cedar Ln", "Elm St", "Lake Dr", "Hill Rd", "Main St"]
    address = [f"{rng.integers(1, 9999)} {rng.choice(streets)}, {cities[i][0]}, {cities[i][1]} {10000 + 97 * i + rng.integers(0, 5):05d}"
               for i in pick]  # fmt: skip
    price = np.array([per_sqft[cities[i][0]] for i in pick]) * sqft / 1000 + rng.normal(0, 20, n)
    df = pd.DataFrame(
        {"address": address, "sqft": sqft, "beds": rng.integers(1, 6, n), "price_k": price.round(1)}
    )
    prepare_task(df, out, "price_k", "rmse", name=out.name)


def _file_sizes(out: Path) -> None:
    """Downloads with sizes in mixed units '850 KB', '14.2 MB', '1.2 GB' and a connection '3G' / '4G' /
    'WiFi'; the seconds taken are the bytes over the connection's speed; RMSLE."""
    rng = np.random.default_rng(192)
    n = 5000
    kb = rng.lognormal(9, 2, n)
    size = [
        f"{k:.0f} KB" if k < 1024 else f"{k / 1024:.1f} MB" if k < 1024**2 else f"{k / 1024**2:.2f} GB"
        for k in kb
    ]
    speed = {"3G": 200.0, "4G": 2000.0, "WiFi": 8000.0}
    conn = rng.choice(list(speed), n)
    secs = kb / np.array([speed[c] for c in conn]) * rng.lognormal(0, 0.1, n) + 0.5
    df = pd.DataFrame({"Size": size, "Connection": conn, "Seconds": secs.round(3)})
    prepare_task(df, out, "Seconds", "rmsle", name=out.name)


def _lat_lon_dms(out: Path) -> None:
    """Sightings with coordinates in degrees, minutes and seconds 40°26'46"N, 79°58'56"W; the count
    falls with the distance from one site; RMSE."""
    rng = np.random.default_rng(193)
    n = 4000
    lat, lon = rng.uniform(35, 45, n), rng.uniform(-85, -75, n)
    y = 10 * np.exp(-((lat - 40.4) ** 2 + (lon + 80) ** 2) / 4) + rng.normal(0, 0.5, n)

    def dms(v: float, pos: str, neg: str) -> str:
        a = abs(v)
        d, m = int(a), int(a % 1 * 60)
        s = round((a * 3600) % 60)
        return f"{d}°{m:02d}'{min(s, 59):02d}\"{pos if v >= 0 else neg}"

    df = pd.DataFrame({"Latitude": [dms(v, "N", "S") for v in lat], "Longitude": [dms(v, "E", "W") for v in lon],
                       "Observers": rng.integers(1, 10, n), "Count": y.round(2)})  # fmt: skip
    prepare_task(df, out, "Count", "rmse", name=out.name)


def _epoch_millis(out: Path) -> None:
    """Click logs stamped in milliseconds since 1970 (1553000000000); the click rate follows the hour of day
    and the weekend; RMSE."""
    rng = np.random.default_rng(194)
    n = 6000
    ms = rng.integers(1_546_300_800_000, 1_577_836_800_000, n)
    t = pd.to_datetime(ms, unit="ms")
    y = (
        2
        + np.cos((t.hour.to_numpy() - 20) / 24 * 2 * np.pi)
        + 0.7 * (t.dayofweek.to_numpy() >= 5)
        + rng.normal(0, 0.3, n)
    )
    df = pd.DataFrame(
        {"timestamp": ms, "device": rng.choice(["ios", "android", "web"], n), "rate": y.round(3)}
    )
    prepare_task(df, out, "rate", "rmse", name=out.name)


def _employment_length(out: Path) -> None:
    """Loans as Lending Club lists them: employment '10+ years', '< 1 year', '3 years' or 'n/a', a term
    ' 36 months', a rate '13.56%'; default falls with the years employed and rises with the rate; ROC AUC."""
    rng = np.random.default_rng(195)
    n = 6000
    years = rng.integers(0, 11, n)
    rate = rng.uniform(5, 28, n)
    term = rng.choice([36, 60], n)
    logit = -2.5 - 0.25 * years + 0.12 * (rate - 15) + 0.5 * (term == 60) + rng.normal(0, 0.5, n)
    default = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    emp = np.array(["< 1 year" if y == 0 else "10+ years" if y == 10 else "1 year" if y == 1 else f"{y} years"
                    for y in years], dtype=object)  # fmt: skip
    emp[rng.random(n) < 0.05] = "n/a"
    df = pd.DataFrame({"emp_length": emp, "term": [f" {t} months" for t in term],
                       "int_rate": [f"{r:.2f}%" for r in rate], "default": default})  # fmt: skip
    prepare_task(df, out, "default", "roc_auc", name=out.name)


def _email_addresses(out: Path) -> None:
    """Sign-ups with an e-mail address each (every value different, 'j.smith42@gmail.com'); fraud is
    common on a few throw-away domains and rare on the big providers; ROC AUC."""
    rng = np.random.default_rng(196)
    n = 6000
    domains = {"gmail.com": 0.02, "yahoo.com": 0.03, "outlook.com": 0.02, "hotmail.com": 0.04,
               "mailinator.com": 0.6, "tempmail.net": 0.5, "protonmail.com": 0.1, "aol.com": 0.05}  # fmt: skip
    names = ["j.smith", "anna", "mike_b", "lee", "sara.k", "tom", "x", "user", "kim", "dave"]
    pick = rng.choice(list(domains), n, p=[0.3, 0.15, 0.15, 0.1, 0.08, 0.07, 0.08, 0.07])
    fraud = (rng.random(n) < np.array([domains[d] for d in pick])).astype(int)
    email = [f"{rng.choice(names)}{rng.integers(1, 99999)}@{d}" for d in pick]
    df = pd.DataFrame({"email": email, "age": rng.integers(18, 80, n), "fraud": fraud})
    prepare_task(df, out, "fraud", "roc_auc", name=out.name)


def _ordinal_dates(out: Path) -> None:
    """Event rows dated in words with ordinal days, 'March 3rd, 2019' or '21st Jan 2020'; attendance has a
    summer peak and a yearly rise; RMSE."""
    rng = np.random.default_rng(197)
    n = 5000
    day = pd.Timestamp("2018-01-01") + pd.to_timedelta(rng.integers(0, 3 * 365, n), unit="D")

    def ordinal(d: int) -> str:
        return f"{d}{'th' if 10 <= d % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(d % 10, 'th')}"

    text = [f"{t.strftime('%B')} {ordinal(t.day)}, {t.year}" if rng.random() < 0.5
            else f"{ordinal(t.day)} {t.strftime('%b')} {t.year}" for t in day]  # fmt: skip
    doy = day.dayofyear.to_numpy()
    y = (
        100
        + 40 * np.sin((doy - 80) / 365 * 2 * np.pi)
        + 15 * (day.year.to_numpy() - 2018)
        + rng.normal(0, 5, n)
    )
    df = pd.DataFrame(
        {"date": text, "venue": rng.choice(["hall", "park", "arena"], n), "attendance": y.round(1)}
    )
    prepare_task(df, out, "attendance", "rmse", name=out.name)


def _count_suffixes(out: Path) -> None:
    """Videos with counts shortened as a site shows them, '980', '12.5K', '3.4M', for views and for the
    channel's subscribers; the likes are a share of the views; RMSLE."""
    rng = np.random.default_rng(198)
    n = 5000
    views = rng.lognormal(10, 2.5, n)
    subs = rng.lognormal(9, 2, n)

    def short(v: float) -> str:
        return f"{v / 1e6:.1f}M" if v >= 1e6 else f"{v / 1e3:.1f}K" if v >= 1e3 else f"{v:.0f}"

    likes = views * rng.uniform(0.01, 0.05, n) * (1 + 0.1 * np.log1p(subs))
    df = pd.DataFrame({"views": [short(v) for v in views], "subscribers": [short(v) for v in subs],
                       "category": rng.choice(["music", "gaming", "news"], n), "likes": likes.round()})  # fmt: skip
    prepare_task(df, out, "likes", "rmsle", name=out.name)


def _salary_ranges(out: Path) -> None:
    """Job postings with a salary estimate '$85K-$120K (Glassdoor est.)' (hundreds of ranges) or
    '-1' when none; the applications follow the middle of the range; RMSE."""
    rng = np.random.default_rng(199)
    n = 5000
    low = rng.integers(30, 150, n)
    high = low + rng.integers(10, 80, n)
    mid = (low + high) / 2
    y = 20 + 0.8 * mid + rng.normal(0, 8, n)
    text = np.array([f"${a}K-${b}K (Glassdoor est.)" for a, b in zip(low, high, strict=True)], dtype=object)
    gone = rng.random(n) < 0.05
    text[gone] = "-1"
    y[gone] = 20 + 0.8 * 90 + rng.normal(0, 8, gone.sum())
    df = pd.DataFrame({"Salary Estimate": text, "Rating": rng.uniform(2.5, 5, n).round(1),
                       "Applications": y.round(1)})  # fmt: skip
    prepare_task(df, out, "Applications", "rmse", name=out.name)


def _opening_hours(out: Path) -> None:
    """Shops with opening hours '09:00-17:00', '8:30 - 21:00' or 'Closed' per day for two days; the week's
    visitors follow the hours open; RMSE."""
    rng = np.random.default_rng(200)
    n = 5000

    def hours() -> tuple[str, float]:
        if rng.random() < 0.1:
            return "Closed", 0.0
        start = rng.integers(12, 22) / 2
        end = start + rng.integers(8, 26) / 2
        sep = "-" if rng.random() < 0.7 else " - "
        clock = lambda h: f"{int(h):02d}:{int(h % 1 * 60):02d}"  # noqa: E731
        return f"{clock(start)}{sep}{clock(end)}", end - start

    sat, sun = zip(*(hours() for _ in range(n)), strict=True), zip(*(hours() for _ in range(n)), strict=True)
    sat_text, sat_h = sat
    sun_text, sun_h = sun
    y = 50 + 30 * np.array(sat_h) + 20 * np.array(sun_h) + rng.normal(0, 20, n)
    df = pd.DataFrame({"saturday": sat_text, "sunday": sun_text, "floor_m2": rng.integers(50, 500, n),
                       "visitors": y.round()})  # fmt: skip
    prepare_task(df, out, "visitors", "rmse", name=out.name)


def _unicode_units(out: Path) -> None:
    """Air-quality readings with units in Unicode, '12.5 µg/m³' (a micro sign and a superscript three),
    '40 ppb', '0.8 mg/m³'; asthma visits rise with the particles; RMSE."""
    rng = np.random.default_rng(201)
    n = 5000
    pm = rng.lognormal(2.5, 0.6, n)
    no2 = rng.uniform(5, 80, n)
    co = rng.uniform(0.1, 2, n)
    y = 3 + 0.4 * pm + 0.05 * no2 + rng.normal(0, 1.5, n)
    df = pd.DataFrame({"PM2.5": [f"{v:.1f} µg/m³" for v in pm], "NO₂": [f"{v:.0f} ppb" for v in no2],
                       "CO": [f"{v:.1f} mg/m³" for v in co], "visits": y.round(2)})  # fmt: skip
    prepare_task(df, out, "visits", "rmse", name=out.name)


def _cancer_stages(out: Path) -> None:
    """Patients with a stage in Roman numerals and a letter ('Stage IIIA', 'Stage IV'), a grade 'G2' and an
    age; survival months fall with the stage; RMSE."""
    rng = np.random.default_rng(202)
    n = 4000
    stage = rng.integers(1, 5, n)
    sub = rng.choice(["", "A", "B"], n)
    roman = {1: "I", 2: "II", 3: "III", 4: "IV"}
    grade = rng.integers(1, 4, n)
    age = rng.integers(30, 90, n)
    y = 120 - 25 * stage - 5 * (sub == "B") - 6 * grade - 0.3 * (age - 60) + rng.normal(0, 10, n)
    df = pd.DataFrame({"stage": [f"Stage {roman[s]}{b}" if s < 4 else "Stage IV" for s, b in zip(stage, sub, strict=True)],
                       "grade": [f"G{g}" for g in grade], "age": age, "survival_months": y.round(1)})  # fmt: skip
    prepare_task(df, out, "survival_months", "rmse", name=out.name)


def _phone_numbers(out: Path) -> None:
    """Leads with a phone number '(415) 555-0132' or '+1-212-555-0199' (every value different); the area
    code's region sets the answer rate; ROC AUC."""
    rng = np.random.default_rng(203)
    n = 6000
    areas = {
        "415": 0.5,
        "212": 0.1,
        "312": 0.3,
        "305": 0.15,
        "206": 0.45,
        "713": 0.2,
        "617": 0.35,
        "702": 0.05,
    }
    pick = rng.choice(list(areas), n)
    answered = (rng.random(n) < np.array([areas[a] for a in pick])).astype(int)
    phone = [f"({a}) {rng.integers(200, 999)}-{rng.integers(0, 9999):04d}" if rng.random() < 0.6
             else f"+1-{a}-{rng.integers(200, 999)}-{rng.integers(0, 9999):04d}" for a in pick]  # fmt: skip
    df = pd.DataFrame({"phone": phone, "calls_before": rng.integers(0, 5, n), "answered": answered})
    prepare_task(df, out, "answered", "roc_auc", name=out.name)


def _mixed_weights(out: Path) -> None:
    """Parcels weighed in mixed units, '2.5 kg', '500 g', '1.2 lb', '12 oz'; the postage is a price per
    kilogram plus a fee; RMSE."""
    rng = np.random.default_rng(204)
    n = 5000
    kg = rng.lognormal(0, 1, n)
    unit = rng.choice(["kg", "g", "lb", "oz"], n)
    per = {"kg": 1.0, "g": 0.001, "lb": 0.45359237, "oz": 0.028349523}
    text = [
        f"{k / per[u]:.0f} {u}" if u in ("g", "oz") else f"{k / per[u]:.2f} {u}"
        for k, u in zip(kg, unit, strict=True)
    ]
    y = 4 + 6 * kg + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"weight": text, "zone": rng.choice(["A", "B", "C"], n), "postage": y.round(2)})
    prepare_task(df, out, "postage", "rmse", name=out.name)


def _rating_text(out: Path) -> None:
    """Products rated in words as a shop shows them, '4.5 out of 5 stars', with '1,234 ratings'; returns
    fall with the rating; RMSE."""
    rng = np.random.default_rng(205)
    n = 5000
    stars = rng.integers(10, 51, n) / 10
    count = rng.lognormal(5, 1.5, n).astype(int) + 1
    y = 30 - 5 * stars + 0.5 * np.log(count) + rng.normal(0, 1, n)
    df = pd.DataFrame({"rating": [f"{s} out of 5 stars" for s in stars],
                       "reviews": [f"{c:,} ratings" for c in count], "returns": y.round(2)})  # fmt: skip
    prepare_task(df, out, "returns", "rmse", name=out.name)


def _spelled_magnitudes(out: Path) -> None:
    """Films with budgets written in words, '$150 million', '$2.5 million', '$800,000'; the box office
    follows the budget; RMSLE."""
    rng = np.random.default_rng(206)
    n = 4000
    budget = rng.lognormal(16, 1.2, n)
    text = [f"${b / 1e6:.1f} million" if b >= 1e6 else f"${b:,.0f}" for b in budget]
    y = budget * rng.lognormal(0.5, 0.4, n)
    df = pd.DataFrame(
        {"budget": text, "genre": rng.choice(["drama", "action", "comedy"], n), "gross": y.round()}
    )
    prepare_task(df, out, "gross", "rmsle", name=out.name)


def _lap_times(out: Path) -> None:
    """Race laps timed as a timing screen writes them, '1:27.452' (minutes, seconds and thousandths) with
    a best lap '1:25.9'; the finishing position follows the lap time; RMSE."""
    rng = np.random.default_rng(207)
    n = 5000
    secs = rng.uniform(80, 100, n)
    best = secs - rng.uniform(0.5, 3, n)
    y = 1 + (secs - 80) * 0.9 + rng.normal(0, 1, n)

    def lap(v: float, digits: int) -> str:
        return f"{int(v // 60)}:{v % 60:0{3 + digits}.{digits}f}"

    df = pd.DataFrame({"lap": [lap(v, 3) for v in secs], "best_lap": [lap(v, 1) for v in best],
                       "team": rng.choice(["red", "blue", "green", "gold"], n), "position": y.round(2)})  # fmt: skip
    prepare_task(df, out, "position", "rmse", name=out.name)


def _win_loss_records(out: Path) -> None:
    """Teams with their season so far written '12-5' (wins-losses) and a home record '7-1-2' (wins,
    losses, draws); the chance of the play-offs follows the share of wins; ROC AUC."""
    rng = np.random.default_rng(208)
    n = 5000
    games = rng.integers(5, 30, n)
    wins = rng.binomial(games, rng.uniform(0.2, 0.8, n))
    home_w = rng.integers(0, 10, n)
    logit = 8 * (wins / games - 0.5) + rng.normal(0, 0.5, n)
    made = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    df = pd.DataFrame({"record": [f"{w}-{g - w}" for w, g in zip(wins, games, strict=True)],
                       "home": [f"{h}-{rng.integers(0, 10)}-{rng.integers(0, 4)}" for h in home_w],
                       "playoffs": made})  # fmt: skip
    prepare_task(df, out, "playoffs", "roc_auc", name=out.name)


def _blood_pressure(out: Path) -> None:
    """Patients with a blood pressure '120/80' (systolic over diastolic), a height '172 cm' and a weight
    '81 kg'; cardiovascular disease rises with the systolic pressure and the BMI; ROC AUC."""
    rng = np.random.default_rng(209)
    n = 6000
    sys_bp = rng.normal(128, 18, n).round()
    dia = (sys_bp * 0.65 + rng.normal(0, 6, n)).round()
    height = rng.normal(170, 9, n).round()
    weight = rng.normal(75, 14, n).round()
    bmi = weight / (height / 100) ** 2
    logit = 0.05 * (sys_bp - 128) + 0.12 * (bmi - 26) + rng.normal(0, 0.5, n)
    ill = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    df = pd.DataFrame({"bp": [f"{int(s)}/{int(d)}" for s, d in zip(sys_bp, dia, strict=True)],
                       "height": [f"{int(h)} cm" for h in height], "weight": [f"{int(w)} kg" for w in weight],
                       "cardio": ill})  # fmt: skip
    prepare_task(df, out, "cardio", "roc_auc", name=out.name)


def _mixed_temperatures(out: Path) -> None:
    """Readings merged from two networks, one in Celsius '21.5°C', one in Fahrenheit '70.7°F'; the cooling
    load follows the temperature above 18 °C; RMSE."""
    rng = np.random.default_rng(210)
    n = 5000
    c = rng.uniform(-5, 40, n)
    fahrenheit = rng.random(n) < 0.4
    text = [f"{v * 9 / 5 + 32:.1f}°F" if f else f"{v:.1f}°C" for v, f in zip(c, fahrenheit, strict=True)]
    y = 10 + 4 * np.maximum(c - 18, 0) + rng.normal(0, 2, n)
    df = pd.DataFrame({"temperature": text, "site": rng.choice(["a", "b", "c", "d"], n), "load": y.round(2)})
    prepare_task(df, out, "load", "rmse", name=out.name)


def _package_dimensions(out: Path) -> None:
    """Parcels measured as a shop lists them, '30 x 40 x 50 cm' or '30x40x50cm'; the freight follows the
    volume; RMSE."""
    rng = np.random.default_rng(211)
    n = 5000
    dims = rng.integers(5, 61, (n, 3))
    litres = dims.prod(axis=1) / 1000
    text = [f"{a} x {b} x {c} cm" if rng.random() < 0.7 else f"{a}x{b}x{c}cm" for a, b, c in dims]
    y = 3 + 0.8 * litres + rng.normal(0, 1, n)
    df = pd.DataFrame({"dimensions": text, "express": rng.choice(["yes", "no"], n), "freight": y.round(2)})
    prepare_task(df, out, "freight", "rmse", name=out.name)


def _screen_resolutions(out: Path) -> None:
    """Monitors with a resolution '2560x1440' (widths of every size) and an aspect '16:9', '21:9' or '4:3';
    the price follows the pixel count; RMSE."""
    rng = np.random.default_rng(212)
    n = 5000
    aspects = {"16:9": 16 / 9, "16:10": 1.6, "21:9": 21 / 9, "4:3": 4 / 3}
    aspect = rng.choice(list(aspects), n)
    width = rng.integers(80, 481, n) * 8
    height = (width / np.array([aspects[a] for a in aspect])).round().astype(int)
    y = 80 + 40 * width * height / 1e6 + rng.normal(0, 10, n)
    df = pd.DataFrame({"resolution": [f"{w}x{h}" for w, h in zip(width, height, strict=True)], "aspect": aspect,
                       "panel": rng.choice(["IPS", "VA", "TN"], n), "price": y.round(2)})  # fmt: skip
    prepare_task(df, out, "price", "rmse", name=out.name)


def _expiry_dates(out: Path) -> None:
    """Card payments with the card's expiry as printed, 'MM/YY' ('03/27'); new cards (far expiry) are
    fraud more often; ROC AUC."""
    rng = np.random.default_rng(213)
    n = 6000
    months_ahead = rng.integers(1, 97, n)
    month = (months_ahead + 4) % 12 + 1
    year = 24 + (months_ahead + 4) // 12
    logit = -2.5 + 0.04 * months_ahead
    fraud = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    df = pd.DataFrame({"expiry": [f"{m:02d}/{y}" for m, y in zip(month, year, strict=True)],
                       "amount": rng.lognormal(3, 1, n).round(2), "fraud": fraud})  # fmt: skip
    prepare_task(df, out, "fraud", "roc_auc", name=out.name)


def _seasons(out: Path) -> None:
    """Players' seasons written '2015-16' or '2015/16' over thirty years, with games played; points per
    game rise over the years; RMSE."""
    rng = np.random.default_rng(214)
    n = 5000
    start = rng.integers(1990, 2021, n)
    text = [f"{s}-{(s + 1) % 100:02d}" if rng.random() < 0.8 else f"{s}/{(s + 1) % 100:02d}" for s in start]
    games = rng.integers(10, 83, n)
    y = 5 + 0.3 * (start - 1990) + 0.05 * games + rng.normal(0, 2, n)
    df = pd.DataFrame({"season": text, "games": games, "ppg": y.round(2)})
    prepare_task(df, out, "ppg", "rmse", name=out.name)


def _hex_colors(out: Path) -> None:
    """Products with a colour as a web code '#FF8800' (nearly every value different); sales follow the
    colour's brightness; RMSE."""
    rng = np.random.default_rng(215)
    n = 5000
    rgb = rng.integers(0, 256, (n, 3))
    bright = rgb @ np.array([0.299, 0.587, 0.114]) / 255
    y = 20 + 30 * bright + rng.normal(0, 2, n)
    df = pd.DataFrame({"colour": [f"#{r:02X}{g:02X}{b:02X}" for r, g, b in rgb],
                       "size": rng.choice(["S", "M", "L"], n), "sales": y.round(2)})  # fmt: skip
    prepare_task(df, out, "sales", "rmse", name=out.name)


def _geohash(lat: float, lon: float, length: int) -> str:
    """Geohash of a point: bits of longitude and latitude interleaved, five to a base-32 letter."""
    letters, bits, lo, la = "0123456789bcdefghjkmnpqrstuvwxyz", [], [-180.0, 180.0], [-90.0, 90.0]
    for i in range(length * 5):
        span, v = (lo, lon) if i % 2 == 0 else (la, lat)
        mid = (span[0] + span[1]) / 2
        bits.append(int(v >= mid))
        span[0 if v >= mid else 1] = mid
    return "".join(letters[int("".join(map(str, bits[k : k + 5])), 2)] for k in range(0, len(bits), 5))


def _geohashes(out: Path) -> None:
    """Homes located only by a seven-letter geohash ('dr5regw'), nearly every value different; the price
    follows the neighbourhood (the hash's first letters); RMSE."""
    rng = np.random.default_rng(216)
    n = 5000
    centres = rng.uniform([40.5, -74.2], [40.9, -73.7], (12, 2))
    level = rng.uniform(300, 900, 12)
    pick = rng.integers(0, 12, n)
    pts = centres[pick] + rng.normal(0, 0.01, (n, 2))
    y = level[pick] + rng.normal(0, 30, n)
    df = pd.DataFrame({"geohash": [_geohash(a, b, 7) for a, b in pts], "rooms": rng.integers(1, 6, n),
                       "price_k": y.round(1)})  # fmt: skip
    prepare_task(df, out, "price_k", "rmse", name=out.name)


def _vin_numbers(out: Path) -> None:
    """Used cars with a 17-character VIN (every value different) whose first three characters name the
    maker; the price follows the maker, the year and the mileage; RMSE."""
    rng = np.random.default_rng(217)
    n = 5000
    makers = {"1HG": 14, "WBA": 24, "JTD": 15, "1FA": 12, "WVW": 13, "KMH": 11, "WDD": 26, "5YJ": 30}
    wmi = rng.choice(list(makers), n)
    allowed = np.array(list("ABCDEFGHJKLMNPRSTUVWXYZ0123456789"))
    year = rng.integers(2010, 2024, n)
    year_code = dict(zip(range(2010, 2024), "ABCDEFGHJKLMNP", strict=True))
    vins = ["".join([w, *rng.choice(allowed, 5), str(rng.integers(0, 10)), year_code[yr], *rng.choice(allowed, 1),
                     f"{rng.integers(0, 10**6):06d}"]) for w, yr in zip(wmi, year, strict=True)]  # fmt: skip
    miles = rng.integers(1000, 150_000, n)
    y = np.array([makers[w] for w in wmi]) + 0.9 * (year - 2010) - miles / 20_000 + rng.normal(0, 1, n)
    df = pd.DataFrame({"vin": vins, "year": year, "mileage": miles, "price_k": y.round(2)})
    prepare_task(df, out, "price_k", "rmse", name=out.name)


def _hex_numbers(out: Path) -> None:
    """Executable headers with sizes written in hexadecimal ('0x0001F400'); malware is more often small;
    ROC AUC."""
    rng = np.random.default_rng(218)
    n = 6000
    size = rng.lognormal(11, 1.5, n).astype(int) + 512
    entry = rng.integers(0x1000, 0xFFFFF, n)
    logit = -1.2 * (np.log(size) - 11) + rng.normal(0, 0.3, n)
    bad = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    df = pd.DataFrame({"size_of_code": [f"0x{v:08X}" for v in size], "entry_point": [f"0x{v:X}" for v in entry],
                       "sections": rng.integers(2, 9, n), "malware": bad})  # fmt: skip
    prepare_task(df, out, "malware", "roc_auc", name=out.name)


def _signed_percents(out: Path) -> None:
    """Stocks with the day's change written '+5.21%', '-3.10%' or '0.00%' and a volume; tomorrow's rise
    follows a reversal of today's change; ROC AUC."""
    rng = np.random.default_rng(219)
    n = 6000
    change = rng.normal(0, 3, n)
    logit = -0.4 * change
    up = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    df = pd.DataFrame({"change": [f"{v:+.2f}%" if abs(v) >= 0.005 else "0.00%" for v in change],
                       "volume": rng.integers(10_000, 5_000_000, n), "up_next_day": up})  # fmt: skip
    prepare_task(df, out, "up_next_day", "roc_auc", name=out.name)


def _unit_ranges(out: Path) -> None:
    """Pets with an expected weight '10-20 kg' and a lifespan '12 - 15 years' as breeders list them; the
    food bill follows the middle of the weight range; RMSE."""
    rng = np.random.default_rng(220)
    n = 5000
    low = rng.integers(2, 60, n)
    high = low + rng.integers(2, 20, n)
    life_low = rng.integers(8, 14, n)
    y = 10 + 2 * (low + high) / 2 + rng.normal(0, 3, n)
    df = pd.DataFrame({"weight": [f"{a}-{b} kg" for a, b in zip(low, high, strict=True)],
                       "lifespan": [f"{a} - {a + rng.integers(1, 5)} years" for a in life_low],
                       "food_bill": y.round(2)})  # fmt: skip
    prepare_task(df, out, "food_bill", "rmse", name=out.name)


def _interval_bins(out: Path) -> None:
    """Ages binned as pandas writes intervals, '(35.0, 40.0]' in thirteen bins, and an income binned
    '[20000, 40000)'; the claim cost follows the age; RMSE."""
    rng = np.random.default_rng(221)
    n = 5000
    age = rng.uniform(20, 85, n)
    bins = pd.cut(age, np.arange(20, 86, 5), include_lowest=True)
    income = rng.integers(0, 6, n) * 20_000
    y = 500 + 40 * age + rng.normal(0, 200, n)
    df = pd.DataFrame({"age_bin": bins.astype(str), "income": [f"[{v}, {v + 20_000})" for v in income],
                       "cost": y.round(2)})  # fmt: skip
    prepare_task(df, out, "cost", "rmse", name=out.name)


def _euro_prices(out: Path) -> None:
    """Prices written as in Germany, '1.234,56 €' or '€ 99,90' (a dot for thousands, a comma for decimals);
    the import duty follows the price; RMSE."""
    rng = np.random.default_rng(222)
    n = 5000
    price = rng.lognormal(5, 1.2, n).round(2)

    def german(v: float) -> str:
        whole, cents = f"{v:,.2f}".split(".")
        return f"{whole.replace(',', '.')},{cents}"

    text = [f"{german(v)} €" if rng.random() < 0.7 else f"€ {german(v)}" for v in price]
    y = 2 + 0.12 * price + rng.normal(0, 2, n)
    df = pd.DataFrame(
        {"price": text, "category": rng.choice(["toys", "tools", "books"], n), "duty": y.round(2)}
    )
    prepare_task(df, out, "duty", "rmse", name=out.name)


def _masked_cards(out: Path) -> None:
    """Payments with the card number masked as receipts print it, '4532 **** **** 1234' (every value
    different); the fraud rate follows the card network, which the first digit names; ROC AUC."""
    rng = np.random.default_rng(223)
    n = 6000
    networks = {"4": 0.04, "5": 0.08, "3": 0.2, "6": 0.3}
    first = rng.choice(list(networks), n, p=[0.5, 0.3, 0.15, 0.05])
    fraud = (rng.random(n) < np.array([networks[f] for f in first])).astype(int)
    cards = [f"{f}{rng.integers(100, 1000)} **** **** {rng.integers(0, 10000):04d}" for f in first]
    df = pd.DataFrame({"card": cards, "amount": rng.lognormal(3, 1, n).round(2), "fraud": fraud})
    prepare_task(df, out, "fraud", "roc_auc", name=out.name)


def _iban_codes(out: Path) -> None:
    """Payees with an IBAN, whose length differs by country ('DE89370400440532013000', 22 characters; 'NL',
    18; 'FR', 27); the payment is returned more often by country; ROC AUC."""
    rng = np.random.default_rng(224)
    n = 6000
    countries = {"DE": (22, 0.05), "NL": (18, 0.1), "FR": (27, 0.25), "GB": (22, 0.15), "IT": (27, 0.35)}
    pick = rng.choice(list(countries), n)
    returned = (rng.random(n) < np.array([countries[c][1] for c in pick])).astype(int)
    ibans = [
        "".join([c, f"{rng.integers(10, 100)}", *map(str, rng.integers(0, 10, countries[c][0] - 4))])
        for c in pick
    ]
    df = pd.DataFrame({"iban": ibans, "amount": rng.lognormal(5, 1, n).round(2), "returned": returned})
    prepare_task(df, out, "returned", "roc_auc", name=out.name)


def _pandas_timedeltas(out: Path) -> None:
    """Support tickets with the time to resolve as pandas writes a timedelta, '2 days 03:15:00' or '0 days
    00:45:30'; satisfaction falls with the time taken; RMSE."""
    rng = np.random.default_rng(225)
    n = 5000
    hours = rng.lognormal(2.5, 1.2, n)
    td = pd.to_timedelta(hours, unit="h").round("s")
    y = 9 - 1.2 * np.log1p(hours) + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"resolution_time": td.astype(str), "channel": rng.choice(["mail", "phone", "chat"], n),
                       "satisfaction": y.round(2)})  # fmt: skip
    prepare_task(df, out, "satisfaction", "rmse", name=out.name)


def _mixed_speeds(out: Path) -> None:
    """Cars' top speeds merged from two markets, '155 mph' beside '250 km/h'; the insurance group follows
    the speed; RMSE."""
    rng = np.random.default_rng(226)
    n = 5000
    kmh = rng.uniform(140, 320, n)
    mph = rng.random(n) < 0.4
    text = [f"{v / 1.609344:.0f} mph" if m else f"{v:.0f} km/h" for v, m in zip(kmh, mph, strict=True)]
    y = 5 + 0.15 * kmh + rng.normal(0, 2, n)
    df = pd.DataFrame({"top_speed": text, "doors": rng.choice([2, 4, 5], n), "group": y.round(2)})
    prepare_task(df, out, "group", "rmse", name=out.name)


def _mixed_denominators(out: Path) -> None:
    """Reviews scored on different scales as sites print them, '7/10', '4/5', '85/100'; the chance to buy
    follows the score as a share of its scale; ROC AUC."""
    rng = np.random.default_rng(227)
    n = 6000
    share = rng.uniform(0, 1, n)
    scale = rng.choice([5, 10, 100], n)
    logit = 6 * (share - 0.5)
    bought = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    text = [f"{round(s * d)}/{d}" for s, d in zip(share, scale, strict=True)]
    df = pd.DataFrame({"score": text, "reviews": rng.integers(1, 500, n), "bought": bought})
    prepare_task(df, out, "bought", "roc_auc", name=out.name)


def _mac_addresses(out: Path) -> None:
    """Devices on a network by MAC address '00:1A:2B:3C:4D:5E' (every value different); the first three
    bytes name the vendor, which sets the failure rate; ROC AUC."""
    rng = np.random.default_rng(228)
    n = 6000
    vendors = {"00:1A:2B": 0.05, "3C:5A:B4": 0.3, "F4:F5:D8": 0.1, "00:50:56": 0.45, "B8:27:EB": 0.2}
    pick = rng.choice(list(vendors), n)
    failed = (rng.random(n) < np.array([vendors[v] for v in pick])).astype(int)
    macs = [v + "".join(f":{b:02X}" for b in rng.integers(0, 256, 3)) for v in pick]
    df = pd.DataFrame({"mac": macs, "uptime_days": rng.integers(1, 400, n), "failed": failed})
    prepare_task(df, out, "failed", "roc_auc", name=out.name)


def _us_datetimes(out: Path) -> None:
    """Orders stamped as US systems write them, '03/05/2019 02:15:00 PM' (month first, twelve-hour clock);
    the delivery delay is longer in the evening and on weekends; RMSE."""
    rng = np.random.default_rng(229)
    n = 5000
    t = pd.Timestamp("2019-01-01") + pd.to_timedelta(rng.uniform(0, 730, n), unit="D")
    t = t.round("min")
    y = 24 + 0.8 * t.hour + 10 * (t.dayofweek >= 5) + rng.normal(0, 2, n)
    df = pd.DataFrame({"ordered_at": t.strftime("%m/%d/%Y %I:%M:%S %p"), "items": rng.integers(1, 10, n),
                       "delay_h": y.round(2)})  # fmt: skip
    prepare_task(df, out, "delay_h", "rmse", name=out.name)


def _height_words(out: Path) -> None:
    """Athletes' heights written '5 ft 11 in' or '6 ft 2 in', weights '185 lbs'; the jump follows the height
    in inches; RMSE."""
    rng = np.random.default_rng(230)
    n = 5000
    inches = rng.integers(62, 84, n)
    weight = rng.integers(140, 280, n)
    y = 10 + 0.5 * (inches - 72) - 0.02 * (weight - 200) + rng.normal(0, 0.8, n)
    df = pd.DataFrame({"height": [f"{h // 12} ft {h % 12} in" for h in inches], "weight": [f"{w} lbs" for w in weight],
                       "vertical_in": y.round(2)})  # fmt: skip
    prepare_task(df, out, "vertical_in", "rmse", name=out.name)


def _isbn_numbers(out: Path) -> None:
    """Books by ISBN-10 as printed without hyphens ('0195153448', 'X' for a check digit of ten); the first
    digits name the language group (0 and 1 English, 2 French, 3 German, 4 Japanese, 5 Russian, 7 Chinese),
    which sets the rating; RMSE."""
    rng = np.random.default_rng(231)
    n = 5000
    groups = {"0": 3.9, "1": 3.8, "2": 3.5, "3": 4.1, "4": 3.3, "5": 4.4, "7": 3.0}
    group = rng.choice(list(groups), n, p=[0.35, 0.2, 0.1, 0.12, 0.1, 0.08, 0.05])

    def isbn(g: str) -> str:
        body = g + "".join(map(str, rng.integers(0, 10, 8)))
        check = (11 - sum((10 - i) * int(d) for i, d in enumerate(body)) % 11) % 11
        return body + ("X" if check == 10 else str(check))

    pages = rng.integers(80, 900, n)
    y = np.array([groups[g] for g in group]) + 0.1 * np.log(pages) + rng.normal(0, 0.2, n)
    df = pd.DataFrame({"isbn": [isbn(g) for g in group], "pages": pages, "rating": y.round(3)})
    prepare_task(df, out, "rating", "rmse", name=out.name)


def _hemisphere_coordinates(out: Path) -> None:
    """Weather stations across Europe located in one column as atlases print it, '51.5074° N, 0.1278° W'
    (west of Greenwich is negative); the mean temperature follows latitude and longitude; RMSE."""
    rng = np.random.default_rng(232)
    n = 5000
    lat = rng.uniform(36, 62, n)
    lon = rng.uniform(-10, 25, n)
    y = 32 - 0.45 * lat + 0.12 * lon + rng.normal(0, 1, n)
    text = [f"{abs(a):.4f}° {'N' if a >= 0 else 'S'}, {abs(o):.4f}° {'E' if o >= 0 else 'W'}" for a, o in zip(lat, lon, strict=True)]  # fmt: skip
    df = pd.DataFrame({"location": text, "elevation_m": rng.integers(0, 400, n), "temp_c": y.round(2)})
    prepare_task(df, out, "temp_c", "rmse", name=out.name)


def _weekday_times(out: Path) -> None:
    """Appointments booked for a weekly slot written 'Tue 09:35'; the wait grows through the day and is
    longest on Mondays; RMSE."""
    rng = np.random.default_rng(233)
    n = 5000
    day = rng.integers(0, 6, n)
    minute = rng.integers(8 * 60, 18 * 60, n)
    names = np.array(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat"])
    text = [f"{names[d]} {m // 60:02d}:{m % 60:02d}" for d, m in zip(day, minute, strict=True)]
    y = 10 + 0.04 * (minute - 480) + 8 * (day == 0) + rng.normal(0, 2, n)
    df = pd.DataFrame({"slot": text, "doctor": rng.choice(["a", "b", "c"], n), "wait_min": y.round(2)})
    prepare_task(df, out, "wait_min", "rmse", name=out.name)


def _scientific_units(out: Path) -> None:
    """Assays whose concentration is written in scientific notation with its unit, '1.5e-3 mol/L'; the
    response follows the concentration's logarithm; RMSE."""
    rng = np.random.default_rng(234)
    n = 5000
    conc = 10 ** rng.uniform(-6, -1, n)
    y = 2 + 0.8 * np.log10(conc) + rng.normal(0, 0.3, n)
    df = pd.DataFrame({"concentration": [f"{c:.2e} mol/L" for c in conc], "plate": rng.integers(1, 9, n),
                       "response": y.round(3)})  # fmt: skip
    prepare_task(df, out, "response", "rmse", name=out.name)


def _space_thousands(out: Path) -> None:
    """Company revenues as French sources write them, '1 234 567 €', the thousands split by a space, a
    no-break space or a narrow one; the tax band follows the revenue's logarithm; RMSE."""
    rng = np.random.default_rng(235)
    n = 5000
    revenue = np.round(10 ** rng.uniform(3, 8, n))
    spaces = rng.choice([" ", "\u00a0", "\u202f"], n)
    text = [f"{int(r):,} €".replace(",", s) for r, s in zip(revenue, spaces, strict=True)]
    y = 1 + 1.5 * np.log10(revenue) + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"chiffre_affaires": text, "salaries": rng.integers(1, 500, n), "band": y.round(2)})
    prepare_task(df, out, "band", "rmse", name=out.name)


def _indian_grouping(out: Path) -> None:
    """Prices as Indian sites write them, '₹ 4,50,000' (lakhs and crores grouped in twos after the first
    three digits); the insurance premium follows the price; RMSE."""
    rng = np.random.default_rng(236)
    n = 5000
    price = np.round(10 ** rng.uniform(4.5, 7.5, n), -2)

    def grouped(v: float) -> str:
        s = str(int(v))
        head, tail = s[:-3], s[-3:]
        pairs = [head[max(i - 2, 0) : i] for i in range(len(head), 0, -2)][::-1]
        return "₹ " + ",".join([*pairs, tail] if head else [tail])

    y = 500 + 0.002 * price + rng.normal(0, 200, n)
    df = pd.DataFrame({"price": [grouped(p) for p in price], "age_years": rng.integers(0, 15, n),
                       "premium": y.round(2)})  # fmt: skip
    prepare_task(df, out, "premium", "rmse", name=out.name)


def _lakh_crore(out: Path) -> None:
    """Used cars priced as Indian listings print them, '4.5 Lakh' and '1.2 Crore' beside '85,000' (a lakh
    is 100,000, a crore 100 lakh); the resale value follows the price new; RMSE."""
    rng = np.random.default_rng(237)
    n = 5000
    lakh = 10 ** rng.uniform(-0.3, 2.5, n)

    def written(v: float) -> str:
        if v >= 100:
            return f"{v / 100:.2f} Crore"
        return f"{v:.2f} Lakh" if v >= 1 else f"{round(v * 100000):,}"

    y = 0.6 * lakh + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"new_price": [written(v) for v in lakh], "km_driven": rng.integers(1000, 200000, n),
                       "resale_lakh": y.round(3)})  # fmt: skip
    prepare_task(df, out, "resale_lakh", "rmse", name=out.name)


def _date_spans(out: Path) -> None:
    """Jobs held as profiles list them, 'Jan 2015 - Mar 2019' or 'Jun 2020 - Present' (the data end in
    December 2024); the salary follows the months in the job; RMSE."""
    rng = np.random.default_rng(238)
    n = 5000
    start = rng.integers(0, 240, n)  # months since January 2005
    length = rng.integers(1, 120, n)
    end = start + length
    current = end >= 239
    months = np.where(current, 239 - start, length)
    names = np.array(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"])

    def month(m: int) -> str:
        return f"{names[m % 12]} {2005 + m // 12}"

    text = [
        f"{month(s)} - {'Present' if c else month(e)}" for s, e, c in zip(start, end, current, strict=True)
    ]
    y = 40 + 0.25 * months + rng.normal(0, 3, n)
    df = pd.DataFrame({"tenure": text, "title": rng.choice(["analyst", "engineer", "manager"], n),
                       "salary_k": y.round(2)})  # fmt: skip
    prepare_task(df, out, "salary_k", "rmse", name=out.name)


def _car_specs(out: Path) -> None:
    """CarDekho's used cars: mileage '23.4 kmpl' or '17.3 km/kg', engine '1248 CC', power '74 bhp' and a
    torque written three ways ('190Nm@ 2000rpm', '22.4 kgm at 1750-2750rpm', '11.5@ 4,500(kgm@ rpm)'); the
    log price follows power and torque (in Nm); RMSE."""
    rng = np.random.default_rng(241)
    n = 5000
    power = rng.uniform(40, 200, n)
    torque = rng.uniform(80, 400, n)
    rpm = rng.integers(15, 45, n) * 100
    kgm = torque / 9.8
    style = rng.integers(0, 3, n)
    text = [f"{t:.0f}Nm@ {r}rpm" if s == 0 else f"{k:.1f} kgm at {r}-{r + 1000}rpm" if s == 1
            else f"{k:.1f}@ {r:,}(kgm@ rpm)" for t, k, r, s in zip(torque, kgm, rpm, style, strict=True)]  # fmt: skip
    cng = rng.random(n) < 0.15
    mileage = [f"{rng.uniform(12, 28):.1f} {'km/kg' if c else 'kmpl'}" for c in cng]
    y = 11 + 0.006 * power + 0.004 * torque + rng.normal(0, 0.1, n)
    df = pd.DataFrame({"mileage": mileage, "engine": [f"{int(rng.integers(8, 30)) * 100 - 2} CC" for _ in range(n)],
                       "max_power": [f"{p:.1f} bhp" for p in power], "torque": text, "log_price": y.round(3)})  # fmt: skip
    prepare_task(df, out, "log_price", "rmse", name=out.name)


def _censored_values(out: Path) -> None:
    """Water samples whose lead reading is written '<0.5' below the detection limit and '>1000' above the
    range, plain numbers between; the risk score follows the reading's logarithm; RMSE."""
    rng = np.random.default_rng(242)
    n = 5000
    lead = 10 ** rng.uniform(-1, 3.3, n)
    text = ["<0.5" if v < 0.5 else ">1000" if v > 1000 else f"{v:.2f}" for v in lead]
    clipped = np.clip(lead, 0.5, 1000)
    y = 1 + 1.2 * np.log10(clipped) + rng.normal(0, 0.3, n)
    df = pd.DataFrame({"lead_ppb": text, "ph": rng.uniform(6, 8.5, n).round(2), "risk": y.round(3)})
    prepare_task(df, out, "risk", "rmse", name=out.name)


def _plus_minus(out: Path) -> None:
    """Lab measurements written with their uncertainty, '12.3 ± 0.4' (sometimes '12.3 +/- 0.4'); the yield
    follows the value; RMSE."""
    rng = np.random.default_rng(243)
    n = 5000
    value = rng.uniform(5, 50, n)
    err = rng.uniform(0.1, 2, n)
    sign = rng.choice(["±", "+/-"], n, p=[0.8, 0.2])
    text = [f"{v:.1f} {s} {e:.1f}" for v, s, e in zip(value, sign, err, strict=True)]
    y = 3 + 0.4 * value + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"measurement": text, "batch": rng.integers(1, 20, n), "yield_g": y.round(3)})
    prepare_task(df, out, "yield_g", "rmse", name=out.name)


def _star_ratings(out: Path) -> None:
    """Hotel reviews with a star rating drawn as characters, '★★★★☆' (filled and empty stars); the booking
    rate follows the stars; RMSE."""
    rng = np.random.default_rng(244)
    n = 5000
    stars = rng.integers(1, 6, n)
    y = 20 + 6 * stars + rng.normal(0, 2, n)
    df = pd.DataFrame({"stars": ["★" * s + "☆" * (5 - s) for s in stars], "rooms": rng.integers(10, 300, n),
                       "booking_rate": y.round(2)})  # fmt: skip
    prepare_task(df, out, "booking_rate", "rmse", name=out.name)


def _spec_pairs(out: Path) -> None:
    """Phone listings whose specifications sit in one column as key-value pairs, 'RAM: 8GB; Storage: 256GB;
    Battery: 4500mAh' (the keys in varying order); the price follows RAM and storage; RMSE."""
    rng = np.random.default_rng(245)
    n = 5000
    ram = rng.choice([2, 3, 4, 6, 8, 12, 16], n)
    storage = rng.choice([32, 64, 128, 256, 512], n)
    battery = rng.integers(30, 60, n) * 100
    specs = []
    for r, s, b in zip(ram, storage, battery, strict=True):
        parts = [f"RAM: {r}GB", f"Storage: {s}GB", f"Battery: {b}mAh"]
        rng.shuffle(parts)
        specs.append("; ".join(parts))
    y = 100 + 30 * ram + 0.8 * storage + rng.normal(0, 20, n)
    df = pd.DataFrame({"specs": specs, "brand": rng.choice(["a", "b", "c", "d"], n), "price": y.round(2)})
    prepare_task(df, out, "price", "rmse", name=out.name)


def _half_years(out: Path) -> None:
    """Reports dated by half-year, 'H1 2016' to 'H2 2023'; sales grow steadily over time and are higher in
    the second half; RMSE."""
    rng = np.random.default_rng(246)
    n = 5000
    idx = rng.integers(0, 16, n)
    text = [f"H{i % 2 + 1} {2016 + i // 2}" for i in idx]
    y = 50 + 4 * idx + 5 * (idx % 2) + rng.normal(0, 2, n)
    df = pd.DataFrame({"period": text, "region": rng.choice(["n", "s", "e", "w"], n), "sales": y.round(2)})
    prepare_task(df, out, "sales", "rmse", name=out.name)


def _time_controls(out: Path) -> None:
    """Online chess games with a time control written as base seconds plus increment, '300+5', '60+0',
    '900+10'; the game's length in seconds follows both; RMSE."""
    rng = np.random.default_rng(247)
    n = 5000
    base = rng.choice([60, 120, 180, 300, 600, 900, 1800], n)
    inc = rng.choice([0, 1, 2, 3, 5, 10, 15], n)
    moves = rng.integers(20, 80, n)
    y = 0.7 * base + 1.0 * inc * moves + rng.normal(0, 20, n)
    df = pd.DataFrame({"time_control": [f"{b}+{i}" for b, i in zip(base, inc, strict=True)], "moves": moves,
                       "duration_s": y.round(1)})  # fmt: skip
    prepare_task(df, out, "duration_s", "rmse", name=out.name)


def _pounds_ounces(out: Path) -> None:
    """Newborns' weights as US hospitals write them, '7 lb 8 oz' (sometimes '7lbs 8oz'); the days in hospital
    fall with the weight; RMSE."""
    rng = np.random.default_rng(248)
    n = 5000
    ounces = rng.integers(64, 160, n)
    style = rng.random(n) < 0.3
    text = [f"{o // 16}lbs {o % 16}oz" if s else f"{o // 16} lb {o % 16} oz" for o, s in zip(ounces, style, strict=True)]  # fmt: skip
    y = 12 - 0.06 * ounces + rng.normal(0, 0.5, n)
    df = pd.DataFrame(
        {"birth_weight": text, "gestation_wk": rng.integers(34, 42, n), "stay_days": y.round(2)}
    )
    prepare_task(df, out, "stay_days", "rmse", name=out.name)


def _approx_numbers(out: Path) -> None:
    """Crowd counts as reporters give them, '~300', 'approx. 1,200', 'about 450', 'c. 80', '2000+'; the
    police hours needed follow the count's logarithm; RMSE."""
    rng = np.random.default_rng(249)
    n = 5000
    count = np.round(10 ** rng.uniform(1, 4, n), -1).astype(int)
    forms = ["~{}", "approx. {:,}", "about {}", "c. {}", "{}+", "{}"]
    pick = rng.integers(0, len(forms), n)
    text = [forms[p].format(c) for p, c in zip(pick, count, strict=True)]
    y = 2 + 3 * np.log10(count) + rng.normal(0, 0.3, n)
    df = pd.DataFrame({"crowd": text, "weekend": rng.integers(0, 2, n), "police_hours": y.round(3)})
    prepare_task(df, out, "police_hours", "rmse", name=out.name)


def _mpg_pairs(out: Path) -> None:
    """Cars' fuel economy written city over highway with its unit, '25/32 mpg'; the yearly fuel cost follows
    both; RMSE."""
    rng = np.random.default_rng(250)
    n = 5000
    city = rng.integers(12, 40, n)
    hwy = city + rng.integers(3, 12, n)
    y = 60000 / city * 0.55 + 60000 / hwy * 0.45 + rng.normal(0, 30, n)
    df = pd.DataFrame({"economy": [f"{c}/{h} mpg" for c, h in zip(city, hwy, strict=True)],
                       "doors": rng.choice([2, 4], n), "fuel_cost": y.round(1)})  # fmt: skip
    prepare_task(df, out, "fuel_cost", "rmse", name=out.name)


def _tennis_scores(out: Path) -> None:
    """Tennis matches with the score in sets, '6-4 3-6 7-6(5)' (tie-break points in brackets); the match
    length in minutes follows the games played; RMSE."""
    rng = np.random.default_rng(251)
    n = 5000
    rows, games = [], []
    for _ in range(n):
        sets, total = [], 0
        for _ in range(int(rng.choice([2, 3], p=[0.6, 0.4]))):
            a = 6 if rng.random() < 0.5 else 7
            b = int(rng.integers(0, 5)) if a == 6 else int(rng.choice([5, 6]))
            if rng.random() < 0.5:
                a, b = b, a
            tb = f"({rng.integers(0, 10)})" if 6 in (a, b) and 7 in (a, b) else ""
            sets.append(f"{a}-{b}{tb}")
            total += a + b
        rows.append(" ".join(sets))
        games.append(total)
    y = 10 + 4.2 * np.array(games) + rng.normal(0, 5, n)
    df = pd.DataFrame(
        {"score": rows, "surface": rng.choice(["clay", "grass", "hard"], n), "minutes": y.round(1)}
    )
    prepare_task(df, out, "minutes", "rmse", name=out.name)


def _long_hours(out: Path) -> None:
    """Machines' running time as a meter shows it, hours and minutes past a day, '1234:30'; the wear follows
    the hours; RMSE."""
    rng = np.random.default_rng(252)
    n = 5000
    minutes = rng.integers(30, 5000 * 60, n)
    text = [f"{m // 60}:{m % 60:02d}" for m in minutes]
    y = 5 + 0.004 * minutes / 60 + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"run_time": text, "model": rng.choice(["x1", "x2", "x3"], n), "wear_mm": y.round(3)})
    prepare_task(df, out, "wear_mm", "rmse", name=out.name)


def _dotted_dates(out: Path) -> None:
    """Dates as German sources write them, '24.12.2019' (day first, dots); the price index climbs over time
    and is higher in winter months; RMSE."""
    rng = np.random.default_rng(253)
    n = 5000
    day = pd.Timestamp("2015-01-01") + pd.to_timedelta(rng.integers(0, 365 * 8, n), unit="D")
    winter = np.isin(day.month, [12, 1, 2])
    y = 100 + 0.01 * (day - pd.Timestamp("2015-01-01")).days + 4 * winter + rng.normal(0, 1, n)
    df = pd.DataFrame(
        {"datum": day.strftime("%d.%m.%Y"), "laden": rng.integers(1, 30, n), "index": y.round(3)}
    )
    prepare_task(df, out, "index", "rmse", name=out.name)


def _swiss_thousands(out: Path) -> None:
    """Salaries as Swiss sources write them, "CHF 85'400.50" (an apostrophe between thousands); the tax
    follows the salary; RMSE."""
    rng = np.random.default_rng(254)
    n = 5000
    salary = rng.uniform(30000, 400000, n)
    y = 0.18 * salary + rng.normal(0, 500, n)
    df = pd.DataFrame({"lohn": [f"CHF {s:,.2f}".replace(",", "'") for s in salary],
                       "kanton": rng.choice(["ZH", "BE", "GE", "VD"], n), "steuer": y.round(1)})  # fmt: skip
    prepare_task(df, out, "steuer", "rmse", name=out.name)


def _mixed_fractions(out: Path) -> None:
    """Lumber widths in inches as mixed numbers, '3 1/2"', '5/8"', '2"'; the weight per foot follows the
    width; RMSE."""
    rng = np.random.default_rng(255)
    n = 5000
    eighths = rng.integers(4, 96, n)

    def inches(e: int) -> str:
        whole, part = divmod(int(e), 8)
        if part == 0:
            return f'{whole}"'
        g = np.gcd(part, 8)
        frac = f"{part // g}/{8 // g}"
        return f'{frac}"' if whole == 0 else f'{whole} {frac}"'

    y = 0.3 + 0.25 * eighths / 8 + rng.normal(0, 0.05, n)
    df = pd.DataFrame({"width": [inches(e) for e in eighths], "species": rng.choice(["pine", "oak", "fir"], n),
                       "lb_per_ft": y.round(3)})  # fmt: skip
    prepare_task(df, out, "lb_per_ft", "rmse", name=out.name)


def _mixed_frequencies(out: Path) -> None:
    """Processors' clock speeds written '2.4 GHz' beside '800 MHz'; the benchmark score follows the speed in
    MHz; RMSE."""
    rng = np.random.default_rng(256)
    n = 5000
    mhz = rng.uniform(400, 4500, n)
    text = [f"{m / 1000:.2f} GHz" if m >= 1000 and rng.random() < 0.8 else f"{m:.0f} MHz" for m in mhz]
    y = 100 + 0.5 * mhz + rng.normal(0, 40, n)
    df = pd.DataFrame({"clock": text, "cores": rng.choice([1, 2, 4, 8], n), "score": y.round(1)})
    prepare_task(df, out, "score", "rmse", name=out.name)


def _area_units(out: Path) -> None:
    """Floor areas as listings write them, '1,200 sq ft' beside '110 m²' and '95 sqm'; the price follows the
    area in square metres; RMSE."""
    rng = np.random.default_rng(257)
    n = 5000
    m2 = rng.uniform(30, 400, n)
    kind = rng.choice(["sqft", "m2", "sqm"], n, p=[0.5, 0.3, 0.2])
    text = [f"{m * 10.7639:,.0f} sq ft" if k == "sqft" else f"{m:.0f} m²" if k == "m2" else f"{m:.0f} sqm"
            for m, k in zip(m2, kind, strict=True)]  # fmt: skip
    y = 3000 * m2 + rng.normal(0, 5000, n)
    df = pd.DataFrame({"area": text, "city": rng.choice(["Leeds", "York", "Hull"], n), "price": y.round(0)})
    prepare_task(df, out, "price", "rmse", name=out.name)


def _latency_units(out: Path) -> None:
    """Response times written '350ms', '1.24s' or '2.5 min'; the score follows the time in seconds; RMSE."""
    rng = np.random.default_rng(258)
    n = 5000
    sec = np.exp(rng.uniform(np.log(0.05), np.log(300), n))
    text = [f"{s * 1000:.0f}ms" if s < 1 else f"{s:.2f}s" if s < 60 else f"{s / 60:.2f} min" for s in sec]
    y = 5 * np.log(sec) + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"latency": text, "region": rng.choice(["eu", "us", "ap"], n), "score": y.round(3)})
    prepare_task(df, out, "score", "rmse", name=out.name)


def _stone_weights(out: Path) -> None:
    """Body weights as British forms take them, '11 st 4 lb', beside '72 kg' and '165 lbs'; the dose follows
    the weight in kilograms; RMSE."""
    rng = np.random.default_rng(259)
    n = 5000
    kg = rng.uniform(45, 130, n)

    def written(w: float) -> str:
        r = rng.random()
        if r < 0.4:
            stones, pounds = divmod(round(w / 0.45359237), 14)
            return f"{stones} st {pounds} lb"
        return f"{w:.0f} kg" if r < 0.7 else f"{w / 0.45359237:.0f} lbs"

    y = 0.5 * kg + rng.normal(0, 0.5, n)
    df = pd.DataFrame(
        {"weight": [written(w) for w in kg], "sex": rng.choice(["F", "M"], n), "dose": y.round(2)}
    )
    prepare_task(df, out, "dose", "rmse", name=out.name)


def _volume_words(out: Path) -> None:
    """Bottle sizes '500 ml', '1.5 L', '2 litres', '12 fl oz', '750 mL'; the price follows the volume in
    litres; RMSE."""
    rng = np.random.default_rng(260)
    n = 5000
    litres = rng.uniform(0.2, 3.0, n)
    kind = rng.choice(["ml", "L", "litres", "floz"], n)
    form = {"ml": lambda v: f"{v * 1000:.0f} ml", "L": lambda v: f"{v:.2f} L", "litres": lambda v: f"{v:.2f} litres",
            "floz": lambda v: f"{v / 0.0295735:.1f} fl oz"}  # fmt: skip
    y = 3 * litres + rng.normal(0, 0.1, n)
    df = pd.DataFrame({"size": [form[k](v) for v, k in zip(litres, kind, strict=True)],
                       "brand": rng.choice(["A", "B", "C", "D"], n), "price": y.round(3)})  # fmt: skip
    prepare_task(df, out, "price", "rmse", name=out.name)


def _length_words(out: Path) -> None:
    """Run distances spelled out, '5.2 kilometres', '800 metres', '3.1 miles', '400 yards'; the time in
    minutes follows the distance; RMSE."""
    rng = np.random.default_rng(261)
    n = 5000
    km = rng.uniform(0.2, 20, n)
    kind = rng.choice(["kilometres", "metres", "miles", "yards"], n)
    form = {"kilometres": lambda d: f"{d:.2f} kilometres", "metres": lambda d: f"{d * 1000:.0f} metres",
            "miles": lambda d: f"{d / 1.609344:.2f} miles", "yards": lambda d: f"{d / 0.0009144:.0f} yards"}  # fmt: skip
    y = 5 * km + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"distance": [form[k](d) for d, k in zip(km, kind, strict=True)],
                       "surface": rng.choice(["road", "trail", "track"], n), "minutes": y.round(2)})  # fmt: skip
    prepare_task(df, out, "minutes", "rmse", name=out.name)


def _footnote_numbers(out: Path) -> None:
    """Populations scraped from Wikipedia with their footnote marks, '1,234,567[3]', '987,654[a]', '45,678*',
    '12,345†'; the budget follows the population; RMSE."""
    rng = np.random.default_rng(262)
    n = 5000
    pop = rng.uniform(10_000, 5_000_000, n)
    marks = ["", "", "[1]", "[3]", "[a]", "[note 2]", "*", "†"]
    text = [f"{p:,.0f}{rng.choice(marks)}" for p in pop]
    y = 0.002 * pop + rng.normal(0, 100, n)
    df = pd.DataFrame(
        {"population": text, "region": rng.choice(["N", "S", "E", "W"], n), "budget": y.round(1)}
    )
    prepare_task(df, out, "budget", "rmse", name=out.name)


def _trailing_minus(out: Path) -> None:
    """Amounts as SAP exports them, a minus after a negative number ('1,234.50-'); the tax follows the signed
    amount; RMSE."""
    rng = np.random.default_rng(263)
    n = 5000
    amount = rng.uniform(-5000, 5000, n)
    text = [f"{abs(a):,.2f}-" if a < 0 else f"{a:,.2f}" for a in amount]
    y = 0.3 * amount + rng.normal(0, 5, n)
    df = pd.DataFrame(
        {"betrag": text, "buchungskreis": rng.choice(["1000", "2000", "3000"], n), "steuer": y.round(2)}
    )
    prepare_task(df, out, "steuer", "rmse", name=out.name)


def _billions_bn(out: Path) -> None:
    """Market values as the financial press writes them, '$12.35bn', '$850mn', '€2.10 bn'; the score follows
    the value's logarithm; RMSE."""
    rng = np.random.default_rng(264)
    n = 5000
    millions = np.exp(rng.uniform(np.log(50), np.log(500_000), n))
    cur = rng.choice(["$", "€"], n)
    text = [f"{c}{m / 1000:.2f}{rng.choice(['bn', ' bn'])}" if m >= 1000 else f"{c}{m:.0f}mn"
            for m, c in zip(millions, cur, strict=True)]  # fmt: skip
    y = 10 * np.log10(millions) + rng.normal(0, 0.3, n)
    df = pd.DataFrame(
        {"market_value": text, "sector": rng.choice(["tech", "bank", "oil"], n), "score": y.round(3)}
    )
    prepare_task(df, out, "score", "rmse", name=out.name)


def _uk_postcodes(out: Path) -> None:
    """Homes located by a full UK postcode, 'SW1A 1AA', 'M1 1AE', 'EH1 1YZ', nearly every one unseen; the price
    follows the postcode area (its first letters) and district; RMSE."""
    rng = np.random.default_rng(265)
    n = 5000
    areas = ["SW", "SE", "N", "E", "W", "M", "B", "LS", "EH", "G", "BS", "CF"]
    area_effect = dict(zip(areas, rng.normal(0, 50, len(areas)), strict=True))
    letters = list("ABDEFGHJLNPQRSTUWXYZ")
    a = rng.choice(areas, n)
    district = rng.integers(1, 20, n)
    codes = [f"{x}{d} {rng.integers(0, 10)}{rng.choice(letters)}{rng.choice(letters)}"
             for x, d in zip(a, district, strict=True)]  # fmt: skip
    y = 300 + np.array([area_effect[x] for x in a]) + 2 * district + rng.normal(0, 10, n)
    df = pd.DataFrame({"postcode": codes, "bedrooms": rng.integers(1, 6, n), "price_k": y.round(1)})
    prepare_task(df, out, "price_k", "rmse", name=out.name)


def _zip_plus_four(out: Path) -> None:
    """US ZIP+4 codes '10023-4512'; the rate follows the first three digits (the sectional centre); RMSE."""
    rng = np.random.default_rng(266)
    n = 5000
    centres = rng.choice(np.arange(100, 999), 30, replace=False)
    effect = dict(zip(centres, rng.normal(0, 20, 30), strict=True))
    c = rng.choice(centres, n)
    codes = [f"{x:03d}{rng.integers(0, 100):02d}-{rng.integers(0, 10000):04d}" for x in c]
    y = 100 + np.array([effect[x] for x in c]) + rng.normal(0, 5, n)
    df = pd.DataFrame({"zip": codes, "plan": rng.choice(["basic", "plus"], n), "rate": y.round(2)})
    prepare_task(df, out, "rate", "rmse", name=out.name)


def _fiscal_quarters(out: Path) -> None:
    """Fiscal quarters written 'FY2019 Q3', 'Q1 FY21' or 'FY18-Q4'; sales grow by the quarter with a season;
    RMSE."""
    rng = np.random.default_rng(267)
    n = 5000
    year = rng.integers(2010, 2024, n)
    q = rng.integers(1, 5, n)
    style = rng.integers(0, 3, n)
    text = [f"FY{y} Q{k}" if s == 0 else f"Q{k} FY{y % 100:02d}" if s == 1 else f"FY{y % 100:02d}-Q{k}"
            for y, k, s in zip(year, q, style, strict=True)]  # fmt: skip
    season = np.array([0.0, 3.0, -2.0, 6.0])
    y = 2 * ((year - 2010) * 4 + q) + season[q - 1] + rng.normal(0, 1, n)
    df = pd.DataFrame({"quarter": text, "store": rng.choice(["a", "b", "c"], n), "sales": y.round(2)})
    prepare_task(df, out, "sales", "rmse", name=out.name)


def _weekday_dates(out: Path) -> None:
    """Dates written with their weekday, 'Monday, March 4, 2019'; visits grow with time and dip at weekends;
    RMSE."""
    rng = np.random.default_rng(268)
    n = 5000
    days = pd.Timestamp("2015-01-01") + pd.to_timedelta(rng.integers(0, 3000, n), unit="D")
    text = [f"{d.day_name()}, {d.month_name()} {d.day}, {d.year}" for d in days]
    t = (days - pd.Timestamp("2015-01-01")).days.to_numpy()
    y = 0.01 * t - 8 * (days.dayofweek.to_numpy() >= 5) + rng.normal(0, 1, n)
    df = pd.DataFrame({"date": text, "site": rng.choice(["x", "y"], n), "visits": y.round(2)})
    prepare_task(df, out, "visits", "rmse", name=out.name)


def _french_times(out: Path) -> None:
    """Times of day as French timetables write them, '14h30', '9h05', '18h'; the wait peaks at 8h and 18h;
    RMSE."""
    rng = np.random.default_rng(269)
    n = 5000
    minutes = rng.integers(6 * 60, 23 * 60, n)
    text = [f"{m // 60}h{m % 60:02d}" if m % 60 else f"{m // 60}h" for m in minutes]
    hours = minutes / 60
    y = 10 * np.exp(-((hours - 8) ** 2) / 2) + 12 * np.exp(-((hours - 18) ** 2) / 2) + rng.normal(0, 1, n)
    df = pd.DataFrame({"heure": text, "ligne": rng.choice(["A", "B", "C"], n), "attente": y.round(2)})
    prepare_task(df, out, "attente", "rmse", name=out.name)


def _compass_directions(out: Path) -> None:
    """Wind directions as sixteen compass points 'NNE', 'SW'; the output follows the wind's component from
    the south-west; RMSE."""
    rng = np.random.default_rng(270)
    n = 5000
    points = [
        "N",
        "NNE",
        "NE",
        "ENE",
        "E",
        "ESE",
        "SE",
        "SSE",
        "S",
        "SSW",
        "SW",
        "WSW",
        "W",
        "WNW",
        "NW",
        "NNW",
    ]
    k = rng.integers(0, 16, n)
    speed = rng.uniform(0, 25, n)
    y = speed * np.cos(np.radians(k * 22.5 - 225)) + rng.normal(0, 0.5, n)
    df = pd.DataFrame(
        {"wind_dir": [points[i] for i in k], "wind_speed": speed.round(1), "output": y.round(3)}
    )
    prepare_task(df, out, "output", "rmse", name=out.name)


def _binary_bytes(out: Path) -> None:
    """Sizes in binary units, '800 KiB', '512 MiB', '1.5 GiB', '2.00 TiB'; the copy time's logarithm follows
    the size's; RMSE."""
    rng = np.random.default_rng(271)
    n = 5000
    mib = 2 ** rng.uniform(-3, 21, n)

    def written(m: float) -> str:
        if m < 1:
            return f"{m * 1024:.0f} KiB"
        if m < 1024:
            return f"{m:.1f} MiB"
        return f"{m / 1024:.2f} GiB" if m < 1024**2 else f"{m / 1024**2:.2f} TiB"

    y = 3 * np.log2(mib) + rng.normal(0, 0.3, n)
    df = pd.DataFrame(
        {"size": [written(m) for m in mib], "disk": rng.choice(["ssd", "hdd"], n), "t": y.round(3)}
    )
    prepare_task(df, out, "t", "rmse", name=out.name)


def _x_of_y(out: Path) -> None:
    """Progress written '45 of 60' or '3 out of 5'; the mark follows the share done; RMSE."""
    rng = np.random.default_rng(272)
    n = 5000
    total = rng.choice([5, 10, 20, 60, 100], n)
    done = np.array([rng.integers(0, t + 1) for t in total])
    text = [
        f"{d} of {t}" if rng.random() < 0.6 else f"{d} out of {t}" for d, t in zip(done, total, strict=True)
    ]
    y = 100 * done / total + rng.normal(0, 2, n)
    df = pd.DataFrame({"progress": text, "course": rng.choice(["maths", "art"], n), "mark": y.round(2)})
    prepare_task(df, out, "mark", "rmse", name=out.name)


def _roman_numerals(out: Path) -> None:
    """Editions numbered in Roman numerals, 'XIV', 'CCXLVII' (some in lower case); the price follows the
    edition's number; RMSE."""
    rng = np.random.default_rng(273)
    n = 4000
    number = rng.integers(1, 600, n)

    def roman(k: int) -> str:
        text = ""
        for value, mark in ((500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"),
                            (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):  # fmt: skip
            while k >= value:
                text, k = text + mark, k - value
        return text

    text = [roman(int(k)) if rng.random() < 0.85 else roman(int(k)).lower() for k in number]
    y = number / 20 + rng.normal(0, 1, n)
    df = pd.DataFrame({"edition": text, "binding": rng.choice(["cloth", "paper"], n), "price": y.round(3)})
    prepare_task(df, out, "price", "rmse", name=out.name)


def _bitrates(out: Path) -> None:
    """Audio bitrates written '128 kbps', '1.5 Mbps', '320kbps' or '96 kb/s'; the file size follows the
    bitrate times the length; RMSE."""
    rng = np.random.default_rng(274)
    n = 5000
    kbps = rng.choice([64, 96, 128, 192, 256, 320, 500, 1000, 1500, 2000, 4500], n).astype(float)
    kind = rng.random(n)
    text = [f"{k / 1000:g} Mbps" if k >= 1000 and u < 0.8 else f"{k:g}kbps" if u < 0.4 else f"{k:g} kb/s" if u < 0.55
            else f"{k:g} kbps" for k, u in zip(kbps, kind, strict=True)]  # fmt: skip
    minutes = rng.uniform(1, 10, n)
    y = kbps * minutes * 60 / 8 / 1000 + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"bitrate": text, "minutes": minutes.round(2), "size_mb": y.round(3)})
    prepare_task(df, out, "size_mb", "rmse", name=out.name)


def _energy_units(out: Path) -> None:
    """Food energy as labels print it, '250 kcal' beside '1046 kJ' and '180 Cal'; the score follows the energy
    in kilocalories; RMSE."""
    rng = np.random.default_rng(275)
    n = 5000
    kcal = rng.uniform(20, 900, n)
    kind = rng.choice(["kcal", "kJ", "Cal"], n, p=[0.5, 0.3, 0.2])
    text = [f"{k * 4.184:.0f} kJ" if u == "kJ" else f"{k:.0f} {u}" for k, u in zip(kcal, kind, strict=True)]
    y = kcal / 10 + rng.normal(0, 1, n)
    df = pd.DataFrame(
        {"energy": text, "aisle": rng.choice(["snacks", "dairy", "bakery"], n), "score": y.round(3)}
    )
    prepare_task(df, out, "score", "rmse", name=out.name)


def _power_units(out: Path) -> None:
    """Engine power written '150 hp', '110 kW', '136 PS' or '148 bhp'; the price follows the power in
    kilowatts; RMSE."""
    rng = np.random.default_rng(276)
    n = 5000
    kw = rng.uniform(40, 300, n)
    kind = rng.choice(["hp", "kW", "PS", "bhp"], n, p=[0.35, 0.3, 0.2, 0.15])
    scale = {"hp": 1.341, "kW": 1.0, "PS": 1.3596, "bhp": 1.341}
    text = [f"{k * scale[u]:.0f} {u}" for k, u in zip(kw, kind, strict=True)]
    y = 150 * kw + rng.normal(0, 500, n)
    df = pd.DataFrame({"power": text, "fuel": rng.choice(["petrol", "diesel"], n), "price": y.round(0)})
    prepare_task(df, out, "price", "rmse", name=out.name)


def _pressure_units(out: Path) -> None:
    """Tyre pressures written '32 psi', '2.2 bar' or '220 kPa'; the wear follows the pressure in kilopascals;
    RMSE."""
    rng = np.random.default_rng(277)
    n = 5000
    kpa = rng.uniform(150, 350, n)
    kind = rng.choice(["psi", "bar", "kPa"], n, p=[0.4, 0.35, 0.25])
    text = [f"{p / 6.894757:.1f} psi" if u == "psi" else f"{p / 100:.2f} bar" if u == "bar" else f"{p:.0f} kPa"
            for p, u in zip(kpa, kind, strict=True)]  # fmt: skip
    y = (kpa - 250) ** 2 / 500 + rng.normal(0, 1, n)
    df = pd.DataFrame({"pressure": text, "axle": rng.choice(["front", "rear"], n), "wear": y.round(3)})
    prepare_task(df, out, "wear", "rmse", name=out.name)


def _fuel_economy(out: Path) -> None:
    """Fuel economy written '8.5 L/100km' beside '28 mpg' and '14.2 km/L' (the last two the inverse of the
    first); the yearly fuel cost follows the litres per 100 km; RMSE."""
    rng = np.random.default_rng(278)
    n = 5000
    l100 = rng.uniform(4, 16, n)
    kind = rng.choice(["l100", "mpg", "kml"], n, p=[0.5, 0.3, 0.2])
    text = [f"{v:.1f} L/100km" if u == "l100" else f"{235.215 / v:.1f} mpg" if u == "mpg" else f"{100 / v:.1f} km/L"
            for v, u in zip(l100, kind, strict=True)]  # fmt: skip
    y = 150 * l100 + rng.normal(0, 20, n)
    df = pd.DataFrame({"economy": text, "body": rng.choice(["suv", "hatch", "sedan"], n), "cost": y.round(1)})
    prepare_task(df, out, "cost", "rmse", name=out.name)


def _times_ten_powers(out: Path) -> None:
    """Counts written in scientific notation as people type it, '1.2 × 10^5', '3.4x10^-3', '5.0×10⁵'; the
    response follows the count's logarithm; RMSE."""
    rng = np.random.default_rng(279)
    n = 5000
    exponent = rng.integers(-4, 9, n)
    mantissa = rng.uniform(1, 9.99, n).round(1)
    sup = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
    style = rng.random(n)
    text = [f"{m} × 10^{e}" if s < 0.5 else f"{m}x10^{e}" if s < 0.75 else f"{m}×10{str(e).translate(sup)}"
            for m, e, s in zip(mantissa, exponent, style, strict=True)]  # fmt: skip
    y = np.log10(mantissa) + exponent + rng.normal(0, 0.1, n)
    df = pd.DataFrame({"count": text, "assay": rng.choice(["a", "b", "c"], n), "response": y.round(4)})
    prepare_task(df, out, "response", "rmse", name=out.name)


def _unicode_minus(out: Path) -> None:
    """Temperatures copied from typeset tables, where a minus is U+2212 ('−5.2') beside plain '3.1'; the
    demand follows the temperature; RMSE."""
    rng = np.random.default_rng(280)
    n = 5000
    t = rng.uniform(-20, 25, n).round(1)
    text = [f"−{-v:.1f}" if v < 0 else f"{v:.1f}" for v in t]
    y = 100 - 2 * t + rng.normal(0, 1, n)
    df = pd.DataFrame({"temp_c": text, "site": rng.choice(["n", "s"], n), "demand": y.round(3)})
    prepare_task(df, out, "demand", "rmse", name=out.name)


def _betting_odds(out: Path) -> None:
    """Fractional odds as bookmakers print them, '5/2', '11/4', '1/3', 'evens' or 'EVS'; the share of money
    returned follows the implied probability; RMSE."""
    rng = np.random.default_rng(281)
    n = 5000
    pairs = [(1, 5), (1, 3), (1, 2), (4, 6), (1, 1), (6, 4), (2, 1), (5, 2), (3, 1), (7, 2), (4, 1), (9, 2), (5, 1),
             (6, 1), (8, 1), (10, 1), (12, 1), (16, 1), (20, 1), (33, 1), (50, 1), (11, 4), (13, 8), (15, 8)]  # fmt: skip
    pick = rng.integers(0, len(pairs), n)
    text = [("evens" if rng.random() < 0.5 else "EVS") if pairs[i] == (1, 1) else f"{pairs[i][0]}/{pairs[i][1]}"
            for i in pick]  # fmt: skip
    prob = np.array([pairs[i][1] / (pairs[i][0] + pairs[i][1]) for i in pick])
    y = 100 * prob + rng.normal(0, 2, n)
    df = pd.DataFrame(
        {"odds": text, "course": rng.choice(["Ascot", "York", "Ayr"], n), "returned": y.round(2)}
    )
    prepare_task(df, out, "returned", "rmse", name=out.name)


def _running_paces(out: Path) -> None:
    """Running paces written '5:30 /km', '4:45/km' or '8:51 min/mile'; the race time follows the pace per
    kilometre; RMSE."""
    rng = np.random.default_rng(282)
    n = 5000
    sec_km = rng.uniform(200, 480, n)
    mile = rng.random(n) < 0.4

    def clock(s: float) -> str:
        return f"{int(s // 60)}:{int(round(s % 60)) % 60:02d}"

    text = [f"{clock(s * 1.609344)} min/mile" if m else f"{clock(s)} /km" if rng.random() < 0.5 else f"{clock(s)}/km"
            for s, m in zip(sec_km, mile, strict=True)]  # fmt: skip
    y = 10 * sec_km / 60 + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"pace": text, "terrain": rng.choice(["road", "trail"], n), "minutes_10k": y.round(3)})
    prepare_task(df, out, "minutes_10k", "rmse", name=out.name)


def _mix_ratios(out: Path) -> None:
    """Concrete mixes written as ratios of cement to sand to gravel, '1:2.3:3.9'; the strength falls with
    the sand and gravel per part of cement; RMSE."""
    rng = np.random.default_rng(283)
    n = 5000
    sand = rng.uniform(1, 3, n).round(1)
    gravel = rng.uniform(2, 5, n).round(1)
    y = 60 - 8 * sand - 3 * gravel + rng.normal(0, 1, n)
    df = pd.DataFrame({"mix": [f"1:{s}:{g}" for s, g in zip(sand, gravel, strict=True)],
                       "cure_days": rng.choice([7, 28], n), "strength": y.round(3)})  # fmt: skip
    prepare_task(df, out, "strength", "rmse", name=out.name)


def _match_scores(out: Path) -> None:
    """Football results written '3-1', '0-0', '2-2' (home goals first); the points rating follows the goal
    difference and the goals scored; RMSE."""
    rng = np.random.default_rng(284)
    n = 5000
    home, away = rng.poisson(1.5, n), rng.poisson(1.1, n)
    y = 2 * (home - away) + 0.5 * home + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"result": [f"{h}-{a}" for h, a in zip(home, away, strict=True)],
                       "league": rng.choice(["EPL", "Liga"], n), "rating": y.round(3)})  # fmt: skip
    prepare_task(df, out, "rating", "rmse", name=out.name)


def _season_years(out: Path) -> None:
    """Sports seasons written '2015/16' or '2015-16' (the second year in two digits); the transfer fee grows
    with the season; RMSE."""
    rng = np.random.default_rng(285)
    n = 5000
    start = rng.integers(1990, 2024, n)
    text = [f"{s}/{(s + 1) % 100:02d}" if rng.random() < 0.6 else f"{s}-{(s + 1) % 100:02d}" for s in start]
    y = 0.5 * (start - 1990) + rng.normal(0, 1, n)
    df = pd.DataFrame(
        {"season": text, "position": rng.choice(["GK", "DF", "MF", "FW"], n), "fee": y.round(3)}
    )
    prepare_task(df, out, "fee", "rmse", name=out.name)


def _tyre_sizes(out: Path) -> None:
    """Tyre sizes as printed on the sidewall, '205/55 R16', '225/45R17', 'P215/65R15' (width in mm, aspect
    ratio, rim in inches); the price follows width and rim; RMSE."""
    rng = np.random.default_rng(286)
    n = 5000
    width = rng.choice(np.arange(155, 326, 10), n)
    aspect = rng.choice(np.arange(30, 81, 5), n)
    rim = rng.integers(13, 23, n)
    style = rng.random(n)
    text = [f"{w}/{a} R{r}" if s < 0.5 else f"{w}/{a}R{r}" if s < 0.8 else f"P{w}/{a}R{r}"
            for w, a, r, s in zip(width, aspect, rim, style, strict=True)]  # fmt: skip
    y = 0.5 * width + 8 * rim + rng.normal(0, 3, n)
    df = pd.DataFrame({"size": text, "season": rng.choice(["summer", "winter"], n), "price": y.round(2)})
    prepare_task(df, out, "price", "rmse", name=out.name)


def _inch_marks(out: Path) -> None:
    """Screen sizes written '15.6"', '13.3 inch', '14”' or '17.3-inch'; the weight follows the size; RMSE."""
    rng = np.random.default_rng(287)
    n = 5000
    size = rng.uniform(10, 18, n).round(1)
    style = rng.random(n)
    text = [f'{v}"' if s < 0.4 else f"{v} inch" if s < 0.6 else f"{v}”" if s < 0.8 else f"{v}-inch"
            for v, s in zip(size, style, strict=True)]  # fmt: skip
    y = 0.2 * size + rng.normal(0, 0.05, n)
    df = pd.DataFrame({"screen": text, "brand": rng.choice(["a", "b", "c"], n), "weight_kg": y.round(4)})
    prepare_task(df, out, "weight_kg", "rmse", name=out.name)


def _arrow_changes(out: Path) -> None:
    """Price changes as tickers print them, '▲ 2.3%' and '▼ 1.1%' (the arrow is the sign); the next day's
    move follows the change; RMSE."""
    rng = np.random.default_rng(288)
    n = 5000
    change = rng.normal(0, 3, n).round(2)
    text = [f"▲ {v:.2f}%" if v >= 0 else f"▼ {-v:.2f}%" for v in change]
    text = [t.replace(" ", "") if rng.random() < 0.3 else t for t in text]
    y = 0.8 * change + rng.normal(0, 0.3, n)
    df = pd.DataFrame(
        {"change": text, "sector": rng.choice(["tech", "energy", "banks"], n), "next": y.round(4)}
    )
    prepare_task(df, out, "next", "rmse", name=out.name)


def _tilde_ranges(out: Path) -> None:
    """Ranges as East Asian tables write them, '10~20' or '10 ~ 20' (a tilde between the ends); the price
    follows the middle; RMSE."""
    rng = np.random.default_rng(289)
    n = 5000
    low = rng.integers(1, 80, n)
    high = low + rng.integers(2, 30, n)
    text = [f"{a}~{b}" if rng.random() < 0.6 else f"{a} ~ {b}" for a, b in zip(low, high, strict=True)]
    y = (low + high) / 2 + rng.normal(0, 1, n)
    df = pd.DataFrame(
        {"area_m2": text, "city": rng.choice(["Seoul", "Busan", "Osaka"], n), "price": y.round(3)}
    )
    prepare_task(df, out, "price", "rmse", name=out.name)


def _key_value_pairs(out: Path) -> None:
    """Attributes packed in one cell as 'beds=3;baths=2;floor=7' (the keys in varying order); the rent
    follows beds and floor; RMSE."""
    rng = np.random.default_rng(290)
    n = 5000
    beds, baths, floor = rng.integers(1, 6, n), rng.integers(1, 4, n), rng.integers(0, 20, n)
    text = []
    for b, a, f in zip(beds, baths, floor, strict=True):
        parts = [f"beds={b}", f"baths={a}", f"floor={f}"]
        rng.shuffle(parts)
        text.append(";".join(parts))
    y = 300 * beds + 20 * floor + rng.normal(0, 30, n)
    df = pd.DataFrame({"attrs": text, "district": rng.choice(["n", "e", "s", "w"], n), "rent": y.round(1)})
    prepare_task(df, out, "rent", "rmse", name=out.name)


def _laptop_storage(out: Path) -> None:
    """Laptop storage as shop listings print it, '256GB SSD', '1TB HDD', '512GB SSD + 1TB HDD', '128GB Flash
    Storage'; the price follows the SSD size; RMSE."""
    rng = np.random.default_rng(291)
    n = 5000
    ssd = rng.choice([0, 128, 256, 512, 1024], n)
    hdd = np.where((ssd == 0) | (rng.random(n) < 0.3), rng.choice([500, 1024, 2048], n), 0)

    def size(gb: int) -> str:
        return f"{gb // 1024}TB" if gb >= 1024 else f"{gb}GB"

    text = [f"{size(s)} SSD + {size(h)} HDD" if s and h else f"{size(s)} SSD" if s else f"{size(h)} HDD"
            for s, h in zip(ssd, hdd, strict=True)]  # fmt: skip
    y = 0.8 * ssd + 0.05 * hdd + rng.normal(0, 10, n)
    df = pd.DataFrame({"memory": text, "brand": rng.choice(["Dell", "HP", "Asus"], n), "price": y.round(1)})
    prepare_task(df, out, "price", "rmse", name=out.name)


def _zoom_factors(out: Path) -> None:
    """Optical zoom written '3x', '10x', '0.5x' or 'x2.5'; the price follows the zoom; RMSE."""
    rng = np.random.default_rng(292)
    n = 5000
    zoom = rng.choice([0.5, 1, 2, 2.5, 3, 5, 10, 20, 30, 50], n)
    text = [f"{z:g}x" if rng.random() < 0.8 else f"x{z:g}" for z in zoom]
    y = 10 * zoom + rng.normal(0, 2, n)
    df = pd.DataFrame({"zoom": text, "sensor": rng.choice(["1/2.3", "1", "APS-C"], n), "price": y.round(2)})
    prepare_task(df, out, "price", "rmse", name=out.name)


def _video_resolutions(out: Path) -> None:
    """Video resolutions written '720p', '1080p', '1440p', '2160p' or '4K' (the same as 2160p), '8K'; the
    bitrate follows the lines; RMSE."""
    rng = np.random.default_rng(293)
    n = 5000
    lines = rng.choice([360, 480, 720, 1080, 1440, 2160, 4320], n)
    text = [
        ("4K" if rng.random() < 0.5 else "2160p") if v == 2160 else "8K" if v == 4320 else f"{v}p"
        for v in lines
    ]
    y = lines / 100 + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"resolution": text, "codec": rng.choice(["h264", "hevc"], n), "mbps": y.round(3)})
    prepare_task(df, out, "mbps", "rmse", name=out.name)


def _clock_speeds(out: Path) -> None:
    """Processor clocks written '2.4 GHz' beside '2400 MHz' and '800MHz'; the score follows the clock in
    GHz; RMSE."""
    rng = np.random.default_rng(294)
    n = 5000
    ghz = rng.uniform(0.6, 5.0, n).round(1)
    text = [f"{g * 1000:.0f} MHz" if rng.random() < 0.3 else f"{g * 1000:.0f}MHz" if g < 1 else f"{g} GHz"
            for g in ghz]  # fmt: skip
    y = 1000 * ghz + rng.normal(0, 50, n)
    df = pd.DataFrame({"clock": text, "cores": rng.choice([2, 4, 8], n), "score": y.round(1)})
    prepare_task(df, out, "score", "rmse", name=out.name)


def _battery_capacity(out: Path) -> None:
    """Battery capacities written '5000 mAh' beside '5 Ah' and '4.2Ah'; the runtime follows the capacity;
    RMSE."""
    rng = np.random.default_rng(295)
    n = 5000
    mah = rng.uniform(1000, 10000, n).round(-1)
    text = [f"{m / 1000:g} Ah" if rng.random() < 0.3 else f"{m:.0f} mAh" for m in mah]
    y = mah / 500 + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"battery": text, "screen": rng.choice(["lcd", "oled"], n), "hours": y.round(3)})
    prepare_task(df, out, "hours", "rmse", name=out.name)


def _glucose_units(out: Path) -> None:
    """Blood glucose from two labs, '5.6 mmol/L' beside '101 mg/dL' (mg/dL is 18 times mmol/L); the risk
    score follows the glucose; RMSE."""
    rng = np.random.default_rng(296)
    n = 5000
    mmol = rng.uniform(3.5, 15, n)
    text = [f"{m * 18:.0f} mg/dL" if rng.random() < 0.4 else f"{m:.1f} mmol/L" for m in mmol]
    y = 3 * mmol + rng.normal(0, 1, n)
    df = pd.DataFrame({"glucose": text, "sex": rng.choice(["F", "M"], n), "risk": y.round(3)})
    prepare_task(df, out, "risk", "rmse", name=out.name)


def _cjk_magnitudes(out: Path) -> None:
    """Prices as Japanese and Chinese listings write them, '3.5万' (35,000), '1億2000万', '8000'; the rent
    follows the price; RMSE."""
    rng = np.random.default_rng(297)
    n = 5000
    price = rng.integers(5, 30000, n) * 1000
    text = []
    for p in price:
        man = p / 10000
        text.append(f"{man:g}万" if p >= 10000 and rng.random() < 0.8 else f"{p}")
    y = price / 10000 + rng.normal(0, 1, n)
    df = pd.DataFrame(
        {"price": text, "ward": rng.choice(["Shibuya", "Minato", "Nerima"], n), "score": y.round(3)}
    )
    prepare_task(df, out, "score", "rmse", name=out.name)


def _rupiah_prices(out: Path) -> None:
    """Indonesian prices, 'Rp 1.500.000' and 'Rp1.250.000,00' (dots group thousands, a comma before the
    cents); the score follows the price; RMSE."""
    rng = np.random.default_rng(298)
    n = 5000
    price = rng.integers(50, 20000, n) * 1000

    def dotted(v: int) -> str:
        return f"{v:,}".replace(",", ".")

    text = [f"Rp {dotted(p)}" if rng.random() < 0.6 else f"Rp{dotted(p)},00" for p in price]
    y = price / 1e6 + rng.normal(0, 0.3, n)
    df = pd.DataFrame(
        {"harga": text, "kota": rng.choice(["Jakarta", "Bandung", "Medan"], n), "score": y.round(4)}
    )
    prepare_task(df, out, "score", "rmse", name=out.name)


def _excel_errors(out: Path) -> None:
    """Numbers exported from a spreadsheet with its error values among them, '#N/A', '#DIV/0!', '#VALUE!'
    (about 3 %); the target follows the number; RMSE."""
    rng = np.random.default_rng(299)
    n = 5000
    x = rng.normal(50, 15, n).round(2)
    err = rng.random(n)
    text = [("#N/A" if e < 0.015 else "#DIV/0!" if e < 0.025 else "#VALUE!") if e < 0.03 else f"{v}"
            for v, e in zip(x, err, strict=True)]  # fmt: skip
    y = 0.5 * x + rng.normal(0, 1, n)
    df = pd.DataFrame({"ratio": text, "region": rng.choice(["a", "b"], n), "target": y.round(3)})
    prepare_task(df, out, "target", "rmse", name=out.name)


def _check_marks(out: Path) -> None:
    """Feature flags ticked as forms print them, '✓' / '✗' and '☑' / '☐'; the price follows the ticks and
    the rooms; RMSE."""
    rng = np.random.default_rng(300)
    n = 5000
    a, b = rng.random(n) < 0.5, rng.random(n) < 0.4
    rooms = rng.integers(1, 6, n)
    y = 20 * a + 10 * b + 5 * rooms + rng.normal(0, 1, n)
    df = pd.DataFrame({"parking": np.where(a, "✓", "✗"), "garden": np.where(b, "☑", "☐"), "rooms": rooms,
                       "price": y.round(3)})  # fmt: skip
    prepare_task(df, out, "price", "rmse", name=out.name)


def _memory_modules(out: Path) -> None:
    """Memory written '16GB DDR4', '8 GB DDR3', '32GB DDR5'; the price follows the size and generation;
    RMSE."""
    rng = np.random.default_rng(301)
    n = 5000
    gb, gen = rng.choice([4, 8, 16, 32, 64], n), rng.choice([3, 4, 5], n)
    text = [f"{g}GB DDR{d}" if rng.random() < 0.7 else f"{g} GB DDR{d}" for g, d in zip(gb, gen, strict=True)]
    y = 2 * gb + 15 * gen + rng.normal(0, 2, n)
    df = pd.DataFrame({"ram": text, "form": rng.choice(["dimm", "sodimm"], n), "price": y.round(2)})
    prepare_task(df, out, "price", "rmse", name=out.name)


def _per_area_densities(out: Path) -> None:
    """Population densities as Wikipedia tables give them, '1,234/km²' beside '3,196 /sq mi' (a square mile
    is 2.59 km²); the score follows the density per km²; RMSE."""
    rng = np.random.default_rng(302)
    n = 5000
    dens = rng.uniform(5, 8000, n)
    text = [f"{d * 2.589988:,.0f} /sq mi" if rng.random() < 0.35 else f"{d:,.0f}/km²" for d in dens]
    y = dens / 100 + rng.normal(0, 1, n)
    df = pd.DataFrame({"density": text, "continent": rng.choice(["EU", "AS", "AF"], n), "score": y.round(3)})
    prepare_task(df, out, "score", "rmse", name=out.name)


def _hash_ranks(out: Path) -> None:
    """Chart positions written '#12', '# 3' or 'No. 45'; the streams fall with the position; RMSE."""
    rng = np.random.default_rng(303)
    n = 5000
    rank = rng.integers(1, 201, n)
    style = rng.random(n)
    text = [
        f"#{r}" if s < 0.6 else f"# {r}" if s < 0.75 else f"No. {r}" for r, s in zip(rank, style, strict=True)
    ]
    y = 100 - 0.4 * rank + rng.normal(0, 1, n)
    df = pd.DataFrame(
        {"position": text, "genre": rng.choice(["pop", "rock", "rap"], n), "streams": y.round(3)}
    )
    prepare_task(df, out, "streams", "rmse", name=out.name)


def _currency_magnitudes(out: Path) -> None:
    """Deal sizes written '$1.2M', '€850K', '£3.4bn', '$12.5 million' (a currency sign and a magnitude); the
    score follows the size's logarithm; RMSE."""
    rng = np.random.default_rng(304)
    n = 5000
    size = 10 ** rng.uniform(4, 10, n)
    sign = rng.choice(["$", "€", "£"], n)

    def short(v: float, s: str) -> str:
        if v >= 1e9:
            return f"{s}{v / 1e9:.1f}bn"
        if v >= 1e6:
            return f"{s}{v / 1e6:.1f}M" if rng.random() < 0.7 else f"{s}{v / 1e6:.1f} million"
        return f"{s}{v / 1e3:.0f}K"

    text = [short(v, s) for v, s in zip(size, sign, strict=True)]
    y = np.log10(size) + rng.normal(0, 0.1, n)
    df = pd.DataFrame({"deal": text, "sector": rng.choice(["tech", "bio", "retail"], n), "score": y.round(4)})
    prepare_task(df, out, "score", "rmse", name=out.name)


def _pay_periods(out: Path) -> None:
    """Job adverts' pay, '£45,000 per annum', '£21.63 per hour', '£3,750 per month', '£865/week', '£45,000
    p.a.' (a year of 2,080 hours, 52 weeks); the score follows the yearly pay; RMSE."""
    rng = np.random.default_rng(305)
    n = 5000
    annual = rng.uniform(18000, 120000, n)
    text = []
    for a in annual:
        u = rng.random()
        if u < 0.3:
            text.append(f"£{a:,.0f} per annum")
        elif u < 0.4:
            text.append(f"£{a:,.0f} p.a.")
        elif u < 0.6:
            text.append(f"£{a / 2080:.2f} per hour" if rng.random() < 0.5 else f"£{a / 2080:.2f}/hr")
        elif u < 0.8:
            text.append(f"£{a / 12:,.0f} per month")
        else:
            text.append(f"£{a / 52:,.0f}/week")
    y = annual / 1000 + rng.normal(0, 1, n)
    df = pd.DataFrame(
        {"salary": text, "sector": rng.choice(["it", "care", "retail"], n), "score": y.round(3)}
    )
    prepare_task(df, out, "score", "rmse", name=out.name)


def _foreign_month_names(out: Path) -> None:
    """Dates in German, French and Spanish, '3. März 2019', '15 janvier 2020', '7 de mayo de 2018'; the
    demand grows over the years and follows the season; RMSE."""
    rng = np.random.default_rng(306)
    n = 5000
    de = ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
          "November", "Dezember"]  # fmt: skip
    fr = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
          "novembre", "décembre"]  # fmt: skip
    es = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
          "noviembre", "diciembre"]  # fmt: skip
    days = rng.integers(0, 8 * 365, n)
    dates = pd.Timestamp("2015-01-01") + pd.to_timedelta(days, unit="D")
    text = []
    for d in dates:
        u = rng.random()
        if u < 0.4:
            text.append(f"{d.day}. {de[d.month - 1]} {d.year}")
        elif u < 0.7:
            text.append(f"{d.day} {fr[d.month - 1]} {d.year}")
        else:
            text.append(f"{d.day} de {es[d.month - 1]} de {d.year}")
    y = days / 365 * 2 + 3 * np.sin(2 * np.pi * dates.dayofyear.to_numpy() / 365) + rng.normal(0, 1, n)
    df = pd.DataFrame({"date": text, "store": rng.choice(["a", "b", "c"], n), "demand": y.round(3)})
    prepare_task(df, out, "demand", "rmse", name=out.name)


def _yen_prices(out: Path) -> None:
    """Japanese prices, '12,345円', '¥8,900' and in full-width digits '１２，３４５円'; the score follows the
    price; RMSE."""
    rng = np.random.default_rng(307)
    n = 5000
    price = rng.integers(500, 200000, n)
    wide = str.maketrans("0123456789,", "０１２３４５６７８９，")
    text = []
    for p in price:
        u = rng.random()
        text.append(f"{p:,}円" if u < 0.4 else f"¥{p:,}" if u < 0.7 else f"{p:,}円".translate(wide))
    y = price / 1000 + rng.normal(0, 1, n)
    df = pd.DataFrame(
        {"price": text, "shop": rng.choice(["tokyo", "osaka", "online"], n), "score": y.round(3)}
    )
    prepare_task(df, out, "score", "rmse", name=out.name)


def _arabic_digits(out: Path) -> None:
    """Readings in Eastern Arabic digits '١٢٣٫٤', Persian digits '۱۲۳٫۴' (the Arabic decimal separator) and
    Western digits; the score follows the reading; RMSE."""
    rng = np.random.default_rng(308)
    n = 5000
    v = rng.uniform(0, 1000, n)
    arabic = str.maketrans("0123456789.", "٠١٢٣٤٥٦٧٨٩٫")
    persian = str.maketrans("0123456789.", "۰۱۲۳۴۵۶۷۸۹٫")
    text = []
    for x in v:
        u = rng.random()
        s = f"{x:.1f}"
        text.append(s.translate(arabic) if u < 0.4 else s.translate(persian) if u < 0.6 else s)
    y = v / 10 + rng.normal(0, 1, n)
    df = pd.DataFrame({"reading": text, "site": rng.choice(["n", "s"], n), "score": y.round(3)})
    prepare_task(df, out, "score", "rmse", name=out.name)


def _chemical_formulas(out: Path) -> None:
    """Compounds written as formulas, 'Fe2O3', 'C6H12O6', 'NaCl' (two to four elements, counts up to six);
    the property follows the molar mass; RMSE."""
    rng = np.random.default_rng(309)
    n = 5000
    mass = {"H": 1.008, "C": 12.011, "N": 14.007, "O": 15.999, "Na": 22.99, "Mg": 24.305, "Al": 26.982,
            "Si": 28.085, "S": 32.06, "Cl": 35.45, "Ca": 40.078, "Fe": 55.845}  # fmt: skip
    names = list(mass)
    text, y = [], []
    for _ in range(n):
        els = rng.choice(names, rng.integers(2, 5), replace=False)
        counts = rng.integers(1, 7, len(els))
        text.append("".join(e + (str(c) if c > 1 else "") for e, c in zip(els, counts, strict=True)))
        y.append(sum(mass[e] * c for e, c in zip(els, counts, strict=True)) / 10)
    target = np.array(y) + rng.normal(0, 1, n)
    df = pd.DataFrame(
        {"formula": text, "phase": rng.choice(["solid", "liquid"], n), "value": target.round(3)}
    )
    prepare_task(df, out, "value", "rmse", name=out.name)


def _animal_ages(out: Path) -> None:
    """Shelter ages as the intake desk writes them, '2 years', '1 year', '3 weeks', '5 months', '4 days'; the
    outcome score follows the age; RMSE."""
    rng = np.random.default_rng(310)
    n = 5000
    days = rng.integers(1, 16 * 365, n)
    text, written = [], []
    for d in days:
        if d < 14:
            k, unit, span = d, "day", 1
        elif d < 60:
            k, unit, span = d // 7, "week", 7
        elif d < 365:
            k, unit, span = d // 30, "month", 30
        else:
            k, unit, span = d // 365, "year", 365
        text.append(f"{k} {unit}" + ("s" if k != 1 else ""))
        written.append(k * span)
    y = np.array(written) / 365 * 2 + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"age": text, "animal": rng.choice(["Dog", "Cat"], n), "score": y.round(3)})
    prepare_task(df, out, "score", "rmse", name=out.name)


def _slash_colors(out: Path) -> None:
    """Coat colours as shelters record them, 'Black/White', 'Brown Tabby/White', 'Tricolor' (one or two
    colours, an optional pattern); the score follows which colours appear; RMSE."""
    rng = np.random.default_rng(311)
    n = 5000
    colors = ["Black", "White", "Brown", "Tan", "Blue", "Red", "Cream", "Gray", "Orange", "Tricolor",
              "Chocolate", "Yellow"]  # fmt: skip
    text, y = [], []
    for _ in range(n):
        picked = list(rng.choice(colors, rng.integers(1, 3), replace=False))
        tabby = rng.random() < 0.2
        cell = "/".join([picked[0] + (" Tabby" if tabby else "")] + picked[1:])
        text.append(cell)
        y.append(3 * ("White" in picked) + 2 * ("Black" in picked) - 2 * tabby + ("Tan" in picked))
    target = np.array(y, dtype=float) + rng.normal(0, 1, n)
    df = pd.DataFrame({"color": text, "animal": rng.choice(["Dog", "Cat"], n), "score": target.round(3)})
    prepare_task(df, out, "score", "rmse", name=out.name)


def _credit_ratings(out: Path) -> None:
    """Issuer ratings on two agencies' scales, S&P 'AAA', 'BBB-', 'CCC+' and Moody's 'Aaa', 'Baa3', 'Caa1';
    the spread widens down the scale; RMSE."""
    rng = np.random.default_rng(312)
    n = 5000
    sp = ["AAA", "AA+", "AA", "AA-", "A+", "A", "A-", "BBB+", "BBB", "BBB-", "BB+", "BB", "BB-", "B+", "B",
          "B-", "CCC+", "CCC", "CCC-", "CC"]  # fmt: skip
    moodys = ["Aaa", "Aa1", "Aa2", "Aa3", "A1", "A2", "A3", "Baa1", "Baa2", "Baa3", "Ba1", "Ba2", "Ba3", "B1",
              "B2", "B3", "Caa1", "Caa2", "Caa3", "Ca"]  # fmt: skip
    rank = rng.integers(0, 20, n)
    text = [sp[r] if rng.random() < 0.6 else moodys[r] for r in rank]
    y = 0.5 * rank**1.5 + rng.normal(0, 1, n)
    df = pd.DataFrame(
        {"rating": text, "sector": rng.choice(["bank", "utility", "tech"], n), "spread": y.round(3)}
    )
    prepare_task(df, out, "spread", "rmse", name=out.name)


def _wind_reports(out: Path) -> None:
    """Wind as one cell, 'NNE 15 km/h', 'SW 8 km/h' or 'calm'; the wave height follows the speed and how
    far the wind blows from the west; RMSE."""
    rng = np.random.default_rng(313)
    n = 5000
    points = [
        "N",
        "NNE",
        "NE",
        "ENE",
        "E",
        "ESE",
        "SE",
        "SSE",
        "S",
        "SSW",
        "SW",
        "WSW",
        "W",
        "WNW",
        "NW",
        "NNW",
    ]
    idx = rng.integers(0, 16, n)
    speed = rng.uniform(1, 60, n).round()
    calm = rng.random(n) < 0.05
    speed[calm] = 0
    text = ["calm" if c else f"{points[i]} {s:.0f} km/h" for i, s, c in zip(idx, speed, calm, strict=True)]
    west = -np.sin(idx * 2 * np.pi / 16)
    y = 0.1 * speed + 2 * west + rng.normal(0, 1, n)
    df = pd.DataFrame({"wind": text, "beach": rng.choice(["a", "b", "c"], n), "waves": y.round(3)})
    prepare_task(df, out, "waves", "rmse", name=out.name)


def _dual_temperatures(out: Path) -> None:
    """Temperatures written in both scales, '12.0°C (53.6°F)' or '53.6°F (12.0°C)', either first; the demand
    follows the temperature; RMSE."""
    rng = np.random.default_rng(314)
    n = 5000
    c = rng.uniform(-20, 40, n)
    text = [f"{t:.1f}°C ({t * 9 / 5 + 32:.1f}°F)" if rng.random() < 0.5 else f"{t * 9 / 5 + 32:.1f}°F ({t:.1f}°C)"
            for t in c]  # fmt: skip
    y = c + rng.normal(0, 1, n)
    df = pd.DataFrame({"temp": text, "city": rng.choice(["x", "y"], n), "demand": y.round(3)})
    prepare_task(df, out, "demand", "rmse", name=out.name)


def _kelvin_temperatures(out: Path) -> None:
    """Temperatures from three instruments, '293.2 K', '20.0 °C', '68.0 °F'; the yield follows the
    temperature; RMSE."""
    rng = np.random.default_rng(315)
    n = 5000
    c = rng.uniform(-30, 50, n)
    text = []
    for t in c:
        u = rng.random()
        text.append(
            f"{t + 273.15:.1f} K" if u < 0.3 else f"{t:.1f} °C" if u < 0.7 else f"{t * 9 / 5 + 32:.1f} °F"
        )
    y = c + rng.normal(0, 1, n)
    df = pd.DataFrame({"temp": text, "line": rng.choice(["l1", "l2"], n), "yield": y.round(3)})
    prepare_task(df, out, "yield", "rmse", name=out.name)


def _day_counters(out: Path) -> None:
    """Study visits named 'Day 3', 'Week 6', 'Month 4' (a month of 30 days); the marker follows the days
    since the start; RMSE."""
    rng = np.random.default_rng(316)
    n = 5000
    text, days = [], []
    for _ in range(n):
        u = rng.random()
        if u < 0.4:
            k = int(rng.integers(1, 60))
            text.append(f"Day {k}")
            days.append(k)
        elif u < 0.75:
            k = int(rng.integers(1, 40))
            text.append(f"Week {k}")
            days.append(7 * k)
        else:
            k = int(rng.integers(1, 13))
            text.append(f"Month {k}")
            days.append(30 * k)
    y = np.array(days) / 10 + rng.normal(0, 1, n)
    df = pd.DataFrame({"visit": text, "arm": rng.choice(["drug", "placebo"], n), "marker": y.round(3)})
    prepare_task(df, out, "marker", "rmse", name=out.name)


def _product_names(out: Path) -> None:
    """Phone listings whose name carries the model and storage, 'Apple iPhone 12 Pro Max 256GB Blue'; the
    price follows the model and the storage; RMSE."""
    rng = np.random.default_rng(317)
    n = 5000
    models = {"Apple iPhone 12": 700, "Apple iPhone 12 Pro": 900, "Apple iPhone 12 Pro Max": 1000,
              "Samsung Galaxy S21": 650, "Samsung Galaxy S21 Ultra": 1000, "Google Pixel 6": 550,
              "Google Pixel 6 Pro": 800, "Xiaomi Redmi Note 10": 250, "OnePlus 9": 600, "OnePlus 9 Pro": 800}  # fmt: skip
    names = list(models)
    text, y = [], []
    for _ in range(n):
        m = names[rng.integers(0, len(names))]
        gb = int(rng.choice([64, 128, 256, 512]))
        text.append(f"{m} {gb}GB {rng.choice(['Black', 'Blue', 'White', 'Green', 'Silver'])}")
        y.append(models[m] + 0.8 * gb)
    target = np.array(y) + rng.normal(0, 30, n)
    df = pd.DataFrame({"name": text, "condition": rng.choice(["new", "used"], n), "price": target.round(1)})
    prepare_task(df, out, "price", "rmse", name=out.name)


def _ordinal_positions(out: Path) -> None:
    """Finishing positions written '1st', '22nd', '103rd', '411th' among 500 runners; the prize points
    fall with the position; RMSE."""
    rng = np.random.default_rng(318)
    n = 5000
    pos = rng.integers(1, 501, n)

    def ordinal(k: int) -> str:
        suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
        return f"{k}{suffix}"

    y = 50 * np.exp(-pos / 100) + rng.normal(0, 1, n)
    df = pd.DataFrame(
        {"place": [ordinal(int(p)) for p in pos], "race": rng.choice(["5k", "10k"], n), "points": y.round(3)}
    )
    prepare_task(df, out, "points", "rmse", name=out.name)


def _per_mille(out: Path) -> None:
    """Rates written per mille '3.5‰' or per cent '0.35%' (one quantity, two scales); the score follows the
    rate; RMSE."""
    rng = np.random.default_rng(319)
    n = 5000
    v = rng.uniform(0, 50, n)
    text = [f"{x:.1f}‰" if rng.random() < 0.5 else f"{x / 10:.2f}%" for x in v]
    y = v / 2 + rng.normal(0, 1, n)
    df = pd.DataFrame({"rate": text, "region": rng.choice(["n", "s", "e"], n), "score": y.round(3)})
    prepare_task(df, out, "score", "rmse", name=out.name)


def _basis_points(out: Path) -> None:
    """Spreads written '25 bps', '25bp' or '0.25%' (a basis point is a hundredth of a per cent); the loss
    follows the spread; RMSE."""
    rng = np.random.default_rng(320)
    n = 5000
    b = rng.integers(0, 500, n)
    text = []
    for x in b:
        u = rng.random()
        text.append(f"{x} bps" if u < 0.35 else f"{x}bp" if u < 0.6 else f"{x / 100:.2f}%")
    y = b / 20 + rng.normal(0, 1, n)
    df = pd.DataFrame({"spread": text, "desk": rng.choice(["rates", "credit"], n), "loss": y.round(3)})
    prepare_task(df, out, "loss", "rmse", name=out.name)


def _sas_dates(out: Path) -> None:
    """Dates as SAS and Stata export them, '03MAR2019' and '03MAR2019:14:25:00'; the load grows over the years
    and follows the season; RMSE."""
    rng = np.random.default_rng(321)
    n = 5000
    days = rng.integers(0, 6 * 365, n)
    when = pd.Timestamp("2016-01-01") + pd.to_timedelta(days, unit="D")
    text = [
        d.strftime("%d%b%Y").upper() + (d.strftime(":%H:%M:%S") if rng.random() < 0.3 else "") for d in when
    ]
    y = days / 365 * 2 + 3 * np.sin(2 * np.pi * when.dayofyear.to_numpy() / 365) + rng.normal(0, 1, n)
    df = pd.DataFrame({"visit_dt": text, "unit": rng.choice(["a", "b"], n), "load": y.round(3)})
    prepare_task(df, out, "load", "rmse", name=out.name)


def _decades(out: Path) -> None:
    """Build eras written '1990s', "'80s", '2000s' or 'the 1970s'; the value falls with the decade's age;
    RMSE."""
    rng = np.random.default_rng(322)
    n = 5000
    decade = rng.choice(np.arange(1900, 2030, 10), n)
    text = []
    for d in decade:
        u = rng.random()
        short = 1930 <= d <= 1990 and 0.6 <= u < 0.8  # "'20s" alone could be either century: only these
        text.append(f"'{d % 100:02d}s" if short else f"the {d}s" if u >= 0.8 else f"{d}s")
    y = (decade - 1900) / 10 + rng.normal(0, 1, n)
    df = pd.DataFrame({"era": text, "style": rng.choice(["brick", "wood"], n), "value": y.round(3)})
    prepare_task(df, out, "value", "rmse", name=out.name)


def _unicode_fractions(out: Path) -> None:
    """Distances with vulgar fractions as race cards print them, '1¼', '2 ¾', '½', '7'; the time follows
    the distance; RMSE."""
    rng = np.random.default_rng(323)
    n = 5000
    quarters = rng.integers(2, 41, n)
    marks = {0: "", 1: "¼", 2: "½", 3: "¾"}
    text = []
    for q in quarters:
        whole, part = divmod(int(q), 4)
        sep = " " if rng.random() < 0.3 and whole and part else ""
        text.append(f"{whole or ''}{sep}{marks[part]}" if part else f"{whole}")
    y = 12 * quarters / 4 + rng.normal(0, 1, n)
    df = pd.DataFrame({"miles": text, "going": rng.choice(["firm", "soft"], n), "seconds": y.round(3)})
    prepare_task(df, out, "seconds", "rmse", name=out.name)


def _percent_words(out: Path) -> None:
    """Shares written in words, '45 percent', '12.5 per cent', '7 pct', '30%'; the score follows the share;
    RMSE."""
    rng = np.random.default_rng(324)
    n = 5000
    v = rng.uniform(0, 100, n).round(1)
    forms = ["{} percent", "{} per cent", "{} pct", "{}%"]
    text = [forms[rng.integers(0, 4)].format(f"{x:g}") for x in v]
    y = v / 5 + rng.normal(0, 1, n)
    df = pd.DataFrame({"share": text, "panel": rng.choice(["a", "b"], n), "score": y.round(3)})
    prepare_task(df, out, "score", "rmse", name=out.name)


def _ddm_coordinates(out: Path) -> None:
    """Positions in degrees and decimal minutes as GPS units print them, "40° 26.767' N" and "79° 58.933'
    W" in two columns; the catch falls with the distance from one bank; RMSE."""
    rng = np.random.default_rng(325)
    n = 5000
    lat, lon = rng.uniform(35, 45, n), rng.uniform(-85, -75, n)
    y = 10 * np.exp(-((lat - 40.4) ** 2 + (lon + 80) ** 2) / 4) + rng.normal(0, 0.5, n)

    def ddm(v: float, pos: str, neg: str) -> str:
        a = abs(v)
        return f"{int(a)}° {a % 1 * 60:06.3f}' {pos if v >= 0 else neg}"

    df = pd.DataFrame({"lat": [ddm(v, "N", "S") for v in lat], "lon": [ddm(v, "E", "W") for v in lon],
                       "boat": rng.choice(["x", "y"], n), "catch": y.round(3)})  # fmt: skip
    prepare_task(df, out, "catch", "rmse", name=out.name)


def _dot_missing(out: Path) -> None:
    """Measurements exported from SAS, where a missing number is written '.', '.A' or '.B' (special
    missing values); the outcome follows the measurement; RMSE."""
    rng = np.random.default_rng(326)
    n = 5000
    v = rng.uniform(0, 100, n)
    gap = rng.random(n)
    text = [f"{x:.2f}" if g > 0.15 else "." if g > 0.05 else ".A" if g > 0.02 else ".B" for x, g in zip(v, gap, strict=True)]  # fmt: skip
    y = np.where(gap > 0.15, v / 5, 10.0) + rng.normal(0, 1, n)
    df = pd.DataFrame({"level": text, "site": rng.choice(["a", "b"], n), "outcome": y.round(3)})
    prepare_task(df, out, "outcome", "rmse", name=out.name)


def _count_with_share(out: Path) -> None:
    """Votes written with their share after them, '1,234 (45.2%)'; the turnout follows the count;
    RMSE."""
    rng = np.random.default_rng(327)
    n = 5000
    votes = rng.integers(100, 50000, n)
    total = votes + rng.integers(100, 50000, n)
    text = [f"{v:,} ({100 * v / t:.1f}%)" for v, t in zip(votes, total, strict=True)]
    y = votes / 1000 + rng.normal(0, 1, n)
    df = pd.DataFrame({"votes": text, "region": rng.choice(["n", "s"], n), "turnout": y.round(3)})
    prepare_task(df, out, "turnout", "rmse", name=out.name)


def _era_years(out: Path) -> None:
    """Years of artefacts written '500 BC', 'AD 1066', '1066 CE', '44 BCE'; the age score follows the year
    (BC years negative); RMSE."""
    rng = np.random.default_rng(328)
    n = 5000
    year = rng.integers(-2000, 1900, n)
    year[year == 0] = 1
    text = []
    for yr in year:
        if yr < 0:
            text.append(f"{-yr} BC" if rng.random() < 0.7 else f"{-yr} BCE")
        else:
            text.append(f"AD {yr}" if rng.random() < 0.5 else f"{yr} CE" if rng.random() < 0.5 else f"{yr}")
    y = year / 100 + rng.normal(0, 1, n)
    df = pd.DataFrame({"dated": text, "material": rng.choice(["stone", "metal"], n), "score": y.round(3)})
    prepare_task(df, out, "score", "rmse", name=out.name)


def _avazu_hours(out: Path) -> None:
    """Ad impressions stamped as Avazu does, the hour as one number yymmddhh (14102100 = 2014-10-21 00h);
    clicks follow the hour of day and the weekend; log loss."""
    rng = np.random.default_rng(329)
    n = 8000
    hours = rng.integers(0, 10 * 24, n)
    t = pd.Timestamp("2014-10-21") + pd.to_timedelta(hours, unit="h")
    logit = (
        -1.5 + 1.2 * np.cos((t.hour.to_numpy() - 20) / 24 * 2 * np.pi) + 0.8 * (t.dayofweek.to_numpy() >= 5)
    )
    click = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    df = pd.DataFrame({"hour": [int(d.strftime("%y%m%d%H")) for d in t],
                       "banner_pos": rng.choice([0, 1], n), "click": click})  # fmt: skip
    prepare_task(df, out, "click", "log_loss", name=out.name)


def _epoch_nanos(out: Path) -> None:
    """Sensor rows stamped in nanoseconds since 1970 (1553000000000000000), as pandas writes int64 times;
    the load follows the hour of day; RMSE."""
    rng = np.random.default_rng(330)
    n = 6000
    s = rng.integers(1_546_300_800, 1_577_836_800, n)
    t = pd.to_datetime(s, unit="s")
    y = 5 + 2 * np.cos((t.hour.to_numpy() - 15) / 24 * 2 * np.pi) + rng.normal(0, 0.3, n)
    df = pd.DataFrame({"ts": s * 1_000_000_000, "line": rng.choice(["a", "b"], n), "load": y.round(3)})
    prepare_task(df, out, "load", "rmse", name=out.name)


def _tmdb_genres(out: Path) -> None:
    """Films whose genres are Python-printed lists of dicts, "[{'id': 18, 'name': 'Drama'}, {'id': 35,
    'name': 'Comedy'}]", as in TMDB Box Office; the log revenue follows the genres; RMSE."""
    rng = np.random.default_rng(331)
    n = 5000
    genres = {"Drama": (18, -0.5), "Comedy": (35, 0.2), "Action": (28, 1.0), "Horror": (27, -0.8),
              "Animation": (16, 1.5), "Documentary": (99, -1.5), "Thriller": (53, 0.3), "Romance": (10749, -0.2)}  # fmt: skip
    names = list(genres)
    text, y = [], []
    for _ in range(n):
        pick = sorted(rng.choice(len(names), rng.integers(0, 4), replace=False))
        text.append(str([{"id": genres[names[i]][0], "name": names[i]} for i in pick]))
        y.append(15 + sum(genres[names[i]][1] for i in pick))
    target = np.array(y) + rng.normal(0, 0.3, n)
    df = pd.DataFrame(
        {"genres": text, "budget_band": rng.choice(["low", "high"], n), "log_revenue": target.round(3)}
    )
    prepare_task(df, out, "log_revenue", "rmse", name=out.name)


def _python_lists(out: Path) -> None:
    """Tags as Python prints a list of strings, "['wifi', 'pool', 'free parking']"; the rate adds a step per
    tag; RMSE."""
    rng = np.random.default_rng(332)
    n = 5000
    tags = {"wifi": 5, "pool": 25, "free parking": 10, "breakfast": 15, "gym": 8, "pets allowed": -5,
            "sea view": 30, "air conditioning": 12}  # fmt: skip
    names = list(tags)
    text, y = [], []
    for _ in range(n):
        pick = [names[i] for i in sorted(rng.choice(len(names), rng.integers(0, 5), replace=False))]
        text.append(str(pick))
        y.append(80 + sum(tags[t] for t in pick))
    target = np.array(y) + rng.normal(0, 3, n)
    df = pd.DataFrame({"amenities": text, "city": rng.choice(["x", "y"], n), "rate": target.round(2)})
    prepare_task(df, out, "rate", "rmse", name=out.name)


def _postgres_arrays(out: Path) -> None:
    """Amenities as Inside Airbnb exports them, Postgres arrays '{TV,Wifi,"Air conditioning"}' (names with a
    space quoted); the price adds a step per amenity; RMSE."""
    rng = np.random.default_rng(333)
    n = 5000
    items = {"TV": 10, "Wifi": 5, "Air conditioning": 20, "Kitchen": 15, "Free parking on premises": 12,
             "Washer": 8, "Hot tub": 35, "Pool": 40}  # fmt: skip
    names = list(items)
    text, y = [], []
    for _ in range(n):
        pick = [names[i] for i in sorted(rng.choice(len(names), rng.integers(1, 6), replace=False))]
        text.append("{" + ",".join(f'"{p}"' if " " in p else p for p in pick) + "}")
        y.append(60 + sum(items[p] for p in pick))
    target = np.array(y) + rng.normal(0, 3, n)
    df = pd.DataFrame(
        {"amenities": text, "room_type": rng.choice(["home", "room"], n), "price": target.round(2)}
    )
    prepare_task(df, out, "price", "rmse", name=out.name)


def _circa_years(out: Path) -> None:
    """Dates of objects as museum catalogues write them, 'c. 1850', 'ca. 1850', 'circa 1850', '1850?' or
    '1850'; the value falls with the year; RMSE."""
    rng = np.random.default_rng(334)
    n = 5000
    year = rng.integers(1500, 1950, n)
    forms = ["c. {}", "ca. {}", "circa {}", "{}?", "{}", "c.{}"]
    text = [forms[rng.integers(0, len(forms))].format(int(v)) for v in year]
    y = (1950 - year) / 20 + rng.normal(0, 1, n)
    df = pd.DataFrame({"date": text, "medium": rng.choice(["oil", "ink"], n), "value": y.round(3)})
    prepare_task(df, out, "value", "rmse", name=out.name)


def _centuries(out: Path) -> None:
    """Periods written '19th century', 'early 18th century', 'late 16th century' or 'mid-17th century'; the
    value follows the year the period centres on; RMSE."""
    rng = np.random.default_rng(335)
    n = 5000
    cent = rng.integers(12, 21, n)
    part = rng.integers(0, 4, n)
    words = ["", "early ", "mid-", "late "]
    offset = np.array([50, 20, 50, 80])
    text = [f"{words[p]}{c}th century" for c, p in zip(cent, part, strict=True)]
    year = (cent - 1) * 100 + offset[part]
    y = (year - 1100) / 50 + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"period": text, "school": rng.choice(["north", "south"], n), "score": y.round(3)})
    prepare_task(df, out, "score", "rmse", name=out.name)


def _dash_heights(out: Path) -> None:
    """Player heights as sports sites print them, '6-2' (feet-inches) and sometimes "6'2\""; the weight
    follows the height in inches; RMSE."""
    rng = np.random.default_rng(336)
    n = 5000
    inches = rng.integers(66, 86, n)
    text = [f"{h // 12}-{h % 12}" if rng.random() < 0.8 else f"{h // 12}'{h % 12}\"" for h in inches]
    y = 200 + 6 * (inches - 75) + rng.normal(0, 3, n)
    df = pd.DataFrame({"height": text, "position": rng.choice(["G", "F", "C"], n), "weight": y.round(1)})
    prepare_task(df, out, "weight", "rmse", name=out.name)


def _listing_summaries(out: Path) -> None:
    """Homes summarised in one cell as listing sites do, '3 bds · 2 ba · 1,450 sqft' (a part may be
    missing); the price follows beds, baths and area; RMSE."""
    rng = np.random.default_rng(337)
    n = 5000
    beds, baths = rng.integers(1, 6, n), rng.integers(1, 4, n)
    area = rng.integers(500, 4000, n)
    text = []
    for b, ba, a in zip(beds, baths, area, strict=True):
        parts = [f"{b} bds", f"{ba} ba", f"{a:,} sqft"]
        if rng.random() < 0.1:
            parts.pop(int(rng.integers(0, 2)))
        text.append(" · ".join(parts))
    y = 50 + 20 * beds + 15 * baths + 0.1 * area + rng.normal(0, 5, n)
    df = pd.DataFrame({"summary": text, "zip": rng.choice(["10001", "10002"], n), "price_k": y.round(2)})
    prepare_task(df, out, "price_k", "rmse", name=out.name)


def _engine_displacement(out: Path) -> None:
    """Engine sizes as used-car sites mix them, '1998 CC', '2.0L', '2.0 L' or '1.6 litre'; the power follows
    the size; RMSE."""
    rng = np.random.default_rng(338)
    n = 5000
    cc = rng.choice([998, 1197, 1248, 1497, 1598, 1998, 2179, 2494, 2993], n)
    text = []
    for c in cc:
        u = rng.random()
        text.append(f"{c} CC" if u < 0.5 else f"{c / 1000:.1f}L" if u < 0.75 else f"{c / 1000:.1f} L" if u < 0.9 else f"{c / 1000:.1f} litre")  # fmt: skip
    y = cc / 15 + rng.normal(0, 3, n)
    df = pd.DataFrame({"engine": text, "fuel": rng.choice(["petrol", "diesel"], n), "power": y.round(2)})
    prepare_task(df, out, "power", "rmse", name=out.name)


def _survey_ranges(out: Path) -> None:
    """Survey answers in words, 'Less than 1 year', '1 to 2 years', 'Between 5 and 10 years', 'More than 20
    years'; the salary follows the years coded; RMSE."""
    rng = np.random.default_rng(339)
    n = 5000
    bands = [("Less than 1 year", 0.5), ("1 to 2 years", 1.5), ("3 to 5 years", 4), ("Between 5 and 10 years", 7.5),
             ("Between 10 and 20 years", 15), ("More than 20 years", 25)]  # fmt: skip
    k = rng.integers(0, len(bands), n)
    y = 40 + 3 * np.array([bands[i][1] for i in k]) + rng.normal(0, 2, n)
    df = pd.DataFrame({"years_code": [bands[i][0] for i in k], "remote": rng.choice(["yes", "no"], n),
                       "salary_k": y.round(2)})  # fmt: skip
    prepare_task(df, out, "salary_k", "rmse", name=out.name)


def _mixed_durations(out: Path) -> None:
    """Durations written 'mm:ss' with minutes past 59 ('75:30') beside 'h:mm:ss' ('1:15:30'); the score
    follows the length in seconds; RMSE."""
    rng = np.random.default_rng(340)
    n = 5000
    sec = rng.integers(60, 3 * 3600, n)
    text = []
    for s in sec:
        m, ss = divmod(int(s), 60)
        text.append(f"{m}:{ss:02d}" if rng.random() < 0.5 else f"{m // 60}:{m % 60:02d}:{ss:02d}")
    y = sec / 300 + rng.normal(0, 1, n)
    df = pd.DataFrame({"length": text, "kind": rng.choice(["talk", "song"], n), "score": y.round(3)})
    prepare_task(df, out, "score", "rmse", name=out.name)


def _odometer(out: Path) -> None:
    """Mileage as used-car listings write it, '45K mi', '72,500 miles' or '120,000 km'; the price falls with
    the distance; RMSE."""
    rng = np.random.default_rng(341)
    n = 5000
    km = rng.uniform(1000, 250000, n)
    text = []
    for d in km:
        u = rng.random()
        mi = d / 1.609344
        text.append(
            f"{mi / 1000:.0f}K mi" if u < 0.35 else f"{mi:,.0f} miles" if u < 0.65 else f"{d:,.0f} km"
        )
    y = 30 - km / 10000 + rng.normal(0, 1, n)
    df = pd.DataFrame({"mileage": text, "body": rng.choice(["suv", "sedan"], n), "price_k": y.round(3)})
    prepare_task(df, out, "price_k", "rmse", name=out.name)


def _annual_salaries(out: Path) -> None:
    """Pay as job boards write it, '$120k/yr', '$95K a year' or '$55/hr'; the rating follows the yearly pay;
    RMSE."""
    rng = np.random.default_rng(342)
    n = 5000
    year = rng.uniform(30000, 200000, n)
    text = []
    for v in year:
        u = rng.random()
        text.append(
            f"${v / 1000:.0f}k/yr"
            if u < 0.4
            else f"${v / 1000:.0f}K a year"
            if u < 0.7
            else f"${v / 2080:.2f}/hr"
        )
    y = year / 20000 + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"pay": text, "remote": rng.choice(["yes", "no"], n), "rating": y.round(3)})
    prepare_task(df, out, "rating", "rmse", name=out.name)


def _memory_kits(out: Path) -> None:
    """Memory kits as shops list them, '2x8GB', '16GB (2 x 8GB)', '4 x 16 GB' or '32GB'; the price follows
    the total size; RMSE."""
    rng = np.random.default_rng(343)
    n = 5000
    sticks = rng.choice([1, 2, 4], n)
    size = rng.choice([4, 8, 16, 32], n)
    text = []
    for k, g in zip(sticks, size, strict=True):
        u = rng.random()
        if k == 1:
            text.append(f"{g}GB")
        else:
            text.append(
                f"{k}x{g}GB" if u < 0.4 else f"{k * g}GB ({k} x {g}GB)" if u < 0.7 else f"{k} x {g} GB"
            )
    y = 3 * sticks * size + 5 * sticks + rng.normal(0, 3, n)
    df = pd.DataFrame({"kit": text, "speed": rng.choice(["3200", "3600"], n), "price": y.round(2)})
    prepare_task(df, out, "price", "rmse", name=out.name)


def _ip_ports(out: Path) -> None:
    """Connections logged as 'address:port', '10.12.3.4:443', '192.168.7.20:8080'; the risk follows the
    network and the port; ROC AUC."""
    rng = np.random.default_rng(344)
    n = 8000
    nets = ["10.12", "10.40", "192.168", "172.16", "203.0"]
    risk = {"10.12": -1.0, "10.40": 0.0, "192.168": -0.5, "172.16": 1.0, "203.0": 2.0}
    ports = {22: 1.0, 80: 0.0, 443: -0.5, 3389: 2.0, 8080: 0.5}
    net = rng.choice(nets, n)
    port = rng.choice(list(ports), n)
    text = [f"{a}.{rng.integers(0, 256)}.{rng.integers(1, 255)}:{p}" for a, p in zip(net, port, strict=True)]
    logit = -1 + np.array([risk[a] for a in net]) + np.array([ports[p] for p in port])
    flag = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    df = pd.DataFrame({"src": text, "proto": rng.choice(["tcp", "udp"], n), "flag": flag})
    prepare_task(df, out, "flag", "roc_auc", name=out.name)


def _code_magnitudes(out: Path) -> None:
    """Deal sizes with a currency code before a magnitude, 'USD 1.2M', 'USD 850K', 'USD 3.4B'; the fee
    follows the log of the size; RMSE."""
    rng = np.random.default_rng(345)
    n = 5000
    v = 10 ** rng.uniform(5, 10, n)
    text = []
    for x in v:
        if x >= 1e9:
            text.append(f"USD {x / 1e9:.1f}B")
        elif x >= 1e6:
            text.append(f"USD {x / 1e6:.1f}M")
        else:
            text.append(f"USD {x / 1e3:.0f}K")
    y = 2 * np.log10(v) + rng.normal(0, 0.3, n)
    df = pd.DataFrame({"deal": text, "sector": rng.choice(["tech", "retail"], n), "fee": y.round(3)})
    prepare_task(df, out, "fee", "rmse", name=out.name)


def _unit_prices(out: Path) -> None:
    """Shelf prices per unit, '$4.99/lb', '$11.00/kg' or '$0.31/oz'; the sales fall with the price per kg;
    RMSE."""
    rng = np.random.default_rng(346)
    n = 5000
    per_kg = rng.uniform(2, 40, n)
    text = []
    for p in per_kg:
        u = rng.random()
        text.append(
            f"${p * 0.45359237:.2f}/lb"
            if u < 0.4
            else f"${p:.2f}/kg"
            if u < 0.7
            else f"${p * 0.028349523125:.2f}/oz"
        )
    y = 50 - per_kg + rng.normal(0, 1, n)
    df = pd.DataFrame({"unit_price": text, "aisle": rng.choice(["fresh", "frozen"], n), "sales": y.round(3)})
    prepare_task(df, out, "sales", "rmse", name=out.name)


def _infant_ages(out: Path) -> None:
    """Ages of children as clinic records write them, '2y 3m', '1y', '6m' (m for months); the weight follows
    the age in months; RMSE."""
    rng = np.random.default_rng(347)
    n = 5000
    months = rng.integers(1, 72, n)
    text = []
    for m in months:
        yr, mo = divmod(int(m), 12)
        text.append(f"{yr}y {mo}m" if yr and mo else f"{yr}y" if yr else f"{mo}m")
    y = 3.5 + 0.25 * months + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"age": text, "sex": rng.choice(["f", "m"], n), "weight_kg": y.round(2)})
    prepare_task(df, out, "weight_kg", "rmse", name=out.name)


def _fraction_inches(out: Path) -> None:
    """Pipe and lumber sizes in inches with fractions, '5-1/2"', '3/4"', '2-3/8 in' or '4"'; the load follows
    the size; RMSE."""
    rng = np.random.default_rng(348)
    n = 5000
    eighths = rng.integers(2, 64, n)
    text = []
    for e in eighths:
        whole, part = divmod(int(e), 8)
        g = np.gcd(part, 8)
        frac = f"{part // g}/{8 // g}" if part else ""
        size = f"{whole}-{frac}" if whole and frac else frac or f"{whole}"
        text.append(f'{size}"' if rng.random() < 0.7 else f"{size} in")
    y = 2 * eighths / 8 + rng.normal(0, 0.3, n)
    df = pd.DataFrame({"size": text, "grade": rng.choice(["a", "b"], n), "load": y.round(3)})
    prepare_task(df, out, "load", "rmse", name=out.name)


def _comma_units(out: Path) -> None:
    """Weights as European shops write them, '1,5 kg', '0,75 kg' or '750 g' (a decimal comma); the price
    follows the weight; RMSE."""
    rng = np.random.default_rng(349)
    n = 5000
    kg = rng.uniform(0.1, 5, n)
    text = [f"{x:.2f} kg".replace(".", ",") if rng.random() < 0.6 else f"{x * 1000:.0f} g" for x in kg]
    y = 4 * kg + rng.normal(0, 0.3, n)
    df = pd.DataFrame({"weight": text, "shop": rng.choice(["a", "b"], n), "price": y.round(3)})
    prepare_task(df, out, "price", "rmse", name=out.name)


def _comma_percents(out: Path) -> None:
    """Rates as French and German reports write them, '12,5 %', '7 %', '0,25 %'; the score follows the rate;
    RMSE."""
    rng = np.random.default_rng(350)
    n = 5000
    v = rng.uniform(0, 30, n)
    text = [f"{x:.0f} %" if rng.random() < 0.2 else f"{x:.2f} %".replace(".", ",") for x in v]
    y = v / 3 + rng.normal(0, 1, n)
    df = pd.DataFrame({"taux": text, "region": rng.choice(["n", "s"], n), "score": y.round(3)})
    prepare_task(df, out, "score", "rmse", name=out.name)


def _letter_temperatures(out: Path) -> None:
    """Temperatures written with a bare letter, '72F', '22C', '22.5C' (weather logs); the demand follows the
    temperature in Celsius; RMSE."""
    rng = np.random.default_rng(351)
    n = 5000
    c = rng.uniform(-10, 35, n)
    text = [f"{x * 9 / 5 + 32:.0f}F" if rng.random() < 0.5 else f"{x:.1f}C" for x in c]
    y = 0.02 * (c - 18) ** 2 + rng.normal(0, 0.3, n)
    df = pd.DataFrame({"temp": text, "site": rng.choice(["a", "b"], n), "demand": y.round(3)})
    prepare_task(df, out, "demand", "rmse", name=out.name)


def _price_words(out: Path) -> None:
    """Prices with words before them as shop pages write them, 'From $1,299', 'Starting at $99', 'Now $45.00'
    or '$120'; the clicks follow the log price; RMSE."""
    rng = np.random.default_rng(352)
    n = 5000
    p = 10 ** rng.uniform(1, 3.5, n)
    forms = ["From ${:,.0f}", "Starting at ${:,.0f}", "Now ${:,.2f}", "${:,.0f}"]
    text = [forms[rng.integers(0, 4)].format(x) for x in p]
    y = 10 - 2 * np.log10(p) + rng.normal(0, 0.3, n)
    df = pd.DataFrame({"price": text, "category": rng.choice(["a", "b"], n), "clicks": y.round(3)})
    prepare_task(df, out, "clicks", "rmse", name=out.name)


def _discount_words(out: Path) -> None:
    """Discounts as banners word them, 'Up to 50% off', '20% off', 'Save 15%' or 'No discount'; the uplift
    follows the percentage; RMSE."""
    rng = np.random.default_rng(353)
    n = 5000
    d = rng.integers(0, 71, n)
    text = []
    for x in d:
        u = rng.random()
        text.append(
            "No discount"
            if x == 0
            else f"Up to {x}% off"
            if u < 0.3
            else f"{x}% off"
            if u < 0.7
            else f"Save {x}%"
        )
    y = d / 10 + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"promo": text, "channel": rng.choice(["web", "app"], n), "uplift": y.round(3)})
    prepare_task(df, out, "uplift", "rmse", name=out.name)


def _german_thousands(out: Path) -> None:
    """Counts as German exports write them, points between thousands and no decimals, '12.345', '1.234.567'
    rare, '987'; the cost follows the count; RMSE."""
    rng = np.random.default_rng(354)
    n = 5000
    v = (10 ** rng.uniform(2, 6, n)).astype(int)
    text = [f"{x:,}".replace(",", ".") for x in v]
    y = np.log10(v) * 3 + rng.normal(0, 0.3, n)
    df = pd.DataFrame({"einwohner": text, "land": rng.choice(["by", "nw"], n), "kosten": y.round(3)})
    prepare_task(df, out, "kosten", "rmse", name=out.name)


def _prefix_lines(out: Path, lines: str, files: tuple[str, ...] = ("train.csv", "test.csv")) -> None:
    """Put lines above each named public file's header (an export's preamble)."""
    for f in files:
        path = out / "public" / f
        path.write_text(lines + path.read_text())


def _comment_lines(out: Path) -> None:
    """Training and test files that open with '#' comment lines (a logger's or a script's export); RMSE."""
    prepare_task(_simple_frame(355), out, "y", "rmse", name=out.name)
    _prefix_lines(out, "# exported by sensorlog 2.3 on 2024-05-01\n# units: SI, missing = empty\n")


def _title_line(out: Path) -> None:
    """A report's title and a blank line above the header of both files; MAE."""
    prepare_task(_simple_frame(356), out, "y", "mae", name=out.name)
    _prefix_lines(out, "Quarterly measurements, plant 4\n\n")


def _units_row(out: Path) -> None:
    """A row of units right under the header of both files ('', 'kg', 'cm', ...), as instruments export; RMSE."""
    prepare_task(_simple_frame(357), out, "y", "rmse", name=out.name)
    for f in ("train.csv", "test.csv"):
        path = out / "public" / f
        head, rest = path.read_text().split("\n", 1)
        units = {
            "id": "",
            "colour": "",
            "y": "mV",
            **{f"k{i}": u for i, u in enumerate(["kg", "cm", "s", "K", "Pa"])},
        }
        path.write_text(head + "\n" + ",".join(units.get(c, "") for c in head.split(",")) + "\n" + rest)


def _repeated_header(out: Path) -> None:
    """Files joined from several exports: the header line comes again every 700 rows; ROC AUC."""
    prepare_task(_binary_frame(358), out, "bought", "roc_auc", name=out.name)
    path = out / "public" / "train.csv"
    head, *rows = path.read_text().splitlines()
    lines = [head]
    for i, row in enumerate(rows):
        if i and i % 700 == 0:
            lines.append(head)
        lines.append(row)
    path.write_text("\n".join(lines) + "\n")


def _footer_rows(out: Path) -> None:
    """The training file ends with a blank line, a 'Source: ...' line and a row count, as a report does;
    RMSE."""
    prepare_task(_simple_frame(359), out, "y", "rmse", name=out.name)
    path = out / "public" / "train.csv"
    n = len(path.read_text().splitlines()) - 1
    with path.open("a") as f:
        f.write(f"\nSource: field survey 2023 (provisional)\n{n} rows\n")


def _apostrophe_numbers(out: Path) -> None:
    """Codes and amounts a spreadsheet kept as text with a leading apostrophe ("'00123", "'1499.50"); RMSE."""
    rng = np.random.default_rng(360)
    n = 5000
    amount = np.round(10 ** rng.uniform(1, 4, n), 2)
    code = rng.integers(1, 60, n)
    y = np.log10(amount) * 2 + (code % 3) * 0.5 + rng.normal(0, 0.3, n)
    df = pd.DataFrame({"amount": [f"'{a:.2f}" for a in amount], "store": [f"'{c:05d}" for c in code],
                       "day": rng.choice(["mon", "tue", "wed"], n), "spend": y.round(3)})  # fmt: skip
    prepare_task(df, out, "spend", "rmse", name=out.name)


def _iso_basic_times(out: Path) -> None:
    """Timestamps in ISO 8601's basic form without separators ('20190315T142500', '20190315T142500Z'); the
    target follows the hour and the day of the year; RMSE."""
    rng = np.random.default_rng(361)
    n = 5000
    t = pd.Timestamp("2019-01-01") + pd.to_timedelta(rng.integers(0, 365 * 24 * 60, n), unit="min")
    zone = rng.random(n) < 0.3
    text = [x.strftime("%Y%m%dT%H%M%S") + ("Z" if z else "") for x, z in zip(t, zone, strict=True)]
    y = np.sin(t.hour.to_numpy() / 24 * 2 * np.pi) * 3 + np.cos(t.dayofyear.to_numpy() / 365 * 2 * np.pi)
    df = pd.DataFrame(
        {"logged": text, "site": rng.choice(["a", "b"], n), "load": (y + rng.normal(0, 0.3, n)).round(3)}
    )
    prepare_task(df, out, "load", "rmse", name=out.name)


def _padded_categories(out: Path) -> None:
    """A 40-level category typed by hand: the same level written 'Oak ', ' oak', 'OAK' in both files; the
    target follows the level; RMSE."""
    rng = np.random.default_rng(362)
    n = 4000
    levels = [f"{w}{i}" for i, w in enumerate(["Oak", "Elm", "Ash", "Fir", "Yew"] * 8)]
    effect = dict(zip(levels, rng.normal(0, 2, len(levels)), strict=True))
    pick = rng.choice(levels, n)
    styles = [str.lower, str.upper, lambda v: v + " ", lambda v: " " + v, lambda v: v]
    text = [styles[k](v) for k, v in zip(rng.integers(0, len(styles), n), pick, strict=True)]
    y = np.array([effect[v] for v in pick]) + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"tree": text, "girth": rng.normal(50, 10, n).round(1), "value": y.round(3)})
    prepare_task(df, out, "value", "rmse", name=out.name)


def _utf16_tabs(out: Path) -> None:
    """Both tables as a spreadsheet's 'Unicode text' export: UTF-16 with a byte-order mark, tab-separated,
    named train.txt / test.txt (task.yaml lists them); accented levels; RMSE."""
    import yaml

    df = _simple_frame(363)
    df["colour"] = df["colour"].map({"red": "rosé", "green": "grün", "blue": "bleu"})
    prepare_task(df, out, "y", "rmse", name=out.name)
    pub = out / "public"
    for part in ("train", "test"):
        text = pd.read_csv(pub / f"{part}.csv").to_csv(sep="\t", index=False)
        (pub / f"{part}.txt").write_bytes(text.replace("\n", "\r\n").encode("utf-16"))
        (pub / f"{part}.csv").unlink()
    spec_path = out / "task.yaml"
    spec = yaml.safe_load(spec_path.read_text())
    spec["train_files"], spec["test_files"] = ["train.txt"], ["test.txt"]
    spec_path.write_text(yaml.safe_dump(spec, sort_keys=False))


def _cr_lines(out: Path) -> None:
    """Every public file with lines ended by a carriage return alone (classic Mac OS, 'CSV (Macintosh)');
    ROC AUC."""
    prepare_task(_binary_frame(364), out, "bought", "roc_auc", name=out.name)
    _rewrite_tables(out, lambda df, p: df.to_csv(p, index=False, lineterminator="\r"),
                    ("train.csv", "test.csv", "sample_submission.csv"))  # fmt: skip


def _padded_numbers(out: Path) -> None:
    """Numbers right-aligned with spaces inside their fields ('   12.50', '  -3.1 '), as a fixed-width report
    turned into CSV writes them; MAE."""
    prepare_task(_simple_frame(365), out, "y", "mae", name=out.name)

    def pad(df: pd.DataFrame, p: Path) -> None:
        for c in ("k0", "k1", "k2", "k3", "k4"):
            df[c] = df[c].map(lambda v: f"{float(v):10.3f} " if v else v)
        df.to_csv(p, index=False)

    _rewrite_tables(out, pad, ("train.csv", "test.csv"))


def _short_month_dates(out: Path) -> None:
    """Dates as Excel and Oracle write them, '15-Mar-19' (two-digit year), beside months 'Mar-19'; sales
    follow a trend over three years and a December peak; RMSE."""
    rng = np.random.default_rng(366)
    n = 5000
    t = pd.Timestamp("2017-01-01") + pd.to_timedelta(rng.integers(0, 3 * 365, n), unit="D")
    y = 0.01 * (t - pd.Timestamp("2017-01-01")).days.to_numpy() + 3 * (t.month == 12) + rng.normal(0, 0.3, n)
    df = pd.DataFrame({"sold": t.strftime("%d-%b-%y"), "listed": t.strftime("%b-%y"),
                       "store": rng.choice(["n", "s"], n), "sales": y.round(3)})  # fmt: skip
    prepare_task(df, out, "sales", "rmse", name=out.name)


def _two_digit_years(out: Path) -> None:
    """Dates written month first with a two-digit year ('3/15/19'), the value rising over four years and
    lower at weekends; RMSE."""
    rng = np.random.default_rng(367)
    n = 5000
    t = pd.Timestamp("2016-01-01") + pd.to_timedelta(rng.integers(0, 4 * 365, n), unit="D")
    y = (
        0.004 * (t - pd.Timestamp("2016-01-01")).days.to_numpy()
        - 2 * (t.dayofweek >= 5)
        + rng.normal(0, 0.3, n)
    )
    text = [f"{d.month}/{d.day}/{d.year % 100:02d}" for d in t]
    df = pd.DataFrame({"visit": text, "clinic": rng.choice(["a", "b", "c"], n), "score": y.round(3)})
    prepare_task(df, out, "score", "rmse", name=out.name)


def _day_first_short_years(out: Path) -> None:
    """Dates written day first with a two-digit year and dots ('15.03.19'), as German and Russian
    spreadsheets show them; a trend and a summer peak; MAE."""
    rng = np.random.default_rng(368)
    n = 5000
    t = pd.Timestamp("2016-01-01") + pd.to_timedelta(rng.integers(0, 4 * 365, n), unit="D")
    y = (
        0.004 * (t - pd.Timestamp("2016-01-01")).days.to_numpy()
        + 2 * t.month.isin([6, 7, 8])
        + rng.normal(0, 0.3, n)
    )
    df = pd.DataFrame(
        {"datum": t.strftime("%d.%m.%y"), "filiale": rng.choice(["x", "y"], n), "umsatz": y.round(3)}
    )
    prepare_task(df, out, "umsatz", "mae", name=out.name)


def _recased_test_columns(out: Path) -> None:
    """The test file written by another tool: its feature names in lower case with underscores where the
    training file says 'Engine Size', 'Fuel Type'; RMSE."""
    rng = np.random.default_rng(369)
    n = 4000
    size, age = rng.uniform(1, 5, n), rng.integers(0, 20, n)
    fuel = rng.choice(["petrol", "diesel", "hybrid"], n)
    y = 30 - 4 * size - 0.8 * age + (fuel == "hybrid") * 6 + rng.normal(0, 1, n)
    df = pd.DataFrame({"Engine Size": size.round(2), "Car Age": age, "Fuel Type": fuel, "MPG": y.round(2)})
    prepare_task(df, out, "MPG", "rmse", name=out.name)
    path = out / "public" / "test.csv"
    test = pd.read_csv(path)
    test.rename(columns=lambda c: c.lower().replace(" ", "_")).to_csv(path, index=False)


def _lower_magnitudes(out: Path) -> None:
    """Funding rounds written '$1.2m', '$850k', '$3.4bn' (lower-case suffixes, a dollar sign); the valuation
    follows the amount's logarithm; RMSE."""
    rng = np.random.default_rng(370)
    n = 5000
    amount = 10 ** rng.uniform(4, 10, n)

    def text(v: float) -> str:
        for cut, suffix in ((1e9, "bn"), (1e6, "m"), (1e3, "k")):
            if v >= cut:
                return f"${v / cut:.1f}{suffix}"
        return f"${v:.0f}"

    y = 1.5 * np.log10(amount) + rng.normal(0, 0.3, n)
    df = pd.DataFrame({"raised": [text(v) for v in amount], "stage": rng.choice(["seed", "a", "b"], n),
                       "valuation": y.round(3)})  # fmt: skip
    prepare_task(df, out, "valuation", "rmse", name=out.name)


def _en_dash_negatives(out: Path) -> None:
    """Changes typeset with an en dash for the minus sign ('–3.2', '+1.5', '0.0'), as word processors and
    some reports set them; RMSE."""
    rng = np.random.default_rng(371)
    n = 5000
    change = rng.normal(0, 3, n).round(1)
    text = [f"–{abs(v):.1f}" if v < 0 else f"+{v:.1f}" if v > 0 else "0.0" for v in change]
    y = 2 * change + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"change": text, "sector": rng.choice(["tech", "energy"], n), "return": y.round(3)})
    prepare_task(df, out, "return", "rmse", name=out.name)


def _to_ranges(out: Path) -> None:
    """Experience written as ranges in words: '10 to 20 years', '2 to 5 years', 'up to 1 year', '20 years or
    more'; the salary follows the range's middle; RMSE."""
    rng = np.random.default_rng(372)
    n = 5000
    bins = [("up to 1 year", 0.5), ("1 to 2 years", 1.5), ("2 to 5 years", 3.5), ("5 to 10 years", 7.5),
            ("10 to 20 years", 15.0), ("20 years or more", 25.0)]  # fmt: skip
    pick = rng.integers(0, len(bins), n)
    middle = np.array([bins[i][1] for i in pick])
    y = 40 + 2.5 * middle + rng.normal(0, 3, n)
    df = pd.DataFrame({"experience": [bins[i][0] for i in pick], "remote": rng.choice(["yes", "no"], n),
                       "salary_k": y.round(2)})  # fmt: skip
    prepare_task(df, out, "salary_k", "rmse", name=out.name)


def _zone_names(out: Path) -> None:
    """Timestamps with a zone's abbreviation after them ('2019-03-15 14:25 EST', 'PST', 'UTC'); the wait
    follows the hour of the local clock, written; RMSE."""
    rng = np.random.default_rng(373)
    n = 5000
    t = pd.Timestamp("2019-01-01") + pd.to_timedelta(rng.integers(0, 365 * 24 * 60, n), unit="min")
    zone = rng.choice(["EST", "PST", "UTC", "CET"], n)
    text = [f"{x:%Y-%m-%d %H:%M} {z}" for x, z in zip(t, zone, strict=True)]
    y = 3 * np.sin(t.hour.to_numpy() / 24 * 2 * np.pi) + rng.normal(0, 0.3, n)
    df = pd.DataFrame({"logged": text, "desk": rng.choice(["a", "b"], n), "wait": y.round(3)})
    prepare_task(df, out, "wait", "rmse", name=out.name)


def _dotted_am_pm(out: Path) -> None:
    """Times of day written in newspaper style, '2:30 p.m.', '11 a.m.', 'noon'; the crowd peaks at midday
    and in the evening; RMSE."""
    rng = np.random.default_rng(374)
    n = 5000
    minutes = rng.integers(6 * 60, 23 * 60, n) // 15 * 15

    def text(m: int) -> str:
        h, mm = divmod(int(m), 60)
        if (h, mm) == (12, 0):
            return "noon"
        half = "a.m." if h < 12 else "p.m."
        h12 = h % 12 or 12
        return f"{h12} {half}" if mm == 0 else f"{h12}:{mm:02d} {half}"

    hour = minutes / 60
    y = 20 * np.exp(-((hour - 12.5) ** 2) / 4) + 30 * np.exp(-((hour - 19) ** 2) / 3) + rng.normal(0, 1, n)
    df = pd.DataFrame({"start": [text(m) for m in minutes], "venue": rng.choice(["x", "y"], n),
                       "crowd": y.round(2)})  # fmt: skip
    prepare_task(df, out, "crowd", "rmse", name=out.name)


def _month_days(out: Path) -> None:
    """A day written 'Mar 15' or '15 Mar' without its year (the year in a column of its own); the demand
    follows the season; RMSE."""
    rng = np.random.default_rng(375)
    n = 5000
    t = pd.Timestamp("2016-01-01") + pd.to_timedelta(rng.integers(0, 4 * 365, n), unit="D")
    text = [
        f"{x:%b} {x.day}" if k else f"{x.day} {x:%b}" for x, k in zip(t, rng.random(n) < 0.5, strict=True)
    ]
    y = 5 * np.cos((t.dayofyear.to_numpy() - 200) / 365 * 2 * np.pi) + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"day": text, "year": t.year, "demand": y.round(3)})
    prepare_task(df, out, "demand", "rmse", name=out.name)


_FULLWIDTH = str.maketrans("0123456789.,-", "０１２３４５６７８９．，－")


def _backslash_quotes(out: Path) -> None:
    """Reviews exported by a database dump: quotes inside a quoted field escaped with a backslash ('\\"')
    instead of doubled, commas inside the text; ROC AUC."""
    import csv

    rng = np.random.default_rng(376)
    n = 3000
    good = ['the "best" buy, really', 'works, "as promised"', 'love it, "five stars"', "great value, fast"]
    bad = ['"awful", never again', 'broke, "cheap" plastic', 'refund, "not as shown"', "slow, poor fit"]
    liked = rng.random(n) < 0.5
    price = rng.uniform(5, 80, n)
    noisy = rng.random(n) < 0.15
    text = [str(rng.choice(good if k != f else bad)) for k, f in zip(liked, noisy, strict=True)]
    df = pd.DataFrame({"review": text, "price": price.round(2), "liked": liked.astype(int)})
    prepare_task(df, out, "liked", "roc_auc", name=out.name)
    _rewrite_tables(out, lambda df, p: df.to_csv(p, index=False, escapechar="\\", doublequote=False,
                                                  quoting=csv.QUOTE_NONNUMERIC),
                    ("train.csv", "test.csv"))  # fmt: skip


def _fullwidth_digits(out: Path) -> None:
    """Half of the numbers typed with full-width digits ('１２３．５', a Japanese input method); RMSE."""
    rng = np.random.default_rng(377)
    n = 4000
    area, rooms = rng.uniform(20, 150, n), rng.integers(1, 6, n)
    y = 3 * area + 20 * rooms + rng.normal(0, 10, n)
    wide = rng.random(n) < 0.5
    df = pd.DataFrame({
        "area": [f"{a:.1f}".translate(_FULLWIDTH) if w else f"{a:.1f}" for a, w in zip(area, wide, strict=True)],
        "rooms": [str(r).translate(_FULLWIDTH) if w else str(r) for r, w in zip(rooms, wide, strict=True)],
        "rent": y.round(1),
    })  # fmt: skip
    prepare_task(df, out, "rent", "rmse", name=out.name)


def _label_whitespace(out: Path) -> None:
    """A quarter of the training labels written with a stray space ('Oak ', ' Elm'); the answers and the
    sample submission spell them clean; accuracy."""
    rng = np.random.default_rng(378)
    n = 3000
    X = rng.normal(size=(n, 3))
    label = np.array(["Oak", "Elm", "Ash"])[np.argmax(X + rng.normal(0, 0.5, (n, 3)), axis=1)]
    df = pd.DataFrame(X.round(3), columns=["leaf", "bark", "height"]).assign(tree=label)
    prepare_task(df, out, "tree", "accuracy", name=out.name)
    path = out / "public" / "train.csv"
    train = pd.read_csv(path)
    pad = np.random.default_rng(3780).integers(0, 4, len(train))
    train["tree"] = [
        v + " " if k == 0 else " " + v if k == 1 else v for v, k in zip(train["tree"], pad, strict=True)
    ]
    train.to_csv(path, index=False)


def _cjk_dates(out: Path) -> None:
    """Dates written '2019年3月15日' (Chinese and Japanese style) beside '2019/3/15'; the sales follow the
    season and a trend; RMSE."""
    rng = np.random.default_rng(379)
    n = 4000
    t = pd.Timestamp("2016-01-01") + pd.to_timedelta(rng.integers(0, 4 * 365, n), unit="D")
    cjk = rng.random(n) < 0.6
    text = [
        f"{x.year}年{x.month}月{x.day}日" if k else f"{x.year}/{x.month}/{x.day}"
        for x, k in zip(t, cjk, strict=True)
    ]
    y = (
        5 * np.cos((t.dayofyear.to_numpy() - 200) / 365 * 2 * np.pi)
        + (t.year.to_numpy() - 2016)
        + rng.normal(0, 0.5, n)
    )
    df = pd.DataFrame({"date": text, "shop": rng.choice(["a", "b", "c"], n), "sales": y.round(3)})
    prepare_task(df, out, "sales", "rmse", name=out.name)


def _log_timestamps(out: Path) -> None:
    """Timestamps as an application log writes them, a comma before the milliseconds
    ('2019-03-15 10:20:30,123'); the load follows the hour; MAE."""
    rng = np.random.default_rng(380)
    n = 4000
    t = pd.Timestamp("2019-01-01") + pd.to_timedelta(rng.integers(0, 60 * 86400, n), unit="s")
    ms = rng.integers(0, 1000, n)
    text = [f"{x:%Y-%m-%d %H:%M:%S},{m:03d}" for x, m in zip(t, ms, strict=True)]
    y = 10 + 8 * np.sin((t.hour.to_numpy() - 6) / 24 * 2 * np.pi) + rng.normal(0, 1, n)
    df = pd.DataFrame({"logged_at": text, "service": rng.choice(["api", "web"], n), "load": y.round(2)})
    prepare_task(df, out, "load", "mae", name=out.name)


def _apache_log_times(out: Path) -> None:
    """Request times in the web-server log form '15/Mar/2019:10:20:30 +0000'; the bytes served follow the
    hour and the weekend; RMSE."""
    rng = np.random.default_rng(381)
    n = 4000
    t = pd.Timestamp("2019-01-01") + pd.to_timedelta(rng.integers(0, 90 * 86400, n), unit="s")
    text = [f"{x:%d/%b/%Y:%H:%M:%S} +0000" for x in t]
    y = 50 + 20 * np.sin((t.hour.to_numpy() - 6) / 24 * 2 * np.pi) - 15 * (t.dayofweek.to_numpy() >= 5)
    df = pd.DataFrame({"time": text, "path": rng.choice(["/", "/cart", "/search"], n),
                       "kbytes": (y + rng.normal(0, 3, n)).round(1)})  # fmt: skip
    prepare_task(df, out, "kbytes", "rmse", name=out.name)


def _syslog_times(out: Path) -> None:
    """Times in the system-log form 'Mar  5 10:20:30' (no year, the day padded with a space); the error
    count follows the hour and the season; MAE."""
    rng = np.random.default_rng(382)
    n = 4000
    t = pd.Timestamp("2019-01-01") + pd.to_timedelta(rng.integers(0, 365 * 86400, n), unit="s")
    text = [f"{x:%b} {x.day:>2} {x:%H:%M:%S}" for x in t]
    y = 6 + 4 * np.sin((t.hour.to_numpy() - 6) / 24 * 2 * np.pi) + 3 * np.cos(
        (t.dayofyear.to_numpy() - 20) / 365 * 2 * np.pi) + rng.normal(0, 0.7, n)  # fmt: skip
    df = pd.DataFrame({"stamp": text, "host": rng.choice(["db1", "db2", "web1"], n), "errors": y.round(2)})
    prepare_task(df, out, "errors", "mae", name=out.name)


def _debit_credit(out: Path) -> None:
    """Amounts from a bank statement, '1,234.50 DR' (debit) or '1,234.50 CR' (credit): the sign is in the
    suffix; RMSE."""
    rng = np.random.default_rng(383)
    n = 4000
    amount = rng.lognormal(5, 1, n) * np.where(rng.random(n) < 0.5, -1, 1)
    text = [f"{abs(a):,.2f} {'DR' if a < 0 else 'CR'}" for a in amount]
    y = 0.01 * amount + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"movement": text, "branch": rng.choice(["north", "south"], n), "score": y.round(3)})
    prepare_task(df, out, "score", "rmse", name=out.name)


def _header_newlines(out: Path) -> None:
    """Feature names with a line break inside their quotes ('Floor\\nArea', as a spreadsheet's wrapped
    header saves them); RMSE."""
    rng = np.random.default_rng(384)
    n = 4000
    area, year = rng.uniform(40, 200, n), rng.integers(1950, 2020, n)
    y = 2 * area + 0.5 * (year - 1950) + rng.normal(0, 8, n)
    df = pd.DataFrame({"Floor\nArea (m2)": area.round(1), "Year\nBuilt": year,
                       "Heating\nType": rng.choice(["gas", "oil", "heat pump"], n), "price": y.round(1)})  # fmt: skip
    prepare_task(df, out, "price", "rmse", name=out.name)


def _mixed_decimal_marks(out: Path) -> None:
    """A column merged from two sources: '12,5' (decimal comma) in 40 % of rows, '12.5' in the rest;
    RMSE."""
    rng = np.random.default_rng(385)
    n = 4000
    w = rng.uniform(1, 99, n)
    comma = rng.random(n) < 0.4
    text = [f"{v:.2f}".replace(".", ",") if k else f"{v:.2f}" for v, k in zip(w, comma, strict=True)]
    y = 0.5 * w + rng.normal(0, 1, n)
    df = pd.DataFrame({"weight": text, "kind": rng.choice(["box", "bag"], n), "cost": y.round(2)})
    prepare_task(df, out, "cost", "rmse", name=out.name)


def _seasonal_times(rng: np.random.Generator, n: int) -> tuple[pd.DatetimeIndex, np.ndarray]:
    """Times over two years and a target that follows the hour, the weekday and the season (noise 0.5)."""
    t = pd.Timestamp("2018-01-01") + pd.to_timedelta(rng.integers(0, 2 * 365 * 24 * 60, n), unit="min")
    y = (
        3 * np.sin((t.hour.to_numpy() - 6) / 24 * 2 * np.pi) - 2 * (t.dayofweek.to_numpy() >= 5)
        + 2 * np.cos((t.dayofyear.to_numpy() - 200) / 365 * 2 * np.pi) + rng.normal(0, 0.5, n)
    )  # fmt: skip
    return pd.DatetimeIndex(t), y


def _german_datetimes(out: Path) -> None:
    """Times written '15.03.2019 14:25' (day first, dots, a German export); RMSE."""
    rng = np.random.default_rng(386)
    t, y = _seasonal_times(rng, 4000)
    df = pd.DataFrame(
        {"zeit": t.strftime("%d.%m.%Y %H:%M"), "ort": rng.choice(["a", "b"], len(t)), "y": y.round(3)}
    )
    prepare_task(df, out, "y", "rmse", name=out.name)


def _dotted_iso_dates(out: Path) -> None:
    """Dates written year first with dots, '2019.03.15' (Korean and Chinese exports), a time after some;
    RMSE."""
    rng = np.random.default_rng(387)
    t, y = _seasonal_times(rng, 4000)
    text = [f"{x:%Y.%m.%d %H:%M}" for x in t]
    df = pd.DataFrame({"when": text, "store": rng.choice(["a", "b", "c"], len(t)), "y": y.round(3)})
    prepare_task(df, out, "y", "rmse", name=out.name)


def _weekday_suffix_dates(out: Path) -> None:
    """Dates with their weekday after them in brackets: '2019/03/15(金)' (Japanese) beside
    '2019-03-15 (Fri)'; the target follows the weekday and the season; RMSE."""
    rng = np.random.default_rng(388)
    t, y = _seasonal_times(rng, 4000)
    days_ja, days_en = "月火水木金土日", ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    text = [f"{x:%Y/%m/%d}({days_ja[x.dayofweek]})" if k else f"{x:%Y-%m-%d} ({days_en[x.dayofweek]})"
            for x, k in zip(t, rng.random(len(t)) < 0.5, strict=True)]  # fmt: skip
    y = y - 3 * np.sin((t.hour.to_numpy() - 6) / 24 * 2 * np.pi)  # no time of day is written
    df = pd.DataFrame({"day": text, "shop": rng.choice(["a", "b"], len(t)), "y": y.round(3)})
    prepare_task(df, out, "y", "rmse", name=out.name)


def _comma_time_dates(out: Path) -> None:
    """Times written '15 Mar 2019, 14:25' (a comma before the time, as a report prints them); RMSE."""
    rng = np.random.default_rng(389)
    t, y = _seasonal_times(rng, 4000)
    text = [f"{x.day} {x:%b %Y, %H:%M}" for x in t]
    df = pd.DataFrame({"posted": text, "board": rng.choice(["news", "help"], len(t)), "y": y.round(3)})
    prepare_task(df, out, "y", "rmse", name=out.name)


def _time_first_dates(out: Path) -> None:
    """Times written with the clock first, '14:25 15/03/2019' (a ticket printer); RMSE."""
    rng = np.random.default_rng(390)
    t, y = _seasonal_times(rng, 4000)
    text = [f"{x:%H:%M %d/%m/%Y}" for x in t]
    df = pd.DataFrame({"stamp": text, "line": rng.choice(["1", "2", "3"], len(t)), "y": y.round(3)})
    prepare_task(df, out, "y", "rmse", name=out.name)


def _target_magnitudes(out: Path) -> None:
    """A training target written '$85k', '$1.2M' (a scraped salary); the answers are numbers; RMSE on
    thousands."""
    rng = np.random.default_rng(391)
    n = 4000
    years = rng.integers(0, 30, n)
    level = rng.choice(["junior", "senior", "lead", "chief"], n, p=[0.4, 0.35, 0.22, 0.03])
    pay = 40_000 + 3_000 * years + np.select([level == "senior", level == "lead", level == "chief"],
                                             [30_000, 70_000, 1_100_000], 0)  # fmt: skip
    pay = (pay * rng.lognormal(0, 0.1, n)).round(-2)
    df = pd.DataFrame({"years": years, "level": level, "pay": pay})
    prepare_task(df, out, "pay", "rmse", name=out.name)
    path = out / "public" / "train.csv"
    train = pd.read_csv(path)
    train["pay"] = [f"${v / 1e6:.2f}M" if v >= 1e6 else f"${v / 1e3:.1f}k" for v in train["pay"]]
    train.to_csv(path, index=False)


def _percent_fraction_mix(out: Path) -> None:
    """A share written '45%' in half of the rows and '0.45' in the rest (two sources merged); RMSE."""
    rng = np.random.default_rng(392)
    n = 4000
    share = rng.uniform(0, 1, n)
    text = [f"{s:.0%}" if k else f"{s:.2f}" for s, k in zip(share, rng.random(n) < 0.5, strict=True)]
    y = 10 * share + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"discount": text, "aisle": rng.choice(["a", "b"], n), "y": y.round(3)})
    prepare_task(df, out, "y", "rmse", name=out.name)


def _test_written_numbers(out: Path) -> None:
    """The test file written by another tool: prices '$1,234.50' where the training file has 1234.5; RMSE."""
    rng = np.random.default_rng(393)
    n = 4000
    price, size = rng.lognormal(7, 0.6, n), rng.uniform(20, 120, n)
    y = 0.002 * price + 0.05 * size + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"price": price.round(2), "size": size.round(1), "y": y.round(3)})
    prepare_task(df, out, "y", "rmse", name=out.name)
    path = out / "public" / "test.csv"
    test = pd.read_csv(path)
    test["price"] = [f"${v:,.2f}" for v in test["price"]]
    test.to_csv(path, index=False)


def _test_other_date_format(out: Path) -> None:
    """Dates ISO-written in the training file ('2019-03-15') and day first in the test file ('15/03/2019');
    the target follows the weekday and the season; RMSE."""
    rng = np.random.default_rng(394)
    t, y = _seasonal_times(rng, 4000)
    y = y - 3 * np.sin((t.hour.to_numpy() - 6) / 24 * 2 * np.pi)  # no time of day is written
    df = pd.DataFrame(
        {"date": t.strftime("%Y-%m-%d"), "shop": rng.choice(["a", "b"], len(t)), "y": y.round(3)}
    )
    prepare_task(df, out, "y", "rmse", name=out.name)
    path = out / "public" / "test.csv"
    test = pd.read_csv(path)
    test["date"] = pd.to_datetime(test["date"]).dt.strftime("%d/%m/%Y")
    test.to_csv(path, index=False)


def _test_upper_levels(out: Path) -> None:
    """A 12-level category written 'Oak' in the training file and 'OAK' in the test file; RMSE."""
    rng = np.random.default_rng(395)
    n = 4000
    levels = [f"{w}{i}" for i, w in enumerate(["Oak", "Elm", "Ash", "Fir"] * 3)]
    effect = dict(zip(levels, rng.normal(0, 2, len(levels)), strict=True))
    pick = rng.choice(levels, n)
    y = np.array([effect[v] for v in pick]) + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"tree": pick, "girth": rng.normal(50, 10, n).round(1), "value": y.round(3)})
    prepare_task(df, out, "value", "rmse", name=out.name)
    path = out / "public" / "test.csv"
    test = pd.read_csv(path)
    test["tree"] = test["tree"].str.upper()
    test.to_csv(path, index=False)


def _html_entity_levels(out: Path) -> None:
    """Scraped levels written with HTML entities in a third of the rows ('AT&amp;T', 'Ben &amp; Jerry&#39;s')
    beside 'AT&T'; RMSE."""
    import html

    rng = np.random.default_rng(396)
    n = 4000
    levels = ["AT&T", "Ben & Jerry's", "M&S", "H&M", "P&G", "Marks & Spencer", "Procter & Gamble", "B&Q"]
    effect = dict(zip(levels, rng.normal(0, 2, len(levels)), strict=True))
    pick = rng.choice(levels, n)
    escaped = rng.random(n) < 0.35
    text = [html.escape(v) if k else v for v, k in zip(pick, escaped, strict=True)]
    y = np.array([effect[v] for v in pick]) + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"brand": text, "spend": rng.uniform(0, 10, n).round(2), "y": y.round(3)})
    prepare_task(df, out, "y", "rmse", name=out.name)


def _mojibake_levels(out: Path) -> None:
    """Levels with accents read twice as UTF-8 in a quarter of the rows ('CafÃ©' beside 'Café', files
    joined from two exports); RMSE."""
    rng = np.random.default_rng(397)
    n = 4000
    levels = ["Café", "Crème", "Doña", "Müller", "Señor", "Zürich", "Óbuda", "Łódź", "Plain", "Other"]
    effect = dict(zip(levels, rng.normal(0, 2, len(levels)), strict=True))
    pick = rng.choice(levels, n)
    broken = rng.random(n) < 0.25
    text = [
        v.encode("utf-8").decode("cp1252", errors="replace") if k else v
        for v, k in zip(pick, broken, strict=True)
    ]
    y = np.array([effect[v] for v in pick]) + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"place": text, "rooms": rng.integers(1, 6, n), "y": y.round(3)})
    prepare_task(df, out, "y", "rmse", name=out.name)


def _padded_string_ids(out: Path) -> None:
    """String ids ('A0123') written with spaces around them in the test file (' A0123 ', a fixed-width
    export); the sample names them clean; ROC AUC."""
    df = _binary_frame(398)
    df.insert(0, "key", [f"A{i:04d}" for i in range(len(df))])
    prepare_task(df, out, "bought", "roc_auc", id_col="key", name=out.name)
    path = out / "public" / "test.csv"
    test = pd.read_csv(path, dtype=str)
    test["key"] = " " + test["key"] + "  "
    test.to_csv(path, index=False)


def _semicolon_txt(out: Path) -> None:
    """The tables as train.txt and test.txt split by ';' with decimal commas (a European export); RMSE."""
    prepare_task(_simple_frame(399), out, "y", "rmse", name=out.name)
    pub = out / "public"
    for part in ("train", "test"):
        pd.read_csv(pub / f"{part}.csv").to_csv(pub / f"{part}.txt", sep=";", decimal=",", index=False)
        (pub / f"{part}.csv").unlink()


def _uci_data_files(out: Path) -> None:
    """The tables as train.data and test.data (comma-separated, as the UCI repository names them), listed in
    task.yaml; ROC AUC."""
    prepare_task(_binary_frame(400), out, "bought", "roc_auc", name=out.name)
    _convert_tables(out, ".data", lambda df, p: df.to_csv(p, index=False))


def _german_magnitudes(out: Path) -> None:
    """Prices written '1,5 Mio. €', '850 Tsd. €' and '2,3 Mrd. €' (German abbreviations of millions,
    thousands and billions); RMSLE."""
    rng = np.random.default_rng(401)
    n = 4000
    value = rng.lognormal(14, 1.5, n)

    def german(v: float) -> str:
        for scale, word in ((1e9, "Mrd."), (1e6, "Mio."), (1e3, "Tsd.")):
            if v >= scale:
                return f"{v / scale:.1f}".replace(".", ",") + f" {word} €"
        return f"{v:.0f} €"

    y = np.log1p(value) * 10 + rng.normal(0, 1, n)
    df = pd.DataFrame({"preis": [german(v) for v in value], "region": rng.choice(["nord", "sued"], n),
                       "y": np.expm1(y / 10).round(0)})  # fmt: skip
    prepare_task(df, out, "y", "rmsle", name=out.name)


def _month_year_slash(out: Path) -> None:
    """Months written '03/2019' (month and year, as a contract's start); the target follows the season and a
    trend; RMSE."""
    rng = np.random.default_rng(402)
    n = 4000
    month, year = rng.integers(1, 13, n), rng.integers(2012, 2020, n)
    y = 3 * np.cos((month - 7) / 12 * 2 * np.pi) + 0.5 * (year - 2012) + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"start": [f"{m:02d}/{yr}" for m, yr in zip(month, year, strict=True)],
                       "plan": rng.choice(["a", "b"], n), "y": y.round(3)})  # fmt: skip
    prepare_task(df, out, "y", "rmse", name=out.name)


def _cjk_column_names(out: Path) -> None:
    """Column names in Chinese ('面积', '房间数', '区域'), the target '价格'; RMSE."""
    rng = np.random.default_rng(403)
    n = 4000
    area, rooms = rng.uniform(30, 150, n), rng.integers(1, 6, n)
    district = rng.choice(["东城", "西城", "朝阳"], n)
    y = 5 * area + 30 * rooms + (district == "东城") * 100 + rng.normal(0, 20, n)
    df = pd.DataFrame({"面积": area.round(1), "房间数": rooms, "区域": district, "价格": y.round(1)})
    prepare_task(df, out, "价格", "rmse", name=out.name)


def _renamed_target(out: Path) -> None:
    """The sample names its prediction column 'Predicted' where the training file calls the target
    'SalePrice' (task.yaml names no target); RMSE."""
    import yaml

    df = _simple_frame(404).rename(columns={"y": "SalePrice"})
    prepare_task(df, out, "SalePrice", "rmse", name=out.name)
    pub = out / "public"
    sample = pd.read_csv(pub / "sample_submission.csv").rename(columns={"SalePrice": "Predicted"})
    sample.to_csv(pub / "sample_submission.csv", index=False)
    answers = pd.read_csv(out / "private" / "answers.csv").rename(columns={"SalePrice": "Predicted"})
    answers.to_csv(out / "private" / "answers.csv", index=False)
    spec_path = out / "task.yaml"
    spec = yaml.safe_load(spec_path.read_text())
    spec.pop("target_columns", None)
    spec_path.write_text(yaml.safe_dump(spec, sort_keys=False))


def _headerless_tables(out: Path) -> None:
    """train.csv and test.csv without a header row (as the UCI repository ships them; the names only in the
    description), the sample with its header; RMSE."""
    prepare_task(_simple_frame(405), out, "y", "rmse", name=out.name)
    pub = out / "public"
    for part in ("train", "test"):
        df = pd.read_csv(pub / f"{part}.csv")
        df.to_csv(pub / f"{part}.csv", index=False, header=False)


def _aligned_text_tables(out: Path) -> None:
    """train.txt and test.txt with columns aligned by runs of spaces (a fixed-width print, as old data sets
    and .dat files are); RMSE."""
    prepare_task(_simple_frame(406), out, "y", "rmse", name=out.name)
    pub = out / "public"
    for part in ("train", "test"):
        df = pd.read_csv(pub / f"{part}.csv")
        (pub / f"{part}.txt").write_text(df.round(4).to_string(index=False) + "\n")
        (pub / f"{part}.csv").unlink()


def _part_folders(out: Path) -> None:
    """The training and test rows in folders of parts (train/part-00000.csv ..., as Spark writes a table);
    ROC AUC."""
    prepare_task(_binary_frame(407), out, "bought", "roc_auc", name=out.name)
    pub = out / "public"
    for part in ("train", "test"):
        df = pd.read_csv(pub / f"{part}.csv")
        (pub / part).mkdir()
        for i, chunk in enumerate(np.array_split(np.arange(len(df)), 4)):
            df.iloc[chunk].to_csv(pub / part / f"part-{i:05d}.csv", index=False)
        (pub / f"{part}.csv").unlink()


def _very_long_names(out: Path) -> None:
    """Column names of 300 characters (survey questions as headers); ROC AUC."""
    df = _binary_frame(408)
    stem = (
        "Please rate on a scale from one to five how strongly you agree with the following statement about "
    )
    df.columns = [f"{stem}item {c} " * 3 if c != "bought" else c for c in df.columns]
    prepare_task(df, out, "bought", "roc_auc", name=out.name)


def _euro_scientific(out: Path) -> None:
    """Small and large numbers in a German export's scientific notation with a decimal comma ('1,5E-03',
    '2,75E+06'); RMSE."""
    rng = np.random.default_rng(409)
    n = 4000
    tiny, huge = rng.lognormal(-7, 1, n), rng.lognormal(14, 1, n)
    y = 2 * np.log(tiny) + np.log(huge) + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"konz": [f"{v:.2E}".replace(".", ",") for v in tiny],
                       "menge": [f"{v:.3E}".replace(".", ",") for v in huge], "y": y.round(3)})  # fmt: skip
    prepare_task(df, out, "y", "rmse", name=out.name)


def _long_clock_durations(out: Path) -> None:
    """Elapsed times written as a clock past 24 hours ('36:15:00', '105:02:30': hours, minutes, seconds);
    RMSE."""
    rng = np.random.default_rng(410)
    n = 4000
    secs = rng.integers(0, 150 * 3600, n)
    text = [f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" for s in secs]
    y = secs / 3600 * 0.1 + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"elapsed": text, "team": rng.choice(["a", "b"], n), "y": y.round(3)})
    prepare_task(df, out, "y", "rmse", name=out.name)


def _oracle_timestamps(out: Path) -> None:
    """Timestamps as an Oracle export prints them, '15-MAR-19 02.25.30.123456 PM'; RMSE."""
    rng = np.random.default_rng(411)
    t, y = _seasonal_times(rng, 4000)
    micro = rng.integers(0, 10**6, len(t))
    text = [
        f"{x:%d}-{x:%b}".upper() + f"-{x:%y} {x:%I.%M.%S}.{m:06d} {x:%p}"
        for x, m in zip(t, micro, strict=True)
    ]
    df = pd.DataFrame({"created": text, "kind": rng.choice(["a", "b"], len(t)), "y": y.round(3)})
    prepare_task(df, out, "y", "rmse", name=out.name)


def _mixed_booleans(out: Path) -> None:
    """A flag written seven ways ('TRUE', 'true', 'T', 'yes', 'Y', '1', and their negatives), as tools merged;
    ROC AUC."""
    rng = np.random.default_rng(412)
    n = 4000
    flag = rng.random(n) < 0.4
    yes, no = ["TRUE", "true", "T", "yes", "Y", "1", "True"], ["FALSE", "false", "F", "no", "N", "0", "False"]
    text = [str(rng.choice(yes if f else no)) for f in flag]
    x = rng.normal(size=n)
    label = (1.5 * flag + x + rng.normal(0, 0.8, n) > 0.6).astype(int)
    df = pd.DataFrame({"member": text, "x": x.round(3), "bought": label})
    prepare_task(df, out, "bought", "roc_auc", name=out.name)


def _single_quoted_fields(out: Path) -> None:
    """Text fields quoted with single quotes ('red, dark') as some database and Python exports write them;
    ROC AUC."""
    import csv

    df = _binary_frame(413)
    df["shop"] = df["shop"].map({"web": "web, app", "store": "store, mall", "phone": "phone"})
    prepare_task(df, out, "bought", "roc_auc", name=out.name)
    _rewrite_tables(out, lambda df, p: df.to_csv(p, index=False, quotechar="'", quoting=csv.QUOTE_MINIMAL),
                    ("train.csv", "test.csv"))  # fmt: skip


def _mixed_encodings(out: Path) -> None:
    """A UTF-8 table with a twentieth of its rows written in Windows' code page (files joined from two
    exports: 'Café' as UTF-8 and as cp1252 bytes); RMSE."""
    rng = np.random.default_rng(414)
    n = 4000
    levels = ["Café", "Crème", "Müller", "Señor", "Zürich", "Plain", "Other", "Élan"]
    effect = dict(zip(levels, rng.normal(0, 2, len(levels)), strict=True))
    pick = rng.choice(levels, n)
    y = np.array([effect[v] for v in pick]) + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"place": pick, "rooms": rng.integers(1, 6, n), "y": y.round(3)})
    prepare_task(df, out, "y", "rmse", name=out.name)
    for part in ("train", "test"):
        path = out / "public" / f"{part}.csv"
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        cut = len(lines) - len(lines) // 20
        path.write_bytes("".join(lines[:cut]).encode("utf-8") + "".join(lines[cut:]).encode("cp1252"))


def _gender_submission(out: Path) -> None:
    """The sample submission named gender_submission.csv (as Titanic names it), task.yaml silent about it;
    accuracy."""
    import yaml

    df = _binary_frame(415)
    prepare_task(df, out, "bought", "accuracy", name=out.name)
    (out / "public" / "sample_submission.csv").rename(out / "public" / "gender_submission.csv")
    spec_path = out / "task.yaml"
    spec = yaml.safe_load(spec_path.read_text())
    spec.pop("sample_submission", None)
    spec_path.write_text(yaml.safe_dump(spec, sort_keys=False))


def _target_case(out: Path) -> None:
    """The sample names the target 'Survived' where the training file says 'survived'; task.yaml names no
    target; log loss."""
    import yaml

    df = _binary_frame(416).rename(columns={"bought": "survived"})
    prepare_task(df, out, "survived", "log_loss", name=out.name)
    for f in (out / "public" / "sample_submission.csv", out / "private" / "answers.csv"):
        pd.read_csv(f).rename(columns={"survived": "Survived"}).to_csv(f, index=False)
    spec_path = out / "task.yaml"
    spec = yaml.safe_load(spec_path.read_text())
    spec.pop("target_columns", None)
    spec_path.write_text(yaml.safe_dump(spec, sort_keys=False))


def _excel_sep_line(out: Path) -> None:
    """Tables saved by Excel with its separator hint 'sep=;' as the first line, split by ';'; RMSE."""
    prepare_task(_simple_frame(417), out, "y", "rmse", name=out.name)
    for part in ("train", "test"):
        path = out / "public" / f"{part}.csv"
        text = pd.read_csv(path).to_csv(sep=";", index=False)
        path.write_text("sep=;\n" + text)


def _excel_dropped_zeros(out: Path) -> None:
    """Ids written '000123' in the sample and the training file, but 123 in a test file saved again by a
    spreadsheet (which drops leading zeros); the sample's rows in another order; RMSE."""
    df = _simple_frame(418)
    df.insert(0, "key", [f"{i:06d}" for i in range(len(df))])
    prepare_task(df, out, "y", "rmse", id_col="key", name=out.name)
    pub = out / "public"
    test = pd.read_csv(pub / "test.csv", dtype={"key": str})
    test["key"] = test["key"].astype(int)
    test.to_csv(pub / "test.csv", index=False)
    sample = pd.read_csv(pub / "sample_submission.csv", dtype={"key": str})
    sample.sample(frac=1.0, random_state=1).to_csv(pub / "sample_submission.csv", index=False)


SHAPES: dict[str, tuple[str, Maker]] = {
    "wine-logloss": ("3 classes with spaces in their labels, log loss", _wine),
    "wine-shuffled": ("the same with its sample submission's rows shuffled", _wine_shuffled),
    "three-targets": ("3 regression targets, 20 rows", _three_targets),
    "hourly": ("hourly timestamps as text, a category with a non-ASCII level, MAE", _hourly),
    "hourly-untidy": (
        "hourly + a training-only column, a True/False column, missing targets",
        _hourly_untidy,
    ),
    "imbalanced": ("5 % positives, string ids, log loss", _imbalanced),
    "large": ("150,000 rows, 30 columns, RMSE", _large),
    "many-classes": ("50 classes, some rarer than the folds", _many_classes),
    "two-labels": ("2 binary targets, ROC AUC per column", _two_labels),
    "wide": ("2,000 columns, 400 rows, a target name with spaces", _wide),
    "text-rmsle": ("a free-text column with gaps and a count target, RMSLE", _text_counts),
    "ordinal-qwk": ("5 ordered integer grades, quadratic weighted kappa", _ordinal),
    "tiny-f1": ("80 rows, yes/no labels, F1", _tiny_f1),
    "high-cardinality": ("a 4,000-level category, zip codes with leading zeros, ROC AUC", _high_cardinality),
    "numbers-as-text": ("'1,234.5', '$12.00' and '45%' columns, RMSE", _numbers_as_text),
    "integer-classes": ("7 classes labelled 1-7, accuracy", _integer_classes),
    "reordered": (
        "test columns reversed, id in the middle, unseen levels, an empty test column, MAE",
        _reordered,
    ),  # fmt: skip
    "near-zero": ("a target around 0, half negative, SMAPE", _near_zero),
    "duplicates": ("150 distinct rows repeated with conflicting labels, MCC", _conflicting_duplicates),
    "unseen-groups": ("repeated visits, the test patients new (a grouped split), RMSE", _unseen_groups),
    "forecast": ("daily sales of 20 shops, the test rows the last fifth of the days, MAE", _forecast),
    "map3": ("12 products, MAP@3 (three labels per row, best first)", _map3),
    "multiclass-auc": ("4 classes, ROC AUC one against the rest", _multiclass_auc),
    "latin1": ("files in Latin-1 with accented levels and column name, accuracy", _latin1),
    "day-first": ("dates written 31/12/2019 with a trend, RMSE", _day_first_dates),
    "gini": ("30,000 rows, 3 % positives, normalised Gini", _gini),
    "spearman": ("a heavy-tailed target, Spearman correlation", _spearman),
    "bool-target": ("a True/False target, balanced accuracy", _bool_target),
    "question-marks": ("numbers with '?', 'NA' and '-' for gaps, RMSE", _question_marks),
    "odd-names": ("column names with brackets, quotes, dots and colons, ROC AUC", _odd_names),
    "tiny-train": ("150 training rows, 15,000 test rows, MAE", _tiny_train_big_test),
    "rare-f1": ("1 % positives, F1", _rare_positives_f1),
    "mixed-types": ("numbers with a few words among them, 0/1 as text, RMSE", _mixed_types),
    "zoned-times": ("ISO timestamps with time-zone offsets, an hour-of-day effect, MAE", _zoned_times),
    "id-last": ("the sample submission's id column last, 3 classes, accuracy", _id_last),
    "parquet": ("training and test tables as Parquet, RMSE", _parquet),
    "tsv": ("tables separated by tabs (.tsv), RMSE", _tsv),
    "positional": ("a test file without the id column (rows in order), MAE", _positional),
    "binary-two-columns": ("a probability column per class of a binary task, log loss", _binary_two_columns),
    "text-macro-f1": ("short reviews in five topics, one rare, macro F1", _text_macro_f1),
    "zero-inflated": ("a count that is 0 nine times in ten, MAE", _zero_inflated),
    "big-values": ("a target in the billions, RMSE", _big_values),
    "jpeg-images": ("colour JPEGs of different sizes in sub-folders, accuracy", _jpeg_images),
    "text-pairs": ("a question and an answer per row, log loss", _text_pairs),
    "text-cjk": ("Japanese reviews without spaces, ROC AUC", _text_cjk),
    "long-essays": ("essays of 150-400 words scored 1-10, RMSE", _long_text_regression),
    "class-index-columns": (
        "classes 0-2 with probability columns named '0', '1', '2', log loss",
        _class_index_columns,
    ),
    "target-in-test": ("the test file carries the target column, empty, RMSE", _target_in_test),
    "zero-codes": ("class codes '01'-'04' with leading zeros, accuracy", _labels_with_zeros),
    "bom": ("every file starts with a UTF-8 byte-order mark, ROC AUC", _bom),
    "semicolon": ("';' between fields and decimal commas, RMSE", _semicolon),
    "zipped": ("train.csv.zip and test.csv.zip, yes/no labels, accuracy", _zipped),
    "unnamed-index": ("pandas' row index as an unnamed first column, MAE", _unnamed_index),
    "crlf-quoted": (
        "Windows line ends, quoted text with commas, quotes and line breaks, log loss",
        _crlf_quoted,
    ),
    "uuid-ids": ("hex UUID row ids, 4 classes, macro F1", _uuid_ids),
    "mape": ("a positive amount with multiplicative noise, MAPE", _mape),
    "multilabel-logloss": (
        "6 yes/no targets, a row may have none or several, mean column-wise log loss",
        _multilabel_logloss,
    ),
    "label-commas": ("class labels with commas and quotes, accuracy", _label_commas),
    "padded-ids": ("ids with leading zeros ('000123'), RMSE", _padded_ids),
    "minus-one-labels": ("labels -1 and 1, ROC AUC", _minus_one_labels),
    "float-labels": ("class labels written 0.0, 1.0, 2.0, accuracy", _float_labels),
    "mostly-missing": ("twelve columns 70 % empty, the gaps telling, log loss", _mostly_missing),
    "outlier-target": ("1 % of targets a hundred times too large, MAE", _outlier_target),
    "epoch-times": ("Unix epoch seconds with an hour-of-day effect, RMSE", _epoch_times),
    "jsonl": ("training and test tables as JSON lines, accuracy", _jsonl),
    "tsv-gz": ("tab-separated tables compressed with gzip, RMSE", _tsv_gz),
    "few-values": ("a number with three values scored by RMSE", _few_values),
    "three-texts": ("a title, a body and tags per row, a price, RMSLE", _three_texts),
    "r2-skewed": ("a right-skewed amount, R squared", _r2_skewed),
    "cohen-kappa": ("four named grades, unweighted Cohen's kappa", _cohen_kappa),
    "duplicate-test-ids": ("a test file whose ids repeat, MAE", _duplicate_test_ids),
    "rmspe": ("daily takings, 5 % zero (closed days), RMSPE", _rmspe),
    "pearson": ("a noisy return scored by Pearson correlation", _pearson),
    "fbeta": ("10 % positives scored by F2", _fbeta),
    "median-ae": ("heavy-tailed noise, median absolute error", _median_ae),
    "msle": ("a count of visits, mean squared log error", _msle),
    "kendall-tau": ("a score to rank, Kendall's tau", _kendall_tau),
    "integer-regression": ("an age in whole years (73 values), MAE", _integer_regression),
    "sorted-by-target": ("the training rows sorted by the target, RMSE", _sorted_by_target),
    "trailing-commas": ("every training and test line ends with a comma, accuracy", _trailing_commas),
    "constant-and-empty": ("an empty, a constant and a copied column, RMSE", _constant_and_empty),
    "lat-lon": ("prices following the distance to two centres, RMSE", _lat_lon),
    "json-cells": ("a column of JSON lists of genres, RMSLE", _json_cells),
    "one-feature": ("a single feature with a curved effect, RMSE", _one_feature),
    "quote-all": ("every field in double quotes, macro F1", _quote_all),
    "unseen-class": ("log loss over four classes, the training rows holding three", _unseen_class),
    "side-lookup": (
        "shop attributes in a side table (one row per shop), new shops in test, RMSE",
        _side_lookup,
    ),
    "side-many": ("past loans in a side table (several rows per applicant id), ROC AUC", _side_many),
    "side-two-keys": (
        "a shop's weekly conditions in a side table keyed by shop and week, RMSE",
        _side_two_keys,
    ),
    "span-extraction": ("the words of a tweet that carry its sentiment, word Jaccard", _span_extraction),
    "mcrmse-text": ("essays scored on three scales, mean column-wise RMSE", _mcrmse_text),
    "classification-error": ("3 classes, classification error", _classification_error),
    "f1-weighted": ("4 classes of 55/25/15/5 %, weighted F1", _f1_weighted),
    "target-as-text": ("a price written '$1,234.50' in the training file, RMSE", _target_as_text),
    "image-regression": ("grey PNGs, the size of a bright square, RMSE", _image_regression),
    "side-unjoinable": (
        "a side table keyed by what the rows lack beside one that joins, ROC AUC",
        _side_unjoinable,
    ),
    "inf-values": ("a ratio column with +inf and -inf on 5 % of rows, RMSE", _inf_values),
    "many-classes-200": ("200 classes over 12,000 rows, accuracy", _many_classes_200),
    "side-in-folder": ("the side-lookup task with stores.csv in a folder, RMSE", _side_in_folder),
    "duplicate-column-names": ("two columns named alike in every table, RMSE", _duplicate_column_names),
    "big-int-ids": ("19-digit ids, log loss", _big_int_ids),
    "million-rows": ("a million rows of eight numbers and a category, RMSE", _million_rows),
    "huge-test": ("2,000 training rows, 300,000 test rows, 3 classes, accuracy", _huge_test),
    "extra-test-columns": ("two columns only the test file holds, RMSE", _extra_test_columns),
    "shuffled-columns": ("the test file's columns in another order, MAE", _shuffled_columns),
    "id-case": ("the sample's id column 'Id', the tables' 'id', RMSE", _id_case),
    "lag-panel": (
        "forty meters whose level wanders, the last fifth of the days to predict, RMSE",
        _lag_panel,
    ),
    "nested-side": ("loans in a side table with their monthly balances in another, ROC AUC", _nested_side),
    "url-text": ("a web address whose site and path tell the topic, accuracy", _url_text),
    "mixed-datetimes": ("dates with and without a time in one column, RMSE", _mixed_datetimes),
    "multilabel-text": ("comments with three yes/no labels, ROC AUC per label", _multilabel_text),
    "extrapolation": ("a straight-line price, the test flats larger than any seen, RMSE", _extrapolation),
    "yes-no-features": ("flags written Y/N, yes/no and True/False, ROC AUC", _yes_no_features),
    "int-coded-category": ("a 300-level product code written as numbers, RMSE", _int_coded_category),
    "nested-balance": ("late months of past loans in a table keyed by the loan, ROC AUC", _nested_balance),
    "nested-lookup": ("merchants' categories beside purchases keyed by card, RMSE", _nested_lookup),
    "otto-like": ("93 sparse count columns, 9 classes, log loss", _otto_like),
    "sample-subset": ("a sample submission listing four fifths of the test ids, RMSE", _sample_subset),
    "header-whitespace": ("column names with spaces around them, MAE", _header_whitespace),
    "test-column-empty": ("a strong column empty in every test row, RMSE", _test_column_empty),
    "float-ids": ("test ids written 12.0, the sample's 12, ROC AUC", _float_ids),
    "very-long-text": ("1,500 documents of about 2,000 words, macro F1", _very_long_text),
    "unseen-levels": ("a category whose test levels are new, RMSE", _unseen_levels),
    "named-days": ("weekday and month names as words, MAE", _named_days),
    "signed-classes": ("classes -1, 0 and 1, log loss", _signed_classes),
    "date-only": ("a daily count with only its date, RMSE", _date_only),
    "tiny-test": ("3,000 training rows, 12 test rows, MAE", _tiny_test),
    "rare-class-logloss": ("five classes, one 0.5 % of the rows, log loss", _rare_class_logloss),
    "emoji-text": ("posts whose sentiment is in their emoji, ROC AUC", _emoji_text),
    "numbers-with-units": ("'18.9 kmpl', '1248 CC', '74 bhp' columns, RMSE", _numbers_with_units),
    "two-train-files": ("the training rows in two files listed in task.yaml, RMSE", _two_train_files),
    "id-named-index": ("the id column named 'index', 3 classes, micro F1", _id_named_index),
    "sample-header-spaces": ("the sample's header 'id, y', RMSE", _sample_header_spaces),
    "empty-rows": ("the training file ends with 40 lines of bare commas, MAE", _empty_rows),
    "html-text": ("reviews with HTML tags in them, RMSE", _html_text),
    "identity-split": (
        "IEEE-CIS's train/test_transaction and train/test_identity files, ROC AUC",
        _identity_split,
    ),
    "two-test-files": ("the test rows in two files listed in task.yaml, MAE", _two_test_files),
    "yyyymmdd-dates": (
        "dates written as numbers 20210304, the last fifth of the days to predict, RMSE",
        _yyyymmdd_dates,
    ),
    "category-path": ("a category written as a path 'Women/Tops/Blouse', RMSLE", _category_path),
    "events-per-id": (
        "PLAsTiCC's layout: many observations per object, classes in a metadata table, log loss",
        _events_per_id,
    ),
    "null-strings": ("gaps written NULL, None, n/a and -, RMSE", _null_strings),
    "unlabelled-rows": (
        "a sixth of the training rows without a label, 4 classes, log loss",
        _unlabelled_rows,
    ),
    "yyyymm-months": ("months written as numbers 201903, the last fifth to predict, RMSE", _yyyymm_months),
    "image-class-folders": (
        "training images in a folder per class, no training table, accuracy",
        _image_class_folders,
    ),
    "ingredients-json": (
        "What's Cooking's JSON arrays with a list of ingredients per recipe, accuracy",
        _ingredients_json,
    ),
    "multiline-text": ("reviews whose quoted text runs over several lines, RMSE", _multiline_text),
    "mcc-edible": (
        "single-letter codes with gaps, edible 'e' or poisonous 'p', Matthews correlation",
        _mcc_edible,
    ),
    "smape-sales": (
        "daily units of 15 store items, some zero, the last fifth of the days, SMAPE",
        _smape_sales,
    ),
    "balanced-accuracy": ("5 classes in shares 60/25/10/4/1 %, balanced accuracy", _balanced_accuracy),
    "hashed-categories": (
        "Avazu's hex hashes in twelve columns, the hour as YYMMDDHH, log loss",
        _hashed_categories,
    ),
    "text-files": (
        "Feedback Prize's essays as train/<id>.txt and test/<id>.txt, no test table, RMSE",
        _text_files,
    ),
    "text-image": ("a description, a photo and an age per pet, 3 adoption grades, accuracy", _text_image),
    "txt-table": ("train.txt and test.txt split by tabs, RMSE", _txt_table),
    "month-names": ("months written 'Mar 2019', the last fifth to predict, RMSE", _month_names),
    "columnwise-mae": ("two targets on different scales, mean columnwise MAE", _columnwise_mae),
    "zip-codes": ("five-digit postcodes with a leading zero, price by region and area, RMSE", _zip_codes),
    "pixels-string": (
        "FER2013's 12x12 images as one cell of 144 numbers, 3 classes, accuracy",
        _pixels_string,
    ),
    "balanced-logloss": ("ICR's 600 rows, 17 % positives, a code 'EJ', balanced log loss", _balanced_logloss),
    "average-precision": ("card fraud, 3 % positives, average precision", _average_precision),
    "clock-times": ("departures '07:45' and durations '01:30:00', RMSE", _clock_times),
    "point-strings": ("places as one cell '(40.71280, -74.00600)', rent by district, RMSE", _point_strings),
    "airbnb-listings": (
        "'t'/'f' flags, '95%', amenities '{Wifi,\"Air conditioning\"}', a price '$1,234.00', RMSLE",
        _airbnb_listings,
    ),
    "percent-target": ("a share in [0, 1], a tenth exactly 0 or 1, RMSE", _percent_target),
    "fold-column": ("a training-only 'kfold' column, rows grouped by device, MAE", _fold_column),
    "date-parts": ("the date as year/month/day columns, the last fifth of the days, RMSE", _date_parts),
    "mercedes-r2": ("letter codes X0-X8 and 300 sparse 0/1 columns, R2", _mercedes_r2),
    "sensor-sequences": (
        "20-60 readings in one cell, lengths varying, 3 states, log loss",
        _sensor_sequences,
    ),
    "hotel-bookings": ("arrival year / month name / day columns, cancellations, ROC AUC", _hotel_bookings),
    "embedding-column": ("a 16-number embedding per row as a JSON list, RMSE", _embedding_column),
    "laptop-prices": ("'8GB', '1.37kg', '1920x1080', '256GB SSD + 1TB HDD', '2.3GHz', RMSLE", _laptop_prices),
    "minus-999": ("the Higgs challenge's gaps written -999.0, labels 's'/'b', ROC AUC", _minus_999),
    "taxi-trips": ("pickup and dropoff coordinates, fare by trip length, RMSE", _taxi_trips),
    "age-bands": ("ages as bands '25-34', '65+' and incomes as '$50k-$75k', RMSE", _age_bands),
    "smiles-strings": ("molecules as SMILES strings, a property, RMSE", _smiles_strings),
    "dna-motifs": ("60-base DNA reads, bound when a motif is present, accuracy", _dna_motifs),
    "likert-answers": ("eight answers 'Strongly disagree' .. 'Strongly agree', RMSE", _likert_answers),
    "ip-addresses": ("clients' IPv4 addresses, attacks from two subnets, ROC AUC", _ip_addresses),
    "iso-weeks": ("weeks written '2019-W05', the last fifth to predict, RMSE", _iso_weeks),
    "quarters": ("quarters written '2015Q3', the last fifth to predict, MAE", _quarters),
    "excel-serial-dates": (
        "dates as Excel day numbers (43831), the last fifth to predict, RMSE",
        _excel_serial_dates,
    ),
    "scientific-text": ("readings '1.2E+05' as text with 'n.d.' gaps, RMSE", _scientific_text),
    "json-objects": ("Google Analytics' JSON objects of counts per cell, RMSE", _json_objects),
    "pipe-lists": ("MovieLens' genres 'Action|Comedy', RMSE", _pipe_lists),
    "decimal-commas": (
        "a quoted price with a decimal comma '3,14' in a comma-separated file, RMSE",
        _decimal_commas,
    ),
    "ordinal-floors": ("floors written '1st' .. '12th', 'Ground', sizes S-XL, RMSE", _ordinal_floors),
    "mixed-case-flags": ("yes/no written 'Yes', 'YES', 'y', 'false', '0', log loss", _mixed_case_flags),
    "flight-durations": ("flight prices: '2h 50m', '1 stop', '01:10 22 Mar', RMSE", _flight_durations),
    "feet-inches": ("heights written '6-2', weights '225 lbs', RMSE", _feet_inches),
    "number-words": ("counts written 'four', 'six', 'twelve', RMSE", _number_words),
    "play-store": ("Google Play: '10,000+', '19M', '$4.99', '4.0.3 and up', RMSE", _play_store),
    "ndcg-at-5": ("Airbnb destinations, twelve countries, NDCG@5", _ndcg_at_5),
    "iso-durations": ("YouTube lengths 'PT4M13S', RMSE", _iso_durations),
    "wide-date-columns": ("web traffic: a column per day named by its date, SMAPE", _wide_date_columns),
    "fractions": ("odds written '5/2', '100/30', 'Evens', log loss", _fractions),
    "relative-dates": ("posts aged '3 days ago', '2 weeks ago', '30+ days ago', RMSE", _relative_dates),
    "structured-codes": ("M5 codes 'FOODS_3_090', unseen items, RMSE", _structured_codes),
    "temperatures": (
        "'23.5°C', '65%', '12 km/h', '1013 hPa', demand by distance from 18 °C, RMSE",
        _temperatures,
    ),
    "am-pm-times": ("times of day '2:30 PM', waits peaking at 9 AM and 5 PM, RMSE", _am_pm_times),
    "accounting-negatives": (
        "losses in brackets '(1,234.50)', '-' for nothing, distress, ROC AUC",
        _accounting_negatives,
    ),
    "twitter-dates": ("Twitter's 'Tue Mar 05 14:22:01 +0000 2019' times, RMSE", _twitter_dates),
    "version-strings": ("versions '2.13.4', most test versions unseen, RMSE", _version_strings),
    "currency-codes": ("prices 'EUR 950.00', 'JPY 130,000', duty by the dollar price, RMSE", _currency_codes),
    "street-addresses": ("one address column '1234 Oak St, Springfield, IL 62704', RMSE", _street_addresses),
    "file-sizes": (
        "sizes '850 KB', '14.2 MB', '1.2 GB', seconds by bytes and connection, RMSLE",
        _file_sizes,
    ),
    "lat-lon-dms": ("coordinates 40°26'46\"N, counts by distance from a site, RMSE", _lat_lon_dms),
    "epoch-millis": ("times in milliseconds since 1970, rate by hour and weekend, RMSE", _epoch_millis),
    "employment-length": ("'10+ years', '< 1 year', ' 36 months', '13.56%', ROC AUC", _employment_length),
    "email-addresses": ("an e-mail address per row, fraud by domain, ROC AUC", _email_addresses),
    "ordinal-dates": ("dates 'March 3rd, 2019' and '21st Jan 2020', RMSE", _ordinal_dates),
    "count-suffixes": ("counts '12.5K' and '3.4M', RMSLE", _count_suffixes),
    "salary-ranges": ("'$85K-$120K (Glassdoor est.)' ranges, RMSE", _salary_ranges),
    "opening-hours": ("opening hours '09:00-17:00' or 'Closed', RMSE", _opening_hours),
    "unicode-units": ("'12.5 µg/m³' and 'NO₂' units in Unicode, RMSE", _unicode_units),
    "cancer-stages": ("'Stage IIIA' in Roman numerals, grades 'G2', RMSE", _cancer_stages),
    "phone-numbers": ("a phone number per row, answers by area code, ROC AUC", _phone_numbers),
    "mixed-weights": ("weights in kg, g, lb and oz, RMSE", _mixed_weights),
    "rating-text": ("ratings '4.5 out of 5 stars' and '1,234 ratings', RMSE", _rating_text),
    "spelled-magnitudes": ("budgets '$150 million' beside '$800,000', RMSLE", _spelled_magnitudes),
    "lap-times": ("lap times '1:27.452' (minutes, seconds, thousandths), RMSE", _lap_times),
    "win-loss-records": ("records '12-5' and '7-1-2', ROC AUC", _win_loss_records),
    "blood-pressure": ("blood pressure '120/80', '172 cm', '81 kg', ROC AUC", _blood_pressure),
    "mixed-temperatures": ("temperatures '21.5°C' beside '70.7°F', RMSE", _mixed_temperatures),
    "package-dimensions": ("dimensions '30 x 40 x 50 cm', freight by volume, RMSE", _package_dimensions),
    "screen-resolutions": (
        "resolutions '2560x1440' and aspects '16:9', price by pixels, RMSE",
        _screen_resolutions,
    ),
    "expiry-dates": ("card expiry dates 'MM/YY', ROC AUC", _expiry_dates),
    "seasons": ("seasons '2015-16' and '2015/16', RMSE", _seasons),
    "hex-colors": ("colours '#FF8800', sales by brightness, RMSE", _hex_colors),
    "geohashes": ("homes located by a seven-letter geohash only, RMSE", _geohashes),
    "vin-numbers": ("a 17-character VIN per car, price by maker, RMSE", _vin_numbers),
    "hex-numbers": ("sizes in hexadecimal '0x0001F400', ROC AUC", _hex_numbers),
    "signed-percents": ("changes '+5.21%' and '-3.10%', ROC AUC", _signed_percents),
    "unit-ranges": ("ranges with units '10-20 kg' and '12 - 15 years', RMSE", _unit_ranges),
    "interval-bins": ("pandas intervals '(35.0, 40.0]' and '[20000, 40000)', RMSE", _interval_bins),
    "euro-prices": ("prices '1.234,56 €' and '€ 99,90', RMSE", _euro_prices),
    "masked-cards": ("masked card numbers '4532 **** **** 1234', fraud by network, ROC AUC", _masked_cards),
    "iban-codes": ("IBANs of lengths varying by country, ROC AUC", _iban_codes),
    "pandas-timedeltas": ("durations '2 days 03:15:00' as pandas writes them, RMSE", _pandas_timedeltas),
    "mixed-speeds": ("speeds '155 mph' beside '250 km/h', RMSE", _mixed_speeds),
    "mixed-denominators": ("scores '7/10', '4/5', '85/100', ROC AUC", _mixed_denominators),
    "mac-addresses": ("MAC addresses, failures by vendor, ROC AUC", _mac_addresses),
    "us-datetimes": ("times '03/05/2019 02:15:00 PM', RMSE", _us_datetimes),
    "height-words": ("heights '5 ft 11 in', weights '185 lbs', RMSE", _height_words),
    "isbn-numbers": ("ISBN-10s '0195153448', rating by language group, RMSE", _isbn_numbers),
    "hemisphere-coordinates": (
        "one column '51.5074° N, 0.1278° W', temperature by place, RMSE",
        _hemisphere_coordinates,
    ),
    "weekday-times": ("weekly slots 'Tue 09:35', RMSE", _weekday_times),
    "scientific-units": ("concentrations '1.50e-03 mol/L', RMSE", _scientific_units),
    "space-thousands": ("revenues '1 234 567 €' with (no-break) spaces, RMSE", _space_thousands),
    "indian-grouping": ("prices '₹ 4,50,000' grouped as in India, RMSE", _indian_grouping),
    "lakh-crore": ("prices '4.5 Lakh', '1.2 Crore' beside '85,000', RMSE", _lakh_crore),
    "date-spans": ("jobs 'Jan 2015 - Mar 2019' or 'Jun 2020 - Present', RMSE", _date_spans),
    "car-specs": ("CarDekho's '190Nm@ 2000rpm', '22.4 kgm at 1750-2750rpm', '74 bhp', RMSE", _car_specs),
    "censored-values": ("readings '<0.5' and '>1000' beside plain numbers, RMSE", _censored_values),
    "plus-minus": ("measurements '12.3 ± 0.4', RMSE", _plus_minus),
    "star-ratings": ("stars drawn as '★★★★☆', RMSE", _star_ratings),
    "spec-pairs": ("key-value specs 'RAM: 8GB; Storage: 256GB', RMSE", _spec_pairs),
    "half-years": ("half-years 'H1 2016', RMSE", _half_years),
    "time-controls": ("chess time controls '300+5', RMSE", _time_controls),
    "pounds-ounces": ("birth weights '7 lb 8 oz', RMSE", _pounds_ounces),
    "approx-numbers": ("counts '~300', 'approx. 1,200', '2000+', RMSE", _approx_numbers),
    "mpg-pairs": ("fuel economy '25/32 mpg', RMSE", _mpg_pairs),
    "tennis-scores": ("set scores '6-4 3-6 7-6(5)', RMSE", _tennis_scores),
    "long-hours": ("running time '1234:30' past a day, RMSE", _long_hours),
    "dotted-dates": ("dates '24.12.2019', RMSE", _dotted_dates),
    "swiss-thousands": ('salaries "CHF 85\'400.50", RMSE', _swiss_thousands),
    "mixed-fractions": ("widths '3 1/2\"', '5/8\"', RMSE", _mixed_fractions),
    "mixed-frequencies": ("clock speeds '2.4 GHz' beside '800 MHz', RMSE", _mixed_frequencies),
    "area-units": ("floor areas '1,200 sq ft' beside '110 m²' and '95 sqm', RMSE", _area_units),
    "latency-units": ("response times '350ms', '1.24s', '2.5 min', RMSE", _latency_units),
    "stone-weights": ("weights '11 st 4 lb' beside '72 kg' and '165 lbs', RMSE", _stone_weights),
    "volume-words": ("sizes '500 ml', '1.5 L', '2 litres', '12 fl oz', RMSE", _volume_words),
    "length-words": (
        "distances '5.2 kilometres', '800 metres', '3.1 miles', '400 yards', RMSE",
        _length_words,
    ),
    "footnote-numbers": (
        "populations with footnote marks '1,234,567[3]', '45,678*', RMSE",
        _footnote_numbers,
    ),
    "trailing-minus": ("SAP amounts with a trailing minus '1,234.50-', RMSE", _trailing_minus),
    "billions-bn": ("market values '$12.35bn', '$850mn', '€2.10 bn', RMSE", _billions_bn),
    "uk-postcodes": ("full UK postcodes 'SW1A 1AA', price by area and district, RMSE", _uk_postcodes),
    "zip-plus-four": ("US ZIP+4 codes '10023-4512', rate by the first three digits, RMSE", _zip_plus_four),
    "fiscal-quarters": ("fiscal quarters 'FY2019 Q3', 'Q1 FY21', 'FY18-Q4', RMSE", _fiscal_quarters),
    "weekday-dates": ("dates 'Monday, March 4, 2019', RMSE", _weekday_dates),
    "french-times": ("times of day '14h30', '9h05', '18h', RMSE", _french_times),
    "compass-directions": ("wind directions 'NNE', 'SW' beside a speed, RMSE", _compass_directions),
    "binary-bytes": ("sizes '800 KiB', '512 MiB', '1.5 GiB', '2.00 TiB', RMSE", _binary_bytes),
    "x-of-y": ("progress '45 of 60', '3 out of 5', RMSE", _x_of_y),
    "roman-numerals": ("editions in Roman numerals 'XIV', 'ccxlvii', RMSE", _roman_numerals),
    "bitrates": ("bitrates '128 kbps' beside '1.5 Mbps', RMSE", _bitrates),
    "energy-units": ("food energy '250 kcal' beside '1046 kJ', RMSE", _energy_units),
    "power-units": ("engine power '150 hp', '110 kW', '136 PS', RMSE", _power_units),
    "pressure-units": ("tyre pressures '32 psi', '2.2 bar', '220 kPa', RMSE", _pressure_units),
    "fuel-economy": ("fuel economy '8.5 L/100km' beside '28 mpg' and '14.2 km/L', RMSE", _fuel_economy),
    "times-ten-powers": ("counts '1.2 × 10^5', '5.0×10⁵', RMSE", _times_ten_powers),
    "unicode-minus": ("temperatures with a typeset minus '−5.2', RMSE", _unicode_minus),
    "betting-odds": ("fractional odds '5/2', 'evens', RMSE", _betting_odds),
    "running-paces": ("paces '5:30 /km' beside '8:51 min/mile', RMSE", _running_paces),
    "mix-ratios": ("concrete mixes '1:2.3:3.9', RMSE", _mix_ratios),
    "match-scores": ("football results '3-1', RMSE", _match_scores),
    "season-years": ("seasons '2015/16', '2015-16', RMSE", _season_years),
    "tyre-sizes": ("tyre sizes '205/55 R16', RMSE", _tyre_sizes),
    "inch-marks": ("screen sizes '15.6\"', '13.3 inch', '14”', RMSE", _inch_marks),
    "arrow-changes": ("changes '▲ 2.3%', '▼ 1.1%', RMSE", _arrow_changes),
    "tilde-ranges": ("ranges '10~20', '10 ~ 20', RMSE", _tilde_ranges),
    "key-value-pairs": ("attributes 'beds=3;baths=2;floor=7', RMSE", _key_value_pairs),
    "laptop-storage": ("storage '256GB SSD', '512GB SSD + 1TB HDD', RMSE", _laptop_storage),
    "zoom-factors": ("zoom '3x', '0.5x', 'x2.5', RMSE", _zoom_factors),
    "video-resolutions": ("resolutions '1080p' beside '4K', RMSE", _video_resolutions),
    "clock-speeds": ("clocks '2.4 GHz' beside '2400 MHz', RMSE", _clock_speeds),
    "battery-capacity": ("batteries '5000 mAh' beside '5 Ah', RMSE", _battery_capacity),
    "glucose-units": ("glucose '5.6 mmol/L' beside '101 mg/dL', RMSE", _glucose_units),
    "cjk-magnitudes": ("prices '3.5万' beside '8000', RMSE", _cjk_magnitudes),
    "rupiah-prices": ("prices 'Rp 1.500.000', 'Rp1.250.000,00', RMSE", _rupiah_prices),
    "excel-errors": ("numbers among '#N/A', '#DIV/0!', '#VALUE!', RMSE", _excel_errors),
    "check-marks": ("ticks '✓' / '✗' and '☑' / '☐', RMSE", _check_marks),
    "memory-modules": ("memory '16GB DDR4', '8 GB DDR3', RMSE", _memory_modules),
    "per-area-densities": ("densities '1,234/km²' beside '3,196 /sq mi', RMSE", _per_area_densities),
    "hash-ranks": ("positions '#12', '# 3', 'No. 45', RMSE", _hash_ranks),
    "currency-magnitudes": ("deals '$1.2M', '€850K', '£3.4bn', RMSE", _currency_magnitudes),
    "pay-periods": ("pay '£45,000 per annum' beside '£21.63 per hour' and '£865/week', RMSE", _pay_periods),
    "foreign-month-names": (
        "dates '3. März 2019', '15 janvier 2020', '7 de mayo de 2018', RMSE",
        _foreign_month_names,
    ),
    "yen-prices": ("prices '12,345円', '¥8,900', '１２，３４５円', RMSE", _yen_prices),
    "arabic-digits": ("readings in Eastern Arabic '١٢٣٫٤' and Persian digits, RMSE", _arabic_digits),
    "chemical-formulas": ("formulas 'Fe2O3', 'C6H12O6', molar-mass target, RMSE", _chemical_formulas),
    "animal-ages": ("ages '2 years', '3 weeks', '5 months', RMSE", _animal_ages),
    "slash-colors": ("colours 'Black/White', 'Brown Tabby/White', RMSE", _slash_colors),
    "credit-ratings": ("ratings 'BBB-' beside Moody's 'Baa3', RMSE", _credit_ratings),
    "wind-reports": ("wind 'NNE 15 km/h' or 'calm' in one cell, RMSE", _wind_reports),
    "dual-temperatures": ("temperatures '12.0°C (53.6°F)', either scale first, RMSE", _dual_temperatures),
    "kelvin-temperatures": ("temperatures '293.2 K', '20.0 °C', '68.0 °F', RMSE", _kelvin_temperatures),
    "day-counters": ("visits 'Day 3', 'Week 6', 'Month 4', RMSE", _day_counters),
    "product-names": ("listings 'Apple iPhone 12 Pro Max 256GB Blue', RMSE", _product_names),
    "ordinal-positions": ("places '1st', '22nd', '411th' of 500, RMSE", _ordinal_positions),
    "per-mille": ("rates '3.5‰' beside '0.35%', RMSE", _per_mille),
    "basis-points": ("spreads '25 bps', '25bp', '0.25%', RMSE", _basis_points),
    "sas-dates": ("dates '03MAR2019', '03MAR2019:14:25:00', RMSE", _sas_dates),
    "decades": ("eras '1990s', \"'80s\", 'the 1970s', RMSE", _decades),
    "unicode-fractions": ("distances '1¼', '2 ¾', '½', RMSE", _unicode_fractions),
    "percent-words": ("shares '45 percent', '12.5 per cent', '7 pct', RMSE", _percent_words),
    "ddm-coordinates": ('positions "40° 26.767\' N" in degrees and decimal minutes, RMSE', _ddm_coordinates),
    "dot-missing": ("numbers with SAS gaps '.', '.A', '.B', RMSE", _dot_missing),
    "count-with-share": ("votes '1,234 (45.2%)', RMSE", _count_with_share),
    "era-years": ("years '500 BC', 'AD 1066', '1066 CE', RMSE", _era_years),
    "avazu-hours": ("hours as one number yymmddhh (14102100), log loss", _avazu_hours),
    "epoch-nanos": ("times in nanoseconds since 1970 (1553000000000000000), RMSE", _epoch_nanos),
    "tmdb-genres": ("genres \"[{'id': 18, 'name': 'Drama'}]\" (Python-printed dicts), RMSE", _tmdb_genres),
    "python-lists": ("tags \"['wifi', 'pool']\" (Python-printed lists), RMSE", _python_lists),
    "postgres-arrays": ("amenities '{TV,Wifi,\"Air conditioning\"}', RMSE", _postgres_arrays),
    "circa-years": ("dates 'c. 1850', 'ca. 1850', 'circa 1850', '1850?', RMSE", _circa_years),
    "centuries": ("periods '19th century', 'early 18th century', 'mid-17th century', RMSE", _centuries),
    "dash-heights": ("heights '6-2' (feet-inches), RMSE", _dash_heights),
    "listing-summaries": ("homes '3 bds · 2 ba · 1,450 sqft', RMSE", _listing_summaries),
    "engine-displacement": ("engines '1998 CC', '2.0L', '1.6 litre', RMSE", _engine_displacement),
    "survey-ranges": ("answers 'Less than 1 year', 'Between 5 and 10 years', RMSE", _survey_ranges),
    "mixed-durations": ("durations '75:30' (mm:ss) beside '1:15:30', RMSE", _mixed_durations),
    "odometer": ("mileage '45K mi', '72,500 miles', '120,000 km', RMSE", _odometer),
    "annual-salaries": ("pay '$120k/yr', '$95K a year', '$55/hr', RMSE", _annual_salaries),
    "memory-kits": ("memory '2x8GB', '16GB (2 x 8GB)', '32GB', RMSE", _memory_kits),
    "ip-ports": ("connections '10.12.3.4:443', ROC AUC", _ip_ports),
    "code-magnitudes": ("deals 'USD 1.2M', 'USD 850K', 'USD 3.4B', RMSE", _code_magnitudes),
    "unit-prices": ("prices '$4.99/lb', '$11.00/kg', '$0.31/oz', RMSE", _unit_prices),
    "infant-ages": ("ages '2y 3m', '1y', '6m' (months), RMSE", _infant_ages),
    "fraction-inches": ("sizes '5-1/2\"', '3/4\"', '2-3/8 in', RMSE", _fraction_inches),
    "comma-units": ("weights '1,5 kg' beside '750 g', RMSE", _comma_units),
    "comma-percents": ("rates '12,5 %', '7 %', RMSE", _comma_percents),
    "letter-temperatures": ("temperatures '72F' beside '22.5C', RMSE", _letter_temperatures),
    "price-words": ("prices 'From $1,299', 'Starting at $99', 'Now $45.00', RMSE", _price_words),
    "discount-words": ("discounts 'Up to 50% off', 'Save 15%', 'No discount', RMSE", _discount_words),
    "german-thousands": ("counts '12.345', '987' (points between thousands), RMSE", _german_thousands),
    "comment-lines": ("both files open with '#' comment lines, RMSE", _comment_lines),
    "title-line": ("a title line and a blank line above the header, MAE", _title_line),
    "units-row": ("a row of units under the header ('kg', 'cm'), RMSE", _units_row),
    "repeated-header": (
        "the header line repeated every 700 rows of the training file, ROC AUC",
        _repeated_header,
    ),
    "footer-rows": ("a 'Source: ...' line and a row count after the training rows, RMSE", _footer_rows),
    "apostrophe-numbers": (
        'amounts and codes written "\'1499.50", "\'00123" (spreadsheet text), RMSE',
        _apostrophe_numbers,
    ),
    "iso-basic-times": ("timestamps '20190315T142500' (ISO basic form), RMSE", _iso_basic_times),
    "padded-categories": ("levels written 'Oak ', ' oak', 'OAK' for one level, RMSE", _padded_categories),
    "utf16-tabs": (
        "UTF-16 tab-separated train.txt / test.txt (a spreadsheet's Unicode text), RMSE",
        _utf16_tabs,
    ),
    "cr-lines": ("lines ended by a carriage return alone (classic Mac OS), ROC AUC", _cr_lines),
    "padded-numbers": ("numbers padded with spaces inside their fields ('   12.500 '), MAE", _padded_numbers),
    "short-month-dates": (
        "dates '15-Mar-19' beside months 'Mar-19' (two-digit years), RMSE",
        _short_month_dates,
    ),
    "two-digit-years": ("dates '3/15/19' (month first, two-digit year), RMSE", _two_digit_years),
    "dotted-short-years": ("dates '15.03.19' (day first, dots, two-digit year), MAE", _day_first_short_years),
    "recased-test-columns": (
        "test feature names 'engine_size' where the training file says 'Engine Size', RMSE",
        _recased_test_columns,
    ),
    "lower-magnitudes": ("amounts '$1.2m', '$850k', '$3.4bn' (lower-case suffixes), RMSE", _lower_magnitudes),
    "en-dash-negatives": ("changes '–3.2' (an en dash for the minus), '+1.5', RMSE", _en_dash_negatives),
    "to-ranges": ("ranges '10 to 20 years', 'up to 1 year', '20 years or more', RMSE", _to_ranges),
    "zone-names": ("timestamps '2019-03-15 14:25 EST' (a zone's abbreviation), RMSE", _zone_names),
    "dotted-am-pm": ("times '2:30 p.m.', '11 a.m.', 'noon', RMSE", _dotted_am_pm),
    "month-days": ("days 'Mar 15' or '15 Mar' without their year, RMSE", _month_days),
    "backslash-quotes": (
        "review text with quotes escaped '\\\"' (a database dump) and commas, ROC AUC",
        _backslash_quotes,
    ),
    "fullwidth-digits": (
        "half the numbers typed with full-width digits ('１２３．５'), RMSE",
        _fullwidth_digits,
    ),
    "label-whitespace": (
        "a quarter of the training labels with a stray space ('Oak '), accuracy",
        _label_whitespace,
    ),
    "cjk-dates": ("dates '2019年3月15日' beside '2019/3/15', RMSE", _cjk_dates),
    "log-timestamps": (
        "log timestamps '2019-03-15 10:20:30,123' (comma before milliseconds), MAE",
        _log_timestamps,
    ),
    "apache-log-times": ("web-server log times '15/Mar/2019:10:20:30 +0000', RMSE", _apache_log_times),
    "syslog-times": ("system-log times 'Mar  5 10:20:30' without a year, MAE", _syslog_times),
    "debit-credit": ("statement amounts '1,234.50 DR' / '1,234.50 CR', RMSE", _debit_credit),
    "header-newlines": ("feature names with a line break inside their quotes, RMSE", _header_newlines),
    "mixed-decimal-marks": (
        "one column with '12,5' in 40 % of rows and '12.5' in the rest, RMSE",
        _mixed_decimal_marks,
    ),
    "german-datetimes": ("times '15.03.2019 14:25' (day first, dots), RMSE", _german_datetimes),
    "dotted-iso-dates": ("times '2019.03.15 14:25' (year first, dots), RMSE", _dotted_iso_dates),
    "weekday-suffix-dates": ("dates '2019/03/15(金)' beside '2019-03-15 (Fri)', RMSE", _weekday_suffix_dates),
    "comma-time-dates": ("times '15 Mar 2019, 14:25' (a comma before the time), RMSE", _comma_time_dates),
    "time-first-dates": ("times '14:25 15/03/2019' (the clock first), RMSE", _time_first_dates),
    "target-magnitudes": ("a training target written '$85k', '$1.2M', RMSE", _target_magnitudes),
    "percent-fraction-mix": (
        "a share written '45%' in half the rows and '0.45' in the rest, RMSE",
        _percent_fraction_mix,
    ),
    "test-written-numbers": (
        "test prices '$1,234.50' where the training file has 1234.5, RMSE",
        _test_written_numbers,
    ),
    "test-other-date-format": (
        "training dates '2019-03-15', test dates '15/03/2019', RMSE",
        _test_other_date_format,
    ),
    "test-upper-levels": (
        "levels 'Oak' in the training file, 'OAK' in the test file, RMSE",
        _test_upper_levels,
    ),
    "html-entity-levels": (
        "levels 'AT&amp;T' beside 'AT&T' (HTML entities in a third), RMSE",
        _html_entity_levels,
    ),
    "mojibake-levels": (
        "levels 'CafÃ©' beside 'Café' (read twice as UTF-8 in a quarter), RMSE",
        _mojibake_levels,
    ),
    "padded-string-ids": (
        "test ids ' A0123 ' with spaces around them, the sample's 'A0123', ROC AUC",
        _padded_string_ids,
    ),
    "semicolon-txt": ("train.txt / test.txt split by ';' with decimal commas, RMSE", _semicolon_txt),
    "uci-data-files": (
        "train.data / test.data (comma-separated, UCI's names) in task.yaml, ROC AUC",
        _uci_data_files,
    ),
    "german-magnitudes": ("prices '1,5 Mio. €', '850 Tsd. €', '2,3 Mrd. €', RMSLE", _german_magnitudes),
    "month-year-slash": ("months '03/2019' (month/year), RMSE", _month_year_slash),
    "cjk-column-names": ("column names in Chinese, the target '价格', RMSE", _cjk_column_names),
    "renamed-target": (
        "the sample's 'Predicted' for the training file's 'SalePrice', no target in task.yaml, RMSE",
        _renamed_target,
    ),
    "headerless-tables": (
        "train.csv / test.csv without a header row, the sample with one, RMSE",
        _headerless_tables,
    ),
    "aligned-text-tables": (
        "train.txt / test.txt aligned by runs of spaces (a fixed-width print), RMSE",
        _aligned_text_tables,
    ),
    "part-folders": ("train/ and test/ folders of parts (part-00000.csv ...), ROC AUC", _part_folders),
    "very-long-names": ("column names of 300 characters, ROC AUC", _very_long_names),
    "euro-scientific": ("scientific notation with decimal commas ('1,5E-03'), RMSE", _euro_scientific),
    "long-clock-durations": ("elapsed times '36:15:00' past 24 hours, RMSE", _long_clock_durations),
    "oracle-timestamps": ("Oracle timestamps '15-MAR-19 02.25.30.123456 PM', RMSE", _oracle_timestamps),
    "mixed-booleans": (
        "a flag written 'TRUE', 'true', 'T', 'yes', 'Y', '1' and negatives, ROC AUC",
        _mixed_booleans,
    ),
    "single-quoted-fields": (
        "text fields quoted with single quotes ('web, app'), ROC AUC",
        _single_quoted_fields,
    ),
    "mixed-encodings": ("a UTF-8 table whose last twentieth is cp1252 bytes, RMSE", _mixed_encodings),
    "gender-submission": (
        "the sample named gender_submission.csv, task.yaml silent, accuracy",
        _gender_submission,
    ),
    "target-case": (
        "the sample's 'Survived' for the training file's 'survived', no target in task.yaml, log loss",
        _target_case,
    ),
    "excel-sep-line": ("Excel's 'sep=;' hint above a ';'-split table, RMSE", _excel_sep_line),
    "excel-dropped-zeros": (
        "ids '000123' in the sample, 123 in the test file, the sample shuffled, RMSE",
        _excel_dropped_zeros,
    ),
}


def make(root: Path, names: list[str]) -> None:
    for name in names:
        if not (root / name / "task.yaml").is_file():
            SHAPES[name][1](root / name)


def solve(task_dir: Path, out: Path, budget: float) -> dict:
    """One offline solve (offline_vs_automl's, with an empty store of its own); its graded score beside the
    sample submission's, its failed nodes and its fallbacks."""
    task = Task.load(task_dir)
    r = automind(task, budget, out, ["--seed", "0"])
    rep = r["report"]
    res: dict = {"wall": round(r["t"], 1), "sample": grade(task, task.sample_submission_path).score,
                 "nodes": r["nodes"], "failed": r["nodes"] - r["valid_nodes"]}  # fmt: skip
    if rep is None or not rep.valid:
        return {**res, "error": r["note"] or "no valid submission"}
    try:
        fallbacks = json.loads((out / "run" / "run.json").read_text()).get("fallbacks", [])
    except (OSError, ValueError) as e:
        fallbacks = [f"run.json unreadable: {e}"]
    return {**res, "graded": rep.score, "lower_is_better": rep.lower_is_better,
            "fallbacks": [str(f) for f in fallbacks]}  # fmt: skip


def _beats_sample(r: dict) -> str:
    if r.get("graded") is None or r.get("sample") is None:
        return "-"
    better = r["graded"] < r["sample"] if r.get("lower_is_better") else r["graded"] > r["sample"]
    return "yes" if better else "**no**"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--budget", type=float, default=60.0, help="seconds per solve")
    ap.add_argument("--only", nargs="*", default=None, help=f"shapes to run: {', '.join(SHAPES)}")
    ap.add_argument("--make-only", action="store_true", help="build the task folders and stop")
    args = ap.parse_args()
    names = args.only or list(SHAPES)
    unknown = [n for n in names if n not in SHAPES]
    if unknown:
        sys.exit(f"unknown shape(s) {', '.join(unknown)}; shapes: {', '.join(SHAPES)}")
    make(args.out / "tasks", names)
    if args.make_only:
        return
    results = {}
    print("| shape | what | graded | sample | beats sample | failed nodes | fallbacks | wall |")
    print("|---|---|---|---|---|---|---|---|")
    for name in names:
        r = results[name] = solve(args.out / "tasks" / name, args.out / "runs" / name, args.budget)
        print(f"| {name} | {SHAPES[name][0]} | {r.get('graded', r.get('error'))} | {r['sample']} | "
              f"{_beats_sample(r)} | {r.get('failed', '-')}/{r.get('nodes', '-')} | {len(r.get('fallbacks', []))} | "
              f"{r['wall']} s |", flush=True)  # fmt: skip
    (args.out / "results.json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
