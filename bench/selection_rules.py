"""Which score should pick the best node? Every rule, on the same finished runs, graded on the real answers.

    python bench/selection_rules.py RUNS_DIR [RUNS_DIR ...] [--json OUT]

Every folder under RUNS_DIR holding a journal.json and run.json of a run with a holdout (made by
`automind solve`, or by bench/offline_vs_automl.py, whose runs are OUT/<task>/run) is read; each valid
node's saved search-time submission is graded against the task's private answers (automind.grading), and
the node each rule would have picked is compared with the best node in hindsight:
- holdout: the holdout score alone;
- own: the script's own validation score alone;
- pooled: what the search ranks by today (search/trust.rank_score): the row-weighted mean of both for a
  recipe script that reads no other node's predictions, else the holdout score;
- pooled-blends: the same, with recipe blends pooled too (their weights are cross-fitted);
- paired: pooled, but a blend's holdout score is moved onto its members' scale: less the mean of its
  members' (holdout - pooled) gaps. A blend ranked by its holdout alone competes with pooled singles on a
  different footing whenever the holdout rows are easier or harder than the K-fold rows.
Regret is the graded gap to the best node, divided by the gap between the best and the worst node of that
run, so tasks with different metrics average. The answers are used here only, never to pick.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

from automind.grading import grade
from automind.holdout import pooled
from automind.refit import referenced_nodes
from automind.search.journal import Journal, Node
from automind.search.trust import own_validation
from automind.task import Task

Rule = Callable[[Node], float]


def rules(run: Path, journal: Journal, n_holdout: int, n_seen: int) -> dict[str, Rule]:
    """Each rule: a valid node with a holdout score -> the score it would be ranked by."""

    def holdout(n: Node) -> float:
        assert n.holdout_metric is not None
        return n.holdout_metric

    def own(n: Node) -> float:
        return holdout(n) if n.reported_metric is None else n.reported_metric

    def pool_if(n: Node, trusted: bool) -> float:
        if n.reported_metric is None or not trusted:
            return holdout(n)
        return pooled(n.reported_metric, holdout(n), n_holdout=n_holdout, n_seen=n_seen)

    def pooled_rule(n: Node) -> float:  # search/trust.rank_score on a saved node
        return pool_if(n, own_validation(n, run))

    def pooled_blends(n: Node) -> float:
        return pool_if(n, n.roles == "recipes" and not n.flagged)

    def paired(n: Node) -> float:
        ids = set(referenced_nodes(n.code, run))
        members = [m for m in journal.nodes if m.id in ids and m.holdout_metric is not None]
        if not members:
            return pooled_rule(n)
        return holdout(n) - sum(holdout(m) - pooled_rule(m) for m in members) / len(members)

    return {
        "holdout": holdout,
        "own": own,
        "pooled": pooled_rule,
        "pooled-blends": pooled_blends,
        "paired": paired,
    }


def analyse(run: Path) -> dict | None:
    """Graded score of each rule's pick in one run; None for a run without a holdout or valid nodes."""
    info = json.loads((run / "run.json").read_text())
    h = info.get("holdout") or {}
    if not h.get("enabled"):
        return None
    task = Task.load(Path(info["task"]["path"]))
    sign = -1.0 if info["task"]["lower_is_better"] else 1.0
    graded: dict[str, float] = {}
    nodes: list[Node] = []
    journal = Journal.load(run / "journal.json")
    for n in journal.nodes:
        sub = run / "nodes" / n.id / "submission" / task.spec.submission_file
        if n.is_buggy or n.holdout_metric is None or not sub.is_file():
            continue
        rep = grade(task, sub)
        if rep.valid and rep.score is not None:
            graded[n.id] = rep.score
            nodes.append(n)
    if not nodes:
        return None
    best = max(sign * v for v in graded.values())
    spread = best - min(sign * v for v in graded.values()) or 1.0
    out: dict = {"run": str(run), "task": task.name, "nodes": len(nodes), "best_graded": sign * best}
    n_h, n_seen = int(h["holdout_rows"]), int(h["train_rows_seen"])
    per_node = rules(run, journal, n_h, n_seen)
    picks = {name: max(nodes, key=lambda n, key=key: sign * key(n)) for name, key in per_node.items()}
    picks.update(noise_picks(run, task, nodes, per_node["pooled"], sign, n_h, n_seen))
    for name, pick in picks.items():
        out[name] = {"node": pick.id, "graded": graded[pick.id],
                     "regret": (best - sign * graded[pick.id]) / spread}  # fmt: skip
    return out


