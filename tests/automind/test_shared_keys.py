"""Entity keys the test rows share (`shared_keys` in the recipe runtime): which columns are marked, and what
each representation gives a marked key. A respondent's or a school's number read as a plain quantity orders
entities arbitrarily; the per-level encodings let a model learn each entity's own level."""

from __future__ import annotations

import numpy as np
import pandas as pd

from automind.recipes import runtime as rt


def _cfg(problem: str = "regression") -> None:
    rt.CFG.clear()
    rt.CFG.update(metric="rmse" if problem == "regression" else "roc_auc", problem=problem,
                  kind="value" if problem == "regression" else "proba", metric_params={}, seed=0,
                  lower_is_better=problem == "regression", target=["y"], id=None, text_cols=[],
                  image_col=None, n_classes=2)  # fmt: skip


def _panel(n_entities: int = 150, per: int = 12, seed: int = 0) -> pd.DataFrame:
    """Rows of entities numbered at random: each has a region (an attribute) and its own level of y."""
    rng = np.random.default_rng(seed)
    ids = rng.permutation(np.arange(1000, 1000 + n_entities))
    region = rng.integers(0, 4, n_entities)
    effect = rng.normal(scale=2.0, size=n_entities)
    ent = np.repeat(np.arange(n_entities), per)
    x = rng.normal(size=len(ent))
    return pd.DataFrame({
        "entity": ids[ent], "region": region[ent], "x": x,
        "rooms": rng.integers(1, 40, len(ent)),  # a whole-number quantity: repeats, no attributes
        "y": effect[ent] + 0.5 * x + rng.normal(scale=0.5, size=len(ent)),
    })  # fmt: skip


def _split(df: pd.DataFrame, seed: int = 1) -> tuple[pd.DataFrame, pd.DataFrame]:
    rows = np.random.default_rng(seed).permutation(len(df))
    cut = int(0.7 * len(df))
    return df.iloc[rows[:cut]].reset_index(drop=True), df.iloc[rows[cut:]].reset_index(drop=True)


def _marked(df: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, np.ndarray]:
    """Training rows, test rows (no label) and the training labels, after `shared_keys` marked the keys."""
    train, test = _split(df)
    y = train.pop("y").to_numpy()
    test = test.drop(columns="y")
    rt.shared_keys(train, test, rt.CFG)
    return train, test, y


def test_an_entity_key_the_test_rows_share_is_marked_and_a_quantity_is_not():
    _cfg()
    train, test = _split(_panel())
    out = rt.shared_keys(train, test.drop(columns="y"), rt.CFG)
    assert rt.CFG["_keys"] == ["entity"]
    assert out[0].equals(train)  # marking changes nothing in the frames


def test_keys_of_new_entities_and_near_constant_attributes_are_not_marked():
    _cfg()
    df = _panel()
    new = df["entity"] >= df["entity"].quantile(0.7)  # the test rows are entities the training rows lack
    rt.shared_keys(df[~new].reset_index(drop=True), df[new].drop(columns="y").reset_index(drop=True), rt.CFG)
    assert rt.CFG["_keys"] == []
    # an attribute that is one value on nearly every row is constant within any grouping: no evidence
    df = _panel().drop(columns="region")
    df["flag"] = (np.arange(len(df)) == 5).astype(int)
    train, test = _split(df)
    rt.shared_keys(train, test.drop(columns="y"), rt.CFG)
    assert rt.CFG["_keys"] == []


def test_a_key_by_name_needs_no_attributes_but_needs_repeats():
    _cfg()
    df = _panel().drop(columns="region").rename(columns={"entity": "user_id"})
    train, test = _split(df)
    rt.shared_keys(train, test.drop(columns="y"), rt.CFG)
    assert rt.CFG["_keys"] == ["user_id"]
    df["user_id"] = np.arange(len(df))  # unique per row: a row number, not a key
    train, test = _split(df)
    rt.shared_keys(train, test.drop(columns="y"), rt.CFG)
    assert rt.CFG["_keys"] == []


def test_a_second_key_naming_the_same_entities_is_marked_once_and_a_coarser_one_is_kept():
    _cfg()
    df = _panel()
    df["ticker"] = "T" + (df["entity"] * 7 + 3).astype(str)  # another name for each entity
    _marked(df)
    assert rt.CFG["_keys"] == ["entity"]
    df["group_id"] = df["entity"] % 15  # groups of entities: a coarser split, not a copy
    _marked(df)
    assert rt.CFG["_keys"] == ["entity", "group_id"]


