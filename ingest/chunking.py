"""Split documents into retrieval-sized chunks that still say where they come from.

Markdown headings split first (so a chunk never straddles two sections), then long sections are cut
by size with overlap. Each chunk's text starts with its title and heading path, because a bare
paragraph ("we used 5 folds") is useless to a reader, or an embedder, who does not know its context.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from automind.ingest.loaders import Document

# Stage of a chunk, guessed from its heading path first and its text second, by word stems: a stem
# longer than three letters matches words starting with it, a shorter one the word itself.
_STAGE_STEMS = {
    "validation": ("validat", "crossval", "fold", "kfold", "leak", "holdout", "cv"),
    "preprocessing": (
        "preprocess",
        "cleaning",
        "normaliz",
        "normalis",
        "augment",
        "resiz",
        "tokeniz",
        "missing",
    ),
    "feature engineering": ("feature", "encoding"),
    "model": (
        "model",
        "architecture",
        "backbone",
        "network",
        "lightgbm",
        "xgboost",
        "catboost",
        "transformer",
        "bert",
    ),
    "training": ("training", "optimiz", "optimis", "epoch", "loss", "schedul", "pretrain"),
    "ensembling": ("ensembl", "blend", "stack", "averag", "voting"),
    "post-processing": ("postprocess", "threshold", "calibrat", "rounding", "tta"),
}
_STAGES = list(_STAGE_STEMS)


def _stage_pattern() -> re.Pattern:
    """One regex for every stem, a named group per stage in the order above (the first stage wins).

    This runs on every chunk of every document: one pass in C instead of a Python loop over words.
    """
    groups = []
    for i, stems in enumerate(_STAGE_STEMS.values()):
        prefixes = "|".join(s for s in stems if len(s) > 3)
        words = "|".join(s for s in stems if len(s) <= 3)
        alts = ([f"(?:{prefixes})[a-z]*"] if prefixes else []) + ([f"(?:{words})(?![a-z])"] if words else [])
        groups.append(f"(?P<s{i}>{'|'.join(alts)})")
    return re.compile(r"(?<![a-z])(?:" + "|".join(groups) + ")")


_STAGE_RE = _stage_pattern()


def _stage_counts(text: str) -> dict[str, int]:
    counts = dict.fromkeys(_STAGES, 0)
    for m in _STAGE_RE.finditer(text.lower().replace("-", "")):
        group = m.lastgroup
        assert group is not None  # every alternative of _STAGE_RE is a named group
        counts[_STAGES[int(group[1:])]] += 1
    return counts


@dataclass
class Chunk:
    text: str
    index: int
    heading: str  # "Section > Subsection"
    stage: str


def guess_stage(heading: str, text: str) -> str:
    """One of the card stages, or 'general' when nothing stands out."""
    for part in reversed([p for p in heading.split(" > ") if p]):
        counts = _stage_counts(part)
        hits = [k for k, n in counts.items() if n]
        if hits:  # "Model training" is about training: a generic 'model' yields to a more specific stage
            return next((h for h in hits if h != "model"), hits[0])
    counts = _stage_counts(text)
    best = max(counts, key=counts.__getitem__)
    return best if counts[best] >= 3 else "general"


@lru_cache(maxsize=32)
def _splitter(chunk_size: int, overlap: int):
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    return RecursiveCharacterTextSplitter(
        chunk_size=chunk_size,
        chunk_overlap=min(overlap, chunk_size // 2),
        separators=["\n\n", "\n```", "\n", ". ", " ", ""],
    )


_HEADING = re.compile(r"^(#{1,4})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def split_sections(text: str) -> list[tuple[list[str], str]]:
    """(heading path, body) per Markdown section; headings inside fenced code are not headings.

    Written here rather than taken from langchain's MarkdownHeaderTextSplitter because that one strips
    every line, which flattens nested lists and breaks the indentation of code in write-ups.
    """
    out: list[tuple[list[str], str]] = []
    path: list[tuple[int, str]] = []
    body: list[str] = []
    fence = ""

    def close() -> None:
        content = "\n".join(body).strip("\n")
        if content.strip():
            out.append(([name for _, name in path], content))
        body.clear()

    for line in text.splitlines():
        m = _FENCE.match(line)
        if m:
            fence = "" if fence and m.group(1) == fence else (fence or m.group(1))
        heading = None if fence or m else _HEADING.match(line)
        if heading is None:
            body.append(line.rstrip())
            continue
        close()
        level = len(heading.group(1))
        path = [(lv, name) for lv, name in path if lv < level] + [(level, heading.group(2).strip())]
    close()
    return out


def chunk_document(doc: Document, chunk_size: int = 1200, overlap: int = 150) -> list[Chunk]:
    """Chunks of one document; `doc.summary` (papers) becomes chunk 0 with stage 'summary'."""
    title = str(doc.metadata.get("title") or "").strip()
    chunks: list[Chunk] = []
    if doc.summary:
        chunks.append(Chunk(doc.summary.strip(), 0, "Summary", "summary"))
    if not doc.split:
        text = doc.text.strip()
        stage = str(doc.metadata.get("stage") or guess_stage("", text))
        chunks.append(Chunk(text, len(chunks), "", stage))
        return chunks
    body = max(200, chunk_size - min(len(title), 200) - 60)  # leave room for the heading prefix
    rec = _splitter(body, overlap)
    seen: set[str] = set()
    for path, content in split_sections(doc.text):
        if path and title and path[0].lower() == title.lower():
            path = path[1:]
        heading = " > ".join(path)
        content = content.strip("\n")
        if not content.strip():
            continue
        prefix = "\n".join(x for x in (title, heading) if x)
        for piece in rec.split_text(content):
            piece = piece.strip("\n").rstrip()
            if len(piece) < 20 and not chunks:
                continue
            text = f"{prefix}\n\n{piece}" if prefix else piece
            if text in seen:
                continue
            seen.add(text)
            chunks.append(Chunk(text, len(chunks), heading, guess_stage(heading, piece)))
    if not chunks and doc.text.strip():
        chunks.append(Chunk(doc.text.strip()[:chunk_size], 0, "", "general"))
    return chunks
