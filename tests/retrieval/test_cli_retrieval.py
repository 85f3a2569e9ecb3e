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


# -- first use and bad input ---------------------------------------------------------------------------


def test_first_use_says_it_seeds_the_cards_and_stats_says_so_before(tmp_path, env, task_factory):
    fresh = str(tmp_path / "fresh-home" / "knowledge")
    env = {**env, "AUTOMIND_STORE": fresh}  # the default store of a home never used
    res = CliRunner().invoke(app, ["knowledge", "stats"], env=env)
    assert res.exit_code == 0, res.output
    assert "seeded on first use" in res.output and "empty" not in res.output
    assert not (tmp_path / "fresh-home").exists()  # stats created nothing
    task = task_factory(tmp_path / "tab", "tabular")
    res = CliRunner().invoke(app, ["tips", str(task), "--no-llm", "--k", "2"], env=env)
    assert res.exit_code == 0, res.output
    assert "seeding the" in res.output and "shipped knowledge cards" in res.output
    again = CliRunner().invoke(app, ["tips", str(task), "--no-llm", "--k", "2"], env=env)
    assert again.exit_code == 0 and "seeding" not in again.output  # seeded once
    stats = CliRunner().invoke(app, ["knowledge", "stats", "--json"], env=env)
    assert json.loads(stats.stdout)["kinds"]["cards"]["chunks"] > 100


def test_read_commands_refuse_a_mistyped_store_and_an_empty_query(tmp_path, env, task_factory):
    typo = str(tmp_path / "kb-typo")
    task = task_factory(tmp_path / "tab", "tabular")
    for args in (
        ["knowledge", "query", "folds", "--store", typo],
        ["knowledge", "stats", "--store", typo],
        ["tips", str(task), "--no-llm", "--store", typo],
    ):
        res = CliRunner().invoke(app, args, env=env)
        assert res.exit_code == 1, (args, res.output)
        assert "no knowledge store at" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "kb-typo").exists()
    res = CliRunner().invoke(app, ["knowledge", "query", "  ", "--store", new_store(tmp_path / "s")], env=env)
    assert res.exit_code == 1 and "empty query" in res.output


@pytest.mark.parametrize(
    "args",
    [
        ["knowledge", "stats"],
        ["knowledge", "query", "folds"],
        ["tips", "TASK", "--no-llm"],
        ["experience", "stats"],
    ],
)
def test_a_damaged_store_is_a_clear_error_everywhere(tmp_path, env, task_factory, args):
    store = tmp_path / "kb"
    new_store(store)
    (store / "chroma.sqlite3").write_bytes(b"")
    task = task_factory(tmp_path / "tab", "tabular")
    args = [str(task) if a == "TASK" else a for a in args]
    res = CliRunner().invoke(app, [*args, "--store", str(store)], env=env)
    assert res.exit_code == 1, res.output
    assert "is damaged" in res.output and "Rebuild it" in res.output and "Traceback" not in res.output
    assert (store / "chroma.sqlite3").stat().st_size == 0  # never silently rebuilt


@pytest.mark.parametrize("command", ["knowledge", "experience"])
def test_export_to_a_folder_or_an_unwritable_path_is_an_error_and_leaves_nothing(tmp_path, env, command):
    store = new_store(tmp_path / "kb")
    folder = tmp_path / "out"
    folder.mkdir()
    res = CliRunner().invoke(app, [command, "export", str(folder), "--store", store], env=env)
    assert res.exit_code == 1 and "is a folder" in res.output
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    res = CliRunner().invoke(app, [command, "export", str(blocker / "out.jsonl"), "--store", store], env=env)
    assert res.exit_code == 1 and "cannot write" in res.output and "Traceback" not in res.output
    assert not list(tmp_path.rglob("*.tmp")) and list(folder.iterdir()) == []
    ok = CliRunner().invoke(app, [command, "export", str(folder / "x.jsonl"), "--store", store], env=env)
    assert ok.exit_code == 0, ok.output
    assert [p.name for p in folder.iterdir()] == ["x.jsonl"]


def test_a_silent_chroma_server_does_not_hang_the_cli(tmp_path, env):
    import socket

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    url = f"http://127.0.0.1:{server.getsockname()[1]}"
    try:
        res = CliRunner().invoke(
            app, ["knowledge", "stats", "--store", url], env={**env, "AUTOMIND_KNOWLEDGE__TIMEOUT_S": "1"}
        )
    finally:
        server.close()
    assert res.exit_code == 1 and url in res.output and "did not answer within 1 s" in res.output
