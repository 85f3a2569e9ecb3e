"""Data analysis without an LLM: what the files hold, computed once per task and cached as JSON.

Feeds the planner's prompts (`DataAnalysis.render()`), the offline labeller (`modalities`) and the
recipes (`problem_type`, `text_columns`, ...). Large tables are sampled (at most SAMPLE_ROWS rows are
read); row counts of big CSVs come from counting newlines, so nothing here loads a whole large file.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from automind.atomic import write_text
from automind.csv_scan import open_bytes, separator, table_suffix
from automind.patterns import (
    DATE_RE,
    ID_NAMES,
    NUMBER_SPLIT,
    NUMBER_TRIM,
    is_free_text,
    is_number_list,
    text_words,
)

if TYPE_CHECKING:
    import pandas as pd

    from automind.task import Task

SAMPLE_ROWS = 200_000
TABLE_SUFFIXES = (".csv", ".tsv", ".parquet", ".feather", ".json", ".jsonl")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff", ".webp", ".dcm")
AUDIO_SUFFIXES = (".wav", ".mp3", ".flac", ".ogg", ".aif", ".aiff", ".m4a", ".aac")
MAX_TREE = 40
# 2: a note on how the test rows differ (split_note); 3: entity keys they share; 4: numbered keys that are quantities;
# 5: the entity index of a panel is a key; 6: tables not in UTF-8 are read, their encoding named;
# 7: a table escaping its quotes with a backslash is read so, and said to be; 8: .txt, .data and .json tables,
# and rows that are not data (a units row, the header repeated) named
ANALYSIS_VERSION = 8


class ColumnInfo(BaseModel):
    name: str
    dtype: str
    kind: str  # numeric | categorical | text | datetime | id | boolean | constant
    missing_pct: float
    unique: int
    summary: str  # one short line: range/mean, top values, text length


class TableInfo(BaseModel):
    path: str  # relative to public/
    role: str = ""  # train | test | sample_submission | "" (other)
    rows: int
    rows_estimated: bool = False
    columns: list[ColumnInfo] = Field(default_factory=list)
    sample_rows: list[dict[str, Any]] = Field(default_factory=list)
    error: str | None = None
    encoding: str | None = None  # set when the text is not UTF-8: what it was read as (csv_scan.read_csv)
    escapechar: str | None = None  # set when quotes are escaped with it, not doubled (csv_scan.quote_escape)
    not_rows: str | None = None  # rows that are not data (runtime.header_rows) and how to read around them


class MediaInfo(BaseModel):
    count: int = 0
    extensions: dict[str, int] = Field(default_factory=dict)
    folders: list[str] = Field(default_factory=list)
    sizes: dict[str, int] = Field(default_factory=dict)  # "WxH" (images) or "16000 Hz, 1 ch" (audio) -> count
    total_mb: float = 0.0


class DataAnalysis(BaseModel):
    task: str
    fingerprint: str = ""
    version: int = ANALYSIS_VERSION
    metric: str = ""
    lower_is_better: bool | None = None
    n_files: int = 0
    total_mb: float = 0.0
    tree: list[str] = Field(default_factory=list)
    tables: list[TableInfo] = Field(default_factory=list)
    id_column: str | None = None
    target_columns: list[str] = Field(default_factory=list)
    target: dict[str, str] = Field(default_factory=dict)  # column -> distribution summary
    problem_type: str = "other"
    modalities: set[str] = Field(default_factory=set)
    text_columns: list[str] = Field(default_factory=list)
    datetime_columns: list[str] = Field(default_factory=list)
    id_like_columns: list[str] = Field(default_factory=list)  # user/item-style keys with repeats
    images: MediaInfo | None = None
    audio: MediaInfo | None = None
    notes: list[str] = Field(default_factory=list)

    def table(self, name: str) -> TableInfo | None:
        return next((t for t in self.tables if t.path == name or Path(t.path).name == name), None)

    def render(self, max_chars: int = 6000) -> str:
        """Compact Markdown for prompts; drops detail (columns, samples) until it fits in max_chars."""
        for cols, samples in ((60, 3), (40, 2), (25, 1), (12, 0), (6, 0)):
            text = _render(self, cols, samples)
            if len(text) <= max_chars:
                return text
        return text[: max_chars - 20] + "\n... [cut]\n"


# ---------------------------------------------------------------------------------------------- public API


def analyze(task: Task | str | Path, cache_path: str | Path | None = None) -> DataAnalysis:
    """Analyse the task's public files, reusing cache_path when the files have not changed."""
    if isinstance(task, str | Path):
        from automind.task import Task

        task = Task.load(task)
    fp = fingerprint(task.public_dir)
    cache = Path(cache_path) if cache_path else None
    if cache is not None and cache.is_file():
        try:
            cached = DataAnalysis.model_validate_json(cache.read_text(encoding="utf-8"))
            if cached.fingerprint == fp and cached.version == ANALYSIS_VERSION:
                return cached
        except ValueError:
            pass  # stale or corrupt cache: recompute
    result = _analyze(task)
    result.fingerprint = fp
    if cache is not None:
        write_text(cache, result.model_dump_json(indent=1))
    return result


