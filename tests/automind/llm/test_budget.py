"""Prompts fit the model's context window: sections are cut lowest priority first, every cut is logged."""

from __future__ import annotations

import contextlib
from pathlib import Path

from automind.config import load_config
from automind.llm.budget import CHARS_PER_TOKEN, estimate_tokens, fit, reply_reserve
from automind.llm.client import LLM, Reply, Usage
from automind.llm.prompts import render
from automind.llm.roles import LLMRoles
from automind.roles import Context, Plan, Step, Trick
from automind.task import MetricSpec, Task, TaskSpec

SCRIPT = 'import pandas as pd\n\nif __name__ == "__main__":\n    df = pd.read_csv("./input/train.csv")\n'


class Recording(LLM):
    """A fake client: keeps every message list it is sent and answers with `text`."""

    provider = "recording"

    def __init__(self, cfg, text: str):
        super().__init__(cfg)
        self.text = text
        self.sent: list[list[dict]] = []

    def _complete(self, req) -> Reply:
        self.sent.append(req.messages)
        return Reply(self.text, {"decomposed steps": [{"step": "a", "details": "b"}]}, Usage(10, 5))


def _base(**over):
    values = {
        "task_description": "Predict y.",
        "analysis": "",
        "metric": "auc",
        "lower_is_better": False,
        "time_left_s": 600.0,
        "exec_timeout_s": 60.0,
        "hardware": "",
        "libraries": "",
        "labels": [],
        "memory": [],
        "experience": [],
        "tricks": [],
        "papers": [],
    }
    return values | over


def test_cuts_lowest_priority_first_and_says_so():
    papers = [Trick(id=f"p{i}", title=f"paper {i}", text="x" * 600, kind="paper") for i in range(5)]
    tricks = [Trick(id=f"t{i}", title=f"trick {i}", text="TRICK " * 50) for i in range(5)]
    values = _base(papers=papers, tricks=tricks, memory=[f"tried {i}" for i in range(30)])
    full = render("draft_plan", **values)
    budget = estimate_tokens(full) - 700  # must lose about 2100 characters
    text, cuts = fit("draft_plan", lambda v: render("draft_plan", **v), values, budget)
    assert estimate_tokens(text) <= budget
    assert [c.section for c in cuts][0] == "papers"  # papers go first, tricks are kept longest
    assert "trick 0" in text and "Predict y." in text
    note = cuts[0].note(4096)
    assert (
        "cut section 'papers' of prompt 'draft_plan' from 5 to" in note and "llm.context_tokens=4096" in note
    )


def test_texts_keep_their_useful_end_with_a_marker():
    values = _base(analysis="HEAD " + "a" * 20000 + " TAIL", parent_output="first line\n" + "b" * 20000 + "\nKeyError: 'y'",
                   parent_plan="p", parent_code=SCRIPT, parent_metric=None)  # fmt: skip
    text, cuts = fit("debug_plan", lambda v: render("debug_plan", **v), values, 3000)
    assert estimate_tokens(text) <= 3000
    assert "HEAD" in text or "analysis" in {c.section for c in cuts}
    assert "KeyError: 'y'" in text  # an output keeps its tail: the error
    assert "characters cut to fit the model's context" in text
    assert SCRIPT.strip() in text  # the parent's code comes after the output in priority


def test_code_an_edit_must_match_is_never_cut():
    big = SCRIPT + "".join(f"x{i} = {i}\n" for i in range(3000))
    values = _base(code=big, plan="add CV", output="o" * 5000)
    text, cuts = fit("edit_code", lambda v: render("edit_code", **v), values, 1000)
    assert big.strip() in text and "code" not in {c.section for c in cuts}
    assert "output" in {c.section for c in cuts}


def test_reply_reserve():
    assert reply_reserve(4096, None) == 1024 and reply_reserve(128000, None) == 4096
    assert reply_reserve(4096, 700) == 700


