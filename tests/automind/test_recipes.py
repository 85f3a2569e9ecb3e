"""The offline recipe policy: cards follow the hook contract, drafts/improves/repairs run in the sandbox and
produce valid submissions with a metric, stepwise cells add up to the script, and everything is deterministic."""

from __future__ import annotations

import ast
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from automind.config import load_config
from automind.knowledge import Card, load_cards
from automind.prepare import prepare_task
from automind.recipes import RecipeRoles, State, read_metric, tried_lists
from automind.recipes.components import choice_cards
from automind.recipes.compose import COMPONENTS, HOOKS, choices
from automind.recipes.profile import FLAGS, profile_task
from automind.roles import Context, Step, Trick
from automind.sandbox import Sandbox
from automind.task import Task

SIGNATURES = {
    "config": ["cfg"],
    "features": ["train", "test", "cfg"],
    "target": ["y", "cfg", "inverse"],
    "params": ["p", "cfg"],
    "ensemble": ["oof", "test_pred", "y", "cfg"],
    "postprocess": ["pred", "cfg"],
}
COMPONENT_SIGNATURES = {
    "clean": ["train", "test", "cfg"],
    "encode_categories": ["a", "b", "y", "cfg"],
    "make_folds": ["y", "cfg"],
    "models": ["cfg"],
    "combine": ["members", "y", "splits", "cfg"],
    "postprocess": ["oof", "test_pred", "y", "splits", "cfg"],
}
APPLIES_KEYS = {"problems", "modalities", "primary", "families", "metric_kinds", "metrics", "needs"}


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))


@pytest.fixture(scope="module")
def settings():  # a 40 s run: drafts get a 16 s allowance, so a portfolio stops early on a slow machine
    # ensemble action off: improves may then apply the ensemble-hook tricks (blends of earlier nodes), run here
    return load_config(
        {"sandbox.timeout_s": 120, "search.time_limit_s": 40, "search.ensemble.rounds": 0}
    ).settings


@pytest.fixture(scope="module")
def roles(settings):
    return RecipeRoles(settings)


