"""Turn (profile, recipe state, recipe cards) into a standalone script of four steps made of named components.

The state (draft id, applied trick ids, repairs, seed, siblings, time allowance) is written as a JSON comment at
the top of the script and of every step, so improve/debug/repair can rebuild the script from it
deterministically: the same inputs always give the same code, and the steps concatenate to the whole script.

Each component (clean, features, target, encoding, validation, model, ensemble, postprocess) is one contiguous
block between `# >>> component NAME: CHOICE` and `# <<< component NAME` lines; changing one component's choice
or tricks changes that block only (and the state lines). `automind.recipes.components` is the API over this.
"""

from __future__ import annotations

import ast
import hashlib
import json
import pprint
import re
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from automind.recipes.metric_code import metric_block
from automind.recipes.profile import Profile

TAG = "automind-recipe:"
HOOKS = ("config", "features", "target", "params", "ensemble", "postprocess")
HOOK_LISTS = {
    "features": "FEATURE_HOOKS",
    "target": "TARGET_HOOKS",
    "params": "PARAM_HOOKS",
    "ensemble": "ENSEMBLE_HOOKS",
    "postprocess": "POST_HOOKS",
}
# Components in script order, with the step that holds them and the function a choice card must define
# (None: the component has no choice cards, only tricks).
COMPONENTS: dict[str, tuple[int, str | None]] = {
    "clean": (1, "clean"),
    "features": (1, None),
    "target": (1, None),
    "encoding": (1, "encode_categories"),
    "validation": (2, "make_folds"),
    "model": (2, "models"),
    "ensemble": (2, "combine"),
    "postprocess": (2, "postprocess"),
}
# Where a trick's code lives when its card names no component.
HOOK_COMPONENT = {
    "features": "features",
    "target": "target",
    "params": "model",
    "ensemble": "ensemble",
    "postprocess": "postprocess",
    "config": "validation",
}
BEGIN, END = "# >>> component ", "# <<< component "
STEP_TITLES = (
    ("Load data", "read train/test/sample submission, encode the target"),
    ("Preprocess and features", "the clean, features, target and encoding components; images to pixel "
     "columns and the clean component on the whole frames"),
    ("Model and cross-validation", "the validation, model, ensemble and postprocess components: each model "
     "of the portfolio on every fold while time lasts, the ensemble and post-processing fitted on "
     "out-of-fold predictions; print and save the validation metric"),
    ("Predict and write submission", "fill the sample submission's columns in its row order"),
)  # fmt: skip
# Repairs are CFG overlays: data, so a repaired script differs from its parent by readable settings.
FIXES: dict[str, dict[str, Any]] = {
    "light": {"folds": 3, "bags": 1, "light": True},
    "coerce": {"coerce": True},
    "fillna": {"fillna": True},
}


@dataclass
class State:
    draft: str
    tricks: list[str] = field(default_factory=list)
    fixes: list[str] = field(default_factory=list)
    seed: int = 0
    siblings: list[dict[str, Any]] = field(default_factory=list)
    budget: float | None = None  # the script's time allowance in seconds (CFG["time_budget"])

    def tag(self) -> str:
        return f"{TAG} {json.dumps(asdict(self), sort_keys=True)}"

    @classmethod
    def from_code(cls, code: str | None) -> State | None:
        """The last recipe tag in the code (a repaired later step carries the newest state)."""
        if not code:
            return None
        found = re.findall(rf"{re.escape(TAG)} (\{{.*\}})\s*$", code, re.M)
        for raw in reversed(found):
            try:
                data = json.loads(raw)
                return cls(**{k: data[k] for k in data if k in cls.__dataclass_fields__})
            except (ValueError, TypeError):
                continue
        return None


ScriptKey = tuple[str, frozenset[str]]  # RecipeRoles.script_key


@dataclass
class RanScripts:
    """The recipe scripts a run's memory lines record, by `RecipeRoles.script_key` (draft and trick set) and
    by `fingerprint` (what the script runs, however it was reached)."""

    keys: set[ScriptKey] = field(default_factory=set)
    prints: set[str] = field(default_factory=set)


