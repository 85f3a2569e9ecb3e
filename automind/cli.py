"""The `automind` command line: a thin shell that registers each area's commands.

Command modules import only typer/rich at module level so `automind --help` stays fast;
heavy libraries (torch, chromadb, lightgbm) are imported inside the commands that use them.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import typer
from typer.core import TyperGroup


class AutomindGroup(TyperGroup):
    """The root command: built with every subcommand already in place, so it applies the conventions."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        apply_conventions(self)


app = typer.Typer(
    cls=AutomindGroup,
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


# Metavars by value type where a command did not name one: upper case, as in `--steps N`.
TYPE_METAVARS = {"int": "INTEGER", "integer": "INTEGER", "float": "NUMBER", "str": "TEXT", "text": "TEXT",
                 "path": "PATH", "bool": "BOOLEAN", "boolean": "BOOLEAN"}  # fmt: skip


def _type_name(param: Any) -> str:
    """The parameter's value type: typer >= 0.20 describes it itself, older typer through click's type."""
    if hasattr(param, "bare_type"):
        name = param.bare_type()
        return name.removeprefix("list[").removesuffix("]")
    return getattr(getattr(param, "type", None), "name", "text")


def _type_metavar(param: Any) -> str:
    kind = _type_name(param).lower()
    return TYPE_METAVARS.get(kind, kind.upper())


def reflow(text: str) -> str:
    """A docstring's paragraphs as single lines, so the terminal wraps them rather than the source's line
    breaks (lines starting a list item or indented code keep their own line)."""
    out = []
    for para in inspect.cleandoc(text).split("\n\n"):
        lines = para.split("\n")
        if any(ln.startswith(("-", "*", " ")) for ln in lines[1:]):
            out.append(para)
        else:
            out.append(" ".join(ln.strip() for ln in lines))
    return "\n\n".join(out)


def apply_conventions(command: Any) -> Any:
    """The CLI's help conventions, applied to every command at once (those of other areas included).

    Parameters get upper-case metavars when they have none (an argument its name, an option its value
    type; flags none, as they take no value), command help paragraphs are reflowed (`reflow`), and help
    texts are plain text: a bracket such as
    `automind[ray]` is shown as typed, not read as rich markup.
    """
    for sub in getattr(command, "commands", {}).values():
        apply_conventions(sub)
    if getattr(command, "help", None):
        command.help = reflow(command.help)
    params = list(getattr(command, "params", []))
    if hasattr(command, "get_help_option"):
        help_option = command.get_help_option(command.context_class(command))
        params += [help_option] if help_option is not None else []
    for param in params:
        if param.param_type_name == "argument":
            if param.metavar is None:
                param.metavar = param.name.upper() + ("..." if param.nargs == -1 else "")
            if hasattr(param, "display_type_rich"):  # typer >= 0.20 also prints the type beside it
                param.display_type_rich = lambda ctx=None, kind=_type_metavar(param): kind
        elif param.is_flag or getattr(param, "count", False):
            param.metavar = ""
        elif param.metavar is None:
            param.metavar = _type_metavar(param)
        if getattr(param, "help", None):
            param.help = param.help.replace("[", "\\[")
    return command


def command() -> Any:
    """The click command behind `automind` (conventions applied), for tests that walk the command tree."""
    return typer.main.get_command(app)


def main() -> None:
    app()
