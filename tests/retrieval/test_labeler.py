"""Offline task labelling: the data's modalities decide when the description says nothing."""

from __future__ import annotations

import pytest

from automind.knowledge import load_taxonomy
from automind.retrieval import label_task
from automind.retrieval.labeler import clean_description, label_offline
from automind.store import get_embedder
from automind.task import Task


@pytest.fixture(scope="module")
def embedder():
    return get_embedder("wordllama")


def _label(path, embedder):
    from automind.analysis import analyze

    task = Task.load(path)
    analysis = analyze(task)
    return analysis, label_task(task, analysis, embedder, load_taxonomy())


def test_image_folder_task_is_computer_vision(tmp_path, embedder, task_factory):
    analysis, labels = _label(task_factory(tmp_path / "imgs", "image"), embedder)
    assert "image" in analysis.modalities
    assert labels[0].top == "Computer Vision"
    assert labels[0].sub  # a subcategory is always chosen for categories that have them
    assert [lb.score for lb in labels] == sorted((lb.score for lb in labels), reverse=True)


def test_long_text_csv_is_nlp(tmp_path, embedder, task_factory):
    analysis, labels = _label(task_factory(tmp_path / "txt", "text"), embedder)
    assert "text" in analysis.modalities
    assert labels[0].top == "Natural Language Processing"


def test_plain_table_is_general_ml_with_problem_type_sub(tmp_path, embedder, task_factory):
    analysis, labels = _label(task_factory(tmp_path / "tab", "tabular"), embedder)
    assert labels[0].top == "General Machine Learning"
    assert labels[0].sub == "Classification"
    # runners-up with next to no probability are not reported as labels of the task
    assert all(lb.score >= 0.05 for lb in labels[1:])


def test_description_alone_is_enough_for_clear_cases(embedder):
    tax = load_taxonomy()
    audio = "Detect bird calls in audio recordings. Each wav clip is a sound recording; use spectrograms."
    assert label_offline(audio, embedder, tax)[0].top == "Signal Processing"
    text = "Classify each tweet: given the text of the tweet, predict whether the words express a sentiment."
    assert label_offline(text, embedder, tax)[0].top == "Natural Language Processing"


def test_cleaning_drops_links_images_and_admin_sections():
    md = "# Overview\nSee ![x](http://a/b.png) and [the data](http://x).\n## Prizes\n1st place: $10,000\n## Data\nrows"
    clean = clean_description(md)
    assert "http" not in clean and "the data" in clean and "10,000" not in clean and "rows" in clean
