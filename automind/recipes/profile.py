"""What the recipes need to know about a task, read from its files (and the analysis facts when present).

The profile is small and deterministic: paths as the script sees them (./input/...), id/target columns,
problem type, metric name/kind/direction, column kinds and a set of flags that recipe cards declare in
`applies.needs` (see docs/recipes.md). Text columns are detected here on purpose with a strict rule, so a
name or address column never turns a tabular task into a text task.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from automind.csv_scan import default_separator, separator, table_suffix
from automind.errors import RoleError
from automind.task import Task, test_partner

TABLE_SUFFIXES = (".csv", ".tsv", ".parquet", ".json", ".jsonl")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff", ".npy", ".pgm", ".ppm")
PROFILE_ROWS = 200_000
SIDE_MIN_SHARE = 0.5  # a side table must hold this share of the training and of the test rows' keys
PAIR_MIN_SHARE = 0.05  # a train_X/test_X pair names the rows' own tables: a key found for some rows is enough
SIDE_MAX_MB = 1024  # larger side tables are left out (each script reads them whole)
SIDE_KEY_COLUMNS = 8  # with at most this many shared columns, pairs of them are tried as a key too
SIDE_DEPTH = 2  # side tables are looked for at the top of public/ and in folders up to this deep
SIDE_MAX_TABLES = 20  # a folder holding more tables is a file per series or row, not side tables
# Every flag a card's `applies.needs` may name: those profile_task sets, and `siblings` (the recipe roles add
# it when earlier valid nodes exist). docs/recipes.md says what each means.
FLAGS = frozenset({
    "categorical", "high_cardinality", "numeric_pairs", "numeric_and_categorical", "tabular_features", "missing",
    "text", "images", "small", "enough_rows", "large", "nonneg_target", "skewed_target", "imbalanced",
    "catboost", "new_groups", "siblings",
})  # fmt: skip


@dataclass
class Profile:
    train: str
    test: str
    sample: str
    id: str | None
    target: list[str]
    problem: str
    metric: str
    metric_params: dict[str, Any]
    lower_is_better: bool
    kind: str  # label | proba | value | ranking
    modalities: list[str]  # primary first: image > text > tabular
    text_cols: list[str] = field(default_factory=list)
    image_col: str | None = None
    image_size: int = 16
    n_rows: int = 0
    n_features: int = 0
    flags: set[str] = field(default_factory=set)
    threads: int = 2
    fold_seed: int = 0  # the run's seed: every node validates on the same folds
    split: dict[str, str] | None = None  # how the test rows differ: {"kind": time|group, "column": ...}
    side_tables: list[dict[str, Any]] = field(default_factory=list)  # [{"path": ./input/..., "key": col(s)}]
    side_left_out: dict[str, str] = field(default_factory=dict)  # other public tables -> why not joined
    labels_as_written: bool = False  # class codes pandas would turn into other numbers ("01" -> 1)
    train_parts: list[str] = field(default_factory=list)  # more training tables with train's columns
    test_parts: list[str] = field(default_factory=list)  # more test tables with test's columns
    class_folders: bool = False  # no tables: train/<class>/<image> and test/<image> (runtime.folder_tables)
    text_files: dict[str, str] | None = None  # each row's text in <folder>/<id>.txt (runtime.file_texts)

    @property
    def primary(self) -> str:
        return self.modalities[0]

    def cfg(self) -> dict[str, Any]:
        """The CFG literal every generated script starts from."""
        return {
            "train": self.train,
            "test": self.test,
            "sample": self.sample,
            "input": "./input",
            "out": "./submission",
            "work": "./working",
            "id": self.id,
            "target": list(self.target),
            "problem": self.problem,
            "metric": self.metric,
            "metric_params": dict(self.metric_params),
            "lower_is_better": self.lower_is_better,
            "kind": self.kind,
            "text_cols": list(self.text_cols),
            "image_col": self.image_col,
            "image_size": self.image_size,
            "seed": 0,
            "fold_seed": self.fold_seed,
            "folds": 5 if self.n_rows <= 20000 else 3,  # bagging gains less, and costs more, on big tables
            "bags": 1,
            "threads": self.threads,
            "n_rows": self.n_rows,
            **({"split": dict(self.split)} if self.split else {}),
            **({"side_tables": [dict(t) for t in self.side_tables]} if self.side_tables else {}),
            **({"side_left_out": dict(self.side_left_out)} if self.side_left_out else {}),
            **({"labels_as_written": True} if self.labels_as_written else {}),
            **({"train_parts": list(self.train_parts)} if self.train_parts else {}),
            **({"test_parts": list(self.test_parts)} if self.test_parts else {}),
            **({"class_folders": True} if self.class_folders else {}),
            **({"text_files": dict(self.text_files)} if self.text_files else {}),
        }


def _rel(task: Task, path: Path) -> str:
    return "./input/" + path.relative_to(task.public_dir).as_posix()


def is_table(path: Path) -> bool:
    """A file the recipes read as a table: by its suffix (TABLE_SUFFIXES), or a .txt whose lines split alike
    (automind.csv_scan.separator)."""
    return path.is_file() and (table_suffix(path) in TABLE_SUFFIXES or separator(path) is not None)


def _first_table(paths: list[Path], what: str, task: Task) -> Path:
    """The first table among `paths` (or inside a folder among them); a RoleError naming what was found
    when there is none."""
    for p in paths:
        if is_table(p):
            return p
    for p in paths:  # a folder named train/ may hold the table
        if p.is_dir():
            for q in sorted(p.iterdir()):
                if is_table(q):
                    return q
    raise RoleError(
        f"recipes need a {what} table (csv/tsv, plain or compressed, parquet/json) in {task.public_dir}; found only "
        f"{[p.name for p in paths] or 'nothing'}. List it in task.yaml ({what}_files)."
    )


def _read(path: Path, nrows: int | None = None, text: bool = False):
    """A table as pandas reads it (`text`: delimited files as strings, "" for a gap, as the holdout reads
    them); a malformed file is a RoleError naming the file; text not in UTF-8 is read as
    automind.csv_scan.read_csv reads it."""
    import pandas as pd

    from automind.csv_scan import read_csv

    name = table_suffix(path)  # train.csv.gz reads as a .csv; pandas decompresses it by its name
    try:
        if name.endswith(".parquet"):
            df = pd.read_parquet(path)
            return df.head(nrows) if nrows else df
        if name.endswith((".json", ".jsonl")):
            from automind.recipes.runtime import json_cells

            return json_cells(pd.read_json(path, lines=name.endswith(".jsonl"),
                                           nrows=nrows if name.endswith(".jsonl") else None))  # fmt: skip
        from automind.recipes.runtime import data_rows, header_rows

        sep = default_separator(path)
        if text:
            df = read_csv(path, sep=sep, nrows=nrows, dtype=str, keep_default_na=False)
            return df[~header_rows(df)].reset_index(drop=True)
        return data_rows(read_csv(path, sep=sep, nrows=nrows, low_memory=False), path.name, say=False)
    except (ValueError, OSError, ImportError) as e:  # ParserError, EmptyDataError; Parquet without pyarrow
        raise RoleError(f"recipes cannot read {path.name}: {type(e).__name__}: {e}") from e


def _is_text(s) -> bool:
    """Free text (automind.patterns.is_free_text) among the first 2,000 values of a text column."""
    from automind.patterns import is_free_text

    if s.dtype != object:
        return False
    v = s.dropna().astype(str).head(2000)
    return len(v) >= 10 and is_free_text(v.tolist(), v.nunique())


def _only_strings(train, feats: list[str]) -> list[str]:
    """The near-unique strings (molecules as SMILES, codes of a sequence) when every other feature is constant:
    the clean step drops such columns as ids, which would leave nothing to learn from, so they are read as
    text (by their characters) instead. Empty otherwise."""
    from automind.recipes import runtime

    strings = [c for c in feats if runtime._id_like(train[c])]
    rest = [c for c in feats if c not in strings and train[c].nunique(dropna=False) > 1]
    return strings if strings and not rest else []


def _image_files(root: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for dirpath, _, files in os.walk(root):
        for f in sorted(files):
            if f.lower().endswith(IMAGE_SUFFIXES):
                p = Path(dirpath) / f
                found.setdefault(f, p)
                found.setdefault(Path(f).stem, p)
    return found


def _native_size(path: Path) -> int:
    """Largest side of one image, so the recipe never upsamples tiny images (digits are 8x8)."""
    import numpy as np

    from automind.recipes import runtime

    try:
        img = np.load(path) if path.suffix == ".npy" else runtime.read_image(path)
        return int(max(img.shape[:2]))
    except Exception:  # noqa: BLE001 - unknown format: the script will say so; assume a medium size
        return 32


def _codes_change(text, parsed) -> bool:
    """Whether pandas reads a class column as numbers that are not what the file says ("01" -> 1, "1.50"
    -> 1.5): the submission must write the codes as written, and the grader of a competition compares text.
    `text` is the column as written (a text sample of the file), `parsed` as pandas read it."""
    import numpy as np

    if not np.issubdtype(parsed.dtype, np.number):
        return False
    text = text[text != ""].head(len(parsed))
    numbers = parsed.head(len(text))
    return bool((text.to_numpy() != numbers.astype(str).to_numpy()).any())


def _text_sample(path: Path):
    """A bounded sample of a delimited table as text ("" for a gap), as the holdout reads it; None for other
    formats or an unreadable file."""
    if table_suffix(path) not in (".csv", ".tsv"):
        return None
    try:
        return _read(path, PROFILE_ROWS, text=True)
    except RoleError:
        return None


def side_tables(
    task: Task, train, test_path: Path, target: set[str]
) -> tuple[list[tuple[Path, dict[str, Any], Any]], dict[str, str]]:
    """Public tables beside train and test (`_side_candidates`) that share a key with both (`_best_key`): a shop's
    attributes in stores.csv, an applicant's past loans in bureau.csv. Returns each as (path, {"path": as the
    script sees it, "key": its column or columns}, the table as read), the scripts joining their features
    in load_data, and the tables left out with the reason (file name -> why), which every script logs: one
    holding the target (a labels table), one larger than SIDE_MAX_MB, one sharing no key or too few of its
    values. A table sharing no column with the rows but a key with a side table found is joined onto that
    table first (`_nested`); a training table with a test table of the same name is read as one (`_pairs`).
    """
    from automind.recipes import runtime

    candidates, left = _side_candidates(task)
    found: list[tuple[Path, dict[str, Any], Any]] = []
    unkeyed: list[tuple[Path, str, Any]] = []
    pairs = _pairs(task, list(train.columns), test_path, left)
    if not candidates and not pairs:
        return found, left
    test = _read(test_path, PROFILE_ROWS)
    for first, second in pairs:
        name = (
            f"{_rel(task, first).removeprefix('./input/')} with {_rel(task, second).removeprefix('./input/')}"
        )
        try:
            table = runtime.stack_tables(_read(first), _read(second))
        except RoleError as e:
            left[name] = str(e)
            continue
        shared = [str(c) for c in table.columns if c in train.columns and c in test.columns]
        best = (
            _best_key(table, train, test, shared, PAIR_MIN_SHARE)
            if len(table.columns) > len(shared)
            else None
        )
        if best and best[0] >= PAIR_MIN_SHARE:
            found.append(
                (first, {"path": _rel(task, first), "parts": [_rel(task, second)], "key": best[1]}, table)
            )
        else:
            left[name] = (f"no column names {PAIR_MIN_SHARE:.0%} of the training and test rows (its best, "
                          f"{runtime.key_name(best[1])}, {best[0]:.0%})" if best else
                          "it shares no column with both the training and the test table")  # fmt: skip
    for path in candidates:
        name = path.relative_to(task.public_dir).as_posix()
        if path.stat().st_size > SIDE_MAX_MB * 2**20:
            left[name] = f"larger than {SIDE_MAX_MB} MB (each script would read it whole)"
            continue
        try:
            table = _read(path)
        except RoleError as e:
            left[name] = str(e)
            continue
        if held := sorted(set(map(str, table.columns)) & target):
            left[name] = f"it holds the target column(s) {held}"
            continue
        shared = [str(c) for c in table.columns if c in train.columns and c in test.columns]
        best = _best_key(table, train, test, shared) if len(table.columns) > len(shared) else None
        if best and best[0] >= SIDE_MIN_SHARE:
            found.append((path, {"path": _rel(task, path), "key": best[1]}, table))
        elif best:
            left[name] = (f"its key {runtime.key_name(best[1])} holds only {best[0]:.0%} of the training or "
                               f"test rows' keys (a join needs {SIDE_MIN_SHARE:.0%})")  # fmt: skip
        else:
            left[name] = (
                "it shares no column with both the training and the test table (or has no other column)"
            )
            unkeyed.append((path, name, table))
    _nested(task, found, unkeyed, left)
    return found, left


def _nested(task: Task, found: list[tuple[Path, dict[str, Any], Any]], unkeyed: list[tuple[Path, str, Any]],
            left: dict[str, str]) -> None:  # fmt: skip
    """Tables keyed by a column of a side table rather than of the rows (a loan's monthly balances beside the
    loans, as Home Credit's bureau_balance.csv beside bureau.csv; a merchant's attributes beside the
    transactions naming it) go into that side table's spec as "children": each script joins them onto it
    (summarised per key when a key has several rows) before the side table meets the rows. The key is one
    column naming one row on either side, holding SIDE_MIN_SHARE of the side table's keys; one level deep."""
    from automind.recipes import runtime

    for path, name, table in unkeyed:
        for parent_path, spec, parent in found:
            shared = [str(c) for c in table.columns if c in parent.columns]
            best = _child_key(table, parent, shared) if len(table.columns) > len(shared) else None
            if best is None:
                continue
            share, key = best
            if share >= SIDE_MIN_SHARE:
                spec.setdefault("children", []).append({"path": _rel(task, path), "key": key})
                del left[name]
                break
            left[name] = (f"its key {runtime.key_name(key)} holds only {share:.0%} of {parent_path.name}'s keys "
                          f"(a join needs {SIDE_MIN_SHARE:.0%})")  # fmt: skip


