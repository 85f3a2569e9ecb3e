"""bench/pool_after.py: the pool round replayed after the fact is the run's first ensemble script with its
member list widened to the policy's pool; the run folder is only read."""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

from automind.recipes.ensemble import ENSEMBLE_TAG
from automind.search.journal import Journal, MetricValue, Node

SAVED = ["oof.npy", "submission.csv", "test_pred.npy", "y.npy"]


def _ensemble_code(members: list[str], run: Path) -> str:
    folders = [{"id": m, "dir": f"{run}/nodes/{m}/submission"} for m in members]
    cfg = {"seed": 1, "ensemble": {"method": "caruana", "members": folders}}
    return f"# {ENSEMBLE_TAG} caruana of nodes {', '.join(members)}\nimport json\nCFG = {cfg!r}\nprint(CFG)\n"


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        h.update(str(p).encode())
        h.update(p.read_bytes() if p.is_file() else b"")
    return h.hexdigest()


def test_the_pool_round_widens_the_first_rounds_members_to_the_pool(tmp_path: Path, bench) -> None:
    mod = bench("pool_after")
    run = tmp_path / "run"
    j = Journal(lower_is_better=False)
    a, b = (j.append(Node(action="draft", metric=MetricValue(v), is_buggy=False, code="x", outputs=SAVED))
            for v in (0.5, 0.6))  # fmt: skip
    j.append(
        Node(action="improve", parent=a, metric=MetricValue(0.55), is_buggy=False, code="y", outputs=SAVED)
    )
    j.append(
        Node(
            action="improve",
            parent=b,
            metric=MetricValue(0.7),
            is_buggy=False,
            code="z",
            outputs=SAVED,
            no_effect=True,
        )
    )  # fmt: skip  (a copy of its parent: never in the pool)
    j.append(Node(action="ensemble", parent=b, metric=MetricValue(0.65), is_buggy=False,
                  code=_ensemble_code(["1", "2"], run), ensemble={"members": ["1", "2"]}))  # fmt: skip
    run.mkdir()
    j.save(run / "journal.json")
    before = _digest(run)

    got = mod.pool_script(run)
    code, ids, best = got.code, got.ids, got.best
    assert ids == ["1", "2", "0"] and best == "3"  # the run's best node, whatever it is
    tree = ast.parse(code)
    cfg = next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign))
    assert [m["id"] for m in cfg["ensemble"]["members"]] == ["1", "2", "0"]
    assert cfg["ensemble"]["members"][2]["dir"] == str((run / "nodes" / "0" / "submission").resolve())
    assert cfg["ensemble"]["method"] == "caruana" and cfg["seed"] == 1  # the rest of CFG as it was
    assert code.splitlines()[0] == _ensemble_code(["1", "2"], run).splitlines()[0]
    assert _digest(run) == before

    j.nodes[-1].code = "print('an LLM blend')\n"  # not automind's ensemble script: nothing to replay
    j.save(run / "journal.json")
    assert mod.pool_script(run) == "no offline ensemble round"
