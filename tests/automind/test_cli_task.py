"""CLI: task prepare/check/fetch and grade, run through typer's CliRunner; fetch with a fake Kaggle API."""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from automind.cli import app
from automind.kaggle_fetch import FetchError, fetch_competition, has_credentials

runner = CliRunner()


@pytest.fixture()
def data_csv(tmp_path):
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"a": rng.random(80), "b": rng.integers(0, 3, 80), "label": rng.choice(["x", "y"], 80)})
    path = tmp_path / "data.csv"
    df.to_csv(path, index=False)
    return path


def _prepare(data_csv, out, *extra):
    return runner.invoke(app, ["task", "prepare", str(out), "--data", str(data_csv), "--target", "label",
                               "--metric", "accuracy", *extra])  # fmt: skip


def test_prepare_check_grade(data_csv, tmp_path):
    out = tmp_path / "task"
    r = _prepare(data_csv, out, "--test-size", "0.25", "--seed", "3")
    assert r.exit_code == 0, r.output
    assert (out / "private/answers.csv").is_file() and "prepared" in r.output
    r = runner.invoke(app, ["task", "check", str(out)])
    assert r.exit_code == 0, r.output
    assert "accuracy" in r.output and "higher is better" in r.output and "train.csv" in r.output
    answers = out / "private/answers.csv"
    r = runner.invoke(app, ["grade", str(out), str(answers), "--json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.output)
    assert report["valid"] and report["score"] == 1.0 and report["n_rows"] == 20
    r = runner.invoke(app, ["grade", str(out), str(out / "public/test.csv")])
    assert r.exit_code == 1 and "missing column" in r.output


def test_prepare_refuses_non_empty_dir(data_csv, tmp_path):
    out = tmp_path / "busy"
    out.mkdir()
    (out / "notes.txt").write_text("x")
    r = _prepare(data_csv, out)
    assert r.exit_code == 1 and "--force" in r.output and not (out / "public").exists()
    assert _prepare(data_csv, out, "--force").exit_code == 0


def test_prepare_bad_target_lists_columns(data_csv, tmp_path):
    r = runner.invoke(app, ["task", "prepare", str(tmp_path / "o"), "--data", str(data_csv), "--target", "nope",
                            "--metric", "accuracy"])  # fmt: skip
    assert r.exit_code == 1 and "a, b, label" in r.output
    r = runner.invoke(app, ["task", "prepare", str(tmp_path / "o"), "--data", str(data_csv), "--target", "label",
                            "--metric", "wat"])  # fmt: skip
    assert r.exit_code == 1 and "Known metrics" in r.output


def test_check_names_every_problem(data_csv, tmp_path):
    out = tmp_path / "task"
    _prepare(data_csv, out)
    (out / "description.md").unlink()
    (out / "public/train.csv").unlink()
    r = runner.invoke(app, ["task", "check", str(out)])
    assert r.exit_code == 1 and "2 problem(s)" in r.output
    assert "description.md" in r.output and "no training data" in r.output


def test_check_summarises_folders_so_data_files_stay_visible(data_csv, tmp_path):
    out = tmp_path / "task"
    assert _prepare(data_csv, out).exit_code == 0
    (out / "public/images").mkdir()
    for i in range(40):
        (out / f"public/images/{i}.png").write_bytes(b"x" * 10)
    r = runner.invoke(app, ["task", "check", str(out)])
    assert r.exit_code == 0, r.output
    assert "train.csv" in r.output and "test.csv" in r.output and "sample_submission.csv" in r.output
    assert "images/" in r.output and "40 files" in r.output and "7.png" not in r.output


def test_grade_without_answers(data_csv, tmp_path):
    out = tmp_path / "task"
    _prepare(data_csv, out)
    (out / "private/answers.csv").unlink()
    r = runner.invoke(app, ["grade", str(out), str(out / "public/sample_submission.csv")])
    assert r.exit_code == 1 and "no private answers" in r.output


class FakeKaggle:
    """Stands in for the Kaggle API: writes a zipped competition like Kaggle serves it."""

    def __init__(self, metric="CategorizationAccuracy", fail=None):
        self.metric, self.fail, self.calls = metric, fail, []

    def download(self, slug, dest):
        self.calls.append(slug)
        if self.fail:
            raise self.fail
        rng = np.random.default_rng(0)
        train = pd.DataFrame(
            {"PassengerId": range(100), "Age": rng.random(100), "Survived": rng.integers(0, 2, 100)}
        )
        with zipfile.ZipFile(dest / f"{slug}.zip", "w") as z:
            z.writestr("train.csv", train.to_csv(index=False))
            z.writestr("test.csv", train.drop(columns="Survived").to_csv(index=False))
            z.writestr("sample_submission.csv", train[["PassengerId", "Survived"]].to_csv(index=False))

    def info(self, slug):
        return {"title": "Fake Comp", "description": "Predict survival.", "metric": self.metric}


def test_fetch_with_fake_api(tmp_path):
    api = FakeKaggle()
    out = fetch_competition("fake-comp", tmp_path / "k", api=api)
    assert api.calls == ["fake-comp"] and (out / "raw/train.csv").is_file()
    answers = pd.read_csv(out / "private/answers.csv")
    assert list(answers.columns) == ["PassengerId", "Survived"] and len(answers) == 10  # 90/10 split
    assert "Predict survival." in (out / "description.md").read_text()
    from automind.task import Task

    t = Task.load(out)
    assert t.spec.metric.name == "accuracy" and t.spec.id_column == "PassengerId" and t.name == "fake-comp"


def test_fetch_extracts_tables_zipped_inside_the_competition_zip(tmp_path):
    """Older competitions ship train.csv.zip inside the competition's archive: the fetch extracted only the
    outer zip and then found no train.csv."""

    class Nested(FakeKaggle):
        def download(self, slug, dest):
            super().download(slug, dest)
            outer = dest / f"{slug}.zip"
            with zipfile.ZipFile(outer) as z:
                inner = {n: z.read(n) for n in z.namelist()}
            with zipfile.ZipFile(outer, "w") as z:
                for name, data in inner.items():
                    buf = io.BytesIO()
                    with zipfile.ZipFile(buf, "w") as member:
                        member.writestr(name, data)
                    z.writestr(f"{name}.zip", buf.getvalue())

    out = fetch_competition("nested", tmp_path / "k", api=Nested())
    assert (out / "raw/train.csv").is_file() and len(pd.read_csv(out / "private/answers.csv")) == 10


def test_fetch_errors(tmp_path):
    with pytest.raises(FetchError, match="rules"):
        fetch_competition("x", tmp_path / "a", api=FakeKaggle(fail=OSError("403 Forbidden")))
    assert not (tmp_path / "a").exists()  # a failed download leaves nothing, so a retry needs no --force
    with pytest.raises(FetchError, match="Known metrics.*download is kept in .*reused"):
        fetch_competition("x", tmp_path / "b", api=FakeKaggle(metric="SomethingExotic"))
    again = FakeKaggle(metric="SomethingExotic")  # the same command with the missing flag, no --force
    assert fetch_competition("x", tmp_path / "b", api=again, metric="auc")
    assert again.calls == []  # the earlier download was reused, not fetched again


def test_an_unreadable_download_is_a_fetch_error(tmp_path):
    """An empty train.csv in the download ended in pandas' traceback; now it is named, and kept for a retry."""

    class EmptyTrain(FakeKaggle):
        def download(self, slug, dest):
            self.calls.append(slug)
            (dest / "train.csv").write_text("")
            (dest / "sample_submission.csv").write_text("id,y\n1,0\n")

    with pytest.raises(FetchError, match=r"cannot read train.csv from the download as CSV.*download is kept"):
        fetch_competition("x", tmp_path / "k", api=EmptyTrain())
    assert (tmp_path / "k/raw/train.csv").is_file()


def test_fetch_never_writes_into_a_users_raw_folder(tmp_path, folder_state):
    out = tmp_path / "k"
    (out / "raw").mkdir(parents=True)
    (out / "raw" / "train.csv").write_text("mine\n")
    (out / "notes.txt").write_text("mine\n")
    before = folder_state(tmp_path)
    with pytest.raises(FetchError, match=r"not empty \(notes.txt, raw\).*--force"):
        fetch_competition("fake-comp", out, api=FakeKaggle())
    with pytest.raises(FetchError, match="is not a download automind made"):
        fetch_competition("fake-comp", out, api=FakeKaggle(), force=True)
    assert folder_state(tmp_path) == before
    api = FakeKaggle()  # another competition's download made by automind is replaced under --force
    fetch_competition("fake-comp", tmp_path / "j", api=api)
    fetch_competition("other-comp", tmp_path / "j", api=api, force=True)
    assert api.calls == ["fake-comp", "other-comp"] and (tmp_path / "j/raw/other-comp.zip").is_file()
    assert not (tmp_path / "j/raw/fake-comp.zip").exists()


def test_fetch_without_credentials(tmp_path, monkeypatch):
    for var in ("KAGGLE_USERNAME", "KAGGLE_KEY", "KAGGLE_API_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("KAGGLE_CONFIG_DIR", str(tmp_path / "nokaggle"))
    assert not has_credentials()
    assert has_credentials(env={"KAGGLE_USERNAME": "u", "KAGGLE_KEY": "k"})
    r = runner.invoke(app, ["task", "fetch", "spaceship-titanic", str(tmp_path / "out")])
    assert r.exit_code == 1
    assert "KAGGLE_USERNAME" in r.output and "kaggle.json" in r.output


def test_fetch_with_unreadable_kaggle_json_is_a_clear_error(tmp_path, monkeypatch):
    for var in ("KAGGLE_USERNAME", "KAGGLE_KEY", "KAGGLE_API_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    (tmp_path / "kcfg").mkdir()
    (tmp_path / "kcfg/kaggle.json").write_text("{not json")
    monkeypatch.setenv("KAGGLE_CONFIG_DIR", str(tmp_path / "kcfg"))
    r = runner.invoke(app, ["task", "fetch", "titanic", str(tmp_path / "out")])
    assert r.exit_code == 1 and "Kaggle authentication failed" in r.output