def fingerprint(public: Path) -> str:
    """Names, sizes and mtimes of the public files: cheap, and changes whenever the data does."""
    h = hashlib.sha1()
    for root, dirs, files in os.walk(public):
        dirs.sort()
        for f in sorted(files):
            p = Path(root) / f
            try:
                st = p.stat()
            except OSError:
                continue
            h.update(f"{p.relative_to(public)}|{st.st_size}|{int(st.st_mtime)}\n".encode())
    return h.hexdigest()[:16]


# ---------------------------------------------------------------------------------------------- analysis


def _analyze(task: Task) -> DataAnalysis:
    public = task.public_dir
    # the shared symlink policy: a link into private/ is refused, so answers never reach the prompts
    files = sorted(e.path for e in task.public_files(allow_external=True) if not e.is_dir)
    da = DataAnalysis(task=task.name, metric=task.spec.metric.name, n_files=len(files))
    da.total_mb = round(sum(p.stat().st_size for p in files) / 2**20, 2)
    da.tree = file_tree(public, files)
    da.id_column = task.spec.id_column
    da.target_columns = list(task.spec.target_columns)
    metric = _metric(task)
    if metric is not None:
        da.lower_is_better = (
            metric.lower_is_better
            if task.spec.metric.lower_is_better is None
            else task.spec.metric.lower_is_better
        )

    frames: dict[str, pd.DataFrame] = {}
    roles = {p.resolve(): "train" for p in task.train_paths} | {p.resolve(): "test" for p in task.test_paths}
    roles[task.sample_submission_path.resolve()] = "sample_submission"
    order = {"train": 0, "test": 1, "sample_submission": 2, "": 3}
    tables = [
        p for p in files if not p.name.startswith(".") and (table_suffix(p) in TABLE_SUFFIXES or separator(p))
    ]
    for p in sorted(tables, key=lambda p: (order[roles.get(p.resolve(), "")], str(p))):
        rel = str(p.relative_to(public))
        role = roles.get(p.resolve(), "")
        info, df = _table(p, rel, SAMPLE_ROWS if role in ("train", "") else 20_000)  # test: a smaller sample
        info.role = role
        da.tables.append(info)
        if df is not None:
            frames[rel] = df
    da.images = _media(public, [p for p in files if p.suffix.lower() in IMAGE_SUFFIXES], _image_size)
    da.audio = _media(public, [p for p in files if p.suffix.lower() in AUDIO_SUFFIXES], _audio_shape)
    if not da.images.count:
        da.images = None
    if not da.audio.count:
        da.audio = None

    train = _frame_for(task.train_paths, public, frames)
    test = _frame_for(task.test_paths, public, frames)
    targets = [c for c in da.target_columns if train is not None and c in train.columns]
    if train is not None and test is not None and not targets:
        # e.g. one probability column per class in the submission, one label column in train
        extra = [c for c in train.columns if c not in test.columns and c != da.id_column]
        if len(extra) == 1:
            targets = extra
            da.notes.append(
                f"the label is train.csv column '{extra[0]}' (submission columns: {', '.join(da.target_columns)})"
            )
    if train is not None:  # targets are only ever found in a train table
        for c in targets:
            da.target[c] = _distribution(train[c])
    da.problem_type = task.spec.problem_type or _problem_type(train, targets, metric)
    sample = next((t for t in da.tables if t.role == "sample_submission"), None)
    if (
        train is not None
        and sample is not None
        and len(targets) == 1
        and da.problem_type in ("binary", "multiclass")
    ):
        columns = [c.name for c in sample.columns if c.name != da.id_column]
        if note := unseen_class_note(train[targets[0]], columns):
            da.notes.append(note)

    skip = set(targets) | ({da.id_column} if da.id_column else set())
    for info in da.tables:
        for col in info.columns:
            if col.name in skip:
                continue
            if col.kind == "text" and col.name not in da.text_columns:
                da.text_columns.append(col.name)
            if col.kind == "datetime" and col.name not in da.datetime_columns:
                da.datetime_columns.append(col.name)
            key_like = ID_NAMES.search(col.name.lower()) and col.kind in ("id", "categorical", "numeric")
            if key_like and col.name not in da.id_like_columns:
                da.id_like_columns.append(col.name)
    da.modalities = _modalities(da, train, targets)
    if train is not None and test is not None:
        missing = [c for c in train.columns if c not in test.columns and c not in targets]
        if missing:
            da.notes.append(f"columns in train but not in test: {', '.join(missing[:10])}")
        from automind.recipes.runtime import unfilled_columns

        unfilled = unfilled_columns(
            train, test, [c for c in train.columns if c in test.columns and c not in skip]
        )
        if unfilled:
            da.notes.append(f"columns no test row fills (every test value read is a gap): {', '.join(map(str, unfilled[:10]))}: "
                            "leave them out of the model, which would meet only gaps in the test rows")  # fmt: skip
        if note := split_note(train, test, skip, targets):
            da.notes.append(note)
        da.notes.extend(side_notes(task, train, set(targets)))
    if train is not None and (note := text_file_note(task, train, da.id_column)):
        da.notes.append(note)
    return da


