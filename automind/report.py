"""`automind report RUN_DIR`: one self-contained HTML page about a run (no script, style or font from outside).

The page answers what a data scientist asks of a run: the scores (each labelled by what it measures),
the best solution (highlighted, with relative links to best_solution.py and submission.csv), the search
tree (an inline SVG; click a node for its plan, scores, the diff against its parent and its output), the
best score over time, the knowledge the run retrieved (labels, every tip with its provenance, which
tricks were tried on which node and whether they helped), cost per role, fallbacks and the config.
Machine paths never reach the page (see `report_text.Scrubber`); links are relative to the page.

Adding to the report (other areas do this; nothing else needs to change):

- A section: append `Section("my_id", "Title", build)` to `SECTIONS` (or insert it where it belongs;
  the list order is the page order) and add `{% block section_my_id %}...{% endblock %}` to the block
  library at the end of report.html.j2. `build(run: RunData)` returns what the block reads as
  `data.my_id`; returning None leaves the section (and its link in the page's menu) out.
- A per-node table: append `NodeTable("Title", rows)` to `NODE_TABLES`. `rows(node, run)` returns
  `[(label, value), ...]` or None when the node has nothing to show (e.g. a field a branch adds, read
  with `getattr(node, "field", None)`); each node's detail shows the tables that have rows, in order.
- A score kind: append to `SCORE_KINDS`; it appears in the overview (for the best node) and in every
  node's "Scores" table when the node has the field.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from markupsafe import Markup

from automind.atomic import write_text
from automind.cpuload import busy_text
from automind.report_text import Scrubber, diff, highlight, kind_name, provenance, relative_links
from automind.report_tree import layout
from automind.search.journal import Journal, Node

W, H, PAD = 640, 240, 40


def _fmt(v: float | None) -> str:
    return "-" if v is None else f"{v:.5g}"


def _score(v: float | None) -> str:
    return "-" if v is None else f"{v:.6g}"


def _value(x: Any) -> float | None:
    """A score stored as a number, a MetricValue or {"value": ...}."""
    if x is None:
        return None
    if hasattr(x, "value"):
        return x.value
    if isinstance(x, dict):
        return x.get("value")
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


# --- run data ---------------------------------------------------------------------------------------


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
        what = "no such folder" if not run_dir.exists() else "no journal.json"
        raise ReportError(
            f"{run_dir}: {what}. Pass a run folder made by `automind solve` (see `automind runs list`)."
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


@dataclass
class RunData:
    """What every section and node table builds from: the run's files, read once."""

    run_dir: Path
    page_dir: Path  # the folder the HTML is written to: links are relative to it
    info: dict[str, Any]
    journal: Journal
    problems: list[str]
    knowledge: dict[str, Any]  # knowledge.json ({} when absent)
    scrub: Scrubber

    @property
    def best(self) -> Node | None:
        return self.journal.best_node

    def link(self, *parts: str) -> str | None:
        """A relative link from the page to a file of the run folder, or None when the file is absent."""
        path = self.run_dir.joinpath(*parts)
        return relative_links(self.page_dir, [path]).get(path.name)


def read_run(run_dir: Path, page_dir: Path) -> RunData:
    info, journal, problems = load_run_files(run_dir)
    knowledge: dict[str, Any] = {}
    path = run_dir / "knowledge.json"
    if path.is_file():
        raw, why = json_or_problem(path)
        if why is None and isinstance(raw, dict):
            knowledge = raw
        else:
            problems.append(f"{path}: {why or 'expected an object'}; the knowledge section is left out.")
    scrub = Scrubber.for_run(run_dir, (info.get("task") or {}).get("path"))
    return RunData(run_dir, page_dir, info, journal, problems, knowledge, scrub)


# --- scores -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreKind:
    """One kind of score a node can carry, and what it means (shown next to the value)."""

    key: str
    label: str
    meaning: str
    read: Callable[[Node, RunData], float | None]


def _graded(n: Node, run: RunData) -> float | None:
    grade = run.info.get("grade") or {}
    if n is not run.best or not grade.get("valid"):
        return None
    return _value(grade.get("score"))


def _own(n: Node, run: RunData) -> float | None:
    """The score the script reported about itself (runs before holdouts kept it as the node's metric)."""
    if n.reported_metric is not None:
        return n.reported_metric
    return n.metric.value if n.metric is not None and n.holdout_metric is None else None


