"""The docs' outside-agent loop really works (against the loopback stub LLM), and the `env` commands."""

from __future__ import annotations

import json
import re
import runpy
import sys
from pathlib import Path

from typer.testing import CliRunner

from automind.cli import app
from automind.llm.stub import StubServer, reply

DOCS = Path(__file__).parents[3] / "docs" / "env.md"


def _loop_source() -> str:
    m = re.search(r"```python agent_loop\.py\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    assert m, "docs/env.md lost its agent_loop.py block"
    return m.group(1)


def test_docs_agent_loop_runs_against_a_stub_llm(binary_task, h, tmp_path, monkeypatch, capsys):
    source = _loop_source()
    assert len(source.strip().splitlines()) <= 22  # "an outside agent in 20 lines"
    script = tmp_path / "agent_loop.py"
    script.write_text(source)
    with StubServer() as stub:
        stub.push(
            reply(tool_name="request_info", tool_args={"kind": "metric"}),
            reply(tool_name="execute_code", tool_args={"code": h.rule_script(0.5)}),
            reply("All done: the submission scored 1.0."),
        )
        monkeypatch.setenv("OPENAI_BASE_URL", stub.url)
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
        monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
        monkeypatch.setattr(sys, "argv", ["agent_loop.py", str(binary_task)])
        runpy.run_path(str(script), run_name="__main__")
        requests = list(stub.requests)
    out = capsys.readouterr().out
    assert "request_info: reward 0.0 (none)" in out
    assert "execute_code: reward 1.0 (baseline_improvement)" in out
    assert len(requests) == 3
    tools = [t["function"]["name"] for t in requests[0]["tools"]]
    assert tools == ["request_info", "validate_code", "execute_code", "get_history", "reset"]
    tool_results = [m["content"] for m in requests[2]["messages"] if m["role"] == "tool"]
    assert "accuracy (higher is better" in tool_results[0] and "Score: 1.0 (accuracy)" in tool_results[1]


def test_env_actions_prints_tools_json():
    r = CliRunner().invoke(app, ["env", "actions"])
    assert r.exit_code == 0
    tools = json.loads(r.stdout)
    assert [t["function"]["name"] for t in tools][:5] == [
        "request_info", "validate_code", "execute_code", "get_history", "reset"
    ]  # fmt: skip
    assert tools[2]["function"]["parameters"]["required"] == ["code"]


def test_env_demo_plays_a_scripted_episode(binary_task, monkeypatch, tmp_path):
    """The demo gets its script from the recipe policy; a stand-in keeps this test fast."""
    import automind.env.demo as demo

    code = (
        "import csv\nrows = list(csv.DictReader(open('input/test.csv')))\n"
        "with open('submission/submission.csv', 'w', newline='') as f:\n"
        "    w = csv.writer(f); w.writerow(['id', 'y'])\n"
        "    w.writerows([r['id'], int(float(r['x']) > 0.5)] for r in rows)\n"
    )
    monkeypatch.setattr(demo, "baseline_draft", lambda task, settings: ("[draft t] threshold rule", code))
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    r = CliRunner().invoke(app, ["env", "demo", str(binary_task), "--json"])
    assert r.exit_code == 0, r.output
    steps = json.loads(r.stdout)["steps"]
    assert [s["action"].split("(")[0] for s in steps] == [
        "reset", "request_info", "request_info", "validate_code", "execute_code", "get_history"
    ]  # fmt: skip
    assert steps[4]["reward"] == 1.0 and "Score: 1.0" in steps[4]["observation"]["text"]
    assert "4 earlier step(s)" in steps[5]["observation"]["text"]
    r = CliRunner().invoke(app, ["env", "demo", str(binary_task)])
    assert r.exit_code == 0 and "step 4 execute_code(code=<5 lines>)" in r.output and "[output]" in r.output


def test_env_demo_bad_leaderboard_is_a_clear_error(binary_task, tmp_path):
    bad = tmp_path / "lb.csv"
    bad.write_text("team,points\na,1\n")
    r = CliRunner().invoke(app, ["env", "demo", str(binary_task), "--leaderboard", str(bad)])
    assert r.exit_code == 1 and "no 'score' column" in r.output and "Traceback" not in r.output


def test_demo_script_comes_from_the_recipe_policy(binary_task, settings):
    from automind.env.demo import baseline_draft, recipe_drafts
    from automind.task import Task

    task = Task.load(binary_task)
    title, code = baseline_draft(task, settings)
    assert "baseline" in title.lower()
    compile(code, "draft.py", "exec")
    titles = [t for t, _ in recipe_drafts(task, settings, 6)]
    assert len(titles) == len(set(titles)) >= 2  # distinct base recipes, no repeats
