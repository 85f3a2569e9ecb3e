"""Keep the shipped trick cards in the store: ingested on first use and whenever they change.

The fingerprint of the card files is recorded in the cards collection's metadata, so checking costs
one metadata read; user cards ingested with `--kind cards` live alongside and are never removed here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from automind.ingest.loaders import card_document
from automind.ingest.pipeline import IngestReport, ingest_documents

KIND = "cards"
FINGERPRINT_KEY = "cards_fingerprint"


def _fingerprint(cards) -> str:
    h = hashlib.sha256()
    for c in sorted(cards, key=lambda c: c.id):
        h.update(c.model_dump_json().encode())
    return h.hexdigest()[:16]


def ensure_cards(
    store, cards=None, settings=None, progress: Callable[[int, int], None] | None = None
) -> IngestReport | None:
    """Ingest the shipped cards (or `cards`) if the store lacks them or they changed; None if current.

    `progress(done, total)` is called as cards are embedded (a first use seeds a couple of hundred).
    """
    from automind.knowledge import cards_fingerprint, load_cards

    if cards is None:
        cards, fingerprint = load_cards(), cards_fingerprint()
    else:
        cards, fingerprint = list(cards), _fingerprint(cards)
    if store.meta(KIND).get(FINGERPRINT_KEY) == fingerprint and (store.count(KIND) > 0 or not cards):
        return None
    docs = []
    for card in cards:
        doc = card_document(card)
        doc.metadata["origin"] = "shipped"
        docs.append(doc)
    done = 0

    def on_chunks(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(min(done, len(docs)), len(docs))

    if progress is not None:
        _ = store.embedder  # load the model first: its own progress must not overlap the bar
        progress(0, len(docs))
    report = ingest_documents(docs, store, settings=settings, on_chunks=on_chunks)
    keep = {d.source for d in docs}
    gone = [
        r.id
        for r in store.get(KIND, where={"origin": "shipped"}, include_documents=False)
        if r.metadata.get("source") not in keep
    ]
    if gone:
        report.removed += store.delete(KIND, ids=gone)
    store.set_meta(KIND, **{FINGERPRINT_KEY: fingerprint})
    return report
