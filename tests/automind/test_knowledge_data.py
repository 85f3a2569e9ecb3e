"""The shipped taxonomy and trick cards: complete, valid, and loaded with specific errors."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from automind.knowledge import (
    STAGES,
    Card,
    KnowledgeError,
    cards_fingerprint,
    load_cards,
    load_taxonomy,
)
from automind.roles import Trick

# Names copied from shared/reference/facts.md (AutoMind's 11 top-level categories).
EXPECTED = {
    "Computer Vision": [
        "Image Classification", "Object Detection", "3D Object Detection", "3D Reconstruction",
        "Image Segmentation", "Image Retrieval", "Feature Point Detection", "Pose Estimation",
        "Gesture Recognition", "Image-to-Image Translation", "Image Generation",
        "Optical Character Recognition", "Video Classification", "Video Analysis", "Video Generation",
        "Video Segmentation",
    ],
    "Natural Language Processing": [
        "Text Classification", "Named Entity Recognition", "Relation Extraction", "Event Detection",
        "Coreference Resolution", "Text Normalization", "Semantic Similarity", "Information Retrieval",
        "Sentiment Analysis", "Text Generation", "Question Answering",
    ],
    "Cross-Modal Processing": [
        "Image Captioning", "Text-to-Image", "Image-to-Text", "Visual Question Answering",
        "Multi-modal Learning", "Multimodal Fusion Classification",
    ],
    "Signal Processing": [
        "Audio Classification", "Echo Cancellation", "Biomedical Signal Processing",
        "Biometric Recognition", "Radar and Sonar Signal Processing",
    ],
    "Sequential Modeling": [
        "Time Series Forecasting", "Probabilistic Forecasting", "Time Series Classification",
        "Event Detection in Sequences", "Trajectory Prediction", "Survival Analysis",
    ],
    "Recommender Systems": [
        "Collaborative Filtering", "Content-Based Filtering", "Click-Through Rate Prediction",
        "Recommendation Ranking", "Hybrid", "Context-Aware", "Multi-criteria",
    ],
    "Reinforcement Learning": ["Multi-Agent Systems", "Bandit Optimization", "Policy Learning", "Imitation Learning"],
    "Graph Learning": [
        "Node Classification", "Link Prediction", "Path Prediction", "Graph Embedding",
        "Heterogeneous Graph", "Graph Domain Adaptation",
    ],
    "Anomaly Detection": ["Point", "Contextual", "Collective"],
    "Security and Privacy": ["Cryptography", "Cybersecurity", "AI Security"],
    "General Machine Learning": [
        "Regression", "Classification", "Model Regularization", "Feature Selection", "Transfer Learning",
        "Representation Learning", "Contrastive Learning", "Ensemble Learning",
    ],
}  # fmt: skip

GOOD = """\
- id: {id}
  title: A test card
  labels: [{label}]
  stage: model
  when: always
  trick: do the thing
  pitfalls: none
  fact: a reason
