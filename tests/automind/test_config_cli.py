"""Config layering with provenance, `automind config show`, and a fast `automind --help`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from automind.cli import app
from automind.config import ConfigError, load_config


def test_layers_in_order_with_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("AUTOMIND_HOME", str(home))
    (home / "automind.yaml").write_text("search:\n  steps: 5\n  num_drafts: 2\nllm:\n  model: home-model\n")
    (tmp_path / "automind.yaml").write_text("search:\n  steps: 7\n")
    env = {"AUTOMIND_SEARCH__NUM_DRAFTS": "4", "AUTOMIND_LLM__ROLES__CODER__TEMPERATURE": "0.9"}
    loaded = load_config({"search.seed": 11}, cwd=tmp_path, environ=env)
    s = loaded.settings
    assert (s.search.steps, s.search.num_drafts, s.search.seed, s.llm.model) == (7, 4, 11, "home-model")
    assert s.llm.roles["coder"].temperature == 0.9 and s.llm.roles["planner"].temperature == 0.7
    assert loaded.sources["search.steps"] == str(tmp_path / "automind.yaml")
    assert loaded.sources["search.num_drafts"] == "env"
    assert loaded.sources["search.seed"] == "cli"
    assert loaded.sources["llm.model"] == str(home / "automind.yaml")
    rows = {k: src for k, _, src in loaded.rows()}
    assert rows["search.debug_prob"] == "default (offline mode)" and rows["search.steps"] != "default"
    assert rows["sandbox.threads"] == "default"


def test_on_off_words_survive_yaml_in_files_and_env(tmp_path: Path) -> None:
    # YAML 1.1 reads off/on as booleans; the documented `AUTOMIND_VERIFY__HOLDOUT=off` must still mean "off"
    (tmp_path / "automind.yaml").write_text("verify:\n  holdout: on\nllm:\n  tools: off\n")
    s = load_config(cwd=tmp_path, environ={}).settings
    assert (s.verify.holdout, s.llm.tools) == ("on", "off")
    s = load_config(cwd=tmp_path, environ={"AUTOMIND_VERIFY__HOLDOUT": "off"}).settings
    assert s.verify.holdout == "off"
    with pytest.raises(ConfigError, match="llm.tools"):  # `on` is not one of tools' words
        load_config(cwd=tmp_path, environ={"AUTOMIND_LLM__TOOLS": "on"})
    # a text setting keeps its word or number; a true/false setting still reads yes/no
    env = {"AUTOMIND_LLM__MODEL": "no", "AUTOMIND_VERIFY__REFIT": "no", "AUTOMIND_SEARCH__STEPS": "3"}
    s = load_config(cwd=tmp_path, environ=env).settings
    assert (s.llm.model, s.verify.refit, s.search.steps) == ("no", False, 3)
    assert load_config(cwd=tmp_path, environ={"AUTOMIND_LLM__MODEL": "7"}).settings.llm.model == "7"


def test_bad_values_name_the_key_and_source(tmp_path: Path) -> None:
    (tmp_path / "automind.yaml").write_text("search:\n  steps: many\n")
    with pytest.raises(ConfigError, match=r"search\.steps \(from .*automind\.yaml\)"):
        load_config(cwd=tmp_path, environ={})
    with pytest.raises(ConfigError, match="unknown_key"):
        load_config({"search.unknown_key": 1}, cwd=tmp_path / "nowhere", environ={})


def test_unknown_section_and_bad_env_name_their_source(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"foo \(from env AUTOMIND_FOO__BAR\)"):
        load_config(cwd=tmp_path, environ={"AUTOMIND_FOO__BAR": "1"})
    (tmp_path / "automind.yaml").write_text("serch:\n  steps: 3\n")
    with pytest.raises(ConfigError, match=r"serch \(from .*automind\.yaml\)"):
        load_config(cwd=tmp_path, environ={})
    with pytest.raises(ConfigError, match=r"search\.steps \(from env AUTOMIND_SEARCH__STEPS\)"):
        load_config(cwd=tmp_path / "nowhere", environ={"AUTOMIND_SEARCH__STEPS": "abc"})


def test_a_misspelt_setting_names_the_real_one(tmp_path: Path) -> None:
    """A typo gets the closest setting at its level; a name close to none lists the level's settings."""
    (tmp_path / "automind.yaml").write_text("search:\n  stepz: 5\n  refine:\n    outr: 2\nserch: {}\n")
    with pytest.raises(ConfigError) as e:
        load_config(cwd=tmp_path, environ={})
    text = str(e.value)
    assert "search.stepz (from" in text and "did you mean search.steps?" in text
    assert "did you mean search.refine.outer?" in text and "did you mean search?" in text
    with pytest.raises(ConfigError, match=r"no such setting \(sandbox has: .*memory_mb.*timeout_s"):
        load_config(cwd=tmp_path / "nowhere", environ={"AUTOMIND_SANDBOX__QQQQ": "1"})


