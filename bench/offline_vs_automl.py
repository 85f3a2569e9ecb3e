"""automind offline (recipe policy, no LLM) vs FLAML vs AutoGluon-Tabular vs a trivial baseline, same wall budget.

    python bench/offline_vs_automl.py TASKS_DIR --budget 120 [--make-tasks] [--out DIR] [--only NAME ...]

Every sub-folder of TASKS_DIR that loads as a task (made by `automind examples make`, `automind task prepare`,
or by `--make-tasks`, which builds the bundled examples and scikit-learn's breast-cancer, diabetes and wine
sets into TASKS_DIR) is solved by each contender in turn, each fitted on the public train file only and
graded on the private answers with automind.grading.grade:
- automind: `automind solve TASK --llm none --time-limit BUDGET` (no step limit), with an empty experience
  store of its own (OUT/TASK/experience), so each run starts as a new user's first run and none depends on
  the runs before it (the user's store is neither read nor written). Besides its final
  submission, the best node as of 25 %, 50 % and 100 % of the budget (by the score the search ranks nodes
  with, docs/holdout.md) is re-graded from its saved
  nodes/<id>/submission/ — the real answers are used here only, never inside the search;
- FLAML: AutoML(time_budget=BUDGET) on the shared train/test columns;
- AutoGluon: TabularPredictor(presets="medium_quality").fit(time_limit=BUDGET) (a bench-only dependency:
  `pip install -e .[bench]`);
- baseline: majority class / class prior / mean.
For FLAML and AutoGluon, images become their downsampled pixels as columns (automind reads them itself);
RMSLE-type metrics are fitted on log1p with RMSE. Every contender's actual wall time is recorded.
Prints Markdown tables and writes results.json; the last table says which differences are more than a few
lucky test rows (bench/paired.py: automind vs each contender, and the search's best node at 100 % vs 25 %,
with 95 % paired-bootstrap intervals over the test rows). Every AutoGluon model that failed to train is
listed at the end, with its error: AutoGluon only logs such a failure and goes on with fewer models.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

# bench/paired.py (python puts this script's folder on the path)
from paired import checkpoint_submission, pooled_row, rows_for

from automind.baseline import class_order, fill_submission, load_public, trivial_submission
from automind.grading import grade
from automind.metrics import get_metric
from automind.recipes.profile import profile_task
from automind.task import Task

FLAML_METRICS = {"accuracy": "accuracy", "roc_auc": "roc_auc", "log_loss": "log_loss", "f1": "f1",
                 "f1_macro": "macro_f1", "f1_micro": "micro_f1", "rmse": "rmse", "mse": "mse", "mae": "mae",
                 "r2": "r2", "rmsle": "rmse", "msle": "mse"}  # fmt: skip
AG_METRICS = {"accuracy": "accuracy", "balanced_accuracy": "balanced_accuracy", "roc_auc": "roc_auc",
              "log_loss": "log_loss", "f1": "f1", "f1_macro": "f1_macro", "f1_micro": "f1_micro",
              "f1_weighted": "f1_weighted", "mcc": "mcc", "rmse": "root_mean_squared_error",
              "mse": "mean_squared_error", "mae": "mean_absolute_error", "r2": "r2",
              "rmsle": "root_mean_squared_error", "msle": "mean_squared_error",
              "quadratic_weighted_kappa": "quadratic_kappa"}  # fmt: skip
LOG_METRICS = {"rmsle", "msle"}
POINTS = (0.25, 0.5, 1.0)
SKLEARN_TASKS = {  # name: (loader, metric) — small real sets shipped inside scikit-learn
    "breast-cancer": ("load_breast_cancer", "roc_auc"),
    "diabetes": ("load_diabetes", "rmse"),
    "wine": ("load_wine", "accuracy"),
}


def make_tasks(root: Path) -> None:
    """The bundled examples and the scikit-learn sets as task folders under root (existing ones are kept)."""
    import sklearn.datasets

    from automind.examples import EXAMPLES, make_example
    from automind.prepare import prepare_task

    for name in EXAMPLES:
        if not (root / name / "task.yaml").is_file():
            make_example(name, root / name, force=(root / name).exists())
    for name, (loader, metric) in SKLEARN_TASKS.items():
        if not (root / name / "task.yaml").is_file():
            data = getattr(sklearn.datasets, loader)(as_frame=True)
            df = data.frame.rename(columns={data.target.name: "target"})
            prepare_task(df, root / name, "target", metric, name=name, force=(root / name).exists())


def _features(task: Task, prof):
    """(train, test, feature columns) as the AutoML baselines see them: images as pixel columns."""
    train, test = load_public(task, prof)
    if prof.image_col:
        from automind.recipes import runtime

        runtime.CFG.clear()
        runtime.CFG.update(input=str(task.public_dir), image_col=prof.image_col, id=prof.id,
                           image_size=prof.image_size, hog=False)  # fmt: skip
        train = pd.concat([train, runtime.image_features(train, runtime.CFG)], axis=1)
        test = pd.concat([test, runtime.image_features(test, runtime.CFG)], axis=1)
    skip = {*prof.target, prof.id, prof.image_col}
    return train, test, [c for c in train.columns if c in test.columns and c not in skip]


def baseline(task: Task, out: Path) -> dict:
    t0 = time.time()
    path = trivial_submission(task, out / "baseline.csv")
    return {"t": time.time() - t0, "report": grade(task, path)}


def flaml(task: Task, budget: float, out: Path, jobs: int) -> dict:
    from flaml import AutoML

    t0 = time.time()
    prof = profile_task(task)
    if prof.problem not in ("binary", "multiclass", "regression"):
        return {"t": None, "report": None, "note": "n/a (multi-target)"}
    train, test, feats = _features(task, prof)
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


def autogluon(task: Task, budget: float, out: Path, jobs: int) -> dict:
    from autogluon.tabular import TabularPredictor

    t0 = time.time()
    prof = profile_task(task)
    if prof.problem not in ("binary", "multiclass", "regression"):
        return {"t": None, "report": None, "note": "n/a (multi-target)"}
    train, test, feats = _features(task, prof)
    label = prof.target[0]
    data = train[[*feats, label]].copy()
    log_target = prof.metric in LOG_METRICS
    if log_target:
        data[label] = np.log1p(data[label].clip(lower=0))
    classes = class_order(train, prof) if prof.problem != "regression" else []
    path = out / "autogluon"
    shutil.rmtree(path, ignore_errors=True)
    predictor = TabularPredictor(label=label, eval_metric=AG_METRICS.get(prof.metric), path=str(path),
                                 problem_type=prof.problem, verbosity=0)  # fmt: skip
    predictor.fit(data, time_limit=budget, presets="medium_quality", num_cpus=jobs)
    X_test = test[feats]
    if prof.problem == "regression":
        pred = np.asarray(predictor.predict(X_test), dtype=float)
        pred = np.expm1(pred) if log_target else pred
    elif prof.kind == "label":
        pred = np.asarray(predictor.predict(X_test), dtype=object)
    else:
        proba = predictor.predict_proba(X_test)
        pred = proba.reindex(columns=classes).fillna(0.0).to_numpy()
    best, models, failed = predictor.model_best, predictor.model_names(), model_failures(predictor)
    shutil.rmtree(path, ignore_errors=True)  # fitted models are large; the predictions are what we keep
    path_sub = fill_submission(task, prof, test, pred, classes, out / "autogluon.csv")
    return {"t": time.time() - t0, "report": grade(task, path_sub), "best": best, "models": models,
            "failed": failed}  # fmt: skip


def model_failures(predictor) -> dict[str, str]:
    """Each model AutoGluon tried and could not train, with why ("XGBoost": "AttributeError: ...").
    AutoGluon only logs a failure and goes on without the model, so a broken install (a missing fastai,
    an xgboost too old for the installed scikit-learn) silently weakens it; the bench prints these."""
    df = predictor.model_failures()
    if df is None or len(df) == 0:
        return {}
    return {str(r["model"]): f"{r['exc_type']}: {str(r['exc_str']).strip()[:100]}" for _, r in df.iterrows()}


def best_at(task: Task, run_dir: Path) -> dict[str, float | None]:
    """The graded score of the best node as of each share of the budget (its saved submission, re-graded;
    the node is picked as bench/paired.py's checkpoint_submission picks it)."""
    out: dict[str, float | None] = {}
    for share in POINTS:
        sub = checkpoint_submission(task, run_dir, share) if (run_dir / "run.json").is_file() else None
        rep = grade(task, sub) if sub is not None else None
        out[f"{int(share * 100)}%"] = rep.score if rep is not None and rep.valid else None
    return out


def solve_env(store: Path) -> dict[str, str]:
    """The environment of one bench solve: an empty experience store of its own at `store`. Runs that share
    the user's store learn trick priors from the runs before them, the same task's included, so their
    scores would depend on what ran earlier and in which order."""
    shutil.rmtree(store, ignore_errors=True)
    return {**os.environ, "COLUMNS": "160", "AUTOMIND_EXPERIENCE__STORE": str(store)}


def automind(task: Task, budget: float, out: Path, extra: list[str]) -> dict:
    run_dir = out / "run"
    shutil.rmtree(run_dir, ignore_errors=True)
    cmd = [str(Path(sys.executable).parent / "automind"), "solve", str(task.root), "--llm", "none",
           "--time-limit", str(budget), "--steps", "100000", "--out", str(run_dir), *extra]  # fmt: skip
    t0 = time.time()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=solve_env(out / "experience"))
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
        "at": best_at(task, run_dir),
        "note": "" if proc.returncode == 0 else f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}",
    }


