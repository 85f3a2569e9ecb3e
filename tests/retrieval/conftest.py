"""Tiny task folders and stores for the retrieval tests (hash embedder: instant, no model)."""

from __future__ import annotations

import random
import struct
import zlib
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def _private_home(private_automind_home):
    """Every test here (tests/conftest.py: private_automind_home)."""


NEUTRAL = "Predict the label of each test example.\n"
WORDS = [
    "the",
    "a",
    "quick",
    "slow",
    "brown",
    "lazy",
    "dog",
    "cat",
    "runs",
    "jumps",
    "over",
    "under",
    "happily",
    "sadly",
    "film",
    "plot",
    "actor",
    "scene",
]


def _png(path: Path, w: int = 8, h: int = 8) -> None:
    raw = b"".join(b"\x00" + bytes(random.randrange(256) for _ in range(w * 3)) for _ in range(h))

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    )


def make_task(root: Path, kind: str, description: str = NEUTRAL, slug: str | None = None) -> Path:
    """A minimal valid task: 'image' (png files + labels), 'text' (long free text) or 'tabular'."""
    random.seed(0)
    pub = root / "public"
    pub.mkdir(parents=True)
    (root / "description.md").write_text(description)
    (root / "task.yaml").write_text(f"name: {root.name}\nslug: {slug or root.name}\nmetric: accuracy\n")
    n = 40
    if kind == "image":
        (pub / "images").mkdir()
        for i in range(n):
            _png(pub / "images" / f"{i}.png")
        rows = [f"{i},{i % 2}" for i in range(n)]
        header = "id,label"
    elif kind == "text":
        rows = [f'{i},"{" ".join(random.choice(WORDS) for _ in range(30))}",{i % 2}' for i in range(n)]
        header = "id,text,label"
    else:
        rows = [f"{i},{random.random():.3f},{random.randrange(5)},{i % 2}" for i in range(n)]
        header = "id,f1,f2,label"
    (pub / "train.csv").write_text(header + "\n" + "\n".join(rows[:30]) + "\n")
    test_header = ",".join(c for c in header.split(",") if c != "label")
    test_rows = [",".join(r.rsplit(",", 1)[:1]) for r in rows[30:]]
    (pub / "test.csv").write_text(test_header + "\n" + "\n".join(test_rows) + "\n")
    (pub / "sample_submission.csv").write_text(
        "id,label\n" + "\n".join(f"{i},0" for i in range(30, n)) + "\n"
    )
    return root


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def hash_settings(tmp_path, home):
    from automind.config import load_config

    return load_config(
        {"knowledge.store": str(tmp_path / "store"), "knowledge.embedder": "hash"}, environ={}
    ).settings


@pytest.fixture
def task_factory():
    return make_task
