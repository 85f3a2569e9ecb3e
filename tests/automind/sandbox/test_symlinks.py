"""One symlink policy for the sandbox, the data analysis and `task check`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from automind.cli import app
from automind.sandbox import Sandbox, SandboxError
from automind.task import Task, TaskError, inspect_task, walk_inputs

READ_ALL = """
import os
for root, dirs, files in os.walk("input", followlinks=True):
    for f in sorted(files):
        p = os.path.join(root, f)
        print(p, open(p).read().strip())
"""


def make(task, tmp_path: Path, **kw) -> Sandbox:
    kw = {"timeout_s": 30, "memory_mb": 1024, "threads": 1} | kw
    return Sandbox(task, tmp_path / "runs", **kw)


@pytest.fixture
def linked(tmp_path, make_task):
    """A task whose public/ links a file and a folder kept elsewhere in the task folder."""
    task = make_task(tmp_path / "task")
    raw = task.root / "raw"
    (raw / "more").mkdir(parents=True)
    (raw / "extra.csv").write_text("from raw")
    (raw / "more" / "b.txt").write_text("linked folder")
    (task.public_dir / "extra.csv").symlink_to("../raw/extra.csv")  # relative, leaves public/
    (task.public_dir / "more").symlink_to(raw / "more")  # absolute folder link
    return task


def test_walker_follows_links_inside_the_task(linked):
    entries = {e.rel: e for e in linked.public_files()}
    assert {"train.csv", "images", "images/a.txt", "extra.csv", "more", "more/b.txt"} <= set(entries)
    assert entries["extra.csv"].link is not None and entries["extra.csv"].escapes
    assert entries["more/b.txt"].real == (linked.root / "raw" / "more" / "b.txt").resolve()
    assert not entries["more"].escapes  # absolute: resolves the same inside a mount namespace
    assert entries["train.csv"].link is None


@pytest.mark.parametrize("mode", ["auto", "copy"])
def test_linked_file_and_folder_reach_the_workspace(linked, tmp_path, mode):
    sb = make(linked, tmp_path, isolation=mode)
    if mode == "auto" and sb.isolation.namespaces:
        assert sb.input_mode == "copy" and "relative symlink" in sb.mechanism  # ../raw would not resolve
    r = sb.run_script(READ_ALL)
    assert r.ok, r.output
    assert "input/extra.csv from raw" in r.stdout and "input/more/b.txt linked folder" in r.stdout


def test_link_into_private_is_refused_everywhere(task, tmp_path, secret):
    (task.public_dir / "sneaky.csv").symlink_to(task.private_dir / "answers.csv")
    _, problems = inspect_task(task.root)
    assert any("sneaky.csv" in p and "private folder" in p for p in problems)
    with pytest.raises(TaskError, match="sneaky.csv"):
        Task.load(task.root)
    with pytest.raises(SandboxError, match="sneaky.csv"):
        make(task, tmp_path)
    from automind.analysis import analyze

    with pytest.raises(TaskError, match="sneaky.csv"):
        analyze(task)  # the answers' statistics never reach analysis.json
    r = CliRunner().invoke(app, ["task", "check", str(task.root)])
    assert r.exit_code == 1 and "sneaky.csv" in r.output and secret not in r.output


def test_folder_link_into_private_and_hard_link_are_refused(task):
    (task.public_dir / "answers_dir").symlink_to(task.private_dir)
    (task.public_dir / "up").symlink_to("..")  # the task root: private/ would be reachable below it
    os.link(task.private_dir / "answers.csv", task.public_dir / "copy_of_test.csv")
    with pytest.raises(TaskError) as info:
        task.public_files(allow_external=True)
    text = "\n".join(info.value.problems)
    assert "answers_dir" in text and "copy_of_test.csv" in text and "hard link" in text
    assert "up -> ..: a symlink to a folder holding the task's private folder" in text


def test_external_links_need_an_explicit_allowance(task, tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = elsewhere / "big.csv"
    target.write_text("external data")
    os.chmod(target, 0o640)
    (task.public_dir / "big.csv").symlink_to(target)
    with pytest.raises(SandboxError, match="big.csv.*leaves the task folder.*--allow-external-symlinks"):
        make(task, tmp_path)
    r = CliRunner().invoke(app, ["task", "check", str(task.root)])
    assert r.exit_code == 1 and "leaves the task folder" in r.output
    r = CliRunner().invoke(app, ["task", "check", str(task.root), "--allow-external-symlinks"])
    assert "leaves the task folder" not in r.output
    out = tmp_path / "run"
    r = CliRunner().invoke(app, ["solve", str(task.root), "--steps", "1", "--llm", "none", "--out", str(out)])
    assert r.exit_code == 1 and "big.csv" in r.output and not (out / "journal.json").exists()
    st = target.stat()
    r = make(task, tmp_path, allow_external_symlinks=True).run_script(
        READ_ALL
        + "\nimport subprocess\nsubprocess.run(['sh', '-c', 'chmod 777 input/big.csv; echo X >> input/big.csv'])"
    )
    assert "input/big.csv external data" in r.stdout, r.output
    after = target.stat()
    assert target.read_text() == "external data"
    assert (after.st_mode, after.st_mtime_ns, after.st_nlink) == (st.st_mode, st.st_mtime_ns, st.st_nlink)


def test_solve_refuses_bad_links_before_any_step(task, tmp_path):
    (task.public_dir / "sneaky.csv").symlink_to(task.private_dir / "answers.csv")
    out = tmp_path / "run"
    r = CliRunner().invoke(app, ["solve", str(task.root), "--steps", "1", "--llm", "none", "--out", str(out)])
    assert r.exit_code == 1 and "sneaky.csv" in r.output
    assert not (out / "journal.json").exists()


def test_walk_inputs_for_a_prepared_view(task, tmp_path):
    """A run-prepared inputs folder may link into the task's public files, never into private."""
    view = tmp_path / "view"
    view.mkdir()
    (view / "train.csv").write_text("id,y\n1,0\n")
    (view / "images").symlink_to(task.public_dir / "images")
    entries = walk_inputs(view, task.root, task.private_dir)
    assert {e.rel for e in entries} == {"train.csv", "images", "images/a.txt"}
    r = make(task, tmp_path, inputs=view).run_script(READ_ALL)
    assert r.ok and "input/images/a.txt pixels" in r.stdout and "input/test.csv" not in r.stdout
