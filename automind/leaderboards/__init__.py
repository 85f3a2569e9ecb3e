"""Human leaderboards: the ones shipped with automind, attaching one to a task, and saying why none is there.

`<competition>.csv.gz` files here are public Kaggle leaderboards (rank,score; provenance and licence in
SOURCE.txt). Grading reads them like any leaderboard.csv (pandas decompresses by suffix). A fetched
competition gets its bundled board copied into the task folder; `--leaderboard FILE` attaches any other
board to a loaded task in memory, without touching the user's folder.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from automind.task import Task

BUNDLED_DIR = Path(__file__).parent
Board = Literal["private", "public"]
PROVENANCE = "fetch.json"  # written by `automind task fetch`: where the task's boards came from


class LeaderboardError(ValueError):
    """A leaderboard file is unusable; the message names the file and what to do."""


def bundled(slug: str) -> Path | None:
    """The shipped leaderboard of a Kaggle competition, by its slug (None when not shipped)."""
    p = BUNDLED_DIR / f"{slug}.csv.gz"
    return p if slug and "/" not in slug and p.is_file() else None


def bundled_slugs() -> list[str]:
    return sorted(p.name.removesuffix(".csv.gz") for p in BUNDLED_DIR.glob("*.csv.gz"))


def is_lfs_pointer(path: Path) -> bool:
    """True for a Git LFS pointer (MLE-bench keeps leaderboards in LFS; a clone without `git lfs pull` has these)."""
    try:
        with path.open("rb") as f:
            return f.read(40).startswith(b"version https://git-lfs")
    except OSError:
        return False


def read_scores(path: str | Path) -> list[float]:
    """The finite scores of a leaderboard CSV (a `score` column); raises LeaderboardError when unusable."""
    import pandas as pd

    path = Path(path)
    if not path.is_file():
        raise LeaderboardError(f"{path}: leaderboard file not found. Pass a CSV with a `score` column.")
    if is_lfs_pointer(path):
        raise LeaderboardError(
            f"{path}: a Git LFS pointer, not the leaderboard. Run `git lfs pull` in the MLE-bench clone."
        )
    try:
        lb = pd.read_csv(path)
    except Exception as e:  # noqa: BLE001 - any parse failure is the file's problem
        raise LeaderboardError(f"{path}: cannot read as CSV ({e}). Expected columns rank,score.") from e
    if "score" not in lb.columns:
        raise LeaderboardError(
            f"{path}: no 'score' column (found {', '.join(map(str, lb.columns))}). Expected rank,score."
        )
    scores = [float(s) for s in pd.to_numeric(lb["score"], errors="coerce").dropna() if math.isfinite(s)]
    if not scores:
        raise LeaderboardError(f"{path}: no numeric scores in the 'score' column.")
    return scores


def attach(task: Task, path: str | Path, board: Board = "private") -> Path:
    """Use `path` as the task's leaderboard (in memory only; the task folder is left as it is)."""
    p = Path(path).expanduser().resolve()
    read_scores(p)
    if board == "public":
        task.spec.public_leaderboard = str(p)
    else:
        task.spec.leaderboard = str(p)
    return p


def attached(task: Task) -> dict[str, str]:
    """Boards attached from outside the task folder (absolute paths), to record in a run's run.json."""
    out = {}
    for board, value in (("private", task.spec.leaderboard), ("public", task.spec.public_leaderboard)):
        if value and Path(value).is_absolute():
            out[board] = value
    return out


def reattach(task: Task, recorded: dict[str, str] | None) -> Task:
    """Attach again what `attached` recorded (a resumed run grades against the same boards)."""
    for board, path in (recorded or {}).items():
        if board in ("private", "public") and Path(path).is_file():
            attach(task, path, board)  # type: ignore[arg-type]
    return task


def provenance(task: Task) -> dict[str, str]:
    """What `task fetch` recorded about the task's leaderboards ({} when the task was not fetched)."""
    p = task.root / PROVENANCE
    try:
        data = json.loads(p.read_text(encoding="utf-8")) if p.is_file() else {}
    except (OSError, json.JSONDecodeError):
        return {}
    lb = data.get("leaderboard") if isinstance(data, dict) else None
    return {str(k): str(v) for k, v in lb.items()} if isinstance(lb, dict) else {}


def missing_reason(task: Task) -> str | None:
    """Why HumanRank cannot be computed for this task (None when it has a leaderboard)."""
    if task.leaderboard_path is not None or task.public_leaderboard_path is not None:
        return None
    note = provenance(task).get("note")
    hint = "attach one with --leaderboard FILE (a CSV with a `score` column)"
    if note:
        return f"no leaderboard: {note}; {hint}"
    return f"no leaderboard: the task folder has no leaderboard.csv; {hint}"
