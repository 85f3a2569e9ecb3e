"""`KnowledgeBase`: the one object the CLI, the search agent and users' code ask for knowledge.

It owns the opened store, the embedder, the taxonomy and the shipped cards, and caches what repeats
between calls (taxonomy and label-text vectors, description vectors, task labels), so asking again
for the same task costs only the chroma queries.
"""

from __future__ import annotations

import functools
import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from automind.retrieval import labeler, search, tips
from automind.retrieval.tips import Tips
from automind.roles import Trick

if TYPE_CHECKING:
    from automind.analysis import DataAnalysis
    from automind.knowledge import Label
    from automind.task import Task

SEARCH_KINDS = ("cards", "posts", "papers", "competitions", "solutions")
CACHE_SIZE = 256


class _LRU(OrderedDict):
    def get_or(self, key, make):
        if key in self:
            self.move_to_end(key)
            return self[key]
        value = self[key] = make()
        if len(self) > CACHE_SIZE:
            self.popitem(last=False)
        return value


def _key(*parts: Any) -> str:
    return hashlib.sha1("\x00".join(map(str, parts)).encode()).hexdigest()


class KnowledgeBase:
    def __init__(self, store, settings, llm=None, taxonomy=None, cards=None):
        from automind.knowledge import load_cards, load_taxonomy

        self.store = store
        self.settings = settings
        self.llm = llm
        self.taxonomy = taxonomy or load_taxonomy()
        self.cards = {c.id: c for c in (cards if cards is not None else load_cards())}
        self._vectors = _LRU()
        self._labels = _LRU()
        self._embedder = None

    @classmethod
    def open(
        cls,
        settings=None,
        store=None,
        embedder=None,
        llm=None,
        ensure: bool = True,
        on_seed: Callable[[int, int], None] | None = None,
    ) -> KnowledgeBase:
        """Open the configured store (or use `store`) and make sure the shipped cards are in it.

        `on_seed(done, total)` reports progress when the shipped cards are (re)seeded, which happens on
        first use and whenever the cards change.
        """
        if settings is None:
            from automind.config import load_config

            settings = load_config().settings
        if store is None:
            from automind.store import Store

            ks = settings.knowledge
            store = Store.open(ks.store, embedder or ks.embedder, timeout=ks.timeout_s)
        if ensure:
            from automind.ingest.cards import ensure_cards

            ensure_cards(store, settings=settings, progress=on_seed)
        return cls(store, settings, llm=llm)

    @classmethod
    def open_store(cls, location: str, embedder: str | None = None, **kwargs: Any) -> KnowledgeBase:
        """The knowledge base in an existing store at `location` (a directory or http(s) URL)."""
        from automind.config import load_config
        from automind.store import Store

        overrides = {"knowledge.store": str(location)}
        if embedder:
            overrides["knowledge.embedder"] = embedder
        settings = load_config(overrides).settings
        ks = settings.knowledge
        store = Store.open(ks.store, ks.embedder, create=False, timeout=ks.timeout_s)
        return cls.open(settings, store=store, **kwargs)

    def as_retriever(self, k: int = 5, **kwargs: Any) -> Any:
        """A LangChain retriever over this knowledge base (see automind.retrieval.langchain)."""
        return retriever_class()(kb=self, k=k, **kwargs)

    @property
    def embedder(self):
        """Embeds questions (descriptions, label texts) through an on-disk cache: a task asked about
        before needs no model load; the store's model is loaded only for new text."""
        if self._embedder is None:
            from automind.embedders import CachedQueries

            self._embedder = CachedQueries(self.store.embedder_name, load=lambda: self.store.embedder)
        return self._embedder

    # -- vectors -----------------------------------------------------------------------------------
    def vectors(self, texts: list[str]) -> np.ndarray:
        """Embeddings of `texts`, each text embedded once per KnowledgeBase."""
        missing = [t for t in dict.fromkeys(texts) if _key(t) not in self._vectors]
        if missing:
            for t, v in zip(missing, self.embedder.embed(missing), strict=True):
                self._vectors.get_or(_key(t), lambda v=v: v)
        return (
            np.stack([self._vectors[_key(t)] for t in texts]) if texts else np.zeros((0, self.embedder.dim))
        )

    def label_text(self, label) -> str:
        """What a label is searched by: the category description plus the subcategory's."""
        cat = self.taxonomy.get(label.top)
        if cat is None:
            return label.top
        text = f"{cat.name}: {cat.description}"
        sub = cat.sub(label.sub) if label.sub else None
        return f"{text}\n{sub.name}: {sub.description}" if sub else text

    @staticmethod
    def description_text(task: Task | str) -> str:
        desc = labeler.clean_description(labeler.task_description(task))[:2000]
        return desc or ("" if isinstance(task, str) else task.name) or "task"

    # -- labels ------------------------------------------------------------------------------------
    def labels(
        self,
        task: Task | str,
        analysis: DataAnalysis | None = None,
        use_llm: bool = True,
        fallbacks: list[str] | None = None,
    ) -> list[Label]:
        """Task labels, best first (cached per description, data modalities and labeller)."""
        llm = self.llm if use_llm and self.settings.knowledge.labeler != "embedding" else None
        desc = labeler.task_description(task)
        mods = sorted(analysis.modalities) if analysis is not None else []
        ptype = analysis.problem_type if analysis is not None else None
        key = _key(desc, mods, ptype, llm is not None)
        llm_key = _key(desc, mods, ptype, True)
        if llm is None and llm_key in self._labels and not self._labels[llm_key][1]:
            return list(self._labels[llm_key][0])  # the LLM already labelled this task: reuse its answer
        failed: list[str] = []

        def make():
            out = labeler.label_task(task, analysis, self.embedder, self.taxonomy, llm=llm, fallbacks=failed)
            return out, list(failed)

        labels, notes = self._labels.get_or(key, make)
        if fallbacks is not None:
            fallbacks.extend(notes)
        return list(labels)

    # -- search ------------------------------------------------------------------------------------
    def ranked(
        self, task, labels: list, kinds=SEARCH_KINDS, k: int | None = None, per_query: int | None = None
    ) -> list[search.Scored]:
        """Search every collection by description and label texts, then filter and re-rank."""
        ks = self.settings.knowledge
        want = k or ks.k
        n = per_query or max(3 * want, 20)
        desc_text = self.description_text(task)
        labels = search.strong_labels(labels)
        label_texts = [self.label_text(lb) for lb in labels]
        vecs = self.vectors([desc_text, *label_texts])
        present = set(self.store.kinds())
        found: list[tuple[Any, np.ndarray]] = []
        banned = set() if isinstance(task, str) else {task.slug} - {""}
        # The competitions collection is always asked, with the description at least: a stored copy
        # of the task's own description bans its whole competition even when only posts are wanted.
        for kind in dict.fromkeys([*kinds, "competitions"]):
            if kind not in present:
                continue
            wanted = kind in kinds
            got = search.query_many(self.store, kind, vecs if wanted else vecs[:1], n if wanted else 5)
            if kind == "competitions":
                comp = [(h, float(e @ vecs[0])) for h, e in got]
                banned |= search.near_duplicate_competitions(comp, labeler.task_description(task))
            if wanted:
                found += got
        cands = search.score_candidates(
            found, vecs[0], vecs[1:], [lb.top for lb in labels], ks.desc_weight, ks.label_weight
        )
        cands = [c for c in cands if not self.is_reference_card(c)]
        out = search.select(cands, banned, ks.per_source_cap, None, ks.per_competition_cap)
        return search.balance_kinds(out, want, ks.max_kind_share)

    def is_reference_card(self, c: Any) -> bool:
        """A recipe card that only marks a component's neutral form ("no change to the predictions"): the
        ablation's reference point, never advice, so it is not offered as a tip."""
        if c.hit.kind != "cards":
            return False
        card = self.cards.get(str(c.meta.get("card_id") or ""))
        return card is not None and bool((card.recipe or {}).get("neutral"))

    def tips(
        self, task: Task | str, analysis: DataAnalysis | None = None, k: int = 10, use_llm: bool = True
    ) -> Tips:
        """Labels and 8-12 (LLM) or the k best (offline) tricks for a task, with provenance."""
        t0 = time.perf_counter()
        fallbacks: list[str] = []
        labels = self.labels(task, analysis, use_llm=use_llm, fallbacks=fallbacks)
        t1 = time.perf_counter()
        ranked = self.ranked(task, labels, k=k)
        t2 = time.perf_counter()
        tricks = None
        if use_llm and self.llm is not None:
            tricks = tips.llm_tricks(self.llm, self._task_text(task, analysis), ranked, fallbacks, k)
        if tricks is None:
            tricks = tips.offline_tricks(ranked, self.cards, k)
        t3 = time.perf_counter()
        timings = {"labels_s": t1 - t0, "search_s": t2 - t1, "tricks_s": t3 - t2, "total_s": t3 - t0}
        return Tips(labels=labels, tricks=tricks, fallbacks=fallbacks, timings=timings)

    @staticmethod
    def _task_text(task: Task | str, analysis: DataAnalysis | None) -> str:
        desc = labeler.task_description(task)
        if analysis is not None:
            return f"{desc[:6000]}\n\n# Data analysis\n{analysis.render()}"
        return desc[:8000]

    def papers(self, task, k: int = 3, analysis=None) -> list[Trick]:
        """The k most relevant paper chunks for a task, one per paper."""
        labels = self.labels(task, analysis, use_llm=False)
        ranked = self.ranked(task, labels, kinds=("papers",), k=k)
        one_each = search.cap_per_source(ranked, 1)
        return tips.offline_tricks(one_each, self.cards, k)

    def trick_pool(self, task: Task | str, analysis: DataAnalysis | None = None, k: int = 40) -> list[Trick]:
        """Ranked candidate tricks for improve steps: cards first (recipes included), then other material.

        Every shipped recipe card that carries one of the task's labels is in the pool even if the
        similarity search ranked it lower, so the offline policy always has something executable.
        """
        labels = self.labels(task, analysis, use_llm=False)
        ranked = self.ranked(task, labels, k=k, per_query=max(k, 40))
        pool = tips.offline_tricks([c for c in ranked if c.hit.kind == "cards"], self.cards, k)
        seen = {t.id for t in pool}
        tops = [lb.top for lb in labels]
        extra = [
            c
            for c in self.cards.values()
            if c.recipe and c.id not in seen and any(lab.split("/")[0] in tops for lab in c.labels)
        ]
        extra.sort(
            key=lambda c: (
                min(tops.index(lab.split("/")[0]) for lab in c.labels if lab.split("/")[0] in tops),
                c.id,
            )
        )
        pool += [c.to_trick(score=0.0) for c in extra]
        pool += tips.offline_tricks(
            [c for c in ranked if c.hit.kind != "cards"], self.cards, max(0, k - len(pool))
        )
        return pool

    # -- free text ---------------------------------------------------------------------------------
    def query(self, text: str, k: int = 5, category: str | None = None, kind: str | None = None) -> list:
        """Nearest stored chunks to `text`, optionally of one category and/or one kind, best first."""
        where = None
        if category:
            cat = self.taxonomy.get(category.split("/")[0])
            if cat is None:
                raise ValueError(
                    f"unknown category {category!r}; known: {', '.join(self.taxonomy.top_names())}"
                )
            where = {f"lbl__{search.slugify(cat.name)}": {"$gte": 0.0}}
        present = self.store.kinds()
        if kind and kind not in present:
            raise ValueError(f"no '{kind}' collection in the store; present: {', '.join(present) or 'none'}")
        vec = self.vectors([text])[0]
        hits = []
        for kd in [kind] if kind else [p for p in present if p in SEARCH_KINDS]:
            hits += self.store.query(kd, vec, k, where=where)
        hits.sort(key=lambda h: -h.similarity)
        return hits[:k]


