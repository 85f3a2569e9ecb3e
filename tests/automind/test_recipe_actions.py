"""The offline refine and ensemble roles (automind/recipes/actions.py, ensemble.py, ensemble_runtime.py):
ablation through the component API, the block chosen by effect, attempts that change only that block, and
ensembles whose weights come from out-of-fold predictions only."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from automind.config import load_config
from automind.errors import RoleError
from automind.prepare import prepare_task
from automind.recipes import RecipeRoles
from automind.recipes import ensemble_runtime as ert
from automind.recipes import runtime as rt
from automind.recipes.actions import REFINE_ORDER
from automind.recipes.components import block, outside
from automind.recipes.compose import State
from automind.roles import Ablation, AblationResult, AblationRow, Attempt, Block, Context, Plan
from automind.task import Task


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))


@pytest.fixture(scope="module")
def roles():
    return RecipeRoles(load_config({"sandbox.timeout_s": 60, "search.time_limit_s": 40}, environ={}).settings)


def _frame(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.normal(size=n)
    color = rng.choice(["red", "green", "blue"], size=n)
    signal = a + b + (color == "red") * 1.5
    df = pd.DataFrame({"a": a, "b": b, "color": color})
    df["y"] = np.where(signal + rng.normal(scale=0.5, size=n) > 0.3, "yes", "no")
    return df


@pytest.fixture(scope="module")
def task(tmp_path_factory) -> Task:
    return Task.load(
        prepare_task(_frame(240), tmp_path_factory.mktemp("t") / "acc", "y", "accuracy", name="acc")
    )


def _parent(roles, task) -> Context:
    """The portfolio draft (the run's second: the first is a quick single model) as the refined solution."""
    first = roles.plan(Context(task=task, action="draft", analysis=""))
    ctx = Context(task=task, action="draft", analysis="", memory=[f"tried {first.summary} -> validation 0.8"])
    plan = roles.plan(ctx)
    assert "portfolio" in plan.summary
    code = roles.code(ctx, plan)
    return Context(task=task, action="refine", analysis="", parent_code=code, parent_metric=0.8,
                   facts={"lower_is_better": False})  # fmt: skip


# --- refine -------------------------------------------------------------------------------------------


def test_offline_refine_ablates_picks_the_strongest_block_and_rewrites_only_it(roles, task):
    ctx = _parent(roles, task)
    baseline, *runs = roles.ablation_scripts(ctx, [], [])
    assert baseline.label == "baseline" and baseline.code == ctx.parent_code  # measured under the same limit
    assert baseline.reproduces and not any(r.reproduces for r in runs)  # checked against the solution's score
    names = [r.label for r in runs]
    assert "model" in names and "postprocess" in names and "validation" not in names  # neutral: not ablated
    for r in runs:  # each ablation script differs from the solution in its component's block only
        assert outside(r.code, r.label) == outside(ctx.parent_code, r.label)
        assert block(r.code, r.label) != block(ctx.parent_code, r.label)
    again = [r.label for r in roles.ablation_scripts(ctx, [], ["model"])]
    assert again == ["baseline", *[n for n in names if n != "model"]]

    scores = {"baseline": 0.78, "model": 0.73, "postprocess": 0.79}  # removing the portfolio costs most
    results = [AblationResult(r, "", scores.get(r.label), None) for r in [baseline, *runs]]
    ablation = roles.summarise_ablation(ctx, results)
    assert [r.component for r in ablation.rows] == [
        *[n for n in ("model", "postprocess")],
        *[n for n in names if n not in ("model", "postprocess")],
    ]
    assert ablation.rows[0].effect == pytest.approx(0.05)  # against the baseline run, not the 0.8 of the node
    assert ablation.rows[1].effect == pytest.approx(-0.01) and ablation.rows[2].effect is None
    assert "Baseline 0.78" in ablation.summary and "model helps" in ablation.summary

    chosen = roles.extract_block(ctx, ablation, [])
    assert chosen.name == "model" and chosen.code == block(ctx.parent_code, "model")
    assert roles.extract_block(ctx, ablation, ["model"]).name == "postprocess"  # refined before: skipped
    # an ablation that changed nothing is no evidence: unmeasured components (model first) go before it
    flat = Ablation([AblationRow("postprocess", "threshold -> none", 0.78, 0.0)], "nothing changed")
    assert roles.extract_block(ctx, flat, []).name == "model"
    flat_model = Ablation([AblationRow("model", "portfolio -> lgbm", 0.78, 0.0)], "nothing changed")
    others = [n for n in REFINE_ORDER if n != "model"]
    assert roles.extract_block(ctx, flat_model, others).name == "model"  # still a candidate, the last one

    comp = next(c for c in roles.components(ctx) if c.name == "model")
    history: list[Attempt] = []
    plan = chosen.plan
    tried = []
    while plan is not None:
        new = roles.code_block(ctx, chosen, plan)
        assert outside(new, "model") == outside(ctx.parent_code, "model")  # the rest is byte-identical
        assert block(new, "model") != chosen.code
        tried.append(plan.meta["choice"])
        history.append(Attempt(plan.text, 0.8))
        plan = roles.plan_block(ctx, chosen, history)
    # the alternatives the cards offer, best-ranked first, then None; the neutral form is not tried: this
    # step's ablation ran that very script and it scored worse than the solution (effect +0.05)
    assert tried == [c for c in comp.alternatives if c != comp.neutral]
    assert plan is None


def _attempted(roles, ctx, chosen) -> list[str]:
    history: list[Attempt] = []
    plan, tried = chosen.plan, []
    while plan is not None:
        tried.append(plan.meta["choice"])
        history.append(Attempt(plan.text, 0.8))
        plan = roles.plan_block(ctx, chosen, history)
    return tried


def test_a_refine_attempt_repeats_an_ablation_script_only_when_it_beat_the_solution(roles, task):
    """The ablation already ran the solution with a component in its neutral form; an attempt with that same
    script repeats its score. At 600 s on a regression table three of four refine attempts did just that
    (clean -> minimal, ensemble -> best, postprocess -> none, each scoring as their parent). When the neutral
    form scored better, it is still tried, so the better script becomes a node."""
    ctx = _parent(roles, task)
    comp = next(c for c in roles.components(ctx) if c.name == "model")
    assert comp.neutral in comp.alternatives and not comp.tricks  # its ablation is the neutral alternative

    def table(model_effect: float) -> Ablation:
        return Ablation(
            [AblationRow("model", "model: portfolio -> lgbm", 0.8 - model_effect, model_effect)], ""
        )

    better = roles.extract_block(ctx, table(-0.02), [])  # LightGBM alone beat the portfolio
    assert better.name == "model" and _attempted(roles, ctx, better)[-1] == comp.neutral
    rest = [n for n in REFINE_ORDER if n != "model"]  # an effect of 0 puts the model after unmeasured blocks
    for no_better in (0.0, 0.05):  # changed nothing, or the portfolio helps
        chosen = roles.extract_block(ctx, table(no_better), rest)
        assert chosen.name == "model"
        tried = _attempted(roles, ctx, chosen)
        assert comp.neutral not in tried and tried == [c for c in comp.alternatives if c != comp.neutral]

    # a component whose only alternative is the script its ablation ran is not chosen at all
    post = next(c for c in roles.components(ctx) if c.name == "postprocess")
    assert post.alternatives == [post.neutral]  # label metric: the tuned threshold, or none
    flat = Ablation([AblationRow("postprocess", "postprocess: threshold -> none", 0.8, 0.0)], "")
    others = [n for n in REFINE_ORDER if n != "postprocess"]
    with pytest.raises(RoleError, match="this step's ablation"):
        roles.extract_block(ctx, flat, others)
    worse = Ablation([AblationRow("postprocess", "postprocess: threshold -> none", 0.81, -0.01)], "")
    assert _attempted(roles, ctx, roles.extract_block(ctx, worse, others)) == [post.neutral]


def _members_file(folder, combined: float, members: dict[str, float], lower: bool = False) -> str:
    sub = folder / "submission"
    sub.mkdir(parents=True, exist_ok=True)
    data = {"metric": "accuracy", "lower_is_better": lower, "combined": combined, "members": members}
    (sub / "members.json").write_text(json.dumps(data))
    return str(folder)


def test_a_refine_attempt_skips_a_model_the_portfolio_already_found_weaker(roles, task, tmp_path):
    """Swapping the portfolio for one of its own models re-runs what the solution measured: a model that
    scored below the combination on the same folds is not tried, except the best model (alone it gets all
    the time the portfolio shares out). Without the file, every alternative is tried as before."""
    from automind.recipes.actions import member_names, weaker_members

    ctx = _parent(roles, task)
    comp = next(c for c in roles.components(ctx) if c.name == "model")
    table = Ablation([AblationRow("model", "model: portfolio -> lgbm", 0.75, 0.05)], "")
    everything = _attempted(roles, ctx, roles.extract_block(ctx, table, []))
    assert everything == [c for c in comp.alternatives if c != comp.neutral] and len(everything) >= 3

    reg = roles._registry(ctx)
    names = {c: member_names(reg[c]["code"]) for c in everything}
    assert names["cmp-model-catboost"] == {"catboost"} and names["cmp-model-forest"] == {"rf", "et"}
    scores = {"lgbm": 0.79, "lgbm-xt": 0.78, "linear": 0.74, "catboost": 0.795, "et": 0.70, "rf": 0.77,
              "lgbm-large": 0.81}  # fmt: skip
    ctx.parent_dir = _members_file(tmp_path / "a", 0.80, scores)
    assert weaker_members(ctx.parent_dir) == {"lgbm", "lgbm-xt", "linear", "catboost", "et", "rf"}
    kept = _attempted(roles, ctx, roles.extract_block(ctx, table, []))
    assert kept == [c for c in everything if not names[c] <= weaker_members(ctx.parent_dir)]
    assert "cmp-model-lgbm-large" in kept and "cmp-model-catboost" not in kept  # the best model stays

    # a lower-is-better metric, and the best model below the combination: still tried
    ctx.parent_dir = _members_file(tmp_path / "b", 2.0, {"catboost": 2.1, "rf": 2.5, "et": 2.2}, lower=True)
    assert weaker_members(ctx.parent_dir) == {"rf", "et"}
    kept = _attempted(roles, ctx, roles.extract_block(ctx, table, []))
    assert "cmp-model-catboost" in kept and "cmp-model-forest" not in kept
    assert [c for c in everything if c not in kept] == ["cmp-model-forest"]
    why = roles.extract_block(ctx, table, []).plan.meta["not_tried"]  # said in the refine record
    assert why == [
        "model -> lgbm: this step's ablation ran that script and it scored no better",
        "model -> forest: the solution's own portfolio fitted et, rf on the same folds: weaker than its "
        "combination",
    ]

    for broken in ("{", json.dumps({"members": {"a": 1.0}})):  # unreadable: nothing is skipped
        (tmp_path / "b" / "submission" / "members.json").write_text(broken)
        assert weaker_members(ctx.parent_dir) == frozenset()
    assert weaker_members(None) == frozenset() and weaker_members(str(tmp_path / "none")) == frozenset()


def test_the_combination_of_a_one_model_pipeline_is_neither_ablated_nor_refined(roles, task):
    """A script with one model never calls its `combine`: ablating it or refining it with another method only
    re-runs the script (seven such refine attempts of saved runs each scored as their parent). The portfolio's
    combination is still both."""
    from automind.recipes.components import member_names

    first = roles.plan(Context(task=task, action="draft", analysis=""))
    code = roles.code(Context(task=task, action="draft", analysis=""), first)
    assert member_names(block(code, "model")) == {"lgbm"}
    one = Context(task=task, action="refine", analysis="", parent_code=code, parent_metric=0.8,
                  facts={"lower_is_better": False})  # fmt: skip
    ens = next(c for c in roles.components(one) if c.name == "ensemble")
    assert ens.alternatives == [] and ens.neutral == ens.card is not None
    assert "ensemble" not in [name for name, _ in roles.ablations(one)]
    many = _parent(roles, task)
    ens = next(c for c in roles.components(many) if c.name == "ensemble")
    assert ens.alternatives and ens.neutral != ens.card
    assert "ensemble" in [name for name, _ in roles.ablations(many)]


def test_a_refine_attempt_is_remembered_like_the_improve_that_makes_the_same_script(roles, task):
    """A refine attempt's summary carries its draft and whole trick list, so a later improve does not rebuild
    its script (wvs at 600 s ran three refine attempts again as improves, 127 s for no new score); and the
    inner loop skips an alternative the run already ran or one that changed no prediction anywhere."""
    ctx = _parent(roles, task)
    feats = next(c for c in roles.components(ctx) if c.name == "features")
    assert len(feats.alternatives) >= 2
    first = roles.plan_block(ctx, Block("features", "", Plan("")), [])
    assert first is not None and first.summary.startswith("[refine features #1 of ")
    memory = [f"tried {first.summary} -> holdout 0.5 (its own validation 0.5)"]
    applied = []  # every improve of the solution until only a re-run is left
    while not (plan := roles.plan(Context(task=task, action="improve", analysis="",
                                          parent_code=ctx.parent_code, memory=memory))).meta["rerun"]:  # fmt: skip
        applied.append(plan.meta["trick_id"])
        memory.append(f"tried {plan.summary} -> holdout 0.5 (its own validation 0.5)")
        assert len(applied) < 60
    assert applied and first.meta["choice"] not in applied  # the refine attempt already ran that script
    later = Context(**{**ctx.__dict__, "memory": memory[:1]})
    assert first.meta["choice"] not in [p.meta["choice"] for p in roles._attempt_plans(later, "features")]
    idle = Context(**{**ctx.__dict__, "ineffective_tricks": [first.meta["choice"]]})
    assert first.meta["choice"] not in [p.meta["choice"] for p in roles._attempt_plans(idle, "features")]
    improve = roles.plan(Context(task=task, action="improve", analysis="", parent_code=ctx.parent_code,
                                 ineffective_tricks=[applied[0]]))  # fmt: skip
    assert improve.meta["trick_id"] not in (None, applied[0])  # the first-ranked trick changed nothing


def test_a_refine_attempt_that_rewrites_another_drafts_script_is_not_made(roles, task):
    """Two lineages can write one script: the portfolio refined to `model -> lgbm` is the LightGBM draft, and
    the LightGBM draft refined to `model -> portfolio` is the portfolio draft (digits at 120 s spent 87 s of
    its budget re-running its first draft as an image portfolio's `model -> svm`). Such an attempt is left
    out, and says why; with the other draft not run, it is made."""
    first_ctx = Context(task=task, action="draft", analysis="")
    first = roles.plan(first_ctx)
    lgbm_code = roles.code(first_ctx, first)
    memory = [f"tried {first.summary} -> validation 0.8"]
    portfolio = _parent(roles, task)
    seen = Context(**{**portfolio.__dict__, "memory": memory})
    model_cards = {p.meta["choice"] for p in roles.alternatives(portfolio, "model")}
    lgbm_card = next(c for c in model_cards if c.endswith("-lgbm"))
    made, skipped = roles._attempt_choices(seen, "model")
    assert lgbm_card not in [p.meta["choice"] for p in made]
    assert any(line.endswith("this run already ran that script") and "lgbm" in line for line in skipped)
    assert lgbm_card in [p.meta["choice"] for p in roles._attempt_plans(portfolio, "model")]  # not run: made

    # the other way round: the LightGBM draft refined to the portfolio, after the portfolio draft ran
    second = roles.plan(Context(task=task, action="draft", analysis="", memory=memory))
    lgbm = Context(task=task, action="refine", analysis="", parent_code=lgbm_code, parent_metric=0.8,
                   facts={"lower_is_better": False},
                   memory=[*memory, f"tried {second.summary} -> validation 0.8"])  # fmt: skip
    choices_made = [p.meta["choice"] for p in roles._attempt_plans(lgbm, "model")]
    assert choices_made and not any(c.endswith("-portfolio") for c in choices_made)
    alone = Context(**{**lgbm.__dict__, "memory": memory})
    assert any(p.meta["choice"].endswith("-portfolio") for p in roles._attempt_plans(alone, "model"))
    # an improve never picks a trick whose script another draft already is
    reg = roles._registry(seen)
    assert roles.already_ran(seen, State(draft=State.from_code(portfolio.parent_code).draft,
                                         tricks=[lgbm_card]), reg, roles.ran_scripts(seen, reg))  # fmt: skip


def test_offline_refine_refuses_a_script_without_components(roles, task):
    ctx = Context(task=task, action="refine", analysis="", parent_code="print(1)\n", parent_metric=0.5)
    with pytest.raises(RoleError, match="not written by a recipe"):
        roles.ablation_scripts(ctx, [], [])


# --- ensemble: weights from out-of-fold predictions only ------------------------------------------------


def _cfg() -> None:
    rt.CFG.clear()
    rt.CFG.update(metric="roc_auc", problem="binary", kind="proba", metric_params={}, seed=0, fold_seed=0,
                  folds=5, lower_is_better=False, classes=["no", "yes"], n_classes=2)  # fmt: skip


@pytest.mark.parametrize("method", ["caruana", "stack", "mean"])
def test_ensemble_weights_ignore_adversarial_test_predictions(method):
    _cfg()
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    good = np.clip(y * 0.6 + rng.random(300) * 0.5, 0, 1)
    members = [
        {"name": "good", "oof": good, "test": rng.random(80)},
        {"name": "noise", "oof": rng.random(300), "test": rng.random(80)},
    ]
    splits = rt.kfold(y, rt.CFG, 5)
    oof, test, weights, _ = ert.combine_members(members, y, splits, method)
    # the test predictions swapped for adversarial ones: the fitted weights and the out-of-fold result stay
    evil = [dict(members[0], test=1 - members[0]["test"]), dict(members[1], test=members[1]["test"] * 9)]
    oof2, test2, weights2, _ = ert.combine_members(evil, y, splits, method)
    assert weights2 == weights and np.array_equal(oof, oof2)
    assert not np.allclose(test, test2)  # test predictions are only combined with what was fitted
    if method == "caruana":
        assert weights == {"good": 1.0, "noise": 0.0}


def _methods(roles, ctx, members) -> list[str]:
    """The ensemble method of each round the roles plan on these members, until none is left."""
    history: list[Attempt] = []
    methods = []
    while True:
        try:
            plan = roles.plan_ensemble(ctx, members, history)
        except RoleError as e:
            assert "every method" in str(e)
            return methods
        methods.append(plan.meta["method"])
        history.append(Attempt(plan.text, 0.81))


def test_ensemble_roles_plan_each_method_once_per_member_set(roles, task, tmp_path):
    ctx = _parent(roles, task)
    files = ["members.npz", "oof.npy", "test_pred.npy", "y.npy"]
    members = [{"id": i, "metric": 0.8, "summary": "s", "dir": str(tmp_path / i), "predictions": files}
               for i in ("3", "5")]  # fmt: skip
    assert _methods(roles, ctx, members) == ["caruana", "caruana-members", "stack", "mean"]
    code = roles.code_ensemble(ctx, roles.plan_ensemble(ctx, members, []), members)
    compile(code, "ensemble.py", "exec")
    assert f"{tmp_path / '3'}/submission" in code
    lonely = [dict(members[0]), dict(members[1], predictions=["submission.csv"])]
    with pytest.raises(RoleError, match="1 of 2 members"):
        roles.plan_ensemble(ctx, lonely, [])


def test_no_stacking_round_for_a_multiclass_task(roles, tmp_path):
    """Stacking fits one binary or numeric target; a multiclass script would fall back to caruana and
    repeat the first round, so it is not planned."""
    frame = _frame(240)
    frame["y"] = np.digitize(frame["a"], [-0.5, 0.5])  # three classes
    three = Task.load(prepare_task(frame, tmp_path / "mc", "y", "accuracy", name="mc"))
    files = ["members.npz", "oof.npy", "test_pred.npy", "y.npy"]
    members = [{"id": i, "metric": 0.8, "summary": "s", "dir": str(tmp_path / i), "predictions": files}
               for i in ("3", "5")]  # fmt: skip
    assert _methods(roles, _parent(roles, three), members) == ["caruana", "caruana-members", "mean"]


def test_offline_ensemble_script_runs_and_fits_on_oof_only(roles, task, tmp_path):
    """Two synthetic members (a good and a noisy one) saved as a node would: the rendered script builds the
    ensemble in the sandbox, writes a valid submission and weights; adversarial test predictions of the good
    member change the submission but not the weights."""
    from automind.judge import check_submission
    from automind.recipes.ensemble import render_ensemble
    from automind.sandbox import Sandbox

    train = pd.read_csv(task.public_dir / "train.csv")
    n_test = len(pd.read_csv(task.public_dir / "test.csv"))
    y = (train["y"] == "yes").to_numpy(dtype=int)  # the runtime's encoding: classes sorted, "yes" positive
    rng = np.random.default_rng(0)
    good_oof = np.clip(y * 0.7 + rng.random(len(y)) * 0.3, 0, 1)

    def member(name: str, oof: np.ndarray, test: np.ndarray) -> dict:
        d = tmp_path / name / "submission"
        d.mkdir(parents=True)
        np.save(d / "oof.npy", oof), np.save(d / "test_pred.npy", test), np.save(d / "y.npy", y)
        return {"id": name, "dir": str(d)}

    good_test = rng.random(n_test)
    members = [member("good", good_oof, good_test), member("noise", rng.random(len(y)), rng.random(n_test))]
    ctx = _parent(roles, task)
    sandbox = Sandbox.from_settings(task, tmp_path / "wd", roles.settings)

    def run(ms):
        res = sandbox.run_script(render_ensemble(roles.profile(ctx), "caruana", ms, 0))
        assert res.ok, res.output
        out = res.workspace / "submission"
        return res, json.loads((out / "ensemble.json").read_text()), pd.read_csv(out / "submission.csv")

    res, weights, sub = run(members)
    assert check_submission(task, res).ok and "Validation accuracy:" in res.stdout
    assert weights == {"method": "caruana", "weights": {"node good": 1.0, "node noise": 0.0}}
    evil = [member("evil", good_oof, 1 - good_test), members[1]]
    _, weights2, sub2 = run(evil)
    assert weights2["weights"] == {"node evil": 1.0, "node noise": 0.0}
    assert (sub["y"] != sub2["y"]).mean() > 0.5  # the submission follows the (flipped) test predictions
