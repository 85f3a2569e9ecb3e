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


# -- safety: damaged, missing and silent stores --------------------------------------------------------


def _good_store(path):
    st = Store.open(path, "hash")
    st.upsert("cards", ["a", "b"], ["alpha text", "beta text"], [{"k": 1}, {"k": 2}])
    return st


@pytest.mark.parametrize(
    ("damage", "why"),
    [
        (lambda db: db.write_bytes(b""), "0 bytes"),
        (lambda db: db.write_bytes(b"this is not a database" * 50), "not an SQLite database"),
    ],
)
def test_a_damaged_database_is_reported_and_never_rebuilt(tmp_path, damage, why):
    from automind.store import StoreDamagedError

    _good_store(tmp_path / "kb")
    db = tmp_path / "kb" / "chroma.sqlite3"
    damage(db)
    before = db.read_bytes()
    with pytest.raises(StoreDamagedError, match=f"damaged.*{why}.*Rebuild it"):
        Store.open(tmp_path / "kb", "hash")
    assert db.read_bytes() == before  # nothing was written over the user's file


def test_a_truncated_database_is_reported_on_open(tmp_path):
    from automind.store import StoreDamagedError

    _good_store(tmp_path / "src")
    (tmp_path / "kb").mkdir()
    data = (tmp_path / "src" / "chroma.sqlite3").read_bytes()
    (tmp_path / "kb" / "chroma.sqlite3").write_bytes(data[:4096] + b"\0" * 8192)  # header intact, pages gone
    with pytest.raises(StoreDamagedError, match="damaged"):
        st = Store.open(tmp_path / "kb", "hash")
        st.count("cards")


def test_reads_never_create_a_store_at_a_mistyped_path(tmp_path):
    from automind.store import StoreMissingError

    with pytest.raises(StoreMissingError, match="no knowledge store at .*typo"):
        Store.open(tmp_path / "typo", "hash", create=False)
    assert not (tmp_path / "typo").exists()
    (tmp_path / "plain").mkdir()
    with pytest.raises(StoreMissingError, match="not a knowledge store"):
        Store.open(tmp_path / "plain", "hash", create=False)
    _good_store(tmp_path / "kb")
    assert Store.open(tmp_path / "kb", "hash", create=False).count("cards") == 2


def test_a_silent_chroma_server_hits_the_deadline_and_is_named(tmp_path):
    import socket
    import time

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)  # connections are accepted by the kernel; nothing ever answers
    port = server.getsockname()[1]
    try:
        t0 = time.perf_counter()
        with pytest.raises(StoreError, match=rf"127\.0\.0\.1:{port}.*did not answer within 1 s"):
            Store.open(f"http://127.0.0.1:{port}", "hash", timeout=1.0)
        assert time.perf_counter() - t0 < 10
    finally:
        server.close()


def test_missing_wordllama_says_which_extra_to_install(monkeypatch):
    import builtins

    from automind.embedders import EmbedderUnavailable, WordLlamaEmbedder

    real_import = builtins.__import__

    def no_wordllama(name, *args, **kwargs):
        if name == "wordllama" or name.startswith("wordllama."):
            raise ModuleNotFoundError("No module named 'wordllama'", name="wordllama")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_wordllama)
    with pytest.raises(EmbedderUnavailable, match=r'pip install "automind\[wordllama\]"'):
        WordLlamaEmbedder()


@pytest.mark.slow
def test_onnx_minilm_gives_the_sentence_transformers_vectors(tmp_path):
    import numpy as np

    from automind.embedders import MiniLMEmbedder

    texts = [
        "Predict which passengers survived the Titanic from age, class and fare.",
        "Segment ships in satellite images; score is the F2 over IoU thresholds.",
        "",
        "word " * 400,  # longer than the 256-token window: truncated the same way
    ]
    onnx = MiniLMEmbedder(backend="onnx", cache_dir=tmp_path, notify=lambda m: None)
    torch_based = MiniLMEmbedder(backend="torch")
    a, b = onnx.embed(texts), torch_based.embed(texts)
    assert a.shape == b.shape == (4, 384)
    assert np.min(np.sum(a * b, axis=1)) > 0.9999
    assert list(tmp_path.glob("*.onnx"))  # the export is cached for the next process


def test_question_vectors_are_cached_on_disk(tmp_path):
    import numpy as np

    from automind.embedders import CachedQueries

    calls: list[list[str]] = []

    class Counting(HashEmbedder):
        def embed(self, texts):
            calls.append(list(texts))
            return super().embed(texts)

    first = CachedQueries("hash", load=Counting, cache_dir=tmp_path)
    v1 = first.embed(["gradient boosting", "image augmentation", "gradient boosting"])
    second = CachedQueries("hash", load=Counting, cache_dir=tmp_path)  # another process, same home
    v2 = second.embed(["image augmentation", "gradient boosting", "a new question"])
    assert calls == [["gradient boosting", "image augmentation"], ["a new question"]]
    assert np.allclose(v1[0], v2[1]) and np.allclose(v1[1], v2[0]) and np.allclose(v1[0], v1[2])
    assert np.allclose(v2[2], HashEmbedder().embed(["a new question"])[0])


def test_a_warm_knowledge_base_answers_without_loading_the_model(tmp_path, monkeypatch):
    from types import SimpleNamespace

    from automind.config import load_config
    from automind.retrieval import KnowledgeBase

    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    settings = load_config(
        {"knowledge.store": str(tmp_path / "kb"), "knowledge.embedder": "hash"}, environ={}
    ).settings
    task = SimpleNamespace(
        description="Classify tweets by sentiment from their text.",
        slug="t",
        name="t",
        spec=SimpleNamespace(metric=SimpleNamespace(name="accuracy"), problem_type=None),
    )
    cold = KnowledgeBase.open(settings).tips(task, k=4, use_llm=False)

    store = Store.open(tmp_path / "kb", "hash", lazy=True)

    def no_model():
        raise AssertionError("the model was loaded on a warm question")

    store.load_embedder = no_model
    warm = KnowledgeBase.open(settings, store=store).tips(task, k=4, use_llm=False)
    assert [t.id for t in warm.tricks] == [t.id for t in cold.tricks]
