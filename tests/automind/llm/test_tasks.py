"""Labelling, summaries, trick distillation and applicability through a scripted replay."""

from __future__ import annotations

import json

import pytest

from automind.config import load_config
from automind.errors import RoleError
from automind.knowledge import load_taxonomy
from automind.llm.replay import ReplayLLM
from automind.llm.tasks import check_applicability, distill_tricks, label_with_llm, summarize_paper
from automind.roles import Trick


def llm_with(tmp_path, *answers):
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(json.dumps(a) for a in [{"cassette": 1, "ordered": True}, *answers]))
    return ReplayLLM(load_config({}, environ={}).settings.llm, path)


def test_label_top_then_sub(tmp_path):
    tax = load_taxonomy()
    llm = llm_with(
        tmp_path,
        {
            "role": "analyzer",
            "tool_args": {"labels": ["natural language processing", "Made Up", "General Machine Learning"]},
        },
        {"role": "analyzer", "tool_args": {"labels": ["Sentiment Analysis"]}},
        {"role": "analyzer", "tool_args": {"labels": ["Nonexistent"]}},
    )
    labels = label_with_llm(llm, "Predict the star rating of product reviews.", tax)
    assert [(lb.top, lb.sub) for lb in labels] == [
        ("Natural Language Processing", "Sentiment Analysis"),
        ("General Machine Learning", ""),
    ]
    assert labels[0].score > labels[1].score


def test_label_with_no_known_category_fails(tmp_path):
    llm = llm_with(tmp_path, {"role": "analyzer", "tool_args": {"labels": ["Astrology"]}})
    with pytest.raises(RoleError, match="no known category"):
        label_with_llm(llm, "text", load_taxonomy())


def test_summarize_paper(tmp_path):
    args = {
        "data_type": "text",
        "domain": "retail",
        "dataset": None,
        "task": "sentiment",
        "techniques": {"model": ["BERT"]},
        "contribution": "x",
    }
    summary = summarize_paper(llm_with(tmp_path, {"role": "analyzer", "tool_args": args}), "paper text")
    assert summary == args


def test_distill_tricks_and_applicability(tmp_path):
    items = [{"title": f"T{i}", "stage": "Model", "text": f"do {i}", "source": "post"} for i in range(14)] + [
        {"title": "empty", "text": " "}
    ]
    llm = llm_with(
        tmp_path,
        {"role": "retriever", "tool_args": {"tricks": items}},
        {"role": "retriever", "tool_args": {"applicable": False, "reason": "no images"}},
        {"role": "retriever", "text": '{"applicable": true}'},
    )
    tricks = distill_tricks(llm, "task", "material")
    assert len(tricks) == 12 and all(isinstance(t, Trick) for t in tricks)
    assert (
        tricks[0].stage == "model" and tricks[0].kind == "distilled" and tricks[0].id.startswith("distilled-")
    )
    assert len({t.id for t in tricks}) == 12
    assert check_applicability(llm, tricks[0], "task") is False
    assert check_applicability(llm, tricks[1], "task") is True
