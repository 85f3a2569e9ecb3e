"""automind offline (recipe policy, no LLM) vs FLAML AutoML vs a trivial baseline, same wall-clock budget.

    python bench/offline_vs_automl.py TASKS_DIR --budget 120 [--out DIR] [--no-knowledge]

Every sub-folder of TASKS_DIR that loads as a task (e.g. made by `automind examples make` or
`automind task prepare`) is solved three ways, each fitted on the public train file only and graded on the
private answers with automind.grading.grade:
- automind: `automind solve TASK --llm none --time-limit BUDGET` (time to first valid = the first valid
  node's elapsed run time);
- FLAML: AutoML(time_budget=BUDGET) on the shared train/test columns (no images; free text as categories;
  RMSLE-type metrics fitted on log1p with RMSE);
- baseline: majority class / class prior / mean.
Prints a Markdown table (scores, valid, time to first valid submission) and writes results.json.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from automind.baseline import class_order, fill_submission, load_public, trivial_submission
from automind.grading import grade
from automind.metrics import get_metric
from automind.recipes.profile import profile_task
from automind.task import Task

FLAML_METRICS = {"accuracy": "accuracy", "roc_auc": "roc_auc", "log_loss": "log_loss", "f1": "f1",
                 "f1_macro": "macro_f1", "f1_micro": "micro_f1", "rmse": "rmse", "mse": "mse", "mae": "mae",
                 "r2": "r2", "rmsle": "rmse", "msle": "mse"}  # fmt: skip
LOG_METRICS = {"rmsle", "msle"}


def baseline(task: Task, out: Path) -> dict:
    t0 = time.time()
    path = trivial_submission(task, out / "baseline.csv")
    return {"t": time.time() - t0, "report": grade(task, path)}


def flaml(task: Task, budget: float, out: Path, jobs: int) -> dict:
    from flaml import AutoML

    t0 = time.time()
    prof = profile_task(task)
    if prof.image_col or prof.problem not in ("binary", "multiclass", "regression"):
        return {"t": None, "report": None, "note": "n/a (images or multi-target)"}
    train, test = load_public(task, prof)
    feats = [c for c in train.columns if c in test.columns and c not in prof.target and c != prof.id]
    X, X_test = train[feats].copy(), test[feats].copy()
    for c in feats:
        if X[c].dtype == object:
            cats = pd.Categorical(pd.concat([X[c], X_test[c]]).astype(str)).categories
            X[c] = pd.Categorical(X[c].astype(str), categories=cats)
            X_test[c] = pd.Categorical(X_test[c].astype(str), categories=cats)
    y = train[prof.target[0]]
    classes = class_order(train, prof) if prof.problem != "regression" else []
    metric = FLAML_METRICS.get(prof.metric, "auto")
    if prof.problem == "multiclass" and metric == "roc_auc":
        metric = "roc_auc_ovr"
    log_target = prof.metric in LOG_METRICS
    if log_target:
        y = np.log1p(y.clip(lower=0))
    automl = AutoML()
    automl.fit(X, y.map({c: i for i, c in enumerate(classes)}) if classes else y,
               task="regression" if prof.problem == "regression" else "classification",
               time_budget=budget, metric=metric, seed=0, n_jobs=jobs, verbose=0)  # fmt: skip
    if prof.problem == "regression":
        pred = automl.predict(X_test)
        pred = np.expm1(pred) if log_target else pred
    elif prof.kind == "label":
        pred = np.asarray(classes, dtype=object)[np.asarray(automl.predict(X_test), dtype=int)]
    else:
        pred = automl.predict_proba(X_test)
    path = fill_submission(task, prof, test, pred, classes, out / "flaml.csv")
    return {"t": time.time() - t0, "report": grade(task, path), "best": automl.best_estimator}


def automind(task: Task, budget: float, out: Path, extra: list[str]) -> dict:
    run_dir = out / "run"
    cmd = [str(Path(sys.executable).parent / "automind"), "solve", str(task.root), "--llm", "none",
           "--time-limit", str(budget), "--steps", "1000", "--out", str(run_dir), *extra]  # fmt: skip
    t0 = time.time()
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "COLUMNS": "160"})
    wall = time.time() - t0
    journal = run_dir / "journal.json"
    nodes = json.loads(journal.read_text())["nodes"] if journal.is_file() else []
    valid = [n for n in nodes if not n.get("is_buggy", True)]
    sub = run_dir / "submission.csv"
    rep = grade(task, sub) if sub.is_file() else None
    return {
        "t": wall,
        "first_valid": min((n.get("elapsed_s") or 0.0) for n in valid) if valid else None,
        "report": rep,
        "nodes": len(nodes),
        "valid_nodes": len(valid),
        "note": "" if proc.returncode == 0 else f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}",
    }


def _score(r: dict | None) -> str:
    rep = (r or {}).get("report")
    if rep is None:
        return (r or {}).get("note", "n/a") or "n/a"
    return f"{rep.score:.5g}" if rep.valid and rep.score is not None else "invalid"


def _secs(x) -> str:
    return "-" if x is None else f"{x:.0f}s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tasks_dir", type=Path)
    ap.add_argument("--budget", type=float, default=120.0, help="seconds per task for automind and for FLAML")
    ap.add_argument("--out", type=Path, default=Path("bench-out/offline_vs_automl"))
    ap.add_argument("--flaml-jobs", type=int, default=1)
    ap.add_argument("--no-knowledge", action="store_true", help="pass --no-knowledge to automind solve")
    ap.add_argument("--only", nargs="*", default=None, help="task folder names to run")
    args = ap.parse_args()
    extra = ["--no-knowledge"] if args.no_knowledge else []
    rows, dump = [], []
    for folder in sorted(p for p in args.tasks_dir.iterdir() if p.is_dir()):
        if args.only and folder.name not in args.only:
            continue
        try:
            task = Task.load(folder)
        except Exception as e:  # noqa: BLE001 - not a task folder: say so and go on
            print(f"skip {folder.name}: {str(e).splitlines()[0]}", file=sys.stderr)
            continue
        out = args.out / folder.name
        lower = get_metric(task.spec.metric.name, task.spec.metric.lower_is_better).lower_is_better
        print(f"== {folder.name}", file=sys.stderr, flush=True)
        res = {"automind": automind(task, args.budget, out, extra)}
        try:
            res["flaml"] = flaml(task, args.budget, out, args.flaml_jobs)
        except Exception as e:  # noqa: BLE001 - a FLAML failure is a result, not a crash
            res["flaml"] = {"t": None, "report": None, "note": f"error: {type(e).__name__}: {str(e)[:80]}"}
        res["baseline"] = baseline(task, out)
        a, f = res["automind"].get("report"), res["flaml"].get("report")
        if a and f and a.valid and f.valid:
            win = "tie" if a.score == f.score else ("automind" if (a.score < f.score) == lower else "FLAML")
        else:
            win = "automind" if a and a.valid else ("FLAML" if f and f.valid else "-")
        am = res["automind"]
        rows.append(
            f"| {folder.name} | {task.spec.metric.name} ({'↓' if lower else '↑'}) | {_score(am)} | "
            f"{am['valid_nodes']}/{am['nodes']} | {_secs(am.get('first_valid'))} | {_score(res['flaml'])} | "
            f"{_secs(res['flaml'].get('t'))} | {_score(res['baseline'])} | {win} |"
        )
        dump.append({k: {kk: (vv.model_dump() if hasattr(vv, "model_dump") else vv) for kk, vv in v.items()}
                     for k, v in res.items()} | {"task": folder.name})  # fmt: skip
        print(rows[-1], file=sys.stderr, flush=True)
    head = (
        f"budget {args.budget:.0f}s per task per system\n\n"
        "| task | metric | automind (offline) | valid nodes | first valid | FLAML | FLAML time | baseline | better |\n"
        "|---|---|---|---|---|---|---|---|---|"
    )
    print("\n".join([head, *rows]))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(dump, indent=1, default=str))


if __name__ == "__main__":
    main()
