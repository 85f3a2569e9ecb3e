"""MLE-bench competitions as MLE-bench's own tooling leaves them.

`mlebench prepare -c ID --data-dir DIR` writes `DIR/ID/prepared/public/` (train/test, sample submission,
description.md) and `DIR/ID/prepared/private/` (the answers), next to `DIR/ID/raw/`. The grader name, the
answers' file name and the leaderboard live in MLE-bench's repository (`mlebench/competitions/ID/`
config.yaml and leaderboard.csv). This module finds that folder (the installed `mlebench` package, or a
clone named by MLEBENCH_REPO), maps MLE-bench's grader names to automind metrics, and picks a
leaderboard: the task folder's own, else MLE-bench's (when it is real, not a Git LFS pointer), else the
one shipped in `automind/leaderboards`.

A grader name is only a label in MLE-bench: each competition's grade.py does the scoring. `GRADERS`
maps the names whose grade.py files all score the way the automind metric does; `COMPETITIONS` lists
competitions whose grade.py differs from what their grader name says, with the reason.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

GRADERS: dict[str, str] = {
    "accuracy": "accuracy",
    "multi-class-classification-accuracy": "accuracy",
    "top-1-classification-error": "classification_error",  # 1 - accuracy
    "auc-roc": "roc_auc",  # binary; a multi-label board averages the per-column AUCs (2-d truth)
    "auroc-multi-label": "mean_columnwise_roc_auc",
    "mean-column-wise-roc-auc": "mean_columnwise_roc_auc",
    "log-loss": "log_loss",
    "multi-class-log-loss": "log_loss",  # one-hot answers against per-class probabilities
    "macro-f1-score": "f1_macro",
    "micro-f1-score": "f1_micro",  # single-label boards; multi-label ones are in COMPETITIONS
    "matthews-correlation-coefficient": "mcc",
    "quadratic-weighted-kappa": "quadratic_weighted_kappa",
    "root-mean-squared-error": "rmse",
    "root_mean_squared_error": "rmse",
    "mean-absolute-error": "mae",
    "mean-column-wise-rmsle": "mean_columnwise_rmsle",
    "pearson-correlation-coefficient": "pearson",
    "map-at-5": "map@5",
    "MAP@5": "map@5",
    "MAP@12": "map@12",
    "levenshtein-distance": "levenshtein",  # mean character edit distance per row
    "jaccard-similarity": "word_jaccard",  # mean Jaccard of lower-cased word sets
    "word-level-jaccard-score": "word_jaccard",  # the same, as sklearn's jaccard_score(average="samples")
}
MULTI_LABEL_F1 = (
    "micro-F1 over a set of labels per row (multi-label); automind's f1_micro scores one label per row"
)
COMPETITIONS: dict[str, str] = {  # competition id -> why its grader name does not describe its grading
    "stanford-covid-vaccine": "graded by column-wise RMSE over per-position targets, although its grader is "
    "named multi-class-log-loss",
    "AI4Code": "graded by a Kendall tau between predicted and true cell orders of each notebook",
    "multi-modal-gesture-recognition": "graded by edit distances summed and divided by the number of true gestures",
    "imet-2020-fgvc7": MULTI_LABEL_F1,
    "plant-pathology-2021-fgvc8": MULTI_LABEL_F1,
    "facebook-recruiting-iii-keyword-extraction": MULTI_LABEL_F1,
    "tensorflow2-question-answering": "graded by micro-F1 over long and short answer spans per question",
}


@dataclass
class MLEBenchSpec:
    """What MLE-bench says about one competition, in task.yaml terms, and where it came from."""

    spec: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)  # become task warnings
    problems: list[str] = field(default_factory=list)


def prepared_root(root: Path) -> Path | None:
    """`root/prepared` when root is a competition folder of an MLE-bench data directory."""
    prepared = root / "prepared"
    if (prepared / "public").is_dir() and not (root / "public").is_dir():
        return prepared
    return None


def competitions_dirs(environ: dict[str, str] | None = None) -> list[Path]:
    """MLE-bench's `competitions/` folders: the installed package (located, not imported) and MLEBENCH_REPO."""
    env = dict(os.environ) if environ is None else environ
    found: list[Path] = []
    try:
        spec = importlib.util.find_spec("mlebench")
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        found.append(Path(next(iter(spec.submodule_search_locations))) / "competitions")
    if env.get("MLEBENCH_REPO"):
        found.append(Path(env["MLEBENCH_REPO"]).expanduser() / "mlebench" / "competitions")
    return [d for d in found if d.is_dir()]


