"""The data analysis finds schema, target, modalities and media facts, renders compactly, and caches."""

from __future__ import annotations

import json
import wave
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from automind import analysis
from automind.analysis import analyze
from automind.examples import make_example, png_gray
from automind.task import Task

rng = np.random.default_rng(0)
REVIEWS = ["great taste and fast delivery would buy again", "the box arrived crushed and the cookies were stale",
           "not worth the price at all honestly", "my kids love these snacks every single morning"]  # fmt: skip


def make_task(
    root: Path, train: pd.DataFrame, test: pd.DataFrame, sub: pd.DataFrame, metric: str, **spec
) -> Task:
    (root / "public").mkdir(parents=True)
    train.to_csv(root / "public" / "train.csv", index=False)
    test.to_csv(root / "public" / "test.csv", index=False)
    sub.to_csv(root / "public" / "sample_submission.csv", index=False)
    (root / "description.md").write_text("synthetic")
    lines = [f"name: {root.name}", f"metric: {metric}"] + [f"{k}: {json.dumps(v)}" for k, v in spec.items()]
    (root / "task.yaml").write_text("\n".join(lines) + "\n")
    return Task.load(root)


def test_mixed_table_finds_text_time_keys_and_binary_target(tmp_path):
    n = 400
    train = pd.DataFrame({
        "id": range(n),
        "user_id": rng.integers(0, 40, n),
        "item_id": rng.integers(0, 30, n),
        "when": pd.date_range("2021-01-01", periods=n, freq="h").astype(str),
        "review": [f"{REVIEWS[i % 4]} batch {i}" for i in range(n)],
        "price": rng.normal(10, 2, n).round(2),
        "colour": rng.choice(["red", "blue", None], n),
        "clicked": rng.choice([0, 1], n, p=[0.8, 0.2]),
    })  # fmt: skip
    test = train.drop(columns="clicked").head(50)
    task = make_task(tmp_path / "mixed", train, test, test[["id"]].assign(clicked=0.5), "roc_auc")
    da = analyze(task)
    assert da.problem_type == "binary"
    assert da.text_columns == ["review"] and da.datetime_columns == ["when"]
    assert set(da.id_like_columns) == {"user_id", "item_id"}
    assert da.modalities == {"tabular", "text", "time", "ids"}
    assert da.target["clicked"].startswith("2 classes") and "imbalance" in da.target["clicked"]
    cols = {c.name: c for c in da.table("train.csv").columns}
    assert cols["id"].kind == "id" and cols["review"].kind == "text"
    assert 25 < cols["colour"].missing_pct < 42 and cols["colour"].unique == 2
    assert da.table("train.csv").rows == n and da.table("train.csv").role == "train"
    text = da.render()
    assert "binary" in text and "roc_auc, higher is better" in text and "free text" in text
    assert "Same columns as the training table minus clicked" in text


def test_regression_and_skew_hint(tmp_path):
    x = rng.normal(size=300)
    train = pd.DataFrame({"Id": range(300), "x": x, "price": np.exp(x * 1.2 + 11)})
    test = train.drop(columns="price")
    task = make_task(tmp_path / "reg", train, test, test[["Id"]].assign(price=1.0), "rmsle")
    da = analyze(task)
    assert da.problem_type == "regression" and da.lower_is_better is True
    assert "numeric: mean" in da.target["price"] and "log transform" in da.target["price"]


def test_class_probability_columns_point_to_the_label(tmp_path):
    train = pd.DataFrame({"id": range(90), "f": rng.normal(size=90), "species": ["a", "b", "c"] * 30})
    test = train.drop(columns="species")
    sub = test[["id"]].assign(a=1 / 3, b=1 / 3, c=1 / 3)
    da = analyze(make_task(tmp_path / "mc", train, test, sub, "log_loss"))
    assert da.problem_type == "multiclass" and list(da.target) == ["species"]
    assert "3 classes" in da.target["species"] and any("species" in n for n in da.notes)


def test_multilabel_targets(tmp_path):
    train = pd.DataFrame({"id": range(60), "t": ["some words here"] * 60,
                          "toxic": rng.integers(0, 2, 60), "obscene": rng.integers(0, 2, 60)})  # fmt: skip
    test = train[["id", "t"]]
    sub = test[["id"]].assign(toxic=0.5, obscene=0.5)
    da = analyze(make_task(tmp_path / "ml", train, test, sub, "mean_columnwise_roc_auc"))
    assert da.problem_type == "multilabel" and set(da.target) == {"toxic", "obscene"}


