"""Typed configuration with provenance.

Layers, lowest first: built-in defaults < ~/.automind/automind.yaml < ./automind.yaml
< AUTOMIND_* environment variables < CLI flags. Every leaf remembers which layer set it,
so `automind config show` can say where a value came from.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

HOME = Path(os.environ.get("AUTOMIND_HOME", Path.home() / ".automind"))
SECRET_MARKERS = ("KEY", "TOKEN", "SECRET", "PASSWORD")


class ConfigError(ValueError):
    """A configuration source is malformed; the message names the source and the key."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class RoleConfig(_Model):
    """Model and sampling settings for one LLM role; empty model means `llm.model`."""

    model: str | None = None
    temperature: float = 0.5
    max_tokens: int | None = None


def _default_roles() -> dict[str, RoleConfig]:
    return {
        "planner": RoleConfig(temperature=0.7),
        "coder": RoleConfig(temperature=0.2),
        "verifier": RoleConfig(temperature=0.0),
        "analyzer": RoleConfig(temperature=0.0),
        "retriever": RoleConfig(temperature=0.2),
    }


class LLMConfig(_Model):
    # auto: OpenAI-compatible when OPENAI_API_KEY/OPENAI_BASE_URL/base_url is set, else none.
    # Other specs: none | openai | openai:MODEL | replay:PATH | record:PATH
    provider: str = "auto"
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    model: str = "gpt-4o-mini"
    roles: dict[str, RoleConfig] = Field(default_factory=_default_roles)
    timeout_s: float = 120.0
    max_retries: int = 4
    backoff_base_s: float = 1.0
    # USD per 1M tokens: {model: {"input": x, "output": y}}
    prices: dict[str, dict[str, float]] = Field(
        default_factory=lambda: {
            "gpt-4o-mini": {"input": 0.15, "output": 0.6},
            "gpt-4o": {"input": 2.5, "output": 10.0},
            "o3-mini": {"input": 1.1, "output": 4.4},
            "deepseek-chat": {"input": 0.27, "output": 1.1},
        }
    )
    budget_tokens: int | None = None
    budget_usd: float | None = None
    one_model: bool = False  # use llm.model for every role (role temperatures still apply)
    tools: Literal["auto", "off"] = "auto"  # off: ask for JSON in text (servers without function calling)


class SearchConfig(_Model):
    steps: int = Field(12, ge=1)
    time_limit_s: float = Field(1800.0, gt=0)
    exec_timeout_s: float = Field(600.0, gt=0)
    num_drafts: int = Field(3, ge=0)
    debug_prob: float = Field(1.0, ge=0, le=1)
    greedy_prob: float = Field(0.8, ge=0, le=1)
    trick_prob: float = Field(0.8, ge=0, le=1)
    max_debug_depth: int = Field(3, ge=0)
    seed: int = 0
    # LLM mode: insert a recipe draft when no valid node exists after this share of the budget.
    safety_net_share: float = 0.5


class CodingConfig(_Model):
    mode: Literal["adaptive", "one-pass", "stepwise"] = "adaptive"
    complexity_threshold: float = 3.5
    one_pass_tries: int = 3
    step_tries: int = 4
    max_steps: int = 6


class SandboxConfig(_Model):
    timeout_s: float = Field(600.0, gt=0)
    memory_mb: int = Field(8192, ge=0)  # 0: no memory limit
    threads: int = Field(2, ge=1)
    output_head_chars: int = 4000
    output_tail_chars: int = 6000


class KnowledgeConfig(_Model):
    enabled: bool = True
    store: str = str(HOME / "knowledge")  # directory, or http(s)://host:port for a chroma server
    embedder: Literal["minilm", "wordllama", "hash"] = "minilm"
    labeler: Literal["auto", "llm", "embedding"] = "auto"
    desc_weight: float = 0.2
    label_weight: float = 0.8
    k: int = 10
    per_source_cap: int = 1  # chunks per document in a result list: many write-ups, one voice each
    per_competition_cap: int = 2  # chunks per competition: one competition's write-ups cannot fill the list
    # The most of a result list one kind (cards, posts, papers, ...) may take, unless others run short.
    max_kind_share: float = Field(0.8, gt=0, le=1)
    chunk_size: int = 1200
    chunk_overlap: int = 150
    timeout_s: float = Field(30.0, gt=0)  # deadline per request to a chroma server (--store http://...)


class ExperienceConfig(_Model):
    enabled: bool = True
    store: str | None = None  # defaults to the knowledge store
    alpha: float = 0.5
    beta: float = 0.3
    top_r: int = 3


