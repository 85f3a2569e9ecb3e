"""Every role call goes through one guard: whatever a role raises becomes a RoleError that names it.

The search treats a RoleError as "this node is buggy, go on". A role implementation can also fail in
ways its author did not foresee (a table it cannot decode, a bug in a recipe card); such a failure
must cost one node, with the reason on it, never the whole run. `BudgetExceeded` and
`KeyboardInterrupt` pass through untouched: they stop the run on purpose.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from automind.errors import BudgetExceeded, RoleError
from automind.roles import (
    Ablation,
    AblationResult,
    AblationRun,
    Attempt,
    Block,
    Context,
    LeakCheck,
    Plan,
    Roles,
    Step,
    Verdict,
)

if TYPE_CHECKING:
    from automind.llm.client import LLM
    from automind.sandbox import ExecResult

P = ParamSpec("P")
T = TypeVar("T")


def _where(e: BaseException) -> str:
    """` (at file.py:LINE)` of the innermost frame, so an unforeseen failure can be found in the code."""
    frames = traceback.extract_tb(e.__traceback__)
    if not frames:
        return ""
    last = frames[-1]
    return f" (at {last.filename.rsplit('/', 1)[-1]}:{last.lineno})"


class GuardedRoles:
    """A `Roles` that forwards to `inner` and turns any unexpected exception into a RoleError."""

    def __init__(self, inner: Roles):
        self.inner = inner

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def llm(self) -> LLM | None:
        return self.inner.llm

    def _call(self, method: str, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return fn(*args, **kwargs)
        except (RoleError, BudgetExceeded):
            raise
        except Exception as e:  # noqa: BLE001 - the point of the guard: one node fails, not the run
            raise RoleError(
                f"the {self.name} role's {method} raised {type(e).__name__}: {e}{_where(e)}"
            ) from e

    def plan(self, ctx: Context) -> Plan:
        return self._call("plan", self.inner.plan, ctx)

    def complexity(self, ctx: Context, plan: Plan) -> float:
        return self._call("complexity", self.inner.complexity, ctx, plan)

    def code(self, ctx: Context, plan: Plan) -> str:
        return self._call("code", self.inner.code, ctx, plan)

    def decompose(self, ctx: Context, plan: Plan) -> list[Step]:
        return self._call("decompose", self.inner.decompose, ctx, plan)

    def step_code(self, ctx: Context, plan: Plan, steps: list[Step], index: int, program: str) -> str:
        return self._call("step_code", self.inner.step_code, ctx, plan, steps, index, program)

    def repair(self, ctx: Context, code: str, error: str, step: Step | None = None, program: str = "") -> str:
        extra = {"program": program} if program else {}  # roles written before `program` existed still work
        return self._call("repair", self.inner.repair, ctx, code, error, step, **extra)

    def integrate(self, ctx: Context, plan: Plan, program: str) -> str:
        return self._call("integrate", self.inner.integrate, ctx, plan, program)

    def verify(self, ctx: Context, code: str, result: ExecResult) -> Verdict:
        return self._call("verify", self.inner.verify, ctx, code, result)

    def check_leakage(self, ctx: Context, code: str, findings: list[str]) -> LeakCheck:
        return self._call("check_leakage", self.inner.check_leakage, ctx, code, findings)

    def use_data(self, ctx: Context, code: str, unused: list[str]) -> str:
        return self._call("use_data", self.inner.use_data, ctx, code, unused)

    # --- refine and ensemble ------------------------------------------------------------------------
    def ablation_scripts(self, ctx: Context, covered: list[str], refined: list[str]) -> list[AblationRun]:
        return self._call("ablation_scripts", self.inner.ablation_scripts, ctx, covered, refined)

    def summarise_ablation(self, ctx: Context, results: list[AblationResult]) -> Ablation:
        return self._call("summarise_ablation", self.inner.summarise_ablation, ctx, results)

    def extract_block(self, ctx: Context, ablation: Ablation, refined: list[str]) -> Block:
        return self._call("extract_block", self.inner.extract_block, ctx, ablation, refined)

    def plan_block(self, ctx: Context, block: Block, history: list[Attempt]) -> Plan | None:
        return self._call("plan_block", self.inner.plan_block, ctx, block, history)

    def code_block(self, ctx: Context, block: Block, plan: Plan) -> str:
        return self._call("code_block", self.inner.code_block, ctx, block, plan)

    def plan_ensemble(self, ctx: Context, members: list[dict[str, Any]], history: list[Attempt]) -> Plan:
        return self._call("plan_ensemble", self.inner.plan_ensemble, ctx, members, history)

    def code_ensemble(self, ctx: Context, plan: Plan, members: list[dict[str, Any]]) -> str:
        return self._call("code_ensemble", self.inner.code_ensemble, ctx, plan, members)


def guarded(roles: Roles) -> Roles:
    """`roles` behind the guard (once: wrapping a guarded object again changes nothing)."""
    return roles if isinstance(roles, GuardedRoles) else GuardedRoles(roles)
