"""`automind exec`: bad input gets a clear error before anything is made; exit codes match outcomes."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from automind.cli import app

GOOD = "open('submission/submission.csv', 'w').write('id,y\\n3,0\\n')\n"


def invoke(*args: str):
    return CliRunner().invoke(app, ["exec", *args])


def test_binary_script_and_folder_are_refused(task, tmp_path):
    binary = tmp_path / "model.bin"
    binary.write_bytes(b"import os\n\xff\xfe\x00\x01")
    r = invoke(str(task.root), str(binary))
    assert r.exit_code == 1 and "not a UTF-8 text file" in r.output and "offset 10" in r.output
    r = invoke(str(task.root), str(tmp_path))
    assert r.exit_code == 1 and "not a file" in r.output
    assert "Traceback" not in r.output


def test_bad_workdirs_are_refused_before_anything_is_made(task, tmp_path):
    before = sorted(p.relative_to(task.root) for p in task.root.rglob("*"))
    script = tmp_path / "s.py"
    script.write_text(GOOD)
    for inside in (task.root / "wd", task.public_dir, task.root):
        r = invoke(str(task.root), str(script), "--workdir", str(inside))
        assert r.exit_code == 1 and "inside the task folder" in r.output, r.output
    assert sorted(p.relative_to(task.root) for p in task.root.rglob("*")) == before
    r = invoke(str(task.root), str(script), "--workdir", str(script))
    assert r.exit_code == 1 and "not a folder" in r.output


def test_grading_failure_is_its_own_exit_code(task, tmp_path):
    (task.private_dir / "answers.csv").write_text("id\n3\n")  # answers without the target column
    script = tmp_path / "s.py"
    script.write_text(GOOD)
    r = invoke(str(task.root), str(script), "--json")
    report = json.loads(r.stdout)
    assert r.exit_code == 4 and report["outcome"] == "not graded"
    assert "grading failed" in report["reason"] and "target column" in report["reason"]
    (task.private_dir / "answers.csv").write_text(
        'id,y\n3,"0\n'
    )  # unreadable answers (an open quote): no traceback
    r = invoke(str(task.root), str(script))
    assert r.exit_code == 4 and "not graded" in r.output and "Traceback" not in r.output


def test_help_documents_the_exit_codes():
    r = CliRunner().invoke(app, ["exec", "--help"])
    text = " ".join(r.output.replace("│", " ").split())
    assert "Exit codes: 0 success" in text and "4 not graded" in text and "--keep-workspace" in text