def text_file_note(task: Task, train: pd.DataFrame, id_col: str | None) -> str | None:
    """Where each row's text is when the task gives it as a file per row (automind.recipes.profile.text_files),
    so a planner reads the files: the tables alone hold no text to learn from."""
    from automind.errors import RoleError
    from automind.recipes.profile import text_files

    try:
        found = text_files(task, train, id_col)
    except (RoleError, OSError):
        return None
    if found is None:
        return None
    train_dir, test_dir = (found[k].removeprefix("./input/") for k in ("train", "test"))
    has_test = any(p.is_file() for p in task.test_paths)
    return (
        f"each row's text is a file named by its {id_col}: {train_dir}/<{id_col}>.txt for the training rows, "
        f"{test_dir}/<{id_col}>.txt for the test rows"
        + ("" if has_test else f" (no test table: the test rows are the sample submission's {id_col} values)")
        + "; read them into a text column"
    )


def side_notes(task: Task, train: pd.DataFrame, targets: set[str]) -> list[str]:
    """The side tables the recipes join (automind.recipes.profile.side_tables), said so a planner joins them
    too: the key, and whether the table has one row per key or several to summarise."""
    from automind.errors import RoleError
    from automind.recipes.profile import side_tables
    from automind.recipes.runtime import key_name

    test = next((p for p in task.test_paths if p.is_file()), None)
    if test is None:
        return []
    try:
        found, _ = side_tables(task, train, test, targets)
    except (RoleError, OSError):
        return []  # the table that fails is named where it is read
    notes = []
    for path, side, _ in found:
        if side.get("parts"):
            halves = " and ".join(p.removeprefix("./input/") for p in side["parts"])
            notes.append(f"{path.name} (training rows) and {halves} (test rows) hold the rows' own details, keyed "
                         f"by {key_name(side['key'])}: stack them (test column names may differ in case or "
                         "punctuation) and join their columns on it; rows without a match get gaps")  # fmt: skip
            continue
        notes.append(f"{path.name} shares the key {key_name(side['key'])} with the training and test rows: join "
                     "its columns on it (when a key has several rows there, summarise them per key first: count, "
                     "mean, min, max)")  # fmt: skip
        notes += [f"{child['path'].removeprefix('./input/')} is keyed by {key_name(child['key'])} of {path.name}: "
                  f"join it onto {path.name} (summarised per key the same way) before {path.name} meets the rows"
                  for child in side.get("children", [])]  # fmt: skip
    return notes


