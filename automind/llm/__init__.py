"""The LLM layer: one chat interface over OpenAI-compatible servers, a replay double, prompts and parsers.

`make_llm(settings, spec)` builds a provider from the `PROVIDERS` registry (or None to run without a
model); `LLMRoles` turns it into the agent's planner/coder/verifier; `automind.llm.parsers` is shared
text processing.
"""

from automind.errors import BudgetExceeded, LLMError
from automind.llm.client import LLM, OpenAILLM, Reply, RoleUsage, Usage
from automind.llm.providers import PROVIDERS, make_llm

__all__ = [
    "LLM",
    "PROVIDERS",
    "BudgetExceeded",
    "LLMError",
    "OpenAILLM",
    "Reply",
    "RoleUsage",
    "Usage",
    "make_llm",
]
