"""AutoMind's search policy (Algorithm 1): which node to expand next, and how.

Pure: reads the journal, draws from the given seeded RNG in a fixed order, returns a Decision.
The draws happen in the same order on every run, so a replayed LLM reproduces the same tree.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from automind.config import SearchConfig
from automind.roles import Action, Trick

from .journal import Journal, Node


@dataclass
class Decision:
    action: Action
    parent: Node | None = None
    trick: Trick | None = None

    def describe(self) -> str:
        where = "from scratch" if self.parent is None else f"node {self.parent.id}"
        trick = f" + trick '{self.trick.title}'" if self.trick else ""
        return f"{self.action} {where}{trick}"


def pick_trick(journal: Journal, parent: Node, pool: list[Trick]) -> Trick | None:
    """The best-ranked trick not yet applied, nor found unhelpful, on the parent's lineage."""
    excluded = journal.excluded_tricks(parent)
    for trick in pool:
        if trick.id not in excluded:
            return trick
    return None


def decide(
    journal: Journal, cfg: SearchConfig, rng: random.Random, pool: list[Trick] | None = None
) -> Decision:
    """Draft until num_drafts; then debug (debug_prob) a buggy leaf, else improve best (greedy_prob) or a
    random valid node, applying a fresh trick with trick_prob; draft when nothing can be debugged or improved."""
    if len(journal.drafts) < cfg.num_drafts:
        return Decision("draft")
    if rng.random() < cfg.debug_prob:
        debuggable = [n for n in journal.debuggable if n.debug_depth < cfg.max_debug_depth]
        if debuggable:
            return Decision("debug", rng.choice(debuggable))
    valid = [n for n in journal.valid_nodes if n.metric is not None]
    if not valid:
        return Decision("draft")
    parent = journal.best_node if rng.random() < cfg.greedy_prob else rng.choice(valid)
    trick = None
    if pool and rng.random() < cfg.trick_prob:
        trick = pick_trick(journal, parent, pool)
    return Decision("improve", parent, trick)
