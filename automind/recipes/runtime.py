"""The helper code every recipe script carries inline, kept here as a real module so it is linted and tested.

`compose.py` cuts this file at the `# %% <section>` markers and pastes each section into the step of the
generated script that needs it; the script stays standalone (best_solution.py runs without automind,
except for custom `module:function` metrics). The metric itself is not written here: the composer copies
the registry's own function from automind/metrics.py into the script as METRIC_FN (recipes/metric_code.py),
so the validation score is computed exactly as the grader computes it. The `stubs` section is never
emitted: it only gives names that the composer generates (hooks, draft functions, CFG, the copied metric
code) a definition for linting and tests.
Hooks see predictions in "model space": regression -> float array; binary -> P(positive class);
multiclass -> (n, K) probabilities in the order of CFG["classes"].
"""

# %% stubs
from __future__ import annotations

from typing import Any

from automind.metrics import positive_label, sorted_labels  # noqa: F401 - copied into scripts with METRIC_FN

CFG: dict[str, Any] = {}
METRIC_FN: Any = None  # the registry's function for CFG["metric"]; None for a custom metric
METRIC_DEFAULTS: dict[str, Any] = {}  # parameters the metric's name implies (k of map@5, beta of f0.5)
CONFIG_HOOKS: list[Any] = []
FEATURE_HOOKS: list[Any] = []
TARGET_HOOKS: list[Any] = []
PARAM_HOOKS: list[Any] = []
ENSEMBLE_HOOKS: list[Any] = []
POST_HOOKS: list[Any] = []


def prepare(train, test, cfg):  # the draft defines it
    return tree_matrix(train, test, cfg)


def default_params(cfg):  # the draft defines it
    return {}


def fit_predict(X_tr, y_tr, X_va, y_va, X_te, params, cfg):  # the draft defines it
    raise NotImplementedError


# %% imports
import inspect  # noqa: E402
import os  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

warnings.filterwarnings("ignore")
T0 = time.time()


# %% load
def log(msg):
    print(f"[{time.time() - T0:6.1f}s] {msg}", flush=True)


def read_table(path):
    path = str(path)
    if path.endswith(".parquet"):
        return pd.read_parquet(path)
    if path.endswith((".json", ".jsonl")):
        return pd.read_json(path, lines=path.endswith(".jsonl"))
    if path.endswith((".tsv", ".txt")):
        return pd.read_csv(path, sep="\t")
    return pd.read_csv(path, low_memory=False)


def load_data():
    """train, test and sample submission; rows without a target are dropped, big data optionally subsampled."""
    train, test, sample = read_table(CFG["train"]), read_table(CFG["test"]), pd.read_csv(CFG["sample"])
    train = train.dropna(subset=[t for t in CFG["target"] if t in train.columns]).reset_index(drop=True)
    if CFG.get("max_rows") and len(train) > CFG["max_rows"]:
        train = (
            train.sample(n=int(CFG["max_rows"]), random_state=CFG["seed"]).sort_index().reset_index(drop=True)
        )
    return train, test, sample


def encode_target(train):
    """y as numbers: class indices (classes in the grader's natural order, the grader's positive class last
    for binary tasks), or floats (2-D for several target columns)."""
    cols = CFG["target"]
    if CFG["problem"] in ("binary", "multiclass"):
        values = train[cols[0]]
        classes = sorted_labels(values)
        if CFG["problem"] == "binary":  # index 1 is the class binary metrics score as positive
            pos = positive_label(values, CFG.get("metric_params", {}).get("pos_label"))
            classes = [c for c in classes if c != pos] + ([pos] if pos in classes else [])
        index = {c: i for i, c in enumerate(classes)}
        CFG["classes"], CFG["n_classes"] = classes, len(classes)
        return values.map(index).to_numpy(dtype=int)
    if CFG["problem"] == "multilabel":
        return train[cols].to_numpy(dtype=float)
    y = train[cols].to_numpy(dtype=float)
    return y[:, 0] if len(cols) == 1 else y


