"""The solve loop: prepare a run (task, analysis, knowledge, roles), search step by step, finish cleanly.

Everything a run needs to continue lives in its folder: journal.json (the tree plus RNG state and
elapsed time, rewritten atomically after every step), run.json (config, usage, fallbacks, status) and
knowledge.json (the tips and trick pool, so a resumed run sees the same knowledge). A killed or
interrupted run resumes to the same step and time budget with nothing lost.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import random
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from automind import assemble
from automind.atomic import write_json
from automind.config import Settings, set_dotted
from automind.cpuload import CpuWatch, busy_text
from automind.errors import BudgetExceeded
from automind.holdout.layout import HoldoutUnavailable
from automind.holdout.setup import resume_holdout, start_holdout
from automind.leaderboards import attached, reattach
from automind.roles import Roles
from automind.run_setup import (
    RunFolderError,
    RunKnowledge,
    RunLock,
    claim_run_dir,
    inside_task_problem,
    load_analysis,
    load_knowledge,
    lock_run_dir,
    merge_usage,
    open_memory,
    out_dir_problem,
    relocate_run,
    require_readers,
    resolve_task,
    restore_usage,
    versions,
)
from automind.runlog import Budget, RunLog, finish_text, start_text, step_text
from automind.runs import this_process
from automind.search.agent import Agent, ExperienceProvider
from automind.search.budget import FIT_SHARE, estimate, fits, lower_bound, start_share
from automind.search.ensemble import ensemble_step
from automind.search.journal import Journal, Node
from automind.search.policy import STUCK_DRAFTS, Decision, decide, ensemble_due, fallback_ensemble, stuck
from automind.search.refine import refine_step
from automind.search.verifier import task_direction
from automind.task import Task

if TYPE_CHECKING:
    from automind.experience import RunMemory
    from automind.holdout import Holdout

Event = Callable[[str, dict[str, Any]], None]
REFIT_SHARE = 0.25  # the final refit never holds back more than this share of the time limit
# ... except when the holdout is the latest rows: without the refit the submission never learns the most
# recent period, the one nearest the test rows (cigar sales at 120 s: 18.2 with a random holdout, 24.4 with
# the latest rows held out and the 34 s refit not reserved)
TIME_REFIT_SHARE = 0.5
FINISH_SHARE = 0.1  # the finishing reserve never takes more than this share of a time limit
MIN_START_S = 5.0  # no execution starts with less time left (at most FINISH_SHARE of the time limit)
# An ensemble blends saved predictions in a second or two (college at 120 s stopped with 4 s left instead of
# running its due ensemble)
ENSEMBLE_START_S = 2.0
# Actions whose step runs several executions or nodes (docs/search.md); the others are one Agent.step each.
STEP_ACTIONS: dict[str, Callable[[Agent, Decision, Roles], list[Node]]] = {
    "refine": refine_step,
    "ensemble": ensemble_step,
}


class RunError(ValueError):
    """A run cannot start or resume (bad folder, missing journal); the message says what to do."""


@dataclass
class RunResult:
    run_dir: Path
    journal: Journal
    status: str  # finished: the step budget | time | budget (LLM) | stuck (search/policy.stuck) | interrupted
    best: Node | None
    grade: dict[str, Any] | None = None
    fallbacks: list[str] = field(default_factory=list)
    holdout: dict[str, Any] | None = None  # run.json's record of the split (or why there was none)
    refit: dict[str, Any] | None = None  # the final refit on all training rows (None without a holdout)
    budget: dict[str, Any] = field(default_factory=dict)  # Runner.budget_info() when the run ended
    stopped_early: str | None = None  # why the search stopped before its budget was spent

    def time_summary(self) -> str:
        """'118 s of a 120 s limit' (or '... no time limit'), the whole run with finishing."""
        used = self.budget.get("finished_after_s", self.budget.get("elapsed_s", 0.0))
        limit = self.budget.get("time_limit_s")
        return f"{used:.0f} s" + (f" of a {limit:g} s limit" if limit else " (no time limit)")

    def summary(self) -> dict[str, Any]:
        best = self.best
        trust = {} if best is None else {
            "best_reported_metric": best.reported_metric,
            "best_holdout_metric": best.holdout_metric,
            "best_leakage": best.leakage.status,
        }  # fmt: skip
        return {
            "run_dir": str(self.run_dir),
            "status": self.status,
            "steps": len(self.journal),
            "valid": len(self.journal.valid_nodes),
            "best_node": None if best is None else best.id,
            "best_metric": None if best is None or best.metric is None else best.metric.value,
            "lower_is_better": self.journal.direction,
            "grade": self.grade,
            "fallbacks": self.fallbacks,
            **trust,
            "holdout": self.holdout,
            "refit": self.refit,
            "budget": self.budget,
            "stopped_early": self.stopped_early,
        }


def read_json(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise RunError(
            f"{path}: cannot read ({e}). Is {path.parent} a run folder made by `automind solve`?"
        ) from e


# --- the run --------------------------------------------------------------------------------------


class Runner:
    """One session of a run (a fresh start or a resume)."""

    def __init__(
        self,
        task: Task,
        settings: Settings,
        run_dir: Path,
        roles: Roles,
        *,
        journal: Journal,
        knowledge: RunKnowledge,
        run_info: dict[str, Any],
        safety_roles: Callable[[], Roles] | None = None,
        on_event: Event | None = None,
        experience: ExperienceProvider | None = None,
        holdout: Holdout | None = None,
        lock: RunLock | None = None,
        started: float | None = None,
    ):
        """`started`: time.monotonic() when the command began (default: now); the time limit counts from
        there, so preparing the run (analysis, knowledge) is part of the budget. `lock`: the run folder's,
        released when run() returns."""
        self.task, self.settings, self.run_dir, self.roles = task, settings, run_dir, roles
        self.lock = lock
        self.journal, self.knowledge, self.info = journal, knowledge, run_info
        self.safety_factory = safety_roles
        self.safety_roles: Roles | None = None
        self.on_event = on_event or (lambda kind, data: None)
        self.fallbacks: list[str] = run_info.setdefault("fallbacks", [])
        self.log = RunLog(
            run_dir,
            lambda line: self.on_event("log", {"line": line, "budget": self.budget()}),
            self.fallbacks,
        )
        self.rng = random.Random(settings.search.seed)
        if "rng" in journal.meta:
            v, state, gauss = journal.meta["rng"]
            self.rng.setstate((v, tuple(state), gauss))
        self.base_elapsed = float(journal.meta.get("elapsed_s", 0.0))
        self.t0 = time.monotonic() if started is None else started
        self.max_steps, self.time_limit = settings.search.budget()
        # Work done after the search that the time limit must leave room for, each an estimate in seconds
        # (the final refit of the best node registers itself here); see finish_budget().
        self.finish_work: list[Callable[[], float]] = [self.refit_reserve]
        self.process = this_process()
        self.cpu = CpuWatch.start()  # other programs' share of the CPUs, in run.json's budget (cpuload.py)
        self.prior_usage = run_info.get("usage") or {}
        self.pool = list(knowledge.pool)
        llm = roles.llm
        notes: list[str] = []
        _, text, facts = load_analysis(task, run_dir, notes)  # cached in run_dir after the first call
        if llm is not None:  # the prompts state the sandbox's libraries and hardware (probed once per run)
            from automind import environment

            facts.update(environment.prompt_facts(environment.for_run(run_dir, notes), settings))
        self.fallbacks.extend(n for n in notes if n not in self.fallbacks)
        self.agent = Agent(
            task=task,
            settings=settings,
            journal=journal,
            run_dir=run_dir,
            analysis=text,
            facts={
                **facts,
                "metric": task.spec.metric.name,
                "lower_is_better": journal.lower_is_better,
            },
            labels=list(knowledge.labels),
            knowledge=[*knowledge.tips, *knowledge.papers],
            usage=(lambda: {r: u.tokens for r, u in llm.usage.items()}) if llm is not None else None,
            exec_timeout=self.exec_timeout,
            deadline=self.deadline,
            allowance=self.allowance,
            on_node=self.after_node,
            elapsed=self.elapsed,
            experience=experience,
            on_phase=lambda phase: self.on_event("phase", {"phase": phase}),
            holdout=holdout,
        )
        self.memory: RunMemory | None = None
        if experience is None:
            self.memory = open_memory(settings, task, self.agent.labels, run_dir, self.fallbacks, llm)
            if self.memory is not None:
                self.agent.experience = self.memory.hints
                self.pool = self.memory.order_tricks(self.pool)
        # what this session's memory started from (run.json, run.log's first line)
        self.info["experience"] = (
            self.memory.describe() if self.memory is not None
            else {"store": None, "hints": "from the caller" if experience is not None else "off"}
        )  # fmt: skip
        self.llm = llm
        if llm is not None and self.time_limit is not None:  # no model call runs into the finishing time
            llm.stop_at = self.t0 + self.time_limit - self.base_elapsed - self.finish_budget()
        if llm is not None and self.prior_usage:
            restore_usage(llm, self.prior_usage)  # budgets count what earlier sessions spent
            self.prior_usage = {}

    # --- the budget (docs/search.md, "Budget") -----------------------------------------------------------
    def elapsed(self) -> float:
        """Seconds of the run so far, earlier sessions included."""
        return self.base_elapsed + (time.monotonic() - self.t0)

    def finish_budget(self) -> float:
        """Seconds kept free at the end of a timed run for finishing it: writing the best solution, grading
        and the report (`search.finish_reserve_s`, at most FINISH_SHARE of the time limit), plus every estimate registered in `finish_work` (the
        final refit of the best node adds its own). The search starts nothing that would run into this
        reserve, and every execution's timeout ends before it."""
        return finish_reserve(self.settings, self.time_limit) + sum(f() for f in self.finish_work)

    def time_left(self) -> float | None:
        """Seconds the search may still use (the time limit less what was spent and the finishing reserve);
        None without a time limit."""
        if self.time_limit is None:
            return None
        return self.time_limit - self.elapsed() - self.finish_budget()

    def deadline(self) -> float | None:
        """time.monotonic() by which every execution must have ended (None without a time limit)."""
        left = self.time_left()
        return None if left is None else time.monotonic() + max(0.0, left)

    def budget(self) -> Budget:
        """Where the run stands against its budgets (run.log, the live view, run.json)."""
        reserve = self.finish_budget() if self.time_limit is not None else 0.0
        return Budget(len(self.journal), self.max_steps, self.elapsed(), self.time_limit, reserve)

    def exec_timeout(self) -> float:
        """Seconds one execution may take now: the configured caps, within the time left."""
        s = self.settings
        cap = min(s.search.exec_timeout_s, s.sandbox.timeout_s)
        left = self.time_left()
        return max(1.0, cap if left is None else min(cap, left))

    def progress(self) -> float:
        """The share of the budget spent: the larger of the time and step shares, in [0, 1]. The time share
        is of the search's own time: the time limit less the finishing reserve and the best node's refit
        (credit at 120 s kept 30 s for them, so a share of the whole limit never reached the ensembles'
        0.75 before the search stopped, and the run ended with no ensemble)."""
        shares = [0.0]
        if self.time_limit is not None:
            held = finish_reserve(self.settings, self.time_limit) + self._refit_held(with_ensemble=False)
            window = self.time_limit - held
            shares.append(self.elapsed() / window if window > 0 else 1.0)
        if self.max_steps is not None:
            shares.append(len(self.journal) / self.max_steps)
        return min(1.0, max(shares))

    def out_of_steps(self) -> bool:
        return self.max_steps is not None and len(self.journal) >= self.max_steps

    def allowance(self, kind: str, parent: Node | None = None) -> float | None:
        """Seconds an execution of `kind` may take if it may start now; None when the step budget is spent,
        or the time left is less than half the estimate (search/budget.py) of such an execution, or less
        than `start_floor(kind)`."""
        if self.out_of_steps() and kind != "ablation":
            return None
        left = self.time_left()
        if left is None:
            return self.exec_timeout()
        if left <= 0 or not fits(
            estimate(self.journal, kind, parent), left, self.start_floor(kind), start_share(kind)
        ):
            return None
        return self.exec_timeout()

    def start_floor(self, kind: str) -> float:
        """The least time left with which an execution of `kind` starts: MIN_START_S (ENSEMBLE_START_S for an
        ensemble, which trains nothing; at most FINISH_SHARE of the time limit), and half the shortest
        training run of this run so far (search/budget.lower_bound)."""
        least = ENSEMBLE_START_S if kind == "ensemble" else MIN_START_S
        floor = min(least, FINISH_SHARE * self.time_limit) if self.time_limit is not None else 0.0
        return max(floor, FIT_SHARE * lower_bound(self.journal, kind))

    # --- time for finishing: the final refit on the full training data (docs/holdout.md) ---------------
    def refit_reserve(self) -> float:
        """Seconds the search leaves for the final refit (registered in `finish_work`): the refit of the best
        node, or of the ensemble the policy would build now when that needs more (a blend found late in the
        run otherwise met no time for its members' refit: food-reviews at 600 s kept an ensemble's search-time
        submission, 95 s needed, none left), each run scaled to the full training data. A refit that is more
        than REFIT_SHARE of the time limit (TIME_REFIT_SHARE with a time holdout), or that would not be started with the time still left (less
        than FIT_SHARE of it, the rule `refit` starts by), is not reserved: it is skipped at the end, so
        holding time back for it would only leave the time unused (a 600 s run once stopped at 531 s,
        keeping 126 s for a refit that then could not run). One that would be started keeps all it needs,
        or all that is left: the reserve must not vanish when a step ends a second into it (a 600 s run once
        held 89 s for 90 s of search, dropped it when a 6 s step overran by one second, searched on, and
        skipped the refit)."""
        return self._refit_held(with_ensemble=True)

    def _refit_held(self, with_ensemble: bool) -> float:
        """`refit_reserve`, with or without the refit of a due ensemble (`progress` needs the best node's
        alone: whether an ensemble is due depends on the progress)."""
        from automind.refit import (
            ensemble_chain,
            limit_for,
            refit_bags,
            refit_chain,
            refit_seconds,
            script_room,
        )

        agent = getattr(self, "agent", None)
        best, h = self.journal.best_node, agent.holdout if agent is not None else None
        if h is None or best is None or not self.settings.verify.refit:
            return 0.0
        chains: list[tuple[list[Node] | str, Node | None]] = [
            (refit_chain(self.journal, self.run_dir, best), best)
        ]
        if with_ensemble and (members := ensemble_due(self.journal, self.settings.search, self.progress())):
            # a round on the whole pool is counted as its best `ensemble.members`: greedy selection weighs a
            # few (3 to 5 of 4 to 18 in saved runs) and only those are refitted (refit.weighted)
            top = members[: self.settings.search.ensemble.members]
            chains.append((ensemble_chain(self.journal, self.run_dir, top), None))
        cap = left = math.inf
        if self.time_limit is not None:
            left = self.time_limit - self.elapsed() - finish_reserve(self.settings, self.time_limit)
            cap = (TIME_REFIT_SHARE if h.strategy == "time" else REFIT_SHARE) * self.time_limit
        held = []
        for c, last in chains:
            if isinstance(c, str):
                continue
            need = refit_seconds(c, h.n_seen, h.n_seen + h.n_holdout, self.run_dir, last)
            bags = refit_bags(c, need, cap, script_room(c, left), self.settings.verify.refit_bags)
            if bags:  # the limit the script needs for that work, within the cap and what is left
                held.append(min(limit_for(c, bags * need), cap, left))  # refit_bags keeps bags * need <= cap
        return max(held, default=0.0)

    def refit_budget(self) -> float:
        """Seconds the final refit may take: the execution caps, within what is left of the time limit
        after the finishing reserve (grading and the report)."""
        s = self.settings
        cap = min(s.search.exec_timeout_s, s.sandbox.timeout_s)
        if self.time_limit is None:
            return cap
        reserve = finish_reserve(s, self.time_limit)
        return max(0.0, min(cap, self.time_limit - self.elapsed() - reserve))

    def usage(self) -> dict[str, Any]:
        now = self.llm.usage_summary() if self.llm is not None else {}
        return merge_usage(self.prior_usage, now)

    def _safety_due(self) -> bool:
        if self.safety_factory is None or self.roles.name == "recipes":
            return False
        if self.journal.valid_nodes or any(n.safety_net for n in self.journal.nodes):
            return False
        return self.progress() >= self.settings.search.safety_net_share

    def _safety(self) -> Roles | None:
        """The recipe roles for the safety net, built on first use; None (and a fallback note) if unavailable."""
        if self.safety_roles is None and self.safety_factory is not None:
            try:
                self.safety_roles = self.safety_factory()
            except Exception as e:  # noqa: BLE001 - the search goes on without a safety net
                self.fallbacks.append(f"safety net unavailable ({type(e).__name__}: {e})")
                self.safety_factory = None
        return self.safety_roles

    def save(self, status: str) -> None:
        """Journal (with the RNG state that produced it) and run.json, both atomically."""
        st = self.rng.getstate()
        self.journal.meta.update(rng=[st[0], list(st[1]), st[2]], elapsed_s=round(self.elapsed(), 3))
        self.journal.save(self.run_dir / "journal.json")
        self.write_info(status)

    def write_info(self, status: str) -> None:
        best = self.journal.best_node
        self.info.update(
            status=status,
            updated_at=datetime.now().isoformat(timespec="seconds"),
            steps_done=len(self.journal),
            elapsed_s=round(self.journal.meta.get("elapsed_s", self.elapsed()), 3),
            budget=self.budget_info(),
            usage=self.usage(),
            best={"node": best.id, "metric": best.metric.value} if best and best.metric else None,
            timings=_timings(self.journal),
            process=self.process,  # with heartbeat: lets `runs list` tell a killed run from a live one
            heartbeat=round(time.time(), 1),
        )
        write_json(self.run_dir / "run.json", self.info)

    def budget_info(self) -> dict[str, Any]:
        """The budget in effect and where the run stands, as run.json and the run summary keep it, with the
        share of the CPUs other programs took in this session (taken between executions: see cpuload.py)."""
        cpu = self.cpu.snapshot() if self.cpu is not None else None
        return self.budget().info() | ({"cpu": cpu} if cpu else {})

    def loop(self) -> str:
        s = self.settings.search
        self.write_info("running")
        session = int(self.info.get("sessions", 1))
        self.log.write(
            start_text(
                self.task.name,
                self.roles.name,
                self.budget(),
                session,
                self.info.get("knowledge"),
                self.info.get("experience"),
            )  # fmt: skip
        )
        while True:
            if self.out_of_steps():
                return "finished"
            left = self.time_left()
            if left is not None and left <= 0:
                return "time"
            if self._safety_due() and (net := self._safety()) is not None:
                decision, roles, safety = Decision("draft"), net, True
            else:
                decision = decide(self.journal, s, self.rng, self.pool, progress=self.progress())
                roles, safety = self.roles, False
            decision = self._fitting(decision)
            if decision is None:
                return "time"
            self.on_event("step", {"index": len(self.journal), "decision": decision.describe(),
                                   "safety": safety, "budget": self.budget()})  # fmt: skip
            try:
                if decision.action in STEP_ACTIONS:  # several executions or nodes; each node is saved
                    STEP_ACTIONS[decision.action](self.agent, decision, roles)
                    self.save("running")  # the step's own records (ablation table, kept) end after its nodes
                else:
                    node = self.agent.step(decision, roles, safety_net=safety)
                    self.after_node(node)
                    self._checks(node, roles)
                    if (error := stuck(self.journal)) is not None:
                        self.info["stopped_early"] = (
                            f"the last {STUCK_DRAFTS} drafts and their debugs all failed before running a "
                            f"script, with: {error}"
                        )
                        self.log.write(f"stopping early: {self.info['stopped_early']}")
                        return "stuck"
            except BudgetExceeded as e:
                self.fallbacks.append(f"LLM budget spent at step {len(self.journal)}: {e}")
                return "budget"

    def _checks(self, node: Node, roles: Roles) -> None:
        """LLM mode: MLE-STAR's leakage checker on a new valid script, its data-usage checker on a valid draft
        that ignored inputs; each rewrite runs as the node's child (docs/holdout.md)."""
        if not self.settings.verify.llm_checks or roles.llm is None or node.is_buggy:
            return
        for check in (self.agent.leak_check, self.agent.data_check):
            left = self.time_left()
            if left is not None and left <= 0:
                return
            no_step_left = self.out_of_steps()
            if no_step_left and check == self.agent.data_check:
                return  # its answer is a rewrite that could not run
            job = check(node, roles)  # the leak verdict counts even when its fix cannot run
            self.save("running")
            if job is None:
                continue
            decision, plan, code = job
            if no_step_left or self.allowance(decision.action, node) is None:
                self.agent.note(node, f"{decision.action} not run: no search step or time left for it")
                continue
            self.on_event("step", {"index": len(self.journal), "decision": decision.describe(),
                                   "safety": False, "budget": self.budget()})  # fmt: skip
            child = self.agent.step(decision, roles, given=(plan, code))
            if decision.action == "leak-fix" and not child.is_buggy and not child.flagged:
                node.leakage.fixed_by = child.id
            self.after_node(child)
            self._checks(child, roles)  # a new valid script too (a leak-fix child is not checked again)

    def _take_notes(self, roles: Roles) -> None:
        """Copy what the roles logged (e.g. a prompt section cut to fit the context) into the fallbacks."""
        for note in getattr(roles, "notes", ()):
            if note not in self.fallbacks:
                self.fallbacks.append(note)

    def _fitting(self, decision: Decision) -> Decision | None:
        """The decision if its execution fits in the time left; else an ensemble round if one fits (it trains
        nothing); else None, with a note saying why the search stopped early."""
        parent = decision.parent
        if self.allowance(decision.action, parent) is not None:
            return decision
        alt = fallback_ensemble(self.journal, self.settings.search) if decision.action != "ensemble" else None
        if alt is not None and self.allowance("ensemble") is not None:
            return alt
        left = self.time_left()
        if left is not None and left > 0:
            est = estimate(self.journal, decision.action, parent)
            need = max(start_share(decision.action) * (est or 0.0), self.start_floor(decision.action))
            kept = self.finish_budget()
            self.info["stopped_early"] = (
                f"the next step ({decision.describe()}) needs at least {need:.1f} s and {left:.1f} s of search "
                "time were left"
                + (f" ({kept:.0f} s kept for the final refit and report)" if kept >= 1 else "")
            )
            self.log.write(f"stopping early: {self.info['stopped_early']}")
        return None

    def after_node(self, node: Node) -> None:
        """Every new node: save the journal and run.json, feed the memory, tell the live view and run.log."""
        self._take_notes(self.roles)
        if node.roles == "recipes" and node.unused_inputs:  # a known limit of the offline policy, said once
            note = (f"offline recipes did not read {', '.join(node.unused_inputs)} (a node's output says why "
                    "each table was not joined; docs/recipes.md, 'Input files')")  # fmt: skip
            if note not in self.fallbacks:
                self.fallbacks.append(note)
        self.save("running")
        self._remember(node)
        best, budget = self.journal.best_node, self.budget()
        self.log.write(step_text(node, best, budget))
        self.on_event("node", {"node": node, "best": best, "usage": self.usage(), "budget": budget})

    def _remember(self, node: Node | None = None) -> None:
        """Feed the experience memory; its failures become fallbacks, never errors."""
        if self.memory is None:
            return
        if node is not None:
            self.memory.on_node(node)
        else:
            self.memory.on_finish(self.journal)
        self.fallbacks.extend(e for e in self.memory.errors if e not in self.fallbacks)

    def finish(self, status: str) -> RunResult:
        """Copy the best solution out, grade it when answers exist, write the report."""
        best = self.journal.best_node
        for name in ("best_solution.py", "submission.csv"):
            (self.run_dir / name).unlink(missing_ok=True)
        if best is not None:
            src = self.run_dir / "nodes" / best.id
            shutil.copyfile(src / "code.py", self.run_dir / "best_solution.py")
            sub = src / "submission" / self.task.spec.submission_file
            if sub.is_file():
                shutil.copyfile(sub, self.run_dir / "submission.csv")
        self.info["refit"] = None if best is None else self.refit(best, status)
        with contextlib.suppress(OSError):
            (self.run_dir / "work").rmdir()  # only when every workspace was cleaned up
        grade = None
        if (
            best is not None
            and self.task.answers_path is not None
            and (self.run_dir / "submission.csv").is_file()
        ):
            try:
                from automind.grading import grade as grade_fn

                grade = grade_fn(self.task, self.run_dir / "submission.csv").model_dump(mode="json")
            except Exception as e:  # noqa: BLE001 - grading is a report, never a reason to lose the run
                self.fallbacks.append(f"grading failed ({type(e).__name__}: {e})")
        self._remember()
        self.info["grade"] = grade
        self.info["stop_reason"] = status
        self.write_info(status)
        try:
            from automind.report import write_report

            write_report(self.run_dir)
        except Exception as e:  # noqa: BLE001 - the run's data is already safe on disk
            self.fallbacks.append(f"report not written ({type(e).__name__}: {e})")
        self.info["finished_after_s"] = round(self.elapsed(), 3)  # the whole run, finishing included
        self.write_info(status)
        self.log.write(finish_text(status, best, grade, self.budget()))
        if busy := busy_text(self.info["budget"].get("cpu")):
            self.log.write(f"note: {busy}")
        # the figures run.json keeps (a second snapshot of the CPU share could differ from the file's)
        budget = {**self.info["budget"], "finished_after_s": self.info["finished_after_s"]}
        return RunResult(self.run_dir, self.journal, status, best, grade, list(self.fallbacks),
                         self.info.get("holdout"), self.info.get("refit"), budget,
                         self.info.get("stopped_early"))  # fmt: skip

    def refit(self, best: Node, status: str) -> dict[str, Any] | None:
        """Re-run the best node's code once on the full training data (the task's own inputs, holdout rows
        given back) for the submission the run returns, a recipe script's K-fold fitting repeated on up to
        `verify.refit_bags` fold shuffles when the time left holds them all; the search-time submission stays
        when the refit is off, interrupted, would not fit the time left (`refit_budget`), fails or writes no
        valid file."""
        from automind.judge import Judge
        from automind.refit import (
            refit_bags,
            refit_chain,
            refit_members,
            refit_seconds,
            repoint,
            script_limit,
            script_room,
            unweighted,
        )
        from automind.search.agent import keep_outputs, remove_workdir
        from automind.search.verifier import read_metric

        if self.agent.holdout is None:
            return None  # the search already trained on every training row
        out: dict[str, Any] = {"node": best.id, "used": False}
        h = self.agent.holdout
        budget, chain = self.refit_budget(), refit_chain(self.journal, self.run_dir, best)
        bags, each = 1, []
        if not self.settings.verify.refit:
            out["reason"] = "verify.refit is off"
        elif status == "interrupted":
            out["reason"] = "the run was interrupted"
        elif isinstance(chain, str):
            out["reason"] = chain
        else:
            took = sum(n.timings.get("exec", 0.0) for n in chain)
            # each node's run on all rows, read once: the whole refit's estimate and each script's share of it
            each = [refit_seconds([n], h.n_seen, h.n_seen + h.n_holdout, self.run_dir, best) for n in chain]
            need = sum(each)
            # whatever is left may go to the refit now; bags only when all of them fit, none when not even
            # half of one run's estimate is left (the rule a search step starts by, kept in refit_bags)
            bags = refit_bags(
                chain, need, math.inf, script_room(chain, budget), self.settings.verify.refit_bags
            )
            if not bags or budget < 1.0:
                what = "the best node's run" if len(chain) == 1 else f"the runs of nodes {_ids(chain)}"
                out["reason"] = (f"{budget:.0f} s left for finishing; the refit needs about {need:.0f} s ({what} "
                                 f"took {took:.0f} s on fewer rows)")  # fmt: skip
        if "reason" in out:
            return self._kept(out)
        assert not isinstance(chain, str)
        if len(chain) > 1:
            out["members"] = [n.id for n in chain[:-1]]
        if skipped := unweighted(best, self.run_dir):  # read by the blend, given no weight: not refitted
            out["unweighted"] = skipped
        out["bags"] = bags
        fitted = {n.id: names for n in chain if (names := refit_members(self.run_dir, best, n))}
        if fitted:  # portfolio models no ensemble weighted are not refitted
            out["models"] = fitted
        # each script's limit leaves the scripts after it their estimates: a blend whose members' portfolios
        # took the whole budget timed out in its own start-up (sacramento at 90 s: 16 of 18 s, 1.9 s left)
        later = [bags * sum(each[i + 1 :]) for i in range(len(chain))]
        t0 = time.monotonic()
        # the nodes the best one blends first (their outputs kept), then the best one
        for node, after, own in zip(chain, later, each, strict=True):
            workdir = self.run_dir / "work" / f"refit-{node.id}"
            script_env = {"AUTOMIND_REFIT_BAGS": str(bags)} if bags > 1 else {}
            if node.id in fitted:
                script_env["AUTOMIND_REFIT_MEMBERS"] = ",".join(fitted[node.id])
            try:
                left = script_limit(budget - (time.monotonic() - t0), bags * own, after)
                judge = Judge.from_settings(self.task, workdir, self.settings, timeout_s=left,
                                            grade=False, script_env=script_env or None)  # fmt: skip
                judged = judge.run(repoint(node.code, self.run_dir) if node is best else node.code)
                out["seconds"] = round(time.monotonic() - t0, 3)
                if judged.outcome != "success":
                    which = "" if node is best else f" of node {node.id} (blended by the best node)"
                    out["reason"] = (f"the refit{which} did not produce a valid submission ({judged.outcome}: "
                                     f"{judged.reason})")  # fmt: skip
                    return self._kept(out)
                dst = self.run_dir / "nodes" / node.id / "refit"
                dst.mkdir(parents=True, exist_ok=True)
                (dst / "output.txt").write_text(judged.result.output, encoding="utf-8")
                if node is not best:
                    keep_outputs(judged.result.workspace / "submission", dst / "submission")
                    continue
                shutil.copyfile(judged.submission, dst / self.task.spec.submission_file)
                shutil.copyfile(judged.submission, self.run_dir / "submission.csv")
                out.update(used=True, reported_metric=read_metric(judged.result)[0])
                return out
            except Exception as e:  # noqa: BLE001 - a refit that cannot run keeps the search-time submission
                out["reason"] = f"the refit could not run ({type(e).__name__}: {e})"
                return self._kept(out)
            finally:
                remove_workdir(workdir)
        return out

    def _kept(self, refit: dict[str, Any]) -> dict[str, Any]:
        self.fallbacks.append(f"final refit not used: {refit['reason']}; submission.csv is node "
                              f"{refit['node']}'s search-time submission (trained without the holdout rows)")  # fmt: skip
        return refit

    def run(self) -> RunResult:
        with self.lock or contextlib.nullcontext():
            try:
                try:
                    status = self.loop()
                except KeyboardInterrupt:
                    status = "interrupted"  # the journal already holds every finished step
                except BaseException as e:
                    self.write_info("failed")
                    self.log.write(f"failed: {type(e).__name__}: {e}")
                    raise
                return self.finish(status)
            finally:
                if self.memory is not None:
                    self.memory.close()


