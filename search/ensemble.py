"""The `ensemble` action: combine the best solutions of several lineages from their saved predictions.

The policy names the members (the L best valid nodes, one per lineage). Their `submission/` folders were
kept under nodes/<id>/submission/ when they ran (predictions included: recipe scripts save oof.npy,
test_pred.npy, y.npy and members.npz; LLM scripts are asked to save the first three). The roles plan the
ensemble from the members and the earlier ensemble plans with their scores, write a script that fits its
weights on out-of-fold predictions only, and the script runs once like any node. A script that writes
submission/ensemble.json ({"method", "weights": {member: weight}}) has its weights shown in the report.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from automind.roles import Attempt, Roles

from .agent import Agent
from .journal import Node
from .policy import Decision, ensemble_rounds

PREDICTION_FILES = ("oof.npy", "test_pred.npy", "y.npy", "members.npz")


def member_info(agent: Agent, node: Node) -> dict[str, Any]:
    """What the ensemble roles see of one member: id, summary, metric, code, its folder and saved files."""
    folder = agent.node_dir(node.id).resolve()
    sub = folder / "submission"
    files = sorted(p.name for p in sub.iterdir() if p.is_file()) if sub.is_dir() else []
    return {
        "id": node.id,
        "summary": node.summary or node.plan[:200],
        "metric": None if node.metric is None else node.metric.value,
        "code": node.code,
        "dir": str(folder),
        "files": files,
        "predictions": [f for f in PREDICTION_FILES if f in files],
    }


def history(agent: Agent) -> list[Attempt]:
    """Every earlier ensemble plan of the run with its score (None: it failed), oldest first."""
    return [
        Attempt(n.plan, None if n.is_buggy or n.metric is None else n.metric.value, n.error)
        for n in agent.journal.nodes
        if n.action == "ensemble"
    ]


def ensemble_step(agent: Agent, d: Decision, roles: Roles) -> list[Node]:
    """Build one ensemble round from `d.members`; returns the ensemble node."""
    members = [member_info(agent, m) for m in d.members]
    earlier = history(agent)
    info = {"round": ensemble_rounds(agent.journal, d.members) + 1, "members": [m.id for m in d.members]}

    def body(node: Node, r: Roles, workdir: Path) -> None:
        ctx = agent.context(d)
        tick = agent.clock()
        agent.phase("planning")
        plan = r.plan_ensemble(ctx, members, earlier)
        node.plan, node.summary = plan.text, plan.summary
        node.ensemble = {**info, "method": str(plan.meta.get("method") or ""), "weights": {}}
        code = r.code_ensemble(ctx, plan, members)
        node.timings["plan"] = round(agent.clock() - tick, 3)
        agent.run_code(node, ctx, r, code, workdir)
        if not node.is_buggy:
            node.ensemble.update(read_weights(agent.node_dir(node.id) / "submission" / "ensemble.json"))
            if (copy := copied_member(agent, node, d.members)) is not None:
                node.no_effect, node.metric = True, copy.metric
                node.ensemble["copy_of"] = copy.id

    node = agent.run_node(d, roles, body, setup=lambda n: setattr(n, "ensemble", {**info, "weights": {}}))
    if agent.on_node is not None:
        agent.on_node(node)
    return [node]


def copied_member(agent: Agent, node: Node, members: list[Node]) -> Node | None:
    """The member an ensemble copies: its weights give that one member everything and its submission is
    the member's, byte for byte. Such a node is ranked by the member's own score: a blend is ranked by the
    holdout alone and a recipe script by its pooled score (docs/holdout.md), so on a task whose holdout rows
    are easier than its folds the copy outranked every other solution with its member's predictions."""
    weights = (node.ensemble or {}).get("weights") or {}
    used = [k for k, w in weights.items() if w]
    if len(used) != 1 or not used[0].startswith("node "):
        return None
    member = next((m for m in members if m.id == used[0].removeprefix("node ")), None)
    if member is None or member.metric is None:
        return None
    return (
        member if agent.same_files(node, member, (f"submission/{agent.task.spec.submission_file}",)) else None
    )


def read_weights(path: Path) -> dict[str, Any]:
    """{"method", "weights"} from an ensemble script's ensemble.json; {} when absent or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    out: dict[str, Any] = {}
    if isinstance(data.get("method"), str) and data["method"]:
        out["method"] = data["method"]
    weights = data.get("weights")
    if isinstance(weights, dict):
        out["weights"] = {
            str(k): round(float(v), 6) for k, v in weights.items() if isinstance(v, int | float)
        }
    return out
