"""The task model: a folder with description.md, public/, optional private/ and task.yaml.

See docs/task-format.md. MLE-bench prepared folders (description.md + public/ + private/ and
an MLE-bench config.yaml) are accepted too; what task.yaml would say is inferred from them.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from automind.csv_scan import header_row, separator, table_suffix

ProblemType = Literal["binary", "multiclass", "multilabel", "regression", "other"]
DATA_SUFFIXES = (".csv", ".tsv", ".parquet", ".json", ".jsonl", ".txt", ".data", ".dat", ".feather")
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
    env: list[str] = Field(default_factory=list)  # environment variables the solution may read
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

    def public_files(self, *, allow_external: bool = False) -> list[InputEntry]:
        """Every file and folder under public/ (see `walk_inputs`); refuses links into private/."""
        return walk_inputs(self.public_dir, self.root, self.private_dir, allow_external=allow_external)

    @property
    def public_leaderboard_path(self) -> Path | None:
        p = self.root / (self.spec.public_leaderboard or "leaderboard_public.csv")
        return p if p.is_file() else None

    @cached_property
    def train_paths(self) -> list[Path]:
        """The training files, the main table first: the one holding the target columns (train_transaction.csv
        before train_identity.csv, a table of labelled objects before a table of their observations). Kept
        once found: telling the main table reads each file's header."""
        paths = _pick(self.public_dir, self.spec.train_files, "train", self.spec.sample_submission)
        wanted = {c for c in self.spec.target_columns if c != self.spec.id_column}
        if len(paths) < 2 or not wanted:
            return paths
        main = next((p for p in paths if wanted <= set(_header(p))), None)
        return paths if main is None else [main, *(p for p in paths if p != main)]

    @cached_property
    def test_paths(self) -> list[Path]:
        """The test files, the main table first: the one named as the main training table is
        (test_transaction.csv for train_transaction.csv, see `test_partner`)."""
        paths = _pick(self.public_dir, self.spec.test_files, "test", self.spec.sample_submission)
        if len(paths) < 2 or not (train := self.train_paths):
            return paths
        partner = test_partner(train[0].name)
        return sorted(paths, key=lambda p: p.name.lower() != partner)  # stable: the rest keep their order

    @classmethod
    def load(cls, path: str | Path) -> Task:
        task, problems = inspect_task(path)
        if problems or task is None:
            raise TaskError(Path(path), problems)
        return task


# ---------------------------------------------------------------------------------------------- symlinks


@dataclass(frozen=True)
class InputEntry:
    """A file or folder that a workspace shows under input/, with the symlink it was reached through."""

    rel: str  # POSIX path under the source folder, as input/ shows it
    path: Path  # where it is reached inside the source folder
    real: Path  # the resolved file or folder that holds the data
    is_dir: bool
    link: Path | None = None  # the symlink this entry is, or lies under; None for plain entries
    escapes: bool = False  # a relative symlink whose target lies outside the source folder


def path_under(path: str, root: str) -> bool:
    """`path` is `root` or lies inside it (both already resolved)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def walk_inputs(
    source: Path, task_root: Path, private: Path, *, allow_external: bool = False
) -> list[InputEntry]:
    """The one symlink policy for public inputs (sandbox, data analysis, `task check`).

    Follows symlinks once (cycles are skipped) so callers see what a reader of the folder sees.
    Refused, every offender named in one TaskError: a symlink or hard link into the private folder
    (always: it would hand the answers to the solution), and a symlink leaving both the task folder and
    the source folder unless `allow_external` (so a workspace never reaches files the user did not
    give). Broken links are skipped: they show nothing."""
    src = os.path.realpath(source)
    roots = (os.path.realpath(task_root), src)
    priv = os.path.realpath(private)
    private_inodes = _inodes(priv)
    entries: list[InputEntry] = []
    problems: list[str] = []
    seen = {src}

    def visit(directory: str, rel: str, link: Path | None) -> None:
        with os.scandir(directory) as it:
            for e in sorted(it, key=lambda e: e.name):
                sub = f"{rel}{e.name}"
                shown = Path(source, sub)
                if e.is_symlink():
                    real = os.path.realpath(e.path)
                    text = os.readlink(e.path)
                    if path_under(real, priv) or path_under(priv, real):
                        where = "into" if path_under(real, priv) else "to a folder holding"
                        problems.append(
                            f"{shown} -> {text}: a symlink {where} the task's private folder; public files "
                            "must never reveal the answers. Replace the link with the file it should show."
                        )
                        continue
                    if not any(path_under(real, r) for r in roots) and not allow_external:
                        problems.append(
                            f"{shown} -> {text}: leaves the task folder (resolves to {real}). Copy the data "
                            "into the task folder, or allow such links explicitly (--allow-external-symlinks, "
                            "or sandbox.allow_external_symlinks: true); linked files are read, never modified."
                        )
                        continue
                    escapes = (
                        link is None
                        and not os.path.isabs(text)
                        and not path_under(
                            os.path.normpath(os.path.join(src, os.path.dirname(sub), text)), src
                        )
                    )
                    if os.path.isdir(real):
                        if real in seen:
                            continue
                        seen.add(real)
                        entries.append(InputEntry(sub, shown, Path(real), True, link or shown, escapes))
                        visit(real, sub + "/", link or shown)
                    elif os.path.isfile(real):
                        entries.append(InputEntry(sub, shown, Path(real), False, link or shown, escapes))
                    continue
                if e.is_dir(follow_symlinks=False):
                    entries.append(InputEntry(sub, shown, Path(e.path), True, link))
                    visit(e.path, sub + "/", link)
                elif e.is_file(follow_symlinks=False):
                    if private_inodes and e.inode() in private_inodes:
                        st = e.stat(follow_symlinks=False)
                        twin = private_inodes[e.inode()].get(st.st_dev)
                        if twin is not None:
                            problems.append(
                                f"{shown}: the same file as {twin} (a hard link into the private folder); "
                                "public files must never reveal the answers. Replace it with a copy of what "
                                "it should show."
                            )
                            continue
                    entries.append(InputEntry(sub, shown, Path(e.path), False, link))

    if path_under(src, priv) or path_under(priv, src):
        problems.append(
            f"{source}: resolves to {src}, which is or holds the task's private folder; it must not hold "
            "the answers."
        )
    elif os.path.isdir(src):
        visit(src, "", None)
    if problems:
        raise TaskError(Path(task_root), problems)
    return entries


def _inodes(private: str, limit: int = 10_000) -> dict[int, dict[int, str]]:
    """inode -> device -> path of the private files (few, usually one answers file)."""
    found: dict[int, dict[int, str]] = {}
    if not os.path.isdir(private):
        return found
    for n, (root, _, files) in enumerate(os.walk(private)):
        for f in files:
            p = os.path.join(root, f)
            try:
                st = os.stat(p, follow_symlinks=False)
            except OSError:
                continue
            found.setdefault(st.st_ino, {})[st.st_dev] = p
        if n > limit:
            break
    return found


def test_partner(name: str) -> str:
    """The test file named as a training file is (lower case): train_identity.csv -> test_identity.csv,
    training_set.csv -> test_set.csv."""
    return re.sub(r"train(ing)?", "test", name.lower(), count=1)


def _header(path: Path) -> list[str]:
    """A delimited table's column names, without reading its rows; [] for anything else."""
    sep = separator(path)
    if sep is None or not path.is_file():
        return []
    try:
        return [c.strip().lstrip("\ufeff") for c in header_row(path, sep)]
    except (OSError, ValueError):  # a broken archive: the task check names it
        return []