def to_labels(pred):
    """Model-space predictions -> original class labels (or rounded values for a label metric on numbers)."""
    if CFG["problem"] in ("binary", "multiclass"):
        classes = np.asarray(CFG["classes"], dtype=object)
        idx = (
            (pred > CFG.get("threshold", 0.5)).astype(int) if np.ndim(pred) == 1 else np.argmax(pred, axis=1)
        )
        return classes[idx]
    if CFG["problem"] == "multilabel":
        return (pred > 0.5).astype(int)
    lo, hi = CFG.get("y_range", (None, None))
    return np.clip(np.rint(pred), lo, hi)


def metric_score(y, pred):
    """The task's metric on validation predictions, given as the grader would see them in a submission:
    class labels for label metrics, P(positive class) with its label for binary probabilities."""
    params = {**METRIC_DEFAULTS, **(CFG.get("metric_params") or {})}
    labelled = CFG["problem"] in ("binary", "multiclass")
    fn = METRIC_FN
    if fn is None:  # a custom `module:function` metric: only automind can import it
        from automind.metrics import get_metric

        fn = get_metric(CFG["metric"], CFG["lower_is_better"])
    if CFG["kind"] == "label":
        a, b = (np.asarray(CFG["classes"], dtype=object)[y] if labelled else y), to_labels(pred)
        if labelled and all(isinstance(c, (int, np.integer)) for c in CFG["classes"]):
            a, b = a.astype(int), b.astype(int)
    elif CFG["problem"] == "binary":
        a, b = np.asarray(CFG["classes"], dtype=object)[y], pred
        if METRIC_FN is None or "pos_label" in inspect.signature(METRIC_FN).parameters:
            params.setdefault("pos_label", CFG["classes"][-1])
    else:
        a, b = y, pred
    return float(fn(a, b, **params))


def better(a, b):
    return a < b if CFG["lower_is_better"] else a > b


# %% features
def split_frames(train, test):
    """Feature frames: the columns train and test share, minus id and targets (a column missing from the
    test file can't be used); near-unique non-numeric columns that aren't text are dropped (they're ids)."""
    drop = (set(CFG["target"]) | {CFG.get("id")} | set(CFG.get("drop", []))) - {CFG.get("image_col")}
    cols = [c for c in train.columns if c in test.columns and c not in drop]
    special = set(CFG.get("text_cols", [])) | {CFG.get("image_col")}
    keep = [c for c in cols if c in special or not _id_like(train[c])]
    a, b = train[keep].copy(), test[keep].copy()
    if CFG.get("coerce"):  # repair: mostly-numeric text columns become numbers, the rest category codes
        for c in [c for c in keep if c not in special and not pd.api.types.is_numeric_dtype(a[c])]:
            num = pd.to_numeric(a[c], errors="coerce")
            if num.notna().mean() > 0.9 * a[c].notna().mean():
                a[c], b[c] = num, pd.to_numeric(b[c], errors="coerce")
            else:  # shared integer codes: any model (and any astype(float)) accepts them
                codes = pd.Categorical(pd.concat([a[c], b[c]]).astype(str)).codes
                a[c], b[c] = codes[: len(a)], codes[len(a) :]
    return a, b


def _id_like(s):
    return not pd.api.types.is_numeric_dtype(s) and len(s) > 50 and s.nunique() > 0.9 * len(s)


def column_kinds(df):
    text = [c for c in CFG.get("text_cols", []) if c in df.columns]
    skip = set(text) | {CFG.get("image_col")}
    num = [c for c in df.columns if c not in skip and pd.api.types.is_numeric_dtype(df[c])]
    cat = [c for c in df.columns if c not in skip and c not in num]
    return num, cat, text


