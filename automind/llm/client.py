"""One small chat interface over OpenAI-compatible servers, with the bookkeeping a long run needs.

`LLM.chat` resolves the role's model and temperature, enforces the budget, retries transient
failures with backoff within a total deadline (`llm.deadline_s`), turns function calls (or JSON in text, for servers without tool support)
into `Reply.tool_args`, re-asks once when structured output is malformed, and accounts tokens
and cost per role. Providers only implement `_complete` (one raw request).
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_exception_type,
    stop_after_attempt,
    stop_before_delay,
    wait_random_exponential,
)

from automind.errors import BudgetExceeded, LLMError
from automind.llm.parsers import extract_json

if TYPE_CHECKING:
    from automind.config import LLMConfig, RoleConfig

DEFAULT_BASE_URL = "https://api.openai.com/v1"
ROLES = ("planner", "coder", "verifier", "analyzer", "retriever")


class TransientError(Exception):
    """Worth retrying: rate limit, server error, timeout, dropped connection, unreadable body."""

    def __init__(self, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


@dataclass
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0
    model: str = ""


@dataclass
class Reply:
    text: str
    tool_args: dict[str, Any] | None = None
    usage: Usage = field(default_factory=Usage)


@dataclass
class RoleUsage:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0
    failures: int = 0

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass
class Request:
    """One raw request as a provider sees it (tools already normalised to OpenAI's shape)."""

    messages: list[dict[str, Any]]
    role: str
    model: str
    temperature: float
    max_tokens: int | None = None
    tools: list[dict[str, Any]] | None = None
    response_format: dict[str, Any] | None = None
    timeout_s: float = 60.0  # this attempt: llm.timeout_s, or less when the call's deadline is near


def normalise_tools(tools: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    """Accept bare function specs ({name, description, parameters}) or full OpenAI tool dicts."""
    if not tools:
        return None
    return [
        t if t.get("type") == "function" and "function" in t else {"type": "function", "function": t}
        for t in tools
    ]


def price_for(prices: dict[str, dict[str, float]], model: str) -> dict[str, float] | None:
    """Exact model name first, else the longest table key the name starts with (dated snapshots)."""
    if model in prices:
        return prices[model]
    base = model.split("/")[-1]
    keys = [k for k in prices if base.startswith(k) or model.startswith(k)]
    return prices[max(keys, key=len)] if keys else None


def _missing_required(args: Any, tools: list[dict[str, Any]] | None) -> list[str] | None:
    """None when args satisfy the (first) tool's required keys; else the missing keys."""
    if not isinstance(args, dict):
        return ["<a JSON object>"]
    if not tools:
        return None
    required = tools[0]["function"].get("parameters", {}).get("required", [])
    missing = [k for k in required if k not in args]
    return missing or None


class LLM:
    """Base class: roles, retries, structured output, accounting and budget; subclasses send requests."""

    provider = "base"

    def __init__(self, cfg: LLMConfig, *, one_model: bool | None = None):
        self.cfg = cfg
        self.one_model = cfg.one_model if one_model is None else one_model
        self.usage: dict[str, RoleUsage] = {}
        self._lock = threading.Lock()
        self._sleep = time.sleep
        self._backoff = wait_random_exponential(multiplier=cfg.backoff_base_s, max=60)
        # time.monotonic() after which no call may run (a run's time limit; set by automind.run.Runner)
        self.stop_at: float | None = None

    # -- configuration -------------------------------------------------------------------------

    @property
    def base_url(self) -> str | None:
        return None

    def role_config(self, role: str) -> RoleConfig:
        from automind.config import RoleConfig

        return self.cfg.roles.get(role) or RoleConfig()

    def model_for(self, role: str) -> str:
        rc = self.role_config(role)
        return self.cfg.model if self.one_model or not rc.model else rc.model

    def describe(self, role: str = "planner") -> dict[str, Any]:
        return {
            "provider": self.provider,
            "base_url": self.base_url,
            "model": self.model_for(role),
            "role": role,
        }

    # -- the interface -------------------------------------------------------------------------

    def chat(
        self,
        messages: list[dict[str, Any]],
        role: str = "planner",
        tools: list[dict[str, Any]] | None = None,
        response_format: dict[str, Any] | None = None,
        deadline_s: float | None = None,
        deadline_key: str = "llm.deadline_s",
    ) -> Reply:
        """Send `messages` as `role`. With `tools` (or a JSON response_format) the answer is structured:
        `tool_args` holds the decoded object, re-asked once when malformed, else LLMError.
        Each request, retries included, ends within `deadline_s` (default: the `deadline_key` setting)."""
        self.check_budget()
        rc = self.role_config(role)
        req = Request(
            messages=list(messages),
            role=role,
            model=self.model_for(role),
            temperature=rc.temperature,
            max_tokens=rc.max_tokens,
            tools=normalise_tools(tools),
            response_format=response_format,
            timeout_s=self.cfg.timeout_s,
        )
        structured = bool(req.tools) or bool(
            response_format and "json" in str(response_format.get("type", ""))
        )
        reply = self._call(req, deadline_s, deadline_key)
        if not structured:
            return reply
        args = reply.tool_args if reply.tool_args is not None else extract_json(reply.text)
        missing = _missing_required(args, req.tools)
        if missing is None and isinstance(args, dict):
            reply.tool_args = args
            return reply
        from automind.llm.prompts import render

        fix = render("structured_repair", missing=missing, tools=req.tools)
        req.messages = [*req.messages, {"role": "assistant", "content": reply.text or "(no usable answer)"}]
        req.messages.append({"role": "user", "content": fix})
        second = self._call(req, deadline_s, deadline_key)
        args = second.tool_args if second.tool_args is not None else extract_json(second.text)
        if _missing_required(args, req.tools) is None and isinstance(args, dict):
            second.tool_args = args
            return second
        self._record_failure(role)
        raise LLMError(
            f"{self.provider} model '{req.model}' (role {role}) gave malformed structured output twice; "
            f"last reply starts: {second.text[:200]!r}"
        )

    # -- plumbing ------------------------------------------------------------------------------

    def _complete(self, req: Request) -> Reply:
        raise NotImplementedError

    def _call(
        self, req: Request, deadline_s: float | None = None, deadline_key: str = "llm.deadline_s"
    ) -> Reply:
        """One request with retries on transient errors, all within a total deadline; accounts usage.

        The SDK's own retries are off (OpenAILLM sets max_retries=0) and tenacity drives them here, because
        the SDK gives every retry the full timeout and waits out a Retry-After of up to two minutes, so a
        silent server would hold a call for (retries + 1) x timeout. Here an attempt only starts before the
        deadline and gets at most the time that is left; a sane Retry-After still sets the wait.
        """
        deadline = self.cfg.deadline_s if deadline_s is None else deadline_s
        started = time.monotonic()
        if self.stop_at is not None:
            if self.stop_at - started <= 0:
                raise LLMError(f"the run's time limit is reached: no model call for role {req.role}")
            deadline = min(deadline, self.stop_at - started)

        def attempt() -> Reply:
            left = deadline - (time.monotonic() - started)
            req.timeout_s = max(0.05, min(self.cfg.timeout_s, left))
            t0 = time.perf_counter()
            reply = self._complete(req)
            reply.usage.latency_s = reply.usage.latency_s or (time.perf_counter() - t0)
            return reply

        retrying = Retrying(
            retry=retry_if_exception_type(TransientError),
            stop=stop_after_attempt(max(1, self.cfg.max_retries + 1)) | stop_before_delay(deadline),
            wait=self._wait,
            sleep=self._sleep,
            reraise=True,
        )
        try:
            reply = retrying(attempt)
        except TransientError as e:
            self._record_failure(req.role)
            tries = retrying.statistics.get("attempt_number", 1)
            raise LLMError(
                f"{self.provider} at {self.base_url or '-'} (model '{req.model}', role {req.role}) failed "
                f"{tries} time(s) in {time.monotonic() - started:.0f}s; last error: {str(e).rstrip('.')}. "
                f"Check the server, or raise {deadline_key} (whole call, now {deadline:g}s), llm.timeout_s "
                f"(one attempt, now {self.cfg.timeout_s:g}s) or llm.max_retries (now {self.cfg.max_retries})."
            ) from e
        except LLMError:
            self._record_failure(req.role)
            raise
        reply.usage.model = reply.usage.model or req.model
        self._account(req.role, reply.usage)
        return reply

    def _wait(self, state: RetryCallState) -> float:
        """A server's Retry-After when sane (0-60 s), else exponential backoff with full jitter."""
        error = state.outcome.exception() if state.outcome is not None else None
        after = error.retry_after if isinstance(error, TransientError) else None
        if after is not None and 0 <= after <= 60:
            return after
        return self._backoff(state)

    def _account(self, role: str, usage: Usage) -> None:
        price = price_for(self.cfg.prices, usage.model)
        if price and not usage.cost_usd:
            usage.cost_usd = (
                usage.prompt_tokens * price.get("input", 0.0)
                + usage.completion_tokens * price.get("output", 0.0)
            ) / 1e6
        with self._lock:
            rec = self.usage.setdefault(role, RoleUsage())
            rec.calls += 1
            rec.prompt_tokens += usage.prompt_tokens
            rec.completion_tokens += usage.completion_tokens
            rec.cost_usd += usage.cost_usd
            rec.latency_s += usage.latency_s

    def _record_failure(self, role: str) -> None:
        with self._lock:
            self.usage.setdefault(role, RoleUsage()).failures += 1

    # -- accounting ----------------------------------------------------------------------------

    def totals(self) -> RoleUsage:
        total = RoleUsage()
        for rec in list(self.usage.values()):
            for name in ("calls", "prompt_tokens", "completion_tokens", "cost_usd", "latency_s", "failures"):
                setattr(total, name, getattr(total, name) + getattr(rec, name))
        return total

    def usage_summary(self) -> dict[str, Any]:
        """Per-role and total usage plus the budget, as plain JSON for run.json and reports."""
        total = self.totals()
        return {
            "provider": self.provider,
            "roles": {
                r: {**asdict(u), "tokens": u.tokens, "model": self.model_for(r)}
                for r, u in self.usage.items()
            },
            "total": {**asdict(total), "tokens": total.tokens},
            "budget": {"tokens": self.cfg.budget_tokens, "usd": self.cfg.budget_usd},
        }

    def check_budget(self) -> None:
        total = self.totals()
        if self.cfg.budget_tokens is not None and total.tokens >= self.cfg.budget_tokens:
            raise BudgetExceeded(
                f"token budget spent: {total.tokens} of llm.budget_tokens={self.cfg.budget_tokens}. "
                "The run stops and keeps its best result; raise llm.budget_tokens to continue."
            )
        if self.cfg.budget_usd is not None and total.cost_usd >= self.cfg.budget_usd:
            raise BudgetExceeded(
                f"money budget spent: ${total.cost_usd:.4f} of llm.budget_usd=${self.cfg.budget_usd}. "
                "The run stops and keeps its best result; raise llm.budget_usd to continue."
            )


class OpenAILLM(LLM):
    """Any OpenAI-compatible endpoint: OpenAI, DeepSeek, vLLM, Ollama, llama.cpp's server."""

    provider = "openai"

    def __init__(
        self, cfg: LLMConfig, *, api_key: str | None, base_url: str | None, one_model: bool | None = None
    ):
        super().__init__(cfg, one_model=one_model)
        from openai import OpenAI

        self._base_url = base_url or DEFAULT_BASE_URL
        self._key_source = cfg.api_key_env
        # Local servers ignore the key, but the client insists on one.
        # max_retries=0: LLM._call retries within the call's deadline (see there why not the SDK's retries).
        self.client = OpenAI(api_key=api_key or "not-needed", base_url=self._base_url, max_retries=0)
        self.tools_supported = cfg.tools != "off"
        self.temperature_supported = True

    @property
    def base_url(self) -> str | None:
        return self._base_url

    def _complete(self, req: Request) -> Reply:
        import openai

        messages = req.messages
        kwargs: dict[str, Any] = {"model": req.model, "timeout": req.timeout_s}
        if self.temperature_supported:
            kwargs["temperature"] = req.temperature
        if req.max_tokens:
            kwargs["max_tokens"] = req.max_tokens
        if req.response_format:
            kwargs["response_format"] = req.response_format
        use_tools = bool(req.tools) and self.tools_supported
        if req.tools and use_tools:
            kwargs["tools"] = req.tools
            if len(req.tools) == 1:
                kwargs["tool_choice"] = {
                    "type": "function",
                    "function": {"name": req.tools[0]["function"]["name"]},
                }
        elif req.tools:
            messages = _with_json_instruction(messages, req.tools)
        try:
            resp = self.client.chat.completions.create(messages=messages, **kwargs)  # type: ignore[arg-type]  # plain dicts in OpenAI's shape
        except openai.BadRequestError as e:
            detail = str(e).lower()
            if use_tools:  # the server rejects tools: answer via JSON in text from now on
                self.tools_supported = False
                return self._complete(req)
            if "temperature" in detail and self.temperature_supported:
                self.temperature_supported = False
                return self._complete(req)
            raise LLMError(f"request rejected by {self._base_url} (model '{req.model}'): {_short(e)}") from e
        except openai.AuthenticationError as e:
            raise LLMError(
                f"authentication failed at {self._base_url} (model '{req.model}'): set {key_names(self._key_source)} "
                "to a valid key for this server, or point llm.base_url / OPENAI_BASE_URL at the server you meant."
            ) from e
        except openai.PermissionDeniedError as e:
            raise LLMError(
                f"permission denied at {self._base_url} for model '{req.model}': the key in {self._key_source} "
                "cannot use this model; pick another with llm.model or --llm openai:MODEL."
            ) from e
        except openai.NotFoundError as e:
            raise LLMError(
                f"model '{req.model}' not found at {self._base_url}: set llm.model (or llm.roles.{req.role}.model, "
                "or --llm openai:MODEL) to a model this server serves, or check llm.base_url / OPENAI_BASE_URL."
            ) from e
        except openai.RateLimitError as e:
            raise TransientError(f"rate limited (429): {_short(e)}", _retry_after(e)) from e
        except openai.APITimeoutError as e:
            raise TransientError(f"no answer from {self._base_url} within {req.timeout_s:.3g}s") from e
        except openai.APIConnectionError as e:
            raise TransientError(f"cannot connect to {self._base_url}: {_short(e)}") from e
        except (openai.APIResponseValidationError, ValueError) as e:  # 200 with a body that is not JSON
            raise TransientError(f"unreadable response body from {self._base_url}: {_short(e, 120)}") from e
        except openai.APIStatusError as e:
            if e.status_code >= 500 or e.status_code in (408, 409):
                raise TransientError(f"server error {e.status_code}: {_short(e)}", _retry_after(e)) from e
            raise LLMError(
                f"{self._base_url} answered {e.status_code} for model '{req.model}': {_short(e)}"
            ) from e
        return _to_reply(resp, req)


def key_names(env_name: str) -> str:
    """The variable(s) a key is read from: the configured one, then OPENAI_API_KEY."""
    return env_name if env_name == "OPENAI_API_KEY" else f"{env_name} (or OPENAI_API_KEY)"


def _short(e: Exception, n: int = 300) -> str:
    text = str(e)
    return text if len(text) <= n else text[:n] + "..."


def _retry_after(e: Any) -> float | None:
    try:
        return float(e.response.headers.get("retry-after"))
    except (AttributeError, TypeError, ValueError):
        return None


def _with_json_instruction(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """For servers without function calling: ask for the arguments as one JSON object in the text."""
    from automind.llm.prompts import render

    note = render("json_fallback", tool=tools[0]["function"])
    return [*messages, {"role": "user", "content": note}]


def _to_reply(resp: Any, req: Request) -> Reply:
    """Decode a completion; an unreadable body is transient (proxies and overloaded servers do this)."""
    try:
        choice = resp.choices[0]
        msg = choice.message
    except (AttributeError, IndexError, TypeError) as e:
        raise TransientError(f"unreadable response body: {str(resp)[:200]!r}") from e
    text = msg.content or ""
    tool_args = None
    for call in msg.tool_calls or []:
        raw = getattr(call.function, "arguments", "") or ""
        try:
            parsed = json.loads(raw)
        except (json.JSONDecodeError, TypeError):
            text = text or raw  # keep the garbage visible so the re-ask can quote it
            continue
        if isinstance(parsed, dict):
            tool_args = parsed
            text = text or raw
            break
    u = getattr(resp, "usage", None)
    prompt = getattr(u, "prompt_tokens", None)
    completion = getattr(u, "completion_tokens", None)
    if prompt is None:  # some local servers omit usage: estimate ~4 characters per token
        prompt = sum(len(str(m.get("content", ""))) for m in req.messages) // 4
    if completion is None:
        completion = len(text) // 4
    return Reply(
        text, tool_args, Usage(int(prompt), int(completion), model=getattr(resp, "model", "") or req.model)
    )
