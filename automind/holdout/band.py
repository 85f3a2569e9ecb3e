"""When is a script's own score too good to be true? The noise band of the gap to the holdout score.

    gap  = reported - holdout         (higher is better)   or   holdout - reported   (lower is better)
           > 0 means the script claims a better score than automind measured on rows it never saw
    SE_h = bootstrap standard error of the holdout score (B <= 200 resamples of the holdout rows)
    SE   = SE_h * sqrt(1 + n_holdout / n_seen)
           the script's own estimate comes from n_seen rows; with the same per-row spread its standard error
           is SE_h * sqrt(n_holdout / n_seen), and the two estimates are independent
    suspect_leakage  <=>  gap > z * SE      (z = verify.leakage_z, default 3: a one-sided false alarm
                                             rate of about 0.13 % per node when nothing leaks)

The bootstrap needs no per-metric formula, so every registry metric (and custom ones) gets a band; an
estimate that fails (fewer than 2 usable resamples) gives an infinite band: no flag without evidence.

The same model gives the best estimate from both scores when the script's own validation can be trusted
(automind wrote it): the inverse-variance mean, whose weights 1/SE_h^2 and n_seen/(n_holdout * SE_h^2)
reduce to the row counts, so it needs no standard error at all:

    pooled = (n_holdout * holdout + n_seen * reported) / (n_holdout + n_seen)
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass
class Gap:
    gap: float  # how much better the script's own score is than the holdout score (negative: worse)
    band: float  # z standard errors of the gap
    suspect: bool

    def describe(self) -> str:
        verdict = "beyond" if self.suspect else "within"
        return f"own score better by {self.gap:.4g}, {verdict} the noise band {self.band:.4g}"


def gap(reported: float, holdout: float, se: float, *, n_holdout: int, n_seen: int, lower_is_better: bool,
        z: float) -> Gap:  # fmt: skip
    """The gap between a script's own score and its holdout score, and whether it exceeds the noise band."""
    diff = (holdout - reported) if lower_is_better else (reported - holdout)
    if not math.isfinite(se) or n_seen <= 0:
        return Gap(diff, math.inf, False)
    band = z * se * math.sqrt(1.0 + n_holdout / n_seen)
    return Gap(diff, band, diff > band and diff > 1e-12)


def pooled(reported: float, holdout: float, *, n_holdout: int, n_seen: int) -> float:
    """The inverse-variance mean of a trusted script's own score and its holdout score (module docstring):
    less noisy than either, so picking the best of many nodes by it is less of a lottery."""
    if n_holdout + n_seen <= 0:
        return holdout
    return (n_holdout * holdout + n_seen * reported) / (n_holdout + n_seen)
