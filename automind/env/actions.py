"""The action registry: a name, a JSON schema for the arguments, a description, and the function.

Register with the `action` decorator (every environment made afterwards has it) or with
`TaskEnv.register_action` (that environment only). An action function receives an `EnvView` and the
call's arguments as keywords, and returns an `ActionResult`. `tool()` renders an action in the OpenAI
function-calling "tools" format, so the list can go straight into an LLM's context.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from automind.env.reward import Reward

NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
}


@dataclass
class ActionResult:
    """What an action returns: text for the agent, structured details, and a reward when it scored code."""

    text: str
    ok: bool = True
    data: dict[str, Any] = field(default_factory=dict)
    reward: Reward | None = None


ActionFn = Callable[..., ActionResult]


@dataclass(frozen=True)
class ActionSpec:
    name: str
    fn: ActionFn
    description: str
    parameters: dict[str, Any]  # JSON schema of an object

    def tool(self) -> dict[str, Any]:
        """This action as an OpenAI function-calling tool."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }

    def check_args(self, args: dict[str, Any]) -> list[str]:
        """Problems with a call's arguments against the schema (required, types, enums, unknown keys)."""
        props: dict[str, Any] = self.parameters.get("properties", {})
        problems = [
            f"missing required argument '{k}'" for k in self.parameters.get("required", []) if k not in args
        ]
        for key, value in args.items():
            if key not in props:
                known = ", ".join(props) or "none"
                problems.append(f"unknown argument '{key}' (arguments of {self.name}: {known})")
                continue
            want = props[key].get("type")
            types = JSON_TYPES.get(want, (object,)) if isinstance(want, str) else (object,)
            if not isinstance(value, types) or (want in ("integer", "number") and isinstance(value, bool)):
                problems.append(f"argument '{key}' must be a {want}, got {type(value).__name__}")
            elif "enum" in props[key] and value not in props[key]["enum"]:
                problems.append(f"argument '{key}' must be one of {props[key]['enum']}, got {value!r}")
        return problems


def make_spec(name: str, fn: ActionFn, parameters: dict[str, Any] | None, description: str) -> ActionSpec:
    """Validate a registration: a lower_snake name, a callable, an object schema."""
    if not NAME.match(name):
        raise ValueError(f"action name {name!r}: use lower_snake_case letters and digits (max 64).")
    if not callable(fn):
        raise TypeError(f"action {name!r}: {fn!r} is not callable.")
    schema = dict(parameters or {"type": "object", "properties": {}})
    if schema.get("type") != "object" or not isinstance(schema.get("properties", {}), dict):
        raise ValueError(
            f"action {name!r}: parameters must be a JSON schema with type 'object' and 'properties'."
        )
    schema.setdefault("properties", {})
    text = description or (fn.__doc__ or "").strip().split("\n")[0] or name
    return ActionSpec(name, fn, text, schema)


REGISTRY: dict[str, ActionSpec] = {}


def action(
    name: str, *, description: str = "", parameters: dict[str, Any] | None = None
) -> Callable[[ActionFn], ActionFn]:
    """Register the decorated function as an action for every TaskEnv created afterwards."""

    def register(fn: ActionFn) -> ActionFn:
        REGISTRY[name] = make_spec(name, fn, parameters, description)
        return fn

    return register