def unseen_class_note(label: pd.Series, columns: list[str]) -> str | None:
    """Submission columns naming no class of the training label (beside columns that do): a class the
    training rows never show, which must get a small probability, not an index error or a zero."""
    classes = {str(v) for v in label.dropna().unique()}
    unseen = [c for c in columns if c not in classes]
    if not unseen or len(unseen) == len(columns):
        return None
    return (
        f"submission column(s) {_names(unseen)} name no class of '{label.name}' in the training rows: write "
        "each a small probability (e.g. 1 / (labelled rows + columns)) and keep the rest for the known classes"
    )


def _target_columns(y: pd.Series) -> list[Any]:
    """A label as float columns for `order_ratio`: a numeric one with many values as it is, else one
    indicator per class (at most 20)."""
    from pandas.api.types import is_numeric_dtype

    if is_numeric_dtype(y) and y.nunique() > 10:
        return [y.to_numpy(dtype=float)]
    return [(y == v).to_numpy(dtype=float) for v in y.dropna().unique()[:20]]


def split_note(
    train: pd.DataFrame, test: pd.DataFrame, skip: set[str], targets: list[str] | None = None
) -> str | None:
    """How the test rows differ from the training rows (the holdout's rules, automind.holdout.split), said
    so a planner validates the same way; for a random share, the entity keys they share and the numbered
    ones among them whose target means follow their numbers (as the recipe scripts find them), or None."""
    from automind.holdout.split import group_column, time_column
    from automind.recipes.runtime import key_columns, quantities

    def text(df: pd.DataFrame) -> pd.DataFrame:
        return df.astype(str).where(df.notna(), "")

    a, b = text(train), text(test)
    if column := time_column(a, b, skip):
        return (
            f"the test rows come after the training rows by '{column}' (a forecast): validate on the latest "
            "rows or on blocks of consecutive times, not on shuffled folds"
        )
    if found := group_column(a, b, skip):
        column, overlap = found
        return (
            f"the test rows are mostly new groups of '{column}' ({overlap:.0%} share a training value): keep "
            "each group in one validation fold (GroupKFold), not shuffled folds"
        )
    keys = key_columns(train, test, {"target": sorted(skip)})
    numbers = []
    if keys and targets and len(targets) == 1 and targets[0] in train.columns:
        numbers = list(quantities(train, keys, _target_columns(train[targets[0]])))
    notes = []
    if entities := [k for k in keys if k not in numbers]:
        notes.append(
            f"{_names(entities)}: entity keys the test rows share (levels repeat and name entities: a key's "
            "name, columns constant within a level, or one row per level and period): give each level its own "
            "value (a smoothed out-of-fold target mean, one-hot, or a categorical feature) beside the number"
        )
    if numbers:
        notes.append(
            f"{_names(numbers)}: repeat like keys, but the target's means follow their numbers: quantities; "
            "keep the number, no per-level target mean (it only adds noise to what a split finds)"
        )
    return "; ".join(notes) or None


def _names(columns: list[str]) -> str:
    return ", ".join(f"'{c}'" for c in columns[:5])


def _metric(task: Task):
    try:
        from automind.metrics import get_metric

        return get_metric(task.spec.metric.name)
    except Exception:  # noqa: BLE001 - an unknown metric only loses the direction/kind hint
        return None


def _frame_for(paths: list[Path], public: Path, frames: dict[str, pd.DataFrame]) -> pd.DataFrame | None:
    for p in paths:
        try:
            rel = str(p.relative_to(public))
        except ValueError:
            continue
        if rel in frames:
            return frames[rel]
    return None


def file_tree(public: Path, files: list[Path]) -> list[str]:
    """One line per top-level entry; folders summarised by file count and extensions (capped)."""
    lines: list[str] = []
    top: dict[str, list[Path]] = {}
    for p in files:
        parts = p.relative_to(public).parts
        top.setdefault(parts[0] + ("/" if len(parts) > 1 else ""), []).append(p)
    for name in sorted(top):
        group = top[name]
        if name.endswith("/"):
            exts = Counter(p.suffix.lower() or "(none)" for p in group).most_common(4)
            size = sum(p.stat().st_size for p in group)
            examples = ", ".join(str(p.relative_to(public / name)) for p in group[:3])
            ext_text = ", ".join(f"{n} {e}" for e, n in exts)
            lines.append(f"{name} ({len(group)} files: {ext_text}; {_mb(size)}) e.g. {examples}")
        else:
            lines.append(f"{name} ({_mb(group[0].stat().st_size)})")
        if len(lines) >= MAX_TREE:
            lines.append(f"... {len(top) - MAX_TREE} more entries")
            break
    return lines


