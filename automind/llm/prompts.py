"""Prompt templates live as Markdown files in `automind/prompts/`; this renders them with jinja2.

Files starting with `_` are partials (the script contract, the task header) included by others.
Undefined variables raise, so a template and its caller cannot silently drift apart.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import jinja2

PACKAGE = "automind.prompts"


def _source(name: str) -> str | None:
    path = resources.files(PACKAGE) / name
    return path.read_text(encoding="utf-8") if path.is_file() else None


class _Undefined(jinja2.StrictUndefined):
    """Missing variables are falsy and empty in `{% if %}`/`{% for %}` (optional sections) but
    printing one raises, so a forgotten required value fails loudly instead of vanishing."""

    # jinja2 declares StrictUndefined's dunders as never returning; these overrides return on purpose
    def __bool__(self) -> bool:  # type: ignore[override]
        return False

    def __iter__(self):
        return iter(())

    def __len__(self) -> int:  # type: ignore[override]
        return 0


def duration(seconds: float | None) -> str:
    """Seconds as prompts state them: "45 s", "12.5 minutes", "3.2 hours"; None is "no fixed limit"."""
    if seconds is None:
        return "no fixed limit"
    s = max(0.0, float(seconds))
    if s < 120:
        return f"{s:.0f} s"
    if s < 3 * 3600:
        return f"{s / 60:.1f} minutes"
    return f"{s / 3600:.1f} hours"


@cache
def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(_source),
        undefined=_Undefined,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
        keep_trailing_newline=True,
    )
    env.filters["duration"] = duration
    return env


def names() -> list[str]:
    """Every renderable template (partials excluded), without the .md suffix."""
    files = (p.name for p in resources.files(PACKAGE).iterdir())
    return sorted(f[:-3] for f in files if f.endswith(".md") and not f.startswith("_"))


def render(name: str, **vars: Any) -> str:
    """Render `automind/prompts/<name>.md`; unknown names list the available ones."""
    try:
        template = _env().get_template(name if name.endswith(".md") else f"{name}.md")
    except jinja2.TemplateNotFound:
        raise KeyError(f"no prompt template '{name}'; available: {', '.join(names())}") from None
    text = template.render(**vars)
    # Optional sections leave runs of blank lines behind; keep at most one.
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.strip() + "\n"
