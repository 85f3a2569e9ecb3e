"""The solve loop: prepare a run (task, analysis, knowledge, roles), search step by step, finish cleanly.

Everything a run needs to continue lives in its folder: journal.json (the tree plus RNG state and
elapsed time, rewritten atomically after every step), run.json (config, usage, fallbacks, status) and
knowledge.json (the tips and trick pool, so a resumed run sees the same knowledge). A killed or
interrupted run resumes to the same step and time budget with nothing lost.
"""

from __future__ import annotations

import contextlib
import json
import platform
import random
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from automind import assemble
from automind.atomic import write_json
from automind.config import Settings, set_dotted
from automind.errors import BudgetExceeded
from automind.leaderboards import attached, reattach
from automind.roles import Roles, Trick
from automind.runlog import Budget, RunLog, finish_text, start_text, step_text
from automind.runs import this_process
from automind.search.agent import Agent, ExperienceProvider
from automind.search.journal import Journal, Node
from automind.search.policy import Decision, decide
from automind.search.verifier import task_direction
from automind.task import Task

if TYPE_CHECKING:
    from automind.analysis import DataAnalysis
    from automind.experience import RunMemory
    from automind.ingest.labeling import Label
    from automind.llm.client import LLM

Event = Callable[[str, dict[str, Any]], None]


class RunError(ValueError):
    """A run cannot start or resume (bad folder, missing journal); the message says what to do."""


@dataclass
class RunResult:
    run_dir: Path
    journal: Journal
    status: str  # finished: the step budget | time | budget (LLM) | interrupted
    best: Node | None
    grade: dict[str, Any] | None = None
    fallbacks: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        best = self.best
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
        }


@dataclass
class RunKnowledge:
    """What the knowledge base hands a run: task labels, draft tips and the improve trick pool.

    Saved as knowledge.json when the run starts, so a resumed run sees the same knowledge.
    """

    labels: list[str] = field(default_factory=list)  # "Top/Sub" or "Top", best first
    tips: list[Trick] = field(default_factory=list)  # shown to drafts
    pool: list[Trick] = field(default_factory=list)  # what improve steps choose from
    disabled: bool = False  # --no-knowledge or knowledge.enabled=false

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "labels": list(self.labels),
            "tips": [asdict(t) for t in self.tips],
            "pool": [asdict(t) for t in self.pool],
        }
        if self.disabled:
            out["disabled"] = True
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunKnowledge:
        """Read knowledge.json, including older runs' files (missing keys; trick fields since removed)."""
        names = {f.name for f in fields(Trick)}

        def tricks(key: str) -> list[Trick]:
            return [Trick(**{k: v for k, v in t.items() if k in names}) for t in data.get(key) or []]

        return cls(
            labels=[str(x) for x in data.get("labels") or []],
            tips=tricks("tips"),
            pool=tricks("pool"),
            disabled=bool(data.get("disabled")),
        )