def test_out_of_range_limits_are_refused(tmp_path: Path) -> None:
    for key, value in [("sandbox.timeout_s", -1), ("search.steps", 0), ("search.trick_prob", 1.5)]:
        with pytest.raises(ConfigError, match=rf"{key} \(from a command-line flag\)"):
            load_config({key: value}, cwd=tmp_path, environ={})
    assert load_config({"sandbox.memory_mb": 0}, cwd=tmp_path, environ={}).settings.sandbox.memory_mb == 0
    script = tmp_path / "s.py"
    script.write_text("print(1)\n")
    res = CliRunner().invoke(app, ["exec", str(tmp_path), str(script), "--timeout", "-1"])
    assert res.exit_code == 1 and "greater than 0" in res.output


def test_malformed_yaml_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "automind.yaml").write_text("search: [unclosed\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(cwd=tmp_path, environ={})


def test_config_show_masks_secrets_and_reports_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AUTOMIND_SEARCH__STEPS", "3")
    monkeypatch.setenv("AUTOMIND_LLM__BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-should-never-appear")
    res = CliRunner().invoke(app, ["config", "show", "--json"])
    assert res.exit_code == 0, res.output
    rows = {r["key"]: r for r in json.loads(res.output)}
    assert rows["search.steps"] == {"key": "search.steps", "value": 3, "source": "env"}
    assert rows["llm.api_key_env"]["value"] == "OPENAI_API_KEY"
    assert "sk-should-never-appear" not in res.output


def test_config_show_prints_the_full_yaml_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    deep = tmp_path / "a-rather-long-project-folder-name" / "sub"
    deep.mkdir(parents=True)
    (deep / "automind.yaml").write_text("search:\n  steps: 4\n")
    monkeypatch.chdir(deep)
    monkeypatch.setenv("COLUMNS", "80")
    res = CliRunner().invoke(app, ["config", "show"])
    assert res.exit_code == 0, res.output
    cells = "".join(ch for ch in res.output if ch not in " \n│")
    assert str(deep / "automind.yaml").replace(" ", "") in cells


def test_help_does_not_import_heavy_libraries() -> None:
    code = (
        "import sys, automind.cli\n"
        "heavy = ['torch', 'chromadb', 'sentence_transformers', 'lightgbm', 'pandas', 'sklearn', 'openai', 'kaggle']\n"
        "print([m for m in heavy if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


PAPER = (5, 5, 1.0, 0.8, 0.8)  # num_drafts, max_debug_depth, debug_prob, greedy_prob, trick_prob


def _policy(settings) -> tuple:
    s = settings.search
    return (s.num_drafts, s.max_debug_depth, s.debug_prob, s.greedy_prob, s.trick_prob)


def test_llm_mode_defaults_follow_the_paper_and_offline_keeps_its_own(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    llm = load_config(cwd=tmp_path, environ={"OPENAI_API_KEY": "sk-x"})
    assert llm.mode == "llm" and _policy(llm.settings) == PAPER
    assert llm.sources["search.num_drafts"] == "default (llm mode)"
    offline = load_config(cwd=tmp_path, environ={})
    assert offline.mode == "offline" and _policy(offline.settings) == (3, 3, 1.0, 0.8, 0.8)
    assert offline.sources["search.max_debug_depth"] == "default (offline mode)"
    # the mode follows the provider a run will use
    assert (
        load_config({"llm.provider": "none"}, cwd=tmp_path, environ={"OPENAI_API_KEY": "sk-x"}).mode
        == "offline"
    )
    assert load_config({"llm.provider": "replay:tape.jsonl"}, cwd=tmp_path, environ={}).mode == "llm"
    assert load_config({"llm.base_url": "http://127.0.0.1:9/v1"}, cwd=tmp_path, environ={}).mode == "llm"


def test_values_the_user_set_win_over_the_mode_defaults(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "automind.yaml").write_text("search:\n  greedy_prob: 0.6\n")
    (tmp_path / "automind.yaml").write_text("search:\n  num_drafts: 3\n")  # equal to the offline default
    env = {"OPENAI_API_KEY": "sk-x", "AUTOMIND_SEARCH__MAX_DEBUG_DEPTH": "1"}
    loaded = load_config({"search.trick_prob": 0.5}, cwd=tmp_path, environ=env)
    assert loaded.mode == "llm" and _policy(loaded.settings) == (3, 1, 1.0, 0.6, 0.5)
    assert loaded.sources["search.num_drafts"] == str(tmp_path / "automind.yaml")
    assert loaded.sources["search.greedy_prob"] == str(tmp_path / "home" / "automind.yaml")
    assert loaded.sources["search.max_debug_depth"] == "env" and loaded.sources["search.trick_prob"] == "cli"
    assert loaded.sources["search.debug_prob"] == "default (llm mode)"


def test_config_show_says_which_defaults_are_active(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AUTOMIND_HOME", str(tmp_path / "home"))
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    res = CliRunner().invoke(app, ["config", "show"], terminal_width=200)
    assert res.exit_code == 0 and "active defaults: offline mode" in res.output
    monkeypatch.setenv("OPENAI_API_KEY", "sk-should-never-appear")
    res = CliRunner().invoke(app, ["config", "show"], terminal_width=200)
    assert res.exit_code == 0 and "active defaults: llm mode" in res.output
    assert "sk-should-never-appear" not in res.output
    rows = {r["key"]: r for r in json.loads(CliRunner().invoke(app, ["config", "show", "--json"]).output)}
    assert rows["search.num_drafts"] == {
        "key": "search.num_drafts",
        "value": 5,
        "source": "default (llm mode)",
    }
