"""Does the ONNX Runtime MiniLM rank like the sentence-transformers (torch) MiniLM it replaced?

    python bench/embedder_agreement.py SHARED_DATA_DIR --store DIR [--k 10]

Queries are the real competition descriptions of SHARED_DATA_DIR/competitions (the queries of
bench/retrieval_latency.py); DIR is a built store (e.g. the one retrieval_latency.py builds). For each
query both backends embed the description, and the store is searched per collection with each vector:
the figure is the overlap of the two top-k id lists (|A & B| / k), and of the tips each backend gives.
Also printed: the largest cosine distance between the two backends' vectors.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("shared", type=Path)
    ap.add_argument("--store", type=Path, required=True)
    ap.add_argument("--k", type=int, default=10)
    args = ap.parse_args()

    from automind.config import load_config
    from automind.embedders import MiniLMEmbedder
    from automind.retrieval import KnowledgeBase
    from automind.store import Store

    onnx = MiniLMEmbedder(backend="onnx")
    torch_based = MiniLMEmbedder(backend="torch")
    settings = load_config({"knowledge.store": str(args.store), "knowledge.embedder": "minilm"}).settings
    stores = {
        name: Store.open(args.store, emb, create=False)
        for name, emb in (("onnx", onnx), ("torch", torch_based))
    }
    kinds = [
        k for k in stores["onnx"].kinds() if k in ("cards", "posts", "papers", "competitions", "solutions")
    ]

    folders = sorted(p for p in (args.shared / "competitions").iterdir() if (p / "description.md").is_file())
    raw_overlap, tips_overlap, worst_cos = [], [], 1.0
    for folder in folders:
        text = (folder / "description.md").read_text(encoding="utf-8")[:2000]
        a, b = onnx.embed([text])[0], torch_based.embed([text])[0]
        worst_cos = min(worst_cos, float(a @ b))
        for kind in kinds:
            ids_a = [h.id for h in stores["onnx"].query(kind, a, args.k)]
            ids_b = [h.id for h in stores["torch"].query(kind, b, args.k)]
            if ids_a or ids_b:
                raw_overlap.append(len(set(ids_a) & set(ids_b)) / max(len(ids_a), len(ids_b)))

        class Task:  # description-only task, as in retrieval_latency.py
            description = text
            slug = folder.name
            name = folder.name
            spec = None

        got = {
            name: [t.id for t in KnowledgeBase(st, settings).tips(Task, k=args.k, use_llm=False).tricks]
            for name, st in stores.items()
        }
        tips_overlap.append(len(set(got["onnx"]) & set(got["torch"])) / max(1, len(got["torch"])))

    print(f"queries            {len(folders)} real competition descriptions, collections {', '.join(kinds)}")
    print(f"vector agreement   min cosine(onnx, torch) = {worst_cos:.6f}")
    print(
        f"top-{args.k} overlap     raw store queries: mean {statistics.mean(raw_overlap):.3f}, "
        f"min {min(raw_overlap):.3f} over {len(raw_overlap)} query x collection lists"
    )
    print(
        f"tips top-{args.k} overlap mean {statistics.mean(tips_overlap):.3f}, min {min(tips_overlap):.3f} "
        f"over {len(tips_overlap)} tasks"
    )


if __name__ == "__main__":
    main()