def _pick(public: Path, listed: list[str], word: str, sample: str) -> list[Path]:
    if listed:
        return [public / n for n in listed]
    if not public.is_dir():
        return []
    return sorted(p for p in public.iterdir() if word in p.name.lower() and p.name != sample)


def _sample_named_otherwise(public: Path) -> str | None:
    """The one table in public/ whose name holds 'submission' when there is no sample_submission.csv
    (Titanic's gender_submission.csv, older competitions' sampleSubmission.csv); None otherwise."""
    if not public.is_dir() or (public / "sample_submission.csv").exists():
        return None
    found = [p.name for p in public.iterdir()
             if p.is_file() and "submission" in p.name.lower() and table_suffix(p) in (".csv", ".tsv")]  # fmt: skip
    return found[0] if len(found) == 1 else None


def _infer_columns(spec: dict[str, Any], sample: Path) -> None:
    """Fill id/target columns from the sample submission header when task.yaml leaves them out."""
    if spec.get("id_column") and spec.get("target_columns"):
        return
    from automind.csv_scan import read_csv

    header = list(read_csv(sample, nrows=0).columns)
    if not header:
        return
    spec.setdefault("id_column", header[0])
    spec.setdefault("target_columns", [c for c in header if c != spec["id_column"]])


def _id_column_problem(spec_path: Path, id_col: str, sample: Path) -> list[str]:
    """Submissions are matched on the id column, so it must be a column of the sample submission."""
    from automind.csv_scan import read_csv

    try:
        header = [str(c).strip() for c in read_csv(sample, nrows=0).columns]
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
        flat = sorted(p.name for p in data.iterdir() if p.is_file() and table_suffix(p) in DATA_SUFFIXES)
        if any("train" in n.lower() for n in flat) and any("test" in n.lower() for n in flat):
            problems.append(
                f"{data}: holds {', '.join(flat[:6])} at its top level, like an unzipped Kaggle download. automind "
                "reads data from a task folder's public/ and never changes your files: make a task folder beside "
                f"it (`mkdir -p TASK/public && cp {data}/*.* TASK/public/`) with TASK/description.md and "
                "TASK/task.yaml (`name: ...` and `metric: NAME`; docs/task-format.md), or let `automind task "
                "fetch SLUG TASK` download and prepare the competition with a graded split."
            )

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
        if "sample_submission" not in raw and (named := _sample_named_otherwise(public)):
            raw["sample_submission"] = named
            warnings.append(
                f"the sample submission is {named} (no sample_submission.csv, none named in task.yaml)"
            )
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
            try:
                task.public_files(allow_external=True)  # links into private/ are refused everywhere
            except TaskError as e:
                problems.extend(e.problems)
        if spec.answers and not (data / "private" / spec.answers).is_file():
            warnings.append(
                f"{data / 'private' / spec.answers}: named in task.yaml but missing; grading is unavailable."
            )
    if problems or spec is None:
        return None, problems
    return Task(root, spec, description, warnings, data_root), []
