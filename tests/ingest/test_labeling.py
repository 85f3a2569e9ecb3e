"""Offline labelling with the real MiniLM model puts obvious tasks in the obvious category."""

from __future__ import annotations

import pytest

from automind.ingest.labeling import GENERAL, label_text, label_vector
from automind.knowledge import load_taxonomy
from automind.store import get_embedder

pytestmark = pytest.mark.slow  # loads the real MiniLM model (about 10 s on an idle 2-core machine)


@pytest.fixture(scope="module")
def minilm():
    return get_embedder("minilm")


@pytest.mark.parametrize(
    ("text", "top", "sub"),
    [
        (
            "Identify whether an aerial photo contains a columnar cactus. The training set has 17,500 32x32 "
            "jpg images with a label per image id; predict a probability for each test image.",
            "Computer Vision",
            "Image Classification",
        ),
        (
            "Given the text of a tweet and its sentiment label, extract the words or phrase that best "
            "support the sentiment. Submissions are scored with word-level Jaccard.",
            "Natural Language Processing",
            None,
        ),
        (
            "Classify bird species from wav recordings of soundscapes; convert audio to mel spectrograms.",
            "Signal Processing",
            "Audio Classification",
        ),
    ],
)
def test_obvious_tasks_get_the_obvious_label(minilm, text, top, sub):
    labels = label_text(text, minilm, load_taxonomy())
    assert labels[0].top == top
    if sub:
        assert labels[0].sub == sub
    assert 0 < labels[0].score <= 1
    assert len(labels) <= 3


def test_time_series_text_is_not_filed_under_general(minilm):
    text = "Forecast daily unit sales for each store and item over the next 28 days from a tabular csv."
    assert label_text(text, minilm, load_taxonomy())[0].top == "Sequential Modeling"


def test_specific_category_beats_general_when_equally_close():
    """A vector exactly between General ML and Sequential Modeling goes to the specific one."""
    import numpy as np

    from automind.ingest.labeling import taxonomy_vectors

    tax, emb = load_taxonomy(), get_embedder("hash")
    tops, _ = taxonomy_vectors(emb, tax)
    names = [c.name for c in tax.categories]
    mid = tops[names.index(GENERAL)] + tops[names.index("Sequential Modeling")]
    labels = label_vector(mid / np.linalg.norm(mid), "", emb, tax)
    assert labels[0].top == "Sequential Modeling"
    assert GENERAL in [lab.top for lab in labels]  # still kept as a secondary label
