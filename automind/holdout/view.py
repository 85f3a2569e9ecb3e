"""The run-owned input view and the holdout's answers, written once per run under RUN_DIR/holdout/.

    holdout/holdout.json            the split (rows, ids, strategy), enough to resume and to separate
    holdout/view/public/            what the script's input/ shows: train without the holdout rows, test with
                                    their features appended, the sample submission extended with their ids;
                                    every other public file as an absolute symlink to the task's own (folders recreated)
    holdout/score/public|private/   a small task of the holdout rows alone: its sample submission and answers

Holdout rows keep their training ids when those are unique and unused by the test set; otherwise they get
fresh ids (numbers after the largest id, or `holdout-N`), refused when other input files might refer to
training ids. Without an id column in the test file, submission rows follow test rows by position, so the
extended sample submission's new rows carry fresh ids.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from automind.atomic import write_json
from automind.csv_scan import default_separator
from automind.holdout.layout import HoldoutUnavailable, Layout, read_layout
from automind.holdout.split import choose_rows

if TYPE_CHECKING:
    import pandas as pd

    from automind.task import Task

VERSION = 1


@dataclass
class Holdout:
    """A run's split. `ids` are the holdout rows' ids as the view's test file and sample submission show them."""

    root: Path
    layout: Layout
    rows: list[int]
    ids: list[str]
    strategy: str
    detail: str
    fraction: float
    seed: int
    n_seen: int  # training rows the script sees
    n_test: int
    renamed_ids: bool = False
    notes: list[str] = field(default_factory=list)
    max_rows: int | None = None  # the cap on held-out rows the split was made with (None: none)

    @property
    def n_holdout(self) -> int:
        return len(self.rows)

    @property
    def inputs(self) -> Path:
        """The folder the sandbox shows as input/ (`Sandbox(..., inputs=holdout.inputs)`)."""
        return self.root / "view" / "public"

    def view_task(self, task: Task) -> Task:
        """The task as the script sees it: the view's files, no answers (to validate the combined submission)."""
        from automind.task import Task

        return Task(task.root, task.spec, task.description, list(task.warnings), self.root / "view")

    def score_task(self, task: Task) -> Task:
        """A task of the holdout rows alone: sample submission and answers, the task's metric and direction."""
        from automind.grading import resolve_metric
        from automind.task import Task

        metric = task.spec.metric.model_copy(update={"lower_is_better": resolve_metric(task).lower_is_better})
        spec = task.spec.model_copy(update={"answers": "answers.csv", "metric": metric, "leaderboard": None})
        return Task(self.root / "score", spec, task.description, [], self.root / "score")

    def describe(self) -> dict[str, Any]:
        """What run.json and `exec --json` record about the split."""
        return {
            "enabled": True,
            "fraction": self.fraction,
            "max_rows": self.max_rows,
            "strategy": self.strategy,
            "detail": self.detail,
            "holdout_rows": self.n_holdout,
            "train_rows_seen": self.n_seen,
            "test_rows": self.n_test,
            "renamed_ids": self.renamed_ids,
            "notes": list(self.notes),
        }

    def to_json(self) -> dict[str, Any]:
        d = {k: v for k, v in asdict(self).items() if k not in ("root", "layout")}
        return {"version": VERSION, "layout": asdict(self.layout), **d}


def _as_int(values: list[str]) -> list[int] | None:
    try:
        return [int(v) for v in values if v != ""]
    except ValueError:
        return None


def fresh_ids(n: int, taken: set[str]) -> list[str]:
    """n ids that collide with none of `taken`: integers after the largest when all are integers."""
    ints = _as_int(sorted(taken))
    if ints is not None:
        start = max(ints, default=-1) + 1
        return [str(start + k) for k in range(n)]
    out: list[str] = []
    k = 0
    while len(out) < n:
        cand = f"holdout-{k}"
        if cand not in taken:
            out.append(cand)
        k += 1
    return out


def _holdout_ids(layout: Layout, train: pd.DataFrame, test: pd.DataFrame, sample: pd.DataFrame,
                 rows: list[int]) -> tuple[list[str], bool]:  # fmt: skip
    """(ids, renamed): the training ids when usable, else fresh ones."""
    taken = set(sample[layout.id_col]) | (set(test[layout.id_col]) if layout.id_in_test else set())
    if layout.id_in_test and layout.id_in_train:
        own = list(train.loc[rows, layout.id_col])
        if "" not in own and len(set(own)) == len(own) and not set(own) & taken:
            return own, False
        if layout.others:
            raise HoldoutUnavailable(
                f"the training ids of '{layout.id_col}' repeat or reappear in the test file, so holdout rows "
                f"would need new ids, and other input files ({', '.join(layout.others[:3])}) may refer to them"
            )
    if layout.id_in_train:
        taken |= set(train[layout.id_col])
    return fresh_ids(len(rows), taken), True


