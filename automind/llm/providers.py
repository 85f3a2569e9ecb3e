"""Which model serves a run: the provider registry behind `--llm` and `llm.provider`.

A spec is `KIND` or `KIND:ARG`; `PROVIDERS[KIND]` builds the LLM from the settings and ARG (None: run
without a model, the offline recipe policy takes over). A new provider is one function and one entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TypeGuard

from automind.config import SPEC_FORMS, ProviderName, resolve_endpoint, split_spec
from automind.errors import LLMError
from automind.llm.client import LLM, OpenAILLM, key_names

if TYPE_CHECKING:
    from automind.config import Settings

Environ = Mapping[str, str] | None
Factory = Callable[["Settings", str, Environ], LLM | None]


def _none(settings: Settings, arg: str, environ: Environ) -> LLM | None:
    return None


def _openai(settings: Settings, arg: str, environ: Environ) -> LLM | None:
    """An OpenAI-compatible server; a MODEL given in the spec is used for every role."""
    cfg = settings.llm
    key, base = resolve_endpoint(cfg, environ)
    if not key and not base:
        raise LLMError(
            f"no API key: set {key_names(cfg.api_key_env)}, or point llm.base_url / OPENAI_BASE_URL "
            "at a local OpenAI-compatible server (see `automind llm local-setup`); use --llm none to run offline."
        )
    if arg:
        cfg = cfg.model_copy(update={"model": arg})
    return OpenAILLM(cfg, api_key=key, base_url=base, one_model=True if arg else None)


def _auto(settings: Settings, arg: str, environ: Environ) -> LLM | None:
    """OpenAI-compatible when a key or a base URL is configured, else no model."""
    key, base = resolve_endpoint(settings.llm, environ)
    return _openai(settings, arg, environ) if (key or base) else None


def _cassette(kind: str, arg: str) -> str:
    if not arg:
        raise LLMError(f"--llm {kind}:PATH needs a cassette path, e.g. --llm {kind}:runs/cassette.jsonl")
    return arg


def _replay(settings: Settings, arg: str, environ: Environ) -> LLM | None:
    from automind.llm.replay import ReplayLLM

    return ReplayLLM(settings.llm, _cassette("replay", arg))


def _record(settings: Settings, arg: str, environ: Environ) -> LLM | None:
    from automind.llm.replay import RecordingLLM

    path = _cassette("record", arg)
    inner = _auto(settings, "", environ)
    if inner is None:
        raise LLMError(
            "record mode needs a real provider to record from: set OPENAI_API_KEY or OPENAI_BASE_URL "
            "(or llm.base_url)."
        )
    return RecordingLLM(inner, path)


PROVIDERS: dict[ProviderName, Factory] = {
    "auto": _auto,
    "none": _none,
    "openai": _openai,
    "replay": _replay,
    "record": _record,
}


def make_llm(settings: Settings, spec: str | None = None, *, environ: Environ = None) -> LLM | None:
    """Build the provider named by `spec` (default: llm.provider); None means no model."""
    spec = (spec or settings.llm.provider or "auto").strip()
    kind, arg = split_spec(spec)
    if not _known(kind):
        raise LLMError(f"unknown LLM spec '{spec}': use {SPEC_FORMS}")
    return PROVIDERS[kind](settings, arg, environ)


def _known(kind: str) -> TypeGuard[ProviderName]:
    return kind in PROVIDERS
