"""`automind ingest` and `automind knowledge stats|export|rm`: fill and look after the knowledge store."""

from __future__ import annotations

import fnmatch
import json
from collections import Counter
from pathlib import Path
from typing import IO

import typer

from automind.atomic import write_with
from automind.commands.common import STORE_HELP, console, fail, json_help, print_json, settings

knowledge_app = typer.Typer(help="Inspect and maintain the knowledge store.", no_args_is_help=True)


def _open(store: str | None, embedder: str | None, strict: bool = True):
    from automind.store import Store, StoreError

    s = settings()
    try:
        return Store.open(store or s.knowledge.store, embedder or s.knowledge.embedder, strict=strict)
    except (StoreError, ValueError) as e:
        fail(str(e))


def ingest_cmd(
    sources: list[str] = typer.Argument(..., help="Files, folders or URLs to ingest."),
    kind: str = typer.Option(
        "auto", "--kind", help="auto|posts|competitions|papers|cards|jsonl|solutions-index"
    ),
    store: str | None = typer.Option(None, "--store", help=STORE_HELP),
    labeler: str | None = typer.Option(
        None, "--labeler", help="auto|llm|embedding (default: knowledge.labeler)"
    ),
    embedder: str | None = typer.Option(
        None, "--embedder", help="minilm|wordllama|hash (default: knowledge.embedder)"
    ),
    dry_run: bool = typer.Option(
        False, "--dry-run", help="Load and chunk, report what would change, write nothing."
    ),
    fetch_links: bool = typer.Option(
        False, "--fetch-links", help="solutions-index: also fetch linked write-ups."
    ),
    as_json: bool = typer.Option(
        False, "--json", help=json_help("the ingest report (added, updated, failed...)")
    ),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show progress bars."),
) -> None:
    """Ingest Kaggle write-ups, competitions, papers, solution indexes and cards into the store."""
    from automind.ingest import IngestError, ensure_cards, ingest
    from automind.ingest.loaders import KINDS
    from automind.store import StoreError

    if kind not in KINDS:
        fail(f"unknown --kind {kind!r}; choose one of: {', '.join(KINDS)}")
    s = settings({"knowledge.store": store, "knowledge.embedder": embedder, "knowledge.labeler": labeler})
    st = _open(s.knowledge.store, s.knowledge.embedder)
    try:
        cards = None if dry_run else ensure_cards(st, settings=s)
        report = ingest(
            sources,
            kind=kind,
            store=st,
            labeler=s.knowledge.labeler,
            dry_run=dry_run,
            progress=progress and not as_json,
            settings=s,
            fetch_links=fetch_links,
        )
    except (IngestError, StoreError) as e:
        fail(str(e))
    ok_docs = report.added + report.updated + report.unchanged
    if as_json:
        out = report.to_dict()
        out["store"] = st.location
        out["cards_ingested"] = (cards.added + cards.updated) if cards else 0
        print_json(out)
    else:
        _print_report(report, st.location, cards)
    if report.failed and ok_docs == 0:
        raise typer.Exit(1)


def _print_report(report, location: str, cards) -> None:
    from rich.table import Table

    title = f"ingest {'(dry run) ' if report.dry_run else ''}into {location}"
    table = Table(
        "added", "updated", "unchanged", "failed", "chunks", "stale removed", "seconds", title=title
    )
    table.add_row(
        str(report.added),
        str(report.updated),
        str(report.unchanged),
        str(len(report.failed)),
        str(report.chunks),
        str(report.removed),
        f"{report.seconds:.1f}",
    )
    console.print(table)
    if report.by_kind:
        console.print(
            "documents by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(report.by_kind.items()))
        )
    if cards is not None:
        console.print(f"shipped cards (re)ingested: {cards.added + cards.updated}")
    if report.failed:
        failed = Table("source", "reason", title="failed (skipped)", title_style="bold red")
        for src, reason in report.failed:
            failed.add_row(src, reason)
        console.print(failed)


