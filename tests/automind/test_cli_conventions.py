"""Every command's --help follows the CLI's conventions; the shared options behave the same everywhere."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from automind.cli import app, command
from automind.commands.common import STORE_HELP

runner = CliRunner()
NO_LLM_EXEMPT = {"llm check": "it tests a model: without one there is nothing to check"}
BUDGETED = ("solve", "bench", "curriculum run")  # commands that run searches against a time budget


def commands(group=None, path=()):
    group = group or command()
    for name, sub in getattr(group, "commands", {}).items():
        if hasattr(sub, "commands"):
            yield from commands(sub, (*path, name))
        else:
            yield " ".join((*path, name)), sub


def visible_options(cmd):
    return [p for p in cmd.params if p.param_type_name == "option" and not p.hidden]


def violations() -> list[str]:
    out: list[str] = []
    for name, cmd in commands():
        for para in (cmd.help or "").split("\n\n"):
            if "\n" in para and not para.lstrip().startswith(("-", "*")):
                out.append(f"{name}: a help paragraph keeps the source's line breaks ({para[:40]!r}...)")
        options = visible_options(cmd)
        names = {o for p in options for o in p.opts}
        for p in cmd.params:
            if p.param_type_name == "argument" and not re.fullmatch(
                r"[A-Z][A-Z0-9_]*(\.\.\.)?", p.metavar or ""
            ):
                out.append(f"{name} {p.name}: argument metavar {p.metavar!r} is not upper case")
        for p in options:
            opt = f"{name} {'/'.join(p.opts)}"
            if not p.help:
                out.append(f"{opt}: no help")
            shown = (
                p.is_flag
                or p.required
                or isinstance(p.show_default, str)
                or (p.default is not None and p.show_default is not False)
                or "default" in (p.help or "").lower()
            )
            if not shown:
                out.append(f"{opt}: its default is not shown (show_default=...)")
            if not p.is_flag and not re.fullmatch(
                r"[A-Z][A-Z0-9_.,|:]*|[a-z0-9-]+(\|[a-z0-9-]+)+", p.metavar or ""
            ):
                out.append(f"{opt}: metavar {p.metavar!r} is neither upper case nor a list of values")
            if "--json" in p.opts and not re.match(r"Print .*JSON", p.help or ""):
                out.append(f"{opt}: --json help must say what it prints ('Print ... as JSON')")
            if "--store" in p.opts and p.help.replace("\\[", "[") != STORE_HELP:
                out.append(f"{opt}: --store help differs from commands.common.STORE_HELP")
            if any("budget" in o for o in p.opts):
                out.append(f"{opt}: a wall-clock budget is --time-limit (keep the old name hidden)")
        if "--llm" in names and "--no-llm" not in names and name not in NO_LLM_EXEMPT:
            out.append(f"{name}: takes --llm but not --no-llm")
        if name in BUDGETED and "--time-limit" not in names:
            out.append(f"{name}: no --time-limit")
    return out


def test_every_command_follows_the_help_conventions():
    found = list(commands())
    assert len(found) > 20 and {n for n, _ in found} >= set(BUDGETED)
    assert violations() == []


@pytest.mark.parametrize("name", [n for n, _ in commands()])
def test_every_help_renders(name):
    res = runner.invoke(app, [*name.split(), "--help"], terminal_width=120)
    assert res.exit_code == 0 and "Usage:" in res.output, res.output
    assert "<bool>" not in res.output and "<int>" not in res.output and "<str>" not in res.output


def test_help_shows_brackets_as_typed():
    res = runner.invoke(app, ["bench", "--help"], terminal_width=200)
    assert 'pip install "automind[ray]"' in res.output


@pytest.fixture
def captured(monkeypatch):
    seen: dict = {}

    def bench(tasks, out, names, seeds, overrides, **kw):
        seen["overrides"] = overrides
        return []

    def curriculum(tasks_dir, out, solve, embed, **kw):
        seen["curriculum"] = True
        raise FileNotFoundError("stop here")

    monkeypatch.setattr("automind.benchmark.run_bench", bench)
    monkeypatch.setattr("automind.benchmark.find_tasks", lambda d: [d])
    monkeypatch.setattr("automind.curriculum.run_curriculum", curriculum)
    monkeypatch.setattr("automind.store.get_embedder", lambda name: type("E", (), {"embed": None})())
    monkeypatch.setattr(
        "automind.commands.experience.settings", lambda o=None: seen.setdefault("settings", o)
    )
    return seen


@pytest.mark.parametrize(
    "args,time_limit,provider",
    [
        (["bench", "T", "--time-limit", "40", "--json"], 40.0, None),
        (["bench", "T", "--budget", "50", "--no-llm", "--json"], 50.0, "none"),  # the old name still works
        (["curriculum", "run", "T", "--budget-per-task", "60", "--no-llm"], 60.0, "none"),
        (["curriculum", "run", "T", "--time-limit", "70", "--llm", "none"], 70.0, "none"),
    ],
)
def test_time_limit_and_no_llm_reach_the_solves(args, time_limit, provider, captured, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "T").mkdir()
    res = runner.invoke(app, args)
    overrides = captured["settings"]
    assert overrides["search.time_limit_s"] == time_limit and overrides.get("llm.provider") == provider, (
        res.output
    )


@pytest.mark.parametrize(
    "args,message",
    [
        (["solve", "x", "--no-llm", "--llm", "openai"], "--no-llm and --llm openai contradict each other"),
        (["bench", "T", "--time-limit", "40", "--budget", "50"], "--time-limit 40 and --budget 50 disagree"),
    ],
)
def test_contradicting_options_are_clear_errors(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "T").mkdir()
    res = runner.invoke(app, args)
    assert res.exit_code == 1 and message in " ".join(res.output.split())


def test_ray_without_the_package_names_the_extra(captured, tmp_path, monkeypatch):
    import sys

    monkeypatch.chdir(tmp_path)
    (tmp_path / "T").mkdir()
    monkeypatch.setitem(sys.modules, "ray", None)  # as if ray were not installed
    res = runner.invoke(app, ["bench", "T", "--ray", "local"])
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert "--ray needs the 'ray' package, not installed: pip install \"automind[ray]\"" in res.output
