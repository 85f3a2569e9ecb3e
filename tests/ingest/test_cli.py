"""`automind ingest` and `automind knowledge stats|export|rm` through the real CLI."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from automind.cli import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("AUTOMIND_KNOWLEDGE__EMBEDDER", "hash")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


def _ingest(*args):
    return runner.invoke(app, ["ingest", *map(str, args), "--labeler", "embedding", "--no-progress"])


def test_ingest_json_report_and_failures(corpus, broken, tmp_path):
    store = tmp_path / "kb"
    res = _ingest(corpus / "posts", broken / "empty.md", "--store", store, "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["added"] == 2 and out["store"] == str(store)
    assert [f["source"].rsplit("/", 1)[-1] for f in out["failed"]] == ["empty.md"]
    assert out["cards_ingested"] > 0  # shipped cards come in with the first use of a store


def test_ingest_only_failures_exits_nonzero(broken, tmp_path):
    res = _ingest(broken, "--store", tmp_path / "kb")
    assert res.exit_code == 1 and "failed" in res.stdout
    res = _ingest(broken, "--store", tmp_path / "kb", "--json")
    assert res.exit_code == 1
    assert sorted(f["source"].rsplit("/", 1)[-1] for f in json.loads(res.stdout)["failed"]) == [
        "bad.json",
        "empty.md",
        "garbage.md",
    ]


def test_ingest_with_a_different_embedder_is_refused(corpus, tmp_path):
    store = tmp_path / "kb"
    assert _ingest(corpus / "posts", "--store", store).exit_code == 0
    res = _ingest(corpus / "posts", "--store", store, "--embedder", "wordllama")
    assert res.exit_code == 1
    assert "built with embedder 'hash'" in res.output and "--store" in res.output


def test_stats_export_rm(corpus, tmp_path):
    store = tmp_path / "kb"
    assert _ingest(corpus, "--store", store).exit_code == 0
    res = runner.invoke(app, ["knowledge", "stats", "--store", str(store), "--json"])
    assert res.exit_code == 0, res.output
    stats = json.loads(res.stdout)["kinds"]
    assert stats["posts"]["documents"] == 2 and stats["papers"]["documents"] == 2
    assert sum(stats["posts"]["by_category"].values()) == stats["posts"]["chunks"]

    out = tmp_path / "dump.jsonl"
    res = runner.invoke(app, ["knowledge", "export", str(out), "--store", str(store)])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == sum(k["chunks"] for k in stats.values())
    assert all("embedding" not in r and r["metadata"]["source"] for r in rows)
    res = runner.invoke(app, ["knowledge", "export", str(out), "--store", str(store)])
    assert res.exit_code == 1 and "already exists. Pass --force" in res.output  # not replaced silently
    assert len(out.read_text().splitlines()) == len(rows)
    assert (
        runner.invoke(app, ["knowledge", "export", str(out), "--store", str(store), "--force"]).exit_code == 0
    )

    # without --yes it asks, and "n" removes nothing
    res = runner.invoke(
        app, ["knowledge", "rm", "--source", "*house-prices__*", "--store", str(store)], input="n\n"
    )
    assert res.exit_code != 0
    assert (
        json.loads(runner.invoke(app, ["knowledge", "stats", "--store", str(store), "--json"]).stdout)[
            "kinds"
        ]["posts"]["documents"]
        == 2
    )
    res = runner.invoke(
        app, ["knowledge", "rm", "--source", "*house-prices__*", "--store", str(store), "--yes"]
    )
    assert res.exit_code == 0 and "removed" in res.stdout
    after = json.loads(runner.invoke(app, ["knowledge", "stats", "--store", str(store), "--json"]).stdout)[
        "kinds"
    ]
    assert after["posts"]["documents"] == 1 and after["papers"] == stats["papers"]


def test_unknown_kind_is_rejected(corpus, tmp_path):
    res = _ingest(corpus, "--store", tmp_path / "kb", "--kind", "videos")
    assert res.exit_code == 1 and "solutions-index" in res.output


def test_a_folder_with_nothing_to_ingest_is_a_failure_not_an_empty_success(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "sheet.xlsx").write_bytes(b"PK\x03\x04")
    res = _ingest(tmp_path / "notes", "--store", tmp_path / "kb", "--json")
    assert res.exit_code == 1
    (failed,) = json.loads(res.stdout)["failed"]
    assert (
        failed["source"] == str(tmp_path / "notes") and "no file to ingest in this folder" in failed["reason"]
    )
    assert ".md" in failed["reason"] and ".pdf" in failed["reason"]
