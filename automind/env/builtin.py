"""The five built-in actions (MLE-Dojo's set), registered through the same decorator users use."""

from __future__ import annotations

from typing import Any

from automind.env.actions import REGISTRY, ActionResult, ActionSpec, action
from automind.env.view import INFO_KINDS, EnvView

CODE = {"type": "string", "description": "A complete Python script. It runs with input/ (read-only data), "
        "submission/ and working/ in its working directory."}  # fmt: skip


@action(
    "request_info",
    description="Read about the task: its description, the sample submission, the data layout and sizes, "
    "where to write the output, or the metric and its direction. `kind` selects one (default: all).",
    parameters={
        "type": "object",
        "properties": {"kind": {"type": "string", "enum": list(INFO_KINDS), "description": "Which part."}},
    },
)
def request_info(env: EnvView, kind: str = "all") -> ActionResult:
    return ActionResult(env.info.render(kind), data={"kind": kind})


@action(
    "validate_code",
    description="Check a script quickly: syntax, then a short run in the sandbox (a brief time limit). "
    "Returns the output and errors. Needs no submission and is not scored.",
    parameters={"type": "object", "properties": {"code": CODE}, "required": ["code"]},
)
def validate_code(env: EnvView, code: str) -> ActionResult:
    from automind.coding import syntax_error

    error = syntax_error(code)
    if error:
        return ActionResult(
            f"Syntax check failed: {error}", ok=False, data={"stage": "syntax", "error": error}
        )
    limit = min(env.limits.validate_timeout_s, max(1.0, env.time_left_s()))
    res = env.run(code, timeout_s=limit)
    wrote = (res.workspace / "submission").is_dir() and any((res.workspace / "submission").iterdir())
    data: dict[str, Any] = {"stage": "run", "status": res.status, "exit_code": res.exit_code,
                            "wall_s": round(res.wall_s, 3), "peak_mem_mb": round(res.peak_mem_mb, 1)}  # fmt: skip
    if res.ok:
        head = f"Syntax ok; the run finished in {res.wall_s:.1f} s."
    elif res.status == "timeout":
        head = (
            f"Syntax ok; the check run was stopped after {limit:g} s (validate_code only runs briefly; "
            "execute_code runs with the full time limit). No error before that."
        )
        data["stopped_early"] = True
    else:
        head = f"Syntax ok; the run failed ({res.status}: {res.message})."
    tail = "\nIt wrote files to submission/ (not checked or scored here)." if wrote else ""
    return ActionResult(
        f"{head}{tail}\n\n[output]\n{res.output}".rstrip(), ok=res.ok or res.status == "timeout", data=data
    )


@action(
    "execute_code",
    description="Run a script in full, then check its submission/ file against the task's format and score "
    "it: the metric, the HumanRank on the human leaderboard when there is one, or what is wrong with "
    "the file. Each call is one graded submission.",
    parameters={"type": "object", "properties": {"code": CODE}, "required": ["code"]},
)
def execute_code(env: EnvView, code: str) -> ActionResult:
    from automind.coding import syntax_error
    from automind.env.reward import Reward

    error = syntax_error(code)
    if error:
        reward = Reward(0.0, "none", "not run: syntax error")
        return ActionResult(f"Not run: {error}", ok=False, data={"outcome": "syntax error"}, reward=reward)
    ex = env.execute(code)
    lines = [f"Outcome: {ex.outcome} (status {ex.status}, {ex.wall_s:.1f} s, peak {ex.peak_mem_mb:.0f} MB)."]
    if ex.outcome == "submission invalid":
        lines.append(f"The submission's format is wrong: {ex.reason}")
    elif ex.reason:
        lines.append(ex.reason)
    if ex.score is not None:
        lines.append(f"Score: {ex.score} ({ex.grade.get('metric')}).")
        g = ex.grade
        if g.get("position") is not None:
            lines.append(
                f"Leaderboard: position {g['position']} of {g['leaderboard_teams']} (HumanRank {g['human_rank']}), "
                f"beats {g['beats_pct']} % of teams, medal: {g.get('medal') or 'none'}."
            )
        if g.get("public_position") is not None:
            lines.append(
                f"Public board: position {g['public_position']} of {g['public_leaderboard_teams']} "
                f"(HumanRank {g['public_human_rank']})."
            )
    lines.append(f"Reward: {ex.reward.value} ({ex.reward.kind}: {ex.reward.note}).")
    data = {"outcome": ex.outcome, "score": ex.score, "status": ex.status, "wall_s": round(ex.wall_s, 3),
            "peak_mem_mb": round(ex.peak_mem_mb, 1), "grade": ex.grade}  # fmt: skip
    text = "\n".join(lines) + f"\n\n[output]\n{ex.output}".rstrip()
    return ActionResult(text, ok=ex.outcome == "success", data=data, reward=ex.reward)


@action(
    "get_history",
    description="List the earlier steps of this episode: action, outcome, score and reward.",
    parameters={
        "type": "object",
        "properties": {"last": {"type": "integer", "description": "Only the last N steps (default: all)."}},
    },
)
def get_history(env: EnvView, last: int = 0) -> ActionResult:
    steps = env.history()
    shown = steps[-last:] if last and last > 0 else steps
    if not shown:
        return ActionResult("No earlier steps in this episode.", data={"history": []})
    lines = [f"{len(steps)} earlier step(s):"]
    for h in shown:
        score = "" if h.get("score") is None else f", score {h['score']}"
        lines.append(f"#{h['step']} {h['action']}{_args(h)}: {h['summary']}{score}, reward {h['reward']}")
    return ActionResult("\n".join(lines), data={"history": shown})


def _args(h: dict[str, Any]) -> str:
    args = h.get("args") or {}
    return f" ({', '.join(f'{k}={v}' for k, v in args.items())})" if args else ""


@action(
    "reset",
    description="Start the task over: clears the history, the step count and the episode clock.",
)
def reset(env: EnvView) -> ActionResult:
    env.request_reset()
    return ActionResult("Episode reset.")


def default_actions() -> dict[str, ActionSpec]:
    """The five built-in actions (registered by importing this module) plus any registered with `action`."""
    return dict(REGISTRY)
