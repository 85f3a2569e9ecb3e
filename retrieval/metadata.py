"""What a retrieved chunk's metadata holds: the documented keys, and the store's internal ones kept out of
LangChain Documents unless asked for (automind.retrieval.langchain)."""

from __future__ import annotations

from typing import Any

METADATA_KEYS = {
    "id": "chunk id in the store",
    "kind": "collection: cards, posts, papers, competitions or solutions",
    "similarity": "cosine similarity to the query (1 = identical direction)",
    "source": "file path, URL or card:ID the chunk was ingested from",
    "url": "author-facing URL of the write-up or paper, when known",
    "title": "document title (write-up, paper or card title)",
    "competition": "Kaggle competition slug the material belongs to ('' when none)",
    "rank": "leaderboard place of a write-up (-1 when unknown)",
    "date": "publication date (Meta Kaggle write-ups), YYYY-MM-DD",
    "stage": "pipeline stage: validation, feature engineering, model, training, ensembling, ...",
    "heading": "section path of the chunk inside its document",
    "top_label": "best taxonomy category of the document",
    "labels": "JSON list of {top, sub, score} taxonomy labels",
    "chunk_index": "position of the chunk in its document",
    "n_chunks": "number of chunks of the document",
    "metric": "competition evaluation metric (competitions, solutions, Meta Kaggle write-ups)",
    "year": "competition year, when known",
    "placement": "how the write-up's title states its place ('1st place', 'top-5', 'gold')",
    "card_id": "id of a shipped or user card",
}
INTERNAL_PREFIX = "lbl__"  # per-category score keys the store filters on
INTERNAL_KEYS = ("content_hash", "doc_hash")  # change detection for re-ingest


def public_metadata(meta: dict[str, Any], include_internal: bool = False) -> dict[str, Any]:
    """The chunk's metadata without the store's filter scores and change-detection hashes."""
    if include_internal:
        return dict(meta)
    return {k: v for k, v in meta.items() if not k.startswith(INTERNAL_PREFIX) and k not in INTERNAL_KEYS}
