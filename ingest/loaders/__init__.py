"""Turn source files, folders and URLs into `Document`s: one module per kind of material.

Each module in this package defines `LOADER = Loader(kind, extensions, load, sniff, ...)`; the registry
below imports them all, so adding a kind is adding one file. A loader takes one file (or folder) and
yields Documents; a file it cannot read raises `LoadError` naming the file and the reason, so the
pipeline reports it and carries on. Loaders that walk many records may also *yield* a LoadError for
one bad record.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from automind.ingest.loaders.base import Document, Loader, LoadError, LoadOptions, slugify, to_rank
from automind.ingest.loaders.cards import card_document
from automind.ingest.loaders.html import fragment_to_markdown, html_to_markdown
from automind.ingest.loaders.posts import fetch_post, load_url

_SKIP_NAMES = re.compile(r"(license|licence|copying|notice|readme)", re.I)
_NOT_LOADERS = {"base", "html"}


def _discover_loaders() -> dict[str, Loader]:
    found: list[Loader] = []
    for info in pkgutil.iter_modules(__path__):
        if info.name in _NOT_LOADERS or info.name.startswith("_"):
            continue
        loader = getattr(importlib.import_module(f"{__name__}.{info.name}"), "LOADER", None)
        if isinstance(loader, Loader):
            found.append(loader)
    return {ld.kind: ld for ld in sorted(found, key=lambda ld: (ld.order, ld.kind))}


LOADERS: dict[str, Loader] = _discover_loaders()
KINDS: tuple[str, ...] = ("auto", *LOADERS)


def register(loader: Loader) -> None:
    """Add a kind at run time (plugins, tests); the module-per-kind files need not call this."""
    global KINDS
    LOADERS[loader.kind] = loader
    KINDS = ("auto", *LOADERS)


def _skipped(path: Path) -> bool:
    return (
        path.name.startswith(".") or bool(_SKIP_NAMES.search(path.stem)) or path.name == "paper_analysis.json"
    )


def detect_kind(path: Path) -> str | None:
    """Kind of one file by its loaders' sniff tests, in order; None means "not knowledge, skip it"."""
    if _skipped(path):
        return None
    for loader in LOADERS.values():
        if not loader.folder and loader.sniff(path):
            return loader.kind
    return None


def _folder_kind(folder: Path, kind: str) -> str | None:
    for loader in LOADERS.values():
        if loader.folder and kind in ("auto", loader.kind) and loader.sniff(folder):
            return loader.kind
    return None


def discover(source: str, kind: str = "auto") -> Iterator[tuple[str, str | Path]]:
    """Expand one CLI source into (kind, file|folder|url) items; raises LoadError if it does not exist."""
    if re.match(r"^https?://", source):
        yield ("posts" if kind in ("auto", "posts") else kind), source
        return
    path = Path(source).expanduser()
    if not path.exists() and (scheme := re.match(r"^([a-zA-Z][a-zA-Z0-9+.-]*)://", source)):
        raise LoadError(
            source,
            f"{scheme.group(1)}:// is not fetched: give an http(s) URL, or download the file and pass its path",
        )
    if not path.exists():
        raise LoadError(source, "no such file or directory")
    if path.is_file():
        k = detect_kind(path) if kind == "auto" else kind
        if k is None:
            raise LoadError(
                path, f"cannot tell what kind of knowledge this is; pass --kind ({', '.join(KINDS[1:])})"
            )
        yield k, path
        return
    yield from _walk(path, kind)


def _wanted(path: Path, kind: str) -> bool:
    loader = LOADERS.get(kind)
    return loader is not None and path.suffix.lower() in loader.extensions and not _skipped(path)


def _walk(folder: Path, kind: str) -> Iterator[tuple[str, Path]]:
    whole = _folder_kind(folder, kind)
    if whole is not None:
        yield whole, folder
        return
    for child in sorted(folder.iterdir()):
        if child.name.startswith(".") or child.name == "__pycache__":
            continue
        if child.is_dir():
            yield from _walk(child, kind)
        elif kind == "auto":
            k = detect_kind(child)
            if k is not None:
                yield k, child
        elif _wanted(child, kind):
            yield kind, child


def load(
    kind: str,
    target: str | Path,
    *,
    summarize: Callable | None = None,
    fetch_links: bool = False,
    timeout: float = 10.0,
) -> Iterator[Document | LoadError]:
    """Run the registered loader for one discovered item."""
    if isinstance(target, str) and re.match(r"^https?://", target):
        yield from load_url(target, timeout=timeout)
        return
    loader = LOADERS.get(kind)
    if loader is None:
        raise LoadError(target, f"unknown kind {kind!r}; choose one of: {', '.join(KINDS)}")
    options = LoadOptions(summarize=summarize, fetch_links=fetch_links, timeout=timeout)
    yield from loader.load(Path(target), options)


__all__ = [
    "KINDS",
    "LOADERS",
    "Document",
    "LoadError",
    "LoadOptions",
    "Loader",
    "card_document",
    "detect_kind",
    "discover",
    "fetch_post",
    "fragment_to_markdown",
    "html_to_markdown",
    "load",
    "register",
    "slugify",
    "to_rank",
]
