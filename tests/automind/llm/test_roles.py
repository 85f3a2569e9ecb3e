"""LLMRoles against a scripted replay cassette: prompts carry the context, answers become records."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from automind.config import load_config
from automind.errors import RoleError
from automind.llm.replay import ReplayLLM
from automind.llm.roles import LLMRoles
from automind.roles import Context, Plan, Step, Trick
from automind.task import MetricSpec, Task, TaskSpec

PARENT = """import pandas as pd


def load():
    return pd.read_csv("./input/train.csv")


if __name__ == "__main__":
    df = load()
    print("validation metric: 0.5")
"""


class Capturing(ReplayLLM):
    """Replay that also keeps each prompt so tests can check what the roles sent."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.prompts: list[tuple[str, str]] = []

    def _complete(self, req):
        self.prompts.append((req.role, req.messages[-1]["content"]))
        return super()._complete(req)


def make(tmp_path: Path, *answers: dict, **cfg) -> tuple[LLMRoles, Capturing]:
    path = tmp_path / "script.jsonl"
    lines = [{"cassette": 1, "ordered": True}, *answers]
    path.write_text("\n".join(json.dumps(a) for a in lines) + "\n")
    settings = load_config({f"coding.{k}": v for k, v in cfg.items()}, environ={}).settings
    llm = Capturing(settings.llm, path)
    return LLMRoles(llm, settings), llm


def ctx(tmp_path: Path, action="draft", **kw) -> Context:
    task = Task(
        tmp_path,
        TaskSpec(name="houses", metric=MetricSpec(name="rmse", lower_is_better=True)),
        "Predict SalePrice.",
    )
    return Context(task=task, action=action, analysis="train.csv: 1460 rows x 81 columns", **kw)


def test_draft_plan_prompt_carries_knowledge_memory_and_experience(tmp_path):
    roles, llm = make(
        tmp_path,
        {
            "role": "planner",
            "text": "<think>hm</think><plan>Use LightGBM on log target. Then 5-fold CV.</plan>",
        },
    )
    trick = Trick(
        id="c1", title="Log-transform skewed targets", text="Train on log1p(y).", stage="preprocessing"
    )
    c = ctx(
        tmp_path,
        knowledge=[trick],
        memory=["tried ridge -> validation 0.15"],
        experience=["cast categoricals first"],
    )
    plan = roles.plan(c)
    assert plan.text == "Use LightGBM on log target. Then 5-fold CV."
    assert plan.summary == "Use LightGBM on log target."
    role, prompt = llm.prompts[0]
    assert role == "planner"
    for needle in (
        "Predict SalePrice.",
        "1460 rows",
        "Log-transform skewed targets",
        "tried ridge",
        "cast categoricals",
        "rmse",
        "lower is better",
    ):
        assert needle in prompt


def test_a_prompt_shows_the_newest_memory_lines_of_a_long_run(tmp_path):
    """The context keeps every node's memory line (the recipe policy needs them all); the prompt shows the
    newest MEMORY_LINES, so a long run does not crowd out the rest of the prompt."""
    from automind.roles import MEMORY_LINES

    roles, llm = make(tmp_path, {"role": "planner", "text": "<plan>Try ridge.</plan>"})
    lines = [f"tried idea-{i:02d} -> validation 0.{i:02d}" for i in range(MEMORY_LINES + 3)]
    roles.plan(ctx(tmp_path, memory=lines))
    prompt = llm.prompts[0][1]
    assert all(line in prompt for line in lines[-MEMORY_LINES:])
    assert not any(line in prompt for line in lines[:3])


