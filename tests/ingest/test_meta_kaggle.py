"""Meta Kaggle write-ups: the title rule, streaming the tables, the download wrapper and the CLI.

The fixture in tests/ingest/data/meta-kaggle has Meta Kaggle's columns (and some it ignores), CRLF rows,
HTML messages with nested lists, fenced code, entities and <br>, multi-line quoted fields, missing
values, a sub-forum, a general forum, a placeholder message and a topic without FirstForumMessageId.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from automind.cli import app
from automind.ingest.loaders import LoadError, discover
from automind.ingest.loaders.meta_kaggle import (
    MetaKaggleOptions,
    Tables,
    iter_writeups,
    placement_of,
    read_rows,
    to_date,
)
from automind.ingest.meta_kaggle import fetch_tables, ingest_meta_kaggle
from automind.ingest.pipeline import IngestError
from automind.store import Store

FIXTURE = Path(__file__).parent / "data" / "meta-kaggle"
runner = CliRunner()


@pytest.mark.parametrize(
    ("title", "rank", "label"),
    [
        ("1st place solution", 1, "1st place"),
        ("2nd Place Solution - (Part 1)", 2, "2nd place"),
        ("[3rd place] Simple ensemble of LightGBM", 3, "3rd place"),
        ("Our 3rd-place solution and code", 3, "3rd place"),
        ("First place write-up", 1, "1st place"),
        ("11th Place Approach", 11, "11th place"),
        ("Private LB 22nd place - what worked", 22, "22nd place"),
        ("#4 solution summary", 4, "4th place"),
        ("Rank 4 solution", 4, "4th place"),
        ("12th solution", 12, "12th place"),
        ("1st Place Solution: thanks to my teammates", 1, "1st place"),
        ("Top-5 solution: transformer + GBDT", -1, "top-5"),
        ("Top 1% approach", -1, "top 1%"),
        ("Gold medal solution", -1, "gold"),
        ("Winning solution", -1, "winning"),
    ],
)
def test_titles_that_state_a_placed_solution(title, rank, label):
    placement = placement_of(title)
    assert placement is not None, title
    assert (placement.rank, placement.label) == (rank, label)


@pytest.mark.parametrize(
    "title",
    [
        "Congratulations to the 1st place team!",
        "Will the 2nd place solution be shared?",
        "Will the 2nd place solution be shared",
        "Question about 1st place solution's validation",
        "How did the 1st place team get 0.99",
        "Thanks to the 1st place team",
        "My 1st competition: lessons learned",
        "Top 10 features by importance",
        "Place your submissions early",
        "Solution to the data loading error",
        "Summary of top solutions",
        "Top solutions compilation",
        "Reproducing the 1st place solution",
        "",
    ],
)
def test_titles_that_are_not_write_ups(title):
    assert placement_of(title) is None


def test_fixture_write_ups_are_selected_joined_and_converted():
    docs = list(iter_writeups(FIXTURE))
    good = {d.metadata["url"]: d for d in docs if not isinstance(d, LoadError)}
    errors = [d for d in docs if isinstance(d, LoadError)]
    base = "https://www.kaggle.com/competitions"
    assert set(good) == {
        f"{base}/leaf-disease/discussion/1001",  # 1st place
        f"{base}/house-prices-2019/discussion/1003",  # 2nd place
        f"{base}/old-comp/discussion/1005",  # top-5
        f"{base}/leaf-disease/discussion/1006",  # 3rd place, in a sub-forum (Forums.ParentForumId)
        f"{base}/house-prices-2019/discussion/1009",  # gold, no FirstForumMessageId: RawMarkdown fallback
    }
    # The placeholder is reported, not stored; the general forum's "1st place" is never considered.
    assert [(e.source.rsplit("/", 1)[1], "too short" in e.reason) for e in errors] == [("1008", True)]

    first = good[f"{base}/leaf-disease/discussion/1001"]
    meta = first.metadata
    assert (meta["competition"], meta["rank"], meta["placement"]) == ("leaf-disease", 1, "1st place")
    assert (meta["date"], meta["year"], meta["metric"]) == ("2021-02-19", 2021, "Categorization Accuracy")
    assert meta["title"] == "Leaf Disease Classification (2021): 1st place solution"
    text = first.text
    assert "## Validation" in text and "Placement: 1st place." in text
    assert "& Kaggle" in text and "folds <= 5" in text and '"as everyone did"' in text  # entities decoded
    assert "  - random resized crop" in text  # nested list kept nested
    assert "```python\nmodel = timm" in text and "\n    train(model, fold)" in text  # code keeps indentation
    assert 'folds <= 5 kept fixed, "as everyone did".\nCV and LB' in text  # <br> is a line break
    assert "alert(" not in text and "Great write-up" not in text  # scripts and replies dropped
    assert "| LightGBM | 0.118 |" in good[f"{base}/house-prices-2019/discussion/1003"].text
    gold = good[f"{base}/house-prices-2019/discussion/1009"]
    assert "XGBoost and a small MLP" in gold.text and gold.metadata["date"] == "2020-01-07"


def test_options_limit_since_and_competitions():
    def urls(**kw):
        return sorted(
            d.metadata["url"].rsplit("/", 1)[1]
            for d in iter_writeups(FIXTURE, MetaKaggleOptions(**kw))
            if not isinstance(d, LoadError)
        )

    assert urls(since=2019) == ["1001", "1003", "1006", "1009"]
    assert urls(competitions=frozenset({"house-prices-2019"})) == ["1003", "1009"]
    assert urls(limit=2) == ["1001", "1003"]  # the best placed first
    unknown = [d for d in iter_writeups(FIXTURE, MetaKaggleOptions(competitions=frozenset({"nope"})))]
    assert len(unknown) == 1 and isinstance(unknown[0], LoadError) and "nope" in unknown[0].source


def test_streaming_reports_bytes_and_stops_early(tmp_path):
    folder = tmp_path / "mk"
    shutil.copytree(FIXTURE, folder)
    seen = []
    # A large tail of unrelated messages after the wanted ones is never read to its end.
    with (folder / "ForumMessages.csv").open("a", encoding="utf-8", newline="") as f:
        for i in range(60_000):
            f.write(f'{900000 + i},999,1,01/01/2022 00:00:00,,"<p>chatter {i}</p>",,,\r\n')
    total = Tables.find(folder).size("Competitions.csv", "ForumTopics.csv", "ForumMessages.csv")
    docs = [d for d in iter_writeups(folder, progress=seen.append) if not isinstance(d, LoadError)]
    assert len(docs) == 5
    assert 0 < sum(seen) < total  # progress in bytes, and the tail was skipped


def test_missing_columns_and_tables_are_clear_errors(tmp_path):
    folder = tmp_path / "mk"
    shutil.copytree(FIXTURE, folder)
    (folder / "ForumTopics.csv").write_text("Id,Title\n1,1st place solution\n")
    with pytest.raises(LoadError, match="missing column.*ForumId"):
        list(iter_writeups(folder))
    (folder / "ForumMessages.csv").unlink()
    with pytest.raises(LoadError, match="missing Meta Kaggle table.*ForumMessages.csv"):
        Tables.find(folder)


def test_read_rows_handles_quotes_bom_and_long_fields(tmp_path):
    path = tmp_path / "t.csv"
    long = "x" * 300_000  # beyond csv's default field limit
    path.write_bytes(
        b'\xef\xbb\xbfId,Message\r\n1,"a ""quoted"", multi\r\nline"\r\n2,' + long.encode() + b"\r\n"
    )
    rows = list(read_rows(path, ["Id", "Message"]))
    assert rows[0] == {"Id": "1", "Message": 'a "quoted", multi\r\nline'}
    assert len(rows[1]["Message"]) == 300_000
    assert to_date("04/29/2015 21:15:41") == "2015-04-29" and to_date("") == "" and to_date("garbage") == ""


def test_auto_discovery_recognises_a_meta_kaggle_folder():
    assert list(discover(str(FIXTURE))) == [("meta-kaggle", FIXTURE)]


class FakeKaggle:
    """Serves the fixture's tables as the Kaggle API would: one zip per file."""

    def __init__(self, fail: str | None = None):
        self.calls: list[str] = []
        self.fail = fail

    def download_file(self, dataset: str, name: str, dest: Path) -> None:
        import zipfile

        self.calls.append(name)
        if name == self.fail:
            raise ConnectionError("network is unreachable")
        with zipfile.ZipFile(dest / f"{name}.zip", "w") as zf:
            zf.write(FIXTURE / name, name)


