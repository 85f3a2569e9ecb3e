"""TaskEnv: one automind task as a gymnasium environment (MLE-Dojo's protocol).

`reset()` starts an episode and returns the first observation; `step({"action": NAME, **args})`
returns (observation, reward, terminated, truncated, info). Code runs and is judged through
`automind.judge`, the same core `automind exec` and the search use. Every observation and info is
passed through a redactor that replaces the task folder's paths, and actions only get an `EnvView`
(public facts and execution), so no action hands out the private answers or where they live.

Limits: steps per episode and time per episode end the episode (`truncated=True`; only `reset` is
accepted afterwards). A single execution that hits its own timeout or memory limit is killed and
reported in that step's observation; the episode goes on. Executions never run past the episode's
time. The task has no terminal state, so `terminated` is always False.
"""

from __future__ import annotations

import copy
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gymnasium

from automind.env.actions import NAME, ActionFn, ActionResult, ActionSpec, make_spec
from automind.env.builtin import default_actions
from automind.env.reward import Reward, RewardModel
from automind.env.spaces import ActionSpace, observation_space
from automind.env.view import EnvView, Execution, PublicInfo

if TYPE_CHECKING:
    from automind.config import Settings
    from automind.judge import Judgement
    from automind.sandbox import ExecResult
    from automind.task import Task

PLACEMENT = ("metric", "lower_is_better", "score", "n_rows", "leaderboard_teams", "position", "beats_pct",
             "human_rank", "medal", "above_median", "public_leaderboard_teams", "public_position",
             "public_human_rank", "human_rank_note")  # fmt: skip


@dataclass
class Limits:
    """Per-episode and per-execution limits (None: the settings' sandbox limit)."""

    max_steps: int = 15  # MLE-Dojo's episode length
    time_limit_s: float = 3600.0
    exec_timeout_s: float | None = None
    memory_mb: int | None = None
    validate_timeout_s: float = 30.0
    max_text_chars: int = 12_000

    def __post_init__(self) -> None:
        if self.max_steps < 1 or self.time_limit_s <= 0 or self.validate_timeout_s <= 0:
            raise ValueError(
                "limits: max_steps >= 1, time_limit_s > 0 and validate_timeout_s > 0 are required."
            )
        if self.max_text_chars < 500:
            raise ValueError("limits: max_text_chars must be at least 500.")


