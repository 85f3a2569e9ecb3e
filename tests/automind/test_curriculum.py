"""Curriculum: Agent K's score terms, pick order, logging and resume."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from automind.curriculum import CurriculumState, Pick, run_curriculum, score_tasks, tree_text


def _task(root: Path, name: str, desc: str, header: str) -> None:
    d = root / name
    (d / "public").mkdir(parents=True)
    (d / "description.md").write_text(desc)
    (d / "public" / "train.csv").write_text(header + "\n1,2\n")


def _embed(texts: list[str]) -> np.ndarray:
    """Bag of three topic words, normalised: enough to make similarity meaningful and predictable."""
    vocab = ["image", "text", "table"]
    vecs = np.array([[t.lower().count(w) + 0.01 for w in vocab] for t in texts], dtype=float)
    return vecs / np.linalg.norm(vecs, axis=1, keepdims=True)


@pytest.fixture
def tasks(tmp_path: Path) -> Path:
    root = tmp_path / "tasks"
    _task(root, "a-image", "image image classify photos", "image_id,label")
    _task(root, "b-text", "text text classify reviews", "text,label")
    _task(root, "c-image2", "image image segmentation", "image_id,mask")
    _task(root, "d-table", "table table regression", "table_col,y")
    return root


def test_score_prefers_tasks_similar_to_solved_and_penalises_failed() -> None:
    state = CurriculumState(tasks=["a", "b", "c"])
    state.picks = [Pick(1, 0, "a", 0.0, {}, outcome="solved"), Pick(1, 1, "b", 0.0, {}, outcome="failed")]
    v = {"a": np.array([1.0, 0.0]), "b": np.array([0.0, 1.0]), "c": np.array([0.8, 0.6])}
    scores = score_tasks(state, v, v, alpha=0.5, beta=0.3, r=3)
    assert scores["c"]["solved_desc"] == pytest.approx(0.8)
    assert scores["c"]["failed_desc"] == pytest.approx(0.6)
    assert scores["c"]["total"] == pytest.approx(0.8 + 0.4 - 0.6 - 0.3)
    # b was picked one step ago: recency term exp(-1)
    assert scores["b"]["recency"] == pytest.approx(np.exp(-1))
    assert scores["c"]["recency"] == 0.0


def test_curriculum_follows_similarity_logs_terms_and_resumes(tasks: Path, tmp_path: Path) -> None:
    out = tmp_path / "cur"
    order: list[str] = []

    def solve(task_dir: Path, run_dir: Path) -> dict:
        order.append(task_dir.name)
        return {"valid": task_dir.name != "b-text", "metric": 0.5}

    state = run_curriculum(tasks, out, solve, _embed, rounds=1, retries=0)
    # first pick is a tie broken by name; then the other image task is closest to the solved one
    assert order[:2] == ["a-image", "c-image2"]
    assert len(order) == 4 and set(order) == {"a-image", "b-text", "c-image2", "d-table"}
    saved = json.loads((out / "curriculum.json").read_text())
    assert [p["task"] for p in saved["picks"]] == order
    assert all(
        set(p["terms"]) >= {"solved_desc", "solved_tree", "failed_desc", "failed_tree", "recency"}
        for p in saved["picks"]
    )
    assert state.failed == {"b-text"}

    # a second round continues from the saved state instead of starting over
    order.clear()
    run_curriculum(tasks, out, solve, _embed, rounds=2, retries=0)
    assert sorted(order) == ["a-image", "c-image2", "d-table"]  # b-text used its one try
    assert len(json.loads((out / "curriculum.json").read_text())["picks"]) == 7


def test_failed_tasks_stay_in_the_pool_and_are_retried_after_others(tasks: Path, tmp_path: Path) -> None:
    """Agent K: a failure does not remove a task; recency pushes its retry behind fresher picks."""
    tries: dict[str, int] = {}

    def solve(task_dir: Path, run_dir: Path) -> dict:
        tries[task_dir.name] = tries.get(task_dir.name, 0) + 1
        # a-image fails on its first try only; b-text never works
        ok = task_dir.name != "b-text" and not (task_dir.name == "a-image" and tries["a-image"] == 1)
        return {"valid": ok, "metric": 0.5 if ok else None}

    state = run_curriculum(tasks, tmp_path / "cur", solve, _embed, rounds=1, retries=1)
    order = [p.task for p in state.picks]
    assert order.count("a-image") == 2 and order.count("b-text") == 2  # each retried once
    assert order.index("a-image", 1) > 1  # not retried at once: the recency term held it back
    assert state.solved == {"a-image", "c-image2", "d-table"} and state.failed == {"b-text"}
    retry = [p for p in state.picks if p.task == "a-image"][1]
    assert retry.terms["recency"] > 0 and retry.outcome == "solved"
    # a task that used up its retries leaves the pool
    assert state.pool(rounds=1, retries=1) == []


def test_recency_penalises_the_task_just_picked() -> None:
    from automind.curriculum import next_task

    state = CurriculumState(tasks=["a", "b"])
    state.picks = [Pick(1, 0, "a", 0.0, {}, outcome="failed")]
    v = {"a": np.array([1.0, 0.0]), "b": np.array([0.0, 1.0])}  # unrelated tasks: only recency differs
    scores = score_tasks(state, v, v, alpha=0.5, beta=0.3, r=3)
    assert scores["a"]["recency"] > 0 and scores["a"]["total"] < scores["b"]["total"] == 0.0
    assert next_task(scores, state, state.pool(rounds=1, retries=1)) == "b"


def test_with_a_model_the_first_task_is_the_one_it_judges_easiest(tasks: Path, tmp_path: Path) -> None:
    from automind.config import load_config
    from automind.llm import make_llm
    from automind.llm.stub import StubServer, reply
    from automind.llm.tasks import rank_by_difficulty

    order: list[str] = []
    with StubServer() as stub:
        stub.push(
            reply(tool_args={"order": ["d-table", "a-image", "c-image2", "b-text"]}, tool_name="task_order")
        )
        cfg = {"llm.provider": "openai", "llm.base_url": stub.url, "llm.max_retries": 0}
        llm = make_llm(load_config(cfg, environ={}, cwd=tmp_path).settings)
        state = run_curriculum(
            tasks, tmp_path / "cur", lambda t, r: order.append(t.name) or {"valid": True}, _embed,
            rank=lambda infos: rank_by_difficulty(llm, infos),
        )  # fmt: skip
        prompt = stub.requests[0]["messages"][-1]["content"]
    assert order[0] == "d-table" and state.picks[0].reason == "llm: judged easiest"
    assert all(p.reason == "score" for p in state.picks[1:]) and len(stub.requests) == 1  # asked once
    for needle in ("## a-image", "image image classify photos", "## d-table", "table_col,y", "easiest"):
        assert needle in prompt


def test_a_failed_ranking_is_a_noted_fallback(tasks: Path, tmp_path: Path) -> None:
    def broken(infos: list[dict]) -> list[str]:
        raise RuntimeError("model offline")

    order: list[str] = []
    state = run_curriculum(tasks, tmp_path / "cur", lambda t, r: order.append(t.name) or {"valid": True},
                           _embed, rank=broken)  # fmt: skip
    assert order[0] == "a-image" and "model offline" in state.notes[0]
    assert json.loads((tmp_path / "cur" / "curriculum.json").read_text())["notes"] == state.notes


def test_pending_pick_from_a_crash_is_rerun(tasks: Path, tmp_path: Path) -> None:
    out = tmp_path / "cur"
    out.mkdir()
    state = CurriculumState(tasks=sorted(p.name for p in tasks.iterdir()))
    state.picks = [Pick(1, 0, "a-image", 0.0, {}, outcome="pending")]
    state.save(out / "curriculum.json")
    seen: list[str] = []
    run_curriculum(tasks, out, lambda t, r: seen.append(t.name) or {"valid": True}, _embed, rounds=1)
    assert sorted(seen) == ["a-image", "b-text", "c-image2", "d-table"]


def test_crashing_solver_counts_as_failed(tasks: Path, tmp_path: Path) -> None:
    def boom(task_dir: Path, run_dir: Path) -> dict:
        raise RuntimeError("sandbox exploded")

    state = run_curriculum(tasks, tmp_path / "cur", boom, _embed, rounds=1, retries=0)
    assert state.failed == {"a-image", "b-text", "c-image2", "d-table"}


def test_tree_text_lists_columns(tasks: Path) -> None:
    assert "image_id,label" in tree_text(tasks / "a-image")


def test_empty_tasks_dir_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="no task folders"):
        run_curriculum(tmp_path / "empty", tmp_path / "o", lambda t, r: {}, _embed)
