"""The offline policy: plan, code, repair and verify from recipe cards, with no LLM.

`RecipeRoles` implements `automind.roles.Roles` deterministically. A solution is a recipe *state* (one
draft card, the trick cards applied on its lineage in order, repairs, seed, earlier nodes to ensemble);
`compose.render` turns a state into a standalone four-step script. Drafts pick a not-yet-tried draft card
for the task's main modality; improves add one trick card (the search's, or the best applicable one);
debug recognises the failure from its text and adds a repair or drops the last trick. Recipes are data
(knowledge/cards/recipes-*.yaml, contract in docs/recipes.md): a new card adds behaviour without code.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from automind.errors import RoleError
from automind.recipes.actions import RecipeSearchActions
from automind.recipes.components import (
    Component,
    ComponentError,
    ablate,
    choice_cards,
    is_neutral,
    member_names,
    set_choice,
    tricks_of,
)
from automind.recipes.compose import (
    COMPONENTS,
    FIXES,
    STEP_TITLES,
    RanScripts,
    ScriptKey,
    State,
    choices,
    component_blocks,
    component_of,
    fingerprint,
    is_choice,
    render,
    render_steps,
    snake,
    tricks_tail,
    tried_lists,
)
from automind.recipes.profile import Profile, profile_task
from automind.roles import Context, LeakCheck, Plan, Step, Verdict

if TYPE_CHECKING:
    from automind.config import Settings
    from automind.knowledge import Card
    from automind.llm.client import LLM
    from automind.sandbox import ExecResult

_DRAFT_TAG = re.compile(r"\[draft ([a-z0-9-]+)\]")
# A script's time allowance, as a share of the run's time limit, capped by the time the execution may take.
# Improves and repairs get the same share as drafts: an improve redoes its parent's work plus one change, and
# with less time it would fit fewer models and lose to its parent for that reason alone.
DRAFT_SHARE, STEP_SHARE = 0.5, 0.5
# (pattern over the error text, repair); checked in order, each repair used once per lineage
_RULES: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            r"MemoryError|out of memory|Cannot allocate|std::bad_alloc|status[:=] ?memory|killed", re.I
        ),
        "resources",
    ),
    (re.compile(r"timed? ?out|timeout|time limit", re.I), "resources"),
    (
        re.compile(
            r"could not convert string to float|dtype|must be int, float|Unknown label type|invalid literal"
            r"|not supported between instances|Cannot cast|unhashable type",
            re.I,
        ),
        "coerce",
    ),  # fmt: skip
    (re.compile(r"contains NaN|contains infinity|NaN|too large for dtype", re.I), "fillna"),
]


def _applies(recipe: dict[str, Any], profile: Profile, family: Any, flags: set[str]) -> bool:
    """A recipe's `applies` block against the task: every listed condition must hold. `family` is the
    lineage's draft family, or the set of families its models belong to (a portfolio draft's `families`)."""
    a = recipe.get("applies") or {}
    if a.get("problems") and profile.problem not in a["problems"]:
        return False
    if a.get("metric_kinds") and profile.kind not in a["metric_kinds"]:
        return False
    if a.get("metrics") and profile.metric not in a["metrics"]:
        return False
    if a.get("primary") and profile.primary not in a["primary"]:
        return False
    fams = {family} if family is None or isinstance(family, str) else set(family)
    if a.get("families") and not set(a["families"]) & fams:
        return False
    if a.get("needs") and not set(a["needs"]) <= flags:
        return False
    if recipe.get("hook") == "draft":
        return not a.get("modalities") or profile.primary in a["modalities"]
    return not a.get("modalities") or bool(set(a["modalities"]) & set(profile.modalities))


def _families(draft: dict[str, Any]) -> set[str | None]:
    """The model families a draft's lineage uses: its `families`, else its one `family`."""
    return set(draft.get("families") or [draft.get("family")])


def _pipeline_families(
    state: State, reg: dict[str, dict[str, Any]], chosen: dict[str, str]
) -> set[str | None]:
    """The model families a pipeline trains: its model choice's `families` (a card that swapped the model,
    e.g. CatBoost alone), else its draft's. A LightGBM trick on a CatBoost-only pipeline changes nothing:
    arrests at 600 s ran seven such improves, each scoring exactly as its parent."""
    model = reg.get(chosen.get("model", ""), {})
    return set(model["families"]) if model.get("families") else _families(reg[state.draft])


