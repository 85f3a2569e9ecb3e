"""The OpenAI-compatible client against a loopback stub: the real `openai` code path runs."""

from __future__ import annotations

import time

import pytest

from automind.config import load_config
from automind.errors import RoleError
from automind.llm import BudgetExceeded, LLMError, make_llm
from automind.llm.client import OpenAILLM, price_for
from automind.llm.stub import delayed, error, garbage, reply

VERIFY = {
    "name": "submission_verify",
    "description": "judge a run",
    "parameters": {
        "type": "object",
        "properties": {"is_bug": {"type": "boolean"}, "metric": {"type": ["number", "null"]}},
        "required": ["is_bug", "metric"],
    },
}
MSG = [{"role": "user", "content": "hello"}]


def settings(**llm):
    base = {"llm.max_retries": 3, "llm.backoff_base_s": 0.01, "llm.timeout_s": 5}
    base.update({f"llm.{k}": v for k, v in llm.items()})
    return load_config(base, environ={}).settings


def client(stub, **llm) -> OpenAILLM:
    llm_ = make_llm(settings(base_url=stub.url, **llm), "openai", environ={})
    assert isinstance(llm_, OpenAILLM)
    return llm_


def test_plain_chat_uses_role_model_and_temperature(stub):
    s = settings(base_url=stub.url, **{"roles.coder.model": "coder-x", "roles.coder.temperature": 0.1})
    llm = make_llm(s, "openai", environ={"OPENAI_API_KEY": "sk-secret"})
    r = llm.chat(MSG, role="coder")
    assert r.text == "ok" and r.tool_args is None
    body = stub.requests[-1]
    assert body["model"] == "coder-x" and body["temperature"] == 0.1
    assert stub.headers[-1]["authorization"] == "Bearer sk-secret"
    llm.chat(MSG, role="planner")
    assert stub.requests[-1]["model"] == "gpt-4o-mini"  # falls back to llm.model


def test_one_model_for_all_roles(stub):
    llm = make_llm(settings(base_url=stub.url, **{"roles.coder.model": "coder-x"}), "openai:tiny", environ={})
    llm.chat(MSG, role="coder")
    assert stub.requests[-1]["model"] == "tiny"
    assert (
        make_llm(
            settings(base_url=stub.url, one_model=True, **{"roles.coder.model": "c"}), "openai"
        ).model_for("coder")
        == "gpt-4o-mini"
    )


def test_tool_call_returns_args_and_forces_the_function(stub):
    stub.push(reply(tool_args={"is_bug": False, "metric": 0.91}, tool_name="submission_verify"))
    r = client(stub).chat(MSG, role="verifier", tools=[VERIFY])
    assert r.tool_args == {"is_bug": False, "metric": 0.91}
    body = stub.requests[-1]
    assert body["tools"][0]["function"]["name"] == "submission_verify"
    assert body["tool_choice"]["function"]["name"] == "submission_verify"


def test_429_then_success_retries(stub):
    stub.push(error(429, "slow down", {"retry-after": "0"}), error(503), reply("fine"))
    llm = client(stub)
    assert llm.chat(MSG).text == "fine"
    assert len(stub.requests) == 3
    assert llm.usage["planner"].calls == 1 and llm.usage["planner"].failures == 0


def test_persistent_500_gives_clear_error(stub):
    stub.push(*[error(500, "boom")] * 4)
    llm = client(stub, max_retries=2)
    with pytest.raises(LLMError, match=r"failed 3 time\(s\).*server error 500") as exc:
        llm.chat(MSG)
    assert isinstance(exc.value, RoleError)
    assert stub.url in str(exc.value)
    assert len(stub.requests) == 3 and llm.usage["planner"].failures == 1


def test_timeout_is_retried(stub):
    stub.push(delayed(1.5), reply("after timeout"))
    llm = client(stub, timeout_s=0.3)
    t0 = time.perf_counter()
    assert llm.chat(MSG).text == "after timeout"
    assert time.perf_counter() - t0 < 1.4


def test_garbage_body_is_retried(stub):
    stub.push(garbage(), reply("clean"))
    assert client(stub).chat(MSG).text == "clean"


def test_garbage_tool_json_is_reasked_once_with_repair_instruction(stub):
    stub.push(
        reply(tool_args='{"is_bug": tru', tool_name="submission_verify"),
        reply(tool_args={"is_bug": True, "metric": None}),
    )
    r = client(stub).chat(MSG, role="verifier", tools=[VERIFY])
    assert r.tool_args == {"is_bug": True, "metric": None}
    second = stub.requests[-1]["messages"]
    assert second[-2]["role"] == "assistant" and "tru" in second[-2]["content"]
    assert "submission_verify" in second[-1]["content"]


