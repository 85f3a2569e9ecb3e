"""A solve through the real LLMRoles, answered by a hand-written ordered replay cassette."""

from __future__ import annotations

import json

from search_fakes import BUG, FIX, cells, script

from automind.run import solve

USAGE = {"prompt_tokens": 100, "completion_tokens": 20}


def py(code: str) -> str:
    return f"```python\n{code}```"


def verdict(metric, is_bug=False):
    args = {"is_bug": is_bug, "is_overfitting": False, "has_csv_submission": True, "summary": "ran",
            "metric": metric, "lower_is_better": False}  # fmt: skip
    return {"role": "verifier", "tool_args": args, "usage": USAGE}


def say(role: str, text: str) -> dict:
    return {"role": role, "text": text, "usage": USAGE}


def cassette(path):
    steps = [
        {"step": "load", "details": "read"},
        {"step": "predict", "details": "rule"},
        {"step": "write", "details": "csv"},
    ]
    c = cells(0.9, bug_at=1)
    integrated = "\n".join(cells(0.9))
    edit = (
        '<<<<<<< SEARCH\nopen("submission/eval_metric.txt", "w").write("0.9")\nprint("validation accuracy: 0.9")\n'
        '=======\nopen("submission/eval_metric.txt", "w").write("0.95")\nprint("validation accuracy: 0.95")\n'
        ">>>>>>> REPLACE\n"
    )
    entries = [
        # step 0: draft, simple -> one pass
        say("planner", "Threshold x at 0.5 and predict y."),
        say("planner", "<task_complexity>2</task_complexity> <solution_complexity>2</solution_complexity>"),
        say("coder", py(script(0.8))),
        verdict(0.8),
        # step 1: draft, complex -> stepwise; step 2 fails and is repaired with SEARCH/REPLACE
        say("planner", "Three steps: load, predict, write."),
        say("planner", "<task_complexity>4</task_complexity><solution_complexity>5</solution_complexity>"),
        {"role": "planner", "tool_args": {"decomposed steps": steps}, "usage": USAGE},
        say("coder", py(c[0] + "\n")),
        say("coder", py(c[1] + "\n")),
        say("coder", f"<<<<<<< SEARCH\n{BUG}\n=======\n{FIX}\n>>>>>>> REPLACE\n"),
        say("coder", py(c[2] + "\n")),
        say("coder", py(integrated + "\n")),
        verdict(0.9),
        # step 2: improve the best node with a SEARCH/REPLACE edit of its code
        say("planner", "Tune the reporting."),
        say("coder", edit),
        verdict(0.95),
        # step 3: the planner answers nothing -> RoleError -> buggy node, the search goes on
        say("planner", ""),
        # step 4: debug of step 3; the cassette is exhausted -> LLMError -> buggy node
    ]
    path.write_text("\n".join(json.dumps(e) for e in [{"cassette": 1, "ordered": True}, *entries]) + "\n")
    return path


def test_solve_with_replayed_llm_roles(task_dir, tmp_path, settings_factory):
    tape = cassette(tmp_path / "tape.jsonl")
    s = settings_factory(
        **{
            "llm.provider": f"replay:{tape}",
            "search.steps": 5,
            "search.num_drafts": 2,
            "search.greedy_prob": 1.0,
        }
    )
    res = solve(task_dir, s, out=tmp_path / "run")
    j = res.journal
    assert [(n.action, n.coder, n.status) for n in j.nodes] == [
        ("draft", "one-pass", "valid"),
        ("draft", "stepwise", "valid"),
        ("improve", "one-pass", "valid"),
        ("improve", None, "buggy"),
        ("debug", None, "buggy"),  # debug_prob 1: the failed improve is debugged next
    ]
    assert j.get("0").complexity == 2.0 and j.get("1").complexity == 4.5
    assert j.get("1").metric.value == 0.9 and BUG not in j.get("1").code
    assert j.get("2").parent_id == "1" and j.get("2").metric.value == 0.95 and '"0.95"' in j.get("2").code
    assert "planner's reply was empty" in j.get("3").error
    assert "exhausted" in j.get("4").error
    assert res.best.id == "2" and res.grade["score"] == 1.0
    assert j.get("0").usage == {"planner": 240, "coder": 120, "verifier": 120}
    info = json.loads((tmp_path / "run/run.json").read_text())
    assert info["roles"] == "llm" and info["usage"]["total"]["tokens"] == 17 * 120
    assert info["usage"]["roles"]["coder"]["calls"] == 7


def test_resume_continues_llm_usage_and_budget(task_dir, tmp_path, settings_factory):
    tape = tmp_path / "tape.jsonl"
    first = [say("planner", "Threshold x."), say("planner", "<task_complexity>1</task_complexity><solution_complexity>1</solution_complexity>"), say("coder", py(script(0.8))),
             verdict(0.8)]  # fmt: skip
    tape.write_text("\n".join(json.dumps(e) for e in [{"cassette": 1, "ordered": True}, *first]) + "\n")
    s = settings_factory(**{"llm.provider": f"replay:{tape}", "search.steps": 1})
    solve(task_dir, s, out=tmp_path / "run")
    assert json.loads((tmp_path / "run/run.json").read_text())["usage"]["total"]["tokens"] == 480

    second = [say("planner", "Improve it."), say("coder", py(script(0.9))), verdict(0.9)]
    tape.write_text("\n".join(json.dumps(e) for e in [{"cassette": 1, "ordered": True}, *second]) + "\n")
    from automind.run import resume

    # 480 tokens were spent before: the plan (600 total) passes the 500-token budget check, the code does not
    res = resume(tmp_path / "run", overrides={"search.steps": 3, "llm.budget_tokens": 500})
    assert res.status == "budget" and len(res.journal) == 1
    info = json.loads((tmp_path / "run/run.json").read_text())
    assert info["usage"]["total"]["tokens"] == 600 and info["usage"]["roles"]["planner"]["calls"] == 3
    assert info["sessions"] == 2 and info["status"] == "budget"
