"""The solution tree: nodes and the journal that holds them.

Tree facts (debug depth, applied tricks, dead status, children) are derived from the parent links,
never stored twice, so they cannot drift. "Better" lives in one place: `MetricValue` orders itself so
the best value is the max, whatever the metric's direction.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import total_ordering
from pathlib import Path
from typing import Any, Literal

from automind.atomic import write_json
from automind.roles import MEMORY_LINES, Action, Trick

Status = Literal["valid", "buggy", "dead"]
LeakStatus = Literal["unchecked", "clean", "leak", "suspect_leakage"]
Coder = Literal["one-pass", "stepwise"]  # which roles wrote the code is Node.roles
JOURNAL_VERSION = 1


@total_ordering
@dataclass(frozen=True)
class MetricValue:
    """A validation score that knows its direction; `a > b` means a is better. None is worst."""

    value: float | None
    lower_is_better: bool = False

    def _key(self) -> float:
        if self.value is None or math.isnan(self.value):
            return -math.inf
        return -self.value if self.lower_is_better else self.value

    def __lt__(self, other: MetricValue) -> bool:
        return self._key() < other._key()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MetricValue) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        if self.value is None:
            return "-"
        return f"{self.value:.5g} ({'lower' if self.lower_is_better else 'higher'} is better)"


@dataclass
class LeakReason:
    """One reason a node's score is not trusted: a code finding (with its line) or the holdout gap."""

    kind: str  # fit-on-test | fit-before-split | target-stats | target-feature | test-early-stopping |
    # hardcoded-metric (automind.leakage) | llm (the LLM leakage checker) | score-gap (the holdout)
    message: str
    line: int | None = None
    source: str = "code"  # code | llm | holdout


@dataclass
class Leakage:
    """What the leak checks found on a node. `leak`: its code leaks (deterministic check or the LLM checker);
    `suspect_leakage`: its own score beats its holdout score beyond the noise band. Either one flags it."""

    status: LeakStatus = "unchecked"
    reasons: list[LeakReason] = field(default_factory=list)
    fixed_by: str | None = None  # the child node that rewrote the leaky block (LLM mode)
    gap: float | None = None  # own score minus holdout score, signed so > 0 means it claims better
    band: float | None = None  # the noise band the gap is compared with

    @property
    def flagged(self) -> bool:
        return self.status in ("leak", "suspect_leakage")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Leakage:
        if not d:
            return cls()
        reasons = [LeakReason(**{k: v for k, v in r.items() if k in LeakReason.__dataclass_fields__})
                   for r in d.get("reasons") or []]  # fmt: skip
        return cls(d.get("status", "unchecked"), reasons, d.get("fixed_by"), d.get("gap"), d.get("band"))


