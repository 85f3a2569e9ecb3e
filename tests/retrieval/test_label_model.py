"""The learned task labeller: shipped artefacts, calibrated scores, the label file and the training command."""

from __future__ import annotations

import time

import numpy as np
import pytest
import yaml

from automind.knowledge import load_taxonomy
from automind.retrieval import label_features as lf
from automind.retrieval import label_model, labeler
from automind.retrieval import train_labeler as tl
from automind.retrieval.label_model import LabelModel, LabelModelError
from automind.store import EMBEDDERS, get_embedder

CASES = {
    "Computer Vision": (
        "Classify photos of dog breeds. The training folder holds 10,000 jpg images of dogs and a CSV "
        "mapping each image id to one of 120 breeds; predict the breed of every test image.",
        "Image Classification",
        "multi-class-log-loss",
    ),
    "Natural Language Processing": (
        "Given the text of a movie review written by a user, predict whether the sentiment of the review "
        "is positive or negative. Each row holds one review of a few sentences.",
        ("Sentiment Analysis", "Text Classification"),  # binary sentiment is also plain text classification
        "roc_auc",
    ),
    "Sequential Modeling": (
        "Forecast daily sales for each store and product over the next 28 days, using several years of "
        "historical daily sales, prices and holidays. Submissions are scored by SMAPE.",
        "Time Series Forecasting",
        "smape",
    ),
    "Recommender Systems": (
        "Predict which articles each user will click next. You are given the logs of user sessions on a "
        "news site, with user ids, article ids and timestamps of each click, and must recommend 10 articles "
        "per user ranked by click probability.",
        None,
        "map@10",
    ),
    "General Machine Learning": (
        "Predict the sale price of each house from its tabular features: lot area, number of rooms, year "
        "built, neighbourhood and other numeric and categorical columns. Scored by RMSE.",
        "Regression",
        "rmse",
    ),
}


@pytest.fixture(scope="module")
def embedder():
    return get_embedder("wordllama")


@pytest.mark.parametrize("name", EMBEDDERS)
def test_every_embedder_has_a_small_shipped_model_that_loads_fast(name):
    path = label_model.model_path(name)
    assert path.is_file(), (
        f"rebuild with python -m automind.retrieval.train_labeler SHARED_DIR --embedder {name}"
    )
    assert path.stat().st_size < 400_000
    t0 = time.perf_counter()
    model = LabelModel.load(path)
    assert time.perf_counter() - t0 < 1.0
    tax = load_taxonomy()
    assert model.tops == [c.name for c in tax.categories]
    assert all(tax.get(t).sub(s) is not None for t, s in model.pairs)
    assert model.info["examples"]["index"] > 500  # trained on the real corpus, not a fixture


@pytest.mark.parametrize("top", list(CASES))
def test_hand_written_descriptions_get_their_category(embedder, top):
    text, sub, metric = CASES[top]
    labels = labeler.label_offline(text, embedder, load_taxonomy(), metric=metric)
    assert labels[0].top == top, labels
    if sub:
        assert labels[0].sub in ((sub,) if isinstance(sub, str) else sub), labels


def test_scores_are_calibrated_probabilities(embedder):
    model = label_model.load_model("wordllama")
    x = lf.features(lf.task_text(CASES["Computer Vision"][0]), "accuracy", embedder)
    p = model.top_probs(x)
    assert p.shape == (len(model.tops),) and np.isclose(p.sum(), 1.0, atol=1e-5)
    assert np.isclose(model.sub_probs(x).sum(), 1.0, atol=1e-5)
    within = model.subs_within(model.sub_probs(x), "Computer Vision")
    assert np.isclose(sum(p for _, p in within), 1.0, atol=1e-5)
    labels = labeler.label_offline(CASES["Computer Vision"][0], embedder, load_taxonomy(), metric="accuracy")
    assert sum(lb.score for lb in labels) <= 1.0 + 1e-6
    assert [lb.score for lb in labels] == sorted((lb.score for lb in labels), reverse=True)
    assert 0 < labels[0].sub_score <= 1


def _two_way_model(gap: float) -> LabelModel:
    """A model whose top logits depend only on the first feature: CV and NLP, `gap` apart."""
    tax = load_taxonomy()
    tops, pairs = tl.class_lists(tax)
    dim = 8
    w_top = np.zeros((len(tops), dim), dtype=np.float32)
    b_top = np.full(len(tops), -10.0, dtype=np.float32)
    b_top[tops.index("Computer Vision")] = 2.0 + gap
    b_top[tops.index("Natural Language Processing")] = 2.0
    return LabelModel(
        embedder="fake",
        tops=tops,
        pairs=pairs,
        w_top=w_top,
        b_top=b_top,
        w_sub=np.zeros((len(pairs), dim), dtype=np.float32),
        b_sub=np.zeros(len(pairs), dtype=np.float32),
        flag_home=[tl.FLAG_HOME[f] for f in lf.FLAGS],
    )


