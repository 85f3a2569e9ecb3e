"""`automind ingest` and `automind knowledge stats|export|rm`: fill and look after the knowledge store."""

from __future__ import annotations

import fnmatch
import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

import typer
from typer.core import TyperGroup

from automind.atomic import write_with
from automind.commands.common import (
    FORCE_FILE_HELP,
    STORE_HELP,
    console,
    fail,
    json_help,
    print_json,
    refuse_existing_file,
    settings,
)

knowledge_app = typer.Typer(help="Inspect and maintain the knowledge store.", no_args_is_help=True)


class _IngestGroup(TyperGroup):
    """`automind ingest SOURCES...` runs `ingest files`; `automind ingest meta-kaggle [PATH]` its own command."""

    DEFAULT = "files"

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = [self.DEFAULT, *args]
        return super().parse_args(ctx, args)

    def list_commands(self, ctx) -> list[str]:
        return [self.DEFAULT, *(c for c in self.commands if c != self.DEFAULT)]


ingest_app = typer.Typer(
    cls=_IngestGroup,
    no_args_is_help=True,
    help="Ingest knowledge into the store: `automind ingest PATH...` (files, folders, URLs; see "
    "`automind ingest files --help`) or `automind ingest meta-kaggle [PATH]` (Kaggle's solution write-ups).",
)


def _open(store: str | None, embedder: str | None, strict: bool = True, create: bool = True):
    """Open the store; `create=False` (read commands) refuses a location that holds no store."""
    from automind.store import EmbedderUnavailable, Store, StoreError

    s = settings()
    ks = s.knowledge
    try:
        return Store.open(
            store or ks.store, embedder or ks.embedder, strict=strict, create=create, timeout=ks.timeout_s
        )
    except (StoreError, EmbedderUnavailable, ValueError) as e:
        fail(str(e))


def _open_for_reading(store: str | None):
    """The store to read, or None when the default store was never used (nothing to read yet)."""
    from automind.store import is_remote

    if store is None:
        default = settings().knowledge.store
        if not is_remote(default) and not Path(default).expanduser().exists():
            return None
    return _open(store, None, strict=False, create=False)


def write_jsonl_atomically(path: Path, rows: Iterable[dict[str, Any]]) -> int:
    """JSON lines to `path` through the one atomic writer: on any failure nothing is left behind.

    Refuses a folder and says so; an unwritable location is a clear error (fail), not a traceback.
    """

    if path.is_dir():
        fail(f"{path} is a folder; give a file name for the JSONL export, e.g. {path / 'export.jsonl'}")
    n = 0

    def write(f: IO[str]) -> None:
        nonlocal n
        for row in rows:
            f.write(json.dumps(row, default=str) + "\n")
            n += 1

    try:
        write_with(path, write)
    except OSError as e:
        fail(f"cannot write {path}: {e.strerror or e}. Choose a writable location.")
    return n


