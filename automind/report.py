"""`automind report RUN_DIR`: one self-contained HTML page about a run (no external JS or CSS).

The page shows the solution tree (click a node for its plan, code and output), the best score over
time as an inline SVG, the tricks tried and whether they helped, safety-net nodes, token/cost usage
per role and every fallback the run took.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from automind.atomic import write_text
from automind.search.journal import Journal, Node

W, H, PAD = 640, 240, 40


def _fmt(v: float | None) -> str:
    return "-" if v is None else f"{v:.5g}"


def _node_view(n: Node, journal: Journal) -> dict[str, Any]:
    return {
        "id": n.id,
        "action": n.action,
        "status": n.status,
        "metric": _fmt(n.metric.value if n.metric else None),
        "is_best": journal.best_node is n,
        "safety_net": n.safety_net,
        "trick": n.trick.title if n.trick else None,
        "trick_helpful": n.trick_helpful,
        "coder": n.coder or "",
        "complexity": n.complexity,
        "roles": n.roles,
        "plan": n.plan,
        "code": n.code,
        "output": n.output,
        "error": n.error,
        "overfit": n.overfit_flag,
        "analysis": n.error_analysis,
        "seconds": n.timings.get("total"),
        "search_badge": search_badge(n),
        "tokens": sum(v for v in n.usage.values() if isinstance(v, int | float)),
        "children": [_node_view(c, journal) for c in n.children],
        **_trust_view(n),
    }


# --- trustworthy scores (docs/holdout.md): kept apart so the page's layout can change around them -----------


def _trust_view(n: Node) -> dict[str, Any]:
    """A node's two scores, its leak verdict with line numbers, and the input files it read."""
    leak = n.leakage
    return {
        "holdout": _fmt(n.holdout_metric),
        "holdout_se": None if n.holdout_se is None else f"{n.holdout_se:.2g}",
        "reported": _fmt(n.reported_metric),
        "leak_status": leak.status,
        "flagged": leak.flagged,
        "leak_reasons": [
            (f"line {r.line}: " if r.line else "") + f"{r.kind} ({r.source}): {r.message}"
            for r in leak.reasons
        ],
        "fixed_by": leak.fixed_by,
        "gap": None if leak.gap is None else f"{leak.gap:.4g}",
        "band": None if leak.band is None else f"{leak.band:.4g}",
        "inputs_read": n.inputs_read,
        "unused_inputs": n.unused_inputs,
    }


def trust(info: dict[str, Any], journal: Journal) -> dict[str, Any]:
    """The run's holdout (or why it had none), the final refit, and one row per valid node."""
    rows = [
        {"id": n.id, "action": n.action, **_trust_view(n)}
        for n in journal.nodes
        if not n.is_buggy or n.reported_metric is not None
    ]
    return {
        "holdout": info.get("holdout") or {"enabled": False, "reason": "the run predates holdouts"},
        "refit": info.get("refit"),
        "rows": rows,
        "flagged": sum(1 for n in journal.valid_nodes if n.leakage.flagged),
    }


def chart(journal: Journal) -> dict[str, Any] | None:
    """Coordinates for an SVG of every valid score (dots) and the best-so-far step line over run time."""
    valid = [n for n in journal.valid_nodes if n.metric is not None and n.metric.value is not None]
    if not valid:
        return None
    best = journal.best_over_time()
    xs = [n.elapsed_s for n in valid]
    ys = [n.metric.value for n in valid]
    x0, x1 = 0.0, max(xs) or 1.0
    y0, y1 = min(ys), max(ys)
    if y0 == y1:
        y0, y1 = y0 - 0.5 * (abs(y0) or 1), y1 + 0.5 * (abs(y1) or 1)

    y_ticks = [(v, _fmt(v)) for v in (y0, (y0 + y1) / 2, y1)]
    left = max(PAD, 10 + 6 * max(len(t) for _, t in y_ticks))  # room for labels like 0.99455 at 10px

    def sx(x: float) -> float:
        return round(left + (x - x0) / (x1 - x0) * (W - left - PAD), 1)

    def sy(y: float) -> float:
        return round(H - PAD - (y - y0) / (y1 - y0) * (H - 2 * PAD), 1)

    line: list[str] = []
    for i, (t, v, _) in enumerate(best):
        if i:
            line.append(f"{sx(t)},{sy(best[i - 1][1])}")
        line.append(f"{sx(t)},{sy(v)}")
    line.append(f"{sx(x1)},{sy(best[-1][1])}")
    return {
        "w": W,
        "h": H,
        "pad": PAD,
        "left": left,
        "dots": [
            {"x": sx(n.elapsed_s), "y": sy(n.metric.value), "id": n.id, "v": _fmt(n.metric.value)}
            for n in valid
        ],
        "line": " ".join(line),
        "y_labels": [{"y": sy(v), "text": t} for v, t in y_ticks],
        "x_labels": [{"x": sx(t), "text": f"{t:.0f}s"} for t in (x0, (x0 + x1) / 2, x1)],
        "direction": "lower is better" if journal.direction else "higher is better",
    }


