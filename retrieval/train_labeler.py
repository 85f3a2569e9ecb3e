"""Fit the offline task labeller from labelled competitions and write the artefact the product ships.

    python -m automind.retrieval.train_labeler SHARED_DIR [--embedder minilm,wordllama,hash]

SHARED_DIR holds kaggle-solutions/competitions.yml (title, one-line summary and metric per competition)
and competitions/<slug>/description.md (full descriptions). Labels come from the repository's
knowledge/labels/competitions.yaml; descriptions are read here and never stored in the package.

Training, with every choice fixed a priori or made by inner cross-validation (never on a test fold):
1. features per competition (automind.retrieval.label_features); the taxonomy's own category and
   subcategory descriptions are added as extra examples, so every subcategory has one;
2. multinomial logistic regression for the top level and for (top, sub) pairs, L2 strength C chosen
   from C_GRID by grouped inner CV (log loss; editions of one series share a group);
3. on the inner out-of-fold logits: a temperature per model, and one weight per data flag (images,
   audio, text, time, ids, tables only) toward its category, fitted on the full descriptions, whose
   flags are the `data` facts of the label file (what the analysis reports for the released files);
4. a refit on everything, saved as float16 weights in knowledge/labeler/<embedder>.npz.
sklearn and scipy are used here only; the query path (label_model) needs numpy alone.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
import yaml

from automind.retrieval import label_features as lf
from automind.retrieval.label_model import LabelModel, model_path

GENERAL = "General Machine Learning"
C_GRID: tuple[float, ...] = (0.5, 2.0, 8.0, 32.0)  # fixed before any evaluation
INNER_FOLDS = 5
TAXONOMY_GROUP = "__taxonomy__"  # pseudo-examples: always in training, never tested
# Each data flag points to one category (the modality rule AutoMind states); only the weight is fitted.
FLAG_HOME: dict[str, str] = {
    "image": "Computer Vision",
    "audio": "Signal Processing",
    "text": "Natural Language Processing",
    "time": "Sequential Modeling",
    "ids": "Recommender Systems",
    "tabular_only": GENERAL,
}
DATA_MODALITIES = {"image", "audio", "text", "time", "ids", "tabular"}  # automind.analysis vocabulary
ALPHA_L2 = 0.05  # shrinks flag weights toward 0 when the few flagged examples cannot pin them
# Task texts that say nothing about the data. Each flagged competition is also scored as if its
# description were one of these, so the flag weights learn how much the data alone tells (a task made
# by `automind task prepare` may have no more description than this).
NEUTRAL_TEXTS: tuple[str, ...] = (
    "Predict the target for each example in the test set.",
    "Predict the label of each test example.",
)


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C parser reads the label file ~10x faster


class LabelsError(ValueError):
    """The label file or the corpus folder is malformed; the message says which row or path."""


# -- labels and corpus -----------------------------------------------------------------------------


@dataclass
class LabelRow:
    slug: str
    top: str | None = None
    sub: str | None = None
    also: tuple[str, str] | None = None
    metric: str | None = None
    group: str | None = None
    exclude: str | None = None
    data: tuple[str, ...] | None = None  # modalities of the released files (analysis vocabulary)

    @property
    def key(self) -> str:
        """The cross-validation group: the series when there is one, else the competition."""
        return self.group or self.slug


def labels_path() -> Path:
    return Path(str(resources.files("automind.knowledge"))) / "labels" / "competitions.yaml"


def load_labels(path: Path | None = None) -> list[LabelRow]:
    path = path or labels_path()
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) or {}
    except (OSError, yaml.YAMLError) as e:
        raise LabelsError(f"cannot read label file {path}: {e}") from e
    rows = []
    for i, item in enumerate(raw.get("competitions") or []):
        if not isinstance(item, dict) or not item.get("slug"):
            raise LabelsError(f"{path}: entry {i} has no slug")
        also = None
        if item.get("also"):
            parts = [p.strip() for p in str(item["also"]).split("/", 1)]
            if len(parts) != 2:
                raise LabelsError(f"{path}: {item['slug']}: 'also' must read 'Top / Sub'")
            also = (parts[0], parts[1])
        rows.append(
            LabelRow(
                slug=str(item["slug"]),
                top=item.get("top"),
                sub=item.get("sub"),
                also=also,
                metric=str(item["metric"]) if item.get("metric") is not None else None,
                group=item.get("group"),
                exclude=item.get("exclude"),
                data=tuple(str(m) for m in item["data"]) if item.get("data") is not None else None,
            )
        )
    return rows


def validate_labels(rows: Sequence[LabelRow], taxonomy) -> list[str]:
    """Problems in a label list: unknown categories or subcategories, duplicates, unlabelled rows."""
    problems: list[str] = []
    seen: set[str] = set()
    for r in rows:
        if r.slug in seen:
            problems.append(f"{r.slug}: listed twice")
        seen.add(r.slug)
        unknown = set(r.data or ()) - DATA_MODALITIES
        if unknown:
            problems.append(f"{r.slug}: unknown data modalities {sorted(unknown)}")
        if r.exclude:
            continue
        pairs = [(r.top, r.sub)] + ([r.also] if r.also else [])
        for top, sub in pairs:
            cat = taxonomy.get(top) if top else None
            if cat is None:
                problems.append(f"{r.slug}: unknown top-level category {top!r}")
            elif not sub or cat.sub(sub) is None:
                problems.append(f"{r.slug}: {sub!r} is not a subcategory of {top}")
    return problems


@dataclass
class Example:
    """One labelled text: an index one-liner, a full description or a taxonomy entry."""

    slug: str
    text: str
    metric: str | None
    top: str
    sub: str
    group: str
    source: str  # index | full | taxonomy
    also: tuple[str, str] | None = None
    flags: np.ndarray | None = None  # data flags (full descriptions only)


def _labelled(rows: Sequence[LabelRow]) -> dict[str, LabelRow]:
    return {r.slug: r for r in rows if not r.exclude and r.top and r.sub}


def index_examples(index_file: Path, rows: Sequence[LabelRow]) -> list[Example]:
    """Title + one-line summary of each labelled competition in a kaggle-solutions competitions.yml."""
    try:
        comps = (yaml.safe_load(index_file.read_text(encoding="utf-8")) or {}).get("competitions") or []
    except (OSError, yaml.YAMLError) as e:
        raise LabelsError(f"cannot read the competition index {index_file}: {e}") from e
    labelled = _labelled(rows)
    out = []
    for c in comps:
        slug = re.sub(r".*/c/", "", str(c.get("link") or "")).strip("/")
        row = labelled.get(slug)
        if row is None or row.top is None or row.sub is None:  # _labelled keeps rows with both set
            continue
        text = ". ".join(
            s.strip() for s in (str(c.get("title") or ""), str(c.get("desc") or "")) if s.strip()
        )
        # the competition's data facts, when known, go with its one-liner too: flag weights are then
        # fitted on texts from a full description down to a single vague line
        flags = lf.flags_from_modalities(row.data) if row.data is not None else None
        out.append(Example(slug, text, row.metric, row.top, row.sub, row.key, "index", row.also, flags))
    return out


def read_competition(folder: Path) -> tuple[str, str, str | None]:
    """(name, description markdown, grader metric name) of an MLE-bench style competition folder."""
    desc = (folder / "description.md").read_text(encoding="utf-8", errors="replace")
    cfg: dict = {}
    if (folder / "config.yaml").is_file():
        cfg = yaml.safe_load((folder / "config.yaml").read_text(encoding="utf-8")) or {}
    metric = ((cfg.get("grader") or {}).get("name")) if isinstance(cfg, dict) else None
    return str(cfg.get("name") or folder.name), desc, metric


def full_examples(
    comp_dir: Path, rows: Sequence[LabelRow], slugs: Sequence[str] | None = None
) -> list[Example]:
    """Full descriptions (competitions/<slug>/description.md) of labelled competitions."""
    labelled = _labelled(rows)
    out = []
    folders = (
        sorted(p for p in comp_dir.iterdir() if (p / "description.md").is_file()) if comp_dir.is_dir() else []
    )
    for folder in folders:
        if slugs is not None and folder.name not in slugs:
            continue
        row = labelled.get(folder.name)
        if row is None or row.top is None or row.sub is None:  # _labelled keeps rows with both set
            continue
        name, desc, metric = read_competition(folder)
        flags = lf.flags_from_modalities(row.data) if row.data is not None else None
        text = lf.task_text(desc, name)
        out.append(Example(folder.name, text, metric, row.top, row.sub, row.key, "full", row.also, flags))
    return out


def taxonomy_examples(taxonomy) -> list[Example]:
    """The taxonomy's category and subcategory descriptions as always-in-training examples."""
    out = []
    for cat in taxonomy.categories:
        first = cat.subcategories[0].name if cat.subcategories else ""
        if cat.name == GENERAL:
            first = "Classification"
        out.append(
            Example(
                cat.name, f"{cat.name}. {cat.description}", None, cat.name, first, TAXONOMY_GROUP, "taxonomy"
            )
        )
        for sub in cat.subcategories:
            text = f"{cat.name}: {sub.name}. {sub.description}"
            out.append(
                Example(f"{cat.name}/{sub.name}", text, None, cat.name, sub.name, TAXONOMY_GROUP, "taxonomy")
            )
    return out