def tree_matrix(train, test, cfg):
    """Numbers as they are (NaN kept), categories as shared integer codes, text as its length."""
    num, cat, text = column_kinds(train)
    parts_tr, parts_te = [train[num].astype(float)], [test[num].astype(float)]
    for c in cat:
        both = pd.concat([train[c], test[c]]).astype(str)
        codes = pd.Series(pd.Categorical(both).codes, index=both.index).astype(float)
        codes[pd.concat([train[c], test[c]]).isna().to_numpy()] = np.nan
        parts_tr.append(codes.iloc[: len(train)].rename(c).reset_index(drop=True).to_frame())
        parts_te.append(codes.iloc[len(train) :].rename(c).reset_index(drop=True).to_frame())
    for c in text:
        parts_tr.append(train[c].fillna("").astype(str).str.len().rename(c + "_len").to_frame())
        parts_te.append(test[c].fillna("").astype(str).str.len().rename(c + "_len").to_frame())
    X = pd.concat([p.reset_index(drop=True) for p in parts_tr], axis=1)
    X_test = pd.concat([p.reset_index(drop=True) for p in parts_te], axis=1)
    X.columns = X_test.columns = [f"f{i}_{str(c)[:40]}" for i, c in enumerate(X.columns)]
    return X, X_test


def linear_matrix(train, test, cfg):
    """Median-imputed, scaled numbers with missing flags + one-hot categories (rare ones pooled): sparse."""
    from scipy import sparse
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    num, cat, _ = column_kinds(train)
    blocks_tr, blocks_te = [], []
    if num:
        a, b = train[num].astype(float), test[num].astype(float)
        med = a.median()
        miss = [c for c in num if a[c].isna().any() or b[c].isna().any()]
        a2 = pd.concat([a.fillna(med), a[miss].isna().astype(float).add_suffix("_na")], axis=1).fillna(0)
        b2 = pd.concat([b.fillna(med), b[miss].isna().astype(float).add_suffix("_na")], axis=1).fillna(0)
        lo, hi = a2.quantile(0.001), a2.quantile(0.999)
        scaler = StandardScaler().fit(a2.clip(lo, hi, axis=1))
        blocks_tr.append(sparse.csr_matrix(scaler.transform(a2.clip(lo, hi, axis=1))))
        blocks_te.append(sparse.csr_matrix(scaler.transform(b2.clip(lo, hi, axis=1))))
    if cat:
        enc = OneHotEncoder(handle_unknown="infrequent_if_exist", min_frequency=5, max_categories=60)
        blocks_tr.append(enc.fit_transform(train[cat].astype(str)))
        blocks_te.append(enc.transform(test[cat].astype(str)))
    if not blocks_tr:
        blocks_tr, blocks_te = (
            [sparse.csr_matrix(np.zeros((len(train), 1)))],
            [sparse.csr_matrix(np.zeros((len(test), 1)))],
        )
    return sparse.hstack(blocks_tr).tocsr(), sparse.hstack(blocks_te).tocsr()


def text_matrix(train, test, cfg, word=(1, 2), char=(2, 5), max_features=200000):
    """TF-IDF of the text columns (word and char n-grams, sublinear tf) next to the scaled tabular part."""
    from scipy import sparse
    from sklearn.feature_extraction.text import TfidfVectorizer

    _, _, text = column_kinds(train)

    def joined(df):
        return df[text].fillna("").astype(str).agg(" \n ".join, axis=1) if text else pd.Series([""] * len(df))

    a, b = joined(train), joined(test)
    blocks_tr, blocks_te = [], []
    if word:
        v = TfidfVectorizer(ngram_range=tuple(word), sublinear_tf=True, min_df=2, max_features=max_features,
                            strip_accents="unicode", dtype=np.float32)  # fmt: skip
        blocks_tr.append(v.fit_transform(a))
        blocks_te.append(v.transform(b))
    if char:
        v = TfidfVectorizer(analyzer="char_wb", ngram_range=tuple(char), sublinear_tf=True, min_df=2,
                            max_features=max_features, dtype=np.float32)  # fmt: skip
        blocks_tr.append(v.fit_transform(a))
        blocks_te.append(v.transform(b))
    rest = [c for c in train.columns if c not in text]
    if rest:
        t_tr, t_te = linear_matrix(train[rest], test[rest], cfg)
        blocks_tr.append(t_tr)
        blocks_te.append(t_te)
    return sparse.hstack(blocks_tr).tocsr(), sparse.hstack(blocks_te).tocsr()


