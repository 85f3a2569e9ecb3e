"""A LangChain retriever over the automind knowledge store, so it plugs into users' own chains.

    from automind.retrieval import KnowledgeBase
    from automind.retrieval.langchain import AutomindRetriever
    retriever = AutomindRetriever(kb=KnowledgeBase.open(settings), k=5, category="Computer Vision")
    docs = retriever.invoke("how to validate on grouped images")

langchain_core is imported here only, never by `automind.retrieval` itself.
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict


class AutomindRetriever(BaseRetriever):
    """Similarity search (`KnowledgeBase.query`) returning Documents with the chunk metadata."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    kb: Any
    k: int = 5
    category: str | None = None
    kind: str | None = None

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        hits = self.kb.query(query, k=self.k, category=self.category, kind=self.kind)
        return [
            Document(
                page_content=h.document,
                metadata={**h.metadata, "id": h.id, "kind": h.kind, "similarity": round(h.similarity, 4)},
            )
            for h in hits
        ]