def _frame(n: int, kind: str, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.normal(size=n)
    color = rng.choice(["red", "green", "blue", "teal"], size=n)
    b[rng.random(n) < 0.1] = np.nan
    df = pd.DataFrame({"a": a, "b": b, "color": color, "size": rng.integers(1, 9, size=n)})
    signal = a + np.nan_to_num(b) + (color == "red") * 1.5
    if kind == "binary":
        df["y"] = np.where(signal + rng.normal(scale=0.5, size=n) > 0.3, "yes", "no")
    elif kind == "multiclass":
        df["y"] = pd.cut(signal, [-np.inf, -0.5, 0.8, np.inf], labels=["low", "mid", "high"]).astype(str)
    else:
        df["y"] = np.exp(1 + 0.5 * signal + rng.normal(scale=0.2, size=n))
    return df


def _text_frame(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    good = ["great", "tasty", "lovely", "perfect", "fresh"]
    bad = ["awful", "stale", "bland", "broken", "late"]
    filler = ["the", "box", "arrived", "and", "it", "was", "quite", "really", "coffee", "snack"]
    rows = []
    for _ in range(n):
        label = int(rng.random() < 0.5)
        words = list(rng.choice(filler, size=8)) + list(rng.choice(good if label else bad, size=2))
        rng.shuffle(words)
        rows.append({"review": " ".join(words), "stars_hint": int(rng.integers(1, 6)), "label": label})
    return pd.DataFrame(rows)


def _image_task(root: Path) -> Path:
    from sklearn.datasets import load_digits

    from automind.examples import png_gray

    d = load_digits()
    idx = np.arange(300)
    df = pd.DataFrame({"id": idx, "label": d.target[idx]})
    task = prepare_task(df, root, "label", "accuracy", id_col="id", name="tiny-digits")
    out = task / "public" / "images"
    out.mkdir()
    for i in idx:
        (out / f"{i}.png").write_bytes(png_gray([[int(v * 255 / 16) for v in row] for row in d.images[i]]))
    return task


@pytest.fixture(scope="module")
def tasks(tmp_path_factory) -> dict[str, Task]:
    root = tmp_path_factory.mktemp("tasks")
    made = {
        "binary": prepare_task(_frame(300, "binary"), root / "binary", "y", "roc_auc", name="tiny-binary"),
        "multiclass": prepare_task(
            _frame(300, "multiclass"), root / "multi", "y", "accuracy", name="tiny-multi"
        ),
        "regression": prepare_task(_frame(300, "regression"), root / "reg", "y", "rmse", name="tiny-reg"),
        "text": prepare_task(_text_frame(300), root / "text", "label", "accuracy", name="tiny-text"),
        "image": _image_task(root / "image"),
    }
    return {k: Task.load(v) for k, v in made.items()}


def _ctx(task: Task, action: str = "draft", **kw) -> Context:
    return Context(task=task, action=action, analysis="", **kw)


def _run(task: Task, code: str, tmp: Path, settings) -> tuple:
    res = Sandbox.from_settings(task, tmp, settings).run_script(code)
    return res, read_metric(res.workspace, res.stdout)


# --- the contract ------------------------------------------------------------------------------


def _defs(code: str) -> dict[str, list[str]]:
    tree = ast.parse(code)
    return {n.name: [a.arg for a in n.args.args] for n in tree.body if isinstance(n, ast.FunctionDef)}


def test_every_recipe_card_follows_its_hook_contract():
    cards = [c for c in load_cards() if c.recipe]
    assert len(cards) >= 20
    by_id = {c.id: c.recipe for c in cards}
    for card in cards:
        r = card.recipe
        assert set(r.get("applies") or {}) <= APPLIES_KEYS, card.id
        assert set((r.get("applies") or {}).get("needs", [])) <= FLAGS, card.id
        if r["hook"] == "draft":
            assert r.get("family") and "code" not in r, card.id
            for comp, choice in (
                r.get("components") or {}
            ).items():  # pins name choice cards of that component
                assert by_id[choice]["hook"] == "component" and by_id[choice]["component"] == comp, card.id
            continue
        if r["hook"] == "component":
            func = COMPONENTS[r["component"]][1]
            assert func and r.get("choice"), card.id
            assert _defs(r["code"]) == {func: COMPONENT_SIGNATURES[func]}, card.id
            continue
        assert r["hook"] in HOOKS and r.get("component", "features") in COMPONENTS, card.id
        if r.get("code"):
            defs = _defs(r["code"])
            assert list(defs) == [r["hook"]], (card.id, list(defs))  # exactly the hook, no stray helpers
            assert defs[r["hook"]] == SIGNATURES[r["hook"]], card.id
        else:
            assert r.get("set") or r.get("params"), card.id


# --- drafts ------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["binary", "multiclass", "regression", "text", "image"])
def test_first_draft_runs_and_writes_a_valid_submission(kind, tasks, roles, settings, tmp_path):
    from automind.grading import grade

    task = tasks[kind]
    ctx = _ctx(task)
    plan = roles.plan(ctx)
    code = roles.code(ctx, plan)
    res, metric = _run(task, code, tmp_path, settings)
    assert res.ok, res.output
    verdict = roles.verify(ctx, code, res)
    assert not verdict.is_bug, verdict.summary
    assert verdict.metric == metric and metric is not None
    assert verdict.lower_is_better == (kind == "regression")
    report = grade(task, res.workspace / "submission" / "submission.csv")
    assert report.valid, report.error
    floor = {"binary": 0.75, "multiclass": 0.6, "text": 0.8, "image": 0.8}
    if kind in floor:  # learnable synthetic signal: far better than chance
        assert report.score > floor[kind]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["binary", "image"])
def test_the_portfolio_draft_runs_and_combines_several_models(kind, tasks, roles, settings, tmp_path):
    from automind.grading import grade

    task = tasks[kind]
    first = roles.plan(_ctx(task))
    ctx = _ctx(task, memory=[f"tried {first.summary} -> validation 0.5"])
    plan = roles.plan(ctx)
    assert "portfolio" in plan.meta["state"]["draft"]
    code = roles.code(ctx, plan)
    res, metric = _run(task, code, tmp_path, settings)
    assert res.ok, res.output
    assert metric is not None and "ensemble weights" in res.stdout and res.stdout.count("] model ") >= 2
    assert (res.workspace / "submission" / "members.npz").is_file()
    assert grade(task, res.workspace / "submission" / "submission.csv").valid
    # each model's score beside the combination's, as the log printed them (refine reads it)
    saved = json.loads((res.workspace / "submission" / "members.json").read_text())
    logged = dict(re.findall(r"\] model (\S+): \S+ ([-0-9.e]+) in", res.stdout))
    assert len(saved["members"]) >= 2 and {k: f"{v:.6f}" for k, v in saved["members"].items()} == logged
    assert saved["metric"] == task.spec.metric.name and isinstance(saved["combined"], float)
    # the blend's weights and each model's time, for the final refit (which fits only the weighted models)
    assert set(saved["seconds"]) == set(saved["members"]) == set(saved["weights"])
    assert sum(saved["weights"].values()) == pytest.approx(1.0)
    kept = sorted(saved["members"])[:2]
    env = {"AUTOMIND_REFIT_MEMBERS": ",".join(kept)}
    again = Sandbox.from_settings(task, tmp_path / "refit", settings, script_env=env).run_script(code)
    assert again.ok, again.output
    assert f"refit: fitting {', '.join(m for m in saved['members'] if m in kept)}; not" in again.stdout
    refitted = json.loads((again.workspace / "submission" / "members.json").read_text())
    assert (
        sorted(refitted["members"]) == kept
        and grade(task, again.workspace / "submission" / "submission.csv").valid
    )


def test_drafts_differ_and_follow_the_memory(tasks, roles):
    task = tasks["binary"]
    first = roles.plan(_ctx(task))
    second = roles.plan(_ctx(task, memory=[f"tried {first.summary} -> validation 0.8"]))
    assert first.meta["state"]["draft"] != second.meta["state"]["draft"]
    assert roles.plan(_ctx(tasks["text"])).meta["state"]["draft"].startswith("rcp-text")
    assert roles.plan(_ctx(tasks["image"])).meta["state"]["draft"].startswith("rcp-image")


def test_same_inputs_give_the_same_code(tasks, settings):
    a, b = RecipeRoles(settings), RecipeRoles(settings)
    ctx = _ctx(tasks["regression"], seed=3)
    pa, pb = a.plan(ctx), b.plan(ctx)
    assert pa.text == pb.text and a.code(ctx, pa) == b.code(ctx, pb)
    assert "'seed': 3" in a.code(ctx, pa)


def test_profile_reads_targets_problem_and_flags(tasks):
    p = profile_task(tasks["binary"])
    assert p.target == ["y"] and p.problem == "binary" and p.kind == "proba"
    assert {"categorical", "missing", "numeric_pairs"} <= p.flags
    assert all(profile_task(t).flags <= FLAGS for t in tasks.values())  # the names cards may declare
    r = profile_task(tasks["regression"])
    assert r.problem == "regression" and {"nonneg_target", "skewed_target"} <= r.flags
    assert profile_task(tasks["text"]).primary == "text"
    img = profile_task(tasks["image"])
    assert img.primary == "image" and img.image_size == 8  # native 8x8 digits: never upsampled


# --- stepwise ----------------------------------------------------------------------------------


def test_steps_concatenate_to_the_integrated_script(tasks, roles):
    ctx = _ctx(tasks["image"])
    plan = roles.plan(ctx)
    steps = roles.decompose(ctx, plan)
    assert [s.title for s in steps] == ["Load data", "Preprocess and features", "Model and cross-validation",
                                        "Predict and write submission"]  # fmt: skip
    program = ""
    for i in range(len(steps)):  # accumulate exactly as automind.coding.stepwise does
        program = (program + "\n\n" + roles.step_code(ctx, plan, steps, i, program)).strip("\n") + "\n"
    assert program == roles.code(ctx, plan) == roles.integrate(ctx, plan, program)
    assert roles.complexity(_ctx(tasks["binary"]), roles.plan(_ctx(tasks["binary"]))) <= 3.5


def test_step_repair_restates_the_new_state(tasks, roles):
    task = tasks["binary"]
    parent = roles.code(_ctx(task), roles.plan(_ctx(task)))
    ctx = _ctx(task, "improve", parent_code=parent)
    plan = roles.plan(ctx)
    trick = plan.meta["trick_id"]
    steps = roles.decompose(ctx, plan)
    cells = [roles.step_code(ctx, plan, steps, i, "") for i in range(4)]
    hook = roles.recipes[trick]["hook"]
    step = next(s for s, c in zip(steps, cells, strict=True) if f"{hook}__" in c)
    error = f"Traceback...\n  File \"<cell>\", line 9, in {hook}__{trick.replace('-', '_')}\nKeyError: 'x'"
    fixed = roles.repair(ctx, cells[steps.index(step)], error, step)
    assert trick not in State.from_code(fixed).tricks
    ast.parse(fixed)


# --- improves ----------------------------------------------------------------------------------


def _applicable_tricks(roles, ctx, state):
    """What an improve may add to this lineage: tricks, and choice cards offered as improves."""
    from automind.recipes import _applies, _families
    from automind.recipes.compose import choices

    p = roles.profile(ctx)
    fams = _families(roles.recipes[state.draft])
    flags = roles._flags(ctx, p)
    current = set(choices(state, roles.recipes, roles.defaults(ctx, state)).values())
    return [
        r
        for r, rec in sorted(roles.recipes.items())
        if rec["hook"] != "draft" and (rec["hook"] != "component" or "trick_priority" in rec)
        and r not in current and _applies(rec, p, fams, flags)
    ]  # fmt: skip


def _exec(task: Task, code: str, ws: Path, monkeypatch) -> tuple[str, float | None]:
    """Run a recipe script in this process (they are standalone), in a workspace like the sandbox's: much
    faster than a fresh interpreter per script when a test runs many of them."""
    import contextlib
    import io

    shutil.copytree(task.public_dir, ws / "input")
    (ws / "submission").mkdir()
    (ws / "working").mkdir()
    out = io.StringIO()
    with monkeypatch.context() as m:
        m.chdir(ws)
        with contextlib.redirect_stdout(out):
            exec(compile(code, str(ws / "solution.py"), "exec"), {"__name__": "__main__"})
    return out.getvalue(), read_metric(ws, out.getvalue())


def _columns(output: str) -> int:
    """Columns of the first model matrix, from the script's log."""
    import re

    return int(re.search(r"representation [\w-]+: (\d+) columns", output).group(1))


def _single_model_draft(roles, task):
    """The first draft (one model, no time-dependent portfolio), so a trick's effect is deterministic."""
    return _ctx(task)


def test_an_improve_never_repeats_a_trick_already_tried_on_the_same_solution(tasks, roles):
    """Improves of one solution take each applicable trick once (the run's memory says which were tried);
    then they re-run it with a new seed, never a script that already ran (digits at 600 s once made three
    identical improves)."""
    task = tasks["binary"]
    ctx = _ctx(task)
    code = roles.code(ctx, roles.plan(ctx))
    seed, memory, applied = State.from_code(code).seed, [], []
    for _ in range(60):
        plan = roles.plan(_ctx(task, "improve", parent_code=code, memory=list(memory)))
        memory.append(f"tried {plan.summary} -> validation 0.5")
        if not plan.meta.get("trick_id"):
            break
        applied.append(plan.meta["trick_id"])
    assert applied and len(applied) == len(set(applied))
    assert plan.meta["state"]["seed"] == seed + 1 and "re-run with a new seed" in plan.text
    assert plan.meta["rerun"] is True
    # Two re-runs of one parent, later in a run, run different scripts: each takes its node's own seed
    # (with `seed + 1` for both, arrests at 600 s made 28 identical re-runs).
    later = [roles.plan(_ctx(task, "improve", parent_code=code, memory=list(memory), seed=s)) for s in (7, 8)]
    assert [p.meta["state"]["seed"] for p in later] == [7, 8] and all(p.meta["rerun"] for p in later)
    assert len({roles.code(_ctx(task, "improve", parent_code=code, seed=7), p) for p in later}) == 2


def test_an_improve_skips_a_set_of_tricks_already_tried_in_another_order(tasks, roles):
    task = tasks["binary"]
    draft = roles.code(_ctx(task), roles.plan(_ctx(task)))
    first = roles.plan(_ctx(task, "improve", parent_code=draft))
    x, code = first.meta["trick_id"], roles.code(_ctx(task, "improve", parent_code=draft), first)
    y = roles.plan(_ctx(task, "improve", parent_code=code)).meta["trick_id"]
    d = State.from_code(code).draft
    # {x, y} was already run, reached the other way round (y first, then x)
    memory = [f"tried [improve {d}] + {x} (tricks: {y}, {x}) -> holdout 0.5 (its own validation 0.5)"]
    assert tried_lists(memory) == [(d, [y, x])]
    again = roles.plan(_ctx(task, "improve", parent_code=code, memory=memory))
    assert again.meta["trick_id"] not in (None, y)


def test_a_script_is_known_by_its_tricks_and_the_choices_in_effect(tasks, roles):
    """Two trick lists make the same script when their plain tricks are the same set and the last choice of
    each component is the same; a choice set back to the draft's own is the script without it. A refine
    attempt that would rebuild a script the run already ran is not made (arrests at 600 s ran `validation ->
    kfold`, its parent's own script)."""
    task = tasks["binary"]
    ctx, reg = _ctx(task), roles._registry(_ctx(task))
    draft = roles.code(ctx, roles.plan(ctx))
    d = State.from_code(draft).draft
    own = choices(State(draft=d), reg, roles.defaults(ctx, State(draft=d), reg))["validation"]
    other = next(c for c in choice_cards(reg, "validation") if c != own)
    plain = next(t for t in reg if reg[t].get("hook") not in (None, "draft", "component"))

    def key(*tricks: str) -> tuple[str, frozenset[str]]:
        return roles.script_key(ctx, State(draft=d, tricks=list(tricks)), reg)

    assert key(plain, own) == key(plain) and key(other, own) == key() and key(own, other) == key(other)
    assert key(plain, other) == key(other, plain) != key(plain)
    swapped = roles.code(ctx, roles.variant(_ctx(task, "refine", parent_code=draft), "validation", other))
    refine = _ctx(task, "refine", parent_code=swapped)
    back = [p for p in roles.alternatives(refine, "validation") if p.meta["choice"] == own]
    assert back  # the draft's own validation is an alternative of the swapped script ...
    ran = _ctx(
        task, "refine", parent_code=swapped, memory=[f"tried {roles.plan(ctx).summary} -> validation 0.5"]
    )
    assert own not in [p.meta["choice"] for p in roles._attempt_plans(ran, "validation")]  # ... the draft ran


def test_a_suggested_prose_trick_never_maps_to_a_script_the_run_already_ran(tasks, roles):
    """A suggested trick with no recipe gets the closest recipe that makes a new script from the parent: one
    already run on its own from there is not picked (judged on top of an earlier option, it once was)."""
    task = tasks["binary"]
    draft = roles.code(_ctx(task), roles.plan(_ctx(task)))
    top = roles.plan(_ctx(task, "improve", parent_code=draft))
    first = top.meta["trick_id"]
    second = roles.plan(
        _ctx(task, "improve", parent_code=draft, memory=[f"tried {top.summary} -> holdout 0.5"])
    ).meta["trick_id"]  # the second-ranked trick
    reg = roles._registry(_ctx(task))
    title = roles._title(second, reg)
    alone = roles.plan(_ctx(task, "improve", parent_code=draft, trick=Trick(second, title, "")))
    assert alone.meta["trick_id"] == second != first
    memory = [f"tried {alone.summary} -> holdout 0.5 (its own validation 0.5)"]
    prose = Trick("tab-" + second.removeprefix("rcp-"), title, "")  # the same idea, a card with no recipe
    plan = roles.plan(_ctx(task, "improve", parent_code=draft, trick=prose, memory=memory))
    assert plan.meta["trick_id"] != second and not plan.meta["rerun"]


def test_improves_of_a_long_lineage_never_repeat_a_trick(tasks, roles):
    """The memory line of an improve keeps its whole trick list, however long (cut at 200 characters, a
    seven-trick lineage lost it and wells at 600 s ran one script 36 times)."""
    task = tasks["binary"]
    code = roles.code(_ctx(task), roles.plan(_ctx(task)))
    for _ in range(8):
        plan = roles.plan(_ctx(task, "improve", parent_code=code))
        code = roles.code(_ctx(task, "improve", parent_code=code), plan)
    assert len(State.from_code(code).tricks) == 8 and len(plan.summary) > 200
    memory, applied = [], []
    for _ in range(40):
        plan = roles.plan(_ctx(task, "improve", parent_code=code, memory=list(memory)))
        if plan.meta["rerun"]:
            break
        memory.append(f"tried {plan.summary} -> holdout 0.5 (its own validation 0.5)")
        applied.append(plan.meta["trick_id"])
    assert applied and len(applied) == len(set(applied)) and plan.meta["rerun"]


def test_tricks_follow_the_model_the_pipeline_trains(tasks, roles):
    """After the model is swapped to CatBoost alone, no LightGBM-only trick is offered (it would change
    nothing: arrests at 600 s ran seven such improves, each scoring exactly as its parent); once nothing is
    left, the roles say before running that they can only re-run the script."""
    task = tasks["binary"]
    code = roles.code(_ctx(task), roles.plan(_ctx(task)))
    swap = roles.plan(
        _ctx(task, "improve", parent_code=code, trick=Trick("cmp-model-catboost", "CatBoost", ""))
    )
    assert swap.meta["trick_id"] == "cmp-model-catboost"
    code = roles.code(_ctx(task, "improve", parent_code=code), swap)
    reg = roles._registry(_ctx(task))
    memory, applied = [], []
    while roles.offers_change(ctx := _ctx(task, "improve", parent_code=code, memory=list(memory))):
        plan = roles.plan(ctx)
        memory.append(f"tried {plan.summary} -> validation 0.5")
        applied.append(plan.meta["trick_id"])
        assert len(applied) < 60
    untouched = [
        t
        for t in applied
        if "catboost" not in ((reg[t].get("applies") or {}).get("families") or ["catboost"])
    ]
    assert applied and untouched == []  # neither LightGBM tricks nor category encodings CatBoost never sees
    assert not {"rcp-lgbm-slow-lr", "rcp-target-encoding-oof"} & set(applied)
    encoding = next(c for c in roles.components(_ctx(task), code) if c.name == "encoding")
    assert "rcp-target-encoding-oof" not in encoding.alternatives  # nor does refine try them
    assert roles.plan(ctx).meta["rerun"] is True


def _members(roles, task, draft: str) -> dict[str, dict]:
    """Each model of `draft`'s script on `task`: its params as the script's `models(cfg)` lists them."""
    from automind.recipes import runtime as rt
    from automind.recipes.components import block
    from automind.recipes.compose import render

    ctx, state = _ctx(task), State(draft=draft)
    code = render(roles.profile(ctx), state, roles.recipes, defaults=roles.defaults(ctx, state))
    ns = dict(vars(rt))
    exec(block(code, "model"), ns)
    cfg = {
        "problem": roles.profile(ctx).problem,
        "text_cols": ["review"] if draft.startswith("rcp-text") else [],
    }
    return {m["name"]: m["params"] for m in ns["models"](cfg)}


@pytest.mark.parametrize("kind", ["binary", "multiclass", "regression"])
def test_linear_models_on_table_columns_tune_their_strength_and_tfidf_ones_offer_it_as_a_trick(
    kind, tasks, roles
):
    """An untuned L2 model on a table with many columns can be far off (grants, 1,500 columns: 0.71 ROC AUC
    as a draft), so the table's linear draft and the portfolio's linear member pick their strength on an
    inner split for classes as well as numbers; `rcp-linear-tune` stays an improve only where the linear
    model reads TF-IDF features (costly fits), and is not offered where it would change nothing."""
    task = tasks[kind]
    assert _members(roles, task, "rcp-linear-baseline")["linear"]["tune"] is True
    assert _members(roles, task, "rcp-portfolio")["linear"]["tune"] is True
    linear = State(draft="rcp-linear-baseline")
    assert "rcp-linear-tune" not in _applicable_tricks(roles, _ctx(task), linear)
    text = tasks["text"]
    assert not _members(roles, text, "rcp-text-tfidf-linear")["linear"].get("tune")
    assert "rcp-linear-tune" in _applicable_tricks(roles, _ctx(text), State(draft="rcp-text-tfidf-linear"))


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["binary", "regression", "text"])
def test_each_applicable_trick_runs_and_changes_the_predictions(kind, tasks, roles, tmp_path, monkeypatch):
    task = tasks[kind]
    base_ctx = _single_model_draft(roles, task)
    base_plan = roles.plan(base_ctx)
    base_code = roles.code(base_ctx, base_plan)
    assert "portfolio" not in base_plan.summary
    base_out, base_metric = _exec(task, base_code, tmp_path / "base", monkeypatch)
    base_oof = np.load(tmp_path / "base" / "submission" / "oof.npy")
    sib_dir = tmp_path / "sib"  # a second model's saved predictions, for the ensemble tricks
    other_ctx = _ctx(
        task, memory=[*base_ctx.memory, f"tried {base_plan.summary} -> validation {base_metric}"]
    )
    _exec(task, roles.code(other_ctx, roles.plan(other_ctx)), tmp_path / "other", monkeypatch)
    shutil.copytree(tmp_path / "other" / "submission", sib_dir / "submission")
    siblings = [{"id": "1", "dir": str(sib_dir)}, {"id": "2", "dir": str(sib_dir)}]
    tricks = _applicable_tricks(roles, _ctx(task, siblings=siblings), State.from_code(base_code))
    assert tricks
    for trick in tricks:
        ctx = _ctx(task, "improve", parent_code=base_code, siblings=siblings,
                   trick=roles.cards[trick].to_trick())  # fmt: skip
        plan = roles.plan(ctx)
        assert plan.meta["trick_id"] == trick
        code = roles.code(ctx, plan)
        assert code != base_code
        out, metric = _exec(task, code, tmp_path / trick, monkeypatch)
        assert metric is not None, trick
        changed = not np.allclose(np.load(tmp_path / trick / "submission" / "oof.npy"), base_oof)
        hook = roles.recipes[trick]["hook"]
        if hook == "ensemble":  # it must use the siblings; it may keep the single model
            assert "this model + 2 earlier node(s)" in out, (trick, out)
            assert changed or "keeping it" in out, trick
        elif hook == "features":  # new columns (a booster may rightly ignore them)
            assert _columns(out) > _columns(base_out), (trick, out)
        else:
            assert changed, f"{trick} did not change the out-of-fold predictions"


