"""Small LLM jobs for retrieval and ingest: labelling, paper summaries, trick distillation and checks.

Each is one or two structured calls through `LLM.chat`; any failure surfaces as a RoleError so
callers can fall back to their offline path and say why.
"""

from __future__ import annotations

import hashlib
import logging
from typing import TYPE_CHECKING, Any

from automind.errors import RoleError
from automind.knowledge import STAGES, Label
from automind.llm.budget import estimate_tokens, fit, reply_reserve
from automind.llm.prompts import render
from automind.roles import Trick

if TYPE_CHECKING:
    from automind.knowledge import Taxonomy
    from automind.llm.client import LLM

MAX_TEXT = 12000  # characters of a document sent for summarising or labelling
DEFAULT_CONTEXT = 32768  # llm.context_tokens' default, for LLM doubles without a config
log = logging.getLogger(__name__)


def _ask(
    llm: LLM,
    role: str,
    template: str,
    values: dict[str, Any],
    tool: dict[str, Any],
    notes: list[str] | None = None,
) -> dict[str, Any]:
    """Render `template` within the model's context (cuts go to `notes` and the log) and ask for `tool`."""
    system = render("system", role=role)
    cfg = getattr(llm, "cfg", None)  # minimal test doubles have no config: assume the default window
    context = int(getattr(cfg, "context_tokens", DEFAULT_CONTEXT))
    max_tokens = llm.role_config(role).max_tokens if hasattr(llm, "role_config") else None
    budget = context - reply_reserve(context, max_tokens) - estimate_tokens(system)
    prompt, cuts = fit(template, lambda v: render(template, **v), values, budget)
    for cut in cuts:
        note = cut.note(context)
        log.info(note)
        if notes is not None and note not in notes:
            notes.append(note)
    messages = [{"role": "system", "content": system}, {"role": "user", "content": prompt}]
    reply = llm.chat(messages, role=role, tools=[tool])
    if not isinstance(reply.tool_args, dict):
        raise RoleError(f"{tool['name']}: the model returned no structured answer")
    return reply.tool_args


def _names_tool(name: str, choices: list[str], max_items: int) -> dict[str, Any]:
    return {
        "name": name,
        "description": "Return the chosen names, best first.",
        "parameters": {
            "type": "object",
            "properties": {
                "labels": {
                    "type": "array",
                    "items": {"type": "string", "enum": choices},
                    "maxItems": max_items,
                }
            },
            "required": ["labels"],
        },
    }


def _canonical(picked: Any, choices: list[str]) -> list[str]:
    """Keep known names (case-insensitive), in order, without duplicates."""
    by_lower = {c.lower(): c for c in choices}
    out: list[str] = []
    for item in picked if isinstance(picked, list) else []:
        name = by_lower.get(str(item).strip().lower())
        if name and name not in out:
            out.append(name)
    return out


def label_with_llm(
    llm: LLM, text: str, taxonomy: Taxonomy, top_k: int = 3, notes: list[str] | None = None
) -> list[Label]:
    """Labels for `text`, best first: top-level categories first, then one subcategory within each.

    Scores follow the model's ranking (1.0, 0.8, ...). A category whose subcategory call fails keeps
    a top-only label; an answer with no known category is a RoleError.
    """
    text = text[:MAX_TEXT]
    tops = taxonomy.top_names()
    args = _ask(
        llm,
        "analyzer",
        "label_top",
        {"text": text, "categories": taxonomy.categories, "max_labels": top_k},
        _names_tool("assign_categories", tops, top_k),
        notes,
    )
    chosen = _canonical(args.get("labels"), tops)[:top_k]
    if not chosen:
        raise RoleError(f"labelling: the model named no known category (got {args.get('labels')!r})")
    labels = []
    for rank, top in enumerate(chosen):
        cat = taxonomy.get(top)
        sub = ""
        subs = [s.name for s in cat.subcategories]
        if subs:
            try:
                got = _ask(
                    llm,
                    "analyzer",
                    "label_sub",
                    {"text": text, "category": cat, "max_labels": 1},
                    _names_tool("assign_subcategories", subs, 2),
                    notes,
                )
                picked = _canonical(got.get("labels"), subs)
                sub = picked[0] if picked else ""
            except RoleError:
                sub = ""
        labels.append(Label(top=top, sub=sub, score=round(1.0 - 0.2 * rank, 2)))
    return labels


PAPER_KEYS = ("data_type", "domain", "dataset", "task", "techniques", "contribution")


def summarize_paper(llm: LLM, text: str) -> dict[str, Any]:
    """Data type, domain, dataset, task, techniques by ML phase and key contribution, as a dict."""
    tool = {
        "name": "paper_summary",
        "description": "Structured summary of a paper or solution write-up.",
        "parameters": {
            "type": "object",
            "properties": {
                "data_type": {"type": "string"},
                "domain": {"type": "string"},
                "dataset": {"type": ["string", "null"]},
                "task": {"type": "string"},
                "techniques": {
                    "type": "object",
                    "additionalProperties": {"type": "array", "items": {"type": "string"}},
                },
                "contribution": {"type": "string"},
            },
            "required": list(PAPER_KEYS),
        },
    }
    args = _ask(llm, "analyzer", "paper_summary", {"text": text[:MAX_TEXT]}, tool)
    return {k: args.get(k) for k in PAPER_KEYS}


