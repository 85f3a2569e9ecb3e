"""The pipeline is idempotent, replaces changed documents, and survives broken files."""

from __future__ import annotations

import json

import pytest

from automind.ingest import IngestError, ensure_cards, ingest
from automind.ingest.pipeline import IngestReport
from automind.store import Store


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


@pytest.fixture
def store(tmp_path):
    return Store.open(tmp_path / "kb", "hash")


def run(sources, store, **kw) -> IngestReport:
    return ingest([str(s) for s in sources], store=store, labeler="embedding", progress=False, **kw)


def test_second_ingest_adds_nothing(corpus, store):
    first = run([corpus], store)
    assert first.failed == []
    assert first.added == 9 and first.updated == 0 and first.chunks > 8
    counts = {k: store.count(k) for k in store.kinds()}
    assert set(counts) == {"posts", "competitions", "papers", "solutions"}
    second = run([corpus], store)
    assert (second.added, second.updated, second.chunks) == (0, 0, 0)
    assert second.unchanged == first.added
    assert {k: store.count(k) for k in store.kinds()} == counts


def test_every_chunk_carries_the_agreed_metadata(corpus, store):
    run([corpus], store)
    recs = store.get("posts") + store.get("papers") + store.get("solutions")
    for r in recs:
        m = r.metadata
        for key in (
            "kind",
            "source",
            "competition",
            "title",
            "rank",
            "stage",
            "content_hash",
            "doc_hash",
            "top_label",
        ):
            assert key in m, key
        labels = json.loads(m["labels"])
        assert labels and labels[0]["top"] == m["top_label"]
        assert isinstance(m["rank"], int)
        assert all(f"lbl__{lab['top'].lower().replace(' ', '_').replace('-', '_')}" in m for lab in labels)
    summary = [r for r in store.get("papers") if r.metadata["stage"] == "summary"]
    assert len(summary) == 2  # one per paper (json and pdf)


def test_changed_document_replaces_its_chunks(tmp_path, store):
    post = tmp_path / "p.md"
    post.write_text(
        "---\ntitle: A\n---\n## Part one\n\nOld advice about folds.\n\n## Part two\n\nKeep this part.\n"
    )
    run([post], store)
    before = {r.id: r.document for r in store.get("posts")}
    post.write_text(
        "---\ntitle: A\n---\n## Part one\n\nNew advice about blending.\n\n## Part two\n\nKeep this part.\n"
    )
    rep = run([post], store)
    assert (rep.added, rep.updated) == (0, 1)
    after = {r.id: r.document for r in store.get("posts")}
    assert not any("Old advice" in d for d in after.values())
    assert any("New advice" in d for d in after.values())
    kept = [i for i, d in after.items() if "Keep this part" in d]
    assert kept and kept[0] in before  # the unchanged chunk kept its content-hash id
    assert rep.removed == 1
    assert len({r.metadata["doc_hash"] for r in store.get("posts")}) == 1