@pytest.mark.slow
def test_lgbm_tuning_is_offered_from_a_thousand_rows_and_runs_in_the_script(
    tasks, roles, tmp_path, monkeypatch
):
    """rcp-lgbm-tune ranks tree shapes on an inner quarter of each fold: on 300 rows that quarter holds ~60
    rows, too few to rank anything (on a 25-row table it picked a shape that graded worse), so the card is
    offered from 1,000 rows; there the improve runs, says which shape each fold chose, and scores."""
    small = tasks["regression"]
    state = State.from_code(roles.code(_ctx(small), roles.plan(_ctx(small))))
    assert "rcp-lgbm-tune" not in _applicable_tricks(roles, _ctx(small), state)
    task = Task.load(prepare_task(_frame(1250, "regression"), tmp_path / "reg", "y", "rmse", name="reg-1250"))
    base_ctx = _single_model_draft(roles, task)
    base_code = roles.code(base_ctx, roles.plan(base_ctx))
    assert "rcp-lgbm-tune" in _applicable_tricks(roles, _ctx(task), State.from_code(base_code))
    ctx = _ctx(task, "improve", parent_code=base_code, trick=roles.cards["rcp-lgbm-tune"].to_trick())
    plan = roles.plan(ctx)
    assert plan.meta["trick_id"] == "rcp-lgbm-tune"
    out, metric = _exec(task, roles.code(ctx, plan), tmp_path / "tuned", monkeypatch)
    assert metric is not None and out.count("lightgbm tree shape chosen on the fold's inner split") == 5, out


