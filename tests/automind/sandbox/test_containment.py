"""The kernel-side containment: native code and root cannot change what the sandbox was not given."""

from __future__ import annotations

import ast
import contextlib
import json
import os
import socket
import threading
from pathlib import Path

import pytest

from automind.sandbox import Sandbox, SandboxError, scrub_env
from automind.sandbox import isolation as iso

HOSTILE_SHELL = """
import os, subprocess
cmds = {cmds!r}
for name, cmd in cmds.items():
    r = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True)
    print(name, "exit", r.returncode, r.stderr.strip().splitlines()[-1:] if r.stderr.strip() else "")
"""


def make(task, tmp_path: Path, **kw) -> Sandbox:
    kw = {"timeout_s": 30, "memory_mb": 1024, "threads": 1} | kw
    return Sandbox(task, tmp_path / "runs", **kw)


def state(path: Path) -> tuple:
    st = os.stat(path)
    return path.read_bytes(), st.st_mode, st.st_mtime_ns, st.st_uid, st.st_nlink


def test_native_code_cannot_change_anything_outside_the_workspace(task, tmp_path, namespaces):
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    public = task.public_dir / "train.csv"
    before = {p: state(p) for p in (outside, public, task.private_dir / "answers.csv")}
    cmds = {
        "append-input": "echo X >> input/train.csv",
        "chmod-input": "chmod 777 input/train.csv",
        "append-public": f"echo X >> {public}",
        "touch-task": f"touch {task.root}/new.txt",
        "remove-outside": f"rm -f {outside}",
        "write-outside": f"echo X > {outside}",
        "write-workspace": "echo ok > working/fine.txt",
    }
    sb = make(task, tmp_path)
    assert sb.isolation.namespaces and sb.input_mode == "bind"
    r = sb.run_script(HOSTILE_SHELL.format(cmds=cmds))
    assert r.ok, r.output
    for name in cmds:
        expect = "exit 0" if name == "write-workspace" else "Read-only file system"
        line = next(ln for ln in r.stdout.splitlines() if ln.startswith(name + " "))
        assert expect in line, line
    assert {p: state(p) for p in before} == before
    assert not (task.root / "new.txt").exists()
    assert (r.workspace / "working" / "fine.txt").read_text() == "ok\n"
    assert r.isolation.startswith("namespaces")


def test_private_answers_are_hidden_from_native_code(task, tmp_path, secret, namespaces):
    # a shell script file: the audit hook never sees the private path on a command line
    code = f"""
import subprocess
open("working/peek.sh", "w").write("cat {task.private_dir}/answers.csv; ls {task.private_dir}")
r = subprocess.run(["sh", "working/peek.sh"], capture_output=True, text=True)
print("out", r.stdout, "err", r.stderr)
"""
    r = make(task, tmp_path).run_script(code)
    assert r.ok, r.output
    assert secret not in r.output
    assert "Permission denied" in r.stdout


def test_copy_fallback_keeps_the_user_files(task, tmp_path):
    """Without namespaces inputs are private copies: a shell (even as root) changes only its copy."""
    public = task.public_dir / "train.csv"
    before = state(public)
    cmds = {"append-input": "echo X >> input/train.csv", "chmod-input": "chmod 600 input/train.csv"}
    sb = make(task, tmp_path, isolation="copy")
    assert sb.input_mode == "copy" and not sb.isolation.namespaces
    assert "only guarded" in sb.mechanism and sb.isolation.fallback
    r = sb.run_script(HOSTILE_SHELL.format(cmds=cmds) + "\nprint(open('input/train.csv').read())")
    assert r.ok, r.output
    assert state(public) == before  # content, mode, mtime, owner and link count
    copy = r.workspace / "input" / "train.csv"
    assert copy.stat().st_ino != public.stat().st_ino
    assert r.isolation.startswith("copies")


def _accept(server: socket.socket, n: int) -> None:
    """Take up to n connections; end quietly when the test closes the server (not a failure of a later test)."""
    with contextlib.suppress(OSError):
        for _ in range(n):
            server.accept()