class _Fake:
    name, dim = "fake", 8


def test_near_ties_show_as_two_labels_and_clear_cases_as_one(monkeypatch):
    monkeypatch.setattr(lf, "features", lambda text, metric, embedder: np.zeros(8, dtype=np.float32))
    tax = load_taxonomy()
    monkeypatch.setattr(labeler, "load_model", lambda name: _two_way_model(0.05))
    tie = labeler.label_offline("anything", _Fake(), tax)
    assert [lb.top for lb in tie] == ["Computer Vision", "Natural Language Processing"]
    assert abs(tie[0].score - tie[1].score) < 0.05
    monkeypatch.setattr(labeler, "load_model", lambda name: _two_way_model(6.0))
    clear = labeler.label_offline("anything", _Fake(), tax)
    assert [lb.top for lb in clear] == ["Computer Vision"]


def test_data_flags_move_probability_toward_their_category():
    model = label_model.load_model("wordllama")
    x = np.zeros(model.w_top.shape[1], dtype=np.float32)
    none = model.top_probs(x)
    image = model.top_probs(x, lf.flags_from_modalities({"image", "tabular"}))
    cv = model.tops.index("Computer Vision")
    assert image[cv] > none[cv]
    assert model.alpha[lf.FLAGS.index("image")] > 0


def test_flags_ignore_key_columns_that_are_not_users_or_items():
    assert lf.flags_from_modalities({"ids", "tabular"}, ["store_id", "dept_id"])[lf.FLAGS.index("ids")] == 0
    assert lf.flags_from_modalities({"ids", "tabular"}, ["user_id", "item_id"])[lf.FLAGS.index("ids")] == 1
    only = lf.flags_from_modalities({"tabular"})
    assert only[lf.FLAGS.index("tabular_only")] == 1
    assert lf.flags_from_modalities(set()).sum() == 0


def test_metric_names_from_kaggle_and_automind_share_a_family():
    assert lf.metric_family("Root Mean Squared Error") == lf.metric_family("rmse") == "rmse"
    assert lf.metric_family("Area Under Receiver Operating Characteristic Curve") == lf.metric_family(
        "roc_auc"
    )
    assert lf.metric_family("multi-class-log-loss") == lf.metric_family("Multiclass Loss") == "logloss"
    assert lf.metric_family("RSNAObjectDetectionAP") == "detection_ap"
    assert lf.metric_family("MAP@{K}") == "ranking"
    assert lf.metric_family(None) is None and lf.metric_family("Custom Metric 42") is None


def test_shipped_label_file_validates_against_the_taxonomy():
    rows = tl.load_labels()
    assert len(rows) >= 700
    assert tl.validate_labels(rows, load_taxonomy()) == []
    labelled = [r for r in rows if not r.exclude]
    assert len(labelled) >= 600
    assert {r.top for r in labelled} == {c.name for c in load_taxonomy().categories}
    text = tl.labels_path().read_text()
    assert "desc:" not in text and "description:" not in text  # labels and short facts only


def test_label_file_problems_are_reported_by_row(tmp_path):
    bad = tmp_path / "labels.yaml"
    bad.write_text(
        yaml.safe_dump(
            {
                "competitions": [
                    {"slug": "a", "top": "Computer Vision", "sub": "Tabular Stuff"},
                    {"slug": "b", "top": "Astrology", "sub": "Horoscopes"},
                    {"slug": "a", "exclude": "dup"},
                    {"slug": "c", "top": "Computer Vision", "sub": "Image Classification", "data": ["smell"]},
                ]
            }
        )
    )
    problems = tl.validate_labels(tl.load_labels(bad), load_taxonomy())
    assert any("a: 'Tabular Stuff' is not a subcategory of Computer Vision" in p for p in problems)
    assert any("b: unknown top-level category 'Astrology'" in p for p in problems)
    assert any("a: listed twice" in p for p in problems)
    assert any("c: unknown data modalities ['smell']" in p for p in problems)


