"""One search step: context -> plan -> code (self-adaptive) -> verify -> a node in the journal.

With a holdout (automind.holdout) every execution sees the run's input view; its submission is separated
before the verifier looks at it, the test rows become the node's submission, and its metric is the
holdout score (or, for automind's own recipe scripts, that score pooled with the script's own:
search/trust.rank_score), with both scores kept beside it. Every valid node's code goes through the
deterministic leak check (automind.leakage) and, with a holdout, the score-gap test (automind.holdout.band);
in LLM mode `leak_check` and `data_check` turn MLE-STAR's checkers into child nodes (see docs/holdout.md).

The roles are called through `guard.guarded`, so anything a role raises arrives as a `RoleError` (LLM
error, unparsable reply, a file the recipes cannot read, a bug): the node is marked buggy with the
reason and the search goes on. `BudgetExceeded` is not a RoleError: it propagates so the run stops and
keeps its best node.
"""

from __future__ import annotations

import filecmp
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from automind.coding import Coded, one_pass, write_code
from automind.errors import RoleError
from automind.roles import Context, Plan, Roles, Trick

from .guard import guarded
from .journal import Journal, LeakReason, MetricValue, Node
from .policy import Decision
from .trust import own_validation, rank_score
from .verifier import verify

if TYPE_CHECKING:
    from automind.config import Settings
    from automind.holdout import Holdout, Separation
    from automind.judge import Judge
    from automind.task import Task

ExperienceProvider = Callable[[Context], list[str]]