def _child_key(table, parent, shared: list[str]) -> tuple[float, str] | None:
    """(share, column) of a table keyed by a column of a side table: among the shared columns naming one row
    of either table each (an id, not a status both happen to hold), the one whose values the child holds for
    the largest share of the side table's rows; None when no shared column is such a key."""
    from automind.recipes.runtime import row_keys

    scored = []
    for key in shared:
        child, mine = row_keys(table, key), row_keys(parent, key)
        if _distinct(child) or _distinct(mine):
            scored.append((_share_in(mine, set(child) - {""}), key))
    return max(scored, default=None)


def _distinct(keys) -> bool:
    """Whether no key repeats: each names one row."""
    return len(set(keys)) == len(keys)


def _pairs(task: Task, columns: list[str], test_path: Path, left: dict[str, str]) -> list[tuple[Path, Path]]:
    """(training table, test table) of each other training table with a test table of the same name
    (train_identity.csv and test_identity.csv beside the transactions, as IEEE-CIS Fraud Detection gave them;
    training_set.csv and test_set.csv beside the objects' metadata, as PLAsTiCC did): one table of the rows'
    own details, the scripts joining both halves as a side table (`runtime.stack_tables`). A training table
    without one is left out, named in `left`: its columns would be missing from every test row. Tables with
    the main table's `columns` (or the main test table's) hold more rows (`_parts`), not details."""
    main = next((p for p in task.train_paths if is_table(p)), None)
    if main is None:
        return []
    parts = {
        *_parts(task.train_paths, main, columns),
        *_parts(task.test_paths, test_path, _columns(test_path)),
    }
    tests = {p.name.lower(): p for p in task.test_paths if p != test_path and p not in parts}
    found = []
    for p in task.train_paths:
        if p == main or p in parts or not is_table(p):
            continue
        partner = tests.get(test_partner(p.name))
        if partner is None:
            left[_rel(task, p).removeprefix("./input/")] = (
                f"a training table without a test table named {test_partner(p.name)}: its columns would be "
                "missing from every test row"
            )
        else:
            found.append((p, partner))
    return found