# --- refine and ensemble sections (search/refine.py, search/ensemble.py) -------------------------------


def search_badge(n: Node) -> str:
    """The tree's badge for a refine attempt or an ensemble node ("" for other nodes)."""
    if n.refine:
        return f"refine {n.refine.get('block')} #{n.refine.get('attempt')}"
    if n.ensemble:
        return "ensemble of " + ", ".join(f"#{m}" for m in n.ensemble.get("members", []))
    return ""


def _first_line(text: str, limit: int = 200) -> str:
    line = (text or "").strip().splitlines()[0] if (text or "").strip() else ""
    return line if len(line) <= limit else line[: limit - 3] + "..."


def refine_view(journal: Journal) -> list[dict[str, Any]]:
    """Each refine step: the node refined, its ablation table, the block chosen and the attempts on it."""
    ids = {n.id for n in journal.nodes}
    out = []
    for node, rec in journal.refine_steps:
        attempts = [journal.get(i) for i in rec.get("attempts", []) if i in ids]
        out.append(
            {
                "step": rec.get("step"),
                "node": node.id,
                "base_metric": _fmt(node.metric.value if node.metric else None),
                "rows": [
                    {**r, "score": _fmt(r.get("score")), "effect": _fmt(r.get("effect"))}
                    for r in rec.get("rows", [])
                ],
                "summary": rec.get("summary", ""),
                "block": rec.get("block"),
                "block_code": rec.get("block_code", ""),
                "kept": rec.get("kept"),
                "error": rec.get("error"),
                "note": rec.get("note"),
                "attempts": [
                    {
                        "attempt": (a.refine or {}).get("attempt"),
                        "id": a.id,
                        "plan": _first_line(a.summary or a.plan),
                        "metric": _fmt(a.metric.value if a.metric else None),
                        "status": a.status,
                        "error": _first_line(a.error or ""),
                    }
                    for a in attempts
                ],
            }
        )
    return out


def ensemble_view(journal: Journal) -> list[dict[str, Any]]:
    """Each ensemble node with its members (and their scores), method and weights."""
    ids = {n.id: n for n in journal.nodes}
    out = []
    for n in journal.nodes:
        if n.action != "ensemble" or not n.ensemble:
            continue
        members = [ids[m] for m in n.ensemble.get("members", []) if m in ids]
        out.append(
            {
                "id": n.id,
                "round": n.ensemble.get("round"),
                "members": [
                    {"id": m.id, "metric": _fmt(m.metric.value if m.metric else None)} for m in members
                ],
                "method": n.ensemble.get("method", ""),
                "weights": [
                    {"name": k, "weight": f"{v:.3f}"} for k, v in (n.ensemble.get("weights") or {}).items()
                ],
                "metric": _fmt(n.metric.value if n.metric else None),
                "status": n.status,
                "error": _first_line(n.error or ""),
            }
        )
    return out


def search_sections(data: dict[str, Any], env: Any) -> str:
    """The refine and ensemble sections as HTML (report_search.html.j2), placed by the main template."""
    template = env.from_string(
        resources.files("automind").joinpath("report_search.html.j2").read_text(encoding="utf-8")
    )
    return template.render(refine_steps=data["refine_steps"], ensembles=data["ensembles"])


class ReportError(ValueError):
    """A run folder cannot be read or the report cannot be written; the message says where and what to do."""


def json_or_problem(path: Path) -> tuple[Any, str | None]:
    """(parsed JSON, None) or (None, why it cannot be read), without raising."""
    try:
        return json.loads(path.read_text(encoding="utf-8")), None
    except json.JSONDecodeError as e:
        return None, f"not valid JSON, truncated or damaged ({e.msg} at line {e.lineno} column {e.colno})"
    except UnicodeDecodeError as e:
        return None, f"not UTF-8 text (byte {e.start}), damaged"
    except OSError as e:
        return None, f"cannot be read ({e.strerror})"


DAMAGED_HINT = (
    "automind writes it atomically, so the damage came from outside (a disk that filled up, a copy cut short, "
    "an edit). Restore the file from a copy; each node's code and output are still under {nodes}."
)