class TaskEnv(gymnasium.Env[dict[str, str], dict[str, Any]]):
    """An automind task as an interactive environment. See the module docstring and docs/env.md."""

    metadata = {"render_modes": ["ansi"]}
    # episode state, set by _start_episode(); declared here because step() reads it first in the file
    _over: str | None  # why the episode ended; None while it runs
    _reset_requested: bool

    def __init__(
        self,
        task: Task | str | Path,
        *,
        settings: Settings | None = None,
        limits: Limits | None = None,
        workdir: str | Path | None = None,
        leaderboard: str | Path | None = None,
        render_mode: str | None = None,
        keep_workspaces: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ):
        from automind.judge import Judge
        from automind.task import Task

        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' (or None) is supported.")
        self.render_mode = render_mode
        task = task if isinstance(task, Task) else Task.load(task)
        if leaderboard is not None:
            from automind.leaderboards import attach

            attach(task, leaderboard)
        if settings is None:
            from automind.config import load_config

            settings = load_config().settings
        self.limits = limits or Limits()
        self._own_workdir = workdir is None
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="automind-env-")).expanduser().resolve()
        self._judge = Judge.from_settings(
            task, self.workdir / "work", settings, timeout_s=self.limits.exec_timeout_s,
            memory_mb=self.limits.memory_mb, grade=True,
        )  # fmt: skip
        self._rewards = RewardModel(task, self.workdir)
        self._public = PublicInfo.from_task(task)
        self._redact = _redactor(task, self.workdir / "work")
        self._actions: dict[str, ActionSpec] = default_actions()
        self._keep = keep_workspaces
        self._used: list[Path] = []
        self._clock = clock
        # gymnasium annotates spaces.Dict as a space of dict[str, Space] (its samples are dicts of values)
        self.observation_space = observation_space(self.limits.max_text_chars + 200)  # type: ignore[assignment]
        self.action_space = ActionSpace(lambda: self._actions)
        self._view = EnvView(
            info=self._public,
            limits=self.limits,
            run=lambda code, timeout_s=None: self._run(code, timeout_s),
            execute=lambda code: self._execute(code),
            history=lambda: copy.deepcopy(self._history),
            steps_left=lambda: self.limits.max_steps - self._steps,
            time_left_s=lambda: self._time_left(),
            request_reset=lambda: setattr(self, "_reset_requested", True),
        )
        self._start_episode()

    # -- the registry ------------------------------------------------------------------------------
    def register_action(
        self, name: str, fn: ActionFn, schema: dict[str, Any] | None = None, description: str = ""
    ) -> None:
        """Add (or replace) an action on this environment; `fn(env_view, **args) -> ActionResult`."""
        self._actions[name] = make_spec(name, fn, schema, description)

    @property
    def actions(self) -> dict[str, ActionSpec]:
        return dict(self._actions)

    def tools(self) -> list[dict[str, Any]]:
        """The actions in OpenAI function-calling format, ready for an LLM's `tools` parameter."""
        return [spec.tool() for spec in self._actions.values()]

    # -- gymnasium API -----------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, str], dict[str, Any]]:
        super().reset(seed=seed)
        self._start_episode()
        result = ActionResult(
            self._intro(), data={"actions": list(self._actions), "limits": asdict(self.limits)}
        )
        return self._observe("reset", result), self._info("reset", result)

    def step(self, action: dict[str, Any]) -> tuple[dict[str, str], float, bool, bool, dict[str, Any]]:
        name, args, problem = _parse(action)
        if self._over and name != "reset":
            result = ActionResult(f"The episode is over ({self._over}). Call reset to start again.", ok=False)
            return self._observe(name or "invalid", result), 0.0, False, True, self._info(name, result)
        if self._time_left() <= 0:
            self._over = f"time limit of {self.limits.time_limit_s:g} s reached"
            result = ActionResult(
                f"Not run: the episode's {self._over}. Call reset to start again.", ok=False
            )
            return self._observe(name or "invalid", result), 0.0, False, True, self._info(name, result)
        self._steps += 1
        try:
            result = self._dispatch(name, args, problem)
        finally:
            self._discard_workspaces()
        if self._reset_requested:
            self._start_episode()
            result.text = f"{result.text}\n\n{self._intro()}"
            return self._observe("reset", result), 0.0, False, False, self._info("reset", result)
        reward = result.reward.value if result.reward is not None else 0.0
        self._record(name or "invalid", args, result)
        truncated = False
        if self._steps >= self.limits.max_steps:
            self._over = f"step limit of {self.limits.max_steps} reached"
        elif self._time_left() <= 0:
            self._over = f"time limit of {self.limits.time_limit_s:g} s reached"
        if self._over:
            truncated = True
            result.text += f"\n\n[episode over: {self._over}]"
        self._last_text = result.text
        return (
            self._observe(name or "invalid", result),
            float(reward),
            False,
            truncated,
            self._info(name, result),
        )

    def render(self) -> str | None:
        return self._redact(self._last_text) if self.render_mode == "ansi" else None

    def close(self) -> None:
        if self._own_workdir:
            _remove(self.workdir)
        super().close()

    # -- episode state -----------------------------------------------------------------------------
    def _start_episode(self) -> None:
        self._steps = 0
        self._t0 = self._clock()
        self._history: list[dict[str, Any]] = []
        self._over = None
        self._reset_requested = False
        self._last_text = ""

    def _time_left(self) -> float:
        return self.limits.time_limit_s - (self._clock() - self._t0)

    @property
    def steps_used(self) -> int:
        return self._steps

    def _intro(self) -> str:
        i, lim = self._public, self.limits
        direction = "lower is better" if i.lower_is_better else "higher is better"
        return "\n".join(
            [
                f"Task: {i.name}. Metric: {i.metric} ({direction}).",
                f"Budget: {lim.max_steps} steps, {lim.time_limit_s:g} s. Actions: {', '.join(self._actions)}.",
                f"Write predictions to submission/{i.submission_file}; data is read-only under input/.",
                "",
                i.render("description"),
            ]
        )

    def _dispatch(self, name: str | None, args: dict[str, Any], problem: str | None) -> ActionResult:
        if problem:
            return ActionResult(problem, ok=False)
        spec = self._actions.get(name or "")
        if spec is None:
            return ActionResult(f"Unknown action {name!r}. Available: {', '.join(self._actions)}.", ok=False)
        bad = spec.check_args(args)
        if bad:
            return ActionResult(f"Bad arguments for {spec.name}: {'; '.join(bad)}.", ok=False)
        try:
            result = spec.fn(self._view, **args)
        except Exception as e:  # noqa: BLE001 - an action's failure is the agent's observation, not a crash
            return ActionResult(f"Action {spec.name} failed: {type(e).__name__}: {e}", ok=False)
        if not isinstance(result, ActionResult):
            return ActionResult(
                f"Action {spec.name} returned {type(result).__name__}, not ActionResult.", ok=False
            )
        return result

    def _record(self, name: str, args: dict[str, Any], result: ActionResult) -> None:
        shown = {k: (f"<{len(v.splitlines())} lines>" if k == "code" and isinstance(v, str) else v)
                 for k, v in args.items()}  # fmt: skip
        first = next((ln for ln in result.text.splitlines() if ln.strip()), "").lstrip("# ")
        self._history.append(
            {
                "step": self._steps,
                "action": name,
                "args": self._redact(shown),
                "ok": result.ok,
                "summary": self._redact(first[:160]),
                "score": result.data.get("score"),
                "reward": result.reward.value if result.reward else 0.0,
                "reward_kind": result.reward.kind if result.reward else "none",
            }
        )

    # -- code execution ----------------------------------------------------------------------------
    def _cap(self, timeout_s: float | None) -> float:
        limit = self._judge.sandbox.timeout_s if timeout_s is None else float(timeout_s)
        return max(1.0, min(limit, self._time_left()))

    def _run(self, code: str, timeout_s: float | None = None) -> ExecResult:
        result = self._judge.sandbox.run_script(code, timeout_s=self._cap(timeout_s))
        self._used.append(result.workspace)  # removed once the action has returned
        return result

    def _execute(self, code: str) -> Execution:
        judged = self._judge.run(code, timeout_s=self._cap(None))
        self._keep_submission(judged)
        grade = judged.grade.model_dump(mode="json") if judged.grade is not None else {}
        outcome, reason = judged.outcome, judged.reason
        if grade and not grade.get("valid"):
            outcome, reason = "submission invalid", grade.get("error")
        reward = (
            self._rewards(judged.grade, reason)
            if outcome == "success"
            else Reward(0.0, "none", f"no score: {outcome}")
        )
        res = judged.result
        self._used.append(res.workspace)
        return Execution(
            outcome=outcome, reason=reason, status=res.status, wall_s=res.wall_s, peak_mem_mb=res.peak_mem_mb,
            output=res.output, reward=reward, score=grade.get("score") if outcome == "success" else None,
            grade={k: grade[k] for k in PLACEMENT if k in grade},
        )  # fmt: skip

    def _keep_submission(self, judged: Judgement) -> None:
        """Each execute_code submission is kept as workdir/submissions/step-NNN.csv."""
        if judged.check.written:
            dst = self.workdir / "submissions" / f"step-{self._steps:03d}.csv"
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(judged.submission, dst)

    def _discard_workspaces(self) -> None:
        """Workspaces live until the action that made them returns (unless keep_workspaces)."""
        used, self._used = self._used, []
        if not self._keep:
            from automind.sandbox import Sandbox

            for ws in used:
                Sandbox.remove(ws)

    # -- observation and info --------------------------------------------------------------------------
    def _observe(self, name: str, result: ActionResult) -> dict[str, str]:
        text = _clip(self._redact(result.text), self.limits.max_text_chars)
        shown = name if NAME.match(name) else "invalid"
        return {"action": shown, "status": "ok" if result.ok else "error", "text": text}

    def _info(self, name: str | None, result: ActionResult) -> dict[str, Any]:
        r = result.reward
        info = {
            "action": name,
            "ok": result.ok,
            "step": self._steps,
            "steps_left": self.limits.max_steps - self._steps,
            "reward_kind": r.kind if r else "none",
            "reward_note": r.note if r else "",
            "data": copy.deepcopy(result.data),
        }
        if r is not None:
            info["reward"] = r.to_dict()
        if self._over:
            info["truncated_by"] = self._over
        return self._redact(info)