def _columns(path: Path) -> list[str]:
    """A table's column names ([] when it cannot be read: it is named where it is)."""
    try:
        return list(_read(path, 5).columns)
    except RoleError:
        return []


def _side_candidates(task: Task) -> tuple[list[Path], dict[str, str]]:
    """The public tables that may be side tables: every table but train, test and the sample, at the top or
    in folders up to SIDE_DEPTH deep; a folder of more than SIDE_MAX_TABLES tables (a file per series or per
    row) is left out, named with the reason."""
    given = {p.resolve() for p in (*task.train_paths, *task.test_paths, task.sample_submission_path)}
    candidates: list[Path] = []
    left: dict[str, str] = {}
    for dirpath, dirs, files in os.walk(task.public_dir):
        folder = Path(dirpath)
        dirs.sort()
        if len(folder.relative_to(task.public_dir).parts) >= SIDE_DEPTH:
            dirs.clear()
        tables = [
            folder / f for f in sorted(files) if is_table(folder / f) and (folder / f).resolve() not in given
        ]
        if folder != task.public_dir and len(tables) > SIDE_MAX_TABLES:
            rel = folder.relative_to(task.public_dir).as_posix()
            left[f"{rel}/"] = (
                f"a folder of {len(tables)} tables (a file per series or row?), not read as side tables"
            )
        else:
            candidates += tables
    return candidates, left


