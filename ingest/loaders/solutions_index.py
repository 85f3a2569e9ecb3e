"""The kaggle-solutions index (competitions.yml): one record per competition, its linked write-ups
listed (and fetched as posts only with --fetch-links)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from automind.ingest.loaders.base import (
    Document,
    Loader,
    LoadError,
    LoadOptions,
    head,
    read_yaml,
    slugify,
    to_rank,
)
from automind.ingest.loaders.posts import fetch_post

KIND = "solutions"


def _kaggle_slug(link: str) -> str:
    m = re.search(r"kaggle\.com/(?:c|competitions)/([^/?#]+)", link or "")
    return m.group(1) if m else ""


def load_solutions_index(path: Path, options: LoadOptions | None = None) -> Iterator[Document | LoadError]:
    """kaggle-solutions competitions.yml: one record per competition (links listed, fetched only on request)."""
    options = options or LoadOptions()
    fetch_links, timeout = options.fetch_links, options.timeout
    data = read_yaml(path)
    comps = data.get("competitions") if isinstance(data, dict) else data
    if not isinstance(comps, list):
        raise LoadError(path, "expected a `competitions:` list (title, desc, kind, metric, solutions)")
    seen: set[str] = set()
    for i, c in enumerate(comps):
        if not isinstance(c, dict) or not c.get("title"):
            yield LoadError(f"{path}#{i}", "competition entry without a title")
            continue
        slug = _kaggle_slug(str(c.get("link", ""))) or slugify(str(c["title"]))
        key = slug if slug not in seen else f"{slug}-{i}"
        seen.add(key)
        sols = [s for s in c.get("solutions") or [] if isinstance(s, dict)]
        lines = [
            f"# {c['title']}",
            str(c.get("desc") or "").strip(),
            f"Competition type: {c.get('kind', '?')}. Evaluation metric: {c.get('metric', '?')}. "
            f"Teams: {c.get('team', '?')}. Year: {c.get('year', '?')}. Prize: {c.get('prize', '?')}.",
        ]
        if sols:
            lines.append(
                "Top solutions: "
                + "; ".join(
                    f"rank {s.get('rank', '?')} ({s.get('kind', '?')}) {s.get('link', '')}" for s in sols
                )
            )
        yield Document(
            kind=KIND,
            source=f"{path}#{key}",
            text="\n\n".join(x for x in lines if x),
            metadata={
                "title": str(c["title"]),
                "competition": slug,
                "rank": -1,
                "metric": str(c.get("metric") or ""),
                "url": str(c.get("link") or ""),
                "year": to_rank(c.get("year")),
                "n_solutions": len(sols),
            },
            split=False,
        )
        if fetch_links:
            for s in sols:
                link = str(s.get("link") or "")
                if not link.startswith("http"):
                    continue
                try:
                    yield fetch_post(
                        link,
                        timeout=timeout,
                        competition=slug,
                        rank=s.get("rank"),
                        title=f"{c['title']} rank {s.get('rank')}",
                    )
                except LoadError as e:
                    yield e


LOADER = Loader(
    kind="solutions-index",
    extensions=(".yaml", ".yml"),
    load=load_solutions_index,
    sniff=lambda path: (
        path.suffix.lower() in (".yml", ".yaml") and bool(re.search(r"^competitions:\s*$", head(path), re.M))
    ),
    order=20,
    help="kaggle-solutions competitions.yml (one record per competition; --fetch-links fetches write-ups)",
)