def _mb(n: int) -> str:
    return f"{n / 2**20:.1f} MB" if n >= 2**20 else f"{n / 1024:.1f} kB"


def count_lines(path: Path, limit_bytes: int = 2 * 2**30) -> tuple[int, bool]:
    """Data rows of a text table (header excluded), counted in binary chunks; estimated past limit_bytes."""
    n = read = 0
    size = path.stat().st_size
    last = b"\n"
    with open_bytes(path) as f:
        while chunk := f.read(1 << 22):
            n += chunk.count(b"\n")
            read += len(chunk)
            last = chunk[-1:]
            if read >= limit_bytes:  # a compressed file's size says nothing of its rows: a lower bound then
                scale = size / read if table_suffix(path) == path.suffix.lower() else 1.0
                return max(0, int(n * scale) - 1), True
    if last != b"\n":
        n += 1
    return max(0, n - 1), False


def _read_table(path: Path) -> tuple[pd.DataFrame, int, bool]:
    import pandas as pd

    from automind.csv_scan import read_csv

    suffix = table_suffix(path)  # train.csv.gz is a .csv; pandas decompresses it by its name
    if sep := separator(path):  # .csv, .tsv, and a .txt (or UCI's .data) whose lines split alike
        df = read_csv(path, sep=sep, nrows=SAMPLE_ROWS, low_memory=False)
        if len(df) < SAMPLE_ROWS:
            return df, len(df), False
        rows, est = count_lines(path)
        return df, rows, est
    if suffix == ".jsonl":
        df = pd.read_json(path, lines=True, nrows=SAMPLE_ROWS)
        if len(df) < SAMPLE_ROWS:
            return df, len(df), False
        rows, est = count_lines(path)
        return df, rows + 1, est
    if suffix == ".json":
        from automind.recipes.runtime import json_cells

        df = json_cells(pd.read_json(path))
        return df.head(SAMPLE_ROWS), len(df), False
    df = pd.read_parquet(path) if suffix == ".parquet" else pd.read_feather(path)
    return df.head(SAMPLE_ROWS), len(df), False


def _table(path: Path, rel: str, stats_rows: int = SAMPLE_ROWS) -> tuple[TableInfo, pd.DataFrame | None]:
    try:
        df, rows, est = _read_table(path)
    except Exception as e:  # noqa: BLE001 - report unreadable files instead of failing the whole analysis
        msg = str(e).splitlines()[0][:200] if str(e) else type(e).__name__
        return TableInfo(path=rel, rows=0, error=f"could not read: {msg}"), None
    info = TableInfo(path=rel, rows=rows, rows_estimated=est, encoding=df.attrs.get("encoding"),
                     escapechar=df.attrs.get("escapechar"))  # fmt: skip
    if len(df) and (note := _not_rows(df)):
        info.not_rows, df = note
    part = df.head(stats_rows)
    info.columns = [_column(part[c], str(c)) for c in df.columns]
    for row in df.head(3).to_dict("records"):
        info.sample_rows.append({str(k): _short(v) for k, v in row.items()})
    return info, df


def _not_rows(df: pd.DataFrame) -> tuple[str, pd.DataFrame] | None:
    """What to tell a coder about rows of a delimited table that are not data (a units row under the header,
    the header repeated: runtime.header_rows, which the recipes leave out) and the frame without them, its
    columns typed anew; None when every row is data."""
    import numpy as np

    from automind.recipes.runtime import data_rows, header_rows

    if sum(df[c].dtype == object for c in df.columns) < 2:
        return None
    extra = header_rows(df)
    if not extra.any():
        return None
    units = bool(extra.iloc[0]) and not (df.iloc[0].astype(str) == df.columns.astype(str)).any()
    repeated = int(extra.sum()) - units
    notes = []
    if units:
        shown = [str(v).strip() for v in df.iloc[0].dropna() if str(v).strip()][:3]
        notes.append(f"the row under the header gives the columns' units ({', '.join(map(repr, shown))}), "
                     "not data: read with `pd.read_csv(path, skiprows=[1])`")  # fmt: skip
    if repeated:
        first = df.columns[0]
        at = int(np.flatnonzero(extra.to_numpy()[int(units) :])[0]) + int(units) + 1
        notes.append(f"{repeated} row(s) repeat the header (the first at data row {at}): drop them "
                     f"(`df = df[df[{first!r}] != {first!r}]`) and convert the columns with `pd.to_numeric`")  # fmt: skip
    return "In the first rows read, " + "; ".join(notes) + ".", data_rows(df, "", say=False)