def test_improve_with_trick_and_debug_prompts(tmp_path):
    roles, llm = make(
        tmp_path,
        {"role": "retriever", "tool_args": {"applicable": True, "reason": "high-cardinality columns"}},
        {"role": "planner", "text": "<plan>Add target encoding.</plan>"},
        {"role": "planner", "text": "Fix the path."},
    )
    trick = Trick(
        id="t9", title="Target encoding", text="Out-of-fold mean encoding of high-cardinality columns."
    )
    plan = roles.plan(
        ctx(
            tmp_path,
            "improve",
            trick=trick,
            parent_plan="ridge",
            parent_code=PARENT,
            parent_output="ok",
            parent_metric=0.5,
        )
    )
    assert plan.meta == {"action": "improve", "trick": "t9"}
    assert llm.prompts[0][0] == "retriever" and "# Current solution" in llm.prompts[0][1]  # checked first
    assert "Out-of-fold mean encoding" in llm.prompts[1][1] and "def load()" in llm.prompts[1][1]
    plan = roles.plan(
        ctx(tmp_path, "debug", parent_code=PARENT, parent_output="FileNotFoundError: train.csv")
    )
    assert plan.text == "Fix the path."  # no <plan> tag: the reply itself
    assert "FileNotFoundError" in llm.prompts[2][1]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<task_complexity>4</task_complexity><solution_complexity>4</solution_complexity>", 4.0),
        ("<task_complexity>3</task_complexity> <solution_complexity>4.5</solution_complexity>", 3.75),
        ("<task_complexity>3.7</task_complexity><solution_complexity>3.4 / 5</solution_complexity>", 3.5),
        ("<task_complexity>9</task_complexity><solution_complexity>2</solution_complexity>", 3.5),
        ("<task_complexity>2</task_complexity> and the solution is easy", 5.0),  # one rating missing
        ("<score>2</score>", 5.0),  # the paper's rule needs both ratings
        ("too hard to say", 5.0),
    ],
)
def test_complexity_is_the_mean_of_task_and_solution_ratings(tmp_path, text, expected):
    roles, llm = make(tmp_path, {"role": "planner", "text": text})
    assert roles.complexity(ctx(tmp_path), Plan("p")) == expected
    assert "Task complexity" in llm.prompts[0][1] and "Solution complexity" in llm.prompts[0][1]


def test_draft_code_picks_python_block(tmp_path):
    reply = "```bash\npip install x\n```\n```python\n" + PARENT + "```"
    roles, llm = make(tmp_path, {"role": "coder", "text": reply})
    assert roles.code(ctx(tmp_path), Plan("p")) == PARENT
    assert llm.prompts[0][0] == "coder"
    assert "./submission/submission.csv" in llm.prompts[0][1] and "eval_metric.txt" in llm.prompts[0][1]


def test_improve_code_applies_search_replace(tmp_path):
    edit = "<<<<<<< SEARCH\n    df = load()\n=======\n    df = load().dropna()\n>>>>>>> REPLACE"
    roles, llm = make(tmp_path, {"role": "coder", "text": edit})
    code = roles.code(ctx(tmp_path, "improve", parent_code=PARENT), Plan("drop NA rows"))
    assert "df = load().dropna()" in code and code.count("def load") == 1
    assert len(llm.prompts) == 1


def test_unmatched_edit_falls_back_to_full_rewrite(tmp_path):
    edit = "<<<<<<< SEARCH\nmodel.fit(X)\n=======\nmodel.fit(X, y)\n>>>>>>> REPLACE"
    rewritten = PARENT.replace("load()\n    print", "load()\n    df = df.dropna()\n    print")
    roles, llm = make(
        tmp_path, {"role": "coder", "text": edit}, {"role": "coder", "text": f"```python\n{rewritten}```"}
    )
    code = roles.code(ctx(tmp_path, "debug", parent_code=PARENT, parent_output="boom"), Plan("fit with y"))
    assert code == rewritten
    assert "matched nothing" in llm.prompts[1][1] and "model.fit(X)" in llm.prompts[1][1]