def read_json(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise RunError(
            f"{path}: cannot read ({e}). Is {path.parent} a run folder made by `automind solve`?"
        ) from e


# --- preparation --------------------------------------------------------------------------------


def resolve_task(arg: str | Path) -> Task:
    """A task folder, a bundled example name or a Kaggle competition (via automind.examples)."""
    path = Path(arg).expanduser()
    if not path.is_dir():
        from automind.examples import resolve_task as resolve

        path = Path(resolve(str(arg)))  # examples are built under $AUTOMIND_HOME/tasks, as `grade` expects
    return Task.load(path)


def load_analysis(
    task: Task, run_dir: Path, fallbacks: list[str]
) -> tuple[DataAnalysis | None, str, dict[str, Any]]:
    """The data analysis (computed once, cached as run_dir/analysis.json): object, prompt text, key facts."""
    from automind.analysis import analyze

    try:
        analysis = analyze(task, cache_path=run_dir / "analysis.json")
    except Exception as e:  # noqa: BLE001 - the search can run without it
        fallbacks.append(f"analysis failed ({type(e).__name__}: {e}); prompts get the task description only")
        return None, "", {}
    keys = ("problem_type", "modalities", "text_columns", "id_column", "target_columns")
    dumped = analysis.model_dump(mode="json")
    facts = {k: dumped[k] for k in keys if k in dumped}
    return analysis, analysis.render(), facts


def _label_text(label: Label) -> str:
    return f"{label.top}/{label.sub}" if label.top and label.sub else label.top


def load_knowledge(
    task: Task, analysis: DataAnalysis | None, settings: Settings, llm: LLM | None, fallbacks: list[str]
) -> RunKnowledge:
    """Labels, draft tips and the improve trick pool from the knowledge base; failures become fallbacks.

    With an LLM the task is labelled and the tips condensed by the model; without one, offline.
    """
    from automind.retrieval import KnowledgeBase

    try:
        kb = KnowledgeBase.open(settings, llm=llm)
        tips = kb.tips(task, analysis=analysis, k=settings.knowledge.k, use_llm=llm is not None)
        fallbacks.extend(f"knowledge: {f}" for f in tips.fallbacks)
        return RunKnowledge(
            labels=[_label_text(label) for label in tips.labels],
            tips=list(tips.tricks),
            pool=kb.trick_pool(task, analysis=analysis),
        )
    except Exception as e:  # noqa: BLE001 - the search runs without knowledge, and says so
        fallbacks.append(f"knowledge base unavailable ({type(e).__name__}: {e}); searching without knowledge")
        return RunKnowledge()


def versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version(), "platform": platform.platform()}
    for pkg in ("automind", "pandas", "scikit-learn", "lightgbm", "openai", "chromadb"):
        with contextlib.suppress(PackageNotFoundError):
            out[pkg] = version(pkg)
    return out


def merge_usage(a: dict[str, Any] | None, b: dict[str, Any] | None) -> dict[str, Any]:
    """Sum two usage summaries (per role and total) so usage survives resumes."""
    if not a:
        return dict(b or {})
    if not b:
        return dict(a)

    def add(x: dict[str, Any], y: dict[str, Any]) -> dict[str, Any]:
        out = dict(x)
        for k, v in y.items():
            out[k] = out.get(k, 0) + v if isinstance(v, int | float) and not isinstance(v, bool) else v
        return out

    roles = dict(a.get("roles", {}))
    for r, u in b.get("roles", {}).items():
        roles[r] = add(roles.get(r, {}), u)
    return {**a, **b, "roles": roles, "total": add(a.get("total", {}), b.get("total", {}))}


def restore_usage(llm: LLM, summary: dict[str, Any]) -> None:
    """Load an earlier session's per-role usage into a fresh LLM so totals and budgets continue."""
    from automind.llm.client import RoleUsage

    names = {f.name for f in fields(RoleUsage)}
    for role, rec in (summary.get("roles") or {}).items():
        llm.usage[role] = RoleUsage(**{k: v for k, v in rec.items() if k in names})


