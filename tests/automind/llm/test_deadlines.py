"""No hangs (issue 11): every LLM call ends within a total deadline, retries and waits included."""

from __future__ import annotations

import time

import pytest
from typer.testing import CliRunner

from automind.cli import app
from automind.config import load_config
from automind.llm import LLMError, make_llm
from automind.llm.stub import SilentServer, delayed, error, reply

MSG = [{"role": "user", "content": "hello"}]


def _llm(url: str, **llm):
    values = {"llm.base_url": url, **{f"llm.{k}": v for k, v in llm.items()}}
    return make_llm(load_config(values, environ={}).settings, "openai", environ={})


def test_a_silent_server_costs_the_deadline_not_retries_times_timeouts():
    with SilentServer() as silent:
        llm = _llm(silent.url, timeout_s=30, max_retries=4, deadline_s=1.0, backoff_base_s=0.01)
        t0 = time.monotonic()
        with pytest.raises(LLMError) as exc:
            llm.chat(MSG)
        took = time.monotonic() - t0
    assert took < 3.0  # 5 attempts x 30 s before; now one deadline
    msg = str(exc.value)
    assert f"no answer from {silent.url}" in msg and "llm.deadline_s (whole call, now 1s)" in msg
    assert llm.usage["planner"].failures == 1


def test_retry_after_longer_than_the_deadline_is_not_waited_out(stub):
    stub.push(error(429, "slow down", {"retry-after": "30"}), reply("too late"))
    llm = _llm(stub.url, deadline_s=1.0, timeout_s=5)
    t0 = time.monotonic()
    with pytest.raises(LLMError, match=r"failed 1 time\(s\).*rate limited \(429\)"):
        llm.chat(MSG)
    assert time.monotonic() - t0 < 1.5 and len(stub.requests) == 1


def test_the_last_attempt_gets_only_the_time_left(stub):
    stub.push(*[delayed(5.0)] * 8)
    llm = _llm(stub.url, timeout_s=0.4, deadline_s=1.0, max_retries=5, backoff_base_s=0.001)
    t0 = time.monotonic()
    with pytest.raises(LLMError, match=r"failed 3 time\(s\).*no answer from .* within 0\.[0-2]\d*s"):
        llm.chat(MSG)  # attempts at 0, 0.4 and 0.8 s; the third may only take the 0.2 s left
    assert 0.9 < time.monotonic() - t0 < 1.5


def test_llm_check_against_a_silent_server_ends_with_the_setting_to_change():
    with SilentServer() as silent:
        env = {
            "OPENAI_BASE_URL": silent.url,
            "OPENAI_API_KEY": "sk-x",
            "AUTOMIND_LLM__CHECK_DEADLINE_S": "1.5",
        }
        t0 = time.monotonic()
        res = CliRunner().invoke(app, ["llm", "check"], env=env)
        took = time.monotonic() - t0
    text = " ".join(res.output.split())
    assert res.exit_code == 1 and took < 5.0
    assert silent.url in text and "llm.check_deadline_s" in text


def test_deadline_settings_are_validated():
    from automind.config import ConfigError

    with pytest.raises(ConfigError, match="llm.deadline_s"):
        load_config({"llm.deadline_s": 0}, environ={})
    s = load_config({}, environ={}).settings.llm
    assert 10 <= s.check_deadline_s <= 60 and 10 <= s.timeout_s <= 120 and s.deadline_s >= s.timeout_s
