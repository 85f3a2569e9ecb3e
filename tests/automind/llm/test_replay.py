"""Record against the stub, then replay offline: same answers, same accounting, clear misses."""

from __future__ import annotations

import json

import pytest

from automind.config import load_config
from automind.errors import RoleError
from automind.llm import LLMError, make_llm
from automind.llm.replay import RecordingLLM, ReplayLLM, prompt_key
from automind.llm.stub import reply

TOOL = {
    "name": "pick",
    "parameters": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]},
}


def settings():
    return load_config({"llm.max_retries": 1, "llm.backoff_base_s": 0.01}, environ={}).settings


def msgs(text: str) -> list[dict]:
    return [{"role": "system", "content": "sys"}, {"role": "user", "content": text}]


def test_record_then_replay_round_trip(stub, tmp_path):
    cassette = tmp_path / "run" / "cassette.jsonl"
    stub.push(
        reply("plan A", prompt_tokens=100, completion_tokens=20), reply(tool_args={"x": 3}, tool_name="pick")
    )
    rec = make_llm(settings(), f"record:{cassette}", environ={"OPENAI_BASE_URL": stub.url})
    assert isinstance(rec, RecordingLLM) and rec.base_url == stub.url
    first = rec.chat(msgs("draft"), role="planner")
    second = rec.chat(msgs("choose"), role="coder", tools=[TOOL])
    assert (first.text, second.tool_args) == ("plan A", {"x": 3})

    lines = [json.loads(line) for line in cassette.read_text().splitlines()]
    assert lines[0]["cassette"] == 1 and len(lines) == 3
    assert lines[1]["role"] == "planner" and lines[1]["key"] == prompt_key(msgs("draft"))
    stub.stop()  # replay must not need the server

    rep = make_llm(settings(), f"replay:{cassette}")
    assert isinstance(rep, ReplayLLM)
    # Asked in a different order: keyed lookup still finds each answer.
    assert rep.chat(msgs("choose"), role="coder", tools=[TOOL]).tool_args == {"x": 3}
    again = rep.chat(msgs("draft"), role="planner")
    assert again.text == "plan A" and again.usage.prompt_tokens == 100
    assert rep.usage_summary()["roles"]["planner"]["prompt_tokens"] == 100
    assert rep.chat(msgs("draft"), role="planner").text == "plan A"  # repeated prompt: last answer again


def test_keyed_miss_names_role_and_hash(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps({"role": "planner", "key": prompt_key(msgs("a")), "text": "A"}) + "\n")
    llm = ReplayLLM(settings().llm, path)
    with pytest.raises(RoleError, match=rf"role 'planner' \(prompt hash {prompt_key(msgs('b'))}\)"):
        llm.chat(msgs("b"), role="planner")
    with pytest.raises(RoleError, match="role 'coder'"):
        llm.chat(msgs("a"), role="coder")  # same prompt, other role


def test_ordered_script_per_role_queues(tmp_path):
    path = tmp_path / "script.jsonl"
    rows = [
        {"cassette": 1, "ordered": True},
        {"role": "planner", "text": "p1"},
        {"role": "coder", "text": "c1"},
        {"role": "planner", "text": "p2"},
        {"text": "any role"},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows))
    llm = make_llm(settings(), f"replay:{path}")
    assert [llm.chat(msgs("x"), role=r).text for r in ("coder", "planner", "planner", "verifier")] == [
        "c1",
        "p1",
        "p2",
        "any role",
    ]
    with pytest.raises(LLMError, match="exhausted"):
        llm.chat(msgs("x"), role="coder")


def test_bad_cassettes_are_clear(tmp_path):
    with pytest.raises(LLMError, match="not found"):
        make_llm(settings(), f"replay:{tmp_path / 'nope.jsonl'}")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "ok"}\nnot json\n')
    with pytest.raises(LLMError, match="line 2"):
        ReplayLLM(settings().llm, bad)


def test_replay_budget_counts_recorded_tokens(tmp_path):
    path = tmp_path / "c.jsonl"
    row = {"cassette": 1, "ordered": True}
    ans = {"role": "planner", "text": "x", "usage": {"prompt_tokens": 60, "completion_tokens": 60}}
    path.write_text("\n".join(json.dumps(r) for r in (row, ans, ans)))
    s = load_config({"llm.budget_tokens": 100}, environ={}).settings
    llm = make_llm(s, f"replay:{path}")
    llm.chat(msgs("a"))
    from automind.llm import BudgetExceeded

    with pytest.raises(BudgetExceeded):
        llm.chat(msgs("b"))