def _yearly(n_entities: int = 60, years: int = 12, seed: int = 0) -> pd.DataFrame:
    """Entities numbered at random, each seen once a year with its own level of y and no fixed attribute."""
    rng = np.random.default_rng(seed)
    ids = rng.permutation(np.arange(5000, 5000 + n_entities))
    effect = rng.normal(scale=2.0, size=n_entities)
    ent, year = np.repeat(np.arange(n_entities), years), np.tile(np.arange(1990, 1990 + years), n_entities)
    x = rng.normal(size=len(ent))
    return pd.DataFrame(
        {"unit": ids[ent], "year": year, "x": x, "y": effect[ent] + x + rng.normal(size=len(ent))}
    )


def test_the_entity_index_of_a_panel_is_a_key_without_attributes_or_a_key_name():
    _cfg()
    df = _yearly()
    _marked(df)
    assert rt.CFG["_keys"] == ["unit"]  # unit and year name each row once; unit has no constant attribute
    # the same numbers with the years drawn at random: pairs repeat, nothing says the rows are a panel
    df["year"] = np.random.default_rng(3).integers(1990, 2002, len(df))
    _marked(df)
    assert rt.CFG["_keys"] == []


def test_a_number_each_group_gives_its_own_members_is_not_a_panel_key():
    _cfg()
    rng = np.random.default_rng(0)
    sizes = rng.integers(10, 30, 80)  # each of 80 schools numbers its pupils with its own draw of 1..300
    pupil = np.concatenate([rng.choice(np.arange(1, 301), k, replace=False) for k in sizes])
    school = np.repeat(rng.permutation(np.arange(100, 180)), sizes)
    df = pd.DataFrame({"pupil": pupil, "school": school, "y": rng.normal(size=len(pupil))})
    train, test = _split(df)
    assert "pupil" not in rt.key_columns(train, test.drop(columns="y"), rt.CFG)


def test_the_tree_matrix_gives_a_key_an_out_of_fold_mean_that_helps_a_booster():
    import lightgbm as lgb

    _cfg()
    train, test = _split(_panel(n_entities=200, per=15))
    y, y_te = train.pop("y").to_numpy(), test.pop("y").to_numpy()
    rt.shared_keys(train, test, rt.CFG)
    X, X_te = rt.tree_matrix(train, test, rt.CFG, y)
    means = [c for c in X.columns if c.endswith("_key")]
    assert len(means) == 1 and X.shape[1] == train.shape[1] + 1  # beside the number, not instead of it
    # a training row's own label never enters its own encoding (inner folds): +100 on its label moves it
    # only through the global prior (100 / 2,100 rows), not its level's mean (100 / ~30 with smoothing)
    y2 = y.copy()
    y2[0] += 100.0
    X2, _ = rt.tree_matrix(train, test, rt.CFG, y2)
    assert abs(X2[means[0]].iloc[0] - X[means[0]].iloc[0]) < 0.1
    rt.CFG["_keys"] = []
    X_plain, X_te_plain = rt.tree_matrix(train, test, rt.CFG, y)

    def rmse(A, B):
        model = lgb.train({"objective": "regression", "verbose": -1, "seed": 0, "num_threads": 1},
                          lgb.Dataset(A, y), 200)  # fmt: skip
        return float(np.sqrt(np.mean((model.predict(B) - y_te) ** 2)))

    assert rmse(X, X_te) < 0.8 * rmse(X_plain, X_te_plain)


def test_linear_and_native_matrices_add_a_column_per_level_and_a_category():
    _cfg()
    train, test, y = _marked(_panel())
    X, _ = rt.linear_matrix(train, test, rt.CFG)
    repeated = int((train["entity"].value_counts() >= 2).sum())
    assert X.shape[1] == 4 + repeated  # four numbers (the key's too) + one column per repeated level
    N, _ = rt.native_matrix(train, test, rt.CFG)
    assert "entity_key" in N.columns and "entity_key" in rt.CFG["_categorical"]
    D, _ = rt.dense_matrix(train, test, rt.CFG)  # dense matrices never widen by a key's levels
    assert D.shape[1] == 4
    rt.CFG["_keys"] = []
    X_plain, _ = rt.linear_matrix(train, test, rt.CFG)
    assert X_plain.shape[1] == 4
    assert len(y) == X.shape[0]


