"""The sandbox contains misbehaving code, reports it clearly, and leaves nothing running."""

from __future__ import annotations

import json
import os
import time
import uuid
from pathlib import Path

import psutil
import pytest

from automind.sandbox import Sandbox, scrub_env
from automind.task import MetricSpec, Task, TaskSpec

SECRET = "the-answer-is-42"


@pytest.fixture
def task(tmp_path: Path) -> Task:
    root = tmp_path / "task"
    (root / "public" / "images").mkdir(parents=True)
    (root / "private").mkdir()
    (root / "public" / "train.csv").write_text("id,y\n1,0\n2,1\n")
    (root / "public" / "test.csv").write_text("id\n3\n")
    (root / "public" / "images" / "a.txt").write_text("pixels")
    (root / "public" / "sample_submission.csv").write_text("id,y\n3,0\n")
    (root / "private" / "answers.csv").write_text(f"id,y\n3,{SECRET}\n")
    (root / "description.md").write_text("toy")
    spec = TaskSpec(name="toy", metric=MetricSpec(name="accuracy"), id_column="id", target_columns=["y"])
    return Task(root, spec, "toy")


def make(task, tmp_path, **kw) -> Sandbox:
    kw = {"timeout_s": 20, "memory_mb": 1024, "threads": 1} | kw
    return Sandbox(task, tmp_path / "runs", **kw)


def survivors(marker: str) -> list[psutil.Process]:
    found = []
    for p in psutil.process_iter(["cmdline", "status"]):
        if p.info["status"] != psutil.STATUS_ZOMBIE and any(marker in c for c in p.info["cmdline"] or []):
            found.append(p)
    return found


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_ok_run_workspace_layout_and_no_answers(task, tmp_path):
    code = """
import os, subprocess, pandas as pd
df = pd.read_csv("input/train.csv")
os.makedirs("submission", exist_ok=True)
pd.DataFrame({"id": [3], "y": [df.y.mean()]}).to_csv("submission/submission.csv", index=False)
print("rows", len(df), "cwd", os.getcwd())
print("images", open("input/images/a.txt").read())
append = subprocess.run(["sh", "-c", "echo X >> input/train.csv"], capture_output=True)
print("shell append exit", append.returncode)
"""
    r = make(task, tmp_path).run_script(code)
    assert r.ok, r.output
    assert r.exit_code == 0 and r.exc_type is None
    assert "rows 2" in r.stdout and str(r.workspace) in r.stdout
    assert "images pixels" in r.stdout
    assert "shell append exit 0" not in r.stdout  # refused even for a shell (and for root)
    assert (task.public_dir / "train.csv").read_text() == "id,y\n1,0\n2,1\n"
    assert r.submission_path.is_file()
    assert r.wall_s > 0 and r.peak_mem_mb > 10
    ws = r.workspace
    assert {p.name for p in ws.iterdir()} >= {"input", "submission", "working", "solution.py"}
    assert r.isolation  # says which mechanism contained it
    # no file in the workspace holds the answers
    private = os.path.realpath(task.private_dir)
    for root, _, files in os.walk(ws):
        for f in files:
            p = Path(root) / f
            assert not os.path.realpath(p).startswith(private)
            assert SECRET not in p.read_text(errors="replace")
    Sandbox.remove(ws)
    assert not ws.exists()


def test_infinite_loop_times_out_and_nothing_survives(task, tmp_path):
    marker = f"loop-{uuid.uuid4().hex}"
    code = f"""
import subprocess, sys
subprocess.Popen([sys.executable, "-c", "import time\\nwhile True: time.sleep(1)  # {marker}"])
print("started", flush=True)
while True:  # {marker}
    pass
"""
    t0 = time.monotonic()
    r = make(task, tmp_path, timeout_s=1.5).run_script(code, name=f"{marker}.py")
    assert r.status == "timeout" and not r.ok
    assert "timed out after 1.5 s" in r.message and "[timeout]" in r.output
    assert "started" in r.stdout
    assert time.monotonic() - t0 < 10
    assert survivors(marker) == []


def test_memory_hog_is_killed(task, tmp_path):
    code = "chunks = []\nwhile True:\n    chunks.append(b'x' * 50_000_000)\n"
    r = make(task, tmp_path, memory_mb=300).run_script(code)
    assert r.status == "memory", r.output
    assert "memory" in r.message


def test_huge_single_allocation_hits_address_space_backstop(task, tmp_path):
    r = make(task, tmp_path, memory_mb=300).run_script("x = bytearray(64 * 2**30)\n")
    assert r.status == "memory" and r.exc_type == "MemoryError"


