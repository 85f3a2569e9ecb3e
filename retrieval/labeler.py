"""Label a task with the taxonomy: which top-level categories (and subcategories) it belongs to.

Two strategies behind one function, `label_task`:
- LLM: top level first, then subcategories, preferring a specific category over General Machine
  Learning (automind.llm.tasks.label_with_llm);
- offline: a model learned from ~700 hand-labelled Kaggle competitions (automind.retrieval.label_model,
  trained by automind.retrieval.train_labeler): the description's embedding, cue-word counts and the
  metric family give calibrated probabilities, and the data analysis's modalities (images, long text,
  audio, a time index, user/item ids) add fitted weights toward their category.
The result is a short list of labels, best first, one per top-level category: the best one always, and
a runner-up whenever it keeps a real chance (near-ties show as two labels).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from automind.ingest.labeling import Label
from automind.retrieval import label_features as lf
from automind.retrieval.label_features import chunks, clean_description  # noqa: F401 - public helpers
from automind.retrieval.label_model import LabelModelError, load_model  # noqa: F401 - raised to callers

if TYPE_CHECKING:
    from automind.analysis import DataAnalysis
    from automind.task import Task

GENERAL = "General Machine Learning"
MAX_LABELS = 3
MIN_LABEL_SCORE = 0.1  # a runner-up is a label of the task when its calibrated probability is this high
_PROBLEM_SUB = {
    "regression": "Regression",
    "binary": "Classification",
    "multiclass": "Classification",
    "multilabel": "Classification",
}


@dataclass
class TaskLabel(Label):
    """A Label with the subcategory's own probability within its top category."""

    sub_score: float = 0.0


def label_offline(
    text: str,
    embedder,
    taxonomy,
    analysis: Any = None,
    metric: str | None = None,
    problem_type: str | None = None,
    n: int = MAX_LABELS,
    name: str | None = None,
) -> list[TaskLabel]:
    """Top categories with their best subcategory; `score` is the calibrated p(top), summing to <= 1.

    General Machine Learning takes Regression or Classification from the analysed problem type when it
    is known (a fact about the target, stronger than the wording).
    """
    model = load_model(embedder.name)
    x = lf.features(lf.task_text(text, name), metric, embedder)
    p_top = model.top_probs(x, lf.analysis_flags(analysis))
    p_sub = model.sub_probs(x)
    known = {c.name for c in taxonomy.categories}
    order = [i for i in np.argsort(-p_top) if model.tops[i] in known][:n]
    order = [i for k, i in enumerate(order) if k == 0 or p_top[i] >= MIN_LABEL_SCORE]
    out = []
    for i in order:
        top = model.tops[i]
        cat = taxonomy.get(top)
        subs = [(s, p) for s, p in model.subs_within(p_sub, top) if cat is None or cat.sub(s) is not None]
        sub, sub_p = subs[0] if subs else ("", 0.0)
        wanted = _PROBLEM_SUB.get(problem_type or "")
        if top == GENERAL and wanted and cat is not None and cat.sub(wanted) is not None:
            sub_p = dict(subs).get(wanted, 0.0) if wanted != sub else sub_p
            sub = wanted
        out.append(
            TaskLabel(top=top, sub=sub, score=round(float(p_top[i]), 4), sub_score=round(float(sub_p), 4))
        )
    return out


# -- entry point -----------------------------------------------------------------------------------


def task_description(task: Task | str) -> str:
    """The text a task is labelled and searched by: its description, or the text itself."""
    return task if isinstance(task, str) else task.description


def _task_fields(task: Task | str) -> tuple[str, str | None, str | None, str | None]:
    """(description, metric name, problem type, task name) from a Task, or a bare description."""
    if isinstance(task, str):
        return task, None, None, None
    return task.description, task.spec.metric.name, task.spec.problem_type, task.name


def label_task(
    task: Task | str,
    analysis: DataAnalysis | None = None,
    embedder=None,
    taxonomy=None,
    llm=None,
    fallbacks: list | None = None,
) -> list:
    """Labels for a task, best first: the LLM's when one is given and answers, else the offline labeller.

    When the LLM path fails, the reason is appended to `fallbacks` (if given) so callers can show it.
    """
    from automind.knowledge import load_taxonomy

    taxonomy = taxonomy or load_taxonomy()
    if embedder is None:
        from automind.store import get_embedder

        embedder = get_embedder("minilm")
    desc, metric, ptype, name = _task_fields(task)
    analysed = analysis.problem_type if analysis is not None else None
    ptype = analysed if analysed and analysed != "other" else ptype
    if llm is not None:
        try:
            from automind.llm.tasks import label_with_llm

            context = desc if analysis is None else f"{desc}\n\n# Data analysis\n{analysis.render()}"
            labels = label_with_llm(llm, context, taxonomy, notes=fallbacks)
            if labels:
                return list(labels)[:MAX_LABELS]
            raise ValueError("the LLM returned no labels")
        except Exception as e:  # noqa: BLE001 - any LLM failure falls back, and is recorded
            if fallbacks is not None:
                fallbacks.append(
                    f"labels: LLM labelling failed ({type(e).__name__}: {e}); used offline labeller"
                )
    return label_offline(desc, embedder, taxonomy, analysis, metric, ptype, name=name)
