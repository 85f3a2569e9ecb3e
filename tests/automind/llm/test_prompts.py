"""Every prompt template renders, and the code-writing ones state the script contract."""

from __future__ import annotations

import pytest

from automind.llm.prompts import names, render
from automind.roles import AblationRow, Attempt, Step, Trick

TRICK = Trick(id="t", title="Target encoding", text="Out-of-fold means.", stage="feature engineering")
CAT = {
    "name": "Natural Language Processing",
    "description": "text",
    "subcategories": [{"name": "Text Classification", "description": "labels for texts"}],
}
TASK = {
    "task_description": "Predict y.",
    "analysis": "train.csv 10 rows",
    "metric": "auc",
    "lower_is_better": False,
    "time_left_s": 1500.0,
    "exec_timeout_s": 600.0,
    "hardware": "8 CPU cores (thread pools set to 8), memory limit 16.0 GB, GPU: NVIDIA A10 (22.5 GB)",
    "libraries": "Python 3.11.7: numpy 1.26.4, lightgbm 4.3.0",
}
PAPER = Trick(id="p", title="Deep tabular nets", text="Summary: MLPs with embeddings.", kind="paper")
PARENT = {"parent_plan": "ridge", "parent_code": "print(1)", "parent_output": "ok", "parent_metric": 0.7}

MEMBER = {
    "id": "3",
    "metric": 0.74,
    "summary": "lightgbm",
    "folder": "/run/nodes/3/submission",
    "files": ["oof.npy", "test_pred.npy", "y.npy"],
    "saving": ['np.save("submission/oof.npy", oof)'],
}

VARS = {
    "draft_plan": {
        **TASK,
        "tricks": [TRICK],
        "memory": ["tried ridge -> 0.7"],
        "experience": ["tip"],
        "labels": ["General Machine Learning"],
        "papers": [PAPER],
    },
    "improve_plan": {**TASK, **PARENT},
    "improve_trick": {**TASK, **PARENT, "trick": TRICK, "experience": ["Helped before: +0.0123"]},
    "debug_plan": {
        **TASK,
        **PARENT,
        "lineage": [
            {"id": "3", "action": "debug", "plan": "cast ids", "analysis": "ids are str", "error": "KeyError"}
        ],
        "fixes": ["Tip: cast first"],
        "dead_ends": ["Error MemoryError: one-hot of 1e6 levels"],
    },
    "complexity": {**TASK, "plan": "lightgbm"},
    "decompose": {**TASK, "plan": "lightgbm", "max_steps": 6},
    "one_pass_code": {**TASK, "plan": "lightgbm"},
    "step_code": {
        **TASK,
        "plan": "lgbm",
        "steps": [Step("load", "read"), Step("fit", "train")],
        "index": 0,
        "program": "",
    },
    "edit_code": {**TASK, "code": "print(1)", "plan": "add CV", "output": ""},
    "rewrite_code": {**TASK, "code": "print(1)", "plan": "add CV", "output": "", "note": "blocks failed"},
    "repair": {
        **TASK,
        "code": "print(1)",
        "error": "NameError",
        "step": None,
        "program": "",
        "unmatched": "",
    },
    "integrate": {**TASK, "plan": "lgbm", "program": "x = 1"},
    "verify": {**TASK, "code": "print(1)", "output": "validation metric: 0.8", "facts": ["status: ok"]},
    "label_top": {"text": "classify reviews", "categories": [CAT]},
    "label_sub": {"text": "classify reviews", "category": CAT},
    "paper_summary": {"text": "We propose..."},
    "distill_tricks": {"task_text": "Predict y.", "material": "Winners used target encoding."},
    "trick_check": {"task_text": "Predict y.", "trick": TRICK},
    "structured_repair": {
        "missing": ["is_bug"],
        "tools": [{"function": {"name": "f", "parameters": {"type": "object"}}}],
    },
    "json_fallback": {"tool": {"name": "f", "description": "d", "parameters": {"type": "object"}}},
    "experience_fix": {
        "error": "KeyError: 'y'",
        "failing_code": "df['y']",
        "fixed_code": "df['target']",
        "plan": "use the target column",
    },
    "task_difficulty": {"tasks": [{"name": "a", "description": "tabular", "tree": "train.csv"}]},
    "system": {"role": "coder"},
    "leakage_check": {**TASK, "code": "print(1)", "findings": ["line 3: fit-on-test: scaler"]},
    "data_usage": {**TASK, "code": "print(1)", "unused": ["stores.csv"]},
    # refine and ensemble (automind/llm/search_roles.py)
    "ablation_code": {**TASK, "code": "print(1)", "parent_metric": 0.7, "covered": ["model"], "refined": []},
    "ablation_summary": {
        **TASK,
        "parent_metric": 0.7,
        "runs": [{"code": "print(1)", "output": "ablation | model | ridge | 0.6", "error": ""}],
    },
    "extract_block": {
        **TASK,
        "code": "print(1)",
        "parent_metric": 0.7,
        "summary": "the model matters",
        "rows": [AblationRow("model", "ridge", 0.6, 0.1)],
        "refined": ["features"],
        "problem": "the block is not in the script verbatim",
    },
    "block_plan": {
        **TASK,
        "block": "m = Ridge()",
        "block_name": "model",
        "history": [Attempt("use lightgbm", 0.75), Attempt("use catboost", None, "ImportError")],
    },
    "block_code": {
        **TASK,
        "code": "m = Ridge()",
        "block": "m = Ridge()",
        "plan": "use lightgbm",
        "problem": "",
    },
    "ensemble_plan": {**TASK, "members": [MEMBER], "history": [Attempt("mean of 1, 2", 0.74)]},
    "ensemble_code": {**TASK, "members": [MEMBER], "plan": "weighted mean fitted on oof"},
}
CODE_TEMPLATES = [
    "one_pass_code",
    "step_code",
    "edit_code",
    "rewrite_code",
    "repair",
    "integrate",
    "data_usage",
    "block_code",
    "ensemble_code",
]
CONTRACT = [
    "./input",
    "./submission/submission.csv",
    "sample_submission.csv",
    "eval_metric.txt",
    "progress bar",
    "hard-code",
]


