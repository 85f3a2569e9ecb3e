"""The refine and ensemble roles of the offline policy, through the component API (docs/recipes.md).

Refine: the ablation runs the solution itself (the baseline) and one script per component that is not
neutral (the solution with that component reduced to its neutral form), all under the same time limit;
the summary is the table of their scores against the baseline's, the block
is the most influential component not refined before on the lineage (largest |effect| first, then the
components no ablation measured), and the attempts are the alternatives its cards offer, one per attempt,
best-ranked first and its neutral form last, except a script the ablation already ran that scored no
better than the baseline (it would score the same again) and a model the solution's own portfolio already
fitted on the same folds and found weaker than its combination. Each attempt's script differs from the solution
only inside that component's block (and the lines that record the recipe state).

Ensemble: each round takes the next method not yet tried on the same members (caruana selection over
the members' predictions, then over every model of their portfolios, stacking, the mean) and renders an
ensemble script (recipes/ensemble.py) that combines their saved predictions without training again.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from automind.errors import RoleError
from automind.recipes.components import ComponentError, block, member_names
from automind.recipes.compose import RanScripts, ScriptKey, State, tricks_tail
from automind.recipes.ensemble import DESCRIPTIONS, METHODS, render_ensemble
from automind.roles import (
    Ablation,
    AblationResult,
    AblationRow,
    AblationRun,
    Attempt,
    Block,
    Context,
    Plan,
)

if TYPE_CHECKING:
    from automind.recipes.components import Component
    from automind.recipes.profile import Profile

# When no ablation measured a component, the one to refine first (the model matters most, MLE-STAR finds).
REFINE_ORDER = ("model", "encoding", "features", "validation", "ensemble", "postprocess", "target", "clean")
BASELINE = "baseline"  # the ablation run of the solution itself
_METHOD_TAG = re.compile(r"\[ensemble ([a-z-]+) of ([0-9, ]+)\]")


def effect(base: float | None, score: float | None, lower_is_better: bool) -> float | None:
    """How much the solution beats the variant (> 0: the changed component helps), in metric units."""
    if base is None or score is None or not (math.isfinite(base) and math.isfinite(score)):
        return None
    return round(score - base if lower_is_better else base - score, 6)


class RecipeSearchActions:
    """Mixed into `RecipeRoles`: the Roles methods of the refine and ensemble actions."""

    if TYPE_CHECKING:  # provided by RecipeRoles

        def components(self, ctx: Context, code: str | None = None) -> list[Component]: ...
        def ablations(self, ctx: Context, code: str | None = None) -> list[tuple[str, Plan]]: ...
        def alternatives(self, ctx: Context, component: str, code: str | None = None) -> list[Plan]: ...
        def code(self, ctx: Context, plan: Plan) -> str: ...
        def profile(self, ctx: Context) -> Profile: ...
        def _registry(self, ctx: Context) -> dict[str, dict[str, Any]]: ...
        def script_key(self, ctx: Context, state: State, reg: dict[str, dict[str, Any]]) -> ScriptKey: ...
        def ran_scripts(self, ctx: Context, reg: dict[str, dict[str, Any]]) -> RanScripts: ...
        def already_ran(
            self, ctx: Context, state: State, reg: dict[str, dict[str, Any]], ran: RanScripts
        ) -> bool: ...

    # --- refine -------------------------------------------------------------------------------------
    def ablation_scripts(self, ctx: Context, covered: list[str], refined: list[str]) -> list[AblationRun]:
        """The solution itself (the baseline, measured under the same time limit as the variants), then one
        script per component that ablation changes, except blocks already refined on the lineage (they
        cannot be chosen again, so measuring them would be wasted time)."""
        try:
            plans = self.ablations(ctx)
        except ComponentError as e:
            raise RoleError(f"refine: {e}") from e
        variants = [
            AblationRun(
                name, self.code(ctx, plan), str(plan.meta.get("note") or name).removeprefix("ablation of ")
            )
            for name, plan in plans
            if name not in refined
        ]
        if not variants:  # nothing to measure: the block is chosen among the unmeasured components
            return []
        return [
            AblationRun(BASELINE, ctx.parent_code or "", "the solution as it is", reproduces=True),
            *variants,
        ]

    def summarise_ablation(self, ctx: Context, results: list[AblationResult]) -> Ablation:
        """The component -> effect table against the baseline run (else the solution's own score), largest
        effect first."""
        lower = bool(ctx.facts.get("lower_is_better", self.profile(ctx).lower_is_better))
        base = next((r.metric for r in results if r.run.label == BASELINE), None)
        base = ctx.parent_metric if base is None else base
        rows = [
            AblationRow(r.run.label, r.run.change, r.metric, effect(base, r.metric, lower))
            for r in results
            if r.run.label != BASELINE
        ]
        rows.sort(key=lambda r: -abs(r.effect) if r.effect is not None else math.inf)
        measured = [(r, r.effect) for r in rows if r.effect is not None]
        if not measured:
            return Ablation(rows, "no ablation variant produced a score")
        parts = []
        for r, e in measured[:3]:
            verb = "helps" if e > 0 else ("hurts" if e < 0 else "changes nothing")
            parts.append(f"{r.component} {verb} ({r.change}: {r.score:.6g}, effect {e:+.4g})")
        failed = [r.component for r in rows if r.effect is None]
        tail = f"; variants that failed: {', '.join(failed)}" if failed else ""
        head = f"Baseline {base:.6g}. " if base is not None else ""
        return Ablation(rows, head + "Largest effects: " + "; ".join(parts) + tail + ".")

    def extract_block(self, ctx: Context, ablation: Ablation, refined: list[str]) -> Block:
        """The component with the largest |effect| that was not refined on this lineage and has alternatives;
        then the unmeasured ones in REFINE_ORDER; components whose ablation changed nothing (effect 0: no
        evidence they matter) come last. The first plan is its best-ranked alternative."""
        try:
            comps = {c.name: c for c in self.components(ctx)}
        except ComponentError as e:
            raise RoleError(f"refine: {e}") from e
        rows = [r for r in ablation.rows if r.effect is not None]
        moved = [r.component for r in sorted(rows, key=lambda r: -abs(r.effect or 0.0)) if r.effect]
        still = [r.component for r in rows if not r.effect]
        order = moved + [n for n in REFINE_ORDER if n not in moved and n not in still] + still
        measured = self._measured_no_better(ctx, ablation)
        for name in order:
            comp = comps.get(name)
            if comp is None or name in refined or not comp.alternatives:
                continue
            plans, skipped = self._attempt_choices(ctx, name, measured)
            if not plans:
                continue
            text = block(ctx.parent_code or "", name)
            first = _refine_plan(plans[0], name, 1)
            first.meta["measured"] = [[d, sorted(t)] for d, t in measured]  # for plan_block, same step
            first.meta["not_tried"] = skipped  # the refine record and the report show them
            return Block(name, text, first)
        raise RoleError(
            "refine: every component with alternatives was already refined on this lineage "
            f"({', '.join(refined) or 'none'}), or this run (or this step's ablation, scoring no better) "
            "already ran each of its alternatives"
        )

    def _measured_no_better(self, ctx: Context, ablation: Ablation) -> set[ScriptKey]:
        """The `script_key` of each ablation variant that scored no better than the baseline. An attempt
        with the same script would only repeat that score: at 600 s on a regression table, three of a run's
        four refine attempts re-ran the ablation's `clean -> minimal`, `ensemble -> best` and
        `postprocess -> none` scripts for their parent's score (docs/search.md, "Policy"). A variant that beat
        the baseline is kept as an attempt, so the better script becomes a node the search can use."""
        effects = {r.component: r.effect for r in ablation.rows}
        if not any(e is not None and e >= 0 for e in effects.values()):
            return set()
        reg = self._registry(ctx)
        out = set()
        for name, plan in self.ablations(ctx):
            e = effects.get(name)
            if e is not None and e >= 0:
                out.add(self.script_key(ctx, State(**plan.meta["state"]), reg))
        return out

    def _attempt_plans(self, ctx: Context, name: str, measured: set[ScriptKey] | None = None) -> list[Plan]:
        """The alternatives of component `name`, its neutral form last, leaving out those this run already
        ran (the same draft and trick set, e.g. as an improve), those in `measured` (this step's ablation ran
        them and they scored no better), cards that changed no prediction wherever the run applied them, and
        models the solution's own portfolio fitted and found weaker than its combination (`weaker_members`).
        `ctx` is the refine step's, fixed for the whole step, so the list (indexed by attempt) does not shift
        under the attempts."""
        return self._attempt_choices(ctx, name, measured)[0]

    def _attempt_choices(
        self, ctx: Context, name: str, measured: set[ScriptKey] | None = None
    ) -> tuple[list[Plan], list[str]]:
        """`_attempt_plans`, and one line per alternative left out saying why (the report shows them)."""
        comp = next(c for c in self.components(ctx) if c.name == name)
        reg = self._registry(ctx)
        ran, idle = self.ran_scripts(ctx, reg), set(ctx.ineffective_tricks)
        # on a text or image task a card's model may read another representation than the portfolio's
        # model of the same name (LightGBM on TF-IDF there, on the table's columns in the portfolio)
        weaker = weaker_members(ctx.parent_dir) if self.profile(ctx).primary == "tabular" else frozenset()
        plans, skipped = [], []
        for p in self.alternatives(ctx, name):
            state = State(**p.meta["state"])
            key = self.script_key(ctx, state, reg)
            models = member_names(str(reg.get(str(p.meta.get("choice")), {}).get("code", "")))
            why = (
                "this step's ablation ran that script and it scored no better" if key in (measured or set())
                else "this run already ran that script" if self.already_ran(ctx, state, reg, ran)
                else "it changed no prediction where this run applied it" if p.meta.get("choice") in idle
                else f"the solution's own portfolio fitted {', '.join(sorted(models))} on the same folds: "
                "weaker than its combination" if models and models <= weaker
                else None
            )  # fmt: skip
            if why is None:
                plans.append(p)
            else:
                skipped.append(f"{p.meta.get('note') or name}: {why}")
        ordered = [p for p in plans if p.meta.get("choice") != comp.neutral] + [
            p for p in plans if p.meta.get("choice") == comp.neutral
        ]
        return ordered, skipped

    def plan_block(self, ctx: Context, block: Block, history: list[Attempt]) -> Plan | None:
        """The next alternative of the block's component (None when all were tried)."""
        measured = {(d, frozenset(t)) for d, t in block.plan.meta.get("measured", [])}
        plans = self._attempt_plans(ctx, block.name, measured)
        k = len(history)
        return _refine_plan(plans[k], block.name, k + 1) if k < len(plans) else None

    def code_block(self, ctx: Context, block: Block, plan: Plan) -> str:
        """The variant script: the solution with the block's component set to the plan's card."""
        return self.code(ctx, plan)

    # --- ensemble -----------------------------------------------------------------------------------
    def plan_ensemble(self, ctx: Context, members: list[dict[str, Any]], history: list[Attempt]) -> Plan:
        """The next method not yet tried on these members (earlier plans carry an [ensemble METHOD of IDS]
        tag), over the members that saved out-of-fold predictions."""
        usable = [
            m for m in members if {"oof.npy", "test_pred.npy", "y.npy"} <= set(m.get("predictions", []))
        ]
        if len(usable) < 2:
            raise RoleError(
                f"ensemble: {len(usable)} of {len(members)} members saved out-of-fold predictions; two are needed"
            )
        ids = ", ".join(str(m["id"]) for m in usable)
        tried = {method for a in history for method, who in _METHOD_TAG.findall(a.plan) if who == ids}
        with_models = any("members.npz" in m.get("predictions", []) for m in usable)
        prof = self.profile(ctx)
        # stacking fits one binary or numeric target; elsewhere the script would fall back to caruana,
        # repeating a round already taken
        stackable = prof.problem in ("binary", "regression") and len(prof.target) == 1
        options = [
            m
            for m in METHODS
            if m not in tried and (m != "caruana-members" or with_models) and (m != "stack" or stackable)
        ]
        if not options:
            raise RoleError(f"ensemble: every method was already tried on nodes {ids}")
        method = options[0]
        scores = [f"{a.metric:.6g}" for a in history if a.metric is not None]
        lines = [
            f"[ensemble {method} of {ids}] Combine the saved predictions of nodes {ids} with "
            f"{DESCRIPTIONS[method]}.",
            "Weights are fitted on out-of-fold predictions only (cross-fitted for the reported score); test "
            "predictions are only combined.",
            "Members: "
            + "; ".join(f"#{m['id']} {m.get('metric')}: {m.get('summary', '')[:80]}" for m in usable),
        ]
        if scores:
            lines.append(f"Earlier ensembles scored {', '.join(scores)}.")
        return Plan(
            "\n".join(lines), f"ensemble {method} of nodes {ids}", {"method": method, "members": usable}
        )

    def code_ensemble(self, ctx: Context, plan: Plan, members: list[dict[str, Any]]) -> str:
        usable = plan.meta.get("members") or members
        dirs = [{"id": m["id"], "dir": f"{m['dir']}/submission"} for m in usable]
        return render_ensemble(self.profile(ctx), str(plan.meta["method"]), dirs, ctx.seed)


def weaker_members(node_dir: str | None) -> frozenset[str]:
    """The models of a solution's portfolio that scored worse on its folds than the portfolio's combination,
    its best model excepted (submission/members.json, written by the recipe runtime). Swapping the portfolio
    for such a model re-runs what the solution already measured: in 30 refine attempts of saved runs that
    swapped a portfolio for one of its models, each scored about as that model had inside the portfolio;
    none of the 25 with a model other than the best beat the solution, 4 of the 5 with the best one did
    (alone it gets the time the portfolio shares out: caravan's CatBoost 0.7617 inside, 0.7640 alone, over
    the portfolio's 0.7621). Empty when the file is missing or unreadable."""
    if not node_dir:
        return frozenset()
    try:
        data = json.loads((Path(node_dir) / "submission" / "members.json").read_text(encoding="utf-8"))
        combined, low = float(data["combined"]), bool(data["lower_is_better"])
        scores = {str(k): float(v) for k, v in data["members"].items()}
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return frozenset()
    finite = {k: v for k, v in scores.items() if math.isfinite(v)}
    if len(finite) < 2 or not math.isfinite(combined):
        return frozenset()
    best = (min if low else max)(finite, key=lambda k: finite[k])
    return frozenset(k for k, v in finite.items() if k != best and (effect(combined, v, low) or 0.0) > 0)


def _refine_plan(plan: Plan, component: str, attempt: int) -> Plan:
    """A variant plan labelled as a refine attempt on `component`. Its summary carries the draft and the
    whole trick list like an improve's, so a later improve does not rebuild the same script (`RecipeRoles.ran_scripts`)."""
    what = str(plan.meta.get("note") or component)
    state = State(**plan.meta["state"])
    summary = f"[refine {component} #{attempt} of {state.draft}] {what}{tricks_tail(state)}"
    return Plan(
        f"Refine block `{component}` (attempt {attempt}): {what}.\n{plan.text}", summary, dict(plan.meta)
    )