def _best_key(
    table, train, test, shared: list[str], least: float = SIDE_MIN_SHARE
) -> tuple[float, str | list[str]] | None:
    """(share, key) of a side table: among its shared columns and pairs of them (up to SIDE_KEY_COLUMNS
    shared columns), the fewest columns that name one row of the table each and hold `least` of the
    training and of the test rows' keys (a shop's attributes by shop, a shop's daily visitors by shop and
    date); else the one column holding the largest share, its rows summarised per key; None when nothing
    is shared."""
    from automind.recipes.runtime import row_keys

    pairs = (
        [[a, b] for i, a in enumerate(shared) for b in shared[i + 1 :]]
        if len(shared) <= SIDE_KEY_COLUMNS
        else []
    )
    scored: list[tuple[bool, float, str | list[str]]] = []
    candidates: list[str | list[str]] = [*shared, *pairs]
    for key in candidates:
        keys = row_keys(table, key)
        known = set(keys) - {""}
        share = min(_share_in(row_keys(train, key), known), _share_in(row_keys(test, key), known))
        scored.append((_distinct(keys), share, key))
    unique = [(share, key) for one, share, key in scored if one and share >= least]
    if unique:
        return unique[0]  # singles come first: the fewest columns
    singles = [(share, key) for _, share, key in scored if isinstance(key, str)]
    return max(singles, key=lambda t: t[0], default=None)


