"""bench/refit_after.py: a run whose final refit was skipped is refitted on a copy (the original untouched),
and the refitted submission is compared with the search-time one."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

from automind.config import load_config
from automind.run import solve

ROOT = Path(__file__).resolve().parents[2]

# predicts y = x > 0.5 only when it sees all 300 training rows (the refit), else 0 everywhere (the search,
# which sees 240: 60 are held out); sleeps so that a 7 s run has no time left for the refit
SIZED = """import csv, os, time
time.sleep(4)
n = len(list(csv.DictReader(open("input/train.csv"))))
os.makedirs("submission", exist_ok=True)
rows = list(csv.DictReader(open("input/test.csv")))
with open("submission/submission.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["id", "y"])
    w.writerows([r["id"], int(n == 300 and float(r["x"]) > 0.5)] for r in rows)
open("submission/eval_metric.txt", "w").write("0.5")
print("training rows:", n)
"""


def _fakes():
    spec = importlib.util.spec_from_file_location(
        "search_fakes_bench", ROOT / "tests" / "search" / "fakes.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}  # fmt: skip


def test_a_skipped_refit_is_run_on_a_copy_and_compared(tmp_path, monkeypatch):
    fakes = _fakes()
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("AUTOMIND_EXPERIENCE__ENABLED", "false")
    fakes.make_task(tmp_path / "tasks" / "tiny", n=600)
    settings = load_config(
        {"search.steps": 1, "search.time_limit_s": 7, "search.exec_timeout_s": 20, "knowledge.enabled": False,
         "experience.enabled": False, "llm.provider": "none", "verify.holdout": "on",
         "verify.holdout_fraction": 0.2, "verify.code_check": False, "search.refine.outer": 0,
         "search.ensemble.rounds": 0},
        environ={}, cwd=Path("/nonexistent"),
    ).settings  # fmt: skip
    src = tmp_path / "runs" / "tiny" / "run"
    res = solve(tmp_path / "tasks" / "tiny", settings, out=src, roles=fakes.ScriptedRoles({"draft": [SIZED]}))
    assert res.refit is not None and res.refit["used"] is False  # 7 s could not hold it
    before = _digest(src)

    broken = tmp_path / "broken" / "tiny" / "run"  # a run.json cut short: said and left out, not a traceback
    broken.mkdir(parents=True)
    (broken / "run.json").write_text('{"refit": {"used": fa')
    (broken / "submission.csv").write_text("id,y\n")

    out = tmp_path / "out"
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "refit_after.py"), str(tmp_path / "tasks"),
                           str(tmp_path / "broken"), str(tmp_path / "runs"), "--out", str(out)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"{broken / 'run.json'}: unreadable" in done.stderr and "Traceback" not in done.stderr
    assert not (out / "broken").exists()
    assert _digest(src) == before  # the original run is never written to
    copy = out / "runs" / "tiny" / "run"
    info = json.loads((copy / "run.json").read_text())
    assert info["refit"]["used"] is True
    assert "training rows: 300" in (copy / "nodes" / "0" / "refit" / "output.txt").read_text()
    assert info["run_dir"] == str(copy.resolve()) and info["moved_from"] == [str(src.resolve())]
    row = next(line for line in done.stdout.splitlines() if line.startswith("| tiny (runs) |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert float(cells[1]) < 0.7 and cells[2] == "1" and cells[4].endswith("*")  # all-zero vs the rule
    assert cells[4].startswith("+0.")


# predicts y = x > 0.5 only when the refit tells it to bag (AUTOMIND_REFIT_BAGS), else 0 everywhere
BAGGED = """import csv, os
bags = os.environ.get("AUTOMIND_REFIT_BAGS")
os.makedirs("submission", exist_ok=True)
rows = list(csv.DictReader(open("input/test.csv")))
with open("submission/submission.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["id", "y"])
    w.writerows([r["id"], int(bags == "3" and float(r["x"]) > 0.5)] for r in rows)
open("submission/eval_metric.txt", "w").write("0.5")
print("bags:", bags)
"""


def test_bags_refit_every_run_twice_on_copies_and_compare(tmp_path, monkeypatch):
    """--bags N: a recipe run (its refit used) is refitted on two copies, with 1 and with N fold shuffles;
    the script is told N only in the second, and the table shows that copy's gain."""
    fakes = _fakes()
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("AUTOMIND_EXPERIENCE__ENABLED", "false")
    fakes.make_task(tmp_path / "tasks" / "tiny", n=600)
    settings = load_config(
        {"search.steps": 1, "knowledge.enabled": False, "experience.enabled": False, "llm.provider": "none",
         "verify.holdout": "on", "verify.holdout_fraction": 0.2, "verify.code_check": False,
         "search.refine.outer": 0, "search.ensemble.rounds": 0, "verify.refit_bags": 1},
        environ={}, cwd=Path("/nonexistent"),
    ).settings  # fmt: skip
    src = tmp_path / "runs" / "tiny" / "run"
    roles = fakes.ScriptedRoles({"draft": [BAGGED]}, name="recipes")
    res = solve(tmp_path / "tasks" / "tiny", settings, out=src, roles=roles)
    assert res.refit is not None and res.refit["used"] and res.refit["bags"] == 1
    before = _digest(src)
    out = tmp_path / "out"
    cmd = [sys.executable, str(ROOT / "bench" / "refit_after.py"), str(tmp_path / "tasks"), str(tmp_path / "runs"),
           "--out", str(out), "--bags", "3"]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert _digest(src) == before  # the original run is never written to
    for b, told in ((1, "None"), (3, "3")):
        copy = out / "runs" / f"bags{b}" / "tiny" / "run"
        assert json.loads((copy / "run.json").read_text())["refit"]["bags"] == b
        assert f"bags: {told}" in (copy / "nodes" / "0" / "refit" / "output.txt").read_text()
    row = next(line for line in done.stdout.splitlines() if line.startswith("| tiny (runs) |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert (
        float(cells[1]) < 0.7
        and float(cells[2]) == 1.0
        and cells[5].startswith("+0.")
        and cells[5].endswith("*")
    )
    bad = subprocess.run([*cmd[:-1], "1"], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert bad.returncode == 2 and "--bags 1: give 2 or more" in bad.stderr