@functools.cache
def retriever_class() -> type[Any]:
    """`AutomindRetriever`, a LangChain `BaseRetriever` over a KnowledgeBase; built on first use so that
    langchain_core loads only for users who ask for it (automind.retrieval.langchain documents it)."""
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
    from pydantic import ConfigDict

    from automind.retrieval.metadata import public_metadata

    class AutomindRetriever(BaseRetriever):
        """Similarity search (`KnowledgeBase.query`) returning Documents with documented metadata."""

        model_config = ConfigDict(arbitrary_types_allowed=True)

        kb: Any
        k: int = 5
        category: str | None = None
        kind: str | None = None
        include_internal: bool = False

        @classmethod
        def from_store(cls, path: str | Path, k: int = 5, embedder: str | None = None, **kwargs: Any) -> Any:
            """A retriever over the existing store at `path` (a directory or http(s) URL of a chroma server)."""
            location = (
                str(path) if str(path).startswith(("http://", "https://")) else str(Path(path).expanduser())
            )
            return cls(kb=KnowledgeBase.open_store(location, embedder=embedder), k=k, **kwargs)

        def _get_relevant_documents(
            self, query: str, *, run_manager: CallbackManagerForRetrieverRun
        ) -> list[Document]:
            hits = self.kb.query(query, k=self.k, category=self.category, kind=self.kind)
            return [self._document(h) for h in hits]

        def _document(self, hit: Any) -> Document:
            meta = public_metadata(dict(hit.metadata or {}), self.include_internal)
            meta.update(id=hit.id, kind=hit.kind, similarity=round(hit.similarity, 4))
            return Document(page_content=hit.document, metadata=meta)

    AutomindRetriever.__module__ = "automind.retrieval.langchain"
    return AutomindRetriever
