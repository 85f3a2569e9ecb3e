"""automind's own hidden holdout: the score that ranks nodes is measured by automind, not reported by the script.

At run start the task's training rows are split once (`split`): the script's `input/` becomes a run-owned
view (`view`) whose train file lacks the holdout rows and whose test file and sample submission carry
them at the end, so scripts need no change. After each execution the submission is separated (`score`):
the test rows become the node's real submission, the holdout rows are scored with the task's metric.
`band` decides when a script's own score is too good to be true. `layout` reads what the task's files
allow and says why a layout cannot be split. docs/holdout.md is the user-facing description.
"""

from __future__ import annotations

from automind.holdout.band import Gap, gap, pooled
from automind.holdout.layout import HoldoutUnavailable, Layout, read_layout
from automind.holdout.score import HoldoutScore, Separation, separate
from automind.holdout.view import Holdout, build_holdout, load_holdout

__all__ = [
    "Gap",
    "Holdout",
    "HoldoutScore",
    "HoldoutUnavailable",
    "Layout",
    "Separation",
    "build_holdout",
    "gap",
    "load_holdout",
    "pooled",
    "read_layout",
    "separate",
]
