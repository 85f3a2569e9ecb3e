"""Side tables (docs/recipes.md, "Input files"): other public tables keyed like the rows, such as a shop's
attributes or an applicant's past loans, are found by the profile and joined by every recipe script."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from automind.analysis import analyze
from automind.config import load_config
from automind.errors import RoleError
from automind.grading import grade
from automind.prepare import prepare_task
from automind.recipes import RecipeRoles
from automind.recipes import runtime as rt
from automind.recipes.profile import profile_task
from automind.roles import Context
from automind.task import Task


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))


def _shops_task(tmp_path, n_shops=60, n=900):
    """Sales that follow only the shop's size (kept in stores.csv); the test rows are new shops."""
    rng = np.random.default_rng(0)
    shops = pd.DataFrame({"store": np.arange(n_shops), "size_m2": rng.uniform(100, 1000, n_shops).round(0),
                          "kind": rng.choice(["mall", "street"], n_shops)})  # fmt: skip
    store = rng.integers(0, n_shops, n)
    y = shops["size_m2"].to_numpy()[store] / 100 + rng.normal(0, 0.1, n)
    df = pd.DataFrame({"store": store, "promo": rng.integers(0, 2, n), "sales": y})
    root = prepare_task(df, tmp_path / "t", "sales", "rmse", group_col="store")
    shops.to_csv(root / "public" / "stores.csv", index=False)
    return root


def test_a_table_with_one_row_per_key_is_joined_as_it_is_keys_meeting_as_text():
    train = pd.DataFrame({"shop": [3.0, 1.0, np.nan, 9.0], "x": [1, 2, 3, 4]})  # a key column with a gap
    test = pd.DataFrame({"shop": [1, 3]})
    table = pd.DataFrame({"shop": ["1", "3", "9"], "size": [10, 30, 90], "x": ["a", "b", "c"]})
    a, b, share, summarised = rt.join_side_frames(train, test, table, "shop", "stores")
    assert not summarised and share == 0.75
    assert list(a.columns) == ["shop", "x", "stores_size", "stores_x"]  # named after the table: no clash
    assert a["stores_size"].tolist()[:2] == [30, 10] and np.isnan(a["stores_size"].iloc[2])  # rows in order
    assert b["stores_size"].tolist() == [10, 30]


def test_a_table_with_several_rows_per_key_is_summarised_per_key():
    train = pd.DataFrame({"id": [5, 6, 7]})
    loans = pd.DataFrame({"id": [5, 5, 6], "days": [1.0, 3.0, 10.0], "status": ["open", "shut", "open"]})
    a, _, share, summarised = rt.join_side_frames(train, train.head(0), loans, "id", "bureau")
    assert summarised and share == pytest.approx(2 / 3)
    assert a["bureau_rows"].tolist() == [2, 1, 0]  # a key the table lacks has no rows, not a gap
    assert a["bureau_days_mean"].tolist()[:2] == [2.0, 10.0] and a["bureau_days_max"].iloc[0] == 3.0
    assert (
        a["bureau_status_open_share"].tolist()[:2] == [0.5, 1.0] and a["bureau_status_distinct"].iloc[0] == 2
    )


def test_the_profile_joins_a_keyed_table_and_says_why_it_leaves_others_out(tmp_path):
    root = _shops_task(tmp_path)
    public = root / "public"
    pd.DataFrame({"store": [0, 1], "sales": [1.0, 2.0]}).to_csv(public / "labels.csv", index=False)
    pd.DataFrame({"store": range(500, 560), "area": 1}).to_csv(public / "elsewhere.csv", index=False)
    pd.DataFrame({"city": ["a"], "pop": [1]}).to_csv(public / "cities.csv", index=False)
    cfg = profile_task(Task.load(root)).cfg()
    assert cfg["side_tables"] == [{"path": "./input/stores.csv", "key": "store"}]
    why = cfg["side_left_out"]
    assert "target column(s) ['sales']" in why["labels.csv"]
    assert "holds only 0%" in why["elsewhere.csv"] and "shares no column" in why["cities.csv"]
    assert any("stores.csv shares the key 'store'" in n for n in analyze(Task.load(root)).notes)
    from typer.testing import CliRunner

    from automind.cli import app

    res = CliRunner().invoke(app, ["task", "check", str(root)])
    text = " ".join(res.output.replace("│", " ").split())
    assert res.exit_code == 0 and "stores.csv: joined on 'store'" in text and "cities.csv: not joined" in text
    roles = RecipeRoles(load_config({}).settings)
    with pytest.raises(RoleError, match=r"cities.csv: it shares no column with both"):
        roles.use_data(Context(task=Task.load(root), action="draft", analysis=""), "", ["cities.csv"])


