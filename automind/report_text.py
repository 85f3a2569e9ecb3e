"""Text helpers of the HTML report: highlighted code, diffs, provenance links and machine-path scrubbing.

Everything returns escaped HTML (`Markup`) or plain strings; nothing here reaches the network: Pygments
writes inline styles, diffs come from difflib, and a link is only made from a source that already is a URL.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup, escape

DIFF_CONTEXT = 3  # unchanged lines shown around each change
KIND_NAMES = {  # Trick.kind -> what a reader calls it
    "card": "card",
    "post": "write-up",
    "paper": "paper",
    "competition": "competition",
    "experience": "experience",
    "distilled": "distilled by the LLM",
}


def highlight(code: str, *, line_numbers: bool = False) -> Markup:
    """Python source as HTML with inline colours (no stylesheet to fetch, nothing to run)."""
    from pygments import highlight as pyg_highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer

    formatter = HtmlFormatter(noclasses=True, nobackground=True, linenos="inline" if line_numbers else False)
    return Markup(pyg_highlight(code, PythonLexer(), formatter))


@dataclass(frozen=True)
class DiffLine:
    kind: str  # add | del | hunk | ctx | file
    text: str


@dataclass(frozen=True)
class Diff:
    lines: list[DiffLine]
    added: int
    removed: int


def diff(old: str, new: str, old_name: str, new_name: str) -> Diff:
    """A unified diff of two scripts, line by line with its kind, and the count of added/removed lines."""
    lines: list[DiffLine] = []
    added = removed = 0
    raw = difflib.unified_diff(
        old.splitlines(), new.splitlines(), old_name, new_name, n=DIFF_CONTEXT, lineterm=""
    )
    for line in raw:
        if line.startswith(("---", "+++")):
            kind = "file"
        elif line.startswith("@@"):
            kind = "hunk"
        elif line.startswith("+"):
            kind, added = "add", added + 1
        elif line.startswith("-"):
            kind, removed = "del", removed + 1
        else:
            kind = "ctx"
        lines.append(DiffLine(kind, line))
    return Diff(lines, added, removed)


def is_url(text: str) -> bool:
    return bool(re.match(r"https?://\S+$", text.strip()))


def provenance(source: str) -> Markup:
    """A trick's source as HTML: each URL of it a plain link (opened only when clicked), the rest text.

    Sources are a card id ("card:ID", shown as ID: the kind says it is a card), a URL, a paper title or
    "competition:SLUG"; an LLM-condensed tip may cite several, joined by "; ".
    """
    parts = [p.strip().removeprefix("card:") for p in (source or "").split(";") if p.strip()]
    out = []
    for p in parts:
        if is_url(p):
            out.append(Markup('<a href="{0}" rel="noopener noreferrer">{0}</a>').format(p))
        else:
            out.append(escape(p))
    return Markup("; ").join(out) if out else Markup("-")


def kind_name(kind: str) -> str:
    return KIND_NAMES.get(kind, kind or "-")


# An absolute path of at least three parts, not part of a URL or of a relative path.
_ABS_PATH = re.compile(r"(?<![\w.:/~-])/(?:[\w.+@-]+/){2,}[\w.+@-]*")


class Scrubber:
    """Removes machine paths from the page: known folders become names, other absolute paths are shortened.

    Known folders (the run, the task, the automind home, the Python installation, the home and temp
    folders) are replaced by a label; any other absolute path of three or more parts keeps its last two.
    """

    def __init__(self, known: dict[str, str | Path | None]):
        pairs: list[tuple[str, str]] = []
        for label, path in known.items():
            if not path:
                continue
            for form in {str(path), os.path.realpath(path)}:
                if form.count("/") >= 2 or (form.count("/") == 1 and len(form) > 4):  # never "/" or "/tmp"
                    pairs.append((form.rstrip("/"), label))
        self.pairs = sorted(set(pairs), key=lambda p: -len(p[0]))  # longest first: the run inside the home
        self.labels = dict(self.pairs)
        alternatives = "|".join(re.escape(path) for path, _ in self.pairs)
        # a whole path or a prefix of one: "/a/b" in "/a/b/c" but never in "/a/bc" or "x/a/b"
        self.pattern = re.compile(rf"(?<![\w.:/~-])({alternatives})(?![\w.+@-])") if self.pairs else None

    @classmethod
    def for_run(cls, run_dir: Path, task_path: str | None) -> Scrubber:
        from automind.config import automind_home

        return cls(
            {
                "RUN_DIR": run_dir.resolve(),
                "TASK_DIR": task_path,
                "AUTOMIND_HOME": automind_home(),
                "PYTHON": sys.prefix,
                "PYTHON_BASE": sys.base_prefix if sys.base_prefix != "/usr" else None,
                "CWD": Path.cwd(),
                "~": Path.home(),
                "TMP": tempfile.gettempdir() if tempfile.gettempdir() != "/tmp" else None,
            }
        )

    def known(self, text: str) -> str:
        """Only the known folders (safe on code and on HTML: nothing else is touched)."""
        if self.pattern is None:
            return text
        return self.pattern.sub(lambda m: self.labels[m.group(1)], text)

    def text(self, text: str | None) -> str:
        """Free text (output, errors, notes): known folders, then any other absolute path shortened."""
        if not text:
            return text or ""
        text = self.known(text)
        return _ABS_PATH.sub(lambda m: ".../" + "/".join(m.group(0).rstrip("/").split("/")[-2:]), text)

    def deep(self, value: object) -> object:
        """`text` applied to every string inside lists and dicts (the run's config)."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {k: self.deep(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.deep(v) for v in value]
        return value


def relative_links(target_dir: Path, files: Iterable[Path]) -> dict[str, str]:
    """name -> link relative to the folder the page is written to, for the files that exist."""
    return {f.name: Path(os.path.relpath(f, target_dir)).as_posix() for f in files if f.is_file()}