SCORE_KINDS: list[ScoreKind] = [
    ScoreKind(
        "validation",
        "validation (the script's own)",
        "what the solution script measured on its own validation split and reported",
        _own,
    ),
    ScoreKind(
        "holdout",
        "holdout (automind's)",
        "the submission scored by automind on training rows the script never saw",
        lambda n, run: _value(getattr(n, "holdout_metric", None)),
    ),
    ScoreKind(
        "test",
        "test (graded)",
        "the final submission graded against the task's private answers (only the best node is graded)",
        _graded,
    ),
]


def scores(n: Node, run: RunData) -> list[dict[str, str]]:
    out = []
    for kind in SCORE_KINDS:
        v = kind.read(n, run)
        if v is not None:
            out.append({"key": kind.key, "label": kind.label, "value": _score(v), "meaning": kind.meaning})
    return out


# --- per-node tables -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NodeTable:
    """A small two-column table in a node's detail; `rows` returns None when the node has nothing for it."""

    title: str
    rows: Callable[[Node, RunData], list[tuple[str, str]] | None]


def _run_rows(n: Node, run: RunData) -> list[tuple[str, str]]:
    rows = [("roles", n.roles or "-"), ("coder", n.coder or "-")]
    if n.complexity is not None:
        rows.append(("complexity", f"{n.complexity:g}"))
    for phase in ("plan", "code", "exec", "verify", "total"):
        if phase in n.timings:
            rows.append((f"{phase} time", f"{n.timings[phase]:.1f} s"))
    tokens = {r: v for r, v in n.usage.items() if isinstance(v, int | float) and v}
    if tokens:
        rows.append(("tokens", ", ".join(f"{r} {int(v)}" for r, v in sorted(tokens.items()))))
    rows.append(("finished at", f"{n.elapsed_s:.0f} s into the run"))
    return rows


# --- trustworthy scores (docs/holdout.md) -------------------------------------------------------------


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


def _trust_rows(n: Node, run: RunData) -> list[tuple[str, str]] | None:
    v = _trust_view(n)
    if n.leakage.status == "unchecked" and not v["inputs_read"] and not n.overfit_flag:
        return None
    rows = [("leakage", v["leak_status"] + (f" (fixed by node {v['fixed_by']})" if v["fixed_by"] else ""))]
    rows += [("", why) for why in v["leak_reasons"]]
    if v["gap"] is not None:
        rows.append(("own - holdout", v["gap"] + (f" (noise band {v['band']})" if v["band"] else "")))
    if n.overfit_flag:
        rows.append(
            (
                "verifier",
                "overfit? it judged the validation untrustworthy; not best while a clean node exists",
            )
        )
    if v["inputs_read"]:
        rows.append(("input files read", ", ".join(v["inputs_read"])))
    if v["unused_inputs"]:
        rows.append(("never read", ", ".join(v["unused_inputs"])))
    return rows


# --- refine and ensemble (search/refine.py, search/ensemble.py) ------------------------------------------


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
                "ablation_note": rec.get("ablation_note"),
                "not_tried": rec.get("not_tried", []),
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


def _search_rows(n: Node, run: RunData) -> list[tuple[str, str]] | None:
    badge = search_badge(n)
    return [("step", badge)] if badge else None


def _analysis_rows(n: Node, run: RunData) -> list[tuple[str, str]] | None:
    """The debug planner's analysis of the failure it fixed (LLM mode)."""
    return [("", run.scrub.text(n.error_analysis))] if n.error_analysis else None


NODE_TABLES: list[NodeTable] = [
    NodeTable("Run", _run_rows),
    NodeTable("Search", _search_rows),
    NodeTable("Trust", _trust_rows),
    NodeTable("Error analysis", _analysis_rows),
]


# --- sections -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Section:
    """One part of the page: `{% block section_<id> %}` in the template renders `data.<id>` = build(run)."""

    id: str
    title: str
    build: Callable[[RunData], Any]


