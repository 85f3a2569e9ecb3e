"""Write-ups: HTML pages, Markdown/text with optional YAML front matter, and web pages by URL.

An INDEX.tsv next to the posts (file, competition, task_type, rank, source_url) fills in what a
post's own front matter leaves out.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from automind.ingest.loaders.base import (
    Document,
    Loader,
    LoadError,
    LoadOptions,
    first_heading,
    read_text,
    split_front_matter,
    to_rank,
)
from automind.ingest.loaders.html import html_to_markdown

KIND = "posts"
EXTENSIONS = (".html", ".htm", ".md", ".markdown", ".txt")
USER_AGENT = "automind-ingest/0.1 (+https://github.com/)"


@lru_cache(maxsize=64)
def _posts_index(folder: Path) -> dict[str, dict[str, str]]:
    index = folder / "INDEX.tsv"
    if not index.is_file():
        return {}
    try:
        with index.open(encoding="utf-8", newline="") as f:
            return {row["file"]: row for row in csv.DictReader(f, delimiter="\t") if row.get("file")}
    except (OSError, KeyError, csv.Error, UnicodeDecodeError):
        return {}


def post_document(source: str, text: str, meta: dict[str, Any], fallback_title: str) -> Document:
    if not text.strip():
        raise LoadError(source, "no text left after removing front matter / page furniture")
    title = str(meta.get("title") or first_heading(text) or fallback_title)
    return Document(
        kind=KIND,
        source=source,
        text=text.strip(),
        metadata={
            "title": title,
            "competition": str(meta.get("competition") or ""),
            "rank": to_rank(meta.get("rank")),
            "url": str(meta.get("source_url") or meta.get("url") or ""),
            "task_type": str(meta.get("task_type") or ""),
        },
    )


def load_post(path: Path, options: LoadOptions | None = None) -> Iterator[Document]:
    """A write-up: HTML page, or Markdown/text with optional YAML front matter."""
    text = read_text(path)
    if path.suffix.lower() in (".html", ".htm") or re.match(r"\s*(<!doctype html|<html)", text, re.I):
        title, body, url = html_to_markdown(text)
        meta: dict[str, Any] = {"title": title, "source_url": url}
    else:
        meta, body = split_front_matter(text, path)
    row = _posts_index(path.parent.resolve()).get(path.name, {})
    for key in ("competition", "rank", "source_url", "task_type"):
        if meta.get(key) in (None, "") and row.get(key) not in (None, "", "null"):
            meta[key] = row[key]
    if not meta.get("competition") and "__" in path.stem:
        meta["competition"] = path.stem.split("__", 1)[0]
    yield post_document(str(path), body, meta, path.stem.replace("_", " "))


def fetch_post(url: str, timeout: float = 10.0, **meta: Any) -> Document:
    """One web page (a write-up) as a post; failure is a LoadError, not a crash."""
    import requests

    try:
        resp = requests.get(url, timeout=timeout, headers={"User-Agent": USER_AGENT})
        resp.raise_for_status()
    except requests.RequestException as e:
        raise LoadError(url, f"could not fetch: {type(e).__name__}: {str(e)[:200]}") from e
    title, body, _ = html_to_markdown(resp.text)
    return post_document(url, body, {"title": title, "source_url": url, **meta}, url)


def load_url(url: str, timeout: float = 10.0) -> Iterator[Document]:
    yield fetch_post(url, timeout=timeout)


LOADER = Loader(
    kind=KIND,
    extensions=EXTENSIONS,
    load=load_post,
    sniff=lambda path: path.suffix.lower() in EXTENSIONS,
    order=90,  # the catch-all for text files: other kinds sniff first
    help="write-ups: HTML, Markdown or text (YAML front matter and INDEX.tsv give competition, rank, URL)",
)