def _roles(tmp_path: Path, context: int) -> tuple[LLMRoles, Recording]:
    settings = load_config({"llm.context_tokens": context}, environ={}, cwd=tmp_path).settings
    llm = Recording(settings.llm, "<plan>ok</plan>\n```python\n" + SCRIPT + "```")
    return LLMRoles(llm, settings), llm


def _ctx(tmp_path: Path, action: str = "draft") -> Context:
    task = Task(
        tmp_path, TaskSpec(name="t", metric=MetricSpec(name="auc")), "Predict y. " + "Context. " * 3000
    )
    return Context(
        task=task, action=action, analysis="train.csv: " + "col, " * 4000,
        knowledge=[Trick(id=f"t{i}", title=f"trick {i}", text="do this " * 60) for i in range(12)]
        + [Trick(id="p", title="paper", text="summary " * 200, kind="paper")],
        memory=[f"tried idea {i} -> validation 0.{i}" for i in range(12)],
        experience=["Known dead end: " + "e" * 800, "a fix " * 100],
        parent_plan="ridge", parent_code=SCRIPT, parent_output="log line\n" * 2000 + "ValueError: bad",
        lineage=[{"id": str(i), "action": "debug", "plan": "p" * 300, "analysis": "a" * 300, "error": "x" * 300}
                 for i in range(6)],
        time_left_s=900, exec_timeout_s=300,
    )  # fmt: skip


def test_every_role_prompt_fits_a_4k_context(tmp_path):
    roles, llm = _roles(tmp_path, 4096)
    for action in ("draft", "debug", "improve"):
        roles.plan(_ctx(tmp_path, action))
    ctx = _ctx(tmp_path)
    roles.complexity(ctx, Plan("p"))
    roles.code(ctx, Plan("p"))
    roles.code(_ctx(tmp_path, "improve"), Plan("p"))
    roles.decompose(ctx, Plan("p"))
    roles.step_code(ctx, Plan("p"), [Step("a", "b"), Step("c", "d")], 1, "x = 1\n" * 2000)
    roles.repair(ctx, SCRIPT, "Traceback\n" * 3000 + "KeyError", Step("c", "d"), program="y = 2\n" * 2000)
    roles.integrate(ctx, Plan("p"), SCRIPT)
    limit = 4096 - reply_reserve(4096, None)
    assert len(llm.sent) >= 10
    for messages in llm.sent:
        assert sum(len(m["content"]) for m in messages) / CHARS_PER_TOKEN <= limit
    assert any("'task_description'" in n for n in roles.notes)
    assert all(n.startswith("context: cut section") and "llm.context_tokens=4096" in n for n in roles.notes)
    assert len(roles.notes) == len(set(roles.notes))  # each cut is noted once per run