# -- features --------------------------------------------------------------------------------------


def embed_examples(examples: Sequence[Example], embedder, batch: int = 256) -> np.ndarray:
    """Feature matrix: chunk embeddings are computed in large batches, then averaged per example."""
    pieces: list[str] = []
    spans: list[tuple[int, int]] = []
    for ex in examples:
        parts = lf.chunks(ex.text)
        spans.append((len(pieces), len(pieces) + len(parts)))
        pieces += parts
    vecs = np.concatenate(
        [embedder.embed(pieces[i : i + batch]) for i in range(0, len(pieces), batch)] or [np.zeros((0, 1))]
    )
    rows = [
        lf.combine(vecs[a:b].mean(axis=0), ex.text, ex.metric)
        for ex, (a, b) in zip(examples, spans, strict=True)
    ]
    return np.stack(rows).astype(np.float32)


def neutral_features(embedder) -> np.ndarray:
    return np.stack([lf.features(lf.task_text(t), None, embedder) for t in NEUTRAL_TEXTS])


# -- folds and fitting -----------------------------------------------------------------------------


def group_folds(groups: Sequence[str], k: int, seed: int = 0) -> list[np.ndarray]:
    """Test-index arrays of k folds; a group never spans two folds; taxonomy rows are never tested."""
    rng = np.random.default_rng(seed)
    by_group: dict[str, list[int]] = {}
    for i, g in enumerate(groups):
        if g != TAXONOMY_GROUP:
            by_group.setdefault(g, []).append(i)
    names = list(by_group)
    rng.shuffle(names)
    names.sort(key=lambda g: -len(by_group[g]))  # big groups first, then fill the smallest fold
    folds: list[list[int]] = [[] for _ in range(k)]
    for g in names:
        min(folds, key=len).extend(by_group[g])
    return [np.array(sorted(f), dtype=int) for f in folds if f]