def finish_reserve(settings: Settings, time_limit: float | None) -> float:
    """Seconds kept for grading and the report: `search.finish_reserve_s`, at most FINISH_SHARE of the
    time limit (a tiny budget keeps a tiny reserve)."""
    reserve = settings.search.finish_reserve_s
    return reserve if time_limit is None else min(reserve, FINISH_SHARE * time_limit)


def _ids(nodes: list[Node]) -> str:
    return ", ".join(n.id for n in nodes)


def _timings(journal: Journal) -> dict[str, Any]:
    per: dict[str, float] = {}
    for n in journal.nodes:
        per[n.action] = round(per.get(n.action, 0.0) + n.timings.get("total", 0.0), 3)
    return {"per_action_s": per, "exec_s": round(sum(n.timings.get("exec", 0.0) for n in journal.nodes), 3)}


def default_run_dir(settings: Settings, task: Task) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    base = Path(settings.runs_dir) / f"{task.slug}-{stamp}"
    path, n = base, 1
    while path.exists():
        n += 1
        path = base.with_name(f"{base.name}-{n}")
    return path


def solve(
    task_arg: str | os.PathLike[str] | Task,
    settings: Settings,
    *,
    out: str | os.PathLike[str] | None = None,
    no_knowledge: bool = False,
    roles: Roles | None = None,
    safety_roles: Roles | None = None,
    on_event: Event | None = None,
    experience: ExperienceProvider | None = None,
    started: float | None = None,
) -> RunResult:
    """Start a new run. `roles` defaults to `assemble.make_roles(settings)` and `safety_roles` to the recipe
    policy (built only if the safety net is ever needed); tests pass scripted roles. `started`:
    time.monotonic() when the command began (default: now); the time limit counts from there."""
    started = time.monotonic() if started is None else started
    task = task_arg if isinstance(task_arg, Task) else resolve_task(task_arg)
    run_dir = Path(out) if out else default_run_dir(settings, task)
    why = out_dir_problem(run_dir) or inside_task_problem(run_dir, task)
    if why:  # a user's folder, or the task's own public/ and private/, is never written into
        raise RunError(why)
    from automind.sandbox.core import preflight

    require_readers(task)  # as refused inputs, before anything is written
    sandbox = preflight(task, settings)  # refused inputs stop here, before anything is written
    if roles is None:  # before the folder exists, so a bad --llm spec leaves no empty run behind
        roles = assemble.make_roles(settings)
    lock = _locked(claim_run_dir, run_dir)  # marked and locked first: an interrupted start can reuse it
    try:  # `on` refuses a task it cannot split: the folder is then given back as it was
        holdout, holdout_info = start_holdout(task, settings, run_dir)
    except HoldoutUnavailable as e:
        lock.give_back()
        raise RunError(
            f"verify.holdout is on, but {e}. Set verify.holdout to auto or off for this task."
        ) from e
    fallbacks: list[str] = [f for f in (sandbox.fallback, lock.unguarded) if f]
    if holdout is None and settings.verify.holdout == "auto":
        fallbacks.append(
            f"holdout off: {holdout_info['reason']}; nodes are ranked by their own validation scores"
        )
    info: dict[str, Any] = {
        "task": {
            "path": str(task.root),
            "name": task.name,
            "slug": task.slug,
            "metric": task.spec.metric.name,
            "lower_is_better": task_direction(task),
            "leaderboards": attached(task),  # boards given with --leaderboard, so a resume grades the same
        },
        "config": settings.model_dump(mode="json"),
        "versions": versions(),
        "roles": roles.name,
        "started_at": datetime.now().isoformat(timespec="seconds"),
        "fallbacks": fallbacks,
        "sandbox": sandbox.describe(),
        "sessions": 1,
        "holdout": holdout_info,
        "run_dir": str(run_dir.resolve()),  # where its blends' paths point (relocate_run on a resume)
    }
    analysis, _, _ = load_analysis(task, run_dir, fallbacks)
    t = time.monotonic()
    if no_knowledge or not settings.knowledge.enabled:
        knowledge = RunKnowledge(disabled=True)
    else:
        knowledge = load_knowledge(task, analysis, settings, roles.llm, fallbacks)
    info["knowledge"] = {
        "disabled": knowledge.disabled,
        "labels": knowledge.labels,
        "tips": len(knowledge.tips),
        "pool": len(knowledge.pool),
        "papers": len(knowledge.papers),
        "seconds": round(time.monotonic() - t, 3),
    }
    write_json(run_dir / "knowledge.json", knowledge.to_json())
    journal = Journal(lower_is_better=task_direction(task), max_debug_depth=settings.search.max_debug_depth)
    runner = Runner(
        task, settings, run_dir, roles, journal=journal, knowledge=knowledge, run_info=info,
        safety_roles=_safety_factory(settings, safety_roles), on_event=on_event, experience=experience,
        holdout=holdout, lock=lock, started=started,
    )  # fmt: skip
    runner.save("running")
    return runner.run()


