"""What every loader shares: the Document it yields, the LoadError it raises, the Loader record that
registers a kind, and small readers that turn unreadable files into LoadErrors that say why."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml


@dataclass
class Document:
    """One source document: `kind` is the store collection it goes to."""

    kind: str
    source: str
    text: str
    metadata: dict[str, Any] = field(default_factory=dict)
    summary: str | None = None  # papers: a structured summary, stored as its own chunk
    labels: list[tuple[str, str, float]] | None = None  # preset labels (cards), skip the labeller
    split: bool = True  # False: the whole text is one chunk


class LoadError(Exception):
    """A source could not be read; `str()` is the reason, `.source` where."""

    def __init__(self, source: str | Path, reason: str):
        super().__init__(reason)
        self.source = str(source)
        self.reason = reason


@dataclass(frozen=True)
class LoadOptions:
    """Options a loader may use; each takes what it needs and ignores the rest."""

    summarize: Callable | None = None  # papers: an LLM summariser (extractive without one)
    fetch_links: bool = False  # solutions index: also fetch the linked write-ups
    timeout: float = 10.0  # seconds per web request


LoadFn = Callable[[Path, LoadOptions], Iterator["Document | LoadError"]]


@dataclass(frozen=True)
class Loader:
    """One kind of knowledge source.

    `extensions` are the files the kind reads when a folder is walked with `--kind KIND`; `sniff` says
    whether a file (or, for `folder` loaders, a whole folder) is this kind when `--kind auto` guesses.
    Lower `order` sniffs first.
    """

    kind: str
    extensions: tuple[str, ...]
    load: LoadFn
    sniff: Callable[[Path], bool] = lambda path: False
    folder: bool = False
    order: int = 50
    help: str = ""


# -- readers that fail with reasons ----------------------------------------------------------------


def read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as e:
        raise LoadError(path, f"cannot read file: {e.strerror or e}") from e
    if not data.strip():
        raise LoadError(path, "empty file")
    if b"\0" in data[:4096]:
        raise LoadError(path, "binary content (NUL bytes), not a text document")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise LoadError(path, f"not UTF-8 text (bad byte at offset {e.start})") from e


def read_json(path: Path) -> Any:
    try:
        return json.loads(read_text(path))
    except json.JSONDecodeError as e:
        raise LoadError(path, f"invalid JSON at line {e.lineno} column {e.colno}: {e.msg}") from e


_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: ~30x faster on big indexes


def read_yaml(path: Path) -> Any:
    try:
        return yaml.load(read_text(path), Loader=_YAML_LOADER)
    except yaml.YAMLError as e:
        raise LoadError(path, f"invalid YAML: {str(e).splitlines()[0]}") from e


def head(path: Path, size: int = 4000) -> str:
    """The start of a file for sniffing ('' when unreadable)."""
    try:
        with path.open("rb") as f:
            return f.read(size).decode("utf-8", errors="replace")
    except OSError:
        return ""


def to_rank(value: Any) -> int:
    """Leaderboard rank as int, -1 when unknown ('null', '', 'gold', None)."""
    if isinstance(value, bool):
        return -1
    if isinstance(value, int):
        return value
    m = re.match(r"\s*(\d+)", str(value or ""))
    return int(m.group(1)) if m else -1


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


_FRONT = re.compile(r"\A---\s*\n(.*?)\n---\s*(?:\n|\Z)", re.S)


def split_front_matter(text: str, source: str | Path) -> tuple[dict[str, Any], str]:
    m = _FRONT.match(text)
    if not m:
        return {}, text
    try:
        meta = yaml.safe_load(m.group(1)) or {}
    except yaml.YAMLError as e:
        raise LoadError(source, f"invalid YAML front matter: {str(e).splitlines()[0]}") from e
    if not isinstance(meta, dict):
        raise LoadError(source, "front matter must be a mapping of key: value lines")
    return meta, text[m.end() :]


def first_heading(text: str) -> str:
    m = re.search(r"^#{1,3}\s+(.+)$", text, re.M)
    return m.group(1).strip() if m else ""
