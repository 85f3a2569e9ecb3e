"""Preparing a run: the task, its data analysis, what the knowledge base hands it, the experience memory,
and the bookkeeping that survives a resume (package versions, LLM usage).

Every step that can fail degrades to a fallback the run reports (run.json `fallbacks`, the report), never
to a stopped run: the search can go on without an analysis, knowledge or memory, and says so.
"""

from __future__ import annotations

import contextlib
import os
import platform
import shutil
import weakref
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from automind.config import Settings
from automind.roles import Trick
from automind.task import Task, path_under

if TYPE_CHECKING:
    from automind.analysis import DataAnalysis
    from automind.experience import RunMemory
    from automind.ingest.labeling import Label
    from automind.llm.client import LLM
    from automind.search.journal import Journal

PAPERS_K = 3  # paper summaries retrieved for drafts


@dataclass
class RunKnowledge:
    """What the knowledge base hands a run: task labels, draft tips and the improve trick pool.

    Saved as knowledge.json when the run starts, so a resumed run sees the same knowledge.
    """

    labels: list[str] = field(default_factory=list)  # "Top/Sub" or "Top", best first
    tips: list[Trick] = field(default_factory=list)  # shown to drafts
    pool: list[Trick] = field(default_factory=list)  # what improve steps choose from
    papers: list[Trick] = field(default_factory=list)  # paper summaries shown to drafts
    disabled: bool = False  # --no-knowledge or knowledge.enabled=false

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "labels": list(self.labels),
            "tips": [asdict(t) for t in self.tips],
            "pool": [asdict(t) for t in self.pool],
            "papers": [asdict(t) for t in self.papers],
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
            papers=tricks("papers"),
            disabled=bool(data.get("disabled")),
        )


RUN_MARK = ".automind-run"  # written first into every run folder: what makes a non-empty folder ours


def unowned_contents(folder: Path, mark: str) -> str | None:
    """The first names in `folder` when it holds something but not `mark` (the file a command writes first
    into a folder it owns), else None: a command that writes there could replace a user's files."""
    entries = sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []
    if not entries or mark in entries:
        return None
    return ", ".join(entries[:5]) + (f" and {len(entries) - 5} more" if len(entries) > 5 else "")


def out_dir_problem(run_dir: Path) -> str | None:
    """Why a new run may not write into run_dir (None when it may). A run writes submission.csv,
    report.html, holdout/, nodes/ and more, replacing what is there, so it takes only a new or empty folder,
    or one automind claimed for a run that was interrupted before its search began (it holds RUN_MARK)."""
    if run_dir.exists() and not run_dir.is_dir():
        return f"{run_dir} exists and is not a folder. Pass a new or empty folder with --out."
    if (run_dir / "journal.json").exists():
        return f"{run_dir} already holds a run. Use --resume {run_dir} to continue it, or another --out."
    if shown := unowned_contents(run_dir, RUN_MARK):
        return (
            f"{run_dir} is not empty ({shown}) and is not a run folder: a run writes submission.csv, "
            "report.html, holdout/, nodes/ and other files there and would replace any of the same name. "
            "Pass a new or empty folder with --out."
        )
    return None


class RunFolderError(ValueError):
    """The run folder cannot be taken: another process runs it, or it cannot be written."""


class RunInUse(RunFolderError):
    """Another automind process is running this run folder."""


