"""The ingest pipeline: discover -> load -> chunk -> embed -> label -> write, idempotently.

A document is keyed by its source. Its chunks get ids from (source, chunk text) hashes and carry the
document's hash, so a second run recognises unchanged documents without embedding anything. A changed
document's new chunks are written *before* its stale ones are deleted: an interrupted run leaves old
and new chunks side by side (and is repaired by the next run), never a document with no chunks.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from automind.ingest.chunking import Chunk, chunk_document
from automind.ingest.labeling import Label, label_slug, label_text, label_vector, labels_json
from automind.ingest.loaders import Document, LoadError, discover, load

EMBED_BATCH = 256  # chunks embedded per call: big enough to keep the model busy, small for progress
WRITE_BATCH = 1024  # chunks per store write: chroma's cost per chunk falls with the batch size


class IngestError(ValueError):
    """The ingest cannot start (bad option, no LLM for --labeler llm); per-file problems are not this."""


@dataclass
class IngestReport:
    added: int = 0  # documents new to the store
    updated: int = 0  # documents whose content changed (old chunks replaced)
    unchanged: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    chunks: int = 0  # chunks written (or that would be written, in a dry run)
    removed: int = 0  # stale chunks deleted
    seconds: float = 0.0
    by_kind: dict[str, int] = field(default_factory=dict)  # documents seen per store kind
    dry_run: bool = False

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["failed"] = [{"source": s, "reason": r} for s, r in self.failed]
        return d


def _sha(*parts: str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8", "replace"))
        h.update(b"\0")
    return h.hexdigest()


def doc_hash(doc: Document) -> str:
    meta = json.dumps(doc.metadata, sort_keys=True, default=str)
    return _sha(doc.kind, doc.source, doc.text, doc.summary or "", meta, json.dumps(doc.labels))[:16]


def chunk_id(source: str, text: str) -> str:
    return _sha(source, text)[:32]


def _scalar(v: Any) -> str | int | float | bool | None:
    if v is None or isinstance(v, str | int | float | bool):
        return v
    return json.dumps(v, default=str)


def chunk_metadata(
    doc: Document, chunk: Chunk, dhash: str, n_chunks: int, labels: list[Label]
) -> dict[str, Any]:
    """Scalar-only metadata (chroma's rule) for one chunk, with one `lbl__<slug>` key per top label."""
    meta: dict[str, Any] = {k: _scalar(v) for k, v in doc.metadata.items()}
    meta.update(
        kind=doc.kind,
        source=doc.source,
        competition=str(doc.metadata.get("competition") or ""),
        title=str(doc.metadata.get("title") or ""),
        rank=int(doc.metadata.get("rank", -1) if doc.metadata.get("rank") is not None else -1),
        stage=chunk.stage,
        heading=chunk.heading,
        chunk_index=chunk.index,
        n_chunks=n_chunks,
        content_hash=_sha(chunk.text)[:16],
        doc_hash=dhash,
        top_label=labels[0].top if labels else "",
        labels=labels_json(labels),
    )
    for lab in labels:
        meta[f"lbl__{label_slug(lab.top)}"] = float(lab.score)
    return {k: v for k, v in meta.items() if v is not None}


@dataclass
class _Pending:
    doc: Document
    dhash: str
    chunks: list[Chunk]
    old_ids: set[str]
    status: str  # added | updated


class _Writer:
    """Queues chunked documents, embeds them in EMBED_BATCH batches and writes them in WRITE_BATCH ones."""

    def __init__(
        self, store, report: IngestReport, labeller: Callable | None, dry_run: bool, on_chunks: Callable
    ):
        self.store, self.report, self.labeller, self.dry_run = store, report, labeller, dry_run
        self.on_chunks = on_chunks
        self.queue: list[_Pending] = []  # chunked, waiting to be embedded
        self.queued = 0
        self.embedded: list[_Pending] = []  # embedded and labelled, waiting to be written
        self.rows: dict[str, tuple[list, list, list, list]] = {}
        self.buffered = 0
        self._existing: dict[str, dict[str, tuple[set[str], set[str], int]]] = {}

    def existing(self, kind: str, source: str) -> tuple[set[str], set[str], int]:
        """(chunk ids, doc hashes, expected chunk count) already stored for a source."""
        if kind not in self._existing:
            table: dict[str, tuple[set[str], set[str], int]] = {}
            if self.store is not None:
                for rec in self.store.get(kind, include_documents=False):
                    src = str(rec.metadata.get("source"))
                    ids, hashes, n = table.get(src, (set(), set(), 0))
                    ids.add(rec.id)
                    hashes.add(str(rec.metadata.get("doc_hash")))
                    table[src] = (ids, hashes, max(n, int(rec.metadata.get("n_chunks") or 0)))
            self._existing[kind] = table
        return self._existing[kind].get(source, (set(), set(), 0))

    def submit(self, doc: Document, chunk_size: int, overlap: int) -> None:
        if any(p.doc.source == doc.source and p.doc.kind == doc.kind for p in (*self.queue, *self.embedded)):
            self.flush()  # the same source twice in one run: the later version wins
        dhash = doc_hash(doc)
        old_ids, old_hashes, n_old = self.existing(doc.kind, doc.source)
        self.report.by_kind[doc.kind] = self.report.by_kind.get(doc.kind, 0) + 1
        if old_ids and old_hashes == {dhash} and len(old_ids) == n_old:
            self.report.unchanged += 1
            return
        chunks = chunk_document(doc, chunk_size, overlap)
        if not chunks:
            self.report.failed.append((doc.source, "no text to index after chunking"))
            return
        status = "updated" if old_ids else "added"
        if self.dry_run:
            setattr(self.report, status, getattr(self.report, status) + 1)
            self.report.chunks += len(chunks)
            return
        self.queue.append(_Pending(doc, dhash, chunks, old_ids, status))
        self.queued += len(chunks)
        if self.queued >= EMBED_BATCH:
            self._embed()
        if self.buffered >= WRITE_BATCH:
            self._write()

    def flush(self) -> None:
        """Embed and write everything queued."""
        self._embed()
        self._write()

    def _embed(self) -> None:
        """Embed and label the queued chunks into the write buffer (progress is counted here)."""
        if not self.queue:
            return
        assert self.labeller is not None  # only a dry run has none, and a dry run queues nothing
        texts = [c.text for p in self.queue for c in p.chunks]
        vecs = self.store.embedder.embed(texts)
        start = 0
        for p in self.queue:
            n = len(p.chunks)
            dv = vecs[start : start + n]
            start += n
            labels = self.labeller(p.doc, dv)
            ids, docs, metas, embs = self.rows.setdefault(p.doc.kind, ([], [], [], []))
            for c, v in zip(p.chunks, dv, strict=True):
                ids.append(chunk_id(p.doc.source, c.text))
                docs.append(c.text)
                metas.append(chunk_metadata(p.doc, c, p.dhash, n, labels))
                embs.append(v)
        self.embedded += self.queue
        self.buffered += len(texts)
        self.on_chunks(len(texts))
        self.queue, self.queued = [], 0

    def _write(self) -> None:
        """Write the buffer in large upserts (chroma's cost per chunk falls with the batch size)."""
        if not self.embedded:
            return
        for kind, (ids, docs, metas, embs) in self.rows.items():
            self.store.upsert(kind, ids, docs, metas, embeddings=np.asarray(embs))
        for p in self.embedded:  # only now that the new chunks are in: drop the stale ones
            new_ids = {chunk_id(p.doc.source, c.text) for c in p.chunks}
            stale = sorted(p.old_ids - new_ids)
            if stale:
                self.report.removed += self.store.delete(p.doc.kind, ids=stale)
            setattr(self.report, p.status, getattr(self.report, p.status) + 1)
            self.report.chunks += len(p.chunks)
            self._existing.get(p.doc.kind, {})[p.doc.source] = (new_ids, {p.dhash}, len(new_ids))
        self.rows, self.embedded, self.buffered = {}, [], 0


def make_labeller(embedder, taxonomy, llm=None) -> Callable[[Document, np.ndarray], list[Label]]:
    """Labels for a document from its chunk vectors (mean direction) plus its text's keyword signals."""

    def labeller(doc: Document, vecs: np.ndarray) -> list[Label]:
        if doc.labels is not None:
            return [Label(t, s, float(sc)) for t, s, sc in doc.labels]
        title = str(doc.metadata.get("title") or "")
        text = f"{title}\n{doc.summary or ''}\n{doc.text[:20000]}"
        if llm is not None:
            return label_text(text[:6000], embedder, taxonomy, llm=llm)
        mean = vecs.mean(axis=0)
        mean = mean / max(float(np.linalg.norm(mean)), 1e-12)
        return label_vector(mean, text, embedder, taxonomy)

    return labeller


def resolve_llm(labeler: str, settings, llm=None):
    """The LLM to label/summarise with, or None; --labeler llm without one is an error."""
    if labeler not in ("auto", "llm", "embedding"):
        raise IngestError(f"unknown labeler {labeler!r}; choose auto, llm or embedding")
    if labeler == "embedding":
        return None
    if llm is None:
        try:
            from automind.llm import make_llm

            llm = make_llm(settings)
        except Exception as e:
            if labeler == "llm":
                raise IngestError(
                    f"--labeler llm: could not set up the LLM ({e}). Configure llm.provider."
                ) from e
            llm = None
    if llm is None and labeler == "llm":
        raise IngestError(
            "--labeler llm needs an LLM: set OPENAI_API_KEY / llm.base_url, or use --labeler embedding"
        )
    return llm


def _paper_summariser(llm) -> Callable | None:
    """An LLM paper summary as {display field: text}, or None without an LLM (extractive is used)."""
    if llm is None:
        return None
    from automind.llm.tasks import summarize_paper

    names = {
        "data_type": "Data type",
        "domain": "Domain",
        "dataset": "Dataset",
        "task": "Task",
        "techniques": "Techniques / ML phase",
        "contribution": "Key contribution",
    }

    def summarise(title: str, abstract: str, sections: list[str], text: str) -> dict[str, str]:
        brief = f"Title: {title}\n\nAbstract: {abstract}\n\nSections: {'; '.join(sections)}\n\n{text}"
        raw = summarize_paper(llm, brief)
        out = {}
        for key, label in names.items():
            value = raw.get(key)
            if isinstance(value, dict):
                value = "; ".join(f"{phase}: {', '.join(map(str, v))}" for phase, v in value.items())
            if value:
                out[label] = str(value)
        return out

    return summarise


def make_progress(enabled: bool):
    """Progress bars on stderr; a task with `unit="bytes"` counts in MB against a known total."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn
    from rich.text import Text

    class _Count(ProgressColumn):
        def render(self, task) -> Text:
            if task.fields.get("unit") == "bytes":
                total = f"{task.total / 2**20:,.0f}" if task.total else "?"
                return Text(f"{task.completed / 2**20:,.0f}/{total} MB")
            total = f"{task.total:.0f}" if task.total is not None else "?"
            return Text(f"{task.completed:.0f}/{total}")

    return Progress(
        TextColumn("[bold]{task.description:<15}"),
        BarColumn(),
        _Count(),
        TextColumn("{task.fields[info]}", style="dim"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        disable=not enabled,
        transient=False,
    )


def ingest_documents(
    documents: Iterable[Document | LoadError],
    store,
    *,
    settings=None,
    llm=None,
    dry_run: bool = False,
    report: IngestReport | None = None,
    on_chunks: Callable[[int], None] = lambda n: None,
) -> IngestReport:
    """Write already-loaded documents (LoadErrors among them are recorded as failures)."""
    from automind.knowledge import load_taxonomy

    settings = settings or _settings()
    report = report or IngestReport(dry_run=dry_run)
    kc = settings.knowledge
    # A dry run never embeds, so it must not pay for loading the model either.
    labeller = None if dry_run or store is None else make_labeller(store.embedder, load_taxonomy(), llm)
    writer = _Writer(store, report, labeller, dry_run, on_chunks)
    for doc in documents:
        if isinstance(doc, LoadError):
            report.failed.append((doc.source, doc.reason))
            continue
        writer.submit(doc, kc.chunk_size, kc.chunk_overlap)
    writer.flush()
    return report


def _settings():
    from automind.config import load_config

    return load_config().settings


def ingest(
    sources: Iterable[str],
    kind: str = "auto",
    store=None,
    labeler: str = "auto",
    dry_run: bool = False,
    progress: bool = True,
    *,
    settings=None,
    llm=None,
    fetch_links: bool = False,
    timeout: float = 10.0,
) -> IngestReport:
    """Ingest files, folders and URLs into the store; failures are reported per source, never fatal."""
    from automind.ingest.loaders import KINDS

    if kind not in KINDS:
        raise IngestError(f"unknown kind {kind!r}; choose one of: {', '.join(KINDS)}")
    t0 = time.perf_counter()
    settings = settings or _settings()
    if store is None:
        from automind.store import open_store

        store = open_store(settings)
    llm = resolve_llm(labeler, settings, llm) if not dry_run else None
    summarize = _paper_summariser(llm)
    report = IngestReport(dry_run=dry_run)

    items: list[tuple[str, Any]] = []
    for src in sources:
        try:
            found = list(discover(str(src), kind))
        except LoadError as e:
            report.failed.append((e.source, e.reason))
            continue
        if not found:  # a folder with nothing to read: say so, or an empty report looks like success
            report.failed.append((str(src), _nothing_found(kind)))
        items.extend(found)

    with make_progress(progress) as bar:
        files = bar.add_task("files", total=len(items), info="")
        chunk_task = bar.add_task("chunks embedded", total=None, info="")

        def documents() -> Iterator[Document | LoadError]:
            for k, target in items:
                bar.update(files, info=str(target)[-60:])
                try:
                    yield from load(k, target, summarize=summarize, fetch_links=fetch_links, timeout=timeout)
                except LoadError as e:
                    yield e
                except Exception as e:  # a loader bug on one odd file must not sink the whole run
                    yield LoadError(target, f"{type(e).__name__}: {e}")
                bar.advance(files)

        ingest_documents(
            documents(),
            None if dry_run and not _has_store(store) else store,
            settings=settings,
            llm=llm,
            dry_run=dry_run,
            report=report,
            on_chunks=lambda n: bar.advance(chunk_task, n),
        )
    report.seconds = round(time.perf_counter() - t0, 3)
    return report


def _nothing_found(kind: str) -> str:
    from automind.ingest.loaders import LOADERS

    loaders = [v for k, v in LOADERS.items() if kind in ("auto", k)]
    suffixes = sorted({e for loader in loaders for e in loader.extensions})
    return (
        f"no file to ingest in this folder (read: {', '.join(suffixes) or 'whole folders of this kind'}; "
        "other files and hidden ones are skipped). Check the path, or pass --kind"
    )


def _has_store(store) -> bool:
    return store is not None and bool(store.kinds())