def tricks_tail(state: State) -> str:
    """The ' (tricks: a, b)' end of a recipe node's one-line summary: the memory lines carry it whole, and
    `tried_lists` reads it back."""
    return f" (tricks: {', '.join(state.tricks)})" if state.tricks else ""


_TRIED = re.compile(
    r"\[(?:draft|improve|debug|refine [a-z]+ #\d+ of) ([a-z0-9-]+)\](?:.*?\(tricks: ([^)]*)\))?"
)


def tried_lists(memory: list[str]) -> list[tuple[str, list[str]]]:
    """(draft, trick list in order) of every recipe node (draft, improve, debug, refine attempt) the run's
    memory lines record; `RecipeRoles.script_key` says which of them make the same script."""
    return [
        (m[1], [t.strip() for t in m[2].split(",")] if m[2] else [])
        for line in memory
        if (m := _TRIED.search(line))
    ]


@lru_cache(maxsize=1)
def runtime_sections() -> dict[str, str]:
    """`# %% name` sections of runtime.py (the stubs section is for linting only)."""
    text = resources.files("automind.recipes").joinpath("runtime.py").read_text(encoding="utf-8")
    parts = re.split(r"^# %% (\w+)\n", text, flags=re.M)
    sections = {parts[i]: parts[i + 1].strip("\n") + "\n" for i in range(1, len(parts), 2)}
    return {k: v.replace("  # noqa: E402", "") for k, v in sections.items()}


