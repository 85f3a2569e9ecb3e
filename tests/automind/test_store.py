"""The store keeps one embedder per collection, round-trips metadata, and filters/deletes precisely."""

from __future__ import annotations

import numpy as np
import pytest

from automind.store import HashEmbedder, Store, StoreError, StoreMismatchError, get_embedder


@pytest.fixture
def store(tmp_path):
    return Store.open(tmp_path / "kb", "hash")


def test_hash_embedder_is_deterministic_and_normalised():
    e = HashEmbedder()
    a = e.embed(["gradient boosting on tabular data", "", "gradient boosting on tabular data"])
    assert a.shape == (3, e.dim)
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0)
    assert np.allclose(a[0], a[2])
    assert np.allclose(HashEmbedder().embed(["gradient boosting on tabular data"])[0], a[0])


def test_get_embedder_is_cached_and_rejects_unknown():
    assert get_embedder("hash") is get_embedder("hash")
    with pytest.raises(ValueError, match="minilm"):
        get_embedder("nope")


def test_query_ranks_the_closer_text_first(store):
    store.add(
        "posts",
        ["a", "b"],
        [
            "lightgbm gradient boosting for tabular regression",
            "u-net segmentation masks for satellite images",
        ],
        [{"source": "x", "rank": 1}, {"source": "y", "rank": 2}],
    )
    hits = store.query("posts", "gradient boosting tabular", k=5)
    assert [h.id for h in hits] == ["a", "b"]
    assert hits[0].similarity > hits[1].similarity
    assert hits[0].kind == "posts" and hits[0].metadata["rank"] == 1
    # a flat multi-key filter is accepted (wrapped in $and)
    only = store.query("posts", "gradient boosting tabular", k=5, where={"source": "y", "rank": 2})
    assert [h.id for h in only] == ["b"]
    # a raw vector works too
    vec = store.embedder.embed(["u-net segmentation"])[0]
    assert store.query("posts", vec, k=1)[0].id == "b"


def test_missing_kind_is_empty_not_an_error(store):
    assert store.query("papers", "anything") == []
    assert store.count("papers") == 0
    assert store.get("papers") == []
    assert store.delete("papers", where={"source": "x"}) == 0
    assert "papers" not in store.kinds()


def test_mismatched_embedder_is_refused_with_guidance(tmp_path):
    s = Store.open(tmp_path / "kb", "hash")
    s.add("cards", ["c"], ["target encoding"], [{"source": "card:c"}])
    other = Store.open(tmp_path / "kb", "wordllama")
    with pytest.raises(StoreMismatchError) as e:
        other.query("cards", "target encoding")
    msg = str(e.value)
    assert "'hash'" in msg and "'wordllama'" in msg and "--store" in msg
    with pytest.raises(StoreMismatchError):
        other.add("cards", ["d"], ["x"], [{"source": "card:d"}])
    assert s.count("cards") == 1  # nothing was written by the refused call


def test_get_delete_upsert_and_meta(store):
    ids = [f"id{i}" for i in range(7)]
    store.add(
        "papers", ids, [f"text number {i}" for i in range(7)], [{"source": f"s{i % 2}"} for i in range(7)]
    )
    assert store.count("papers") == 7
    assert {r.id for r in store.get("papers", where={"source": "s1"})} == {"id1", "id3", "id5"}
    store.upsert("papers", ["id0"], ["replaced"], [{"source": "s0", "extra": 1}])
    assert store.get("papers", ids=["id0"])[0].document == "replaced"
    assert store.delete("papers", where={"source": "s1"}) == 3
    assert store.count("papers") == 4
    store.set_meta("papers", cards_fingerprint="abc")
    assert store.meta("papers")["cards_fingerprint"] == "abc"
    assert store.meta("papers")["embedder"] == "hash"
    # cosine space survives the metadata change: identical text has similarity ~1
    assert store.query("papers", "replaced", k=1)[0].similarity == pytest.approx(1.0, abs=1e-4)


def test_batches_larger_than_the_chroma_limit(store):
    store.max_batch = 3
    n = 10
    store.add(
        "posts", [str(i) for i in range(n)], [f"doc {i}" for i in range(n)], [{"i": i} for i in range(n)]
    )
    assert store.count("posts") == n
    assert len(store.get("posts")) == n
    assert store.delete("posts", where={"i": {"$gte": 2}}) == 8


def test_store_location_that_is_a_file_is_a_clear_error(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(StoreError, match="is a file"):
        Store.open(f, "hash")


def test_open_defaults_from_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOMIND_STORE", str(tmp_path / "env-kb"))
    monkeypatch.setenv("AUTOMIND_KNOWLEDGE__EMBEDDER", "hash")
    s = Store.open()
    assert s.location == str(tmp_path / "env-kb") and s.embedder.name == "hash"
