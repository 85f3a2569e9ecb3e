"""`automind solve` with stdout redirected: one plain, flushed line per step, the same lines as RUN/run.log."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from search_fakes import script

STEP = re.compile(r"^\d\d:\d\d:\d\d step (\d+)/(\d+) \| node (\d+) \| ")


def say(role: str, text: str) -> dict:
    return {"role": role, "text": text, "usage": {"prompt_tokens": 10, "completion_tokens": 5}}


def draft(value: float, sleep: float = 0.0) -> list[dict]:
    """One one-pass draft through the real LLM roles: plan, code, verifier verdict."""
    args = {"is_bug": False, "is_overfitting": False, "has_csv_submission": True, "summary": "ran",
            "metric": value, "lower_is_better": False}  # fmt: skip
    code = f"```python\n{script(value, sleep=sleep)}```"
    return [say("planner", "Threshold x."), say("coder", code), {"role": "verifier", "tool_args": args}]


def cli(*args: str, home: Path, stdout=subprocess.PIPE) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "AUTOMIND_"))}
    env |= {"AUTOMIND_HOME": str(home), "AUTOMIND_EXPERIENCE__ENABLED": "false", "COLUMNS": "120"}
    cmd = [sys.executable, "-m", "automind", *args]
    return subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.STDOUT, text=True, env=env, cwd=home.parent)


def test_redirected_solve_prints_one_flushed_line_per_step_and_run_log_matches(task_dir, tmp_path):
    tape = tmp_path / "tape.jsonl"
    entries = [*draft(0.7), *draft(0.8), *draft(0.75, sleep=4)]  # the last step outlives the first read
    tape.write_text("\n".join(json.dumps(e) for e in [{"cassette": 1, "ordered": True}, *entries]) + "\n")
    run = tmp_path / "run"
    proc = cli("solve", str(task_dir), "--steps", "3", "--no-knowledge", "--coder", "one-pass",
               "--llm", f"replay:{tape}", "--out", str(run), home=tmp_path / "home")  # fmt: skip
    lines: list[str] = []
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.append(line.rstrip("\n"))
        if STEP.match(line):
            assert proc.poll() is None, "the first step's line arrived only when the run had ended"
            break
    rest, _ = proc.communicate(timeout=300)
    lines += rest.splitlines()
    assert proc.returncode == 0, "\n".join(lines)

    steps = [m.groups() for m in map(STEP.match, lines) if m]
    assert steps == [("1", "3", "0"), ("2", "3", "1"), ("3", "3", "2")], lines
    first = next(line for line in lines if STEP.match(line))
    assert (
        "draft" in first
        and "valid, score 0.7" in first
        and "best 0.7 (node 0)" in first
        and "used, no time limit" in first
    )

    log = (run / "run.log").read_text().splitlines()
    assert log == lines[: len(log)]  # the same lines, in the same order, before the final summary
    assert "started" in log[0] and "stopped: finished" in log[-1] and "best node 1" in log[-1]
    assert "status" in "\n".join(lines[len(log) :])  # then the summary table


def test_run_log_is_appended_across_resumes(task_dir, tmp_path, settings_factory):
    from automind.run import resume, solve

    s = settings_factory(**{"search.steps": 1, "search.num_drafts": 1})
    from search_fakes import ScriptedRoles

    roles = ScriptedRoles({"*": [script(0.7), script(0.8)]})
    solve(task_dir, s, out=tmp_path / "run", roles=roles)
    resume(tmp_path / "run", overrides={"search.steps": 2}, roles=roles)
    log = (tmp_path / "run" / "run.log").read_text().splitlines()
    assert [line.split(" ", 1)[1].split(" | ")[0] for line in log] == [
        "run of 'tiny' started", "step 1/1", "stopped: finished",
        "run of 'tiny' resumed (session 2)", "step 2/2", "stopped: finished",
    ]  # fmt: skip


def test_live_view_shows_time_used_and_left_and_a_bar_over_the_binding_budget():
    from rich.console import Console

    from automind.commands.solve import LiveView
    from automind.runlog import Budget

    view = LiveView(steps=10, time_limit_s=600, task="tiny")
    console = Console(width=100, record=True, force_terminal=False)
    console.print(view.render())
    assert "0s used, 10m00s left of 10m00s" in console.export_text()  # preparing: the clock has not started
    view("log", {"line": "12:00:00 step 2/10 | node 1 | draft", "budget": Budget(2, 10, 450.0, 600.0)})
    console = Console(width=100, record=True, force_terminal=False)
    console.print(view.render())
    text = console.export_text()
    assert "7m30s used, 2m30s left of 10m00s" in text or "7m31s used" in text
    assert "75% (time binds)" in text and "step 2/10 | node 1" in text
    assert Budget(8, 10, 60.0, 600.0).binding == "steps" and Budget(8, 10, 60.0, 600.0).fraction == 0.8


def test_the_last_line_names_the_score_the_best_node_is_ranked_by():
    from automind.runlog import rank_text
    from automind.search.journal import MetricValue, Node

    pooled = Node(action="draft", metric=MetricValue(0.819), holdout_metric=0.796, reported_metric=0.824)
    assert rank_text(pooled) == "pooled 0.819 (holdout 0.796, own 0.824)"
    assert rank_text(Node(action="draft", metric=MetricValue(0.8), holdout_metric=0.8)) == "holdout 0.8"
    assert rank_text(Node(action="draft", metric=MetricValue(0.7))) == "validation 0.7"  # no holdout kept