def open_memory(
    settings: Settings, task: Task, labels: list[str], run_dir: Path, fallbacks: list[str]
) -> RunMemory | None:
    """The experience memory for this run (Agent K), or None when disabled or unavailable (noted)."""
    if not settings.experience.enabled:
        return None
    try:
        from automind.experience import RunMemory, open_experience

        return RunMemory(open_experience(settings), task.slug, task.description, labels, run=run_dir.name)
    except Exception as e:  # noqa: BLE001 - the search runs without experience, and says so
        fallbacks.append(f"experience memory unavailable ({type(e).__name__}: {e}); searching without it")
        return None


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
    ):
        self.task, self.settings, self.run_dir, self.roles = task, settings, run_dir, roles
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
        self.t0 = time.monotonic()
        self.process = this_process()
        self.prior_usage = run_info.get("usage") or {}
        self.pool = list(knowledge.pool)
        llm = roles.llm
        notes: list[str] = []
        _, text, facts = load_analysis(task, run_dir, notes)  # cached in run_dir after the first call
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
            knowledge=list(knowledge.tips),
            usage=(lambda: {r: u.tokens for r, u in llm.usage.items()}) if llm is not None else None,
            exec_timeout=self.exec_timeout,
            elapsed=self.elapsed,
            experience=experience,
            on_phase=lambda phase: self.on_event("phase", {"phase": phase}),
        )
        self.memory: RunMemory | None = None
        if experience is None:
            self.memory = open_memory(settings, task, self.agent.labels, run_dir, self.fallbacks)
            if self.memory is not None:
                self.agent.experience = self.memory.hints
                self.pool = self.memory.order_tricks(self.pool)
        self.llm = llm
        if llm is not None and self.prior_usage:
            restore_usage(llm, self.prior_usage)  # budgets count what earlier sessions spent
            self.prior_usage = {}

    def elapsed(self) -> float:
        return self.base_elapsed + (time.monotonic() - self.t0)

    def budget(self) -> Budget:
        s = self.settings.search
        return Budget(len(self.journal), s.steps, self.elapsed(), s.time_limit_s)

    def exec_timeout(self) -> float:
        s = self.settings
        left = s.search.time_limit_s - self.elapsed()
        return max(1.0, min(s.search.exec_timeout_s, s.sandbox.timeout_s, left))

    def usage(self) -> dict[str, Any]:
        now = self.llm.usage_summary() if self.llm is not None else {}
        return merge_usage(self.prior_usage, now)

    def _safety_due(self) -> bool:
        s = self.settings.search
        if self.safety_factory is None or self.roles.name == "recipes":
            return False
        if self.journal.valid_nodes or any(n.safety_net for n in self.journal.nodes):
            return False
        share = s.safety_net_share
        return len(self.journal) >= share * s.steps or self.elapsed() >= share * s.time_limit_s

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
            usage=self.usage(),
            best={"node": best.id, "metric": best.metric.value} if best and best.metric else None,
            timings=_timings(self.journal),
            process=self.process,  # with heartbeat: lets `runs list` tell a killed run from a live one
            heartbeat=round(time.time(), 1),
        )
        write_json(self.run_dir / "run.json", self.info)

    def loop(self) -> str:
        s = self.settings.search
        self.write_info("running")
        session = int(self.info.get("sessions", 1))
        self.log.write(
            start_text(self.task.name, self.roles.name, self.budget(), session, self.info.get("knowledge"))
        )
        while True:
            if len(self.journal) >= s.steps:
                return "finished"
            if self.elapsed() >= s.time_limit_s:
                return "time"
            if self._safety_due() and (net := self._safety()) is not None:
                decision, roles, safety = Decision("draft"), net, True
            else:
                decision, roles, safety = decide(self.journal, s, self.rng, self.pool), self.roles, False
            self.on_event(
                "step",
                {"index": len(self.journal), "decision": decision.describe(), "safety": safety,
                 "budget": self.budget()},
            )  # fmt: skip
            try:
                node = self.agent.step(decision, roles, safety_net=safety)
            except BudgetExceeded as e:
                self.fallbacks.append(f"LLM budget spent at step {len(self.journal)}: {e}")
                return "budget"
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
            self.write_info(status)
        self.log.write(finish_text(status, best, grade, self.budget()))
        return RunResult(self.run_dir, self.journal, status, best, grade, list(self.fallbacks))

    def run(self) -> RunResult:
        try:
            status = self.loop()
        except KeyboardInterrupt:
            status = "interrupted"  # the journal already holds every finished step
        except BaseException as e:
            self.write_info("failed")
            self.log.write(f"failed: {type(e).__name__}: {e}")
            raise
        return self.finish(status)


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
    task_arg: str | Path | Task,
    settings: Settings,
    *,
    out: str | Path | None = None,
    no_knowledge: bool = False,
    roles: Roles | None = None,
    safety_roles: Roles | None = None,
    on_event: Event | None = None,
    experience: ExperienceProvider | None = None,
) -> RunResult:
    """Start a new run. `roles` defaults to `assemble.make_roles(settings)` and `safety_roles` to the recipe
    policy (built only if the safety net is ever needed); tests pass scripted roles."""
    task = task_arg if isinstance(task_arg, Task) else resolve_task(task_arg)
    run_dir = Path(out) if out else default_run_dir(settings, task)
    if (run_dir / "journal.json").exists():
        raise RunError(
            f"{run_dir} already holds a run. Use --resume {run_dir} to continue it, or another --out."
        )
    from automind.sandbox.core import preflight

    sandbox = preflight(task, settings)  # refused inputs stop here, before anything is written
    if roles is None:  # before the folder exists, so a bad --llm spec leaves no empty run behind
        roles = assemble.make_roles(settings)
    run_dir.mkdir(parents=True, exist_ok=True)
    fallbacks: list[str] = [sandbox.fallback] if sandbox.fallback else []
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
        "seconds": round(time.monotonic() - t, 3),
    }
    write_json(run_dir / "knowledge.json", knowledge.to_json())
    journal = Journal(lower_is_better=task_direction(task), max_debug_depth=settings.search.max_debug_depth)
    runner = Runner(
        task, settings, run_dir, roles, journal=journal, knowledge=knowledge, run_info=info,
        safety_roles=_safety_factory(settings, safety_roles), on_event=on_event, experience=experience,
    )  # fmt: skip
    runner.save("running")
    return runner.run()


