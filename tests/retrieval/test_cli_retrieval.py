"""`automind tips` and `automind knowledge query` through the real CLI, on a tmp store (hash embedder)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from automind.cli import app


def new_store(path) -> str:
    """An empty store at path: read commands refuse a --store that holds none (a mistyped path)."""
    from automind.store import Store

    Store.open(str(path), "hash", strict=False)
    return str(path)


@pytest.fixture
def env(tmp_path):
    return {
        "AUTOMIND_HOME": str(tmp_path / "home"),
        "AUTOMIND_KNOWLEDGE__EMBEDDER": "hash",
        "OPENAI_API_KEY": "",
    }


def test_tips_json_on_a_description_only_folder(tmp_path, env):
    task = tmp_path / "audio-task"
    task.mkdir()
    (task / "description.md").write_text(
        "# Bird calls\n\nDetect which bird species call in each audio recording. The wav clips are sound "
        "recordings from microphones; turn them into mel spectrograms.\n"
    )
    store = new_store(tmp_path / "store")
    res = CliRunner().invoke(
        app, ["tips", str(task), "--json", "--no-llm", "--k", "4", "--store", store], env=env
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["labels"][0]["top"] == "Signal Processing"
    assert len(out["tricks"]) == 4
    assert all(t["source"] and t["title"] and t["kind"] for t in out["tricks"])
    assert any("description only" in note for note in out["fallbacks"])


def test_tips_human_output_on_a_task_with_data(tmp_path, env, task_factory):
    task = task_factory(tmp_path / "tab", "tabular")
    env = {
        **env,
        "AUTOMIND_KNOWLEDGE__EMBEDDER": "wordllama",
    }  # hashed words say nothing about a neutral text
    res = CliRunner().invoke(
        app, ["tips", str(task), "--no-llm", "--k", "3", "--store", new_store(tmp_path / "s")], env=env
    )
    assert res.exit_code == 0, res.output
    assert "General Machine Learning" in res.stdout and "card:" in res.stdout


def test_tips_rejects_a_folder_without_description(tmp_path, env):
    (tmp_path / "empty").mkdir()
    res = CliRunner().invoke(
        app, ["tips", str(tmp_path / "empty"), "--no-llm", "--store", str(tmp_path / "s")], env=env
    )
    assert res.exit_code != 0
    assert "description.md" in res.output


def test_knowledge_query_json_and_errors(tmp_path, env):
    store = new_store(tmp_path / "store")
    args = [
        "knowledge",
        "query",
        "stratified k-fold cross-validation",
        "--k",
        "3",
        "--kind",
        "cards",
        "--json",
        "--store",
        store,
    ]
    res = CliRunner().invoke(app, args, env=env)
    assert res.exit_code == 0, res.output
    hits = json.loads(res.stdout)
    assert len(hits) == 3 and all(h["kind"] == "cards" and h["metadata"]["card_id"] for h in hits)
    bad = CliRunner().invoke(
        app, ["knowledge", "query", "x", "--category", "Cooking", "--store", store], env=env
    )
    assert bad.exit_code != 0 and "unknown category" in bad.output
