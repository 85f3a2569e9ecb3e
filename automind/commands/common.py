"""Helpers shared by the command modules: config loading, console, error exits."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console

# The --llm option's help, declared once for every command that takes it (forms from automind.config).
LLM_HELP = (
    "Which model: auto (OpenAI-compatible if OPENAI_API_KEY / OPENAI_BASE_URL is set, else none) | none "
    "(offline recipe policy) | openai | openai:MODEL | replay:PATH (answers from a cassette) | "
    "record:PATH (a real model, recorded)."
)

# Help texts every command shares, declared once so the wording is the same everywhere.
STORE_HELP = (
    "Store: a folder, or http(s)://HOST:PORT of a chroma server. Default: the knowledge.store setting "
    "(AUTOMIND_STORE); experience commands use experience.store first when it is set."
)
TIME_LIMIT_HELP = "Wall-clock budget in seconds: the search stops at its step budget or at this limit, whichever comes first."
NO_LLM_HELP = "No language model: the offline recipe policy (the same as --llm none)."


def timeout_option(help: str) -> Any:
    """--timeout of the commands that run a script in the sandbox (exec, env)."""
    return typer.Option(
        None, "--timeout", metavar="SECONDS", help=help, show_default="sandbox.timeout_s setting"
    )


def memory_option(help: str) -> Any:
    """--memory-mb of the commands that run a script in the sandbox (exec, env)."""
    return typer.Option(
        None, "--memory-mb", metavar="MB", help=help, show_default="sandbox.memory_mb setting"
    )


def json_help(what: str) -> str:
    """The --json option's help: what it prints (stdout then holds only that JSON)."""
    return f"Print {what} as JSON instead of the table; stdout holds only the JSON."


def llm_spec(llm: str | None, no_llm: bool) -> str | None:
    """--llm and --no-llm as one value (None: the llm.provider setting); both at once must agree."""
    if not no_llm:
        return llm
    if llm not in (None, "none"):
        fail(f"--no-llm and --llm {llm} contradict each other: pass one of them.")
    return "none"


console = Console()
err_console = Console(stderr=True)


def fail(message: str, code: int = 1) -> NoReturn:
    """Print a specific error (what, where, what to do) and exit non-zero."""
    from rich.markup import escape  # a message may hold brackets: automind[wordllama], paths, lists

    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def own_out_folder(out: Path, state: str, option: str = "--out") -> None:
    """Fail unless `out` is new, empty, or a folder this command made before (it holds `state`): the command
    writes its tables and runs there and would replace a user's files of the same names."""
    from automind.run_setup import unowned_contents

    if out.exists() and not out.is_dir():
        fail(f"{option} {out}: exists and is not a folder. Pass a new or empty folder.")
    if shown := unowned_contents(out, state):
        fail(
            f"{option} {out}: not empty ({shown}) and holds no {state}, so it is not a folder this command "
            "made; its files could be replaced. Pass a new or empty folder, or the folder of an earlier run "
            "to resume it."
        )


def refuse_existing_file(path: Path, force: bool) -> None:
    """An output file given on the command line never silently replaces a file that is already there."""
    if not force and path.exists() and not path.is_dir():
        fail(f"{path} already exists. Pass --force to replace it, or give a new file name.")


FORCE_FILE_HELP = "Replace the output file when it already exists."


@contextlib.contextmanager
def signals_interrupt() -> Iterator[list[str]]:
    """SIGTERM and SIGHUP (a scheduler, `timeout`, a closed terminal) end the command like Ctrl-C, so its
    cleanup happens: the sandbox's tree kill and workspace removal, a run's "interrupted" state. Yields the
    names of the signals received (a run catches the interrupt itself, so its exit code is chosen after)."""
    import signal

    received: list[str] = []

    def handler(signum: int, _frame: object) -> None:
        received.append(signal.Signals(signum).name)
        raise KeyboardInterrupt(received[-1])

    previous = {s: signal.signal(s, handler) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield received
    finally:
        for s, h in previous.items():
            signal.signal(s, h)


def interrupt_code(received: list[str]) -> int:
    """The shell's exit code for the first signal received: 128 + its number (130 for Ctrl-C)."""
    import signal

    return 128 + signal.Signals[received[0] if received else "SIGINT"]


def note(message: str) -> None:
    """One line on stderr (so --json output stays parseable): what was done on the user's behalf, and where."""
    err_console.print(f"[dim]note:[/] {message}", highlight=False, soft_wrap=True)


def settings(overrides: dict[str, Any] | None = None):
    """Load the layered config, turning a bad config into a clear CLI error."""
    from automind.config import ConfigError, load_config

    try:
        return load_config(overrides).settings
    except ConfigError as e:
        fail(str(e))


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, default=str) + "\n")
