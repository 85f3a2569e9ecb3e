"""Experience memory: admission rules, purge on success, retrieval for debug/draft/improve, CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from automind.cli import app
from automind.experience import NEGATIVE, POSITIVE, ExperienceStore, error_signature
from automind.store import Store

TRACE = """Traceback (most recent call last):
  File "solution.py", line 12, in <module>
    model.fit(X, y)
ValueError: could not convert string to float: 'male'
"""


@pytest.fixture
def exp(tmp_path: Path) -> ExperienceStore:
    return ExperienceStore(Store.open(tmp_path / "store", "hash"))


def test_error_signature_takes_the_last_exception_line() -> None:
    assert error_signature(TRACE) == ("ValueError", "ValueError: could not convert string to float: 'male'")


def test_unfixed_error_is_negative_and_verified_fix_is_positive(exp: ExperienceStore) -> None:
    exp.record_error("titanic", TRACE, "model.fit(X, y)", ["General Machine Learning"])
    assert exp.store.count(NEGATIVE) == 1 and exp.store.count(POSITIVE) == 0
    exp.record_fix(
        "titanic",
        TRACE,
        "model.fit(X, y)",
        "X = pd.get_dummies(X)\nmodel.fit(X, y)",
        "one-hot encode string columns before fitting",
        ["General Machine Learning"],
    )
    assert exp.store.count(POSITIVE) == 1
    hints = exp.for_debug("ValueError: could not convert string to float: 'female'")
    assert hints and "one-hot encode" in hints[0] and "Fixed code" in hints[0]


def test_solving_a_task_purges_only_its_failures(exp: ExperienceStore) -> None:
    exp.record_error("titanic", TRACE, "a", [])
    exp.record_summary("titanic", "predict survival", ["x -> failed"], None, None, [])
    exp.record_error("houses", "KeyError: 'SalePrice'", "b", [])
    exp.record_trick("titanic", "freq-enc", "Frequency encoding", [], delta=-0.01)
    exp.record_trick("titanic", "log-target", "Log target", [], delta=0.02)
    assert exp.mark_solved("titanic") == 2
    left = sorted((r.metadata["task"], r.metadata["kind"]) for r in exp.store.get(NEGATIVE))
    # the other task's error and the outcome of a trick that hurt stay
    assert left == [("houses", "error"), ("titanic", "trick")]
    assert exp.store.count(POSITIVE) == 1


def test_trick_priors_and_improve_hints(exp: ExperienceStore) -> None:
    for task in ("a", "b"):
        exp.record_trick(
            task, "log-target", "Log-transform the target", ["General Machine Learning/Regression"], 0.03
        )
    exp.record_trick("c", "one-hot", "One-hot everything", ["General Machine Learning/Regression"], -0.02)
    priors = exp.trick_priors("regression task with skewed target")
    assert priors["log-target"] == 1.0 and priors["one-hot"] == -1.0
    hints = exp.for_improve("regression")
    assert any(h.startswith("Helped before") and "Log-transform" in h for h in hints)
    assert any(h.startswith("Hurt before") and "One-hot" in h for h in hints)


def test_draft_summaries_exclude_the_same_task(exp: ExperienceStore) -> None:
    exp.record_summary("titanic", "predict survival", ["lgbm -> 0.82"], "lgbm", 0.82, [])
    exp.record_summary("spaceship", "predict transported", ["logreg -> 0.77"], "logreg", 0.77, [])
    found = exp.for_draft("predict survival of passengers", k=3, exclude_task="titanic")
    assert len(found) == 1 and "transported" in found[0]


def test_rerecording_the_same_entry_does_not_duplicate(exp: ExperienceStore) -> None:
    exp.record_trick("t", "x", "X", [], 0.1)
    exp.record_trick("t", "x", "X", [], 0.1)
    assert exp.store.count(POSITIVE) == 1


def test_experience_cli_stats_query_export_prune(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("AUTOMIND_KNOWLEDGE__EMBEDDER", "hash")
    store = str(tmp_path / "store")
    e = ExperienceStore(Store.open(store, "hash"))
    e.record_error("t1", TRACE, "code", [])
    e.record_trick("t2", "x", "X", [], 0.5)
    run = CliRunner().invoke
    res = run(app, ["experience", "stats", "--store", store, "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output) == {"positive": {"trick": 1}, "negative": {"error": 1}}
    res = run(app, ["experience", "query", "could not convert string", "--negative", "--store", store])
    assert res.exit_code == 0 and "ValueError" in res.output
    out = tmp_path / "exp.jsonl"
    assert run(app, ["experience", "export", str(out), "--store", store]).exit_code == 0
    assert len(out.read_text().splitlines()) == 2
    out.write_text("my notes")  # an existing file is the user's until --force says otherwise
    res = run(app, ["experience", "export", str(out), "--store", store])
    assert (
        res.exit_code == 1 and "already exists. Pass --force" in res.output and out.read_text() == "my notes"
    )
    assert run(app, ["experience", "export", str(out), "--store", store, "--force"]).exit_code == 0
    assert len(out.read_text().splitlines()) == 2
    res = run(app, ["experience", "prune", "--task", "t1", "--yes", "--store", store])
    assert res.exit_code == 0 and "removed 1" in res.output
    assert e.store.count(NEGATIVE) == 0 and e.store.count(POSITIVE) == 1


def test_experience_cli_names_a_missing_experience_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wrong --store is called an experience store, and the advice is the command that fills one."""
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep")
    for where in (mine, tmp_path / "typo"):
        for args in (["stats"], ["query", "x"], ["export", str(tmp_path / "e.jsonl")], ["prune", "--yes"]):
            res = CliRunner().invoke(app, ["experience", *args, "--store", str(where)])
            assert res.exit_code == 1, res.output
            assert f"no experience store at {where}" in res.output and "automind solve" in res.output
            assert "ingest" not in res.output and "Traceback" not in res.output
    assert [p.name for p in mine.iterdir()] == ["notes.txt"] and not (tmp_path / "typo").exists()
    assert not (tmp_path / "e.jsonl").exists()