@dataclass(eq=False)
class Node:
    """One attempted solution. `parent`, `children` and `journal` are runtime links set by Journal.append."""

    plan: str = ""
    code: str = ""
    action: Action = "draft"
    id: str = ""
    output: str = ""
    metric: MetricValue | None = None  # None when buggy
    is_buggy: bool = True
    error: str | None = None  # why the node is buggy, in one paragraph
    summary: str = ""  # one line for "tried X -> validation Y" memory
    error_analysis: str = ""  # a debug step's analysis of its parent's failure (read by later debugs)
    verifier_summary: str = ""
    overfit_flag: bool = False  # the verifier judged the validation untrustworthy (is_overfitting)
    reported_lower_is_better: bool | None = None  # the verifier's opinion, for the majority vote
    trick: Trick | None = None  # the trick this improve applied
    trick_helpful: bool | None = None  # resolved once this node (or its debug fix) is judged
    coder: Coder | None = None
    complexity: float | None = None
    roles: str = ""  # "llm" or "recipes"
    safety_net: bool = False
    rerun: bool = False  # an improve that changed nothing but the seed: the roles had nothing new to offer
    # an improve or refine attempt whose predictions and own score equal its parent's: a copy of the parent,
    # never improved (search/policy.improvable); an improve's trick found nothing to change in this task's
    # data (search/agent.unchanged; Journal.ineffective_tricks)
    no_effect: bool = False
    # refine (docs/search.md): on a refined node, one record per refine step taken from it (the ablation's
    # component -> effect table, the block chosen, its attempts' node ids); on an attempt, which step,
    # block and attempt it is
    ablations: list[dict[str, Any]] = field(default_factory=list)
    refine: dict[str, Any] | None = None  # {"step", "block", "attempt", "base"}
    ensemble: dict[str, Any] | None = None  # {"round", "members", "weights", "method"} of an ensemble node
    outputs: list[str] = field(default_factory=list)  # files of submission/ kept under nodes/<id>/submission
    timings: dict[str, float] = field(default_factory=dict)
    usage: dict[str, Any] = field(default_factory=dict)  # tokens spent on this node, per role
    created_at: float = field(default_factory=time.time)
    elapsed_s: float = 0.0  # run time (across resumes) when the node was finished
    # trustworthy scores (docs/holdout.md): `metric` is the score the search ranks by (without a holdout the
    # script's own; with one, the holdout score, or for automind's own recipe scripts the row-weighted mean
    # of both, search/trust.rank_score); both are kept here
    holdout_metric: float | None = None  # automind's score of the node's predictions on the hidden holdout
    holdout_se: float | None = None  # its bootstrap standard error
    reported_metric: float | None = None  # the score the script reported about itself
    leakage: Leakage = field(default_factory=Leakage)
    inputs_read: list[str] = field(default_factory=list)  # input/ files the script read (sandbox guard)
    unused_inputs: list[str] = field(default_factory=list)  # provided input files it never read
    parent_id: str | None = None
    parent: Node | None = field(default=None, repr=False)
    children: list[Node] = field(default_factory=list, repr=False)
    journal: Journal | None = field(default=None, repr=False)

    @property
    def debug_depth(self) -> int:
        """How many debug steps separate this node from the last non-debug ancestor."""
        if self.action != "debug" or self.parent is None:
            return 0
        return self.parent.debug_depth + 1

    @property
    def lineage(self) -> list[Node]:
        """This node and its ancestors, nearest first."""
        out: list[Node] = []
        n: Node | None = self
        while n is not None:
            out.append(n)
            n = n.parent
        return out

    @property
    def applied_tricks(self) -> list[str]:
        """Trick ids applied on this node's lineage, oldest first."""
        return [n.trick.id for n in reversed(self.lineage) if n.trick is not None]

    @property
    def refined_blocks(self) -> list[str]:
        """Names of the blocks refine steps chose on this node's lineage, oldest first."""
        return [a["block"] for n in reversed(self.lineage) for a in n.ablations if a.get("block")]

    @property
    def ablated_components(self) -> list[str]:
        """Components earlier ablations on this lineage measured (shown to the next ablation)."""
        seen: list[str] = []
        for n in reversed(self.lineage):
            for a in n.ablations:
                seen += [r["component"] for r in a.get("rows", []) if r["component"] not in seen]
        return seen

    @property
    def saved_predictions(self) -> bool:
        """Whether the node kept what an ensemble needs: out-of-fold and test predictions and targets."""
        return {"oof.npy", "test_pred.npy", "y.npy"} <= set(self.outputs)

    @property
    def pooled(self) -> bool:
        """Whether `metric` pools the holdout and own scores (a recipe script, search/trust.rank_score) rather
        than being one of them."""
        held = self.holdout_metric
        return held is not None and self.metric is not None and held != self.metric.value

    @property
    def root(self) -> Node:
        """The draft this node's lineage started from (its lineage, for ensembles)."""
        return self.lineage[-1]

    @property
    def is_leaf(self) -> bool:
        return not self.children

    @property
    def status(self) -> Status:
        if not self.is_buggy:
            return "valid"
        limit = self.journal.max_debug_depth if self.journal is not None else None
        if limit is not None and self.debug_depth >= limit:
            return "dead"
        return "buggy"

    @property
    def stage(self) -> str:
        return "safety-net" if self.safety_net else self.action

    def to_dict(self) -> dict[str, Any]:
        d = {
            k: getattr(self, k)
            for k in self.__dataclass_fields__
            if k not in ("parent", "children", "journal", "metric", "trick", "leakage")
        }
        d["leakage"] = self.leakage.to_dict()
        d["metric"] = None if self.metric is None else self.metric.value
        d["lower_is_better"] = None if self.metric is None else self.metric.lower_is_better
        d["trick"] = None if self.trick is None else asdict(self.trick)
        # derived facts, written for readers of journal.json (ignored when loading)
        d["status"] = self.status
        d["debug_depth"] = self.debug_depth
        d["applied_tricks"] = self.applied_tricks
        d["children"] = [c.id for c in self.children]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Node:
        known = {k: v for k, v in d.items() if k in cls.__dataclass_fields__}
        for k in ("parent", "children", "journal"):
            known.pop(k, None)
        metric = d.get("metric")
        known["metric"] = None if metric is None else MetricValue(metric, bool(d.get("lower_is_better")))
        known["trick"] = None if d.get("trick") is None else Trick(**d["trick"])
        known["leakage"] = Leakage.from_dict(d.get("leakage"))
        return cls(**known)

    @property
    def flagged(self) -> bool:
        """Its score is not trusted (leaky code, a too-good self-reported score, or the LLM verifier
        judged its validation to be overfitting)."""
        return self.leakage.flagged or self.overfit_flag


