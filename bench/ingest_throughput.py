"""Ingest throughput vs the embedding limit, measured side by side in one run.

    python bench/ingest_throughput.py DIR [DIR...] [--embedder minilm] [--store TMPDIR]

Prints chunks/s for (a) plain embedding of exactly the chunks the pipeline produces and (b) a full
`ingest` of the same sources into a fresh store (load, parse, chunk, embed, label, write), their
ratio (target >= 0.9: the pipeline should cost little beyond the model), and peak memory. Each phase
is also timed in process CPU seconds: on a shared machine whose load changes between the two phases,
the CPU-time ratio is the fair one.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path


def _rss_mb() -> float:
    import psutil

    return psutil.Process().memory_info().rss / 2**20


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sources", nargs="+")
    ap.add_argument("--embedder", default="minilm", choices=["minilm", "wordllama", "hash"])
    ap.add_argument("--store", default=None, help="scratch store directory (default: a temp dir, removed)")
    args = ap.parse_args(argv)

    os.environ.setdefault("AUTOMIND_HOME", tempfile.mkdtemp(prefix="automind-bench-home-"))
    from automind.config import load_config
    from automind.ingest.chunking import chunk_document
    from automind.ingest.loaders import Document, LoadError, discover, load
    from automind.ingest.pipeline import EMBED_BATCH, ingest
    from automind.store import Store, get_embedder

    settings = load_config().settings
    kc = settings.knowledge
    emb = get_embedder(args.embedder)
    emb.embed(["warm up the model so neither measurement pays for loading it"] * 8)
    rss_after_model = _rss_mb()

    # The exact chunk texts a full ingest would embed (untimed).
    texts: list[str] = []
    for src in args.sources:
        try:
            items = list(discover(src))
        except LoadError:
            continue
        for kind, target in items:
            try:
                for doc in load(kind, target):
                    if isinstance(doc, Document):
                        texts += [c.text for c in chunk_document(doc, kc.chunk_size, kc.chunk_overlap)]
            except LoadError:
                pass
    if not texts:
        print("no chunks found in", args.sources, file=sys.stderr)
        return 1

    t0, c0 = time.perf_counter(), time.process_time()
    for start in range(0, len(texts), EMBED_BATCH):
        emb.embed(texts[start : start + EMBED_BATCH])
    embed_s, embed_cpu = time.perf_counter() - t0, time.process_time() - c0

    scratch = Path(args.store or tempfile.mkdtemp(prefix="automind-bench-store-"))
    store = Store.open(scratch, emb)
    t0, c0 = time.perf_counter(), time.process_time()
    report = ingest(args.sources, store=store, labeler="embedding", progress=False, settings=settings)
    ingest_s, ingest_cpu = time.perf_counter() - t0, time.process_time() - c0
    if args.store is None:
        shutil.rmtree(scratch, ignore_errors=True)

    embed_cps = len(texts) / embed_s
    ingest_cps = report.chunks / ingest_s
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"embedder            {args.embedder} (dim {emb.dim}), cpu threads {os.cpu_count()}")
    print(
        f"chunks              {len(texts)} (ingest wrote {report.chunks}; {len(report.failed)} sources failed)"
    )
    print(f"plain embedding     {embed_s:8.1f} s   {embed_cps:8.1f} chunks/s   ({embed_cpu:.1f} CPU s)")
    print(f"full ingest         {ingest_s:8.1f} s   {ingest_cps:8.1f} chunks/s   ({ingest_cpu:.1f} CPU s)")
    print(f"ratio ingest/embed  {ingest_cps / embed_cps:8.2f}   wall clock (target >= 0.9)")
    print(
        f"ratio by CPU time   {embed_cpu / ingest_cpu * report.chunks / len(texts):8.2f}   (fair under changing load)"
    )
    print(f"peak RSS            {peak_mb:8.0f} MB   (after model load {rss_after_model:.0f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
