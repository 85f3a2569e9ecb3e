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
}
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
    },
    "improve_plan": {**TASK, **PARENT},
    "improve_trick": {**TASK, **PARENT, "trick": TRICK},
    "debug_plan": {**TASK, **PARENT},
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
    "system": {"role": "coder"},
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
    assert "<score>" in render("complexity", **VARS["complexity"])
    assert '"decomposed steps"' in render("decompose", **VARS["decompose"])
    assert "<<<<<<< SEARCH" in render("edit_code", **VARS["edit_code"])
    assert "submission_verify" in render("verify", **VARS["verify"])
    summary = render("paper_summary", **VARS["paper_summary"])
    for key in ("data_type", "domain", "dataset", "task", "techniques", "contribution"):
        assert f'"{key}"' in summary
    assert "8 to 12" in render("distill_tricks", **VARS["distill_tricks"])


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
