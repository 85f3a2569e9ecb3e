"""Time `automind ingest meta-kaggle` per 1,000 write-ups on a synthetic Meta Kaggle folder.

    python bench/meta_kaggle_throughput.py [--writeups 1000] [--chatter 20] [--embedder minilm]
                                           [--posts SHARED/kaggle-posts] [--keep DIR]

The folder is generated at bench time with Meta Kaggle's columns: --writeups competitions' worth of
"Nth place solution" topics whose first messages are HTML write-ups (bodies cut from the Markdown posts
in --posts when given, so their length and vocabulary are real; a fixed template otherwise), plus
--chatter ordinary topics and replies per write-up that the selection must stream past. It then runs
the real ingest (select, convert, chunk, label, embed, store) into a fresh store and prints seconds per
1,000 write-ups, chunks/s, and a re-run (nothing to embed: the cost of a resumed or repeated build).
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import re
import shutil
import tempfile
import time
from pathlib import Path

TEMPLATE = """<h2>Overview</h2><p>Our solution for {comp} is an ensemble of gradient boosting and a neural network.
We thank the hosts &amp; everyone who shared notebooks.</p><h2>Validation</h2><p>We used stratified 5-fold
cross-validation grouped by {group}; CV and the public leaderboard agreed within 0.002.<br>Seeds were
averaged.</p><h2>Features</h2><ul><li>target encoding done out of fold<ul><li>smoothing 20</li></ul></li>
<li>counts and ratios of the {n} most frequent categories</li></ul><h2>Models</h2><pre><code>params = dict(
    learning_rate=0.03, num_leaves=63, feature_fraction=0.7)
model = lgb.train(params, train_set, 5000)</code></pre><p>The network was an MLP with embeddings for
categories, trained for {epochs} epochs with a cosine schedule. Blending weights came from out-of-fold
predictions with a ridge regression; the blend beat the best single model by 0.004.</p>"""


def _bodies(posts: Path | None) -> list[str]:
    if posts is None or not posts.is_dir():
        return []
    out = []
    for path in sorted(posts.glob("*.md")):
        text = re.sub(r"\A---.*?---\s*", "", path.read_text(encoding="utf-8", errors="replace"), flags=re.S)
        paras = [p.strip() for p in text.split("\n\n") if p.strip()]
        html = "".join(
            f"<p>{p}</p>" if not p.startswith("#") else f"<h2>{p.lstrip('#').strip()}</h2>" for p in paras
        )
        if len(html) > 800:
            out.append(html[:8000])
    return out


def build(folder: Path, writeups: int, chatter: int, bodies: list[str], seed: int = 0) -> None:
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    n_comps = max(1, writeups // 5)
    with (folder / "Competitions.csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\r\n")
        w.writerow(
            ["Id", "Slug", "Title", "ForumId", "EnabledDate", "DeadlineDate", "EvaluationAlgorithmName"]
        )
        for c in range(n_comps):
            year = 2012 + c % 12
            w.writerow(
                [
                    c,
                    f"comp-{c}",
                    f"Competition {c}",
                    10_000 + c,
                    f"01/01/{year} 00:00:00",
                    f"06/30/{year} 23:59:00",
                    "AUC",
                ]
            )
    with (
        (folder / "ForumTopics.csv").open("w", newline="", encoding="utf-8") as topics,
        (folder / "ForumMessages.csv").open("w", newline="", encoding="utf-8") as messages,
    ):
        _write_topics(topics, messages, writeups, chatter, bodies, n_comps, rng)


def _write_topics(topics, messages, writeups, chatter, bodies, n_comps, rng) -> None:
    tw, mw = csv.writer(topics, lineterminator="\r\n"), csv.writer(messages, lineterminator="\r\n")
    tw.writerow(["Id", "ForumId", "FirstForumMessageId", "Title", "CreationDate", "Score"])
    mw.writerow(["Id", "ForumTopicId", "PostUserId", "PostDate", "Message", "Medal"])
    topic_id, message_id = 1, 1
    for i in range(writeups):
        comp = i % n_comps
        date = f"07/{1 + i % 28:02d}/{2012 + comp % 12} 10:00:00"
        tw.writerow([topic_id, 10_000 + comp, message_id, f"{1 + i // n_comps}th place solution", date, 10])
        body = bodies[i % len(bodies)] if bodies else TEMPLATE
        body = (
            body.format(comp=f"competition {comp}", group="user", n=10 + i % 40, epochs=5 + i % 20)
            if not bodies
            else body
        )
        mw.writerow([message_id, topic_id, 1, date, body, 1])
        topic_id, message_id = topic_id + 1, message_id + 1
        for _ in range(chatter):
            tw.writerow(
                [topic_id, 10_000 + rng.randrange(n_comps), message_id, "Question about the data", date, 0]
            )
            for _ in range(2):
                mw.writerow(
                    [
                        message_id,
                        topic_id,
                        2,
                        date,
                        "<p>Is the test set from the same period? Thanks!</p>",
                        "",
                    ]
                )
                message_id += 1
            topic_id += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--writeups", type=int, default=1000)
    ap.add_argument("--chatter", type=int, default=20, help="ordinary topics per write-up (2 messages each)")
    ap.add_argument("--embedder", default="minilm", choices=["minilm", "wordllama", "hash"])
    ap.add_argument(
        "--posts", type=Path, default=None, help="folder of Markdown write-ups to take bodies from"
    )
    ap.add_argument("--keep", type=Path, default=None, help="keep the generated folder and store here")
    args = ap.parse_args()

    work = Path(args.keep or tempfile.mkdtemp(prefix="automind-mk-bench-"))
    os.environ.setdefault("AUTOMIND_HOME", str(work / "home"))
    from automind.config import load_config
    from automind.ingest.loaders.meta_kaggle import MetaKaggleOptions
    from automind.ingest.meta_kaggle import ingest_meta_kaggle
    from automind.store import Store, get_embedder

    folder = work / "meta-kaggle"
    t0 = time.perf_counter()
    build(folder, args.writeups, args.chatter, _bodies(args.posts))
    size = sum(p.stat().st_size for p in folder.iterdir()) / 2**20
    print(
        f"fixture   {args.writeups} write-ups, {args.chatter} chatter topics each, {size:.0f} MB, built in {time.perf_counter() - t0:.1f} s"
    )
    emb = get_embedder(args.embedder)
    emb.embed(["warm up"])
    settings = load_config(
        {"knowledge.store": str(work / "kb"), "knowledge.embedder": args.embedder}
    ).settings
    store = Store.open(work / "kb", emb)
    c0 = time.process_time()
    report = ingest_meta_kaggle(folder, store, MetaKaggleOptions(), settings=settings, progress=False)
    cpu = time.process_time() - c0
    docs = report.added + report.updated + report.unchanged
    print(
        f"ingest    {docs} write-ups, {report.chunks} chunks in {report.seconds:.1f} s "
        f"({len(report.failed)} failed) with {args.embedder}"
    )
    print(
        f"per 1,000 write-ups: {report.seconds / max(docs, 1) * 1000:.0f} s wall, "
        f"{cpu / max(docs, 1) * 1000:.0f} CPU s;  {report.chunks / report.seconds:.1f} chunks/s"
    )
    again = ingest_meta_kaggle(folder, store, MetaKaggleOptions(), settings=settings, progress=False)
    print(f"re-run    {again.unchanged} unchanged, {again.chunks} chunks embedded, {again.seconds:.1f} s")
    if args.keep is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