def _improve_priority(recipe: dict[str, Any]) -> float:
    """Rank as an improve: a choice card's `trick_priority`, any other trick's `priority`."""
    return float(recipe.get("trick_priority" if is_choice(recipe) else "priority", 0))


def _sibling_dirs(sib: dict[str, Any]) -> list[str]:
    """Where an earlier node's saved predictions may be: copied into working/siblings/<id>, or its folder."""
    dirs = [f"./working/siblings/{sib.get('id')}"]
    for key in ("dir", "artifacts", "node_dir", "workspace", "path"):
        if sib.get(key):
            p = Path(str(sib[key]))
            dirs += [str(p), str(p / "submission")]
    return dirs


class RecipeRoles(RecipeSearchActions):
    """Deterministic planner/coder/verifier over recipe cards (name "recipes"); the refine and ensemble
    roles come from `RecipeSearchActions` (recipes/actions.py)."""

    name = "recipes"
    llm: LLM | None = None  # no model: nothing to account, knowledge is condensed offline

    def __init__(self, settings: Settings, cards: list[Card] | None = None):
        if cards is None:
            from automind.knowledge import load_cards

            cards = load_cards()
        self.settings = settings
        self.cards = {c.id: c for c in cards if c.recipe}
        self.recipes: dict[str, dict[str, Any]] = {cid: dict(c.recipe or {}) for cid, c in self.cards.items()}
        self._profiles: dict[Path, Profile] = {}
        self._prints: dict[tuple[Any, ...], str | None] = {}  # script_print's, per task and state

    # --- facts about the task ----------------------------------------------------------------------
    def profile(self, ctx: Context) -> Profile:
        root = Path(ctx.task.root)
        if root not in self._profiles:
            self._profiles[root] = profile_task(ctx.task, ctx.facts)
            self._profiles[root].threads = max(1, int(self.settings.sandbox.threads))
            self._profiles[root].fold_seed = int(self.settings.search.seed)
        return self._profiles[root]

    def _registry(self, ctx: Context) -> dict[str, dict[str, Any]]:
        """Shipped recipes plus any carried by retrieved tricks (cards from extra card folders)."""
        reg = dict(self.recipes)
        for t in [*ctx.knowledge, *([ctx.trick] if ctx.trick else [])]:
            if t.recipe and t.id not in reg:
                reg[t.id] = dict(t.recipe)
        return reg

    def _flags(self, ctx: Context, profile: Profile) -> set[str]:
        return profile.flags | ({"siblings"} if ctx.siblings else set())

    def _title(self, rid: str, reg: dict[str, dict[str, Any]]) -> str:
        card = self.cards.get(rid)
        return card.title if card else reg[rid].get("title", rid)

    # --- choosing ----------------------------------------------------------------------------------
    def _drafts(self, ctx: Context, profile: Profile, reg: dict[str, dict[str, Any]]) -> list[str]:
        tops = {label.split("/")[0] for label in ctx.labels[:3]}

        def rank(rid: str) -> tuple[float, str]:
            card = self.cards.get(rid)
            bonus = 10 if card and tops & {lab.split("/")[0] for lab in card.labels} else 0
            return (-(float(reg[rid].get("priority", 0)) + bonus), rid)

        flags = self._flags(ctx, profile)
        drafts = [
            r for r, rec in reg.items() if rec.get("hook") == "draft" and _applies(rec, profile, None, flags)
        ]
        if not drafts and profile.primary != "tabular":  # no draft for this modality: treat it as a table
            tab = Profile(**{**asdict(profile), "modalities": ["tabular"]})
            drafts = [
                r for r, rec in reg.items() if rec.get("hook") == "draft" and _applies(rec, tab, None, flags)
            ]
        if not drafts:
            raise RoleError(
                f"no recipe draft applies to a {profile.problem} task with {profile.modalities} data"
            )
        return sorted(drafts, key=rank)

    def _next_trick(self, ctx: Context, state: State, reg: dict[str, dict[str, Any]]) -> str | None:
        """The best-ranked trick that makes a script this run has not run yet; None: only a re-run is left."""
        return next(iter(self._fresh_tricks(ctx, state, reg)), None)

    def _fresh_tricks(self, ctx: Context, state: State, reg: dict[str, dict[str, Any]]) -> list[str]:
        """Every trick that applies to `state`'s pipeline and, added to it, makes a script this run has not run,
        best-ranked first."""
        chosen = choices(state, reg, self.defaults(ctx, state, reg))
        profile, family = self.profile(ctx), _pipeline_families(state, reg, chosen)
        flags, used = self._flags(ctx, profile), {*state.tricks, *ctx.parent_tricks, *ctx.ineffective_tricks}
        current = set(chosen.values())
        # blends of earlier nodes are the search's ensemble action when it is on, not an improve
        skip = ("draft", "ensemble") if self.settings.search.ensemble.rounds else ("draft",)
        options = [
            rid for rid, rec in reg.items()
            if rec.get("hook") not in (None, *skip) and rid not in used and rid not in current
            and (not is_choice(rec) or "trick_priority" in rec) and _applies(rec, profile, family, flags)
        ]  # fmt: skip
        options.sort(key=lambda r: (-_improve_priority(reg[r]), r))
        # Skip a script this run already ran (the memory lines carry each node's trick list): repeating one
        # re-runs it (digits at 600 s: three identical improves, 72 s spent for one score); with none left
        # the caller re-runs with a new seed.
        ran = self.ran_scripts(ctx, reg)
        return [
            r for r in options
            if not self.already_ran(ctx, State(draft=state.draft, tricks=[*state.tricks, r]), reg, ran)
        ]  # fmt: skip

    def script_key(self, ctx: Context, state: State, reg: dict[str, dict[str, Any]]) -> ScriptKey:
        """What decides a recipe script but its seed, time allowance and repairs: the draft, its tricks that
        are not choice cards, in any order (arrests at 600 s reached one set three ways), and the choice in
        effect for each component where it differs from the one the draft makes without choice cards (the
        last applied wins; one set back to that default makes the script without it: arrests at 600 s ran
        `validation -> kfold` as a refine attempt, its parent's own script)."""
        defaults = self.defaults(ctx, state, reg)
        plain = [t for t in state.tricks if t in reg and not is_choice(reg[t])]
        base = choices(State(draft=state.draft, tricks=plain), reg, defaults)
        chosen = choices(
            State(draft=state.draft, tricks=[t for t in state.tricks if t in reg]), reg, defaults
        )
        return state.draft, frozenset(plain) | {c for k, c in chosen.items() if base.get(k) != c}

    def script_print(self, ctx: Context, state: State, reg: dict[str, dict[str, Any]]) -> str | None:
        """`compose.fingerprint` of the script `state` writes (None: a trick list no card here can render)."""
        known = State(draft=state.draft, tricks=[t for t in state.tricks if t in reg])
        defaults = self.defaults(ctx, known, reg)
        cache_key = (str(ctx.task.root), known.draft, tuple(known.tricks), tuple(sorted(defaults.items())))
        if cache_key not in self._prints:
            try:
                self._prints[cache_key] = fingerprint(self.profile(ctx), known, reg, defaults)
            except (KeyError, ValueError):  # a card of an older run that this registry lacks
                self._prints[cache_key] = None
        return self._prints[cache_key]

    def ran_scripts(self, ctx: Context, reg: dict[str, dict[str, Any]]) -> RanScripts:
        """Every recipe script the run's memory lines record, by `script_key` and by `script_print`."""
        states = [State(draft=d, tricks=list(tricks)) for d, tricks in tried_lists(ctx.memory) if d in reg]
        prints = {self.script_print(ctx, s, reg) for s in states}
        return RanScripts({self.script_key(ctx, s, reg) for s in states}, {p for p in prints if p})

    def already_ran(
        self, ctx: Context, state: State, reg: dict[str, dict[str, Any]], ran: RanScripts
    ) -> bool:
        """Whether `state` writes a script of `ran`: the same draft and trick set, or the same script reached
        another way (`script_print`)."""
        if self.script_key(ctx, state, reg) in ran.keys:
            return True
        found = self.script_print(ctx, state, reg)
        return found is not None and found in ran.prints

    def _closest(self, ctx: Context, state: State, reg: dict[str, dict[str, Any]]) -> str | None:
        """The applicable recipe most like a suggested trick that has none (same idea, prose-only card)."""

        def words(text: str) -> set[str]:
            return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2} - {
                "rcp",
                "tab",
                "the",
                "and",
                "for",
            }

        assert ctx.trick is not None

        def sim(a: set[str], b: set[str]) -> float:
            return len(a & b) / max(1, len(a | b))

        want_id, want = words(ctx.trick.id), words(f"{ctx.trick.id} {ctx.trick.title}")
        best, best_score = None, 0.3
        # only tricks that make a new script from this state (walking the options by adding each in turn
        # judged later ones on top of the earlier, so one already run on its own could be picked)
        for cand in self._fresh_tricks(ctx, state, reg):
            score = max(sim(want_id, words(cand)), sim(want, words(f"{cand} {self._title(cand, reg)}")))
            if score > best_score:
                best, best_score = cand, score
        return best

    def _draft_state(self, ctx: Context, reg: dict[str, dict[str, Any]]) -> State:
        drafts = self._drafts(ctx, self.profile(ctx), reg)
        tried = [m for line in ctx.memory for m in _DRAFT_TAG.findall(line)]
        fresh = [d for d in drafts if d not in tried]
        state = State(draft=fresh[0] if fresh else drafts[len(tried) % len(drafts)], seed=ctx.seed,
                      budget=self.budget(ctx, "draft"))  # fmt: skip
        # Recipes that only express the metric's own scale (log target for RMSLE) belong in every draft; those
        # that suit a metric on a target of some shape (log target for SMAPE on a skewed target) when it has it.
        profile, family = self.profile(ctx), _families(reg[state.draft])
        flags = self._flags(ctx, profile)
        for rid in sorted(reg):
            rec = reg[rid]
            if rec.get("hook") == "draft":
                continue
            loose = {**rec, "applies": {k: v for k, v in (rec.get("applies") or {}).items() if k != "needs"}}
            if (
                profile.metric in (rec.get("auto_for_metrics") or [])
                and _applies(loose, profile, family, flags)
            ) or (
                profile.metric in (rec.get("auto_when_needed_for") or [])
                and _applies(rec, profile, family, flags)
            ):
                state.tricks.append(rid)
        return state

    def _with_siblings(self, ctx: Context, state: State, reg: dict[str, dict[str, Any]]) -> State:
        if any(reg[t].get("hook") == "ensemble" for t in state.tricks) and ctx.siblings:
            state.siblings = [{"id": str(s.get("id")), "dirs": _sibling_dirs(s)} for s in ctx.siblings]
        return state

    # --- repairs -----------------------------------------------------------------------------------
    def _repair_state(
        self, ctx: Context, state: State, error: str, reg: dict[str, dict[str, Any]]
    ) -> tuple[State, str]:
        """One deterministic change that addresses the error; the note says what and why."""
        s = State(**asdict(state))
        for rid in reversed(s.tricks):  # the traceback names a trick's function: drop that trick
            if not is_choice(reg[rid]) and f"{reg[rid]['hook']}__{snake(rid)}" in error:
                s.tricks.remove(rid)
                return s, f"the error comes from trick {rid}: dropped it"
            func = COMPONENTS.get(reg[rid].get("component", ""), (0, None))[1]
            if is_choice(reg[rid]) and func and re.search(rf"in {func}\b", error):
                s.tricks.remove(rid)
                return (
                    s,
                    f"the error comes from the {reg[rid]['component']} choice {rid}: back to the default",
                )
        for pattern, fix in _RULES:
            if not pattern.search(error):
                continue
            if fix == "resources":
                if "light" not in s.fixes:
                    s.fixes.append("light")
                    return s, "out of time/memory: lighter preset (3 folds, no bagging, fewer rounds)"
                if s.fixes.count("subsample") < 3:
                    s.fixes.append("subsample")
                    return s, "still out of time/memory: train on half as many rows"
            elif fix not in s.fixes:
                s.fixes.append(fix)
                if fix == "coerce" and "fillna" not in s.fixes:
                    s.fixes.append("fillna")
                return s, {"coerce": "type error: numeric-looking text to numbers, other text to category codes",
                           "fillna": "NaN/inf in the model input: fill with zeros"}[fix]  # fmt: skip
        if s.tricks:
            dropped = s.tricks.pop()
            return s, f"unrecognised failure: dropped the last trick {dropped}"
        for fix in ("coerce", "fillna", "light"):
            if fix not in s.fixes:
                s.fixes.append(fix)
                return s, f"unrecognised failure in the base pipeline: safe mode ({fix})"
        drafts = self._drafts(ctx, self.profile(ctx), reg)
        later = [d for d in drafts if d != s.draft]
        if later:
            nxt = later[(drafts.index(s.draft) if s.draft in drafts else 0) % len(later)]
            return (State(draft=nxt, seed=s.seed, budget=s.budget),
                    f"the {s.draft} pipeline keeps failing: switched to {nxt}")  # fmt: skip
        s.fixes.append("subsample")
        return s, "the only applicable pipeline keeps failing: fewer rows"

    def _parent_state(self, ctx: Context, reg: dict[str, dict[str, Any]]) -> State | None:
        state = State.from_code(ctx.parent_code)
        if state is None or state.draft not in reg:
            return None
        state.tricks = [t for t in state.tricks if t in reg]
        return state

    # --- Roles -------------------------------------------------------------------------------------
    def plan(self, ctx: Context) -> Plan:
        reg, profile = self._registry(ctx), self.profile(ctx)
        parent = self._parent_state(ctx, reg)
        note, applied, rerun = "", None, False
        if ctx.action == "draft" or parent is None:
            state = self._draft_state(ctx, reg)
            if ctx.action != "draft":
                note = "the parent was not written by a recipe, so this starts from a fresh recipe draft"
        elif ctx.action == "improve":
            state = parent
            want = ctx.trick.id if ctx.trick else None
            family = _pipeline_families(state, reg, choices(state, reg, self.defaults(ctx, state, reg)))
            if (
                want
                and want in reg
                and want not in state.tricks
                and reg[want].get("hook") != "draft"
                and not (reg[want].get("hook") == "ensemble" and self.settings.search.ensemble.rounds)
                and want not in choices(state, reg, self.defaults(ctx, state, reg)).values()
                and _applies(reg[want], profile, family, self._flags(ctx, profile))
            ):
                applied = want
            else:
                applied = (self._closest(ctx, state, reg) if ctx.trick else None) or self._next_trick(
                    ctx, state, reg
                )
                if want:
                    why = "has no executable recipe" if want not in reg else "does not apply to this pipeline"
                    note = f"suggested trick {want} {why}; applied {applied or 'a new seed'} instead"
            if applied:
                state.tricks.append(applied)
            else:
                # The node's own seed, unique in the run: `seed + 1` gave every re-run of one parent the same
                # script (arrests at 600 s: 28 identical re-runs, 180 s of execution for one score).
                state.seed = ctx.seed if ctx.seed != state.seed else state.seed + 1
                rerun = True
                note = (
                    note or "every applicable trick is on this lineage or tried here: re-run with a new seed"
                )
        else:  # debug
            state, note = self._repair_state(ctx, parent, ctx.parent_output or "", reg)
        if ctx.action != "draft" and parent is not None:
            state.budget = self.budget(ctx, ctx.action)
        state = self._with_siblings(ctx, state, reg)
        plan = self._make_plan(ctx, state, reg, note, applied)
        plan.meta["rerun"] = rerun  # the policy improves other nodes first (search/policy.improvable)
        return plan

    def offers_change(self, ctx: Context) -> bool:
        """Whether an improve of ctx's parent would change more than its seed (search/agent.with_change sends
        the step elsewhere when not)."""
        return not self.plan(ctx).meta.get("rerun")

    def _make_plan(
        self, ctx: Context, state: State, reg: dict[str, dict[str, Any]], note: str, applied: str | None
    ) -> Plan:
        profile = self.profile(ctx)
        draft = self.cards.get(state.draft)
        lines = [f"Recipe pipeline `{state.draft}`: {self._title(state.draft, reg)}."]
        if draft:
            lines.append(draft.trick)
        lines.append(
            f"Task: {profile.problem} on {', '.join(profile.modalities)} data, target {profile.target}, "
            f"{profile.n_rows} training rows; validation by {5 if 'light' not in state.fixes else 3}-fold CV on "
            f"{profile.metric} ({'lower' if profile.lower_is_better else 'higher'} is better)."
        )
        for rid in state.tricks:
            card = self.cards.get(rid)
            lines.append(f"- trick `{rid}`{' (new)' if rid == applied else ''}: {self._title(rid, reg)}"
                         + (f" — {card.trick}" if card and rid == applied else ""))  # fmt: skip
        if state.fixes:
            lines.append(f"Repairs in effect: {', '.join(state.fixes)}.")
        if note:
            lines.append(f"Note: {note}.")
        head = f"[{ctx.action} {state.draft}]"
        what = f"+ {applied}" if applied else (note or self._title(state.draft, reg))
        # The trick list is kept whole: it is how later improves know what this run tried (`_next_trick`
        # reads it back from the memory lines); cut at 200 characters, a lineage of seven tricks lost it and
        # wells at 600 s ran one script 36 times.
        summary = f"{head} {what[:120]}{tricks_tail(state)}"
        meta = {"state": asdict(state), "trick_id": applied, "note": note,
                "trick_title": self._title(applied, reg) if applied else None}  # fmt: skip
        return Plan(text="\n".join(lines), summary=summary, meta=meta)

    def _state(self, plan: Plan) -> State:
        return State(**plan.meta["state"])

    def complexity(self, ctx: Context, plan: Plan) -> float:
        """Draft card's base complexity + 1 per trick (+0.5 more for ensembles), within 1-5."""
        reg, state = self._registry(ctx), self._state(plan)
        score = float(reg[state.draft].get("complexity", 2))
        for t in state.tricks:
            score += 1.5 if reg[t].get("hook") == "ensemble" else 1.0
        return max(1.0, min(5.0, score))

    def code(self, ctx: Context, plan: Plan) -> str:
        reg, state = self._registry(ctx), self._state(plan)
        return render(self.profile(ctx), state, reg, plan.summary, self.defaults(ctx, state, reg))

    def decompose(self, ctx: Context, plan: Plan) -> list[Step]:
        return [Step(title, details) for title, details in STEP_TITLES]

    def step_code(self, ctx: Context, plan: Plan, steps: list[Step], index: int, program: str) -> str:
        state = State.from_code(program) or self._state(plan)  # repaired earlier steps carry the newest state
        reg = self._registry(ctx)
        return render_steps(self.profile(ctx), state, reg, plan.summary, self.defaults(ctx, state, reg))[
            index
        ]

    def repair(self, ctx: Context, code: str, error: str, step: Step | None = None, program: str = "") -> str:
        """Repair the recipe state named in `code` (the earlier steps in `program` carry no extra state)."""
        reg, profile = self._registry(ctx), self.profile(ctx)
        state = State.from_code(code)
        if state is None or state.draft not in reg:
            if step is not None:
                raise RoleError("cannot repair a step that was not written by a recipe")
            fresh = self._draft_state(ctx, reg)
            return render(
                profile, fresh, reg, "fresh recipe draft (unrecognised code)", self.defaults(ctx, fresh, reg)
            )
        new, note = self._repair_state(ctx, state, error, reg)
        defaults = self.defaults(ctx, new, reg)
        if step is None:
            return render(profile, new, reg, f"repaired: {note}", defaults)
        titles = [t for t, _ in STEP_TITLES]
        index = titles.index(step.title) if step.title in titles else 0
        cell = render_steps(profile, new, reg, f"repaired: {note}", defaults)[index]
        if index == 0:
            return cell
        # Earlier cells already ran with the old state: restate the settings and component blocks it changes.
        from automind.recipes.compose import build_cfg

        old_cfg, new_cfg = build_cfg(profile, state, reg), build_cfg(profile, new, reg)
        changed = {k: v for k, v in new_cfg.items() if old_cfg.get(k) != v}
        lines = [f"# repair: {note}", f"CFG.update({changed!r})"]
        before = component_blocks(state, reg, choices(state, reg, self.defaults(ctx, state, reg)))
        after = component_blocks(new, reg, choices(new, reg, defaults))
        for name, (_, text) in after.items():
            if COMPONENTS[name][0] < index and before.get(name, ("", ""))[1] != text:
                lines.append(text.rstrip("\n"))
        heading, _, rest = cell.partition("\n")
        return heading + "\n" + "\n".join(lines) + "\n" + rest

    def integrate(self, ctx: Context, plan: Plan, program: str) -> str:
        """The canonical script of the final state (identical to `program` when no step was repaired)."""
        reg = self._registry(ctx)
        state = State.from_code(program)
        if state is None or state.draft not in reg:
            return program
        note = plan.summary if state == self._state(plan) else f"{plan.summary} (repaired while stepping)"
        return render(self.profile(ctx), state, reg, note, self.defaults(ctx, state, reg))

    # --- time ----------------------------------------------------------------------------------------
    def budget(self, ctx: Context, action: str) -> float:
        """The script's time allowance: a share of the run's time limit (more for drafts), within what one
        execution may take now (ctx.exec_timeout_s, else the configured caps), less start-up and margin."""
        search, sandbox = self.settings.search, self.settings.sandbox
        limit = search.budget()[1] or math.inf  # no time limit: the execution caps alone
        cap = min(search.exec_timeout_s, sandbox.timeout_s, limit)
        if ctx.exec_timeout_s:
            cap = min(cap, float(ctx.exec_timeout_s))
        share = DRAFT_SHARE if action == "draft" else STEP_SHARE
        return round(max(5.0, min(share * limit, 0.85 * cap - 5.0)), 1)

    # --- components (docs/recipes.md, "Components") -------------------------------------------------
    def defaults(
        self, ctx: Context, state: State, reg: dict[str, dict[str, Any]] | None = None
    ) -> dict[str, str]:
        """The default choice card of each choice component for this task and draft: the highest-priority
        applicable one."""
        reg = reg or self._registry(ctx)
        profile, family = self.profile(ctx), _families(reg[state.draft])
        flags = self._flags(ctx, profile)
        out = {}
        for name, (_, func) in COMPONENTS.items():
            if func is None:
                continue
            ok = [c for c in choice_cards(reg, name) if _applies(reg[c], profile, family, flags)]
            if ok:
                out[name] = sorted(ok, key=lambda c: (-float(reg[c].get("priority", 0)), c))[0]
        return out

    def _code_state(self, ctx: Context, code: str | None, reg: dict[str, dict[str, Any]]) -> State:
        state = State.from_code(code if code is not None else ctx.parent_code)
        if state is None or state.draft not in reg:
            raise ComponentError("the script was not written by a recipe: it has no components to change")
        state.tricks = [t for t in state.tricks if t in reg]
        return state

    def components(self, ctx: Context, code: str | None = None) -> list[Component]:
        """The components of a recipe script (default: ctx.parent_code), in script order, with the current
        choice, the tricks inside each block, the alternatives the cards offer and the neutral choice."""
        reg = self._registry(ctx)
        state = self._code_state(ctx, code, reg)
        defaults = self.defaults(ctx, state, reg)
        chosen = choices(state, reg, defaults)
        profile, family = self.profile(ctx), _pipeline_families(state, reg, chosen)
        flags = self._flags(ctx, profile)
        blocks = component_blocks(state, reg, chosen)
        out = []
        for name, (step, func) in COMPONENTS.items():
            label = blocks[name][0]
            tricks = tricks_of(state, reg, name)
            if func is None:
                alts = [r for r in reg if not is_choice(reg[r]) and reg[r].get("hook") != "draft"
                        and component_of(reg[r]) == name and r not in tricks
                        and _applies(reg[r], profile, family, flags)]  # fmt: skip
                alts.sort(key=lambda r: (-float(reg[r].get("priority", 0)), r))
                out.append(Component(name, label, None, tricks, alts, None, step))
                continue
            card = None if label == "draft" else chosen.get(name)
            ok = [c for c in choice_cards(reg, name) if _applies(reg[c], profile, family, flags)]
            ok.sort(key=lambda c: (-float(reg[c].get("priority", 0)), c))
            neutral = next((c for c in ok if reg[c].get("neutral")), None)
            if name == "ensemble" and len(member_names(blocks["model"][1])) == 1:
                # one model: the script never calls the combination, so no choice of it changes a
                # prediction (seven such refine attempts in saved runs each scored as their parent);
                # its tricks (ENSEMBLE_HOOKS) still act, and are still ablated
                ok, neutral = [], card
            out.append(Component(name, label, card, tricks, [c for c in ok if c != card], neutral, step))
        return out

    def ablations(self, ctx: Context, code: str | None = None) -> list[tuple[str, Plan]]:
        """One plan per component that is not already neutral: the same script with that component reduced
        to its neutral form (tricks dropped, choice set to the neutral card). Same seed and time allowance as
        the script, so only that component's block differs."""
        reg = self._registry(ctx)
        state = self._code_state(ctx, code, reg)
        out = []
        for comp in self.components(ctx, code):
            if is_neutral(comp):
                continue
            new = ablate(state, comp, reg)
            what = f"{comp.name}: {comp.choice} -> " + (reg[comp.neutral].get("choice", comp.neutral)
                                                        if comp.neutral and comp.card != comp.neutral else "none")  # fmt: skip
            out.append((comp.name, self._variant_plan(ctx, new, reg, f"ablation of {what}", comp.name, None)))
        return out

    def alternatives(self, ctx: Context, component: str, code: str | None = None) -> list[Plan]:
        """One plan per alternative the cards offer for `component` (the refine inner loop's candidates)."""
        comp = next((c for c in self.components(ctx, code) if c.name == component), None)
        if comp is None:
            raise ComponentError(f"unknown component {component!r}; components are {', '.join(COMPONENTS)}")
        return [self.variant(ctx, component, card, code) for card in comp.alternatives]

    def variant(self, ctx: Context, component: str, card: str | None, code: str | None = None) -> Plan:
        """The plan of the same script with `component` set to `card` (a choice card of it; for a trick-only
        component a trick of it, or None for none)."""
        reg = self._registry(ctx)
        state = self._code_state(ctx, code, reg)
        new = set_choice(state, component, card, reg)
        label = reg[card].get("choice", card) if card else "none"
        return self._variant_plan(ctx, new, reg, f"{component} -> {label}", component, card)

    def _variant_plan(
        self,
        ctx: Context,
        state: State,
        reg: dict[str, dict[str, Any]],
        what: str,
        component: str,
        card: str | None,
    ) -> Plan:
        state = self._with_siblings(ctx, state, reg)
        plan = self._make_plan(ctx, state, reg, what, card)
        plan.meta.update(component=component, choice=card)
        return plan

    def verify(self, ctx: Context, code: str, result: ExecResult) -> Verdict:
        """Facts only: exit status, submission on disk and valid, metric parsed; direction from the task."""
        from automind.metrics import get_metric

        spec = ctx.task.spec.metric
        lower = get_metric(spec.name, spec.lower_is_better).lower_is_better
        sub = Path(result.workspace) / "submission" / ctx.task.spec.submission_file
        metric = read_metric(Path(result.workspace), result.stdout)
        problems = []
        if not result.ok:
            last = (result.traceback or result.stderr or "").strip().splitlines()[-1:] or [result.status]
            problems.append(
                f"the script failed ({result.status}, {result.exc_type or 'exit ' + str(result.exit_code)}): {last[0][:300]}"
            )
        if not sub.is_file():
            problems.append("no submission/submission.csv was written")
        else:
            from automind.grading import validate_submission

            try:
                validate_submission(ctx.task, sub)
            except ValueError as e:
                problems.append(f"the submission is invalid: {e}")
        if metric is None:
            problems.append("no validation metric in submission/eval_metric.txt or the output")
        summary = "; ".join(problems) if problems else f"ran clean; validation {spec.name} = {metric:.6g}"
        return Verdict(is_bug=bool(problems), summary=summary, metric=metric, lower_is_better=lower,
                       has_csv_submission=sub.is_file())  # fmt: skip

    # --- the trustworthy-scores checks (docs/holdout.md) -------------------------------------------
    def check_leakage(self, ctx: Context, code: str, findings: list[str]) -> LeakCheck:
        """No leakage, deterministically: recipe scripts fit every statistic on each fold's training rows
        (tests/automind/test_leakage.py runs every card through the deterministic checker to hold them to it)."""
        return LeakCheck(leaky=False, reason="recipe scripts are leak-free by construction")

    def use_data(self, ctx: Context, code: str, unused: list[str]) -> str:
        """Recipes already join every side table the profile finds; the rest they cannot use (docs/recipes.md,
        "Input files")."""
        why = self.profile(ctx).side_left_out  # "extra/" stands for the tables left out inside it too
        said = "; ".join(f"{k}: {v}" for k, v in why.items() if any(k.startswith(n) for n in unused))
        said = said or "no table the recipes can join"
        raise RoleError(
            f"recipes do not read {', '.join(unused)} ({said}); see docs/recipes.md, 'Input files'"
        )


def read_metric(workspace: Path, stdout: str = "") -> float | None:
    """eval_metric.txt, else the last 'Validation <name>: <number>' line; None unless finite."""
    path = workspace / "submission" / "eval_metric.txt"
    values: list[str] = []
    if path.is_file():
        values = path.read_text(encoding="utf-8", errors="replace").split()[:1]
    if not values:
        values = re.findall(r"Validation [^:\n]*:\s*([-+0-9.eE]+|nan|inf)", stdout or "")[-1:]
    try:
        value = float(values[0]) if values else None
    except ValueError:
        return None
    return value if value is not None and math.isfinite(value) else None


__all__ = ["FIXES", "Component", "ComponentError", "RecipeRoles", "State", "read_metric"]
