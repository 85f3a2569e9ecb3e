"""The chromadb-backed knowledge store.

automind computes every embedding itself (automind.embedders) and hands vectors to chroma, so the
model is always the one we ship (chroma's default embedding function would try to download one). Each
collection records the embedder name and dimension it was built with and refuses vectors from any
other model, because mixing spaces silently ruins similarity search.

Opening is careful about the user's data: a damaged database is reported, never rebuilt over; a read
command never creates a store at a mistyped path; a chroma server that does not answer runs into a
deadline that names it instead of hanging.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from automind.embedders import (
    EMBEDDERS,
    Embedder,
    EmbedderUnavailable,
    HashEmbedder,
    MiniLMEmbedder,
    WordLlamaEmbedder,
    embedder_dim,
    get_embedder,
)

PREFIX = "automind-"
DB_FILE = "chroma.sqlite3"
DEFAULT_TIMEOUT_S = 30.0
_RESERVED = ("hnsw:",)  # chroma keys that may not be changed after creation
_SQLITE_MAGIC = b"SQLite format 3\x00"


class StoreError(RuntimeError):
    """The store cannot be opened or used; the message says where and what to do."""


class StoreMismatchError(StoreError):
    """A collection was built with a different embedder than the one asked for."""


class StoreDamagedError(StoreError):
    """The store's files exist but cannot be read; the message says how to rebuild it."""


class StoreMissingError(StoreError):
    """A read command was pointed at a location that holds no store."""


def damaged_message(location: str | Path, why: str) -> str:
    loc = str(location)
    return (
        f"the knowledge store at {loc} is damaged ({why}). Nothing was changed. Rebuild it: move it aside "
        f"(mv {loc} {loc}.damaged), then run `automind knowledge stats --store {loc}` to seed the shipped "
        f"cards again and `automind ingest ... --store {loc}` for your own sources."
    )


def is_remote(location: str | Path) -> bool:
    return bool(re.match(r"^https?://", str(location)))


def check_local(path: Path, create: bool) -> None:
    """Refuse a file, a damaged database, or (for reads) a location that holds no store."""
    if path.exists() and not path.is_dir():
        raise StoreError(f"store location {path} is a file; --store needs a directory or an http(s) URL")
    db = path / DB_FILE
    if db.is_file():
        try:
            with db.open("rb") as f:
                head = f.read(16)
        except OSError as e:
            raise StoreDamagedError(damaged_message(path, f"cannot read {DB_FILE}: {e.strerror}")) from e
        if not head:
            raise StoreDamagedError(damaged_message(path, f"{DB_FILE} is empty (0 bytes)"))
        if head != _SQLITE_MAGIC:
            raise StoreDamagedError(damaged_message(path, f"{DB_FILE} is not an SQLite database"))
        return
    if create:
        return
    if not path.exists():
        raise StoreMissingError(
            f"no knowledge store at {path} (no such directory). Check the --store path; "
            "`automind ingest SOURCES --store PATH` creates one."
        )
    raise StoreMissingError(
        f"{path} is not a knowledge store (no {DB_FILE} in it). Check the --store path; "
        "`automind ingest SOURCES --store PATH` creates one."
    )


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


def import_chromadb():
    """Import chromadb without its import-time override checks.

    chromadb decorates ~160 methods with `overrides.override`, which inspects and compares signatures
    as each class is created: about a third of chromadb's import time, paid by every `automind tips`.
    The check guards chroma's own class definitions, not our calls, and the decorator returns the
    method unchanged either way, so for this one import it only marks the method as an override.
    """
    import sys

    if "chromadb" in sys.modules:
        return sys.modules["chromadb"]
    try:
        import overrides
    except ImportError:
        overrides = None
    original = getattr(overrides, "override", None)

    def mark(method):
        method.__override__ = True  # what the decorator itself records (EnforceOverrides reads it)
        return method

    def passthrough(method=None, **_kwargs):
        return mark(method) if method is not None else mark

    if overrides is not None:
        overrides.override = passthrough
    try:
        import chromadb
    finally:
        if overrides is not None:
            overrides.override = original
    return chromadb