def find_competition(comp_id: str, environ: dict[str, str] | None = None) -> Path | None:
    for d in competitions_dirs(environ):
        if (d / comp_id / "config.yaml").is_file():
            return d / comp_id
    return None


def metric_for(grader: str, comp_id: str) -> tuple[str | None, str]:
    """(automind metric, "") for a supported grader; (None, why not) otherwise."""
    if comp_id in COMPETITIONS:
        return None, COMPETITIONS[comp_id]
    if grader in GRADERS:
        return GRADERS[grader], ""
    return None, f"automind has no metric that scores like MLE-bench's '{grader}' grader"


def leaderboard_for(root: Path, comp_id: str, comp_dir: Path | None) -> tuple[Path | None, str]:
    """The leaderboard to use and a note on where it came from (the task folder's own is used as is)."""
    from automind.leaderboards import bundled, is_lfs_pointer

    if (root / "leaderboard.csv").is_file():
        return None, ""
    note = ""
    if comp_dir is not None and (comp_dir / "leaderboard.csv").is_file():
        lb = comp_dir / "leaderboard.csv"
        if not is_lfs_pointer(lb):
            return lb, f"leaderboard from MLE-bench ({lb})"
        note = f"{lb} is a Git LFS pointer (run `git lfs pull` in the MLE-bench clone)"
    shipped = bundled(comp_id)
    if shipped is not None:
        return shipped, "leaderboard shipped with automind" + (f" ({note})" if note else "")
    return None, note


def task_spec(root: Path, environ: dict[str, str] | None = None) -> MLEBenchSpec:
    """A task.yaml mapping for an MLE-bench competition folder, or an empty result when it is not one."""
    prepared = prepared_root(root)
    comp_id = root.name
    cfg_path = root / "config.yaml"
    comp_dir = None
    if not cfg_path.is_file():
        comp_dir = find_competition(comp_id, environ)
        cfg_path = comp_dir / "config.yaml" if comp_dir is not None else cfg_path
    if not cfg_path.is_file():
        if prepared is None:
            return MLEBenchSpec()
        return MLEBenchSpec(problems=[_no_config(root, comp_id)])
    try:
        cfg = yaml.safe_load(cfg_path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as e:
        return MLEBenchSpec(problems=[f"{cfg_path}: not valid YAML ({e})."])
    except UnicodeDecodeError as e:
        return MLEBenchSpec(problems=[f"{cfg_path}: not UTF-8 text (byte {e.start}). Save it as UTF-8."])
    grader = (cfg.get("grader") or {}).get("name") if isinstance(cfg, dict) else None
    if not grader:
        if prepared is None:
            return MLEBenchSpec()
        return MLEBenchSpec(problems=[f"{cfg_path}: no grader.name; write a task.yaml in {root} instead."])
    comp_id = str(cfg.get("id") or comp_id)
    metric, why = metric_for(str(grader), comp_id)
    if metric is None:
        return MLEBenchSpec(
            problems=[
                f"{cfg_path}: MLE-bench grader '{grader}' of '{comp_id}' cannot be graded by automind: {why}. "
                f"Write a task.yaml in {root} with a custom metric (`metric: {{name: module:function, "
                "lower_is_better: ...}}`, see docs/task-format.md)."
            ]
        )
    spec: dict[str, Any] = {"name": cfg.get("name") or comp_id, "slug": comp_id, "metric": {"name": metric}}
    dataset = cfg.get("dataset") or {}
    for key, where in (("answers", "private"), ("sample_submission", "public")):
        value = str(dataset.get(key) or "")
        if f"prepared/{where}/" in value:
            spec[key] = value.split(f"prepared/{where}/", 1)[1]
    notes = [f"no task.yaml: metric {metric} from MLE-bench grader '{grader}' ({cfg_path}); columns from the "
             "sample submission"]  # fmt: skip
    lb, lb_note = leaderboard_for(
        root, comp_id, comp_dir or (cfg_path.parent if cfg_path.parent != root else None)
    )
    if lb is not None:
        spec["leaderboard"] = str(lb)
    if lb_note:
        notes.append(lb_note)
    return MLEBenchSpec(spec, notes)


def _no_config(root: Path, comp_id: str) -> str:
    return (
        f"{root}: an MLE-bench competition folder (prepared/public/), but MLE-bench's config for '{comp_id}' "
        "was not found. Install MLE-bench (`pip install -e mle-bench`), or set MLEBENCH_REPO to a clone of "
        f"it, or copy mlebench/competitions/{comp_id}/config.yaml into {root}, or write a task.yaml there."
    )
