from __future__ import annotations

import pytest

from automind.llm.stub import StubServer


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch, tmp_path):
    """No real key or endpoint leaks into tests; the store lives in tmp."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))


@pytest.fixture
def stub():
    with StubServer() as server:
        yield server