def test_missing_required_keys_twice_raises(stub):
    stub.push(reply(tool_args={"is_bug": True}), reply(tool_args={"summary": "x"}))
    with pytest.raises(LLMError, match="malformed structured output twice"):
        client(stub).chat(MSG, role="verifier", tools=[VERIFY])


def test_tools_unsupported_falls_back_to_json_text_and_remembers(stub):
    stub.push(error(400, "tools are not supported"), reply('Here you go: {"is_bug": false, "metric": 0.5}'))
    llm = client(stub)
    r = llm.chat(MSG, role="verifier", tools=[VERIFY])
    assert r.tool_args == {"is_bug": False, "metric": 0.5}
    assert "tools" in stub.requests[0] and "tools" not in stub.requests[1]
    assert "JSON" in stub.requests[1]["messages"][-1]["content"]
    assert llm.tools_supported is False
    stub.push(reply('{"is_bug": true, "metric": null}'))
    assert llm.chat(MSG, role="verifier", tools=[VERIFY]).tool_args["is_bug"] is True
    assert "tools" not in stub.requests[-1]  # remembered: no second 400 round trip
    assert len(stub.requests) == 3


def test_401_names_base_url_and_variable_but_not_key(stub):
    stub.push(error(401, "bad key"))
    llm = make_llm(settings(base_url=stub.url), "openai", environ={"OPENAI_API_KEY": "sk-do-not-print"})
    with pytest.raises(LLMError) as exc:
        llm.chat(MSG)
    msg = str(exc.value)
    assert "authentication failed" in msg and stub.url in msg and "OPENAI_API_KEY" in msg
    assert "sk-do-not-print" not in msg
    assert len(stub.requests) == 1  # not retried


def test_404_names_model(stub):
    stub.push(error(404, "no such model"))
    with pytest.raises(LLMError, match=r"model 'gpt-4o-mini' not found at .*llm\.model"):
        client(stub).chat(MSG)


def test_cost_accounting_per_role(stub):
    prices = {"m-a": {"input": 1.0, "output": 2.0}}
    llm = client(stub, prices=prices, model="m-a-2025")  # dated snapshot priced by prefix
    stub.push(
        reply(prompt_tokens=1000, completion_tokens=500), reply(prompt_tokens=2000, completion_tokens=0)
    )
    llm.chat(MSG, role="planner")
    llm.chat(MSG, role="coder")
    s = llm.usage_summary()
    assert s["roles"]["planner"]["cost_usd"] == pytest.approx((1000 * 1 + 500 * 2) / 1e6)
    assert s["roles"]["coder"]["prompt_tokens"] == 2000
    assert s["total"]["tokens"] == 3500 and s["total"]["calls"] == 2
    assert s["total"]["cost_usd"] == pytest.approx(0.004)
    assert price_for(prices, "unknown") is None


def test_token_budget_stops_gracefully(stub):
    llm = client(stub, budget_tokens=100)
    stub.push(reply(prompt_tokens=80, completion_tokens=30))
    llm.chat(MSG)
    with pytest.raises(BudgetExceeded, match="budget_tokens=100") as exc:
        llm.chat(MSG)
    assert not isinstance(exc.value, RoleError)  # a spent budget stops the run; it is no node failure
    assert len(stub.requests) == 1  # the capped call never reached the server


def test_usd_budget(stub):
    llm = client(stub, budget_usd=0.001, prices={"gpt-4o-mini": {"input": 1.0, "output": 1.0}})
    stub.push(reply(prompt_tokens=1500, completion_tokens=0))
    llm.chat(MSG)
    with pytest.raises(BudgetExceeded, match="money budget"):
        llm.chat(MSG)


def test_make_llm_specs():
    s = settings()
    assert make_llm(s, "none") is None
    assert make_llm(s, "auto", environ={}) is None
    auto = make_llm(s, "auto", environ={"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"})
    assert isinstance(auto, OpenAILLM) and auto.base_url == "http://127.0.0.1:9/v1"
    with pytest.raises(LLMError, match="OPENAI_API_KEY"):
        make_llm(s, "openai", environ={})
    with pytest.raises(LLMError, match="unknown LLM spec"):
        make_llm(s, "gemini", environ={})
    with pytest.raises(LLMError, match="cassette path"):
        make_llm(s, "replay", environ={})
    with pytest.raises(LLMError, match="record mode needs a real provider"):
        make_llm(s, "record:/tmp/x.jsonl", environ={})
