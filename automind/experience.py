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
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from automind.store import Store

POSITIVE = "experience-positive"
NEGATIVE = "experience-negative"
Kind = Literal["error_fix", "error", "trick", "summary", "solution"]


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
    ) -> str:
        """Admit an error->fix pair; call only once the fixed code ran and verified."""
        etype, line = error_signature(error_output)
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
        """Purge the task's negative entries: once solved, its old failures are noise."""
        before = self.store.count(NEGATIVE)
        self.store.delete(NEGATIVE, where={"task": task})
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
    return ExperienceStore(Store.open(location, settings.knowledge.embedder))
