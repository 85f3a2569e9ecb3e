"""A competition folder: description.md plus config.yaml (MLE-bench) or task.yaml (metric)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from automind.ingest.loaders.base import (
    Document,
    Loader,
    LoadError,
    LoadOptions,
    first_heading,
    read_text,
    read_yaml,
)

KIND = "competitions"


def load_competition(folder: Path, options: LoadOptions | None = None) -> Iterator[Document]:
    desc_path = folder / "description.md"
    if not desc_path.is_file():
        raise LoadError(folder, "no description.md in this competition folder")
    description = read_text(desc_path)
    cfg: dict[str, Any] = {}
    for name in ("task.yaml", "config.yaml"):
        if (folder / name).is_file():
            data = read_yaml(folder / name)
            if not isinstance(data, dict):
                raise LoadError(folder / name, "expected a mapping")
            cfg = {**data, **cfg}
    metric = cfg.get("metric") or (cfg.get("grader") or {}).get("name") or ""
    if isinstance(metric, dict):
        metric = metric.get("name", "")
    slug = str(cfg.get("id") or cfg.get("slug") or folder.name)
    title = str(cfg.get("name") or first_heading(description) or slug)
    if title.lower() in ("overview", "description"):
        title = slug.replace("-", " ").title()
    header = f"# {title}\n\nCompetition: {slug}." + (f" Evaluation metric: {metric}." if metric else "")
    yield Document(
        kind=KIND,
        source=str(folder),
        text=f"{header}\n\n{description.strip()}",
        metadata={"title": title, "competition": slug, "rank": -1, "metric": str(metric)},
    )


LOADER = Loader(
    kind=KIND,
    extensions=(),
    load=load_competition,
    sniff=lambda folder: (folder / "description.md").is_file(),
    folder=True,
    order=10,
    help="competition folders: description.md with config.yaml or task.yaml",
)