def _share_in(values, keys: set[str]) -> float:
    """The share of `values` found among `keys`."""
    return sum(v in keys for v in values) / max(1, len(values))


def split_shape(train, test, skip: set[str]) -> dict[str, str] | None:
    """How the test rows differ from the training rows, the way the holdout tells it (automind.holdout.split):
    later in time by a shared date column, or whole new groups of a key column; None when they look like a
    random share (or either text sample is missing: the holdout reads delimited text only). The validation
    folds are then shaped the same way, so the search ranks its scripts by how they do on rows like the
    test rows."""
    from automind.holdout.split import group_column, time_column

    if train is None or test is None:
        return None
    if column := time_column(train, test, skip):
        return {"kind": "time", "column": column}
    if found := group_column(train, test, skip):
        return {"kind": "group", "column": found[0]}
    return None


def profile_task(task: Task, facts: dict[str, Any] | None = None) -> Profile:
    """Read headers and a bounded sample of train to fill the Profile; facts fill gaps, never override files."""
    import numpy as np

    from automind.metrics import get_metric
    from automind.recipes import runtime

    facts = facts or {}
    folders = class_folders(task)
    sample_cols = list(_read(task.sample_submission_path, 5).columns)
    texts = None
    if folders is None:
        train_p = _first_table(task.train_paths, "train", task)
        train = _read(train_p, PROFILE_ROWS)
        id_guess = task.spec.id_column or facts.get("id_column") or (sample_cols[0] if sample_cols else None)
        texts = text_files(task, train, id_guess)
        if texts is None:
            test_p = _first_table(task.test_paths, "test", task)
        else:  # a table of test ids beside the text folder, else the sample's ids (never a file of text)
            test_p = next((p for p in task.test_paths if is_table(p)), task.sample_submission_path)
        parts = _parts(task.train_paths, train_p, list(train.columns))
        test_head = _read(test_p, 5)
        renamed = runtime.matched_names(train, test_head)  # as load_data names them
        test_cols = [renamed.get(c, c) for c in test_head.columns]
        test_parts = (
            _parts(task.test_paths, test_p, test_cols) if test_p != task.sample_submission_path else []
        )
        if texts is not None:
            train, test_cols = _with_texts(task, train, test_p, test_cols, texts, id_guess)
    else:
        train_p, test_p = folders
        train, test_cols = _folder_frames(task, train_p, test_p, sample_cols)
        parts, test_parts = [], []

    id_col = task.spec.id_column or facts.get("id_column") or (sample_cols[0] if sample_cols else None)
    if id_col not in sample_cols and id_col not in test_cols:
        id_col = None
    wanted = [c for c in task.spec.target_columns if c != id_col] or list(facts.get("target_columns") or [])
    target = [c for c in wanted if c in train.columns]
    if not target or len(target) < len(wanted):
        only_train = [c for c in train.columns if c not in test_cols and c != id_col]
        if len(only_train) == 1:
            target = only_train
        elif not target:
            raise RoleError(
                f"cannot tell the target column of {train_p.name}: sample submission columns {sample_cols}, "
                f"columns only in train {only_train}. Set target_columns in task.yaml."
            )

    metric = get_metric(task.spec.metric.name, task.spec.metric.lower_is_better)
    y = train[target[0]].dropna()
    if y.dtype == object and y.astype(str).str.strip().nunique() < y.nunique():
        y = y.astype(str).str.strip()  # 'yes' and 'yes ' are one label (runtime.padded_labels)
    problem = task.spec.problem_type or facts.get("problem_type")
    if problem not in ("binary", "multiclass", "multilabel", "regression"):
        if metric.kind == "value":
            problem = "regression"
        elif len(target) > 1:
            problem = "multilabel"
        else:
            problem = "binary" if y.nunique() <= 2 else "multiclass"
    if problem == "regression" and not np.issubdtype(y.dtype, np.number):
        numbers = runtime.target_numbers(y)  # "$1,234.50", as the scripts read it (runtime.numeric_targets)
        y = y if numbers is None else numbers

    sides, left_out = side_tables(task, train, test_p, set(target)) if folders is None else ([], {})
    for path, side, table in sides:  # the scripts join them in load_data: profile the columns they add
        before = set(train.columns)
        train = runtime.join_side_frames(train, _read(test_p, 5), table, side["key"],
                                         runtime.side_name(path))[0]  # fmt: skip
        test_cols += [c for c in train.columns if c not in before]
    feats = [c for c in train.columns if c in test_cols and c != id_col and c not in target]
    text_cols = [c for c in feats if _is_text(train[c])]
    flags: set[str] = set()
    image_col, image_size = None, 16
    images = _image_files(task.public_dir)
    if images:
        for c in [*feats, id_col]:
            if c is None:
                continue
            keys = train[c].dropna().astype(str).head(50)
            if len(keys) and all(
                k in images or Path(k).name in images or Path(k).stem in images for k in keys
            ):
                image_col = c
                first = train[c].dropna().astype(str).iloc[0]
                image_size = min(32, _native_size(images.get(first) or images.get(Path(first).name)
                                                  or images[Path(first).stem]))  # fmt: skip
                break
    if not text_cols and image_col is None and folders is None:
        text_cols = _only_strings(train, feats)
    other = [c for c in feats if c not in text_cols and c != image_col]
    num = [c for c in other if np.issubdtype(train[c].dtype, np.number)]
    cat = [c for c in other if c not in num]
    modalities = (["image"] if image_col else []) + (["text"] if text_cols else []) + ["tabular"]

    if cat:
        flags.add("categorical")
        if any(train[c].nunique() > 30 for c in cat):
            flags.add("high_cardinality")
    if len(num) >= 2:
        flags.add("numeric_pairs")
    if num and cat:
        flags.add("numeric_and_categorical")
    if other:
        flags.add("tabular_features")
    if train[feats].isna().any().any():
        flags.add("missing")
    if text_cols:
        flags.add("text")
    if image_col:
        flags.add("images")
    if len(train) < 5000:
        flags.add("small")
    if len(train) >= 1000:  # an inner quarter of a fold holds ~200 rows: enough to compare settings on
        flags.add("enough_rows")
    if len(train) >= 100_000:
        flags.add("large")
    if problem == "regression" and np.issubdtype(y.dtype, np.number) and y.min() >= 0:
        flags.add("nonneg_target")
        if float(y.skew()) > 0.75:
            flags.add("skewed_target")
    if problem in ("binary", "multiclass") and y.value_counts(normalize=True).min() < 0.15:
        flags.add("imbalanced")
    if importlib.util.find_spec("catboost") is not None:  # scripts run with this same interpreter
        flags.add("catboost")
    text_train = _text_sample(train_p)  # read once for the split and the class codes
    text_test = _text_sample(test_p) if text_train is not None else None
    if text_test is not None:
        text_test = text_test.rename(columns=runtime.matched_names(text_train, text_test))
    split = split_shape(text_train, text_test, {c for c in [id_col, *target] if c})
    if split and split["kind"] == "group":
        flags.add("new_groups")
    written = (
        problem in ("binary", "multiclass")
        and text_train is not None
        and _codes_change(text_train[target[0]], y)
    )

    return Profile(
        train=_rel(task, train_p),
        test=_rel(task, test_p),
        sample=_rel(task, task.sample_submission_path),
        id=id_col,
        target=target,
        problem=problem,
        metric=metric.name,
        metric_params=dict(task.spec.metric.params),
        lower_is_better=metric.lower_is_better,
        kind=metric.kind,
        modalities=modalities,
        text_cols=text_cols,
        image_col=image_col,
        image_size=image_size,
        n_rows=len(train) + sum(len(_read(p, PROFILE_ROWS)) for p in parts),
        n_features=len(feats),
        flags=flags,
        split=split,
        labels_as_written=written,
        side_tables=[side for _, side, _ in sides],
        side_left_out=left_out,
        train_parts=[_rel(task, p) for p in parts],
        test_parts=[_rel(task, p) for p in test_parts],
        class_folders=folders is not None,
        text_files=texts,
    )


