"""Cross-validated accuracy of the offline task labeller, with the old hand-tuned labeller beside it.

Usage: python bench/labeling_accuracy.py SHARED_DATA_DIR [--embedders minilm,wordllama] [--unseen DIR]

Corpus: knowledge/labels/competitions.yaml (hand labels) joined with SHARED/kaggle-solutions/
competitions.yml (title + one-line summary + metric: "index" rows) and SHARED/competitions/*/
description.md (full descriptions: "full" rows). Every figure for the learned model is out of fold:
- grouped K-fold (default 5): a competition, all editions of its series and its near-duplicates sit in
  one fold (the label file's `group`), so nothing of a test competition is in training;
- nested: inside each training part, train_labeler.fit chooses C and fits the temperature and the data
  flag weights on its own inner folds; the test fold is never looked at;
- (a) description only: text (+ metric name); (b) + data signals: the label file's `data` facts (the
  modalities the analysis reports for the released files) for rows that have them, and the problem type
  from the metric for General ML's Regression/Classification;
- "index only -> full": trained on index rows only (same folds), scored on the full descriptions;
- with --unseen DIR (competition folders laid out like SHARED/competitions, e.g. the 26 MLE-bench
  competitions that are not in shared data): trained on every row outside those competitions' groups,
  scored on their full descriptions: a held-out set nothing was chosen on.
The old labeller (bench/baseline_labeler.py, hand-tuned on the 56 full descriptions) is scored on the
same rows; it has no fitted weights, so its figures need no folds (and are optimistic on "full").
top-1/top-3: the primary top-level label among the first 1/3; sub: the exact (top, sub) pair.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

REGRESSION_FAMILIES = {"rmse", "rmsle", "mae", "mse", "r2", "percentage", "correlation"}
CLASSIFICATION_FAMILIES = {"auc", "logloss", "f1", "accuracy", "kappa", "gini"}


@dataclass
class Score:
    n: int = 0
    top1: int = 0
    top3: int = 0
    any1: int = 0  # top-1 is the primary or the second ('also') label
    sub1: int = 0
    sub3: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, ex, tops: list[str], pairs: list[tuple[str, str]]) -> None:
        self.n += 1
        self.top1 += tops[0] == ex.top
        self.top3 += ex.top in tops[:3]
        self.any1 += tops[0] == ex.top or (ex.also is not None and tops[0] == ex.also[0])
        self.sub1 += pairs[0] == (ex.top, ex.sub)
        self.sub3 += (ex.top, ex.sub) in pairs[:3]
        if tops[0] != ex.top:
            self.misses.append(f"{ex.slug}: {ex.top} -> {tops[0]}")

    def row(self) -> str:
        if not self.n:
            return "   n/a"
        f = lambda k: f"{100 * k / self.n:5.1f}"  # noqa: E731
        return f"{self.n:4d} | {f(self.top1)} {f(self.top3)} {f(self.any1)} | {f(self.sub1)} {f(self.sub3)}"


def problem_type(metric: str | None) -> str | None:
    from automind.retrieval.label_features import metric_family

    fam = metric_family(metric)
    return (
        "regression" if fam in REGRESSION_FAMILIES else "binary" if fam in CLASSIFICATION_FAMILIES else None
    )


def new_prediction(model, x, flags, ptype) -> tuple[list[str], list[tuple[str, str]]]:
    """Tops best first, and (top, sub) pairs ranked by p(top) * p(sub | top), as label_offline picks them."""
    from automind.retrieval.labeler import _PROBLEM_SUB, GENERAL

    p_top = model.top_probs(x, flags)
    p_sub = model.sub_probs(x)
    tops = [model.tops[i] for i in np.argsort(-p_top)]
    joint = []
    for i, top in enumerate(model.tops):
        for sub, p in model.subs_within(p_sub, top):
            if top == GENERAL and ptype and _PROBLEM_SUB.get(ptype):
                p = 1.0 if sub == _PROBLEM_SUB[ptype] else 0.0
            joint.append((p_top[i] * p, (top, sub)))
    joint.sort(key=lambda t: -t[0])
    return tops, [pair for _, pair in joint]


def old_prediction(text, metric, embedder, taxonomy, data, ptype):
    from baseline_labeler import label_offline

    analysis = SimpleNamespace(modalities=set(data), id_like_columns=None) if data is not None else None
    labels = label_offline(text, embedder, taxonomy, analysis=analysis, metric=metric, problem_type=ptype)
    return [lb.top for lb in labels], [(lb.top, lb.sub) for lb in labels]


class Memo:
    """Caches embeddings by text (the old labeller embeds the same chunks in both variants)."""

    def __init__(self, inner):
        self.inner, self.name, self.dim, self.cache = inner, inner.name, inner.dim, {}

    def embed(self, texts):
        todo = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if todo:
            self.cache.update(zip(todo, self.inner.embed(todo), strict=True))
        return np.stack([self.cache[t] for t in texts]) if texts else self.inner.embed([])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("shared", type=Path, help="the shared data folder (kaggle-solutions/, competitions/)")
    ap.add_argument("--embedders", default="minilm,wordllama")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--unseen", type=Path, default=None, help="folder of extra competition folders (held out)"
    )
    ap.add_argument("--no-baseline", action="store_true", help="skip the old labeller")
    args = ap.parse_args()

    from automind.knowledge import load_taxonomy
    from automind.retrieval import train_labeler as tl
    from automind.store import get_embedder

    taxonomy = load_taxonomy()
    rows = tl.load_labels()
    problems = tl.validate_labels(rows, taxonomy)
    if problems:
        sys.exit("label file problems:\n" + "\n".join(problems))
    try:
        corpus = tl.build_corpus(args.shared, rows, taxonomy)
    except tl.LabelsError as e:
        sys.exit(str(e))
    shared_slugs = {e.slug for e in corpus if e.source == "full"}
    unseen = []
    if args.unseen is not None:
        if not args.unseen.is_dir():
            sys.exit(f"--unseen {args.unseen} is not a folder")
        unseen = [e for e in tl.full_examples(args.unseen, rows) if e.slug not in shared_slugs]
    by_slug = {r.slug: r for r in rows}
    tops, pairs = tl.class_lists(taxonomy)
    groups = [e.group for e in corpus]
    folds = tl.group_folds(groups, args.folds, args.seed)
    n_index = sum(e.source == "index" for e in corpus)
    print(
        f"corpus: {n_index} index rows, {len(shared_slugs)} full descriptions, "
        f"{sum(e.source == 'taxonomy' for e in corpus)} taxonomy rows (always in training); "
        f"{len({g for g in groups if g != tl.TAXONOMY_GROUP})} groups, {len(folds)} grouped folds; "
        f"{len(unseen)} held-out descriptions"
    )
    table: dict[tuple[str, str, str], Score] = {}

    def score(model_name: str, variant: str, source: str) -> Score:
        return table.setdefault((model_name, variant, source), Score())

    for emb_name in [e.strip() for e in args.embedders.split(",") if e.strip()]:
        t0 = time.perf_counter()
        embedder = Memo(get_embedder(emb_name))
        x = tl.embed_examples(corpus, embedder)
        neutral = tl.neutral_features(embedder)
        label = f"new ({emb_name})"
        chosen = []
        for test in folds:
            train = np.setdiff1d(np.arange(len(corpus)), test)
            fitted = tl.fit(
                x[train], [corpus[i] for i in train], tops, pairs, emb_name, seed=args.seed, neutral=neutral
            )
            chosen.append(fitted.c)
            idx_train = [i for i in train if corpus[i].source != "full"]
            index_only = tl.fit(
                x[idx_train],
                [corpus[i] for i in idx_train],
                tops,
                pairs,
                emb_name,
                seed=args.seed,
                neutral=neutral,
            ).model
            for i in test:
                ex = corpus[i]
                score(label, "a", ex.source).add(ex, *new_prediction(fitted.model, x[i], None, None))
                if ex.flags is not None:
                    ptype = problem_type(ex.metric)
                    score(label, "b", ex.source).add(ex, *new_prediction(fitted.model, x[i], ex.flags, ptype))
                if ex.source == "full":
                    score(label, "a", "full, index-only training").add(
                        ex, *new_prediction(index_only, x[i], None, None)
                    )
                    score(label, "b", "full, index-only training").add(
                        ex, *new_prediction(index_only, x[i], ex.flags, problem_type(ex.metric))
                    )
        if unseen:
            held_groups = {e.group for e in unseen}
            keep = [i for i, e in enumerate(corpus) if e.group not in held_groups]
            model = tl.fit(
                x[keep], [corpus[i] for i in keep], tops, pairs, emb_name, seed=args.seed, neutral=neutral
            ).model
            xu = tl.embed_examples(unseen, embedder)
            for ex, xi in zip(unseen, xu, strict=True):
                score(label, "a", "held-out").add(ex, *new_prediction(model, xi, None, None))
                score(label, "b", "held-out").add(
                    ex, *new_prediction(model, xi, ex.flags, problem_type(ex.metric))
                )
        print(f"{label}: C chosen per outer fold {chosen}; {time.perf_counter() - t0:.0f} s")

        if not args.no_baseline and emb_name == "minilm":
            rows_to_score = [(e, e.source) for e in corpus if e.source != "taxonomy"]
            for ex, source in rows_to_score + [(e, "held-out") for e in unseen]:
                data = by_slug[ex.slug].data
                score("old (minilm)", "a", source).add(
                    ex, *old_prediction(ex.text, ex.metric, embedder, taxonomy, None, None)
                )
                if data is not None:
                    ptype = problem_type(ex.metric)
                    score("old (minilm)", "b", source).add(
                        ex, *old_prediction(ex.text, ex.metric, embedder, taxonomy, data, ptype)
                    )

    print()
    print("(a) description only, (b) + data signals; % of rows; sub = exact (top, sub) pair")
    print(f"{'labeller':18s} {'v':1s} {'rows':28s} |    n | top-1 top-3 any-1 | sub-1 sub-3")
    order = ["index", "full", "full, index-only training", "held-out"]
    for source in order:
        for (name, variant, src), sc in sorted(table.items(), key=lambda kv: (kv[0][0], kv[0][1])):
            if src == source:
                print(f"{name:18s} {variant:1s} {src:28s} | {sc.row()}")
    for (name, variant, src), sc in sorted(table.items()):
        if src in ("full", "held-out") and variant == "b" and sc.misses:
            print(f"\nmisses, {name} ({variant}) on {src}:\n  " + "\n  ".join(sc.misses))


if __name__ == "__main__":
    main()