def read_image(path):
    """Grayscale float image in [0, 255] from .npy, or any format Pillow reads (PNG, JPEG, PGM/PPM, ...)."""
    path = str(path)
    if path.endswith(".npy"):
        a = np.load(path).astype(np.float32)
        return a.mean(axis=2) if a.ndim == 3 else a
    from PIL import Image

    with Image.open(path) as im:
        return np.asarray(im.convert("L"), dtype=np.float32)


def resize(img, size):
    """Area-average downsampling (or nearest upsampling) to size x size."""
    h, w = img.shape
    rows = np.linspace(0, h, size + 1).astype(int)
    cols = np.linspace(0, w, size + 1).astype(int)
    out = np.empty((size, size), dtype=np.float32)
    for i in range(size):
        r0, r1 = rows[i], max(rows[i + 1], rows[i] + 1)
        for j in range(size):
            c0, c1 = cols[j], max(cols[j + 1], cols[j] + 1)
            out[i, j] = img[r0:r1, c0:c1].mean()
    return out


def image_paths(df):
    """Each row's image file: a column holding file names, else the id matched against file stems."""
    exts = (".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff", ".npy", ".pgm", ".ppm")
    found = {}
    for root, _, files in os.walk(CFG["input"]):
        for f in files:
            if f.lower().endswith(exts):
                p = os.path.join(root, f)
                found.setdefault(f, p)
                found.setdefault(os.path.splitext(f)[0], p)
                found.setdefault(os.path.relpath(p, CFG["input"]), p)
    col = CFG.get("image_col") if CFG.get("image_col") in df.columns else CFG.get("id")
    keys = df[col].astype(str)
    paths = [found.get(k) or found.get(os.path.basename(k)) or found.get(os.path.splitext(os.path.basename(k))[0])
             for k in keys]  # fmt: skip
    missing = sum(p is None for p in paths)
    if missing:
        raise FileNotFoundError(
            f"{missing} of {len(paths)} images not found under {CFG['input']} (by column {col!r})"
        )
    return paths


def image_array(df, size):
    return np.stack([resize(read_image(p), size) for p in image_paths(df)]) / 255.0


