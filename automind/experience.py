"""Experience memory (Agent K style): what earlier runs learned, fed back into later prompts.

Two collections in the knowledge store:
- positive: verified error->fix pairs, tricks that beat their parent, summaries of what worked;
- negative: errors not (yet) fixed, tricks that hurt, failed attempts.
A task's negative entries are purged once that task is solved. Entries are plain records; the
store computes embeddings, so the same code works on a local directory or a shared chroma server.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from automind.store import Store

POSITIVE = "experience-positive"
NEGATIVE = "experience-negative"
Kind = Literal["error_fix", "error", "trick", "summary", "solution"]
DEAD_END = "Known dead end: "  # marks negative hints (errors never fixed) among a debug step's hints

# (error output, failing code, fixed code, plan) -> {"tip", "failing_code", "error", "fixed_code"}
Abstractor = Callable[[str, str, str, str], dict[str, str]]


def split_hints(hints: list[str]) -> tuple[list[str], list[str]]:
    """(ordinary hints, known dead ends without their marker), each in the given order."""
    plain = [h for h in hints if not h.startswith(DEAD_END)]
    dead = [h[len(DEAD_END) :] for h in hints if h.startswith(DEAD_END)]
    return plain, dead


@dataclass
class Experience:
    kind: Kind
    task: str  # task slug
    text: str  # what gets embedded and shown in prompts
    labels: list[str] = field(default_factory=list)
    error_type: str = ""
    trick_id: str = ""
    delta: float | None = None  # metric change vs parent, signed so that > 0 is better
    metric: float | None = None
    run: str = ""
    created_at: float = field(default_factory=time.time)

    @property
    def id(self) -> str:
        key = f"{self.kind}|{self.task}|{self.trick_id}|{self.text}"
        return hashlib.sha1(key.encode()).hexdigest()[:20]

    def metadata(self) -> dict[str, Any]:
        meta = asdict(self)
        meta.pop("text")
        meta["labels"] = json.dumps(self.labels)
        # chroma metadata must be scalars and not None
        return {
            k: (-1e30 if v is None and k in ("delta", "metric") else v)
            for k, v in meta.items()
            if v is not None
        }

    @classmethod
    def from_hit(cls, document: str, meta: dict[str, Any]) -> Experience:
        known = {f for f in cls.__dataclass_fields__}
        data = {k: v for k, v in meta.items() if k in known}
        data["labels"] = json.loads(data.get("labels") or "[]")
        for k in ("delta", "metric"):
            if data.get(k) == -1e30:
                data[k] = None
        return cls(text=document, **data)


def _excerpt(text: str, limit: int = 1200) -> str:
    text = text.strip()
    if len(text) <= limit:
        return text
    half = limit // 2
    return text[:half] + "\n...\n" + text[-half:]


def error_signature(output: str) -> tuple[str, str]:
    """(error type, last error line) from a traceback or error text."""
    lines = [ln.strip() for ln in output.strip().splitlines() if ln.strip()]
    for ln in reversed(lines):
        head = ln.split(":", 1)[0]
        if head.endswith(("Error", "Exception", "Interrupt", "Exit")) or head in ("Killed", "TimeoutError"):
            return head.rsplit(".", 1)[-1], ln[:300]
    return ("Error", lines[-1][:300]) if lines else ("Error", "")


class ExperienceStore:
    """Reads and writes the two experience collections of a `Store`."""

    def __init__(self, store: Store):
        self.store = store

    # ---- writes -------------------------------------------------------------------------
    def add(self, exp: Experience, positive: bool) -> str:
        kind = POSITIVE if positive else NEGATIVE
        self.store.upsert(kind, [exp.id], [exp.text], [exp.metadata()])
        return exp.id

    def record_error(self, task: str, error_output: str, code: str, labels: list[str], run: str = "") -> str:
        etype, line = error_signature(error_output)
        text = f"Error {etype}: {line}\nFailing code excerpt:\n{_excerpt(code, 800)}"
        return self.add(Experience("error", task, text, labels, error_type=etype, run=run), positive=False)

    def record_fix(
        self,
        task: str,
        error_output: str,
        failing_code: str,
        fixed_code: str,
        tip: str,
        labels: list[str],
        run: str = "",
        lesson: dict[str, str] | None = None,
    ) -> str:
        """Admit an error->fix pair; call only once the fixed code ran and verified.

        `lesson` is the LLM's abstraction (Agent K: a general tip plus a worked example of the failing
        lines, the error and the fixed lines); without it the entry is extractive (the plan's first
        sentence and excerpts of both scripts).
        """
        etype, line = error_signature(error_output)
        if lesson:
            text = (
                f"Tip: {lesson['tip'].strip()}\nError {etype}: {(lesson.get('error') or line).strip()}\n"
                f"Failing code:\n{_excerpt(lesson.get('failing_code') or failing_code, 600)}\n"
                f"Fixed code:\n{_excerpt(lesson.get('fixed_code') or fixed_code, 600)}"
            )
        else:
            text = (
                f"Tip: {tip}\nError {etype}: {line}\nFailing code excerpt:\n{_excerpt(failing_code, 600)}\n"
                f"Fixed code excerpt:\n{_excerpt(fixed_code, 600)}"
            )
        return self.add(Experience("error_fix", task, text, labels, error_type=etype, run=run), positive=True)

    def record_trick(
        self,
        task: str,
        trick_id: str,
        trick_title: str,
        labels: list[str],
        delta: float | None,
        run: str = "",
    ) -> str:
        helpful = delta is not None and delta > 0
        verdict = f"improved the metric by {delta:+.5g}" if delta is not None else "produced no valid result"
        if delta is not None and not helpful:
            verdict = f"did not help (change {delta:+.5g})"
        text = f"Trick '{trick_title}' ({trick_id}) on a {', '.join(labels) or 'task'} task {verdict}."
        exp = Experience("trick", task, text, labels, trick_id=trick_id, delta=delta, run=run)
        return self.add(exp, positive=helpful)

    def record_summary(
        self,
        task: str,
        task_text: str,
        attempts: list[str],
        best: str | None,
        metric: float | None,
        labels: list[str],
        run: str = "",
    ) -> str:
        tried = "\n".join(f"- {a}" for a in attempts[-12:])
        outcome = (
            f"What finally worked: {best} (validation {metric:.5g})"
            if best and metric is not None
            else "No valid solution."
        )
        text = f"Task: {_excerpt(task_text, 400)}\nAttempts:\n{tried}\n{outcome}"
        exp = Experience("summary", task, text, labels, metric=metric, run=run)
        return self.add(exp, positive=best is not None)

    def mark_solved(self, task: str) -> int:
        """Purge the task's failure entries (unfixed errors, failed-run summaries) once it is solved.

        Trick outcomes stay: "this trick hurt here" is knowledge about the trick, not a failure of the task.
        """
        before = self.store.count(NEGATIVE)
        self.store.delete(NEGATIVE, where={"$and": [{"task": task}, {"kind": {"$in": ["error", "summary"]}}]})
        return before - self.store.count(NEGATIVE)

    # ---- reads --------------------------------------------------------------------------
    def _search(
        self, positive: bool, text: str, k: int, where: dict[str, Any] | None = None
    ) -> list[Experience]:
        kind = POSITIVE if positive else NEGATIVE
        if self.store.count(kind) == 0:
            return []
        hits = self.store.query(kind, text, k=k, where=where)
        return [Experience.from_hit(h.document, h.metadata) for h in hits]

    def for_debug(self, error_output: str, k: int = 2) -> list[str]:
        """Similar errors and how they were fixed."""
        _, line = error_signature(error_output)
        return [e.text for e in self._search(True, line or error_output[-500:], k, {"kind": "error_fix"})]

    def dead_ends(self, error_output: str, k: int = 2, exclude_run: str = "") -> list[str]:
        """Similar errors that were never fixed (negative store), from other runs than `exclude_run`."""
        _, line = error_signature(error_output)
        found = self._search(False, line or error_output[-500:], k + 4, {"kind": "error"})
        return [e.text for e in found if not exclude_run or e.run != exclude_run][:k]

    def for_draft(self, task_text: str, k: int = 3, exclude_task: str | None = None) -> list[str]:
        """Summaries of similar tasks ("tried X -> validation Y", what worked)."""
        found = self._search(True, task_text, k + 2, {"kind": "summary"})
        return [e.text for e in found if e.task != exclude_task][:k]

    def trick_priors(self, task_text: str, k: int = 30) -> dict[str, float]:
        """trick id -> prior in [-1, 1]: how often the trick helped on similar tasks minus how often it hurt."""
        score: dict[str, list[float]] = {}
        for positive in (True, False):
            for e in self._search(positive, task_text, k, {"kind": "trick"}):
                if e.trick_id:
                    score.setdefault(e.trick_id, []).append(1.0 if positive else -1.0)
        return {t: sum(v) / len(v) for t, v in score.items()}

    def for_improve(self, task_text: str, k: int = 4) -> list[str]:
        helped = [e.text for e in self._search(True, task_text, k, {"kind": "trick"})]
        hurt = [e.text for e in self._search(False, task_text, k, {"kind": "trick"})]
        return [f"Helped before: {t}" for t in helped] + [f"Hurt before: {t}" for t in hurt]

    def stats(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for name, kind in (("positive", POSITIVE), ("negative", NEGATIVE)):
            counts: dict[str, int] = {}
            for rec in self.store.get(kind, include_documents=False):
                label = rec.metadata.get("kind", "?")
                counts[label] = counts.get(label, 0) + 1
            out[name] = counts
        return out


def open_experience(settings) -> ExperienceStore:
    """The experience store named by settings (its own store, else the knowledge store)."""
    from automind.store import Store

    location = settings.experience.store or settings.knowledge.store
    if "://" not in location:  # a relative folder is relative to where automind was started: say which one
        location = str(Path(location).expanduser().resolve())
    return ExperienceStore(Store.open(location, settings.knowledge.embedder))


class RunMemory:
    """Connects one run to the experience store: hints into each step's context, outcomes out of each node.

    Every call is best-effort: a broken store must not break a solve, so failures are collected in
    `self.errors` (the run reports them as fallbacks) instead of raised.
    """

    def __init__(
        self,
        exp: ExperienceStore,
        task_slug: str,
        task_text: str,
        labels: list[str],
        run: str = "",
        abstract: Abstractor | None = None,
    ):
        self.exp, self.task, self.task_text, self.labels, self.run = exp, task_slug, task_text, labels, run
        self.abstract = abstract  # the LLM's lesson writer; None: extractive entries (offline)
        self.errors: list[str] = []
        self._judged: set[str] = set()  # trick origins already recorded
        self.priors: dict[str, float] = {}  # what order_tricks re-ordered the pool by (run.json "experience")

    def close(self) -> None:
        """Release the store's open files (Store.close) once the run has written its summary."""
        self._safe("close", self.exp.store.close, None)

    def _safe(self, what: str, fn, default):
        try:
            return fn()
        except Exception as e:  # noqa: BLE001 - memory is an aid, never a point of failure
            self.errors.append(f"experience {what} failed ({type(e).__name__}: {e})")
            return default

    def hints(self, ctx: Any) -> list[str]:
        """Debug: similar errors and their fixes, then errors never fixed (marked DEAD_END); draft:
        similar tasks; improve: tricks that helped or hurt, with their measured deltas."""
        if ctx.action == "debug":
            error = ctx.parent_output or ""
            fixes = self._safe("lookup", lambda: self.exp.for_debug(error), [])
            dead = self._safe("lookup", lambda: self.exp.dead_ends(error, exclude_run=self.run), [])
            return [*fixes, *(DEAD_END + d for d in dead)]
        if ctx.action == "draft":
            return self._safe(
                "lookup", lambda: self.exp.for_draft(self.task_text, exclude_task=self.task), []
            )
        return self._safe("lookup", lambda: self.exp.for_improve(self.task_text), [])

    def order_tricks(self, pool: list[Any]) -> list[Any]:
        """Stable re-order of a trick pool by experience priors (helped first, hurt last)."""
        priors = self._safe("priors", lambda: self.exp.trick_priors(self.task_text), {})
        self.priors = priors
        return sorted(pool, key=lambda t: -priors.get(t.id, 0.0)) if priors else pool

    def describe(self) -> dict[str, Any]:
        """Which store this run reads and writes and how many records it held when the run opened it: a run
        said to start from an empty store can be checked from its own run.json (a relative store path is
        one folder for every run started from the same place, so their memories mix). `records` is None
        when the store could not be counted (the error is among the run's fallbacks), never a made-up 0."""
        records = self._safe(
            "count",
            lambda: {
                name: self.exp.store.count(kind)
                for name, kind in (("positive", POSITIVE), ("negative", NEGATIVE))
            },
            None,
        )
        return {"store": self.exp.store.location, "records": records, "priors": dict(self.priors)}

    def on_node(self, node: Any) -> None:
        """Record what a finished node teaches: an unfixed error, a verified fix, a trick outcome."""
        parent = node.parent
        if node.is_buggy and node.output:
            self._safe(
                "write",
                lambda: self.exp.record_error(
                    self.task, node.error or node.output, node.code, self.labels, self.run
                ),
                None,
            )
        if node.action == "debug" and not node.is_buggy and parent is not None:
            tip = node.summary or (node.plan.strip().splitlines() or ["fixed"])[0][:200]
            error = parent.error or parent.output
            lesson = self._lesson(node.id, error, parent.code, node.code, node.plan)
            self._safe(
                "write",
                lambda: self.exp.record_fix(
                    self.task, error, parent.code, node.code, tip, self.labels, self.run, lesson
                ),
                None,
            )
        origin = node  # same walk as Journal._resolve_trick: an improve, or the debug fix that made it run
        while origin.trick is None and origin.action == "debug" and origin.parent is not None:
            origin = origin.parent
        if origin.trick is not None and origin.trick_helpful is not None and origin.id not in self._judged:
            self._judged.add(origin.id)
            base = origin.parent
            delta = None
            if node.metric is not None and base is not None and base.metric is not None:
                diff = node.metric.value - base.metric.value
                delta = -diff if node.metric.lower_is_better else diff
            self._safe(
                "write",
                lambda: self.exp.record_trick(
                    self.task, origin.trick.id, origin.trick.title, self.labels, delta, self.run
                ),
                None,
            )

    def _lesson(self, node_id: str, error: str, failing: str, fixed: str, plan: str) -> dict[str, str] | None:
        """The LLM's abstraction of a verified fix; None offline, or (noted) when the call fails."""
        if self.abstract is None:
            return None
        try:
            lesson = self.abstract(
                _excerpt(error, 1500), _excerpt(failing, 3000), _excerpt(fixed, 3000), plan
            )
            if not str(lesson.get("tip") or "").strip():
                raise ValueError("the lesson has no tip")
            return lesson
        except Exception as e:  # noqa: BLE001 - the extractive entry is still worth keeping
            self.errors.append(
                f"experience: the LLM could not abstract the fix of node {node_id} ({type(e).__name__}: "
                f"{str(e)[:200]}); stored the extractive form"
            )
            return None

    def on_finish(self, journal: Any) -> None:
        """Summarise the run; when it produced a valid solution, purge the task's old failures."""
        best = journal.best_node
        metric = None if best is None or best.metric is None else best.metric.value
        what = None if best is None else (best.summary or best.plan.strip().splitlines()[0][:200])
        if best is not None:
            self._safe("purge", lambda: self.exp.mark_solved(self.task), 0)
        self._safe(
            "write",
            lambda: self.exp.record_summary(
                self.task, self.task_text, journal.memory(), what, metric, self.labels, self.run
            ),
            None,
        )