def class_folders(task: Task) -> tuple[Path, Path] | None:
    """(training folder, test folder) of a task that gives no training table but its training images in a
    folder per class (train/<class>/<image>, as Plant Seedlings Classification did) and its test images in
    one folder; None for any other layout."""
    train = [p for p in task.train_paths if p.is_dir()]
    test = [p for p in task.test_paths if p.is_dir()]
    if len(train) != 1 or len(test) != 1:
        return None
    try:
        _first_table(task.train_paths, "train", task)
        return None  # a table of rows: the usual layout
    except RoleError:
        pass
    classes = [d for d in train[0].iterdir() if d.is_dir() and any(
        f.suffix.lower() in IMAGE_SUFFIXES for f in d.iterdir())]  # fmt: skip
    return (train[0], test[0]) if len(classes) >= 2 else None


def _folder_frames(task: Task, train_dir: Path, test_dir: Path, sample_cols: list[str]):
    """(training rows, test columns) of a class-folder task, as the scripts build them (runtime.folder_tables)."""
    from automind.recipes import runtime

    id_col = task.spec.id_column or sample_cols[0]
    target = [c for c in task.spec.target_columns if c != id_col] or [c for c in sample_cols if c != id_col]
    if not target:
        raise RoleError(f"{task.sample_submission_path.name} names no column to predict beside '{id_col}'")
    try:
        train, test = runtime.folder_tables(train_dir, test_dir, task.public_dir,
                                            _read(task.sample_submission_path), id_col, target[0])  # fmt: skip
    except FileNotFoundError as e:
        raise RoleError(str(e)) from e
    return train, list(test.columns)


