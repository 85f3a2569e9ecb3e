"""The HTML report of a real small run: tree = journal, diffs for improve/debug nodes, labelled scores,
knowledge with provenance, relative links, no network requests and no machine paths; and in a browser."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from search_fakes import ScriptedRoles, script

from automind.report import NODE_TABLES, NodeTable, write_report
from automind.report_text import Scrubber, provenance
from automind.roles import Trick
from automind.run import solve
from automind.run_setup import RunKnowledge

HREF = re.compile(r"""\b(href|src)=["']([^"']*)["']""")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """draft, buggy draft -> its debug fix, improve with a trick from a write-up: every kind of node.

    Made once for the module (a real solve takes seconds); each test reads its folder.
    """
    from search_fakes import make_task

    from automind.config import load_config

    tmp = tmp_path_factory.mktemp("report")
    tips = [Trick("p1", "Bag several seeds", "Average 5 seeds.", kind="post",
                  source="https://www.kaggle.com/competitions/x/discussion/1; Bagging Predictors (paper)")]  # fmt: skip
    pool = [Trick("c1", "Lower the threshold", "Use 0.4.", source="card:threshold")]
    roles = ScriptedRoles(
        {
            "draft": [script(0.7), script(0.6, bug=True)],
            "debug": [script(0.65)],
            "improve": [script(0.8, threshold=0.4)],
        },  # fmt: skip
        repair_fixes=False,
    )
    s = load_config(
        {"search.steps": 4, "search.num_drafts": 2, "search.debug_prob": 1.0, "search.trick_prob": 1.0,
         "search.greedy_prob": 1.0, "search.max_debug_depth": 2, "search.safety_net_share": 1.0,
         "coding.one_pass_tries": 1, "experience.enabled": False, "llm.provider": "none",
         "search.refine.outer": 0, "search.ensemble.rounds": 0, "verify.code_check": False},
        environ={}, cwd=Path("/nonexistent"),
    ).settings  # fmt: skip
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("AUTOMIND_HOME", str(tmp / "home"))
        mp.chdir(tmp)
        mp.setattr("automind.run.load_knowledge", lambda *a: RunKnowledge(labels=["Tabular/Binary"], tips=tips, pool=pool))  # fmt: skip
        result = solve(make_task(tmp / "task"), s, out=tmp / "runs" / "r", roles=roles)
    actions = [(n.action, n.status) for n in result.journal.nodes]
    assert actions == [("draft", "valid"), ("draft", "buggy"), ("debug", "valid"), ("improve", "valid")], (
        actions
    )
    return result


def test_report_structure_matches_the_journal(run):
    j = run.journal
    html = (run.run_dir / "report.html").read_text()
    assert len(re.findall(r'<a href="#node-\d+" class="tn ', html)) == len(
        j
    )  # one tree node per journal node
    assert html.count('<path class="edge') == sum(n.parent is not None for n in j.nodes)
    for n in j.nodes:
        assert f'id="node-{n.id}"' in html
    debug, improve = j.get("2"), j.get("3")
    assert debug.parent_id == "1" and improve.parent_id == "0"  # greedy: the best valid node
    for n in (debug, improve):  # a diff against the parent, not the whole script again
        detail = html.split(f'id="node-{n.id}"', 1)[1].split('class="node-detail', 1)[0]
        assert f"Changes against node {n.parent_id}" in detail and '<pre class="diff">' in detail
        assert '<span class="del">-' in detail or '<span class="add">+' in detail
    assert '<span class="del">-raise RuntimeError(' in html  # the debug fix removed the injected bug
    draft = html.split('id="node-0"', 1)[1].split('class="node-detail', 1)[0]
    assert "Changes against" not in draft and "<h3>Code" in draft
    best = run.best
    assert best is not None and f'<a href="#node-{best.id}">node {best.id}</a>' in html


def test_scores_are_labelled_by_what_they_measure(run):
    html = " ".join((run.run_dir / "report.html").read_text().split())
    cards = html.split('<div class="cards">', 1)[1].split("</div> </div>", 1)[0]
    assert 'validation (the script&#39;s own)</div><div class="value">0.8<' in cards
    assert f'test (graded)</div><div class="value">{run.grade["score"]:.6g}<' in cards
    assert "Not measured in this run: holdout (automind&#39;s)." in html


def test_knowledge_shows_labels_tips_with_provenance_and_where_tricks_were_tried(run):
    html = (run.run_dir / "report.html").read_text()
    knowledge = html.split('id="knowledge"', 1)[1].split('<section class="part"', 1)[0]
    assert "Tabular/Binary" in knowledge and "Bag several seeds" in knowledge and "write-up" in knowledge
    link = '<a href="https://www.kaggle.com/competitions/x/discussion/1" rel="noopener noreferrer">'
    assert link in knowledge and "Bagging Predictors (paper)" in knowledge
    improve = run.journal.get("3")
    assert improve.trick is not None and improve.trick.id == "c1"
    assert re.search(
        r'<a href="#node-3">node 3</a></td><td>Lower the threshold</td><td>card: threshold</td>', knowledge
    )


def test_page_is_self_contained_with_relative_links_and_no_machine_paths(run, tmp_path):
    made_in = run.run_dir.parents[1]
    html = (run.run_dir / "report.html").read_text()
    assert "<link" not in html and "@import" not in html and "url(" not in html
    for attr, target in HREF.findall(html):
        assert attr == "href", f"{attr}={target}: nothing is loaded from anywhere"
        if target.startswith("http"):  # only knowledge provenance links, plain anchors
            assert re.search(rf'href="{re.escape(target)}" rel="noopener noreferrer"', html)
            continue
        assert not target.startswith(("/", "file:")), target
        if not target.startswith("#"):
            assert (run.run_dir / target).is_file(), target
    assert 'href="best_solution.py"' in html and 'href="submission.csv"' in html
    for machine in {str(made_in), str(made_in.resolve()), sys.prefix, str(Path.home()), os.getcwd()}:
        if machine.count("/") >= 2:
            assert machine not in html, machine

    other = tmp_path / "elsewhere" / "page.html"
    other.parent.mkdir()
    page = write_report(run.run_dir, other).read_text()
    links = [t for _, t in HREF.findall(page) if not t.startswith(("#", "http"))]
    assert links and all((other.parent / t).resolve().is_file() for t in links)  # relative to where it lies


def test_extra_node_tables_appear_when_their_fields_exist(run, monkeypatch, tmp_path):
    table = NodeTable("Leakage", lambda n, r: [("flag", "target in features")] if n.id == "3" else None)
    monkeypatch.setattr("automind.report.NODE_TABLES", [*NODE_TABLES, table])
    from automind.report import load_run_files

    def with_holdout(run_dir):
        info, journal, problems = load_run_files(run_dir)
        journal.get("3").holdout_metric = 0.777  # the field issue 13 adds; rendered when present
        return info, journal, problems

    monkeypatch.setattr("automind.report.load_run_files", with_holdout)
    html = write_report(run.run_dir, tmp_path / "page.html").read_text()
    assert html.count('<th colspan="2">Leakage</th>') == 1 and "target in features" in html
    node3 = html.split('id="node-3"', 1)[1].split('class="node-detail', 1)[0]
    assert "holdout (automind&#39;s)</td><td><b>0.777</b>" in node3


def test_scrubber_and_provenance():
    s = Scrubber({"RUN_DIR": "/data/runs/r1", "~": "/home/ann"})
    assert s.known('open("/data/runs/r1/nodes/1") /data/runs/r10 /home/ann/x') == (
        'open("RUN_DIR/nodes/1") /data/runs/r10 ~/x'
    )
    text = 'File "/usr/lib/python3.11/site-packages/sk/base.py", line 3; see https://a.org/b/c/d and ./w/x/y'
    assert s.text(text) == 'File ".../sk/base.py", line 3; see https://a.org/b/c/d and ./w/x/y'
    html = str(provenance("card:abc; javascript:alert(1); http://x.org/p"))
    assert (
        html
        == 'abc; javascript:alert(1); <a href="http://x.org/p" rel="noopener noreferrer">http://x.org/p</a>'
    )


@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium is not installed")
def test_report_in_a_headless_browser(run, tmp_path):
    """The page renders in Chromium, its script selects the node named in the URL, and a screenshot is made."""
    page = (run.run_dir / "report.html").resolve()
    base = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=2000"]
    dom = subprocess.run([*base, "--dump-dom", f"{page.as_uri()}#node-2"], capture_output=True, text=True,
                         timeout=120).stdout  # fmt: skip
    assert '<html lang="en" class="js">' in dom
    assert 'class="node-detail shown" id="node-2"' in dom and 'data-node="2"' in dom
    assert len(re.findall(r'class="node-detail shown"', dom)) == 1
    shot = tmp_path / "report.png"
    subprocess.run([*base, f"--screenshot={shot}", "--window-size=1200,900", page.as_uri()],
                   capture_output=True, timeout=120)  # fmt: skip
    assert shot.is_file() and shot.stat().st_size > 10_000
