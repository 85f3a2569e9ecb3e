"""`automind tips TASK` and `automind knowledge query TEXT`: ask the knowledge base without solving."""

from __future__ import annotations

import contextlib
import re
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import typer

from automind.commands.common import STORE_HELP, console, fail, json_help, print_json, settings
from automind.commands.common import note as announce

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID


def _load_task(arg: str) -> tuple[Any, Any, list[str]]:
    """(task, analysis or None, notes). Any folder with a description.md will do; data is optional.

    A task seen before, whose files have not changed, comes from a small cache under the automind
    home (its spec facts and data analysis): validating and analysing it again imports pandas, which
    cost more than the whole knowledge lookup.
    """
    from automind.task import Task, TaskError

    notes: list[str] = []
    path = Path(arg).expanduser()
    if not path.is_dir():
        from automind.examples import resolve_task

        try:
            path = Path(resolve_task(arg, on_build=announce))
        except Exception as e:  # ExampleError and friends carry a what-to-do message
            fail(str(e))
    cached = _TaskCache(path)
    hit = cached.read()
    if hit is not None:
        return hit[0], hit[1], notes
    task: Task | _DescriptionOnly
    try:
        task = Task.load(path)
    except TaskError:
        task = _DescriptionOnly.load(path)
        notes.append("task: no usable data in the folder; labelled from the description only")
        return task, None, notes
    try:
        from automind.analysis import analyze

        analysis = analyze(task)
    except Exception as e:  # noqa: BLE001 - tips still work from the description
        notes.append(f"analysis: failed ({type(e).__name__}: {e}); labelled from the description only")
        return task, None, notes
    cached.write(task, analysis)
    return task, analysis, notes


class _TaskCache:
    """What tips needs of a valid task (spec facts, data analysis), keyed by the task's file stamps."""

    FILES = ("description.md", "task.yaml", "config.yaml")

    def __init__(self, root: Path):
        import hashlib

        from automind.embedders import automind_home

        self.root = root.resolve()
        key = hashlib.sha1(str(self.root).encode()).hexdigest()[:16]
        self.path = automind_home() / "cache" / "tasks" / f"{key}.json"

    def stamp(self) -> str:
        from automind.analysis import ANALYSIS_VERSION, fingerprint

        parts = [str(ANALYSIS_VERSION), fingerprint(self.root / "public")]
        for name in self.FILES:
            f = self.root / name
            parts.append(f"{name}:{f.stat().st_size}:{f.stat().st_mtime_ns}" if f.is_file() else name)
        return "|".join(parts)

    def read(self) -> tuple[Any, Any] | None:
        import json

        from automind.analysis import DataAnalysis

        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("stamp") != self.stamp():
                return None
            analysis = DataAnalysis.model_validate(data["analysis"])
            facts = data["task"]
            task = _DescriptionOnly.load(self.root)
            task.name, task.slug = facts["name"], facts["slug"]
            task.spec.metric.name, task.spec.problem_type = facts["metric"], facts["problem_type"]
            return task, analysis
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def write(self, task, analysis) -> None:
        from automind.atomic import write_json

        facts = {
            "name": task.name,
            "slug": task.slug,
            "metric": task.spec.metric.name,
            "problem_type": task.spec.problem_type,
        }
        data = {"stamp": self.stamp(), "task": facts, "analysis": analysis.model_dump(mode="json")}
        with contextlib.suppress(OSError):  # a read-only home only costs the re-analysis next time
            write_json(self.path, data, indent=None)


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


def _kb(store: str | None, no_llm: bool, show: bool = True):
    """Open the knowledge base, saying what a first use does (preparing the model, seeding cards).

    An explicit --store must already hold a store: a read command never creates one at a mistyped path.
    """
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
        return open_knowledge(s, llm=llm, create=store is None, show=show)
    except (StoreError, ValueError) as e:
        fail(str(e))


def open_knowledge(s, llm=None, create: bool = True, show: bool = True):
    """KnowledgeBase.open, saying on stderr what the slow first-use steps are doing."""
    from automind.embedders import EmbedderUnavailable, get_embedder, is_loaded, needs_preparing
    from automind.retrieval import KnowledgeBase
    from automind.store import Store, StoreError

    name = s.knowledge.embedder
    store = Store.open(s.knowledge.store, name, create=create, timeout=s.knowledge.timeout_s, lazy=True)
    first_use = FirstUse(show)

    def load_model():
        """The model, loaded on first need only (a task asked about before needs none)."""
        if is_loaded(name):
            return get_embedder(name)
        what = (
            "preparing the MiniLM embedding model for fast CPU use (once per machine, ~20 s)"
            if needs_preparing(name)
            else f"loading the {name} embedding model"
        )
        with first_use.step(what):
            try:
                return get_embedder(name, notify=first_use.note)
            except EmbedderUnavailable as e:
                raise StoreError(str(e)) from e

    store.load_embedder = load_model
    try:
        return KnowledgeBase.open(s, store=store, llm=llm, on_seed=first_use.seeding)
    finally:
        first_use.close()


class FirstUse:
    """Progress for slow first-use steps on stderr: a spinner or bar on a terminal, plain lines otherwise."""

    def __init__(self, show: bool):
        from automind.commands.common import err_console

        self.show, self.console = show, err_console
        self.bar: Progress | Literal["plain"] | None = None
        self.task: TaskID | None = None
        self.total = 0

    @contextmanager
    def step(self, message: str):
        if not self.show:
            yield
        elif self.console.is_terminal:
            with self.console.status(message, spinner="dots"):
                yield
        else:
            self.console.print(f"{message} ...", highlight=False)
            yield

    def note(self, message: str) -> None:
        """What the model loader says: its notes (a fallback) are shown; its progress the step already says."""
        if message.startswith("note:"):
            self.console.print(message, highlight=False, markup=False)

    def seeding(self, done: int, total: int) -> None:
        if not self.show:
            return
        self.total = total
        if self.bar is None:
            what = f"seeding the {total} shipped knowledge cards into the store (first use)"
            if not self.console.is_terminal:
                self.console.print(f"{what} ...", highlight=False)
                self.bar = "plain"
                return
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            self.bar = Progress(
                TextColumn(what), BarColumn(), MofNCompleteColumn(), console=self.console, transient=True
            )
            self.bar.start()
            self.task = self.bar.add_task("cards", total=total)
        if self.bar != "plain":
            assert self.task is not None  # added with the bar
            self.bar.update(self.task, completed=done, total=total)

    def close(self) -> None:
        if self.bar == "plain":
            self.console.print(f"seeded {self.total} cards", highlight=False)
        elif self.bar is not None:
            self.bar.stop()


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
        from automind.store import StoreError

        t, analysis, notes = _load_task(task)
        kb = _kb(store, no_llm, show=not as_json)
        try:
            result = kb.tips(t, analysis=analysis, k=k, use_llm=not no_llm)
        except StoreError as e:
            fail(str(e))
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
        from automind.store import StoreError

        if not text.strip():
            fail('empty query: say what to look for, e.g. automind knowledge query "target encoding leakage"')
        kb = _kb(store, no_llm=True, show=not as_json)
        try:
            hits = kb.query(text, k=k, category=category, kind=kind)
        except (ValueError, StoreError) as e:
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
