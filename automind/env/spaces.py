"""Observation and action spaces of TaskEnv, as gymnasium spaces.

Observations are `spaces.Dict` of three texts: the action that produced it, "ok"/"error", and the
text an agent reads. gymnasium's `Text` only admits characters from a fixed charset, while task
descriptions and program output are arbitrary Unicode, so the text field is `AnyText`: a `Text` that
accepts every character (its samples stay alphanumeric). Actions are dicts `{"action": NAME, **args}`
whose arguments follow each action's JSON schema, which no built-in space expresses; `ActionSpace`
checks them against the environment's registry, and samples only the actions that run no code.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import spaces

if TYPE_CHECKING:
    from automind.env.actions import ActionSpec

NAME_CHARS = string.ascii_lowercase + string.digits + "_"


class AnyText(spaces.Text):
    """A `Text` space that contains strings of any characters, up to `max_length`."""

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"AnyText({self.min_length}, {self.max_length})"


def observation_space(max_chars: int) -> spaces.Dict:
    return spaces.Dict(
        {
            "action": spaces.Text(max_length=64, min_length=1, charset=NAME_CHARS),
            "status": spaces.Text(max_length=5, min_length=2, charset="kore"),  # "ok" | "error"
            "text": AnyText(max_length=max_chars, min_length=0),
        }
    )


class ActionSpace(spaces.Space[dict[str, Any]]):
    """`{"action": NAME, **arguments}` for the actions registered on one environment."""

    def __init__(self, specs: Callable[[], dict[str, ActionSpec]], seed: int | None = None):
        self._specs = specs
        super().__init__(shape=None, dtype=None, seed=seed)

    @property
    def names(self) -> list[str]:
        return list(self._specs())

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def contains(self, x: Any) -> bool:
        if not isinstance(x, dict) or not isinstance(x.get("action"), str):
            return False
        spec = self._specs().get(x["action"])
        return spec is not None and not spec.check_args({k: v for k, v in x.items() if k != "action"})

    def sample(self, mask: Any = None, probability: Any = None) -> dict[str, Any]:
        """A random call of an action that needs no code (info or history), with random enum arguments."""
        cheap = [s for s in self._specs().values() if _samplable(s)]
        if not cheap:
            raise ValueError("no action without required free-text arguments to sample")
        spec = cheap[int(self.np_random.integers(len(cheap)))]
        call: dict[str, Any] = {"action": spec.name}
        for key, prop in spec.parameters.get("properties", {}).items():
            if "enum" in prop:
                call[key] = _pick(self.np_random, prop["enum"])
        return call

    def __repr__(self) -> str:
        return f"ActionSpace({', '.join(self.names)})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ActionSpace) and other.names == self.names


def _samplable(spec: ActionSpec) -> bool:
    props = spec.parameters.get("properties", {})
    required = spec.parameters.get("required", [])
    return spec.name not in ("reset",) and all("enum" in props.get(k, {}) for k in required)


def _pick(rng: np.random.Generator, values: Sequence[Any]) -> Any:
    return values[int(rng.integers(len(values)))]
