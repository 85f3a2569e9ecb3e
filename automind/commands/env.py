"""`automind env demo|actions`: the interactive task environment (automind.env) from the command line."""

from __future__ import annotations

from pathlib import Path

import typer

from automind.commands.common import console, json_help, memory_option, print_json, timeout_option
from automind.commands.grade import LEADERBOARD_HELP


def register(app: typer.Typer) -> None:
    group = typer.Typer(
        help="The interactive task environment (MLE-Dojo protocol; see docs/env.md).", no_args_is_help=True
    )

    @group.command("demo")
    def demo(
        task: str = typer.Argument(..., help="Task folder or bundled example name."),
        leaderboard: Path | None = typer.Option(
            None, "--leaderboard", metavar="CSV", help=LEADERBOARD_HELP, show_default="the task's own, if any"
        ),
        timeout: float | None = timeout_option("Per-execution limit in seconds."),
        memory_mb: int | None = memory_option("Per-execution memory limit."),
        as_json: bool = typer.Option(
            False, "--json", help=json_help("the transcript (each action, its observation and reward)")
        ),
    ) -> None:
        """Play a short scripted episode and print every step: request_info, validate and execute a
        baseline script (from the offline recipe policy), get_history."""
        from automind.commands.common import settings as load_settings
        from automind.commands.grade import load_task
        from automind.env.core import Limits, TaskEnv
        from automind.env.demo import baseline_draft, describe, play, short_episode

        cfg = load_settings()
        t = load_task(task, leaderboard)
        env = TaskEnv(t, settings=cfg, limits=Limits(exec_timeout_s=timeout, memory_mb=memory_mb))
        title, code = baseline_draft(t, cfg)
        steps = []
        try:
            for s in play(env, short_episode(code)):
                if as_json:
                    steps.append({"step": s.index, "action": describe(s.action), "observation": s.observation,
                                  "reward": s.reward, "terminated": s.terminated, "truncated": s.truncated,
                                  "info": s.info, "wall_s": round(s.wall_s, 3)})  # fmt: skip
                else:
                    _print_step(s, title)
        finally:
            env.close()
        if as_json:
            print_json({"task": t.name, "script": title, "steps": steps})

    @group.command("actions")
    def actions() -> None:
        """Print the actions as JSON tools (OpenAI function-calling format), ready for an LLM's context."""
        from automind.env.builtin import default_actions

        print_json([spec.tool() for spec in default_actions().values()])

    app.add_typer(group, name="env")


def _print_step(s, title: str) -> None:
    from rich.panel import Panel
    from rich.text import Text

    from automind.env.demo import describe

    call = describe(s.action)
    if "code" in s.action:
        call += f"  [dim]# {title}[/]"
    status = s.observation["status"]
    color = "green" if status == "ok" else "red"
    meta = f"reward {s.reward:g}, {s.info.get('reward_kind', 'none')}"
    if s.index:
        meta += f", steps left {s.info.get('steps_left')}, {s.wall_s:.2f} s"
    if s.truncated:
        meta += ", [yellow]truncated[/]"
    text = s.observation["text"]
    if len(text) > 3000:
        text = text[:1500] + f"\n... [{len(text) - 3000} characters not shown] ...\n" + text[-1500:]
    console.print(f"[bold]step {s.index}[/] {call}", soft_wrap=True, highlight=False)
    console.print(
        Panel(Text(text), title=f"[{color}]{status}[/] · {meta}", title_align="left"), highlight=False
    )
