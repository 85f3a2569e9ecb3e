"""`LLMRoles`: the agent's planner, coder and verifier backed by a chat model and the prompt files.

Role names map to `settings.llm.roles`: plans, complexity and decomposition use the planner;
code, steps, repairs and integration the coder; verification the verifier. Every failure to get a
usable answer becomes a RoleError whose message the search stores on the node.
"""

from __future__ import annotations

import ast
import logging
import re
from typing import TYPE_CHECKING, Any

from automind.errors import RoleError
from automind.experience import split_hints
from automind.llm.budget import estimate_tokens, fit, reply_reserve
from automind.llm.parsers import (
    apply_search_replace,
    describe_unmatched,
    extract_code,
    extract_plan,
    extract_score,
    extract_section,
    parse_search_replace,
)
from automind.llm.prompts import render
from automind.llm.search_roles import LLMSearchActions
from automind.roles import MEMORY_LINES, Context, LeakCheck, Plan, Step, Trick, Verdict

if TYPE_CHECKING:
    from automind.config import Settings
    from automind.llm.client import LLM, Reply
    from automind.sandbox import ExecResult

log = logging.getLogger(__name__)

MAX_TRICKS = 12
MAX_PAPERS = 3  # paper summaries shown to a draft
PAPER_CHARS = 700  # each summary is cut to this many characters (the section stays bounded)

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

