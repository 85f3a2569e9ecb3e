"""The task model: a folder with description.md, public/, optional private/ and task.yaml.

See docs/task-format.md. MLE-bench prepared folders (description.md + public/ + private/ and
an MLE-bench config.yaml) are accepted too; what task.yaml would say is inferred from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

ProblemType = Literal["binary", "multiclass", "multilabel", "regression", "other"]
DATA_SUFFIXES = (".csv", ".tsv", ".parquet", ".json", ".jsonl", ".txt", ".feather")
ANSWER_NAMES = ("answers.csv", "test.csv", "solution.csv")


class TaskError(ValueError):
    """A task folder is unusable; `problems` lists every reason, each naming the file."""

    def __init__(self, root: Path, problems: list[str]):
        self.root = root
        self.problems = problems
        super().__init__(
            f"task {root} has {len(problems)} problem(s):\n" + "\n".join(f"  - {p}" for p in problems)
        )


class MetricSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    params: dict[str, Any] = Field(default_factory=dict)
    lower_is_better: bool | None = None  # None: taken from the metric registry
    kind: str | None = None  # custom metrics only: label | proba | value | ranking (default value)


class TaskSpec(BaseModel):
    """What task.yaml holds."""

    model_config = ConfigDict(extra="forbid")
    name: str
    slug: str | None = None  # competition slug; knowledge from the same competition is filtered out
    metric: MetricSpec
    id_column: str | None = None
    target_columns: list[str] = Field(default_factory=list)
    problem_type: ProblemType | None = None
    submission_file: str = "submission.csv"
    sample_submission: str = "sample_submission.csv"
    train_files: list[str] = Field(default_factory=list)  # relative to public/; default: names with "train"
    test_files: list[str] = Field(default_factory=list)  # relative to public/; default: names with "test"
    answers: str | None = None  # relative to private/; default: first of ANSWER_NAMES present
    leaderboard: str | None = None  # relative to the task root; default: leaderboard.csv if present
    # the competition's public board, when known too (HumanRank is then averaged over both boards)
    public_leaderboard: str | None = None  # relative to the task root; default: leaderboard_public.csv

    @field_validator("slug")
    @classmethod
    def _slug_is_one_name(cls, v: str | None) -> str | None:
        """The slug names run folders and store entries, so it must not reach into other folders."""
        if v is not None and (not v.strip() or v in (".", "..") or any(c in v for c in "/\\\0")):
            raise ValueError(
                f"slug {v!r} must be one name without path separators (like 'spaceship-titanic')"
            )
        return v


@dataclass
class Task:
    root: Path
    spec: TaskSpec
    description: str
    warnings: list[str] = field(default_factory=list)
    data_root: Path | None = None  # where public/ and private/ are, when not root (MLE-bench: root/prepared)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def slug(self) -> str:
        return self.spec.slug or self.root.name

    @property
    def public_dir(self) -> Path:
        return (self.data_root or self.root) / "public"

    @property
    def private_dir(self) -> Path:
        return (self.data_root or self.root) / "private"

    @property
    def sample_submission_path(self) -> Path:
        return self.public_dir / self.spec.sample_submission

    @property
    def answers_path(self) -> Path | None:
        names = [self.spec.answers] if self.spec.answers else list(ANSWER_NAMES)
        for n in names:
            p = self.private_dir / n
            if p.is_file():
                return p
        return None

    @property
    def leaderboard_path(self) -> Path | None:
        p = self.root / (self.spec.leaderboard or "leaderboard.csv")
        return p if p.is_file() else None

    @property
    def public_leaderboard_path(self) -> Path | None:
        p = self.root / (self.spec.public_leaderboard or "leaderboard_public.csv")
        return p if p.is_file() else None

    @property
    def train_paths(self) -> list[Path]:
        return _pick(self.public_dir, self.spec.train_files, "train")

    @property
    def test_paths(self) -> list[Path]:
        return _pick(self.public_dir, self.spec.test_files, "test")

    @classmethod
    def load(cls, path: str | Path) -> Task:
        task, problems = inspect_task(path)
        if problems or task is None:
            raise TaskError(Path(path), problems)
        return task


def _pick(public: Path, listed: list[str], word: str) -> list[Path]:
    if listed:
        return [public / n for n in listed]
    if not public.is_dir():
        return []
    found = sorted(
        p for p in public.iterdir() if word in p.name.lower() and p.name != "sample_submission.csv"
    )
    return found


def _infer_columns(spec: dict[str, Any], sample: Path) -> None:
    """Fill id/target columns from the sample submission header when task.yaml leaves them out."""
    if spec.get("id_column") and spec.get("target_columns"):
        return
    import pandas as pd

    header = list(pd.read_csv(sample, nrows=0).columns)
    if not header:
        return
    spec.setdefault("id_column", header[0])
    spec.setdefault("target_columns", [c for c in header if c != spec["id_column"]])


def _id_column_problem(spec_path: Path, id_col: str, sample: Path) -> list[str]:
    """Submissions are matched on the id column, so it must be a column of the sample submission."""
    import pandas as pd

    try:
        header = [str(c).strip() for c in pd.read_csv(sample, nrows=0).columns]
    except Exception as e:  # noqa: BLE001 - any parse failure is a task problem
        return [f"{sample}: cannot read the header ({e})."]
    if id_col in header:
        return []
    return [
        f"{spec_path}: id_column '{id_col}' is not a column of {sample.name} (columns: {', '.join(header)}). "
        "Fix id_column in task.yaml or the sample submission's header."
    ]


def inspect_task(path: str | Path) -> tuple[Task | None, list[str]]:
    """Load a task and collect every problem instead of stopping at the first one."""
    root = Path(path).expanduser().resolve()
    problems: list[str] = []
    warnings: list[str] = []
    if not root.is_dir():
        return None, [
            f"{root}: not a directory. Pass a task folder (see docs/task-format.md) or a bundled example name."
        ]
    from automind import mlebench

    data_root = mlebench.prepared_root(root)  # MLE-bench's data dir layout: root/prepared/{public,private}
    data = data_root or root
    desc_path = root / "description.md"
    if data_root is not None and not desc_path.is_file():
        desc_path = data / "public" / "description.md"  # where `mlebench prepare` writes it
    description = ""
    if desc_path.is_file():
        description = desc_path.read_text(encoding="utf-8", errors="replace")
        if not description.strip():
            problems.append(f"{desc_path}: empty. Describe the task as a competitor would read it.")
    else:
        problems.append(f"{desc_path}: missing. Add the task description in Markdown.")
    public = data / "public"
    if not public.is_dir():
        problems.append(f"{public}: missing. Put train/test data and sample_submission.csv there.")

    raw: dict[str, Any] | None = None
    spec_path = root / "task.yaml"
    if spec_path.is_file():
        try:
            raw = yaml.safe_load(spec_path.read_text(encoding="utf-8")) or {}
            if not isinstance(raw, dict):
                problems.append(f"{spec_path}: expected a mapping, got {type(raw).__name__}.")
                raw = None
        except yaml.YAMLError as e:
            problems.append(f"{spec_path}: not valid YAML ({e}).")
        except UnicodeDecodeError as e:
            problems.append(f"{spec_path}: not UTF-8 text (byte {e.start}). Save it as UTF-8.")
    else:
        found = mlebench.task_spec(root)
        raw = found.spec
        problems.extend(found.problems)
        if raw is None and not problems:
            problems.append(
                f"{spec_path}: missing. Add task.yaml with at least `name` and `metric: {{name: ...}}`."
            )
        elif raw is not None:
            warnings.extend(found.notes)
    if raw is not None and isinstance(raw.get("metric"), str):
        raw["metric"] = {"name": raw["metric"]}

    spec: TaskSpec | None = None
    if raw is not None:
        raw.setdefault("name", root.name)
        sample = public / raw.get("sample_submission", "sample_submission.csv")
        if sample.is_file():
            try:
                _infer_columns(raw, sample)
            except Exception as e:  # noqa: BLE001 - any parse failure is a task problem
                problems.append(f"{sample}: cannot read the header ({e}).")
        try:
            spec = TaskSpec.model_validate(raw)
        except ValidationError as e:
            for err in e.errors():
                loc = ".".join(str(p) for p in err["loc"])
                problems.append(f"{spec_path}: field '{loc}': {err['msg']}")

    if spec is not None:
        from automind.metrics import UnknownMetricError, get_metric

        try:
            get_metric(spec.metric.name, spec.metric.lower_is_better, spec.metric.kind)
        except UnknownMetricError as e:
            custom_from_lb = ":" in spec.metric.name and spec.metric.lower_is_better is None
            if custom_from_lb and (root / (spec.leaderboard or "leaderboard.csv")).is_file():
                warnings.append(
                    f"metric {spec.metric.name}: no lower_is_better; direction inferred from the leaderboard"
                )
            else:
                problems.append(f"{spec_path}: {e}")
        if public.is_dir():
            sample = public / spec.sample_submission
            if not sample.is_file():
                problems.append(f"{sample}: missing. Add a sample submission with the id and target columns.")
            elif spec.id_column:
                problems.extend(_id_column_problem(spec_path, spec.id_column, sample))
            task = Task(root, spec, description, warnings, data_root)
            if not task.train_paths:
                problems.append(
                    f"{public}: no training data (no file name contains 'train'; or list train_files in task.yaml)."
                )
            for p in task.train_paths + task.test_paths:
                if not p.exists():
                    problems.append(f"{p}: listed in task.yaml but missing.")
            if not task.test_paths:
                problems.append(
                    f"{public}: no test data (no file name contains 'test'; or list test_files in task.yaml)."
                )
        if spec.answers and not (data / "private" / spec.answers).is_file():
            warnings.append(
                f"{data / 'private' / spec.answers}: named in task.yaml but missing; grading is unavailable."
            )
    if problems or spec is None:
        return None, problems
    return Task(root, spec, description, warnings, data_root), []
