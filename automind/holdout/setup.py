"""Starting and resuming a run's holdout from the `verify` settings (what run.py calls, in two lines)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from automind.holdout.layout import HoldoutUnavailable
from automind.holdout.view import Holdout, build_holdout, load_holdout

if TYPE_CHECKING:
    from automind.config import Settings
    from automind.task import Task

FOLDER = "holdout"  # under the run folder


def start_holdout(task: Task, settings: Settings, run_dir: Path) -> tuple[Holdout | None, dict[str, Any]]:
    """(holdout, what run.json records). `auto` turns it off with the reason; `on` raises HoldoutUnavailable."""
    v = settings.verify
    if v.holdout == "off":
        return None, {
            "enabled": False,
            "reason": "verify.holdout is off: nodes are ranked by their own scores",
        }
    try:
        h = build_holdout(task, run_dir / FOLDER, fraction=v.holdout_fraction, seed=settings.search.seed,
                          min_rows=v.holdout_min_rows if v.holdout == "auto" else 0,
                          max_rows=v.holdout_max_rows)  # fmt: skip
    except HoldoutUnavailable as e:
        if v.holdout == "on":
            raise
        return None, {"enabled": False, "reason": str(e)}
    return h, h.describe()


def resume_holdout(run_dir: Path, recorded: dict[str, Any] | None) -> Holdout | None:
    """The split a run started with; none for runs made before holdouts existed or with it off."""
    if not recorded or not recorded.get("enabled"):
        return None
    return load_holdout(run_dir / FOLDER)