def test_a_new_card_adds_behaviour_without_code_changes(tasks, settings, tmp_path):
    extra = tmp_path / "cards"
    extra.mkdir()
    (extra / "mine.yaml").write_text(
        """
- id: my-abs-feature
  title: Absolute value of column a
  labels: [General Machine Learning]
  stage: feature engineering
  when: A signed column whose magnitude matters.
  trick: Add |a| as a feature.
  recipe:
    hook: features
    priority: 1000
    applies: {problems: [binary]}
    code: |
      def features(train, test, cfg):
          for df in (train, test):
              df["a_abs"] = df["a"].abs()
          return train, test
""",
        encoding="utf-8",
    )
    roles = RecipeRoles(settings, cards=load_cards([extra]))
    task = tasks["binary"]
    parent = roles.code(_ctx(task), roles.plan(_ctx(task)))
    ctx = _ctx(task, "improve", parent_code=parent)  # no trick given: the highest-priority applicable one
    code = roles.code(ctx, roles.plan(ctx))
    assert "def features__my_abs_feature(" in code and "FEATURE_HOOKS = [features__my_abs_feature]" in code


# --- debug -------------------------------------------------------------------------------------

NAIVE = Card.model_validate({
    "id": "naive-forest",
    "title": "A forest that assumes every column is a number",
    "labels": ["General Machine Learning"],
    "stage": "model",
    "when": "test only",
    "trick": "cast the raw frame to float",
    "recipe": {
        "hook": "draft", "family": "forest", "priority": 1000, "applies": {"modalities": ["tabular"]},
        "code": {
            "prepare": "def prepare(train, test, cfg):\n    return train.astype(float).fillna(-1), test.astype(float).fillna(-1)\n",
            "model": (
                "def default_params(cfg):\n    return {}\n\n\n"
                "def fit_predict(X_tr, y_tr, X_va, y_va, X_te, params, cfg):\n"
                "    from sklearn.ensemble import RandomForestClassifier\n\n"
                "    m = RandomForestClassifier(50, random_state=cfg['seed']).fit(X_tr, y_tr)\n"
                "    return class_proba(m, X_va), class_proba(m, X_te)\n"
            ),
        },
    },
})  # fmt: skip