@ingest_app.command("files")
def ingest_cmd(
    sources: list[str] = typer.Argument(..., help="Files, folders or URLs to ingest."),
    kind: str = typer.Option(
        "auto", "--kind", help="auto|posts|competitions|papers|cards|jsonl|solutions-index|meta-kaggle"
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
    from automind.store import EmbedderUnavailable, StoreError

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
    except (IngestError, StoreError, EmbedderUnavailable) as e:
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
    from automind.ingest.cards import KIND as CARDS
    from automind.store import StoreError

    st = _open_for_reading(store)
    if st is None:
        location = settings().knowledge.store
        if as_json:
            print_json({"store": location, "kinds": {}, "exists": False})
            return
        console.print(
            f"no knowledge store at {location} yet: the shipped cards are seeded on first use "
            "(`automind tips TASK`, `automind solve`, `automind knowledge query TEXT`); "
            "add write-ups and papers with `automind ingest PATH`"
        )
        return
    try:
        out = _stats(st)
    except StoreError as e:
        fail(str(e))
    if as_json:
        print_json({"store": st.location, "kinds": out})
        return

    if not out:
        console.print(
            f"store {st.location} holds no knowledge yet: the shipped cards are seeded on first use "
            "(`automind tips TASK`, `automind knowledge query TEXT`); add write-ups and papers with "
            "`automind ingest PATH`"
        )
        return
    if CARDS not in out:
        console.print("[dim]the shipped cards are not in this store yet; they are seeded on first use[/]")
    _print_stats(st.location, out)


def _stats(st) -> dict[str, dict]:
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
    return out


def _print_stats(location: str, out: dict[str, dict]) -> None:
    from rich.table import Table

    table = Table("kind", "documents", "chunks", "embedder", title=f"knowledge store {location}")
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
    force: bool = typer.Option(False, "--force", help=FORCE_FILE_HELP),
) -> None:
    """Write every chunk with its metadata as JSON lines."""
    from automind.store import StoreError

    if path.is_dir():
        fail(f"{path} is a folder; give a file name for the JSONL export, e.g. {path / 'knowledge.jsonl'}")
    refuse_existing_file(path, force)
    st = _open(store, None, strict=False, create=False)
    try:
        present = st.kinds()
        kinds = [kind] if kind else present
        if kind and kind not in present:
            fail(f"no '{kind}' collection in {st.location}; present: {', '.join(present) or 'none'}")
        rows = (
            {"id": r.id, "kind": k, "document": r.document, "metadata": r.metadata}
            for k in kinds
            for r in st.get(k)
        )
        n = write_jsonl_atomically(path, rows)
    except StoreError as e:
        fail(str(e))
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
    st = _open(store, None, strict=False, create=False)
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


@ingest_app.command("meta-kaggle")
def meta_kaggle_cmd(
    path: Path | None = typer.Argument(
        None,
        metavar="PATH",
        help="Folder with the Meta Kaggle CSVs (Competitions, ForumTopics, ForumMessages; Forums optional). "
        "Without it the tables are downloaded once with your Kaggle credentials into the automind home.",
    ),
    limit: int | None = typer.Option(
        None,
        "--limit",
        min=1,
        metavar="N",
        help="At most N write-ups (the best placed first): a small first build.",
        show_default="all",
    ),
    since: int | None = typer.Option(
        None,
        "--since",
        metavar="YEAR",
        help="Only competitions whose deadline year is >= YEAR.",
        show_default="every year",
    ),
    competitions: str | None = typer.Option(
        None,
        "--competitions",
        metavar="SLUG,...",
        help="Only these competition slugs, comma-separated.",
        show_default="every competition",
    ),
    store: str | None = typer.Option(None, "--store", help=STORE_HELP),
    embedder: str | None = typer.Option(
        None, "--embedder", help="minilm|wordllama|hash (default: knowledge.embedder)"
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Select and convert, report, write nothing."),
    as_json: bool = typer.Option(
        False, "--json", help=json_help("the ingest report (write-ups selected, chunks written, skipped)")
    ),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show progress bars."),
) -> None:
    """Ingest Kaggle's solution write-ups ("1st place solution", "top-5 solution", ...) from Meta Kaggle."""
    from automind.ingest import IngestError, ensure_cards
    from automind.ingest.loaders.meta_kaggle import MetaKaggleOptions
    from automind.ingest.meta_kaggle import ingest_meta_kaggle
    from automind.store import EmbedderUnavailable, StoreError

    if path is not None and not path.is_dir():
        fail(
            f"{path}: not a folder. Pass the folder that holds the Meta Kaggle CSV files, or no PATH to download."
        )
    slugs = frozenset(s.strip() for s in (competitions or "").split(",") if s.strip())
    options = MetaKaggleOptions(limit=limit, since=since, competitions=slugs)
    s = settings({"knowledge.store": store, "knowledge.embedder": embedder})
    st = _open(s.knowledge.store, s.knowledge.embedder)
    say = (lambda m: None) if as_json else (lambda m: console.print(m, highlight=False))
    try:
        cards = None if dry_run else ensure_cards(st, settings=s)
        report = ingest_meta_kaggle(
            path, st, options, settings=s, progress=progress and not as_json, dry_run=dry_run, notify=say
        )
    except (IngestError, StoreError, EmbedderUnavailable) as e:
        fail(str(e))
    if as_json:
        out = report.to_dict()
        out["store"] = st.location
        print_json(out)
    else:
        _print_report(report, st.location, cards)
    if report.failed and report.added + report.updated + report.unchanged == 0:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.add_typer(ingest_app, name="ingest")
    app.add_typer(knowledge_app, name="knowledge")