def load_run_files(run_dir: str | Path) -> tuple[dict[str, Any], Journal, list[str]]:
    """run.json (may be absent or damaged: then {} and a problem line) and journal.json (must be sound).

    Raises ReportError naming the file and what to do when the journal cannot be used.
    """
    run_dir = Path(run_dir)
    path = run_dir / "journal.json"
    if not path.is_file():
        raise ReportError(
            f"{run_dir}: no journal.json. Pass a run folder made by `automind solve` (see `automind runs list`)."
        )
    data, why = json_or_problem(path)
    if why is None:
        try:
            if not isinstance(data, dict):
                raise TypeError(f"expected an object, found {type(data).__name__}")
            journal = Journal.from_dict(data)
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            why = f"not a journal ({type(e).__name__}: {e})"
    if why is not None:
        raise ReportError(f"{path}: {why}. " + DAMAGED_HINT.format(nodes=run_dir / "nodes"))
    problems: list[str] = []
    info: dict[str, Any] = {}
    info_path = run_dir / "run.json"
    if info_path.is_file():
        raw, why = json_or_problem(info_path)
        if why is None and not isinstance(raw, dict):
            why = f"expected an object, found {type(raw).__name__}"
        if why is None:
            info = raw
        else:
            problems.append(f"{info_path}: {why}. " + DAMAGED_HINT.format(nodes=run_dir / "nodes"))
    else:
        problems.append(f"{info_path}: missing (it holds the run's task, config, usage and grade).")
    return info, journal, problems


def build(run_dir: Path) -> dict[str, Any]:
    """Everything the template shows, from the run folder's run.json and journal.json."""
    info, journal, problems = load_run_files(run_dir)
    best = journal.best_node
    tricks = []
    for n in journal.nodes:
        if n.trick is not None:
            parent = n.parent.metric.value if n.parent is not None and n.parent.metric else None
            tricks.append(
                {
                    "node": n.id,
                    "title": n.trick.title,
                    "source": n.trick.source,
                    "parent": _fmt(parent),
                    "metric": _fmt(n.metric.value if n.metric else None),
                    "helpful": {True: "yes", False: "no", None: "pending"}[n.trick_helpful],
                }
            )
    usage = info.get("usage") or {}
    roles = [{"role": r, **u} for r, u in sorted((usage.get("roles") or {}).items())]
    counts = {s: sum(n.status == s for n in journal.nodes) for s in ("valid", "buggy", "dead")}
    return {
        "run_dir": str(run_dir),
        "info": info,
        "task": info.get("task", {}),
        "status": info.get("status", "unknown"),
        "steps": len(journal),
        "counts": counts,
        "best": None
        if best is None
        else {"id": best.id, "metric": _fmt(best.metric.value if best.metric else None)},
        "direction": None if journal.direction is None else ("lower" if journal.direction else "higher"),
        "grade": info.get("grade"),
        "elapsed": journal.meta.get("elapsed_s", info.get("elapsed_s")),
        "tree": [_node_view(n, journal) for n in journal.nodes if n.parent is None],
        "chart": chart(journal),
        "tricks": tricks,
        "refine_steps": refine_view(journal),
        "ensembles": ensemble_view(journal),
        "safety_nets": [n.id for n in journal.nodes if n.safety_net],
        "usage_roles": roles,
        "usage_total": usage.get("total"),
        "fallbacks": [f"report made without run.json: {p}" for p in problems] + info.get("fallbacks", []),
        "knowledge": info.get("knowledge", {}),
        "config": json.dumps(info.get("config", {}), indent=1),
        "trust": trust(info, journal),
    }


def render(run_dir: str | Path) -> str:
    from jinja2 import Environment, select_autoescape
    from markupsafe import Markup

    env = Environment(autoescape=select_autoescape(default=True), trim_blocks=True, lstrip_blocks=True)
    template = env.from_string(
        resources.files("automind").joinpath("report.html.j2").read_text(encoding="utf-8")
    )
    data = build(Path(run_dir))
    return template.render(**data, search_sections=Markup(search_sections(data, env)))


def write_report(run_dir: str | Path, out: str | Path | None = None) -> Path:
    """Render and write the report (into OUT/report.html when OUT is a folder); nothing half-written is left."""
    run_dir = Path(run_dir)
    path = Path(out) if out else run_dir / "report.html"
    if path.is_dir():
        path = path / "report.html"
    html = render(run_dir)
    try:
        return write_text(path, html)
    except OSError as e:
        raise ReportError(
            f"{path}: cannot write the report ({e.strerror}). Pass --out with a writable file or folder."
        ) from e