def _lr_logits(x_train, y_train, x_test, n_classes: int, c: float) -> np.ndarray:
    """Logits over all n_classes (classes absent from training get a very low logit)."""
    from sklearn.linear_model import LogisticRegression

    seen = np.unique(y_train)
    out = np.full((len(x_test), n_classes), -30.0, dtype=np.float64)
    if len(seen) == 1:
        out[:, seen[0]] = 0.0
        return out
    clf = LogisticRegression(C=c, max_iter=3000)
    clf.fit(x_train, y_train)
    z = clf.decision_function(x_test)
    if z.ndim == 1:  # two classes: sklearn returns one column
        z = np.stack([-z / 2, z / 2], axis=1)
    out[:, clf.classes_] = z
    return out


def _lr_weights(x, y, n_classes: int, c: float) -> tuple[np.ndarray, np.ndarray]:
    from sklearn.linear_model import LogisticRegression

    clf = LogisticRegression(C=c, max_iter=3000).fit(x, y)
    w = np.zeros((n_classes, x.shape[1]), dtype=np.float32)
    b = np.full(n_classes, -30.0, dtype=np.float32)
    coef, icpt = clf.coef_, clf.intercept_
    if len(clf.classes_) == 2:
        coef, icpt = np.vstack([-coef / 2, coef / 2]), np.array([-icpt[0] / 2, icpt[0] / 2])
    w[clf.classes_], b[clf.classes_] = coef, icpt
    return w, b


def _nll(z: np.ndarray, y: np.ndarray) -> float:
    z = z - z.max(axis=1, keepdims=True)
    return float(-(z[np.arange(len(y)), y] - np.log(np.exp(z).sum(axis=1))).mean())


def _oof_logits(x, y, groups, n_classes, c, folds) -> np.ndarray:
    """Out-of-fold logits for the non-taxonomy rows; taxonomy rows are always in training."""
    z = np.zeros((len(y), n_classes))
    for test in folds:
        train = np.setdiff1d(np.arange(len(y)), test)
        z[test] = _lr_logits(x[train], y[train], x[test], n_classes, c)
    return z


