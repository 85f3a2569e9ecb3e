"""Shipped expert knowledge: the task taxonomy and the curated trick cards.

Both are plain YAML files inside this package (``taxonomy.yaml``, ``cards/*.yaml``), read through
importlib.resources so they load the same from a checkout or an installed wheel. The models here are
the single place that checks them, so a broken card fails loudly with the file, card id and field.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from automind.roles import Trick

Stage = Literal[
    "validation",
    "preprocessing",
    "feature engineering",
    "model",
    "training",
    "ensembling",
    "post-processing",
]
STAGES: tuple[str, ...] = Stage.__args__  # type: ignore[attr-defined]

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C parser is ~10x faster when present
_ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class KnowledgeError(ValueError):
    """Shipped or user-supplied knowledge files are malformed; the message says where and what."""


class Subcategory(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    description: str


class Category(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    description: str
    subcategories: list[Subcategory] = Field(default_factory=list)

    def sub(self, name: str) -> Subcategory | None:
        return next((s for s in self.subcategories if s.name.lower() == name.lower()), None)


@dataclass
class Label:
    """One taxonomy label given to a task or document: a top-level category, a subcategory or "", a score."""

    top: str
    sub: str
    score: float

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class Taxonomy(BaseModel):
    """The 11 AutoMind top-level categories with their subcategories."""

    model_config = ConfigDict(extra="forbid")
    categories: list[Category]

    def top_names(self) -> list[str]:
        return [c.name for c in self.categories]

    def get(self, name: str) -> Category | None:
        """Category by name (case-insensitive), or None."""
        return next((c for c in self.categories if c.name.lower() == name.strip().lower()), None)

    def sub_names(self, top: str) -> list[str]:
        cat = self.get(top)
        if cat is None:
            raise KeyError(f"unknown top-level category {top!r}; known: {', '.join(self.top_names())}")
        return [s.name for s in cat.subcategories]

    def validate_label(self, label: str) -> str:
        """Return the label in canonical spelling ("Top" or "Top/Sub"); raise ValueError if unknown."""
        top, _, sub = label.partition("/")
        cat = self.get(top)
        if cat is None:
            raise ValueError(
                f"unknown category {top.strip()!r} in label {label!r}; known: {', '.join(self.top_names())}"
            )
        if not sub.strip():
            return cat.name
        found = cat.sub(sub.strip())
        if found is None:
            raise ValueError(
                f"unknown subcategory {sub.strip()!r} of {cat.name!r} in label {label!r}; "
                f"known: {', '.join(s.name for s in cat.subcategories)}"
            )
        return f"{cat.name}/{found.name}"


@lru_cache(maxsize=1)
def load_taxonomy() -> Taxonomy:
    """The shipped taxonomy (cached: it never changes while running)."""
    text = resources.files(__name__).joinpath("taxonomy.yaml").read_text(encoding="utf-8")
    try:
        return Taxonomy.model_validate(yaml.load(text, Loader=_LOADER))
    except (yaml.YAMLError, ValidationError) as e:
        raise KnowledgeError(f"knowledge/taxonomy.yaml is malformed: {e}") from e


class Card(BaseModel):
    """One curated trick: when it applies, what to do, what goes wrong, and what it rests on."""

    model_config = ConfigDict(extra="forbid")
    id: str
    title: str
    labels: list[str] = Field(min_length=1)
    stage: Stage
    when: str
    trick: str
    pitfalls: str = ""
    fact: str = ""
    recipe: dict[str, Any] | None = None  # contract in docs/recipes.md

    @field_validator("id")
    @classmethod
    def _kebab(cls, v: str) -> str:
        if not _ID_RE.match(v):
            raise ValueError(f"id {v!r} must be kebab-case (lowercase letters, digits and single hyphens)")
        return v

    @field_validator("labels")
    @classmethod
    def _known_labels(cls, v: list[str]) -> list[str]:
        tax = load_taxonomy()
        return [tax.validate_label(label) for label in v]

    @field_validator("title", "when", "trick")
    @classmethod
    def _non_empty(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must not be empty")
        return v.strip()

    def text(self) -> str:
        """The card as plain text, for embedding and for prompts."""
        parts = [
            f"{self.title}",
            f"Labels: {', '.join(self.labels)}. Stage: {self.stage}.",
            f"When: {self.when.strip()}",
            f"Trick: {self.trick.strip()}",
        ]
        if self.pitfalls.strip():
            parts.append(f"Pitfalls: {self.pitfalls.strip()}")
        if self.fact.strip():
            parts.append(f"Basis: {self.fact.strip()}")
        return "\n".join(parts)

    def to_trick(self, score: float = 0.0) -> Trick:
        return Trick(
            id=self.id,
            title=self.title,
            text=self.text(),
            labels=list(self.labels),
            stage=self.stage,
            source=f"card:{self.id}",
            kind="card",
            score=score,
            recipe=self.recipe,
        )


def _card_files() -> list[tuple[str, str]]:
    """(display name, text) of every shipped card file, sorted by name."""
    root = resources.files(__name__).joinpath("cards")
    if not root.is_dir():
        return []
    files = sorted((f for f in root.iterdir() if f.name.endswith(".yaml")), key=lambda f: f.name)
    return [(f"knowledge/cards/{f.name}", f.read_text(encoding="utf-8")) for f in files]


def parse_cards(name: str, text: str) -> list[Card]:
    """Validate one card file's text; `name` (a path) is used in error messages."""
    try:
        data = yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError as e:
        raise KnowledgeError(f"{name}: invalid YAML: {e}") from e
    if data is None:
        return []
    if not isinstance(data, list):
        raise KnowledgeError(f"{name}: expected a YAML list of cards, got {type(data).__name__}")
    cards = []
    for i, raw in enumerate(data):
        if not isinstance(raw, dict):
            raise KnowledgeError(f"{name}: item {i} is a {type(raw).__name__}, expected a mapping (a card)")
        cid = raw.get("id", f"#{i}")
        try:
            cards.append(Card.model_validate(raw))
        except ValidationError as e:
            problems = "; ".join(
                f"field '{'.'.join(map(str, err['loc'])) or '?'}': {err['msg']}" for err in e.errors()
            )
            raise KnowledgeError(f"{name}: card {cid!r}: {problems}") from e
    return cards