def test_a_solve_joins_the_side_table_reads_it_through_the_holdout_view_and_scores_new_shops(tmp_path):
    """The test rows are shops the training rows never show, and sales follow only the shop's size: a good
    score needs stores.csv. The holdout view links it; the guard records the read (it was not: the link
    resolved outside input/, so the node said the script never read it)."""
    from typer.testing import CliRunner

    from automind.cli import app

    root = _shops_task(tmp_path)
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["solve", str(root), "--llm", "none", "--steps", "1", "--out", str(out),
                                   "--holdout", "on"])  # fmt: skip
    assert res.exit_code == 0, res.output
    node = json.loads((out / "journal.json").read_text())["nodes"][0]
    assert (
        "stores.csv: 2 columns joined on 'store' (one row per key; 100% of training keys found)"
        in node["output"]
    )
    assert "stores.csv" in node["inputs_read"] and node["unused_inputs"] == []
    assert grade(Task.load(root), out / "submission.csv").score < 0.5  # without the sizes: about 2.6


def test_a_table_keyed_by_two_columns_is_joined_on_both(tmp_path):
    """A shop's conditions of each week (features.csv keyed by shop and week together): neither column names
    one row, the pair does; joined on the pair, not summarised per shop."""
    rng = np.random.default_rng(1)
    weeks = [f"2020-01-{d:02d}" for d in range(1, 29)]
    feats = pd.DataFrame([(s, w) for s in range(6) for w in weeks], columns=["shop", "week"])
    feats["temp"] = rng.normal(size=len(feats))
    rows = feats.sample(n=400, replace=True, random_state=1).reset_index(drop=True)
    df = rows[["shop", "week"]].assign(y=rows["temp"] * 2 + rng.normal(0, 0.1, 400))
    root = prepare_task(df, tmp_path / "t", "y", "rmse")
    feats.to_csv(root / "public" / "features.csv", index=False)
    cfg = profile_task(Task.load(root)).cfg()
    assert cfg["side_tables"] == [{"path": "./input/features.csv", "key": ["shop", "week"]}]
    train = pd.read_csv(root / "public" / "train.csv")
    joined, _, share, summarised = rt.join_side_frames(
        train, train.head(0), feats, ["shop", "week"], "features"
    )
    assert share == 1.0 and not summarised and list(joined.columns[-1:]) == ["features_temp"]
    expected = train.merge(feats, on=["shop", "week"], how="left")["temp"]
    assert np.allclose(joined["features_temp"], expected)


def test_side_tables_in_a_folder_are_found_and_a_folder_of_many_tables_is_left_out(tmp_path):
    root = _shops_task(tmp_path)
    public = root / "public"
    (public / "extra").mkdir()
    (public / "stores.csv").rename(public / "extra" / "stores.csv")
    (public / "series").mkdir()
    for i in range(21):  # a file per series: not side tables
        pd.DataFrame({"store": [i], "t": [1.0]}).to_csv(public / "series" / f"s{i}.csv", index=False)
    cfg = profile_task(Task.load(root)).cfg()
    assert cfg["side_tables"] == [{"path": "./input/extra/stores.csv", "key": "store"}]
    assert cfg["side_left_out"] == {
        "series/": "a folder of 21 tables (a file per series or row?), not read as side tables"
    }