def test_interrupted_update_is_repaired_by_the_next_run(tmp_path, store, monkeypatch):
    post = tmp_path / "p.md"
    post.write_text("## One\n\nFirst version text.\n")
    run([post], store)
    post.write_text("## One\n\nSecond version text.\n")
    monkeypatch.setattr(Store, "delete", lambda *a, **k: (_ for _ in ()).throw(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        run([post], store)
    docs = [r.document for r in store.get("posts")]
    assert any("Second version" in d for d in docs)  # new chunks were written before the old went
    monkeypatch.undo()
    rep = run([post], store)
    assert rep.updated == 1
    assert [r.document for r in store.get("posts") if "First version" in r.document] == []


def test_failures_are_reported_and_the_rest_ingested(corpus, broken, store, tmp_path):
    rep = run([broken, corpus / "posts", tmp_path / "missing"], store)
    reasons = {src.rsplit("/", 1)[-1]: why for src, why in rep.failed}
    assert set(reasons) == {"bad.json", "garbage.md", "empty.md", "missing"}
    assert "invalid JSON" in reasons["bad.json"] and "empty" in reasons["empty.md"]
    assert rep.added == 2 and store.count("posts") > 0


def test_dry_run_writes_nothing(corpus, store):
    rep = run([corpus], store, dry_run=True)
    assert rep.dry_run and rep.added == 9 and rep.chunks > 0
    assert store.kinds() == []


def test_labeler_llm_without_llm_is_a_clear_error(corpus, store):
    with pytest.raises(IngestError, match="--labeler llm needs an LLM"):
        ingest([str(corpus)], store=store, labeler="llm", progress=False)


def test_llm_labels_and_paper_summaries_are_used_when_given(corpus, store, monkeypatch):
    import sys
    import types

    from automind.ingest.labeling import Label

    fake = types.ModuleType("automind.llm.tasks")
    fake.label_with_llm = lambda llm, text, taxonomy, top_k=3: [
        Label("Graph Learning", "Link Prediction", 0.9)
    ]
    fake.summarize_paper = lambda llm, text: {"data_type": "LLM_DATA_TYPE", "techniques": {"model": ["GNN"]}}
    monkeypatch.setitem(sys.modules, "automind.llm.tasks", fake)
    ingest(
        [str(corpus / "posts"), str(corpus / "papers")],
        store=store,
        labeler="llm",
        llm=object(),
        progress=False,
    )
    assert {r.metadata["top_label"] for r in store.get("posts")} == {"Graph Learning"}
    summaries = [r.document for r in store.get("papers", where={"stage": "summary"})]
    assert len(summaries) == 2 and all("LLM_DATA_TYPE" in d and "model: GNN" in d for d in summaries)


def test_ensure_cards_first_use_then_only_on_change(store):
    from automind.knowledge import load_cards

    cards = load_cards()[:5]
    first = ensure_cards(store, cards=cards)
    assert first is not None and first.added == 5
    assert store.count("cards") == 5
    rec = store.get("cards", where={"source": f"card:{cards[0].id}"})[0]
    assert rec.metadata["stage"] == cards[0].stage
    assert rec.metadata["top_label"] == cards[0].labels[0].split("/")[0]
    assert ensure_cards(store, cards=cards) is None  # unchanged fingerprint: nothing to do
    changed = [cards[0].model_copy(update={"trick": "A different trick."})] + cards[1:4]
    again = ensure_cards(store, cards=changed)
    assert again is not None and again.updated == 1 and again.unchanged == 3
    assert store.count("cards") == 4  # the card that left the set was removed
    assert "A different trick." in store.get("cards", where={"source": f"card:{cards[0].id}"})[0].document


def test_ensure_cards_leaves_user_cards_alone(store, tmp_path):
    from automind.knowledge import load_cards

    user = tmp_path / "mine.yaml"
    user.write_text(
        "- id: my-own-trick\n  title: My trick\n  labels: [General Machine Learning]\n  stage: model\n"
        "  when: always\n  trick: do the thing\n"
    )
    rep = run([user], store, kind="cards")
    assert rep.added == 1
    ensure_cards(store, cards=load_cards()[:2])
    assert store.get("cards", where={"source": "card:my-own-trick"})


def test_urls_are_fetched_and_a_dead_link_is_reported(store, monkeypatch):
    import requests

    page = "<html><head><title>Write-up</title></head><body><nav>MENU</nav><h2>Models</h2><p>Blend.</p></body></html>"

    class Resp:
        text = page

        def raise_for_status(self):
            pass

    def fake_get(url, timeout, headers):
        assert timeout <= 30
        if "dead" in url:
            raise requests.ConnectionError("name resolution failed")
        return Resp()

    monkeypatch.setattr(requests, "get", fake_get)
    rep = run(["https://example.org/writeup", "https://dead.example.org/x"], store)
    assert rep.added == 1
    assert rep.failed == [
        ("https://dead.example.org/x", "could not fetch: ConnectionError: name resolution failed")
    ]
    (rec,) = store.get("posts")
    assert rec.metadata["source"] == "https://example.org/writeup" and "MENU" not in rec.document