def _fit_calibration(z, y, flags, flag_matrix_home, tested) -> tuple[float, np.ndarray]:
    """Temperature and flag weights minimising the out-of-fold log loss (+ a small L2 on the weights)."""
    from scipy.optimize import minimize

    zt, yt = z[tested], y[tested]
    ft = flags[tested]  # (n, flags); zero rows where no flags are known
    has = ft.any(axis=1)

    def loss(params):
        t, alpha = params[0], params[1:]
        adj = zt / t + (ft * alpha) @ flag_matrix_home
        return _nll(adj, yt) + ALPHA_L2 * float(alpha @ alpha) * (has.mean() if has.any() else 0.0)

    n_flags = ft.shape[1]
    x0 = np.concatenate([[1.0], np.zeros(n_flags)])
    bounds = [(0.05, 20.0)] + [(-5.0, 10.0) if has.any() else (0.0, 0.0)] * n_flags
    res = minimize(loss, x0, method="L-BFGS-B", bounds=bounds)
    return float(res.x[0]), res.x[1:].astype(np.float32)


@dataclass
class Fitted:
    model: LabelModel
    c: float
    cv_log_loss: dict[float, float]


def fit(
    x: np.ndarray,
    examples: Sequence[Example],
    tops: Sequence[str],
    pairs: Sequence[tuple[str, str]],
    embedder_name: str,
    c_grid: Sequence[float] = C_GRID,
    inner_folds: int = INNER_FOLDS,
    seed: int = 0,
    neutral: np.ndarray | None = None,
) -> Fitted:
    """Choose C and calibrate on inner grouped folds of these examples only, then refit on all of them."""
    import warnings

    from threadpoolctl import threadpool_limits

    # Small problems: one BLAS thread is ~10x faster than several fighting over two cores.
    with threadpool_limits(1), warnings.catch_warnings():
        # subcategory classes outnumber half the rows on small corpora; that is expected here
        warnings.filterwarnings("ignore", message="The number of unique classes")
        return _fit(x, examples, tops, pairs, embedder_name, c_grid, inner_folds, seed, neutral)


def _fit(x, examples, tops, pairs, embedder_name, c_grid, inner_folds, seed, neutral) -> Fitted:
    tops, pairs = list(tops), [tuple(p) for p in pairs]
    y_top = np.array([tops.index(e.top) for e in examples])
    y_sub = np.array([pairs.index((e.top, e.sub)) for e in examples])
    groups = [e.group for e in examples]
    flags = np.stack([e.flags if e.flags is not None else np.zeros(len(lf.FLAGS)) for e in examples])
    folds = group_folds(groups, min(inner_folds, len({g for g in groups if g != TAXONOMY_GROUP})), seed)
    tested = np.concatenate(folds)
    scores: dict[float, float] = {}
    oof = {}
    for c in c_grid:
        z = _oof_logits(x, y_top, groups, len(tops), c, folds)
        scores[c] = _nll(z[tested], y_top[tested])
        oof[c] = z
    best = min(scores, key=scores.__getitem__)
    home = np.zeros((len(lf.FLAGS), len(tops)))
    for i, flag in enumerate(lf.FLAGS):
        if FLAG_HOME[flag] in tops:
            home[i, tops.index(FLAG_HOME[flag])] = 1.0
    w_top, b_top = _lr_weights(x, y_top, len(tops), best)
    z_cal, y_cal, f_cal = oof[best][tested], y_top[tested], flags[tested]
    if neutral is not None and len(neutral):
        # the same flagged competitions again, their text replaced by a neutral one (one row each)
        first = {}
        for i in tested:
            if examples[i].flags is not None and examples[i].slug not in first:
                first[examples[i].slug] = i
        rows = list(first.values())
        z_neutral = neutral @ w_top.T + b_top  # (texts, tops)
        for z0 in z_neutral:
            z_cal = np.vstack([z_cal, np.repeat(z0[None], len(rows), axis=0)])
            y_cal = np.concatenate([y_cal, y_top[rows]])
            f_cal = np.vstack([f_cal, flags[rows]])
    everything = np.arange(len(y_cal))
    t_top, alpha = _fit_calibration(z_cal, y_cal, f_cal, home, everything)
    z_sub = _oof_logits(x, y_sub, groups, len(pairs), best, folds)
    t_sub, _ = _fit_calibration(
        z_sub, y_sub, np.zeros_like(flags), np.zeros((len(lf.FLAGS), len(pairs))), tested
    )
    w_sub, b_sub = _lr_weights(x, y_sub, len(pairs), best)
    counts: dict[str, int] = {}
    for e in examples:
        counts[e.source] = counts.get(e.source, 0) + 1
    model = LabelModel(
        embedder=embedder_name,
        tops=tops,
        pairs=pairs,
        w_top=w_top,
        b_top=b_top,
        w_sub=w_sub,
        b_sub=b_sub,
        t_top=t_top,
        t_sub=t_sub,
        alpha=alpha,
        flag_home=[FLAG_HOME[f] for f in lf.FLAGS],
        info={
            "examples": counts,
            "C": best,
            "inner_cv_log_loss": {str(k): round(v, 4) for k, v in scores.items()},
        },
    )
    return Fitted(model, best, scores)