@dataclass
class Agent:
    """Turns a policy decision into a finished node. Holds what stays fixed for the whole run."""

    task: Task
    settings: Settings
    journal: Journal
    run_dir: Path
    analysis: str = ""
    facts: dict[str, Any] = field(default_factory=dict)
    labels: list[str] = field(default_factory=list)
    knowledge: list[Trick] = field(default_factory=list)
    experience: ExperienceProvider | None = None  # hook for the experience store (Agent K memory)
    usage: Callable[[], dict[str, int]] | None = None  # tokens spent so far per role (LLM mode)
    exec_timeout: Callable[[], float] | None = None  # seconds one execution may take right now
    deadline: Callable[[], float | None] | None = None  # time.monotonic() by which executions must end
    # refine/ensemble steps make several nodes or executions: before each, `allowance(kind, parent)` says
    # whether it may start (seconds it may take, None: it would not fit or the steps are spent) ...
    allowance: Callable[[str, Node | None], float | None] | None = None
    on_node: Callable[[Node], None] | None = None  # ... and each finished node is handed over at once
    clock: Callable[[], float] = time.monotonic
    elapsed: Callable[[], float] | None = None  # run time across resumes, stamped on each node
    on_phase: Callable[[str], None] | None = None  # live view: "planning", "coding", "verifying"
    holdout: Holdout | None = None  # the run's hidden holdout; None: nodes are ranked by their own scores

    def context(self, d: Decision, *, recall: bool = True) -> Context:
        """What the roles see for decision `d`; `recall=False` leaves out the experience memory's lessons
        (a query of the store: not needed to probe a role)."""
        p = d.parent
        ctx = Context(
            task=self.task,
            action=d.action,
            analysis=self.analysis,
            facts=self.facts,
            labels=self.labels,
            knowledge=self.knowledge if d.action == "draft" else [],
            trick=d.trick,
            memory=self.journal.memory(limit=None),
            seed=self.settings.search.seed + len(self.journal),
        )
        if p is not None:
            ctx.parent_plan, ctx.parent_code = p.plan, p.code
            ctx.parent_output = p.output + (f"\n\n[why it failed] {p.error}" if p.error else "")
            ctx.parent_metric = None if p.metric is None else p.metric.value
            ctx.parent_dir = str(self.node_dir(p.id).resolve())
            ctx.parent_tricks = p.applied_tricks
            if d.action == "debug":
                ctx.lineage = failed_lineage(p)
        ctx.ineffective_tricks = sorted(self.journal.ineffective_tricks(p))
        limit = self.settings.search.budget()[1]
        if self.deadline is not None:  # the run's clock: what the search may still use (finishing kept aside)
            ctx.time_left_s = self.time_left()
        elif self.elapsed is not None and limit is not None:
            ctx.time_left_s = max(0.0, limit - self.elapsed())
        if self.exec_timeout is not None:
            ctx.exec_timeout_s = self.exec_timeout()
        others = sorted(
            (n for n in self.journal.valid_nodes if n is not p), key=self.journal.score, reverse=True
        )
        ctx.siblings = [  # dir: the node's saved submission/ folder (predictions kept for blending)
            {
                "id": n.id,
                "summary": n.summary or n.plan[:200],
                "metric": n.metric.value,
                "code": n.code,
                "dir": str(self.node_dir(n.id).resolve()),
            }  # fmt: skip
            for n in others[:3]
            if n.metric is not None
        ]
        if self.experience is not None and recall:
            ctx.experience = list(self.experience(ctx))
        return ctx

    def time_left(self) -> float | None:
        """Seconds until the execution deadline (None without a time limit)."""
        end = self.deadline() if self.deadline else None
        return None if end is None else max(0.0, end - time.monotonic())

    def phase(self, name: str) -> None:
        if self.on_phase is not None:
            self.on_phase(name)

    def step(
        self, d: Decision, roles: Roles, *, safety_net: bool = False, given: tuple[Plan, str] | None = None
    ) -> Node:
        """One draft, improve or debug node (refine and ensemble steps: search/refine.py, search/ensemble.py);
        `given` (plan, code) runs that script instead of asking the roles for a plan and code (the checkers'
        rewrites)."""
        if given is None:
            d = self.with_change(d, roles)
        return self.run_node(
            d, roles, lambda node, r, wd: self._run(node, d, r, wd, given), safety_net=safety_net
        )

    def with_change(self, d: Decision, roles: Roles) -> Decision:
        """An improve goes to the first of its parent and the policy's alternatives that the roles can change:
        roles that know before running that they would only re-run a parent with another seed (the offline
        recipes, `offers_change`) say so, and the step goes to the next solution instead; a re-run is made
        only when none is left. Roles without the probe (an LLM) always change the code."""
        probe = getattr(roles, "offers_change", None)
        if d.action != "improve" or not d.alternatives or probe is None:
            return d
        for cand in (d, *d.alternatives):
            try:
                if probe(self.context(cand, recall=False)):
                    return cand
            except Exception:  # noqa: BLE001 - the step itself meets and reports the role's error
                return cand
        return d

    def run_node(
        self,
        d: Decision,
        roles: Roles,
        body: Callable[[Node, Roles, Path], None],
        *,
        safety_net: bool = False,
        setup: Callable[[Node], None] | None = None,
    ) -> Node:
        """Make one node: `body(node, guarded roles, workdir)` fills it; a RoleError makes it buggy with the
        reason; timings, token usage, the journal entry and the node's files are handled here."""
        node_id = str(len(self.journal))
        node = Node(
            id=node_id, action=d.action, parent=d.parent, trick=d.trick,
            roles=roles.name, safety_net=safety_net,
        )  # fmt: skip
        if setup is not None:
            setup(node)
        workdir = self.run_dir / "work" / node_id
        shutil.rmtree(self.node_dir(node_id), ignore_errors=True)  # leftovers of a step cut off by a kill
        before = self.usage() if self.usage else {}
        t0 = self.clock()
        try:
            body(node, guarded(roles), workdir)
        except RoleError as e:
            node.is_buggy, node.metric = True, None
            node.error = f"{type(e).__name__}: {e}"
        finally:
            remove_workdir(workdir)
        node.timings["total"] = round(self.clock() - t0, 3)
        if self.usage:
            after = self.usage()
            node.usage = {r: after[r] - before.get(r, 0) for r in after if after[r] - before.get(r, 0)}
        node.elapsed_s = round(self.elapsed(), 3) if self.elapsed else node.timings["total"]
        self.journal.append(node)
        self.save_files(node)
        return node

    def judge(self, workdir: Path, timeout: float | None) -> Judge:
        """The execution core for one node: its sandbox ends every execution by the run's deadline."""
        from automind.judge import Judge

        # executed and judged through automind.judge (as `automind exec` and TaskEnv); never graded here
        view: dict[str, Any] = {} if self.holdout is None else {"inputs": self.holdout.inputs}  # holdout view
        judge = Judge.from_settings(self.task, workdir, self.settings, timeout_s=timeout, grade=False, **view)
        judge.sandbox.deadline = self.deadline() if self.deadline else None
        return judge

    def _run(
        self, node: Node, d: Decision, roles: Roles, workdir: Path, given: tuple[Plan, str] | None
    ) -> None:
        tick = self.clock()
        ctx = self.context(d)
        self.phase("planning")
        plan = roles.plan(ctx) if given is None else given[0]
        node.plan, node.summary = plan.text, plan.summary
        node.error_analysis = str(plan.meta.get("analysis") or "")
        node.rerun = d.action == "improve" and bool(plan.meta.get("rerun"))
        if node.trick is not None and plan.meta.get("trick_inapplicable"):
            # judged inapplicable to this solution before use: a plain improve ran; never offer it here again
            node.trick_helpful = False
        chosen = plan.meta.get("trick_id")
        if d.action == "improve" and chosen and (node.trick is None or node.trick.id != chosen):
            # the roles applied a different trick than suggested (or chose one): judge the one applied
            node.trick = Trick(id=chosen, title=plan.meta.get("trick_title") or chosen, text="",
                               source=f"card:{chosen}")  # fmt: skip
        node.timings["plan"] = round(self.clock() - tick, 3)

        tick = self.clock()
        self.phase("coding")
        timeout = self.exec_timeout() if self.exec_timeout else None
        judge = self.judge(workdir, timeout)
        if given is None:
            coded = write_code(roles, ctx, plan, judge.sandbox, self.settings.coding, timeout_s=timeout)
        else:
            tries = self.settings.coding.one_pass_tries
            coded = one_pass(roles, ctx, given[1], judge.sandbox, tries, timeout_s=timeout)
        node.code, node.coder, node.complexity = coded.code, coded.coder, coded.complexity
        node.timings["code"] = round(self.clock() - tick, 3)
        self.judge_node(node, ctx, roles, coded)

    def run_code(
        self, node: Node, ctx: Context, roles: Roles, code: str, workdir: Path, cap: float | None = None
    ) -> None:
        """Run a script written whole by a refine or ensemble role once (no repair: a failure is the
        attempt's result, which the next plan sees) and judge it into `node`; `cap` (seconds) shortens the
        execution's limit (a refine attempt: search/budget.attempt_cap)."""
        tick = self.clock()
        self.phase("running")
        timeout = self.exec_timeout() if self.exec_timeout else None
        if cap is not None:
            timeout = cap if timeout is None else min(timeout, cap)
        judge = self.judge(workdir, timeout)
        coded = one_pass(roles, ctx, code, judge.sandbox, 1, timeout_s=timeout)
        node.code, node.coder = coded.code, coded.coder
        node.timings["code"] = round(self.clock() - tick, 3)
        self.judge_node(node, ctx, roles, coded)

    def judge_node(self, node: Node, ctx: Context, roles: Roles, coded: Coded) -> None:
        """Verify a coded node (facts over the verifier's opinion) and keep a valid node's outputs."""
        notes = "\n".join(coded.log)
        if coded.result is None:
            node.output = notes
            node.error = coded.error or "the code never ran"
            return
        node.output = coded.result.output
        node.timings["exec"] = round(coded.result.wall_s, 3)
        if coded.result.status == "timeout":  # its time is a lower bound, not an estimate (search/budget.py)
            node.timings["timeout"] = node.timings["exec"]
        self._judge(node, ctx, roles, coded, notes)

    def _judge(self, node: Node, ctx: Context, roles: Roles, coded: Coded, notes: str) -> None:
        """Separate the holdout rows, verify, and set the node's scores, outputs and leak flags."""
        from automind.datause import unused_inputs

        assert coded.result is not None
        tick = self.clock()
        self.phase("verifying")
        result = coded.result
        node.inputs_read = list(result.inputs_read)
        node.unused_inputs = unused_inputs(self.task, node.inputs_read)
        # separated even after a failure: a combined submission is then judged against the view it was made for
        sep = self._separate(result.workspace) if self.holdout is not None else None
        v = verify(roles, ctx, self.task, coded.code, result, holdout_error=sep.error if sep else None,
                   unused=node.unused_inputs)  # fmt: skip
        node.timings["verify"] = round(self.clock() - tick, 3)
        node.verifier_summary = v.summary
        node.reported_lower_is_better = v.lower_is_better
        node.is_buggy = v.buggy
        node.error = v.error
        node.overfit_flag = v.overfit
        if len(coded.log) > 1 or v.notes:  # retries or fallbacks happened: keep the story with the output
            notes = "\n".join([notes, *v.notes]).strip()
            node.output = f"{node.output}\n\n[notes]\n{notes}".strip()
        if v.buggy:
            return
        node.reported_metric = v.metric
        held = None if sep is None else sep.score
        if sep is not None and held is None:
            node.is_buggy, node.error = True, sep.score_error or "the holdout rows could not be scored"
            return
        node.outputs = keep_outputs(result.workspace / "submission", self.node_dir(node.id) / "submission")
        if sep is not None and held is not None:
            node.holdout_metric, node.holdout_se = held.value, held.se
            if sep.predictions is not None and sep.predictions.is_file():
                shutil.copyfile(sep.predictions, self.node_dir(node.id) / "holdout_predictions.csv")
        node.no_effect = self.unchanged(node)
        self._leakage(node, sep)
        value = rank_score(v.metric, held, self.holdout, own_validation=own_validation(node, self.run_dir))
        node.metric = MetricValue(value, bool(v.lower_is_better))

    def unchanged(self, node: Node) -> bool:
        """Whether an improve or a refine attempt changed nothing: its own score equals its parent's and so do
        its saved predictions (the holdout rows', else the submission). A re-run changed the seed, so it never
        counts."""
        p = node.parent
        if node.action not in ("improve", "refine") or node.rerun or p is None or p.is_buggy:
            return False
        if node.reported_metric is None or node.reported_metric != p.reported_metric:
            return False
        return self.same_files(
            node, p, ("holdout_predictions.csv", f"submission/{self.task.spec.submission_file}")
        )

    def same_files(self, node: Node, other: Node, names: tuple[str, ...]) -> bool:
        """Whether the first of `names` both nodes' folders hold is the same file, byte for byte."""
        for name in names:
            mine, theirs = self.node_dir(node.id) / name, self.node_dir(other.id) / name
            if mine.is_file() and theirs.is_file():
                return filecmp.cmp(mine, theirs, shallow=False)
        return False

    def _separate(self, workspace: Path) -> Separation:
        from automind.holdout import separate

        assert self.holdout is not None
        sub = workspace / "submission" / self.task.spec.submission_file
        return separate(self.holdout, self.task, sub, workspace / "working" / "holdout_predictions.csv")

    def targets(self) -> list[str]:
        """Target columns for the leak check: the task's, plus the label column a holdout found."""
        extra = self.holdout.layout.label_cols if self.holdout is not None else []
        return list(dict.fromkeys([*self.task.spec.target_columns, *extra]))

    def _leakage(self, node: Node, sep: Separation | None) -> None:
        """The deterministic code check and, with a holdout, the gap between the two scores (search.trust)."""
        from .trust import assess

        node.leakage = assess(node.code, self.targets(), self.settings.verify, reported=node.reported_metric,
                              score=sep.score if sep else None, holdout=self.holdout,
                              lower_is_better=self.journal.direction)  # fmt: skip

    # --- MLE-STAR's checkers, LLM mode (the runner turns what they return into child nodes) ------------------
    def leak_check(self, node: Node, roles: Roles) -> tuple[Decision, Plan, str] | None:
        """Ask the leakage checker about a new valid script; (decision, plan, rewritten script) when it leaks
        and its block is found exactly in the script (only that block changes)."""
        if node.is_buggy or node.action == "leak-fix":
            return None
        d = Decision("leak-fix", node)
        findings = [
            f"line {r.line}: {r.kind}: {r.message}" for r in node.leakage.reasons if r.source == "code"
        ]
        try:
            verdict = guarded(roles).check_leakage(self.context(d), node.code, findings)
        except RoleError as e:
            self.note(node, f"leakage check failed: {e}")
            return None
        if not verdict.leaky:
            self.note(node, f"leakage check: none ({verdict.reason or 'no reason given'})")
            return None
        self.journal.distrust(
            node, LeakReason("llm", verdict.reason or "the leakage checker found a leak", None, "llm")
        )
        if not verdict.block.strip() or verdict.block not in node.code or not verdict.fixed.strip():
            self.note(
                node, "leakage check: leak found, but its block is not in the script exactly; not rewritten"
            )
            return None
        code = node.code.replace(verdict.block, verdict.fixed, 1)
        text = (
            f"Leakage fix of node {node.id}: {verdict.reason}\nOnly the data preparation block was rewritten."
        )
        return d, Plan(text, f"[leak-fix of #{node.id}] {verdict.reason}"[:200]), code

    def data_check(self, node: Node, roles: Roles) -> tuple[Decision, Plan, str] | None:
        """Ask the data-usage checker to use the inputs a valid draft ignored; (decision, plan, script) or None."""
        if node.is_buggy or node.action != "draft" or not node.unused_inputs:
            return None
        d = Decision("data-use", node)
        try:
            code = guarded(roles).use_data(self.context(d), node.code, list(node.unused_inputs))
        except RoleError as e:
            self.note(node, f"data-usage check failed: {e}")
            return None
        text = f"Use the inputs node {node.id} ignored: {', '.join(node.unused_inputs)}."
        return d, Plan(text, f"[data-use of #{node.id}] {', '.join(node.unused_inputs)}"[:200]), code

    def note(self, node: Node, line: str) -> None:
        """Append a checker's finding to the node's output (shown in the report)."""
        node.output = f"{node.output}\n[check] {line}".strip()
        self.save_files(node)

    def node_dir(self, node_id: str) -> Path:
        return self.run_dir / "nodes" / node_id

    def save_files(self, node: Node) -> None:
        d = self.node_dir(node.id)
        d.mkdir(parents=True, exist_ok=True)
        (d / "plan.md").write_text(node.plan or "", encoding="utf-8")
        (d / "code.py").write_text(node.code or "", encoding="utf-8")
        status = f"[{node.status}] " + (f"metric {node.metric.value}" if node.metric else node.error or "")
        (d / "output.txt").write_text(f"{node.output}\n\n{status}\n", encoding="utf-8")


