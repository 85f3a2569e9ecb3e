"""`automind solve/report/runs list` through the CLI, and the HTML report's content."""

from __future__ import annotations

import json
import re

import pytest
from search_fakes import ScriptedRoles, script
from typer.testing import CliRunner

from automind.cli import app
from automind.report import write_report
from automind.roles import Trick
from automind.run import solve
from automind.run_setup import RunKnowledge

runner = CliRunner()


@pytest.fixture
def scripted(monkeypatch):
    roles = ScriptedRoles({"draft": [script(0.7), script(0.75)], "*": [script(0.8)]})
    monkeypatch.setattr("automind.assemble.make_roles", lambda settings, spec=None: roles)
    return roles


def test_solve_json_resume_report_and_runs_list(task_dir, tmp_path, scripted):
    out = tmp_path / "runs" / "r1"
    res = runner.invoke(
        app,
        [
            "solve",
            str(task_dir),
            "--steps",
            "2",
            "--out",
            str(out),
            "--no-knowledge",
            "--json",
            "--seed",
            "4",
        ],
    )
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output)
    assert summary["steps"] == 2 and summary["status"] == "finished" and summary["best_metric"] == 0.75
    assert summary["grade"]["score"] == 1.0
    info = json.loads((out / "run.json").read_text())
    assert info["config"]["search"]["seed"] == 4 and info["knowledge"]["disabled"] is True

    res = runner.invoke(app, ["solve", "other-task", "--resume", str(out), "--steps", "3"])
    assert res.exit_code == 1 and "is a run of task 'tiny', not 'other-task'" in " ".join(res.output.split())
    res = runner.invoke(app, ["solve", str(task_dir), "--resume", str(out), "--steps", "3", "--json"])
    assert res.exit_code == 0, res.output  # naming the run's own task (as the README shows) is fine
    assert json.loads(res.output)["steps"] == 3

    (out / "report.html").unlink()
    res = runner.invoke(app, ["report", str(out)])
    assert res.exit_code == 0 and (out / "report.html").is_file()

    assert runner.invoke(app, ["report", str(out)]).exit_code == 0  # its own report.html is rewritten
    mine = tmp_path / "mine.html"
    mine.write_text("my notes")
    for where in (mine, tmp_path):  # a file, or a folder whose report.html is the user's
        if where == tmp_path:
            (tmp_path / "report.html").write_text("my notes")
        res = runner.invoke(app, ["report", str(out), "--out", str(where)])
        assert res.exit_code == 1 and "already exists. Pass --force" in " ".join(res.output.split())
    assert mine.read_text() == "my notes" and (tmp_path / "report.html").read_text() == "my notes"
    assert runner.invoke(app, ["report", str(out), "--out", str(mine), "--force"]).exit_code == 0
    assert "<html" in mine.read_text().lower()

    res = runner.invoke(app, ["runs", "list", "--dir", str(tmp_path / "runs"), "--json"])
    rows = json.loads(res.output)
    assert (
        rows[0]["run"] == "r1" and rows[0]["steps"] == 3 and rows[0]["best_metric"] == 0.75
    )  # 3 drafts by default
    res = runner.invoke(app, ["runs", "list", "--dir", str(tmp_path / "runs")])
    assert "r1" in res.output and "tiny" in res.output


def test_solve_live_view_prints_result(task_dir, tmp_path, scripted):
    res = runner.invoke(
        app, ["solve", str(task_dir), "--steps", "1", "--out", str(tmp_path / "r"), "--no-knowledge"]
    )
    assert res.exit_code == 0, res.output
    assert "best" in res.output and "0.7" in res.output and "graded" in res.output


@pytest.mark.parametrize("author", ["llm", "recipes"])
def test_the_result_says_when_the_best_score_pools_both_scores(author, tmp_path, monkeypatch):
    from search_fakes import make_task

    own = script(None).replace(  # predicts x > 0.5 (perfect) but reports the rule x > 0.4 on its train rows
        'os.makedirs("submission", exist_ok=True)\n',
        'os.makedirs("submission", exist_ok=True)\n'
        'tr = list(csv.DictReader(open("input/train.csv")))\n'
        "acc = sum(int(float(r['x']) > 0.4) == int(r['y']) for r in tr) / len(tr)\n"
        'open("submission/eval_metric.txt", "w").write(str(acc))\n',
    )
    roles = ScriptedRoles({"draft": [own]}, name=author)
    monkeypatch.setattr("automind.assemble.make_roles", lambda settings, spec=None: roles)
    task = make_task(tmp_path / "big", n=600)
    args = [
        "solve",
        str(task),
        "--steps",
        "1",
        "--holdout",
        "on",
        "--out",
        str(tmp_path / "r"),
        "--no-knowledge",
    ]
    res = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "holdout 1, its own validation 0.8" in res.output and ", clean" in res.output
    assert ("pooled by rows" in res.output) == (author == "recipes")


