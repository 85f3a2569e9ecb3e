"""A tiny task and a scripted `Roles` whose code strings are real scripts, so search, coders and sandbox run.

The scripts use only the standard library (fast start-up): they read input/test.csv, write
submission/submission.csv and submission/eval_metric.txt, and print the validation score.
"""

from __future__ import annotations

import csv
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from automind.errors import RoleError
from automind.llm.parsers import apply_search_replace
from automind.roles import (
    Ablation,
    AblationResult,
    AblationRow,
    AblationRun,
    Attempt,
    Block,
    Context,
    Plan,
    Step,
    Verdict,
)

BUG = 'raise RuntimeError("injected bug")'
FIX = 'print("bug fixed")'


def make_task(
    root: Path, *, metric: str = "accuracy", lower_is_better: bool | None = None, n: int = 40
) -> Path:
    """A binary task: predict y = x > 0.5. Answers in private/, a sample submission in public/."""
    rng = random.Random(0)
    (root / "public").mkdir(parents=True)
    (root / "private").mkdir()
    rows = [(i, round(rng.random(), 3)) for i in range(n)]
    train, test = rows[: n // 2], rows[n // 2 :]
    with open(root / "public" / "train.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "x", "y"])
        w.writerows([i, x, int(x > 0.5)] for i, x in train)
    with open(root / "public" / "test.csv", "w", newline="") as f:
        csv.writer(f).writerows([["id", "x"], *[[i, x] for i, x in test]])
    with open(root / "public" / "sample_submission.csv", "w", newline="") as f:
        csv.writer(f).writerows([["id", "y"], *[[i, 0] for i, _ in test]])
    with open(root / "private" / "answers.csv", "w", newline="") as f:
        csv.writer(f).writerows([["id", "y"], *[[i, int(x > 0.5)] for i, x in test]])
    (root / "description.md").write_text("# Tiny\nPredict y (binary) from x. Metric: accuracy.\n")
    lib = "" if lower_is_better is None else f"\n  lower_is_better: {str(lower_is_better).lower()}"
    (root / "task.yaml").write_text(
        f"name: tiny\nslug: tiny\nmetric:\n  name: {metric}{lib}\nid_column: id\n"
        "target_columns: [y]\nproblem_type: binary\n"
    )
    return root


def script(value: float | None, *, bug: bool = False, submit: bool = True, threshold: float = 0.5,
           sleep: float = 0.0, print_only: bool = False) -> str:  # fmt: skip
    """A whole solution script reporting `value` as its validation metric (None: reports nothing)."""
    lines = ["import csv, os, time", 'os.makedirs("submission", exist_ok=True)']
    if sleep:
        lines.append(f"time.sleep({sleep})")
    if bug:
        lines.append(BUG)
    if submit:
        lines += [
            'rows = list(csv.DictReader(open("input/test.csv")))',
            'with open("submission/submission.csv", "w", newline="") as f:',
            "    w = csv.writer(f)",
            '    w.writerow(["id", "y"])',
            "    for r in rows:",
            f'        w.writerow([r["id"], int(float(r["x"]) > {threshold})])',
        ]
    if value is not None:
        if not print_only:
            lines.append(f'open("submission/eval_metric.txt", "w").write("{value}")')
        lines.append(f'print("validation accuracy: {value}")')
    return "\n".join(lines) + "\n"


def saving(code: str) -> str:
    """`code` that also leaves the prediction files an ensemble needs (empty stand-ins)."""
    return (
        code + 'for f in ("oof.npy", "test_pred.npy", "y.npy"):\n    open("submission/" + f, "wb").close()\n'
    )


def cells(value: float, bug_at: int | None = None) -> list[str]:
    """The same solution as three notebook cells; `bug_at` injects the bug into one cell."""
    out = [
        'import csv, os\nos.makedirs("submission", exist_ok=True)\nrows = list(csv.DictReader(open("input/test.csv")))',
        'preds = [(r["id"], int(float(r["x"]) > 0.5)) for r in rows]',
        'with open("submission/submission.csv", "w", newline="") as f:\n'
        '    w = csv.writer(f)\n    w.writerow(["id", "y"])\n    w.writerows(preds)\n'
        f'open("submission/eval_metric.txt", "w").write("{value}")\nprint("validation accuracy: {value}")',
    ]
    if bug_at is not None:
        out[bug_at] = out[bug_at] + "\n" + BUG
    return out


Source = list[Any] | Callable[[Context], Any]


class ScriptedRoles:
    """Roles answering from scripts: `codes[action]` is a list (consumed in order) or a function of ctx.

    An item that is an Exception instance is raised instead (to simulate an LLM failure). Repairs apply a
    SEARCH/REPLACE edit that turns the injected bug line into a print, unless `repair_fixes` is False.
    """

    def __init__(
        self,
        codes: dict[str, Source] | None = None,
        *,
        name: str = "llm",
        complexity: Any = 1.0,
        steps: list[Step] | None = None,
        step_cells: list[str] | None = None,
        repair_fixes: bool = True,
        lower_is_better: bool | None = None,
        verdict_bug: bool = False,
        plan_errors: dict[int, Exception] | None = None,
    ):
        self.codes = {k: (list(v) if isinstance(v, list) else v) for k, v in (codes or {}).items()}
        self.name = name
        self.llm = None  # no model behind scripted roles: no usage to account
        self._complexity = complexity
        self.steps = steps or [Step("load", "read data"), Step("predict", "fit"), Step("write", "submit")]
        self.step_cells = step_cells or cells(0.9)
        self.repair_fixes = repair_fixes
        self.lower_is_better = lower_is_better
        self.verdict_bug = verdict_bug
        self.plan_errors = plan_errors or {}
        self.calls: list[tuple[str, str]] = []
        self.contexts: list[Context] = []
        self.programs: list[str] = []  # the `program` each repair was given (earlier stepwise steps)
        self.plans = 0

    def _take(self, action: str, ctx: Context) -> Any:
        src = self.codes.get(action, self.codes.get("*"))
        if src is None:
            raise AssertionError(f"no scripted code for {action}")
        item = src(ctx) if callable(src) else (src.pop(0) if len(src) > 1 else src[0])
        if isinstance(item, Exception):
            raise item
        return item

    def plan(self, ctx: Context) -> Plan:
        self.calls.append(("plan", ctx.action))
        self.contexts.append(ctx)
        self.plans += 1
        if self.plans in self.plan_errors:
            raise self.plan_errors[self.plans]
        trick = f" using {ctx.trick.title}" if ctx.trick else ""
        return Plan(
            text=f"{ctx.action} plan {self.plans}{trick}", summary=f"{ctx.action} #{self.plans}{trick}"
        )

    def complexity(self, ctx: Context, plan: Plan) -> float:
        self.calls.append(("complexity", ctx.action))
        return self._complexity

    def code(self, ctx: Context, plan: Plan) -> str:
        self.calls.append(("code", ctx.action))
        return self._take(ctx.action, ctx)

    def decompose(self, ctx: Context, plan: Plan) -> list[Step]:
        self.calls.append(("decompose", ctx.action))
        return list(self.steps)

    def step_code(self, ctx: Context, plan: Plan, steps: list[Step], index: int, program: str) -> str:
        self.calls.append(("step_code", str(index)))
        return self.step_cells[index]

    def repair(self, ctx: Context, code: str, error: str, step: Step | None = None, program: str = "") -> str:
        self.calls.append(("repair", step.title if step else ctx.action))
        self.programs.append(program)
        if not self.repair_fixes:
            return code
        edit = f"<<<<<<< SEARCH\n{BUG}\n=======\n{FIX}\n>>>>>>> REPLACE\n"
        fixed, unmatched = apply_search_replace(code, edit)
        if unmatched:
            raise RoleError("repair: nothing to fix")
        return fixed

    def integrate(self, ctx: Context, plan: Plan, program: str) -> str:
        self.calls.append(("integrate", ctx.action))
        return program

    def verify(self, ctx: Context, code: str, result: Any) -> Verdict:
        self.calls.append(("verify", ctx.action))
        return Verdict(
            is_bug=self.verdict_bug, summary="looks fine", metric=None, lower_is_better=self.lower_is_better
        )

    # --- refine and ensemble: scripted on the same stdlib scripts --------------------------------------
    # The block a refine rewrites is the line writing eval_metric.txt; attempt k writes `refine_values[k]`.

    refine_values = (0.7, 0.65, 0.8, 0.75)

    def ablation_scripts(self, ctx: Context, covered: list[str], refined: list[str]) -> list[AblationRun]:
        self.calls.append(("ablation_scripts", ",".join(covered)))
        return [AblationRun("threshold", script(0.55, threshold=0.4), "threshold 0.5 -> 0.4")]

    def summarise_ablation(self, ctx: Context, results: list[AblationResult]) -> Ablation:
        self.calls.append(("summarise_ablation", str(len(results))))
        rows = [
            AblationRow(r.run.label, r.run.change, r.metric,
                        None if r.metric is None else round((ctx.parent_metric or 0) - r.metric, 6))
            for r in results
        ]  # fmt: skip
        return Ablation(rows, "the threshold matters")

    def extract_block(self, ctx: Context, ablation: Ablation, refined: list[str]) -> Block:
        self.calls.append(("extract_block", ",".join(refined)))
        line = next(x for x in (ctx.parent_code or "").splitlines(keepends=True) if "eval_metric.txt" in x)
        first = Plan("rewrite the metric line (1)", "[refine metric #1]")
        first.meta["not_tried"] = ["metric -> constant: it would score the same"]
        return Block("metric", line, first)

    def plan_block(self, ctx: Context, block: Block, history: list[Attempt]) -> Plan | None:
        self.calls.append(("plan_block", str(len(history))))
        k = len(history) + 1
        return Plan(f"rewrite the metric line ({k})", f"[refine metric #{k}]")

    def code_block(self, ctx: Context, block: Block, plan: Plan) -> str:
        k = int(plan.text.rsplit("(", 1)[1].rstrip(")"))
        new = f'open("submission/eval_metric.txt", "w").write("{self.refine_values[k - 1]}")\n'
        return (ctx.parent_code or "").replace(block.code, new, 1)

    def plan_ensemble(self, ctx: Context, members: list[dict[str, Any]], history: list[Attempt]) -> Plan:
        self.calls.append(("plan_ensemble", ",".join(str(m["id"]) for m in members)))
        return Plan(
            f"mean of nodes {', '.join(str(m['id']) for m in members)}", "ensemble mean", {"method": "mean"}
        )

    def code_ensemble(self, ctx: Context, plan: Plan, members: list[dict[str, Any]]) -> str:
        weights = {str(m["id"]): round(1 / len(members), 6) for m in members}
        return script(0.95) + (
            "import json\n"
            f'json.dump({{"method": "mean", "weights": {weights!r}}}, open("submission/ensemble.json", "w"))\n'
        )
