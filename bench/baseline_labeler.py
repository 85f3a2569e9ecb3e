"""The hand-tuned offline labeller that the learned one replaced, kept verbatim as a benchmark baseline.

Cosine similarity of the description's chunks to the taxonomy texts, plus hand-weighted cue words, data
modalities and metric hints (its weights were tuned on the 56 shared descriptions). Not used by the
product: bench/labeling_accuracy.py runs it beside the learned model in the same pass.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from automind.ingest import labeling
from automind.ingest.labeling import Label
from automind.retrieval.label_features import chunks, clean_description

GENERAL = "General Machine Learning"
MAX_LABELS = 3

# Data modalities (automind.analysis.DataAnalysis.modalities) -> the category they point to.
MODALITY_HINTS: dict[str, tuple[str, float]] = {
    "image": ("Computer Vision", 1.0),
    "video": ("Computer Vision", 1.0),
    "audio": ("Signal Processing", 1.0),
    "text": ("Natural Language Processing", 1.0),
    "graph": ("Graph Learning", 0.6),
    "time": ("Sequential Modeling", 0.5),
    "ids": ("Recommender Systems", 0.5),
}

USER_ITEM = re.compile(
    r"user|customer|client|member|item|product|article|movie|song|track|session|ad_?id", re.I
)

# Cue words per category (regex fragments, matched on word starts). Counted, log-damped and scaled to
# [0, 1] per task, so a long description does not win by length alone.
# fmt: off
CUES: dict[str, tuple[str, ...]] = {
    "Computer Vision": (
        r"images?", r"imagery", r"photo\w*", r"pictures?", r"pixels?", r"cameras?", r"videos?", r"frames?",
        r"scans?", r"x-?rays?", r"radiograph\w*", r"ct\b", r"mri\b", r"mammogra\w*", r"microscop\w*",
        r"satellite", r"aerial", r"segment\w*", r"masks?", r"bounding box\w*", r"jpe?g", r"png", r"tiff?",
        r"dicom", r"visual\w*", r"computer vision", r"convolutional", r"cnns?", r"footage", r"specimens?",
    ),
    "Natural Language Processing": (
        r"texts?\b", r"textual", r"sentences?", r"words?\b", r"tokens?", r"essays?", r"tweets?",
        r"comments?", r"reviews?", r"documents?", r"languages?", r"linguistic", r"questions?", r"answers?",
        r"corpus", r"vocabular\w*", r"nlp", r"nlu", r"bert", r"translat\w*", r"written", r"writing",
        r"phrases?", r"spelling", r"grammar\w*", r"passages?", r"natural language",
    ),
    "Cross-Modal Processing": (
        r"multi-?modal\w*", r"captions?", r"vision-language", r"clip\b", r"text-to-image",
    ),
    "Signal Processing": (
        r"audio", r"sounds?", r"recordings?", r"speech", r"acoustic\w*", r"eeg", r"ecg", r"signals?",
        r"waveforms?", r"spectrogram\w*", r"frequenc\w*", r"hz\b", r"sensors?", r"seismic", r"radar",
        r"sonar", r"hydrophone\w*", r"phonem\w*", r"microphones?", r"wav\b", r"flac", r"mfcc",
        r"detectors?", r"electro\w*graph\w*", r"calls?\b", r"noise",
    ),
    "Sequential Modeling": (
        r"time series", r"time-series", r"forecast\w*", r"future", r"horizon", r"daily", r"weekly",
        r"monthly", r"sales", r"trajector\w*", r"gps", r"locations?", r"lags?\b", r"sequences?",
        r"sequential", r"timestamps?", r"over time", r"progression", r"decline", r"degradation",
        r"positions?",
    ),
    "Recommender Systems": (
        r"users?", r"items?", r"recommend\w*", r"customers?", r"purchas\w*", r"clicks?", r"sessions?",
        r"ratings?", r"personali[sz]\w*", r"shoppers?", r"articles?",
    ),
    "Reinforcement Learning": (
        r"agents?", r"environments?", r"rewards?", r"episodes?", r"games?", r"bots?", r"polic(?:y|ies)",
        r"simulat\w*", r"opponents?", r"self-play",
    ),
    "Graph Learning": (
        r"graphs?", r"nodes?", r"edges?", r"molecul\w*", r"atoms?", r"bonds?", r"chemical\w*",
        r"adjacen\w*", r"neighbo\w*", r"networks? of",
    ),
    "Anomaly Detection": (
        r"anomal\w*", r"outliers?", r"fraud\w*", r"abnormal\w*", r"rare events?", r"faults?", r"defects?",
    ),
    "Security and Privacy": (
        r"malware", r"attacks?", r"adversarial", r"ciphers?", r"encrypt\w*", r"intrusion\w*", r"phishing",
        r"privacy", r"cyber\w*", r"vulnerab\w*",
    ),
    GENERAL: (
        r"tabular", r"tables?", r"csv", r"features?", r"columns?", r"categorical", r"numeric\w*",
        r"synthetic\w*", r"playground", r"attributes?", r"rows?", r"regression", r"binary classification",
    ),
}
# fmt: on

# Metric names (task.yaml / MLE-bench grader) that say something about the modality.
METRIC_HINTS: tuple[tuple[str, str, float], ...] = (
    (r"dice|iou|mask", "Computer Vision", 0.3),
    (r"bleu|rouge|word-level|perplexity", "Natural Language Processing", 0.3),
    (r"smape|wrmsse|mase|haversine|pinball|quantile", "Sequential Modeling", 0.3),
    (r"ndcg|recall@|map@12", "Recommender Systems", 0.2),
    (r"lwlrap", "Signal Processing", 0.3),
)

# -- scoring ---------------------------------------------------------------------------------------


def taxonomy_vectors(embedder, taxonomy) -> tuple[list[str], np.ndarray, list[list[str]], list[np.ndarray]]:
    """(top names, top vectors, sub names per top, sub vectors per top); the ingest cache is shared."""
    top_vecs, sub_vecs = labeling.taxonomy_vectors(embedder, taxonomy)
    cats = taxonomy.categories
    return [c.name for c in cats], top_vecs, [[s.name for s in c.subcategories] for c in cats], sub_vecs


def cue_scores(text: str, categories: Sequence[str]) -> np.ndarray:
    """Cue-word evidence per category in [0, 1]: log-damped counts relative to the strongest category."""
    low = text.lower()
    raw = np.zeros(len(categories))
    for i, cat in enumerate(categories):
        n = sum(len(re.findall(r"\b" + pat, low)) for pat in CUES.get(cat, ()))
        raw[i] = math.log1p(n)
    top = raw.max()
    return raw / top if top > 0 else raw


def modality_scores(analysis: Any, categories: Sequence[str]) -> np.ndarray:
    """Boosts from the data itself (analysis.modalities); tabular-only data points to General ML."""
    out = np.zeros(len(categories))
    mods = {str(m).lower() for m in (getattr(analysis, "modalities", None) or ())}
    index = {c: i for i, c in enumerate(categories)}
    id_cols = getattr(analysis, "id_like_columns", None)
    if "ids" in mods and id_cols is not None and not any(USER_ITEM.search(str(c)) for c in id_cols):
        mods.discard("ids")  # several id columns, but none of them a user or an item
    for mod in mods:
        if mod in MODALITY_HINTS and MODALITY_HINTS[mod][0] in index:
            cat, w = MODALITY_HINTS[mod]
            out[index[cat]] = max(out[index[cat]], w)
    if mods and mods <= {"tabular"} and GENERAL in index:
        out[index[GENERAL]] = 0.8
    return out


def metric_scores(metric: str | None, categories: Sequence[str]) -> np.ndarray:
    out = np.zeros(len(categories))
    if not metric:
        return out
    index = {c: i for i, c in enumerate(categories)}
    for pat, cat, w in METRIC_HINTS:
        if cat in index and re.search(pat, metric, re.I):
            out[index[cat]] += w
    return out


def _softmax(x: np.ndarray, temp: float) -> np.ndarray:
    z = (x - x.max()) / temp
    e = np.exp(z)
    return e / e.sum()


@dataclass
class Weights:
    """How the offline evidence is mixed (documented defaults; the bench reports what they give)."""

    embedding: float = 1.0
    cues: float = 0.6
    general_penalty: float = 0.1  # prefer a specific category when the evidence is close
    temperature: float = 0.15
    span: float = 0.1  # cosine gap below the best category at which embedding evidence reaches zero


def offline_scores(
    text: str,
    embedder,
    taxonomy,
    analysis: Any = None,
    metric: str | None = None,
    weights: Weights | None = None,
) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(category names, combined probability per category, description vectors per chunk)."""
    w = weights or Weights()
    names, top_vecs, _, sub_vecs = taxonomy_vectors(embedder, taxonomy)
    clean = clean_description(text)
    pieces = chunks(clean)
    vecs = embedder.embed(pieces)
    sims_top = vecs @ top_vecs.T  # (chunks, tops)
    sims_sub = np.stack(
        [(vecs @ s.T).max(axis=1) if len(s) else sims_top[:, i] for i, s in enumerate(sub_vecs)], 1
    )
    emb = (0.5 * sims_top + 0.5 * sims_sub).mean(axis=0)
    # A fixed cosine span, not min-max: near-identical similarities (no evidence) stay near-identical.
    emb = np.clip(1.0 + (emb - emb.max()) / w.span, 0.0, 1.0)
    combined = w.embedding * emb + w.cues * cue_scores(clean, names)
    combined += modality_scores(analysis, names) + metric_scores(metric, names)
    if GENERAL in names:
        combined[names.index(GENERAL)] -= w.general_penalty
    return names, _softmax(combined, w.temperature), vecs