def _short(v: Any, n: int = 60) -> Any:
    if isinstance(v, float) and v != v:
        return None
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, str) and len(v) > n:
        return v[:n] + "..."
    if not isinstance(v, (int, float, bool, str, type(None))):
        v = str(v)[:n]
    return v


def _column(s: pd.Series, name: str) -> ColumnInfo:
    import pandas as pd

    n = len(s)
    missing = float(s.isna().mean() * 100) if n else 0.0
    try:
        unique = int(s.nunique(dropna=True))
    except TypeError:  # unhashable values (lists from JSON)
        unique = int(s.astype(str).nunique())
    kind, summary = "categorical", ""
    nonnull = s.dropna()
    if unique <= 1:
        kind, summary = "constant", f"single value {_short(nonnull.iloc[0]) if len(nonnull) else None!r}"
    elif pd.api.types.is_bool_dtype(s):
        kind, summary = "boolean", _top(nonnull)
    elif pd.api.types.is_datetime64_any_dtype(s):
        kind, summary = "datetime", f"{nonnull.min()} .. {nonnull.max()}"
    elif pd.api.types.is_numeric_dtype(s):
        kind = (
            "id"
            if unique == len(nonnull) and pd.api.types.is_integer_dtype(s) and _id_name(name)
            else "numeric"
        )
        summary = f"range {_num(nonnull.min())} .. {_num(nonnull.max())}, mean {_num(nonnull.mean())}"
        if pd.api.types.is_integer_dtype(s) and unique <= 20:
            summary += f"; values {_top(nonnull)}"
    else:
        text = nonnull.astype(str)
        import numpy as np

        head = text.head(3000).tolist()  # length statistics from a sample: plain Python is fastest here
        lengths = pd.Series(np.fromiter((len(x) for x in head), dtype=float, count=len(head)))
        words = pd.Series(np.fromiter((text_words(x) for x in head), dtype=float, count=len(head)))
        if _looks_datetime(text):
            kind = "datetime"
            summary = f"dates like {text.iloc[0]!r} .. {text.iloc[-1]!r}"
        elif is_number_list(head[:2000]):
            counts = {len(NUMBER_SPLIT.split(NUMBER_TRIM.sub("", x))) for x in head[:2000]}
            kind = "numeric"
            shape = (
                f"{counts.pop()} numbers per row"
                if len(counts) == 1
                else f"{min(counts)}-{max(counts)} numbers"
            )
            summary = f"several numbers in each cell ({shape}, e.g. {_short(text.iloc[0], 40)!r}): split into numbers"
        elif is_free_text(head, round(unique * len(head) / len(text))):
            kind = "text"
            summary = (
                f"free text, {lengths.mean():.0f} chars mean (median {lengths.median():.0f}, max {lengths.max():.0f}), "
                f"{words.mean():.0f} words mean"
            )
        elif unique == len(text) and _id_name(name):
            kind, summary = "id", f"unique strings like {text.iloc[0]!r}"
        elif unique > 0.5 * len(text):
            summary = f"high cardinality ({unique} distinct in {len(text)} rows), e.g. " + ", ".join(
                repr(_short(v, 30)) for v in text.head(3)
            )
        else:
            summary = f"{unique} levels; top {_top(nonnull)}"
    return ColumnInfo(name=name, dtype=str(s.dtype), kind=kind, missing_pct=round(missing, 1), unique=unique,
                      summary=summary)  # fmt: skip


def _id_name(name: str) -> bool:
    low = name.lower()
    return (
        low in ("id", "index", "key", "uid", "guid")
        or low.endswith(("id", "_id", "_key"))
        or low.startswith("id_")
    )


def _num(x: Any) -> str:
    x = float(x)
    return f"{x:.4g}" if abs(x) < 1e6 else f"{x:.3e}"


