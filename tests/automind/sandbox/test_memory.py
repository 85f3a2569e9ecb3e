"""The memory limit counts shared pages once: forked workers sharing an array are not a hog."""

from __future__ import annotations

from automind.sandbox import Sandbox
from automind.sandbox.process import pss_bytes

# 200 MB filled before forking; four idle workers share it copy-on-write. Their RSS adds up to ~1 GB,
# their proportional set size to ~200 MB.
SHARED_WORKERS = """
import os, time
import numpy as np
a = np.ones(25_000_000)  # 200 MB, touched
kids = []
for _ in range(4):
    pid = os.fork()
    if pid == 0:
        time.sleep(2.5)
        os._exit(int(a[-1]) - 1)
    kids.append(pid)
print("exits", [os.waitstatus_to_exitcode(os.waitpid(k, 0)[1]) for k in kids])
"""
HOG = "import numpy as np\nparts = [np.ones(12_500_000) for _ in range(8)]  # 800 MB, private\nprint('survived')\n"


def test_forked_workers_sharing_an_array_are_not_killed(task, tmp_path):
    sb = Sandbox(task, tmp_path / "runs", timeout_s=60, memory_mb=500, threads=1)
    r = sb.run_script(SHARED_WORKERS)
    assert r.ok, r.output
    assert "exits [0, 0, 0, 0]" in r.stdout
    assert 150 < r.peak_mem_mb < 500  # the shared 200 MB counted once


def test_a_real_hog_is_still_killed(task, tmp_path):
    r = Sandbox(task, tmp_path / "runs", timeout_s=60, memory_mb=500, threads=1).run_script(HOG)
    assert r.status == "memory", r.output
    assert "survived" not in r.stdout and "proportional set size" in r.message


def test_pss_of_this_process_is_readable():
    import os

    assert pss_bytes(os.getpid()) > 1_000_000
    assert pss_bytes(2**22 + 12345) is None


def test_an_exiting_process_counts_nothing_when_its_share_cannot_be_read():
    """A worker that exits between the RSS and the PSS reads must not be counted with its whole (stale) RSS:
    four such workers sharing 200 MB once read as 1 GB and killed a valid script."""
    import os
    import subprocess
    import sys
    import time

    import psutil

    from automind.sandbox.process import Tree

    zombie = subprocess.Popen([sys.executable, "-c", "pass"])  # never waited for until the end: a zombie
    try:
        deadline = time.monotonic() + 10
        while psutil.Process(zombie.pid).status() != psutil.STATUS_ZOMBIE and time.monotonic() < deadline:
            time.sleep(0.02)
        tree = Tree(os.getpid(), "marker", time.time())
        tree.known[zombie.pid] = psutil.Process(zombie.pid)
        assert pss_bytes(zombie.pid) is None  # its memory map is gone
        assert tree._share(zombie.pid, 230 * 2**20) == 0
        assert tree._share(os.getpid(), 1) == pss_bytes(os.getpid())  # a live one: its share
    finally:
        zombie.wait()


def test_a_worker_that_let_go_of_its_memory_but_still_runs_counts_its_rss_now():
    """Between releasing its memory map and becoming a zombie, an exiting worker still reads as running and
    its smaps are empty: its RSS read a moment earlier (the shared pages included) must not be counted, as
    that once killed a valid script of forked workers. Its RSS read again is what counts."""
    import os
    import time

    import psutil

    from automind.sandbox import process

    class Exiting:  # what psutil shows of such a worker
        def status(self) -> str:
            return psutil.STATUS_RUNNING

        def memory_info(self):
            return type("mem", (), {"rss": 0})()

    class Starting(Exiting):  # a process whose smaps cannot be read but whose memory is real
        def memory_info(self):
            return type("mem", (), {"rss": 300 * 2**20})()

    tree = process.Tree(os.getpid(), "marker", time.time())
    gone = 2**22 + 12345  # no such process: its smaps cannot be read
    assert process.pss_bytes(gone) is None
    tree.known[gone] = Exiting()
    assert tree._share(gone, 230 * 2**20) == 0
    tree.known[gone] = Starting()
    assert tree._share(gone, 230 * 2**20) == 230 * 2**20  # never more than the RSS read with the others
    assert tree._share(gone + 1, 5) == 0  # unknown to the tree: gone