def test_the_data_analysis_tells_a_planner_about_shared_keys(tmp_path, monkeypatch):
    """LLM planners read the same finding in the rendered analysis; keys of new entities get the group note."""
    from automind.analysis import analyze
    from automind.prepare import prepare_task
    from automind.task import Task

    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    shared = analyze(Task.load(prepare_task(_panel(), tmp_path / "s", "y", "rmse")))
    assert "'entity': entity keys the test rows share" in shared.render()
    new = analyze(Task.load(prepare_task(_panel(), tmp_path / "n", "y", "rmse", group_col="entity")))
    assert not any("entity keys" in n for n in new.notes) and any("new groups" in n for n in new.notes)
    months = analyze(Task.load(prepare_task(_months(), tmp_path / "m", "y", "rmse")))
    assert "'trend': repeat like keys, but the target's means follow their numbers" in months.render()
    assert not any("entity keys" in n for n in months.notes)


def test_a_key_with_many_levels_is_judged_on_a_bounded_draw_of_whole_levels(monkeypatch):
    """The attribute test groups at most KEY_ATTR_ROWS rows of whole levels, and still finds the key."""
    _cfg()
    train, test = _split(_panel(n_entities=15_000, per=4).drop(columns="rooms"))  # one candidate only
    monkeypatch.setattr(rt, "KEY_ATTR_ROWS", 2_000)
    seen = []
    real = pd.DataFrame.groupby

    def counting(self, *a, **kw):
        seen.append(len(self))
        return real(self, *a, **kw)

    monkeypatch.setattr(pd.DataFrame, "groupby", counting)
    rt.shared_keys(train, test.drop(columns="y"), rt.CFG)
    assert rt.CFG["_keys"] == ["entity"]
    assert seen and max(seen) < 3_000  # whole levels up to the bound, not the 42,000 training rows


def _months(n_months: int = 36, per: int = 60, seed: int = 0) -> pd.DataFrame:
    """A month index that determines that month's advertising (so it passes for a key) and whose target
    means fall steadily with it: a quantity."""
    rng = np.random.default_rng(seed)
    month = np.repeat(np.arange(1, n_months + 1), per)
    ads = rng.integers(50, 300, n_months)[month - 1]
    x = rng.normal(size=len(month))
    return pd.DataFrame({"trend": month, "ads": ads, "x": x,
                         "y": 100.0 - 2.0 * month + 3.0 * x + rng.normal(scale=3.0, size=len(month))})  # fmt: skip


def test_order_ratio_is_near_one_for_arbitrary_numbers_and_near_zero_for_ordered_means():
    _cfg()
    train, _ = _split(_panel(n_entities=200, per=15))
    arbitrary = rt.order_ratio(train["entity"].to_numpy(float), [train["y"].to_numpy()])
    assert arbitrary is not None and 0.7 < arbitrary < 1.3
    months = _months()
    ordered = rt.order_ratio(months["trend"].to_numpy(float), [months["y"].to_numpy()])
    assert ordered is not None and ordered < 0.1
    # the same entities renumbered in the order of their levels: the numbers now carry the level
    ranks = train.groupby("entity")["y"].mean().rank(method="first").astype(int)
    renumbered = train["entity"].map(ranks).to_numpy(float)
    assert rt.order_ratio(renumbered, [train["y"].to_numpy()]) < rt.QUANTITY_RATIO
    # two rows a level and no level effect: whatever the means do is noise, so no verdict
    rng = np.random.default_rng(3)
    for seed in range(5):
        few = np.repeat(np.arange(100), 2).astype(float)
        assert rt.order_ratio(few, [np.random.default_rng(seed).normal(size=200)]) is None
    # a real trend seen through two rows a level is still judged
    assert rt.order_ratio(few, [few / 10 + rng.normal(scale=0.5, size=200)]) < rt.QUANTITY_RATIO


def test_a_marked_key_whose_means_follow_its_numbers_gets_no_per_level_statistics():
    _cfg()
    train, test, y = _marked(_months())
    assert rt.CFG["_keys"] == ["trend"]  # the label-free test marks it: the month fixes the advertising
    X, _ = rt.tree_matrix(train, test, rt.CFG, y)
    assert not [c for c in X.columns if c.endswith("_key")] and X.shape[1] == train.shape[1]
    N, _ = rt.native_matrix(train, test, rt.CFG, y)
    assert "trend_key" not in N.columns and "trend_key" not in rt.CFG["_categorical"]
    L, _ = rt.linear_matrix(train, test, rt.CFG, y)  # the linear one-hot stays: it bends the month's line
    assert L.shape[1] == 3 + train["trend"].nunique()
    # entity keys numbered at random keep their per-level mean on the same path
    train, test, y = _marked(_panel())
    X, _ = rt.tree_matrix(train, test, rt.CFG, y)
    assert [c for c in X.columns if c.endswith("_key")]
