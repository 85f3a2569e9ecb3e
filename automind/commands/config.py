"""`automind config show`: the effective configuration and where each value came from."""

from __future__ import annotations

import typer

from automind.commands.common import console, fail, json_help, print_json


def register(app: typer.Typer) -> None:
    group = typer.Typer(help="Inspect the effective configuration.", no_args_is_help=True)

    @group.command("show")
    def show(
        as_json: bool = typer.Option(
            False, "--json", help=json_help("one object per setting (key, value, source)")
        ),
    ) -> None:
        """Print every setting with its source (default, a YAML file, env or cli) and which mode's search
        defaults are active (LLM mode follows the AutoMind paper; offline is tuned for the recipe policy).
        Secrets are masked."""
        from rich.table import Table

        from automind.config import ConfigError, load_config

        try:
            loaded = load_config()
        except ConfigError as e:
            fail(str(e))
        rows = loaded.rows()
        if as_json:
            print_json([{"key": k, "value": v, "source": s} for k, v, s in rows])
            return
        why = "a model is configured" if loaded.mode == "llm" else "no model is configured"
        console.print(
            f"active defaults: [bold]{loaded.mode} mode[/] ({why}; llm.provider={loaded.settings.llm.provider}). "
            "Values you set in a file, the environment or a flag always win."
        )
        table = Table("key", "value")
        table.add_column("source", overflow="fold")  # a YAML path must stay readable in full
        for k, v, s in rows:
            table.add_row(k, str(v), s)
        console.print(table)

    app.add_typer(group, name="config")
