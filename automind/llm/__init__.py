"""The LLM layer: one chat interface over OpenAI-compatible servers, a replay double, prompts and parsers.

`make_llm(settings, spec)` builds a provider (or None to run without a model); `LLMRoles` turns it
into the agent's planner/coder/verifier; `automind.llm.parsers` is shared text processing.
"""

from automind.llm.client import (
    LLM,
    BudgetExceeded,
    LLMError,
    OpenAILLM,
    Reply,
    RoleUsage,
    Usage,
    make_llm,
)

__all__ = ["LLM", "BudgetExceeded", "LLMError", "OpenAILLM", "Reply", "RoleUsage", "Usage", "make_llm"]
