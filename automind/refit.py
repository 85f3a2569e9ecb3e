"""Which earlier nodes a script reads, and how to point it at their refits (the final refit of a blend).

An ensemble (or an improve that blends its siblings) reads earlier nodes' saved predictions from
RUN/nodes/<id>/..., made without the holdout rows. Its final refit on all training rows first re-runs
each of those nodes on all rows, keeps their outputs under RUN/nodes/<id>/refit/, and then runs the
blend with every such path pointed at the refit folder (docs/holdout.md, "The final refit").
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from automind.search.journal import Journal, Node


_WEIGHT_KEY = re.compile(r"node (\d+)(?:/|$)")  # an offline ensemble's weight: "node 4" or "node 4/lgbm"


def _pattern(run_dir: Path | str, resolve: bool = True) -> re.Pattern[str]:
    """RUN/nodes/<id> as written in a script (the resolved path), not followed by more of a name."""
    nodes = Path(run_dir) / "nodes"
    return re.compile(re.escape(str(nodes.resolve() if resolve else nodes)) + r"/(\d+)(?![\w.-])")


def referenced_nodes(code: str, run_dir: Path) -> list[str]:
    """Ids of the run's nodes whose folders `code` names, in order of first mention."""
    return list(dict.fromkeys(m.group(1) for m in _pattern(run_dir).finditer(code)))


def repoint(code: str, run_dir: Path) -> str:
    """`code` with every RUN/nodes/<id> path replaced by RUN/nodes/<id>/refit (where the refit of that node
    keeps its submission/ folder)."""
    return _pattern(run_dir).sub(lambda m: f"{m.group(0)}/refit", code)


def relocate(code: str, old_run: str, run_dir: Path) -> str:
    """`code` with every OLD_RUN/nodes/<id> path (where a moved or copied run folder was when the script was
    written) pointed at RUN/nodes/<id>, where the run is now."""
    here = (run_dir / "nodes").resolve()
    return _pattern(old_run, resolve=False).sub(lambda m: f"{here}/{m.group(1)}", code)


def refit_chain(journal: Journal, run_dir: Path, best: Node) -> list[Node] | str:
    """The nodes the final refit runs, in order: the earlier nodes `best` reads (each re-run on all rows),
    then `best` itself; a reason instead when it cannot be done (a node it reads is missing, failed, or
    itself reads other nodes: one level of blending is refitted, not a chain)."""
    chain = _members(journal, run_dir, weighted(best, referenced_nodes(best.code, run_dir)), best.id)
    return chain if isinstance(chain, str) else [*chain, best]


def weighted(best: Node, ids: list[str]) -> list[str]:
    """Of the nodes an ensemble reads, those its fitted weights use: an offline ensemble script (whose
    weights, in the node's `ensemble`, are keyed "node <id>" or "node <id>/<model>") does not need the refit
    of a member greedy selection gave no weight; its refit leaves that member out (the script logs it), as
    it leaves out any member whose folder holds no predictions. Every id when the weights are not known
    (an LLM's script, or no ensemble.json) or name fewer than two members (the script needs two)."""
    from automind.recipes.ensemble import ENSEMBLE_TAG

    if len(ids) < 2 or best.action != "ensemble" or ENSEMBLE_TAG not in best.code:
        return ids
    weights = (best.ensemble or {}).get("weights") or {}
    used = {m.group(1) for key, w in weights.items() if w and (m := _WEIGHT_KEY.match(str(key)))}
    kept = [i for i in ids if i in used]
    return kept if len(kept) >= 2 else ids


def unweighted(best: Node, run_dir: Path) -> list[str]:
    """The nodes `best` reads whose refit its weights make unneeded (`weighted`): run.json's
    `refit.unweighted`."""
    ids = referenced_nodes(best.code, run_dir)
    kept = weighted(best, ids)
    return [i for i in ids if i not in kept]


def ensemble_chain(journal: Journal, run_dir: Path, members: list[Node]) -> list[Node] | str:
    """The nodes the final refit would run if an ensemble of `members` became the best node (its blend
    trains nothing, so its own run is not counted); a reason instead when that refit could not be done."""
    return _members(journal, run_dir, [m.id for m in members], None)


def _members(journal: Journal, run_dir: Path, ids: list[str], best_id: str | None) -> list[Node] | str:
    """The nodes with these ids, each a valid solution that reads no other node's folder; else why not."""
    chain = []
    for node_id in ids:
        node = next((n for n in journal.nodes if n.id == node_id), None)
        if node is None or node.is_buggy or node.id == best_id:
            return f"the best node reads node {node_id}'s folder, which holds no valid solution to refit"
        if referenced_nodes(node.code, run_dir):
            return (f"the best node blends node {node_id}, which itself blends earlier nodes' saved "
                    "predictions; only one level of blending is refitted")  # fmt: skip
        chain.append(node)
    return chain


def refit_bags(chain: list[Node], need_s: float, cap_s: float, left_s: float, most: int) -> int:
    """How many fold shuffles the refit of `chain` runs (AUTOMIND_REFIT_BAGS; each repeats the whole
    K-fold fitting, so b of them take about b * `need_s`): the most, up to `most`, whose time fits both
    `cap_s` (what the refit may hold back) and `left_s` (what is left) in full; 1 by the rule a single run
    starts by (its estimate at most `cap_s`, and at least FIT_SHARE of it left: scripts scale to their
    limit); 0 when not even that fits. More than one only when every node of the chain is automind's recipe
    script, the scripts that read the setting."""
    from automind.search.budget import FIT_SHARE

    if need_s > cap_s or FIT_SHARE * need_s > left_s:
        return 0
    if any(n.roles != "recipes" for n in chain):
        return 1
    room = min(cap_s, left_s)
    fit = int(most) if math.isinf(room) else int(room // max(need_s, 1e-9))
    return max(1, min(int(most), fit))


def refit_seconds(chain: list[Node], n_seen: int, n_all: int) -> float:
    """About how long the refit of `chain` takes: each node's search-time run, scaled to all training rows."""
    return sum(n.timings.get("exec", 0.0) for n in chain) * n_all / max(1, n_seen)
