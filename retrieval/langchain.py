"""A LangChain retriever over the automind knowledge store, so it plugs into users' own chains.

    from automind.retrieval.langchain import AutomindRetriever
    retriever = AutomindRetriever.from_store("~/.automind/knowledge", k=5, category="Computer Vision")
    docs = retriever.invoke("how to validate on grouped images")

or, from an open knowledge base, `kb.as_retriever(k=5)` like other vector stores.

Each Document's metadata describes where the chunk comes from and what it is about; `METADATA_KEYS`
documents the keys (a chunk has those its loader knows). The store's internal keys (`lbl__<category>`
filter scores, content hashes) are left out unless `include_internal=True`.

The class is built by `automind.retrieval.base.retriever_class` (beside the knowledge base it opens, so the
two need no import of each other); importing this module is what loads langchain_core, which
`automind.retrieval` itself never does.
"""

from __future__ import annotations

from automind.retrieval.base import retriever_class
from automind.retrieval.metadata import INTERNAL_KEYS, INTERNAL_PREFIX, METADATA_KEYS

AutomindRetriever = retriever_class()

__all__ = ["INTERNAL_KEYS", "INTERNAL_PREFIX", "METADATA_KEYS", "AutomindRetriever"]
