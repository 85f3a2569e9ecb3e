"""What the design promises reaches the model: real solves through LLMRoles and the `openai` client,
answered by a scripted model behind the loopback stub server; every check reads the messages sent.

Each test fails if its piece of information stops reaching the prompt (or stops being used).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from search_fakes import BUG, FIX, cells, script

from automind.llm.stub import StubServer, error, reply
from automind.run import resume, solve
from automind.run_setup import load_knowledge

Answer = str | dict[str, Any] | Callable[[str], Any]

# What each prompt asks for, recognised by a phrase of its template ("Your job" sections).
KINDS = [
    ("draft", "Propose a first solution"),
    ("improve", "Propose ONE atomic change"),
    ("improve_trick", "Adapt the trick above"),
    ("debug", "First analyse the failure"),
    ("complexity", "Rate two things"),
    ("code", "Write one complete, self-contained Python script"),
    ("step", "Write ONLY the new code for step"),
    ("integrate", "Turn this program into one standalone script"),
    ("repair", "with the smallest change that works"),
    ("rewrite", "Write the complete updated script"),
    ("edit", "# Change to make"),
]
ROLE_KINDS = {k for k, _ in KINDS} | {"verify", "decompose"}
TOOL_KINDS = {
    "submission_verify": "verify",
    "decompose_plan": "decompose",
    "distilled_tricks": "distill",
    "trick_applicability": "applicable",
    "leakage_check": "leakage",
    "assign_categories": "label_top",
    "assign_subcategories": "label_sub",
    "fix_lesson": "lesson",
}


def py(code: str) -> str:
    return f"```python\n{code}```"


def sr(search: str, replace: str) -> str:
    return f"<<<<<<< SEARCH\n{search}\n=======\n{replace}\n>>>>>>> REPLACE\n"


def verdict_from_facts(prompt: str, overfit: bool = False) -> dict[str, Any]:
    """The verifier reads the metric the runner found in eval_metric.txt (stated among the facts)."""
    m = re.search(r"eval_metric.txt contains: ([-+0-9.e]+)", prompt)
    return {"is_bug": m is None, "is_overfitting": overfit, "has_csv_submission": True,
            "summary": "ran", "metric": float(m.group(1)) if m else None, "lower_is_better": False}  # fmt: skip


class Model:
    """A scripted model: answers per prompt kind, in order (the last answer repeats), and a log of
    every (kind, prompt) it was sent."""

    def __init__(self, **answers: list[Answer] | Answer):
        self.answers = {k: list(v) if isinstance(v, list) else [v] for k, v in answers.items()}
        self.answers.setdefault("verify", [verdict_from_facts])
        self.answers.setdefault("label_top", [{"labels": ["General Machine Learning"]}])
        self.answers.setdefault("label_sub", [{"labels": ["Classification"]}])
        self.answers.setdefault("applicable", [{"applicable": True, "reason": "fits"}])
        self.answers.setdefault("leakage", [{"leakage": False, "reason": "fit on training rows only",
                                             "block": "", "fixed": ""}])  # fmt: skip
        self.seen: list[tuple[str, str]] = []

    @staticmethod
    def kind(body: dict[str, Any]) -> str:
        tools = body.get("tools") or []
        if tools:
            return TOOL_KINDS.get(tools[0]["function"]["name"], tools[0]["function"]["name"])
        prompt = body["messages"][-1]["content"]
        return next((k for k, phrase in KINDS if phrase in prompt), "unknown")

    def prompts(self, kind: str) -> list[str]:
        return [p for k, p in self.seen if k == kind]

    def __call__(self, body: dict[str, Any]) -> dict[str, Any]:
        kind = self.kind(body)
        prompt = "\n".join(str(m.get("content") or "") for m in body["messages"])
        self.seen.append((kind, prompt))
        queue = self.answers.get(kind)
        if not queue:
            return error(400, f"the scripted model has no answer for a '{kind}' prompt")
        answer = queue.pop(0) if len(queue) > 1 else queue[0]
        if callable(answer):
            answer = answer(prompt)
        if isinstance(answer, dict) and "status" in answer:
            return answer  # a raw stub response (an error)
        if isinstance(answer, dict):
            name = body["tools"][0]["function"]["name"]
            return reply(tool_args=answer, tool_name=name, prompt_tokens=len(prompt) // 4)
        return reply(answer, prompt_tokens=len(prompt) // 4)


@pytest.fixture
def stub():
    with StubServer() as server:
        yield server


@pytest.fixture
def llm_settings(stub, settings_factory):
    """Settings for a solve whose model is the stub (no retries: a missing answer fails fast)."""

    def make(**overrides: Any):
        base = {"llm.provider": "openai", "llm.base_url": stub.url, "llm.max_retries": 0,
                "coding.one_pass_tries": 1}  # fmt: skip
        return settings_factory(**(base | overrides))

    return make


def run(stub: StubServer, model: Model, task_dir: Path, out: Path, settings) -> Any:
    stub.handler = model
    return solve(task_dir, settings, out=out)


EASY = "<task_complexity>1</task_complexity><solution_complexity>1.5</solution_complexity>"
HARD = "<task_complexity>4</task_complexity><solution_complexity>4.5</solution_complexity>"
TIME = re.compile(
    r"Time left in this run: [\d.]+ (s|minutes)\. Each execution of this step.s code is killed after [\d.]+ (s|minutes)"
)


# --- knowledge ---------------------------------------------------------------------------------------


@pytest.fixture
def kb_store(tmp_path):
    """A knowledge store (hash embedder) holding the shipped cards and one paper summary."""
    from automind.config import load_config
    from automind.ingest.pipeline import ingest

    paper = tmp_path / "paper.md"
    paper.write_text(
        "# Threshold models for binary tabular targets\n\nAbstract: We study how a single learned "
        "threshold on a numeric feature (PAPER-MARKER) matches boosted trees on small binary tasks.\n"
    )
    store = tmp_path / "store"
    cfg = {"knowledge.store": str(store), "knowledge.embedder": "hash", "llm.provider": "none"}
    settings = load_config(cfg, environ={}, cwd=tmp_path / "nowhere").settings
    ingest([str(paper)], kind="papers", settings=settings, labeler="embedding", progress=False)
    return store


DISTILLED = {
    "tricks": [
        {"title": "Clip the feature", "stage": "preprocessing", "source": "[1]",
         "text": "Clip x to its 1st-99th percentile before thresholding (ZETA-MARKER)."},
        {"title": "Tune the threshold", "stage": "model", "source": "[2]",
         "text": "Pick the threshold by cross-validated accuracy (ETA-MARKER)."},
    ]
}  # fmt: skip


def test_improves_apply_distilled_checked_tricks_and_drafts_see_papers(
    stub, llm_settings, task_dir, tmp_path, kb_store
):
    applicable = {"applicable": True, "reason": "fits"}
    model = Model(
        distill=DISTILLED,
        draft="<plan>Threshold x at 0.5.</plan>",
        complexity=EASY,
        code=py(script(0.8)),
        improve_trick="<plan>Clip x before the threshold.</plan>",
        improve="<plan>Report more digits.</plan>",
        edit=[sr('write("0.8")', 'write("0.85")'), sr('write("0.85")', 'write("0.86")')],
        # two checks when the pool is built, then one before each use: the second trick is refused there
        applicable=[applicable, applicable, applicable, {"applicable": False, "reason": "already tuned"}],
    )  # fmt: skip
    s = llm_settings(**{"knowledge.enabled": True, "knowledge.store": str(kb_store), "knowledge.embedder": "hash",
                        "search.steps": 3, "search.num_drafts": 1, "search.trick_prob": 1.0,
                        "search.greedy_prob": 1.0})  # fmt: skip
    res = run(stub, model, task_dir, tmp_path / "run", s)

    # every distilled trick was checked for applicability when the pool was built, and before each use
    checks = model.prompts("applicable")
    # MLE-STAR's leakage checker saw each new valid script whole (and found nothing to fix)
    leak_prompts = model.prompts("leakage")
    assert len(leak_prompts) == 3 and 'write("0.86")' in leak_prompts[-1]
    assert len(checks) == 4 and "# Current solution" not in checks[0]
    assert "# Current solution" in checks[2] and "Threshold x at 0.5." in checks[2]
    improve = model.prompts("improve_trick")[0]
    assert "ZETA-MARKER" in improve  # the improve applied a distilled trick, not a raw card
    node = res.journal.get("1")
    assert node.trick is not None and node.trick.id.startswith("distilled-")
    refused = res.journal.get("2")  # the trick judged inapplicable before use: a plain improve ran
    assert len(model.prompts("improve_trick")) == 1 and len(model.prompts("improve")) == 1
    assert "ETA-MARKER" not in model.prompts("improve")[0] and refused.trick_helpful is False
    saved = json.loads((tmp_path / "run/knowledge.json").read_text())
    assert saved["pool"] and {t["kind"] for t in saved["pool"]} == {"distilled"}

    draft = model.prompts("draft")[0]
    assert "# Related research (paper summaries" in draft and "PAPER-MARKER" in draft
    assert "ETA-MARKER" in draft and draft.index("ETA-MARKER") < draft.index("PAPER-MARKER")
    assert saved["papers"] and saved["papers"][0]["kind"] == "paper"


def test_offline_improves_keep_the_recipe_cards(task_dir, tmp_path, kb_store, settings_factory):
    from automind.task import Task

    s = settings_factory(
        **{"knowledge.enabled": True, "knowledge.store": str(kb_store), "knowledge.embedder": "hash"}
    )
    notes: list[str] = []
    got = load_knowledge(Task.load(task_dir), None, s, None, notes)
    assert got.pool and all(t.kind != "distilled" for t in got.pool)
    assert any(t.recipe for t in got.pool)  # executable recipe cards for the offline policy
    assert got.papers == []  # offline drafts are recipes: no paper summaries to show


# --- environment ---------------------------------------------------------------------------------------


@pytest.fixture
def fake_gpu(tmp_path, monkeypatch):
    """An `nvidia-smi` on PATH that reports one GPU."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    smi = bin_dir / "nvidia-smi"
    smi.write_text("#!/bin/sh\necho 'NVIDIA H100 80GB HBM3, 81559'\n")
    smi.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")


