"""`LLMRoles`: the agent's planner, coder and verifier backed by a chat model and the prompt files.

Role names map to `settings.llm.roles`: plans, complexity and decomposition use the planner;
code, steps, repairs and integration the coder; verification the verifier. Every failure to get a
usable answer becomes a RoleError whose message the search stores on the node.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Any

from automind.errors import RoleError
from automind.llm.parsers import (
    apply_search_replace,
    describe_unmatched,
    extract_code,
    extract_plan,
    extract_score,
    parse_search_replace,
)
from automind.llm.prompts import render
from automind.llm.search_roles import LLMSearchActions
from automind.roles import Context, Plan, Step, Verdict

if TYPE_CHECKING:
    from automind.config import Settings
    from automind.llm.client import LLM, Reply
    from automind.sandbox import ExecResult

MAX_TRICKS = 12

SUBMISSION_VERIFY = {
    "name": "submission_verify",
    "description": "Report the verdict on one executed solution script.",
    "parameters": {
        "type": "object",
        "properties": {
            "is_bug": {"type": "boolean", "description": "The run failed or its result cannot be used."},
            "is_overfitting": {"type": "boolean", "description": "The validation setup cannot be trusted."},
            "has_csv_submission": {
                "type": "boolean",
                "description": "./submission/submission.csv was written.",
            },
            "summary": {"type": "string", "description": "Two or three sentences on the run."},
            "metric": {"type": ["number", "null"], "description": "The validation metric, or null."},
            "lower_is_better": {
                "type": "boolean",
                "description": "True when lower metric values are better.",
            },
        },
        "required": [
            "is_bug",
            "is_overfitting",
            "has_csv_submission",
            "summary",
            "metric",
            "lower_is_better",
        ],
    },
}

DECOMPOSE = {
    "name": "decompose_plan",
    "description": "Ordered implementation steps for the plan.",
    "parameters": {
        "type": "object",
        "properties": {
            "decomposed steps": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"step": {"type": "string"}, "details": {"type": "string"}},
                    "required": ["step", "details"],
                },
            }
        },
        "required": ["decomposed steps"],
    },
}


def _summary(plan: str, limit: int = 160) -> str:
    """First sentence of the plan, for "tried X -> validation Y" memory lines."""
    first = re.split(r"(?<=[.!?])\s", " ".join(plan.split()), maxsplit=1)[0]
    return first if len(first) <= limit else first[: limit - 3].rstrip() + "..."


def _parses(code: str) -> bool:
    try:
        ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    return True


def _bool(value: Any, default: bool) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return value.strip().lower() in ("true", "yes", "1")
    return default if value is None else bool(value)


def _float(value: Any) -> float | None:
    try:
        return None if value is None else float(value)
    except (TypeError, ValueError):
        return None


class LLMRoles(LLMSearchActions):
    """Implements `automind.roles.Roles` with prompts and a chat model (the refine and ensemble roles come
    from `LLMSearchActions`, automind/llm/search_roles.py)."""

    name = "llm"

    def __init__(self, llm: LLM, settings: Settings):
        self.llm = llm
        self.settings = settings

    # -- plumbing ------------------------------------------------------------------------------

    def _ask(self, role: str, prompt: str, **chat: Any) -> Reply:
        messages = [
            {"role": "system", "content": render("system", role=role)},
            {"role": "user", "content": prompt},
        ]
        return self.llm.chat(messages, role=role, **chat)

    def _vars(self, ctx: Context) -> dict[str, Any]:
        spec = ctx.task.spec
        metric = spec.metric
        from automind.search.verifier import task_direction

        lower = ctx.facts.get("lower_is_better", task_direction(ctx.task))
        return {
            "task_description": ctx.task.description,
            "analysis": ctx.analysis,
            "metric": metric.name,
            "lower_is_better": lower,
            "labels": ctx.labels,
            "memory": ctx.memory,
            "experience": ctx.experience,
            "timeout_s": self.settings.search.exec_timeout_s,
            "threads": self.settings.sandbox.threads,
        }

    def _code_from(self, reply: Reply, what: str) -> str:
        code = extract_code(reply.text)
        if not code or not code.strip():
            raise RoleError(
                f"{what}: the coder's reply had no Python code block (starts: {reply.text[:120]!r})"
            )
        return code.rstrip() + "\n"

    # -- Roles ---------------------------------------------------------------------------------

    def plan(self, ctx: Context) -> Plan:
        v = self._vars(ctx)
        parent = {
            "parent_plan": ctx.parent_plan or "",
            "parent_code": ctx.parent_code or "",
            "parent_output": ctx.parent_output or "",
            "parent_metric": ctx.parent_metric,
        }
        if ctx.action == "draft":
            prompt = render("draft_plan", **v, tricks=ctx.knowledge[:MAX_TRICKS])
        elif ctx.action == "debug":
            prompt = render("debug_plan", **{**v, "memory": []}, **parent)
        elif ctx.trick is not None:
            prompt = render("improve_trick", **v, **parent, trick=ctx.trick)
        else:
            prompt = render("improve_plan", **v, **parent, tricks=[])
        text = extract_plan(self._ask("planner", prompt).text)
        if not text:
            raise RoleError(f"{ctx.action} plan: the planner's reply was empty")
        meta: dict[str, Any] = {"action": ctx.action}
        if ctx.trick is not None:
            meta["trick"] = ctx.trick.id
        return Plan(text=text, summary=_summary(text), meta=meta)

    def complexity(self, ctx: Context, plan: Plan) -> float:
        """1-5 in half steps; an unparseable answer counts as 5 (the careful, stepwise path)."""
        score = extract_score(
            self._ask("planner", render("complexity", **self._vars(ctx), plan=plan.text)).text
        )
        if score is None:
            return 5.0
        return min(5.0, max(1.0, round(score * 2) / 2))

    def code(self, ctx: Context, plan: Plan) -> str:
        v = self._vars(ctx)
        if ctx.action in ("improve", "debug") and ctx.parent_code:
            return self._edit(v, ctx.parent_code, plan.text, ctx.parent_output or "")
        reply = self._ask(
            "coder", render("one_pass_code", **v, plan=plan.text, tricks=ctx.knowledge[:MAX_TRICKS])
        )
        return self._code_from(reply, "one-pass code")

    def _edit(self, v: dict[str, Any], code: str, change: str, output: str) -> str:
        """SEARCH/REPLACE edit of `code`; a full rewrite when the blocks do not apply cleanly."""
        reply = self._ask("coder", render("edit_code", **v, code=code, plan=change, output=output))
        blocks = parse_search_replace(reply.text)
        note = ""
        if blocks:
            new, unmatched = apply_search_replace(code, blocks)
            if not unmatched and new != code and _parses(new):
                return new if new.endswith("\n") else new + "\n"
            note = (
                describe_unmatched(unmatched)
                if unmatched
                else "the edited script did not parse or changed nothing."
            )
        else:
            whole = extract_code(reply.text)
            if whole and _parses(whole) and "__main__" in whole:
                return whole.rstrip() + "\n"  # the model rewrote the script instead of editing it
            note = "no SEARCH/REPLACE blocks were found in the previous answer."
        rewrite = self._ask(
            "coder", render("rewrite_code", **v, code=code, plan=change, output=output, note=note)
        )
        return self._code_from(rewrite, "code rewrite")

    def decompose(self, ctx: Context, plan: Plan) -> list[Step]:
        cap = max(1, self.settings.coding.max_steps)
        prompt = render("decompose", **self._vars(ctx), plan=plan.text, max_steps=cap)
        args = self._ask("planner", prompt, tools=[DECOMPOSE]).tool_args or {}
        raw = args.get("decomposed steps") or args.get("decomposed_steps") or args.get("steps") or []
        steps = [
            Step(
                title=str(s.get("step") or s.get("title") or f"step {i + 1}").strip(),
                details=str(s.get("details", "")).strip(),
            )
            for i, s in enumerate(raw)
            if isinstance(s, dict)
        ]
        if not steps:
            raise RoleError("decompose: the planner returned no steps")
        if len(steps) > cap:  # merge the tail (training and after) into the last allowed step
            tail = steps[cap - 1 :]
            merged = Step(
                " + ".join(s.title for s in tail), "\n".join(f"{s.title}: {s.details}" for s in tail)
            )
            steps = [*steps[: cap - 1], merged]
        return steps

    def step_code(self, ctx: Context, plan: Plan, steps: list[Step], index: int, program: str) -> str:
        prompt = render(
            "step_code", **self._vars(ctx), plan=plan.text, steps=steps, index=index, program=program
        )
        return self._code_from(self._ask("coder", prompt), f"step {index + 1} code")

    def repair(self, ctx: Context, code: str, error: str, step: Step | None = None) -> str:
        v = self._vars(ctx)
        reply = self._ask(
            "coder", render("repair", **v, code=code, error=error, step=step, program="", unmatched="")
        )
        blocks = parse_search_replace(reply.text)
        if blocks:
            new, unmatched = apply_search_replace(code, blocks)
            if not unmatched and new != code:
                return new if new.endswith("\n") else new + "\n"
            note = describe_unmatched(unmatched) if unmatched else "the edit changed nothing."
        else:
            whole = extract_code(reply.text)
            if whole and whole.strip() and whole.strip() != code.strip():
                return whole.rstrip() + "\n"
            note = "no SEARCH/REPLACE blocks were found in the previous answer."
        what = f"the code of step '{step.title}'" if step else "the script"
        change = f"Fix this error in {what}:\n{error.strip()[-3000:]}"
        rewrite = self._ask(
            "coder", render("rewrite_code", **v, code=code, plan=change, output="", note=note)
        )
        return self._code_from(rewrite, "repair")

    def integrate(self, ctx: Context, plan: Plan, program: str) -> str:
        prompt = render("integrate", **self._vars(ctx), plan=plan.text, program=program)
        return self._code_from(self._ask("coder", prompt), "integration")

    def verify(self, ctx: Context, code: str, result: ExecResult) -> Verdict:
        facts = _facts(result)
        output = result.output
        prompt = render("verify", **self._vars(ctx), code=code, output=output, facts=facts)
        args = self._ask("verifier", prompt, tools=[SUBMISSION_VERIFY]).tool_args or {}
        return Verdict(
            is_bug=_bool(args.get("is_bug"), True),
            summary=str(args.get("summary") or "").strip(),
            metric=_float(args.get("metric")),
            lower_is_better=None
            if args.get("lower_is_better") is None
            else _bool(args.get("lower_is_better"), False),
            is_overfitting=_bool(args.get("is_overfitting"), False),
            has_csv_submission=_bool(args.get("has_csv_submission"), False),
        )


def _facts(result: ExecResult) -> list[str]:
    """What the runner knows for certain, so the verifier does not have to guess it from the log."""
    facts = [f"status: {result.status}, exit code {result.exit_code}"]
    if result.exc_type:
        facts.append(f"exception raised: {result.exc_type}")
    facts.append(f"ran for {result.wall_s:.1f} s")
    sub = result.workspace / "submission" / "submission.csv"
    facts.append(f"./submission/submission.csv {'exists' if sub.is_file() else 'is missing'}")
    metric_file = result.workspace / "submission" / "eval_metric.txt"
    if metric_file.is_file():
        facts.append(f"eval_metric.txt contains: {metric_file.read_text(errors='replace').strip()[:60]}")
    return facts