def _top(s: pd.Series, k: int = 5) -> str:
    vc = s.astype(str).value_counts()
    parts = [f"{_short(v, 30)} ({c / max(1, len(s)) * 100:.0f}%)" for v, c in vc.head(k).items()]
    return ", ".join(parts) + (f", ... {len(vc) - k} more" if len(vc) > k else "")


def _looks_datetime(text: pd.Series) -> bool:
    sample = text.head(200)
    if not len(sample):
        return False
    return sample.str.match(DATE_RE).mean() >= 0.9


def _distribution(y: pd.Series) -> str:
    import pandas as pd

    y = y.dropna()
    n = y.nunique()
    if pd.api.types.is_numeric_dtype(y) and (n > 20 or pd.api.types.is_float_dtype(y) and (y % 1 != 0).any()):
        q = y.quantile([0.05, 0.5, 0.95])
        # pandas-stubs types skew() as any scalar; a numeric Series' skew is a float
        skew = float(y.skew()) if len(y) > 2 else 0.0  # type: ignore[arg-type]
        text = (
            f"numeric: mean {_num(y.mean())}, std {_num(y.std())}, min {_num(y.min())}, 5% {_num(q.iloc[0])}, "
            f"median {_num(q.iloc[1])}, 95% {_num(q.iloc[2])}, max {_num(y.max())}, skew {skew:.2f}"
        )
        if y.min() > 0 and skew > 1:
            text += " (right-skewed and positive: a log transform usually helps)"
        return text
    vc = y.astype(str).value_counts()
    parts = [f"{v}: {c} ({c / len(y) * 100:.1f}%)" for v, c in vc.head(12).items()]
    more = f", ... {len(vc) - 12} more classes" if len(vc) > 12 else ""
    ratio = vc.iloc[0] / max(1, vc.iloc[-1])
    imbalance = f"; imbalance {ratio:.1f}:1" if ratio >= 3 else ""
    return f"{len(vc)} classes: " + ", ".join(parts) + more + imbalance


def _problem_type(train: pd.DataFrame | None, targets: list[str], metric) -> str:
    if train is None or not targets or metric is None:
        if metric is not None and metric.kind == "value":
            return "regression"
        return "other"
    if len(targets) > 1:
        y = train[targets]
        if metric.kind in ("proba", "label") and all(set(y[c].dropna().unique()) <= {0, 1} for c in targets):
            return "multilabel"
        return "regression" if metric.kind == "value" else "multilabel"
    from automind.prepare import infer_problem_type

    return infer_problem_type(train[targets[0]], metric)


def _modalities(da: DataAnalysis, train: pd.DataFrame | None, targets: list[str]) -> set[str]:
    mods: set[str] = set()
    feature_cols = [
        c for t in da.tables for c in t.columns
        if c.name not in targets and c.name != da.id_column and c.kind not in ("id", "constant")
    ]  # fmt: skip
    if any(c.kind in ("numeric", "categorical", "boolean") for c in feature_cols):
        mods.add("tabular")
    if da.text_columns:
        mods.add("text")
    if da.images:
        mods.add("image")
    if da.audio:
        mods.add("audio")
    if da.datetime_columns:
        mods.add("time")
    if len(da.id_like_columns) >= 2 or any("user" in c.lower() for c in da.id_like_columns):
        mods.add("ids")
    if not mods and da.tables:
        mods.add("tabular")
    return mods


# ---------------------------------------------------------------------------------------------- media


