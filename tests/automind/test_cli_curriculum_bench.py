"""`automind curriculum run` and `automind bench` end to end: real offline solves on two tiny tasks."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from automind.cli import app
from automind.prepare import prepare_task

pytestmark = pytest.mark.slow


@pytest.fixture
def tasks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("AUTOMIND_KNOWLEDGE__EMBEDDER", "hash")  # fast, deterministic store for the test
    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(120, 2))
    cls = pd.DataFrame({"a": x[:, 0], "b": x[:, 1], "y": (x[:, 0] + x[:, 1] > 0).astype(int)})
    reg = pd.DataFrame({"a": x[:, 0], "b": x[:, 1], "y": 3 * x[:, 0] - x[:, 1]})
    prepare_task(cls, tmp_path / "tasks" / "cls", target="y", metric="accuracy")
    prepare_task(reg, tmp_path / "tasks" / "reg", target="y", metric="rmse")
    return tmp_path / "tasks"


def test_curriculum_run_solves_logs_and_learns(tasks: Path, tmp_path: Path) -> None:
    store = str(tmp_path / "store")
    args = ["curriculum", "run", str(tasks), "--steps", "1", "--time-limit", "120",
            "--llm", "none", "--out", str(tmp_path / "cur"), "--store", store]  # fmt: skip
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "solved 2/2 tasks" in res.output
    assert res.output.count(" [solved_desc=") == 2  # one unwrapped line per pick, score terms shown
    picks = json.loads((tmp_path / "cur" / "curriculum.json").read_text())["picks"]
    assert [p["outcome"] for p in picks] == ["solved", "solved"]
    assert all("solved_desc" in p["terms"] for p in picks)
    from automind.config import load_config
    from automind.experience import open_experience

    stats = open_experience(load_config({"knowledge.store": store}).settings).stats()
    assert stats["positive"].get("summary") == 2  # one "what worked" summary per solved task
    # rerunning the finished curriculum solves nothing new
    again = CliRunner().invoke(app, args)
    assert (
        again.exit_code == 0
        and len(json.loads((tmp_path / "cur" / "curriculum.json").read_text())["picks"]) == 2
    )


def test_bench_grades_every_job_and_writes_tables(tasks: Path, tmp_path: Path) -> None:
    out = tmp_path / "bench"
    args = ["bench", str(tasks), "--seeds", "1", "--steps", "1", "--budget", "120", "--llm", "none",  # old name
            "--variants", "default,no-knowledge", "--out", str(out), "--store", str(tmp_path / "store"),
            "--json"]  # fmt: skip
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    data = json.loads(res.output[res.output.index("{") :])
    assert len(data["records"]) == 4
    assert all(r["valid"] and r["score"] is not None for r in data["records"]), data["records"]
    assert {(r["task"], r["variant"]) for r in data["rows"]} == {
        (t, v) for t in ("cls", "reg") for v in ("default", "no-knowledge")
    }
    assert (out / "bench.md").read_text().count("| cls |") == 2
    assert "<table>" in (out / "bench.html").read_text()


@pytest.mark.parametrize("command", ["bench", "curriculum"])
def test_a_users_folder_is_refused_as_out(tasks: Path, tmp_path: Path, command: str, folder_state) -> None:
    # both write their tables, state and runs/ into --out: a folder they did not make is not theirs to fill
    out = tmp_path / "mine"
    out.mkdir()
    (out / "bench.md").write_text("my notes\n")
    before = folder_state(tmp_path)
    argv = ["bench", str(tasks)] if command == "bench" else ["curriculum", "run", str(tasks)]
    res = CliRunner().invoke(app, [*argv, "--steps", "1", "--llm", "none", "--out", str(out)])
    state = "records.jsonl" if command == "bench" else "curriculum.json"
    assert res.exit_code == 1 and f"not empty (bench.md) and holds no {state}" in " ".join(res.output.split())
    assert folder_state(tmp_path) == before


@pytest.mark.parametrize(
    "args",
    [
        ["bench", "{tasks}", "--seeds", "0"],
        ["curriculum", "run", "{tasks}", "--rounds", "0"],
        ["curriculum", "run", "{tasks}", "--retries", "-1"],
        ["experience", "query", "x", "--k", "0"],
    ],
)
def test_counts_below_their_minimum_are_refused(tasks: Path, tmp_path: Path, args: list[str]) -> None:
    """`--seeds 0` once ran no job and wrote empty tables as if the bench had been run."""
    out = tmp_path / "out"
    argv = [a.format(tasks=tasks) for a in args] + (["--out", str(out)] if args[0] != "experience" else [])
    res = CliRunner().invoke(app, argv)
    assert res.exit_code == 2 and "Invalid value" in res.output, res.output
    assert not out.exists()


@pytest.mark.parametrize("command", ["bench", "curriculum"])
def test_an_interrupted_job_is_not_recorded_and_resumes(
    tasks: Path, tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C in a grid once ended only the running solve: the cut-short run was recorded as a finished job
    (a rerun skipped it) and the grid went on. Now the command stops, and the rerun resumes that run."""
    from automind.run import Runner

    loop, calls = Runner.loop, []

    def ctrl_c_on_the_second_solve(self):
        calls.append(self.run_dir)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return loop(self)

    monkeypatch.setattr(Runner, "loop", ctrl_c_on_the_second_solve)
    out = tmp_path / "out"
    grid = ["bench", str(tasks), "--seeds", "1", "--variants", "default"]
    args = [*(grid if command == "bench" else ["curriculum", "run", str(tasks)]),
            "--steps", "1", "--time-limit", "120", "--llm", "none", "--out", str(out)]  # fmt: skip
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 130 and "interrupted: the finished jobs are kept in" in " ".join(
        res.output.split()
    )
    if command == "bench":
        assert len((out / "records.jsonl").read_text().splitlines()) == 1
    else:
        picks = json.loads((out / "curriculum.json").read_text())["picks"]
        assert [p["outcome"] for p in picks] == ["solved", "pending"]
    cut = calls[1]
    assert json.loads((cut / "run.json").read_text())["status"] == "interrupted"
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    assert calls[2] == cut and json.loads((cut / "run.json").read_text())["sessions"] == 2  # resumed
    if command == "bench":
        assert len((out / "records.jsonl").read_text().splitlines()) == 2
    else:
        assert "solved 2/2 tasks" in res.output