TEXT_FILE_SHARE = 0.9  # the share of ids (of the first TEXT_FILE_PROBE) a folder's .txt files must name
TEXT_FILE_PROBE = 200


def text_files(task: Task, train: Any, id_col: str | None) -> dict[str, str] | None:
    """Where each row's text is when a task gives it as a file per row (Feedback Prize's train/<id>.txt and
    test/<id>.txt beside a training table of ids and scores, often with no test table): a training folder
    and a test folder among the task's files whose .txt names (or stems) give most ids of the training
    table and of the sample submission; None for any other layout. The scripts read each file into a
    text column (runtime.file_texts)."""
    if id_col is None or id_col not in train.columns:
        return None
    sample_ids = _read(task.sample_submission_path, TEXT_FILE_PROBE, text=True).get(id_col)
    if sample_ids is None:
        return None
    train_dir = _naming_folder([p for p in task.train_paths if p.is_dir()], train[id_col])
    test_dir = _naming_folder([p for p in task.test_paths if p.is_dir()], sample_ids)
    if train_dir is None or test_dir is None:
        return None
    column = next(c for c in ("text", "file_text", "file_text_") if c not in train.columns)
    return {"train": _rel(task, train_dir), "test": _rel(task, test_dir), "column": column}


def _naming_folder(folders: list[Path], ids: Any) -> Path | None:
    from automind.recipes.runtime import text_index

    keys = ids.dropna().astype(str).head(TEXT_FILE_PROBE)
    for folder in folders:
        index = text_index(folder)
        if index and len(keys) and sum(k in index for k in keys) >= TEXT_FILE_SHARE * len(keys):
            return folder
    return None


