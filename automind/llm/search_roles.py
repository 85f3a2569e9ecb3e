"""The refine and ensemble roles of `LLMRoles` (MLE-STAR's ablation, summariser, extractor, block planner
and coder, ensemble planner and coder), each on a prompt template of its own in automind/prompts/.

A mixin, so the prompts and parsing of these actions stay apart from the draft/improve/debug roles. A
block is spliced by exact replacement: an extracted block that is not found verbatim (or not once) in
the script is refused and the extractor is asked again with the reason; a spliced script that does not
parse goes back to the coder once with the syntax error.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Any

from automind.errors import RoleError
from automind.llm.parsers import code_blocks, extract_code, extract_plan, extract_section, strip_think
from automind.roles import Ablation, AblationResult, AblationRow, AblationRun, Attempt, Block, Context, Plan

if TYPE_CHECKING:
    from automind.config import Settings
    from automind.llm.client import LLM, Reply

EXTRACT_TRIES = 3  # extractor answers (the first and two repairs) before the refine step gives up
OUTPUT_CHARS = 6000  # of an ablation script's output shown to the summariser

ABLATION_TABLE = {
    "name": "ablation_table",
    "description": "The component -> effect table of an ablation study.",
    "parameters": {
        "type": "object",
        "properties": {
            "rows": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "component": {"type": "string", "description": "Short name of the component."},
                        "change": {"type": "string", "description": "What the variant removed or replaced."},
                        "score": {
                            "type": ["number", "null"],
                            "description": "The variant's validation score.",
                        },
                        "effect": {
                            "type": ["number", "null"],
                            "description": "How much better the full solution scores than the variant, in "
                            "metric units (positive: the component helps).",
                        },
                    },
                    "required": ["component", "change", "score", "effect"],
                },
            },
            "summary": {"type": "string", "description": "Two or three sentences: what matters most."},
        },
        "required": ["rows", "summary"],
    },
}


def _float(value: Any) -> float | None:
    try:
        return None if value is None else float(value)
    except (TypeError, ValueError):
        return None


def _summary(text: str, limit: int = 160) -> str:
    first = " ".join(text.split())
    return first if len(first) <= limit else first[: limit - 3].rstrip() + "..."


def saving_lines(code: str, limit: int = 12) -> list[str]:
    """The lines of a member's script that save or load predictions (what an ensembler must know)."""
    lines = [ln.rstrip() for ln in (code or "").splitlines() if re.search(r"\.npy|\.npz|np\.save", ln)]
    return lines[:limit]


def find_block(code: str, block: str) -> str | None:
    """Why `block` cannot be spliced into `code` by exact replacement (None: it can)."""
    if not block.strip():
        return "the block is empty"
    count = code.count(block)
    if count == 0:
        return (
            "the block is not in the script verbatim (copy it character for character, indentation included)"
        )
    if count > 1:
        return f"the block appears {count} times in the script; include more lines so it is unique"
    return None


