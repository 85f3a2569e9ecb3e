"""Search the knowledge store for a labelled task: score, drop the task's own competition, re-rank.

One pass per collection: the task description and every label text go to chroma together (one
batched query), the union of hits is scored against all of them from their stored embeddings, and
then pure functions below filter and order the candidates. Keeping the policy in small pure
functions makes each rule testable on its own (tests/retrieval/test_search.py).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

NEAR_DUPLICATE = 0.9  # cosine above which a stored competition description counts as the task itself


@dataclass
class Scored:
    """A store hit with the evidence behind its rank."""

    hit: Any  # automind.store.Hit
    desc_sim: float
    label_sims: list[float] = field(default_factory=list)
    score: float = 0.0
    priority: int = 0  # index of the first task label the hit carries; len(labels) when none
    label: str = ""  # the task label it was ranked under

    @property
    def meta(self) -> dict[str, Any]:
        return self.hit.metadata or {}


def slugify(name: str) -> str:
    """Category name -> the `lbl__<slug>` suffix the store uses ("Natural Language Processing" -> natural_language_processing)."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def hit_tops(meta: dict[str, Any]) -> list[str]:
    """Top-level category slugs a stored chunk carries, best first (labels JSON, top_label, lbl__ keys)."""
    tops: list[str] = []
    raw = meta.get("labels")
    if isinstance(raw, str) and raw:
        try:
            parsed = json.loads(raw)
        except ValueError:
            parsed = []
        for item in parsed if isinstance(parsed, list) else []:
            if isinstance(item, dict) and item.get("top"):
                tops.append(slugify(str(item["top"])))
            elif isinstance(item, str):
                tops.append(slugify(item.split("/")[0]))
    if meta.get("top_label"):
        tops.append(slugify(str(meta["top_label"])))
    tops += [k[len("lbl__") :] for k in meta if k.startswith("lbl__")]
    return list(dict.fromkeys(tops))


def minmax(values: np.ndarray) -> np.ndarray:
    """Column-wise min-max to [0, 1]; unknown (NaN) entries count as the column minimum.

    A column with no spread carries no preference, so it maps to 1 everywhere and the other
    signal decides.
    """
    x = np.array(values, dtype=float, copy=True)
    if x.size == 0:
        return x
    squeeze = x.ndim == 1
    if squeeze:
        x = x[:, None]
    for j in range(x.shape[1]):
        col = x[:, j]
        finite = np.isfinite(col)
        if not finite.any():
            x[:, j] = 0.0
            continue
        lo, hi = col[finite].min(), col[finite].max()
        col[~finite] = lo
        x[:, j] = (col - lo) / (hi - lo) if hi - lo > 1e-12 else 1.0
    return x[:, 0] if squeeze else x


def combined_scores(
    desc_sims: np.ndarray, label_sims: np.ndarray, desc_weight: float, label_weight: float
) -> np.ndarray:
    """score[i, j] = desc_weight * norm(desc_sim[i]) + label_weight * norm(label_sim[i, j]).

    Both similarities are min-max normalised over the candidate pool first, so the weights
    trade off ranks rather than raw cosine scales (description cosines run lower than label ones).
    """
    d = minmax(np.asarray(desc_sims, dtype=float).reshape(-1))
    lab = np.asarray(label_sims, dtype=float)
    if lab.ndim == 1:
        lab = lab[:, None]
    if lab.shape[1] == 0:
        return (desc_weight * d)[:, None]
    return desc_weight * d[:, None] + label_weight * minmax(lab)


def assign(cands: list[Scored], label_tops: Sequence[str], scores: np.ndarray) -> None:
    """Give each candidate its priority (first task label it carries) and that label's score."""
    slugs = [slugify(t) for t in label_tops]
    for i, c in enumerate(cands):
        tops = set(hit_tops(c.meta))
        match = next((j for j, s in enumerate(slugs) if s in tops), None)
        if match is None:
            c.priority = len(slugs)
            best = int(np.argmax(scores[i])) if scores.shape[1] else 0
            c.score = float(scores[i, best]) if scores.shape[1] else 0.0
            c.label = ""
        else:
            c.priority = match
            c.score = float(scores[i, match])
            c.label = label_tops[match]


def strong_labels(labels: Sequence[Any], share: float = 0.1) -> list[Any]:
    """Labels worth a search: those scoring at least `share` of the best one (the first is always kept)."""
    if not labels:
        return []
    best = max(float(lb.score) for lb in labels)
    return [lb for i, lb in enumerate(labels) if i == 0 or float(lb.score) >= share * best]


def content_key(c: Scored) -> str:
    h = c.meta.get("content_hash")
    if h:
        return str(h)
    return hashlib.sha1(" ".join((c.hit.document or "").split()).encode()).hexdigest()


def near_duplicate_competitions(
    comp_hits: Iterable[tuple[Any, float]], description: str, threshold: float = NEAR_DUPLICATE
) -> set[str]:
    """Competition slugs whose stored description is (nearly) the task's own.

    A chunk counts when its cosine to the task description exceeds `threshold`, or when one of its
    paragraphs appears verbatim in the description (covers long descriptions whose embedding is
    truncated, and chunks that carry an extra header).
    """
    flat = " ".join(description.split())
    banned: set[str] = set()
    for hit, sim in comp_hits:
        slug = (hit.metadata or {}).get("competition")
        if not slug:
            continue
        paras = (" ".join(p.split()) for p in re.split(r"\n\s*\n", hit.document or ""))
        if sim > threshold or any(len(p) >= 80 and p in flat for p in paras):
            banned.add(str(slug))
    return banned