def test_infinite_numbers_become_gaps_before_any_model(tmp_path):
    """A ratio divided by zero ("inf" in the file) crashed the linear draft (scikit-learn refuses infinity):
    its script, run in the sandbox as a search runs it, reads them as gaps and scores."""
    from automind.recipes import State, read_metric
    from automind.recipes.compose import render
    from automind.sandbox import Sandbox

    rng = np.random.default_rng(2)
    x = rng.normal(size=300)
    with np.errstate(divide="ignore"):
        ratio = x / np.where(rng.random(300) < 0.1, 0.0, 1.0)
    df = pd.DataFrame({"x": x, "ratio": ratio, "y": 2 * x})
    task = Task.load(prepare_task(df, tmp_path / "t", "y", "rmse"))
    settings = load_config({}).settings
    roles, ctx, state = (
        RecipeRoles(settings),
        Context(task=task, action="draft", analysis=""),
        State(draft="rcp-linear-baseline"),
    )
    code = render(roles.profile(ctx), state, roles.recipes, defaults=roles.defaults(ctx, state))
    res = Sandbox.from_settings(task, tmp_path / "ws", settings).run_script(code)
    assert res.exc_type is None, res.stdout
    assert "infinite values read as gaps in ['ratio']" in res.stdout
    assert read_metric(res.workspace, res.stdout) < 0.1  # y is 2x: a linear model on x is near exact


def test_a_side_table_that_cannot_be_read_is_left_out_with_the_reason(tmp_path, monkeypatch):
    """A Parquet table without pyarrow (CI has none) raised ImportError out of the data analysis."""
    root = _shops_task(tmp_path)
    (root / "public" / "broken.parquet").write_bytes(b"not a parquet file")
    why = profile_task(Task.load(root)).side_left_out["broken.parquet"]
    assert why.startswith("recipes cannot read broken.parquet")
    monkeypatch.setattr(pd, "read_parquet", lambda *a, **k: (_ for _ in ()).throw(ImportError("no pyarrow")))
    why = profile_task(Task.load(root)).side_left_out["broken.parquet"]
    assert why == "recipes cannot read broken.parquet: ImportError: no pyarrow"
    assert not any("broken.parquet" in n for n in analyze(Task.load(root)).notes)


def _loans_task(tmp_path, n=600):
    """Applicants whose default follows only how often their past loans were paid late: the loans are in
    bureau.csv (keyed by applicant), their monthly records in bureau_balance.csv (keyed by loan only)."""
    rng = np.random.default_rng(5)
    ids = np.arange(1000, 1000 + n)
    count = rng.integers(1, 4, n)
    loans = pd.DataFrame({"loan": np.arange(count.sum()) + 90_000, "applicant": np.repeat(ids, count),
                          "amount": rng.gamma(2, 1000, count.sum()).round(0)})  # fmt: skip
    risk = rng.random(n)
    months = rng.integers(2, 7, len(loans))
    owner_risk = np.repeat(risk, count)
    balance = pd.DataFrame({"loan": np.repeat(loans["loan"].to_numpy(), months),
                            "late": (rng.random(months.sum()) < np.repeat(owner_risk, months)).astype(int)})  # fmt: skip
    df = pd.DataFrame({"applicant": ids, "age": rng.integers(20, 70, n), "default": (risk > 0.6).astype(int)})
    root = prepare_task(df, tmp_path / "loans", "default", "roc_auc", id_col="applicant")
    loans.to_csv(root / "public" / "bureau.csv", index=False)
    balance.to_csv(root / "public" / "bureau_balance.csv", index=False)
    return root


def test_a_table_keyed_by_a_side_tables_column_is_joined_onto_it_first(tmp_path):
    """bureau_balance.csv shares no column with the rows (it was left out): it is summarised per loan, joined
    onto bureau.csv, whose rows are then summarised per applicant; the loan id leaves after its join."""
    pd.DataFrame({"loan": [1, 2, 3], "applicant": [5, 5, 6], "amount": [10.0, 20.0, 30.0]}).to_csv(
        tmp_path / "bureau.csv", index=False
    )
    pd.DataFrame({"loan": [1, 1, 2, 3, 3, 3], "late": [1, 0, 0, 1, 1, 1]}).to_csv(
        tmp_path / "bureau_balance.csv", index=False
    )
    side = {"path": str(tmp_path / "bureau.csv"), "key": "applicant",
            "children": [{"path": str(tmp_path / "bureau_balance.csv"), "key": "loan"}]}  # fmt: skip
    train = pd.DataFrame({"applicant": [5, 6, 7]})
    a, _ = rt.join_side_table(train, train.head(0), side)
    assert a["bureau_bureau_balance_late_mean_mean"].tolist()[:2] == [0.25, 1.0]  # loans 1 and 2; loan 3
    assert a["bureau_bureau_balance_rows_max"].tolist()[:2] == [2, 3] and a["bureau_rows"].tolist() == [
        2,
        1,
        0,
    ]
    assert not [c for c in a.columns if "loan" in c]


