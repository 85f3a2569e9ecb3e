"""Trick cards (YAML lists of `- id: ... trick: ...`): one chunk per card, labels from the card itself."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from automind.ingest.loaders.base import Document, Loader, LoadError, LoadOptions, head, read_text


def card_document(card) -> Document:
    """A trick card as one chunk; its labels come from the card itself."""
    labels = []
    for label in card.labels:
        top, _, sub = label.partition("/")
        labels.append((top, sub, 1.0))
    return Document(
        kind="cards",
        source=f"card:{card.id}",
        text=card.text(),
        metadata={
            "title": card.title,
            "competition": "",
            "rank": -1,
            "stage": card.stage,
            "card_id": card.id,
        },
        labels=labels,
        split=False,
    )


def load_cards_file(path: Path, options: LoadOptions | None = None) -> Iterator[Document]:
    from automind.knowledge import KnowledgeError, parse_cards

    try:
        cards = parse_cards(str(path), read_text(path))
    except KnowledgeError as e:
        raise LoadError(path, str(e)) from e
    yield from (card_document(c) for c in cards)


def _sniff(path: Path) -> bool:
    text = head(path)
    return (
        path.suffix.lower() in (".yml", ".yaml")
        and bool(re.search(r"^- id:", text, re.M))
        and bool(re.search(r"^\s+trick:", text, re.M))
    )


LOADER = Loader(
    kind="cards",
    extensions=(".yaml", ".yml"),
    load=load_cards_file,
    sniff=_sniff,
    order=25,
    help="trick cards: YAML list of {id, title, labels, stage, trick, ...}",
)
