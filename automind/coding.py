"""Self-adaptive coding: write a plan's code in one pass, or step by step when the plan is complex.

One-pass: the whole script, `ast.parse`, execute, repair with the error and retry. Stepwise (drafts
only): decompose the plan, write and run each step in a persistent interpreter, repair a failing step
(the repair sees the earlier, executed steps) and retry it, abandon the plan when a step runs out of
tries, then integrate the cells into one standalone script, checked against what ran rather than run
again, so the solution trains once. Improve and debug edit the parent's script, so they go one-pass.
"""

from __future__ import annotations

import ast
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from automind.errors import RoleError
from automind.roles import Context, Plan, Roles, Step

if TYPE_CHECKING:
    from automind.config import CodingConfig
    from automind.sandbox import ExecResult, Sandbox
    from automind.search.journal import Coder

Log = Callable[[str], None]


@dataclass
class Coded:
    """What a coder produced: the final script and its last execution (None if it never ran)."""

    code: str
    result: ExecResult | None
    coder: Coder
    complexity: float | None = None
    error: str | None = None  # why the coder gave up (abandoned plan, syntax error left)
    attempts: int = 0
    steps: list[Step] = field(default_factory=list)
    log: list[str] = field(default_factory=list)


def rate_complexity(roles: Roles, ctx: Context, plan: Plan) -> float:
    """The role's 1-5 rating; anything unusable counts as 5 (the cautious, stepwise side)."""
    try:
        value = float(roles.complexity(ctx, plan))
    except (TypeError, ValueError):
        return 5.0
    if math.isnan(value):
        return 5.0
    return min(5.0, max(1.0, value))


def choose(mode: str, complexity: float | None, threshold: float) -> str:
    if mode in ("one-pass", "stepwise"):
        return mode
    return "stepwise" if complexity is not None and complexity > threshold else "one-pass"


def syntax_error(code: str) -> str | None:
    try:
        ast.parse(code)
    except SyntaxError as e:
        return f"SyntaxError: {e.msg} (line {e.lineno}): {(e.text or '').strip()}"
    return None


def failure_text(result: ExecResult) -> str:
    return result.output or f"{result.status}: {result.message}"


def one_pass(
    roles: Roles,
    ctx: Context,
    code: str,
    sandbox: Sandbox,
    tries: int,
    *,
    coder: Coder = "one-pass",
    timeout_s: float | None = None,
) -> Coded:
    """Check, run and repair `code` until it runs or the tries are spent."""
    out = Coded(code=code, result=None, coder=coder)
    for attempt in range(1, max(1, tries) + 1):
        out.attempts = attempt
        error = syntax_error(out.code)
        if error is None:
            out.result = sandbox.run_script(out.code, timeout_s=timeout_s)
            if out.result.ok:
                out.error = None
                return out
            error = failure_text(out.result)
        else:
            out.result = None
        out.error = error
        out.log.append(f"try {attempt}: {error.strip().splitlines()[-1] if error.strip() else 'failed'}")
        if out.result is not None and out.result.status == "timeout" and _past(sandbox.deadline):
            out.log.append("the run's time is up: no further try")
            break
        if attempt < tries:
            try:
                out.code = roles.repair(ctx, out.code, error)
            except RoleError as e:  # keep the code that failed, so a debug step can start from it
                out.log.append(f"repair failed: {e}")
                break
    return out


def _past(deadline: float | None) -> bool:
    """Whether a run's execution deadline (time.monotonic(); None: none) has passed."""
    return deadline is not None and time.monotonic() >= deadline


def stepwise(
    roles: Roles,
    ctx: Context,
    plan: Plan,
    sandbox: Sandbox,
    cfg: CodingConfig,
    *,
    timeout_s: float | None = None,
) -> Coded:
    """Decompose, write and run step by step in one session, then integrate the cells into a script.

    The session's run is the solution's full run: once every step has run, the integrated script is
    checked against the executed program (same statements, by AST) instead of being trained again, and
    the node's result is what the session produced (its output, submission and metric). An integration
    that changed the executed code is replaced by the executed program itself, which is what ran.
    """
    steps = list(roles.decompose(ctx, plan))[: cfg.max_steps]
    out = Coded(code="", result=None, coder="stepwise", steps=steps)
    if not steps:
        done = one_pass(roles, ctx, roles.code(ctx, plan), sandbox, cfg.one_pass_tries, timeout_s=timeout_s)
        done.log.insert(0, "decompose gave no steps; wrote the script in one pass")
        return done
    program = ""
    ran: list[ExecResult] = []  # the successful cells' results: together, the solution's run

    def abandon(reason: str, code: str) -> Coded:
        out.code, out.error = code, f"plan abandoned: {reason}"
        return out

    with sandbox.session() as session:
        for i, step in enumerate(steps):
            try:
                cell = roles.step_code(ctx, plan, steps, i, program)
            except RoleError as e:
                return abandon(f"no code for step {i + 1} '{step.title}' ({e})", program)
            for attempt in range(1, cfg.step_tries + 1):
                out.attempts += 1
                candidate = (program + "\n\n" + cell).strip("\n") + "\n"
                error = syntax_error(candidate)
                if error is None:
                    res = session.run(cell, timeout_s=timeout_s)
                    if res.ok:
                        program = candidate
                        ran.append(res)
                        out.log.append(f"step {i + 1} '{step.title}': ran on try {attempt}")
                        break
                    error = failure_text(res)
                    if not session.alive:  # a timeout or memory kill loses the state: rebuild it
                        session.restart()
                        if program:
                            rebuilt = session.run(program, timeout_s=timeout_s)
                            if not rebuilt.ok:
                                why = f"the session could not be rebuilt after step {i + 1} '{step.title}' died: "
                                return abandon(why + _last_line(failure_text(rebuilt)), candidate)
                            ran = [rebuilt]
                out.log.append(f"step {i + 1} '{step.title}' try {attempt}: {_last_line(error)}")
                if attempt == cfg.step_tries:
                    why = f"step {i + 1} '{step.title}' still failed after {cfg.step_tries} tries: "
                    return abandon(why + _last_line(error), candidate)
                try:
                    cell = roles.repair(ctx, cell, error, step, program=program)
                except RoleError as e:
                    return abandon(f"repair of step {i + 1} '{step.title}' failed ({e})", candidate)
    try:
        script = roles.integrate(ctx, plan, program)
    except RoleError as e:
        script = ""
        out.log.append(f"integration failed ({e}); the script is the executed program")
    problem = integration_problem(script, program) if script else "no integrated script"
    if problem is not None:
        if script:
            out.log.append(f"integration not used ({problem}); the script is the executed program")
        script = program
    else:
        out.log.append("integration checked against the executed steps (same statements); not run again")
    out.code, out.result, out.error = script, session_result(ran, sandbox), None
    return out