def test_prompts_state_installed_libraries_hardware_and_time(
    stub, llm_settings, task_dir, tmp_path, fake_gpu, monkeypatch
):
    from importlib.metadata import version

    model = Model(draft="<plan>Threshold x.</plan>", complexity=EASY, code=py(script(0.8)),
                  improve="<plan>Report more digits.</plan>", edit=sr("0.8", "0.81"))  # fmt: skip
    s = llm_settings(
        **{"search.steps": 2, "search.num_drafts": 1, "sandbox.memory_mb": 3072, "sandbox.threads": 3}
    )
    run(stub, model, task_dir, tmp_path / "run", s)

    code = model.prompts("code")[0]
    assert f"numpy {version('numpy')}" in code and f"pandas {version('pandas')}" in code
    assert "thread pools set to 3" in code and "memory limit 3.0 GB" in code
    assert "GPU: NVIDIA H100 80GB HBM3 (79.6 GB)" in code
    assert "CPU only" not in code and "(CPU)" not in code
    role_prompts = [(k, p) for k, p in model.seen if k in ROLE_KINDS]
    assert {k for k, _ in role_prompts} >= {"draft", "complexity", "code", "verify", "improve", "edit"}
    for kind, prompt in role_prompts:  # every role prompt states the time left and this execution's timeout
        assert TIME.search(prompt), kind
    cached = json.loads((tmp_path / "run/environment.json").read_text())
    assert cached["libraries"]["numpy"] == version("numpy") and cached["gpus"][0]["memory_mb"] == 81559

    # a resumed run reads the cache instead of probing again
    def no_probe(*a, **k):
        raise AssertionError("probed twice")

    monkeypatch.setattr("automind.environment.probe", no_probe)
    model.seen.clear()
    resume(tmp_path / "run", overrides={"search.steps": 3})
    assert "NVIDIA H100" in model.prompts("edit")[0]


