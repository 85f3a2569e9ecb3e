"""Deterministic re-runs: answer from a cassette, or record one while talking to a real model.

A cassette is JSONL. An optional first line `{"cassette": 1, "ordered": true}` is the header.
Every other line is one answer: `{"role", "key", "text", "tool_args", "usage"}` where `key` is a
hash of the prompt messages (see `prompt_key`). Lookup is by (role, key); when a cassette is
`ordered` (hand-written scripts for tests), an answer whose key does not match is taken from that
role's remaining entries in file order, so scripts need no hashes at all.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import defaultdict, deque
from pathlib import Path
from typing import TYPE_CHECKING, Any

from automind.llm.client import LLM, LLMError, Reply, Request, Usage

if TYPE_CHECKING:
    from automind.config import LLMConfig


def prompt_key(messages: list[dict[str, Any]]) -> str:
    """Stable hash of the conversation (role + content of each message)."""
    canon = [{"role": m.get("role"), "content": m.get("content")} for m in messages]
    blob = json.dumps(canon, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def _entry(req: Request, reply: Reply) -> dict[str, Any]:
    u = reply.usage
    usage = {"prompt_tokens": u.prompt_tokens, "completion_tokens": u.completion_tokens, "model": u.model}
    return {
        "role": req.role,
        "key": prompt_key(req.messages),
        "text": reply.text,
        "tool_args": reply.tool_args,
        "usage": usage,
    }


def load_cassette(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(header, entries); a malformed line is an error naming the file and line number."""
    header: dict[str, Any] = {}
    entries: list[dict[str, Any]] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            raise LLMError(f"cassette {path} line {n} is not JSON ({e.msg}); fix or re-record it") from e
        if not isinstance(rec, dict):
            raise LLMError(f"cassette {path} line {n}: expected a JSON object, got {type(rec).__name__}")
        if "cassette" in rec:
            header = rec
        elif "text" in rec or "tool_args" in rec:
            entries.append(rec)
        else:
            raise LLMError(f"cassette {path} line {n}: an answer needs 'text' or 'tool_args'")
    return header, entries


class ReplayLLM(LLM):
    """Answers from a cassette; never touches the network."""

    provider = "replay"

    def __init__(self, cfg: LLMConfig, path: str | Path, *, ordered: bool | None = None):
        super().__init__(cfg)
        self.path = Path(path)
        if not self.path.is_file():
            raise LLMError(
                f"replay cassette not found: {self.path} (record one with --llm record:{self.path})"
            )
        header, entries = load_cassette(self.path)
        self.ordered = bool(header.get("ordered", False)) if ordered is None else ordered
        self._by_key: dict[tuple[str, str], deque[dict[str, Any]]] = defaultdict(deque)
        self._by_role: dict[str, deque[dict[str, Any]]] = defaultdict(deque)
        self._last: dict[tuple[str, str], dict[str, Any]] = {}
        for e in entries:
            role = e.get("role") or "*"
            if e.get("key"):
                self._by_key[(role, e["key"])].append(e)
            self._by_role[role].append(e)
        self._used: set[int] = set()
        self._lock_replay = threading.Lock()

    @property
    def base_url(self) -> str | None:
        return str(self.path)

    def _next_ordered(self, role: str) -> dict[str, Any] | None:
        for queue in (self._by_role.get(role), self._by_role.get("*")):
            while queue:
                e = queue.popleft()
                if id(e) not in self._used:
                    return e
        return None

    def _find(self, req: Request) -> dict[str, Any] | None:
        key = prompt_key(req.messages)
        with self._lock_replay:
            queue = self._by_key.get((req.role, key)) or self._by_key.get(("*", key))
            while queue:
                e = queue.popleft()
                if id(e) not in self._used:
                    self._used.add(id(e))
                    self._last[(req.role, key)] = e
                    return e
            if self.ordered and (nxt := self._next_ordered(req.role)) is not None:
                self._used.add(id(nxt))
                return nxt
            # The same prompt asked more often than recorded: repeat its last answer.
            return self._last.get((req.role, key))

    def _complete(self, req: Request) -> Reply:
        e = self._find(req)
        if e is None:
            mode = "ordered script is exhausted for this role" if self.ordered else "no entry with this key"
            raise LLMError(
                f"replay cassette {self.path} has no answer for role '{req.role}' (prompt hash "
                f"{prompt_key(req.messages)}): {mode}. Re-record with --llm record:{self.path} or add an entry."
            )
        u = e.get("usage") or {}
        usage = Usage(
            int(u.get("prompt_tokens", 0)),
            int(u.get("completion_tokens", 0)),
            model=u.get("model") or req.model,
        )
        args = e.get("tool_args")
        return Reply(e.get("text") or (json.dumps(args) if args is not None else ""), args, usage)


class RecordingLLM(LLM):
    """Wraps a real provider and appends every answer to a cassette (flushed per call)."""

    provider = "record"

    def __init__(self, inner: LLM, path: str | Path):
        super().__init__(inner.cfg, one_model=inner.one_model)
        self.inner = inner
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists() or self.path.stat().st_size == 0:
            self._write({"cassette": 1, "ordered": False, "provider": inner.provider})
        self._write_lock = threading.Lock()

    @property
    def base_url(self) -> str | None:
        return self.inner.base_url

    def model_for(self, role: str) -> str:
        return self.inner.model_for(role)

    def _write(self, rec: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")

    def _complete(self, req: Request) -> Reply:
        reply = self.inner._complete(req)
        with self._write_lock:
            self._write(_entry(req, reply))
        return reply