def test_decompose_caps_steps_and_accepts_json_text(tmp_path):
    steps = [{"step": f"s{i}", "details": f"d{i}"} for i in range(8)]
    roles, _ = make(
        tmp_path,
        {"role": "planner", "tool_args": {"decomposed steps": steps}},
        {"role": "planner", "text": 'Steps: {"decomposed steps": [{"step": "load", "details": "read csv"}]}'},
        max_steps=6,
    )
    got = roles.decompose(ctx(tmp_path), Plan("p"))
    assert len(got) == 6 and got[:5] == [Step(f"s{i}", f"d{i}") for i in range(5)]
    assert got[5].title == "s5 + s6 + s7" and "d7" in got[5].details
    assert roles.decompose(ctx(tmp_path), Plan("p")) == [Step("load", "read csv")]


def test_step_code_repair_and_integrate(tmp_path):
    roles, llm = make(
        tmp_path,
        {"role": "coder", "text": "```python\nX = df.drop(columns=['y'])\n```"},
        {
            "role": "coder",
            "text": "<<<<<<< SEARCH\nX = df.drop(columns=['y'])\n=======\nX = df.drop(columns=['SalePrice'])\n>>>>>>> REPLACE",
        },
        {"role": "coder", "text": f"```python\n{PARENT}```"},
    )
    steps = [Step("load", "read"), Step("features", "split X")]
    cell = roles.step_code(
        ctx(tmp_path), Plan("p"), steps, 1, "import pandas as pd\ndf = pd.read_csv('./input/train.csv')"
    )
    assert cell == "X = df.drop(columns=['y'])\n"
    assert "implement this one" in llm.prompts[0][1] and "df = pd.read_csv" in llm.prompts[0][1]
    fixed = roles.repair(ctx(tmp_path), cell, "KeyError: \"['y'] not found in axis\"", steps[1])
    assert fixed == "X = df.drop(columns=['SalePrice'])\n"
    assert "features" in llm.prompts[1][1] and "KeyError" in llm.prompts[1][1]
    assert roles.integrate(ctx(tmp_path), Plan("p"), "x = 1") == PARENT


def test_verify_maps_function_call_and_states_facts(tmp_path):
    (tmp_path / "ws" / "submission").mkdir(parents=True)
    (tmp_path / "ws" / "submission" / "eval_metric.txt").write_text("0.1234")
    result = SimpleNamespace(
        status="ok",
        exit_code=0,
        exc_type=None,
        wall_s=3.2,
        workspace=tmp_path / "ws",
        output="validation metric: 0.1234",
    )
    args = {
        "is_bug": False,
        "is_overfitting": False,
        "has_csv_submission": False,
        "summary": "LightGBM run.",
        "metric": 0.1234,
        "lower_is_better": True,
    }
    roles, llm = make(
        tmp_path,
        {"role": "verifier", "text": "{", "tool_args": None},
        {"role": "verifier", "tool_args": args},
    )
    verdict = roles.verify(ctx(tmp_path), PARENT, result)
    assert verdict.is_bug is False and verdict.metric == 0.1234 and verdict.lower_is_better is True
    assert verdict.summary == "LightGBM run." and verdict.has_csv_submission is False
    first = llm.prompts[0][1]
    assert "submission.csv is missing" in first and "eval_metric.txt contains: 0.1234" in first
    assert llm.prompts[1][0] == "verifier"  # the malformed first answer was re-asked once


def test_exhausted_script_is_a_role_error_naming_role(tmp_path):
    roles, _ = make(tmp_path, {"role": "planner", "text": "<plan>x</plan>"})
    with pytest.raises(RoleError, match=r"role 'coder'.*prompt hash [0-9a-f]{16}"):
        roles.code(ctx(tmp_path), Plan("p"))


def test_reply_without_code_is_a_role_error(tmp_path):
    roles, _ = make(tmp_path, {"role": "coder", "text": "Sorry, I cannot help with that."})
    with pytest.raises(RoleError, match="no Python code block"):
        roles.code(ctx(tmp_path), Plan("p"))
