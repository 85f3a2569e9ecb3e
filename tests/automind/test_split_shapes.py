"""When the test rows are later in time or new groups, the task's split and the search's validation folds
follow that shape: `task prepare --time-column/--group-column` builds such a task, the recipe profile finds
the shape from the public files (as the holdout does), and the scripts' folds keep groups whole or cut the
rows into blocks of consecutive times. Random folds there rank scripts by how well they recognise seen
groups or fill gaps between known days, which the test rows never ask for."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from automind.cli import app
from automind.prepare import PrepareError, prepare_task
from automind.recipes import runtime as rt
from automind.recipes.profile import profile_task
from automind.task import Task


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))


def _visits(n_groups: int = 40, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    g = np.repeat(np.arange(n_groups), rng.integers(3, 9, n_groups))
    x = rng.normal(size=len(g))
    return pd.DataFrame({"patient_id": [f"P{v}" for v in g], "x": x, "y": x + rng.normal(size=len(g))})


def _daily(n: int = 300) -> pd.DataFrame:
    rng = np.random.default_rng(1)
    days = pd.date_range("2021-01-01", periods=n // 2, freq="D").strftime("%d/%m/%Y")  # day first
    x = rng.normal(size=n)
    return pd.DataFrame({"day": np.repeat(days, 2), "x": x, "y": x + rng.normal(size=n)})


def test_prepare_by_time_puts_the_latest_rows_in_the_test_set(tmp_path):
    out = prepare_task(_daily(), tmp_path / "t", "y", "rmse", time_col="day", test_size=0.2)
    train = pd.read_csv(out / "public" / "train.csv")
    test = pd.read_csv(out / "public" / "test.csv")
    when = {k: pd.to_datetime(v["day"], format="%d/%m/%Y") for k, v in (("train", train), ("test", test))}
    assert when["train"].max() < when["test"].min()  # a tied day is never split across the two sides
    assert len(test) == 60 and len(train) == 240


def test_prepare_by_group_keeps_every_group_on_one_side(tmp_path):
    df = _visits()
    out = prepare_task(df, tmp_path / "t", "y", "rmse", group_col="patient_id", test_size=0.25, seed=3)
    train = pd.read_csv(out / "public" / "train.csv")
    test = pd.read_csv(out / "public" / "test.csv")
    assert not set(train["patient_id"]) & set(test["patient_id"])
    assert len(test) >= 0.25 * len(df) and len(train) + len(test) == len(df)
    again = prepare_task(df, tmp_path / "t2", "y", "rmse", group_col="patient_id", test_size=0.25, seed=3)
    assert pd.read_csv(again / "public" / "test.csv")["patient_id"].tolist() == test["patient_id"].tolist()


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"time_col": "day", "group_col": "x"}, "Pick one"),
        ({"time_col": "when"}, "'when' is not in the data"),
        ({"group_col": "y"}, "is the target"),
        ({"time_col": "x"}, None),  # numbers are times too (a step, a year)
    ],
)
def test_prepare_split_columns_are_checked(tmp_path, kwargs, says):
    if says is None:
        prepare_task(_daily(), tmp_path / "t", "y", "rmse", **kwargs)
        return
    with pytest.raises(PrepareError, match=says):
        prepare_task(_daily(), tmp_path / "t", "y", "rmse", **kwargs)
    assert not (tmp_path / "t").exists()  # nothing written on bad input


def test_prepare_refuses_unreadable_times_and_a_single_group(tmp_path):
    df = _daily()
    df.loc[7, "day"] = "soon"
    with pytest.raises(PrepareError, match=r"1 of 300 .*'soon'"):
        prepare_task(df, tmp_path / "t", "y", "rmse", time_col="day")
    one = _visits().assign(patient_id="P0")
    with pytest.raises(PrepareError, match="single value"):
        prepare_task(one, tmp_path / "t", "y", "rmse", group_col="patient_id")


def test_cli_prepare_takes_a_group_column(tmp_path):
    data = tmp_path / "visits.csv"
    _visits().to_csv(data, index=False)
    before, stat = data.read_bytes(), data.stat()
    r = CliRunner().invoke(app, ["task", "prepare", str(tmp_path / "t"), "--data", str(data), "--target", "y",
                                 "--metric", "rmse", "--group-column", "patient_id"])  # fmt: skip
    assert r.exit_code == 0, r.output
    train = pd.read_csv(tmp_path / "t" / "public" / "train.csv")
    test = pd.read_csv(tmp_path / "t" / "public" / "test.csv")
    assert not set(train["patient_id"]) & set(test["patient_id"])
    assert data.read_bytes() == before
    assert (data.stat().st_mode, data.stat().st_mtime_ns) == (stat.st_mode, stat.st_mtime_ns)
    bad = CliRunner().invoke(app, ["task", "prepare", str(tmp_path / "u"), "--data", str(data), "--target", "y",
                                   "--metric", "rmse", "--time-column", "nope"])  # fmt: skip
    assert bad.exit_code != 0 and "'nope' is not in the data" in bad.output and "Traceback" not in bad.output


def test_the_profile_finds_the_shape_of_the_test_rows(tmp_path):
    grouped = Task.load(prepare_task(_visits(), tmp_path / "g", "y", "rmse", group_col="patient_id"))
    dated = Task.load(prepare_task(_daily(), tmp_path / "d", "y", "rmse", time_col="day"))
    shuffled = Task.load(prepare_task(_daily(), tmp_path / "r", "y", "rmse"))
    assert profile_task(grouped).split == {"kind": "group", "column": "patient_id"}
    assert profile_task(dated).split == {"kind": "time", "column": "day"}
    assert profile_task(shuffled).split is None  # test days fall between training days
    assert profile_task(grouped).cfg()["split"] == {"kind": "group", "column": "patient_id"}
    assert "split" not in profile_task(shuffled).cfg()


def _run_cfg(monkeypatch, problem: str, split: dict | None) -> dict:
    cfg = {"problem": problem, "seed": 0, "fold_seed": 0, "split": split}
    monkeypatch.setattr(rt, "CFG", cfg, raising=False)
    return cfg


def test_group_folds_keep_each_group_in_one_fold(monkeypatch):
    train = _visits(60)
    cfg = _run_cfg(monkeypatch, "regression", {"kind": "group", "column": "patient_id"})
    cfg["_fold_keys"] = rt.fold_keys(train)
    y = train["y"].to_numpy()
    splits = rt.kfold(y, cfg, 5, repeats=2)
    assert len(splits) == 10
    for tr, va in splits:
        assert not set(train["patient_id"].iloc[tr]) & set(train["patient_id"].iloc[va])
    first, second = splits[:5], splits[5:]
    for part in (first, second):  # each repeat validates every row exactly once
        assert sorted(np.concatenate([va for _, va in part]).tolist()) == list(range(len(y)))
    assert any(not np.array_equal(a[1], b[1]) for a, b in zip(first, second, strict=True))  # reshuffled
    sizes = [len(va) for _, va in first]
    assert max(sizes) - min(sizes) <= 8  # balanced to within one group

    labels = (y > 0).astype(int)
    cfg["problem"] = "binary"
    for tr, va in rt.kfold(labels, cfg, 4):
        assert not set(train["patient_id"].iloc[tr]) & set(train["patient_id"].iloc[va])


def test_time_folds_are_blocks_of_consecutive_times(monkeypatch):
    train = _daily(400).sample(frac=1.0, random_state=0).reset_index(drop=True)  # rows not in time order
    cfg = _run_cfg(monkeypatch, "regression", {"kind": "time", "column": "day"})
    cfg["_fold_keys"] = rt.fold_keys(train)
    when = pd.to_datetime(train["day"], format="%d/%m/%Y").to_numpy()
    splits = rt.kfold(train["y"].to_numpy(), cfg, 4)
    assert sorted(np.concatenate([va for _, va in splits]).tolist()) == list(range(len(train)))
    spans = sorted((when[va].min(), when[va].max()) for _, va in splits)
    for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
        assert end <= start  # the blocks do not interleave in time


def test_random_folds_without_a_shape_or_when_the_column_is_gone(monkeypatch):
    train = _visits(60)
    y = train["y"].to_numpy()
    cfg = _run_cfg(monkeypatch, "regression", None)
    cfg["_fold_keys"] = rt.fold_keys(train)
    assert cfg["_fold_keys"] is None
    mixed = [
        set(train["patient_id"].iloc[tr]) & set(train["patient_id"].iloc[va])
        for tr, va in rt.kfold(y, cfg, 5)
    ]
    assert all(mixed)  # shuffled folds split patients
    cfg = _run_cfg(monkeypatch, "regression", {"kind": "group", "column": "gone"})
    assert rt.fold_keys(train) is None


@pytest.mark.parametrize(
    ("shape", "says"),
    [
        ("group", "validation folds keep the groups of 'patient_id' whole"),
        ("time", "validation folds are blocks of consecutive 'day'"),
    ],
)
def test_a_recipe_script_validates_the_way_the_test_rows_differ(tmp_path, run_in_workspace, shape, says):
    """The generated script itself: its CFG names the shape, its log says how the folds were cut, and it
    still ends in a valid submission."""
    from automind.config import load_config
    from automind.grading import grade
    from automind.recipes import RecipeRoles
    from automind.roles import Context

    if shape == "group":
        task = Task.load(prepare_task(_visits(), tmp_path / "g", "y", "rmse", group_col="patient_id"))
    else:
        task = Task.load(prepare_task(_daily(), tmp_path / "d", "y", "rmse", time_col="day"))
    roles = RecipeRoles(load_config({"sandbox.timeout_s": 120, "search.time_limit_s": 40}).settings)
    ctx = Context(task=task, action="draft", analysis="")
    code = roles.code(ctx, roles.plan(ctx))
    assert f"'split': {{'kind': '{shape}', 'column': " in code
    log = run_in_workspace(task, code, tmp_path / "work")
    assert says in log
    assert grade(task, tmp_path / "work" / "submission" / "submission.csv").valid
    assert "is not a feature" not in log  # the key stays unless rcp-drop-group-key asks


def test_the_drop_group_key_trick_is_offered_on_new_groups_and_drops_the_key(tmp_path, run_in_workspace):
    from dataclasses import asdict

    from automind.config import load_config
    from automind.recipes import RecipeRoles, State, _applies
    from automind.roles import Context, Plan

    roles = RecipeRoles(load_config({"sandbox.timeout_s": 120, "search.time_limit_s": 40}).settings)
    card = roles.recipes["rcp-drop-group-key"]
    grouped = Task.load(prepare_task(_visits(), tmp_path / "g", "y", "rmse", group_col="patient_id"))
    shuffled = Task.load(prepare_task(_visits(), tmp_path / "r", "y", "rmse"))
    for task, offered in ((grouped, True), (shuffled, False)):
        ctx = Context(task=task, action="improve", analysis="")
        profile = roles.profile(ctx)
        assert _applies(card, profile, None, roles._flags(ctx, profile)) == offered
    ctx = Context(task=grouped, action="improve", analysis="")
    state = State(draft="rcp-lgbm-kfold", tricks=["rcp-drop-group-key"], seed=0, budget=30.0)
    code = roles.code(ctx, Plan(text="", summary="", meta={"state": asdict(state)}))
    assert "'patient_id' is not a feature" in run_in_workspace(grouped, code, tmp_path / "work")


def test_the_data_analysis_tells_a_planner_how_to_validate(tmp_path):
    """The note reaches the LLM prompts through the rendered analysis; a random split gets none."""
    from automind.analysis import analyze

    grouped = analyze(Task.load(prepare_task(_visits(), tmp_path / "g", "y", "rmse", group_col="patient_id")))
    dated = analyze(Task.load(prepare_task(_daily(), tmp_path / "d", "y", "rmse", time_col="day")))
    shuffled = analyze(Task.load(prepare_task(_visits(), tmp_path / "r", "y", "rmse")))
    assert "new groups of 'patient_id' (0% share a training value)" in grouped.render()
    assert "GroupKFold" in grouped.render()
    assert "come after the training rows by 'day'" in dated.render()
    assert not any("validat" in n for n in shuffled.notes)


def test_a_year_column_is_a_time_and_a_few_valued_column_is_not(tmp_path):
    """Panel data: states over years, the test rows the latest years. A column of a few values whose top
    value fills a fifth of the rows must not pass for a time on a random split."""
    rng = np.random.default_rng(2)
    years, states = np.repeat(np.arange(1970, 1990), 30), np.tile(np.arange(30), 20)
    df = pd.DataFrame({"year": years, "state": [f"s{v}" for v in states], "x": rng.normal(size=600)})
    df["grade"] = rng.choice([1, 2, 3, 4, 5], size=600, p=[0.1, 0.2, 0.2, 0.2, 0.3])
    df["y"] = df["x"] + 0.1 * (df["year"] - 1970) + rng.normal(size=600)
    dated = Task.load(prepare_task(df, tmp_path / "t", "y", "rmse", time_col="year"))
    assert profile_task(dated).split == {"kind": "time", "column": "year"}
    for seed in range(5):
        shuffled = Task.load(prepare_task(df.drop(columns="year"), tmp_path / f"r{seed}", "y", "rmse", seed=seed,
                                          test_size=0.05))  # fmt: skip
        assert profile_task(shuffled).split is None


def test_integers_a_file_writes_as_floats_are_the_same_values(tmp_path):
    """A test column with a gap is written 41.0 where training wrote 41: still the same ages, so a random
    split is not taken for new groups of 'age'."""
    rng = np.random.default_rng(4)
    df = pd.DataFrame({"age": rng.integers(20, 60, 800), "x": rng.normal(size=800)})
    df["y"] = df["x"] + rng.normal(size=800)
    task = Task.load(prepare_task(df, tmp_path / "t", "y", "rmse"))
    test_path = task.public_dir / "test.csv"
    test = pd.read_csv(test_path)
    test.loc[0, "age"] = np.nan
    test.to_csv(test_path, index=False)
    assert "41.0" in test_path.read_text() or "40.0" in test_path.read_text()
    assert profile_task(Task.load(task.root)).split is None


def test_the_written_description_says_how_the_test_rows_were_chosen(tmp_path):
    grouped = prepare_task(_visits(), tmp_path / "g", "y", "rmse", group_col="patient_id")
    dated = prepare_task(_daily(), tmp_path / "d", "y", "rmse", time_col="day")
    shuffled = prepare_task(_daily(), tmp_path / "r", "y", "rmse")
    assert (
        "whole groups of `patient_id` that the training rows never show"
        in (grouped / "description.md").read_text()
    )
    assert "the latest rows by `day`" in (dated / "description.md").read_text()
    assert "rows with the same features but no target.\n" in (shuffled / "description.md").read_text()


def test_the_final_refits_bags_repeat_the_folds_and_the_allowance(monkeypatch):
    """AUTOMIND_REFIT_BAGS (set only by automind's final refit) repeats whatever folds the script asked for on
    reshuffled partitions, the first one unchanged (what the post-hoc steps cross-fit on), and grants the
    script that many times its allowance; a value that is not a count is ignored."""
    cfg = _run_cfg(monkeypatch, "binary", None)
    cfg["time_budget"] = 40.0
    y = np.array([0, 1] * 50)
    once = rt.kfold(y, cfg, 5)
    monkeypatch.delenv("AUTOMIND_TIME_LIMIT_S", raising=False)
    monkeypatch.setenv("AUTOMIND_REFIT_BAGS", "3")
    bagged = rt.kfold(y, cfg, 5)
    assert len(bagged) == 15 and len(rt.kfold(y, cfg, 5, repeats=2)) == 30
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(once, bagged[:5], strict=True))
    assert len(rt.first_partition(bagged, len(y))) == 5
    for r in range(3):  # each shuffle validates every row once
        assert sorted(np.concatenate([va for _, va in bagged[5 * r : 5 * r + 5]]).tolist()) == list(
            range(100)
        )
    assert not np.array_equal(bagged[0][1], bagged[5][1])
    assert rt.time_budget() == pytest.approx(120.0)
    monkeypatch.setenv("AUTOMIND_REFIT_BAGS", "many")
    assert len(rt.kfold(y, cfg, 5)) == 5 and rt.time_budget() == pytest.approx(40.0)


def test_test_levels_in_other_letter_case_are_no_new_groups():
    """Batch 43's paired run: a test file writing 'OAK4' for the training 'Oak4' was taken for new groups,
    so the folds kept each tree whole and the model learned no tree (1.71 for 0.5 noise); once the recipes
    read 'OAK4' as 'Oak4' (level_spellings), the ensemble fitted on those folds went far off (4.96). The
    split is judged on levels compared as the recipes compare them."""
    from automind.holdout.split import group_column

    rng = np.random.default_rng(0)
    levels = [f"{w}{i}" for i, w in enumerate(["Oak", "Elm", "Ash", "Fir"] * 3)]
    train = pd.DataFrame(
        {"tree": rng.choice(levels, 400), "girth": rng.normal(size=400).round(3).astype(str)}
    )
    test = pd.DataFrame({"tree": rng.choice(levels, 100), "girth": rng.normal(size=100).round(3).astype(str)})
    assert group_column(train, test.assign(tree=test["tree"].str.upper()), set()) is None
    new = test.assign(tree=[f"Yew{i}" for i in rng.integers(0, 12, 100)])
    assert group_column(train, new, set()) == ("tree", 0.0)
