"""Writing knowledge: load posts, competitions, papers, solution indexes and cards into the store."""

from __future__ import annotations

from automind.ingest.cards import ensure_cards
from automind.ingest.labeling import Label, label_text
from automind.ingest.loaders import Document, LoadError
from automind.ingest.pipeline import IngestError, IngestReport, ingest

__all__ = [
    "Document",
    "IngestError",
    "IngestReport",
    "Label",
    "LoadError",
    "ensure_cards",
    "ingest",
    "label_text",
]
