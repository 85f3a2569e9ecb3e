"""The search policy: AutoMind's Algorithm 1 for drafts, debugging and improves, plus two rules that
bring in MLE-STAR's `refine` and `ensemble` actions (docs/search.md, "Policy").

Pure: reads the journal, draws from the given seeded RNG in a fixed order, returns a Decision. The
budget's progress is passed in as a value, so the same journal, config, RNG state and progress always
give the same decision (a replayed LLM reproduces the same tree).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from automind.config import SearchConfig
from automind.roles import Action, Trick

from .journal import Journal, Node


@dataclass
class Decision:
    action: Action
    parent: Node | None = None
    trick: Trick | None = None
    members: list[Node] = field(default_factory=list)  # ensemble: the solutions to combine, best first
    # improve: where to go instead, in order, when the roles can only re-run the parent (search/agent.py)
    alternatives: list[Decision] = field(default_factory=list)

    def describe(self) -> str:
        where = "from scratch" if self.parent is None else f"node {self.parent.id}"
        if self.action == "ensemble":
            where = "of nodes " + ", ".join(m.id for m in self.members)
        trick = f" + trick '{self.trick.title}'" if self.trick else ""
        return f"{self.action} {where}{trick}"


def pick_trick(journal: Journal, parent: Node, pool: list[Trick]) -> Trick | None:
    """The best-ranked trick not yet applied, nor found unhelpful, on the parent's lineage."""
    excluded = journal.excluded_tricks(parent)
    for trick in pool:
        if trick.id not in excluded:
            return trick
    return None


def improvable(journal: Journal, valid: list[Node]) -> list[Node]:
    """The valid solutions an improve can still change: not a re-run itself, not a copy of its parent (an
    improve whose trick changed no prediction: improving it repeats the parent's improves, as arrests at 600 s
    did four times), and no improve of it came back as a re-run (the roles had nothing new to add and only
    the seed changed). Greedy improves of an exhausted best
    node otherwise filled the rest of a run with re-runs: 28 of 72 nodes on arrests at 600 s, 64 of 105 on
    penguins, while other nodes still had tricks to try (docs/search.md, "Policy")."""
    return [n for n in valid if not n.rerun and not n.no_effect and not any(c.rerun for c in n.children)]


def ensemble_members(journal: Journal, cfg: SearchConfig) -> list[Node]:
    """The L best valid solutions, one per lineage (root draft), best first, among those that saved their
    out-of-fold and test predictions."""
    return journal.lineage_bests(lambda n: n.saved_predictions)[: cfg.ensemble.members]


def ensemble_pool(journal: Journal, cfg: SearchConfig) -> list[Node]:
    """The `ensemble.pool` best valid solutions of any lineage that saved their predictions, best first;
    copies of their parent (an improve or refine whose predictions were its parent's) are left out, since
    they add nothing a blend could weigh. Every solution the search made is a candidate here, so a longer
    search offers the blend more to choose from: AutoGluon's ensemble selection runs over every model it
    trained (docs/search.md, "Policy")."""
    if cfg.ensemble.pool < 2:
        return []
    pool = [
        n for n in journal.contenders if n.action != "ensemble" and n.saved_predictions and not n.no_effect
    ]
    return sorted(pool, key=journal.score, reverse=True)[: cfg.ensemble.pool]


def _rounds_on(journal: Journal, members: list[Node]) -> list[Node]:
    """Ensemble nodes already built (or attempted) from exactly this set of members."""
    ids = sorted(m.id for m in members)
    return [
        n
        for n in journal.nodes
        if n.action == "ensemble" and sorted((n.ensemble or {}).get("members", [])) == ids
    ]


def ensemble_rounds(journal: Journal, members: list[Node]) -> int:
    """Ensemble nodes already built from exactly this set of members."""
    return len(_rounds_on(journal, members))


def ensemble_refused(journal: Journal, members: list[Node]) -> bool:
    """Whether a round on exactly this set of members wrote no script: the role had nothing left to build
    from them (offline: every method that fits the task was tried; a three-target regression has two), so
    asking again only adds failed nodes."""
    return any(n.is_buggy and not n.code for n in _rounds_on(journal, members))


