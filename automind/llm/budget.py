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
FLOOR_CHARS = 1200  # the first pass leaves every text section at least this much

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
    ("material", "head"),
    ("analysis", "head"),
    ("parent_output", "tail"),
    ("output", "tail"),
    ("parent_code", "both"),
    ("program", "tail"),
    ("task_description", "head"),
    ("task_text", "head"),
    ("text", "head"),
    ("error", "tail"),
    ("code", "both"),
)

# Sections a template must get whole, whatever the budget (the edit's SEARCH text must match them).
NEVER_CUT: dict[str, frozenset[str]] = {
    "edit_code": frozenset({"code"}),
    "rewrite_code": frozenset({"code"}),
    "repair": frozenset({"code"}),
    "leakage_check": frozenset({"code"}),  # the checkers judge the whole script
    "data_usage": frozenset({"code"}),
    "ablation_code": frozenset({"code"}),  # refine splices blocks by exact text
    "extract_block": frozenset({"code"}),
    "block_code": frozenset({"code"}),
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


def _cut_text(text: str, drop: int, keep: Keep, floor: int = 0) -> str:
    """`text` shortened by `drop` characters (marker included) but not below `floor`, keeping the
    chosen end(s); a remainder too short to be useful drops the section."""
    target = max(len(text) - drop, floor)
    if target >= len(text):
        return text
    if target <= 80:
        return ""
    marker = f"\n[... {len(text) - target} characters cut to fit the model's context ...]\n"
    room = max(0, target - len(marker))
    if keep == "head":
        return text[:room].rstrip() + marker
    if keep == "tail":
        return marker + text[len(text) - room :].lstrip()
    head = room // 3
    return text[:head].rstrip() + marker + text[len(text) - (room - head) :].lstrip()


def _cut_list(items: list[Any], drop: int, keep: Keep, floor: int = 0) -> list[Any]:
    """Remove whole items (from the less important end) until `drop` characters are gone, keeping
    at least `floor` items."""
    out = list(items)
    removed = 0
    while len(out) > floor and removed < drop:
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

    Two passes: the first shrinks each section in turn but leaves it a floor (FLOOR_CHARS of a text,
    one item of a list), so a high-priority section is not emptied while a lower one still has room;
    the second may empty sections, lowest priority first. Returns the text and one `Cut` per section
    shrunk (empty when it fit as it was). When every cuttable section is exhausted the last rendering
    is returned; the caller sees that it is still over budget.
    """
    values = dict(values)
    text = render(values)
    originals: dict[str, Any] = {}
    protected = NEVER_CUT.get(template, frozenset())
    for text_floor, list_floor in ((FLOOR_CHARS, 1), (0, 0)):
        for name, keep in order:
            over = estimate_tokens(text) + MARGIN_TOKENS - budget_tokens
            if over <= 0:
                break
            value = values.get(name)
            if name in protected or not value or not isinstance(value, str | list):
                continue
            drop = int(over * CHARS_PER_TOKEN) + 1
            original = originals.get(name, value)
            if isinstance(value, str):  # always cut the original text, so there is one marker
                new: Any = _cut_text(original, len(original) - len(value) + drop, keep, text_floor)
            else:
                new = _cut_list(value, drop, keep, list_floor)
            if len(new) >= len(value):
                continue
            shorter = render({**values, name: new})
            if len(shorter) >= len(text):  # the template does not show this section: nothing gained
                continue
            originals.setdefault(name, original)
            values[name], text = new, shorter
    cuts = [
        Cut(
            template,
            name,
            size,
            len(values[name]),
            "characters" if isinstance(values[name], str) else "items",
        )
        for name, size in ((n, len(v)) for n, v in originals.items())
    ]
    return text, cuts
