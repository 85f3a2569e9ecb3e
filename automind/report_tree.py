"""Layout of the search tree for the report: positions computed here, drawn by the template as inline SVG.

A tidy top-down layout: leaves take consecutive columns in depth-first order, a parent sits centred over
its children, depth gives the row. Each draft starts its own tree, side by side.
"""

from __future__ import annotations

from dataclasses import dataclass

from automind.search.journal import Journal, Node

DX, DY, MARGIN, RADIUS = 46, 74, 30, 14


@dataclass(frozen=True)
class PlacedNode:
    id: str
    x: float
    y: float
    status: str  # valid | buggy | dead
    action: str
    label: str  # the score under the circle ("" when none)
    tooltip: str
    is_best: bool
    safety_net: bool


@dataclass(frozen=True)
class Edge:
    x1: float
    y1: float
    x2: float
    y2: float
    action: str  # the child's action: improve, debug, ...


@dataclass(frozen=True)
class TreeLayout:
    width: float
    height: float
    radius: float
    nodes: list[PlacedNode]
    edges: list[Edge]


def _tooltip(n: Node, label: str) -> str:
    parts = [f"node {n.id}: {n.action}" + (f" of {n.parent_id}" if n.parent_id is not None else "")]
    parts.append(n.status + (f", score {label}" if label else ""))
    if n.trick is not None:
        parts.append(f"trick: {n.trick.title}")
    if n.safety_net:
        parts.append("safety net")
    if n.rerun:
        parts.append("re-run with another seed: never the best")
    return "\n".join(parts)


def layout(journal: Journal, fmt=lambda v: f"{v:.4g}") -> TreeLayout | None:
    """Positions of every node and edge; None for an empty journal."""
    if not journal.nodes:
        return None
    best = journal.best_node
    column: dict[str, float] = {}
    depth: dict[str, int] = {}
    next_leaf = 0

    def place(n: Node, d: int) -> float:
        nonlocal next_leaf
        depth[n.id] = d
        if not n.children:
            column[n.id] = next_leaf
            next_leaf += 1
        else:
            xs = [place(c, d + 1) for c in n.children]
            column[n.id] = (xs[0] + xs[-1]) / 2
        return column[n.id]

    for root in (n for n in journal.nodes if n.parent is None):
        place(root, 0)

    def xy(n: Node) -> tuple[float, float]:
        return MARGIN + column[n.id] * DX, MARGIN + depth[n.id] * DY

    nodes, edges = [], []
    for n in journal.nodes:
        if n.id not in column:  # unreachable from a root: a damaged journal; skip rather than fail
            continue
        x, y = xy(n)
        label = fmt(n.metric.value) if n.metric is not None and n.metric.value is not None else ""
        nodes.append(
            PlacedNode(n.id, x, y, n.status, n.action, label, _tooltip(n, label), n is best, n.safety_net)
        )
        if n.parent is not None and n.parent.id in column:
            px, py = xy(n.parent)
            edges.append(Edge(px, py + RADIUS, x, y - RADIUS, n.action))
    width = 2 * MARGIN + max(next_leaf - 1, 0) * DX
    height = 2 * MARGIN + max(depth.values()) * DY + 14  # room for the score under the lowest row
    return TreeLayout(max(width, 120), height, RADIUS, nodes, edges)
