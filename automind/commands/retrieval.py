"""`automind tips TASK` and `automind knowledge query TEXT`: ask the knowledge base without solving."""

from __future__ import annotations

import re
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import typer

from automind.commands.common import STORE_HELP, console, fail, json_help, print_json, settings
from automind.commands.common import note as announce


def _load_task(arg: str) -> tuple[Any, Any, list[str]]:
    """(task, analysis or None, notes). Any folder with a description.md will do; data is optional."""
    from automind.task import Task, TaskError

    notes: list[str] = []
    path = Path(arg).expanduser()
    if not path.is_dir():
        from automind.examples import resolve_task

        try:
            path = Path(resolve_task(arg, on_build=announce))
        except Exception as e:  # ExampleError and friends carry a what-to-do message
            fail(str(e))
    try:
        task = Task.load(path)
    except TaskError:
        task = _DescriptionOnly.load(path)
        notes.append("task: no usable data in the folder; labelled from the description only")
        return task, None, notes
    try:
        from automind.analysis import analyze

        return task, analyze(task), notes
    except Exception as e:  # noqa: BLE001 - tips still work from the description
        notes.append(f"analysis: failed ({type(e).__name__}: {e}); labelled from the description only")
        return task, None, notes


class _DescriptionOnly:
    """Just enough of a Task (description, name, slug, metric) for a folder without data."""

    def __init__(self, root: Path, description: str, name: str, slug: str, metric: str | None):
        from types import SimpleNamespace

        self.root, self.description, self.name, self.slug = root, description, name, slug
        self.spec = SimpleNamespace(
            metric=SimpleNamespace(name=metric), problem_type=None, name=name, slug=slug
        )

    @classmethod
    def load(cls, root: Path) -> _DescriptionOnly:
        import yaml

        desc = root / "description.md"
        if not desc.is_file():
            fail(
                f"{root}: no description.md. Add the task description in Markdown (see docs/task-format.md)."
            )
        meta: dict[str, Any] = {}
        for name in ("task.yaml", "config.yaml"):
            if (root / name).is_file():
                try:
                    meta = yaml.safe_load((root / name).read_text(encoding="utf-8")) or {}
                except yaml.YAMLError:
                    meta = {}
                break
        metric = meta.get("metric") or (meta.get("grader") or {}).get("name")
        if isinstance(metric, dict):
            metric = metric.get("name")
        slug = str(meta.get("slug") or meta.get("id") or root.name)
        name = str(meta.get("name") or root.name)
        return cls(root, desc.read_text(encoding="utf-8", errors="replace"), name, slug, metric)


def _kb(store: str | None, no_llm: bool):
    from automind.retrieval import KnowledgeBase
    from automind.store import StoreError

    s = settings({"knowledge.store": store})
    llm = None
    if not no_llm:
        try:
            from automind.llm import make_llm

            llm = make_llm(s)
        except Exception as e:  # noqa: BLE001 - a broken LLM config must not hide the offline tips
            console.print(f"[yellow]LLM unavailable ({e}); using the offline path[/]")
    try:
        return KnowledgeBase.open(s, llm=llm)
    except (StoreError, ValueError) as e:
        fail(str(e))


def _label_row(lb) -> str:
    return f"{lb.top}" + (f" / {lb.sub}" if lb.sub else "") + f"  ({lb.score:.2f})"


def register(app: typer.Typer) -> None:
    @app.command("tips")
    def tips_cmd(
        task: str = typer.Argument(..., help="Task folder (description.md; data optional) or example name."),
        k: int = typer.Option(10, "--k", min=1, max=50, help="How many tricks."),
        as_json: bool = typer.Option(
            False, "--json", help=json_help("{task, labels, tricks, fallbacks, timings}")
        ),
        no_llm: bool = typer.Option(
            False, "--no-llm", help="Offline labelling and tricks even if an LLM is set."
        ),
        store: str | None = typer.Option(None, "--store", help=STORE_HELP),
    ) -> None:
        """Label a task with the taxonomy and list the tricks that apply, with where each came from."""
        t, analysis, notes = _load_task(task)
        kb = _kb(store, no_llm)
        with console.status("searching the knowledge base", spinner="dots") if not as_json else nullcontext():
            result = kb.tips(t, analysis=analysis, k=k, use_llm=not no_llm)
        result.fallbacks[:0] = notes
        if as_json:
            print_json({"task": str(t.root), **result.to_dict()})
            return
        console.print(f"[bold]{t.name}[/]  labels:")
        for lb in result.labels:
            console.print(f"  {_label_row(lb)}", highlight=False)
        console.print(f"\n[bold]{len(result.tricks)} tricks[/]")
        for i, tr in enumerate(result.tricks, 1):
            stage = f" [{tr.stage}]" if tr.stage else ""
            recipe = " [green](recipe)[/]" if tr.recipe else ""
            console.print(
                f"{i:>2}. [bold]{tr.title}[/]{stage}{recipe}  score {tr.score:.2f}", highlight=False
            )
            trick = re.search(r"Trick:\s*(.*?)(?:\n(?:Pitfalls|Basis):|$)", tr.text, re.S)  # card text
            body = " ".join((trick.group(1) if trick else tr.text).split())
            console.print(f"    {body[:300]}{'...' if len(body) > 300 else ''}", highlight=False)
            console.print(f"    [dim]{tr.kind} - {tr.source}[/]", highlight=False)
        for note in result.fallbacks:
            console.print(f"[yellow]note:[/] {note}", highlight=False)
        console.print(f"[dim]{result.timings.get('total_s', 0.0) * 1000:.0f} ms[/]")

    from automind.commands.knowledge import knowledge_app

    @knowledge_app.command("query")
    def query_cmd(
        text: str = typer.Argument(..., help="What to look for."),
        k: int = typer.Option(5, "--k", min=1, max=100, help="How many hits."),
        category: str | None = typer.Option(
            None,
            "--category",
            help="Only chunks labelled with this top category.",
            show_default="every category",
        ),
        kind: str | None = typer.Option(
            None,
            "--kind",
            help="Only this collection: cards|posts|papers|competitions|solutions.",
            show_default="all",
        ),
        as_json: bool = typer.Option(
            False, "--json", help=json_help("the hits (id, kind, similarity, metadata, document)")
        ),
        store: str | None = typer.Option(None, "--store", help=STORE_HELP),
    ) -> None:
        """Similarity search over the stored knowledge."""
        kb = _kb(store, no_llm=True)
        try:
            hits = kb.query(text, k=k, category=category, kind=kind)
        except ValueError as e:
            fail(str(e))
        if as_json:
            print_json(
                [
                    {
                        "id": h.id,
                        "kind": h.kind,
                        "similarity": round(h.similarity, 4),
                        "metadata": h.metadata,
                        "document": h.document,
                    }
                    for h in hits
                ]
            )
            return
        if not hits:
            console.print("no hits (is the store empty? fill it with `automind ingest`)")
        for i, h in enumerate(hits, 1):
            meta = h.metadata
            title = meta.get("title") or h.id
            console.print(
                f"{i:>2}. [bold]{title}[/]  {h.kind}  sim {h.similarity:.3f}  [dim]{meta.get('source', '')}[/]",
                highlight=False,
            )
            console.print(f"    {' '.join(h.document.split())[:240]}", highlight=False)
