"""Typed configuration with provenance.

Layers, lowest first: built-in defaults < ~/.automind/automind.yaml < ./automind.yaml
< AUTOMIND_* environment variables < CLI flags. Every leaf remembers which layer set it,
so `automind config show` can say where a value came from.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

import yaml
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from automind.limits import DEFAULT_STEPS, DEFAULT_TIME_LIMIT_S


def automind_home() -> Path:
    """The automind home folder, read at call time so AUTOMIND_HOME set later (tests, scripts) is honoured."""
    return Path(os.environ.get("AUTOMIND_HOME") or Path.home() / ".automind").expanduser()


SECRET_MARKERS = ("KEY", "TOKEN", "SECRET", "PASSWORD")


class ConfigError(ValueError):
    """A configuration source is malformed; the message names the source and the key."""


class _Model(BaseModel):
    # No inf/nan anywhere: an infinite timeout or budget is never what a user meant and breaks deadlines.
    # A number given for a text setting (AUTOMIND_LLM__MODEL=7, YAML-typed) is that text.
    model_config = ConfigDict(
        extra="forbid", validate_assignment=True, allow_inf_nan=False, coerce_numbers_to_str=True
    )


class RoleConfig(_Model):
    """Model and sampling settings for one LLM role; empty model means `llm.model`."""

    model: str | None = None
    temperature: float = 0.5
    max_tokens: int | None = None


def _on_off(value: Any) -> Any:
    """YAML 1.1 reads on/off/yes/no as booleans, so a file's `holdout: off` and AUTOMIND_VERIFY__HOLDOUT=off
    arrive as False: give a word-valued setting its word back."""
    return ("on" if value else "off") if isinstance(value, bool) else value


ToolsMode = Annotated[Literal["auto", "off"], BeforeValidator(_on_off)]
HoldoutMode = Annotated[Literal["auto", "on", "off"], BeforeValidator(_on_off)]

# The keys of automind.llm.providers.PROVIDERS (a test keeps the two equal).
ProviderName = Literal["auto", "none", "openai", "replay", "record"]
SPEC_FORMS = "auto, none, openai, openai:MODEL, replay:PATH or record:PATH"


def split_spec(spec: str) -> tuple[str, str]:
    """`KIND[:ARG]` -> (kind in lower case, arg or "")."""
    kind, _, arg = spec.strip().partition(":")
    return kind.lower(), arg


def _check_spec(spec: str) -> str:
    kind, _ = split_spec(spec)
    if kind not in get_args(ProviderName):
        raise ValueError(f"unknown LLM provider '{spec}': use {SPEC_FORMS}")
    return spec.strip()


# A provider spec: a ProviderName, optionally with `:ARG` (a model for openai, a cassette for replay/record).
ProviderSpec = Annotated[str, AfterValidator(_check_spec)]


def _default_roles() -> dict[str, RoleConfig]:
    return {
        "planner": RoleConfig(temperature=0.7),
        "coder": RoleConfig(temperature=0.2),
        "verifier": RoleConfig(temperature=0.0),
        "checker": RoleConfig(temperature=0.0),  # MLE-STAR's leakage and data-usage checkers
        "analyzer": RoleConfig(temperature=0.0),
        "retriever": RoleConfig(temperature=0.2),
    }


class LLMConfig(_Model):
    # auto: OpenAI-compatible when OPENAI_API_KEY/OPENAI_BASE_URL/base_url is set, else none.
    # Other specs: none | openai | openai:MODEL | replay:PATH | record:PATH
    provider: ProviderSpec = "auto"
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    model: str = "gpt-4o-mini"
    roles: dict[str, RoleConfig] = Field(default_factory=_default_roles)
    timeout_s: float = Field(60.0, gt=0)  # one attempt: connect, send, the whole answer
    deadline_s: float = Field(180.0, gt=0)  # one call, every retry and wait included
    check_deadline_s: float = Field(20.0, gt=0)  # `automind llm check`, retries included
    max_retries: int = Field(4, ge=0)
    backoff_base_s: float = Field(1.0, ge=0)
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
    tools: ToolsMode = "auto"  # off: ask for JSON in text (servers without function calling)
    # The model's context window in tokens. Prompts are fitted into it (minus the reply's share) by
    # cutting their lowest-priority sections first, each cut logged; a 4k local model needs 4096.
    context_tokens: int = Field(32768, ge=1024)


# The budget when neither `search.steps` nor `search.time_limit_s` is set (docs/search.md, "Budget").


class RefineConfig(_Model):
    """The `refine` action (MLE-STAR's targeted refinement; docs/search.md)."""

    outer: int = Field(4, ge=0)  # T: refine steps (ablation + one block's attempts) per run; 0 turns it off
    inner: int = Field(4, ge=1)  # K: attempts at rewriting the chosen block per refine step
    patience: int = Field(3, ge=1)  # refine again when the best node has not improved for this many nodes


class EnsembleConfig(_Model):
    """The `ensemble` action: blend the best solutions' saved predictions (docs/search.md)."""

    rounds: int = Field(3, ge=0)  # R: ensemble rounds per set of members; 0 turns it off
    members: int = Field(3, ge=2)  # L: best valid nodes, one per lineage, offered to an ensemble
    # solutions of any lineage, best first, offered to one round on the whole pool once the rounds on the
    # lineages' best are spent (a new pool, one more round); 0 turns that round off
    pool: int = Field(12, ge=0)
    start_share: float = Field(0.75, ge=0, le=1)  # share of the budget spent before ensembling starts


class SearchConfig(_Model):
    # The budget: steps (nodes), time, or both (whichever comes first). A limit left unset is no limit;
    # with neither set, DEFAULT_STEPS and DEFAULT_TIME_LIMIT_S apply. Read them through `budget()`.
    steps: int | None = Field(None, ge=1)
    time_limit_s: float | None = Field(None, gt=0)
    exec_timeout_s: float = Field(600.0, gt=0)
    # seconds kept free at the end of a timed run for writing the best solution, grading, the report and
    # the interpreter's exit (seconds once torch and chroma are loaded); at most 10 % of the time limit
    finish_reserve_s: float = Field(5.0, ge=0)
    num_drafts: int = Field(3, ge=0)
    debug_prob: float = Field(1.0, ge=0, le=1)
    greedy_prob: float = Field(0.8, ge=0, le=1)
    trick_prob: float = Field(0.8, ge=0, le=1)
    max_debug_depth: int = Field(3, ge=0)
    seed: int = 0
    # LLM mode: insert a recipe draft when no valid node exists after this share of the budget.
    safety_net_share: float = 0.5
    refine: RefineConfig = Field(default_factory=RefineConfig)
    ensemble: EnsembleConfig = Field(default_factory=EnsembleConfig)

    def budget(self) -> tuple[int | None, float | None]:
        """(step limit, time limit in seconds); None means no limit of that kind. Only steps given: steps;
        only a time limit: time; both: whichever comes first; neither: the defaults, whichever first."""
        if self.steps is None and self.time_limit_s is None:
            return DEFAULT_STEPS, DEFAULT_TIME_LIMIT_S
        return self.steps, self.time_limit_s


class CodingConfig(_Model):
    mode: Literal["adaptive", "one-pass", "stepwise"] = "adaptive"
    complexity_threshold: float = 3.5
    one_pass_tries: int = 3
    step_tries: int = 4
    max_steps: int = 6


class SandboxConfig(_Model):
    timeout_s: float = Field(600.0, gt=0)
    memory_mb: int = Field(8192, ge=0)  # 0: no memory limit
    # what one execution may write into its workspace; unset: half the disk space free when a run starts; 0: none
    disk_mb: int | None = Field(None, ge=0)
    threads: int = Field(2, ge=1)
    output_head_chars: int = 4000
    output_tail_chars: int = 6000
    # auto: kernel namespaces where available, else copies (logged); namespace: required; copy: never
    isolation: Literal["auto", "namespace", "copy"] = "auto"
    network: bool = False  # let generated code reach the network (default: its own empty namespace)
    allow_external_symlinks: bool = False  # accept public/ symlinks that leave the task folder


class VerifyConfig(_Model):
    """How automind checks the scores it ranks nodes by (docs/holdout.md)."""

    # auto: a hidden holdout when the task's layout allows it and there are enough rows (run.json says why
    # not otherwise); on: required (the run refuses to start when it cannot split); off: scripts' own scores
    holdout: HoldoutMode = "auto"
    holdout_fraction: float = Field(0.15, gt=0, le=0.5)
    holdout_min_rows: int = Field(200, ge=10)  # auto: no holdout below this many labelled training rows
    # at most about this many rows held out (the share lowered on large tables): a score's precision follows
    # its row count, and each held-out row is taken from every fit. Off by default: on four large tables it
    # gained and lost only within the test rows' noise (docs/search.md, "Nineteenth part"); null: no cap
    holdout_max_rows: int | None = Field(None, ge=10)
    # a node is suspect when its own score beats the holdout score by more than z standard errors of the gap
    leakage_z: float = Field(3.0, gt=0)
    code_check: bool = True  # the deterministic leak check over every script (automind/leakage.py)
    llm_checks: bool = True  # LLM mode: MLE-STAR's leakage and data-usage checkers on new valid scripts
    refit: bool = True  # re-run the best node on the full training data after the search
    # the final refit of automind's recipe scripts repeats their K-fold fitting on up to this many fold
    # shuffles when the time left holds them all, averaging every fold model's test predictions (1: once)
    refit_bags: int = Field(3, ge=1, le=10)


class KnowledgeConfig(_Model):
    enabled: bool = True
    # directory, or http(s)://host:port for a chroma server; read when settings are made, so a home set after
    # import (the tests' private one) is the one used
    store: str = Field(default_factory=lambda: str(automind_home() / "knowledge"))
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


# Search defaults that depend on whether a model plans and codes. LLM mode follows the AutoMind paper
# (Algorithm 1 settings); offline mode keeps the values tuned for the recipe policy (the field defaults
# above). A value set in any layer (file, env, flag) always wins over these.
MODE_DEFAULTS: dict[str, dict[str, Any]] = {
    "llm": {
        "search.num_drafts": 5,
        "search.max_debug_depth": 5,
        "search.debug_prob": 1.0,
        "search.greedy_prob": 0.8,
        "search.trick_prob": 0.8,
    },
    "offline": {
        "search.num_drafts": 3,
        "search.max_debug_depth": 3,
        "search.debug_prob": 1.0,
        "search.greedy_prob": 0.8,
        "search.trick_prob": 0.8,
    },
}
Mode = Literal["llm", "offline"]


def resolve_endpoint(
    cfg: LLMConfig, environ: Mapping[str, str] | None = None
) -> tuple[str | None, str | None]:
    """(api_key, base_url) from config and the standard OPENAI_* variables; base_url None = OpenAI."""
    env = os.environ if environ is None else environ
    key = env.get(cfg.api_key_env) or env.get("OPENAI_API_KEY")
    base = cfg.base_url or env.get("OPENAI_BASE_URL")
    return key or None, base or None


def mode_of(cfg: LLMConfig, environ: Mapping[str, str] | None = None) -> Mode:
    """ "llm" when `llm.provider` resolves to a model (auto: a key or base URL is set), else "offline"."""
    kind = (cfg.provider or "auto").strip().partition(":")[0].lower()
    if kind == "none":
        return "offline"
    if kind == "auto":
        return "llm" if any(resolve_endpoint(cfg, environ)) else "offline"
    return "llm"


class Settings(_Model):
    llm: LLMConfig = Field(default_factory=LLMConfig)
    search: SearchConfig = Field(default_factory=SearchConfig)
    coding: CodingConfig = Field(default_factory=CodingConfig)
    sandbox: SandboxConfig = Field(default_factory=SandboxConfig)
    verify: VerifyConfig = Field(default_factory=VerifyConfig)
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


def set_dotted(d: dict[str, Any], dotted: str, value: Any) -> None:
    """Set `a.b.c` in nested dicts (config files, env overrides, a resumed run's --set), making sections."""
    parts = dotted.split(".")
    for p in parts[:-1]:
        d = d.setdefault(p, {})
        if not isinstance(d, dict):
            raise ConfigError(f"cannot set '{dotted}': '{p}' is not a section")
    d[parts[-1]] = value


def _parse_scalar(text: str) -> Any:
    """Env values and CLI overrides are YAML scalars, so `true`, `3` and `0.5` get their types. YAML 1.1's
    other booleans (yes/no/on/off) stay words: a switch setting or a model name may be one of them, and a
    true/false setting reads them as booleans anyway."""
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    return text if isinstance(value, bool) and text.strip().lower() not in ("true", "false") else value


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        line = path.read_bytes()[: e.start].count(b"\n") + 1
        raise ConfigError(
            f"{path}: not UTF-8 text (byte 0x{e.object[e.start]:02x} on line {line}). Save the file as UTF-8 "
            "(e.g. `iconv -f latin1 -t utf-8`) or remove it."
        ) from e
    except OSError as e:
        raise ConfigError(f"{path}: cannot read ({e.strerror}). Fix its permissions or remove it.") from e
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as e:
        raise ConfigError(f"{path}: not valid YAML ({e}). Fix the file or remove it.") from e
    if not isinstance(data, dict):
        raise ConfigError(
            f"{path}: expected a mapping of sections (llm:, search:, ...), got {type(data).__name__}"
        )
    return data


def config_files(cwd: Path | None = None) -> list[Path]:
    """The YAML layers in precedence order (lowest first). The home layer is found when settings are
    loaded, so AUTOMIND_HOME set after import (a test's private home) is the one read, never the user's."""
    return [automind_home() / "automind.yaml", (cwd or Path.cwd()) / "automind.yaml"]


def _sections() -> list[str]:
    """Top-level keys that hold a group of settings (llm, search, ...), not one value."""
    return [
        k
        for k, f in Settings.model_fields.items()
        if isinstance(f.annotation, type) and issubclass(f.annotation, BaseModel)
    ]


# Hand-written rather than pydantic-settings: per-key provenance ("env AUTOMIND_X__Y") and YAML-typed values.
def _env_layer(environ: dict[str, str]) -> dict[str, Any]:
    """AUTOMIND_SEARCH__STEPS=5 -> search.steps = 5 (double underscore separates levels)."""
    out: dict[str, Any] = {}
    sections = _sections()
    for name, value in environ.items():
        if not name.startswith("AUTOMIND_") or name in ("AUTOMIND_HOME", "AUTOMIND_STORE"):
            continue
        dotted = name[len("AUTOMIND_") :].lower().replace("__", ".")
        if dotted in sections:
            raise ConfigError(
                f"env {name}={value!r}: '{dotted}' is a section, not a value. Set one of its keys instead, "
                f"e.g. AUTOMIND_{dotted.upper()}__<KEY>=... (`automind config show` lists the keys)."
            )
        if "." not in dotted and dotted != "runs_dir":
            continue
        out[dotted] = _parse_scalar(value)
    if "AUTOMIND_STORE" in environ:
        out["knowledge.store"] = environ["AUTOMIND_STORE"]
    return out


class LoadedConfig:
    """Settings plus where each leaf value came from, and which mode's defaults are in effect."""

    def __init__(self, settings: Settings, sources: dict[str, str], mode: Mode = "offline"):
        self.settings = settings
        self.sources = sources
        self.mode = mode

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


def _unknown_key(loc: tuple[Any, ...], defaults: dict[str, Any]) -> str:
    """Name the closest real setting (a typo is the usual cause) or list the section's settings."""
    import difflib

    parent: Any = defaults
    for part in loc[:-1]:
        parent = parent.get(str(part), {}) if isinstance(parent, dict) else {}
    known = sorted(parent) if isinstance(parent, dict) else []
    prefix = "".join(f"{p}." for p in loc[:-1])
    close = difflib.get_close_matches(str(loc[-1]), known, n=1, cutoff=0.6)
    if close:
        return f"no such setting; did you mean {prefix}{close[0]}?"
    where = f"{prefix[:-1]} has" if prefix else "the sections are"
    return f"no such setting ({where}: {', '.join(known)}); `automind config show` lists every setting."


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
            set_dotted(merged, dotted, value)
            sources[dotted] = source
    try:
        settings = Settings.model_validate(merged)
    except ValidationError as e:
        problems = []
        defaults = Settings().model_dump(mode="python")
        for err in e.errors():
            key = ".".join(str(p) for p in err["loc"])
            why = _unknown_key(err["loc"], defaults) if err["type"] == "extra_forbidden" else err["msg"]
            problems.append(f"  {key} (from {_source_of(key, sources)}): {why}")
        raise ConfigError("invalid configuration:\n" + "\n".join(problems)) from e
    mode = mode_of(settings.llm, environ)
    unset = {k: v for k, v in MODE_DEFAULTS[mode].items() if k not in sources}
    for dotted, value in unset.items():  # a value the user set anywhere is never replaced
        section, _, leaf = dotted.partition(".")
        setattr(getattr(settings, section), leaf, value)
        sources[dotted] = f"default ({mode} mode)"
    return LoadedConfig(settings, sources, mode)