class LLMSearchActions:
    """Mixed into `LLMRoles`: the Roles methods of the refine and ensemble actions."""

    llm: LLM
    settings: Settings

    if TYPE_CHECKING:  # provided by LLMRoles

        def _vars(self, ctx: Context) -> dict[str, Any]: ...

        def _ask(self, role: str, template: str, values: dict[str, Any], **chat: Any) -> Reply:
            """Render within the context budget and send (automind.llm.budget)."""
            ...

    def _solution(self, ctx: Context) -> dict[str, Any]:
        return {
            **self._vars(ctx),
            "code": ctx.parent_code or "",
            "parent_plan": ctx.parent_plan or "",
            "parent_metric": ctx.parent_metric,
        }

    # --- refine -------------------------------------------------------------------------------------
    def ablation_scripts(self, ctx: Context, covered: list[str], refined: list[str]) -> list[AblationRun]:
        """One script that runs the solution and its variants (one component removed or replaced each)."""
        values = {**self._solution(ctx), "covered": covered, "refined": refined}
        reply = self._ask("coder", "ablation_code", values)
        code = extract_code(reply.text)
        if not code or not code.strip():
            raise RoleError(
                f"ablation: the coder's reply had no Python code block (starts: {reply.text[:120]!r})"
            )
        return [AblationRun("all", code.rstrip() + "\n", "each variant of the ablation script")]

    def summarise_ablation(self, ctx: Context, results: list[AblationResult]) -> Ablation:
        runs = [
            {"code": r.run.code, "output": r.output[-OUTPUT_CHARS:], "error": r.error or ""} for r in results
        ]
        values = {**self._vars(ctx), "parent_metric": ctx.parent_metric, "runs": runs}
        args = self._ask("planner", "ablation_summary", values, tools=[ABLATION_TABLE]).tool_args or {}
        rows = [
            AblationRow(
                str(r.get("component") or "?"),
                str(r.get("change") or ""),
                _float(r.get("score")),
                _float(r.get("effect")),
            )  # fmt: skip
            for r in args.get("rows") or []
            if isinstance(r, dict)
        ]
        summary = str(args.get("summary") or "").strip()
        if not rows and not summary:
            raise RoleError("ablation summary: the planner returned neither rows nor a summary")
        return Ablation(rows, summary)

    def extract_block(self, ctx: Context, ablation: Ablation, refined: list[str]) -> Block:
        """Ask for the most influential block; refuse (and ask again, with the reason) a block that is not
        found exactly once in the script."""
        code = ctx.parent_code or ""
        values = {**self._solution(ctx), "rows": ablation.rows, "summary": ablation.summary,
                  "refined": refined, "problem": ""}  # fmt: skip
        why = ""
        for _ in range(EXTRACT_TRIES):
            reply = self._ask("planner", "extract_block", {**values, "problem": why})
            body = strip_think(reply.text)
            fences = [b.code for b in code_blocks(body) if b.code.strip()]
            name = (extract_section(body, "block_name") or "").strip().splitlines()
            plan = extract_section(body, "plan") or ""
            if not fences:
                why = "your answer had no fenced code block holding the block"
                continue
            text = fences[0]
            why = find_block(code, text) or ""
            if not why and name and name[0] in refined:
                why = f"block '{name[0]}' was already refined on this lineage; choose another"
            if not why:
                label = name[0] if name else f"block at line {code[: code.index(text)].count(chr(10)) + 1}"
                return Block(label[:80], text, Plan(plan or "Improve this block.", _summary(plan), {}))
        raise RoleError(f"extract: no usable block after {EXTRACT_TRIES} answers; last problem: {why}")

    def plan_block(self, ctx: Context, block: Block, history: list[Attempt]) -> Plan | None:
        values = {**self._vars(ctx), "block": block.code, "block_name": block.name, "history": history}
        text = extract_plan(self._ask("planner", "block_plan", values).text)
        if not text:
            raise RoleError("block plan: the planner's reply was empty")
        return Plan(text, _summary(text), {})

    def code_block(self, ctx: Context, block: Block, plan: Plan) -> str:
        """The new block from the coder, spliced by exact replacement; one retry when the result does not
        parse."""
        code = ctx.parent_code or ""
        values = {**self._solution(ctx), "block": block.code, "plan": plan.text, "problem": ""}
        problem = ""
        for _ in range(2):
            reply = self._ask("coder", "block_code", values)
            fences = [b.code for b in code_blocks(strip_think(reply.text)) if b.code.strip()]
            if not fences:
                problem = "your answer had no fenced code block with the new block"
            else:
                new = code.replace(block.code, fences[0], 1)
                try:
                    ast.parse(new)
                    return new if new.endswith("\n") else new + "\n"
                except SyntaxError as e:
                    problem = f"the script with your block does not parse: {e.msg} (line {e.lineno})"
            values["problem"] = problem
        raise RoleError(f"block code: {problem}")

    # --- ensemble -----------------------------------------------------------------------------------
    def _members(self, members: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [
            {**m, "saving": saving_lines(m.get("code", "")), "folder": f"{m['dir']}/submission"}
            for m in members
        ]

    def plan_ensemble(self, ctx: Context, members: list[dict[str, Any]], history: list[Attempt]) -> Plan:
        values = {**self._vars(ctx), "members": self._members(members), "history": history}
        text = extract_plan(self._ask("planner", "ensemble_plan", values).text)
        if not text:
            raise RoleError("ensemble plan: the planner's reply was empty")
        return Plan(text, "ensemble: " + _summary(text, 140), {})

    def code_ensemble(self, ctx: Context, plan: Plan, members: list[dict[str, Any]]) -> str:
        values = {**self._vars(ctx), "members": self._members(members), "plan": plan.text}
        reply = self._ask("coder", "ensemble_code", values)
        code = extract_code(reply.text)
        if not code or not code.strip():
            raise RoleError(
                f"ensemble code: the coder's reply had no Python code block (starts: {reply.text[:120]!r})"
            )
        return code.rstrip() + "\n"