def _media(public: Path, files: list[Path], shape_of) -> MediaInfo:
    info = MediaInfo(count=len(files))
    if not files:
        return info
    info.extensions = dict(Counter(p.suffix.lower() for p in files).most_common())
    info.folders = sorted({str(p.parent.relative_to(public)) for p in files})[:10]
    info.total_mb = round(sum(p.stat().st_size for p in files) / 2**20, 2)
    step = max(1, len(files) // 30)
    shapes: Counter[str] = Counter()
    for p in files[::step][:30]:
        try:
            shape = shape_of(p)
        except (OSError, ValueError, struct.error, EOFError):
            shape = None
        shapes[shape or "unknown"] += 1
    info.sizes = dict(shapes.most_common(8))
    return info


def _image_size(path: Path) -> str | None:
    """Width x height, read by Pillow from the file header (the pixels are never decoded)."""
    from PIL import Image

    with Image.open(path) as im:
        return f"{im.width}x{im.height}"


def _audio_shape(path: Path) -> str | None:
    if path.suffix.lower() != ".wav":
        return None
    import wave

    with wave.open(str(path), "rb") as w:
        secs = w.getnframes() / max(1, w.getframerate())
        return f"{w.getframerate()} Hz, {w.getnchannels()} ch, ~{secs:.0f} s"


# ---------------------------------------------------------------------------------------------- rendering


def _render(da: DataAnalysis, max_cols: int, samples: int) -> str:
    out = [f"## Data analysis: {da.task}"]
    direction = (
        ""
        if da.lower_is_better is None
        else (", lower is better" if da.lower_is_better else ", higher is better")
    )
    targets = ", ".join(f"`{t}`" for t in (list(da.target) or da.target_columns)) or "?"
    out.append(
        f"Problem: {da.problem_type}; target {targets}; metric {da.metric}{direction}. "
        f"Modalities: {', '.join(sorted(da.modalities)) or 'unknown'}. "
        f"{da.n_files} files, {da.total_mb:g} MB."
    )
    out.append("\n### Files\n" + "\n".join(f"- {line}" for line in da.tree))
    train_cols: list[str] | None = None
    for t in da.tables:
        rows = f"~{t.rows}" if t.rows_estimated else str(t.rows)
        if t.error:
            out.append(f"\n### {t.path}: {t.error}")
            continue
        names = [c.name for c in t.columns]
        if t.role == "sample_submission":
            example = json.dumps(t.sample_rows[0], default=str)[:300] if t.sample_rows else ""
            out.append(
                f"\n### {t.path} (submission format): {rows} rows; columns {', '.join(names)}; e.g. {example}"
            )
            continue
        out.append(f"\n### {t.path}: {rows} rows x {len(t.columns)} columns")
        if t.encoding:
            out.append(
                f"Not UTF-8 text: it reads as {t.encoding}. Try UTF-8 first, then {t.encoding} "
                f"(`pd.read_csv(path, encoding='{t.encoding}')` after a UnicodeDecodeError)."
            )
        if t.not_rows:
            out.append(t.not_rows)
        if t.escapechar:
            out.append(
                "Quotes inside its quoted fields are escaped with a backslash, not doubled: read it with "
                f"`pd.read_csv(path, escapechar={t.escapechar!r})` (without it rows split into extra fields)."
            )
        if train_cols is not None and set(names) <= set(train_cols) and len(names) > 3:
            dropped = [c for c in train_cols if c not in names]
            out.append(
                f"Same columns as the training table{' minus ' + ', '.join(dropped) if dropped else ''}."
            )
            continue
        if train_cols is None and len(names) > 3:
            train_cols = names
        for c in t.columns[:max_cols]:
            miss = f", {c.missing_pct:g}% missing" if c.missing_pct else ""
            out.append(f"- `{c.name}` {c.dtype} {c.kind}{miss}, {c.unique} unique: {c.summary}")
        if len(t.columns) > max_cols:
            rest = t.columns[max_cols:]
            out.append(f"- ... {len(rest)} more: " + ", ".join(f"{c.name} ({c.kind})" for c in rest[:80]))
        for row in t.sample_rows[:samples]:
            out.append("  sample: " + json.dumps(row, default=str)[:400])
    if da.target:
        out.append("\n### Target")
        out.extend(f"- `{k}`: {v}" for k, v in da.target.items())
    if da.text_columns:
        out.append(f"\nText columns: {', '.join(da.text_columns)}")
    if da.datetime_columns:
        out.append(f"Datetime columns: {', '.join(da.datetime_columns)}")
    if da.id_like_columns:
        out.append(f"Key columns (user/item-like): {', '.join(da.id_like_columns)}")
    for label, m in (("Images", da.images), ("Audio", da.audio)):
        if m:
            exts = ", ".join(f"{n} {e}" for e, n in m.extensions.items())
            sizes = ", ".join(f"{s} ({n})" for s, n in m.sizes.items())
            out.append(
                f"{label}: {m.count} files ({exts}; {m.total_mb:g} MB) in {', '.join(m.folders)}; sampled: {sizes}"
            )
    if da.notes:
        out.append("\nNotes:\n" + "\n".join(f"- {n}" for n in da.notes))
    return "\n".join(out) + "\n"