def ensemble_due(journal: Journal, cfg: SearchConfig, progress: float) -> list[Node]:
    """The members of the ensemble to build now, or [] when none is due: ensembling is on, the last share
    of the budget has begun (`ensemble.start_share`), at least two lineages have a valid solution that saved
    its predictions, and this set of members has had fewer than `ensemble.rounds` rounds, none of them
    refused by the role (`ensemble_refused`). Once those rounds are spent, the pool (`ensemble_pool`) when
    it holds more solutions than the lineages' best and has had no round yet."""
    e = cfg.ensemble
    if e.rounds == 0 or progress < e.start_share:
        return []
    members = ensemble_members(journal, cfg)
    if len(members) < 2:
        return []
    if ensemble_rounds(journal, members) < e.rounds and not ensemble_refused(journal, members):
        return members
    pool = ensemble_pool(journal, cfg)
    if len(pool) <= len(members) or ensemble_rounds(journal, pool) > 0:
        return []
    return pool


def refine_due(journal: Journal, cfg: SearchConfig) -> Node | None:
    """The node to refine now, or None: refining is on and fewer than `refine.outer` steps were taken; the
    first step comes right after the drafts, later ones when the best solution has not improved for
    `refine.patience` nodes and that many nodes were made since the last refine step."""
    r = cfg.refine
    best = journal.best_solution()
    steps = journal.refine_steps
    if r.outer == 0 or best is None or len(steps) >= r.outer:
        return None
    if not steps:
        return best
    since_best = len(journal) - 1 - journal.nodes.index(best)
    _, last = steps[-1]
    since_refine = len(journal) - int(last.get("after", 0)) - len(last.get("attempts", []))
    return best if min(since_best, since_refine) >= r.patience else None


def decide(
    journal: Journal,
    cfg: SearchConfig,
    rng: random.Random,
    pool: list[Trick] | None = None,
    progress: float = 0.0,
) -> Decision:
    """Draft until num_drafts; then debug (debug_prob) a buggy leaf; then ensemble or refine when their rules
    say so; else improve the best solution (greedy_prob) or a random valid one, among those not exhausted
    (`improvable`), applying a fresh trick with trick_prob; draft when nothing can be debugged or improved. `progress`: the share of the budget spent
    (the larger of the time and step shares), in [0, 1]."""
    if len(journal.drafts) < cfg.num_drafts:
        return Decision("draft")
    if rng.random() < cfg.debug_prob:
        debuggable = [n for n in journal.debuggable if n.debug_depth < cfg.max_debug_depth]
        if debuggable:
            return Decision("debug", rng.choice(debuggable))
    valid = [n for n in journal.valid_nodes if n.metric is not None and n.action != "ensemble"]
    if not valid:
        return Decision("draft")
    members = ensemble_due(journal, cfg, progress)
    if members:
        return Decision("ensemble", members[0], members=members)
    target = refine_due(journal, cfg)
    if target is not None:
        return Decision("refine", target)
    # Nodes an improve can still change; when none is left, any that is not a re-run (a re-run, once more).
    pool_nodes = improvable(journal, valid) or [n for n in valid if not n.rerun] or valid
    greedy = rng.random() < cfg.greedy_prob
    parent = max(pool_nodes, key=journal.score) if greedy else rng.choice(pool_nodes)
    with_trick = bool(pool) and rng.random() < cfg.trick_prob

    def improve(n: Node) -> Decision:
        return Decision("improve", n, pick_trick(journal, n, pool) if pool and with_trick else None)

    others = sorted((n for n in pool_nodes if n is not parent), key=journal.score, reverse=True)
    return replace(improve(parent), alternatives=[improve(n) for n in others])


def fallback_ensemble(journal: Journal, cfg: SearchConfig) -> Decision | None:
    """When the decided step would not fit in the time left: an ensemble round, if one is possible at all
    (on, two lineages, rounds left for these members), since it costs no training."""
    if cfg.ensemble.rounds == 0:
        return None
    members = ensemble_due(journal, cfg, progress=1.0)
    return Decision("ensemble", members[0], members=members) if members else None


STUCK_DRAFTS = 3  # lineages in a row that must fail alike before the search gives up


def stuck(journal: Journal, drafts: int = STUCK_DRAFTS) -> str | None:
    """The error to stop on: every node since the `drafts`-th last draft failed with one and the same role
    error (raised before any script ran: a table the roles cannot read, a plan that cannot be made) and no
    node of the run is valid. Another draft would fail alike, so the run says why and stops instead of
    spending its budget on copies of the failure (a 60 s offline run once made 1,182 such nodes)."""
    starts = journal.drafts
    if len(starts) < drafts or journal.valid_nodes:
        return None
    tail = journal.nodes[journal.nodes.index(starts[-drafts]) :]
    errors = {n.error for n in tail}
    error = errors.pop() if len(errors) == 1 else None
    if error and error.startswith("RoleError:") and all(n.is_buggy for n in tail):
        return error
    return None