# fmt: off
FIXTURE = [
    ("cats-a", "Cat photos", "Classify cat images by breed", "Computer Vision", "Image Classification", "image"),
    ("cats-b", "Dog pictures", "Which dog is in the photo?", "Computer Vision", "Image Classification", None),
    ("seg-a", "Cell masks", "Segment cells in microscopy images", "Computer Vision", "Image Segmentation", None),
    ("tweets", "Tweet mood", "Predict the sentiment of each tweet text", "Natural Language Processing",
     "Sentiment Analysis", "text"),
    ("essays", "Essay grades", "Score student essays written in English", "Natural Language Processing",
     "Text Classification", None),
    ("qa", "Answer questions", "Find the answer span in a text passage", "Natural Language Processing",
     "Question Answering", None),
    ("houses", "House prices", "Predict house prices from tabular columns", "General Machine Learning",
     "Regression", "tabular"),
    ("loans", "Loan default", "Will a customer default? Tabular features", "General Machine Learning",
     "Classification", None),
    ("sales", "Store sales", "Forecast daily sales for the next month", "Sequential Modeling",
     "Time Series Forecasting", None),
    ("traffic", "Web traffic", "Forecast page views of each wiki page", "Sequential Modeling",
     "Time Series Forecasting", None),
]
# fmt: on


def _fixture_shared(tmp_path):
    shared = tmp_path / "shared"
    (shared / "kaggle-solutions").mkdir(parents=True)
    comps = [
        {"title": t, "desc": d, "metric": "Accuracy", "link": f"https://www.kaggle.com/c/{s}"}
        for s, t, d, *_ in FIXTURE
    ]
    (shared / "kaggle-solutions" / "competitions.yml").write_text(yaml.safe_dump({"competitions": comps}))
    full = shared / "competitions" / "cats-a"
    full.mkdir(parents=True)
    (full / "description.md").write_text("# Overview\n\nClassify images of cats.\n\n# Data\n\ntrain/*.jpg\n")
    (full / "config.yaml").write_text("name: Cat photos\ngrader:\n  name: accuracy\n")
    rows = [
        {"slug": s, "top": top, "sub": sub, **({"data": [data]} if data else {})}
        for s, _, _, top, sub, data in FIXTURE
    ]
    rows.append({"slug": "puzzle", "exclude": "optimisation puzzle"})
    labels = tmp_path / "labels.yaml"
    labels.write_text(yaml.safe_dump({"competitions": rows}))
    return shared, labels


@pytest.mark.slow  # ~10 s quiet, more on a loaded machine: a real (small) fit with inner CV
def test_training_command_runs_on_a_tiny_corpus(tmp_path, capsys):
    shared, labels = _fixture_shared(tmp_path)
    out = tmp_path / "models"
    argv = [str(shared), "--embedder", "hash", "--out", str(out), "--labels", str(labels), "--c", "2"]
    assert tl.main(argv) == 0
    assert "hash: " in capsys.readouterr().out
    model = LabelModel.load(out / "hash.npz")
    assert model.info["examples"] == {
        "index": 10,
        "full": 1,
        "taxonomy": len(tl.taxonomy_examples(load_taxonomy())),
    }
    x = lf.features(lf.task_text("Classify cat images by breed"), "accuracy", get_embedder("hash"))
    assert np.isclose(model.top_probs(x).sum(), 1.0, atol=1e-5)


def test_training_command_explains_bad_input(tmp_path, capsys):
    _, labels = _fixture_shared(tmp_path)
    assert tl.main([str(tmp_path / "nowhere"), "--embedder", "hash", "--labels", str(labels)]) == 2
    assert "neither kaggle-solutions/competitions.yml nor competitions/" in capsys.readouterr().err
    assert tl.main([str(tmp_path), "--embedder", "hash", "--labels", str(labels), "--c", "0"]) == 2
    assert "--c needs positive numbers" in capsys.readouterr().err
    assert tl.main([str(tmp_path), "--embedder", "nope", "--labels", str(labels)]) == 2


def test_missing_model_says_how_to_rebuild(tmp_path):
    with pytest.raises(LabelModelError, match="train_labeler"):
        LabelModel.load(tmp_path / "absent.npz")
    (tmp_path / "broken.npz").write_bytes(b"not a zip")
    with pytest.raises(LabelModelError, match="unreadable"):
        LabelModel.load(tmp_path / "broken.npz")


def test_group_folds_keep_series_together_and_never_test_taxonomy_rows():
    groups = ["s1", "s1", "s2", "s3", "s3", "s3", tl.TAXONOMY_GROUP, "s4", "s5"]
    folds = tl.group_folds(groups, 3, seed=1)
    tested = np.concatenate(folds)
    assert sorted(tested.tolist()) == [i for i, g in enumerate(groups) if g != tl.TAXONOMY_GROUP]
    for fold in folds:
        names = {groups[i] for i in fold}
        for g in names:
            assert all(i in fold for i, h in enumerate(groups) if h == g)