def hog(imgs, cells=4, bins=8):
    """Histogram of gradient orientations per cell: cheap shape features."""
    gy, gx = np.gradient(imgs, axis=(1, 2))
    mag, ang = np.hypot(gx, gy), np.mod(np.arctan2(gy, gx), np.pi)
    n, h, w = imgs.shape
    b = np.minimum((ang / np.pi * bins).astype(int), bins - 1)
    feats = []
    for i in range(cells):
        for j in range(cells):
            sl = (
                slice(None),
                slice(i * h // cells, (i + 1) * h // cells),
                slice(j * w // cells, (j + 1) * w // cells),
            )
            m, bb = mag[sl].reshape(n, -1), b[sl].reshape(n, -1)
            feats.append(np.stack([(m * (bb == k)).sum(axis=1) for k in range(bins)], axis=1))
    f = np.concatenate(feats, axis=1)
    return f / (np.linalg.norm(f, axis=1, keepdims=True) + 1e-6)


def image_matrix(train, test, cfg):
    """Downsampled pixels (and gradient histograms when cfg['hog']) as dense features."""
    size = int(cfg.get("image_size", 16))
    a, b = image_array(train, size), image_array(test, size)
    X, X_test = a.reshape(len(a), -1), b.reshape(len(b), -1)
    if cfg.get("hog"):
        cells, bins = min(int(cfg.get("hog_cells", 4)), size), int(cfg.get("hog_bins", 8))
        X, X_test = np.hstack([X, hog(a, cells, bins)]), np.hstack([X_test, hog(b, cells, bins)])
    return X.astype(np.float32), X_test.astype(np.float32)


def build_matrices(train, test):
    for hook in FEATURE_HOOKS:
        train, test = hook(train, test, CFG)
    a, b = split_frames(train, test)
    X, X_test = prepare(a, b, CFG)
    if CFG.get("fillna"):  # repair: models that refuse NaN/inf get zeros
        if hasattr(X, "fillna"):
            X, X_test = (d.replace([np.inf, -np.inf], np.nan).fillna(0) for d in (X, X_test))
        elif isinstance(X, np.ndarray):
            X, X_test = np.nan_to_num(X, posinf=0, neginf=0), np.nan_to_num(X_test, posinf=0, neginf=0)
    log(f"features: {X.shape[1]} columns, {X.shape[0]} train rows, {X_test.shape[0]} test rows")
    return X, X_test


# %% model
def take(X, idx):
    return X.iloc[idx] if hasattr(X, "iloc") else X[idx]


def folds(y):
    """Stratified K-fold for classes, plain shuffled K-fold otherwise; seeded by CFG."""
    from sklearn.model_selection import KFold, StratifiedKFold

    k, seed = int(CFG["folds"]), int(CFG["seed"])
    if CFG["problem"] in ("binary", "multiclass") and np.bincount(y).min() >= k:
        return list(StratifiedKFold(k, shuffle=True, random_state=seed).split(np.zeros(len(y)), y))
    return list(KFold(k, shuffle=True, random_state=seed).split(np.zeros(len(y))))


def class_proba(model, X):
    """predict_proba spread over all classes (a fold may miss a rare one); binary -> P(positive)."""
    p = np.asarray(model.predict_proba(X))
    out = np.zeros((p.shape[0], int(CFG["n_classes"])))
    out[:, np.asarray(model.classes_, dtype=int)] = p
    return out[:, 1] if CFG["problem"] == "binary" else out


def sibling_predictions(oof, test_pred, y):
    """This model's predictions plus those of earlier valid nodes with the same rows and target encoding."""
    pool = [(np.asarray(oof), np.asarray(test_pred))]
    for sib in CFG.get("siblings", []):
        d = next((Path(p) for p in sib.get("dirs", []) if (Path(p) / "oof.npy").is_file()), None)
        if d is None or not (d / "test_pred.npy").is_file() or not (d / "y.npy").is_file():
            continue
        o, t, ys = (
            np.load(d / "oof.npy"),
            np.load(d / "test_pred.npy"),
            np.load(d / "y.npy", allow_pickle=True),
        )
        if (
            o.shape == pool[0][0].shape
            and t.shape == pool[0][1].shape
            and ys.shape == np.shape(y)
            and np.all(ys == y)
        ):
            pool.append((o, t))
    log(f"ensemble pool: this model + {len(pool) - 1} earlier node(s)")
    return pool


def lgbm_threads(cfg):
    """OpenMP threads for LightGBM: one on small data, where extra threads mostly wait on each other."""
    return int(cfg.get("threads", 2)) if cfg.get("n_rows", 0) >= 20000 else 1


def _empty(n, y):
    if CFG["problem"] == "multiclass":
        return np.zeros((n, CFG["n_classes"]))
    return np.zeros(n)


def cross_validate_1d(X, y, X_test):
    """Out-of-fold and fold-averaged test predictions, repeated over CFG['bags'] seeds."""
    params = default_params(CFG)
    for hook in PARAM_HOOKS:
        params = hook(params, CFG)
    y_fit = y.astype(float) if CFG["problem"] == "regression" else y
    for hook in TARGET_HOOKS:
        y_fit = hook(y_fit, CFG)
    oof, test_pred = _empty(len(y), y), _empty(X_test.shape[0], y)
    bags, base_seed = int(CFG.get("bags", 1)), int(CFG["seed"])
    for bag in range(bags):
        CFG["seed"] = base_seed + bag
        for tr, va in folds(y):
            p_va, p_te = fit_predict(take(X, tr), y_fit[tr], take(X, va), y_fit[va], X_test, params, CFG)
            oof[va] += np.asarray(p_va) / bags
            test_pred += np.asarray(p_te) / (bags * int(CFG["folds"]))
        CFG["seed"] = base_seed
    for hook in reversed(TARGET_HOOKS):
        oof, test_pred = hook(oof, CFG, inverse=True), hook(test_pred, CFG, inverse=True)
    return oof, test_pred


def cross_validate(X, y, X_test):
    if np.ndim(y) == 1:
        return cross_validate_1d(X, y, X_test)
    problem, outs = CFG["problem"], []
    CFG["problem"] = "binary" if problem == "multilabel" else "regression"
    if problem == "multilabel":
        CFG["classes"], CFG["n_classes"] = [0, 1], 2
    for j in range(y.shape[1]):
        yj = y[:, j].astype(int) if problem == "multilabel" else y[:, j]
        outs.append(cross_validate_1d(X, yj, X_test))
    CFG["problem"] = problem
    return np.stack([o[0] for o in outs], axis=1), np.stack([o[1] for o in outs], axis=1)


LOG_ERROR_METRICS = ("rmsle", "msle", "mean_columnwise_rmsle")


def finish(oof, test_pred, y):
    """Ensemble hooks, then post-processing (applied to both, so the validation score sees it)."""
    if CFG["problem"] == "regression":
        CFG["y_range"] = (float(np.min(y)), float(np.max(y)))
    for hook in ENSEMBLE_HOOKS:
        oof, test_pred = hook(oof, test_pred, y, CFG)
    for hook in POST_HOOKS:
        oof, test_pred = hook(oof, CFG), hook(test_pred, CFG)
    if CFG["metric"] in LOG_ERROR_METRICS and float(np.min(y)) >= 0:
        # log errors reject predictions <= -1; a non-negative target has no business below 0
        oof, test_pred = np.clip(oof, 0, None), np.clip(test_pred, 0, None)
    return oof, test_pred


def report(y, oof, test_pred):
    """Print and save the validation score; keep the predictions for later blending/stacking nodes."""
    score = metric_score(y, oof)
    out = Path(CFG["out"])
    out.mkdir(parents=True, exist_ok=True)
    (out / "eval_metric.txt").write_text(f"{score:.6f}\n")
    np.save(out / "oof.npy", np.asarray(oof, dtype=np.float64))
    np.save(out / "test_pred.npy", np.asarray(test_pred, dtype=np.float64))
    np.save(out / "y.npy", np.asarray(y))
    print(f"Validation {CFG['metric']}: {score:.6f}")
    return score


# %% submit
def write_submission(test, sample, test_pred):
    """Fill the sample submission's columns (in its row order) from the test predictions."""
    sub = sample.copy()
    id_col = CFG.get("id")
    if id_col and id_col in test.columns and id_col in sub.columns:
        pos = pd.Series(np.arange(len(test)), index=test[id_col].astype(str).to_numpy())
        order = pos.reindex(sub[id_col].astype(str).to_numpy())
        if order.isna().any():
            if len(test) != len(sub):
                raise ValueError(
                    f"{int(order.isna().sum())} sample-submission ids are missing from the test file"
                )
            order = pd.Series(np.arange(len(sub)))
        test_pred = np.asarray(test_pred)[order.to_numpy(dtype=int)]
    elif len(test) != len(sub):
        raise ValueError(f"test has {len(test)} rows but the sample submission has {len(sub)}")
    cols = [c for c in sub.columns if c != id_col]
    if CFG["kind"] == "label":
        values = to_labels(test_pred)
        if np.ndim(values) == 1:
            sub[cols[0]] = values
        else:
            for j, c in enumerate(cols):
                sub[c] = values[:, j]
    elif CFG["problem"] in ("binary", "multiclass") and len(cols) > 1:
        proba = np.stack([1 - test_pred, test_pred], axis=1) if np.ndim(test_pred) == 1 else test_pred
        names = [str(c) for c in CFG["classes"]]
        idx = [names.index(str(c)) if str(c) in names else j for j, c in enumerate(cols)]
        for j, c in enumerate(cols):
            sub[c] = proba[:, idx[j]]
    elif CFG["problem"] == "multiclass":
        sub[cols[0]] = to_labels(test_pred)
    elif np.ndim(test_pred) == 2:
        for j, c in enumerate(cols):
            sub[c] = test_pred[:, j]
    else:
        sub[cols[0]] = test_pred
    path = Path(CFG["out"]) / "submission.csv"
    sub.to_csv(path, index=False)
    log(f"wrote {path} ({len(sub)} rows, columns {list(sub.columns)})")
    return sub