def _with_texts(task: Task, train: Any, test_p: Path, test_cols: list[str], texts: dict[str, str],
                id_col: str | None) -> tuple[Any, list[str]]:  # fmt: skip
    """The training rows with their text column, as the scripts build it, and the test columns with it (a
    test table of ids, or the sample's ids when there is none)."""
    from automind.recipes import runtime

    base = task.public_dir
    train = train.assign(
        **{texts["column"]: runtime.file_texts(train[id_col], base / texts["train"].removeprefix("./input/"))}
    )
    if test_p == task.sample_submission_path:
        test_cols = [id_col] if id_col else []
    return train, [*test_cols, texts["column"]]


def _parts(paths: list[Path], first: Path, columns: list[str]) -> list[Path]:
    """The task's other training (or test) tables with the first one's columns (the rows split over
    train_1.csv and train_2.csv, or over a train/ folder's parts): every script reads them all, in order. A table with other columns holds
    something else (train_identity.csv beside train_transaction.csv: `_pairs`) and is not read as rows."""
    parts = []
    inside = [q for p in paths if p.is_dir() for q in sorted(p.iterdir())]  # train/part-00000.csv ... (Spark)
    for p in [*paths, *inside]:
        if p == first or not is_table(p):
            continue
        try:
            if list(_read(p, 5).columns) == columns:
                parts.append(p)
        except RoleError:
            continue  # not a table the recipes read; the data-usage check names it
    return parts
