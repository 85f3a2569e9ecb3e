"""Hierarchical labels (top category, then subcategory) for texts, with or without an LLM.

Offline: cosine similarity of the text's embedding to each category description, nudged by plain
keyword signals ("pixel" is strong evidence for vision whatever the embedder thinks), with a small
handicap for General Machine Learning so a specific category wins when it is nearly as close, as
AutoMind advises. Subcategories are then ranked within each chosen top category only.
"""

from __future__ import annotations

import contextlib
import json
import re
from functools import cache

import numpy as np

from automind.atomic import write_with
from automind.knowledge import Label

GENERAL = "General Machine Learning"
GENERAL_HANDICAP = 0.04  # prefer a specific category when it is this close to General ML
KEEP_WITHIN = 0.06  # further top labels must score within this of the best one
SIGNAL_WEIGHT = 0.12  # the most a keyword signal adds to a cosine similarity

# Keyword signals per top category. A term is a word ("pixel", plural 's' allowed), a prefix ("anomal*")
# or a phrase ("time series", matched as a substring). Sets and substring tests keep this cheap.
_SIGNALS: dict[str, tuple[str, ...]] = {
    "Computer Vision": (
        "image",
        "pixel",
        "photo",
        "jpg",
        "jpeg",
        "png",
        "cnn",
        "segmentation",
        "bounding box",
        "video",
        "x-ray",
        "mri",
        "satellite",
        "camera",
        "efficientnet",
        "resnet",
        "unet",
        "u-net",
        "yolo",
    ),
    "Natural Language Processing": (
        "text",
        "token",
        "sentence",
        "word",
        "bert",
        "roberta",
        "deberta",
        "language model",
        "nlp",
        "tweet",
        "essay",
        "question answering",
        "translation",
        "corpus",
    ),
    "Signal Processing": (
        "audio",
        "sound",
        "wav",
        "spectrogram",
        "speech",
        "eeg",
        "ecg",
        "acoustic",
        "signal",
        "birdcall",
        "bird song",
        "seismic",
    ),
    "Sequential Modeling": (
        "time series",
        "time-series",
        "forecast*",
        "sales",
        "sequence",
        "lag feature",
        "temporal",
        "trajector*",
        "survival",
        "daily",
        "weekly",
    ),
    "Recommender Systems": (
        "user",
        "item",
        "recommend*",
        "click-through",
        "ctr",
        "collaborative filtering",
        "rating",
        "session",
    ),
    "Graph Learning": (
        "graph",
        "node",
        "edge",
        "molecul*",
        "gnn",
        "link prediction",
        "neighbor",
        "neighbour",
    ),
    "Anomaly Detection": ("anomal*", "fraud*", "outlier", "intrusion", "defect"),
    "Reinforcement Learning": ("reinforcement", "agent", "reward*", "policy", "bandit", "simulat*", "game"),
    "Security and Privacy": (
        "malware",
        "attack*",
        "privacy",
        "adversarial",
        "cryptograph*",
        "steganalysis",
        "spoof*",
    ),
    "Cross-Modal Processing": (
        "caption*",
        "multimodal",
        "multi-modal",
        "image-text",
        "text-to-image",
        "visual question",
    ),
    GENERAL: (
        "tabular",
        "gradient boosting",
        "lightgbm",
        "xgboost",
        "catboost",
        "csv",
        "regression",
        "feature engineering",
        "categorical feature",
    ),
}
_WORDS = re.compile(r"[a-z0-9][a-z0-9-]*")


def label_slug(top: str) -> str:
    """Metadata key suffix for a top label: 'Natural Language Processing' -> natural_language_processing."""
    return re.sub(r"[^a-z0-9]+", "_", top.lower()).strip("_")


def labels_json(labels: list[Label]) -> str:
    return json.dumps([{"top": x.top, "sub": x.sub, "score": round(float(x.score), 4)} for x in labels])


_CACHE: dict[tuple[str, int], tuple[np.ndarray, list[np.ndarray]]] = {}


def taxonomy_vectors(embedder, taxonomy) -> tuple[np.ndarray, list[np.ndarray]]:
    """(top-category matrix, per-top subcategory matrices), embedded once per embedder and taxonomy.

    The vectors are also kept on disk under the automind home, keyed by the embedder and the exact
    texts: embedding the ~100 category descriptions was most of a warm `automind tips`.
    """
    key = (embedder.name, id(taxonomy))
    if key not in _CACHE:
        tops = [f"{c.name}. {c.description}" for c in taxonomy.categories]
        subs_texts = [
            [f"{c.name}: {s.name}. {s.description}" for s in c.subcategories] for c in taxonomy.categories
        ]
        _CACHE[key] = _cached_vectors(embedder, tops, subs_texts)
    return _CACHE[key]


