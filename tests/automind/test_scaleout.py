"""Scale-out: bench jobs dispatched to a local Ray instance write experience to a loopback chroma server."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path

import pytest

from automind.benchmark import JobRecord, run_bench
from automind.experience import POSITIVE, ExperienceStore
from automind.store import Store

pytestmark = pytest.mark.slow
CHROMA = Path(sys.executable).with_name("chroma")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def chroma_url(tmp_path_factory: pytest.TempPathFactory):
    if not CHROMA.exists() and not shutil.which("chroma"):
        pytest.skip("chroma CLI not installed")
    port = _free_port()
    path = tmp_path_factory.mktemp("chroma")
    proc = subprocess.Popen(
        [str(CHROMA if CHROMA.exists() else "chroma"), "run", "--path", str(path), "--host", "127.0.0.1",
         "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.3)
    else:
        proc.kill()
        pytest.fail("chroma server did not start within 60 s")
    yield url
    proc.terminate()
    proc.wait(timeout=20)


def remote_job(task_dir: str, run_dir: str, variant: str, seed: int, overrides: dict) -> dict:
    """Runs inside a Ray worker: record an experience on the shared server, report a record."""
    import os

    exp = ExperienceStore(Store.open(overrides["knowledge.store"], "hash"))
    exp.record_trick(Path(task_dir).name, f"trick-{seed}", "T", [], 0.1)
    rec = JobRecord(
        Path(task_dir).name, variant, seed, valid=True, score=float(seed), run_dir=str(os.getpid())
    )
    return asdict(rec)


def test_store_on_chroma_server_roundtrip(chroma_url: str) -> None:
    store = Store.open(chroma_url, "hash")
    store.add("cards", ["a"], ["target encoding with out-of-fold means"], [{"kind": "card"}])
    hits = store.query("cards", "out-of-fold target encoding", k=1)
    assert hits and hits[0].id == "a"


def test_bench_jobs_on_local_ray_share_the_experience_server(chroma_url: str, tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    import sys as _sys

    # the job function lives in this test module, which workers cannot import: ship it by value
    ray.cloudpickle.register_pickle_by_value(_sys.modules[__name__])
    tasks = []
    for name in ("t1", "t2"):
        d = tmp_path / "tasks" / name
        d.mkdir(parents=True)
        (d / "description.md").write_text(name)
        tasks.append(d)
    try:
        recs = run_bench(
            tasks,
            tmp_path / "bench",
            ["default"],
            2,
            {"knowledge.store": chroma_url},
            ray_address="local",
            job=remote_job,
        )
    finally:
        ray.shutdown()
    assert len(recs) == 4 and all(r.valid for r in recs)
    # jobs ran in worker processes, not in the test process
    import os

    assert all(r.run_dir != str(os.getpid()) for r in recs)
    shared = ExperienceStore(Store.open(chroma_url, "hash"))
    assert shared.store.count(POSITIVE) == 4
