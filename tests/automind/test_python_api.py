"""The Python API: a light `import automind`, the version, and the README's example run as written."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("pandas", "numpy", "torch", "sklearn", "chromadb", "openai", "lightgbm", "sentence_transformers",
         "pydantic", "jinja2", "scipy")  # fmt: skip


def _imported(code: str) -> list[str]:
    probe = f"{code}\nimport json, sys; print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout.splitlines()[-1])


def test_import_automind_and_the_cli_help_stay_light():
    assert not set(_imported("import automind; automind.__version__; dir(automind)")) & set(HEAVY)
    help_run = "import sys; sys.argv = ['automind', '--help']\nfrom automind.cli import main\ntry:\n    main()\nexcept SystemExit:\n    pass"
    assert not set(_imported(help_run)) & set(HEAVY)


def test_lazy_names_resolve_and_unknown_names_fail_clearly():
    import automind
    from automind.api import SolveResult, solve

    assert automind.solve is solve and automind.SolveResult is SolveResult
    assert automind.KnowledgeBase.__name__ == "KnowledgeBase" and "tips" in dir(automind)
    with pytest.raises(AttributeError, match="no attribute 'solv'"):
        automind.solv  # noqa: B018


def test_version_from_package_metadata_in_python_and_cli():
    from importlib.metadata import version

    import automind

    assert automind.__version__ == version("automind")
    out = subprocess.run([sys.executable, "-m", "automind", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == f"automind {version('automind')}"


def test_solve_returns_a_result_for_a_tiny_task(tmp_path, monkeypatch):
    """automind.solve on a folder with scripted roles: the result's fields point at the run's files."""
    import importlib.util

    import automind

    spec = importlib.util.spec_from_file_location("api_fakes", ROOT / "tests" / "search" / "fakes.py")
    fakes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fakes)
    ScriptedRoles, make_task, script = fakes.ScriptedRoles, fakes.make_task, fakes.script

    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("AUTOMIND_EXPERIENCE__ENABLED", "false")
    roles = ScriptedRoles({"*": [script(0.7), script(0.8)]})
    monkeypatch.setattr("automind.assemble.make_roles", lambda settings, spec=None: roles)
    lines: list[str] = []
    res = automind.solve(make_task(tmp_path / "task"), steps=2, knowledge=False, out=tmp_path / "run",
                         config={"search.num_drafts": 2}, progress=lines.append)  # fmt: skip
    assert res.status == "finished" and res.steps == 2 and res.best_score == 0.8 and res.test_score == 1.0
    assert res.own_score == 0.8  # a tiny task has no holdout: the ranking score is the script's own
    assert res.submission == tmp_path / "run" / "submission.csv" and res.submission.is_file()
    assert res.best_solution is not None and res.report is not None and res.report.is_file()
    assert res.lower_is_better is False and res.best is not None and len(res.journal) == 2
    assert len([x for x in lines if " step " in x]) == 2 and "journal" not in repr(res)


def readme_example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Python API", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


@pytest.mark.slow
def test_the_readme_example_runs_as_written(tmp_path):
    """The README block, unchanged, on the bundled example; only the embedder is the instant hash one."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "AUTOMIND_"))}
    env |= {"AUTOMIND_HOME": str(tmp_path / "home"), "AUTOMIND_KNOWLEDGE__EMBEDDER": "hash"}
    (tmp_path / "work").mkdir()
    out = subprocess.run([sys.executable, "-c", readme_example()], capture_output=True, text=True,
                         cwd=tmp_path / "work", env=env, timeout=600)  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    lines = out.stdout.splitlines()
    status, best, test = lines[0].split()
    assert status in ("finished", "time") and 0.5 < float(best) <= 1 and 0.5 < float(test) <= 1
    assert lines[1] == "submission.csv report.html True"
    assert lines[2].startswith("[") and len(lines) >= 3 + 3 + 1
    assert re.search(r" step 1/2 \| node 0 \| draft", out.stderr)  # progress lines on stderr
    runs = list((tmp_path / "work" / "runs").iterdir())
    assert len(runs) == 1 and (runs[0] / "run.log").is_file()


def test_tips_wants_a_task_or_a_description():
    import automind

    for bad in ({}, {"task": "titanic", "description": "Predict survival."}):
        with pytest.raises(ValueError, match="give a task"):
            automind.tips(**bad)
