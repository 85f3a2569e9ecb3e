"""The `automind` command line: a thin shell that registers each area's commands.

Command modules import only typer/rich at module level so `automind --help` stays fast;
heavy libraries (torch, chromadb, lightgbm) are imported inside the commands that use them.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="automind",
    help="Solve Kaggle-style data-science tasks with knowledgeable tree search.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)


def _print_version(value: bool) -> None:
    if value:
        import automind

        typer.echo(f"automind {automind.__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(
        False, "--version", is_eager=True, callback=_print_version, help="Print automind's version and exit."
    ),
) -> None:
    """Options of `automind` itself (before any command)."""


# Each module defines register(app). Order is the order of `automind --help`.
COMMAND_MODULES = [
    "solve",
    "task",
    "examples",
    "grade",
    "exec",
    "env",
    "knowledge",
    "retrieval",
    "llm",
    "experience",
    "config",
]


def _register_all() -> None:
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"automind.commands.{name}")
        except ModuleNotFoundError as e:
            if e.name == f"automind.commands.{name}":
                continue  # area not built yet
            raise
        module.register(app)


_register_all()


def main() -> None:
    app()
