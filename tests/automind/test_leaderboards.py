"""Leaderboards: shipped ones, Kaggle's public board on fetch, `--leaderboard FILE`, and saying why none."""

from __future__ import annotations

import gzip
import json
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from automind.cli import app
from automind.kaggle_fetch import add_leaderboards, fetch_competition
from automind.leaderboards import (
    LeaderboardError,
    attach,
    attached,
    bundled,
    bundled_slugs,
    missing_reason,
    read_scores,
    reattach,
)
from automind.task import Task

runner = CliRunner()


class FakeKaggle:
    """The Kaggle API as fetch uses it; `board` is the public leaderboard export (None: download fails)."""

    def __init__(self, board: list[float] | None = None, fail: Exception | None = None):
        self.board, self.fail = board, fail

    def download(self, slug, dest):
        rng = np.random.default_rng(0)
        train = pd.DataFrame(
            {"PassengerId": range(60), "Age": rng.random(60), "Transported": rng.integers(0, 2, 60)}
        )
        with zipfile.ZipFile(dest / f"{slug}.zip", "w") as z:
            z.writestr("train.csv", train.to_csv(index=False))
            z.writestr("sample_submission.csv", train[["PassengerId", "Transported"]].to_csv(index=False))

    def info(self, slug):
        return {"title": slug, "metric": "accuracy"}

    def leaderboard(self, slug, dest):
        if self.fail:
            raise self.fail
        rows = "".join(f"{i},team{i},2024-01-01,{s}\n" for i, s in enumerate(self.board or []))
        with zipfile.ZipFile(dest / f"{slug}.zip", "w") as z:
            z.writestr(f"{slug}-publicleaderboard.csv", "TeamId,TeamName,SubmissionDate,Score\n" + rows)


def test_shipped_boards_are_readable_and_attributed():
    slugs = bundled_slugs()
    assert len(slugs) == 51 and "spaceship-titanic" in slugs
    for slug in slugs:
        assert len(read_scores(bundled(slug))) > 10, slug
    source = (Path(bundled("spaceship-titanic")).parent / "SOURCE.txt").read_text()
    assert "MLE-Dojo" in source and "Permission is hereby granted" in source
    assert bundled("no-such-competition") is None and bundled("../etc") is None


def test_fetch_ships_the_bundled_board_and_downloads_the_public_one(tmp_path):
    out = fetch_competition("spaceship-titanic", tmp_path / "t", api=FakeKaggle(board=[0.9, 0.8, 0.7, 0.6]))
    t = Task.load(out)
    assert len(read_scores(t.leaderboard_path)) > 1000  # the shipped final board
    assert read_scores(t.public_leaderboard_path) == [0.9, 0.8, 0.7, 0.6]
    record = json.loads((out / "fetch.json").read_text())["leaderboard"]
    assert record["private"] == "shipped with automind" and "4 teams" in record["public"]
    r = runner.invoke(app, ["grade", str(out), str(out / "public/sample_submission.csv"), "--json"])
    rep = json.loads(r.stdout)
    assert rep["human_rank"] is not None and rep["public_leaderboard_teams"] == 4
    assert rep["public_human_rank"] is not None and rep["human_rank_note"] is None


def test_fetch_of_an_unshipped_competition_uses_the_public_board(tmp_path):
    out = fetch_competition("fake-comp", tmp_path / "t", api=FakeKaggle(board=[0.95, 0.5]))
    t = Task.load(out)
    assert read_scores(t.leaderboard_path) == [0.95, 0.5] and t.public_leaderboard_path is None