def build_holdout(
    task: Task, root: Path, *, fraction: float, seed: int, min_rows: int = 0, max_rows: int | None = None
) -> Holdout:
    """Split the task's training rows (`fraction` of them, at most about `max_rows`) and write the view under
    `root`; HoldoutUnavailable says why not."""
    import pandas as pd

    from automind.recipes.runtime import target_numbers

    layout, train, test, sample = read_layout(task)
    answered = int((train[layout.label_cols] != "").all(axis=1).sum())
    if answered < min_rows:
        raise HoldoutUnavailable(
            f"only {answered} labelled training rows (verify.holdout_min_rows is {min_rows}); a holdout this "
            "small would rank nodes by noise"
        )
    split = choose_rows(train, test, layout, fraction, seed, max_rows)
    if not split.rows or len(split.rows) >= answered:
        raise HoldoutUnavailable(f"the {split.strategy} split left {len(split.rows)} of {answered} rows out")
    ids, renamed = _holdout_ids(layout, train, test, sample, split.rows)
    held = train.loc[split.rows]

    # each view file in its source's encoding: a script reads the view in the search and the task's own files
    # in the final refit, the same way both times
    coded = {name: {"encoding": df.attrs.get("encoding", "utf-8"), "sep": default_separator(task.public_dir / file)}
             for name, df, file in (("train", train, layout.train), ("test", test, layout.test),
                                    ("sample", sample, layout.sample))}  # fmt: skip
    shutil.rmtree(root, ignore_errors=True)
    public = root / "view" / "public"
    public.mkdir(parents=True)
    extra = pd.DataFrame(
        {c: (held[c].to_numpy() if c in held.columns else "") for c in test.columns}, index=range(len(ids))
    )
    # a column no test row fills (a sensor that failed after the training period) stays empty in the held
    # rows too: the search then scores them as the test rows will be predicted, without it
    empty = [c for c in test.columns if len(test) and (test[c] == "").all() and c in held.columns]
    extra[empty] = ""
    if layout.id_in_test:
        extra[layout.id_col] = ids
    fill = sample.iloc[[0] * len(ids)].reset_index(drop=True)
    fill[layout.id_col] = ids
    try:
        train.drop(index=split.rows).to_csv(public / layout.train, index=False, **coded["train"])
        pd.concat([test, extra], ignore_index=True).to_csv(public / layout.test, index=False, **coded["test"])
        pd.concat([sample, fill], ignore_index=True).to_csv(public / layout.sample, index=False,
                                                            **coded["sample"])  # fmt: skip
    except UnicodeEncodeError as e:  # held-out training text the test file's encoding cannot write
        raise HoldoutUnavailable(
            f"the holdout rows cannot be written in the test file's encoding ({coded['test']['encoding']}: {e})"
        ) from e
    _mirror(task, public, set(layout.others))

    score = root / "score"
    (score / "public").mkdir(parents=True)
    (score / "private").mkdir()
    fill.to_csv(score / "public" / layout.sample, index=False)
    answers = pd.DataFrame({layout.id_col: ids})
    for c in layout.label_cols:
        named = layout.pred_cols[0] if len(layout.label_cols) == len(layout.pred_cols) == 1 else c
        answers[named] = held[c].to_numpy()
        # a target written "$1,234.50" is scored as the scripts read it (runtime.numeric_targets)
        written = layout.problem == "regression" and pd.to_numeric(held[c], errors="coerce").isna().any()
        if written and (numbers := target_numbers(held[c])) is not None:
            answers[named] = numbers.to_numpy()
    answers.to_csv(score / "private" / "answers.csv", index=False)

    notes = [f"holdout ids renamed ({ids[0]} ...): the training ids were missing or taken"] if renamed else []
    if empty:
        notes.append(f"column(s) {empty} empty in every test row are left empty in the holdout rows too")
    h = Holdout(root, layout, split.rows, ids, split.strategy, split.detail, fraction, seed,
                n_seen=len(train) - len(split.rows), n_test=len(test), renamed_ids=renamed, notes=notes,
                max_rows=max_rows)  # fmt: skip
    write_json(root / "holdout.json", h.to_json())
    return h


def _mirror(task: Task, public: Path, names: set[str]) -> None:
    """The task's other public entries in the view: real folders holding absolute symlinks to each file, so
    folder walks (os.walk does not follow links to folders) see them as in public/."""
    from automind.task import walk_inputs

    for e in walk_inputs(task.public_dir, task.root, task.private_dir, allow_external=True):
        if e.rel.split("/")[0] not in names:
            continue
        if e.is_dir:
            (public / e.rel).mkdir(parents=True, exist_ok=True)
        else:
            (public / e.rel).symlink_to(e.real.absolute())


def load_holdout(root: Path) -> Holdout | None:
    """The split saved under `root` (None when the run has none); raises ValueError when it is damaged."""
    path = root / "holdout.json"
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        layout = Layout(**data.pop("layout"))
        data.pop("version", None)
        h = Holdout(root=root, layout=layout, **data)
    except (OSError, ValueError, TypeError, KeyError) as e:
        raise ValueError(f"{path}: cannot read the holdout split ({e}); start a new run") from e
    missing = [p for p in (h.inputs / layout.train, h.inputs / layout.test, h.inputs / layout.sample,
                           root / "score" / "private" / "answers.csv") if not p.is_file()]  # fmt: skip
    if missing:
        raise ValueError(f"{root}: the holdout view is incomplete ({missing[0]} is missing); start a new run")
    return h