_parse_cards = parse_cards  # older name, used by ingest/loaders.py


def load_cards(extra_dirs: Iterable[str | Path] = ()) -> list[Card]:
    """All shipped cards plus those in `extra_dirs` (*.yaml), validated; duplicate ids are an error."""
    sources = list(_card_files())
    for d in extra_dirs:
        d = Path(d)
        if not d.is_dir():
            raise KnowledgeError(f"card directory {d} does not exist")
        for p in sorted(d.glob("*.yaml")):
            try:
                sources.append((str(p), p.read_text(encoding="utf-8")))
            except (OSError, UnicodeDecodeError) as e:
                raise KnowledgeError(f"{p}: cannot read card file ({e}); save it as UTF-8 text") from e
    seen: dict[str, str] = {}
    cards: list[Card] = []
    for name, text in sources:
        for card in parse_cards(name, text):
            if card.id in seen:
                raise KnowledgeError(
                    f"duplicate card id {card.id!r} in {name} (first defined in {seen[card.id]})"
                )
            seen[card.id] = name
            cards.append(card)
    return cards


def cards_fingerprint() -> str:
    """A hash of every shipped card file: changes whenever any card changes (triggers re-ingest)."""
    h = hashlib.sha256()
    for name, text in _card_files():
        h.update(name.encode())
        h.update(b"\0")
        h.update(text.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()[:16]


__all__ = [
    "STAGES",
    "Card",
    "Category",
    "KnowledgeError",
    "Stage",
    "Subcategory",
    "Taxonomy",
    "cards_fingerprint",
    "load_cards",
    "load_taxonomy",
    "parse_cards",
]
