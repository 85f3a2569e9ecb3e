"""Which earlier nodes a script reads, and how to point it at their refits (the final refit of a blend).

An ensemble (or an improve that blends its siblings) reads earlier nodes' saved predictions from
RUN/nodes/<id>/..., made without the holdout rows. Its final refit on all training rows first re-runs
each of those nodes on all rows, keeps their outputs under RUN/nodes/<id>/refit/, and then runs the
blend with every such path pointed at the refit folder (docs/holdout.md, "The final refit").
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from automind.search.journal import Journal, Node


_WEIGHT_KEY = re.compile(r"node (\d+)(?:/|$)")  # an offline ensemble's weight: "node 4" or "node 4/lgbm"
_MEMBER_KEY = re.compile(r"node (\d+)(?:/(.+))?")  # ... with the portfolio model it names, if any


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


def _portfolio(run_dir: Path, node: Node) -> tuple[set[str], dict[str, float]] | None:
    """The models a recipe script's own ensemble gave weight, and each model's seconds, from its
    submission/members.json (written by the recipe runtime); None when the file, its weights or its times
    are missing or unreadable, or the script is not automind's recipe (an LLM's file is not trusted)."""
    if node.roles != "recipes":
        return None
    try:
        data = json.loads((run_dir / "nodes" / node.id / "submission" / "members.json").read_text("utf-8"))
        weights = {str(k): float(v) for k, v in data["weights"].items()}
        seconds = {str(k): float(v) for k, v in data["seconds"].items()}
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    used = {k for k, w in weights.items() if w}
    return (used, seconds) if used and used <= set(seconds) else None


def refit_members(run_dir: Path, best: Node | None, node: Node) -> list[str] | None:
    """The portfolio models the final refit of recipe script `node` fits (AUTOMIND_REFIT_MEMBERS), None for
    all: for the best node, those its own ensemble weighted (a model with no weight changes no prediction);
    for a node the best one blends, those the blend uses, directly ("node 3/lgbm") or through the node's
    combination ("node 3", whose own weighted models). None when a needed set is not known, as for the
    members of an ensemble not built yet (`best` None: its weights may use any model)."""
    return _needed(_portfolio(run_dir, node), best, node) if best is not None else None


def _needed(own: tuple[set[str], dict[str, float]] | None, best: Node | None, node: Node) -> list[str] | None:
    """`refit_members` from the node's portfolio file as `_portfolio` read it."""
    if own is None or best is None:
        return None
    if node.id == best.id:
        return sorted(own[0])
    from automind.recipes.ensemble import ENSEMBLE_TAG

    weights = (best.ensemble or {}).get("weights") or {}
    if best.action != "ensemble" or ENSEMBLE_TAG not in best.code or not weights:
        return None
    names: set[str] = set()
    for key, w in weights.items():
        m = _MEMBER_KEY.fullmatch(str(key))
        if w and m and m.group(1) == node.id:
            names |= own[0] if m.group(2) is None else {m.group(2)}
    return sorted(names) if names and names <= set(own[1]) else None


# A recipe script keeps a margin under the limit the sandbox tells it (runtime.time_budget: 0.9 * limit - 2 s).
SCRIPT_SHARE, SCRIPT_MARGIN_S = 0.9, 2.0


def script_limit(left_s: float, own_s: float, after_s: float) -> float:
    """The sandbox limit of one script of a refit chain: what is left less the estimates of the scripts after
    it (`after_s`) when that still holds its own estimate (`own_s`); otherwise its share of what is left in
    proportion to its estimate (recipe scripts scale to their limit). Subtracting alone gave a blend's first
    member the 1 s floor, where it timed out starting up (duplicate-column-names at 60 s)."""
    share = left_s * own_s / (own_s + after_s) if own_s + after_s > 0 else left_s
    return max(left_s - after_s, share, 1.0)


def script_room(chain: list[Node], limit_s: float) -> float:
    """Seconds of work the refit of `chain` can do under a sandbox limit of `limit_s`: a recipe script's own
    allowance keeps its margin below the limit (car-prices at 90 s: an 18 s refit given 18 s planned for 14,
    and dropped a weighted model for time); another author's script may use it all."""
    if math.isinf(limit_s) or any(n.roles != "recipes" for n in chain):
        return limit_s
    return max(0.0, SCRIPT_SHARE * limit_s - SCRIPT_MARGIN_S)


def limit_for(chain: list[Node], work_s: float) -> float:
    """The sandbox limit under which the refit of `chain` can do `work_s` seconds of work (`script_room`'s
    inverse)."""
    if math.isinf(work_s) or any(n.roles != "recipes" for n in chain):
        return work_s
    return (work_s + SCRIPT_MARGIN_S) / SCRIPT_SHARE


def refit_seconds(
    chain: list[Node], n_seen: int, n_all: int, run_dir: Path | None = None, best: Node | None = None
) -> float:
    """About how long the refit of `chain` takes: each node's search-time run, less the seconds of the
    portfolio models its refit leaves out (`refit_members`, when `run_dir` is given), scaled to all
    training rows."""
    total = 0.0
    for n in chain:
        took = n.timings.get("exec", 0.0)
        own = _portfolio(run_dir, n) if run_dir is not None and best is not None else None
        if own and (names := _needed(own, best, n)):
            took -= sum(s for k, s in own[1].items() if k not in names)
        total += max(0.0, took)
    return total * n_all / max(1, n_seen)
