"""The ranking policy as pure functions: score formula, own-competition filter, re-rank, dedupe, cap."""

from __future__ import annotations

import json

import numpy as np
import pytest

from automind.retrieval import search
from automind.retrieval.search import Scored
from automind.store import Hit


def hit(hid, *, comp="", source=None, tops=(), doc=None, chash=None):
    meta = {"competition": comp, "source": source or f"src-{hid}"}
    if tops:
        meta["labels"] = json.dumps([{"top": t, "sub": "", "score": 1.0} for t in tops])
        meta["top_label"] = tops[0]
    if chash:
        meta["content_hash"] = chash
    return Hit(hid, "posts", doc if doc is not None else f"document {hid}", meta, 0.5)


def scored(h, score, priority=0):
    return Scored(h, 0.0, [], score=score, priority=priority)


def test_score_is_weighted_sum_of_normalised_similarities():
    desc = np.array([0.9, 0.1, 0.5])
    lab = np.array([[0.2], [0.6], [0.4]])
    s = search.combined_scores(desc, lab, 0.2, 0.8)
    # normalised: desc -> [1, 0, .5]; label -> [0, 1, .5]
    assert s[:, 0] == pytest.approx([0.2, 0.8, 0.5])
    assert np.argmax(s[:, 0]) == 1  # the label match wins with the default weights
    flipped = search.combined_scores(desc, lab, 0.8, 0.2)
    assert np.argmax(flipped[:, 0]) == 0  # and the description match when the weights are swapped


def test_normalisation_handles_flat_and_unknown_columns():
    assert search.minmax(np.array([0.3, 0.3])) == pytest.approx([1.0, 1.0])
    assert search.minmax(np.array([0.2, np.nan, 0.6])) == pytest.approx([0.0, 0.0, 1.0])
    per_label = search.combined_scores(np.array([0.1, 0.2]), np.array([[0.5, 0.9], [0.7, 0.1]]), 0.0, 1.0)
    assert per_label[:, 0] == pytest.approx([0, 1]) and per_label[:, 1] == pytest.approx([1, 0])


def test_near_duplicate_description_bans_its_competition():
    desc = "Predict the sentiment of tweets. " * 10 + "Submissions are scored by Jaccard."
    copied = hit("c1", comp="copied-comp", doc="Predict the sentiment of tweets. " * 4)
    similar = hit("c2", comp="close-comp", doc="A different text")
    unrelated = hit("c3", comp="other-comp", doc="Forecast store sales")
    banned = search.near_duplicate_competitions([(copied, 0.5), (similar, 0.93), (unrelated, 0.4)], desc)
    assert banned == {"copied-comp", "close-comp"}


def test_own_competition_is_dropped_entirely():
    cands = [
        scored(hit("a", comp="my-task"), 1.0),
        scored(hit("b", comp="twin"), 0.9),
        scored(hit("c", comp="x"), 0.1),
    ]
    kept = search.select(cands, {"my-task", "twin"}, per_source_cap=5)
    assert [c.hit.id for c in kept] == ["c"]


def test_label_priority_beats_raw_score():
    cands = [
        scored(hit("second", tops=["General Machine Learning"]), 0.99),
        scored(hit("first", tops=["Computer Vision"]), 0.2),
        scored(hit("none"), 1.0),
    ]
    tops = ["Computer Vision", "General Machine Learning"]
    scores = np.array([[0.3, 0.99], [0.2, 0.1], [1.0, 1.0]])
    search.assign(cands, tops, scores)
    assert [c.priority for c in cands] == [1, 0, 2]
    assert cands[0].score == pytest.approx(0.99) and cands[1].score == pytest.approx(0.2)
    assert [c.hit.id for c in search.rerank(cands)] == ["first", "second", "none"]


def test_hit_tops_reads_every_label_field():
    meta = {
        "labels": json.dumps([{"top": "Signal Processing", "sub": "x", "score": 1}]),
        "lbl__graph_learning": 0.3,
    }
    assert search.hit_tops(meta) == ["signal_processing", "graph_learning"]


def test_dedupe_keeps_best_copy_by_content_hash_or_text():
    a = scored(hit("a", chash="h1"), 0.9)
    b = scored(hit("b", chash="h1"), 0.8)
    c = scored(hit("c", doc="same  text"), 0.7)
    d = scored(hit("d", doc="same text"), 0.6)
    assert [x.hit.id for x in search.dedupe([a, b, c, d])] == ["a", "c"]


def test_cap_per_source_keeps_order():
    cands = [scored(hit(str(i), source="post-1" if i < 4 else "post-2"), 1 - i / 10) for i in range(6)]
    assert [c.hit.id for c in search.cap_per_source(cands, 2)] == ["0", "1", "4", "5"]
    assert len(search.cap_per_source(cands, 0)) == 6


def test_strong_labels_drop_negligible_ones():
    class L:
        def __init__(self, s):
            self.score = s

    labels = [L(0.9), L(0.2), L(0.05)]
    assert [lb.score for lb in search.strong_labels(labels)] == [0.9, 0.2]


def _kinded(hid, kind, comp="", score=1.0):
    h = hit(hid, comp=comp)
    h.kind = kind
    return scored(h, score)


def test_one_competitions_write_ups_cannot_fill_the_list():
    cands = [_kinded(f"p{i}", "posts", comp="big-comp") for i in range(5)] + [
        _kinded("q", "posts", comp="other")
    ]
    kept = search.cap_per_competition(cands, 2)
    assert [c.hit.id for c in kept] == ["p0", "p1", "q"]
    assert len(search.cap_per_competition(cands, 0)) == 6  # 0 means no cap


def test_kinds_are_balanced_within_the_first_k_and_fill_in_when_short():
    many_posts = [_kinded(f"p{i}", "posts") for i in range(8)]
    others = [_kinded("c1", "cards"), _kinded("a1", "papers"), _kinded("c2", "cards")]
    out = search.balance_kinds(many_posts + others, k=6, max_share=0.5)
    assert [c.hit.id for c in out[:6]] == ["p0", "p1", "p2", "c1", "a1", "c2"]
    assert [c.hit.id for c in out[6:]] == ["p3", "p4", "p5", "p6", "p7"]  # nothing is lost, only moved
    only_posts = search.balance_kinds(many_posts, k=6, max_share=0.5)
    assert [c.hit.id for c in only_posts] == [c.hit.id for c in many_posts]  # no other kind: rank order
    picked = search.select(many_posts + others, set(), 1, k=4, max_kind_share=0.5)
    assert len(picked) == 4 and all(sum(c.hit.kind == k for c in picked) <= 2 for k in ("posts", "cards"))