def load_run(run_dir: str | Path) -> tuple[dict[str, Any], Journal]:
    run_dir = Path(run_dir)
    if not (run_dir / "journal.json").is_file():
        raise RunError(f"{run_dir}: no journal.json. Pass a run folder made by `automind solve`.")
    return read_json(run_dir / "run.json"), Journal.load(run_dir / "journal.json")


def resume(
    run_dir: str | Path,
    *,
    overrides: dict[str, Any] | None = None,
    roles: Roles | None = None,
    safety_roles: Roles | None = None,
    on_event: Event | None = None,
    experience: ExperienceProvider | None = None,
) -> RunResult:
    """Continue a run from its journal to the budget recorded in run.json (steps and time already spent count)."""
    run_dir = Path(run_dir)
    info, journal = load_run(run_dir)
    config = info.get("config") or {}
    for dotted, value in (overrides or {}).items():
        set_dotted(config, dotted, value)
    settings = Settings.model_validate(config)
    task = reattach(Task.load(info["task"]["path"]), info["task"].get("leaderboards"))
    from automind.sandbox.core import preflight

    sandbox = preflight(task, settings)
    info["sandbox"] = sandbox.describe()
    if sandbox.fallback and sandbox.fallback not in info.setdefault("fallbacks", []):
        info["fallbacks"].append(sandbox.fallback)
    saved = run_dir / "knowledge.json"
    knowledge = RunKnowledge.from_json(read_json(saved)) if saved.is_file() else RunKnowledge()
    if roles is None:
        roles = assemble.make_roles(settings)
    info["config"] = settings.model_dump(mode="json")
    info["sessions"] = int(info.get("sessions", 1)) + 1
    runner = Runner(
        task, settings, run_dir, roles, journal=journal, knowledge=knowledge, run_info=info,
        safety_roles=_safety_factory(settings, safety_roles), on_event=on_event, experience=experience,
    )  # fmt: skip
    return runner.run()


def _safety_factory(settings: Settings, given: Roles | None) -> Callable[[], Roles]:
    """The safety net's roles: the ones given, else the recipe policy, built only when first needed."""
    if given is not None:
        return lambda: given
    return lambda: assemble.make_safety_roles(settings)