def _overview(run: RunData) -> dict[str, Any]:
    info, j = run.info, run.journal
    best = run.best
    counts = {s: sum(n.status == s for n in j.nodes) for s in ("valid", "buggy", "dead")}
    cpu = (info.get("budget") or {}).get("cpu")  # other programs' share of the CPUs (cpuload.py)
    direction = None if j.direction is None else ("lower" if j.direction else "higher")
    role_names: dict[str | None, str] = {"recipes": "offline recipe policy", "llm": "LLM roles"}
    files = [
        ("best_solution.py", "the best node's script"),
        ("submission.csv", "its predictions for the test set"),
        ("journal.json", "every node: plan, code, output, scores"),
        ("run.log", "one line per step"),
        ("run.json", "config, usage, grade, fallbacks"),
    ]
    return {
        "counts": counts,
        "steps": len(j),
        "direction": direction,
        "elapsed": j.meta.get("elapsed_s", info.get("elapsed_s")),
        "sessions": info.get("sessions"),
        "cpu": cpu,
        "busy": busy_text(cpu),
        "stop_reason": info.get("stop_reason"),
        "stopped_early": info.get("stopped_early"),
        "started_at": info.get("started_at"),
        "roles": role_names.get(info.get("roles"), info.get("roles")),
        "best_id": None if best is None else best.id,
        "scores": [] if best is None else scores(best, run),
        "unmeasured": [k for k in SCORE_KINDS if best is None or k.read(best, run) is None],
        "grade": info.get("grade"),
        "files": [{"name": f, "href": run.link(f), "what": what} for f, what in files if run.link(f)],
    }


def _best(run: RunData) -> dict[str, Any] | None:
    best = run.best
    if best is None:
        return None
    return {
        "id": best.id,
        "summary": best.summary or best.plan.split("\n", 1)[0],
        "code": highlight(run.scrub.text(best.code), line_numbers=True),
        "lines": best.code.count("\n") + 1,
        "solution": run.link("best_solution.py"),
        "submission": run.link("submission.csv"),
    }


def _node_detail(n: Node, run: RunData) -> dict[str, Any]:
    detail: dict[str, Any] = {
        "id": n.id,
        "action": n.action,
        "parent": n.parent_id,
        "children": [c.id for c in n.children],
        "status": n.status,
        "is_best": n is run.best,
        "safety_net": n.safety_net,
        "trick": n.trick.title if n.trick else None,
        "trick_source": None
        if n.trick is None
        else Markup("{}: {}").format(kind_name(n.trick.kind), provenance(run.scrub.text(n.trick.source))),
        "trick_helpful": n.trick_helpful,
        "scores": scores(n, run),
        "tables": [{"title": t.title, "rows": rows} for t in NODE_TABLES if (rows := t.rows(n, run))],
        "plan": run.scrub.text(n.plan),
        "error": run.scrub.text(n.error),
        "output": run.scrub.text(n.output),
        "code_link": run.link("nodes", n.id, "code.py"),
        "output_link": run.link("nodes", n.id, "output.txt"),
        "diff": None,
        "code": None,
    }
    if n.parent is not None:
        scrub = run.scrub.text
        detail["diff"] = diff(scrub(n.parent.code), scrub(n.code), f"node {n.parent.id}", f"node {n.id}")
    elif n.code:
        detail["code"] = highlight(run.scrub.text(n.code))
    return detail