@pytest.mark.slow
def test_debug_repairs_an_object_column_dtype_error(tasks, settings, tmp_path):
    roles = RecipeRoles(settings, cards=[*load_cards(), NAIVE])
    task = tasks["binary"]
    ctx = _ctx(task)
    plan = roles.plan(ctx)
    assert plan.meta["state"]["draft"] == "naive-forest"
    code = roles.code(ctx, plan)
    res, _ = _run(task, code, tmp_path / "a", settings)
    assert not res.ok and "could not convert string to float" in res.output
    assert roles.verify(ctx, code, res).is_bug
    dbg = _ctx(task, "debug", parent_code=code, parent_output=res.output)
    fix = roles.plan(dbg)
    assert "coerce" in fix.meta["state"]["fixes"] and "type error" in fix.text
    res2, metric = _run(task, roles.code(dbg, fix), tmp_path / "b", settings)
    assert res2.ok, res2.output
    assert metric is not None and not roles.verify(dbg, roles.code(dbg, fix), res2).is_bug


@pytest.mark.parametrize(
    "error, expect",
    [
        ("MemoryError", ("fixes", "light")),
        ("sandbox: timed out after 600 s", ("fixes", "light")),
        ("ValueError: Input X contains NaN.", ("fixes", "fillna")),
        ("TypeError: '<' not supported between instances of 'str' and 'float'", ("fixes", "coerce")),
    ],
)
def test_error_texts_map_to_repairs(error, expect, tasks, roles):
    task = tasks["binary"]
    code = roles.code(_ctx(task), roles.plan(_ctx(task)))
    state = roles.plan(_ctx(task, "debug", parent_code=code, parent_output=error)).meta["state"]
    assert expect[1] in state[expect[0]]


