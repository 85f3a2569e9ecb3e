"""The network draft (`rcp-realmlp`): the third draft of a table of up to 10,000 rows when pytabkit is
installed (the linear baseline's place; the portfolio already fits a linear model), never on larger tables;
its script trains RealMLP alone on K folds and writes what the ensemble action reads; a fold with no room
for the shortest schedule fails fast with an error the repair answers with the lighter preset."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from automind.config import load_config
from automind.prepare import prepare_task
from automind.recipes import RecipeRoles, read_metric
from automind.recipes.profile import profile_task
from automind.roles import Context
from automind.sandbox import Sandbox
from automind.task import Task

pytest.importorskip("pytabkit")


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))


def _settings(limit: float = 60.0):
    return load_config({"sandbox.timeout_s": 120, "search.time_limit_s": limit}).settings


def _table(n: int, seed: int = 0) -> pd.DataFrame:
    """A target that depends on a product of two columns (trees need many splits for it) and a category."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.normal(size=n)
    kind = rng.choice(["x", "y", "z"], size=n)
    y = 3 * a * b + (kind == "x") * 2 + rng.normal(scale=0.3, size=n)
    return pd.DataFrame({"a": a, "b": b, "kind": kind, "y": y})


def _task(root: Path, n: int) -> Task:
    return Task.load(prepare_task(_table(n), root, "y", "rmse", name=f"net-{n}"))


def _ctx(task: Task, action: str = "draft", **kw) -> Context:
    return Context(task=task, action=action, analysis="", **kw)


def _draft_order(roles: RecipeRoles, task: Task, n: int) -> list[str]:
    """The drafts a run plans in order, each planned with the earlier ones in its memory."""
    memory: list[str] = []
    out = []
    for _ in range(n):
        plan = roles.plan(_ctx(task, memory=list(memory)))
        out.append(plan.meta["state"]["draft"])
        memory.append(f"tried {plan.summary} -> validation 1.0")
    return out


def test_small_tables_draft_the_network_third_and_large_ones_never(tmp_path):
    roles = RecipeRoles(_settings())
    small = _task(tmp_path / "small", 400)
    assert {"pytabkit", "network_rows"} <= profile_task(small).flags
    assert _draft_order(roles, small, 3) == ["rcp-lgbm-kfold", "rcp-portfolio", "rcp-realmlp"]
    big = _task(tmp_path / "big", 16_000)  # prepare_task keeps a share of the rows as the test set
    flags = profile_task(big).flags
    assert "pytabkit" in flags and "network_rows" not in flags
    assert "rcp-realmlp" not in _draft_order(roles, big, 4)


def test_without_the_package_the_linear_baseline_keeps_its_place(tmp_path):
    roles = RecipeRoles(_settings())
    task = _task(tmp_path / "t", 400)
    profile = roles.profile(_ctx(task))
    roles._profiles[Path(task.root)] = replace(profile, flags=profile.flags - {"pytabkit"})
    assert _draft_order(roles, task, 3) == ["rcp-lgbm-kfold", "rcp-portfolio", "rcp-linear-baseline"]


def test_the_network_draft_runs_alone_and_saves_what_an_ensemble_reads(tmp_path):
    from automind.grading import grade

    settings = _settings(60.0)
    roles = RecipeRoles(settings)
    task = _task(tmp_path / "t", 500)
    ctx = _ctx(
        task, memory=["tried [draft rcp-lgbm-kfold] x -> validation 1", "tried [draft rcp-portfolio] y"]
    )
    plan = roles.plan(ctx)
    assert plan.meta["state"]["draft"] == "rcp-realmlp"
    code = roles.code(ctx, plan)
    res = Sandbox.from_settings(task, tmp_path / "ws", settings).run_script(code)
    assert res.ok, res.output
    metric = read_metric(res.workspace, res.stdout)
    assert metric is not None and "model realmlp: rmse" in res.stdout
    assert "model lgbm" not in res.stdout and "model linear" not in res.stdout  # the network alone
    saved = json.loads((res.workspace / "submission" / "members.json").read_text())
    assert list(saved["members"]) == ["realmlp"] and saved["weights"] == {"realmlp": 1.0}
    assert (res.workspace / "submission" / "members.npz").is_file()  # the ensemble action's input
    report = grade(task, res.workspace / "submission" / "submission.csv")
    assert report.valid, report.error
    # far better than predicting the mean (the target's spread is about 3.3)
    assert report.score < 0.6 * float(np.std(_table(500)["y"]))


def test_a_fold_without_room_fails_fast_and_the_repair_lightens_the_preset(tmp_path):
    roles = RecipeRoles(_settings())
    task = _task(tmp_path / "t", 400)
    memory = ["tried [draft rcp-lgbm-kfold] x -> validation 1", "tried [draft rcp-portfolio] y"]
    code = roles.code(_ctx(task, memory=memory), roles.plan(_ctx(task, memory=memory)))
    error = "TimeoutError: TimeoutError: 16 epochs need about 9s; the fold has 3s"
    fix = roles.plan(_ctx(task, "debug", parent_code=code, parent_output=error))
    assert fix.meta["state"]["draft"] == "rcp-realmlp" and "light" in fix.meta["state"]["fixes"]
