"""Tiny tasks for the environment tests; solution scripts use the standard library only (fast start-up)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

# Test-set targets that appear nowhere in public/: if any action hands out the answers, these show up.
SECRET_BASE = 98765.4321


def secret(i: int) -> float:
    return round(SECRET_BASE + 3.1 * i, 4)


def make_regression_task(root: Path, n_train: int = 30, n_test: int = 12) -> Path:
    """y = 10 x + 5 on public train; the test answers are distinctive numbers kept in private/."""
    (root / "public").mkdir(parents=True)
    (root / "private").mkdir()
    with open(root / "public/train.csv", "w", newline="") as f:
        csv.writer(f).writerows([["id", "x", "y"], *[[i, i % 7, 10 * (i % 7) + 5] for i in range(n_train)]])
    test_ids = range(n_train, n_train + n_test)
    with open(root / "public/test.csv", "w", newline="") as f:
        csv.writer(f).writerows([["id", "x"], *[[i, i % 7] for i in test_ids]])
    with open(root / "public/sample_submission.csv", "w", newline="") as f:
        csv.writer(f).writerows([["id", "y"], *[[i, 0.0] for i in test_ids]])
    with open(root / "private/answers.csv", "w", newline="") as f:
        csv.writer(f).writerows([["id", "y"], *[[i, secret(i)] for i in test_ids]])
    (root / "description.md").write_text("# Tiny regression\nPredict y from x. Metric: RMSE.\n")
    (root / "task.yaml").write_text("name: tiny-reg\nmetric: rmse\nid_column: id\ntarget_columns: [y]\n")
    return root


def make_binary_task(root: Path, n: int = 40) -> Path:
    """y = x > 0.5, accuracy; answers in private/."""
    (root / "public").mkdir(parents=True)
    (root / "private").mkdir()
    xs = [(i, (i * 37 % 100) / 100) for i in range(n)]
    train, test = xs[: n // 2], xs[n // 2 :]
    with open(root / "public/train.csv", "w", newline="") as f:
        csv.writer(f).writerows([["id", "x", "y"], *[[i, x, int(x > 0.5)] for i, x in train]])
    with open(root / "public/test.csv", "w", newline="") as f:
        csv.writer(f).writerows([["id", "x"], *[[i, x] for i, x in test]])
    with open(root / "public/sample_submission.csv", "w", newline="") as f:
        csv.writer(f).writerows([["id", "y"], *[[i, 0] for i, _ in test]])
    with open(root / "private/answers.csv", "w", newline="") as f:
        csv.writer(f).writerows([["id", "y"], *[[i, int(x > 0.5)] for i, x in test]])
    (root / "description.md").write_text("# Tiny binary\nPredict y (0/1) from x. Metric: accuracy.\n")
    (root / "task.yaml").write_text("name: tiny-bin\nmetric: accuracy\nid_column: id\ntarget_columns: [y]\n")
    return root


def rule_script(threshold: float = 0.5) -> str:
    """A correct-format binary submission: y = x > threshold."""
    return (
        "import csv\n"
        "rows = list(csv.DictReader(open('input/test.csv')))\n"
        "with open('submission/submission.csv', 'w', newline='') as f:\n"
        "    w = csv.writer(f)\n"
        "    w.writerow(['id', 'y'])\n"
        f"    w.writerows([r['id'], int(float(r['x']) > {threshold})] for r in rows)\n"
        "print('wrote', len(rows))\n"
    )


def linear_script(a: float = 10.0, b: float = 5.0) -> str:
    return (
        "import csv\n"
        "rows = list(csv.DictReader(open('input/test.csv')))\n"
        "with open('submission/submission.csv', 'w', newline='') as f:\n"
        "    w = csv.writer(f)\n"
        "    w.writerow(['id', 'y'])\n"
        f"    w.writerows([r['id'], {a} * float(r['x']) + {b}] for r in rows)\n"
    )


@pytest.fixture
def settings():
    from automind.config import load_config

    return load_config(
        {"sandbox.timeout_s": 20, "sandbox.memory_mb": 2048}, environ={}, cwd=Path("/nonexistent")
    ).settings


@pytest.fixture
def binary_task(tmp_path) -> Path:
    return make_binary_task(tmp_path / "bin")


@pytest.fixture
def regression_task(tmp_path) -> Path:
    return make_regression_task(tmp_path / "reg")


@pytest.fixture
def make_env(settings, tmp_path):
    """TaskEnv factory; every env made is closed after the test."""
    from automind.env import TaskEnv

    made = []

    def make(task, **kw):
        kw.setdefault("settings", settings)
        kw.setdefault("workdir", tmp_path / f"env{len(made)}")
        env = TaskEnv(task, **kw)
        made.append(env)
        return env

    yield make
    for env in made:
        env.close()


class Helpers:
    """The module's helpers as a fixture (test modules cannot import a conftest by name reliably)."""

    secret = staticmethod(secret)
    rule_script = staticmethod(rule_script)
    linear_script = staticmethod(linear_script)
    make_binary_task = staticmethod(make_binary_task)
    make_regression_task = staticmethod(make_regression_task)
    SECRET_BASE = SECRET_BASE


@pytest.fixture
def h() -> type[Helpers]:
    return Helpers
