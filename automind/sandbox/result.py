"""What an execution produced: `ExecResult`, and reading its captured output back."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Status = Literal["ok", "error", "timeout", "memory"]
Kill = Literal["timeout", "memory", "disk"]  # why the sandbox killed an execution (disk ends as "error")


@dataclass
class ExecResult:
    status: Status
    exit_code: int | None
    stdout: str
    stderr: str
    exc_type: str | None
    traceback: str | None
    wall_s: float
    peak_mem_mb: float
    workspace: Path
    message: str = ""  # one line saying why it ended, e.g. "timed out after 5 s; process tree killed"
    violations: list[str] = field(default_factory=list)  # what the guard refused (writes outside, private)
    head_chars: int = 4000
    tail_chars: int = 6000
    isolation: str = ""  # how the execution was contained (see Isolation.describe)
    # input/ files (and folders listed) the script's Python code read, relative to input/; a session's
    # list covers every cell so far. Files opened by native code (pyarrow, a C loader) are not seen.
    inputs_read: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def submission_path(self) -> Path:
        return self.workspace / "submission" / "submission.csv"

    @property
    def output(self) -> str:
        """stdout, stderr and the ending in one text, middle cut out when long (for prompts)."""
        parts = [self.stdout.rstrip("\n")]
        if self.stderr.strip():
            parts.append("[stderr]\n" + self.stderr.rstrip("\n"))
        if self.violations:
            parts.append("[sandbox refused]\n" + "\n".join(self.violations[:20]))
        if not self.ok and self.message:
            parts.append(f"[{self.status}] {self.message}")
        return truncate("\n".join(p for p in parts if p), self.head_chars, self.tail_chars)

    def to_dict(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in ("status", "exit_code", "exc_type", "traceback", "message")}
        d.update(wall_s=round(self.wall_s, 3), peak_mem_mb=round(self.peak_mem_mb, 1))
        d.update(workspace=str(self.workspace), violations=self.violations, output=self.output)
        d.update(isolation=self.isolation, inputs_read=self.inputs_read)
        return d


def truncate(text: str, head: int, tail: int) -> str:
    """Keep the head and the tail of a long text (where errors and final scores are)."""
    if len(text) <= head + tail + 100:
        return text
    cut = len(text) - head - tail
    return f"{text[:head]}\n... [{cut} characters cut] ...\n{text[-tail:]}"


def read_capture(path: Path, limit: int = 4_000_000, offset: int = 0) -> str:
    """Read captured output from `offset`; a runaway printer gets its head and tail kept."""
    try:
        size = path.stat().st_size
    except OSError:
        return ""
    with open(path, "rb") as f:
        f.seek(offset)
        n = size - offset
        if n <= limit:
            data = f.read()
        else:
            head = f.read(limit // 2)
            f.seek(size - limit // 2)
            data = head + f"\n... [{n - limit} bytes cut] ...\n".encode() + f.read()
    return data.decode("utf-8", errors="replace")


def load_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