def test_unknown_failure_drops_the_last_trick_then_goes_safe(tasks, roles):
    task = tasks["binary"]
    base = roles.code(_ctx(task), roles.plan(_ctx(task)))
    ictx = _ctx(task, "improve", parent_code=base)
    improved = roles.code(ictx, roles.plan(ictx))
    tricks = State.from_code(improved).tricks
    dropped = roles.plan(_ctx(task, "debug", parent_code=improved, parent_output="RuntimeError: odd")).meta[
        "state"
    ]
    assert dropped["tricks"] == tricks[:-1]
    safe = roles.plan(_ctx(task, "debug", parent_code=base, parent_output="RuntimeError: odd")).meta["state"]
    assert safe["fixes"] and safe["draft"] == State.from_code(base).draft


def test_foreign_code_is_replaced_by_a_recipe_draft(tasks, roles):
    task = tasks["binary"]
    fixed = roles.repair(_ctx(task, "debug"), "print('hello')\n", "NameError: x")
    assert State.from_code(fixed) is not None
    with pytest.raises(Exception, match="not written by a recipe"):
        roles.repair(_ctx(task, "debug"), "print('hello')\n", "NameError", Step("Load data", ""))


def test_verify_reports_a_missing_submission(tasks, roles, settings, tmp_path):
    task = tasks["binary"]
    res, _ = _run(task, "print('Validation roc_auc: 0.9')\n", tmp_path, settings)
    v = roles.verify(_ctx(task), "", res)
    assert v.is_bug and "no submission" in v.summary and v.metric == 0.9 and v.lower_is_better is False


