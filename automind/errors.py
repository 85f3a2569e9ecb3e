"""Exceptions that cross layers, kept in one leaf module so no layer imports another just to catch them.

The search, the coders, the LLM layer and the recipe policy all raise or catch these; this module
imports nothing from the project, so importing it can never close an import cycle.
"""

from __future__ import annotations


class RoleError(RuntimeError):
    """A role could not produce an answer (model error, unparsable reply, a task the recipes cannot read).

    The search marks the node buggy with this message and goes on.
    """


class LLMError(RoleError):
    """The model could not give a usable answer, or the LLM is misconfigured; the message says what to change."""


class BudgetExceeded(RuntimeError):
    """The token or money budget is spent. Not a RoleError: it stops the run, which keeps its best result."""
