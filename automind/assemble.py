"""The composition root: which `Roles` implementation serves a run, built from the settings.

Only this module knows both implementations (and the LLM factory), so `automind.roles` stays a
dependency-free protocol. A new implementation is one more entry in `ROLES_REGISTRY`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from automind.config import Settings
    from automind.llm.client import LLM
    from automind.roles import Roles


def _recipe_roles(settings: Settings, llm: LLM | None) -> Roles:
    from automind.recipes import RecipeRoles

    return RecipeRoles(settings)


def _llm_roles(settings: Settings, llm: LLM | None) -> Roles:
    from automind.llm.roles import LLMRoles

    if llm is None:
        raise ValueError("LLM roles need a model; the registry picks 'recipes' when none is configured")
    return LLMRoles(llm, settings)


# Which Roles implementation serves a run: "recipes" without a model, "llm" with one.
ROLES_REGISTRY: dict[str, Callable[[Settings, LLM | None], Roles]] = {
    "recipes": _recipe_roles,
    "llm": _llm_roles,
}


def make_roles(settings: Settings, spec: str | None = None) -> Roles:
    """Roles for `settings.llm.provider` (or `spec`): the offline recipe policy when it resolves to no LLM."""
    from automind.llm import make_llm

    llm = make_llm(settings, spec)
    return ROLES_REGISTRY["recipes" if llm is None else "llm"](settings, llm)


def make_safety_roles(settings: Settings) -> Roles:
    """The recipe policy as the LLM mode's safety net (a valid draft when the model produced none)."""
    return ROLES_REGISTRY["recipes"](settings, None)