def test_a_prose_trick_maps_to_the_recipe_with_the_same_idea(tasks, roles):
    prose = next(c for c in load_cards() if c.id == "tab-missing-indicators" and not c.recipe)
    task = tasks["binary"]
    parent = roles.code(_ctx(task), roles.plan(_ctx(task)))
    plan = roles.plan(_ctx(task, "improve", parent_code=parent, trick=prose.to_trick()))
    assert plan.meta["trick_id"] == "rcp-missing-indicators"
    assert "tab-missing-indicators has no executable recipe" in plan.text


def test_balanced_class_weights_are_offered_for_f1_but_not_for_plain_accuracy(tmp_path):
    """Plain accuracy counts every row alike, so weighting the rare class up costs it: 28 improves with this
    card on accuracy tasks of this project's runs, none better than its parent. F1 is what it is for."""
    from automind.recipes import _applies

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"a": rng.normal(size=300), "b": rng.normal(size=300)})
    df["y"] = np.where(df["a"] > 1.2, "rare", "common")  # about 12 % rare: the `imbalanced` flag
    roles = RecipeRoles(load_config({}, environ={}).settings)
    card = roles.recipes["rcp-class-weight-balanced"]
    offered = {}
    for metric in ("accuracy", "f1", "balanced_accuracy"):
        task = Task.load(prepare_task(df, tmp_path / metric, "y", metric, name=metric))
        prof = roles.profile(Context(task=task, action="improve", analysis=""))
        assert "imbalanced" in prof.flags
        offered[metric] = _applies(card, prof, {"gbdt"}, prof.flags)
    assert offered == {"accuracy": False, "f1": True, "balanced_accuracy": True}