def test_time_left_counts_down(stub, llm_settings, task_dir, tmp_path):
    model = Model(draft="<plan>Threshold x.</plan>", complexity=EASY, code=py(script(0.8, sleep=1.2)))
    s = llm_settings(
        **{"search.steps": 2, "search.num_drafts": 2, "search.time_limit_s": 100, "search.exec_timeout_s": 50}
    )
    run(stub, model, task_dir, tmp_path / "run", s)
    drafts = model.prompts("draft")
    left = [float(re.search(r"Time left in this run: ([\d.]+) s", p).group(1)) for p in drafts]
    assert left[0] <= 100 and left[1] < left[0]
    assert all("killed after 50 s" in p for p in model.prompts("code"))


# --- coding ------------------------------------------------------------------------------------------


COUNTED = [
    'import csv, os\nos.makedirs("submission", exist_ok=True)\nrows = list(csv.DictReader(open("input/test.csv")))',
    # the "training" step: counts its own executions in working/, fails once before counting
    f'{BUG}\nwith open("working/train_runs.txt", "a") as f:\n    f.write("trained\\n")\n'
    'preds = [(r["id"], int(float(r["x"]) > 0.5)) for r in rows]',
    cells(0.9)[2],
]
STEPS = {"decomposed steps": [{"step": "load", "details": "read"}, {"step": "train", "details": "fit"},
                              {"step": "write", "details": "submit"}]}  # fmt: skip


