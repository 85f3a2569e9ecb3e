"""Hands off the user's files: every file reachable from the task folder, symlink targets included, has the
same content, mode, owner, mtime and link count after `exec`, `solve`, `task check` and `grade`."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from automind.cli import app
from automind.examples import make_example

# Attacks through input/ (a shell bypasses the audit hook; as root, modes do not stop it) and through
# Python at the task's real paths. The kernel-side refusal of shell writes at absolute paths is tested
# in test_containment.py (it needs namespaces; the copy fallback only guards Python code there).
HOSTILE = """
import os, subprocess, pandas as pd
for cmd in ["echo X >> input/train.csv", "chmod 777 input/train.csv", "touch -d 2001-01-01 input/test.csv",
            "echo X >> input/extra/notes.txt", "rm -f input/sample_submission.csv"]:
    subprocess.run(["sh", "-c", cmd])
for attempt in [lambda: open({train!r}, "a").write("X"), lambda: os.chmod({train!r}, 0o777),
                lambda: os.utime({notes!r}, (0, 0)), lambda: open({notes!r}, "w").write("X")]:
    try:
        attempt()
    except OSError:
        pass
test = pd.read_csv("input/test.csv")
test["species"] = "Adelie"
test[["id", "species"]].to_csv("submission/submission.csv", index=False)
"""


def snapshot(*roots: Path) -> dict[str, tuple]:
    """lstat facts and content hash of every entry under the roots (symlinks as links, not followed)."""
    seen: dict[str, tuple] = {}
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            for name in [*dirnames, *filenames, ""]:
                p = Path(dirpath, name) if name else Path(dirpath)
                st = p.lstat()
                body: object
                if p.is_symlink():
                    body = os.readlink(p)
                elif p.is_file():
                    body = hashlib.sha256(p.read_bytes()).hexdigest()
                else:
                    body = sorted(os.listdir(p))
                seen[str(p)] = (body, st.st_mode, st.st_uid, st.st_gid, st.st_mtime_ns, st.st_nlink)
    return seen


@pytest.fixture
def user_task(tmp_path: Path) -> tuple[Path, Path]:
    """Penguins with a symlinked train.csv (inside the task) and a symlinked folder outside it."""
    root = make_example("penguins", tmp_path / "penguins")
    data = root / "data"
    data.mkdir()
    (root / "public" / "train.csv").rename(data / "train.csv")
    (root / "public" / "train.csv").symlink_to(data / "train.csv")
    external = tmp_path / "shared-notes"
    external.mkdir()
    (external / "notes.txt").write_text("kept elsewhere")
    (root / "public" / "extra").symlink_to(external)
    return root, external


@pytest.mark.slow
def test_commands_leave_every_user_file_as_it_was(user_task, tmp_path, monkeypatch):
    root, external = user_task
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("AUTOMIND_SANDBOX__ALLOW_EXTERNAL_SYMLINKS", "true")
    script = tmp_path / "hostile.py"
    script.write_text(
        HOSTILE.format(train=str(root / "data" / "train.csv"), notes=str(external / "notes.txt"))
    )
    before = snapshot(root, external)
    run = CliRunner().invoke
    steps = {
        "exec": ["exec", str(root), str(script), "--json"],
        "exec (copies)": ["exec", str(root), str(script), "--json"],
        "solve": [
            "solve",
            str(root),
            "--steps",
            "1",
            "--llm",
            "none",
            "--no-knowledge",
            "--out",
            str(tmp_path / "run"),
            "--json",
        ],  # fmt: skip
        "task check": ["task", "check", str(root), "--allow-external-symlinks"],
        "grade": ["grade", str(root), str(tmp_path / "run" / "submission.csv")],
    }
    for what, args in steps.items():
        if what == "exec (copies)":
            monkeypatch.setenv("AUTOMIND_SANDBOX__ISOLATION", "copy")
        r = run(app, args)
        monkeypatch.delenv("AUTOMIND_SANDBOX__ISOLATION", raising=False)
        assert r.exit_code == 0, f"{what}: {r.output}"
        if what.startswith("exec"):
            report = json.loads(r.stdout)
            assert report["outcome"] == "success" and report["grade"]["valid"]
            assert report["exec"]["isolation"].startswith(
                "copies" if "copies" in what else ("namespaces", "copies")
            )
        assert snapshot(root, external) == before, f"{what} changed the user's files"
    assert (tmp_path / "run" / "submission.csv").is_file()
    info = json.loads((tmp_path / "run" / "run.json").read_text())
    assert info["sandbox"].startswith(("namespaces", "copies"))  # the run says how it was contained
    assert any(f.startswith("sandbox: copies") for f in info["fallbacks"]) == info["sandbox"].startswith(
        "copies"
    )