"""


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder


# --- taxonomy -----------------------------------------------------------------------------------


def test_taxonomy_has_exactly_the_paper_categories_and_subcategories():
    tax = load_taxonomy()
    assert tax.top_names() == list(EXPECTED)
    for top, subs in EXPECTED.items():
        assert tax.sub_names(top) == subs


def test_taxonomy_descriptions_are_substantial():
    for cat in load_taxonomy().categories:
        assert len(cat.description.split()) >= 30, cat.name
        for sub in cat.subcategories:
            assert len(sub.description.split()) >= 6, f"{cat.name}/{sub.name}"


def test_validate_label_canonicalises_and_rejects_unknown():
    tax = load_taxonomy()
    assert tax.validate_label("computer vision / image segmentation") == "Computer Vision/Image Segmentation"
    assert tax.validate_label("Anomaly Detection") == "Anomaly Detection"
    assert tax.get("graph learning").name == "Graph Learning"
    assert tax.get("Astrology") is None
    with pytest.raises(ValueError, match="unknown category 'Astrology'"):
        tax.validate_label("Astrology/Horoscopes")
    with pytest.raises(ValueError, match="unknown subcategory 'Horoscopes' of 'Computer Vision'"):
        tax.validate_label("Computer Vision/Horoscopes")
    with pytest.raises(KeyError):
        tax.sub_names("Astrology")


# --- shipped cards ------------------------------------------------------------------------------


def test_shipped_cards_are_valid_unique_and_cover_everything():
    cards = load_cards()
    assert len(cards) >= 150
    ids = [c.id for c in cards]
    assert len(ids) == len(set(ids))
    tops = {label.split("/")[0] for c in cards for label in c.labels}
    assert tops == set(EXPECTED)
    stages = Counter(c.stage for c in cards)
    assert set(stages) == set(STAGES)
    # weighted towards tabular, text and images, as the brief asks
    by_first_top = Counter(c.labels[0].split("/")[0] for c in cards)
    assert by_first_top["General Machine Learning"] >= 50
    assert by_first_top["Natural Language Processing"] >= 25
    assert by_first_top["Computer Vision"] >= 20


def test_shipped_cards_are_actionable_and_grounded():
    for c in load_cards():
        assert c.recipe is None or isinstance(c.recipe, dict)
        if c.recipe is None:  # curated cards (recipe cards belong to the offline policy)
            assert len(c.trick.split()) >= 15, c.id
            assert c.pitfalls.strip() and c.fact.strip(), c.id


def test_card_text_and_trick_conversion():
    card = load_cards()[0]
    text = card.text()
    assert card.title in text and card.trick.split()[0] in text and card.stage in text
    trick = card.to_trick(score=0.7)
    assert isinstance(trick, Trick)
    assert (trick.id, trick.source, trick.kind, trick.stage) == (
        card.id,
        f"card:{card.id}",
        "card",
        card.stage,
    )
    assert trick.labels == card.labels and trick.score == 0.7 and trick.text == text


def test_fingerprint_is_stable():
    assert cards_fingerprint() == cards_fingerprint()
    assert len(cards_fingerprint()) == 16


# --- loader errors ------------------------------------------------------------------------------


def test_extra_dirs_add_cards(tmp_path):
    base = len(load_cards())
    d = write(
        tmp_path / "extra",
        "mine.yaml",
        GOOD.format(id="zz-extra-card", label="Graph Learning/Link Prediction"),
    )
    cards = load_cards(extra_dirs=[d])
    assert len(cards) == base + 1
    assert cards[-1].labels == ["Graph Learning/Link Prediction"]


def test_bad_yaml_names_the_file(tmp_path):
    d = write(tmp_path / "bad", "broken.yaml", "- id: x\n  title: [unclosed\n")
    with pytest.raises(KnowledgeError, match=r"broken\.yaml: invalid YAML"):
        load_cards(extra_dirs=[d])


def test_not_a_list_is_rejected(tmp_path):
    d = write(tmp_path / "bad", "mapping.yaml", "id: x\ntitle: y\n")
    with pytest.raises(KnowledgeError, match=r"mapping\.yaml: expected a YAML list"):
        load_cards(extra_dirs=[d])


def test_unknown_label_names_file_card_and_field(tmp_path):
    d = write(
        tmp_path / "bad", "labels.yaml", GOOD.format(id="zz-bad-label", label="Computer Vision/Astrology")
    )
    with pytest.raises(KnowledgeError) as err:
        load_cards(extra_dirs=[d])
    msg = str(err.value)
    assert "labels.yaml" in msg and "zz-bad-label" in msg and "labels" in msg and "Astrology" in msg


def test_bad_stage_and_missing_field_are_specific(tmp_path):
    text = GOOD.format(id="zz-bad-stage", label="Graph Learning").replace("stage: model", "stage: deployment")
    d = write(tmp_path / "s", "stage.yaml", text)
    with pytest.raises(KnowledgeError, match=r"zz-bad-stage.*'stage'"):
        load_cards(extra_dirs=[d])
    text = GOOD.format(id="zz-no-trick", label="Graph Learning").replace("  trick: do the thing\n", "")
    d = write(tmp_path / "t", "trick.yaml", text)
    with pytest.raises(KnowledgeError, match=r"zz-no-trick.*'trick'"):
        load_cards(extra_dirs=[d])


def test_non_kebab_id_is_rejected(tmp_path):
    d = write(tmp_path / "bad", "id.yaml", GOOD.format(id="Not_Kebab", label="Graph Learning"))
    with pytest.raises(KnowledgeError, match="kebab-case"):
        load_cards(extra_dirs=[d])


def test_duplicate_ids_across_files_name_both_files(tmp_path):
    d = tmp_path / "dup"
    write(d, "a.yaml", GOOD.format(id="zz-twice", label="Graph Learning"))
    write(d, "b.yaml", GOOD.format(id="zz-twice", label="Graph Learning"))
    with pytest.raises(KnowledgeError, match=r"duplicate card id 'zz-twice' in .*b\.yaml .*a\.yaml"):
        load_cards(extra_dirs=[d])


def test_duplicate_of_a_shipped_card_is_rejected(tmp_path):
    shipped = load_cards()[0].id
    d = write(tmp_path / "dup", "c.yaml", GOOD.format(id=shipped, label="Graph Learning"))
    with pytest.raises(KnowledgeError, match=f"duplicate card id '{shipped}'"):
        load_cards(extra_dirs=[d])


def test_missing_extra_dir_is_an_error(tmp_path):
    with pytest.raises(KnowledgeError, match="does not exist"):
        load_cards(extra_dirs=[tmp_path / "nope"])


def test_card_model_validates_directly():
    card = Card(
        id="zz-direct", title="t", labels=["natural language processing/text classification"], stage="training",
        when="w", trick="x",
    )  # fmt: skip
    assert card.labels == ["Natural Language Processing/Text Classification"]
    assert "Pitfalls" not in card.text()


def test_unreadable_card_file_is_a_knowledge_error(tmp_path):
    d = tmp_path / "bin"
    d.mkdir()
    (d / "latin1.yaml").write_bytes(b"- id: caf\xe9\n")
    with pytest.raises(KnowledgeError, match=r"latin1\.yaml: cannot read"):
        load_cards(extra_dirs=[d])