def test_every_template_has_test_vars():
    assert sorted(VARS) == names()


@pytest.mark.parametrize("name", sorted(VARS))
def test_renders_without_leftover_markup(name):
    text = render(name, **VARS[name])
    assert text.strip() and "{{" not in text and "{%" not in text and "\n\n\n" not in text


@pytest.mark.parametrize("name", CODE_TEMPLATES)
def test_code_templates_state_the_contract(name):
    text = render(name, **VARS[name])
    for phrase in CONTRACT:
        assert phrase in text, f"{name} lacks {phrase!r}"
    guard = 'if __name__ == "__main__":'
    assert guard in text


def test_step_cells_run_at_top_level_but_scripts_are_guarded():
    step = render("step_code", **VARS["step_code"])
    assert "persistent session" in step and "Put all executable code" not in step
    assert "Put all executable code under" in render("one_pass_code", **VARS["one_pass_code"])


def test_output_format_markers():
    for name in ("draft_plan", "improve_plan", "improve_trick", "debug_plan"):
        assert "<plan>" in render(name, **VARS[name])
    rating = render("complexity", **VARS["complexity"])
    assert "<task_complexity>" in rating and "<solution_complexity>" in rating
    assert "<analysis>" in render("debug_plan", **VARS["debug_plan"])
    assert '"tip"' in render("experience_fix", **VARS["experience_fix"])
    assert '"order"' in render("task_difficulty", **VARS["task_difficulty"])
    assert '"decomposed steps"' in render("decompose", **VARS["decompose"])
    assert "<<<<<<< SEARCH" in render("edit_code", **VARS["edit_code"])
    assert "submission_verify" in render("verify", **VARS["verify"])
    summary = render("paper_summary", **VARS["paper_summary"])
    for key in ("data_type", "domain", "dataset", "task", "techniques", "contribution"):
        assert f'"{key}"' in summary
    assert "8 to 12" in render("distill_tricks", **VARS["distill_tricks"])
    leak = render("leakage_check", **VARS["leakage_check"])
    assert "leakage_check" in leak and "`block`" in leak and "line 3: fit-on-test" in leak
    usage = render("data_usage", **VARS["data_usage"])
    assert "./input/stores.csv" in usage and "try/except" in usage and "validation print" in usage