def _settings():
    import_chromadb()
    from chromadb.config import Settings

    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    return Settings(anonymized_telemetry=False)


def _http_client(location: str, timeout: float):
    """A chroma HttpClient whose every request has a deadline; a silent server is named, not waited on."""
    from urllib.parse import urlparse

    import httpx

    url = urlparse(location)
    ssl = url.scheme == "https"
    port = url.port or (443 if ssl else 8000)
    host = url.hostname or "localhost"
    hint = f"Start it with `chroma run --path DIR --port {port}` or pass a directory to --store."
    # chroma's client waits forever on a server that accepts and never answers, already while it is
    # being built, so ask for a heartbeat under our deadline first.
    try:
        httpx.get(f"{url.scheme}://{host}:{port}/api/v2/heartbeat", timeout=timeout)
    except httpx.TimeoutException as e:
        raise StoreError(
            f"the chroma server at {location} did not answer within {timeout:g} s "
            f"(knowledge.timeout_s / AUTOMIND_KNOWLEDGE__TIMEOUT_S). {hint}"
        ) from e
    except httpx.HTTPError as e:
        raise StoreError(f"cannot reach the chroma server at {location}: {e}. {hint}") from e
    chromadb = import_chromadb()
    try:
        client = chromadb.HttpClient(host=host, port=port, ssl=ssl, settings=_settings())
    except Exception as e:  # chroma raises a bare exception when the server is not there
        raise StoreError(f"cannot reach the chroma server at {location}: {e}. {hint}") from e
    session = getattr(getattr(client, "_server", None), "_session", None)
    if isinstance(session, httpx.Client):  # chroma builds it with timeout=None
        session.timeout = httpx.Timeout(timeout)
    return client


def _client(location: str, create: bool = True, timeout: float = DEFAULT_TIMEOUT_S):
    if is_remote(location):
        return _http_client(location, timeout)
    path = Path(location).expanduser()
    check_local(path, create)
    chromadb = import_chromadb()
    path.mkdir(parents=True, exist_ok=True)
    try:
        client = chromadb.PersistentClient(path=str(path), settings=_settings())
        client.list_collections()
    except Exception as e:  # noqa: BLE001 - sqlite/rust errors of every kind mean the files are bad
        raise StoreDamagedError(damaged_message(path, _reason(e))) from e
    return client


def _reason(e: BaseException) -> str:
    text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return text.replace("error returned from database: ", "")[:200]


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


class _Guarded:
    """Forwards to a chroma client or collection; its low-level failures become StoreErrors."""

    def __init__(self, target: Any, store: Store):
        self._target, self._store = target, store

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._target, name)
        if not callable(value):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            with self._store.guard():
                out = value(*args, **kwargs)
            return _Guarded(out, self._store) if type(out).__name__ == "Collection" else out

        return call


