"""A scripted episode: the protocol in action, played by automind's offline recipe policy as the agent.

The agent side (which code to try) comes from `RecipeRoles`, the same policy `automind solve --llm none`
uses; the environment side is a plain TaskEnv. `automind env demo` prints these steps, and
`bench/env_overhead.py` plays a longer episode with the same helpers.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from automind.config import Settings
    from automind.env.core import TaskEnv
    from automind.task import Task


@dataclass
class Step:
    """One played step: what was sent and what came back."""

    index: int
    action: dict[str, Any]
    observation: dict[str, str]
    reward: float
    terminated: bool
    truncated: bool
    info: dict[str, Any]
    wall_s: float


def recipe_drafts(task: Task, settings: Settings, n: int) -> list[tuple[str, str]]:
    """Up to n (title, code) drafts from the recipe policy, each a different base recipe for the task."""
    from automind.recipes import RecipeRoles
    from automind.roles import Context

    roles = RecipeRoles(settings)
    out: list[tuple[str, str]] = []
    memory: list[str] = []
    for i in range(n):
        ctx = Context(task=task, action="draft", analysis="", memory=list(memory), seed=i)
        plan = roles.plan(ctx)
        title = plan.summary or plan.text.splitlines()[0]
        if any(title == t for t, _ in out):  # the policy cycles once every base recipe was tried
            break
        out.append((title, roles.code(ctx, plan)))
        memory.append(f"{title} -> tried")
    return out


def baseline_draft(task: Task, settings: Settings) -> tuple[str, str]:
    """The recipe policy's simplest draft for the task: its baseline recipe when one applies, else the first."""
    drafts = recipe_drafts(task, settings, 6)
    return next((d for d in drafts if "baseline" in d[0].lower()), drafts[0])


def play(env: TaskEnv, actions: list[dict[str, Any]]) -> Iterator[Step]:
    """Reset, then send each action; stops early when the episode is truncated."""
    import time

    obs, info = env.reset(seed=0)
    yield Step(0, {"action": "reset"}, obs, 0.0, False, False, info, 0.0)
    for i, act in enumerate(actions, 1):
        t0 = time.perf_counter()
        obs, reward, term, trunc, info = env.step(act)
        yield Step(i, act, obs, reward, term, trunc, info, time.perf_counter() - t0)
        if term or trunc:
            return


def short_episode(code: str) -> list[dict[str, Any]]:
    """request_info (metric, data), validate the script, execute it, get_history."""
    return [
        {"action": "request_info", "kind": "metric"},
        {"action": "request_info", "kind": "data"},
        {"action": "validate_code", "code": code},
        {"action": "execute_code", "code": code},
        {"action": "get_history"},
    ]


def describe(action: dict[str, Any]) -> str:
    """An action call in one line, with code shown by size rather than in full."""
    args = []
    for k, v in action.items():
        if k == "action":
            continue
        if k == "code" and isinstance(v, str):
            args.append(f"code=<{len(v.splitlines())} lines>")
        else:
            args.append(f"{k}={v!r}")
    return f"{action.get('action')}({', '.join(args)})"