def test_ctrl_c_before_the_first_step_says_so(task_dir, tmp_path, scripted, monkeypatch):
    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr("automind.run.load_analysis", interrupted)
    res = runner.invoke(app, ["solve", str(task_dir), "--steps", "1", "--out", str(tmp_path / "r")])
    assert res.exit_code == 130
    assert "interrupted before the search started" in " ".join(res.output.split())


@pytest.mark.parametrize(
    "args,message",
    [
        (["solve"], "give a TASK"),
        (["solve", "x", "--coder", "fast"], "--coder 'fast'"),
        (["solve", "/no/such/task", "--no-knowledge"], "not a"),
        (["solve", "--resume", "/no/such/run"], "/no/such/run: no such folder"),
        (["report", "/no/such/run"], "/no/such/run: no such folder"),
        (["report", "."], ".: no journal.json"),
        (["runs", "list", "--dir", "/no/such/dir"], "no such folder"),
    ],
)
def test_cli_errors_are_specific(args, message, scripted):
    res = runner.invoke(app, args)
    assert res.exit_code != 0
    assert message in " ".join(res.output.split())


def test_report_shows_tree_tricks_safety_net_and_escapes(task_dir, tmp_path, settings_factory, monkeypatch):
    trick = Trick("t1", "blend <b>two</b> models", "x", source="card:blend")
    monkeypatch.setattr(
        "automind.run.load_knowledge",
        lambda *a: RunKnowledge(pool=[trick]),
    )
    llm = ScriptedRoles({"draft": [script(None, submit=False)], "improve": [script(0.9)]}, repair_fixes=False)
    recipe = ScriptedRoles({"*": [script(0.6)]}, name="recipes")
    s = settings_factory(
        **{"search.steps": 3, "search.num_drafts": 1, "search.safety_net_share": 0.3, "search.debug_prob": 0.0,
           "search.trick_prob": 1.0, "knowledge.enabled": True, "coding.one_pass_tries": 1}
    )  # fmt: skip
    result = solve(task_dir, s, out=tmp_path / "run", roles=llm, safety_roles=recipe)
    assert [n.stage for n in result.journal.nodes] == ["draft", "safety-net", "improve"]
    html = write_report(tmp_path / "run").read_text()
    assert html.count("<details>") >= 4 and "<svg" in html and "<polyline" in html
    assert "safety net" in html and "blend &lt;b&gt;two&lt;/b&gt; models" in html and "<b>two</b>" not in html
    assert "(helped)" in html and "<td>card: blend</td>" in html
    assert "node 2 · improve of" in html and "no submission/submission.csv" in html
    assert not re.search(r"""(src|href)=["']https?:""", html)  # self-contained


def test_chart_leaves_room_for_long_score_labels():
    from automind.report import chart
    from automind.search.journal import Journal, MetricValue, Node

    j = Journal(lower_is_better=True)
    for i, v in enumerate((-0.0123456, 12345.678)):
        j.append(
            Node(plan="p", action="draft", metric=MetricValue(v, True), is_buggy=False, elapsed_s=10.0 * i)
        )
    c = chart(j)
    for label in c["y_labels"]:  # right-aligned at left - 4, ~6 px per character at font-size 10
        assert c["left"] - 4 - 6 * len(label["text"]) >= 0, label
    assert min(d["x"] for d in c["dots"]) >= c["left"]


def test_report_hides_empty_sections_and_wraps_plans(tmp_path):
    from automind.search.journal import Journal, MetricValue, Node

    j = Journal(lower_is_better=False)
    j.append(Node(plan="", action="draft", is_buggy=True, error="LLMError: cannot connect"))
    j.append(
        Node(
            plan="a long plan",
            action="draft",
            code="print(1)",
            output="ok",
            metric=MetricValue(0.5),
            is_buggy=False,
        )
    )
    (tmp_path / "run").mkdir()
    j.save(tmp_path / "run" / "journal.json")
    html = write_report(tmp_path / "run").read_text()
    assert html.count("<h3>Code") == 1 and html.count("<h3>Plan</h3>") == 1
    assert '<pre class="prose plan">a long plan</pre>' in html and "cannot connect" in html