class Store:
    """One chroma collection per kind (`automind-<kind>`), cosine space, vectors from one embedder."""

    def __init__(self, client, embedder: Embedder | str, location: str, strict: bool = True):
        self.remote = is_remote(location)
        self.load_embedder: Callable[[], Embedder] | None = None
        self.timeout = DEFAULT_TIMEOUT_S  # seconds per request to a chroma server (set by open)
        self.client = client if isinstance(client, _Guarded) else _Guarded(client, self)
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
        """The model, loaded on first use (through `load_embedder`, which a CLI may wrap in progress)."""
        if isinstance(self._embedder, str):
            self._embedder = self.load_embedder() if self.load_embedder else get_embedder(self._embedder)
        return self._embedder

    @property
    def embedder_name(self) -> str:
        return self._embedder if isinstance(self._embedder, str) else self._embedder.name

    @property
    def embedder_dim(self) -> int:
        """The vector size, known without loading the model (the collection checks need only this)."""
        return embedder_dim(self._embedder) if isinstance(self._embedder, str) else int(self._embedder.dim)

    @classmethod
    def open(
        cls,
        location: str | Path | None = None,
        embedder: Embedder | str | None = None,
        strict: bool = True,
        *,
        create: bool = True,
        timeout: float | None = None,
        lazy: bool = False,
    ) -> Store:
        """Open the store at a directory or http(s) URL (creating a local one only if `create`).

        Defaults come from `settings.knowledge` (which already honours AUTOMIND_STORE). With
        `strict=False` collections are not checked against the embedder: for stats, export and rm,
        which read or delete records but never embed. `lazy` defers loading the embedder to its
        first use. `timeout` bounds every request to a chroma server (seconds).
        """
        if location is None or embedder is None or timeout is None:
            from automind.config import load_config

            knowledge = load_config().settings.knowledge
            location = location or knowledge.store
            embedder = embedder or knowledge.embedder
            timeout = timeout or knowledge.timeout_s
        if isinstance(embedder, str) and strict and not lazy:
            embedder = get_embedder(embedder)
        client = _client(str(location), create=create, timeout=float(timeout))
        store = cls(client, embedder, str(location), strict=strict)
        store.timeout = float(timeout)
        return store

    @contextlib.contextmanager
    def guard(self) -> Iterator[None]:
        """Turn chroma's low-level failures into a StoreError that says what to do."""
        try:
            yield
        except StoreError:
            raise
        except Exception as e:
            if self.remote and type(e).__module__.startswith(("httpx", "httpcore")):
                if "Timeout" in type(e).__name__:
                    raise StoreError(
                        f"the chroma server at {self.location} did not answer within {self.timeout:g} s "
                        "(knowledge.timeout_s / AUTOMIND_KNOWLEDGE__TIMEOUT_S)"
                    ) from e
                raise StoreError(f"the chroma server at {self.location} failed: {_reason(e)}") from e
            if type(e).__name__ in ("InternalError",) or "sqlite" in type(e).__module__:
                raise StoreDamagedError(damaged_message(self.location, _reason(e))) from e
            raise

    # -- collections -------------------------------------------------------------------------------
    def _check(self, kind: str, col) -> None:
        if not self.strict:
            return
        meta = col.metadata or {}
        built, dim = meta.get("embedder"), meta.get("dim")
        name, want = self.embedder_name, self.embedder_dim
        if built != name or (dim is not None and int(dim) != want):
            raise StoreMismatchError(
                f"the '{kind}' collection in store {self.location} was built with embedder "
                f"{built or 'unknown'!r} (dim {dim}), but you asked for {name!r} "
                f"(dim {want}). Use that embedder (--embedder {built}), point --store at "
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
                metadata={"hnsw:space": "cosine", "embedder": self.embedder_name, "dim": self.embedder_dim},
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
        if vecs.shape[1] != self.embedder_dim:
            raise StoreMismatchError(
                f"vectors have dim {vecs.shape[1]}, collection expects {self.embedder_dim}"
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

    def close(self) -> None:
        """Release the client's files and connections: a local store holds about a dozen open files, so a
        process that solves many tasks in turn (the API, a benchmark, the test suite) would run out."""
        close = getattr(self.client._target, "close", None)
        if callable(close):
            with contextlib.suppress(Exception):  # a store already gone has nothing left to release
                close()
        self._collections.clear()

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
        if vec.shape[-1] != self.embedder_dim:
            raise StoreMismatchError(
                f"query vector has dim {vec.shape[-1]}, store expects {self.embedder_dim}"
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
    ks = settings.knowledge
    return Store.open(location or ks.store, embedder or ks.embedder, timeout=ks.timeout_s)


__all__ = [
    "EMBEDDERS",
    "Embedder",
    "EmbedderUnavailable",
    "HashEmbedder",
    "MiniLMEmbedder",
    "StoreDamagedError",
    "StoreMissingError",
    "WordLlamaEmbedder",
    "Hit",
    "Record",
    "Store",
    "StoreError",
    "StoreMismatchError",
    "get_embedder",
    "open_store",
]
