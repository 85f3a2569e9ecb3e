"""Label a task with the taxonomy: which top-level categories (and subcategories) it belongs to.

Two strategies behind one function, `label_task`:
- LLM: top level first, then subcategories, preferring a specific category over General Machine
  Learning (automind.llm.tasks.label_with_llm);
- offline: embedding similarity of the cleaned description to the category and subcategory
  descriptions, plus evidence that rarely lies: data modalities found by the analysis (image files,
  long free text, audio, a time index, user/item ids), cue words in the description, and the metric.
The result is a short list of labels with scores, best first, one per top-level category.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from automind.ingest import labeling
from automind.ingest.labeling import Label

if TYPE_CHECKING:
    from automind.analysis import DataAnalysis
    from automind.task import Task

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

NOISE_SECTIONS = re.compile(
    r"timeline|prize|citation|code requirement|acknowledg|rules|kernels? requirement|"
    r"getting started|faq|leaderboard|sponsor|about the host|deadline",
    re.I,
)


# -- text preparation ------------------------------------------------------------------------------


def clean_description(text: str) -> str:
    """Markdown without images, link targets, URLs, HTML tags and administrative sections."""
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", " ", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"<[^>]+>", " ", text)
    kept: list[str] = []
    skip = False
    for line in text.splitlines():
        heading = re.match(r"^\s*#{1,6}\s*(.*)$", line)
        if heading:
            skip = bool(NOISE_SECTIONS.search(heading.group(1)))
            continue
        if not skip:
            kept.append(line)
    return re.sub(r"[ \t]+", " ", "\n".join(kept)).strip()


def chunks(text: str, size: int = 700, limit: int = 8) -> list[str]:
    """Paragraph-aligned pieces of about `size` characters (the embedder sees ~256 tokens at most)."""
    paras = [p.strip() for p in re.split(r"\n\s*\n|\n(?=[-*] )", text) if len(p.strip()) > 20]
    out: list[str] = []
    cur = ""
    for p in paras:
        if cur and len(cur) + len(p) > size:
            out.append(cur)
            cur = ""
        cur = f"{cur}\n{p}".strip()
        while len(cur) > 2 * size:
            out.append(cur[:size])
            cur = cur[size:]
    if cur:
        out.append(cur)
    return out[:limit] or [text[:size] or "task"]


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


def modality_scores(analysis: DataAnalysis | None, categories: Sequence[str]) -> np.ndarray:
    """Boosts from the data itself (analysis.modalities); tabular-only data points to General ML."""
    out = np.zeros(len(categories))
    mods = {str(m).lower() for m in (analysis.modalities if analysis is not None else ())}
    index = {c: i for i, c in enumerate(categories)}
    id_cols = analysis.id_like_columns if analysis is not None else None
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


# -- entry point -----------------------------------------------------------------------------------


def task_description(task: Task | str) -> str:
    """The text a task is labelled and searched by: its description, or the text itself."""
    return task if isinstance(task, str) else task.description


def _task_fields(task: Task | str) -> tuple[str, str | None, str | None]:
    """(description, metric name, problem type) from a Task, or a bare description."""
    if isinstance(task, str):
        return task, None, None
    return task.description, task.spec.metric.name, task.spec.problem_type


def label_task(
    task: Task | str,
    analysis: DataAnalysis | None = None,
    embedder=None,
    taxonomy=None,
    llm=None,
    fallbacks: list | None = None,
) -> list:
    """Labels for a task, best first: the LLM's when one is given and answers, else the offline labeller.

    When the LLM path fails, the reason is appended to `fallbacks` (if given) so callers can show it.
    """
    from automind.knowledge import load_taxonomy

    taxonomy = taxonomy or load_taxonomy()
    if embedder is None:
        from automind.store import get_embedder

        embedder = get_embedder("minilm")
    desc, metric, ptype = _task_fields(task)
    ptype = (analysis.problem_type if analysis is not None else None) or ptype
    if llm is not None:
        try:
            from automind.llm.tasks import label_with_llm

            context = desc if analysis is None else f"{desc}\n\n# Data analysis\n{analysis.render()}"
            labels = label_with_llm(llm, context, taxonomy, notes=fallbacks)
            if labels:
                return list(labels)[:MAX_LABELS]
            raise ValueError("the LLM returned no labels")
        except Exception as e:  # noqa: BLE001 - any LLM failure falls back, and is recorded
            if fallbacks is not None:
                fallbacks.append(
                    f"labels: LLM labelling failed ({type(e).__name__}: {e}); used offline labeller"
                )
    return label_offline(desc, embedder, taxonomy, analysis, metric, ptype)
