"""The framework holdout: how rows are chosen, the input view, separating a submission, the noise band, and
the data-usage facts the sandbox's guard records."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from automind.config import load_config
from automind.datause import optional_inputs, unused_inputs
from automind.grading import validate_submission
from automind.holdout import HoldoutUnavailable, build_holdout, gap, load_holdout, pooled, separate
from automind.holdout.score import bootstrap_se
from automind.metrics import get_metric
from automind.prepare import prepare_task
from automind.sandbox import Sandbox
from automind.task import Task


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))


def _binary(n: int = 600, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    return pd.DataFrame(
        {"x": x, "g": rng.choice(list("abcdef"), n), "y": (x + rng.normal(0.5, size=n) > 0).astype(int)}
    )


def _task(root: Path, df: pd.DataFrame, metric: str = "accuracy", **kw) -> Task:
    return Task.load(prepare_task(df, root, "y", metric, name=root.name, **kw))


def _write(root: Path, train: pd.DataFrame, test: pd.DataFrame, sample: pd.DataFrame, yaml: str) -> Task:
    (root / "public").mkdir(parents=True)
    train.to_csv(root / "public" / "train.csv", index=False)
    test.to_csv(root / "public" / "test.csv", index=False)
    sample.to_csv(root / "public" / "sample_submission.csv", index=False)
    (root / "description.md").write_text("# t\nPredict y.\n")
    (root / "task.yaml").write_text(yaml)
    return Task.load(root)


def test_stratified_split_writes_a_view_without_the_holdout_labels(tmp_path):
    task = _task(tmp_path / "t", _binary())
    h = build_holdout(task, tmp_path / "run" / "holdout", fraction=0.2, seed=3, min_rows=100)
    train = pd.read_csv(task.public_dir / "train.csv")
    assert h.strategy == "stratified" and h.n_holdout == pytest.approx(0.2 * len(train), abs=2)
    share = train.loc[h.rows, "y"].mean()
    assert share == pytest.approx(train["y"].mean(), abs=0.02)  # the same share of each class
    view_train = pd.read_csv(h.inputs / "train.csv")
    view_test = pd.read_csv(h.inputs / "test.csv")
    view_sample = pd.read_csv(h.inputs / "sample_submission.csv")
    held_ids = set(train.loc[h.rows, "id"])
    assert len(view_train) == h.n_seen == len(train) - h.n_holdout and not held_ids & set(view_train["id"])
    assert "y" not in view_test.columns and held_ids <= set(view_test["id"])  # features only, no label
    assert list(view_sample["id"]) == list(view_test["id"])  # one submission row per test row, same order
    answers = pd.read_csv(h.root / "score" / "private" / "answers.csv")
    assert set(answers["id"]) == held_ids and not (h.inputs / "answers.csv").exists()
    again = load_holdout(h.root)
    assert again is not None and again.rows == h.rows and again.layout == h.layout
    other = build_holdout(task, tmp_path / "run2", fraction=0.2, seed=3)
    assert other.rows == h.rows  # seeded: the same rows every time


def test_a_column_no_test_row_fills_stays_empty_in_the_holdout_rows(tmp_path):
    """A sensor empty in every test row: the held rows appended to the view's test file leave it empty too,
    so the search scores them as the test rows will be predicted (with the column the scripts' clean step
    then drops); other columns keep their values."""
    task = _task(tmp_path / "t", _binary().assign(sensor=np.arange(600.0)))
    test_path = task.public_dir / "test.csv"
    pd.read_csv(test_path).assign(sensor=np.nan).to_csv(test_path, index=False)
    h = build_holdout(task, tmp_path / "h", fraction=0.2, seed=0)
    view_test = pd.read_csv(h.inputs / "test.csv")
    assert len(view_test) > len(pd.read_csv(test_path)) and view_test["sensor"].isna().all()
    assert view_test["x"].notna().all()
    assert any("['sensor'] empty in every test row" in n for n in h.notes)
    from automind.analysis import analyze

    assert any(
        "columns no test row fills (every test value read is a gap): sensor" in n for n in analyze(task).notes
    )


def test_time_split_holds_out_the_latest_rows(tmp_path):
    days = pd.date_range("2020-01-01", periods=500, freq="D").strftime("%Y-%m-%d")
    rng = np.random.default_rng(0)
    train = pd.DataFrame(
        {"id": range(400), "date": days[:400], "x": rng.normal(size=400), "y": rng.normal(size=400)}
    )
    test = pd.DataFrame({"id": range(400, 500), "date": days[400:], "x": rng.normal(size=100)})
    sample = pd.DataFrame({"id": test["id"], "y": 0.0})
    task = _write(
        tmp_path / "t", train, test, sample, "name: t\nmetric: rmse\nid_column: id\ntarget_columns: [y]\n"
    )
    h = build_holdout(task, tmp_path / "h", fraction=0.1, seed=0)
    assert h.strategy == "time" and "date" in h.detail
    assert sorted(h.rows) == list(range(360, 400))  # the latest 40 days


def test_group_split_keeps_users_whole_when_test_users_are_new(tmp_path):
    rng = np.random.default_rng(0)
    users = np.repeat(np.arange(60), 8)
    train = pd.DataFrame(
        {"id": range(480), "user_id": users, "x": rng.normal(size=480), "y": rng.integers(0, 2, 480)}
    )
    test = pd.DataFrame(
        {"id": range(480, 560), "user_id": np.repeat(np.arange(60, 70), 8), "x": rng.normal(size=80)}
    )
    sample = pd.DataFrame({"id": test["id"], "y": 0})
    yaml = "name: t\nmetric: accuracy\nid_column: id\ntarget_columns: [y]\nproblem_type: binary\n"
    task = _write(tmp_path / "t", train, test, sample, yaml)
    h = build_holdout(task, tmp_path / "h", fraction=0.15, seed=0)
    assert h.strategy == "group" and "user_id" in h.detail
    held = set(train.loc[h.rows, "user_id"])
    assert not held & set(train.drop(index=h.rows)["user_id"])  # no user on both sides


def test_colliding_ids_are_renamed_and_missing_test_ids_follow_positions(tmp_path):
    rng = np.random.default_rng(1)
    train = pd.DataFrame({"id": range(300), "x": rng.normal(size=300), "y": rng.normal(size=300)})
    test = pd.DataFrame({"id": range(100), "x": rng.normal(size=100)})  # the same ids as training rows
    sample = pd.DataFrame({"id": test["id"], "y": 0.0})
    task = _write(tmp_path / "t", train, test, sample, "name: t\nmetric: rmse\nid_column: id\n")
    h = build_holdout(task, tmp_path / "h", fraction=0.1, seed=0)
    assert h.renamed_ids and min(int(i) for i in h.ids) == 300 and h.notes

    no_ids = test.drop(columns=["id"])
    positional = pd.DataFrame({"row": range(100), "y": 0.0})
    task2 = _write(tmp_path / "t2", train, no_ids, positional, "name: t2\nmetric: rmse\nid_column: row\n")
    h2 = build_holdout(task2, tmp_path / "h2", fraction=0.1, seed=0)
    assert not h2.layout.id_in_test and h2.renamed_ids
    view = pd.read_csv(h2.inputs / "sample_submission.csv")
    assert list(view["row"][-h2.n_holdout :]) == [int(i) for i in h2.ids] and len(view) == 100 + h2.n_holdout


@pytest.mark.parametrize(
    "change, why",
    [
        ("tiny", "only 40 labelled training rows"),
        ("two_train", "2 training files"),
        ("parquet", "only delimited tables"),
        ("rows", "one submission row per test row"),
        ("ranking", "scores rankings"),
    ],
)
def test_layouts_the_holdout_refuses_say_why(tmp_path, change, why):
    rng = np.random.default_rng(0)
    n = 40 if change == "tiny" else 300
    train = pd.DataFrame({"id": range(n), "x": rng.normal(size=n), "y": rng.integers(0, 2, n)})
    test = pd.DataFrame({"id": range(1000, 1100), "x": rng.normal(size=100)})
    sample = pd.DataFrame({"id": test["id"], "y": 0})
    metric = "map@3" if change == "ranking" else "accuracy"
    task = _write(tmp_path / "t", train, test, sample, f"name: t\nmetric: {metric}\nid_column: id\n")
    if change == "two_train":
        train.to_csv(task.public_dir / "train_extra.csv", index=False)
    if change == "parquet":
        (task.public_dir / "train.csv").rename(task.public_dir / "train.parquet")
    if change == "rows":
        pd.concat([sample, sample.head(3)]).to_csv(task.public_dir / "sample_submission.csv", index=False)
    task = Task.load(task.root)
    with pytest.raises(HoldoutUnavailable, match=why):
        build_holdout(task, tmp_path / "h", fraction=0.15, seed=0, min_rows=200)
    assert not (tmp_path / "h").exists()  # nothing written when refused


def test_other_inputs_are_shown_unchanged(tmp_path):
    task = _task(tmp_path / "t", _binary(300))
    (task.public_dir / "extra").mkdir()
    (task.public_dir / "extra" / "notes.txt").write_text("hello")
    h = build_holdout(Task.load(task.root), tmp_path / "h", fraction=0.15, seed=0)
    assert (h.inputs / "extra" / "notes.txt").read_text() == "hello" and h.layout.others == ["extra"]
    # a script walking input/ finds the folder's files (folder symlinks would be skipped by os.walk)
    s = load_config({}, environ={}, cwd=Path("/nonexistent")).settings
    code = "import os\nprint(sorted(f for _, _, fs in os.walk('input') for f in fs))\n"
    res = Sandbox.from_settings(task, tmp_path / "wd", s, inputs=h.inputs).run_script(code)
    assert res.ok and "notes.txt" in res.stdout and "train.csv" in res.stdout, res.output


def _predict(task: Task, h, value_of) -> Path:
    """A submission for the view, written as a script would: every test row, holdout rows included."""
    sample = pd.read_csv(h.inputs / "sample_submission.csv")
    test = pd.read_csv(h.inputs / "test.csv")
    sub = sample.copy()
    sub["y"] = [value_of(r) for _, r in test.iterrows()]
    path = h.root.parent / "ws" / "submission.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    sub.sample(frac=1.0, random_state=0).to_csv(path, index=False)  # any row order: matched by id
    return path


def test_separate_keeps_the_test_rows_in_sample_order_and_scores_the_holdout(tmp_path):
    df = _binary(800)
    task = _task(tmp_path / "t", df)
    h = build_holdout(task, tmp_path / "run" / "holdout", fraction=0.2, seed=0)
    train = pd.read_csv(task.public_dir / "train.csv").set_index("id")
    truth = train["y"].to_dict()
    path = _predict(task, h, lambda r: truth.get(r["id"], 1))  # perfect on the holdout rows
    sep = separate(h, task, path, tmp_path / "held.csv")
    assert (
        sep.error is None and sep.score is not None and sep.score.value == 1.0 and sep.score.n == h.n_holdout
    )
    written = pd.read_csv(path)
    assert list(written["id"]) == list(
        pd.read_csv(task.sample_submission_path)["id"]
    )  # the real task's order
    validate_submission(task, path)  # the node's submission is valid for the real task
    assert len(pd.read_csv(tmp_path / "held.csv")) == h.n_holdout

    path = _predict(task, h, lambda r: 1 - truth.get(r["id"], 0))
    assert separate(h, task, path, tmp_path / "held.csv").score.value == 0.0
    broken = _predict(task, h, lambda r: 1)
    pd.read_csv(broken).head(10).to_csv(broken, index=False)
    sep = separate(h, task, broken, tmp_path / "held.csv")
    assert sep.error and "holdout rows" in sep.error and sep.score is None


def test_proba_submission_against_one_label_column(tmp_path):
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=500), "y": rng.choice(["a", "b", "c"], 500)})
    task = _task(tmp_path / "t", df, metric="log_loss")
    h = build_holdout(task, tmp_path / "h", fraction=0.2, seed=0)
    assert h.layout.label_cols == ["y"] and h.layout.pred_cols == ["a", "b", "c"]
    sample = pd.read_csv(h.inputs / "sample_submission.csv")
    for c in ("a", "b", "c"):
        sample[c] = 1 / 3
    path = tmp_path / "sub.csv"
    sample.to_csv(path, index=False)
    sep = separate(h, task, path, tmp_path / "held.csv")
    assert sep.score is not None and sep.score.value == pytest.approx(math.log(3), rel=1e-6)


def test_bootstrap_standard_error_matches_the_binomial_formula():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    pred = np.where(rng.random(400) < 0.8, y, 1 - y)
    se, used = bootstrap_se(get_metric("accuracy"), y, pred, {}, seed=0)
    p = float(np.mean(y == pred))
    assert used >= 30 and se == pytest.approx(math.sqrt(p * (1 - p) / 400), rel=0.25)


def test_noise_band_flags_only_a_gap_beyond_z_standard_errors():
    kw = {"n_holdout": 150, "n_seen": 850, "z": 3.0}
    band = 3.0 * 0.03 * math.sqrt(1 + 150 / 850)
    assert gap(0.95, 0.80, 0.03, lower_is_better=False, **kw).suspect  # 0.15 > 0.098
    g = gap(0.85, 0.80, 0.03, lower_is_better=False, **kw)
    assert not g.suspect and g.band == pytest.approx(band) and g.gap == pytest.approx(0.05)
    assert gap(0.10, 0.30, 0.03, lower_is_better=True, **kw).suspect  # rmse 0.10 claimed, 0.30 measured
    assert not gap(0.30, 0.10, 0.03, lower_is_better=True, **kw).suspect  # worse than measured: fine
    assert not gap(0.99, 0.5, float("nan"), lower_is_better=False, **kw).suspect  # no estimate, no flag


def test_pooled_score_is_the_inverse_variance_mean_under_the_band_model():
    """Weights 1/SE_h^2 for the holdout and 1/(SE_h^2 * n_holdout / n_seen) for the script's own score: the
    standard error cancels and the larger sample weighs more."""
    se_h, n_h, n_s = 0.03, 150, 850
    w_h, w_o = 1 / se_h**2, 1 / (se_h**2 * n_h / n_s)
    want = (w_h * 0.80 + w_o * 0.86) / (w_h + w_o)
    assert pooled(0.86, 0.80, n_holdout=n_h, n_seen=n_s) == pytest.approx(want)
    assert pooled(0.86, 0.80, n_holdout=n_h, n_seen=n_s) == pytest.approx(0.851)
    assert pooled(0.5, 0.80, n_holdout=10, n_seen=0) == 0.80  # no rows seen: the holdout alone


def test_optional_inputs_come_from_the_description():
    desc = "Use train.csv. The file weather.csv is optional. stores.csv holds store metadata."
    assert optional_inputs(desc, ["train.csv", "weather.csv", "stores.csv"]) == {"weather.csv"}


def test_the_guard_records_what_a_script_read(tmp_path):
    task = _task(tmp_path / "t", _binary(300))
    (task.public_dir / "stores.csv").write_text("store,size\n1,2\n")
    (task.public_dir / "images").mkdir()
    (task.public_dir / "images" / "a.png").write_bytes(b"x")
    task = Task.load(task.root)
    s = load_config({}, environ={}, cwd=Path("/nonexistent")).settings
    code = (
        "import os, pandas as pd\n"
        "pd.read_csv('input/train.csv')\n"
        "open('input/test.csv').read()\n"
        "os.listdir('input/images')\n"
    )
    res = Sandbox.from_settings(task, tmp_path / "wd", s).run_script(code)
    assert res.ok, res.output
    assert res.inputs_read == ["images", "test.csv", "train.csv"]
    assert unused_inputs(task, res.inputs_read) == ["stores.csv"]  # the sample submission is a template
    task.description += "\nstores.csv is optional.\n"
    assert unused_inputs(task, res.inputs_read) == []
    assert unused_inputs(task, []) == []  # read nothing through Python: not judged


def test_a_large_table_holds_out_about_max_rows_whatever_the_share(tmp_path):
    task = _task(tmp_path / "t", _binary(n=3000))
    train = pd.read_csv(task.public_dir / "train.csv")
    h = build_holdout(task, tmp_path / "h", fraction=0.2, seed=0, max_rows=300)
    assert h.strategy == "stratified" and h.n_holdout == pytest.approx(300, abs=2) and h.max_rows == 300
    assert train.loc[h.rows, "y"].mean() == pytest.approx(train["y"].mean(), abs=0.03)  # classes' shares kept
    assert h.n_seen == len(train) - h.n_holdout and h.describe()["max_rows"] == 300
    numbers = _task(tmp_path / "r", _binary(n=3000).assign(y=lambda d: d["x"] * 2.0), metric="rmse")
    r = build_holdout(numbers, tmp_path / "hr", fraction=0.2, seed=0, max_rows=300)
    assert r.strategy == "random" and r.n_holdout == 300
    # below the cap the share is what it was, and no cap is the share alone
    small = build_holdout(task, tmp_path / "h2", fraction=0.05, seed=0, max_rows=300)
    uncapped = build_holdout(task, tmp_path / "h3", fraction=0.2, seed=0)
    assert small.n_holdout == pytest.approx(0.05 * len(train), abs=2)
    assert uncapped.n_holdout == pytest.approx(0.2 * len(train), abs=2) and uncapped.max_rows is None


def test_a_split_saved_before_the_cap_existed_still_loads(tmp_path):
    import json

    task = _task(tmp_path / "t", _binary())
    h = build_holdout(task, tmp_path / "h", fraction=0.2, seed=0)
    saved = json.loads((h.root / "holdout.json").read_text())
    del saved["max_rows"]
    (h.root / "holdout.json").write_text(json.dumps(saved))
    again = load_holdout(h.root)
    assert again is not None and again.rows == h.rows and again.max_rows is None


def test_a_sample_that_renames_the_target_still_gets_a_holdout(tmp_path):
    """Batch 47: a sample naming the target 'Survived' (or 'Predicted') where the training file says
    'survived' left the search without a holdout ('cannot tell which training columns hold the answers')."""
    import yaml

    from automind.holdout.layout import read_layout

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=300), "survived": rng.integers(0, 2, 300)})
    root = prepare_task(df, tmp_path / "t", "survived", "log_loss")
    for f in (root / "public/sample_submission.csv", root / "private/answers.csv"):
        pd.read_csv(f).rename(columns={"survived": "Survived"}).to_csv(f, index=False)
    spec = yaml.safe_load((root / "task.yaml").read_text())
    spec.pop("target_columns", None)
    (root / "task.yaml").write_text(yaml.safe_dump(spec))
    task = Task.load(root)
    layout = read_layout(task)[0]
    assert layout.label_cols == ["survived"] and layout.pred_cols == ["Survived"]
    h = build_holdout(task, tmp_path / "h", fraction=0.2, seed=0)
    answers = pd.read_csv(h.root / "score/private/answers.csv")
    assert list(answers.columns) == ["id", "Survived"] and set(answers["Survived"]) <= {0, 1}
