"""The offline ensemble script: the best solutions' saved predictions combined, nothing trained again.

`render_ensemble` writes a standalone script from runtime.py's `imports`, `load` and `model` sections, the
task's metric (one definition, metric_code.py), ensemble_runtime.py's `ensemble` section and runtime.py's
`submit` section. The script reads each member's submission/ folder (oof.npy, test_pred.npy, y.npy,
members.npz), fits the combination on out-of-fold predictions only (cross-fitted, so the score it prints
is honest), post-processes as recipe scripts do, and writes submission.csv, eval_metric.txt, its own
predictions and ensemble.json (method and weights).
"""

from __future__ import annotations

import pprint
import re
from functools import lru_cache
from importlib import resources
from typing import Any

from automind.recipes.compose import runtime_sections
from automind.recipes.metric_code import metric_block
from automind.recipes.profile import Profile

ENSEMBLE_TAG = "automind-ensemble:"
# offline ensemble methods, in the order rounds try them (ensemble_runtime.METHODS holds the same names)
METHODS = ("caruana", "caruana-members", "stack", "mean")
DESCRIPTIONS = {
    "caruana": "greedy ensemble selection (Caruana) over the members' final out-of-fold predictions",
    "caruana-members": "greedy ensemble selection over every model of every member's portfolio "
    "(members.npz) and the members' final predictions",
    "stack": "a regularised linear meta-model on the members' out-of-fold predictions (log-odds for "
    "probabilities)",
    "mean": "the plain average of the members' predictions",
}


@lru_cache(maxsize=1)
def ensemble_section() -> str:
    text = resources.files("automind.recipes").joinpath("ensemble_runtime.py").read_text(encoding="utf-8")
    return re.split(r"^# %% ensemble\n", text, flags=re.M)[1].strip("\n") + "\n"


def render_ensemble(profile: Profile, method: str, members: list[dict[str, Any]], seed: int) -> str:
    """The ensemble script for `members` ({"id", "dir": the member's submission folder}) with `method`."""
    if method not in METHODS:
        raise ValueError(f"unknown ensemble method {method!r}; methods: {', '.join(METHODS)}")
    rt = runtime_sections()
    cfg = profile.cfg()
    cfg["seed"] = seed
    cfg["ensemble"] = {"method": method, "members": [{"id": m["id"], "dir": m["dir"]} for m in members]}
    head = (
        f"# {ENSEMBLE_TAG} {method} of nodes {', '.join(str(m['id']) for m in members)}\n"
        f"# {DESCRIPTIONS[method]}; weights fitted on out-of-fold predictions only\n"
    )
    body = [
        head + rt["imports"],
        f"CFG = {pprint.pformat(cfg, width=108, sort_dicts=False)}\n",
        rt["load"],
        metric_block(profile.metric, profile.lower_is_better),
        rt["model"],
        ensemble_section(),
        rt["submit"],
        'if __name__ == "__main__":\n    run_ensemble()\n',
    ]
    return "\n\n".join(part.strip("\n") + "\n" for part in body)
