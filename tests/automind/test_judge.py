"""The execution core: one outcome per run, grading only when allowed, and the search goes through it."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from automind.config import load_config
from automind.judge import Judge, check_submission
from automind.task import Task

WRITE = (
    "import csv, os\n"
    "rows = list(csv.DictReader(open('input/test.csv')))\n"
    "with open('submission/submission.csv', 'w', newline='') as f:\n"
    "    w = csv.writer(f); w.writerow(['id', 'y'])\n"
    "    w.writerows([r['id'], int(float(r['x']) > 0.5)] for r in rows)\n"
)


def tiny_task(root: Path) -> Path:
    (root / "public").mkdir(parents=True)
    (root / "private").mkdir()
    xs = [(i, (i * 37 % 100) / 100) for i in range(30)]
    train, test = xs[:20], xs[20:]
    with open(root / "public/train.csv", "w", newline="") as f:
        csv.writer(f).writerows([["id", "x", "y"], *[[i, x, int(x > 0.5)] for i, x in train]])
    with open(root / "public/test.csv", "w", newline="") as f:
        csv.writer(f).writerows([["id", "x"], *[[i, x] for i, x in test]])
    with open(root / "public/sample_submission.csv", "w", newline="") as f:
        csv.writer(f).writerows([["id", "y"], *[[i, 0] for i, _ in test]])
    with open(root / "private/answers.csv", "w", newline="") as f:
        csv.writer(f).writerows([["id", "y"], *[[i, int(x > 0.5)] for i, x in test]])
    (root / "description.md").write_text("# Tiny\nPredict y from x.\n")
    (root / "task.yaml").write_text("name: tiny\nmetric: accuracy\n")
    return root


@pytest.fixture
def task(tmp_path) -> Task:
    return Task.load(tiny_task(tmp_path / "task"))


@pytest.fixture
def settings():
    return load_config({"sandbox.timeout_s": 20}, environ={}, cwd=Path("/nonexistent")).settings


@pytest.mark.parametrize(
    "code,outcome",
    [
        (WRITE, "success"),
        ("raise SystemExit(3)\n", "execution failed"),
        ("print('no file')\n", "submission not created"),
        ("open('submission/submission.csv', 'w').write('id,z\\n1,2\\n')\n", "submission invalid"),
    ],
)
def test_one_outcome_per_run(task, settings, tmp_path, code, outcome):
    judged = Judge.from_settings(task, tmp_path / "wd", settings).run(code)
    assert judged.outcome == outcome
    assert (judged.grade is not None) == (outcome == "success")
    if outcome == "success":
        assert judged.grade.valid and judged.grade.score == 1.0 and judged.reason is None
    else:
        assert judged.reason


def test_search_judge_never_grades(task, settings, tmp_path):
    judged = Judge.from_settings(task, tmp_path / "wd", settings, grade=False).run(WRITE)
    assert judged.outcome == "success" and judged.grade is None


def test_no_answers_is_said(task, settings, tmp_path):
    (task.private_dir / "answers.csv").unlink()
    judged = Judge.from_settings(task, tmp_path / "wd", settings).run(WRITE)
    assert judged.outcome == "success" and judged.grade is None and "no private answers" in judged.reason


def test_a_crashed_script_still_gets_its_submission_checked(task, settings, tmp_path):
    code = "open('submission/submission.csv', 'w').write('id,z\\n1,2\\n')\nraise RuntimeError('late')\n"
    result = Judge.from_settings(task, tmp_path / "wd", settings).sandbox.run_script(code)
    check = check_submission(task, result)
    assert check.outcome == "execution failed" and check.written and "missing column" in check.format_error


def test_overrides_reach_the_sandbox(task, settings, tmp_path):
    judge = Judge.from_settings(task, tmp_path / "wd", settings, timeout_s=1, memory_mb=333)
    assert judge.sandbox.timeout_s == 1 and judge.sandbox.memory_mb == 333
    assert judge.run("while True: pass\n").result.status == "timeout"


def test_search_agent_executes_through_the_judge(task, settings, tmp_path, monkeypatch):
    """The agent builds its sandbox through Judge (grading off); the verifier uses check_submission."""
    import automind.judge as core
    from automind.roles import Context, Plan, Verdict
    from automind.search.agent import Agent
    from automind.search.journal import Journal
    from automind.search.policy import Decision

    made, checked = [], []
    real_from, real_check = core.Judge.from_settings.__func__, core.check_submission
    monkeypatch.setattr(
        core.Judge,
        "from_settings",
        classmethod(lambda cls, *a, **k: made.append(k) or real_from(cls, *a, **k)),
    )
    monkeypatch.setattr(core, "check_submission", lambda t, r: checked.append(r) or real_check(t, r))

    class Roles:
        name = "test"

        def plan(self, ctx: Context) -> Plan:
            return Plan("write the rule")

        def code(self, ctx: Context, plan: Plan) -> str:
            return WRITE + "print('Final Validation Performance: 1.0')\n"

        def verify(self, ctx: Context, code: str, result) -> Verdict:
            return Verdict(is_bug=False, summary="ok")

    s = load_config({"coding.mode": "one-pass"}, environ={}, cwd=Path("/nonexistent")).settings
    agent = Agent(task, s, Journal(lower_is_better=False), tmp_path / "run")
    node = agent.step(Decision("draft"), Roles())
    assert node.status == "valid" and node.metric.value == 1.0
    assert made == [{"timeout_s": None, "grade": False}] and len(checked) == 1
