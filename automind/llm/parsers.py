"""Pull structured pieces out of free-form model replies.

Models wrap answers in prose, several code fences, `<think>` sections and half-formed JSON; these
functions pick the intended part and return None (or report what failed) instead of guessing wildly.
Everything here is pure text processing so the search and the offline policy can share it.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import Any

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w+.#-]*)[^\n]*\n(.*?)^[ \t]*\1[ \t]*$", re.M | re.S)
_OPEN_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w+.#-]*)[^\n]*\n", re.M)
_NUMBER_IN_TAG = r"\s*([-+]?\d+(?:\.\d+)?|[-+]?\.\d+)\s*(?:/\s*\d+(?:\.\d+)?)?\s*"
_SCORE = re.compile(rf"<score>{_NUMBER_IN_TAG}</score>", re.I)
_PY_TAGS = {"python", "py", "python3", "py3"}


# --- tagged sections ---------------------------------------------------------------------------


def extract_section(text: str, tag: str) -> str | None:
    """Content of the last complete `<tag>...</tag>`; an unclosed final tag runs to the end."""
    matches = re.findall(rf"<{tag}>(.*?)</{tag}>", text, re.S | re.I)
    if matches:
        return matches[-1].strip()
    opened = re.search(rf"<{tag}>(.*)$", text, re.S | re.I)
    return opened.group(1).strip() if opened else None


def strip_think(text: str) -> str:
    """Drop reasoning sections (`<think>`, including one left unclosed by a truncated reply)."""
    text = re.sub(r"<think>.*?</think>", "", text, flags=re.S | re.I)
    text = re.sub(r"<think>.*$", "", text, flags=re.S | re.I)
    return text.strip()


def extract_plan(text: str) -> str:
    """The plan: a `<plan>` section when present, else the reply minus reasoning and code."""
    body = strip_think(text)
    section = extract_section(body, "plan")
    if section:
        return section
    return _FENCE.sub("", body).strip()


# --- scores ------------------------------------------------------------------------------------


def extract_score(text: str, tag: str = "score") -> float | None:
    """The last `<tag>x</tag>` number in the reply (ignoring reasoning; "x / 5" accepted); None when
    absent or not a number."""
    pattern = (
        _SCORE
        if tag == "score"
        else re.compile(rf"<{re.escape(tag)}>{_NUMBER_IN_TAG}</{re.escape(tag)}>", re.I)
    )
    found = pattern.findall(strip_think(text)) or pattern.findall(text)
    if not found:
        return None
    try:
        return float(found[-1])
    except ValueError:
        return None


# --- code --------------------------------------------------------------------------------------


@dataclass
class CodeBlock:
    lang: str
    code: str

    @property
    def is_python(self) -> bool:
        return self.lang.lower() in _PY_TAGS

    @property
    def parses(self) -> bool:
        try:
            ast.parse(self.code)
        except (SyntaxError, ValueError):
            return False
        return True


def code_blocks(text: str) -> list[CodeBlock]:
    """All fenced blocks in order; a trailing fence left open (truncated reply) counts as one."""
    blocks = [CodeBlock(m.group(2), m.group(3).rstrip("\n")) for m in _FENCE.finditer(text)]
    rest = _FENCE.sub("", text)
    tail = _OPEN_FENCE.search(rest)
    if tail:
        blocks.append(CodeBlock(tail.group(2), rest[tail.end() :].rstrip()))
    return blocks


def extract_code(text: str) -> str | None:
    """The script the model meant: prefer python-tagged blocks, then untagged ones; among those the
    longest that parses. Falls back to the longest candidate even if it does not parse (the caller's
    AST check reports the error), and to the whole reply when it is itself valid Python with no fences."""
    body = strip_think(text) or text
    blocks = [b for b in code_blocks(body) if b.code.strip()]
    if not blocks:
        candidate = body.strip()
        if candidate and "\n" in candidate and CodeBlock("python", candidate).parses:
            return candidate
        return None
    tagged = [b for b in blocks if b.is_python]
    untagged = [b for b in blocks if not b.lang]
    for group in (tagged, untagged):
        good = [b for b in group if b.parses]
        if good:
            return max(good, key=lambda b: len(b.code)).code
    pool = tagged or untagged or blocks
    return max(pool, key=lambda b: len(b.code)).code


# --- JSON --------------------------------------------------------------------------------------


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, ValueError):
        pass
    # Common model slips: trailing commas and Python literals.
    cleaned = re.sub(r",\s*([}\]])", r"\1", text)
    cleaned = re.sub(r"\bTrue\b", "true", re.sub(r"\bFalse\b", "false", re.sub(r"\bNone\b", "null", cleaned)))
    try:
        return json.loads(cleaned)
    except (json.JSONDecodeError, ValueError):
        pass
    try:  # single-quoted Python dict
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, dict | list) else None


def extract_json(text: str) -> dict[str, Any] | list[Any] | None:
    """The first JSON object in the reply: a ```json block, the whole reply, or an embedded `{...}`.

    Returns a dict (or a top-level list when that is all there is); None when nothing decodes.
    """
    body = strip_think(text) or text
    for block in code_blocks(body):
        if block.lang.lower() in ("json", "") and isinstance(
            value := _loads(block.code.strip()), dict | list
        ):
            return value
    whole = _loads(body.strip())
    if isinstance(whole, dict | list):
        return whole
    decoder = json.JSONDecoder()
    found_list: list[Any] | None = None
    for m in re.finditer(r"[{\[]", body):
        try:
            value, _ = decoder.raw_decode(body, m.start())
        except json.JSONDecodeError:
            end = _balanced_end(body, m.start())
            value = _loads(body[m.start() : end]) if end else None
        if isinstance(value, dict):
            return value
        if isinstance(value, list) and found_list is None:
            found_list = value
    return found_list


def _balanced_end(text: str, start: int) -> int | None:
    """Index after the bracket closing text[start], honouring strings; None when unbalanced."""
    pairs = {"{": "}", "[": "]"}
    stack: list[str] = []
    in_str = False
    escape = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_str:
            if escape:
                escape = False
            elif ch == "\\":
                escape = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in pairs:
            stack.append(pairs[ch])
        elif ch in "}]":
            if not stack or stack.pop() != ch:
                return None
            if not stack:
                return i + 1
    return None


# --- SEARCH/REPLACE edits ----------------------------------------------------------------------

_SR_START = re.compile(r"^[ \t]*<{5,9}[ \t]*SEARCH[ \t]*$")
_SR_MID = re.compile(r"^[ \t]*={5,9}[ \t]*$")
_SR_END = re.compile(r"^[ \t]*>{5,9}[ \t]*REPLACE[ \t]*$")


@dataclass
class EditBlock:
    """Replace `search` (lines of the current code) with `replace`; an empty search appends."""

    search: str
    replace: str

    def preview(self, lines: int = 3) -> str:
        head = self.search.strip("\n").splitlines()[:lines]
        return "\n".join(head) if head else "<empty search>"


class EditError(ValueError):
    """SEARCH/REPLACE edits could not be applied; the message quotes the blocks that matched nothing."""


def parse_search_replace(text: str) -> list[EditBlock]:
    """Every `<<<<<<< SEARCH / ======= / >>>>>>> REPLACE` block, in order.

    Marker lengths 5-9 and surrounding whitespace are tolerated; a block cut off before its
    REPLACE marker (truncated reply) is dropped rather than applied half-written.
    """
    blocks: list[EditBlock] = []
    state = None
    search: list[str] = []
    replace: list[str] = []
    for line in strip_think(text).splitlines():
        if _SR_START.match(line):
            state, search, replace = "search", [], []
        elif state == "search" and _SR_MID.match(line):
            state = "replace"
        elif state == "replace" and _SR_END.match(line):
            blocks.append(EditBlock("\n".join(search), "\n".join(replace)))
            state = None
        elif state == "search":
            search.append(line)
        elif state == "replace":
            replace.append(line)
    return blocks


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _find_lines(hay: list[str], needle: list[str], key) -> int | None:
    keyed = [key(n) for n in needle]
    for i in range(len(hay) - len(needle) + 1):
        if all(key(hay[i + j]) == keyed[j] for j in range(len(needle))):
            return i
    return None


def _reindent(lines: list[str], old: str, new: str) -> list[str]:
    """Shift `lines` by the indentation drift between the SEARCH text (`old`) and the real code (`new`)."""
    delta = len(new.expandtabs(4)) - len(old.expandtabs(4))
    if delta == 0:
        return lines
    out = []
    for line in lines:
        body = line.lstrip()
        if not body:
            out.append(line)
            continue
        width = max(0, len(_indent(line).expandtabs(4)) + delta)
        out.append(("\t" * (width // 4) if new.startswith("\t") else " " * width) + body)
    return out


def _apply_one(code: str, block: EditBlock) -> str | None:
    search = block.search.strip("\n")
    if not search.strip():
        sep = "" if not code or code.endswith("\n") else "\n"
        return code + sep + block.replace.strip("\n") + "\n"
    if search in code:
        return code.replace(search, block.replace.strip("\n"), 1)
    lines = code.splitlines()
    needle = search.splitlines()
    while needle and not needle[-1].strip():
        needle.pop()
    repl = block.replace.strip("\n").splitlines() if block.replace.strip() else []
    # 1) trailing whitespace differs
    at = _find_lines(lines, needle, str.rstrip)
    if at is None:
        # 2) indentation drift: compare stripped lines, then shift the replacement by the same offset
        at = _find_lines(lines, needle, str.strip)
        if at is not None:
            first = next(j for j, n in enumerate(needle) if n.strip())
            repl = _reindent(repl, _indent(needle[first]), _indent(lines[at + first]))
    if at is None:
        # 3) blank lines inside the SEARCH text differ from the code
        return _apply_ignoring_blanks(lines, needle, repl, code.endswith("\n"))
    new_lines = lines[:at] + repl + lines[at + len(needle) :]
    return "\n".join(new_lines) + ("\n" if code.endswith("\n") else "")


def _apply_ignoring_blanks(lines: list[str], needle: list[str], repl: list[str], nl: bool) -> str | None:
    wanted = [n.strip() for n in needle if n.strip()]
    if not wanted:
        return None
    idx = [i for i, line in enumerate(lines) if line.strip()]
    for k in range(len(idx) - len(wanted) + 1):
        if all(lines[idx[k + j]].strip() == wanted[j] for j in range(len(wanted))):
            start, end = idx[k], idx[k + len(wanted) - 1] + 1
            first = next(n for n in needle if n.strip())
            repl = _reindent(repl, _indent(first), _indent(lines[start]))
            return "\n".join(lines[:start] + repl + lines[end:]) + ("\n" if nl else "")
    return None


def apply_search_replace(
    code: str, blocks: list[EditBlock] | str, *, strict: bool = False
) -> tuple[str, list[EditBlock]]:
    """Apply blocks in order; returns (new_code, blocks that matched nothing).

    Matching tries, in turn: exact text, lines equal up to trailing whitespace, lines equal up to
    indentation (the replacement is re-indented by the same drift), and finally ignoring blank
    lines. Only the first occurrence is replaced. With `strict`, unmatched blocks raise EditError.
    """
    if isinstance(blocks, str):
        blocks = parse_search_replace(blocks)
    unmatched: list[EditBlock] = []
    for block in blocks:
        new = _apply_one(code, block)
        if new is None:
            unmatched.append(block)
        else:
            code = new
    if strict and unmatched:
        raise EditError(describe_unmatched(unmatched))
    return code, unmatched


def describe_unmatched(blocks: list[EditBlock]) -> str:
    """A message for the model (or a log) quoting the start of each SEARCH that matched nothing."""
    parts = [f"{len(blocks)} SEARCH block(s) matched nothing in the current code:"]
    for b in blocks:
        parts.append("---\n" + b.preview())
    parts.append("Copy SEARCH text exactly from the current code.")
    return "\n".join(parts)