def snake(card_id: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", card_id.lower()).strip("_")


def component_of(recipe: dict[str, Any]) -> str | None:
    """The component a card belongs to: its `component`, else its hook's (None for drafts)."""
    if recipe.get("hook") == "component":
        return recipe.get("component")
    return recipe.get("component") or HOOK_COMPONENT.get(recipe.get("hook", ""))


def is_choice(recipe: dict[str, Any]) -> bool:
    return recipe.get("hook") == "component"


def hook_function(recipe: dict[str, Any], card_id: str) -> tuple[str, str] | None:
    """(renamed function name, code) for a trick recipe; data-only recipes get a generated function."""
    hook = recipe["hook"]
    name = f"{hook}__{snake(card_id)}"
    code = recipe.get("code")
    if code:
        code = code.strip("\n") + "\n"
        renamed, n = re.subn(rf"^def {hook}\(", f"def {name}(", code, flags=re.M)
        if n != 1:
            raise ValueError(
                f"recipe {card_id}: its code must define `def {hook}(...)` exactly once at top level"
            )
        return name, renamed
    if hook == "params" and isinstance(recipe.get("params"), dict):
        literal = pprint.pformat(recipe["params"], width=100, sort_dicts=False)
        families = (recipe.get("applies") or {}).get("families")
        if families:  # a portfolio mixes families: only the models of the listed ones take these params
            return name, (
                f"def {name}(p, cfg):\n"
                f"    if cfg.get('family') not in {tuple(families)!r}:\n        return p\n"
                f"    return {{**p, **{literal}}}\n"
            )
        return name, f"def {name}(p, cfg):\n    return {{**p, **{literal}}}\n"
    return None  # config recipes with only `set`: a CFG.update line in their component's block


def build_cfg(profile: Profile, state: State, recipes: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The CFG literal: the profile, the draft's settings, repairs, the seed and the time allowance (tricks'
    and choices' settings live in their component's block, so they change that block only)."""
    cfg = profile.cfg()
    cfg["seed"] = state.seed
    cfg.update(recipes[state.draft].get("set") or {})
    for fix in state.fixes:
        cfg.update(FIXES.get(fix, {}))
    halvings = state.fixes.count("subsample")
    if halvings:
        cfg["max_rows"] = max(500, profile.n_rows >> halvings)
    if state.siblings:
        cfg["siblings"] = state.siblings
    if state.budget:
        cfg["time_budget"] = round(float(state.budget), 1)
    return cfg


def fingerprint(
    profile: Profile, state: State, recipes: dict[str, dict[str, Any]], defaults: dict[str, str]
) -> str:
    """A hash of what a recipe script runs (its settings but the seed and time allowance, and its component
    blocks), with no regard to the draft and tricks that named them. Two lineages can write one script:
    a portfolio refined to `model -> lgbm` is the LightGBM draft, an image portfolio refined to
    `model -> svm` is the SVM draft (digits at 120 s spent 87 s re-running its first draft that way)."""
    plain = State(draft=state.draft, tricks=list(state.tricks))
    cfg = build_cfg(profile, plain, recipes)
    cfg.pop("seed", None)
    blocks = component_blocks(plain, recipes, choices(plain, recipes, defaults))
    text = pprint.pformat(cfg, sort_dicts=True) + "".join(block for _, block in blocks.values())
    return hashlib.sha1(text.encode()).hexdigest()


def _main(lines: list[str]) -> str:
    return 'if __name__ == "__main__":\n' + "".join(f"    {line}\n" for line in lines)


def _legacy_blocks(draft_id: str, draft: dict[str, Any]) -> dict[str, str]:
    """A draft written as `code: {prepare, model}` (the older card format) becomes the encoding and model
    blocks: its prepare() is the 'draft' representation, its fit_predict() the one model."""
    code = draft["code"]
    family = draft.get("family", "custom")
    encoding = (
        code["prepare"].strip("\n")
        + "\n\n\n"
        + ("def encode_categories(a, b, y, cfg):\n    return category_codes(a, b, cfg)\n")
    )
    model = (
        code["model"].strip("\n")
        + "\n\n\n"
        + (
            "def models(cfg):\n"
            f"    return [member({draft_id!r}, fit_predict, 'draft', default_params(cfg), {family!r})]\n"
        )
    )
    return {"encoding": encoding, "model": model}


def choices(state: State, recipes: dict[str, dict[str, Any]], defaults: dict[str, str]) -> dict[str, str]:
    """The choice card of each choice component: the last one applied on the lineage, else the draft's pin,
    else the given default (the highest-priority applicable choice)."""
    chosen = dict(defaults)
    chosen.update(recipes[state.draft].get("components") or {})
    for rid in state.tricks:
        if is_choice(recipes[rid]):
            chosen[recipes[rid]["component"]] = rid
    return chosen


def component_blocks(
    state: State, recipes: dict[str, dict[str, Any]], chosen: dict[str, str]
) -> dict[str, tuple[str, str]]:
    """name -> (choice label, block text with its markers) for every component."""
    draft = recipes[state.draft]
    legacy = _legacy_blocks(state.draft, draft) if isinstance(draft.get("code"), dict) else {}
    tricks: dict[str, list[str]] = {name: [] for name in COMPONENTS}
    for rid in state.tricks:
        comp = component_of(recipes[rid])
        if not is_choice(recipes[rid]) and comp in tricks:
            tricks[comp].append(rid)
    out = {}
    for name, (_, func) in COMPONENTS.items():
        parts: list[str] = []
        if func is None:
            label = "+".join(tricks[name]) or "none"
        elif (
            name in legacy
            and name not in (draft.get("components") or {})
            and not _overridden(state, recipes, name)
        ):
            label = "draft"
            parts.append(legacy[name])
        else:
            card = chosen.get(name)
            if card is None or card not in recipes:
                raise ValueError(f"no choice card for component {name!r} of draft {state.draft}")
            rec = recipes[card]
            label = rec.get("choice", card)
            if rec.get("set"):
                parts.append(f"CFG.update({pprint.pformat(rec['set'], width=100, sort_dicts=False)})\n")
            parts.append(rec["code"].strip("\n") + "\n")
        hook_names: dict[str, list[str]] = {}
        for rid in tricks[name]:
            rec = recipes[rid]
            if rec.get("set"):
                parts.append(f"CFG.update({pprint.pformat(rec['set'], width=100, sort_dicts=False)})\n")
            fn = hook_function(rec, rid)
            if fn is None:
                continue
            if rec["hook"] == "config":
                parts.append(fn[1] + f"\nCFG = {fn[0]}(CFG)\n")
            else:
                parts.append(fn[1])
                hook_names.setdefault(rec["hook"], []).append(fn[0])
        for hook, var in HOOK_LISTS.items():
            if HOOK_COMPONENT[hook] == name:
                parts.append(f"{var} = [{', '.join(hook_names.get(hook, []))}]\n")
        body = "\n\n".join(p.strip("\n") + "\n" for p in parts)
        out[name] = (label, f"{BEGIN}{name}: {label}\n{body}{END}{name}\n")
    return out


def _overridden(state: State, recipes: dict[str, dict[str, Any]], name: str) -> bool:
    return any(is_choice(recipes[r]) and recipes[r].get("component") == name for r in state.tricks)


def render_steps(
    profile: Profile,
    state: State,
    recipes: dict[str, dict[str, Any]],
    plan_line: str = "",
    defaults: dict[str, str] | None = None,
) -> list[str]:
    """The four step cells; join_steps() of them is the whole standalone script."""
    rt = runtime_sections()
    blocks = component_blocks(state, recipes, choices(state, recipes, defaults or {}))

    def comps(step: int) -> str:
        return "\n\n".join(text for name, (_, text) in blocks.items() if COMPONENTS[name][0] == step)

    cfg = pprint.pformat(build_cfg(profile, state, recipes), width=108, sort_dicts=False)
    tag = state.tag()
    head = [f"# {TAG}" + tag[len(TAG) :], f"# {plan_line}" if plan_line else ""]
    step1 = "\n".join(x for x in head if x) + f"\n# ---- step 1/4: {STEP_TITLES[0][0]} ----\n"
    step1 += rt["imports"] + "\n" + f"CFG = {cfg}\n\n\n" + rt["load"] + "\n\n"
    step1 += metric_block(profile.metric, profile.lower_is_better) + "\n\n"
    step1 += _main([
        "train, test, sample = load_data()",
        "y = encode_target(train)",
        'log(f"train {train.shape}, test {test.shape}, problem {CFG[\'problem\']}, metric {CFG[\'metric\']}")',
    ])  # fmt: skip
    step2 = f"\n\n# ---- step 2/4: {STEP_TITLES[1][0]} ---- {tag}\n"
    step2 += comps(1) + "\n\n" + rt["features"] + "\n\n"
    step2 += _main(["train, test = prepare_frames(train, test)"])
    step3 = f"\n\n# ---- step 3/4: {STEP_TITLES[2][0]} ---- {tag}\n"
    step3 += comps(2) + "\n\n" + rt["model"] + "\n\n"
    step3 += _main([
        "oof, test_pred = cross_validate(train, test, y)",
        "score = report(y, oof, test_pred)",
    ])  # fmt: skip
    step4 = f"\n\n# ---- step 4/4: {STEP_TITLES[3][0]} ---- {tag}\n" + rt["submit"] + "\n\n"
    step4 += _main(["write_submission(test, sample, test_pred)"])
    steps = [step.strip("\n") for step in (step1, step2, step3, step4)]
    # a broken card must fail here, not in the sandbox; each piece is whole statements, so checking the
    # pieces checks the script, and the long ones (runtime sections, card blocks) are parsed once per process
    glue = list(steps)
    for piece in [*rt.values(), *(text for _, text in blocks.values())]:
        glue = [g.replace(piece, "") for g in glue]
        _parses(piece)
    ast.parse("\n".join(glue))
    return steps


@lru_cache(maxsize=512)
def _parses(text: str) -> None:
    ast.parse(text)


def join_steps(steps: list[str]) -> str:
    """How the stepwise coder accumulates cells (two blank lines between), so both paths give one text."""
    return "\n\n\n".join(step.strip("\n") for step in steps) + "\n"


def render(
    profile: Profile,
    state: State,
    recipes: dict[str, dict[str, Any]],
    plan_line: str = "",
    defaults: dict[str, str] | None = None,
) -> str:
    return join_steps(render_steps(profile, state, recipes, plan_line, defaults))
