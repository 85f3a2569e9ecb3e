"""`automind exec` reports exactly one of its four outcomes, with the matching exit code."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from automind.cli import app
from automind.examples import make_example

GOOD = """
import pandas as pd
test = pd.read_csv("input/test.csv")
test["species"] = ["Gentoo" if f > 206 else "Adelie" for f in test.flipper_length_mm.fillna(0)]
test[["id", "species"]].to_csv("submission/submission.csv", index=False)
print("wrote", len(test))
"""
SCRIPTS = {
    "success": (GOOD, 0),
    "execution failed": ("import pandas as pd\npd.read_csv('input/nope.csv')\n", 1),
    "submission not created": ("open('submission/preds.txt', 'w').write('x')\nprint('forgot')\n", 2),
    "submission invalid": ("open('submission/submission.csv', 'w').write('id,wrong\\n1,2\\n')\n", 3),
}


@pytest.fixture(scope="module")
def task_dir(tmp_path_factory):
    return make_example("penguins", tmp_path_factory.mktemp("t") / "penguins")


def run(task_dir, tmp_path, code, *extra):
    script = tmp_path / "solution.py"
    script.write_text(code)
    args = ["exec", str(task_dir), str(script), "--workdir", str(tmp_path / "wd"), "--json", *extra]
    r = CliRunner().invoke(app, args)
    return r, json.loads(r.stdout)


@pytest.mark.parametrize("outcome", list(SCRIPTS))
def test_four_outcomes(outcome, task_dir, tmp_path):
    code, exit_code = SCRIPTS[outcome]
    r, report = run(task_dir, tmp_path, code)
    assert report["outcome"] == outcome, report
    assert r.exit_code == exit_code
    if outcome == "success":
        assert report["exec"]["status"] == "ok" and "wrote" in report["exec"]["output"]
        assert report["grade"]["valid"] and 0.3 < report["grade"]["score"] <= 1
    elif outcome == "execution failed":
        assert report["exec"]["exc_type"] == "FileNotFoundError" and "nope.csv" in report["exec"]["output"]
    elif outcome == "submission not created":
        assert "preds.txt" in report["reason"] and "submission.csv" in report["reason"]
    else:
        assert "wrong" in report["reason"] or "species" in report["reason"]
        assert report["grade"] is None


def test_timeout_is_an_execution_failure(task_dir, tmp_path):
    r, report = run(task_dir, tmp_path, "while True: pass\n", "--timeout", "1")
    assert report["outcome"] == "execution failed" and r.exit_code == 1
    assert report["exec"]["status"] == "timeout" and "timed out after 1 s" in report["reason"]


def test_human_output_and_missing_script(task_dir, tmp_path):
    script = tmp_path / "s.py"
    script.write_text(SCRIPTS["submission not created"][0])
    r = CliRunner().invoke(app, ["exec", str(task_dir), str(script), "--workdir", str(tmp_path / "wd")])
    assert r.exit_code == 2 and "submission not created" in r.output and "forgot" in r.output
    r = CliRunner().invoke(app, ["exec", str(task_dir), str(tmp_path / "absent.py")])
    assert r.exit_code == 1 and "no such script" in r.output


def test_success_without_answers_says_it_was_not_graded(task_dir, tmp_path):
    import shutil

    bare = tmp_path / "bare"
    shutil.copytree(task_dir, bare)
    (bare / "private/answers.csv").unlink()
    r, report = run(bare, tmp_path, GOOD)
    assert report["outcome"] == "success" and r.exit_code == 0 and report["grade"] is None
    assert "not graded" in report["reason"] and "no private answers" in report["reason"]