def test_checker_refine_and_ensemble_prompts_fit_a_4k_context_too(tmp_path):
    """The roles added for MLE-STAR's checkers and actions go through the same budget (their code is whole)."""
    from automind.errors import RoleError
    from automind.roles import Ablation, AblationResult, AblationRow, AblationRun, Attempt, Block

    roles, llm = _roles(tmp_path, 4096)
    ctx = _ctx(tmp_path, "refine")
    ctx.parent_code = SCRIPT
    calls = [
        lambda: roles.check_leakage(ctx, SCRIPT, ["line 3: fit-on-test: scaler"] * 50),
        lambda: roles.use_data(ctx, SCRIPT, ["stores.csv", "oil.csv"]),
        lambda: roles.ablation_scripts(ctx, ["model"], []),
        lambda: roles.summarise_ablation(
            ctx, [AblationResult(AblationRun("all", SCRIPT), "ablation " * 3000)]
        ),
        lambda: roles.extract_block(ctx, Ablation([AblationRow("model", "ridge", 0.6, 0.1)], "s" * 2000), []),
        lambda: roles.plan_block(ctx, Block("model", "df = 1", Plan("p")), [Attempt("use lgbm", 0.7)] * 20),
        lambda: roles.code_block(ctx, Block("model", "df = 1", Plan("p")), Plan("use lgbm")),
        lambda: roles.plan_ensemble(
            ctx,
            [{"id": "1", "metric": 0.7, "summary": "s" * 500, "code": SCRIPT, "dir": "/run/nodes/1"}] * 5,
            [],
        ),  # fmt: skip
        lambda: roles.code_ensemble(
            ctx,
            Plan("mean"),
            [{"id": "1", "metric": 0.7, "summary": "s", "code": SCRIPT, "dir": "/run/nodes/1"}],
        ),  # fmt: skip
    ]
    for call in calls:
        with contextlib.suppress(
            RoleError
        ):  # the fake's reply is not every role's format: what was sent matters
            call()
    limit = 4096 - reply_reserve(4096, None)
    assert len(llm.sent) >= len(calls)
    firsts = [m for m in llm.sent if len(m) == 2]  # first asks (a re-ask repeats the model's answer)
    for messages in firsts:
        size = sum(len(m["content"]) for m in messages) / CHARS_PER_TOKEN
        assert size <= limit, messages[-1]["content"][:300]
    # checkers, ablation, extractor and block coder judge or splice the whole script: it is never cut
    assert sum(SCRIPT.strip() in m[-1]["content"] for m in firsts) >= 5


def test_a_large_context_cuts_nothing(tmp_path):
    roles, llm = _roles(tmp_path, 128000)
    roles.plan(_ctx(tmp_path, "draft"))
    assert roles.notes == [] and "trick 11" in llm.sent[0][-1]["content"]


def test_knowledge_prompts_fit_too_and_report_their_cuts(tmp_path):
    from automind.llm.tasks import check_applicability, distill_tricks

    settings = load_config({"llm.context_tokens": 4096}, environ={}, cwd=tmp_path).settings

    class Tricks(Recording):
        def _complete(self, req) -> Reply:
            self.sent.append(req.messages)
            args = {"tricks": [{"title": "t", "text": "do x"}], "applicable": True}
            return Reply("", args, Usage(10, 5))

    llm = Tricks(settings.llm, "")
    notes: list[str] = []
    material = "\n\n".join(f"[{i}] post {i} (source: s{i})\n" + "winning idea " * 60 for i in range(16))
    distill_tricks(llm, "Predict y. " * 1500, material, notes=notes)
    check_applicability(llm, Trick(id="t", title="t", text="do x"), "Predict y. " * 1500, notes=notes)
    limit = 4096 - reply_reserve(4096, None)
    for messages in llm.sent:
        assert sum(len(m["content"]) for m in messages) / CHARS_PER_TOKEN <= limit
    assert any("'material' of prompt 'distill_tricks'" in n for n in notes)
    assert any("'task_text' of prompt 'trick_check'" in n for n in notes)
    assert "[0] post 0" in llm.sent[0][-1]["content"]  # the best-ranked material is kept


def test_a_text_cut_twice_carries_one_marker_and_untouched_sections_report_nothing():
    values = _base(analysis="A" * 9000, task_description="Predict y. " + "D" * 9000)
    text, cuts = fit("draft_plan", lambda v: render("draft_plan", **v), values, 1200)
    assert text.count("characters cut to fit") == 2  # analysis and description, one marker each
    assert [c.section for c in cuts] == ["analysis", "task_description"]
    assert all(c.after < c.before for c in cuts)


def test_sections_a_template_does_not_show_are_never_reported_as_cut():
    values = _base(memory=["tried a long idea " * 20] * 12, experience=["lesson " * 100] * 4, code=SCRIPT * 40,
                   plan="add CV", output="")  # fmt: skip
    full = render("edit_code", **values)
    text, cuts = fit("edit_code", lambda v: render("edit_code", **v), values, estimate_tokens(full) - 50)
    assert "memory" not in {c.section for c in cuts} and "experience" not in {c.section for c in cuts}