INSPECTION_CALLS = {"print", "display", "head", "tail", "describe", "info", "sample", "value_counts"}


def _inspection(st: ast.stmt) -> bool:
    """A bare expression that only shows something (`print(...)`, `df.head()`, a docstring)."""
    if not isinstance(st, ast.Expr):
        return False
    v = st.value
    if isinstance(v, ast.Constant | ast.Name | ast.Attribute | ast.Subscript):
        return True
    if isinstance(v, ast.Call):
        name = v.func.id if isinstance(v.func, ast.Name) else getattr(v.func, "attr", "")
        return name in INSPECTION_CALLS
    return False


def _statements(tree: ast.Module) -> tuple[set[str], list[str]]:
    """(imports, other statements as AST dumps) of a module, `if __name__ == "__main__":` bodies
    flattened and inspection expressions left out."""
    imports: set[str] = set()
    body: list[str] = []

    def walk(stmts: list[ast.stmt]) -> None:
        for st in stmts:
            if isinstance(st, ast.If) and "__name__" in ast.unparse(st.test) and not st.orelse:
                walk(st.body)
            elif isinstance(st, ast.Import | ast.ImportFrom):
                module = getattr(st, "module", None) or ""
                imports.update(f"{module}:{a.name}:{a.asname}" for a in st.names)
            elif not _inspection(st):
                body.append(ast.dump(st))

    walk(tree.body)
    return imports, body


def integration_problem(script: str, program: str) -> str | None:
    """Why `script` is not the executed `program` (None when it is): it must parse, import everything
    the program imported and keep every other statement, in order; it may only move imports, drop
    bare expressions such as inspection prints, and put the code under a `__main__` guard."""
    try:
        got = _statements(ast.parse(script))
    except SyntaxError as e:
        return f"it does not parse: {e.msg} (line {e.lineno})"
    want = _statements(ast.parse(program))
    if not want[0] <= got[0]:
        return "it lost imports the steps used"
    if got[1] != want[1]:
        return "its statements differ from the executed steps"
    return None


def session_result(ran: list[ExecResult], sandbox: Sandbox) -> ExecResult:
    """One result for the whole session: every successful cell's output, in order, and its workspace."""
    from automind.sandbox import ExecResult

    last = ran[-1]
    return ExecResult(
        status="ok",
        exit_code=0,
        stdout="".join(r.stdout for r in ran),
        stderr="".join(r.stderr for r in ran),
        exc_type=None,
        traceback=None,
        wall_s=sum(r.wall_s for r in ran),
        peak_mem_mb=max(r.peak_mem_mb for r in ran),
        workspace=last.workspace,
        violations=[v for r in ran for v in r.violations],
        head_chars=sandbox.head_chars,
        tail_chars=sandbox.tail_chars,
    )


def _last_line(text: str) -> str:
    lines = [ln for ln in (text or "").strip().splitlines() if ln.strip()]
    return lines[-1][:200] if lines else "failed"


def write_code(
    roles: Roles,
    ctx: Context,
    plan: Plan,
    sandbox: Sandbox,
    cfg: CodingConfig,
    *,
    timeout_s: float | None = None,
) -> Coded:
    """Pick the coder (drafts: by complexity unless forced; improve/debug: one-pass) and run it."""
    if ctx.action != "draft":
        done = one_pass(roles, ctx, roles.code(ctx, plan), sandbox, cfg.one_pass_tries, timeout_s=timeout_s)
    else:
        complexity = rate_complexity(roles, ctx, plan) if cfg.mode == "adaptive" else None
        if choose(cfg.mode, complexity, cfg.complexity_threshold) == "stepwise":
            done = stepwise(roles, ctx, plan, sandbox, cfg, timeout_s=timeout_s)
        else:
            done = one_pass(
                roles, ctx, roles.code(ctx, plan), sandbox, cfg.one_pass_tries, timeout_s=timeout_s
            )
        done.complexity = complexity
    return done