def noise_picks(
    run: Path, task: Task, nodes: list[Node], key: Rule, sign: float, n_h: int, n_seen: int
) -> dict[str, Node]:
    """Rules that look at the noise between nodes, from their saved holdout predictions rescored on the
    same bootstrap resamples (automind.holdout.score.rescore):
    - first-within-Z: the earliest node the pooled best does not beat by more than Z paired standard errors;
    - guard-Z: walking the nodes in the order they were made, the one kept is replaced only by a node that
      beats it by more than Z paired standard errors.
    A paired standard error of two pooled scores is the holdout one times sqrt(n_h / (n_h + n_seen)) (the
    noise model of docs/holdout.md); of a holdout-only score, the holdout one."""
    import math
    import statistics

    from automind.grading import resolve_metric, truth_and_predictions, validate_submission
    from automind.holdout import load_holdout
    from automind.holdout.score import resampled_scores

    hold = load_holdout(run / "holdout")
    if hold is None:
        return {}
    score_task = hold.score_task(task)
    metric, params = resolve_metric(score_task), dict(score_task.spec.metric.params)

    def rescore(n: Node) -> list[float]:  # the same resamples for every node: index i scores the same rows
        sub = validate_submission(score_task, run / "nodes" / n.id / "holdout_predictions.csv")
        return resampled_scores(metric, *truth_and_predictions(score_task, sub, metric), params)

    def paired_se(a: list[float], b: list[float]) -> float:
        diffs = [x - y for x, y in zip(a, b, strict=False) if math.isfinite(x) and math.isfinite(y)]
        return statistics.stdev(diffs) if len(diffs) >= 2 else math.nan

    draws = {n.id: rescore(n) for n in nodes}
    share = n_h / (n_h + n_seen)

    def se(a: Node, b: Node) -> float:
        scale = [share if own_validation(n, run) else 1.0 for n in (a, b)]
        v = paired_se(draws[a.id], draws[b.id]) * math.sqrt(sum(scale) / 2)
        return 0.0 if math.isnan(v) else v

    top = max(nodes, key=lambda n: sign * key(n))
    out: dict[str, Node] = {}
    for z in (1.0, 2.0):
        out[f"first-within-{z:g}"] = next(
            n for n in nodes if sign * (key(top) - key(n)) <= z * se(n, top) + 1e-12
        )
        kept = nodes[0]
        for n in nodes[1:]:
            if sign * (key(n) - key(kept)) > z * se(n, kept):
                kept = n
        out[f"guard-{z:g}"] = kept
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", type=Path)
    ap.add_argument("--json", type=Path, default=None, help="write every run's result here")
    args = ap.parse_args()
    runs = sorted(
        {
            p.parent
            for root in args.runs
            for p in root.rglob("journal.json")
            if (p.parent / "run.json").is_file()
        }
    )
    results = [r for r in map(analyse, runs) if r is not None]
    names = list(results[0])[4:] if results else []
    print("| run | nodes | best graded | " + " | ".join(f"{k} pick (regret)" for k in names) + " |")
    print("|---|---|---|" + "---|" * len(names))
    for r in results:
        picks = " | ".join(f"{r[k]['graded']:.5g} ({r[k]['regret']:.2f})" for k in names)
        print(f"| {r['run']} | {r['nodes']} | {r['best_graded']:.5g} | {picks} |")
    if not results:
        print("no finished run with a holdout under", ", ".join(map(str, args.runs)))
        return
    print()

    def versus(k: str, other: str) -> str:
        better = sum(r[k]["regret"] < r[other]["regret"] - 1e-12 for r in results)
        worse = sum(r[k]["regret"] > r[other]["regret"] + 1e-12 for r in results)
        return f"vs {other}: better in {better}, worse in {worse}"

    for k in names:
        regret = sum(r[k]["regret"] for r in results) / len(results)
        print(f"{k}: mean regret {regret:.3f} over {len(results)} runs; "
              f"{versus(k, 'holdout')}; {versus(k, 'pooled')}")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