@pytest.mark.slow
def test_backstop_does_not_break_ml_imports(task, tmp_path):
    code = """
import numpy as np, pandas as pd, sklearn.ensemble, lightgbm as lgb, torch
X = np.random.rand(300, 5); y = (X[:, 0] > 0.5).astype(int)
m = lgb.LGBMClassifier(n_estimators=20, verbose=-1).fit(X, y)
print("acc", (m.predict(X) == y).mean(), "threads", torch.get_num_threads())
"""
    r = make(task, tmp_path, memory_mb=1024, threads=1, timeout_s=120).run_script(code)
    assert r.ok, r.output
    assert "threads 1" in r.stdout


def test_children_that_outlive_the_script_are_killed(task, tmp_path):
    marker = f"orphan-{uuid.uuid4().hex}"
    code = f"""
import os, subprocess, sys
sleeper = [sys.executable, "-c", "import time; time.sleep(300)  # {marker}"]
p1 = subprocess.Popen(sleeper, start_new_session=True)      # own session: escapes killpg
pid = os.fork()
if pid == 0:                                                # classic daemon: double fork + setsid
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, sleeper)
    os._exit(0)
os.waitpid(pid, 0)
print("PIDS", p1.pid, flush=True)
"""
    r = make(task, tmp_path).run_script(code)
    assert r.ok, r.output
    pid = int(r.stdout.split("PIDS")[1].split()[0])
    assert not alive(pid)
    assert survivors(marker) == []


def test_private_files_are_denied(task, tmp_path):
    answers = task.private_dir / "answers.csv"
    code = f"""
import os, subprocess
for how, fn in [
    ("abs", lambda: open({str(answers)!r}).read()),
    ("rel", lambda: open("../private/answers.csv").read()),
    ("list", lambda: os.listdir({str(task.private_dir)!r})),
    ("cat", lambda: subprocess.run(["cat", {str(answers)!r}], capture_output=True, text=True).stdout),
]:
    try:
        print(how, "LEAK", fn())
    except Exception as e:
        print(how, "denied", type(e).__name__)
"""
    # workdir = task root, so ../private from the workspace really is the private folder
    sb = Sandbox(task, task.root, timeout_s=20, memory_mb=1024, threads=1)
    r = sb.run_script(code)
    assert SECRET not in r.output
    assert "LEAK" not in r.stdout, r.stdout
    for how in ("abs", "rel", "list", "cat"):
        assert f"{how} denied PermissionError" in r.stdout
    assert any("private" in v for v in r.violations)
    assert "[sandbox refused]" in r.output


def test_environment_is_scrubbed(task, tmp_path, monkeypatch):
    for name in ("OPENAI_API_KEY", "KAGGLE_KEY", "KAGGLE_USERNAME", "MY_TOKEN", "DB_PASSWORD", "AUTOMIND_X"):
        monkeypatch.setenv(name, "s3cr3t")
    monkeypatch.setenv("PYTHONPATH", "/somewhere/else")
    code = "import os, json; print(json.dumps(dict(os.environ)))"
    r = make(task, tmp_path, threads=3).run_script(code)
    env = json.loads(r.stdout)
    assert "s3cr3t" not in r.stdout
    for name in ("OPENAI_API_KEY", "KAGGLE_KEY", "KAGGLE_USERNAME", "MY_TOKEN", "DB_PASSWORD", "AUTOMIND_X"):
        assert name not in env
    assert env["HOME"] == str(r.workspace)
    assert env["TMPDIR"] == str(r.workspace / "working" / "tmp")
    assert env["OMP_NUM_THREADS"] == env["MKL_NUM_THREADS"] == env["OPENBLAS_NUM_THREADS"] == "3"
    assert env["MPLBACKEND"] == "Agg" and env["PYTHONUNBUFFERED"] == "1" and env["TQDM_DISABLE"] == "1"
    assert "/somewhere/else" not in env["PYTHONPATH"]
    assert str(task.private_dir) not in r.stdout  # the private path is never passed through the env
    assert scrub_env({"PATH": "/bin", "GH_TOKEN": "x", "X_CREDENTIALS": "y"}) == {"PATH": "/bin"}


def test_what_automind_tells_a_script_reaches_it_and_nothing_else_can_ride_along(task, tmp_path, monkeypatch):
    """`script_env` (the final refit's bags) is set in the child even though the user's AUTOMIND_* variables
    are scrubbed; it may only name AUTOMIND_* variables, so it cannot carry a secret or a PATH."""
    from automind.sandbox import SandboxError

    monkeypatch.setenv("AUTOMIND_REFIT_BAGS", "9")  # the user's own value never reaches the script
    code = "import os; print(os.environ.get('AUTOMIND_REFIT_BAGS'))"
    assert make(task, tmp_path).run_script(code).stdout.strip() == "None"
    told = make(task, tmp_path, script_env={"AUTOMIND_REFIT_BAGS": "3"})
    assert told.run_script(code).stdout.strip() == "3"
    with pytest.raises(SandboxError, match="only set AUTOMIND_"):
        make(task, tmp_path, script_env={"PATH": "/tmp"})


