"""Knowledge lookup: label a task, search the store per label, filter and re-rank, and give tricks.

`KnowledgeBase.open(settings)` is the entry point; `label_task` labels a task on its own. The
LangChain adapter lives in `automind.retrieval.langchain` (imported only when asked for).
"""

from __future__ import annotations

from automind.retrieval.base import KnowledgeBase
from automind.retrieval.labeler import label_task
from automind.retrieval.tips import Tips

__all__ = ["KnowledgeBase", "Tips", "label_task"]