LEAKAGE_CHECK = {
    "name": "leakage_check",
    "description": "Report whether the script's data preparation leaks validation or test information.",
    "parameters": {
        "type": "object",
        "properties": {
            "leakage": {"type": "boolean", "description": "The preparation block leaks."},
            "reason": {"type": "string", "description": "One sentence: what leaks, or why nothing does."},
            "block": {
                "type": "string",
                "description": "The preparation block, copied exactly from the script.",
            },
            "fixed": {
                "type": "string",
                "description": "The block rewritten without the leak; empty if none.",
            },
        },
        "required": ["leakage", "reason", "block", "fixed"],
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


def _papers(knowledge: list[Trick]) -> list[Trick]:
    """The paper summaries among a draft's knowledge, at most MAX_PAPERS of PAPER_CHARS each."""
    out = []
    for t in (k for k in knowledge if k.kind == "paper"):
        text = " ".join(t.text.split())
        if len(text) > PAPER_CHARS:
            text = text[: PAPER_CHARS - 4].rsplit(" ", 1)[0] + " ..."
        out.append(Trick(id=t.id, title=t.title, text=text, source=t.source, kind=t.kind))
    return out[:MAX_PAPERS]


def _tricks(knowledge: list[Trick]) -> list[Trick]:
    return [k for k in knowledge if k.kind != "paper"][:MAX_TRICKS]


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
    from `LLMSearchActions`, automind/llm/search_roles.py).

    Every prompt is fitted into `llm.context_tokens` (see `automind.llm.budget`); each deliberate cut
    is added once to `notes`, which the run copies into run.json's fallbacks.
    """

    name = "llm"

    def __init__(self, llm: LLM, settings: Settings):
        self.llm = llm
        self.settings = settings
        self.notes: list[str] = []
        self._cut: set[tuple[str, str]] = set()  # (template, section) pairs already noted

    # -- plumbing ------------------------------------------------------------------------------

    def _note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)
            log.info(text)

    def _ask(self, role: str, template: str, values: dict[str, Any], **chat: Any) -> Reply:
        """Render `template` within the context budget and send it as `role`."""
        system = render("system", role=role)
        context = self.settings.llm.context_tokens
        max_tokens = self.llm.role_config(role).max_tokens
        budget = context - reply_reserve(context, max_tokens) - estimate_tokens(system)
        prompt, cuts = fit(template, lambda v: render(template, **v), values, budget)
        for cut in cuts:  # the run notes a section's first cut; every cut goes to the log
            log.debug(cut.note(context))
            if cut.key not in self._cut:
                self._cut.add(cut.key)
                self._note(cut.note(context) + " (first cut of this section; later prompts may be cut too)")
        if estimate_tokens(prompt) > budget:
            self._note(
                f"context: prompt '{template}' is still about {estimate_tokens(prompt)} tokens after every "
                f"allowed cut, over the {budget} left by llm.context_tokens={context}; sent as it is"
            )
        messages = [{"role": "system", "content": system}, {"role": "user", "content": prompt}]
        return self.llm.chat(messages, role=role, **chat)

    def _vars(self, ctx: Context) -> dict[str, Any]:
        spec = ctx.task.spec
        metric = spec.metric
        from automind.search.verifier import task_direction

        s = self.settings
        lower = ctx.facts.get("lower_is_better", task_direction(ctx.task))
        timeout = ctx.exec_timeout_s or min(s.search.exec_timeout_s, s.sandbox.timeout_s)
        left = ctx.time_left_s if ctx.time_left_s is not None else s.search.time_limit_s
        return {
            "task_description": ctx.task.description,
            "analysis": ctx.analysis,
            "metric": metric.name,
            "lower_is_better": lower,
            "labels": ctx.labels,
            "memory": ctx.memory[-MEMORY_LINES:],
            "experience": ctx.experience,
            "time_left_s": left,
            "exec_timeout_s": timeout,
            "hardware": ctx.facts.get("hardware") or "",
            "libraries": ctx.facts.get("libraries") or "",
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
            template = "draft_plan"
            values = {**v, "tricks": _tricks(ctx.knowledge), "papers": _papers(ctx.knowledge)}
        elif ctx.action == "debug":
            fixes, dead_ends = split_hints(ctx.experience)
            template = "debug_plan"
            values = {**v, **parent, "memory": [], "experience": [], "lineage": ctx.lineage,
                      "fixes": fixes, "dead_ends": dead_ends}  # fmt: skip
        elif ctx.trick is not None and self._applies(ctx):
            template, values = "improve_trick", {**v, **parent, "trick": ctx.trick}
        else:
            template, values = "improve_plan", {**v, **parent, "tricks": []}
        reply = self._ask("planner", template, values).text
        text = extract_plan(reply)
        if not text:
            raise RoleError(f"{ctx.action} plan: the planner's reply was empty")
        meta: dict[str, Any] = {"action": ctx.action}
        if ctx.trick is not None:
            meta["trick"] = ctx.trick.id
            if template == "improve_plan":  # judged inapplicable here: a plain improve instead
                meta["trick_inapplicable"] = True
        if ctx.action == "debug":
            analysis = extract_section(reply, "analysis")
            if analysis:
                meta["analysis"] = " ".join(analysis.split())
        return Plan(text=text, summary=_summary(text), meta=meta)

    def _applies(self, ctx: Context) -> bool:
        """AutoMind checks a trick's applicability before each use: here against the task and the
        current solution's plan. A failed check keeps the trick (and is noted)."""
        from automind.llm.tasks import check_applicability

        assert ctx.trick is not None
        try:
            return check_applicability(
                self.llm, ctx.trick, ctx.task.description, self.notes, solution=ctx.parent_plan or ""
            )
        except RoleError as e:
            self._note(f"trick applicability check failed ({e}); the trick was applied unchecked")
            return True

    def complexity(self, ctx: Context, plan: Plan) -> float:
        """AutoMind's rule: the mean of the task and the solution complexity (each 1-5 in half steps);
        5 (the careful, stepwise path) when either rating is missing or unreadable."""
        text = self._ask("planner", "complexity", {**self._vars(ctx), "plan": plan.text}).text
        ratings = [extract_score(text, tag) for tag in ("task_complexity", "solution_complexity")]
        if any(r is None for r in ratings):
            return 5.0
        halves = [min(5.0, max(1.0, round(float(r) * 2) / 2)) for r in ratings if r is not None]
        return sum(halves) / len(halves)

    def code(self, ctx: Context, plan: Plan) -> str:
        v = self._vars(ctx)
        if ctx.action in ("improve", "debug") and ctx.parent_code:
            return self._edit(v, ctx.parent_code, plan.text, ctx.parent_output or "")
        values = {**v, "plan": plan.text, "tricks": _tricks(ctx.knowledge)}
        return self._code_from(self._ask("coder", "one_pass_code", values), "one-pass code")

    def _edit(self, v: dict[str, Any], code: str, change: str, output: str) -> str:
        """SEARCH/REPLACE edit of `code`; a full rewrite when the blocks do not apply cleanly."""
        reply = self._ask("coder", "edit_code", {**v, "code": code, "plan": change, "output": output})
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
        values = {**v, "code": code, "plan": change, "output": output, "note": note}
        return self._code_from(self._ask("coder", "rewrite_code", values), "code rewrite")

    def decompose(self, ctx: Context, plan: Plan) -> list[Step]:
        cap = max(1, self.settings.coding.max_steps)
        values = {**self._vars(ctx), "plan": plan.text, "max_steps": cap}
        args = self._ask("planner", "decompose", values, tools=[DECOMPOSE]).tool_args or {}
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
        values = {**self._vars(ctx), "plan": plan.text, "steps": steps, "index": index, "program": program}
        return self._code_from(self._ask("coder", "step_code", values), f"step {index + 1} code")

    def repair(self, ctx: Context, code: str, error: str, step: Step | None = None, program: str = "") -> str:
        v = self._vars(ctx)
        values = {**v, "code": code, "error": error, "step": step, "program": program, "unmatched": ""}
        reply = self._ask("coder", "repair", values)
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
        values = {**v, "code": code, "plan": change, "output": "", "note": note}
        return self._code_from(self._ask("coder", "rewrite_code", values), "repair")

    def integrate(self, ctx: Context, plan: Plan, program: str) -> str:
        values = {**self._vars(ctx), "plan": plan.text, "program": program}
        return self._code_from(self._ask("coder", "integrate", values), "integration")

    def verify(self, ctx: Context, code: str, result: ExecResult) -> Verdict:
        values = {**self._vars(ctx), "code": code, "output": result.output, "facts": _facts(result)}
        args = self._ask("verifier", "verify", values, tools=[SUBMISSION_VERIFY]).tool_args or {}
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

    # -- MLE-STAR's checkers (role "checker": the search runs them on valid scripts, docs/holdout.md) -------

    def check_leakage(self, ctx: Context, code: str, findings: list[str]) -> LeakCheck:
        values = {**self._vars(ctx), "code": code, "findings": findings}
        args = self._ask("checker", "leakage_check", values, tools=[LEAKAGE_CHECK]).tool_args or {}
        if "leakage" not in args:
            raise RoleError("leakage check: the checker's reply had no 'leakage' verdict")
        return LeakCheck(
            leaky=_bool(args.get("leakage"), False),
            block=str(args.get("block") or ""),
            fixed=str(args.get("fixed") or ""),
            reason=str(args.get("reason") or "").strip(),
        )

    def use_data(self, ctx: Context, code: str, unused: list[str]) -> str:
        values = {**self._vars(ctx), "code": code, "unused": unused}
        return self._code_from(self._ask("checker", "data_usage", values), "data usage rewrite")


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