def test_images_and_audio_are_summarised(tmp_path):
    train = pd.DataFrame({"id": range(6), "label": [0, 1] * 3})
    task = make_task(tmp_path / "media", train, train[["id"]], train[["id"]].assign(label=0), "accuracy")
    img_dir = task.public_dir / "train_images"
    img_dir.mkdir()
    for i in range(6):
        (img_dir / f"{i}.png").write_bytes(png_gray([[i * 10] * 12 for _ in range(5)]))  # 12 wide, 5 high
    # a minimal JPEG: SOI, APP0, then SOF0 with height 7 and width 9
    (img_dir / "x.jpg").write_bytes(
        b"\xff\xd8\xff\xe0\x00\x04ab\xff\xc0\x00\x0b\x08\x00\x07\x00\x09\x01\x01\x11\x00"
    )
    audio = task.public_dir / "clips"
    audio.mkdir()
    for i in range(3):
        with wave.open(str(audio / f"{i}.wav"), "wb") as w:
            w.setnchannels(1), w.setsampwidth(2), w.setframerate(8000)
            w.writeframes(b"\x00\x00" * 16000)
    da = analyze(task)
    assert da.images.count == 7 and da.images.extensions == {".png": 6, ".jpg": 1}
    assert da.images.sizes["12x5"] == 6 and da.images.sizes["9x7"] == 1
    assert da.audio.count == 3 and "8000 Hz, 1 ch, ~2 s" in da.audio.sizes
    assert {"image", "audio"} <= da.modalities
    text = da.render()
    assert "train_images/ (7 files" in text and "Images: 7 files" in text and "Audio: 3 files" in text


def test_cache_is_reused_and_invalidated(tmp_path, monkeypatch):
    train = pd.DataFrame({"id": range(20), "y": [0, 1] * 10})
    task = make_task(tmp_path / "c", train, train[["id"]], train[["id"]].assign(y=0), "accuracy")
    cache = tmp_path / "run" / "analysis.json"
    first = analyze(task, cache)
    assert cache.is_file() and json.loads(cache.read_text())["problem_type"] == "binary"

    def boom(_task):
        raise AssertionError("recomputed")

    monkeypatch.setattr(analysis, "_analyze", boom)
    assert analyze(task, cache) == first
    (task.public_dir / "extra.csv").write_text("a,b\n1,2\n")
    with pytest.raises(AssertionError, match="recomputed"):
        analyze(task, cache)


def test_large_csv_is_sampled_but_rows_counted(tmp_path, monkeypatch):
    monkeypatch.setattr(analysis, "SAMPLE_ROWS", 1000)
    n = 7000
    train = pd.DataFrame({"id": range(n), "v": rng.normal(size=n), "y": rng.integers(0, 2, n)})
    task = make_task(
        tmp_path / "big", train, train[["id", "v"]].head(10), train[["id"]].head(10).assign(y=0), "accuracy"
    )
    t = analyze(task).table("train.csv")
    assert t.rows == n and not t.rows_estimated
    assert t.columns[0].unique == 1000  # statistics come from the sample


def test_unreadable_table_is_reported_not_fatal(tmp_path):
    train = pd.DataFrame({"id": range(10), "y": [0, 1] * 5})
    task = make_task(tmp_path / "bad", train, train[["id"]], train[["id"]].assign(y=0), "accuracy")
    (task.public_dir / "broken.parquet").write_bytes(b"not a parquet file")
    da = analyze(task)
    assert da.table("broken.parquet").error.startswith("could not read")
    assert "broken.parquet: could not read" in da.render()


def test_render_fits_budget_with_many_columns(tmp_path):
    wide = pd.DataFrame(rng.normal(size=(50, 300)), columns=[f"feature_{i:03d}" for i in range(300)])
    wide.insert(0, "id", range(50))
    wide["y"] = rng.normal(size=50)
    task = make_task(tmp_path / "wide", wide, wide.drop(columns="y"), wide[["id"]].assign(y=0.0), "rmse")
    text = analyze(task).render(max_chars=6000)
    assert len(text) <= 6000 and "Problem: regression" in text and "`y`: numeric" in text


def test_bundled_examples_modalities(tmp_path):
    titanic = analyze(make_example("titanic", tmp_path / "t"))
    assert titanic.problem_type == "binary" and titanic.modalities == {"tabular"}
    reviews = analyze(make_example("food-reviews", tmp_path / "f"))
    assert reviews.text_columns == ["review"] and "text" in reviews.modalities


def test_a_units_row_and_a_repeated_header_are_named_for_the_coder(tmp_path):
    """The recipes leave out a units row and repeated headers (runtime.header_rows), but the analysis an LLM
    plans and codes from summarised every column as text and said nothing, so an LLM's read_csv failed on
    'kg' as the recipes' drafts once did."""
    n = 60
    train = pd.DataFrame({"id": range(n), "mass": rng.random(n), "size": rng.random(n), "y": rng.random(n)})
    test = train.drop(columns="y")
    sub = pd.DataFrame({"id": test["id"], "y": 0.0})
    task = make_task(tmp_path / "t", train, test, sub, "rmse")
    train_path = task.public_dir / "train.csv"
    lines = train_path.read_text().splitlines()
    train_path.write_text("\n".join([lines[0], ",kg,cm,", *lines[1:30], lines[0], *lines[30:]]) + "\n")
    da = analyze(task)
    info = da.table("train.csv")
    assert info is not None and info.not_rows is not None
    assert "units ('kg', 'cm')" in info.not_rows and "skiprows=[1]" in info.not_rows
    assert "1 row(s) repeat the header (the first at data row 31)" in info.not_rows
    assert {c.name: c.kind for c in info.columns}["mass"] == "numeric"
    assert info.not_rows in da.render(20000)
    assert da.table("test.csv").not_rows is None