def test_download_wrapper_fetches_once_and_never_leaves_partial_files(tmp_path):
    api = FakeKaggle()
    dest = fetch_tables(tmp_path / "mk", api, notify=lambda m: None)
    assert sorted(p.name for p in dest.iterdir()) == sorted(p.name for p in FIXTURE.iterdir())
    fetch_tables(dest, api, notify=lambda m: None)
    assert len(api.calls) == 4  # the second call found every table in place

    broken = FakeKaggle(fail="ForumMessages.csv")
    with pytest.raises(IngestError, match="ForumMessages.csv.*network is unreachable"):
        fetch_tables(tmp_path / "mk2", broken, notify=lambda m: None)
    assert not (tmp_path / "mk2" / "ForumMessages.csv").exists()


def test_without_credentials_the_download_says_what_to_do(tmp_path, monkeypatch):
    from automind.ingest.meta_kaggle import KaggleDatasets

    monkeypatch.setenv("KAGGLE_CONFIG_DIR", str(tmp_path / "no-kaggle"))
    for var in ("KAGGLE_USERNAME", "KAGGLE_KEY", "KAGGLE_API_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(IngestError, match="no Kaggle credentials.*meta-kaggle FOLDER"):
        KaggleDatasets()


def test_an_unreadable_kaggle_json_is_a_clear_ingest_error(tmp_path, monkeypatch):
    """The same sign-in as `task fetch` (automind.kaggle_fetch.signed_in_client): the kaggle package exits
    on a bad kaggle.json, and that must reach the user as an IngestError naming the cause."""
    from automind.ingest.meta_kaggle import KaggleDatasets

    for var in ("KAGGLE_USERNAME", "KAGGLE_KEY", "KAGGLE_API_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    (tmp_path / "kcfg").mkdir()
    (tmp_path / "kcfg/kaggle.json").write_text("{not json")
    monkeypatch.setenv("KAGGLE_CONFIG_DIR", str(tmp_path / "kcfg"))
    with pytest.raises(IngestError, match="Kaggle authentication failed.*KAGGLE_USERNAME"):
        KaggleDatasets()


def test_ingest_is_idempotent_and_resumes(tmp_path, hash_settings):
    store = Store.open(tmp_path / "kb", "hash")
    first = ingest_meta_kaggle(
        FIXTURE, store, MetaKaggleOptions(limit=2), settings=hash_settings, progress=False
    )
    assert (first.added, first.unchanged) == (2, 0)
    # A later, larger run (as after an interruption) embeds only what is new.
    second = ingest_meta_kaggle(FIXTURE, store, MetaKaggleOptions(), settings=hash_settings, progress=False)
    assert (second.added, second.unchanged, len(second.failed)) == (3, 2, 1)
    again = ingest_meta_kaggle(FIXTURE, store, MetaKaggleOptions(), settings=hash_settings, progress=False)
    assert (again.added, again.updated, again.unchanged, again.chunks) == (0, 0, 5, 0)
    metas = [r.metadata for r in store.get("posts", include_documents=False)]
    assert {m["origin"] for m in metas} == {"meta-kaggle"}
    assert all(m["url"].startswith("https://www.kaggle.com/competitions/") for m in metas)


@pytest.fixture
def hash_settings(tmp_path, monkeypatch):
    from automind.config import load_config

    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    return load_config(
        {"knowledge.store": str(tmp_path / "kb"), "knowledge.embedder": "hash"}, environ={}
    ).settings


def test_cli_ingests_the_fixture_and_refuses_a_bad_path(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("AUTOMIND_KNOWLEDGE__EMBEDDER", "hash")
    store = tmp_path / "kb"
    args = ["ingest", "meta-kaggle", str(FIXTURE), "--store", str(store), "--json", "--since", "2019"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    assert (report["added"], len(report["failed"])) == (4, 1)
    res = runner.invoke(app, ["ingest", "meta-kaggle", str(tmp_path / "nowhere"), "--store", str(store)])
    assert res.exit_code == 1 and "not a folder" in res.output
    # The plain form still ingests files and folders.
    res = runner.invoke(app, ["ingest", str(FIXTURE), "--store", str(store), "--json", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["unchanged"] == 4


def test_cli_without_a_path_or_credentials_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("AUTOMIND_KNOWLEDGE__EMBEDDER", "hash")
    monkeypatch.setenv("KAGGLE_CONFIG_DIR", str(tmp_path / "no-kaggle"))
    for var in ("KAGGLE_USERNAME", "KAGGLE_KEY", "KAGGLE_API_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    res = runner.invoke(app, ["ingest", "meta-kaggle", "--store", str(tmp_path / "kb"), "--no-progress"])
    assert res.exit_code == 1
    assert "no Kaggle credentials" in res.output and "Traceback" not in res.output


def test_cli_names_the_missing_embedder_package(tmp_path, monkeypatch):
    from automind import embedders

    def missing():
        raise embedders.EmbedderUnavailable('the wordllama embedder needs: pip install "automind[wordllama]"')

    monkeypatch.setitem(embedders.FACTORIES, "wordllama", missing)
    monkeypatch.setattr(embedders, "_INSTANCES", {})  # as in a process that never loaded it
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    args = [
        "ingest",
        str(FIXTURE),
        "--embedder",
        "wordllama",
        "--store",
        str(tmp_path / "kb"),
        "--no-progress",
    ]
    res = runner.invoke(app, args)
    assert res.exit_code == 1 and 'pip install "automind[wordllama]"' in res.output
    assert "Traceback" not in res.output
