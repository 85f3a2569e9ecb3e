"""Task loading: every missing piece is named; MLE-bench folders are accepted."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from automind.prepare import prepare_task
from automind.task import Task, TaskError, inspect_task

SHARED = Path(__file__).resolve().parents[2] / "../shared/data"


@pytest.fixture()
def task_dir(tmp_path):
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.random(40), "y": rng.integers(0, 2, 40)})
    return prepare_task(df, tmp_path / "t", "y", "auc")


def test_loads_prepared_task(task_dir):
    t = Task.load(task_dir)
    assert t.spec.metric.name == "roc_auc" and t.spec.id_column == "id" and t.spec.target_columns == ["y"]
    assert [p.name for p in t.train_paths] == ["train.csv"] and [p.name for p in t.test_paths] == ["test.csv"]
    assert t.answers_path == task_dir / "private/answers.csv" and t.leaderboard_path is None


@pytest.mark.parametrize(
    ("remove", "needle"),
    [("description.md", "description.md: missing"), ("public/train.csv", "no training data"),
     ("public/test.csv", "no test data"), ("public/sample_submission.csv", "sample_submission.csv: missing"),
     ("task.yaml", "task.yaml: missing")],
)  # fmt: skip
def test_missing_pieces_are_named(task_dir, remove, needle):
    (task_dir / remove).unlink()
    task, problems = inspect_task(task_dir)
    assert task is None and any(needle in p for p in problems), problems
    with pytest.raises(TaskError, match="problem"):
        Task.load(task_dir)


def test_an_unzipped_kaggle_download_is_told_how_to_become_a_task(tmp_path):
    """train.csv, test.csv and sample_submission.csv at the top of a folder (what a Kaggle zip holds): the
    error names the files and says how to make a task folder without touching them; the CLI shows it."""
    from typer.testing import CliRunner

    from automind.cli import app

    flat = tmp_path / "download"
    flat.mkdir()
    for name in ("train.csv", "test.csv", "sample_submission.csv"):
        (flat / name).write_text("id,y\n1,0\n")
    before = {p.name: p.read_bytes() for p in flat.iterdir()}
    task, problems = inspect_task(flat)
    assert task is None
    hint = next(p for p in problems if "Kaggle download" in p)
    assert (
        "sample_submission.csv, test.csv, train.csv" in hint
        and "TASK/public" in hint
        and "task fetch" in hint
    )
    res = CliRunner().invoke(app, ["task", "check", str(flat)])
    assert res.exit_code == 1 and "Kaggle download" in res.output and "Traceback" not in res.output
    assert {p.name: p.read_bytes() for p in flat.iterdir()} == before  # nothing written or moved
    (flat / "test.csv").unlink()  # no test file: not a download, no hint
    assert not any("Kaggle download" in p for p in inspect_task(flat)[1])


def test_all_problems_reported_together(task_dir):
    (task_dir / "description.md").unlink()
    (task_dir / "public/test.csv").unlink()
    _, problems = inspect_task(task_dir)
    assert len(problems) == 2


def test_unknown_metric_and_bad_field(task_dir):
    spec = yaml.safe_load((task_dir / "task.yaml").read_text())
    spec["metric"] = {"name": "wobble"}
    spec["colour"] = "blue"
    (task_dir / "task.yaml").write_text(yaml.safe_dump(spec))
    _, problems = inspect_task(task_dir)
    assert any("colour" in p for p in problems)
    spec.pop("colour")
    (task_dir / "task.yaml").write_text(yaml.safe_dump(spec))
    _, problems = inspect_task(task_dir)
    assert any("unknown metric 'wobble'" in p and "accuracy" in p for p in problems)


def test_id_column_missing_from_sample_submission_is_a_problem(task_dir):
    spec = yaml.safe_load((task_dir / "task.yaml").read_text())
    spec["id_column"] = "nope"
    (task_dir / "task.yaml").write_text(yaml.safe_dump(spec))
    task, problems = inspect_task(task_dir)
    assert task is None and any(
        "id_column 'nope' is not a column of sample_submission.csv" in p for p in problems
    )


def test_mlebench_folder_accepted(task_dir):
    (task_dir / "task.yaml").unlink()
    (task_dir / "private/answers.csv").rename(task_dir / "private/test.csv")
    (task_dir / "config.yaml").write_text(
        yaml.safe_dump({"id": "demo-comp", "name": "Demo", "grader": {"name": "auc-roc"}})
    )
    t = Task.load(task_dir)
    assert t.slug == "demo-comp" and t.spec.metric.name == "roc_auc"  # MLE-bench's auc-roc grader
    assert t.spec.id_column == "id" and t.spec.target_columns == ["y"] and t.answers_path.name == "test.csv"
    assert t.warnings


@pytest.mark.skipif(not SHARED.exists(), reason="needs ../shared/data")
def test_real_mlebench_config_and_leaderboard(task_dir):
    comp = SHARED / "competitions" / "spaceship-titanic"
    (task_dir / "task.yaml").unlink()
    shutil.copy(comp / "config.yaml", task_dir / "config.yaml")
    shutil.copy(comp / "leaderboard.csv", task_dir / "leaderboard.csv")
    t = Task.load(task_dir)
    assert t.spec.metric.name == "accuracy" and t.leaderboard_path is not None


@pytest.mark.skipif(not SHARED.exists(), reason="needs ../shared/data")
def test_every_shared_grader_name_resolves_or_is_exotic():
    from automind.metrics import UnknownMetricError, get_metric

    names = set()
    for cfg in (SHARED / "competitions").glob("*/config.yaml"):
        names.add((yaml.safe_load(cfg.read_text()).get("grader") or {}).get("name"))
    unknown = []
    for n in filter(None, names):
        try:
            get_metric(n)
        except UnknownMetricError:
            unknown.append(n)
    assert len(unknown) < len(names) / 2, unknown
    for common in ("accuracy", "auc-roc", "micro-f1-score", "macro-f1-score", "multi-class-log-loss"):
        assert common in names and common not in unknown