class RunLock:
    """The run folder's mark, held open with an exclusive flock while one process runs the folder: a second
    `solve --resume` (or a `solve --out` racing the first) is refused instead of writing the same journal and
    nodes. The kernel drops the lock when the process ends, however it ends, so nothing stale is left; a lock
    dropped without close() (a run whose setup failed) is released when it is collected."""

    def __init__(self, fd: int, unguarded: str = ""):
        self.close = weakref.finalize(self, os.close, fd)  # callable once: closing unlocks
        self.unguarded = unguarded  # why the folder could not be locked (a fallback the run reports), if so
        self.release: Callable[[], None] = lambda: None  # gives a just-claimed folder back (a refused start)

    def give_back(self) -> None:
        self.close()
        self.release()

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def lock_run_dir(run_dir: Path) -> RunLock:
    """Lock run_dir's mark (created when missing: runs made before it existed); RunInUse when it is held."""
    import fcntl
    import socket
    from datetime import datetime

    mark = run_dir / RUN_MARK
    try:
        fd = os.open(mark, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise RunFolderError(
            f"cannot write in {run_dir} ({e.strerror}): a run keeps its journal and nodes there. Check the "
            "folder's permissions, or copy the run to a writable place and resume it there."
        ) from e
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError as e:
        holder = os.read(fd, 4096).decode("utf-8", "replace").strip().splitlines()[-1:]
        os.close(fd)
        raise RunInUse(
            f"{run_dir} is being run by another automind process right now ({holder[0] if holder else 'busy'}). "
            "Wait for it to finish, or stop it (Ctrl-C, or kill its pid), then resume with --resume."
        ) from e
    except OSError as e:  # a filesystem without locks (some network mounts): the run goes on, and says so
        unguarded = (
            f"run folder not locked ({e.strerror}): a second process resuming it at the same time would not "
            "be refused"
        )
    else:
        unguarded = ""
    os.ftruncate(fd, 0)
    started = datetime.now().isoformat(timespec="seconds")
    os.write(fd, f"{MARK_TEXT}pid {os.getpid()} on {socket.gethostname()}, since {started}\n".encode())
    return RunLock(fd, unguarded)


MARK_TEXT = "This folder holds an automind run (automind solve --out).\n"


def inside_task_problem(run_dir: Path, task: Task) -> str | None:
    """Why run_dir may not sit in the task's public/ or private/ folder (links followed): a run there would
    add its files to the task's inputs (every later run would read them) or put them beside the answers."""
    here = os.path.realpath(run_dir)
    for folder, what in ((task.public_dir, "inputs (public)"), (task.private_dir, "private answers")):
        if path_under(here, os.path.realpath(folder)):
            return (
                f"{run_dir} is inside the task's {what} folder {folder}: a run writes many files there. Pass "
                "--out with a folder outside the task's public/ and private/ (runs without --out go to the "
                "runs_dir setting, relative to the current folder)."
            )
    return None


def claim_run_dir(run_dir: Path) -> RunLock:
    """Create run_dir (or take an empty one), mark it as a run's and lock it. The lock's `give_back()` gives
    the folder back as it was (removed when it was new, emptied of the mark when it was empty) for a start
    refused after this; `close()` just unlocks, when the run ends."""
    new = not run_dir.exists()
    empty = not new and not any(run_dir.iterdir())
    run_dir.mkdir(parents=True, exist_ok=True)
    lock = lock_run_dir(run_dir)  # raises, touching nothing, when another process holds the folder

    def release() -> None:
        if new:
            shutil.rmtree(run_dir, ignore_errors=True)
        elif empty:
            (run_dir / RUN_MARK).unlink(missing_ok=True)

    lock.release = release
    return lock


def resolve_task(arg: str | os.PathLike[str]) -> Task:
    """A task folder, a bundled example name or a Kaggle competition (via automind.examples)."""
    path = Path(arg).expanduser()
    if not path.is_dir():
        from automind.examples import resolve_task as resolve

        path = Path(resolve(str(arg)))  # examples are built under $AUTOMIND_HOME/tasks, as `grade` expects
    return Task.load(path)


def require_readers(task: Task) -> None:
    """Refuse a task whose files automind cannot use as given before the run starts; otherwise every node
    would fail on them, or worse, run on misread rows: a Parquet table without pyarrow (the `parquet`
    extra), a binary file or a zip of several behind a table's name, text split by another separator than
    its suffix promises (csv_scan.table_problem), a sample submission whose lines all end with the separator
    (an empty column to fill) or whose ids repeat."""
    import importlib.util

    from automind.csv_scan import table_problem
    from automind.extras import install_hint
    from automind.task import TaskError

    tables = [p for p in (*task.train_paths, *task.test_paths) if p.is_file()]
    problems = [why for p in tables if (why := table_problem(p))]
    if task.sample_submission_path.is_file() and (
        why := table_problem(task.sample_submission_path, sample=True)
    ):
        problems.append(why)
    if why := repeated_sample_ids(task):
        problems.append(why)
    parquet = [p for p in tables if p.suffix.lower() == ".parquet"]
    if parquet and importlib.util.find_spec("pyarrow") is None:
        problems.append(
            f"{parquet[0]}: a Parquet table; reading it needs the 'pyarrow' package, not installed: "
            f"{install_hint('pyarrow')}"
        )
    if problems:
        raise TaskError(task.root, problems)


def repeated_sample_ids(task: Task) -> str | None:
    """Why no submission could be valid when the sample submission's id column repeats a value (submissions
    are matched to the answers on it, one row per id, as grading checks); None otherwise."""
    from automind.csv_scan import read_csv
    from automind.grading import quote_values, repeated_ids

    sample, id_col = task.sample_submission_path, task.spec.id_column
    if not id_col or not sample.is_file():
        return None
    try:
        repeated = repeated_ids(read_csv(sample, usecols=[id_col])[id_col])
    except (ValueError, OSError):  # an unreadable sample or a missing column: reported where it is read
        return None
    if not repeated:
        return None
    return (
        f"{sample}: the id column '{id_col}' repeats {len(repeated)} value(s) ({quote_values(repeated)}). "
        "Submissions are matched to the answers one row per id, so every submission would be refused: give "
        "each test row its own id in the test file and the sample submission (or name the right id column in "
        "task.yaml: id_column)"
    )


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
    for t in analysis.tables:
        if t.encoding:  # a guess between legacy code pages, so the report says which one
            fallbacks.append(
                f"{t.path} is not UTF-8 text: read as {t.encoding} (save it as UTF-8 to be sure)"
            )
    keys = ("problem_type", "modalities", "text_columns", "id_column", "target_columns")
    dumped = analysis.model_dump(mode="json")
    facts = {k: dumped[k] for k in keys if k in dumped}
    return analysis, analysis.render(), facts


def _label_text(label: Label) -> str:
    return f"{label.top}/{label.sub}" if label.top and label.sub else label.top


def load_knowledge(
    task: Task, analysis: DataAnalysis | None, settings: Settings, llm: LLM | None, fallbacks: list[str]
) -> RunKnowledge:
    """Labels, draft tips, paper summaries and the improve trick pool; failures become fallbacks.

    With an LLM the task is labelled and the tips distilled into 8-12 tricks checked for applicability
    (AutoMind), and improves draw from those same tricks; without one (or when distillation failed)
    improves draw from the ranked cards, recipes included, which the offline policy can execute.
    """
    from automind.retrieval import KnowledgeBase

    kb = None
    try:
        kb = KnowledgeBase.open(settings, llm=llm)
        tips = kb.tips(task, analysis=analysis, k=settings.knowledge.k, use_llm=llm is not None)
        fallbacks.extend(f"knowledge: {f}" for f in tips.fallbacks)
        distilled = [t for t in tips.tricks if t.kind == "distilled"]
        if llm is not None and distilled:
            pool = distilled
        else:
            pool = kb.trick_pool(task, analysis=analysis)
            if llm is not None:
                fallbacks.append(
                    "knowledge: no distilled tricks for improves (distillation fell back); improves "
                    "draw from the ranked cards and chunks"
                )
        return RunKnowledge(
            labels=[_label_text(label) for label in tips.labels],
            tips=list(tips.tricks),
            pool=pool,
            papers=_papers(kb, task, analysis, fallbacks) if llm is not None else [],
        )
    except Exception as e:  # noqa: BLE001 - the search runs without knowledge, and says so
        fallbacks.append(f"knowledge base unavailable ({type(e).__name__}: {e}); searching without knowledge")
        return RunKnowledge()
    finally:
        if kb is not None:  # what the run needs is copied out: release the store's files
            kb.store.close()


def _papers(kb: Any, task: Task, analysis: DataAnalysis | None, fallbacks: list[str]) -> list[Trick]:
    """The most relevant paper summaries (one per paper) for LLM drafts; a failure is a fallback."""
    try:
        return [t for t in kb.papers(task, k=PAPERS_K, analysis=analysis) if t.text.strip()]
    except Exception as e:  # noqa: BLE001 - drafts can do without papers, and the run says so
        fallbacks.append(f"knowledge: paper retrieval failed ({type(e).__name__}: {e}); drafts get no papers")
        return []


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
    settings: Settings,
    task: Task,
    labels: list[str],
    run_dir: Path,
    fallbacks: list[str],
    llm: LLM | None = None,
) -> RunMemory | None:
    """The experience memory for this run (Agent K), or None when disabled or unavailable (noted).

    With an LLM, verified fixes are written as the model's lesson (tip + worked example)."""
    if not settings.experience.enabled:
        return None
    try:
        from automind.experience import RunMemory, open_experience

        abstract = None
        if llm is not None:
            from automind.llm.tasks import abstract_fix

            abstract = partial(abstract_fix, llm)
        exp = open_experience(settings)
        return RunMemory(exp, task.slug, task.description, labels, run=run_dir.name, abstract=abstract)
    except Exception as e:  # noqa: BLE001 - the search runs without experience, and says so
        fallbacks.append(f"experience memory unavailable ({type(e).__name__}: {e}); searching without it")
        return None


def relocate_run(info: dict[str, Any], journal: Journal, run_dir: Path) -> None:
    """Point a moved or copied run at where it is now. Blends name their members' folders by absolute path
    (RUN/nodes/<id>); in a run folder that was moved since its last session those paths name the old place,
    so a blend would read stale files (or none) and its final refit would not find its members. Each such
    path in the journal and in nodes/<id>/code.py is rewritten; run.json keeps the folder (`run_dir`) and
    every earlier one (`moved_from`). Nothing changes when the run has not moved, or was made before run.json
    recorded its folder."""
    from automind.atomic import write_text
    from automind.refit import relocate

    here = str(run_dir.resolve())
    old = info.get("run_dir")
    info["run_dir"] = here
    if not isinstance(old, str) or old == here:
        return
    changed = False
    for node in journal.nodes:
        code = relocate(node.code or "", old, run_dir)
        if code != (node.code or ""):
            node.code, changed = code, True
            saved = run_dir / "nodes" / node.id / "code.py"
            if saved.is_file():
                write_text(saved, code)
    if changed:
        journal.save(run_dir / "journal.json")
    info.setdefault("moved_from", []).append(old)