def test_a_text_model_is_not_swapped_for_models_that_read_only_the_table(tasks, tmp_path):
    """On a text task the model block's alternatives are the models that read the text (LightGBM on compact
    TF-IDF, the linear model on TF-IDF); the tabular portfolio, CatBoost and the forests would drop it
    (food-reviews: its text portfolio 0.86, swapped for the tabular portfolio or CatBoost alone, 0.59)."""
    roles = RecipeRoles(load_config({}, environ={}).settings)
    task = tasks["text"]
    ctx = _ctx(task)
    for _ in range(4):  # the text portfolio draft
        plan = roles.plan(ctx)
        if plan.meta["state"]["draft"] == "rcp-text-portfolio":
            break
        ctx = _ctx(task, memory=[*ctx.memory, f"tried {plan.summary} -> validation 0.5"])
    assert plan.meta["state"]["draft"] == "rcp-text-portfolio"
    refine = _ctx(task, "refine", parent_code=roles.code(ctx, plan), parent_metric=0.8)
    model = next(c for c in roles.components(refine) if c.name == "model")
    assert {"cmp-model-lgbm", "cmp-model-linear"} <= set(model.alternatives)
    assert not {"cmp-model-portfolio", "cmp-model-catboost", "cmp-model-forest"} & set(model.alternatives)
    # its tabular-only "lgbm" member scored low, but the card's LightGBM reads the text here: still tried
    sub = tmp_path / "node" / "submission"
    sub.mkdir(parents=True)
    scores = {"tfidf-linear": 0.85, "tfidf-lgbm": 0.83, "lgbm": 0.56}
    (sub / "members.json").write_text(
        json.dumps({"lower_is_better": False, "combined": 0.86, "members": scores})
    )
    refine.parent_dir = str(tmp_path / "node")
    assert "cmp-model-lgbm" in [p.meta["choice"] for p in roles._attempt_plans(refine, "model")]
    tabular = _ctx(
        tasks["binary"],
        "refine",
        parent_code=roles.code(_ctx(tasks["binary"]), roles.plan(_ctx(tasks["binary"]))),
    )
    alts = next(c for c in roles.components(tabular) if c.name == "model").alternatives
    assert {"cmp-model-portfolio", "cmp-model-forest"} <= set(alts)  # a table keeps them all
