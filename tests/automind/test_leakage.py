"""The deterministic leak check: a suite of deliberately leaky scripts is flagged (kind and line), clean ones
(K-fold target encoding done right among them) are not, and no recipe card writes a flagged script."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from automind.leakage import check_code

SUITE = Path(__file__).with_name("leak_suite")
# script -> (the kind it must be flagged with, a token on the flagged line)
LEAKY = {
    "leaky_scaler_before_split.py": ("fit-before-split", "fit_transform"),
    "leaky_fit_on_test_rows.py": ("fit-on-test", "fit("),
    "leaky_target_encoding.py": ("target-stats", "groupby"),
    "leaky_target_feature.py": ("target-feature", ".fit("),
    "leaky_derived_target.py": ("target-feature", "X, y"),
    "leaky_test_early_stopping.py": ("test-early-stopping", "eval_set"),
    "leaky_selector_before_cv.py": ("fit-before-split", "fit_transform"),
    "fake_metric.py": ("hardcoded-metric", "0.99"),
}
CLEAN = sorted(p.name for p in SUITE.glob("clean_*.py"))


def test_the_suite_has_every_leak_kind_and_six_clean_scripts():
    kinds = {k for k, _ in LEAKY.values()}
    assert kinds == {"fit-before-split", "fit-on-test", "target-stats", "target-feature", "test-early-stopping",
                     "hardcoded-metric"}  # fmt: skip
    assert len(LEAKY) >= 6 and len(CLEAN) >= 6 and "clean_kfold_target_encoding.py" in CLEAN


@pytest.mark.parametrize("name", sorted(LEAKY))
def test_leaky_scripts_are_flagged_on_the_right_line(name):
    kind, token = LEAKY[name]
    code = (SUITE / name).read_text()
    found = [f for f in check_code(code, ["y"]) if f.kind == kind]
    assert found, f"{name}: expected {kind}, got {check_code(code, ['y'])}"
    lines = code.splitlines()
    assert any(token in lines[f.line - 1] for f in found), [(f.line, lines[f.line - 1]) for f in found]


@pytest.mark.parametrize("name", CLEAN)
def test_clean_scripts_are_not_flagged(name):
    assert check_code((SUITE / name).read_text(), ["y"]) == []


def test_the_target_is_inferred_when_the_task_does_not_name_it():
    code = (SUITE / "leaky_target_encoding.py").read_text().replace('train["y"].mean()', "0.5")
    code = code.replace('groupby("cat")["y"]', 'groupby("cat")[TARGET]')
    code = 'TARGET = "y"\n' + code
    assert [f.kind for f in check_code(code)] == ["target-stats"]


def test_unparsable_code_has_no_findings():
    assert check_code("def broken(:\n") == []


def test_literal_metrics_are_flagged_but_computed_ones_are_not():
    code = (
        "from pathlib import Path\n"
        "score = compute()\n"
        'Path("submission/eval_metric.txt").write_text(f"{score:.4f}")\n'
        'print(f"validation auc: {score:.4f}")\n'
        'print("validation auc:", 0.97)\n'
    )
    assert [(f.kind, f.line) for f in check_code(code)] == [("hardcoded-metric", 5)]


# --- the recipes are leak-free by construction: every draft and every trick card, rendered --------------------


def _frame(n: int, kind: str) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=n), rng.normal(size=n)
    color = rng.choice(["red", "green", "blue"], size=n)
    df = pd.DataFrame({"a": a, "b": np.where(rng.random(n) < 0.1, np.nan, b), "color": color})
    signal = a + b + (color == "red")
    if kind == "binary":  # imbalanced, with missing values: the class-weight and missing-flag cards apply
        df["y"] = np.where(signal > 1.8, "yes", "no")
    elif kind == "multiclass":
        df["y"] = pd.cut(signal, [-np.inf, -0.5, 1.8, np.inf], labels=["low", "mid", "high"]).astype(str)
    elif kind == "text":
        words = np.array(["great", "tasty", "awful", "stale", "fine", "late"])
        df["review"] = [" ".join(rng.choice(words, 8)) for _ in range(n)]
        df["y"] = (df["review"].str.count("great|tasty") > 2).astype(int)
    else:
        df["y"] = np.exp(1 + 0.5 * signal)
    return df


@pytest.fixture(scope="module")
def recipe_tasks(tmp_path_factory):
    from automind.examples import png_gray
    from automind.prepare import prepare_task
    from automind.task import Task

    root = tmp_path_factory.mktemp("tasks")
    made = {k: prepare_task(_frame(120, k), root / k, "y", m, name=k)
            for k, m in (("binary", "roc_auc"), ("multiclass", "accuracy"), ("regression", "rmse"),
                         ("text", "accuracy"))}  # fmt: skip
    # a metric some tricks are only for (balanced class weights: F1, not accuracy)
    made["binary-f1"] = prepare_task(_frame(120, "binary"), root / "binary-f1", "y", "f1", name="binary-f1")
    # class-balanced log loss (the postprocess choice that moves probabilities toward equal priors)
    made["binary-bll"] = prepare_task(_frame(120, "binary"), root / "binary-bll", "y", "balanced_log_loss",
                                      name="binary-bll")  # fmt: skip
    # ordered grades (the postprocess choice that cuts the expected grade is only for QWK)
    grades = _frame(120, "multiclass")
    grades["y"] = grades["y"].map({"low": 0, "mid": 1, "high": 2})
    made["grades"] = prepare_task(grades, root / "grades", "y", "qwk", name="grades")
    digits = pd.DataFrame({"id": range(60), "label": np.arange(60) % 3})
    made["image"] = prepare_task(digits, root / "image", "label", "accuracy", id_col="id", name="img")
    (made["image"] / "public" / "images").mkdir()
    for i in range(60):
        (made["image"] / "public" / "images" / f"{i}.png").write_bytes(png_gray([[i % 255] * 8] * 8))
    return {k: Task.load(v) for k, v in made.items()}


@pytest.mark.slow
def test_every_recipe_draft_and_trick_passes_the_leak_check(recipe_tasks, monkeypatch, tmp_path):
    """Each draft card applicable to a kind of task, and every trick card on a draft it applies to."""
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    from automind.config import load_config
    from automind.recipes import RecipeRoles, State, _applies, _families
    from automind.roles import Context, Plan

    roles = RecipeRoles(
        load_config({"search.time_limit_s": 40}, environ={}, cwd=Path("/nonexistent")).settings
    )
    reg = roles.recipes
    drafts, tricks = set(), set()
    flagged = []
    for task in recipe_tasks.values():
        ctx = Context(task=task, action="draft", analysis="")
        profile = roles.profile(ctx)
        # the check reads code, so flags that only depend on the run, the table's size or its class balance
        # are all set
        flags = roles._flags(ctx, profile) | {"siblings", "enough_rows", "imbalanced", "new_groups"}
        for d, rec in sorted(reg.items()):
            if rec.get("hook") != "draft" or not _applies(rec, profile, None, flags):
                continue
            todo = [None] + [t for t, r in sorted(reg.items()) if r.get("hook") != "draft" and t not in tricks
                             and _applies(r, profile, _families(rec), flags)]  # fmt: skip
            for t in todo:
                state = State(draft=d, tricks=[t] if t else [], seed=0, budget=30.0)
                code = roles.code(ctx, Plan(text="", summary="", meta={"state": asdict(state)}))
                flagged += [(d, t, str(f)) for f in check_code(code, profile.target)]
                drafts.add(d)
                tricks |= {t} if t else set()
    every_draft = {r for r, rec in reg.items() if rec.get("hook") == "draft"}
    every_trick = {r for r, rec in reg.items() if rec.get("hook") != "draft"}
    assert drafts == every_draft and tricks == every_trick  # nothing escaped the check
    assert flagged == []
    assert roles.check_leakage(ctx, code, []).leaky is False  # the offline checker's deterministic answer
