"""bench/task_shapes.py builds what each shape promises, as a task `automind task check` accepts."""

from __future__ import annotations

import importlib.util

import numpy as np
import pandas as pd
import pytest

from automind.csv_scan import text_encoding
from automind.task import Task
from automind.task_checks import check_task

# the shapes added on 2026-12-01 (thirty-eighth part); "large" and the other older ones are slower to build
NEW = ["map3", "multiclass-auc", "latin1", "day-first", "gini", "spearman", "bool-target", "question-marks",
       "odd-names", "tiny-train", "rare-f1", "mixed-types", "zoned-times", "id-last", "parquet", "tsv",
       "positional", "binary-two-columns", "text-macro-f1", "zero-inflated", "big-values", "jpeg-images",
       "text-pairs", "text-cjk", "long-essays", "class-index-columns", "target-in-test", "zero-codes",
       "bom", "zipped", "unnamed-index", "crlf-quoted", "uuid-ids", "mape", "multilabel-logloss",
       "label-commas", "padded-ids", "minus-one-labels", "float-labels", "mostly-missing", "outlier-target",
       "epoch-times", "jsonl", "tsv-gz", "few-values", "three-texts", "r2-skewed", "cohen-kappa", "rmspe",
       "pearson", "fbeta", "median-ae", "msle", "kendall-tau", "integer-regression", "sorted-by-target",
       "trailing-commas", "constant-and-empty", "lat-lon", "json-cells", "one-feature", "quote-all",
       "unseen-class", "side-lookup", "side-many",
       "side-two-keys", "span-extraction", "mcrmse-text", "classification-error", "f1-weighted",
       "target-as-text", "image-regression", "side-unjoinable", "inf-values", "side-in-folder",
       "duplicate-column-names", "big-int-ids"]  # fmt: skip


@pytest.mark.parametrize("name", NEW)
def test_each_new_shape_builds_a_task_that_passes_the_check(name, tmp_path, bench):
    shapes = bench("task_shapes")
    if name == "parquet" and importlib.util.find_spec("pyarrow") is None:
        pytest.skip("writing Parquet needs the parquet extra")
    shapes.make(tmp_path, [name])
    task = Task.load(tmp_path / name)
    assert not check_task(task).problems
    public = task.public_dir
    if name == "latin1":
        assert text_encoding(public / "train.csv") == "cp1252"
    if name == "positional":
        assert "id" not in pd.read_csv(public / "test.csv", nrows=1).columns
    if name == "id-last":
        assert list(pd.read_csv(task.sample_submission_path, nrows=1).columns)[-1] == "id"
    if name == "binary-two-columns":
        assert list(pd.read_csv(task.sample_submission_path, nrows=1).columns) == ["id", "no", "yes"]
    if name == "jpeg-images":
        assert len(list((public / "images").rglob("*.jpg"))) == 360
    if name == "zero-codes":
        assert set(pd.read_csv(task.answers_path, dtype=str)["code"]) == {"01", "02", "03", "04"}
    if name == "bom":
        assert task.sample_submission_path.read_bytes().startswith(b"\xef\xbb\xbf")
    if name == "unnamed-index":
        assert pd.read_csv(public / "test.csv", nrows=1).columns[0] == "Unnamed: 0"
    if name == "crlf-quoted":
        raw = (public / "train.csv").read_bytes()
        assert b"\r\n" in raw and b",\n" in raw and b'""deal""' in raw  # a break and a quote inside a field
    if name == "uuid-ids":
        assert len(pd.read_csv(public / "test.csv", nrows=1)["row_id"].iloc[0]) == 36
    if name == "multilabel-logloss":
        flags = pd.read_csv(task.answers_path).drop(columns="id")
        assert flags.shape[1] == 6 and (flags.sum(axis=1) != 1).any()  # not one-hot: a multi-label task
    if name == "padded-ids":
        assert pd.read_csv(public / "test.csv", dtype=str)["code"].str.len().eq(6).all()
    if name == "tsv-gz":
        assert [p.name for p in task.train_paths] == ["train.tsv.gz"]
    if name == "zipped":
        assert [p.name for p in (*task.train_paths, *task.test_paths)] == ["train.csv.zip", "test.csv.zip"]
    if name == "trailing-commas":
        assert (public / "train.csv").read_text().splitlines()[1].endswith(",")
        assert not task.sample_submission_path.read_text().splitlines()[1].endswith(",")
    if name == "unseen-class":
        assert "dog" in pd.read_csv(task.sample_submission_path, nrows=1).columns
        assert "dog" not in set(pd.read_csv(public / "train.csv")["kind"])
        assert "dog" in set(pd.read_csv(task.answers_path)["kind"])
    if name == "fbeta":
        assert task.spec.metric.params == {"beta": 2.0}
    if name == "sorted-by-target":
        assert pd.read_csv(public / "train.csv")["y"].is_monotonic_increasing
    if name == "quote-all":
        assert (public / "test.csv").read_text().startswith('"id"')
    if name == "side-lookup":  # new shops in test: only their attributes carry over
        stores = pd.read_csv(public / "stores.csv")
        assert stores["store"].is_unique
        assert not set(pd.read_csv(public / "train.csv")["store"]) & set(
            pd.read_csv(public / "test.csv")["store"]
        )
    if name == "side-two-keys":
        feats = pd.read_csv(public / "features.csv")
        assert not feats["store"].is_unique and not feats.duplicated(["store", "week"]).any()
    if name == "target-as-text":
        assert pd.read_csv(public / "train.csv")["y"].str.startswith("$").all()
    if name == "image-regression":
        assert len(list((public / "pics").glob("*.png"))) == 400
    if name == "side-unjoinable":
        assert {"bureau.csv", "loan_months.csv"} <= {p.name for p in public.iterdir()}
    if name == "inf-values":
        assert np.isinf(pd.read_csv(public / "train.csv")["ratio"]).any()
    if name == "side-in-folder":
        assert (public / "extra" / "stores.csv").is_file() and not (public / "stores.csv").exists()
    if name == "duplicate-column-names":
        assert (public / "test.csv").read_text().startswith("id,k0,k1,k1,")
    if name == "big-int-ids":
        assert pd.read_csv(public / "test.csv")["order_id"].min() > 10**18
    if name == "side-many":
        assert not pd.read_csv(public / "bureau.csv")["applicant_id"].is_unique
    if name in ("parquet", "tsv"):
        assert {p.suffix for p in (*task.train_paths, *task.test_paths)} == {f".{name}"}


def test_the_shapes_automind_refuses_are_named_by_the_check(tmp_path, bench):
    bench("task_shapes").make(tmp_path, ["semicolon", "duplicate-test-ids"])
    problems = check_task(Task.load(tmp_path / "semicolon")).problems
    assert len(problems) == 2 and all("separated by ';'" in p for p in problems)  # train and test, each named
    problems = check_task(Task.load(tmp_path / "duplicate-test-ids")).problems
    assert len(problems) == 1 and "duplicated 'id' values" in problems[0]