def _stepwise_model(integrated: str) -> Model:
    return Model(
        draft="<plan>Load, fit a threshold, write.</plan>",
        complexity=HARD,
        decompose=STEPS,
        step=[py(c + "\n") for c in COUNTED],
        repair=sr(BUG, FIX),
        integrate=py(integrated),
    )


def _train_runs(run_dir: Path) -> int:
    return sum(p.read_text().count("trained") for p in run_dir.glob("work/**/working/train_runs.txt"))


def test_stepwise_draft_trains_once_and_repair_sees_earlier_steps(
    stub, llm_settings, task_dir, tmp_path, monkeypatch
):
    monkeypatch.setenv("AUTOMIND_KEEP_WORK", "1")  # keep every workspace, to count executions in all of them
    clean = "\n\n".join(c.replace(BUG + "\n", "") for c in COUNTED) + "\n"
    integrated = (
        "import csv, os\n\n"
        + 'if __name__ == "__main__":\n'
        + "".join(
            f"    {line}\n" if line.strip() else "\n"
            for line in clean.replace("import csv, os\n", "").splitlines()
        )
    )
    model = _stepwise_model(integrated)
    res = run(
        stub, model, task_dir, tmp_path / "run", llm_settings(**{"search.steps": 1, "search.num_drafts": 1})
    )

    node = res.journal.get("0")
    assert node.coder == "stepwise" and node.complexity == 4.25 and node.status == "valid"
    assert node.metric.value == 0.9 and node.code == integrated  # the checked integration is the script
    assert _train_runs(tmp_path / "run") == 1  # the training step ran once: no second full run
    assert "not run again" in node.output
    repair = model.prompts("repair")[0]
    assert "Earlier steps (already executed in the session" in repair
    assert 'rows = list(csv.DictReader(open("input/test.csv")))' in repair.split("Earlier steps")[1]
    assert (tmp_path / "run/submission.csv").is_file() and res.grade["score"] == 1.0


def test_an_integration_that_changes_the_code_is_replaced_by_what_ran(
    stub, llm_settings, task_dir, tmp_path, monkeypatch
):
    monkeypatch.setenv("AUTOMIND_KEEP_WORK", "1")
    changed = "\n\n".join(COUNTED).replace(BUG + "\n", "").replace("> 0.5", "> 0.7") + "\n"
    model = _stepwise_model(changed)
    res = run(
        stub, model, task_dir, tmp_path / "run", llm_settings(**{"search.steps": 1, "search.num_drafts": 1})
    )
    node = res.journal.get("0")
    assert node.status == "valid" and "> 0.5" in node.code and "> 0.7" not in node.code
    assert "integration not used (its statements differ" in node.output
    assert _train_runs(tmp_path / "run") == 1