class Settings(_Model):
    llm: LLMConfig = Field(default_factory=LLMConfig)
    search: SearchConfig = Field(default_factory=SearchConfig)
    coding: CodingConfig = Field(default_factory=CodingConfig)
    sandbox: SandboxConfig = Field(default_factory=SandboxConfig)
    knowledge: KnowledgeConfig = Field(default_factory=KnowledgeConfig)
    experience: ExperienceConfig = Field(default_factory=ExperienceConfig)
    runs_dir: str = "runs"


def _flatten(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and v and key != "llm.prices":
            out.update(_flatten(v, key + "."))
        else:
            out[key] = v
    return out


def _set_dotted(d: dict[str, Any], dotted: str, value: Any) -> None:
    parts = dotted.split(".")
    for p in parts[:-1]:
        d = d.setdefault(p, {})
        if not isinstance(d, dict):
            raise ConfigError(f"cannot set '{dotted}': '{p}' is not a section")
    d[parts[-1]] = value


def _parse_scalar(text: str) -> Any:
    """Env values and CLI overrides are YAML scalars, so `true`, `3` and `0.5` get their types."""
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as e:
        raise ConfigError(f"{path}: not valid YAML ({e}). Fix the file or remove it.") from e
    if not isinstance(data, dict):
        raise ConfigError(
            f"{path}: expected a mapping of sections (llm:, search:, ...), got {type(data).__name__}"
        )
    return data


def config_files(cwd: Path | None = None) -> list[Path]:
    """The YAML layers in precedence order (lowest first)."""
    return [HOME / "automind.yaml", (cwd or Path.cwd()) / "automind.yaml"]


def _env_layer(environ: dict[str, str]) -> dict[str, Any]:
    """AUTOMIND_SEARCH__STEPS=5 -> search.steps = 5 (double underscore separates levels)."""
    out: dict[str, Any] = {}
    for name, value in environ.items():
        if not name.startswith("AUTOMIND_") or name in ("AUTOMIND_HOME", "AUTOMIND_STORE"):
            continue
        dotted = name[len("AUTOMIND_") :].lower().replace("__", ".")
        if "." not in dotted and dotted != "runs_dir":
            continue
        out[dotted] = _parse_scalar(value)
    if "AUTOMIND_STORE" in environ:
        out["knowledge.store"] = environ["AUTOMIND_STORE"]
    return out


class LoadedConfig:
    """Settings plus where each leaf value came from."""

    def __init__(self, settings: Settings, sources: dict[str, str]):
        self.settings = settings
        self.sources = sources

    def rows(self) -> list[tuple[str, Any, str]]:
        flat = _flatten(self.settings.model_dump(mode="json"))
        return [(k, redact(k, v), self.sources.get(k, "default")) for k, v in sorted(flat.items())]


def redact(key: str, value: Any) -> Any:
    if any(m in key.upper().replace("API_KEY_ENV", "") for m in SECRET_MARKERS) and value:
        return "***"
    return value


def _source_of(key: str, sources: dict[str, str]) -> str:
    """Where a failing key came from; an unknown section is reported by the leaf that created it."""
    dotted = key if key in sources else next((k for k in sources if k.startswith(key + ".")), None)
    if dotted is None:
        return "default"
    if sources[dotted] == "env":
        return "env AUTOMIND_" + dotted.upper().replace(".", "__")
    if sources[dotted] == "cli":
        return "a command-line flag"
    return sources[dotted]


def load_config(
    overrides: dict[str, Any] | None = None,
    *,
    cwd: Path | None = None,
    environ: dict[str, str] | None = None,
) -> LoadedConfig:
    """Merge all layers and validate. `overrides` are CLI flags as dotted keys."""
    environ = dict(os.environ) if environ is None else environ
    merged: dict[str, Any] = Settings().model_dump(mode="python")
    sources: dict[str, str] = {}
    layers: list[tuple[str, dict[str, Any]]] = []
    for path in config_files(cwd):
        if path.is_file():
            layers.append((str(path), _flatten(_read_yaml(path))))
    layers.append(("env", _env_layer(environ)))
    layers.append(("cli", {k: v for k, v in (overrides or {}).items() if v is not None}))
    for source, flat in layers:
        for dotted, value in flat.items():
            _set_dotted(merged, dotted, value)
            sources[dotted] = source
    try:
        settings = Settings.model_validate(merged)
    except ValidationError as e:
        problems = []
        for err in e.errors():
            key = ".".join(str(p) for p in err["loc"])
            problems.append(f"  {key} (from {_source_of(key, sources)}): {err['msg']}")
        raise ConfigError("invalid configuration:\n" + "\n".join(problems)) from e
    return LoadedConfig(settings, sources)
