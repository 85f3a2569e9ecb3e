"""Which provided input files a script ignored (MLE-STAR's data-usage check, from facts instead of opinions).

The sandbox's guard records every input/ file the script's Python code opened and every folder it listed
(`ExecResult.inputs_read`). A provided entry (a top-level file or folder of the task's public data) is
unused when nothing under it was read. Not counted: the sample submission (a template, no information),
a description file, hidden files, entries the description calls optional (a sentence naming the file and
saying "optional", "not required", "not needed", "can be ignored" or "for reference"), and formats read
by native code that the guard cannot see (parquet, feather, arrow, HDF5). A script that read nothing at
all through Python is not judged either: it may read natively.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from automind.task import Task

NATIVE_SUFFIXES = (".parquet", ".feather", ".arrow", ".h5", ".hdf5", ".pq")
OPTIONAL = re.compile(r"\b(optional|not required|not needed|not necessary|can be ignored|may be ignored|"
                      r"for reference|extra information)\b", re.I)  # fmt: skip
SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n")  # a period inside a file name does not end a sentence


def provided_inputs(task: Task) -> list[str]:
    """Top-level public entries a solution could use (files and folders), sample submission excluded."""
    public = task.public_dir
    skip = {task.spec.sample_submission.split("/")[0], "description.md"}
    return sorted(
        p.name + ("/" if p.is_dir() else "")
        for p in public.iterdir()
        if p.name not in skip and not p.name.startswith(".") and not p.name.lower().endswith(NATIVE_SUFFIXES)
    )


def optional_inputs(description: str, names: list[str]) -> set[str]:
    """Entries a sentence of the description both names and calls optional."""
    out: set[str] = set()
    for sentence in SENTENCE_END.split(description or ""):
        if not OPTIONAL.search(sentence):
            continue
        for name in names:
            bare = name.rstrip("/")
            if bare in sentence or (bare.rsplit(".", 1)[0] in sentence and "." in bare):
                out.add(name)
    return out


def unused_inputs(task: Task, inputs_read: list[str]) -> list[str]:
    """Provided, non-optional entries the script never read (empty when it read nothing through Python)."""
    if not inputs_read:
        return []
    names = provided_inputs(task)
    optional = optional_inputs(task.description, names)
    read = {p.split("/")[0] for p in inputs_read}
    return [n for n in names if n.rstrip("/") not in read and n not in optional]