def test_without_any_board_the_task_says_why(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    out = fetch_competition(
        "fake-comp", tmp_path / "t", api=FakeKaggle(fail=PermissionError("403 Forbidden"))
    )
    t = Task.load(out)
    why = missing_reason(t)
    assert "403 Forbidden" in why and "ships no leaderboard for 'fake-comp'" in why
    r = runner.invoke(app, ["grade", str(out), str(out / "public/sample_submission.csv"), "--json"])
    assert json.loads(r.stdout)["human_rank_note"] == why
    r = runner.invoke(app, ["grade", str(out), str(out / "public/sample_submission.csv")])
    assert "HumanRank" in r.output and "unavailable" in r.output
    r = runner.invoke(app, ["task", "check", str(out)])
    assert r.exit_code == 0 and "HumanRank unavailable" in r.output


def test_an_api_without_leaderboards_is_said_too(tmp_path):
    class Old(FakeKaggle):
        leaderboard = None  # an API object written before leaderboards existed

    out = tmp_path / "t"
    out.mkdir()
    record = add_leaderboards("fake-comp", out, Old())
    assert "cannot download leaderboards" in record["note"]


def _task(tmp_path) -> Path:
    from automind.examples import make_example

    return make_example("penguins", tmp_path / "penguins")


def test_leaderboard_option_on_grade_and_check(tmp_path):
    task = _task(tmp_path)
    lb = tmp_path / "lb.csv"
    lb.write_text("rank,score\n1,0.99\n2,0.6\n3,0.4\n")
    sub = task / "public/sample_submission.csv"
    r = runner.invoke(app, ["grade", str(task), str(sub), "--json", "--leaderboard", str(lb)])
    rep = json.loads(r.stdout)
    assert rep["leaderboard_teams"] == 3 and rep["position"] == 3
    assert not (task / "leaderboard.csv").exists()  # the task folder is not touched
    r = runner.invoke(app, ["task", "check", str(task), "--leaderboard", str(lb)])
    assert r.exit_code == 0 and "lb.csv (3 teams)" in r.output
    bad = tmp_path / "bad.csv"
    bad.write_text("team,points\n")
    for cmd in (["grade", str(task), str(sub)], ["task", "check", str(task)], ["solve", str(task)]):
        r = runner.invoke(app, [*cmd, "--leaderboard", str(bad)])
        assert r.exit_code == 1 and "no 'score' column" in r.output and "Traceback" not in r.output, cmd
    lfs = tmp_path / "lfs.csv"
    lfs.write_text("version https://git-lfs.github.com/spec/v1\noid sha256:0\nsize 1\n")
    with pytest.raises(LeaderboardError, match="git lfs pull"):
        read_scores(lfs)


def test_attached_boards_survive_a_resume(tmp_path):
    task = Task.load(_task(tmp_path))
    lb = tmp_path / "lb.csv"
    lb.write_text("rank,score\n1,0.9\n")
    attach(task, lb)
    recorded = attached(task)
    assert recorded == {"private": str(lb.resolve())}
    again = reattach(Task.load(task.root), recorded)
    assert again.leaderboard_path == lb.resolve()


@pytest.mark.slow
def test_solve_records_the_attached_board(tmp_path, monkeypatch):
    """`solve --leaderboard` grades against the board and writes it to run.json for a resume."""
    from automind.run import solve

    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    from automind.config import load_config

    task = Task.load(_task(tmp_path))
    lb = tmp_path / "lb.csv"
    lb.write_text("rank,score\n1,0.99\n2,0.2\n")
    attach(task, lb)
    settings = load_config(
        {"search.steps": 1, "knowledge.enabled": False, "experience.enabled": False, "llm.provider": "none",
         "sandbox.timeout_s": 120},
        environ={}, cwd=Path("/nonexistent"),
    ).settings  # fmt: skip
    res = solve(task, settings, out=tmp_path / "run")
    info = json.loads((tmp_path / "run/run.json").read_text())
    assert info["task"]["leaderboards"] == {"private": str(lb.resolve())}
    assert res.grade["valid"] and res.grade["leaderboard_teams"] == 2 and res.grade["human_rank"] is not None


def test_gzip_boards_are_read_like_csv(tmp_path):
    p = tmp_path / "b.csv.gz"
    p.write_bytes(gzip.compress(b"rank,score\n1,3.5\n2,4.0\n"))
    assert read_scores(p) == [3.5, 4.0]
