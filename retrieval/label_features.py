"""What the learned task labeller sees: a description turned into one feature vector, plus data flags.

Three blocks are concatenated, each scaled to unit length so no block wins by its size:
- the mean embedding of the cleaned description's chunks (the store's embedder);
- cue-word counts over a fixed vocabulary (log-damped, then L2-normalised, so a long description does
  not outweigh a one-line summary). The vocabulary is a list of words only: which category a word
  points to, and how strongly, is learned (`automind.retrieval.train_labeler`), never written here;
- the metric family (AUC, RMSE, Dice, MAP@K...), a one-hot from the task's metric name. Kaggle display
  names ("Root Mean Squared Error") and automind names ("rmse") map to the same family.
Data-analysis flags (images found, long text columns, audio, a time index, user/item ids, tables only)
are kept apart: the model adds a fitted weight per flag to the flag's category, and only when an analysis
exists. Numpy and `re` only: this module is on the query path.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

# Word stems (regex fragments matched at word starts). A vocabulary, not a verdict: weights are fitted.
# fmt: off
CUE_TERMS: tuple[str, ...] = (
    # imaging
    r"images?", r"imagery", r"photo\w*", r"pictures?", r"pixels?", r"cameras?", r"videos?", r"frames?",
    r"scans?", r"x-?rays?", r"radiograph\w*", r"ct\b", r"mri\b", r"mammogra\w*", r"microscop\w*",
    r"satellite", r"aerial", r"segment\w*", r"masks?", r"bounding box\w*", r"jpe?g", r"png", r"tiff?",
    r"dicom", r"visual\w*", r"computer vision", r"convolutional", r"cnns?", r"footage", r"specimens?",
    r"detect\w*", r"locali[sz]\w*", r"3d", r"depth", r"handwrit\w*", r"drawings?", r"faces?", r"species",
    # language
    r"texts?\b", r"textual", r"sentences?", r"words?\b", r"tokens?", r"essays?", r"tweets?", r"comments?",
    r"reviews?", r"documents?", r"languages?", r"linguistic", r"questions?", r"answers?", r"corpus",
    r"vocabular\w*", r"nlp", r"bert", r"translat\w*", r"written", r"writing", r"phrases?", r"spelling",
    r"grammar\w*", r"passages?", r"natural language", r"llms?", r"prompts?", r"chatbot\w*", r"summar\w*",
    r"toxic\w*", r"sentiment", r"authors?", r"articles?", r"news",
    # combined modalities
    r"multi-?modal\w*", r"captions?", r"vision-language", r"clip\b", r"text-to-image",
    # signals
    r"audio", r"sounds?", r"recordings?", r"speech", r"acoustic\w*", r"eeg", r"ecg", r"signals?",
    r"waveforms?", r"spectr\w*", r"frequenc\w*", r"hz\b", r"sensors?", r"seismic", r"radar", r"sonar",
    r"hydrophone\w*", r"phonem\w*", r"microphones?", r"wav\b", r"flac", r"mfcc", r"detectors?",
    r"electro\w*graph\w*", r"calls?\b", r"noise", r"birds?", r"whales?", r"brain", r"accelerometer\w*",
    # order in time
    r"time series", r"time-series", r"forecast\w*", r"future", r"horizon", r"daily", r"weekly",
    r"monthly", r"hourly", r"sales", r"trajector\w*", r"gps", r"locations?", r"lags?\b", r"sequences?",
    r"sequential", r"timestamps?", r"over time", r"progression", r"decline", r"degradation",
    r"positions?", r"movements?", r"stocks?", r"market\w*", r"prices?", r"demand", r"traffic", r"weather",
    r"rna", r"protein\w*", r"dna",
    # users and items
    r"users?", r"items?", r"recommend\w*", r"customers?", r"purchas\w*", r"clicks?", r"sessions?",
    r"ratings?", r"personali[sz]\w*", r"shoppers?", r"products?", r"ads?\b", r"advertis\w*",
    # agents
    r"agents?", r"environments?", r"rewards?", r"episodes?", r"games?", r"bots?", r"polic(?:y|ies)",
    r"simulat\w*", r"opponents?", r"self-play", r"play\w*",
    # graphs
    r"graphs?", r"nodes?", r"edges?", r"molecul\w*", r"atoms?", r"bonds?", r"chemical\w*", r"adjacen\w*",
    r"neighbo\w*", r"networks?", r"social",
    # rare events
    r"anomal\w*", r"outliers?", r"fraud\w*", r"abnormal\w*", r"rare", r"faults?", r"defects?",
    # security
    r"malware", r"attacks?", r"adversarial", r"ciphers?", r"encrypt\w*", r"intrusion\w*", r"phishing",
    r"privacy", r"cyber\w*", r"vulnerab\w*", r"secret\w*", r"hack\w*",
    # tables
    r"tabular", r"tables?", r"csv", r"features?", r"columns?", r"categorical", r"numeric\w*",
    r"synthetic\w*", r"playground", r"attributes?", r"rows?", r"regression", r"binary classification",
    r"dataset", r"insurance", r"loans?", r"credit", r"churn", r"claims?", r"patients?", r"house\w*",
)
# fmt: on

# Metric families: synonyms of one metric, in the forms Kaggle and automind use (first match wins).
METRIC_FAMILIES: tuple[tuple[str, str], ...] = (
    ("edit", r"levenshtein|edit distance|word error|\bwer\b|bleu|chrf|rouge|perplexity"),
    ("iou", r"dice|\biou\b|intersection ?over ?union|jaccard|segmentation"),
    ("detection_ap", r"object ?detection|detection ?ap|localization|\bmap ?@? ?(0?\.5|iou)"),
    ("ranking", r"map ?@|map@|mean average precision|average precision at|ndcg|recall ?@|mrr|\bap ?@"),
    ("quantile", r"pinball|quantile|crps|continuous rank|likelihood|interval"),
    ("percentage", r"smape|\bmape\b|percentage"),
    ("kappa", r"kappa|\bqwk\b"),
    ("correlation", r"pearson|spearman|correlation|kendall|sharpe|\br ?value\b"),
    ("gini", r"gini"),
    ("auc", r"\bauc|roc|area under|auroc"),
    ("logloss", r"log ?loss|cross ?entropy|multi ?class ?loss|deviance|kullback|divergence"),
    ("f1", r"\bf1|f ?score|f ?beta|fbeta|\bf[0-9.]+\b|matthews|\bmcc\b"),
    ("accuracy", r"accuracy|categori[sz]ation"),
    ("rmsle", r"logarithmic|rmsle|\bmsle\b|log error"),
    ("rmse", r"root mean squared? error|\brmse\b|mcrmse|columnwise root"),
    ("mae", r"absolute error|\bmae\b|median ?ae|\bl1\b"),
    ("mse", r"mean squared? error|\bmse\b|brier|\bl2\b"),
    ("r2", r"\br2\b|r squared|r\^2|determination"),
    ("cosine", r"cosine|angular|distance|haversine"),
)
METRIC_NAMES: tuple[str, ...] = tuple(name for name, _ in METRIC_FAMILIES)

# Flags read off a data analysis (automind.analysis.DataAnalysis.modalities), in this order.
FLAGS: tuple[str, ...] = ("image", "audio", "text", "time", "ids", "tabular_only")
USER_ITEM = re.compile(
    r"user|customer|client|member|item|product|article|movie|song|track|session|ad_?id", re.I
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


def task_text(description: str, name: str | None = None) -> str:
    """The text a task is labelled from: its name (when it adds anything) and the cleaned description."""
    clean = clean_description(description or "")
    if name and name.lower() not in clean[:300].lower():
        clean = f"{name}. {clean}" if clean else name
    return clean or (name or "")


# -- feature blocks --------------------------------------------------------------------------------


def _unit(x: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(x))
    return x / n if n > 0 else x


@cache
def _cue_patterns() -> tuple[re.Pattern, ...]:
    return tuple(re.compile(r"\b" + pat) for pat in CUE_TERMS)


def cue_vector(text: str) -> np.ndarray:
    """log(1 + count) per cue term, scaled to unit length (all zero when no term occurs)."""
    low = text[:50_000].lower()
    raw = np.array([math.log1p(len(p.findall(low))) for p in _cue_patterns()], dtype=np.float32)
    return _unit(raw)


def metric_family(metric: str | None) -> str | None:
    """The family of a metric name ("Mean Columnwise Root Mean Squared Error" -> rmse), or None."""
    if not metric:
        return None
    # split camelCase and separators so "RSNAObjectDetectionAP" reads as words
    name = re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", str(metric))
    name = re.sub(r"[_\-]+", " ", name).lower()
    for family, pattern in METRIC_FAMILIES:
        if re.search(pattern, name):
            return family
    return None


def metric_vector(metric: str | None) -> np.ndarray:
    out = np.zeros(len(METRIC_NAMES), dtype=np.float32)
    family = metric_family(metric)
    if family is not None:
        out[METRIC_NAMES.index(family)] = 1.0
    return out


def embed_text(text: str, embedder) -> np.ndarray:
    """Unit mean of the chunk embeddings: long descriptions and one-liners land on the same sphere."""
    vecs = np.asarray(embedder.embed(chunks(text)), dtype=np.float32)
    return _unit(vecs.mean(axis=0))


def combine(embedding: np.ndarray, text: str, metric: str | None) -> np.ndarray:
    """[embedding | cue counts | metric family] for an already embedded text."""
    return np.concatenate(
        [_unit(np.asarray(embedding, dtype=np.float32)), cue_vector(text), metric_vector(metric)]
    )


def features(text: str, metric: str | None, embedder) -> np.ndarray:
    return combine(embed_text(text, embedder), text, metric)


def flags_from_modalities(
    modalities: Sequence[str] | None, id_columns: Sequence[str] | None = None
) -> np.ndarray:
    """0/1 per FLAGS entry from a set of analysis modalities ('ids' only when a user or item key is seen)."""
    mods = {str(m).lower() for m in (modalities or ())}
    if "ids" in mods and id_columns is not None and not any(USER_ITEM.search(str(c)) for c in id_columns):
        mods.discard("ids")  # several key columns, none of them a user or an item
    if "video" in mods:
        mods.add("image")
    out = np.zeros(len(FLAGS), dtype=np.float32)
    for i, flag in enumerate(FLAGS):
        if flag == "tabular_only":
            out[i] = float(bool(mods) and mods <= {"tabular"})
        else:
            out[i] = float(flag in mods)
    return out


def analysis_flags(analysis: Any) -> np.ndarray | None:
    """Flags from a DataAnalysis (or anything with `modalities`), or None when there is no analysis."""
    if analysis is None or getattr(analysis, "modalities", None) is None:
        return None
    return flags_from_modalities(analysis.modalities, getattr(analysis, "id_like_columns", None))
