"""The `refine` action: one outer step of MLE-STAR's targeted refinement (its Algorithm 2).

On the solution chosen by the policy (the best one): (1) run the ablation scripts the roles write, each
measuring what removing or replacing a component does to the validation score; (2) the roles summarise
them into a component -> effect table, kept on the refined node (`Node.ablations`); (3) the roles pick
the most influential block not refined before on this lineage; (4) up to `search.refine.inner` attempts
rewrite only that block, each a child node, each plan seeing the earlier (plan, score) pairs. The best
attempt is kept the usual way: it becomes the journal's best node if it scores at least as well.

Every execution asks the runner first (`Agent.allowance`): an ablation or attempt that would not fit in
the time left, or an attempt beyond the step budget, is not started; ablation scripts too short to
measure anything are not started either, and an attempt's time is in proportion to its base's run
(search/budget.py). Ablation scripts and outputs are saved under nodes/<id>/refine-<step>/.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from automind.errors import RoleError
from automind.roles import AblationResult, AblationRun, Attempt, Block, Context, Plan, Roles

from .agent import Agent, remove_workdir
from .budget import FIT_SHARE, ablation_slices, attempt_cap, lower_bound
from .guard import guarded
from .journal import Node
from .policy import Decision
from .verifier import read_metric

OUTPUT_CHARS = 4000  # of each ablation output kept in the journal (the whole output is on disk)
# In a timed run the ablation scripts share at most this part of the time left when the step begins, in
# equal slices (scripts scale to the limit they are told, and the roles' scripts measure their baseline
# under the same limit); the rest is for the attempts.
ABLATION_SHARE = 1 / 3


def refine_step(agent: Agent, d: Decision, roles: Roles) -> list[Node]:
    """Run one refine step on `d.parent`; returns the attempt nodes (possibly none)."""
    base = d.parent
    assert base is not None, "refine needs the node to refine"
    g = guarded(roles)
    record: dict[str, Any] = {
        "step": len(agent.journal.refine_steps) + 1,
        "after": len(agent.journal),  # nodes that existed when the step began
        "rows": [],
        "summary": "",
        "block": None,
        "attempts": [],
        "run_seconds": [],
        "error": None,
    }
    covered, refined = base.ablated_components, base.refined_blocks  # before this step's record counts
    base.ablations.append(record)  # the policy sees the step even if it stops early
    ctx = agent.context(Decision("refine", base))
    folder = agent.node_dir(base.id) / f"refine-{record['step']}"
    try:
        runs = g.ablation_scripts(ctx, covered, refined)
        results = _ablate(agent, base, runs, record, folder)
        ablation = g.summarise_ablation(ctx, results)
        record["rows"] = [vars(r) for r in ablation.rows]
        record["summary"] = ablation.summary
        block = g.extract_block(ctx, ablation, refined)
    except RoleError as e:
        record["error"] = f"{type(e).__name__}: {e}"
        return []
    record.update(block=block.name, block_code=block.code, plan=block.plan.text)
    if block.plan.meta.get("not_tried"):  # alternatives the roles left out, each with its reason
        record["not_tried"] = [str(x) for x in block.plan.meta["not_tried"]]
    cap = attempt_cap(base)  # the attempts' coder is told the limit they will run under
    if cap is not None:
        ctx = replace(ctx, exec_timeout_s=min(ctx.exec_timeout_s or cap, cap))
    return _attempts(agent, base, ctx, g, block, record, cap)


def _ablate(
    agent: Agent, base: Node, runs: list[AblationRun], record: dict[str, Any], folder: Path
) -> list[AblationResult]:
    """Run each ablation script while time allows; keep scripts and outputs on disk, timings on the record."""
    results: list[AblationResult] = []
    folder.mkdir(parents=True, exist_ok=True)
    left = agent.time_left()
    # each script re-runs the base with one change, so it needs about the base's time; it still measures
    # something with FIT_SHARE of it (scripts scale to their limit), and never less than the run's shortest
    # training run (start-up and a first model)
    need = max(lower_bound(agent.journal, "ablation"), FIT_SHARE * float(base.timings.get("exec", 0.0)))
    total = None if left is None else ABLATION_SHARE * left
    n, share = ablation_slices(total, len(runs), need, least=min(2, len(runs)))
    if runs and n == 0:
        record["ablation_note"] = (
            f"no time to ablate ({total or 0:.0f} s for scripts that need {need:.0f} s each): the block is "
            "chosen without measurements"
        )
        return []
    if n < len(runs):
        record["ablation_note"] = f"time for {n} of {len(runs)} ablation scripts ({share or 0:.0f} s each)"
        runs = runs[:n]
    for i, run in enumerate(runs):
        timeout = agent.allowance("ablation", base) if agent.allowance else None
        if agent.allowance and timeout is None:
            record["ablation_note"] = (
                f"ablation stopped after {i} of {len(runs)} scripts: the rest would not fit in time"
            )
            break
        if share is not None:  # every ablation script gets the same time, so their scores compare
            timeout = min(timeout or share, share)
        workdir = agent.run_dir / "work" / f"refine-{record['step']}-{i}"
        judge = agent.judge(workdir, timeout)
        try:
            res = judge.sandbox.run_script(run.code, timeout_s=timeout)
            metric, _ = read_metric(res) if res.ok else (None, "")
            error = None if res.ok else f"{res.status}: {res.message}"
            output = res.output
            record["run_seconds"].append(round(res.wall_s, 3))
        finally:
            remove_workdir(workdir)
        name = _safe(run.label) or f"run{i}"
        (folder / f"{name}.py").write_text(run.code, encoding="utf-8")
        (folder / f"{name}.txt").write_text(output, encoding="utf-8")
        results.append(AblationResult(run, output[-OUTPUT_CHARS:], metric, error))
        if run.reproduces and (why := _not_reproduced(base, metric, error, share)):
            record["ablation_note"] = why
            break
    record["outputs"] = [
        {"label": r.run.label, "change": r.run.change, "metric": r.metric, "error": r.error} for r in results
    ]
    return results


def _not_reproduced(base: Node, metric: float | None, error: str | None, share: float | None) -> str | None:
    """Why the run of the solution itself under the ablation's slice does not stand for the solution (None
    when it does). Scripts scale to the limit they are told: given a slice shorter than it needs, a
    portfolio trains only its first model, and every variant is then compared on that cut-down solution (at
    120 s on two fresh tasks the table said "model changes nothing" of a portfolio that beat its LightGBM).
    The same script on the same rows gives the same score, so a different one means the slices changed
    what is measured; the other variants are not run and the block is chosen without measurements."""
    own = base.reported_metric
    cut = f" (given {share:.0f} s)" if share is not None else ""
    if error is not None:
        return (
            f"ablation stopped: the solution itself failed{cut}: {error[:120]}; the block is chosen without "
            "measurements"
        )
    if metric is None or own is None or math.isclose(metric, own, rel_tol=1e-4, abs_tol=1e-6):
        return None
    return (
        f"ablation stopped: the solution itself scored {metric:.6g} against its own {own:.6g}{cut}, so the "
        "slices measure a cut-down solution; the block is chosen without measurements"
    )


def _attempts(
    agent: Agent, base: Node, ctx: Context, roles: Roles, block: Block, record: dict[str, Any],
    cap: float | None,
) -> list[Node]:  # fmt: skip
    """The inner loop: plan -> code for the block -> splice -> run -> score, K times at most; each run within
    `cap` seconds (search/budget.attempt_cap)."""
    nodes: list[Node] = []
    history: list[Attempt] = []
    plan = block.plan
    inner = agent.settings.search.refine.inner
    for k in range(1, inner + 1):
        if agent.allowance is not None and agent.allowance("refine", base) is None:
            record["note"] = f"stopped after {k - 1} of {inner} attempts: no time or steps left"
            break
        info = {"step": record["step"], "block": block.name, "attempt": k, "base": base.id}
        node = agent.run_node(
            Decision("refine", base), roles, _attempt_body(agent, ctx, block, plan, cap),
            setup=partial(_mark, info=info),
        )  # fmt: skip
        record["attempts"].append(node.id)
        nodes.append(node)
        if agent.on_node is not None:
            agent.on_node(node)
        metric = None if node.is_buggy or node.metric is None else node.metric.value
        history.append(Attempt(plan.text, metric, node.error))
        if k == inner:
            break
        try:
            nxt = roles.plan_block(ctx, block, history)
        except RoleError as e:
            record["note"] = f"no plan for attempt {k + 1}: {e}"
            break
        if nxt is None:
            record["note"] = f"nothing new to try on block {block.name} after {k} attempts"
            break
        plan = nxt
    valid = [n for n in nodes if not n.is_buggy and n.metric is not None]
    best = max(valid, key=agent.journal.score, default=None)
    kept = best if best is not None and agent.journal.score(best) >= agent.journal.score(base) else base
    record["kept"] = kept.id
    return nodes


def _attempt_body(
    agent: Agent, ctx: Context, block: Block, plan: Plan, cap: float | None
) -> Callable[[Node, Roles, Path], None]:
    """One attempt: the block rewritten following `plan`, spliced into the solution, run once (within `cap`
    seconds), judged."""

    def body(node: Node, roles: Roles, workdir: Path) -> None:
        node.plan, node.summary = plan.text, plan.summary or plan.text[:160]
        tick = agent.clock()
        code = roles.code_block(ctx, block, plan)
        node.timings["plan"] = round(agent.clock() - tick, 3)
        agent.run_code(node, ctx, roles, code, workdir, cap=cap)

    return body


def _mark(node: Node, info: dict[str, Any]) -> None:
    node.refine = dict(info)


def _safe(label: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in label)[:60]