def test_context_reaches_the_prompt():
    text = render("draft_plan", **VARS["draft_plan"])
    for needle in ("Predict y.", "train.csv 10 rows", "Target encoding", "tried ridge", "higher is better"):
        assert needle in text
    assert "Out-of-fold means." in render("improve_trick", **VARS["improve_trick"])


def test_missing_required_variable_and_unknown_template_fail_loudly():
    with pytest.raises(Exception, match="plan"):
        render("complexity", **TASK)
    with pytest.raises(KeyError, match="available"):
        render("no_such_prompt")


ROLE_TEMPLATES = [*CODE_TEMPLATES, "draft_plan", "improve_plan", "improve_trick", "debug_plan", "complexity",
                  "decompose", "verify"]  # fmt: skip


@pytest.mark.parametrize("name", ROLE_TEMPLATES)
def test_role_prompts_state_time_left_timeout_and_hardware(name):
    text = render(name, **VARS[name])
    assert "Time left in this run: 25.0 minutes" in text
    assert "killed after 10.0 minutes" in text
    assert "NVIDIA A10 (22.5 GB)" in text and "memory limit 16.0 GB" in text
    assert "CPU only" not in text and "(CPU)" not in text


@pytest.mark.parametrize("name", CODE_TEMPLATES)
def test_code_prompts_list_the_installed_libraries_and_the_contract_line(name):
    text = render(name, **VARS[name])
    assert "numpy 1.26.4, lightgbm 4.3.0" in text
    assert "Final Validation Performance: <value>" in text


def test_draft_prompt_sizes_to_budget_not_to_a_fixed_baseline():
    text = render("draft_plan", **VARS["draft_plan"])
    assert "working baseline beats" not in text and "strongest" in text
    assert "# Related research (paper summaries" in text and "MLPs with embeddings" in text
    # papers are a labelled section of their own, apart from the distilled tricks
    assert text.index("Target encoding") < text.index("# Related research") < text.index("MLPs")


def test_debug_prompt_has_lineage_fixes_and_dead_ends():
    text = render("debug_plan", **VARS["debug_plan"])
    for needle in ("# Earlier attempts on this lineage", "analysis: ids are str", "tried: cast ids",
                   "# Fixes that worked", "Tip: cast first", "# Known dead ends", "one-hot of 1e6 levels"):  # fmt: skip
        assert needle in text


def test_improve_trick_prompt_has_experience():
    assert "Helped before: +0.0123" in render("improve_trick", **VARS["improve_trick"])


def test_missing_time_is_a_loud_error():
    values = {k: v for k, v in VARS["one_pass_code"].items() if k != "time_left_s"}
    with pytest.raises(Exception, match="time_left_s"):
        render("one_pass_code", **values)


def test_refine_and_ensemble_prompts_carry_their_inputs_and_formats():
    ablation = render("ablation_code", **VARS["ablation_code"])
    for needle in (
        "ablation | <component> | <what changed> | <score>",
        "./input",
        "do not write a submission",
        'if __name__ == "__main__":',
        "already measured: model",
        "hard-code",
    ):
        assert needle in ablation
    assert "ablation_table" in render("ablation_summary", **VARS["ablation_summary"])
    extract = render("extract_block", **VARS["extract_block"])
    for needle in (
        "<block_name>",
        "<plan>",
        "character for character",
        "model (ridge): score 0.6, effect 0.1",
        "do not choose them again): features",
        "not in the script verbatim",
    ):
        assert needle in extract
    plan = render("block_plan", **VARS["block_plan"])
    assert "use lightgbm" in plan and "validation 0.75" in plan and "failed (ImportError)" in plan
    assert "only the block is replaced" in render("block_code", **VARS["block_code"]).lower()
    ens_plan = render("ensemble_plan", **VARS["ensemble_plan"])
    for needle in (
        "/run/nodes/3/submission",
        "out-of-fold predictions only",
        "mean of 1, 2 -> validation 0.74",
        "<plan>",
    ):
        assert needle in ens_plan
    ens_code = render("ensemble_code", **VARS["ensemble_code"])
    assert "ensemble.json" in ens_code and "out-of-fold predictions only" in ens_code
    assert "./submission/oof.npy" in render("one_pass_code", **VARS["one_pass_code"])  # members save them