def require_run(run_dir: Path) -> None:
    if not (run_dir / "journal.json").is_file():
        raise RunError(f"{run_dir}: no journal.json. Pass a run folder made by `automind solve`.")


def _locked(take: Callable[[Path], RunLock], run_dir: Path) -> RunLock:
    """The run folder's lock (claim_run_dir or lock_run_dir), its refusal as a RunError."""
    try:
        return take(run_dir)
    except RunFolderError as e:
        raise RunError(str(e)) from e


def load_run(run_dir: str | Path) -> tuple[dict[str, Any], Journal]:
    run_dir = Path(run_dir)
    require_run(run_dir)
    return read_json(run_dir / "run.json"), Journal.load(run_dir / "journal.json")


def resume(
    run_dir: str | Path,
    *,
    overrides: dict[str, Any] | None = None,
    roles: Roles | None = None,
    safety_roles: Roles | None = None,
    on_event: Event | None = None,
    experience: ExperienceProvider | None = None,
    started: float | None = None,
) -> RunResult:
    """Continue a run from its journal to the budget recorded in run.json (steps and time already spent count)."""
    started = time.monotonic() if started is None else started
    run_dir = Path(run_dir)
    require_run(run_dir)  # a folder that is not a run is refused before anything is written into it
    lock = _locked(lock_run_dir, run_dir)  # released by the Runner (or when it is dropped, on a failed setup)
    info, journal = load_run(run_dir)
    relocate_run(info, journal, run_dir)  # a run folder moved or copied since: its blends read it here
    config = info.get("config") or {}
    for dotted, value in (overrides or {}).items():
        set_dotted(config, dotted, value)
    settings = Settings.model_validate(config)
    task = reattach(Task.load(info["task"]["path"]), info["task"].get("leaderboards"))
    from automind.sandbox.core import preflight

    require_readers(task)
    sandbox = preflight(task, settings)
    info["sandbox"] = sandbox.describe()
    for fallback in (sandbox.fallback, lock.unguarded):
        if fallback and fallback not in info.setdefault("fallbacks", []):
            info["fallbacks"].append(fallback)
    saved = run_dir / "knowledge.json"
    knowledge = RunKnowledge.from_json(read_json(saved)) if saved.is_file() else RunKnowledge()
    if roles is None:
        roles = assemble.make_roles(settings)
    info["config"] = settings.model_dump(mode="json")
    info["sessions"] = int(info.get("sessions", 1)) + 1
    info.pop("stopped_early", None)  # this session says for itself why it stops
    try:  # runs made before holdouts existed have no record: they go on without one
        holdout = resume_holdout(run_dir, info.get("holdout"))
    except ValueError as e:
        raise RunError(str(e)) from e
    runner = Runner(
        task, settings, run_dir, roles, journal=journal, knowledge=knowledge, run_info=info,
        safety_roles=_safety_factory(settings, safety_roles), on_event=on_event, experience=experience,
        holdout=holdout, lock=lock, started=started,
    )  # fmt: skip
    return runner.run()


def _safety_factory(settings: Settings, given: Roles | None) -> Callable[[], Roles]:
    """The safety net's roles: the ones given, else the recipe policy, built only when first needed."""
    if given is not None:
        return lambda: given
    return lambda: assemble.make_safety_roles(settings)