def _score(r: dict | None) -> str:
    rep = (r or {}).get("report")
    if rep is None:
        return (r or {}).get("note", "n/a") or "n/a"
    return f"{rep.score:.5g}" if rep.valid and rep.score is not None else "invalid"


def _secs(x) -> str:
    return "-" if x is None else f"{x:.0f}s"


def _value(r: dict | None) -> float | None:
    rep = (r or {}).get("report")
    return rep.score if rep is not None and rep.valid and rep.score is not None else None


def _winner(res: dict, lower: bool) -> str:
    scores = {k: _value(res[k]) for k in ("automind", "flaml", "autogluon")}
    scores = {k: v for k, v in scores.items() if v is not None}
    if not scores:
        return "-"
    best = min(scores.values()) if lower else max(scores.values())
    names = {"automind": "automind", "flaml": "FLAML", "autogluon": "AutoGluon"}
    return "/".join(names[k] for k, v in scores.items() if v == best)


def _run(fn, *args) -> dict:
    t0 = time.time()
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001 - a contender's failure is a result, not a crash
        return {"t": time.time() - t0, "report": None, "note": f"error: {type(e).__name__}: {str(e)[:80]}"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tasks_dir", type=Path)
    ap.add_argument("--budget", type=float, default=120.0, help="seconds per task for each contender")
    ap.add_argument("--out", type=Path, default=None, help="default: bench-out/offline_vs_automl/<budget>")
    ap.add_argument("--jobs", type=int, default=2, help="CPU threads for FLAML and AutoGluon")
    ap.add_argument("--no-knowledge", action="store_true", help="pass --no-knowledge to automind solve")
    ap.add_argument(
        "--make-tasks", action="store_true", help="build the bundled examples and sklearn sets first"
    )
    ap.add_argument("--only", nargs="*", default=None, help="task folder names to run")
    ap.add_argument("--skip", nargs="*", default=[], help="contenders to leave out: automind flaml autogluon")
    args = ap.parse_args()
    out_root = args.out or Path("bench-out/offline_vs_automl") / f"{args.budget:.0f}s"
    if args.make_tasks:
        args.tasks_dir.mkdir(parents=True, exist_ok=True)
        make_tasks(args.tasks_dir)
    extra = ["--no-knowledge"] if args.no_knowledge else []
    rows, time_rows, gain_rows, dump, failures = [], [], [], [], []
    # bench/paired.py's pairs of each gain column, for the pooled row
    columns: dict[str, list[tuple[Task, Path, Path]]] = {}
    for folder in sorted(p for p in args.tasks_dir.iterdir() if p.is_dir()):
        if args.only and folder.name not in args.only:
            continue
        try:
            task = Task.load(folder)
        except Exception as e:  # noqa: BLE001 - not a task folder: say so and go on
            print(f"skip {folder.name}: {str(e).splitlines()[0]}", file=sys.stderr)
            continue
        out = out_root / folder.name
        lower = get_metric(task.spec.metric.name, task.spec.metric.lower_is_better).lower_is_better
        print(f"== {folder.name}", file=sys.stderr, flush=True)
        skipped = {"t": None, "report": None, "note": "skipped"}
        res = {
            "automind": _run(automind, task, args.budget, out, extra)
            if "automind" not in args.skip
            else skipped,
            "flaml": _run(flaml, task, args.budget, out, args.jobs) if "flaml" not in args.skip else skipped,
            "autogluon": _run(autogluon, task, args.budget, out, args.jobs)
            if "autogluon" not in args.skip
            else skipped,
            "baseline": _run(baseline, task, out),
        }
        am = res["automind"]
        at = am.get("at") or {}
        rows.append(
            f"| {folder.name} | {task.spec.metric.name} ({'↓' if lower else '↑'}) | {_score(am)} | "
            f"{_score(res['flaml'])} | {_score(res['autogluon'])} | {_score(res['baseline'])} | "
            f"{_winner(res, lower)} |"
        )
        pts = " | ".join("-" if at.get(k) is None else f"{at[k]:.5g}" for k in ("25%", "50%", "100%"))
        time_rows.append(
            f"| {folder.name} | {pts} | {am.get('valid_nodes', '-')}/{am.get('nodes', '-')} | "
            f"{_secs(am.get('first_valid'))} | {_secs(am.get('t'))} | {_secs(res['flaml'].get('t'))} | "
            f"{_secs(res['autogluon'].get('t'))} |"
        )
        dump.append({k: {kk: (vv.model_dump() if hasattr(vv, "model_dump") else vv) for kk, vv in v.items()}
                     for k, v in res.items()} | {"task": folder.name})  # fmt: skip
        print(rows[-1], file=sys.stderr, flush=True)
        print(time_rows[-1], file=sys.stderr, flush=True)
        for model, why in (res["autogluon"].get("failed") or {}).items():
            failures.append(f"{folder.name}: AutoGluon's {model} failed to train ({why})")
            print(failures[-1], file=sys.stderr, flush=True)
        gains = rows_for(task, out, None, columns)
        gain_rows.append(f"| {folder.name} | " + " | ".join(gains.values()) + " |")
        out_root.mkdir(parents=True, exist_ok=True)
        (out_root / "results.json").write_text(json.dumps(dump, indent=1, default=str))
    head = (
        f"budget {args.budget:.0f}s per task per contender\n\n"
        "| task | metric | automind (offline) | FLAML | AutoGluon (medium) | baseline | best |\n"
        "|---|---|---|---|---|---|---|"
    )
    head2 = (
        "\nautomind: graded score of the best node as of 25/50/100 % of the budget; wall time of each contender\n\n"
        "| task | automind 25% | 50% | 100% | valid nodes | first valid | automind wall | FLAML wall | AutoGluon wall |\n"
        "|---|---|---|---|---|---|---|---|---|"
    )
    head3 = (
        "\nautomind's graded gain (positive: better) with a 95 % paired-bootstrap interval over the test rows; "
        "* = the interval excludes 0\n\n"
        "| task | vs FLAML | vs AutoGluon | best node at 100 % vs 25 % |\n|---|---|---|---|"
    )
    pooled = [pooled_row(columns)] if max(map(len, columns.values()), default=0) > 1 else []
    print("\n".join([head, *rows, head2, *time_rows, head3, *gain_rows, *pooled]))
    if failures:  # a contender that lost models to its install is weaker than it should be: say so
        print(
            "\ncontender models that failed to train (fix the bench environment before trusting these rows):"
        )
        print("\n".join(f"- {f}" for f in failures))


if __name__ == "__main__":
    main()