def _parse(action: Any) -> tuple[str | None, dict[str, Any], str | None]:
    """(name, arguments, problem) from a step's action."""
    if not isinstance(action, dict):
        return (
            None,
            {},
            f"An action is a dict like {{'action': 'request_info'}}, got {type(action).__name__}.",
        )
    name = action.get("action")
    if not isinstance(name, str):
        return None, {}, "The action dict needs an 'action' key naming the action."
    return name, {k: v for k, v in action.items() if k != "action"}, None


def _clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head = limit * 2 // 5
    tail = limit - head - 60
    return f"{text[:head]}\n... [{len(text) - head - tail} characters cut] ...\n{text[-tail:]}"


def _redactor(task: Task, workspaces: Path) -> Callable[[Any], Any]:
    """Replace the private folder, the answers file and the task folder in nested data (every spelling),
    and shorten workspace paths to what the code sees (submission/..., not /tmp/.../exec-003/submission/...)."""
    pairs: list[tuple[str, str]] = []
    for path, label in (
        (task.answers_path, "<private>"),
        (task.private_dir, "<private>"),
        (task.root, "<task>"),
    ):
        if path is not None:
            pairs += [(str(path), label), (os.path.realpath(path), label)]
    pairs.sort(key=lambda p: len(p[0]), reverse=True)
    spellings = sorted({str(workspaces), os.path.realpath(workspaces)}, key=len, reverse=True)
    workspace = re.compile("(?:" + "|".join(re.escape(w) for w in spellings) + r")/exec-\d+/")

    def redact(x: Any) -> Any:
        if isinstance(x, str):
            x = workspace.sub("", x)
            for raw, label in pairs:
                if raw in x:
                    x = x.replace(raw, label)
            return x
        if isinstance(x, dict):
            return {k: redact(v) for k, v in x.items()}
        if isinstance(x, list | tuple):
            return [redact(v) for v in x]
        return x

    return redact


def _remove(path: Path) -> None:
    """Delete the environment's own folder (workspace input/ folders are read-only)."""
    if not path.exists():
        return
    for root, dirs, _ in os.walk(path):
        for d in dirs:
            os.chmod(Path(root) / d, 0o755)
    shutil.rmtree(path, ignore_errors=True)
