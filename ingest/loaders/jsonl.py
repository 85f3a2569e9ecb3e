"""AutoMind-style JSON lines {title, introduction, tags, solutions: {name: text}}: a document per solution."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from automind.ingest.loaders.base import Document, Loader, LoadError, LoadOptions, read_text, slugify

KIND = "solutions"


def _place(name: str) -> int:
    """'1st place solution' -> 1; -1 when the name carries no place."""
    m = re.search(r"\b(\d+)(st|nd|rd|th)\b", name)
    return int(m.group(1)) if m else -1


def load_jsonl(path: Path, options: LoadOptions | None = None) -> Iterator[Document | LoadError]:
    """AutoMind-style records {title, introduction, tags, solutions: {name: text}}: one document per solution."""
    text = read_text(path)
    good = 0
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            yield LoadError(f"{path}:{n}", f"invalid JSON: {e.msg}")
            continue
        if not isinstance(rec, dict) or not rec.get("title") or not isinstance(rec.get("solutions"), dict):
            yield LoadError(f"{path}:{n}", "record needs `title` and a `solutions` mapping {name: text}")
            continue
        title = str(rec["title"])
        intro = str(rec.get("introduction") or "").strip()
        tags = rec.get("tags") or []
        tags = [str(t) for t in tags] if isinstance(tags, list) else [str(tags)]
        slug = slugify(title)
        for name, body in rec["solutions"].items():
            if not str(body or "").strip():
                continue
            intro_short = intro[:600] + ("..." if len(intro) > 600 else "")
            good += 1
            yield Document(
                kind=KIND,
                source=f"{path}#{slug}/{slugify(str(name))}",
                text=f"# {title}\n\n{intro_short}\n\n## {name}\n\n{str(body).strip()}",
                metadata={
                    "title": f"{title}: {name}",
                    "competition": str(rec.get("competition") or slug),
                    "rank": _place(str(name)),
                    "tags": ", ".join(tags),
                },
            )
    if good == 0:
        raise LoadError(
            path, "no usable records (each line: {title, introduction, tags, solutions: {name: text}})"
        )


LOADER = Loader(
    kind="jsonl",
    extensions=(".jsonl",),
    load=load_jsonl,
    sniff=lambda path: path.suffix.lower() == ".jsonl",
    order=30,
    help="AutoMind-style JSON lines: {title, introduction, tags, solutions: {name: text}}",
)