@dataclass
class Journal:
    """All nodes of one run, in creation order, plus the facts the policy needs."""

    nodes: list[Node] = field(default_factory=list)
    lower_is_better: bool | None = None  # the task's own direction; None: majority of verifier reports
    max_debug_depth: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)  # run state saved with the tree (rng, elapsed, ...)

    def __len__(self) -> int:
        return len(self.nodes)

    def get(self, node_id: str) -> Node:
        for n in self.nodes:
            if n.id == node_id:
                return n
        raise KeyError(f"no node {node_id!r} in the journal")

    def append(self, node: Node) -> Node:
        """Link the node into the tree, give it an id and resolve the helpfulness of a pending trick."""
        if not node.id:
            node.id = str(len(self.nodes))
        node.journal = self
        if node.parent_id is not None and node.parent is None:
            node.parent = self.get(node.parent_id)
        if node.parent is not None:
            node.parent_id = node.parent.id
            node.parent.children.append(node)
        if node.metric is not None and self.direction is not None:
            node.metric = MetricValue(node.metric.value, self.direction)
        self.nodes.append(node)
        self._resolve_trick(node)
        return node

    def distrust(self, node: Node, reason: LeakReason) -> None:
        """Flag a node after the fact (the LLM leakage checker): its trick, if credited, is credited no more."""
        node.leakage.reasons.append(reason)
        node.leakage.status = "leak"
        origin = node
        while origin.trick is None and origin.action == "debug" and origin.parent is not None:
            origin = origin.parent
        if origin.trick is not None and not node.is_buggy:
            origin.trick_helpful = False

    def _resolve_trick(self, node: Node) -> None:
        """A trick is judged on the improve that applied it, or on the debug fix that made it run."""
        origin = node
        while origin.trick is None and origin.action == "debug" and origin.parent is not None:
            origin = origin.parent
        if origin.trick is None or origin.trick_helpful is not None:
            return
        if not node.is_buggy and node.flagged:
            origin.trick_helpful = False  # a leaky or suspect score credits nothing
        elif not node.is_buggy:
            base = origin.parent.metric if origin.parent is not None else None
            origin.trick_helpful = base is None or self.score(node) > self.score(origin.parent)
        elif node.status == "dead":
            origin.trick_helpful = False

    # --- queries -------------------------------------------------------------------------------

    @property
    def drafts(self) -> list[Node]:
        return [n for n in self.nodes if n.action == "draft"]

    @property
    def valid_nodes(self) -> list[Node]:
        return [n for n in self.nodes if not n.is_buggy]

    @property
    def buggy_nodes(self) -> list[Node]:
        return [n for n in self.nodes if n.is_buggy]

    @property
    def debuggable(self) -> list[Node]:
        """Buggy leaves still below the debug depth limit (a failed ensemble is re-planned, not debugged)."""
        return [n for n in self.nodes if n.is_leaf and n.status == "buggy" and n.action != "ensemble"]

    @property
    def refine_steps(self) -> list[tuple[Node, dict[str, Any]]]:
        """(refined node, record) for every refine step of the run, in the order they were taken."""
        steps = [(n, a) for n in self.nodes for a in n.ablations]
        return sorted(steps, key=lambda s: s[1].get("step", 0))

    def best_solution(self) -> Node | None:
        """The best valid node that is a solution of its own (not an ensemble): what improve and refine
        build on."""
        valid = [n for n in self.contenders if n.action != "ensemble"]
        return max(valid, key=self.score) if valid else None

    @property
    def contenders(self) -> list[Node]:
        """Valid scored nodes that may be picked as the best: a re-run (its parent's script with another
        seed) may not, since its score differs from its parent's only by the seed's luck; picking the
        luckier of the two would pick noise (arrests at 600 s: a re-run won the pick and graded lower)."""
        return [n for n in self.valid_nodes if n.metric is not None and not n.rerun]

    def lineage_bests(self, keep: Callable[[Node], bool] | None = None) -> list[Node]:
        """The best valid non-ensemble node of each lineage (root draft), best first; among the nodes `keep`
        accepts when given (a lineage whose best node fails it is still represented by its next best)."""
        best: dict[str, Node] = {}
        for n in self.contenders:
            if n.action == "ensemble" or (keep is not None and not keep(n)):
                continue
            key = n.root.id
            if key not in best or self.score(n) > self.score(best[key]):
                best[key] = n
        return sorted(best.values(), key=self.score, reverse=True)

    @property
    def direction(self) -> bool | None:
        """lower_is_better: the task's own direction, else the majority the verifier reported."""
        if self.lower_is_better is not None:
            return self.lower_is_better
        votes = [n.reported_lower_is_better for n in self.nodes if n.reported_lower_is_better is not None]
        if not votes:
            return None
        return sum(votes) > len(votes) / 2

    def score(self, node: Node | None) -> MetricValue:
        """The node's metric in the journal's direction (a node's own direction may be a minority vote)."""
        value = None if node is None or node.metric is None else node.metric.value
        return MetricValue(value, bool(self.direction))

    @property
    def best_node(self) -> Node | None:
        """The best valid node by its score; a flagged node (leakage or overfitting) only when no
        unflagged valid node exists (its score cannot be trusted against theirs)."""
        valid = self.contenders
        trusted = [n for n in valid if not n.flagged]
        if not valid:
            return None
        return max(trusted or valid, key=self.score)  # max() keeps the earliest among equals

    def best_over_time(self) -> list[tuple[float, float | None, str]]:
        """(elapsed seconds, best value so far, node id) each time the best improved."""
        points: list[tuple[float, float | None, str]] = []
        best: Node | None = None
        for n in self.nodes:
            if n.is_buggy or n.metric is None or n.rerun:
                continue
            ranks = (not n.flagged, self.score(n))
            if best is None or ranks > (not best.flagged, self.score(best)):
                best = n
                points.append((n.elapsed_s, n.metric.value, n.id))
        return points

    def ineffective_tricks(self, node: Node | None = None) -> set[str]:
        """Tricks that changed no prediction wherever this run applied them (run-wide: what a trick acts on is
        mostly the data, e.g. group aggregates with no grouping column; wells at 600 s applied three such
        tricks 40 times in 117 nodes, each a full training for the parent's score), and, for `node`, those
        that changed none wherever they were applied under its draft: what a trick acts on is also the
        pipeline (tuning the linear model moved a linear draft but never the portfolio, whose ensemble did
        not pick it: four copies on one 600 s run). A trick that changed something stays on offer there."""
        idle: dict[str, set[str]] = {}
        moved: dict[str, set[str]] = {}
        for n in self.nodes:
            if n.action == "improve" and n.trick is not None and not n.is_buggy and n.metric is not None:
                (idle if n.no_effect else moved).setdefault(n.trick.id, set()).add(n.root.id)
        out = {t for t in idle if t not in moved}
        if node is not None:
            out |= {t for t, roots in idle.items() if node.root.id in roots - moved.get(t, set())}
        return out

    def excluded_tricks(self, node: Node) -> set[str]:
        """Tricks not to offer when improving `node`: applied on its lineage, already tried from `node`,
        found unhelpful anywhere on the lineage, or found to change nothing (`ineffective_tricks`)."""
        out = set(node.applied_tricks) | self.ineffective_tricks(node)
        out.update(c.trick.id for c in node.children if c.trick is not None)
        for anc in node.lineage:
            for child in anc.children:
                if child.trick is not None and child.trick_helpful is False:
                    out.add(child.trick.id)
        return out

    def memory(self, limit: int | None = MEMORY_LINES) -> list[str]:
        """'tried X -> validation Y' lines for this run's nodes, newest last: the last `limit` of them, or all
        (None)."""
        lines = []
        for n in self.nodes:
            what = n.summary or (n.plan.strip().splitlines() or ["(no plan)"])[0][:160]
            if n.is_buggy or n.metric is None:
                lines.append(f"tried {what} -> failed: {(n.error or 'bug')[:160]}")
            elif n.holdout_metric is not None and n.reported_metric is not None:
                flag = f" [{n.leakage.status.replace('_', ' ')}]" if n.flagged else ""
                flag += " [changed no prediction]" if n.no_effect else ""
                lines.append(f"tried {what} -> holdout {n.holdout_metric:.6g} "
                             f"(its own validation {n.reported_metric:.6g}){flag}")  # fmt: skip
            else:
                flag = f" [{n.leakage.status.replace('_', ' ')}]" if n.flagged else ""
                flag += " [changed no prediction]" if n.no_effect else ""
                lines.append(f"tried {what} -> validation {n.metric.value:.6g}{flag}")
        return lines if limit is None else lines[-limit:]

    # --- persistence ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        best = self.best_node
        return {
            "version": JOURNAL_VERSION,
            "lower_is_better": self.lower_is_better,
            "max_debug_depth": self.max_debug_depth,
            "direction": self.direction,
            "best_node": None if best is None else best.id,
            "meta": self.meta,
            "nodes": [n.to_dict() for n in self.nodes],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Journal:
        j = cls(lower_is_better=data.get("lower_is_better"), max_debug_depth=data.get("max_debug_depth"))
        j.meta = dict(data.get("meta") or {})
        for nd in data.get("nodes", []):
            node = Node.from_dict(nd)
            helpful = node.trick_helpful
            j.append(node)
            node.trick_helpful = helpful  # keep the recorded judgement exactly
        return j

    def save(self, path: str | Path) -> None:
        """Write atomically (temp file + os.replace) so a kill mid-write never leaves a broken journal."""
        write_json(path, self.to_dict())

    @classmethod
    def load(cls, path: str | Path) -> Journal:
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            raise ValueError(f"{path}: cannot read the journal ({e}). Is this a run folder?") from e
        return cls.from_dict(data)