def class_lists(taxonomy) -> tuple[list[str], list[tuple[str, str]]]:
    tops = [c.name for c in taxonomy.categories]
    pairs = [(c.name, s.name) for c in taxonomy.categories for s in c.subcategories]
    return tops, pairs


def build_corpus(shared: Path, rows: Sequence[LabelRow], taxonomy) -> list[Example]:
    index_file = shared / "kaggle-solutions" / "competitions.yml"
    comp_dir = shared / "competitions"
    if not index_file.is_file() and not comp_dir.is_dir():
        raise LabelsError(
            f"{shared} holds neither kaggle-solutions/competitions.yml nor competitions/: "
            "pass the shared data folder"
        )
    corpus = index_examples(index_file, rows) if index_file.is_file() else []
    corpus += full_examples(comp_dir, rows)
    if not corpus:
        raise LabelsError(f"no labelled competition found under {shared}")
    return corpus + taxonomy_examples(taxonomy)


def train(
    shared: Path,
    embedder_names: Sequence[str],
    out_dir: Path | None = None,
    labels: Path | None = None,
    c_grid: Sequence[float] = C_GRID,
) -> list[Path]:
    from automind.knowledge import load_taxonomy
    from automind.store import get_embedder

    taxonomy = load_taxonomy()
    rows = load_labels(labels)
    problems = validate_labels(rows, taxonomy)
    if problems:
        raise LabelsError("label file problems:\n  " + "\n  ".join(problems))
    corpus = build_corpus(shared, rows, taxonomy)
    tops, pairs = class_lists(taxonomy)
    written = []
    for name in embedder_names:
        t0 = time.perf_counter()
        embedder = get_embedder(name)
        x = embed_examples(corpus, embedder)
        fitted = fit(x, corpus, tops, pairs, name, c_grid=c_grid, neutral=neutral_features(embedder))
        path = fitted.model.save(model_path(name, out_dir))
        size = path.stat().st_size / 1024
        print(
            f"{name}: {len(corpus)} examples, C={fitted.c}, T_top={fitted.model.t_top:.2f}, "
            f"flag weights {dict(zip(lf.FLAGS, np.round(fitted.model.alpha, 2).tolist(), strict=True))}, "
            f"{size:.0f} KB -> {path} ({time.perf_counter() - t0:.0f} s)"
        )
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m automind.retrieval.train_labeler",
        description="Fit the offline task labeller from knowledge/labels/competitions.yaml and the shared data.",
    )
    ap.add_argument(
        "shared", type=Path, help="folder with kaggle-solutions/competitions.yml and competitions/"
    )
    ap.add_argument(
        "--embedder", default="minilm,wordllama,hash", help="comma-separated embedders to fit for"
    )
    ap.add_argument(
        "--out", type=Path, default=None, help="output folder (default: the package's knowledge/labeler)"
    )
    ap.add_argument("--labels", type=Path, default=None, help="label file (default: the shipped one)")
    ap.add_argument(
        "--c",
        default=",".join(map(str, C_GRID)),
        help="L2 strengths to choose from by inner CV (comma-separated)",
    )
    args = ap.parse_args(argv)
    try:
        grid = [float(c) for c in args.c.split(",") if c.strip()]
        if not grid or min(grid) <= 0:
            raise ValueError(f"--c needs positive numbers, got {args.c!r}")
        embedders = [e.strip() for e in args.embedder.split(",") if e.strip()]
        train(args.shared, embedders, args.out, args.labels, grid)
    except (LabelsError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