def test_debug_prompts_carry_the_lineage_error_analyses(stub, llm_settings, task_dir, tmp_path):
    first_bug = 'raise ValueError("ids are strings")'
    model = Model(
        draft="<plan>Threshold x.</plan>",
        complexity=EASY,
        code=py(script(0.8).replace("import csv, os, time", "import csv, os, time\n" + first_bug)),
        debug=[
            "<analysis>ALPHA-CAUSE: the id column is read as text.</analysis><plan>Cast ids to int.</plan>",
            "<analysis>BETA-CAUSE: still broken.</analysis><plan>Remove the raise.</plan>",
        ],
        edit=[sr(first_bug, BUG), sr(BUG, FIX)],
    )
    s = llm_settings(**{"search.steps": 3, "search.num_drafts": 1, "search.max_debug_depth": 5})
    res = run(stub, model, task_dir, tmp_path / "run", s)
    assert [n.status for n in res.journal.nodes] == ["buggy", "buggy", "valid"]
    assert res.journal.get("1").error_analysis.startswith("ALPHA-CAUSE")
    second = model.prompts("debug")[1]
    lineage = second.split("# Earlier attempts on this lineage")[1].split("# Your job")[0]
    assert "node 0 (draft)" in lineage and "ids are strings" in lineage  # the draft's failure
    assert "node 1 (debug): analysis: ALPHA-CAUSE" in lineage and "tried: Cast ids to int." in lineage
    assert "injected bug" in lineage  # how the first fix still failed
    report = (tmp_path / "run/report.html").read_text()
    assert "Error analysis" in report and "ALPHA-CAUSE" in report


# --- verification ------------------------------------------------------------------------------------


def test_overfit_flag_is_recorded_and_flagged_nodes_are_not_best(stub, llm_settings, task_dir, tmp_path):
    model = Model(
        draft="<plan>Threshold x.</plan>",
        complexity=EASY,
        code=[py(script(0.99)), py(script(0.8))],
        verify=[lambda p: verdict_from_facts(p, overfit=True), verdict_from_facts],
    )
    res = run(
        stub, model, task_dir, tmp_path / "run", llm_settings(**{"search.steps": 2, "search.num_drafts": 2})
    )
    flagged, clean = res.journal.get("0"), res.journal.get("1")
    assert flagged.overfit_flag and flagged.metric.value == 0.99 and not clean.overfit_flag
    assert res.best is clean  # 0.99 is higher, but its validation was judged untrustworthy
    saved = json.loads((tmp_path / "run/journal.json").read_text())
    assert saved["nodes"][0]["overfit_flag"] is True and saved["best_node"] == "1"
    assert "is_overfitting" in flagged.output
    assert "overfit?" in (tmp_path / "run/report.html").read_text()


def test_a_trailing_loss_is_not_the_metric_in_a_solve(stub, llm_settings, task_dir, tmp_path):
    noisy = script(0.9, print_only=True) + 'print("final train loss: 0.0412")\n'
    model = Model(draft="<plan>Threshold x.</plan>", complexity=EASY, code=py(noisy),
                  verify={"is_bug": False, "is_overfitting": False, "has_csv_submission": True,
                          "summary": "ran", "metric": None, "lower_is_better": False})  # fmt: skip
    res = run(
        stub, model, task_dir, tmp_path / "run", llm_settings(**{"search.steps": 1, "search.num_drafts": 1})
    )
    node = res.journal.get("0")
    assert node.status == "buggy" and node.metric is None and "validation metric not found" in node.error


# --- experience --------------------------------------------------------------------------------------


@pytest.fixture
def memory_store(tmp_path):
    """An experience store holding what earlier runs learned: a trick's measured delta, an error never fixed."""
    from automind.experience import Experience, ExperienceStore
    from automind.store import Store

    store = ExperienceStore(Store.open(str(tmp_path / "memory"), "hash"))
    store.record_trick(
        "old-task", "clip-x", "Clip the feature", ["General Machine Learning"], 0.0123, run="old"
    )
    store.add(Experience("error", "old-task", "Error RuntimeError: injected bug\nFailing code excerpt:\nDEAD-END-MARKER",
                         ["General Machine Learning"], error_type="RuntimeError", run="old"), positive=False)  # fmt: skip
    return tmp_path / "memory"


def _experience_model(lesson: Answer) -> Model:
    return Model(
        draft="<plan>Threshold x.</plan>",
        complexity=EASY,
        code=py(script(0.8, bug=True)),
        debug="<analysis>The script raises on purpose.</analysis><plan>Remove the raise.</plan>",
        edit=[sr(BUG, FIX), sr('write("0.8")', 'write("0.82")')],
        improve="<plan>Report more digits.</plan>",
        lesson=lesson,
    )


