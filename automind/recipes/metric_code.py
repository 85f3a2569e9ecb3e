"""The metric code a generated script carries, cut from `automind/metrics.py`: one definition, two users.

A recipe script must run without automind (best_solution.py is handed to users), yet its validation
score must be the grader's score. So the composer copies the registry's own function for the task's
metric into the script, with the module-level helpers it calls (found by walking the names it uses),
annotations dropped (the script has no typing imports). `sorted_labels` and `positive_label` always
come along: the script orders classes and picks the positive class with them, as the grader does.
A custom `module:function` metric cannot be copied; the script imports automind for it instead.
"""

from __future__ import annotations

import ast
import inspect
from functools import cache

from automind import metrics

ALWAYS = ("sorted_labels", "positive_label")  # runtime.encode_target uses them


@cache
def _definitions() -> tuple[dict[str, ast.stmt], list[str]]:
    """Top-level functions and single-name assignments of metrics.py, and their order in the file."""
    tree = ast.parse(inspect.getsource(metrics))
    defs: dict[str, ast.stmt] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            defs[node.name] = node
        elif (
            isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        ):
            defs[node.targets[0].id] = node
    return defs, list(defs)


def _closure(roots: list[str], defs: dict[str, ast.stmt]) -> set[str]:
    """The roots and every top-level definition they reach through the names they use."""
    seen: set[str] = set()
    todo = [r for r in roots if r in defs]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo += [n.id for n in ast.walk(defs[name]) if isinstance(n, ast.Name) and n.id in defs]
    return seen


class _DropAnnotations(ast.NodeTransformer):
    """`x: T = v` becomes `x = v`; arguments and returns lose their annotations."""

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.stmt:
        if node.value is None:
            return ast.Pass()
        return ast.copy_location(ast.Assign(targets=[node.target], value=node.value), node)


def _unannotated(node: ast.stmt) -> ast.stmt:
    node = _DropAnnotations().visit(ast.parse(ast.unparse(node)).body[0])  # a private copy to edit
    for sub in ast.walk(node):
        if isinstance(sub, ast.FunctionDef):
            sub.returns = None
            for arg in [*sub.args.posonlyargs, *sub.args.args, *sub.args.kwonlyargs]:
                arg.annotation = None
            for extra in (sub.args.vararg, sub.args.kwarg):
                if extra is not None:
                    extra.annotation = None
    return ast.fix_missing_locations(node)


def function_name(metric: metrics.Metric) -> str | None:
    """The registry function's name in metrics.py, or None for a custom metric defined elsewhere."""
    name = getattr(metric.fn, "__name__", "")
    return name if getattr(metrics, name, None) is metric.fn else None


def metric_block(name: str, lower_is_better: bool | None = None) -> str:
    """Python source defining METRIC_FN (the registry's function for `name`) and METRIC_DEFAULTS."""
    metric = metrics.get_metric(name, lower_is_better)
    fn = function_name(metric)
    defs, order = _definitions()
    keep = _closure([*ALWAYS, *([fn] if fn else [])], defs)
    parts = [ast.unparse(_unannotated(defs[n])) for n in order if n in keep]
    head = f"# metric {metric.name}: copied from automind/metrics.py (the grader's definition)"
    if fn is None:
        head = f"# metric {metric.name}: a custom function, imported from automind when scored"
    tail = f"METRIC_FN = {fn or 'None'}\nMETRIC_DEFAULTS = {dict(metric.params)!r}\n"
    return head + "\n\n\n" + "\n\n\n".join(parts) + "\n\n\n" + tail