def drop_competitions(cands: list[Scored], banned: set[str]) -> list[Scored]:
    """Remove everything stored from a banned competition (its posts, description, solutions)."""
    low = {b.lower() for b in banned if b}
    return [c for c in cands if str(c.meta.get("competition") or "").lower() not in low]


def rerank(cands: list[Scored]) -> list[Scored]:
    """Hits carrying the first task label first, then the second, ...; by score within a label."""
    return sorted(cands, key=lambda c: (c.priority, -c.score, c.hit.id))


def dedupe(cands: list[Scored]) -> list[Scored]:
    """Keep the first (best-ranked) copy of each content hash; the same text ingested twice counts once."""
    seen: set[str] = set()
    out = []
    for c in cands:
        key = content_key(c)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def cap_per_source(cands: list[Scored], cap: int) -> list[Scored]:
    """At most `cap` chunks per source (one post cannot fill the list); order is kept."""
    if cap <= 0:
        return list(cands)
    counts: dict[str, int] = {}
    out = []
    for c in cands:
        src = str(c.meta.get("source") or c.hit.id)
        if counts.get(src, 0) < cap:
            counts[src] = counts.get(src, 0) + 1
            out.append(c)
    return out


def cap_per_competition(cands: list[Scored], cap: int) -> list[Scored]:
    """At most `cap` chunks per competition slug (one competition's many write-ups cannot fill the list)."""
    if cap <= 0:
        return list(cands)
    counts: dict[str, int] = {}
    out = []
    for c in cands:
        slug = str(c.meta.get("competition") or "").lower()
        if not slug:
            out.append(c)
            continue
        if counts.get(slug, 0) < cap:
            counts[slug] = counts.get(slug, 0) + 1
            out.append(c)
    return out


def balance_kinds(cands: list[Scored], k: int, max_share: float) -> list[Scored]:
    """Reorder so that no kind (cards, posts, papers, ...) takes more than `max_share` of the first k.

    Hits over a kind's quota move behind the first k, in order, and come back only when the other
    kinds have too little to fill it: a store of thousands of write-ups still shows its cards and
    papers, and a store of papers its write-ups. Order within a kind is kept.
    """
    if k <= 0 or max_share >= 1.0 or not cands:
        return list(cands)
    quota = max(1, math.ceil(max_share * k))
    head: list[Scored] = []
    held: list[Scored] = []
    counts: dict[str, int] = {}
    for c in cands:
        kind = c.hit.kind
        if len(head) < k and counts.get(kind, 0) < quota:
            counts[kind] = counts.get(kind, 0) + 1
            head.append(c)
        else:
            held.append(c)
    short = k - len(head)
    if short > 0:  # not enough other kinds: fill with the best of the held-back hits
        head += held[:short]
        held = held[short:]
        head.sort(key=lambda c: cands.index(c))
    return head + held


def select(
    cands: list[Scored],
    banned: set[str],
    per_source_cap: int,
    k: int | None = None,
    per_competition_cap: int = 0,
    max_kind_share: float = 1.0,
) -> list[Scored]:
    """The whole policy after scoring: filter own competition, re-rank, dedupe, cap, balance, cut to k."""
    out = cap_per_source(dedupe(rerank(drop_competitions(cands, banned))), per_source_cap)
    out = cap_per_competition(out, per_competition_cap)
    if k is not None:
        return balance_kinds(out, k, max_kind_share)[:k]
    return out


# -- talking to the store --------------------------------------------------------------------------


def query_many(
    store, kind: str, vectors: np.ndarray, n: int, where: dict | None = None
) -> list[tuple[Any, np.ndarray]]:
    """One chroma call for several query vectors; the union of hits with their stored embeddings."""
    from automind.store import Hit

    col = store.collection(kind)
    if col is None or n <= 0 or len(vectors) == 0:
        return []
    res = col.query(
        query_embeddings=np.asarray(vectors, dtype=np.float32).tolist(),
        n_results=n,
        where=where,
        include=["documents", "metadatas", "distances", "embeddings"],
    )
    out: dict[str, tuple[Any, np.ndarray]] = {}
    for q in range(len(res["ids"])):
        for j, hid in enumerate(res["ids"][q]):
            sim = 1.0 - float(res["distances"][q][j])
            if hid in out:
                out[hid][0].similarity = max(out[hid][0].similarity, sim)
                continue
            hit = Hit(hid, kind, res["documents"][q][j] or "", res["metadatas"][q][j] or {}, sim)
            out[hid] = (hit, np.asarray(res["embeddings"][q][j], dtype=np.float32))
    return list(out.values())


def score_candidates(
    found: list[tuple[Any, np.ndarray]],
    desc_vec: np.ndarray,
    label_vecs: np.ndarray,
    label_tops: Sequence[str],
    desc_weight: float,
    label_weight: float,
) -> list[Scored]:
    """Cosine of every candidate to the description and to each label text, combined and assigned."""
    if not found:
        return []
    emb = np.stack([e for _, e in found])
    emb = emb / np.maximum(np.linalg.norm(emb, axis=1, keepdims=True), 1e-12)
    d = emb @ np.asarray(desc_vec, dtype=np.float32)
    lab = emb @ np.asarray(label_vecs, dtype=np.float32).T if len(label_vecs) else np.zeros((len(found), 0))
    scores = combined_scores(d, lab, desc_weight, label_weight)
    cands = [Scored(hit, float(d[i]), [float(x) for x in lab[i]]) for i, (hit, _) in enumerate(found)]
    assign(cands, label_tops, scores)
    return cands
