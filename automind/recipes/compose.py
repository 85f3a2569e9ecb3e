"""Turn (profile, recipe state, recipe cards) into a standalone script of four steps.

The state (draft id, applied trick ids, repairs, seed, siblings) is written as a JSON comment at the top of
the script and of every step, so improve/debug/repair can rebuild the script from it deterministically:
the same inputs always give the same code, and the steps concatenate to the whole script.
"""

from __future__ import annotations

import ast
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
    "config": "CONFIG_HOOKS",
    "features": "FEATURE_HOOKS",
    "target": "TARGET_HOOKS",
    "params": "PARAM_HOOKS",
    "ensemble": "ENSEMBLE_HOOKS",
    "postprocess": "POST_HOOKS",
}
STEP_TITLES = (
    ("Load data", "read train/test/sample submission, apply config hooks, encode the target"),
    ("Preprocess and features", "feature hooks on the raw frames, then the draft's prepare() into model matrices"),
    ("Model and cross-validation", "K-fold fit_predict with params/target hooks, ensemble and post-processing, "
     "print and save the validation metric"),
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


@lru_cache(maxsize=1)
def runtime_sections() -> dict[str, str]:
    """`# %% name` sections of runtime.py (the stubs section is for linting only)."""
    text = resources.files("automind.recipes").joinpath("runtime.py").read_text(encoding="utf-8")
    parts = re.split(r"^# %% (\w+)\n", text, flags=re.M)
    sections = {parts[i]: parts[i + 1].strip("\n") + "\n" for i in range(1, len(parts), 2)}
    return {k: v.replace("  # noqa: E402", "") for k, v in sections.items()}


def snake(card_id: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", card_id.lower()).strip("_")


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
        return name, f"def {name}(p, cfg):\n    return {{**p, **{literal}}}\n"
    return None  # config recipes with only `set` are merged into CFG


def build_cfg(profile: Profile, state: State, recipes: dict[str, dict[str, Any]]) -> dict[str, Any]:
    cfg = profile.cfg()
    cfg["seed"] = state.seed
    for rid in [state.draft, *state.tricks]:
        cfg.update(recipes[rid].get("set") or {})
    for fix in state.fixes:
        cfg.update(FIXES.get(fix, {}))
    halvings = state.fixes.count("subsample")
    if halvings:
        cfg["max_rows"] = max(500, profile.n_rows >> halvings)
    if state.siblings:
        cfg["siblings"] = state.siblings
    return cfg


def _main(lines: list[str]) -> str:
    return 'if __name__ == "__main__":\n' + "".join(f"    {line}\n" for line in lines)


def render_steps(
    profile: Profile, state: State, recipes: dict[str, dict[str, Any]], plan_line: str = ""
) -> list[str]:
    """The four step cells; join_steps() of them is the whole standalone script."""
    rt = runtime_sections()
    draft = recipes[state.draft]
    by_hook: dict[str, list[tuple[str, str]]] = {h: [] for h in HOOKS}
    for rid in state.tricks:
        fn = hook_function(recipes[rid], rid)
        if fn is not None:
            by_hook[recipes[rid]["hook"]].append(fn)

    def block(*hooks: str) -> str:
        out = []
        for h in hooks:
            out += [code + "\n" for _, code in by_hook[h]]
            out.append(f"{HOOK_LISTS[h]} = [{', '.join(name for name, _ in by_hook[h])}]\n")
        return "\n".join(out)

    cfg = pprint.pformat(build_cfg(profile, state, recipes), width=108, sort_dicts=False)
    tag = state.tag()
    head = [f"# {TAG}" + tag[len(TAG) :], f"# {plan_line}" if plan_line else ""]
    step1 = "\n".join(x for x in head if x) + f"\n# ---- step 1/4: {STEP_TITLES[0][0]} ----\n"
    step1 += rt["imports"] + "\n" + f"CFG = {cfg}\n\n" + block("config") + "\n\n" + rt["load"] + "\n\n"
    step1 += metric_block(profile.metric, profile.lower_is_better) + "\n\n"
    step1 += _main([
        "for hook in CONFIG_HOOKS:",
        "    CFG = hook(CFG)",
        "train, test, sample = load_data()",
        "y = encode_target(train)",
        'log(f"train {train.shape}, test {test.shape}, problem {CFG[\'problem\']}, metric {CFG[\'metric\']}")',
    ])  # fmt: skip
    code = draft["code"]
    step2 = f"\n\n# ---- step 2/4: {STEP_TITLES[1][0]} ---- {tag}\n"
    step2 += (
        block("target", "features")
        + "\n\n"
        + code["prepare"].strip("\n")
        + "\n\n\n"
        + rt["features"]
        + "\n\n"
    )
    step2 += _main(["X, X_test = build_matrices(train, test)"])
    step3 = f"\n\n# ---- step 3/4: {STEP_TITLES[2][0]} ---- {tag}\n"
    step3 += code["model"].strip("\n") + "\n\n\n" + block("params", "ensemble", "postprocess") + "\n\n"
    step3 += rt["model"] + "\n\n"
    step3 += _main([
        "oof, test_pred = cross_validate(X, y, X_test)",
        "oof, test_pred = finish(oof, test_pred, y)",
        "score = report(y, oof, test_pred)",
    ])  # fmt: skip
    step4 = f"\n\n# ---- step 4/4: {STEP_TITLES[3][0]} ---- {tag}\n" + rt["submit"] + "\n\n"
    step4 += _main(["write_submission(test, sample, test_pred)"])
    steps = [step.strip("\n") for step in (step1, step2, step3, step4)]
    ast.parse(join_steps(steps))  # a broken card must fail here, not in the sandbox
    return steps


def join_steps(steps: list[str]) -> str:
    """How the stepwise coder accumulates cells (two blank lines between), so both paths give one text."""
    return "\n\n\n".join(step.strip("\n") for step in steps) + "\n"


def render(profile: Profile, state: State, recipes: dict[str, dict[str, Any]], plan_line: str = "") -> str:
    return join_steps(render_steps(profile, state, recipes, plan_line))