def test_writes_outside_the_workspace_are_denied(task, tmp_path):
    outside = tmp_path / "outside.txt"
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    code = f"""
import os, shutil
for how, fn in [
    ("write", lambda: open({str(outside)!r}, "w").write("x")),
    ("remove", lambda: os.remove({str(victim)!r})),
    ("mkdir", lambda: os.mkdir({str(tmp_path / "newdir")!r})),
    ("input", lambda: open("input/train.csv", "a").write("x")),
    ("rename", lambda: os.rename({str(victim)!r}, "working/stolen.txt")),
]:
    try:
        fn()
        print(how, "ALLOWED")
    except PermissionError:
        print(how, "denied")
open("working/fine.txt", "w").write("ok")
open(os.devnull, "w").write("ok")
"""
    r = make(task, tmp_path).run_script(code)
    assert r.ok, r.output
    for how in ("write", "remove", "mkdir", "input", "rename"):
        assert f"{how} denied" in r.stdout
    assert not outside.exists() and not (tmp_path / "newdir").exists()
    assert victim.read_text() == "keep me"
    assert (task.public_dir / "train.csv").read_text() == "id,y\n1,0\n2,1\n"
    assert (r.workspace / "working" / "fine.txt").read_text() == "ok"
    assert len(r.violations) == 5 and "outside the workspace" in r.output


def test_uncaught_exception_reported_with_type_and_traceback(task, tmp_path):
    r = make(task, tmp_path).run_script("def f():\n    raise KeyError('col_x')\nf()\n")
    assert r.status == "error" and r.exit_code == 1
    assert r.exc_type == "KeyError"
    assert "col_x" in r.traceback and "line 2" in r.traceback
    assert "KeyError" in r.output


def test_long_output_keeps_head_and_tail(task, tmp_path):
    code = "print('FIRST')\nfor i in range(20000): print('filler line', i)\nprint('LAST')\n"
    r = make(task, tmp_path, head_chars=500, tail_chars=500).run_script(code)
    assert r.output.startswith("FIRST") and r.output.rstrip().endswith("LAST")
    assert "characters cut" in r.output and len(r.output) < 1200


def test_extra_inputs_and_from_settings(task, tmp_path):
    from automind.config import Settings

    oof = tmp_path / "oof_3.csv"
    oof.write_text("id,p\n1,0.5\n")
    settings = Settings()
    settings.sandbox.timeout_s = 7
    sb = Sandbox.from_settings(task, tmp_path / "runs", settings, extra_inputs={"oof/node3.csv": oof})
    assert sb.timeout_s == 7 and sb.memory_mb == settings.sandbox.memory_mb
    r = sb.run_script("print(open('working/oof/node3.csv').read())")
    assert r.ok and "0.5" in r.stdout


def test_session_keeps_state_survives_errors_and_dies_on_timeout(task, tmp_path):
    marker = f"sess-{uuid.uuid4().hex}"
    sb = make(task, tmp_path, timeout_s=10)
    with sb.session() as s:
        r1 = s.run("import pandas as pd\ndf = pd.read_csv('input/train.csv')\nx = 41\nprint('one')")
        assert r1.ok and r1.stdout.strip() == "one"
        r2 = s.run("x += 1\nprint('x is', x)")
        assert r2.ok and r2.stdout.strip() == "x is 42"  # output is per cell
        r3 = s.run("def g():\n    return df['missing']\ng()")
        assert r3.status == "error" and r3.exc_type == "KeyError"
        assert "<cell 3>" in r3.traceback and "df['missing']" in r3.traceback
        r4 = s.run("print(x, len(df))")
        assert r4.ok and r4.stdout.strip() == "42 2"
        r5 = s.run(
            f"import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', 'import time; time.sleep(300)  # {marker}'])\nwhile True: pass  # {marker}",
            timeout_s=1,
        )
        assert r5.status == "timeout" and "timed out" in r5.message
        assert not s.alive
        assert survivors(marker) == []
        r6 = s.run("print(x)")
        assert r6.status == "error" and "restart()" in r6.message
        s.restart()
        r7 = s.run("print('fresh', 'x' in globals())")
        assert r7.ok and r7.stdout.strip() == "fresh False"
    assert survivors(marker) == []
    assert not alive(s.proc.pid)


def test_session_close_leaves_nothing_running(task, tmp_path):
    marker = f"sessclose-{uuid.uuid4().hex}"
    s = make(task, tmp_path).session()
    r = s.run(
        f"import subprocess, sys\np = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(300)  # {marker}'], start_new_session=True)"
    )
    assert r.ok, r.output
    assert len(survivors(marker)) == 1
    s.close()
    assert survivors(marker) == []