def best_sub(top_index: int, desc_vecs: np.ndarray, embedder, taxonomy, problem_type: str | None) -> str:
    """The subcategory closest to the description; General ML uses the problem type when known."""
    names, _, sub_names, sub_vecs = taxonomy_vectors(embedder, taxonomy)
    if names[top_index] == GENERAL and problem_type:
        wanted = "Regression" if problem_type == "regression" else "Classification"
        if wanted in sub_names[top_index]:
            return wanted
    if not sub_names[top_index]:
        return ""
    sims = (desc_vecs @ sub_vecs[top_index].T).mean(axis=0)
    return sub_names[top_index][int(np.argmax(sims))]


MIN_LABEL_SCORE = 0.05


def label_offline(
    text: str,
    embedder,
    taxonomy,
    analysis: Any = None,
    metric: str | None = None,
    problem_type: str | None = None,
    n: int = MAX_LABELS,
    weights: Weights | None = None,
) -> list:
    """Top `n` categories with their best subcategory; scores are probabilities over categories."""
    names, probs, vecs = offline_scores(text, embedder, taxonomy, analysis, metric, weights)
    order = np.argsort(-probs)[:n]
    # runners-up with next to no probability are noise (a tabular task is not "also audio")
    order = [i for k, i in enumerate(order) if k == 0 or probs[i] >= MIN_LABEL_SCORE]
    return [
        Label(
            top=names[i],
            sub=best_sub(i, vecs, embedder, taxonomy, problem_type),
            score=round(float(probs[i]), 4),
        )
        for i in order
    ]