def _cached_vectors(
    embedder, tops: list[str], subs_texts: list[list[str]]
) -> tuple[np.ndarray, list[np.ndarray]]:
    import hashlib

    from automind.embedders import automind_home

    flat = [*tops, *(t for texts in subs_texts for t in texts)]
    digest = hashlib.sha1("\x00".join([embedder.name, str(embedder.dim), *flat]).encode()).hexdigest()[:16]
    path = automind_home() / "cache" / f"taxonomy-{embedder.name}-{digest}.npy"
    vecs = None
    if path.is_file():
        try:
            vecs = np.load(path)
        except (OSError, ValueError):
            vecs = None
        if vecs is not None and vecs.shape != (len(flat), embedder.dim):
            vecs = None
    if vecs is None:
        vecs = embedder.embed(flat).astype(np.float32)
        with contextlib.suppress(OSError):  # a read-only home only costs the re-embedding next time
            write_with(path, lambda f: np.save(f, vecs), binary=True)
    top_vecs, start, subs = vecs[: len(tops)], len(tops), []
    for texts in subs_texts:
        subs.append(
            vecs[start : start + len(texts)] if texts else np.zeros((0, embedder.dim), dtype=np.float32)
        )
        start += len(texts)
    return top_vecs, subs


@cache
def _prefix_re(stem: str) -> re.Pattern:
    return re.compile(r"\b" + re.escape(stem))


def _term_hit(term: str, words: set[str], lowered: str) -> bool:
    if " " in term:
        return term in lowered
    if term.endswith("*"):
        return _prefix_re(term[:-1]).search(lowered) is not None
    return term in words or term + "s" in words


def keyword_signals(text: str) -> dict[str, float]:
    """Per top category, 0..1: how many distinct signal terms appear (3 or more saturate)."""
    lowered = text[:20000].lower()
    words = set(_WORDS.findall(lowered))
    return {
        top: min(1.0, sum(_term_hit(t, words, lowered) for t in terms) / 3.0)
        for top, terms in _SIGNALS.items()
    }


def label_vector(
    vec: np.ndarray, text: str, embedder, taxonomy, top_k: int = 3, names_in_text: bool = True
) -> list[Label]:
    """Labels for a text whose embedding is already known (the pipeline reuses chunk vectors)."""
    top_vecs, sub_vecs = taxonomy_vectors(embedder, taxonomy)
    sims = top_vecs @ np.asarray(vec, dtype=np.float32)
    signals = keyword_signals(text)
    scores: dict[str, float] = {}
    for i, cat in enumerate(taxonomy.categories):
        s = float(sims[i]) + SIGNAL_WEIGHT * signals.get(cat.name, 0.0)
        if cat.name == GENERAL:
            s -= GENERAL_HANDICAP
        scores[cat.name] = s
    ranked = sorted(scores, key=scores.__getitem__, reverse=True)
    best = scores[ranked[0]]
    chosen = [t for t in ranked[:top_k] if scores[t] >= best - KEEP_WITHIN] or ranked[:1]
    lowered = text.lower() if names_in_text else ""
    labels = []
    for top in chosen:
        idx = next(i for i, c in enumerate(taxonomy.categories) if c.name == top)
        cat = taxonomy.categories[idx]
        sub = ""
        if cat.subcategories:
            sub_scores = sub_vecs[idx] @ np.asarray(vec, dtype=np.float32)
            bonus = np.array([0.08 if s.name.lower() in lowered else 0.0 for s in cat.subcategories])
            sub = cat.subcategories[int(np.argmax(sub_scores + bonus))].name
        labels.append(Label(top, sub, round(max(0.0, min(1.0, scores[top])), 4)))
    return labels


def _llm_labels(text: str, taxonomy, llm, top_k: int) -> list[Label] | None:
    from automind.llm.tasks import label_with_llm

    try:
        out = label_with_llm(llm, text, taxonomy, top_k=top_k)
    except Exception:  # the LLM failing must not stop an ingest: fall back to embeddings
        return None
    valid = []
    for lab in out:
        cat = taxonomy.get(lab.top)
        if cat is None:
            continue
        sub = cat.sub(lab.sub).name if lab.sub and cat.sub(lab.sub) else ""
        valid.append(Label(cat.name, sub, lab.score))
    return valid or None


def label_text(text: str, embedder, taxonomy=None, llm=None, top_k: int = 3) -> list[Label]:
    """Top categories (best first, at most `top_k`) each with its best subcategory and a score."""
    if taxonomy is None:
        from automind.knowledge import load_taxonomy

        taxonomy = load_taxonomy()
    if llm is not None:
        labels = _llm_labels(text, taxonomy, llm, top_k)
        if labels:
            return labels[:top_k]
    vec = embedder.embed([text[:4000]])[0]
    return label_vector(vec, text, embedder, taxonomy, top_k=top_k)
