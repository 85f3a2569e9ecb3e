"""Latency of offline `tips` on a store of >= 10,000 chunks, next to the raw chroma queries it issues.

Usage: python bench/retrieval_latency.py SHARED_DATA_DIR [--store DIR] [--chunks 10000] [--tasks 12] [--repeats 5]
                                        [--build-tokens 256]

The store is built once (and reused from --store on later runs): the real posts, competition
descriptions and papers of SHARED_DATA_DIR are loaded with the ingest loaders and re-split into
overlapping windows of several sizes until there are --chunks chunks, embedded with all-MiniLM-L6-v2
and labelled like the ingest pipeline does. The shipped cards are added too.

For each task (real competition descriptions, which are in the store, so the own-competition filter
is exercised):
- cold: the first `tips(task, use_llm=False)` on a fresh KnowledgeBase (labelling, embedding, queries);
- warm: repeated calls (labels and vectors cached; the queries run every time);
- raw: exactly the chroma calls that tips issued (recorded), replayed with the same embeddings.
The ratio warm / raw is taken per task, in the same run, then summarised.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from pathlib import Path

import numpy as np

SIZES = (300, 500, 800)  # characters; short windows keep the one-off embedding affordable on 2 cores


def windows(text: str, size: int) -> list[str]:
    """Overlapping windows cut at word boundaries (stride 60 % of the size)."""
    words = text.split()
    out, cur, start = [], [], 0
    step_chars = int(size * 0.6)
    while start < len(words):
        cur, n = [], 0
        i = start
        while i < len(words) and n < size:
            cur.append(words[i])
            n += len(words[i]) + 1
            i += 1
        if n > 80:
            out.append(" ".join(cur))
        advance, m = 0, 0
        while start + advance < len(words) and m < step_chars:
            m += len(words[start + advance]) + 1
            advance += 1
        start += max(advance, 1)
    return out


def build_store(shared: Path, location: Path, target: int, build_tokens: int = 256):
    from automind.ingest.labeling import label_slug, label_vector, labels_json
    from automind.ingest.loaders import LoadError, discover, load
    from automind.knowledge import load_taxonomy
    from automind.store import Store, get_embedder

    store = Store.open(str(location), get_embedder("minilm"))
    marker = location / "bench-built.txt"  # written once the build finished (ids dedupe repeated windows)
    have = sum(store.count(k) for k in ("posts", "competitions", "papers"))
    built = marker.read_text().split() if marker.is_file() else []
    if built and int(built[0]) >= target:
        cap = built[1] if len(built) > 1 else "?"
        print(f"store: reusing {location} ({have} chunks, embedded with MiniLM capped at {cap} tokens)")
        return store
    taxonomy = load_taxonomy()
    docs = []
    for folder, kind in (("kaggle-posts", "posts"), ("competitions", "competitions"), ("papers", "papers")):
        for k, item in discover(str(shared / folder), kind):
            try:
                docs += [d for d in load(k, item) if not isinstance(d, Exception) and d.text.strip()]
            except LoadError as e:  # a broken source file is skipped, as ingest does
                print(f"  skipped {e}")
    print(f"store: building {target} chunks from {len(docs)} real documents into {location}")
    pieces: list[tuple[object, int, str]] = []
    for size in SIZES:
        for doc in docs:
            pieces += [(doc, size, w) for w in windows(doc.text, size)]
    rng = np.random.default_rng(0)
    order = rng.permutation(len(pieces))[:target]
    if len(order) < target:
        sys.exit(f"only {len(pieces)} windows available; lower --chunks")
    emb = store.embedder
    # Building is a one-off cost; on a shared 2-core machine the windows are embedded with MiniLM capped
    # at --build-tokens tokens. Query latency depends on the number and size of vectors, not on this.
    emb.max_seq_length = build_tokens
    t0 = time.perf_counter()
    batch = 256
    for b in range(0, len(order), batch):
        sel = [pieces[i] for i in order[b : b + batch]]
        texts = [w for _, _, w in sel]
        vecs = emb.embed(texts)
        by_kind: dict[str, tuple[list, list, list, list]] = {}
        for (doc, size, text), v in zip(sel, vecs, strict=True):
            labels = label_vector(v, text, emb, taxonomy)
            digest = hashlib.sha1(text.encode()).hexdigest()
            meta = {
                "kind": doc.kind,
                "source": f"{doc.source}#w{size}",
                "competition": str(doc.metadata.get("competition") or ""),
                "title": str(doc.metadata.get("title") or ""),
                "url": str(doc.metadata.get("url") or ""),
                "rank": -1,
                "stage": "",
                "content_hash": digest[:16],
                "top_label": labels[0].top,
                "labels": labels_json(labels),
                **{f"lbl__{label_slug(lb.top)}": float(lb.score) for lb in labels},
            }
            ids, ds, ms, es = by_kind.setdefault(doc.kind, ([], [], [], []))
            ids.append(f"{digest[:24]}-{size}")
            ds.append(text)
            ms.append(meta)
            es.append(v)
        for kind, (ids, ds, ms, es) in by_kind.items():
            store.upsert(kind, ids, ds, ms, embeddings=np.asarray(es))
        done = min(b + batch, len(order))
        print(f"  {done}/{len(order)} chunks, {done / (time.perf_counter() - t0):.0f} chunks/s", flush=True)
    emb.max_seq_length = 256
    marker.write_text(f"{target} {build_tokens}")
    print(f"store: embedded with MiniLM capped at {build_tokens} tokens per chunk")
    return store


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("shared", type=Path)
    ap.add_argument("--store", type=Path, default=Path.home() / ".automind" / "bench-latency-store")
    ap.add_argument("--chunks", type=int, default=10_000)
    ap.add_argument("--tasks", type=int, default=12)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--build-tokens", type=int, default=256, help="MiniLM token cap while building the store")
    args = ap.parse_args()

    from automind.config import load_config
    from automind.ingest.cards import ensure_cards
    from automind.retrieval import KnowledgeBase, search
    from automind.task import Task

    store = build_store(args.shared, args.store, args.chunks, args.build_tokens)
    settings = load_config({"knowledge.store": str(args.store), "knowledge.embedder": "minilm"}).settings
    ensure_cards(store, settings=settings)
    total = store.count()
    print(f"store: {total} chunks in total ({', '.join(f'{k} {store.count(k)}' for k in store.kinds())})")

    # Record every chroma call tips makes, so the raw baseline replays exactly those.
    calls: list[tuple[str, np.ndarray, int]] = []
    original = search.query_many

    def recording(st, kind, vectors, n, where=None):
        calls.append((kind, np.array(vectors), n))
        return original(st, kind, vectors, n, where)

    search.query_many = recording

    def raw(recorded) -> float:
        t = time.perf_counter()
        for kind, vecs, n in recorded:
            store.collection(kind).query(
                query_embeddings=vecs.tolist(),
                n_results=n,
                include=["documents", "metadatas", "distances", "embeddings"],
            )
        return time.perf_counter() - t

    comp_dirs = sorted(
        p for p in (args.shared / "competitions").iterdir() if (p / "description.md").is_file()
    )
    step = max(1, len(comp_dirs) // args.tasks)
    tasks = []
    for p in comp_dirs[::step][: args.tasks]:

        class T:  # description-only task: the bench folders hold no data
            description = (p / "description.md").read_text(encoding="utf-8")
            slug = p.name
            name = p.name
            spec = None

        tasks.append(T)
    _ = Task  # the real Task needs data files; tips only reads description, slug and spec

    cold, warm, raws, ratios, n_calls = [], [], [], [], []
    for T in tasks:
        kb = KnowledgeBase(store, settings)  # fresh caches: cold
        calls.clear()
        t = time.perf_counter()
        tips = kb.tips(T, use_llm=False)
        cold.append(time.perf_counter() - t)
        recorded = list(calls)
        n_calls.append(len(recorded))
        assert tips.tricks, f"no tricks for {T.slug}"
        assert all(tr.source for tr in tips.tricks)
        task_warm, task_raw = [], []
        for _ in range(args.repeats):
            calls.clear()
            t = time.perf_counter()
            kb.tips(T, use_llm=False)
            task_warm.append(time.perf_counter() - t)
            task_raw.append(raw(recorded))
        warm += task_warm
        raws += task_raw
        ratios.append(statistics.median(task_warm) / statistics.median(task_raw))

    ms = 1000.0
    print(f"tasks: {len(tasks)} real competition descriptions, {args.repeats} warm repeats each")
    print(f"chroma calls per tips: {statistics.median(n_calls):.0f} (one batched query per collection)")
    print(f"tips cold : p50 {pct(cold, 0.5) * ms:7.1f} ms   p95 {pct(cold, 0.95) * ms:7.1f} ms")
    print(
        f"tips warm : p50 {pct(warm, 0.5) * ms:7.1f} ms   p95 {pct(warm, 0.95) * ms:7.1f} ms   (target p50 < 100 ms)"
    )
    print(
        f"raw chroma: p50 {pct(raws, 0.5) * ms:7.1f} ms   p95 {pct(raws, 0.95) * ms:7.1f} ms   (same calls, same embeddings)"
    )
    print(
        f"ratio warm/raw per task: median {statistics.median(ratios):.2f}x, max {max(ratios):.2f}x   (target <= 2x)"
    )


if __name__ == "__main__":
    main()
