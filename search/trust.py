"""How far a script's score can be trusted: its code's leak findings and the gap to its holdout score.

One function for the search agent and `automind exec`, so both flag a script the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .journal import Leakage, LeakReason, Node

if TYPE_CHECKING:
    from automind.config import VerifyConfig
    from automind.holdout import Holdout, HoldoutScore


def assess(
    code: str,
    targets: list[str],
    cfg: VerifyConfig,
    *,
    reported: float | None = None,
    score: HoldoutScore | None = None,
    holdout: Holdout | None = None,
    lower_is_better: bool | None = None,
) -> Leakage:
    """`leak` when the code check finds something, else `suspect_leakage` when the script's own score beats
    its holdout score beyond the noise band (automind.holdout.band), else `clean`."""
    from automind.holdout import gap
    from automind.leakage import check_code

    leak = Leakage()
    if cfg.code_check:
        leak.reasons += [LeakReason(f.kind, f.message, f.line, "code") for f in check_code(code, targets)]
    suspect = False
    if score is not None and holdout is not None and reported is not None and lower_is_better is not None:
        g = gap(reported, score.value, score.se, n_holdout=holdout.n_holdout, n_seen=holdout.n_seen,
                lower_is_better=lower_is_better, z=cfg.leakage_z)  # fmt: skip
        leak.gap = round(g.gap, 6)
        leak.band = None if g.band == float("inf") else round(g.band, 6)
        suspect = g.suspect
        if suspect:
            why = f"its own score {reported:.5g} vs holdout {score.value:.5g}: {g.describe()}"
            leak.reasons.append(LeakReason("score-gap", why, None, "holdout"))
    codes = any(r.source == "code" for r in leak.reasons)
    leak.status = "leak" if codes else "suspect_leakage" if suspect else "clean"
    return leak


def rank_score(
    reported: float | None, score: HoldoutScore | None, holdout: Holdout | None, *, own_validation: bool
) -> float | None:
    """The score the search ranks a node by (docs/holdout.md, "Which score ranks nodes"): the script's own
    score without a holdout; its holdout score when the script is not automind's (an LLM's validation code
    may be wrong in ways no check sees); the inverse-variance mean of both (automind.holdout.band.pooled)
    when automind wrote the validation itself (`own_validation`: a recipe script that fits on its own rows).
    Ranking many nodes by the holdout alone picks the luckiest on a few hundred rows; on 14 offline runs the
    pooled pick graded better in 6 and worse in 1 (docs/holdout.md, "Measured")."""
    from automind.holdout import pooled

    if score is None or holdout is None:
        return reported
    if not own_validation or reported is None:
        return score.value
    return pooled(reported, score.value, n_holdout=holdout.n_holdout, n_seen=holdout.n_seen)


def own_validation(node: Node, run_dir: Path) -> bool:
    """Whether the node's own score is automind's honest estimate: a recipe script, not flagged, that reads
    no other node's saved predictions (a blend scores on out-of-fold rows its members were picked by;
    docs/holdout.md, "Which score ranks nodes")."""
    from automind.refit import referenced_nodes

    return node.roles == "recipes" and not node.flagged and not referenced_nodes(node.code, run_dir)
