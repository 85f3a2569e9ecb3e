"""Turn ranked knowledge into tricks, each with its provenance.

Offline the tricks are the material itself: a card becomes its `Trick` (recipe included), a post,
paper or competition chunk becomes a trick whose source is the URL, paper title or competition.
With an LLM the top material is condensed into 8-12 tricks and each one is checked for
applicability; if that fails, the offline tricks are used and `Tips.fallbacks` says why.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from automind.retrieval.search import Scored
from automind.roles import Trick

KIND_OF = {
    "cards": "card",
    "posts": "post",
    "papers": "paper",
    "competitions": "competition",
    "solutions": "competition",
}
TEXT_CHARS = 900  # a chunk trick keeps this much text (prompts stay short)


@dataclass
class Tips:
    labels: list  # ingest.labeling.Label, best first
    tricks: list[Trick]
    fallbacks: list[str] = field(default_factory=list)  # where an LLM step failed and offline was used
    timings: dict[str, float] = field(default_factory=dict)  # seconds per phase

    def to_dict(self) -> dict[str, Any]:
        return {
            "labels": [{"top": lb.top, "sub": lb.sub, "score": lb.score} for lb in self.labels],
            "tricks": [asdict(t) for t in self.tricks],
            "fallbacks": list(self.fallbacks),
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
        }


def _labels_of(meta: dict[str, Any]) -> list[str]:
    try:
        items = json.loads(meta.get("labels") or "[]")
    except ValueError:
        return []
    out = []
    for it in items if isinstance(items, list) else []:
        if isinstance(it, dict) and it.get("top"):
            out.append(f"{it['top']}/{it['sub']}" if it.get("sub") else str(it["top"]))
    return out


def source_of(hit) -> str:
    """Provenance for a chunk: card id, post URL, paper title, or competition slug."""
    meta = hit.metadata or {}
    if hit.kind == "cards":
        return f"card:{meta['card_id']}" if meta.get("card_id") else str(meta.get("source") or hit.id)
    if hit.kind == "papers":
        return str(meta.get("title") or meta.get("source") or hit.id)
    if hit.kind in ("competitions", "solutions"):
        url = str(meta.get("source") or "")
        comp = str(meta.get("competition") or "")
        return url if url.startswith("http") else (f"competition:{comp}" if comp else url or hit.id)
    return str(meta.get("url") or meta.get("source_url") or meta.get("source") or hit.id)


def to_trick(c: Scored, cards: dict[str, Any]) -> Trick:
    """A scored hit as a Trick; shipped cards come back whole (with their recipe)."""
    hit, meta = c.hit, c.meta
    card = cards.get(str(meta.get("card_id") or "")) if hit.kind == "cards" else None
    if card is not None:
        return card.to_trick(score=round(c.score, 4))
    text = (hit.document or "").strip()
    if len(text) > TEXT_CHARS:
        text = text[:TEXT_CHARS].rsplit(" ", 1)[0] + " ..."
    title = str(meta.get("title") or meta.get("heading") or text[:60])
    if meta.get("heading") and meta.get("title") and meta["heading"] != meta["title"]:
        title = f"{meta['title']} - {meta['heading']}"
    return Trick(
        id=str(meta.get("card_id") or hit.id),
        title=title,
        text=text,
        labels=_labels_of(meta),
        stage=str(meta.get("stage") or "") or None,
        source=source_of(hit),
        kind=KIND_OF.get(hit.kind, hit.kind),
        score=round(c.score, 4),
    )


def offline_tricks(ranked: list[Scored], cards: dict[str, Any], k: int) -> list[Trick]:
    return [to_trick(c, cards) for c in ranked[:k]]


def material(ranked: list[Scored], limit: int = 16, chars: int = 700) -> tuple[str, list[str]]:
    """The top hits as numbered blocks for the distillation prompt, and the source of each number."""
    blocks, sources = [], []
    for i, c in enumerate(ranked[:limit], 1):
        src = source_of(c.hit)
        title = c.meta.get("title") or ""
        body = " ".join((c.hit.document or "").split())[:chars]
        blocks.append(f"[{i}] {title} (source: {src})\n{body}")
        sources.append(src)
    return "\n\n".join(blocks), sources


def resolve_source(said: str, sources: list[str]) -> str:
    """Map the model's citation ("[3]", "3", or a source string) back to the real provenance."""
    said = (said or "").strip()
    found = [sources[int(n) - 1] for n in re.findall(r"\d+", said) if 0 < int(n) <= len(sources)]
    if said in sources:
        return said
    core = re.sub(r"(?i)\b(?:sources?|refs?|and)\b", " ", said)
    if found and re.fullmatch(r"[\s\[\]\d,;#]*", core):
        return "; ".join(dict.fromkeys(found))
    return said or (sources[0] if sources else "")


def llm_tricks(llm, task_text: str, ranked: list[Scored], fallbacks: list[str], k: int) -> list[Trick] | None:
    """Distil and check tricks with the LLM; None (with a recorded reason) when that fails."""
    from automind.llm.tasks import check_applicability, distill_tricks

    text, sources = material(ranked)
    if not sources:
        fallbacks.append("tricks: no stored material to distil; used offline tricks")
        return None
    try:
        tricks = distill_tricks(
            llm, task_text, text, min_tricks=min(8, k), max_tricks=max(min(12, k), 1), notes=fallbacks
        )
    except Exception as e:  # noqa: BLE001 - any LLM failure means the offline path, recorded
        fallbacks.append(f"tricks: LLM distillation failed ({type(e).__name__}: {e}); used offline tricks")
        return None
    kept, unchecked = [], 0
    for t in tricks:
        t.source = resolve_source(t.source, sources)
        try:
            ok = check_applicability(llm, t, task_text, notes=fallbacks)
        except Exception:  # noqa: BLE001 - keep the trick, but say it was not checked
            unchecked += 1
            ok = True
        if ok:
            kept.append(t)
    if unchecked:
        fallbacks.append(f"tricks: applicability check failed for {unchecked} trick(s); kept them unchecked")
    if not kept:
        fallbacks.append("tricks: the LLM judged every distilled trick inapplicable; used offline tricks")
        return None
    return kept[:k]
