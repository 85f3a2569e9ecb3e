"""Fit a prompt into the model's context window by cutting its lowest-priority sections first.

A prompt is a template plus variable sections (retrieved papers, experience, run memory, tricks, the
parent's output, code...). The budget is `llm.context_tokens` minus what the reply needs (the role's
`max_tokens`, else a quarter of the window, at most 4096 tokens) minus the system message. Tokens
are estimated from characters (`CHARS_PER_TOKEN`, on the safe side for code), which is cheap and
needs no tokenizer. When the rendered prompt is over budget, sections are shrunk in `CUT_ORDER`
(lowest priority first) until it fits: a list loses its least important items, a text keeps its
most useful end with a visible "[... N characters cut ...]" marker. Every cut is returned as a `Cut`
so the caller logs it; nothing is ever cut silently. Sections a template needs verbatim (the code
a SEARCH/REPLACE edit must match) are never cut.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

CHARS_PER_TOKEN = 3.0  # prose averages ~4 characters per token, code ~3: err on the side of code
MARGIN_TOKENS = 64  # slack for the estimate itself

Keep = Literal["head", "tail", "both", "first", "last"]  # texts: which end to keep; lists: which items

# Lowest priority first. Lists drop items: "first" keeps the first items (ranked best-first),
# "last" keeps the last ones (memory is oldest-first, so the newest survive).
CUT_ORDER: tuple[tuple[str, Keep], ...] = (
    ("papers", "first"),
    ("experience", "first"),
    ("dead_ends", "first"),
    ("fixes", "first"),
    ("memory", "last"),
    ("tricks", "first"),
    ("lineage", "last"),
    ("analysis", "head"),
    ("parent_output", "tail"),
    ("output", "tail"),
    ("parent_code", "both"),
    ("program", "tail"),
    ("task_description", "head"),
    ("error", "tail"),
    ("code", "both"),
)

# Sections a template must get whole, whatever the budget (the edit's SEARCH text must match them).
NEVER_CUT: dict[str, frozenset[str]] = {
    "edit_code": frozenset({"code"}),
    "rewrite_code": frozenset({"code"}),
    "repair": frozenset({"code"}),
}


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def reply_reserve(context_tokens: int, max_tokens: int | None) -> int:
    """Tokens kept free for the answer: the role's max_tokens, else a quarter of the window (<= 4096)."""
    if max_tokens:
        return int(max_tokens)
    return min(4096, max(256, context_tokens // 4))


@dataclass
class Cut:
    """One deliberate cut: which section of which prompt, from how much to how much."""

    template: str
    section: str
    before: int
    after: int
    unit: str  # "characters" or "items"

    @property
    def key(self) -> tuple[str, str]:
        return self.template, self.section

    def note(self, context_tokens: int) -> str:
        return (
            f"context: cut section '{self.section}' of prompt '{self.template}' from {self.before} to "
            f"{self.after} {self.unit} to fit llm.context_tokens={context_tokens}"
        )


def _size(item: Any) -> int:
    if isinstance(item, str):
        return len(item)
    if isinstance(item, dict):
        return sum(len(str(v)) for v in item.values())
    parts = (getattr(item, a, "") for a in ("title", "text", "source", "stage"))
    return sum(len(str(p or "")) for p in parts) or len(str(item))


def _cut_text(text: str, drop: int, keep: Keep) -> str:
    """`text` shortened by at least `drop` characters (marker included), keeping the chosen end(s)."""
    if drop <= 0:
        return text
    target = len(text) - drop
    if target <= 80:  # too little left to be useful: drop the section
        return ""
    marker = f"\n[... {drop} characters cut to fit the model's context ...]\n"
    room = max(0, target - len(marker))
    if keep == "head":
        return text[:room].rstrip() + marker
    if keep == "tail":
        return marker + text[len(text) - room :].lstrip()
    head = room // 3
    return text[:head].rstrip() + marker + text[len(text) - (room - head) :].lstrip()


def _cut_list(items: list[Any], drop: int, keep: Keep) -> list[Any]:
    """Remove whole items (from the less important end) until at least `drop` characters are gone."""
    out = list(items)
    removed = 0
    while out and removed < drop:
        removed += _size(out.pop(0 if keep == "last" else -1)) + 4
    return out


def fit(
    template: str,
    render: Callable[[dict[str, Any]], str],
    values: dict[str, Any],
    budget_tokens: int,
    order: Sequence[tuple[str, Keep]] = CUT_ORDER,
) -> tuple[str, list[Cut]]:
    """Render `values`, shrinking sections in `order` until the estimate fits `budget_tokens`.

    Returns the text and the cuts made (empty when it fit as it was). When even every cuttable section
    is exhausted the last rendering is returned; the caller sees it is still over budget.
    """
    values = dict(values)
    text = render(values)
    cuts: list[Cut] = []
    protected = NEVER_CUT.get(template, frozenset())
    for name, keep in order:
        over = estimate_tokens(text) + MARGIN_TOKENS - budget_tokens
        if over <= 0:
            break
        value = values.get(name)
        if name in protected or not value or not isinstance(value, str | list):
            continue
        drop = int(over * CHARS_PER_TOKEN) + 1
        if isinstance(value, str):
            new: Any = _cut_text(value, drop, keep)
            cut = Cut(template, name, len(value), len(new), "characters")
        else:
            new = _cut_list(value, drop, keep)
            cut = Cut(template, name, len(value), len(new), "items")
        values[name] = new
        text = render(values)
        cuts.append(cut)
    return text, cuts