def distill_tricks(
    llm: LLM,
    task_text: str,
    material: str,
    min_tricks: int = 8,
    max_tricks: int = 12,
    notes: list[str] | None = None,
) -> list[Trick]:
    """Condense retrieved material into 8-12 concrete tricks for this task (kind "distilled")."""
    tool = {
        "name": "distilled_tricks",
        "description": "Concrete tricks applicable to the target task.",
        "parameters": {
            "type": "object",
            "properties": {
                "tricks": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "title": {"type": "string"},
                            "stage": {"type": "string", "enum": list(STAGES)},
                            "text": {"type": "string"},
                            "source": {"type": "string"},
                        },
                        "required": ["title", "text"],
                    },
                    "maxItems": max_tricks,
                }
            },
            "required": ["tricks"],
        },
    }
    values = {
        "task_text": task_text,
        "material": material,
        "min_tricks": min_tricks,
        "max_tricks": max_tricks,
    }
    args = _ask(llm, "retriever", "distill_tricks", values, tool, notes)
    tricks: list[Trick] = []
    for item in args.get("tricks") or []:
        if not isinstance(item, dict) or not str(item.get("text", "")).strip():
            continue
        title = str(item.get("title") or item["text"][:60]).strip()
        stage = str(item.get("stage") or "").strip().lower()
        digest = hashlib.sha1(f"{title}\n{item['text']}".encode()).hexdigest()[:10]
        tricks.append(
            Trick(
                id=f"distilled-{digest}",
                title=title,
                text=str(item["text"]).strip(),
                stage=stage if stage in STAGES else None,
                source=str(item.get("source") or ""),
                kind="distilled",
            )
        )
    if not tricks:
        raise RoleError("trick distillation: the model returned no usable tricks")
    return tricks[:max_tricks]


def check_applicability(
    llm: LLM, trick: Trick, task_text: str, notes: list[str] | None = None, solution: str = ""
) -> bool:
    """Whether the model thinks `trick` can be applied to (and could help) the task, and, given the
    current `solution`'s plan, on top of that solution."""
    tool = {
        "name": "trick_applicability",
        "description": "Whether the trick applies to the target task.",
        "parameters": {
            "type": "object",
            "properties": {"applicable": {"type": "boolean"}, "reason": {"type": "string"}},
            "required": ["applicable"],
        },
    }
    values = {"task_text": task_text[:MAX_TEXT], "trick": trick, "solution": solution}
    args = _ask(llm, "retriever", "trick_check", values, tool, notes)
    value = args.get("applicable")
    if isinstance(value, str):
        return value.strip().lower() in ("true", "yes", "1")
    return bool(value)


LESSON_KEYS = ("tip", "failing_code", "error", "fixed_code")


def abstract_fix(llm: LLM, error: str, failing_code: str, fixed_code: str, plan: str = "") -> dict[str, str]:
    """Agent K's experience entry for a verified fix: a general tip plus a minimal worked example."""
    tool = {
        "name": "fix_lesson",
        "description": "A reusable lesson from one fixed error.",
        "parameters": {
            "type": "object",
            "properties": {k: {"type": "string"} for k in LESSON_KEYS},
            "required": list(LESSON_KEYS),
        },
    }
    values = {"error": error[-MAX_TEXT:], "failing_code": failing_code[:MAX_TEXT],
              "fixed_code": fixed_code[:MAX_TEXT], "plan": plan}  # fmt: skip
    args = _ask(llm, "analyzer", "experience_fix", values, tool)
    lesson = {k: str(args.get(k) or "").strip() for k in LESSON_KEYS}
    if not lesson["tip"]:
        raise RoleError("fix lesson: the model returned no tip")
    return lesson


def rank_by_difficulty(llm: LLM, tasks: list[dict[str, str]]) -> list[str]:
    """Task names ordered easiest first, as the model judges them (names it did not know are dropped,
    names it left out follow in the given order)."""
    names = [t["name"] for t in tasks]
    tool = {
        "name": "task_order",
        "description": "Task names from easiest to hardest.",
        "parameters": {
            "type": "object",
            "properties": {"order": {"type": "array", "items": {"type": "string", "enum": names}}},
            "required": ["order"],
        },
    }
    args = _ask(llm, "planner", "task_difficulty", {"tasks": tasks}, tool)
    ranked = _canonical(args.get("order"), names)
    if not ranked:
        raise RoleError(f"task difficulty: the model named no known task (got {args.get('order')!r})")
    return ranked + [n for n in names if n not in ranked]