def test_the_profile_nests_a_table_keyed_by_a_side_table_and_a_solve_uses_it(tmp_path):
    from typer.testing import CliRunner

    from automind.cli import app

    root = _loans_task(tmp_path)
    pd.DataFrame({"loan": [1, 2], "note": ["a", "b"]}).to_csv(root / "public" / "loan_notes.csv", index=False)
    cfg = profile_task(Task.load(root)).cfg()
    assert cfg["side_tables"] == [{"path": "./input/bureau.csv", "key": "applicant",
                                   "children": [{"path": "./input/bureau_balance.csv", "key": "loan"}]}]  # fmt: skip
    assert "holds only 0% of bureau.csv's keys" in cfg["side_left_out"]["loan_notes.csv"]
    assert any(
        "bureau_balance.csv is keyed by 'loan' of bureau.csv" in n for n in analyze(Task.load(root)).notes
    )
    res = CliRunner().invoke(app, ["task", "check", str(root)])
    text = " ".join(res.output.replace("│", " ").split())
    assert res.exit_code == 0 and "bureau_balance.csv: joined onto bureau.csv on 'loan'" in text
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["solve", str(root), "--llm", "none", "--steps", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    node = json.loads((out / "journal.json").read_text())["nodes"][0]
    assert "bureau_balance.csv: 4 columns joined onto bureau.csv on 'loan'" in node["output"]
    assert "bureau_balance.csv" in node["inputs_read"] and node["unused_inputs"] == ["loan_notes.csv"]
    assert grade(Task.load(root), out / "submission.csv").score > 0.8  # without the balances: about 0.5


def _line_task(tmp_path, seed):
    """800 rows of y = 3x plus a little noise, RMSE."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=800)
    return prepare_task(
        pd.DataFrame({"x": x, "y": 3 * x + rng.normal(0, 0.1, 800)}), tmp_path / "parts", "y", "rmse"
    )


def _in_two_files(root, role, cut):
    """The task's `role` table (train or test) as <role>_part1.csv (its first `cut` rows) and
    <role>_part2.csv, the original removed; the rows as they were."""
    rows = pd.read_csv(root / "public" / f"{role}.csv")
    rows.iloc[:cut].to_csv(root / "public" / f"{role}_part1.csv", index=False)
    rows.iloc[cut:].to_csv(root / "public" / f"{role}_part2.csv", index=False)
    (root / "public" / f"{role}.csv").unlink()
    return rows


def test_training_rows_split_over_two_files_are_all_read(tmp_path):
    """task.yaml lists train_part1.csv and train_part2.csv: the scripts read only the first (half the rows,
    the second reported unread). Every training table with the first one's columns is read now; one with
    other columns is not training rows (and is left to the data-usage check)."""
    from typer.testing import CliRunner

    from automind.cli import app

    root = _line_task(tmp_path, 6)
    train = _in_two_files(root, "train", 300)
    pd.DataFrame({"id": train["id"], "note": "a"}).to_csv(root / "public" / "train_notes.csv", index=False)
    meta = root / "task.yaml"
    meta.write_text(meta.read_text() + "train_files: [train_part1.csv, train_part2.csv, train_notes.csv]\n")
    prof = profile_task(Task.load(root))
    assert prof.cfg()["train_parts"] == ["./input/train_part2.csv"] and prof.n_rows == len(train)
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["solve", str(root), "--llm", "none", "--steps", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    node = json.loads((out / "journal.json").read_text())["nodes"][0]
    assert f"training rows read from 2 files: {len(train)} rows" in node["output"]
    assert {"train_part1.csv", "train_part2.csv"} <= set(node["inputs_read"])


def _fraud_task(tmp_path, n=1200):
    """IEEE-CIS Fraud Detection's layout: the labels in train_transaction.csv, device details for some of
    the payments in train_identity.csv / test_identity.csv (the test half naming its columns id-01 where the
    training half says id_01), the fraud told by those details; task.yaml lists no files."""
    rng = np.random.default_rng(7)
    ids = np.arange(3_000_000, 3_000_000 + n)
    has = rng.random(n) < 0.4
    score = rng.normal(size=n)
    fraud = (has & (score > 0.5)).astype(int)
    df = pd.DataFrame({"TransactionID": ids, "amount": rng.gamma(2, 50, n).round(2), "isFraud": fraud})
    root = prepare_task(df, tmp_path / "fraud", "isFraud", "roc_auc", id_col="TransactionID")
    identity = pd.DataFrame({"TransactionID": ids[has], "id_01": score[has].round(3)})
    pub = root / "public"
    for part in ("train", "test"):
        rows = pd.read_csv(pub / f"{part}.csv")
        (pub / f"{part}.csv").unlink()
        rows.to_csv(pub / f"{part}_transaction.csv", index=False)
        mine = identity[identity["TransactionID"].isin(rows["TransactionID"])]
        mine.rename(columns={"id_01": "id-01"} if part == "test" else {}).to_csv(
            pub / f"{part}_identity.csv", index=False
        )
    return root


def test_the_table_holding_the_target_is_the_main_training_table_and_its_test_partner_the_main_test_table(
    tmp_path,
):
    """Sorted by name, train_identity.csv came before train_transaction.csv and was read as the training
    rows: every node failed with 'cannot tell the target column'. The table holding the target comes first,
    and the test table named as it is (test_transaction.csv) comes first among the test tables."""
    task = Task.load(_fraud_task(tmp_path))
    assert [p.name for p in task.train_paths] == ["train_transaction.csv", "train_identity.csv"]
    assert [p.name for p in task.test_paths] == ["test_transaction.csv", "test_identity.csv"]


def test_a_training_table_with_a_test_table_of_the_same_name_is_joined_as_one_and_a_solve_uses_it(tmp_path):
    """train_identity.csv and test_identity.csv are one table of the payments' own details, found for 40 % of
    them (too few for a side table's 50 %): stacked (id-01 read as id_01) and joined on TransactionID; task
    check says so, the analysis tells a planner, and a solve's submission carries the signal."""
    from typer.testing import CliRunner

    from automind.cli import app

    root = _fraud_task(tmp_path)
    task = Task.load(root)
    prof = profile_task(task)
    assert prof.side_tables == [{"path": "./input/train_identity.csv", "parts": ["./input/test_identity.csv"],
                                 "key": "TransactionID"}]  # fmt: skip
    assert prof.train.endswith("train_transaction.csv") and prof.test.endswith("test_transaction.csv")
    res = CliRunner().invoke(app, ["task", "check", str(root)])
    text = " ".join(res.output.replace("│", " ").split())
    assert "train_identity.csv with test_identity.csv: joined on 'TransactionID'" in text
    notes = " ".join(analyze(task).notes)
    assert "train_identity.csv (training rows) and test_identity.csv (test rows)" in notes
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["solve", str(root), "--llm", "none", "--steps", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    node = json.loads((out / "journal.json").read_text())["nodes"][0]
    assert "test_identity.csv: 1 column names read as train_identity.csv's" in node["output"]
    assert {"train_identity.csv", "test_identity.csv"} <= set(node["inputs_read"])
    assert grade(task, out / "submission.csv").score > 0.9  # the amount alone tells nothing: about 0.5


def test_a_training_table_without_a_test_partner_is_left_out_with_the_reason(tmp_path):
    """Its columns would be missing from every test row: named, not joined."""
    root = _fraud_task(tmp_path)
    (root / "public" / "test_identity.csv").unlink()
    prof = profile_task(Task.load(root))
    assert prof.side_tables == []
    assert "without a test table named test_identity.csv" in prof.side_left_out["train_identity.csv"]


def test_test_rows_split_over_two_files_are_all_read(tmp_path):
    """task.yaml lists test_part1.csv and test_part2.csv: the scripts read only the first, and every
    submission missed the second file's ids. Every test table with the first one's columns is read now."""
    from typer.testing import CliRunner

    from automind.cli import app

    root = _line_task(tmp_path, 8)
    test = _in_two_files(root, "test", 70)
    meta = root / "task.yaml"
    meta.write_text(meta.read_text() + "test_files: [test_part1.csv, test_part2.csv]\n")
    prof = profile_task(Task.load(root))
    assert prof.cfg()["test_parts"] == ["./input/test_part2.csv"] and prof.side_tables == []
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["solve", str(root), "--llm", "none", "--steps", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    node = json.loads((out / "journal.json").read_text())["nodes"][0]
    assert f"test rows read from 2 files: {len(test)} rows" in node["output"]
    assert grade(Task.load(root), out / "submission.csv").score < 0.5


def test_a_json_table_with_list_cells_is_read_with_the_lists_as_text_and_solved(tmp_path):
    """What's Cooking gave train.json as an array of recipes, each with a list of ingredients: every draft
    failed on 'unhashable type: list'. List and object cells are read as their JSON text, and their words
    carry the signal."""
    from typer.testing import CliRunner

    from automind.cli import app

    own = {
        "italian": ["basil", "parmesan"],
        "mexican": ["tortilla", "jalapeno"],
        "indian": ["turmeric", "ghee"],
    }
    rows = []
    for i in range(600):
        cuisine = list(own)[i % 3]
        rows.append(
            {"id": i, "cuisine": cuisine, "ingredients": "|".join([own[cuisine][i % 2], "salt", "onion"])}
        )
    root = prepare_task(pd.DataFrame(rows), tmp_path / "cooking", "cuisine", "accuracy", id_col="id")
    for part in ("train", "test"):
        frame = pd.read_csv(root / "public" / f"{part}.csv")
        frame["ingredients"] = frame["ingredients"].str.split("|")
        (root / "public" / f"{part}.json").write_text(frame.to_json(orient="records"))
        (root / "public" / f"{part}.csv").unlink()
    frame = rt.read_table(root / "public" / "train.json")
    assert frame["ingredients"].map(type).eq(str).all() and '"salt"' in frame["ingredients"].iloc[0]
    assert profile_task(Task.load(root)).n_features == 1  # the ingredients: read, not an error
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["solve", str(root), "--llm", "none", "--steps", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert grade(Task.load(root), out / "submission.csv").score > 0.9


def _seedlings_task(root, n=150):
    """Plant Seedlings Classification's layout: train/<species>/<image>.png, test/<image>.png, no table; the
    sample names each test file; the species shows in which colour fills the middle."""
    from PIL import Image

    rng = np.random.default_rng(10)
    species = ["Charlock", "Cleavers", "Maize"]
    rows = []
    for i in range(n):
        label = species[i % 3]
        img = rng.integers(0, 60, size=(16, 16, 3)).astype(np.uint8)
        img[4:12, 4:12, i % 3] = 220
        folder = root / "public" / ("test" if i % 5 == 0 else f"train/{label}")
        folder.mkdir(parents=True, exist_ok=True)
        Image.fromarray(img).save(folder / f"{i:04d}.png")
        if i % 5 == 0:
            rows.append({"file": f"{i:04d}.png", "species": label})
    answers = pd.DataFrame(rows)
    (root / "private").mkdir(parents=True)
    answers.to_csv(root / "private" / "answers.csv", index=False)
    answers.assign(species="Maize").to_csv(root / "public" / "sample_submission.csv", index=False)
    (root / "description.md").write_text("# Seedlings\n\nName each test image's species.\n")
    (root / "task.yaml").write_text("name: seedlings\nmetric:\n  name: accuracy\n")
    return root


def test_training_images_in_a_folder_per_class_are_the_training_rows(tmp_path):
    """No training table, the images in train/<species>/: every draft failed ('recipes need a train table').
    A training row per image (its folder the label), a test row per sample id (the image it names); the
    input files are left as they were."""
    from typer.testing import CliRunner

    from automind.cli import app

    root = _seedlings_task(tmp_path / "seedlings")
    before = sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))
    prof = profile_task(Task.load(root))
    assert prof.cfg()["class_folders"] is True and prof.image_col == "image_path"
    assert prof.n_rows == 120 and prof.problem == "multiclass"
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["solve", str(root), "--llm", "none", "--steps", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    node = json.loads((out / "journal.json").read_text())["nodes"][0]
    assert "120 training images in 3 class folders, 30 test images" in node["output"]
    assert grade(Task.load(root), out / "submission.csv").score > 0.9  # the sample's: a third
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == before


def test_a_sample_id_naming_no_test_image_is_a_clear_error_and_task_check_warns_of_it(tmp_path):
    """Before, `task check` said nothing: the profile's error was swallowed there, and only the solve's
    drafts named it."""
    from typer.testing import CliRunner

    from automind.cli import app

    root = _seedlings_task(tmp_path / "seedlings")
    res = CliRunner().invoke(app, ["task", "check", str(root)], env={"COLUMNS": "300"})
    assert res.exit_code == 0, res.output
    assert "120 training images in 3 class folders (fewest: Charlock, 40); 30 test images" in res.output
    assert "offline recipes cannot read" not in res.output
    (root / "public" / "test" / "0000.png").unlink()
    with pytest.raises(RoleError, match=r"1 of 30 sample submission ids name no image .*'0000.png'"):
        profile_task(Task.load(root))
    res = CliRunner().invoke(app, ["task", "check", str(root)], env={"COLUMNS": "300"})
    assert (
        "the offline recipes cannot read this task: 1 of 30 sample submission ids name no image" in res.output
    )
    assert "class folders" not in res.output


def _essays_task(root, test_table=False, n=400):
    """Feedback Prize's layout: train.csv holds an id and a score, each essay is train/<id>.txt or
    test/<id>.txt; the score follows the count of good words."""
    rng = np.random.default_rng(11)
    pub, priv = root / "public", root / "private"
    for d in (pub / "train", pub / "test", priv):
        d.mkdir(parents=True, exist_ok=True)
    rows = {"train": [], "test": []}
    for i in range(n):
        good = int(rng.integers(0, 6))
        words = ["because"] * good + list(rng.choice(["the", "school", "day", "we"], 12))
        rng.shuffle(words)
        role = "test" if i % 4 == 0 else "train"
        (pub / role / f"E{i:05d}.txt").write_text(" ".join(words) + "\n\nThe end.\n")
        rows[role].append({"essay_id": f"E{i:05d}", "score": float(good)})
    pd.DataFrame(rows["train"]).to_csv(pub / "train.csv", index=False)
    answers = pd.DataFrame(rows["test"])
    answers.to_csv(priv / "answers.csv", index=False)
    answers.assign(score=2.0).to_csv(pub / "sample_submission.csv", index=False)
    if test_table:
        answers[["essay_id"]].to_csv(pub / "test.csv", index=False)
    (root / "description.md").write_text("# Essays\n\nScore each essay.\n")
    (root / "task.yaml").write_text("name: essays\nmetric:\n  name: rmse\n")
    return root


@pytest.mark.parametrize("test_table", [False, True])
def test_texts_given_as_a_file_per_row_are_read_into_a_text_column_and_solved(tmp_path, test_table):
    """Feedback Prize's layout (train.csv of ids and scores, the essays as train/<id>.txt and test/<id>.txt,
    often no test table) gave no valid submission: 'recipes need a test table'. Each row's text is read
    from its file; the test rows are the sample's ids when no table lists them; task check and the data
    analysis say so; the input files are left as they were."""
    from typer.testing import CliRunner

    from automind.analysis import analyze
    from automind.cli import app

    root = _essays_task(tmp_path / "essays", test_table)
    before = {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    prof = profile_task(Task.load(root))
    assert prof.text_files == {"train": "./input/train", "test": "./input/test", "column": "text"}
    assert prof.text_cols == ["text"] and prof.n_rows == 300
    assert prof.test == ("./input/test.csv" if test_table else "./input/sample_submission.csv")
    notes = " ".join(analyze(Task.load(root)).notes)
    assert "train/<essay_id>.txt for the training rows" in notes
    assert ("no test table" in notes) is not test_table
    check = CliRunner().invoke(app, ["task", "check", str(root)], env={"COLUMNS": "300"})
    assert check.exit_code == 0 and "each row's text read from train/<essay_id>.txt" in check.output
    if test_table:
        return  # the solve below is the same with the test ids read from test.csv
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["solve", str(root), "--llm", "none", "--steps", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    report = grade(Task.load(root), out / "submission.csv")
    assert report.valid and report.score < 0.5  # the sample's constant: about 1.7
    assert {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()} == before


def test_a_text_folder_that_names_few_ids_is_not_read_as_the_rows_texts(tmp_path):
    root = _essays_task(tmp_path / "essays", test_table=True)
    for p in sorted((root / "public" / "train").iterdir())[:100]:  # a third of the training essays gone
        p.unlink()
    assert profile_task(Task.load(root)).text_files is None