def _tree(run: RunData) -> dict[str, Any] | None:
    placed = layout(run.journal, fmt=_fmt)
    if placed is None:
        return None
    return {
        "layout": placed,
        "nodes": [_node_detail(n, run) for n in run.journal.nodes],
        "selected": None if run.best is None else run.best.id,
        "safety_nets": [n.id for n in run.journal.nodes if n.safety_net],
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


def _fixed_by(n: Node) -> Node | None:
    """The debug descendant that made a buggy node run (the trick is judged on it), if any."""
    queue = [c for c in n.children if c.action == "debug"]
    while queue:
        c = queue.pop(0)
        if not c.is_buggy:
            return c
        queue += [g for g in c.children if g.action == "debug"]
    return None


def _tried(run: RunData) -> dict[str, list[dict[str, Any]]]:
    """trick id -> the nodes that applied it, with the parent's and the node's score and the verdict."""
    out: dict[str, list[dict[str, Any]]] = {}
    for n in run.journal.nodes:
        if n.trick is None:
            continue
        parent = n.parent.metric.value if n.parent is not None and n.parent.metric else None
        result = _fmt(n.metric.value if n.metric else None)
        if n.is_buggy and (fix := _fixed_by(n)) is not None and fix.metric is not None:
            result = f"{_fmt(fix.metric.value)} after debug node {fix.id}"
        out.setdefault(n.trick.id, []).append(
            {
                "node": n.id,
                "parent": _fmt(parent),
                "metric": result,
                "helped": "changed no prediction"
                if n.no_effect
                else {True: "helped", False: "did not help", None: "pending"}[n.trick_helpful],
            }
        )
    return out


def _trick_view(t: dict[str, Any], tried: dict[str, list[dict[str, Any]]], run: RunData) -> dict[str, Any]:
    return {
        "id": t.get("id", ""),
        "title": t.get("title", ""),
        "kind": kind_name(str(t.get("kind", ""))),
        "source": provenance(run.scrub.text(str(t.get("source", "")))),
        "stage": t.get("stage"),
        "labels": t.get("labels") or [],
        "text": run.scrub.text(str(t.get("text", ""))),
        "recipe": bool(t.get("recipe")),
        "tried": tried.get(str(t.get("id", "")), []),
    }


def experience_text(exp: dict[str, Any] | None) -> str:
    """What the experience memory started from (run.json `experience`), so a reader can tell a first run
    from one steered by earlier runs' records and trick priors; "" for runs that predate the record."""
    if not exp:
        return ""
    if not exp.get("store"):
        return "off" if exp.get("hints", "off") == "off" else f"hints {exp['hints']}"
    records = exp.get("records")
    held = (
        "an unknown number of records (the store could not be counted; see Fallbacks)"
        if records is None
        else f"{sum(records.values())} records ("
        + ", ".join(f"{n} {k}" for k, n in sorted(records.items()))
        + ")"
    )
    priors = exp.get("priors") or {}
    tail = (
        "; trick priors from earlier runs re-ordered the pool: "
        + ", ".join(f"{t} {v:+.3g}" for t, v in sorted(priors.items()))
        if priors
        else "; no trick priors"
    )
    return f"{held} in {exp['store']} when the run began{tail}"


def _knowledge(run: RunData) -> dict[str, Any]:
    from dataclasses import asdict

    summary = run.info.get("knowledge") or {}
    k = run.knowledge
    tried = _tried(run)
    tips = [_trick_view(t, tried, run) for t in k.get("tips") or []]
    papers = [_trick_view(t, tried, run) for t in k.get("papers") or []]  # LLM drafts also get these
    tip_ids = {t["id"] for t in tips}
    pool = [_trick_view(t, tried, run) for t in k.get("pool") or [] if t.get("id") not in tip_ids]
    listed = tip_ids | {t["id"] for t in pool}
    unlisted: dict[str, dict[str, Any]] = {}  # tricks on nodes that knowledge.json lacks (older runs)
    for n in run.journal.nodes:
        if n.trick is not None and n.trick.id not in listed:
            unlisted.setdefault(n.trick.id, _trick_view(asdict(n.trick), tried, run))
    rows = []
    for n in run.journal.nodes:
        if n.trick is not None:
            view = next(r for r in tried[n.trick.id] if r["node"] == n.id)
            rows.append({**view, "title": n.trick.title, "source": provenance(run.scrub.text(n.trick.source)),
                         "kind": kind_name(n.trick.kind)})  # fmt: skip
    return {
        "experience": experience_text(run.info.get("experience")),
        "disabled": bool(k.get("disabled") or summary.get("disabled")),
        "labels": k.get("labels") or summary.get("labels") or [],
        "seconds": summary.get("seconds"),
        "tips": tips,
        "papers": papers,
        "drafts": [n.id for n in run.journal.nodes if n.action == "draft"],
        "tried_rows": rows,
        "pool_tried": [t for t in pool if t["tried"]] + list(unlisted.values()),
        "pool_untried": [t for t in pool if not t["tried"]],
    }


def _copy_note(n: Any) -> str:
    if n.ensemble and n.ensemble.get("copy_of"):
        return f" (weights all on node {n.ensemble['copy_of']}: a copy of it, ranked by its score)"
    return " (changed no prediction: a copy of its parent)"


def _nodes(run: RunData) -> list[dict[str, Any]]:
    rows = []
    for n in run.journal.nodes:
        by_key = {s["key"]: s["value"] for s in scores(n, run)}
        rows.append(
            {
                "id": n.id,
                "action": n.action
                + (" (safety net)" if n.safety_net else "")
                + (" (re-run: another seed, never the best)" if n.rerun else "")
                + (_copy_note(n) if n.no_effect else ""),
                "parent": n.parent_id,
                "status": n.status,
                "is_best": n is run.best,
                "scores": [by_key.get(k.key, "") for k in SCORE_KINDS],
                "trick": n.trick.title if n.trick else "",
                "seconds": n.timings.get("total"),
                "note": run.scrub.text((n.error or "").split("\n", 1)[0])[:140],
            }
        )
    return rows


def _cost(run: RunData) -> dict[str, Any]:
    usage = run.info.get("usage") or {}
    return {
        "roles": [{"role": r, **u} for r, u in sorted((usage.get("roles") or {}).items())],
        "total": usage.get("total"),
    }


def _fallbacks(run: RunData) -> list[str]:
    own = [f"report made without run.json: {p}" for p in run.problems]
    return [run.scrub.text(f) for f in own + list(run.info.get("fallbacks") or [])]


def _config(run: RunData) -> str:
    return json.dumps(run.scrub.deep(run.info.get("config") or {}), indent=1)


SECTIONS: list[Section] = [
    Section("overview", "Overview", _overview),
    Section("best", "Best solution", _best),
    Section("tree", "Search tree", _tree),
    Section("trust", "Trustworthy scores", lambda run: trust(run.info, run.journal)),
    Section("chart", "Best score over time", lambda run: chart(run.journal)),
    Section("refine", "Refinement (ablation-guided)", lambda run: refine_view(run.journal) or None),
    Section("ensembles", "Ensembles", lambda run: ensemble_view(run.journal) or None),
    Section("knowledge", "Knowledge", _knowledge),
    Section("nodes", "All nodes", _nodes),
    Section("cost", "Cost and tokens per role", _cost),
    Section("fallbacks", "Fallbacks", _fallbacks),
    Section("config", "Configuration", _config),
]


@dataclass
class Page:
    """The template's whole input."""

    title: str
    status: str
    task: dict[str, Any]
    run_name: str
    scrub: Scrubber  # not for the template: render() applies it to the whole page
    sections: list[Section] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    score_kinds: list[ScoreKind] = field(default_factory=list)


def build(run_dir: str | Path, page_dir: str | Path | None = None) -> Page:
    """Everything the template shows; sections whose build returns None are left out."""
    run = read_run(Path(run_dir), Path(page_dir) if page_dir is not None else Path(run_dir))
    task = run.info.get("task") or {}
    page = Page(
        title=str(task.get("name") or "run"),
        status=str(run.info.get("status", "unknown")),
        task={"name": task.get("name"), "metric": task.get("metric")},
        run_name=Path(run_dir).resolve().name,
        scrub=run.scrub,
        score_kinds=SCORE_KINDS,
    )
    for s in SECTIONS:
        data = s.build(run)
        if data is not None:
            page.sections.append(s)
            page.data[s.id] = data
    return page


def render(run_dir: str | Path, page_dir: str | Path | None = None) -> str:
    from jinja2 import Environment, select_autoescape

    env = Environment(autoescape=select_autoescape(default=True), trim_blocks=True, lstrip_blocks=True)
    template = env.from_string(
        resources.files("automind").joinpath("report.html.j2").read_text(encoding="utf-8")
    )
    page = build(run_dir, page_dir)
    html = template.render(page=page, data=page.data)
    return page.scrub.known(html)  # the last guard: a known machine folder anywhere becomes its label


def report_path(run_dir: str | Path, out: str | Path | None = None) -> Path:
    """Where the report goes: OUT, OUT/report.html when OUT is a folder, else RUN_DIR/report.html."""
    path = Path(out) if out else Path(run_dir) / "report.html"
    return path / "report.html" if path.is_dir() else path


def write_report(run_dir: str | Path, out: str | Path | None = None) -> Path:
    """Render and write the report (into OUT/report.html when OUT is a folder); nothing half-written is left."""
    run_dir = Path(run_dir)
    path = report_path(run_dir, out)
    html = render(run_dir, path.parent)
    try:
        return write_text(path, html)
    except OSError as e:
        raise ReportError(
            f"{path}: cannot write the report ({e.strerror}). Pass --out with a writable file or folder."
        ) from e