def test_experience_reaches_debug_and_improve_prompts_and_fixes_are_abstracted(
    stub, llm_settings, task_dir, tmp_path, memory_store
):
    from automind.experience import POSITIVE
    from automind.store import Store

    lesson = {"tip": "ALWAYS-CAST: never leave a deliberate raise in a solution.", "failing_code": BUG,
              "error": "RuntimeError: injected bug", "fixed_code": FIX}  # fmt: skip
    model = _experience_model(lesson)
    s = llm_settings(**{"experience.enabled": True, "experience.store": str(memory_store), "knowledge.embedder": "hash",
                        "search.steps": 3, "search.num_drafts": 1, "search.greedy_prob": 1.0})  # fmt: skip
    res = run(stub, model, task_dir, tmp_path / "run", s)
    assert [n.action for n in res.journal.nodes] == ["draft", "debug", "improve"]

    debug = model.prompts("debug")[0]
    assert "# Known dead ends" in debug and "DEAD-END-MARKER" in debug
    assert (
        "# Known dead ends" not in debug.split("DEAD-END-MARKER")[1]
    )  # this run's own error is not a dead end
    improve = model.prompts("improve")[0]
    assert "Clip the feature" in improve and "+0.0123" in improve  # the measured delta reaches the plan

    lesson_prompt = model.prompts("lesson")[0]
    assert BUG in lesson_prompt and FIX in lesson_prompt and "RuntimeError" in lesson_prompt
    docs = [r.document for r in Store.open(str(memory_store), "hash").get(POSITIVE)]
    fixes = [d for d in docs if d.startswith("Tip:")]
    assert len(fixes) == 1 and "ALWAYS-CAST" in fixes[0] and "Remove the raise" not in fixes[0]


def test_a_failed_abstraction_is_a_logged_fallback_with_the_extractive_entry(
    stub, llm_settings, task_dir, tmp_path, memory_store
):
    from automind.experience import POSITIVE
    from automind.store import Store

    model = _experience_model(error(400, "no lessons today"))
    s = llm_settings(**{"experience.enabled": True, "experience.store": str(memory_store), "knowledge.embedder": "hash",
                        "search.steps": 2, "search.num_drafts": 1})  # fmt: skip
    run(stub, model, task_dir, tmp_path / "run", s)
    info = json.loads((tmp_path / "run/run.json").read_text())
    assert any("could not abstract the fix of node 1" in f for f in info["fallbacks"])
    docs = [r.document for r in Store.open(str(memory_store), "hash").get(POSITIVE)]
    fix = next(d for d in docs if d.startswith("Tip:"))
    assert "Remove the raise." in fix and "Failing code excerpt" in fix  # the extractive form


# --- context size --------------------------------------------------------------------------------------


def test_a_4k_context_gets_prompts_that_fit_with_every_cut_logged(stub, llm_settings, task_dir, tmp_path):
    from automind.llm.budget import estimate_tokens, reply_reserve

    (task_dir / "description.md").write_text("# Tiny\nPredict y from x.\n" + "Background. " * 4000)
    model = Model(draft="<plan>Threshold x.</plan>", complexity=EASY, code=py(script(0.8, bug=True)),
                  debug="<analysis>raise</analysis><plan>Remove the raise.</plan>", edit=sr(BUG, FIX))  # fmt: skip
    s = llm_settings(**{"llm.context_tokens": 4096, "search.steps": 2, "search.num_drafts": 1})
    res = run(stub, model, task_dir, tmp_path / "run", s)
    assert [n.status for n in res.journal.nodes] == ["buggy", "valid"]

    limit = 4096 - reply_reserve(4096, None)
    for body in stub.requests:
        sent = sum(estimate_tokens(str(m["content"])) for m in body["messages"])
        assert sent <= limit, Model.kind(body)
    info = json.loads((tmp_path / "run/run.json").read_text())
    cuts = [f for f in info["fallbacks"] if f.startswith("context: cut section")]
    assert any("'task_description' of prompt 'draft_plan'" in c for c in cuts)
    assert all("llm.context_tokens=4096" in c for c in cuts)
    assert "characters cut to fit the model's context" in model.prompts("draft")[0]
    assert "Predict y from x." in model.prompts("draft")[0]  # the head of the description survives