def failed_lineage(node: Node, limit: int = 6) -> list[dict[str, Any]]:
    """The failed versions ending at `node` (it included), oldest first: what each one's step analysed
    and tried, and how it failed. Stops at the first valid ancestor; keeps the newest `limit`."""
    chain = []
    for n in node.lineage:
        if not n.is_buggy:
            break
        error = (n.error or (n.output.strip().splitlines() or ["failed"])[-1]).strip()
        chain.append(
            {"id": n.id, "action": n.action, "plan": n.summary or n.plan[:300],
             "analysis": n.error_analysis, "error": error[:400]}
        )  # fmt: skip
    return list(reversed(chain[:limit]))


def keep_outputs(src: Path, dst: Path, max_mb: float = 200.0) -> list[str]:
    """Copy a valid node's submission/ folder (submission, metric, saved predictions) out of its workspace;
    returns the names of the files kept."""
    dst.mkdir(parents=True, exist_ok=True)
    kept = []
    for f in sorted(src.iterdir()):
        if f.is_file() and f.stat().st_size <= max_mb * 2**20:
            shutil.copyfile(f, dst / f.name)
            kept.append(f.name)
    return kept


def remove_workdir(workdir: Path) -> None:
    """Workspaces are disposable once the node's files are saved (AUTOMIND_KEEP_WORK=1 keeps them).

    Their input/ folders are read-only, so folders are made writable before removal.
    """
    import os

    if os.environ.get("AUTOMIND_KEEP_WORK") or not workdir.exists():
        return
    for root, dirs, _ in os.walk(workdir):
        for name in dirs:
            os.chmod(Path(root) / name, 0o755)
    shutil.rmtree(workdir, ignore_errors=True)