@knowledge_app.command("stats")
def stats(
    store: str | None = typer.Option(None, "--store", help=STORE_HELP),
    as_json: bool = typer.Option(False, "--json", help=json_help("{store, kinds: {kind: counts}}")),
) -> None:
    """Chunk and document counts per kind, and chunks per top category."""
    st = _open(store, None, strict=False)
    out: dict[str, dict] = {}
    for kind in st.kinds():
        records = st.get(kind, include_documents=False)
        meta = st.meta(kind)
        out[kind] = {
            "chunks": len(records),
            "documents": len({r.metadata.get("source") for r in records}),
            "embedder": meta.get("embedder"),
            "by_category": dict(
                Counter(r.metadata.get("top_label") or "(none)" for r in records).most_common()
            ),
        }
    if as_json:
        print_json({"store": st.location, "kinds": out})
        return
    from rich.table import Table

    if not out:
        console.print(f"store {st.location} is empty; fill it with `automind ingest PATH`")
        return
    table = Table("kind", "documents", "chunks", "embedder", title=f"knowledge store {st.location}")
    for kind, row in out.items():
        table.add_row(kind, str(row["documents"]), str(row["chunks"]), str(row["embedder"]))
    console.print(table)
    cats: Counter = Counter()
    for row in out.values():
        cats.update(row["by_category"])
    by_cat = Table("top category", "chunks", title="chunks by top category")
    for cat, n in cats.most_common():
        by_cat.add_row(cat, str(n))
    console.print(by_cat)


@knowledge_app.command("export")
def export(
    path: Path = typer.Argument(..., help="Output JSONL file (one chunk per line, no embeddings)."),
    store: str | None = typer.Option(None, "--store", help=STORE_HELP),
    kind: str | None = typer.Option(
        None, "--kind", help="Only this kind (cards, posts, competitions, ...).", show_default="every kind"
    ),
) -> None:
    """Write every chunk with its metadata as JSON lines."""
    st = _open(store, None, strict=False)
    kinds = [kind] if kind else st.kinds()
    if kind and kind not in st.kinds():
        fail(f"no '{kind}' collection in {st.location}; present: {', '.join(st.kinds()) or 'none'}")
    n = 0

    def write(f: IO[str]) -> None:
        nonlocal n
        for k in kinds:
            for r in st.get(k):
                f.write(
                    json.dumps({"id": r.id, "kind": k, "document": r.document, "metadata": r.metadata}) + "\n"
                )
                n += 1

    write_with(path, write)
    console.print(f"exported {n} chunks from {len(kinds)} collection(s) to {path}")


@knowledge_app.command("rm")
def rm(
    source: str = typer.Option(
        ..., "--source", help="Glob on the source (path, URL or card:ID), e.g. '*kaggle-posts*'."
    ),
    store: str | None = typer.Option(None, "--store", help=STORE_HELP),
    kind: str | None = typer.Option(None, "--kind", help="Only this kind.", show_default="every kind"),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
) -> None:
    """Remove every chunk whose source matches PATTERN."""
    st = _open(store, None, strict=False)
    matches: dict[str, dict[str, list[str]]] = {}
    for k in [kind] if kind else st.kinds():
        for r in st.get(k, include_documents=False):
            src = str(r.metadata.get("source", ""))
            if fnmatch.fnmatchcase(src, source):
                matches.setdefault(k, {}).setdefault(src, []).append(r.id)
    n_chunks = sum(len(ids) for by_src in matches.values() for ids in by_src.values())
    if not n_chunks:
        console.print(f"nothing matches --source {source!r} in {st.location}")
        return
    for k, by_src in matches.items():
        for src, ids in sorted(by_src.items()):
            console.print(f"  {k}: {src} ({len(ids)} chunks)", highlight=False, soft_wrap=True)
    n_sources = sum(len(v) for v in matches.values())
    if not yes:
        typer.confirm(f"Remove {n_chunks} chunks from {n_sources} sources?", abort=True)
    removed = sum(
        st.delete(k, ids=[i for ids in by_src.values() for i in ids]) for k, by_src in matches.items()
    )
    console.print(f"removed {removed} chunks from {n_sources} sources")


def register(app: typer.Typer) -> None:
    app.command("ingest")(ingest_cmd)
    app.add_typer(knowledge_app, name="knowledge")
