"""Tips end to end on a small store: provenance, own-competition filtering, LLM path and its fallback."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from automind.retrieval import KnowledgeBase

TWEETS = (
    "# Tweet Sentiment Extraction\n\nPick out the words in each tweet that support its sentiment label. "
    "Tweets are short texts with a sentiment (positive, negative, neutral); you predict the span of words "
    "that carries it.\n\nSubmissions are scored with the word-level Jaccard score between the predicted and "
    "the true span of text. Use language models such as BERT over the text of each tweet.\n"
)


def _post(folder, name, competition, url, body):
    (folder / f"{name}.md").write_text(
        f"---\nsource_url: {url}\ncompetition: {competition}\ntitle: {name}\nrank: 3\n---\n{body}\n"
    )


@pytest.fixture(scope="module")
def base_kb(tmp_path_factory):
    from automind.config import load_config
    from automind.ingest import ingest

    tmp_path = tmp_path_factory.mktemp("kb")
    settings = load_config(
        {"knowledge.store": str(tmp_path / "store"), "knowledge.embedder": "hash"}, environ={}
    ).settings
    posts = tmp_path / "posts"
    posts.mkdir()
    nlp = "We fine-tuned a transformer on the tweet text and predicted the start and end token of the span. "
    _post(posts, "own-post", "tweet-sentiment-extraction", "https://example.org/own", nlp * 3)
    _post(posts, "twin-post", "tweet-twin", "https://example.org/twin", nlp * 3 + "Twin trick.")
    _post(
        posts,
        "other-post",
        "jigsaw-toxic",
        "https://example.org/other",
        "Toxic comment text classification with TF-IDF and word n-grams. " * 3,
    )
    comps = tmp_path / "comps"
    (comps / "tweet-twin").mkdir(parents=True)  # a stored copy of the task's own description, other slug
    (comps / "tweet-twin" / "description.md").write_text(TWEETS)
    (comps / "tweet-twin" / "config.yaml").write_text(
        "id: tweet-twin\nname: Tweet twin\ngrader:\n  name: jaccard\n"
    )
    kb = KnowledgeBase.open(settings)
    ingest([str(posts), str(comps)], store=kb.store, settings=settings, progress=False, labeler="embedding")
    return kb


@pytest.fixture
def kb(base_kb):
    base_kb.llm = None
    base_kb._labels.clear()
    return base_kb


def _task(description=TWEETS, slug="tweet-sentiment-extraction"):
    return SimpleNamespace(
        description=description,
        slug=slug,
        name="tweets",
        spec=SimpleNamespace(metric=SimpleNamespace(name="jaccard"), problem_type=None),
    )


def test_reference_cards_of_the_recipes_are_never_tips(kb):
    """A component's neutral card ("no change to the predictions") is the ablation's reference, not advice."""
    neutral = {cid for cid, card in kb.cards.items() if (card.recipe or {}).get("neutral")}
    assert neutral  # the shipped recipes have them
    text = "Binary classification of a small table with categorical columns; " + " ".join(
        kb.cards[c].title for c in sorted(neutral)
    )  # a description that asks for them by name
    task = _task(description=text, slug="tabular-thing")
    ids = {t.id for t in kb.tips(task, k=400, use_llm=False).tricks}  # every card the store ranks
    assert ids and not ids & neutral


def test_offline_tips_have_provenance_and_skip_own_competition(kb):
    tips = kb.tips(_task(), k=10, use_llm=False)
    assert tips.labels[0].top == "Natural Language Processing"
    assert 0 < len(tips.tricks) <= 10 and not tips.fallbacks
    sources = [t.source for t in tips.tricks]
    assert all(sources)
    assert any(s.startswith("card:") for s in sources)
    assert "https://example.org/own" not in sources  # same slug
    assert (
        "https://example.org/twin" not in sources
    )  # near-duplicate description -> whole competition dropped
    assert not any("tweet-twin" in s for s in sources)
    cards = [t for t in tips.tricks if t.kind == "card"]
    assert all(t.id in kb.cards for t in cards)
    assert {"labels_s", "search_s", "total_s"} <= set(tips.timings)


def test_other_competitions_still_show_up(kb):
    hits = kb.ranked(_task(), kb.labels(_task(), use_llm=False), kinds=("posts",), k=10)
    comps = {h.meta.get("competition") for h in hits}
    assert comps == {"jigsaw-toxic"}


def test_query_filters_by_kind_and_category(kb):
    hits = kb.query("tweet span transformer", k=3, kind="posts")
    assert hits and all(h.kind == "posts" for h in hits)
    assert hits == sorted(hits, key=lambda h: -h.similarity)
    cv = kb.query("augmentation of images", k=5, category="Computer Vision", kind="cards")
    assert cv and all("computer_vision" in " ".join(h.metadata) for h in cv)
    with pytest.raises(ValueError, match="unknown category"):
        kb.query("x", category="Cooking")


def test_trick_pool_has_recipe_cards_of_the_task_labels(kb):
    pool = kb.trick_pool(_task())
    assert pool[0].kind == "card"
    recipes = [t for t in pool if t.recipe]
    assert recipes and any(lab.startswith("Natural Language Processing") for t in recipes for lab in t.labels)


class ScriptedLLM:
    """Answers the structured calls of automind.llm.tasks by tool name; can be told to fail."""

    def __init__(self, fail: bool = False, applicable=lambda title: True):
        self.fail, self.applicable, self.calls = fail, applicable, []

    def chat(self, messages, role=None, tools=None, response_format=None):
        name = tools[0]["name"]
        self.calls.append(name)
        if self.fail:
            raise RuntimeError("server down")
        args = {
            "assign_categories": {"labels": ["Natural Language Processing", "General Machine Learning"]},
            "assign_subcategories": {"labels": ["Sentiment Analysis"]},
            "distilled_tricks": {
                "tricks": [
                    {
                        "title": f"trick {i}",
                        "text": f"Do thing {i} to the tweets.",
                        "stage": "model",
                        "source": f"[{i % 3 + 1}]",
                    }
                    for i in range(9)
                ]
            },
        }.get(name)
        if name == "trick_applicability":
            args = {"applicable": self.applicable(messages[-1]["content"])}
        return SimpleNamespace(text="", tool_args=args, usage=None)


def test_llm_path_labels_distils_and_checks(kb):
    kb.llm = ScriptedLLM(applicable=lambda prompt: "trick 0" not in prompt)
    tips = kb.tips(_task(), k=10)
    assert [lb.top for lb in tips.labels][:2] == ["Natural Language Processing", "General Machine Learning"]
    assert tips.labels[0].sub == "Sentiment Analysis"
    assert not tips.fallbacks
    assert [t.title for t in tips.tricks] == [
        f"trick {i}" for i in range(1, 9)
    ]  # trick 0 judged inapplicable
    assert all(t.kind == "distilled" and t.source and not t.source.startswith("[") for t in tips.tricks)
    assert kb.llm.calls.count("trick_applicability") == 9


def test_llm_failure_falls_back_offline_and_says_so(kb):
    kb.llm = ScriptedLLM(fail=True)
    tips = kb.tips(_task(), k=5)
    assert tips.labels[0].top == "Natural Language Processing"  # offline labeller
    assert len(tips.fallbacks) == 2
    assert tips.fallbacks[0].startswith("labels:") and "server down" in tips.fallbacks[0]
    assert tips.fallbacks[1].startswith("tricks:")
    assert tips.tricks and all(t.kind != "distilled" for t in tips.tricks)
    again = kb.tips(_task(), k=5, use_llm=False)
    assert not again.fallbacks


def test_langchain_adapter_returns_documents(kb):
    from langchain_core.documents import Document

    from automind.retrieval.langchain import AutomindRetriever

    docs = AutomindRetriever(kb=kb, k=2, kind="posts").invoke("tweet span")
    assert len(docs) == 2 and all(isinstance(d, Document) for d in docs)
    assert all(d.metadata["kind"] == "posts" and d.metadata["source"] and d.page_content for d in docs)


def test_langchain_conventions_as_retriever_and_from_store(kb):
    from langchain_core.retrievers import BaseRetriever

    from automind.retrieval import KnowledgeBase
    from automind.retrieval.langchain import METADATA_KEYS

    docs = kb.as_retriever(k=3, kind="posts").invoke("tweet span")
    assert len(docs) == 3
    for d in docs:
        assert not any(k.startswith("lbl__") for k in d.metadata)  # internal filter keys stay inside
        assert {"id", "kind", "similarity", "source", "title", "competition", "rank"} <= set(d.metadata)
        assert set(d.metadata) - {"content_hash", "doc_hash"} <= set(METADATA_KEYS) | {"task_type", "origin"}
    raw = kb.as_retriever(k=1, kind="posts", include_internal=True).invoke("tweet span")[0]
    assert any(k.startswith("lbl__") for k in raw.metadata) and "content_hash" in raw.metadata

    retriever = KnowledgeBase.open_store(kb.store.location, embedder="hash").as_retriever(k=2, kind="posts")
    assert [d.page_content for d in retriever.invoke("tweet span")] == [d.page_content for d in docs[:2]]
    from automind.retrieval.langchain import AutomindRetriever

    retriever = AutomindRetriever.from_store(kb.store.location, k=2, embedder="hash", kind="posts")
    assert isinstance(retriever, BaseRetriever) and type(retriever) is type(kb.as_retriever())
    assert [d.page_content for d in retriever.invoke("tweet span")] == [d.page_content for d in docs[:2]]


def test_open_store_refuses_a_location_without_a_store(tmp_path):
    from automind.retrieval import KnowledgeBase
    from automind.store import StoreMissingError

    with pytest.raises(StoreMissingError):
        KnowledgeBase.open_store(str(tmp_path / "nothing-here"), embedder="hash")
    from automind.retrieval.langchain import AutomindRetriever

    with pytest.raises(StoreMissingError):
        AutomindRetriever.from_store(tmp_path / "nothing-here", embedder="hash")
    assert not (tmp_path / "nothing-here").exists()


def test_retrieval_package_does_not_import_langchain():
    import subprocess
    import sys

    code = "import sys, automind.retrieval; print('langchain_core' in sys.modules)"
    assert (
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"
    )


@pytest.mark.slow
def test_tips_with_minilm_on_a_card_subset(tmp_path):
    from automind.config import load_config
    from automind.ingest.cards import ensure_cards
    from automind.knowledge import load_cards
    from automind.store import Store, get_embedder

    settings = load_config(
        {"knowledge.store": str(tmp_path / "s"), "knowledge.embedder": "minilm"}, environ={}
    ).settings
    by_top: dict[str, list] = {}
    for card in load_cards():
        by_top.setdefault(card.labels[0].split("/")[0], []).append(card)
    subset = [c for cards in by_top.values() for c in cards[:2]]
    store = Store.open(settings.knowledge.store, get_embedder("minilm"))
    ensure_cards(store, cards=subset, settings=settings)
    kb = KnowledgeBase(store, settings, cards=subset)
    task = _task(
        "Identify the plant disease from photos of leaves. Each jpg image shows one leaf; predict its disease "
        "class. Submissions are scored by accuracy.",
        slug="leaves",
    )
    tips = kb.tips(task, k=4, use_llm=False)
    assert tips.labels[0].top == "Computer Vision"
    assert tips.tricks[0].labels and tips.tricks[0].labels[0].startswith("Computer Vision")
    assert all(t.source.startswith("card:") for t in tips.tricks)


def test_trick_pool_reuses_the_llm_labels_of_tips(kb):
    kb.llm = ScriptedLLM()
    kb.tips(_task(), k=3)
    kb.llm.calls.clear()
    pool = kb.trick_pool(_task())
    assert not kb.llm.calls  # no second labelling, no LLM call for the pool
    assert pool and pool[0].labels[0].startswith("Natural Language Processing")
