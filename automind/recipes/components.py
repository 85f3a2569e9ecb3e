"""The component API over recipe scripts: what a script is made of, and the same script with one part changed.

A recipe script consists of named components (`COMPONENTS`: clean, features, target, encoding, validation,
model, ensemble, postprocess), each one contiguous block of the rendered script between
`# >>> component NAME: CHOICE` and `# <<< component NAME`. A component either has a *choice* (a card with
`hook: component`, e.g. model = portfolio | lgbm | catboost | linear) or holds only tricks (features,
target). Tricks (feature hooks, params, ensemble hooks, ...) sit inside the block of their component.

Everything here is pure: states in, states or text out. `RecipeRoles.components / ablations / alternatives /
variant` wrap these with a search context (docs/recipes.md, "Components").
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from automind.recipes.compose import BEGIN, COMPONENTS, END, TAG, State, component_of, is_choice


@dataclass
class Component:
    """One component of a script's recipe state."""

    name: str  # "model"
    choice: str  # its block label: a choice name ("portfolio"), "draft", or the tricks joined by "+" / "none"
    card: str | None  # the choice card in effect (None: trick-only component or a legacy draft's own code)
    tricks: list[str] = field(default_factory=list)  # trick cards whose code sits in this block
    alternatives: list[str] = field(default_factory=list)  # card ids to try instead (see `set_choice`)
    neutral: str | None = None  # the card ablation switches to; None: ablation drops the tricks
    step: int = 0  # index (0-3) of the script step that holds the block

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class ComponentError(ValueError):
    """A component name, block or choice that the script or the cards do not have; the message says which."""


def _check(name: str) -> None:
    if name not in COMPONENTS:
        raise ComponentError(f"unknown component {name!r}; components are {', '.join(COMPONENTS)}")


def block(code: str, name: str) -> str:
    """The text of component `name` in a rendered script, markers included (ends with a newline)."""
    _check(name)
    m = re.search(rf"^{re.escape(BEGIN)}{name}: .*?^{re.escape(END)}{name}\n", code, re.M | re.S)
    if m is None:
        raise ComponentError(f"the script has no block for component {name!r} (not written by a recipe?)")
    return m.group(0)


def replace_block(code: str, name: str, text: str) -> str:
    """The script with component `name`'s block replaced by `text` (which should carry the same markers)."""
    old = block(code, name)
    return code.replace(old, text.rstrip("\n") + "\n", 1)


def without_state(code: str) -> str:
    """The script minus what records the state rather than implements it: the first two header lines (state
    tag and plan comment) and the state tag at the end of each step heading. Two scripts that differ only in
    one component are equal outside that block after this."""
    lines = code.splitlines(keepends=True)
    if lines and TAG in lines[0]:
        lines = (
            lines[2:]
            if len(lines) > 1 and lines[1].startswith("# ") and "---- step" not in lines[1]
            else lines[1:]
        )
    return "".join(re.sub(rf" {re.escape(TAG)} .*$", "", line.rstrip("\n")) + "\n" for line in lines)


def outside(code: str, name: str) -> str:
    """Everything but component `name`'s block, without the state lines (for 'the rest is byte-identical')."""
    return without_state(code.replace(block(code, name), f"{BEGIN}{name}\n", 1))


_MEMBER = re.compile(r"""\bmember\(\s*["']([^"']+)["']""")


def member_names(code: str) -> frozenset[str]:
    """The portfolio members a model block or card defines (`member("name", ...)`)."""
    return frozenset(_MEMBER.findall(code))


def choice_cards(recipes: dict[str, dict[str, Any]], name: str) -> list[str]:
    return sorted(rid for rid, rec in recipes.items() if is_choice(rec) and rec.get("component") == name)


def tricks_of(state: State, recipes: dict[str, dict[str, Any]], name: str) -> list[str]:
    return [t for t in state.tricks if not is_choice(recipes[t]) and component_of(recipes[t]) == name]


def set_choice(state: State, name: str, card: str | None, recipes: dict[str, dict[str, Any]]) -> State:
    """The state with component `name` set to `card`.

    Choice components: `card` is a choice card of that component (earlier choices of it on the lineage are
    replaced). Trick-only components: `card` is a trick of that component, and the block then holds that
    trick alone; None empties the block."""
    _check(name)
    new = State(**asdict(state))
    if COMPONENTS[name][1] is None:
        keep = [t for t in new.tricks if is_choice(recipes[t]) or component_of(recipes[t]) != name]
        if card is not None:
            if card not in recipes or component_of(recipes[card]) != name or is_choice(recipes[card]):
                raise ComponentError(f"{card!r} is not a trick of component {name!r}")
            keep.append(card)
        new.tricks = keep
        return new
    if (
        card is None
        or card not in recipes
        or not is_choice(recipes[card])
        or recipes[card]["component"] != name
    ):
        raise ComponentError(
            f"{card!r} is not a choice of component {name!r}; choices: {', '.join(choice_cards(recipes, name))}"
        )
    new.tricks = [t for t in new.tricks if not (is_choice(recipes[t]) and recipes[t]["component"] == name)]
    new.tricks.append(card)
    return new


def ablate(state: State, comp: Component, recipes: dict[str, dict[str, Any]]) -> State:
    """The state with component `comp` reduced to its neutral form: its tricks dropped and, for a choice
    component, its choice set to the neutral card."""
    new = State(**asdict(state))
    new.tricks = [t for t in new.tricks if t not in comp.tricks]
    if comp.neutral is not None and comp.card != comp.neutral:
        new = set_choice(new, comp.name, comp.neutral, recipes)
    return new


def is_neutral(comp: Component) -> bool:
    """True when ablating the component would change nothing."""
    return not comp.tricks and (comp.neutral is None or comp.card == comp.neutral)
