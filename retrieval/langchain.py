"""A LangChain retriever over the automind knowledge store, so it plugs into users' own chains.

    from automind.retrieval import KnowledgeBase
    retriever = KnowledgeBase.open_store("~/.automind/knowledge").as_retriever(k=5, category="Computer Vision")
    docs = retriever.invoke("how to validate on grouped images")

`as_retriever` is the vector-store convention; this module never imports the knowledge base itself
(the knowledge base imports it lazily), so the two stay free of an import cycle.

Each Document's metadata describes where the chunk comes from and what it is about; `METADATA_KEYS`
documents the keys (a chunk has those its loader knows). The store's internal keys (`lbl__<category>`
filter scores, content hashes) are left out unless `include_internal=True`.

langchain_core is imported here only, never by `automind.retrieval` itself.
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict

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


class AutomindRetriever(BaseRetriever):
    """Similarity search (`KnowledgeBase.query`) returning Documents with documented metadata."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    kb: Any
    k: int = 5
    category: str | None = None
    kind: str | None = None
    include_internal: bool = False

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        hits = self.kb.query(query, k=self.k, category=self.category, kind=self.kind)
        return [self._document(h) for h in hits]

    def _document(self, hit) -> Document:
        meta = dict(hit.metadata or {})
        if not self.include_internal:
            meta = {
                k: v for k, v in meta.items() if not k.startswith(INTERNAL_PREFIX) and k not in INTERNAL_KEYS
            }
        meta.update(id=hit.id, kind=hit.kind, similarity=round(hit.similarity, 4))
        return Document(page_content=hit.document, metadata=meta)
