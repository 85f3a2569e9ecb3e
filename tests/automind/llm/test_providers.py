"""The provider registry: one Literal of its keys for llm.provider, one --llm help text everywhere."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

import pytest

from automind.commands.common import LLM_HELP
from automind.config import ConfigError, ProviderName, load_config
from automind.llm import PROVIDERS

COMMANDS = Path(__file__).resolve().parents[3] / "automind" / "commands"


def test_the_literal_is_the_registry():
    assert set(get_args(ProviderName)) == set(PROVIDERS)


def test_every_provider_is_in_the_one_help_text():
    for name in PROVIDERS:
        assert re.search(rf"\b{name}\b", LLM_HELP), name
    options = [m for f in COMMANDS.glob("*.py") for m in re.findall(r'"--llm",[^)]*\)', f.read_text())]
    assert len(options) >= 4 and all("help=LLM_HELP" in o for o in options), options


@pytest.mark.parametrize(
    "spec", ["auto", "none", "openai", "openai:gpt-4o", "replay:runs/a.jsonl", "RECORD:x"]
)
def test_spec_strings_are_accepted(spec):
    assert load_config({"llm.provider": spec}, environ={}).settings.llm.provider == spec


def test_unknown_provider_is_a_clear_config_error():
    with pytest.raises(
        ConfigError, match=r"llm.provider \(from a command-line flag\).*unknown LLM provider 'gemini'"
    ):
        load_config({"llm.provider": "gemini"}, environ={})
    with pytest.raises(ConfigError, match=r"from env AUTOMIND_LLM__PROVIDER.*replay:PATH"):
        load_config(environ={"AUTOMIND_LLM__PROVIDER": "claude:x"})