def test_network_is_cut_unless_allowed(task, tmp_path, namespaces):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    port = server.getsockname()[1]
    threading.Thread(target=_accept, args=(server, 5), daemon=True).start()
    code = f"""
import socket
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=3)
    print("host loopback reachable")
except OSError as e:
    print("host loopback unreachable", e)
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
socket.create_connection(s.getsockname(), timeout=3)
print("own loopback works")
"""
    try:
        r = make(task, tmp_path).run_script(code)
        assert r.ok, r.output
        assert "host loopback unreachable" in r.stdout and "own loopback works" in r.stdout
        assert "no network" in r.isolation
        r = make(task, tmp_path, network=True).run_script(code)
        assert "host loopback reachable" in r.stdout, r.output
        assert "host network" in r.isolation
    finally:
        server.close()


SECRETS = ("GITHUB_PAT", "DATABASE_URL", "PGPASS", "SLACK_WEBHOOK", "GH_AUTH", "OPENAI_API_KEY", "KAGGLE_KEY")


def test_only_allow_listed_variables_reach_the_child(task, tmp_path, monkeypatch):
    for name in SECRETS:
        monkeypatch.setenv(name, f"s3cr3t-{name}")
    monkeypatch.setenv("LC_NUMERIC", "C")
    monkeypatch.setenv("MY_DATASET_ROOT", "/data/x")
    task.spec.env = ["MY_DATASET_ROOT"]  # what task.yaml `env:` declares
    r = make(task, tmp_path).run_script("import os, json; print(json.dumps(dict(os.environ)))")
    env = json.loads(r.stdout)
    assert "s3cr3t" not in r.stdout
    for name in SECRETS:
        assert name not in env
    assert env["LC_NUMERIC"] == "C" and env["MY_DATASET_ROOT"] == "/data/x"
    assert env["HOME"] == str(r.workspace) and env["TMPDIR"].startswith(str(r.workspace))
    assert scrub_env({"PATH": "/bin", "DATABASE_URL": "pg://", "LANG": "C"}, ["X"]) == {
        "PATH": "/bin",
        "LANG": "C",
    }


def test_task_yaml_env_key_is_read(tmp_path, make_task):
    from automind.task import Task

    make_task(tmp_path / "t")
    with open(tmp_path / "t" / "task.yaml", "a") as f:
        f.write("env: [MY_DATASET_ROOT]\n")
    assert Task.load(tmp_path / "t").spec.env == ["MY_DATASET_ROOT"]


def test_isolation_modes(task, tmp_path, monkeypatch):
    monkeypatch.setattr(iso, "_probed", {True: (False, "unshare: Operation not permitted", ())})
    with pytest.raises(SandboxError, match="namespace.*Operation not permitted"):
        make(task, tmp_path, isolation="namespace")
    sb = make(task, tmp_path)  # auto: falls back to copies and says why
    assert sb.input_mode == "copy" and "Operation not permitted" in sb.mechanism
    assert sb.isolation.fallback and sb.isolation.fallback.startswith("sandbox: copies")
    with pytest.raises(SandboxError, match="isolation 'bogus'"):
        make(task, tmp_path, isolation="bogus")
    from automind.config import Settings
    from automind.sandbox.core import preflight

    note = preflight(task, Settings()).fallback  # what a run lists under fallbacks
    assert note and note.startswith("sandbox: copies") and "Operation not permitted" in note


def test_only_harmless_devices_and_no_host_sockets(task, tmp_path, namespaces):
    """A read-only mount does not stop writes to a device node: disks must not be in the child's /dev."""
    from automind.sandbox.child.namespaces import ACCELERATOR_PREFIXES, DEVICES

    code = """
import os, subprocess
print("DEV", sorted(os.listdir("/dev")))
open("/dev/null", "w").write("fine")
r = subprocess.run(["sh", "-c", "ls /run"], capture_output=True, text=True)
print("RUN", r.returncode, r.stdout.split())
"""
    r = make(task, tmp_path).run_script(code)
    assert r.ok, r.output
    seen = set(ast.literal_eval(r.stdout.split("DEV ", 1)[1].splitlines()[0]))
    allowed = set(DEVICES) | {"fd", "stdin", "stdout", "stderr", "shm"}
    assert {d for d in seen if not d.startswith(ACCELERATOR_PREFIXES)} <= allowed
    assert "RUN 0" not in r.stdout  # /run (docker.sock, dbus, ...) is hidden
