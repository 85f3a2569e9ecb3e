"""The helper code every recipe script carries inline, kept here as a real module so it is linted and tested.

`compose.py` cuts this file at the `# %% <section>` markers and pastes each section into the step of the
generated script that needs it; the script stays standalone (best_solution.py runs without automind,
except for custom `module:function` metrics). The metric itself is not written here: the composer copies
the registry's own function from automind/metrics.py into the script as METRIC_FN (recipes/metric_code.py),
so the validation score is computed exactly as the grader computes it. The `stubs` section is never
emitted: it only gives names that the composer generates (component functions, hook lists, CFG, the
copied metric code) a definition for linting and tests.
Predictions are in "model space": regression -> float array; binary -> P(positive class);
multiclass -> (n, K) probabilities in the order of CFG["classes"].

What runs where (docs/recipes.md has the contract):
- once, on whole frames: image files to pixel columns, then the `clean` component (label-free, row-wise
  or column screening decided on train);
- per fold, fitted on the fold's training rows only: the feature hooks, the categorical encoding and every
  scaler/vectoriser (so nothing about a validation or test row leaks into what it is scored with);
- per model of the portfolio, in order and while time lasts: K-fold fits with out-of-fold predictions;
- after the portfolio: the `ensemble` and `postprocess` components, each fitted on out-of-fold predictions
  and cross-fitted (fitted on the other folds for each fold) so the reported score is honest.
"""

# %% stubs
from __future__ import annotations

from typing import Any

from automind.metrics import positive_label, sorted_labels  # noqa: F401 - copied into scripts with METRIC_FN

CFG: dict[str, Any] = {}
METRIC_FN: Any = None  # the registry's function for CFG["metric"]; None for a custom metric
METRIC_DEFAULTS: dict[str, Any] = {}  # parameters the metric's name implies (k of map@5, beta of f0.5)
FEATURE_HOOKS: list[Any] = []
TARGET_HOOKS: list[Any] = []
PARAM_HOOKS: list[Any] = []
ENSEMBLE_HOOKS: list[Any] = []
POST_HOOKS: list[Any] = []


def clean(train, test, cfg):  # the clean component defines it
    return train, test


def encode_categories(a, b, y, cfg):  # the encoding component defines it
    return category_codes(a, b, cfg)


def make_folds(y, cfg):  # the validation component defines it
    return kfold(y, cfg, 5)


def models(cfg):  # the model component defines it
    return [member("lgbm", fit_lgbm, "tree", {})]


def combine(members, y, splits, cfg):  # the ensemble component defines it
    return caruana(members, y, splits, cfg)


def postprocess(oof, test_pred, y, splits, cfg):  # the postprocess component defines it
    return oof, test_pred


def prepare(train, test, cfg):  # a legacy draft's encoding block defines it
    return tree_matrix(train, test, cfg)


# %% imports
import csv  # noqa: E402
import html  # noqa: E402
import inspect  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

warnings.filterwarnings("ignore")
T0 = time.time()


# %% load
def log(msg):
    print(f"[{time.time() - T0:6.1f}s] {msg}", flush=True)


def refit_bags():
    """How many times the K-fold fitting repeats, on reshuffled folds, in automind's final refit
    (AUTOMIND_REFIT_BAGS, set by the refit when the time left holds that many; 1 otherwise): test
    predictions averaged over more fold models vary less (docs/holdout.md, "The final refit")."""
    try:
        return max(1, int(os.environ.get("AUTOMIND_REFIT_BAGS") or 1))
    except ValueError:
        return 1


def refit_members():
    """The portfolio members automind's final refit fits (AUTOMIND_REFIT_MEMBERS, comma-separated names):
    those the search-time ensemble gave weight (members.json `weights`). A member with no weight changes no
    prediction, and fitting it again on all rows would only cost the refit's time (saratoga at 90 s: the
    three weighted models took 15 of the portfolio's 37 s). None, fit them all, when the setting is absent."""
    names = [n.strip() for n in (os.environ.get("AUTOMIND_REFIT_MEMBERS") or "").split(",") if n.strip()]
    return names or None


def time_budget():
    """Seconds this script may use: its allowance CFG['time_budget'] (rendered by the recipe policy; times
    the refit's bags, which repeat the work), capped by the sandbox's limit when the environment says it
    (AUTOMIND_TIME_LIMIT_S), minus a safety margin."""
    limits = [float(CFG.get("time_budget") or 0) * refit_bags() or float("inf")]
    hard = os.environ.get("AUTOMIND_TIME_LIMIT_S")
    if hard:
        limits.append(0.9 * float(hard) - 2.0)
    return max(1.0, min(limits))


def time_left():
    return time_budget() - (time.time() - T0)


TEXT_ENCODINGS = ("utf-8", "cp1252", "latin-1")  # automind.csv_scan's order: both read a file alike
HEAD_CHARS = 1 << 20  # the start of a table looked at for how it escapes its quotes


def backslash_quotes(text, sep=","):
    """Whether a table's text (its head) escapes a quote inside a quoted field with a backslash, as a
    database dump writes it ('"he said \\"hi\\""'), not by doubling it: read as written, the field ends at
    that quote, and the row splits into more fields (pandas stops) or keeps a mangled value. True when the
    head holds such a pair and its rows (the last, maybe cut, left out) split into one width only when the
    backslash escapes."""
    if '\\"' not in text:
        return False
    plain, escaped = row_widths(text, sep), row_widths(text, sep, escapechar="\\")
    return escaped is not None and len(escaped) == 1 and plain != escaped


def row_widths(text, sep=",", **kw):
    """The field counts of a table's text (its head) as the csv module splits it with `kw` (an escape or a
    quote character), blank rows and the last row (maybe cut) left out; None when it cannot split it."""
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=sep, **kw))[:-1]
    except csv.Error:
        return None
    return {len(r) for r in rows if r}


def _text_head(path, encoding):
    """The first HEAD_CHARS characters of a text table, decompressed by its name as pandas decompresses it."""
    import bz2
    import gzip
    import lzma
    import zipfile

    suffix = os.path.splitext(path.lower())[1]
    if suffix == ".zip":
        with zipfile.ZipFile(path) as z, z.open(z.namelist()[0]) as f:
            raw = f.read(4 * HEAD_CHARS)
    else:
        opener = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}.get(suffix, open)
        with opener(path, "rb") as f:
            raw = f.read(4 * HEAD_CHARS)
    return raw.decode(encoding, errors="replace")[:HEAD_CHARS]


DOTTED_GROUPS = (
    r"^[1-9]\d{0,2}(?:\.\d{3})+$"  # '12.345' as German counts write it, or a decimal of three places
)
PLAIN_HUNDREDS = r"^\d{1,3}$"
PLAIN_SHARE = 0.05  # the share of values without a point that says points between groups are thousands


def dotted_thousands(values):
    """Whether a column's points stand between thousands though none holds two ('12.345' beside '987'):
    every value is a whole number of at most three digits or a group of three after each point, and at
    least PLAIN_SHARE of them are the former; a column of decimals with three places always has a point."""
    grouped, plain = values.str.match(DOTTED_GROUPS), values.str.match(PLAIN_HUNDREDS)
    return bool(grouped.any() and (grouped | plain).all() and plain.mean() >= PLAIN_SHARE)


def _could_be_thousands(values):
    """Whether a float column could have been read from text with points between thousands (dotted_thousands):
    its whole values are under 1,000 and at least PLAIN_SHARE of all, the others from 1 to 1,000 with three
    places at most. Only such columns are read again as text."""
    v = values.dropna()
    whole = v % 1 == 0
    rest = v[~whole]
    return bool(
        len(v) >= 20 and len(rest) and whole.mean() >= PLAIN_SHARE and (v[whole] < 1000).all()
        and (rest >= 1).all() and (rest < 1000).all() and (np.abs(rest * 1000 - np.round(rest * 1000)) < 1e-6).all()
    )  # fmt: skip


def point_thousands(df, read_text):
    """Float columns whose text writes points between thousands ('12.345' beside '987', as German exports
    write counts; pandas reads 12.345) as the whole numbers they are; `read_text(column)` gives a column's
    text as the file writes it. Targets stay as pandas reads them: so does the grader."""
    for c in df.columns:
        if df[c].dtype != float or c in CFG.get("target", []) or not _could_be_thousands(df[c]):
            continue
        text = read_text(c)
        if text is not None and dotted_thousands(text.dropna().str.strip()):
            df[c] = pd.to_numeric(text.str.strip().str.replace(".", "", regex=False), errors="coerce")
            log(f"'{c}' writes points between thousands ('12.345' beside '987'): read as whole numbers")
    return df


def read_table(path, as_written=()):
    """A table by its suffix (the one before a compression suffix, as automind.csv_scan.table_suffix reads
    it); delimited text in the first of TEXT_ENCODINGS that decodes it (logged), the columns `as_written`
    kept as their text (class codes such as "01" stay "01", not 1), points between thousands read as such
    (point_thousands)."""
    path = str(path)
    name = re.sub(r"\.(gz|zip|bz2|xz)$", "", path.lower())  # train.csv.gz: pandas decompresses by the name
    if name.endswith(".parquet"):
        return pd.read_parquet(path)
    if name.endswith((".json", ".jsonl")):
        return json_cells(pd.read_json(path, lines=name.endswith(".jsonl")))
    encodings = TEXT_ENCODINGS
    if name == path.lower():  # not compressed: UTF-16 by its byte-order mark (automind.csv_scan.UTF16_MARKS)
        with open(path, "rb") as f:
            encodings = ("utf-16",) if f.read(2) in (b"\xff\xfe", b"\xfe\xff") else TEXT_ENCODINGS
    tabs = name.endswith(".tsv") or (
        name.endswith((".txt", ".data", ".dat")) and _tab_split(path, encodings[-1])
    )
    kw = {"sep": "\t"} if tabs else {}
    kw.update(low_memory=False, dtype={c: str for c in as_written})
    for encoding in encodings:
        kw["escapechar"] = "\\" if backslash_quotes(_text_head(path, encoding), kw.get("sep", ",")) else None
        try:
            df = pd.read_csv(path, encoding=encoding, **kw)
        except UnicodeDecodeError:
            continue
        if encoding != TEXT_ENCODINGS[0]:
            log(f"{os.path.basename(path)} is not UTF-8: read as {encoding}")
        if kw["escapechar"]:
            log(f"{os.path.basename(path)} escapes quotes inside its fields with a backslash: read so")
        df = data_rows(df, os.path.basename(path), as_written)
        return point_thousands(df, lambda c, e=encoding: _column_text(path, c, e, kw))
    raise AssertionError("latin-1 decodes every byte")


def data_rows(df, name, as_written=(), say=True):
    """The frame without its header_rows, its columns typed anew as pandas types a file without them."""
    extra = header_rows(df)
    if not extra.any():
        return df
    if say:
        log(f"{name}: {int(extra.sum())} row(s) repeat the header or give the columns' units (first at row "
            f"{int(np.flatnonzero(extra)[0]) + 1}): left out")  # fmt: skip
    kept = df[~extra].copy()
    floats = [c for c in kept.columns if kept[c].dtype == "float64"]
    for c in floats:  # whole numbers whose only gaps were in those rows are whole numbers again
        if kept[c].notna().all() and (kept[c] % 1 == 0).all():
            kept[c] = kept[c].astype("int64")
    text = io.StringIO(kept.to_csv(index=False))
    return pd.read_csv(text, low_memory=False, dtype={c: str for c in as_written})


UNIT_WORD = r"^[^\d\s]{1,8}(?:[\s/][^\d\s]{1,8})?$"  # 'kg', 'mV', 'km/h', '°C', 'm s-1' is not one


def header_rows(df):
    """Rows that are not data (a boolean mask): the header written again (files joined from several exports,
    at least half of the columns, two or more, holding their own name) and, as the first row, the columns'
    units ('', 'kg', 'cm': no number in it, and at least two columns numbers in every other row). With them
    pandas reads every column as text and a numeric target cannot be fitted."""
    texts = [c for c in df.columns if df[c].dtype == object]  # a name among numbers makes a column text
    extra = pd.Series(False, index=df.index)
    if len(texts) < 2:
        return extra
    same = sum((df[c].to_numpy() == c).astype(int) for c in texts)
    extra |= same >= max(2, len(df.columns) / 2)
    first = df.iloc[0]
    if len(df) > 2 and not pd.to_numeric(first.dropna(), errors="coerce").notna().any():

        def numbers_below(c):  # gaps and repeated headers aside ('' where a caller read every cell as text)
            parts = (df[c][~extra].iloc[rows].dropna() for rows in (slice(1, 1001), slice(1001, None)))
            return all(pd.to_numeric(v[v != ""], errors="coerce").notna().all() for v in parts)

        below = [c for c in texts if isinstance(first[c], str) and re.match(UNIT_WORD, first[c].strip())
                 and numbers_below(c)]  # fmt: skip
        extra.iloc[0] = len(below) >= 2
    return extra


def _column_text(path, column, encoding, kw):
    """One column of a delimited file as its text, or None when it cannot be read alone (a name twice)."""
    try:
        return pd.read_csv(path, encoding=encoding, **{**kw, "usecols": [column], "dtype": str})[column]
    except (ValueError, KeyError):
        return None


def _tab_split(path, encoding):
    """Whether a .txt table's header splits by tabs (automind.csv_scan.separator: the tab, else the comma),
    read in `encoding`, one that decodes any file (latin-1) or the file's own (UTF-16)."""
    return len(pd.read_csv(path, sep="\t", nrows=0, encoding=encoding).columns) >= 2


def json_cells(df):
    """A JSON table with its list and object cells (What's Cooking's ingredients, a film's genres) as their
    JSON text, as a CSV would hold them: the recipes read such a column as text, and pandas cannot count or
    compare lists (every draft failed on 'unhashable type: list')."""
    for c in df.columns:
        if df[c].dtype == object and df[c].map(lambda v: isinstance(v, list | dict)).any():
            df[c] = df[c].map(lambda v: json.dumps(v) if isinstance(v, list | dict) else v)
    return df


DAY_MONTH = r"^\s*(?:\d{1,2}:\d{2}(?::\d{2})?\s+)?(\d{1,2})[/.-](\d{1,2})[/.-]\d{2,4}"  # after a time, too


def day_first(values):
    """Whether dates written as a/b/year put the day first: no `b` above 12 among the distinct values, and
    some `a` above 12 or most written with dots (pandas reads 07/01/2021 as July 1 unless told, and then
    reads 13/01/2021 as nothing; '04.05.2019' is the 4th of May wherever dates are dotted)."""
    parts = pd.Series(pd.Series(values).dropna().astype(str).unique()).str.extract(DAY_MONTH).dropna()
    if parts.empty:
        return False
    a, b = parts[0].astype(int), parts[1].astype(int)
    dotted = pd.Series(values).dropna().astype(str).str.match(DAY_MONTH.replace("[/.-]", r"\."))
    return bool(not (b > 12).any() and ((a > 12).any() or dotted.mean() > 0.5))


ISO_WEEK = r"^(\d{4})-?W(\d{2})(?:-?([1-7]))?$"
QUARTER = r"(?i)^(?:(\d{4})[-\s]?Q([1-4])|Q([1-4])[-\s]?(\d{4}))$"


# ISO 8601's basic form, without separators: '20190315T142500', '20190315T1425Z', '20190315T142500.5+0100';
# pandas guesses one format from the first value and reads '...T1425' as 14:02:05, so they are written out.
ISO_BASIC_TEXT = r"^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$"


# A month and a two-digit year, as a spreadsheet shows a date formatted 'mmm-yy' ('Mar-19'): pandas would read
# March 19 of this year. Written out as the month's first day, the century as dateutil picks it (within 50
# years of today), which is how pandas reads '15-Mar-19'.
SHORT_MONTH_TEXT = r"(?i)^(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*-(\d{2})$"


def _month_first_day(m):
    """One SHORT_MONTH_TEXT match as 'YYYY-MM-01'."""
    import datetime

    now = datetime.date.today().year
    year = now // 100 * 100 + int(m[2])
    year += 100 if year < now - 50 else -100 if year >= now + 50 else 0
    return f"{year}-{MONTH_NAMES.index(m[1].lower()) + 1:02d}-01"


def _iso_extended(m):
    """One ISO_BASIC_TEXT match as '2019-03-15 14:25:00Z'."""
    return f"{m[1]}-{m[2]}-{m[3]} {m[4]}:{m[5]}:{m[6] or '00'}{m[7] or ''}"


# C's and Twitter's 'Tue Mar 05 14:22:01 +0000 2019': the year after the time, where pandas infers no format
# and reads each value on its own (4 s per 50,000 values); with the year moved before the time it does.
CTIME_TEXT = (
    r"^(\w+\s+\w+\s+\d{1,2})\s+(\d{1,2}:\d{2}(?::\d{2})?)((?:\s+(?:[+-]\d{4}|[A-Za-z]{1,4}))?)\s+(\d{4})$"
)


# A web server's log time (the Common Log Format): '15/Mar/2019:10:20:30 +0000'; a colon joins date and time.
CLF_TIME_TEXT = r"^(\d{1,2})/([A-Za-z]{3})/(\d{4}):(\d{1,2}:\d{2}:\d{2})"
# A date as Chinese, Japanese and Korean write it: '2019年3月15日', '2019년 3월 15일' ('2019年3月': a month), a
# time '10時30分' or '10시 30분' after it.
CJK_DATE_TEXT = r"^(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월](?:\s*(\d{1,2})\s*[日일])?"
CJK_TIME_TEXT = r"(\d{1,2})\s*[時时시]\s*(\d{1,2})\s*[分분](?:\s*(\d{1,2})\s*[秒초])?"
# A system log's time, without a year: 'Mar  5 10:20:30'. Read in YEARLESS, a leap year (so 'Feb 29' is a
# day); its year and weekday are then no part of it (date_parts leaves them out).
YEARLESS_TEXT = r"(?i)^(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+(\d{1,2})\s+(\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$"
YEARLESS = 2000


# Oracle's default timestamp: '15-MAR-19 02.25.30.123456 PM', the clock's parts split by points.
ORACLE_TIME_TEXT = (
    r"(?i)^(\d{1,2}-[a-z]{3}-\d{2}(?:\d{2})?)\s+(\d{1,2})\.(\d{2})\.(\d{2})(?:\.\d+)?\s*([ap]m)?$"
)
# A weekday in brackets after a date: '2019/03/15(金)' (Japanese), '2019-03-15 (Fri)'; the date says it.
WEEKDAY_SUFFIX_TEXT = (
    r"(?i)\s*[(（]\s*(?:[月火水木金土日월화수목금토일]|mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s*[)）]"
)
# The clock before the date: '14:25 15/03/2019' (a ticket printer); pandas reads it with the date first.
TIME_FIRST_TEXT = r"^(\d{1,2}:\d{2}(?::\d{2})?)\s+(\d{1,2}[-/.]\d{1,2}[-/.]\d{4})$"


def _cjk_date(m):
    """One CJK_DATE_TEXT match as 'YYYY-MM-DD' ('YYYY-MM' without a day)."""
    return f"{m[1]}-{int(m[2]):02d}" + (f"-{int(m[3]):02d}" if m[3] else "")


def _yearless_date(m):
    """One YEARLESS_TEXT match as a date and time in the year YEARLESS."""
    return f"{YEARLESS}-{MONTH_NAMES.index(m[1].lower()) + 1:02d}-{int(m[2]):02d} {m[3]}"


def period_dates(text):
    """ISO weeks ('2019-W05': its Monday, or the day given) and quarters ('2015Q3', 'Q3 2015': its first
    day) written as ISO dates, times with the year last (CTIME_TEXT) with it before the time, ISO's basic
    form (ISO_BASIC_TEXT) with its separators, log times (CLF_TIME_TEXT, YEARLESS_TEXT), CJK dates
    (CJK_DATE_TEXT), dates with their weekday after them (WEEKDAY_SUFFIX_TEXT), times with the clock
    first (TIME_FIRST_TEXT) and Oracle's (ORACLE_TIME_TEXT) in a form pandas reads; other values as they
    are."""
    import datetime

    text = pd.Series(text, dtype=object).copy()  # the caller maps its own values to what is read
    text = text.str.replace(CTIME_TEXT, r"\1 \4 \2\3", regex=True).where(text.notna())
    text = text.str.replace(ISO_BASIC_TEXT, _iso_extended, regex=True).where(text.notna())
    text = text.str.replace(SHORT_MONTH_TEXT, _month_first_day, regex=True).where(text.notna())
    text = text.str.replace(CLF_TIME_TEXT, r"\1 \2 \3 \4", regex=True).where(text.notna())
    text = text.str.replace(YEARLESS_TEXT, _yearless_date, regex=True).where(text.notna())
    text = text.str.replace(CJK_DATE_TEXT, _cjk_date, regex=True).where(text.notna())
    text = text.str.replace(CJK_TIME_TEXT, lambda m: ":".join(p for p in m.groups() if p), regex=True)
    text = text.str.replace(WEEKDAY_SUFFIX_TEXT, "", regex=True)
    text = text.str.replace(
        ORACLE_TIME_TEXT, lambda m: f"{m[1]} {m[2]}:{m[3]}:{m[4]} {m[5] or ''}".strip(), regex=True
    )
    text = text.str.replace(TIME_FIRST_TEXT, r"\2 \1", regex=True)
    text = text.str.strip().where(text.notna())
    week = text.str.extract(ISO_WEEK)
    for i in week.index[week[0].notna()]:
        y, w, d = week.loc[i]
        try:
            text[i] = datetime.date.fromisocalendar(
                int(y), int(w), int(d) if isinstance(d, str) else 1
            ).isoformat()
        except ValueError:
            text[i] = None
    quarter = text.str.extract(QUARTER)
    for i in quarter.index[quarter[0].notna() | quarter[3].notna()]:
        y = quarter.loc[i, 0] if isinstance(quarter.loc[i, 0], str) else quarter.loc[i, 3]
        q = quarter.loc[i, 1] if isinstance(quarter.loc[i, 1], str) else quarter.loc[i, 2]
        text[i] = f"{y}-{3 * int(q) - 2:02d}-01"
    return text


def read_times(values, first=None, mixed=False):
    """Text dates as naive UTC timestamps, NaT where unreadable; `first` says whether the day comes first
    (None: decide from these values); `mixed` reads each value on its own (slower; for columns whose values
    are written in several formats). Without it the format is the first value's, and the values that format
    cannot read are read on their own: a column of dates, some with a time of day, loses none."""
    v = pd.Series(values)
    text = v.astype(str).where(v.notna() & (v.astype(str).str.strip() != ""))
    first = day_first(text) if first is None else first
    extra = {"format": "mixed"} if mixed else {}
    distinct = pd.Series(text.dropna().unique(), dtype=object)  # a month column of a million rows: 72 values
    written = period_dates(distinct)
    with warnings.catch_warnings():  # 'Mar 2019' has no format pandas infers: each value is read on its own
        warnings.simplefilter("ignore", UserWarning)
        read = pd.to_datetime(written, errors="coerce", utc=True, dayfirst=first, **extra)
        missed = read.isna()
        if not mixed and missed.any():
            read[missed] = pd.to_datetime(
                written[missed], errors="coerce", utc=True, dayfirst=first, format="mixed"
            )
    out = text.map(pd.Series(read.to_numpy(), index=distinct.to_numpy()))
    return pd.to_datetime(out, utc=True).dt.tz_convert(None)


def load_data():
    """train, test and sample submission; rows without a target are dropped, big data optionally subsampled."""
    written = CFG["target"] if CFG.get("labels_as_written") else ()
    if CFG.get("class_folders"):  # no tables: the training images in a folder per class
        sample = read_table(CFG["sample"])
        train, test = folder_tables(
            CFG["train"], CFG["test"], CFG["input"], sample, CFG["id"], CFG["target"][0]
        )
        log(
            f"{len(train)} training images in {train[CFG['target'][0]].nunique()} class folders, {len(test)} test images"
        )
    else:
        train, test, sample = (
            read_table(CFG["train"], written),
            read_table(CFG["test"]),
            read_table(CFG["sample"]),
        )
    if CFG.get("text_files"):  # each row's text in <folder>/<id>.txt
        if CFG["test"] == CFG["sample"]:  # no test table: the sample's ids are the test rows
            test = test[[CFG["id"]]].copy()
        files, column = CFG["text_files"], CFG["text_files"]["column"]
        train[column] = file_texts(train[CFG["id"]], files["train"])
        test[column] = file_texts(test[CFG["id"]], files["test"])
    if CFG.get("train_parts"):  # the training rows split over several files with the same columns
        train = pd.concat([train, *(read_table(p, written) for p in CFG["train_parts"])], ignore_index=True)
        log(f"training rows read from {1 + len(CFG['train_parts'])} files: {len(train)} rows")
    if CFG.get("test_parts"):  # the test rows split the same way
        test = pd.concat([test, *(read_table(p) for p in CFG["test_parts"])], ignore_index=True)
        log(f"test rows read from {1 + len(CFG['test_parts'])} files: {len(test)} rows")
    renamed = matched_names(train, test)
    if renamed:  # another tool wrote the test file: 'engine_size' where the training file says 'Engine Size'
        log(
            f"test columns named as the training file's: {', '.join(f'{a} -> {b}' for a, b in renamed.items())}"
        )
        test = test.rename(columns=renamed)
    test = numbers_as_trained(train, test)
    train = padded_labels(numeric_targets(
        train.dropna(subset=[t for t in CFG["target"] if t in train.columns]).reset_index(drop=True)
    ))  # fmt: skip
    for side in CFG.get("side_tables") or []:
        train, test = join_side_table(train, test, side)
    for name, why in (CFG.get("side_left_out") or {}).items():
        log(f"{name}: not joined: {why}")
    if CFG.get("max_rows") and len(train) > CFG["max_rows"]:
        train = (
            train.sample(n=int(CFG["max_rows"]), random_state=CFG["seed"]).sort_index().reset_index(drop=True)
        )
    CFG["_fold_keys"] = fold_keys(train)
    return train, test, sample


def text_index(folder):
    """Every .txt file under `folder` by its name and its stem."""
    found = {}
    for root, _, files in os.walk(folder):
        for f in sorted(files):
            if f.lower().endswith(".txt"):
                p = os.path.join(root, f)
                found.setdefault(f, p)
                found.setdefault(os.path.splitext(f)[0], p)
    return found


def file_texts(ids, folder):
    """The text of each id's file in `folder` (<id>.txt, as Feedback Prize gave its essays), "" for an id
    without one (logged); undecodable bytes replaced."""
    index, keys = text_index(folder), pd.Series(ids).astype(str)
    texts = []
    for k in keys:
        if k not in index:
            texts.append("")
            continue
        with open(index[k], encoding="utf-8", errors="replace") as f:
            texts.append(f.read())
    if missing := int((~keys.isin(list(index))).sum()):
        log(f"{missing} of {len(texts)} ids have no text file in {folder}: their text is empty")
    return pd.Series(texts, index=keys.index, dtype=object)


IMAGE_EXTS = (".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff", ".npy", ".pgm", ".ppm")


def folder_tables(train_dir, test_dir, base, sample, id_col, target):
    """(train, test) of a task that gives its training images in a folder per class (train/<class>/<file>,
    as Plant Seedlings Classification did) and its test images in a folder, with no table: a training row
    per image, its path under `base` as `image_path` and its folder's name as the `target`; a test row per
    sample submission row, its id and the path of the test image the id names (by file name or stem)."""
    rows = []
    for label in sorted(os.listdir(train_dir)):
        folder = os.path.join(train_dir, label)
        if os.path.isdir(folder):
            rows += [(os.path.relpath(os.path.join(folder, f), base), label)
                     for f in sorted(os.listdir(folder)) if f.lower().endswith(IMAGE_EXTS)]  # fmt: skip
    train = pd.DataFrame(rows, columns=["image_path", target])
    files = image_index(test_dir)
    names = [str(k) for k in sample[id_col]]
    paths = [find_image(files, k) for k in names]
    missing = [k for k, p in zip(names, paths, strict=True) if p is None]
    if missing:
        raise FileNotFoundError(
            f"{len(missing)} of {len(names)} sample submission ids name no image in {test_dir} (e.g. {missing[0]!r})"
        )
    return train, pd.DataFrame(
        {id_col: sample[id_col], "image_path": [os.path.relpath(p, base) for p in paths]}
    )


def image_index(root):
    """Every image file under `root` by its name, its stem and its path relative to `root` (the first one
    found keeps a name two files share)."""
    found = {}
    for folder, _, files in os.walk(root):
        for f in sorted(files):
            if f.lower().endswith(IMAGE_EXTS):
                p = os.path.join(folder, f)
                found.setdefault(f, p)
                found.setdefault(os.path.splitext(f)[0], p)
                found.setdefault(os.path.relpath(p, root), p)
    return found


def find_image(found, key):
    """The image an image_index holds for a key: by its path, its file name, or its stem; None if none."""
    name = os.path.basename(key)
    return found.get(key) or found.get(name) or found.get(os.path.splitext(name)[0])


def key_text(values):
    """Key values as text, so 7, 7.0 and "7" meet: whole floats (an integer column with gaps) as integers,
    "" for a gap."""
    v = pd.Series(values)
    whole = v.dropna()
    if pd.api.types.is_float_dtype(v) and bool(np.isfinite(whole).all()) and bool((whole % 1 == 0).all()):
        v = v.astype("Int64")
    return v.astype(str).where(v.notna(), "").to_numpy()


def row_keys(df, key):
    """Each row's key as text: key_text of a key column, or of each of several (a shop and a date) joined."""
    cols = [key] if isinstance(key, str) else list(key)
    out = key_text(df[cols[0]]).astype(object)
    for c in cols[1:]:
        out = out + "\x1f" + key_text(df[c]).astype(object)
    return out


def key_name(key):
    """A key for the log: 'store', or 'Store' + 'Date'."""
    return " + ".join(f"'{c}'" for c in ([key] if isinstance(key, str) else key))


def side_features(table, key, name, keys=None):
    """One row of features per key of a side table (a public table beside train and test that shares a key
    with them: one column or several, see row_keys): the table's own columns when each key has one row;
    otherwise a summary of its rows per key (the row count; mean, min and max of each number; the distinct
    values of each other column and, for one of at most ten levels, each level's share of the key's rows).
    Indexed by row_keys (`keys`, when the caller has them); each name starts with the table's `name`, so it says where it came from and never
    meets a train or test column."""
    keys = row_keys(table, key) if keys is None else keys
    rest = table.drop(columns=[key] if isinstance(key, str) else list(key))
    if pd.Series(keys).is_unique:
        feats = rest.set_axis(keys)
    else:
        groups = rest.groupby(keys, sort=False)
        num = [c for c in rest.columns if pd.api.types.is_numeric_dtype(rest[c])]
        other = [c for c in rest.columns if c not in num]
        parts = [groups.size().rename("rows").to_frame()]
        if num:
            stats = groups[num].agg(["mean", "min", "max"])
            stats.columns = [f"{c}_{stat}" for c, stat in stats.columns]
            parts.append(stats)
        if other:
            parts.append(groups[other].nunique().add_suffix("_distinct"))
        for c in other:  # a few levels: the share of each level among the key's rows
            levels = rest[c].dropna().unique()
            if 1 < len(levels) <= 10:
                share = pd.crosstab(keys, rest[c], normalize="index")
                parts.append(share.set_axis([f"{c}_{v}_share" for v in share.columns], axis=1))
        feats = pd.concat(parts, axis=1)
    return feats.add_prefix(f"{name}_")


def join_side_table(train, test, side):
    """train and test with the features of a side table CFG['side_tables'] lists (path, key: found by the
    profile) joined on its key (join_side_frames), logged with the share of training keys it holds."""
    table = read_table(side["path"])
    for part in side.get("parts") or []:  # the test rows' half of a train_X/test_X pair
        second = read_table(part)
        if renamed := matched_names(table, second):
            log(f"{os.path.basename(part)}: {len(renamed)} column names read as {os.path.basename(side['path'])}'s, "
                f"which differ only in case and punctuation (e.g. {next(iter(renamed.items()))})")  # fmt: skip
        table = stack_tables(table, second)
    for child in side.get("children") or []:
        table = join_child_table(table, child, os.path.basename(side["path"]))
    n = len(train.columns)
    train, test, share, summarised = join_side_frames(
        train, test, table, side["key"], side_name(side["path"])
    )
    how = "rows summarised per key" if summarised else "one row per key"
    log(f"{os.path.basename(side['path'])}: {len(train.columns) - n} columns joined on {key_name(side['key'])} "
        f"({how}; {share:.0%} of training keys found)")  # fmt: skip
    return train, test


def name_key(name):
    """A column name as a comparison sees it: lower case, runs of other characters as one '_'."""
    return re.sub(r"[^0-9a-z]+", "_", str(name).lower()).strip("_")


def matched_names(first, second):
    """{`second`'s column: `first`'s} for names that differ only in case and punctuation (IEEE-CIS's
    test_identity.csv wrote id-01 where train_identity.csv wrote id_01)."""
    by_key = {name_key(c): c for c in first.columns}
    return {
        c: by_key[name_key(c)] for c in second.columns if c not in first.columns and name_key(c) in by_key
    }


def numbers_as_trained(train, test):
    """Test feature columns written as text where the training column holds numbers (another tool wrote the
    test file: '$1,234.50' for 1234.5, '$85k') read as numbers (number_values, magnitude_values); a value
    that reads as none is missing, and the count is logged. As text, the model would meet a column it was
    never fitted on."""
    skip = set(CFG["target"]) | {CFG.get("id")}
    for c in [c for c in test.columns if c in train.columns and c not in skip]:
        if not pd.api.types.is_numeric_dtype(train[c]) or test[c].dtype != object:
            continue
        text = filled_text(test[c])
        if text.dropna().empty:
            continue
        numbers = magnitude_values(test[c]).combine_first(number_values(test[c]))
        lost = int((numbers.isna() & text.fillna("").ne("")).sum())
        log(f"test column {c} is written as text where the training column holds numbers (e.g. "
            f"{text.dropna().iloc[0]!r}): read as numbers" + (f", {lost} value(s) read as none are missing" if lost else ""))  # fmt: skip
        test[c] = numbers.to_numpy()
    return test


def stack_tables(first, second):
    """`second`'s rows under `first`'s, its columns named as `first`'s (matched_names)."""
    return pd.concat([first, second.rename(columns=matched_names(first, second))], ignore_index=True)


def side_name(path):
    """The prefix of a side table's features: its file name before any suffix."""
    return re.sub(r"\W+", "_", os.path.basename(str(path)).split(".")[0])


def join_child_table(table, child, parent):
    """A side table with the features of a table keyed by one of its columns (a spec's "children", from the
    profile: a loan's monthly balances beside the loans) joined on that column, which then leaves: an id
    summarised per training row is noise. Logged like a side table's join."""
    n = len(table.columns)
    (table,), share, summarised = attach_side([table], read_table(child["path"]), child["key"],
                                              side_name(child["path"]))  # fmt: skip
    how = "rows summarised per key" if summarised else "one row per key"
    log(f"{os.path.basename(child['path'])}: {len(table.columns) - n} columns joined onto {parent} on "
        f"{key_name(child['key'])} ({how}; {share:.0%} of its keys found)")  # fmt: skip
    return table.drop(columns=[child["key"]])


def join_side_frames(train, test, table, key, name):
    """(train, test, share of training keys the table holds, whether its rows were summarised) with
    side_features of `table` joined on `key` (attach_side)."""
    (train, test), share, summarised = attach_side([train, test], table, key, name)
    return train, test, share, summarised


def attach_side(frames, table, key, name):
    """(frames, share of the first frame's keys the table holds, whether its rows were summarised) with
    side_features of `table` joined on `key`, rows and their order unchanged; a key the table lacks gets
    gaps (a row count of 0 for a summarised table). The join uses no label: done once on whole frames,
    before any fold, it leaks nothing."""
    keys = row_keys(table, key)
    feats = side_features(table, key, name, keys)
    summarised = not pd.Series(keys).is_unique
    frame_keys = [row_keys(frame, key) for frame in frames]
    out = []
    for frame, fk in zip(frames, frame_keys, strict=True):
        found = feats.reindex(fk)
        if summarised:
            found[f"{name}_rows"] = found[f"{name}_rows"].fillna(0)
        out.append(pd.concat([frame, found.set_axis(frame.index)], axis=1))
    share = float(pd.Series(frame_keys[0]).isin(feats.index).mean())
    return out, share, summarised


def fold_keys(train):
    """Per training row, what the validation folds keep together when the test rows differ from the
    training rows (CFG['split'], from the profile): a group's key, or the row's time as a number; None for a
    random split or when the column is gone."""
    split = CFG.get("split") or {}
    col = split.get("column")
    if col not in train.columns:
        return None
    values = train[col]
    if split.get("kind") == "group":
        log(f"validation folds keep the groups of '{col}' whole (the test rows are new groups)")
        return values.astype(str).where(values.notna(), "").to_numpy()
    when = values if pd.api.types.is_numeric_dtype(values) else read_times(values)
    if when.isna().all():
        return None
    log(f"validation folds are blocks of consecutive '{col}' (the test rows come later)")
    when = when.fillna(when.min())
    return (
        when.to_numpy(dtype=float) if pd.api.types.is_numeric_dtype(when) else when.astype("int64").to_numpy()
    )


def encode_target(train):
    """y as numbers: class indices (classes in the grader's natural order, the grader's positive class last
    for binary tasks), or floats (2-D for several target columns)."""
    cols = CFG["target"]
    if CFG["problem"] in ("binary", "multiclass"):
        values = train[cols[0]]
        classes = sorted_labels(values)
        if CFG["problem"] == "binary":  # index 1 is the class binary metrics score as positive
            pos = positive_label(values, CFG.get("metric_params", {}).get("pos_label"))
            classes = [c for c in classes if c != pos] + ([pos] if pos in classes else [])
        index = {c: i for i, c in enumerate(classes)}
        CFG["classes"], CFG["n_classes"], CFG["n_labelled"] = classes, len(classes), len(values)
        return values.map(index).to_numpy(dtype=int)
    if CFG["problem"] == "multilabel":
        return train[cols].to_numpy(dtype=float)
    y = train[cols].to_numpy(dtype=float)
    return y[:, 0] if len(cols) == 1 else y


def to_labels(pred):
    """Model-space predictions -> original class labels (or rounded values for a label metric on numbers)."""
    if CFG["problem"] in ("binary", "multiclass"):
        classes = np.asarray(CFG["classes"], dtype=object)
        idx = (
            (pred > CFG.get("threshold", 0.5)).astype(int) if np.ndim(pred) == 1 else np.argmax(pred, axis=1)
        )
        return classes[idx]
    if CFG["problem"] == "multilabel":
        return (pred > 0.5).astype(int)
    lo, hi = CFG.get("y_range", (None, None))
    return np.clip(np.rint(pred), lo, hi)


def metric_params():
    """The metric's parameters: those its name implies (k of map@5), then the task's own."""
    return {**METRIC_DEFAULTS, **(CFG.get("metric_params") or {})}


def to_ranking(pred):
    """Model-space class probabilities -> each row's k most likely labels, best first, space-separated (what
    a MAP@k submission holds; k from the metric's parameters)."""
    k = int(metric_params().get("k", 5))
    p = np.asarray(pred)
    return ranked_labels(np.stack([1 - p, p], axis=1) if p.ndim == 1 else p, CFG["classes"], k)


def ranked_labels(p, classes, k):
    """Each row's k likeliest of `classes` (columns of p), best first, joined by spaces."""
    names = np.asarray([str(c) for c in classes], dtype=object)
    return np.array([" ".join(row) for row in names[top_classes(p, k)]], dtype=object)


def top_classes(p, k):
    """Indices of each row's k largest probabilities, best first (ties by class order)."""
    return np.argsort(-p, axis=1, kind="stable")[:, :k]


def metric_score(y, pred):
    """The task's metric on validation predictions, given as the grader would see them in a submission:
    class labels for label metrics, P(positive class) with its label for binary probabilities."""
    params = metric_params()
    labelled = CFG["problem"] in ("binary", "multiclass")
    fn = METRIC_FN
    if fn is None:  # a custom `module:function` metric: only automind can import it
        from automind.metrics import get_metric

        fn = get_metric(CFG["metric"], CFG["lower_is_better"])
    if CFG["kind"] == "label":
        a, b = (np.asarray(CFG["classes"], dtype=object)[y] if labelled else y), to_labels(pred)
        if labelled and all(isinstance(c, (int, np.integer)) for c in CFG["classes"]):
            a, b = a.astype(int), b.astype(int)
    elif CFG["kind"] == "ranking" and labelled:
        a, b = np.asarray([str(c) for c in CFG["classes"]], dtype=object)[y], to_ranking(pred)
    elif CFG["problem"] == "binary":
        a, b = np.asarray(CFG["classes"], dtype=object)[y], pred
        if METRIC_FN is None or "pos_label" in inspect.signature(METRIC_FN).parameters:
            params.setdefault("pos_label", CFG["classes"][-1])
    else:
        a, b = y, pred
    return float(fn(a, b, **params))


def better(a, b):
    return a < b if CFG["lower_is_better"] else a > b


# A number written for people: a sign or parentheses, a currency sign (before or after it), thousands
# separators (commas, spaces as French and SI write them, '1 234 567', commas grouping lakhs and crores in
# twos as in India, '4,50,000', or apostrophes as Swiss sources write them, "85'400"), a decimal part, a
# percent sign ("$1,234.50", "99.90 €", "(12.5)", "45 %", "-3", "₹ 4,50,000"), a word saying it is a guess
# before it ('~300', 'approx. 1,200', 'about 450', 'c. 80'; APPROX_TEXT) or a question mark after it as
# catalogues mark an uncertain year ('1850?'), a minus after it as SAP exports a negative amount
# ('1,234.50-'), footnote marks after it as tables copied from Wikipedia keep them ('1,234,567[3]',
# '45,678*'; FOOTNOTE_TEXT); dates, codes with letters and European "1.234,5" (EURO_NUMBER_TEXT) do not
# match.
THOUSANDS = r"\d{1,3}(?:,\d{3})+|\d{1,3}(?:['’]\d{3})+"  # '1,234,567' or "1'234'567"
CURRENCY_SIGNS = "$€£¥₹₩₽₺₦₱฿₫₪円元"  # signs written beside an amount, before it or after it ('12,345円')
NUMBER_GROUPS = rf"{THOUSANDS}|\d{{1,2}}(?:,\d{{2}})+,\d{{3}}|\d{{1,3}}(?:[ \u00a0\u202f]\d{{3}})+"
APPROX_TEXT = r"(?i:~|≈|approx(?:\.|imately)?|about|around|roughly|circa|ca\.|c\.)\s*"
FOOTNOTE_TEXT = r"(?:\[[^\[\]]{1,12}\]|[*†‡])+"
NUMBER_TEXT = (
    rf"^(?:{APPROX_TEXT})?\(?[-+]?[{CURRENCY_SIGNS}]?\s?[-+]?(?:{NUMBER_GROUPS}|\d+)(?:\.\d*)?(?:[eE][-+]?\d+)?[-+]?"
    rf"\s?(?:%|[{CURRENCY_SIGNS}])?\)?(?:{FOOTNOTE_TEXT})?\??$"
)


# Signs and powers of ten as typeset tables and tickers write them: a minus U+2212 ('−5.2') or an en or
# figure dash set for one ('–3.2', as word processors do), arrows up and down ('▲ 2.3%', '▼ 1.1%'),
# '1.2 × 10^5' and '5.0×10⁵' for 1.2e5 (TIMES_TEN_TEXT, before the superscripts become digits, so a size
# '2x10' stays what it is).
TYPESET_MARKS = str.maketrans("−–‒▲△↑▼▽↓⁻⁺⁰¹²³⁴⁵⁶⁷⁸⁹", "---+++---" + "-+0123456789")
TIMES_TEN_TEXT = r"\s?[x×*]\s?10\^(?=[-+−]?\d+$)|\s?[x×]\s?10(?=[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+$)"


# A bank statement's amount: 'DR' (a debit, money out) or 'CR' (a credit) after it: '1,234.50 DR'.
DEBIT_CREDIT_TEXT = r"(?i)(?<=\d)\s?(dr|cr)\.?$"


def typeset_numbers(text):
    """Text values with TYPESET_MARKS written as NUMBER_TEXT reads them ('▼ 1.1%' is '- 1.1%'); in a column
    of both debits and credits (DEBIT_CREDIT_TEXT) 'DR' as a minus after the number, 'CR' as none."""
    text = text.str.replace(TIMES_TEN_TEXT, "e", regex=True).str.translate(TYPESET_MARKS)
    marks = text.str.extract(DEBIT_CREDIT_TEXT)[0].str.lower()
    if {"dr", "cr"} <= set(marks.dropna().unique()):
        text = text.str.replace(DEBIT_CREDIT_TEXT, lambda m: "-" if m[1].lower() == "dr" else "", regex=True)
    return text


def filled_text(values):
    """A Series' values as stripped text, its gaps kept as gaps: what every reader of written numbers parses."""
    return values.astype(str).str.strip().where(values.notna())


def number_values(values):
    """Numbers written for people (NUMBER_TEXT: "$1,234.50", "(12.5)", "45 %", "1.2E+05", "10,000+",
    '~300', '1850?', '1,234.50-', '45,678[3]'; typeset signs and powers of ten, typeset_numbers) as floats,
    parentheses or a minus after it as a minus sign; NaN for a gap or a value that does not match."""
    values = pd.Series(values)
    text = typeset_numbers(values.astype(str).str.strip()).where(values.notna())
    parsed = text.str.match(NUMBER_TEXT, na=False)
    text = text.str.replace(rf"^{APPROX_TEXT}|(?:{FOOTNOTE_TEXT})?\??$", "", regex=True)
    brackets = text.str.startswith("(", na=False) & text.str.endswith(")", na=False)
    sign = np.where(brackets | text.str.match(r".*[\d.]-$", na=False), -1.0, 1.0)
    # '10,000+' (at least) is 10000
    digits = text.str.replace(rf"[\s{CURRENCY_SIGNS},'’%()]|[-+]$", "", regex=True)
    return sign * pd.to_numeric(digits.where(parsed), errors="coerce")


# A number with a magnitude suffix ('19M', '201k', '$1.2B', 'USD 850K', '$150 million', '4.5 Lakh', '1.2 Cr'):
# thousands, millions, billions, and India's lakhs (100,000) and crores (100 lakh). Beside thousands or a
# spelled magnitude, a number shortened for people writes the smaller ones without a suffix ('980' beside
# '12.5K', '$800,000' beside '$2.5 million', '85,000' beside '4.5 Lakh').
# German writes 'Tsd.', 'Mio.' and 'Mrd.' with a decimal comma and the currency after: '1,5 Mio. €'.
MAGNITUDE_TEXT = (
    r"^(?:[$€£¥₹]|[A-Z]{3}(?=[\s\d]))?\s?(\d+(?:\.\d+)?|\d+,(?:\d{1,2}|\d{4,}))\s?"
    r"(k|K|M|B|bn|mn|thousand|million|billion|[Ll]akhs?|[Cc]rores?|Cr|万|萬|億|亿|Tsd|Mio|Mrd)\.?"
    r"(?:\s?[$€£¥₹]|\s[A-Z]{3})?\+?$"
)
# Chinese and Japanese write ten thousands and hundred millions: '3.5万' is 35,000, '2億' 200,000,000.
MAGNITUDES = {"k": 1e3, "K": 1e3, "M": 1e6, "mn": 1e6, "B": 1e9, "bn": 1e9, "thousand": 1e3, "million": 1e6,
              "billion": 1e9, "lakh": 1e5, "crore": 1e7, "cr": 1e7, "万": 1e4, "萬": 1e4, "億": 1e8,
              "亿": 1e8, "tsd": 1e3, "mio": 1e6, "mrd": 1e9}  # fmt: skip
WITH_ONES = (
    "k",
    "K",
    "thousand",
    "million",
    "billion",
    "lakh",
    "crore",
    "cr",
    "万",
    "萬",
    "tsd",
    "mio",
    "mrd",
)  # beside these a plain number is its ones


# After a currency sign a lone 'm' or 'b' is millions or billions ('$1.2m', '£3.4b'; no sum of money is in
# metres): written as 'M' and 'B' before MAGNITUDE_TEXT reads it.
MONEY_SHORT_TEXT = r"^([$€£¥₹]\s?\d+(?:\.\d+)?\s?)([mb])(\+?)$"


def money_suffixes(text):
    """Text values with MONEY_SHORT_TEXT's lower-case suffixes in capitals."""
    return text.str.replace(MONEY_SHORT_TEXT, lambda m: m[1] + m[2].upper() + m[3], regex=True)


def magnitude_suffixes(found):
    """The MAGNITUDES key of each suffix as written ('Lakhs' and 'Crore' are 'lakh' and 'crore')."""
    return found.where(found.isin(MAGNITUDES), found.str.lower().str.rstrip("s"))


def magnitude_values(values):
    """Each MAGNITUDE_TEXT value scaled by its suffix ('12.5K' is 12500); NaN where a value is not one."""
    found = money_suffixes(filled_text(values)).str.extract(MAGNITUDE_TEXT)
    number = pd.to_numeric(found[0].str.replace(",", ".", regex=False), errors="coerce")  # '1,5 Mio.'
    return number * magnitude_suffixes(found[1]).map(MAGNITUDES)


def target_numbers(values):
    """A target written for people as numbers, when every value reads as one: number_values ('$1,234.50'),
    or a magnitude suffix where one is written ('$85k' beside '$1.2M', magnitude_values: a target is a
    quantity, so even one suffix alone is its scale); None otherwise."""
    numbers = number_values(values)
    if numbers.notna().all():
        return numbers
    numbers = magnitude_values(values).combine_first(numbers)
    return numbers if numbers.notna().all() else None


def numeric_targets(train):
    """A regression task's target columns written for people ("$1,234.50") read as numbers, when every value
    parses (target_numbers); the grader scores numbers, and a model cannot fit text."""
    if CFG["problem"] != "regression":
        return train
    for c in [t for t in CFG["target"] if t in train.columns and not pd.api.types.is_numeric_dtype(train[t])]:
        values = target_numbers(train[c])
        if values is not None:
            log(f"target {c} read as numbers (written as text, e.g. {train[c].iloc[0]!r})")
            train[c] = values.to_numpy()
    return train


def padded_labels(train):
    """A class target whose labels differ only by spaces around them ('Oak', 'Oak ', ' Oak': typed by hand)
    as one label each, the spaces stripped: the answers spell a class one way, and a model would split it
    in three. Labels padded alike everywhere are left as written."""
    if CFG["problem"] not in ("binary", "multiclass"):
        return train
    for c in [t for t in CFG["target"] if t in train.columns and train[t].dtype == object]:
        text = train[c].astype(str)
        stripped = text.str.strip()
        if stripped.nunique() < text.nunique():
            log(f"target {c}: {text.nunique() - stripped.nunique()} label spelling(s) differ from another only "
                f"by spaces around it (e.g. {text[text != stripped].iloc[0]!r}): read without them")  # fmt: skip
            train[c] = stripped.where(train[c].notna())
    return train


# %% features
def split_frames(train, test):
    """Feature frames: the columns train and test share, minus id and targets (a column missing from the
    test file can't be used); near-unique non-numeric columns that aren't text are dropped (they're ids)."""
    drop = (set(CFG["target"]) | {CFG.get("id")} | set(CFG.get("drop", []))) - {CFG.get("image_col")}
    split = CFG.get("split") or {}
    if CFG.get("drop_group_key") and split.get("kind") == "group" and split.get("column") in train.columns:
        # rcp-drop-group-key: the test rows are new groups, so the key names nothing they share
        drop.add(split["column"])
        if not CFG.get("_said_group"):
            CFG["_said_group"] = True
            log(
                f"'{split['column']}' is not a feature: the test rows are groups the training rows never show"
            )
    cols = [c for c in train.columns if c in test.columns and c not in drop and c != CFG.get("image_col")]
    special = set(CFG.get("text_cols", []))
    keep = [c for c in cols if c in special or not _id_like(train[c])]
    a, b = train[keep].copy(), test[keep].copy()
    if CFG.get("coerce"):  # repair: mostly-numeric text columns become numbers, the rest category codes
        for c in [c for c in keep if c not in special and not pd.api.types.is_numeric_dtype(a[c])]:
            num = pd.to_numeric(a[c], errors="coerce")
            if num.notna().mean() > 0.9 * a[c].notna().mean():
                a[c], b[c] = num, pd.to_numeric(b[c], errors="coerce")
            else:  # integer codes of the training rows' levels (unseen ones -1): any model accepts them
                index = {v: i for i, v in enumerate(sorted(a[c].astype(str).unique()))}
                a[c] = a[c].astype(str).map(index).astype(float)
                b[c] = b[c].astype(str).map(index).fillna(-1).astype(float)
    return a, b


def _id_like(s):
    return not pd.api.types.is_numeric_dtype(s) and len(s) > 50 and s.nunique() > 0.9 * len(s)


def column_kinds(df):
    text = [c for c in CFG.get("text_cols", []) if c in df.columns]
    skip = set(text) | {CFG.get("image_col")}
    num = [c for c in df.columns if c not in skip and pd.api.types.is_numeric_dtype(df[c])]
    cat = [c for c in df.columns if c not in skip and c not in num]
    return num, cat, text


def _feature_columns(train, test):
    keep = set(CFG["target"]) | {CFG.get("id"), CFG.get("image_col")}
    return [c for c in train.columns if c in test.columns and c not in keep]


# automind.patterns.DATE_PATTERN (a test keeps the copy the same): 2024-01-31, 31/01/2024, 2024-01, 'Mar 2024',
# 2024-W05, 2024Q3, 'Tue Mar 05 14:22:01 +0000 2019'
DATE_TEXT = (
    r"^\d{4}[-/]\d{1,2}[-/]\d{1,2}([ T]\d{1,2}:\d{2}(:\d{2})?)?|^\d{1,2}[-/]\d{1,2}[-/]\d{4}"
    r"|^(19|20)\d{2}[-/](0?[1-9]|1[0-2])$|^(19|20)\d{2}-?W(0[1-9]|[1-4]\d|5[0-3])(-?[1-7])?$"
    r"|^(?i:(19|20)\d{2}[-\s]?Q[1-4]|Q[1-4][-\s]?(19|20)\d{2})$"
    r"|^(?i:((mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+)?(\d{1,2}(st|nd|rd|th)?[\s-])?"
    r"(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t|tember)?|oct(ober)?|nov(ember)?"
    r"|dec(ember)?)\.?([\s,-]+\d{1,2}(st|nd|rd|th)?,?)?[\s,-]+\d{4}"
    r"(,?\s+\d{1,2}:\d{2}(:\d{2})?(\s*([+-]\d{4}|[a-z]{1,4}))?)?)$"
    r"|^(?i:((mon|tue|wed|thu|fri|sat|sun)[a-z]*\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+"
    r"\d{1,2}\s+\d{1,2}:\d{2}(:\d{2})?(\s+([+-]\d{4}|[a-z]{1,4}))?\s+\d{4})$"
    r"|^(19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])T[0-2]\d[0-5]\d"  # ISO basic (ISO_BASIC_TEXT)
    # two-digit years: '3/15/19', '15-03-19', '15.03.19' and '15.3.2019' (dots: a version '1.2.10' is no date;
    # a time may follow the last, and '2019.03.15', or come first: '14:25 15/03/2019'),
    # '15-Mar-19' and 'Mar-19' (SHORT_MONTH_TEXT)
    r"|^(0?[1-9]|[12]\d|3[01])/(0?[1-9]|[12]\d|3[01])/\d{2}$|^(0?[1-9]|[12]\d|3[01])-(0?[1-9]|[12]\d|3[01])-\d{2}$"
    r"|^(0[1-9]|[12]\d|3[01])\.(0[1-9]|1[0-2])\.\d{2}$"
    r"|^(0?[1-9]|[12]\d|3[01])\.(0?[1-9]|1[0-2])\.(19|20)\d{2}(\s+\d{1,2}:\d{2}(:\d{2})?)?$"
    r"|^(19|20)\d{2}\.(0?[1-9]|1[0-2])\.(0?[1-9]|[12]\d|3[01])(\s+\d{1,2}:\d{2}(:\d{2})?)?$"
    r"|^([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?\s+(0?[1-9]|[12]\d|3[01])[-/.](0?[1-9]|[12]\d|3[01])[-/.](19|20)\d{2}$"
    r"|^(?i:((0?[1-9]|[12]\d|3[01])-)?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*-\d{2})$"
    # log times: '15/Mar/2019:10:20:30 +0000' (CLF_TIME_TEXT), 'Mar  5 10:20:30' (YEARLESS_TEXT); '2019年3月15日'
    r"|^\d{1,2}/(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/\d{4}:\d{1,2}:\d{2}:\d{2}"
    r"|^(?i:(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d{1,2}\s+\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?)$"
    r"|^\d{4}\s*[年년]\s*\d{1,2}\s*[月월]"
    # Oracle's timestamps: '15-MAR-19 02.25.30.123456 PM' (ORACLE_TIME_TEXT)
    r"|^(?i:(0?[1-9]|[12]\d|3[01])-(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)-\d{2}(\d{2})?\s+"
    r"\d{1,2}\.\d{2}\.\d{2}(\.\d+)?(\s*[ap]m)?)$"
)


# Month names of other languages (German, French, Spanish, Italian, Portuguese, Dutch; full and short) as
# English ones, so '3. März 2019', '15 janvier 2020' and '7 de mayo de 2018' read as '3 Mar 2019' does.
FOREIGN_MONTHS = {
    "jan": ("januar", "jänner", "janvier", "janv", "enero", "ene", "gennaio", "gen", "janeiro", "januari"),
    "feb": ("februar", "février", "fevrier", "févr", "fevr", "febrero", "febbraio", "fevereiro", "fev", "februari"),
    "mar": ("märz", "maerz", "mär", "mrz", "mars", "marzo", "março", "marco", "maart", "mrt"),
    "apr": ("avril", "avr", "abril", "abr", "aprile"),
    "may": ("mai", "mayo", "maggio", "mag", "maio", "mei"),
    "jun": ("juni", "juin", "junio", "giugno", "giu", "junho"),
    "jul": ("juli", "juillet", "juil", "julio", "luglio", "lug", "julho"),
    "aug": ("août", "aout", "agosto", "ago", "augustus"),
    "sep": ("septembre", "septiembre", "setiembre", "settembre", "set", "setembro"),
    "oct": ("oktober", "okt", "octobre", "octubre", "ottobre", "ott", "outubro", "out"),
    "nov": ("novembre", "noviembre", "novembro"),
    "dec": ("dezember", "dez", "décembre", "déc", "diciembre", "dic", "dicembre", "dezembro"),
}  # fmt: skip
ENGLISH_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                  "november", "december")  # fmt: skip
FOREIGN_MONTH_NAMES = {name: english for english, names in FOREIGN_MONTHS.items() for name in names} | {
    name: name[:3] for full in ENGLISH_MONTHS for name in (full, full[:3])
}  # German 'August' is English 'August': a column of both is read alike
FOREIGN_DATE_TEXT = (
    r"(?i)^(?:(\d{1,2})(?:\.|º|er)?\s+(?:de\s+)?)?([^\W\d_]+)\.?,?\s+(?:de\s+|del\s+)?(\d{4})$"
)
# SAS's and Stata's dates, day, month and year run together, a time after a colon: '03MAR2019:14:25:00'.
PACKED_DATE_TEXT = r"(?i)^(\d{1,2})([^\W\d_]{3})(\d{4})(?::(\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?$"


def english_months(values):
    """Dates written day, month name and year in another language (FOREIGN_DATE_TEXT, FOREIGN_MONTHS) or run
    together (PACKED_DATE_TEXT) as '3 Mar 2019' (or 'Mar 2019' without a day, '3 Mar 2019 14:25:00' with a
    time); other values as they are."""
    text = pd.Series(values).astype(str).str.strip()
    packed = text.str.extract(PACKED_DATE_TEXT)
    found = text.str.extract(FOREIGN_DATE_TEXT).combine_first(packed[[0, 1, 2]])
    month = found[1].str.lower().map(FOREIGN_MONTH_NAMES)
    english = found[0].fillna("") + " " + month.str.title() + " " + found[2] + (" " + packed[3]).fillna("")
    return english.str.strip().where(month.notna(), pd.Series(values)).where(pd.Series(values).notna())


def _dates_like(s):
    """Text whose first values read as dates (DATE_TEXT)."""
    sample = s.dropna().astype(str).head(200)
    return len(sample) >= 5 and sample.str.match(DATE_TEXT).mean() > 0.9


# A date written over three columns: the name stems of its year, month and day (the rest of the three names
# the same: 'year'/'month'/'day', 'sale_year'/'sale_month'/'sale_day', 'arrival_date_day_of_month').
DATE_STEMS = {"year": ("year", "yr"), "month": ("month", "mon", "mo", "mnth"),
              "day": ("day", "dom", "day_of_month", "dayofmonth")}  # fmt: skip
MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _stem_columns(columns, stems):
    """{(before, after): column} for the columns named before + stem + after (any case)."""
    found = {}
    for c in columns:
        low = str(c).lower()
        for stem in sorted(stems, key=len, reverse=True):
            at = low.rfind(stem)
            if at >= 0:
                found.setdefault((low[:at], low[at + len(stem) :]), c)
                break
    return found


def _month_numbers(values):
    """Months as 1-12 from numbers or names ('Mar', 'March')."""
    if pd.api.types.is_numeric_dtype(values):
        return values
    text = values.astype(str).str.strip().str[:3].str.lower()
    return text.map({m: i + 1 for i, m in enumerate(MONTH_NAMES)}).where(values.notna())


def split_dates(train, test):
    """Dates written over a year, a month (a number or its name) and a day column (DATE_STEMS) gain the date's
    epoch days and day of week: a weekday effect and a trend across months are out of reach of the parts.
    Only when every filled row reads as a date of 1900-2099; the three columns stay (a month name becomes
    its number)."""
    cols = _feature_columns(train, test)
    groups = {k: _stem_columns(cols, stems) for k, stems in DATE_STEMS.items()}
    for key, year in groups["year"].items():
        month, day = groups["month"].get(key), groups["day"].get(key)
        if month is None or day is None or len({year, month, day}) < 3:
            continue
        both = pd.concat([train[[year, month, day]], test[[year, month, day]]])
        filled = both.dropna()
        if len(filled) < 5 or not pd.api.types.is_numeric_dtype(filled[year]):
            continue
        parts = {"year": filled[year], "month": _month_numbers(filled[month]), "day": filled[day]}
        if (
            not all(pd.api.types.is_numeric_dtype(v) for v in parts.values())
            or not filled[year].between(1900, 2099).all()
        ):
            continue
        if pd.to_datetime(pd.DataFrame(parts), errors="coerce").isna().any():
            continue
        before = key[0] if "date" in key[0] else key[0] + "date"
        name = (before.rstrip("_ ") + key[1]).strip("_ ") or "date"
        for df in (train, test):
            df[month] = _month_numbers(df[month])
            when = pd.to_datetime(
                pd.DataFrame({"year": df[year], "month": df[month], "day": df[day]}), errors="coerce"
            )
            df[name + "_epoch"] = (when - pd.Timestamp("1970-01-01")) / pd.Timedelta(days=1)
            df[name + "_dayofweek"] = when.dt.dayofweek
        log(f"clean: '{year}', '{month}' and '{day}' are one date: added its epoch days and day of week")
    return train, test


def date_parts(train, test, cfg):
    """Text columns that parse as dates become epoch days (the time of day as their fraction), year, month,
    day and day of week, and hour and minute when the training column carries times of day: on an hourly
    table the hour is most of the signal (row-wise). A time written with its zone's offset
    ("2021-04-24T20:00:00+02:00") gives its epoch in UTC and its calendar parts as the local clock read
    them: people open shops and switch lights on by their own clock. Numbers that are Unix times or dates
    written as numbers get their parts too (epoch_parts, number_dates), and so does a date written over
    year, month and day columns (split_dates). Dates that name only a month (every training day the 1st) get
    no day or weekday: the weekday of a month's first day is noise to a model."""
    train, test = split_dates(train, test)
    for c in _feature_columns(train, test):
        if c in cfg.get("text_cols", []):
            continue
        if pd.api.types.is_numeric_dtype(train[c]):
            if not epoch_parts(train, test, c):
                number_dates(train, test, c)
            continue
        text = [train[c], test[c]]
        if not _dates_like(text[0]):
            text = [english_months(t) for t in text]
            if not _dates_like(text[0]):
                continue
            log(f"clean: {c} holds dates read as day, month name and year (e.g. {train[c].iloc[0]!r})")
        first = day_first(pd.concat(text))  # one reading for both files
        dates = [read_times(t, first) for t in text]
        clocks = [local_clock(t, d, first) for t, d in zip(text, dates, strict=True)]
        months = clocks[0].dt.day.dropna().eq(1).all()  # 'Mar 2019', 2019-03: a month, not its first day
        parts = ["year", "month"] if months else ["year", "month", "day", "dayofweek"]
        if filled_text(text[0]).str.match(YEARLESS_TEXT, na=False).mean() > 0.5:
            parts = ["month", "day"]  # a log's 'Mar  5 10:20:30': the year and weekday are YEARLESS's
        parts += [p for p in ("hour", "minute") if getattr(clocks[0].dt, p).fillna(0).ne(0).any()]
        calendar_parts(train, test, c, dates, clocks, parts)
    return train, test


def calendar_parts(train, test, c, dates, clocks, parts):
    """Column `c` of train and test replaced by its epoch days (from `dates`) and the calendar `parts` of
    `clocks` (the local times)."""
    for df, d, local in zip((train, test), dates, clocks, strict=True):
        df[c + "_epoch"] = (d - pd.Timestamp("1970-01-01")) / pd.Timedelta(days=1)
        for part in parts:
            df[f"{c}_{part}"] = getattr(local.dt, part)
        df.drop(columns=[c], inplace=True)


# Whole numbers that are dates: yyyymmdd (20210304), yyyymm (201903), or yymmddhh as Avazu's click logs
# stamp an hour (14102100), in a column whose name says so. Each format: its width, what its values start
# with, and the calendar parts it gives; the first whose every value parses is taken (a yyyymmdd that
# also reads as yymmddhh, 20101123, is a yyyymmdd).
DATE_NUMBER_NAME = r"(?i)date|time|day|month|period|hour"
DATE_NUMBER_FORMATS = (
    (8, r"(?:19|20)\d", "%Y%m%d", ["year", "month", "day", "dayofweek"]),
    (6, r"(?:19|20)\d", "%Y%m", ["year", "month"]),
    (8, r"\d", "%y%m%d%H", ["year", "month", "day", "dayofweek", "hour"]),
)


def number_dates(train, test, c):
    """A column of whole numbers written as dates (DATE_NUMBER_FORMATS: yyyymmdd 20210304, yyyymm 201903,
    yymmddhh 14102100), its name saying date, day, month, hour, time or period and every value reading as
    such (yyyy in 1900-2099): as a quantity 20191231 and 20200101 lie 8,870 apart, so a linear model's trend
    on it breaks at each new month and year, and no tree reads the hour of day off 14102100. It becomes
    epoch days and calendar parts, as a text date does. True when done."""
    if not re.search(DATE_NUMBER_NAME, str(c)):
        return False
    values = pd.concat([train[c], test[c]]).dropna()
    if len(values) < 5 or not bool((values % 1 == 0).all()):
        return False
    text = values.astype("int64").astype(str)
    widths = text.str.len().unique()
    if len(widths) != 1:
        return False
    fmt, parts = next(
        (
            (fmt, parts)
            for width, start, fmt, parts in DATE_NUMBER_FORMATS
            if width == int(widths[0])
            and text.str.match(start).all()
            and pd.to_datetime(text, format=fmt, errors="coerce").notna().all()
        ),
        (None, None),
    )
    if fmt is None:
        return False
    dates = [
        pd.to_datetime(df[c].astype("Int64").astype(str), format=fmt, errors="coerce") for df in (train, test)
    ]
    calendar_parts(train, test, c, dates, dates, parts)
    log(f"'{c}' holds dates written as numbers ({fmt}): read as dates ({', '.join(parts)}, epoch days)")
    return True


# A numeric column is a Unix time when its name says time and every value falls in 2000-2049 as seconds,
# milliseconds, microseconds or nanoseconds since 1970 (a name alone, or a range alone, is too weak:
# populations and prices reach 1e9); the four ranges do not overlap. Pandas writes its times as int64
# nanoseconds.
EPOCH_NAME = r"(?i)time|date|stamp|epoch|(?:^|_)ts(?:$|_)|_at$|created|updated"
EPOCH_SCALES = {scale: (946684800 * scale, 2524608000 * scale) for scale in (1.0, 1e3, 1e6, 1e9)}
EPOCH_UNITS = {1.0: "seconds", 1e3: "milliseconds", 1e6: "microseconds", 1e9: "nanoseconds"}


def epoch_parts(train, test, c):
    """Calendar parts of a Unix time column (year, month, day, day of week, and hour and minute when the
    times carry them), the column kept as the trend: a tree cannot read the hour of day off seconds. True
    when done."""
    if not re.search(EPOCH_NAME, str(c)):
        return False
    values = pd.concat([train[c], test[c]]).dropna()
    scale = next((k for k, (lo, hi) in EPOCH_SCALES.items() if len(values) >= 5 and values.min() >= lo
                  and values.max() <= hi), None)  # fmt: skip
    if scale is None:
        return False
    times = [pd.to_datetime(df[c] / scale, unit="s") for df in (train, test)]
    parts = ["year", "month", "day", "dayofweek"]
    parts += [p for p in ("hour", "minute") if getattr(times[0].dt, p).fillna(0).ne(0).any()]
    for df, t in zip((train, test), times, strict=True):
        for part in parts:
            df[f"{c}_{part}"] = getattr(t.dt, part)
    log(f"'{c}' holds Unix times ({EPOCH_UNITS[scale]}): added {', '.join(parts)}")
    return True


ZONE_OFFSET = r"(?<=\d)\s?(?:Z|UTC|GMT|[+-]\d{2}:?\d{2})$"  # a time's zone written after it


def local_clock(values, utc, first):
    """The times as their local clock read them (the zone offset dropped), or `utc` when none is written."""
    text = values.astype(str)
    if not text.str.contains(ZONE_OFFSET, regex=True).any():
        return utc
    return read_times(text.str.replace(ZONE_OFFSET, "", regex=True).where(values.notna()), first)


# A number with its unit after it ("18.9 kmpl", "1248 CC", "26.6 km/kg", "30min", "23.5°C", "45°", "1,234/km²",
# "1.5e-03 mol/L", a price per unit "$4.99/lb"): a unit of one letter must stand apart ("5 m"), so codes such
# as "12A" stay codes; a thousand or a million before a unit is its magnitude ("45K mi"). Or a unit
# of up to four letters before it, standing apart ("EUR 950.00", "Rs. 1,200", "R$ 12", "Room 101"): "A1" and
# "C85" stay codes.
PER_HUNDRED = r"(?:(?<=/)100\s?[^\W\d_]+)?"  # a unit per hundred of another: 'L/100km', 'mg/100g'
UNIT_TEXT = (
    rf"^[{CURRENCY_SIGNS}]?\s?([-+]?(?:{THOUSANDS}|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?)(?:\s+((?:[^\W\d_]|°|/(?=[^\W\d_]))[^\s\d]*{PER_HUNDRED}|[%‰‱])"
    rf"|((?:[^\W\d_]|°|/(?=[^\W\d_]))[^\s\d]+{PER_HUNDRED}|[°℃℉%‰‱]))$"
)
PREFIX_UNIT_TEXT = rf"^([^\W\d_]{{1,4}}(?:\.\s?|\$\s?|\s+))([-+]?(?:{THOUSANDS}|\d+)(?:\.\d+)?)$"
UNITS = 3  # more distinct units than this: words after numbers, not units of one quantity (UNIT_SCALES)
# Units of one quantity written side by side ('2.5 kg' beside '500 g' and '12 oz'): each as a multiple of the
# first unit of its quantity, so a column of them becomes one scale. Keyed as unit_keys spells a unit.
UNIT_SCALES = (
    {"l/100km": 1.0, "mpg": 235.214583, "km/l": 100.0, "kmpl": 100.0},  # fuel used; INVERSE_UNITS
    {"kbps": 1.0, "bps": 1e-3, "mbps": 1e3, "gbps": 1e6},
    {"ghz": 1.0, "mhz": 1e-3, "khz": 1e-6, "hz": 1e-9},
    {"ah": 1.0, "mah": 1e-3},
    {"%": 1.0, "‰": 0.1, "‱": 0.01, "bp": 0.01, "bps": 0.01},  # per cent, per mille, basis points
    {"kg": 1.0, "g": 1e-3, "mg": 1e-6, "t": 1e3, "lb": 0.45359237, "oz": 0.028349523125, "st": 6.35029318},
    {"m": 1.0, "km": 1e3, "cm": 1e-2, "mm": 1e-3, "mi": 1609.344, "yd": 0.9144, "ft": 0.3048, "in": 0.0254},
    {"m2": 1.0, "km2": 1e6, "ha": 1e4, "acre": 4046.8564224, "mi2": 2589988.110336, "ft2": 0.09290304, "yd2": 0.83612736},
    {"l": 1.0, "ml": 1e-3, "cl": 1e-2, "gal": 3.785411784, "floz": 0.0295735295625, "cuin": 0.016387064},
    {"kw": 1.0, "w": 1e-3, "hp": 0.745699872, "bhp": 0.745699872, "ps": 0.73549875},
    {"b": 1.0, "kb": 1024.0, "mb": 1024.0**2, "gb": 1024.0**3, "tb": 1024.0**4, "kib": 1024.0, "mib": 1024.0**2,
     "gib": 1024.0**3, "tib": 1024.0**4},
)  # fmt: skip
# Other spellings of those units, in lower case: words ('5.2 kilometres', '2 litres', '11 stone'), plurals
# ('165 lbs'), areas ('110 m²', '95 sqm', '1,200 sq ft': UNIT_JOIN_TEXT writes 'sq ft' as one word).
UNIT_ALIASES = {
    "kgs": "kg", "kilo": "kg", "kilos": "kg", "kilogram": "kg", "kilograms": "kg", "gram": "g", "grams": "g",
    "gms": "g", "lbs": "lb", "pound": "lb", "pounds": "lb", "ounce": "oz", "ounces": "oz", "stone": "st",
    "stones": "st", "tonne": "t", "tonnes": "t",
    "metre": "m", "metres": "m", "meter": "m", "meters": "m", "kms": "km", "kilometre": "km", "kilometres": "km",
    "kilometer": "km", "kilometers": "km", "centimetres": "cm", "centimeters": "cm", "millimetres": "mm",
    "millimeters": "mm", "mile": "mi", "miles": "mi", "yard": "yd", "yards": "yd", "yds": "yd", "foot": "ft",
    "feet": "ft", "inch": "in", "inches": "in",
    "m²": "m2", "sqm": "m2", "sqmt": "m2", "squaremetres": "m2", "squaremeters": "m2", "km²": "km2",
    "sqkm": "km2", "hectare": "ha", "hectares": "ha", "acres": "acre", "ft²": "ft2", "sqft": "ft2",
    "squarefeet": "ft2", "squarefoot": "ft2", "yd²": "yd2", "sqyd": "yd2", "mi²": "mi2", "sqmi": "mi2",
    "litre": "l", "litres": "l", "liter": "l", "liters": "l", "ltr": "l", "ltrs": "l", "lt": "l",
    "millilitres": "ml", "milliliters": "ml", "gallon": "gal", "gallons": "gal", "cc": "ml", "cm3": "ml",
    "cm³": "ml", "cubicinches": "cuin",
    "byte": "b", "bytes": "b",
    "watt": "w", "watts": "w", "kilowatt": "kw", "kilowatts": "kw", "horsepower": "hp",
    "l/100 km": "l/100km", "litres/100km": "l/100km", "liters/100km": "l/100km", "mi/gal": "mpg",
    "kb/s": "kbps", "kbit/s": "kbps", "mb/s": "mbps", "mbit/s": "mbps", "gb/s": "gbps", "gbit/s": "gbps",
    "bit/s": "bps", "b/s": "bps",
    "percent": "%", "pct": "%", "permille": "‰",
}  # fmt: skip
# Units that measure the inverse of their quantity's first unit: '28 mpg' and '14.2 km/L' are distance per
# fuel where 'L/100km' is fuel per distance, so 28 mpg is 235.2 / 28 = 8.4 L/100km (in_first_unit).
INVERSE_UNITS = frozenset({"mpg", "km/l", "kmpl"})
# Marks standing for a unit, and a hyphen before a unit's word, written as unit_parts reads them: a screen
# of '15.6"' or '14”' is '15.6 in', a '17.3-inch' one '17.3 inch'; a number sign is 'No.', so a chart
# position '#12' beside 'No. 45' is one unit. A capital C or F joined to a number is a temperature as
# weather logs write it ('72F', '22.5C'; with one of them alone the number is read as it is, so floors
# '5F' stay 5). A unit of one letter joined to a number with a decimal part stands apart: an engine's
# '2.0L' is '2.0 L' (a code such as '12A' has no decimal part). A decimal comma before a unit is a point
# ('1,5 kg'; DECIMAL_COMMA: '1,500 kg' stays a thousand and a half).
UNIT_MARKS = (
    (r'(?<=\d)\s?["”″]$', " in"),
    (r"(?<=\d)-(?=[^\W\d_]{2,}$)", " "),
    (r"^#\s?(?=\d+$)", "No. "),
    (r"^([-+]?\d+(?:\.\d+)?)(?=[CF]$)", r"\1 °"),
    (r"^([-+]?\d+\.\d+)(?=[^\W\d_]$)", r"\1 "),
    (r"^([-+]?\d+),(\d{1,2}|\d{4,})(?=\s?[^\W\d_])", r"\1.\2"),
)
UNIT_JOIN_TEXT = (
    r"(?i)\b(sq|square|fl|cu|cubic|per(?=\s+(?:cent|mille)$))\.?\s+(?=[^\W\d_])"  # "sq ft", "per cent"
)
RESTATED_TEXT = r"(?<=\S)\s*\([^()]*\d[^()]*\)$"  # the same reading again in brackets: '12.0°C (53.6°F)'
# Temperature scales, each as (times, plus) to degrees Celsius: not multiples of one another (UNIT_SCALES).
TEMPERATURES = {"°c": (1.0, 0.0), "℃": (1.0, 0.0), "°f": (5 / 9, -160 / 9), "℉": (5 / 9, -160 / 9),
                "k": (1.0, -273.15)}  # fmt: skip


def unit_keys(written):
    """Each unit as written in lower case, spelled as UNIT_SCALES keys it where UNIT_ALIASES names it
    ('Kilometres' is 'km', 'sq ft' 'ft2'; per one, '/sq mi', '/mi2'); a trailing full stop dropped ('ft.')."""
    key = written.str.lower().str.rstrip(".")
    per = key.str.startswith("/", na=False)
    key = key.where(~per, key.str[1:])
    key = key.where(~key.isin(UNIT_ALIASES), key.map(UNIT_ALIASES))
    return key.where(~per, "/" + key)


# Units per one of another quantity's ('1,234/km²' beside '3,196 /sq mi'): each scale of UNIT_SCALES
# inverted, keyed '/<unit>'.
PER_SCALES = tuple(
    {f"/{unit}": 1 / size for unit, size in scale.items()}
    for scale in UNIT_SCALES
    if not INVERSE_UNITS & set(scale)
)


def in_first_unit(number, unit, scale):
    """Each number in the first unit of its quantity's `scale` (units keyed as unit_keys spells them): times
    its unit's multiple, or that multiple over it for INVERSE_UNITS (NaN for zero: no distance per litre)."""
    factor = unit.map(scale)
    inverse = unit.isin(INVERSE_UNITS)
    return (number * factor).where(~inverse, factor / number.where(number != 0))


MONEY_CODE = (
    r"^[A-Z]{3}$"  # a unit written as three capitals is a currency's ISO 4217 code: any number of them
)


def _mostly_numbers(fits, others, share, codes):
    """Whether a column whose values parse where `fits` is numbers: `share` of them parse, or a majority
    beside at most `codes` distinct other values (placeholders such as "?" or "10+ years")."""
    return bool(fits.mean() >= share or (fits.mean() > 0.5 and others <= codes))


UNIT_MAGNITUDE_TEXT = r"^([-+]?\d+(?:\.\d+)?)\s?([kKM])(?=\s+([^\W\d_][^\s\d]*)$)"  # '45K mi', '1.2M km'


def _unit_magnitude(found):
    """A UNIT_MAGNITUDE_TEXT match written in full ('45K mi' is '45000 mi') when the word after it is a
    unit of UNIT_SCALES ('4K UHD' stays)."""
    key = found[3].lower().rstrip(".")
    if not any(UNIT_ALIASES.get(key, key) in scale for scale in UNIT_SCALES):
        return found[0]
    return f"{float(found[1]) * MAGNITUDES[found[2]]:.12g}"


def unit_parts(values):
    """Each value's number and unit as written (NaN where it is neither form of UNIT_TEXT /
    PREFIX_UNIT_TEXT); a reading restated in brackets after it is left out (RESTATED_TEXT), a magnitude
    before a unit written in full (UNIT_MAGNITUDE_TEXT)."""
    text = filled_text(values).str.replace(UNIT_JOIN_TEXT, r"\1", regex=True)
    text = text.str.replace(RESTATED_TEXT, "", regex=True)
    text = text.str.replace(UNIT_MAGNITUDE_TEXT, _unit_magnitude, regex=True)
    for mark, unit in UNIT_MARKS:
        text = text.str.replace(mark, unit, regex=True)
    after, before = text.str.extract(UNIT_TEXT), text.str.extract(PREFIX_UNIT_TEXT)
    number = pd.to_numeric(
        after[0].combine_first(before[1]).str.replace(r"[,'’]", "", regex=True), errors="coerce"
    )
    return number, after[1].combine_first(after[2]).combine_first(before[0].str.strip().str.rstrip("."))


def unit_numbers(train, test, c, share, codes):
    """A text column of numbers with their unit (UNIT_TEXT or PREFIX_UNIT_TEXT, at most UNITS distinct units
    unless they are currency codes (MONEY_CODE), the same `share` and placeholder `codes` rules as
    number_text) becomes the numbers; with several units (km/kg beside kmpl, EUR beside USD) the unit stays
    as a category of its own (`<column>_unit`), and units of one quantity (UNIT_SCALES: kg beside g and oz)
    are converted to its first unit; other numbers are not converted. True when done."""
    values = train[c].dropna().astype(str).str.strip()
    number, written = unit_parts(values)
    fits = number.notna()
    if not _mostly_numbers(fits, values[~fits].nunique(), share, codes):
        return False
    units = unit_keys(written[fits]).unique()
    if set(written[fits]) == {"%"}:  # per cent signs alone: number_text reads them, '▲ 2.3%', '(12.5%)' too
        return False
    if {str(u).lower() for u in units} == {"dr", "cr"}:  # debits and credits: typeset_numbers signs them
        return False
    scale = next((s for s in (*UNIT_SCALES, *PER_SCALES) if len(units) > 1 and set(units) <= set(s)), None)
    degrees = len(units) > 1 and set(units) <= set(TEMPERATURES)
    if len(units) > UNITS and scale is None and not written[fits].str.match(MONEY_CODE).all():
        return False
    numbers = []
    for df in (train, test):
        number, written = unit_parts(df[c])
        written = unit_keys(written)
        if len(units) > 1:
            df[c + "_unit"] = written
        if degrees:
            times, plus = (written.map({u: t[i] for u, t in TEMPERATURES.items()}) for i in (0, 1))
            number = number * times + plus
        numbers.append(number if scale is None else in_first_unit(number, written, scale))
    _numbers_with_codes(train, test, c, numbers, codes)  # "10+ years" beside "< 1 year": which code it was
    to = ", converted to °c" if degrees else "" if scale is None else f", converted to {next(iter(scale))}"
    log(
        f"clean: {c} read as numbers with their unit ({', '.join(map(str, units))}{to}; e.g. {values.iloc[0]!r})"
    )
    return True


CLOCK_TEXT = r"^(\d{1,3}):([0-5]\d)(?::([0-5]\d(?:\.\d+)?))?$"  # '07:45', '01:30:00', '36:15:00'
CLOCK12_TEXT = r"(?i)^(0?[1-9]|1[0-2])(?::([0-5]\d))?(?::([0-5]\d))?\s?([ap])\.?\s?m\.?$"  # '2:30 PM', '9am'
CLOCK_H_TEXT = r"^([01]?\d|2[0-3])\s?h\s?([0-5]\d)?$"  # French and German timetables: '14h30', '9h05', '18h'


def clock_minutes(values, seconds=False):
    """Minutes since 0:00 of each clock reading or duration (CLOCK_TEXT; with `seconds`, a reading of two
    fields is minutes and seconds), twelve-hour time of day (CLOCK12_TEXT: 12 AM is midnight, 12 PM noon)
    or time written with an 'h' (CLOCK_H_TEXT); NaN where a value is none of them."""
    text = filled_text(values)
    clock = text.str.extract(CLOCK_TEXT).astype(float)
    if seconds:  # 'm:ss' read as 'h:mm:ss' with no hours
        two = clock[2].isna()
        clock.loc[two, [0, 1, 2]] = np.c_[np.zeros(int(two.sum())), clock.loc[two, [0, 1]].to_numpy()]
    half = text.str.extract(CLOCK12_TEXT)
    hour = half[0].astype(float) % 12 + 12 * half[3].str.lower().eq("p")
    twelve = hour * 60 + half[1].astype(float).fillna(0) + half[2].astype(float).fillna(0) / 60
    french = text.str.extract(CLOCK_H_TEXT).astype(float)
    return (
        (clock[0] * 60 + clock[1] + clock[2].fillna(0) / 60)
        .combine_first(twelve.where(half[0].notna()))
        .combine_first((french[0] * 60 + french[1].fillna(0)).where(french[0].notna()))
    )


CLOCK_FORMS = 0.05  # the share of the readings each of 'm:ss' and 'h:mm:ss' needs before minutes_seconds asks


def minutes_seconds(values):
    """Whether the readings of two fields in a column of lengths of time are minutes and seconds: the
    column also writes hours, minutes and seconds (each form CLOCK_FORMS of the readings), and the
    two-field readings, as minutes and seconds, lie nearer the three-field ones (medians on a log scale)
    than as hours and minutes. A race's '45:23' beside '2:05:33', a track's '75:30' beside '1:15:30';
    times of day written with and without seconds ('07:45' beside '07:45:30') stay hours and minutes."""
    clock = filled_text(values).str.extract(CLOCK_TEXT).astype(float)
    three, two = clock[2].notna(), clock[0].notna() & clock[2].isna()
    if min(three.mean(), two.mean()) < CLOCK_FORMS:
        return False
    long = (clock[0] * 60 + clock[1] + clock[2] / 60)[three].median()
    hours = (clock[0] * 60 + clock[1])[two].median()
    if not (long > 0 and hours > 0):
        return False
    return bool(abs(np.log(hours / 60 / long)) < abs(np.log(hours / long)))


def clock_numbers(train, test, c, share, codes):
    """A text column of clock readings or durations ('07:45', '01:30:00'; CLOCK_TEXT) or times of day on a
    twelve-hour clock ('2:30 PM', '9am'; CLOCK12_TEXT) or with an 'h' ('14h30'; CLOCK_H_TEXT) becomes minutes
    since 0:00 (the same `share` and
    placeholder `codes` rules as number_text; a placeholder is kept as `<column>_code`): as text each
    reading is a level of its own, and neither an evening nor a long flight can be told apart. Two fields
    are minutes and seconds where the training values say so (minutes_seconds). True when done."""
    seconds = minutes_seconds(train[c].dropna())
    return _read_numbers(
        train, test, c, share, codes, lambda values: clock_minutes(values, seconds), "minutes",
        "lengths of time as m:ss and h:mm:ss" if seconds else "clock readings or durations",
    )  # fmt: skip


WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
WEEKDAY_CLOCK_TEXT = (
    r"(?i)^(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+(\S.*)$"  # 'Tue 09:35', 'Monday 2:30 PM'
)


def weekday_clocks(values):
    """Each 'Tue 09:35' (a weekday's name and a clock, WEEKDAY_CLOCK_TEXT) as minutes since 0:00, with its
    day of the week (0 is Monday) beside it; both NaN where a value is not one."""
    text = filled_text(values)
    found = text.str.extract(WEEKDAY_CLOCK_TEXT)
    minutes = clock_minutes(found[1])
    day = found[0].str.lower().map({d: i for i, d in enumerate(WEEKDAYS)}).astype(float)
    return minutes, {"dayofweek": day.where(minutes.notna())}


def weekday_numbers(train, test, c, share, codes):
    """A text column of weekly times ('Tue 09:35', a slot in a timetable or a weekly schedule) becomes the
    minutes since 0:00 with the day of the week beside it (`<column>_dayofweek`; the same `share` and
    placeholder `codes` rules as number_text): as text each slot is a level of its own, and no date reader
    takes a day without a date. True when done."""
    values = train[c].dropna().astype(str).str.strip()
    if values.head(2000).str.match(WEEKDAY_CLOCK_TEXT).mean() <= 0.5:  # cheap look first
        return False
    return _read_numbers_beside(
        train, test, c, share, codes, weekday_clocks, "minutes", "a weekday and a clock"
    )  # fmt: skip


def _read_numbers_beside(train, test, c, share, codes, parts, what, written):
    """_read_numbers, where `parts` gives for each frame's values the numbers and the columns to add beside
    them (a suffix -> Series), added as `<column>_<suffix>` when the column is read; each frame's values
    are parsed once. True when done."""
    values = train[c].dropna().astype(str).str.strip()
    fits = parts(values)[0].notna()
    if not _mostly_numbers(fits, values[~fits].nunique(), share, codes):
        return False
    found = [parts(df[c]) for df in (train, test)]
    _numbers_with_codes(train, test, c, [numbers for numbers, _ in found], codes)
    for df, (_, beside) in zip((train, test), found, strict=True):
        for suffix, column in beside.items():
            df[f"{c}_{suffix}"] = column
    log(f"clean: {c} read as {what} ({written}, e.g. {values.iloc[0]!r})")
    return True


def _read_numbers(train, test, c, share, codes, read, what, written):
    """Column `c` of train and test replaced by `read` of its values (NaN where one does not read) when the
    training values mostly read (_mostly_numbers), placeholder codes kept (_numbers_with_codes); logged as
    `what` read from values `written` so. True when done."""
    return _read_numbers_beside(
        train, test, c, share, codes, lambda values: (read(values), {}), what, written
    )


# A length of time spelled with its units ('2h 50m', '1 hour 30 minutes', '3 weeks', '2 years', '3 days ago',
# '30+ days ago', a latency '350ms' beside '1.24s') or in ISO 8601 ('PT4M13S', 'P1DT2H'): the minutes in each unit.
DURATION_UNITS = {"y": 525960.0, "mo": 43830.0, "w": 10080.0, "d": 1440.0, "h": 60.0, "m": 1.0, "s": 1 / 60,
                  "ms": 1 / 60000}  # fmt: skip
DURATION_WORDS = {"y": "years?|yrs?|y", "mo": "months?|mos?|mths?", "w": "weeks?|wks?|w", "d": "days?|d",
                  "h": "hours?|hrs?|h", "m": "minutes?|mins?|m", "s": "seconds?|secs?|s",
                  "ms": "milliseconds?|msecs?|ms"}  # fmt: skip
DURATION_CLOCK = r"(?:(?P<clock>\d{1,2}:[0-5]\d(?::[0-5]\d(?:\.\d+)?)?)\s*)?"  # after days: '2 days 03:15:00'
DURATION_TEXT = (
    "(?i)^"
    + "".join(
        rf"(?:(?P<{u}>\d+(?:\.\d+)?)\+?\s*(?:{w})(?![a-z])[\s,]*(?:and\s+)?)?" + (DURATION_CLOCK if u == "d" else "")
        for u, w in DURATION_WORDS.items()
    )
    + r"(?:ago)?$"
)  # fmt: skip
ISO_DURATION_TEXT = (
    r"^P(?:(?P<y>\d+(?:\.\d+)?)Y)?(?:(?P<mo>\d+(?:\.\d+)?)M)?(?:(?P<w>\d+(?:\.\d+)?)W)?(?:(?P<d>\d+(?:\.\d+)?)D)?"
    r"(?:T(?:(?P<h>\d+(?:\.\d+)?)H)?(?:(?P<m>\d+(?:\.\d+)?)M)?(?:(?P<s>\d+(?:\.\d+)?)S)?)?$"
)  # fmt: skip


def _duration_parts(values):
    """Each value's count of every DURATION_UNITS unit, spelled (DURATION_TEXT) or ISO 8601, the minutes of
    a clock after its days ('2 days 03:15:00' as pandas writes a timedelta, '1 day, 4:00:00' as Python does),
    and whether it was ISO."""
    text = filled_text(values)
    iso = text.str.extract(ISO_DURATION_TEXT).astype(float)
    spelled = text.str.extract(DURATION_TEXT)
    spelled["clock"] = clock_minutes(spelled["clock"])
    return spelled.astype(float).combine_first(iso), iso.notna().any(axis=1)


def duration_minutes(values):
    """Minutes of each spelled or ISO 8601 duration; NaN where a value is neither or names no unit."""
    return _minutes(_duration_parts(values)[0])


def _minutes(found):
    total = sum(found[u].fillna(0) * k for u, k in DURATION_UNITS.items()) + found["clock"].fillna(0)
    return total.where(found.notna().any(axis=1))


def _numbers_with_codes(train, test, c, numbers, codes):
    """Column `c` of train and test replaced by `numbers` (a pair of Series, NaN where a value did not read);
    with 2..`codes` distinct unread training values, which one filled a gap is kept as `<column>_code`."""
    text = [df[c].astype(str).str.strip().where(df[c].notna()) for df in (train, test)]
    keep = 1 < text[0][numbers[0].isna()].dropna().nunique() <= codes
    for df, t, n in zip((train, test), text, numbers, strict=True):
        if keep:
            df[c + "_code"] = t.where(n.isna())
        df[c] = n


def duration_numbers(train, test, c, share, codes):
    """A text column of durations ('2h 50m', 'PT4M13S', '3 days' beside '2 weeks ago', '2 days 03:15:00')
    becomes minutes (the same `share` and placeholder `codes` rules as number_text; a placeholder such as
    'Today' is kept as `<column>_code`): as text '2h 5m' and '2h 50m' are unrelated levels, and a length
    between two seen ones has no level at all. A column whose values all name one unit ('3 years') is
    unit_numbers'. True when done."""
    values = train[c].dropna().astype(str).str.strip()
    if _duration_parts(values.head(2000))[0].notna().any(axis=1).mean() <= 0.5:  # cheap look first
        return False
    found, iso = _duration_parts(train[c])
    fits = found.notna().any(axis=1)[train[c].notna()]
    others = values[~fits.to_numpy()].nunique()
    if not (iso.any() or found.notna().any().sum() > 1) or not _mostly_numbers(fits, others, share, codes):
        return False
    _numbers_with_codes(train, test, c, (_minutes(found), duration_minutes(test[c])), codes)
    log(f"clean: {c} read as minutes (lengths of time with their units, e.g. {values.iloc[0]!r})")
    return True


def magnitude_numbers(train, test, c, share, codes):
    """A text column of numbers with magnitude suffixes, at least two of them ('19M' beside '201k': Play
    Store sizes, YouTube views; '4.5 Lakh' beside '1.2 Crore', Indian prices; MAGNITUDE_TEXT), becomes the
    numbers scaled (the same `share` and placeholder `codes` rules as number_text): as text '19M' and '201k'
    are levels that cannot be ordered. Beside thousands ('K') or a spelled magnitude (WITH_ONES), numbers
    without a suffix are the ones of a shortened number ('980' beside '12.5K', '$800,000' beside '$2.5
    million'). One suffix alone ('12B' seats) says nothing of scale and is left as it is. True when done."""
    values = money_suffixes(train[c].dropna().astype(str).str.strip())
    if values.head(2000).str.match(MAGNITUDE_TEXT).mean() <= 0.5:  # cheap look first
        return False
    parts = values.str.extract(MAGNITUDE_TEXT)
    parts[1] = magnitude_suffixes(parts[1])
    suffixed = parts[0].notna()
    ones = suffixed.eq(False) & number_values(values).notna() & parts[1].isin(WITH_ONES).any()
    fits = suffixed | ones
    if parts[1][suffixed].map(MAGNITUDES).nunique() + ones.any() < 2 or not _mostly_numbers(
        fits, values[~fits].nunique(), share, codes
    ):
        return False
    scaled = []
    for df in (train, test):
        number = magnitude_values(df[c])
        scaled.append(number.combine_first(number_values(df[c])) if ones.any() else number)
    _numbers_with_codes(train, test, c, scaled, codes)
    log(
        f"clean: {c} read as numbers scaled by their suffix (k, M, B, million, lakh; e.g. {values.iloc[0]!r})"
    )
    return True


# An angle in degrees, minutes and seconds with its hemisphere (40°26'46"N, 79° 58' 56" W, N 40°26.8',
# -33°52'): a latitude or longitude.
DMS_TEXT = (
    r"^([NSEWnsew])?\s?([-+])?(\d{1,3}(?:\.\d+)?)\s?[°º]\s?(?:(\d{1,2}(?:\.\d+)?)\s?['′’]\s?)?"
    r"(?:(\d{1,2}(?:\.\d+)?)\s?(?:\"|″|''|”)\s?)?([NSEWnsew])?$"
)


def dms_degrees(values):
    """Decimal degrees of each DMS_TEXT angle, negative to the south and west; NaN where a value is not one
    or names no minutes and no hemisphere (a bare '45°' is unit_numbers')."""
    text = filled_text(values)
    p = text.str.extract(DMS_TEXT)
    side = p[0].combine_first(p[5]).str.upper()
    sign = np.where(side.isin(["S", "W"]) | p[1].eq("-"), -1.0, 1.0)
    degrees = p[2].astype(float) + p[3].astype(float).fillna(0) / 60 + p[4].astype(float).fillna(0) / 3600
    return (sign * degrees).where(p[3].notna() | side.notna())


def dms_numbers(train, test, c, share, codes):
    """A text column of coordinates in degrees, minutes and seconds (DMS_TEXT) becomes decimal degrees (the
    same `share` and placeholder `codes` rules as number_text): as text every place is a level of its own
    and no distance can be read. True when done."""
    head = train[c].dropna().astype(str).head(2000)
    if not head.str.contains("[°º]").mean() > 0.5:  # cheap look first
        return False
    return _read_numbers(
        train, test, c, share, codes, dms_degrees, "decimal degrees", "degrees, minutes, seconds"
    )


# A number written as in much of Europe: dots between thousands, a decimal comma, a currency sign before or
# after it ('1.234,56 €', '€ 99,90', '3,14', '12,5 %').
# Currencies written in letters where a decimal comma is usual: Indonesia's 'Rp', Brazil's 'R$', the
# Nordic 'kr', Poland's 'zł', Czechia's 'Kč', Hungary's 'Ft', or an ISO 4217 code ('EUR 1.234,56').
CURRENCY_WORDS = r"[$€£¥₹]|Rp\.?|R\$|kr\.?|zł|Kč|Ft|[A-Z]{3}"
EURO_NUMBER_TEXT = (
    rf"^\(?[-+]?(?:(?:{CURRENCY_WORDS})\s?)?[-+]?(?:\d{{1,3}}(?:\.\d{{3}})+|\d{{1,3}}(?:[ \u00a0\u202f]\d{{3}})+|\d+)"
    rf"(?:,\d+)?(?:[eE][-+]?\d+)?\s?(?:%|{CURRENCY_WORDS})?\)?$"
)
# Scientific notation with a decimal comma, one digit before it as a mantissa has: '1,5E-03', '7,333E+06'.
COMMA_SCIENTIFIC = r"^[-+]?\d,\d+[eE][-+]?\d+$"
DECIMAL_COMMA = r",(?:\d{1,2}|\d{4,})(?!\d)"  # a comma no English number writes: not before three digits
DOTTED_THOUSANDS = r"\d\.\d{3}\.\d{3}(?!\d)"  # two points between groups of three: 'Rp 1.500.000'


# A decimal point no thousands separator could be (not before three digits): in a column merged from sources
# that write '12,5' and '12.50', the latter is twelve and a half.
POINT_DECIMAL = r"^[-+]?\d+\.(?:\d{1,2}|\d{4,})$"


def euro_values(values):
    """Each EURO_NUMBER_TEXT value as a float (parentheses as a minus sign), and each POINT_DECIMAL one;
    NaN where a value is neither."""
    text = filled_text(values)
    sign = np.where(text.str.startswith("(", na=False) & text.str.endswith(")", na=False), -1.0, 1.0)
    power = 10.0 ** pd.to_numeric(text.str.extract(r"\d[eE]([-+]?\d+)")[0], errors="coerce").fillna(0)
    mantissa = text.str.replace(r"(?<=\d)[eE][-+]?\d+", "", regex=True)
    digits = mantissa.str.replace(r"[^\d,+-]", "", regex=True).str.replace(",", ".", regex=False)
    euro = (
        sign
        * pd.to_numeric(digits.where(text.str.match(EURO_NUMBER_TEXT, na=False)), errors="coerce")
        * power
    )
    point = pd.to_numeric(text.where(text.str.match(POINT_DECIMAL, na=False)), errors="coerce")
    return pd.Series(euro, index=text.index).fillna(point)


def euro_numbers(train, test, c, share, codes):
    """A text column of numbers written with a decimal comma (EURO_NUMBER_TEXT: '1.234,56 €', '3,14')
    becomes the numbers (the same `share` and placeholder `codes` rules as number_text) when some training
    value shows the comma is a decimal one (DECIMAL_COMMA) or the points are thousands separators
    (DOTTED_THOUSANDS, dotted_thousands): '1,234' alone is read as English, a thousand and more. True when
    done."""
    values = train[c].dropna().astype(str).str.strip()
    if not (
        values.head(2000).str.contains(f"{DECIMAL_COMMA}|{DOTTED_THOUSANDS}|{COMMA_SCIENTIFIC}").any()
        or dotted_thousands(values)
    ):
        return False
    return _read_numbers(train, test, c, share, codes, euro_values, "numbers", "with a decimal comma")


HEX_TEXT = r"^0[xX][0-9A-Fa-f]+$"  # a hexadecimal number as programs print it: '0x0001F400'


def hex_floats(text):
    """Each hexadecimal string of `text` ('0x1F', 'FF') as a float; a gap stays a gap."""
    return text.dropna().map(lambda v: float(int(v, 16))).reindex(text.index)


def hex_values(values):
    """Each HEX_TEXT value as a float; NaN where a value is not one."""
    text = filled_text(values)
    return hex_floats(text.where(text.str.match(HEX_TEXT, na=False)))


def hex_numbers(train, test, c, share, codes):
    """A text column of hexadecimal numbers ('0x0001F400': sizes and addresses in executable headers)
    becomes the numbers (the same `share` and placeholder `codes` rules as number_text): as text every
    size is a level of its own and the column is dropped as an id. True when done."""
    if train[c].dropna().astype(str).head(2000).str.strip().str.match(HEX_TEXT).mean() <= 0.5:
        return False
    return _read_numbers(train, test, c, share, codes, hex_values, "numbers", "hexadecimal")


# A size written as two or three lengths multiplied ('30 x 40 x 50 cm', '30x40x50cm', '2560x1440', '12 × 8"'),
# a unit after the last one. A side starts with a digit other than 0 ('0x1F' is hexadecimal) or is '0.5'.
DIMENSION_SIDE = r"((?:[1-9]\d*|0(?=\.))(?:\.\d+)?)"
DIMENSION_TEXT = rf"^{DIMENSION_SIDE}\s*[x×X*]\s*{DIMENSION_SIDE}(?:\s*[x×X*]\s*{DIMENSION_SIDE})?\s*([^\W\d_]{{1,3}}|\")?$"
LENGTHS = next(s for s in UNIT_SCALES if "mi" in s)


def dimension_sides(values):
    """Each DIMENSION_TEXT value's sides (NaN past those written) and its unit in lower case ('"' is inches);
    NaN where a value is not one."""
    text = filled_text(values)
    found = text.str.extract(DIMENSION_TEXT)
    return found[[0, 1, 2]].astype(float), found[3].str.lower().replace('"', "in")


def dimension_numbers(train, test, c, share, codes):
    """A text column of sizes written as lengths multiplied (DIMENSION_TEXT: '30 x 40 x 50 cm', '2560x1440')
    becomes their product, the area or volume (a parcel's freight, a screen's pixel count), with each side
    beside it (`<column>_side1`..); the same `share` and placeholder `codes` rules as number_text, and
    `share` of the values give the same count of sides. Lengths in several units of LENGTHS are converted
    to metres, other units stay as written beside a `<column>_unit` category. As text nearly every size is
    a level of its own and the column is dropped as an id. True when done."""
    values = train[c].dropna().astype(str).str.strip()
    if values.head(2000).str.contains(r"\d\s*[x×X*]\s*\d").mean() <= 0.5:  # cheap look first
        return False
    sides, unit = dimension_sides(values)
    count = sides.notna().sum(axis=1)
    k = int(count.mode().iloc[0])
    fits = count == k
    if k < 2 or not _mostly_numbers(fits, values[~fits].nunique(), share, codes):
        return False
    units = unit[fits].dropna().unique()
    scale = LENGTHS if len(units) > 1 and set(units) <= set(LENGTHS) else None
    products = []
    for df in (train, test):
        sides, unit = dimension_sides(df[c])
        sides = sides.iloc[:, :k].where(sides.notna().sum(axis=1) == k)
        if scale is not None:
            sides = sides.mul(unit.map(scale), axis=0)
        elif len(units) > 1:
            df[c + "_unit"] = unit
        for i in range(k):
            df[f"{c}_side{i + 1}"] = sides[i]
        products.append(sides.prod(axis=1, min_count=k))
    _numbers_with_codes(train, test, c, products, codes)
    to = ", in metres" if scale is not None else ""
    log(f"clean: {c} read as sizes: the product of {k} sides, each beside it{to} (e.g. {values.iloc[0]!r})")
    return True


# A range of two numbers or two clock times, a note in brackets allowed after it: '$85K-$120K (Glassdoor
# est.)', '25-34', '10 to 20', '09:00-17:00'. A side may not start with a minus sign.
# two ends between a dash, 'to' or a tilde as East Asian tables write it ('10~20', '10〜20')
RANGE_TEXT = (
    r"^([^-–—~〜～\s][^-–—~〜～]*?)\s*(?:-|–|—|~|〜|～|\bto\b)\s*([^-–—~〜～\s][^-–—~〜～]*?)\s*(?:\(.*\))?$"
)
DAY_MINUTES = 1440.0


MONTH_YEAR_TEXT = (
    r"(?i)^(?:(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+(\d{4})|(\d{1,2})/(\d{4}))$"
)
OPEN_END_TEXT = r"(?i)^(?:present|now|current|today|ongoing|date)$"  # 'Jun 2020 - Present', '... to date'


def month_index(values):
    """Months since the year 0 of each month of a year ('Jan 2015', 'January 2015', '01/2015';
    MONTH_YEAR_TEXT); NaN where a value is not one."""
    found = filled_text(values).str.extract(MONTH_YEAR_TEXT)
    found[0] = _month_numbers(found[0])
    found = found.apply(pd.to_numeric, errors="coerce")
    month, year = found[0].fillna(found[2]), found[1].fillna(found[3])
    return (year * 12 + month - 1).where(month.between(1, 12))


def _range_side(values):
    """Each side of a range as a number (written for people, with a magnitude suffix or with a unit: '10-20
    kg', '12 - 15 years'), as minutes since 0:00 (a clock time) and as a month index (month_index); NaN
    where it is not one."""
    number = number_values(values).fillna(magnitude_values(values)).fillna(unit_parts(values)[0])
    return number, clock_minutes(values), month_index(values)


def latest_month(values):
    """The latest month written on either side of a column of ranges: what an open end ('Present') means
    in data collected then. NaN when no side is a month."""
    sides = filled_text(values).str.extract(RANGE_TEXT)
    return pd.concat([month_index(sides[0]), month_index(sides[1])]).max()


def range_ends(values, now=np.nan):
    """The low end, the high end and the span of each RANGE_TEXT value, and whether its ends are clock times
    (a span past midnight, '22:00-02:00', wraps to the next day); months of a year ('Jan 2015 - Mar 2019')
    are counted in months, an open end ('Present', OPEN_END_TEXT) being the month `now`. NaN where a value
    is not a range of two numbers, two clock times or two months."""
    text = filled_text(values)
    sides = text.str.extract(RANGE_TEXT)
    (n1, c1, m1), (n2, c2, m2) = _range_side(sides[0]), _range_side(sides[1])
    m2 = m2.mask(sides[1].str.strip().str.match(OPEN_END_TEXT, na=False), now)
    months = m1.notna() & m2.notna()  # 'Jan 2015' is a month before it is a number with a unit
    clocks = c1.notna() & c2.notna() & ~months  # '9am-5pm': two clock times before two numbers with units
    numbers = n1.notna() & n2.notna() & ~clocks & ~months
    low, high = (
        n1.where(numbers).fillna(c1.where(clocks)).fillna(m1.where(months)),
        n2.where(numbers).fillna(c2.where(clocks)).fillna(m2.where(months)),
    )
    span = (high - low).where(~(clocks & (high < low)), high - low + DAY_MINUTES)
    return low, high, span, clocks


def range_numbers(train, test, c, share, codes):
    """A text column of ranges (RANGE_TEXT: '$85K-$120K (Glassdoor est.)', '25-34', '10~20', '09:00-17:00', a job's
    'Jan 2015 - Mar 2019' or 'Jun 2020 - Present' in months) becomes
    the middle of each (the same `share` and placeholder `codes` rules as number_text; 'Closed' or '-1' is
    kept as `<column>_code`) with its ends and span beside it (`<column>_low`, `_high`, `_span`): as text
    each range is a level of its own, and neither a salary's middle nor a shop's hours open can be read.
    Number ranges must run upwards in all but 1 - `share` of the rows, so codes ('123-045'), scores ('3-1')
    and heights ('6-2') stay what they are. True when done."""
    values = train[c].dropna().astype(str).str.strip()
    if values.head(2000).str.contains(r"\d\S*\s*(?:-|–|—|~|〜|～|\bto\b)\s*\S").mean() <= 0.5:  # cheap look
        return False
    now = latest_month(values)  # an open end, in training and test rows alike
    low, high, span, clocks = range_ends(values, now)
    fits = span.notna()
    if not _mostly_numbers(fits, values[~fits].nunique(), share, codes):
        return False
    upwards = (span[fits & ~clocks] >= 0).mean()
    if upwards < share:  # NaN (clock times only) compares False
        return False
    ends = [range_ends(df[c], now) for df in (train, test)]
    _numbers_with_codes(train, test, c, [low + span / 2 for low, _, span, _ in ends], codes)
    for df, (low, high, span, _) in zip((train, test), ends, strict=True):
        df[c + "_low"], df[c + "_high"], df[c + "_span"] = low, high, span
    log(f"clean: {c} read as ranges: their middle, ends and span (e.g. {values.iloc[0]!r})")
    return True


# Two numbers with units of one quantity written together: a newborn's '7 lb 8 oz', a height '5 ft 11 in'
# or '1 m 75 cm' (UNIT_SCALES); a comma may stand between them.
COMPOUND_TEXT = r"^(\d+(?:\.\d+)?)\s*([^\W\d_]+)\.?,?\s+(\d+(?:\.\d+)?)\s*([^\W\d_]+)\.?$"
COMPOUND_SHARE = 0.05  # the values in two units a column needs before compound_numbers reads it


def compound_values(values):
    """Each COMPOUND_TEXT value as one number in the first unit of its quantity ('7 lb 8 oz' is 3.40 kg), and
    each number with one unit of such a quantity ('8 oz', unit_parts) likewise; NaN where a value is neither
    or its units are of two quantities."""
    found = filled_text(values).str.extract(COMPOUND_TEXT)
    number, unit = unit_parts(values)
    first, second, unit = unit_keys(found[1]), unit_keys(found[3]), unit_keys(unit)
    total = pd.Series(np.nan, index=values.index)
    for scale in UNIT_SCALES:
        both = in_first_unit(found[0].astype(float), first, scale) + in_first_unit(
            found[2].astype(float), second, scale
        )
        total = total.fillna(both).fillna(in_first_unit(number, unit, scale))
    return total


def compound_numbers(train, test, c, share, codes):
    """A text column of numbers written in two units of one quantity (COMPOUND_TEXT: '7 lb 8 oz', '5 ft 11
    in', '11 st 4 lb'), some of them perhaps in one unit ('72 kg' beside '11 st 4 lb'), becomes one number
    in the quantity's first unit (the same `share` and placeholder `codes` rules as number_text): as text
    each weight is a level of its own, and no reader of one unit takes two. True when done."""
    head = train[c].dropna().astype(str).str.strip().head(2000)
    if head.str.match(COMPOUND_TEXT).mean() < COMPOUND_SHARE or compound_values(head).notna().mean() <= 0.5:
        return False  # cheap look first
    return _read_numbers(
        train, test, c, share, codes, compound_values, "numbers in one unit", "two units of one quantity"
    )


# A measurement with its uncertainty: '12.3 ± 0.4', '12.3 +/- 0.4 mm', '(5.1 ± 0.2)'.
ERROR_TEXT = (
    r"^\(?([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*(?:±|\+/-|\+-)\s*(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\)?"
    r"\s*(?:[^\W\d_][^\s\d]*)?$"
)


def error_parts(values):
    """Each ERROR_TEXT value's measurement as a float, with its uncertainty beside it; NaN where a value
    is not one."""
    found = filled_text(values).str.extract(ERROR_TEXT)
    return found[0].astype(float), {"error": found[1].astype(float)}


def error_numbers(train, test, c, share, codes):
    """A text column of measurements with their uncertainty (ERROR_TEXT: '12.3 ± 0.4') becomes the
    measurements with the uncertainty beside them (`<column>_error`; the same `share` and placeholder
    `codes` rules as number_text): as text each reading is a level of its own. True when done."""
    head = train[c].dropna().astype(str).head(2000)
    if head.str.contains(r"±|\+/?-").mean() <= 0.5:  # cheap look first
        return False
    return _read_numbers_beside(
        train, test, c, share, codes, error_parts, "numbers", "with their uncertainty"
    )  # fmt: skip


# A quantity at a condition, as spec sheets write a car's torque or power: '190Nm@ 2000rpm', '22.4 kgm at
# 1750-2750rpm', '11.5@ 4,500(kgm@ rpm)' (its unit after, in brackets), '280 lb-ft @ 4,000 rpm'.
AT_NUMBER = r"\d[\d,]*(?:\.\d+)?"
AT_TEXT = (
    rf"(?i)^(\d+(?:\.\d+)?)\s*([^\W\d_][^\s\d@(]*)?\s*(?:@|\bat\b)\s*({AT_NUMBER})(?:\s*[-–~]\s*({AT_NUMBER}))?"
    r"\s*(?:\(([^\W\d_][^\s\d@()]*)\s*@?\s*[^\W\d_]*\)|[^\W\d_][^\s\d]*)?$"
)
# units of torque, as spec sheets give it, in newton metres
TORQUE_UNITS = {"nm": 1.0, "kgm": 9.80665, "lb-ft": 1.3558179483, "lbft": 1.3558179483, "ft-lb": 1.3558179483}


def at_parts(values):
    """Each AT_TEXT value's quantity (a torque in newton metres, TORQUE_UNITS; other units as written), with
    the middle of its condition beside it (a range '1750-2750' gives its middle); NaN where a value is not
    one."""
    found = filled_text(values).str.extract(AT_TEXT)
    unit = found[1].combine_first(found[4]).astype(str).str.lower()  # 'nan' where none is written
    number = found[0].astype(float) * unit.map(TORQUE_UNITS).fillna(1.0)
    low, high = (pd.to_numeric(found[i].str.replace(",", ""), errors="coerce") for i in (2, 3))
    return number, {"at": (low + high.fillna(low)) / 2}


def at_numbers(train, test, c, share, codes):
    """A text column of quantities at a condition (AT_TEXT: a torque '190Nm@ 2000rpm' or '22.4 kgm at
    1750-2750rpm') becomes the quantities, a torque in newton metres whatever its unit (TORQUE_UNITS), with
    the condition beside them (`<column>_at`; the same `share` and placeholder `codes` rules as
    number_text): as text nearly every value is a level of its own and the column is dropped as an id. True
    when done."""
    head = train[c].dropna().astype(str).head(2000)
    if head.str.contains(r"@|\bat\b").mean() <= 0.5:  # cheap look first
        return False
    return _read_numbers_beside(
        train, test, c, share, codes, at_parts, "numbers", "at a condition"
    )  # fmt: skip


# The score of a match played in sets, as tennis, volleyball and badminton results are written: '6-4 3-6
# 7-6(5)' (a tie-break's points in brackets), '25-20, 23-25, 15-12', '6-4 2-1 RET' (a retirement after).
SET_SCORE = r"(\d+)-(\d+)(?:\(\d+\))?"
SET_SCORES_TEXT = rf"^{SET_SCORE}(?:[ ,]+{SET_SCORE})+(?:\s+[A-Za-z/.]+)?$"


def set_parts(values):
    """Each SET_SCORES_TEXT value's sets, games (or points) won by each side and sets won by the first;
    NaN where a value is not one."""
    text = filled_text(values)
    ok = text.str.match(SET_SCORES_TEXT, na=False)
    found = text[ok].str.extractall(SET_SCORE).astype(float)
    first, second = found[0].groupby(level=0), found[1].groupby(level=0)
    won = (found[0] > found[1]).groupby(level=0).sum()
    parts = pd.DataFrame({"sets": first.size(), "first": first.sum(), "second": second.sum(), "won": won})
    return parts.reindex(values.index).astype(float)


def set_games(values):
    """The games played in each SET_SCORES_TEXT value, with all of set_parts beside them."""
    parts = set_parts(values)
    return parts["first"] + parts["second"], dict(parts.items())


def set_scores(train, test, c, share, codes):
    """A text column of match scores in sets (SET_SCORES_TEXT: '6-4 3-6 7-6(5)') becomes the games played,
    with the sets, each side's games and the sets the first side won beside it (`<column>_sets`, `_first`,
    `_second`, `_won`; the same `share` and placeholder `codes` rules as number_text): as text nearly every
    score is a level of its own, and neither a match's length nor its winner can be read. True when done."""
    head = train[c].dropna().astype(str).str.strip().head(2000)
    if head.str.match(SET_SCORES_TEXT).mean() <= 0.5:  # cheap look first
        return False
    return _read_numbers_beside(
        train, test, c, share, codes, set_games, "games played", "scores of sets"
    )  # fmt: skip


# A count out of a total in words: '45 of 60', '3 out of 5', '4.5 out of 5 stars', a word or two after it.
OF_TEXT = r"(?i)^(\d+(?:\.\d+)?)\s+(?:out\s+)?of\s+(\d+(?:\.\d+)?)(?:\s+[^\W\d_]+){0,2}$"


def of_parts(values):
    """Each OF_TEXT value's count and total as floats; NaN where a value is not one."""
    return filled_text(values).str.extract(OF_TEXT).astype(float)


def of_shares(values):
    """Each OF_TEXT value's share done, with its count and total beside it."""
    parts = of_parts(values).set_axis(["count", "total"], axis=1)
    share = parts["count"] / parts["total"].where(parts["total"] > 0)
    return share, dict(parts.items())


def of_numbers(train, test, c, share, codes):
    """A text column of counts out of totals (OF_TEXT: '45 of 60', '3 out of 5') becomes the share done with
    the count and the total beside it (`<column>_count`, `<column>_total`; the same `share` and placeholder
    `codes` rules as number_text): as text each pair is a level of its own, and a mark follows the share
    whatever the total. True when done."""
    if train[c].dropna().astype(str).str.strip().head(2000).str.match(OF_TEXT).mean() <= 0.5:  # cheap look
        return False
    return _read_numbers_beside(
        train, test, c, share, codes, of_shares, "shares", "a count out of a total"
    )  # fmt: skip


# A pace as runners, swimmers and rowers write it: minutes and seconds per distance, '5:30 /km', '8:51
# min/mile', '1:45/100m' (PACE_KM: the distance in kilometres).
PACE_TEXT = (
    r"(?i)^(\d{1,2}):([0-5]\d)\s*(?:min(?:utes)?|mins)?\.?\s*(?:/|per\s+)\s*"
    r"(km|k|kilomet(?:re|er)|mi|mile|100\s?m|500\s?m)$"
)
PACE_KM = {"km": 1.0, "k": 1.0, "kilometre": 1.0, "kilometer": 1.0, "mi": 1.609344, "mile": 1.609344,
           "100m": 0.1, "500m": 0.5}  # fmt: skip


def pace_minutes(values):
    """Each PACE_TEXT value as minutes per kilometre ('8:51 min/mile' is 5.50); NaN where a value is not
    one."""
    found = filled_text(values).str.extract(PACE_TEXT)
    per = found[2].str.lower().str.replace(" ", "").map(PACE_KM)
    return (found[0].astype(float) + found[1].astype(float) / 60) / per


def pace_numbers(train, test, c, share, codes):
    """A text column of paces (PACE_TEXT: '5:30 /km' beside '8:51 min/mile') becomes minutes per kilometre
    (the same `share` and placeholder `codes` rules as number_text): no clock reader takes a distance after
    the clock, and a pace per mile is not one per kilometre. True when done."""
    if train[c].dropna().astype(str).str.strip().head(2000).str.match(PACE_TEXT).mean() <= 0.5:  # cheap look
        return False
    return _read_numbers(train, test, c, share, codes, pace_minutes, "minutes per kilometre", "paces")


# A number in Roman numerals, in capitals or not: an edition 'XIV', a Super Bowl 'LVII', a stage 'iii'.
ROMAN_TEXT = r"(?i)^(?=[MDCLXVI])M{0,4}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$"
ROMAN_VALUES = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}
ROMAN_LEVELS = 5  # distinct numerals a column needs: sizes 'M', 'L', 'XL' are not numbers


def roman_value(text):
    """The number a valid Roman numeral stands for: each mark added, or taken away before a larger one."""
    marks = [ROMAN_VALUES[m] for m in text.upper()]
    return sum(-v if v < after else v for v, after in zip(marks, [*marks[1:], 0], strict=True))


def roman_values(values):
    """Each ROMAN_TEXT value as its number; NaN where a value is not one."""
    text = filled_text(values)
    fits = text.str.match(ROMAN_TEXT, na=False)
    return text.where(fits).map(roman_value, na_action="ignore").astype(float)


def roman_numbers(train, test, c, share, codes):
    """A text column of Roman numerals becomes their numbers (the same placeholder `codes` rule as
    number_text), but only when `share` of the training values are numerals, at least ROMAN_LEVELS distinct
    ones and one of more than one mark: a column of letters 'C', 'D', 'M' or of sizes 'M', 'L', 'XL' is not
    one. As text, 'XIV' and 'XV' are unrelated levels. True when done."""
    values = train[c].dropna().astype(str).str.strip()
    numerals = values[values.str.match(ROMAN_TEXT)].str.upper()
    if (
        len(numerals) < share * len(values)
        or numerals.nunique() < ROMAN_LEVELS
        or not numerals.str.len().gt(1).any()
    ):
        return False
    return _read_numbers(train, test, c, share, codes, roman_values, "numbers", "Roman numerals")


# A year with its era, '500 BC', '44 BCE', 'AD 1066', '1066 CE', beside years without one: years before
# the common era are negative (there is no year 0, so 1 BC is -1: the distance to AD 1 is one year too few).
ERA_TEXT = r"(?i)^(?:(AD|A\.D\.|CE)\s*)?(\d{1,4})\s*(BCE|BC|B\.C\.(?:E\.)?|AD|A\.D\.|CE)?$"
ERA_SHARE = 0.1  # values that must name their era: a column of plain years is number_text's


def era_years(values):
    """Each ERA_TEXT value as a signed year; NaN where a value is not one."""
    found = filled_text(values).str.extract(ERA_TEXT)
    before = found[2].str.upper().str.startswith("B", na=False)
    return pd.to_numeric(found[1], errors="coerce") * np.where(before, -1.0, 1.0)


def era_numbers(train, test, c, share, codes):
    """A text column of years with their era ('500 BC' beside 'AD 1066' and '1066') becomes signed years (the
    same `share` and placeholder `codes` rules as number_text), when ERA_SHARE of the training values name
    their era. True when done."""
    values = train[c].dropna().astype(str).str.strip().head(2000)
    found = values.str.extract(ERA_TEXT)
    if (found[0].notna() | found[2].notna()).mean() < ERA_SHARE:  # a cheap look first
        return False
    return _read_numbers(train, test, c, share, codes, era_years, "years", "years with their era")


# A place in an order, '1st', '22nd', '103rd', '411th', French '1er' / '2e' / '3ème', Spanish and Portuguese
# '1º' / '2ª': its number. Written against the digits; '5 st' (stone) stands apart.
ORDINAL_TEXT = r"(?i)^(\d+)(?:st|nd|rd|th|er|re|ème|eme|e|º|ª)$"


def ordinal_values(values):
    """Each ORDINAL_TEXT value as its number; NaN where a value is not one."""
    found = filled_text(values).str.extract(ORDINAL_TEXT)[0]
    return pd.to_numeric(found, errors="coerce")


def ordinal_numbers(train, test, c, share, codes):
    """A text column of ordinal numbers ('22nd', '411th') becomes the numbers (the same `share` and
    placeholder `codes` rules as number_text): as levels, '411th' is unseen when only '410th' was. True when
    done."""
    values = train[c].dropna().astype(str).str.strip().head(2000)
    if values.str.match(ORDINAL_TEXT).mean() <= 0.5:  # a cheap look first
        return False
    return _read_numbers(train, test, c, share, codes, ordinal_values, "numbers", "ordinal numbers")


# Money per period as job adverts and letting agents write it: '£45,000 per annum', '£21.63/hr', '$30k a year',
# '€1,200 pcm', '£300 pw', '€95 daily'. Each is read per year (RATE_YEAR: a year of 52 weeks of five working
# days of eight hours, the convention pay comparisons use), and the period stays a category beside it.
GROUPED_NUMBER = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"  # a number as English text writes it: '1,299.50'
RATE_PERIODS = {"hour": ("h", "hr", "hrs", "hour", "hourly", "ph"), "day": ("d", "day", "daily", "pd"),
                "week": ("w", "wk", "week", "weekly", "pw"), "month": ("m", "mo", "mth", "month", "monthly", "pcm"),
                "year": ("y", "yr", "year", "annum", "yearly", "annually", "annual", "pa")}  # fmt: skip
RATE_YEAR = {"hour": 2080.0, "day": 260.0, "week": 52.0, "month": 12.0, "year": 1.0}
RATE_WORDS = {word: period for period, words in RATE_PERIODS.items() for word in words}
RATE_TEXT = (
    rf"^([{CURRENCY_SIGNS}]|[A-Z]{{3}}\s?)?\s?({GROUPED_NUMBER})\s?([kK])?\s?(?:[{CURRENCY_SIGNS}]|[A-Z]{{3}})?\s*"
    r"(?i:(?:/|per\s|an?\s|every\s)\s*(?:calendar\s+)?([a-z]+)|([a-z.]+))\.?$"
)


def rate_parts(values):
    """Each RATE_TEXT value per year (RATE_YEAR) and its period ('unit'); NaN where a value is not one. A
    period of one letter right after the number ('45m', '5h') is money only after a currency sign or code:
    alone it is a length or a duration, not '45 a month'."""
    found = filled_text(values).str.extract(RATE_TEXT)
    bare = found[4].where(found[0].notna() | (found[4].str.len() > 1))
    word = found[3].combine_first(bare).str.lower().str.replace(".", "", regex=False)
    period = word.map(RATE_WORDS)
    number = pd.to_numeric(found[1].str.replace(",", "", regex=False), errors="coerce")
    number = number * np.where(found[2].notna(), 1000.0, 1.0) * period.map(RATE_YEAR)
    return number, {"unit": period}


def rate_numbers(train, test, c, share, codes):
    """A text column of money per period (RATE_TEXT: '£45,000 per annum' beside '£21.63 per hour') becomes
    the amount per year, the period a category (`<column>_unit`); the same `share` and placeholder `codes`
    rules as number_text. True when done."""
    if rate_parts(train[c].dropna().head(2000))[0].notna().mean() <= 0.5:  # cheap look
        return False
    return _read_numbers_beside(
        train, test, c, share, codes, rate_parts, "money per year", "money per period"
    )


# A number after a label and before an optional unit: a wind 'NNE 15 km/h', a drive 'Level 3', a street's
# 'Hauptstraße 12', a price 'From $1,299' beside '$120', a discount 'Up to 50% off' beside 'Save 15%' (a
# currency sign before the number; a word after the unit). Read last, after every reader of a longer form
# and number_text's own; a value without a label reads too when others have one.
LABELLED_TEXT = (
    rf"^(?:([^\W\d_][^\d]{{0,24}}?)\s+)?[{CURRENCY_SIGNS}]?\s?([-+]?{GROUPED_NUMBER})"
    r"(?:\s?((?:%|[^\W\d_][^\s\d]{0,9})(?:\s+[^\W\d_]{1,10})?))?$"
)


def labelled_parts(values):
    """Each LABELLED_TEXT value's number, with its label ('label') and unit ('unit') beside it; NaN where a
    value is not one."""
    found = filled_text(values).str.extract(LABELLED_TEXT)
    number = pd.to_numeric(found[1].str.replace(",", "", regex=False), errors="coerce")
    beside = {"label": found[0].where(number.notna())}
    if found[2].notna().any():
        beside["unit"] = found[2].str.lower().where(number.notna())
    return number, beside


def labelled_numbers(train, test, c, share, codes):
    """A text column of numbers between a label and a unit ('NNE 15 km/h', 'calm' as a placeholder code)
    becomes the number, the label and the unit categories beside it; the same `share` and placeholder
    `codes` rules as number_text. Dates ('March 2019') are left to date_parts. True when done."""
    values = train[c].dropna().astype(str).str.strip().head(2000)
    found = values.str.extract(LABELLED_TEXT)
    if found[1].notna().mean() <= 0.5 or found[0].isna().all() or _dates_like(values):  # cheap look
        return False
    return _read_numbers_beside(train, test, c, share, codes, labelled_parts, "numbers", "after a label")


# The readers of numbers written with more than digits, tried in this order on each text column; the first
# that takes it ends the search (a duration's '2h' is not a unit's, an angle's '45°' is a unit's).
TEXT_NUMBER_READERS = (
    hex_numbers,
    rate_numbers,
    ordinal_numbers,
    era_numbers,
    duration_numbers,
    magnitude_numbers,
    dms_numbers,
    euro_numbers,
    dimension_numbers,
    compound_numbers,
    error_numbers,
    at_numbers,
    unit_numbers,
    clock_numbers,
    weekday_numbers,
    pace_numbers,
    set_scores,
    of_numbers,
    range_numbers,
    roman_numbers,
)


# Decimal digits of other scripts as ASCII digits: Arabic-Indic '١٢٣', Persian '۱۲۳', Devanagari '१२३', Bengali
# '১২৩', Thai '๑๒๓' and full-width '１２３' as Japanese and Chinese tables set them, with the marks written
# among them (the Arabic decimal point '٫' and thousands mark '٬', full-width ',', '.', '%', '-', '+').
SCRIPT_ZEROS = "٠۰०০๐０"
SCRIPT_MARKS = {ord(zero) + i: str(i) for zero in SCRIPT_ZEROS for i in range(10)} | str.maketrans(
    "٫٬，．％－＋", ".,,.%-+"
)
SCRIPT_DIGIT_TEXT = "[" + "".join(chr(zero + i) for zero in map(ord, SCRIPT_ZEROS) for i in range(10)) + "]"


SPREADSHEET_TEXT = (
    r"^'(?=[^'\s])[^']*$"  # "'00123", "'1499.50": a spreadsheet's mark that a cell is kept as text
)


def spreadsheet_text(train, test, cfg):
    """Feature columns (free text aside) whose training values all begin with an apostrophe (SPREADSHEET_TEXT:
    a spreadsheet's mark for a number or a code kept as text) lose it, so the readers after this one see
    "'1499.50" as 1499.5 and "'00123" as the code 00123: with it, pandas left the amounts as words and the
    code parts reader split them at the decimal point."""
    for c in _feature_columns(train, test):
        if pd.api.types.is_numeric_dtype(train[c]) or c in cfg.get("text_cols", []):
            continue
        values = pd.Series(train[c].dropna().astype(str).unique())
        if values.empty or not values.str.match(SPREADSHEET_TEXT).all():
            continue
        for df in (train, test):
            df[c] = df[c].where(df[c].isna(), df[c].astype(str).str.replace(r"^'(?=[^'])", "", regex=True))
        log(
            f"clean: {c} written with a spreadsheet's leading apostrophe (e.g. {values.iloc[0]!r}): read without it"
        )
    return train, test


SPELLING_SHARE = 0.25  # the share of a category's levels written in two letter cases that says case is noise


BOOLEAN_WORDS = {"true": 1.0, "t": 1.0, "yes": 1.0, "y": 1.0, "1": 1.0,
                 "false": 0.0, "f": 0.0, "no": 0.0, "n": 0.0, "0": 0.0}  # fmt: skip
ENTITY_TEXT = r"&(?:[A-Za-z]+|#\d+|#[xX][0-9A-Fa-f]+);"  # an HTML entity: '&amp;', '&#39;', '&#x27;'


def respelled(text):
    """Text values with runs of spaces as one, none around them, and HTML entities written out ('AT&amp;T'
    is 'AT&T', as a scraped page's source holds it)."""
    text = text.str.split().str.join(" ")
    marked = text.str.contains(ENTITY_TEXT, na=False)
    return text.where(~marked, text[marked].map(html.unescape)) if marked.any() else text


def undecoded(level):
    """A level's text as it was before its UTF-8 bytes were read as cp1252 or latin-1 ('CafÃ©' is 'Café'),
    or the level itself when it reads no other way."""
    for encoding in ("cp1252", "latin-1"):
        try:
            fixed = level.encode(encoding).decode("utf-8")
        except UnicodeError:
            continue
        if fixed != level:
            return fixed
    return level


def level_spellings(train, test, cfg, share=SPELLING_SHARE):
    """Category columns (free text and near-unique columns aside) whose levels are all spellings of yes and
    no ('TRUE', 'yes', 'Y', '1', BOOLEAN_WORDS; three or more) become 1 and 0. Columns whose levels differ
    only in spaces around or inside them ('Oak ', ' Oak', 'Oak  tree'), in HTML entities ('AT&amp;T') or in being decoded twice
    ('CafÃ©' beside 'Café', files joined from two exports) become one level each, and so do levels differing
    only in letter case ('oak', 'OAK') when at least `share` of the levels are written in several cases (a
    column typed by hand; a code whose case tells levels apart has few such pairs). Each level is written as
    its most common spelling in the training rows; a test spelling the training rows lack is the training
    level it names but for letter case, when it names one ('OAK' from another tool), else its own text."""
    for c in _feature_columns(train, test):
        if pd.api.types.is_numeric_dtype(train[c]) or c in cfg.get("text_cols", []):
            continue
        counts = train[c].dropna().astype(str).value_counts()
        if len(counts) < 2 or len(counts) > 0.5 * max(1, counts.sum()):
            continue
        spaced = respelled(pd.Series(counts.index, index=counts.index))
        truth = spaced.str.casefold().map(BOOLEAN_WORDS)
        if len(counts) > 2 and truth.notna().all() and truth.nunique() == 2:  # 'TRUE', 'yes', 'Y', '1' ...
            for df in (train, test):
                df[c] = respelled(df[c].astype(str)).str.casefold().map(BOOLEAN_WORDS).where(df[c].notna())
            log(f"clean: {c}: {len(counts)} spellings of yes and no read as 1 and 0")
            continue
        known = set(spaced)
        repair = {v: f for v in known if (f := undecoded(v)) != v and f in known}
        spaced = spaced.replace(repair)
        folded = spaced.str.casefold()
        by_case = spaced.groupby(folded.to_numpy()).nunique()
        fold = spaced.nunique() > folded.nunique() and (by_case > 1).mean() >= share
        key = folded if fold else spaced
        common = pd.DataFrame({"key": key.to_numpy(), "text": spaced.to_numpy(), "n": counts.to_numpy()})
        canonical = common.groupby(["key", "text"], sort=False)["n"].sum().reset_index()
        canonical = canonical.sort_values("n", ascending=False, kind="stable").drop_duplicates("key")
        to_level = dict(zip(canonical["key"], canonical["text"], strict=True))
        single = canonical.assign(low=canonical["text"].str.casefold()).drop_duplicates("low", keep=False)
        by_letters = dict(zip(single["low"], single["text"], strict=True))  # letters naming one level
        changed = key.nunique() < len(counts) or (spaced != counts.index.to_series()).any()
        written = respelled(test[c].astype(str)).replace(repair)
        unseen = (written.str.casefold() if fold else written).map(to_level).isna() & test[c].notna()
        cased = written[unseen].str.casefold().map(by_letters).dropna()
        if not changed and cased.empty:
            continue
        for df in (train, test):
            text = written if df is test else respelled(df[c].astype(str)).replace(repair)
            found = (text.str.casefold() if fold else text).map(to_level)
            if df is test:
                found = found.fillna(cased)
            df[c] = found.fillna(text).where(df[c].notna())
        if len(cased):
            log(f"clean: {c}: {len(cased)} test value(s) name a training level but for letter case (e.g. "
                f"{written[cased.index[0]]!r} is {cased.iloc[0]!r})")  # fmt: skip
        if changed:
            how = "spaces and letter case" if fold else "spaces"
            how += ", HTML entities" if counts.index.str.contains(ENTITY_TEXT).any() else ""
            how += f", {len(repair)} decoded twice" if repair else ""
            log(
                f"clean: {c}: {len(counts)} spellings read as {key.nunique()} levels (differing only in {how})"
            )
    return train, test


def script_digits(train, test, cfg):
    """Feature columns (free text aside) whose training values write digits in another script (SCRIPT_ZEROS)
    are written in ASCII digits (SCRIPT_MARKS), so the readers after this one read them: to pandas '١٢٣٫٤'
    is a word, and a column of them near-unique words it drops as an id."""
    for c in _feature_columns(train, test):
        if pd.api.types.is_numeric_dtype(train[c]) or c in cfg.get("text_cols", []):
            continue
        if not train[c].dropna().astype(str).head(5000).str.contains(SCRIPT_DIGIT_TEXT).any():
            continue
        for df in (train, test):
            df[c] = df[c].where(df[c].isna(), df[c].astype(str).str.translate(SCRIPT_MARKS))
        log(f"clean: {c} written with digits of another script: read as ASCII digits")
    return train, test


def fraction_percents(values):
    """Whether a column of numbers writes one share two ways, '45%' beside '0.45' (sources merged): five or
    more values without a per cent sign, every one of them in [0, 1] and some not a whole number, and some
    value with the sign above 1. Read as written, 45 and 0.45 would be a hundred times apart."""
    marked = values.str.contains("%", regex=False)
    plain, sized = number_values(values[~marked]).dropna(), number_values(values[marked]).dropna()
    return bool(
        len(plain) >= 5 and plain.between(0, 1).all() and (plain % 1 != 0).any() and (sized > 1).any()
    )


def number_text(train, test, cfg, share=0.95, codes=5, columns=None):
    """Text columns whose training values are numbers written with currency signs, thousands separators or
    percent signs become numbers, and so do numbers among a few placeholder codes ("?", "-", "n/a",
    "unknown": at most `codes` distinct non-numbers, the numbers a majority), which pandas leaves as text; a
    value that does not parse becomes missing (`share` of numbers allows any other text). When several codes
    fill the gaps, which one did is kept as a category of its own (`<column>_code`). Codes with leading
    zeros ("00123") stay categories. Numbers written with their unit ("74 bhp") are read by unit_numbers,
    clock readings and durations ("07:45", "01:30:00") by clock_numbers, lengths of time spelled with
    their units ("2h 50m", "PT4M13S", "3 days ago") by duration_numbers, sizes such as "19M" beside "201k"
    by magnitude_numbers, coordinates such as 40°26'46"N by dms_numbers, ranges such as '25-34' by
    range_numbers, '0x1F400' by hex_numbers, '1.234,56 €' by euro_numbers, sizes such as '30 x 40 x 50 cm'
    by dimension_numbers, '7 lb 8 oz' by compound_numbers, '12.3 ± 0.4' by error_numbers, '190Nm@
    2000rpm' by at_numbers, '6-4 3-6 7-6(5)' by set_scores, '45 of 60' by of_numbers, '£45,000 per annum' by
    rate_numbers, '411th' by ordinal_numbers (TEXT_NUMBER_READERS); 'NNE 15 km/h' by labelled_numbers, last.
    `columns` limits it to those (the fields field_cells adds)."""
    for c in _feature_columns(train, test) if columns is None else columns:
        if pd.api.types.is_numeric_dtype(train[c]) or c in cfg.get("text_cols", []):
            continue
        values = train[c].dropna().astype(str).str.strip()
        if len(values) < 5 or any(read(train, test, c, share, codes) for read in TEXT_NUMBER_READERS):
            continue
        fits = typeset_numbers(values).str.match(NUMBER_TEXT)
        others = values[~fits].nunique()
        if not _mostly_numbers(fits, others, share, codes):
            labelled_numbers(train, test, c, share, codes)  # the last form tried: '~300' is no label's
            continue
        if values[fits].str.match(r"^0\d").mean() > 0.5:
            continue
        shares = fraction_percents(values[fits])
        _numbers_with_codes(train, test, c, [number_values(df[c]) / np.where(shares & df[c].astype(str).str.contains(
            "%", regex=False), 100.0, 1.0) for df in (train, test)], codes)  # fmt: skip
        log(f"clean: {c} read as numbers (written as text, e.g. {values.iloc[0]!r})"
            + (": '45%' as 0.45, as the values without a per cent sign write shares" if shares else ""))  # fmt: skip
    return train, test


# automind.patterns.NUMBER_LIST_PATTERN (a test keeps the copy the same): pixels '0 12 255', a point
# '(40.71, -74.00)' or 'POINT (-74.0 40.7)', a vector '[0.1, 0.2]'.
NUMBER_LIST_TEXT = (
    r"^\s*(?:[A-Za-z]+\s*)?[\[({]?\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
    r"(?:\s*[,;\s]\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)+\s*[\])}]?\s*$"
)
ONE_NUMBER_TEXT = r"^\s*[\[({]?\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*[\])}]?\s*$"
LIST_COLUMNS = 4096  # a cell of at most this many numbers, the same count in every row, becomes columns
LIST_SUMMARY = ("count", "mean", "std", "min", "max", "first", "last")  # what a cell of varying length gives


NUMBER_TRIM_TEXT = r"^\s*[A-Za-z]*\s*[\[({]?|[\])}]?\s*$"  # the word and brackets around the numbers
NUMBER_SPLIT_TEXT = r"\s*[,;\s]\s*"  # what stands between them


def _number_rows(values):
    """Each value's numbers (the word and brackets around them dropped) as an array of floats."""
    inner = values.astype(str).str.replace(NUMBER_TRIM_TEXT, "", regex=True)
    return [np.array(v, dtype=np.float32) for v in inner.str.split(NUMBER_SPLIT_TEXT, regex=True)]


def number_lists(train, test, cfg):
    """Text columns whose every training value holds numbers, at least half of them several
    (NUMBER_LIST_TEXT: an image's pixels, a point, an embedding, a sequence), are rows of numbers: read
    as words they are noise. The same count in every row (at most LIST_COLUMNS) gives one column per
    position (`<column>_0`, ...); counts that vary give a summary per row (LIST_SUMMARY). A value that does
    not hold numbers becomes missing. Numbers written with thousands separators ("1,234") are left to
    number_text, dates ('March 26, 2018') to date_parts."""
    for c in _feature_columns(train, test):
        if pd.api.types.is_numeric_dtype(train[c]) or _dates_like(train[c]):
            continue
        values = train[c].dropna().astype(str)
        head = values.head(2000)
        lists, singles = head.str.match(NUMBER_LIST_TEXT), head.str.match(ONE_NUMBER_TEXT)
        if (
            len(values) < 5
            or not (lists | singles).all()
            or lists.mean() < 0.5
            or head.str.match(NUMBER_TEXT).all()
            or head.str.match(COMMA_SCIENTIFIC).mean() > 0.5  # '3,91E-04' is one number (euro_numbers)
        ):
            continue
        rows = []
        for df in (train, test):
            text = df[c].astype(str)
            ok = df[c].notna() & (text.str.match(NUMBER_LIST_TEXT) | text.str.match(ONE_NUMBER_TEXT))
            rows.append((ok, _number_rows(df[c][ok])))
        counts = {len(r) for _, found in rows for r in found}
        frames = []
        for df, (ok, found) in zip((train, test), rows, strict=True):
            if len(counts) == 1 and next(iter(counts)) <= LIST_COLUMNS:
                k = next(iter(counts))
                block = np.full((len(df), k), np.nan, dtype=np.float32)
                if found:
                    block[ok.to_numpy()] = np.vstack(found)
                cols = [f"{c}_{i}" for i in range(k)]
            else:
                # every matched cell holds at least one number, so r[0] and r[-1] exist
                stats = [[len(r), r.mean(), r.std(), r.min(), r.max(), r[0], r[-1]] for r in found]
                block = np.full((len(df), len(LIST_SUMMARY)), np.nan, dtype=np.float64)
                if stats:
                    block[ok.to_numpy()] = np.asarray(stats, dtype=np.float64)
                cols = [f"{c}_{s}" for s in LIST_SUMMARY]
            frames.append(
                pd.concat([df.drop(columns=[c]), pd.DataFrame(block, columns=cols, index=df.index)], axis=1)
            )
        train, test = frames
        shape = f"{next(iter(counts))} per row" if len(counts) == 1 else "varying counts, summarised"
        log(
            f"clean: {c} holds several numbers per row ({shape}; e.g. {values.iloc[0][:40]!r}): read as numbers"
        )
    return train, test


IPV4 = r"^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$"


def ip_addresses(train, test, cfg, share=0.95):
    """Text columns of IPv4 addresses ('10.12.3.45'; `share` of the training values, each part at most 255)
    become their four parts and the /16 and /24 networks as numbers (a tree isolates a subnet in two
    splits): as text every address is a level of its own and the column is dropped as an id."""
    for c in _feature_columns(train, test):
        if pd.api.types.is_numeric_dtype(train[c]) or c in cfg.get("text_cols", []):
            continue
        values = train[c].dropna().astype(str).str.strip()
        parts = values.head(2000).str.extract(IPV4).astype(float)
        if len(values) < 5 or parts[0].notna().mean() < share or (parts.max() > 255).any():
            continue
        for df in (train, test):
            p = df[c].astype(str).str.strip().where(df[c].notna()).str.extract(IPV4).astype(float)
            p = p.where((p <= 255).all(axis=1))
            for i in range(4):
                df[f"{c}_part{i + 1}"] = p[i]
            df[f"{c}_net16"] = p[0] * 256 + p[1]
            df[f"{c}_net24"] = (p[0] * 256 + p[1]) * 256 + p[2]
            df.drop(columns=[c], inplace=True)
        log(f"clean: {c} holds IPv4 addresses (e.g. {values.iloc[0]!r}): read as their parts and networks")
    return train, test


# A phone number written in groups ('(415) 555-0132', '+1-212-555-0199', '+44 20 7946 0958', '020 7946 0958'):
# a country code after '+', then the area code (in brackets, or the first group), then two to four groups.
PHONE_TEXT = (
    r"^\+?(?:(?<=\+)(\d{1,3})[\s.-]?)?(?:\((\d{1,5})\)|(\d{1,5}))[\s.-]+\d{2,5}(?:[\s.-]\d{2,5}){1,3}$"
)
# The fewest and most digits: a number with its area code holds ten or more (a date, '2019-03-05', eight;
# a ZIP+4 code nine); ITU E.164 allows at most fifteen.
PHONE_DIGITS = (10, 15)


def phone_parts(values):
    """Each PHONE_TEXT value's country code (empty when none is written) and area code; NaN where a value is
    not a phone number."""
    text = filled_text(values)
    found = text.str.extract(PHONE_TEXT)
    ok = (found[1].notna() | found[2].notna()) & text.str.count(r"\d").between(*PHONE_DIGITS)
    return found[0].fillna("").where(ok), found[1].combine_first(found[2]).where(ok)


def phone_areas(train, test, cfg, share=0.95):
    """Text columns of phone numbers (`share` of the training values PHONE_TEXT with PHONE_DIGITS digits)
    become their area code, a category (and the country code, when several are written): as
    text every number is a level of its own and the column is dropped as an id, while the area it names
    can carry the signal (a region's answer rate)."""
    for c in _feature_columns(train, test):
        if pd.api.types.is_numeric_dtype(train[c]) or c in cfg.get("text_cols", []):
            continue
        values = train[c].dropna().astype(str).str.strip()
        if len(values) < 5 or phone_parts(values.head(2000))[1].notna().mean() < share:
            continue
        parts = [phone_parts(df[c]) for df in (train, test)]
        several = parts[0][0].nunique() > 1  # country codes written in the training rows
        for df, (country, area) in zip((train, test), parts, strict=True):
            if several:
                df[c + "_country"] = country
            df[c] = area
        log(f"clean: {c} holds phone numbers (e.g. {values.iloc[0]!r}): read as their area code")
    return train, test


COLOR_TEXT = r"^#([0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})$"  # a colour as web pages write it: '#FF8800', '#F80'


def color_parts(values):
    """Red, green and blue (0-255) of each COLOR_TEXT value ('#F80' is '#FF8800'); NaN where a value is not
    one."""
    text = filled_text(values)
    code = text.str.extract(COLOR_TEXT)[0]
    code = code.where(code.str.len() == 6, code.str.replace(r"(.)", r"\1\1", regex=True))
    channels = {k: code.str[2 * i : 2 * i + 2] for i, k in enumerate(("red", "green", "blue"))}
    return pd.DataFrame({k: hex_floats(v) for k, v in channels.items()})


def color_codes(train, test, cfg, share=0.95):
    """Text columns of web colours (`share` of the training values COLOR_TEXT) gain their red, green and
    blue and their hue (degrees), saturation and value (HSV, 0-1) as numbers: as text nearly every colour
    is a level of its own and the column is dropped as an id, while how bright or how red it is can carry
    the signal. The colour stays as it was (a few repeated colours are a category)."""
    for c in _feature_columns(train, test):
        if pd.api.types.is_numeric_dtype(train[c]) or c in cfg.get("text_cols", []):
            continue
        values = train[c].dropna().astype(str).str.strip()
        if len(values) < 5 or values.head(2000).str.match(COLOR_TEXT).mean() < share:
            continue
        for df in (train, test):
            rgb = color_parts(df[c])
            high, low = rgb.max(axis=1, skipna=False), rgb.min(axis=1, skipna=False)
            spread = (high - low).replace(0, np.nan)
            r, g, b = (rgb[k] for k in ("red", "green", "blue"))
            sector = np.select(
                [high == r, high == g], [((g - b) / spread) % 6, (b - r) / spread + 2], (r - g) / spread + 4
            )
            for k in rgb:
                df[f"{c}_{k}"] = rgb[k]
            df[c + "_hue"] = pd.Series(sector * 60, index=df.index).fillna(0).where(high.notna())
            df[c + "_saturation"] = ((high - low) / high.replace(0, np.nan)).fillna(0).where(high.notna())
            df[c + "_value"] = high / 255
        log(f"clean: {c} holds web colours (e.g. {values.iloc[0]!r}): read as red, green, blue and HSV")
    return train, test


PREFIX_LENGTH = (5, 34)  # the code lengths whose prefixes are read (34: the longest IBAN)
PREFIX_ROWS = 20  # a prefix is kept while its levels hold this many training rows on average
PREFIX_UNIQUE = 0.5  # codes read for prefixes: at least this share of their values distinct
MASKED_TEXT = r"^([A-Za-z0-9][A-Za-z0-9\s-]*?)[\s-]*(?:[*•#]{2,}|[xX]{4,})"  # '4532 **** **** 1234'


def masked_starts(values):
    """The characters shown before the mask of a card or account number as receipts print it ('4532 ****
    **** 1234' gives '4532'; MASKED_TEXT), separators removed: the issuer. NaN where a value is not masked."""
    return values.str.extract(MASKED_TEXT)[0].str.replace(r"[\s-]", "", regex=True)


# A code printed in groups of capitals and digits split by spaces or hyphens, a digit among them: a UK postcode
# 'SW1A 1AA', an IBAN 'GB29 NWBK 6016 1331 9268 19', a ZIP+4 code '10023-4512'. Names ('JOHN SMITH') hold no
# digit and free text no run of capitals only.
SPACED_CODE_TEXT = r"^(?=.*\d)[A-Z0-9]+(?:[ -][A-Z0-9]+)+$"


def unspaced_codes(values):
    """SPACED_CODE_TEXT values with their spaces and hyphens dropped (one code, whose first characters
    code_prefixes reads); other values as they are."""
    spaced = values.str.match(SPACED_CODE_TEXT, na=False)
    return values.where(~spaced, values.str.replace(r"[ -]", "", regex=True))


def code_prefixes(train, test, cfg, share=0.95):
    """Mostly unique codes in letters and digits (a car's VIN '1HGCM82633A004352', a geohash 'dr5regw', an
    IBAN, whose length varies by country; PREFIX_UNIQUE) often name a maker, an area or a bank in their
    first characters, while as text nearly every code is a level of its own (dropped as an id when
    near-unique). Each prefix length whose levels repeat (PREFIX_ROWS rows per level on average), split the
    rows more finely than the shorter one kept, and number at most half of what characters drawn at random
    would give (the shorter prefix's levels times the characters seen at the new place; while the start is
    constant, where any place would give all, the code's alphabet) becomes a category `<column>_prefix<k>`.
    Codes printed in groups ('SW1A 1AA') are read without their spaces (unspaced_codes), their first group
    a category `<column>_group0` too when its levels repeat (_repeats); masked card
    numbers by the part shown before the mask (masked_starts). Codes in hexadecimal
    digits only (hashes, uuids) and numbers after a constant start (row numbers 'k02395') are ids and gain
    nothing."""
    for c in _feature_columns(train, test):
        if pd.api.types.is_numeric_dtype(train[c]) or c in cfg.get("text_cols", []):
            continue
        values = train[c].dropna().astype(str).str.strip()
        if len(values) < 50 or values.nunique() < PREFIX_UNIQUE * len(values):
            continue
        codes = masked_starts(values)
        masked = codes.notna().mean() >= share
        if masked:
            codes = codes.dropna()
            length = int(codes.str.len().min()) + 1  # every shown character may belong to the issuer
        else:
            codes = unspaced_codes(values)
            fits = codes.str.fullmatch(rf"[A-Za-z0-9]{{{PREFIX_LENGTH[0]},{PREFIX_LENGTH[1]}}}")
            start = len(os.path.commonprefix(codes.head(2000).tolist()))
            ids = codes.str.fullmatch(r"[0-9a-fA-F]+") | codes.str[start:].str.fullmatch(r"\d+")
            ids &= ~values.str.match(
                SPACED_CODE_TEXT
            )  # digits printed in groups, a ZIP+4 code: not a row's id
            if fits.mean() < share or ids.mean() >= share:
                continue  # not codes; hashes and uuids in hexadecimal, numbers after a constant start: ids
            length = int(codes[fits].str.len().min())
        sample = codes.head(2000)
        alphabet = len(set("".join(sample)))
        kept, finer, before = [], 1, 1
        for k in range(1, length):
            levels = codes.str[:k].nunique()
            if len(codes) / levels < PREFIX_ROWS:
                break
            drawn = alphabet if before == 1 else before * sample.str[k - 1].nunique()  # at random: about all
            if finer < levels <= 0.5 * min(drawn, len(codes)):
                kept.append(k)
                finer = levels
            before = levels
        first = values.str.split(r"[ -]", regex=True).str[0]  # a postcode's outward code 'SW1A': its district
        grouped = not masked and values.str.match(SPACED_CODE_TEXT).mean() >= share and _repeats(first)
        for df in (train, test):
            text = df[c].astype(str).str.strip().where(df[c].notna())
            if grouped:
                df[f"{c}_group0"] = text.str.split(r"[ -]", regex=True).str[0]
            text = masked_starts(text) if masked else unspaced_codes(text)
            for k in kept:
                df[f"{c}_prefix{k}"] = text.str[:k]
        if kept or grouped:
            log(f"clean: {c} holds codes whose first characters repeat (e.g. {values.iloc[0]!r}): prefixes of "
                f"{', '.join(map(str, kept)) or 'no'} characters{' and the first group' if grouped else ''} as "
                "categories")  # fmt: skip
    return train, test


# A point written over a latitude and a longitude column, named alike but for those words ('pickup_latitude'
# and 'pickup_longitude', 'start_lat' and 'start_lng'): a trip is two such points.
LAT_NAME = r"(?i)latitude|lat"
LON_NAME = r"(?i)longitude|long|lng|lon"
EARTH_KM = 6371.0
TRIP_POINTS = 4  # points paired at most (six trips)


def _points(train, test):
    """[(name, latitude column, longitude column)] of the numeric columns that pair up by name and hold
    latitudes (-90..90) and longitudes (-180..180)."""
    cols = [c for c in _feature_columns(train, test) if pd.api.types.is_numeric_dtype(train[c])]
    lons = {}
    for c in cols:
        if re.search(LON_NAME, str(c)) and train[c].dropna().between(-180, 180).all():
            lons.setdefault(re.sub(LON_NAME, "", str(c), count=1), c)
    found = []
    for c in cols:
        if not re.search(LAT_NAME, str(c)) or re.search(LON_NAME, str(c)):
            continue
        lon = lons.get(re.sub(LAT_NAME, "", str(c), count=1))
        if lon is not None and train[c].dropna().between(-90, 90).all():
            found.append((re.sub(LAT_NAME, "", str(c), count=1).strip("_ ") or "point", c, lon))
    return found[:TRIP_POINTS]


def trip_lengths(train, test, cfg):
    """Between every two points given as latitude/longitude column pairs (pickup and dropoff, origin and
    destination), the great-circle distance in km, the distance along the meridian and the parallel (a
    grid city's blocks) and the bearing: a fare or a duration follows the trip's length, which trees
    cannot compose from four coordinates on a few thousand rows."""
    points = _points(train, test)
    for i, (a, lat1, lon1) in enumerate(points):
        for b, lat2, lon2 in points[i + 1 :]:
            for df in (train, test):
                p1, p2 = np.radians(df[lat1].astype(float)), np.radians(df[lat2].astype(float))
                dlon = np.radians(df[lon2].astype(float) - df[lon1].astype(float))
                h = np.sin((p2 - p1) / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(dlon / 2) ** 2
                df[f"{a}_{b}_km"] = 2 * EARTH_KM * np.arcsin(np.sqrt(np.clip(h, 0, 1)))
                df[f"{a}_{b}_blocks_km"] = EARTH_KM * (np.abs(p2 - p1) + np.abs(dlon) * np.cos((p1 + p2) / 2))
                df[f"{a}_{b}_bearing"] = np.degrees(np.arctan2(np.sin(dlon) * np.cos(p2),
                                                               np.cos(p1) * np.sin(p2) - np.sin(p1) * np.cos(p2) * np.cos(dlon)))  # fmt: skip
            log(
                f"clean: trip from {a} to {b} ({lat1}, {lon1} -> {lat2}, {lon2}): added its length in km and bearing"
            )
    return train, test


# A cell of named fields: a JSON object '{"hits": "7", "pageviews": "5"}', or pairs 'beds=3;baths=2',
# 'a=1&b=2' (a URL's query), 'color: red, size: 10', or counts named after them as listing sites summarise
# a home, '3 bds · 2 ba · 1,450 sqft'. FIELD_PAIR is one pair, COUNT_PAIR one count and its name (one or
# two words); FIELD_SEPARATORS what stands between pairs, tried in this order.
FIELD_PAIR = r"^\s*([A-Za-z_][\w .-]{0,40}?)\s*[=:](?!//)\s*(.*?)\s*$"
COUNT_PAIR = rf"^\s*([-+]?{GROUPED_NUMBER})\s*([^\W\d_][^\W\d]*(?:\s[^\W\d_][^\W\d]*)?)\.?\s*$"
FIELD_SEPARATORS = (";", "&", "|", ",", "·", "•")
FIELD_NAME_GAPS = r"\W+"  # what a field's name loses in its column's name
FIELD_KEYS = 30  # distinct names a column of such cells holds at most: more are free text or nested data


def _object_fields(text):
    """A JSON object's fields as text (nested values as their JSON), or None when `text` is not one."""
    try:
        found = json.loads(text)
    except ValueError:
        return None
    if not isinstance(found, dict):
        return None
    return {str(k): v if isinstance(v, str) else json.dumps(v) for k, v in found.items()}


def _pair_fields(text, sep):
    """The named fields of pairs split by `sep` ('beds=3;baths=2', '3 bds · 2 ba'), or None when a piece
    is neither form."""
    fields = {}
    for piece in text.split(sep):
        found = re.match(FIELD_PAIR, piece)
        if found is not None:
            fields[found[1]] = found[2]
            continue
        found = re.match(COUNT_PAIR, piece)
        if found is None:
            return None
        fields[found[2]] = found[1]
    return fields


def cell_fields(values, sep):
    """Each value's named fields (a dict; None where the value holds none): JSON objects, else pairs
    split by `sep`."""
    text = filled_text(values)
    return [
        None if pd.isna(t) else _object_fields(t) if t.startswith("{") else _pair_fields(t, sep) for t in text
    ]


def field_cells(train, test, cfg, share=0.95):
    """Text columns whose cells hold named fields (`share` of the training values JSON objects, pairs or
    named counts, at least half of them two fields or more, at most FIELD_KEYS names over the column;
    Google Analytics' 'totals', a listing's 'beds=3;baths=2;floor=7' or '3 bds · 2 ba · 1,450 sqft') give a
    column per name (`<column>_<name>`), whatever order each row writes them in, read as number_text reads
    a column ('5000mAh' is a number). The value itself stays (free text too: a column of summaries reads
    as free text, and stays it); code_parts leaves it (cfg['_fields'])."""
    for c in _feature_columns(train, test):
        if pd.api.types.is_numeric_dtype(train[c]):
            continue
        values = train[c].dropna().astype(str).head(2000)
        if len(values) < 5 or values.str.contains(r"[=:]|\d\s*[^\W\d_]").mean() < share:
            continue
        for sep in FIELD_SEPARATORS:
            fields = cell_fields(values, sep)
            read = [f for f in fields if f]
            if len(read) >= share * len(values) and np.mean([len(f) >= 2 for f in read]) >= 0.5:
                break
        else:
            continue
        names = pd.Series([k for f in read for k in f]).value_counts()
        if len(names) > FIELD_KEYS:
            continue
        blocks = [
            pd.DataFrame([f or {} for f in cell_fields(df[c], sep)], index=df.index) for df in (train, test)
        ]
        columns = [f"{c}_{re.sub(FIELD_NAME_GAPS, '_', name).strip('_') or 'field'}" for name in names.index]
        for name, column in zip(names.index, columns, strict=True):
            for df, block in zip((train, test), blocks, strict=True):
                df[column] = block.get(name, np.nan)
        train, test = number_text(train, test, cfg, columns=columns)  # '5000mAh', '$4.99': as any column
        cfg.setdefault("_fields", []).append(c)
        log(
            f"clean: {c} holds named fields ({', '.join(map(str, names.index[:8]))}; e.g. {values.iloc[0]!r}): a column each"
        )
    return train, test


CODE_SEPARATORS = ("@", "_", "/", "-", ":", "|", "+", ".")  # "@" first: e-mail; "." last: versions "2.13.4"
CODE_PARTS = (2, 6)  # the fewest and most parts a code is split into
# between the fields of a value written with spaces: '1234 Oak St, Springfield, IL 62704'
FIELD_SEPARATOR = ", "
# one unit after numbers built from parts, the same in every row: '25/32 mpg', '120/80 mmHg'
UNIT_AFTER_TEXT = r"^(\S*\d)\s+([^\W\d_][^\s\d]*)$"


def _strip_unit(values):
    """`values` with the unit written after each (UNIT_AFTER_TEXT) taken off; others as they were."""
    found = values.astype(str).str.extract(UNIT_AFTER_TEXT)[0]
    return found.where(found.notna(), values).rename(values.name)


def _without_unit(values, share):
    """`values` without the unit written after each (UNIT_AFTER_TEXT) when `share` of them end in one and
    the same unit; None otherwise."""
    found = values.astype(str).str.extract(UNIT_AFTER_TEXT)
    if found[0].notna().mean() < share or found[1].dropna().str.lower().nunique() != 1:
        return None
    return _strip_unit(values)


def code_parts(train, test, cfg, share=0.95):
    """Text columns of codes built from parts (M5's item 'FOODS_3_090', Spaceship Titanic's cabin 'B/0/P',
    a version '2.13.4', an e-mail address and its domain): `share` of the training values split by one
    separator into the same number of parts (CODE_PARTS), none of them empty. Values holding spaces, free
    text included, split only into fields (FIELD_SEPARATOR: an address '1234 Oak St, Springfield, IL 62704',
    a place '51.5074° N, 0.1278° W'; lists of varying length do not). Each part becomes a column, a number
    when every filled part is one (an angle with its hemisphere in signed degrees; PART_READERS), so a code
    the training rows never name still tells its category, deck or side, and an address its city; of
    fields, only those whose
    levels repeat (_repeats). One unit written after every value is set aside first ('25/32 mpg';
    _without_unit). The value itself stays (a text model still reads it). Dates and clock times are read
    before this."""
    for c in _feature_columns(train, test):
        if pd.api.types.is_numeric_dtype(train[c]) or c in cfg.get("_fields", []):
            continue
        values = train[c].dropna().astype(str).head(5000)
        spaced = c in cfg.get("text_cols", []) or values.str.contains(r"\s").any()
        if len(values) < 5:
            continue
        unitless = None if c in cfg.get("text_cols", []) else _without_unit(values, share)
        if unitless is not None and not unitless.str.contains(r"\s").any():
            values, spaced = unitless, False
        for sep in (FIELD_SEPARATOR,) if spaced else CODE_SEPARATORS:
            counts = values.str.count(re.escape(sep)) + 1
            k = int(counts.mode().iloc[0])
            split = values.str.split(sep, regex=False)
            if (
                CODE_PARTS[0] <= k <= CODE_PARTS[1]
                and (counts == k).mean() >= share
                and not split[counts == k].map(lambda p: "" in p).any()
            ):
                break
        else:
            continue
        sources = [df[c] if unitless is None or spaced else _strip_unit(df[c]) for df in (train, test)]
        blocks = [_split_parts(v, sep, k) for v in sources]
        readers = {p: _part_reader(blocks[0][p]) for p in blocks[0]}  # decided on the training rows
        keep = [p for p in blocks[0] if sep != FIELD_SEPARATOR or readers[p] or _repeats(blocks[0][p])]
        if not keep:  # 'Braund, Mr. Owen Harris': a surname and given names, nearly one per row
            continue
        for df, block in zip((train, test), blocks, strict=True):
            for p in keep:
                df[p] = readers[p](block[p]) if readers[p] else block[p]
        log(
            f"clean: {c} holds values of {k} parts split by {sep!r} (e.g. {values.iloc[0]!r}): "
            f"a column per part{'' if len(keep) == k else f' that repeats ({len(keep)})'}"
        )
    return train, test


def _split_parts(values, sep, k):
    """`values` split by `sep` into columns `<name>_part0..k-1`; a value of another part count is a gap."""
    text = values.astype(str).where(values.notna())
    parts = text.str.split(sep, regex=False).map(
        lambda p: p if isinstance(p, list) and len(p) == k else [None] * k
    )
    return pd.DataFrame(
        parts.tolist(), index=values.index, columns=[f"{values.name}_part{i}" for i in range(k)]
    )


def plain_numbers(values):
    return pd.to_numeric(values, errors="coerce")


PART_READERS = (plain_numbers, dms_degrees)  # a part of a code or a field: a number, or an angle '0.1278° W'


def _part_reader(values):
    """The first of PART_READERS that reads every filled value of a code's part, None when none does."""
    filled = values.notna().sum()
    return next((read for read in PART_READERS if read(values).notna().sum() == filled), None)


def _repeats(values):
    """Whether a field's levels repeat: at most half as many levels as filled rows (a city, a state), not
    nearly one per row (a street, a person's given names), which would only be memorised."""
    filled = values.dropna()
    return len(filled) > 0 and filled.nunique() <= 0.5 * len(filled)


# Numbers set in one written form: a tyre '205/55 R16' ('#/# R#'), a flat '3 bed 2 bath'. The form is the
# value with each number written '#'.
FORM_NUMBER = r"\d+(?:\.\d+)?"
FORM_NUMBERS = (2, 6)  # the fewest and most numbers a value of such a form holds
FORMS = 4  # distinct forms at most ('205/55 R16' beside '225/45R17' and 'P215/65R15')


def form_parts(values):
    """Each value's form (its numbers written '#') and its numbers as floats, one column per position."""
    text = filled_text(values)
    numbers = text.str.findall(FORM_NUMBER).map(lambda n: [float(x) for x in n], na_action="ignore")
    return text.str.replace(FORM_NUMBER, "#", regex=True), numbers


def _whole_text_columns(train, test, cfg):
    """The feature columns of text, free text aside, that no step has taken apart (no `<column>_...` column
    exists), each checked when the caller reaches it."""
    for c in _feature_columns(train, test):
        if not (
            pd.api.types.is_numeric_dtype(train[c])
            or c in cfg.get("text_cols", [])
            or any(str(o).startswith(f"{c}_") for o in train.columns)
        ):
            yield c


def form_numbers(train, test, cfg, share=0.95):
    """Text columns whose training values are numbers set in a few forms (FORMS) that hold the same count
    of numbers (FORM_NUMBERS; `share` of the values): a column per position (`<column>_num0`, ...), and
    the form as a category when there are several (`<column>_form`), so a tyre's width and rim are
    numbers a model can order. A column another step has already taken apart (a column `<column>_...`
    exists: code parts, dates, phones) or free text is left as it is; the value itself stays."""
    for c in _whole_text_columns(train, test, cfg):
        values = train[c].dropna().head(5000)
        if len(values) < 5:
            continue
        form, numbers = form_parts(values)
        k = int(numbers.str.len().mode().iloc[0])
        fits = numbers.str.len().eq(k)
        forms = form[fits].value_counts()
        if not (FORM_NUMBERS[0] <= k <= FORM_NUMBERS[1] and fits.mean() >= share and len(forms) <= FORMS):
            continue
        for df in (train, test):
            form, numbers = form_parts(df[c])
            gap = [np.nan] * k
            rows = [n if isinstance(n, list) and len(n) == k else gap for n in numbers]
            block = pd.DataFrame(rows, index=df.index, columns=range(k), dtype=float)
            for i in range(k):
                df[f"{c}_num{i}"] = block[i]
            if len(forms) > 1:
                df[f"{c}_form"] = form.where(form.isin(forms.index))
        log(
            f"clean: {c} holds {k} numbers in {len(forms)} written form(s) (e.g. {values.iloc[0]!r}): a column each"
        )
    return train, test


# Chemical formulas ('Fe2O3', 'C6H12O6', 'Ba0.2La1.8CuO4'): each element symbol with its count after it (one
# when none is written). Two-letter symbols are tried first: 'Co' is cobalt, 'CO' carbon and oxygen.
ELEMENT_SYMBOLS = (
    "H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Y "
    "Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re "
    "Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr"
)
ELEMENT_TEXT = "|".join(sorted(ELEMENT_SYMBOLS.split(), key=len, reverse=True))
FORMULA_PART = rf"({ELEMENT_TEXT})(\d+(?:\.\d+)?)?"  # one element and its count
FORMULA_TEXT = rf"^(?:{FORMULA_PART})+$"
# Distinct elements a column of formulas names at least: codes 'SKU12' ('S', 'K', 'U') are not formulas.
FORMULA_ELEMENTS = 5


def formula_counts(values):
    """Each FORMULA_TEXT value's count of each element (a DataFrame, a column per element named, 0 where
    one is absent, NaN rows where a value is not a formula)."""
    text = pd.Series(values).astype(str).str.strip().where(pd.Series(values).notna())
    uniq = pd.Series(text.dropna().unique())
    uniq = uniq[uniq.str.match(FORMULA_TEXT)]
    rows = []
    for v in uniq:
        counts: dict = {}
        for symbol, n in re.findall(FORMULA_PART, v):
            counts[symbol] = counts.get(symbol, 0.0) + (float(n) if n else 1.0)
        rows.append(counts)
    table = pd.DataFrame(rows, index=uniq.to_numpy()).fillna(0.0)
    return table.reindex(text.to_numpy()).set_axis(text.index)


def formula_columns(train, test, cfg, share=0.95):
    """Text columns of chemical formulas (`share` of the training values read as FORMULA_TEXT, at least
    FORMULA_ELEMENTS elements named and two a value on average) gain a column per element of the training
    formulas with its count (`<column>_<symbol>`): as levels, 'Fe2O3' and 'Fe3O4' are unrelated, and a
    property of a compound follows what it is made of. The value itself stays."""
    for c in _feature_columns(train, test):
        if pd.api.types.is_numeric_dtype(train[c]) or c in cfg.get("text_cols", []):
            continue
        values = train[c].dropna().astype(str).str.strip().head(5000)
        if len(values) < 10 or values.str.match(FORMULA_TEXT).mean() < share:
            continue
        counts = formula_counts(values)
        if counts.shape[1] < FORMULA_ELEMENTS or counts.gt(0).sum(axis=1).mean() < 2:
            continue
        blocks = [formula_counts(df[c]) for df in (train, test)]
        symbols = list(blocks[0].columns)  # the training formulas' elements
        for df, block in zip((train, test), blocks, strict=True):
            block = block.reindex(columns=symbols)
            filled = block.notna().any(axis=1)
            for symbol in symbols:
                df[f"{c}_{symbol}"] = block[symbol].where(~filled, block[symbol].fillna(0.0))
        log(f"clean: {c} holds chemical formulas (e.g. {values.iloc[0]!r}): {len(symbols)} element columns")
    return train, test


# Categories whose levels are names made of words ('Apple iPhone 12 Pro 256GB', 'Brown Tabby/White', 'Senior
# Data Scientist'): the words many levels share are what a model can generalise from.
LEVEL_WORD_TEXT = r"[^\W_]+"
LEVEL_WORD_LEVELS = 20  # distinct training levels a column needs: with fewer, each level is learnt as it is
LEVEL_WORD_ROWS = 20  # training rows a word needs
LEVEL_WORDS = 50  # words kept at most, the most frequent
LEVEL_WORD_MEAN = 1.5  # words a value holds on average: 'Black' beside 'Black/White' and 'Brown Tabby/White'


def _word_table(values):
    """Each distinct value's words (lower case, LEVEL_WORD_TEXT) as {value: set of words}."""
    uniq = pd.Series(pd.Series(values).dropna().astype(str).unique())
    return dict(zip(uniq, uniq.str.lower().str.findall(LEVEL_WORD_TEXT).map(set), strict=True))


def level_words(train, test, cfg):
    """Category columns of at least LEVEL_WORD_LEVELS levels written as words (LEVEL_WORD_MEAN) gain a 0/1
    column per word (`<column>_w_<word>`, at most LEVEL_WORDS) that holds a letter and is shared by at
    least two levels and LEVEL_WORD_ROWS training rows, when those words are fewer than the levels: a model
    then knows 'iPhone 12 Pro 128GB' from 'iPhone 12 Pro 256GB' by what they share, and a level the
    training rows never show by its words. Free text (a text model reads it) and a column another step has
    already taken apart are left as they are; the value itself stays."""
    for c in _whole_text_columns(train, test, cfg):
        counts = train[c].dropna().astype(str).value_counts()
        if len(counts) < LEVEL_WORD_LEVELS:
            continue
        table = _word_table(counts.index)
        sizes = pd.Series({v: len(w) for v, w in table.items()})
        if (sizes.reindex(counts.index) * counts).sum() / counts.sum() < LEVEL_WORD_MEAN:
            continue
        rows: dict = {}
        levels: dict = {}
        for value, words in table.items():
            for w in words:
                rows[w] = rows.get(w, 0) + counts[value]
                levels[w] = levels.get(w, 0) + 1
        lettered = [w for w in rows if re.search(r"[^\W\d_]", w)]
        shared = [w for w in lettered if rows[w] >= LEVEL_WORD_ROWS and levels[w] >= 2]
        vocab = sorted(shared, key=lambda w: (-rows[w], w))[:LEVEL_WORDS]
        if len(vocab) < 2 or len(vocab) >= len(counts):
            continue
        for df in (train, test):
            table = _word_table(df[c])
            has = np.array([[w in words for w in vocab] for words in table.values()], dtype=float).reshape(
                -1, len(vocab)
            )
            at = pd.Categorical(df[c].astype(str).where(df[c].notna()), categories=list(table)).codes
            block = np.where((at >= 0)[:, None], has[np.maximum(at, 0)] if len(has) else np.nan, np.nan)
            for i, w in enumerate(vocab):
                df[f"{c}_w_{w}"] = block[:, i]
        log(
            f"clean: {c} names levels with shared words (e.g. {counts.index[0]!r}): {len(vocab)} word columns"
        )
    return train, test


def text_counts(train, test, cfg):
    """Per free-text column: characters, words and the share of upper-case, digit and punctuation
    characters (row-wise, so nothing is fitted)."""
    for c in cfg.get("text_cols", []):
        for df in (train, test):
            s = df[c].fillna("").astype(str)
            n = s.str.len()
            df[c + "_n_chars"] = n
            df[c + "_n_words"] = s.str.split().str.len().fillna(0)
            for name, pattern in (("upper", r"[A-Z]"), ("digit", r"\d"), ("punct", r"[^\w\s]")):
                df[f"{c}_{name}_share"] = s.str.count(pattern) / (n + 1)
    return train, test


def unfilled_columns(train, test, cols):
    """The columns of `cols` the training rows fill somewhere and no test row fills (a sensor that failed
    after the training period); none when the test frame has no rows. The clean step and the data analysis
    both ask this."""
    if not len(test):
        return []
    return [c for c in cols if test[c].isna().all() and train[c].notna().any()]


def screen_columns(train, test, cfg):
    """Drop columns that cannot help, judged on the training rows without their labels: constant columns,
    exact duplicates of an earlier column, and non-numeric near-unique columns that are not text (ids); and
    columns no test row fills (a sensor that failed after the training period: a model leaning on it would
    predict every test row from its gap). Two-valued text columns become 0/1."""
    cols = [c for c in _feature_columns(train, test) if c not in cfg.get("text_cols", [])]
    unfilled = unfilled_columns(train, test, cols)
    if unfilled:
        log(f"clean: dropped {len(unfilled)} column(s) no test row fills: {unfilled[:8]}")
        train, test = train.drop(columns=unfilled), test.drop(columns=unfilled)
        cols = [c for c in cols if c not in unfilled]
    drop, seen = [], {}
    for c in cols:
        s = train[c]
        if s.nunique(dropna=False) <= 1 or _id_like(s):
            drop.append(c)
            continue
        key = pd.util.hash_pandas_object(s.astype(str), index=False).sum()
        if key in seen and train[seen[key]].astype(str).equals(s.astype(str)):
            drop.append(c)
            continue
        seen[key] = c
        values = s.dropna().unique()
        if not pd.api.types.is_numeric_dtype(s) and len(values) == 2:
            first = sorted(map(str, values))[1]
            for df in (train, test):
                df[c] = np.where(df[c].isna(), np.nan, (df[c].astype(str) == first).astype(float))
    if drop:
        log(f"clean: dropped {len(drop)} constant/duplicate/id-like column(s): {drop[:8]}")
    return train.drop(columns=drop), test.drop(columns=drop)


# A column named as a key ("id", "user_id", "zip code", "key"): with repeats shared by the test rows it names
# entities even when no other column describes them.
KEY_NAME = re.compile(r"(^|[_\s])(id|key|code)$|^id[_\s]", re.I)
KEY_ROWS = 100_000  # training rows the key test reads
KEY_TRIES = 30  # candidate columns it tests at most (each test is one group-by over the other columns)
KEY_ATTR_ROWS = 20_000  # rows of whole levels the attribute test groups


def _integral(s):
    """Numbers that are all whole (a numbered key), not booleans."""
    if not pd.api.types.is_numeric_dtype(s) or pd.api.types.is_bool_dtype(s):
        return False
    v = s.dropna().to_numpy(dtype=float)
    return len(v) > 0 and bool(np.all(np.isfinite(v))) and bool(np.all(np.mod(v, 1) == 0))


def _has_attributes(train, c, cols, levels):
    """True when another column is constant within each of `c`'s repeated levels (a respondent's age, a
    school's region) where chance would break that for at least a third of the rows: `c` then names
    entities the rows describe. A column that is nearly constant everywhere proves nothing. A quantity with
    a coarser copy (an age and its age group) passes too, so the representations add the key's encodings
    beside its number rather than instead of it."""
    sizes = train[c].value_counts()
    multi = sizes[sizes >= 2]
    if multi.sum() < 0.5 * len(train):
        return False
    # whole levels drawn at random up to KEY_ATTR_ROWS rows (at least 30 levels): group sizes are kept and
    # a wide table costs one bounded group-by per candidate
    shuffled = multi.sample(frac=1.0, random_state=0)
    multi = shuffled[(shuffled.cumsum() <= KEY_ATTR_ROWS) | (np.arange(len(shuffled)) < 30)]
    n = multi.sum()
    rows = train[train[c].isin(multi.index)]
    others = [d for d in cols if d != c and 2 <= rows[d].nunique() < levels][:200]
    if not others:
        return False
    distinct = rows.groupby(c)[others].nunique(dropna=False)
    m = multi.reindex(distinct.index).to_numpy(dtype=float)
    group_sizes, times = np.unique(m, return_counts=True)
    for d in others:
        if m[distinct[d].to_numpy() > 1].sum() > 0.02 * n:
            continue
        p = rows[d].value_counts(normalize=True, dropna=False).to_numpy()
        # rows in groups whose values would differ if the column were independent of the level
        chance = (times * group_sizes * (1 - (p[None, :] ** group_sizes[:, None]).sum(axis=1))).sum()
        if chance >= n / 3:
            return True
    return False


def key_columns(train, test, cfg, min_levels=10, min_seen=0.5):
    """Entity keys the test rows share: whole numbers or labels with at least `min_levels` levels, each
    repeated on average, whose values most test rows also hold, and that carry a key's name, determine
    another column (the entity's attributes) or index a panel (one row per entity and period). Label-free:
    the training and test rows' values only; the target, id and text columns named in `cfg` are never keys."""
    skip = set(cfg.get("target", [])) | {cfg.get("id"), cfg.get("image_col")} | set(cfg.get("text_cols", []))
    cols = [c for c in train.columns if c in test.columns and c not in skip]
    sample = train.sample(KEY_ROWS, random_state=0) if len(train) > KEY_ROWS else train  # a sorted file
    keys, tries, shares = [], 0, {}
    for c in cols:
        s = sample[c]
        if not (
            _integral(s)
            or (s.dtype == object and not _dates_like(s))
            or isinstance(s.dtype, pd.CategoricalDtype)
        ):
            continue
        levels = s.nunique()
        if levels < min_levels or levels > len(s) / 2 or tries >= KEY_TRIES:
            continue
        tries += 1
        if test[c].isin(s.dropna().unique()).mean() < min_seen:
            continue  # new entities: their key says nothing the training rows hold
        if (
            KEY_NAME.search(str(c))
            or _has_attributes(sample, c, cols, levels)
            or _indexes_a_panel(sample, c, cols, levels, shares)
        ) and not _same_entities(train, c, keys):
            keys.append(c)
    return keys


PANEL_CHANCE = 5.0  # repeated pairs chance would give; at 5 none is seen by chance about once in 150 tables
PANEL_COVER = 1 / 3  # share of the periods an entity is seen in, on average
PANEL_TRIES = 20  # period columns it checks at most per candidate (each check hashes the rows once)


def _indexes_a_panel(train, c, cols, levels, shares):
    """True when `c` and a column of no more levels (a year, a wave) name each row once, where independent
    columns with these value shares would repeat some pair about PANEL_CHANCE times or more, and a level of
    `c` is seen in at least PANEL_COVER of that column's values on average: the rows are entities seen once
    per period, and `c` numbers the entities (a municipality, a state) even with no attribute that stays
    constant. A number each group gives its own members (pupil 7 of each school) covers few groups: not a key.
    `shares` caches each column's value shares across candidates."""

    def share(col):
        if col not in shares:
            shares[col] = train[col].value_counts(normalize=True, dropna=False).to_numpy()
        return shares[col]

    n, p_c = len(train), share(c)
    most, tries = p_c.max() * n, 0
    for d in cols:
        if d == c or tries >= PANEL_TRIES:
            continue
        periods = len(share(d))
        if not max(2, most) <= periods <= levels or n / levels < PANEL_COVER * periods:
            continue  # a level seen more often than there are periods repeats a pair for sure
        if n * (n - 1) / 2 * (p_c**2).sum() * (share(d) ** 2).sum() < PANEL_CHANCE:
            continue
        tries += 1
        if not train.duplicated([c, d]).any():
            return True
    return False


def _same_entities(train, c, keys):
    """True when `c` splits the training rows exactly as an earlier key does (a firm's number and its
    stock code): its encodings would repeat that key's, and two equal mean columns only add their noise twice."""
    for k in keys:
        n = train[[k, c]].drop_duplicates().shape[0]
        if n == train[k].nunique(dropna=False) == train[c].nunique(dropna=False):
            log(f"clean: {c!r} names the same entities as key {k!r}; encoded once")
            return True
    return False


def shared_keys(train, test, cfg):
    """Mark the entity keys the test rows share (`key_columns`) in cfg['_keys']; the frames are unchanged.
    Read as a plain number, a respondent's or a shop's id only orders entities arbitrarily; the
    representations give a marked key a per-level target mean (trees), one column per level (linear
    models) and a category (CatBoost), beside what it already was."""
    cfg["_keys"] = key_columns(train, test, cfg)
    if cfg["_keys"]:
        log(
            f"clean: {len(cfg['_keys'])} key column(s) the test rows share, encoded per level: {cfg['_keys'][:8]}"
        )
    return train, test


# A numbered key whose level means follow its numbers (a month index, an age) is a quantity: a tree splits
# its number cleanly, and a per-level mean only adds that mean's noise. At a ratio below one half the order
# explains most of the levels' spread; the entity keys of the bench tables sit near 1, the quantities far below.
QUANTITY_RATIO = 0.5
_QUANTITIES_LOGGED: set[str] = set()


def _targets(y, cfg):
    """The target as one or more float columns: one indicator per class when there are several."""
    y = np.asarray(y, dtype=float)
    if cfg["problem"] != "multiclass":
        return [y]
    return [(y == k).astype(float) for k in range(cfg["n_classes"])]


def order_ratio(x, targets):
    """How little of a numbered column's per-level target means its order leaves unexplained: the mean
    squared step between consecutive levels' means over twice their spread, both less what sampling noise
    adds. About 1 when the numbers are arbitrary, near 0 when the means follow them; None when the levels'
    true spread is below a level mean's sampling noise (a few rows per level): the ratio then measures noise."""
    steps = spread = noisy = 0.0
    for t in targets:
        d = pd.DataFrame({"x": x, "t": t}).dropna()
        g = d.groupby("x")["t"]
        stats = g.agg(["mean", "count"]).sort_index()
        if len(stats) < 3:
            return None
        m, n = stats["mean"].to_numpy(), stats["count"].to_numpy(dtype=float)
        within = float(((d["t"] - g.transform("mean")) ** 2).sum()) / max(n.sum() - len(n), 1.0)
        noise = within / n
        w = n / n.sum()
        spread += float((w * (m - (w * m).sum()) ** 2).sum() - (w * noise).sum())
        steps += float(np.mean(np.diff(m) ** 2) - np.mean(noise[1:] + noise[:-1]))
        noisy += float((w * noise).sum())
    return steps / (2 * spread) if spread > max(noisy, 0.0) else None


def quantities(frame, keys, targets):
    """{key: ratio} for the keys of whole numbers in `frame` whose target means follow their numbers
    (`order_ratio` below QUANTITY_RATIO). Shared by the scripts (per fold) and the data analysis."""
    out = {}
    for k in keys:
        if k in frame.columns and _integral(frame[k]):
            ratio = order_ratio(frame[k].to_numpy(dtype=float), targets)
            if ratio is not None and ratio < QUANTITY_RATIO:
                out[k] = ratio
    return out


def _single_target(y, cfg):
    return y is not None and np.ndim(y) == 1 and cfg["problem"] in ("binary", "multiclass", "regression")


def level_keys(a, y, cfg):
    """The marked keys in `a` that get per-level target statistics: with a single-column target, all but
    the quantities found on the rows `a` (the fold's training rows), which keep only their number and the
    linear one-hot."""
    keys = [k for k in cfg.get("_keys", []) if k in a.columns]
    if not _single_target(y, cfg):
        return keys
    found = quantities(a, keys, _targets(y, cfg))
    for k, ratio in found.items():
        if k not in _QUANTITIES_LOGGED:
            _QUANTITIES_LOGGED.add(k)
            log(f"keys: {k!r} is a quantity (level means follow its numbers, ratio {ratio:.2f})")
    return [k for k in keys if k not in found]


def key_target_means(a, b, y, cfg):
    """Smoothed out-of-fold target means of the marked key columns that are not quantities (empty frames
    when none or when the target has no single column)."""
    keys = level_keys(a, y, cfg) if _single_target(y, cfg) else []
    if not keys:
        return pd.DataFrame(index=a.index), pd.DataFrame(index=b.index)
    T, U = category_target_means(a[keys], b[keys], y, cfg)
    return T.add_suffix("_key"), U.add_suffix("_key")


def category_codes(a, b, cfg, min_count=2):
    """Categories as integer codes learned from the training rows `a`: levels seen fewer than `min_count`
    times there, unseen levels and missing values all become NaN."""
    A, B = pd.DataFrame(index=a.index), pd.DataFrame(index=b.index)
    for c in a.columns:
        s = a[c].astype(str).where(a[c].notna())
        counts = s.value_counts()
        levels = sorted(counts.index[counts >= min_count])
        index = {v: float(i) for i, v in enumerate(levels)}
        A[c] = s.map(index).astype(float)
        B[c] = b[c].astype(str).where(b[c].notna()).map(index).astype(float)
    return A, B


def category_frequencies(a, b, cfg):
    """Share of the training rows `a` holding each level (unseen levels: 0)."""
    A, B = pd.DataFrame(index=a.index), pd.DataFrame(index=b.index)
    for c in a.columns:
        freq = a[c].astype(str).value_counts(normalize=True)
        A[c + "_freq"] = a[c].astype(str).map(freq).astype(float)
        B[c + "_freq"] = b[c].astype(str).map(freq).fillna(0.0).astype(float)
    return A, B


def category_target_means(a, b, y, cfg, smooth=20.0, inner=5):
    """Smoothed target mean per level: out-of-fold within the training rows `a` (inner folds), and from all
    of `a` for the rows `b`. Binary -> P(positive), regression -> mean; multiclass -> one column per class."""
    from sklearn.model_selection import KFold

    targets = _targets(y, cfg)
    A, B = pd.DataFrame(index=a.index), pd.DataFrame(index=b.index)
    splits = (
        list(KFold(inner, shuffle=True, random_state=cfg["seed"]).split(a)) if len(a) >= 2 * inner else []
    )
    for c in a.columns:
        key_a, key_b = a[c].astype(str).to_numpy(), b[c].astype(str).to_numpy()
        for j, t in enumerate(targets):
            prior, col = float(t.mean()), f"{c}_te{j if len(targets) > 1 else ''}"

            def means(keys, values, prior=prior):
                g = pd.DataFrame({"k": keys, "v": values}).groupby("k")["v"].agg(["sum", "count"])
                return (g["sum"] + prior * smooth) / (g["count"] + smooth)

            enc = np.full(len(a), prior)
            for tr, va in splits:
                enc[va] = pd.Series(key_a[va]).map(means(key_a[tr], t[tr])).fillna(prior).to_numpy()
            A[col] = enc
            B[col] = pd.Series(key_b).map(means(key_a, t)).fillna(prior).to_numpy()
    return A, B


def tree_matrix(a, b, cfg, y=None):
    """Numbers as they are (NaN kept), categories through the encoding component, text as its length.
    Returns frames with the categorical code columns listed in cfg['_categorical'] for boosters."""
    num, cat, text = column_kinds(a)
    A, B = [a[num].astype(float)], [b[num].astype(float)]
    cats = []
    if cat:
        ea, eb = encode_categories(a[cat], b[cat], y, cfg)
        A.append(ea)
        B.append(eb)
        cats = [c for c in ea.columns if c in cat]
    for c in text:
        A.append(a[c].fillna("").astype(str).str.len().rename(c + "_len").to_frame())
        B.append(b[c].fillna("").astype(str).str.len().rename(c + "_len").to_frame())
    ka, kb = key_target_means(a, b, y, cfg)
    A.append(ka)
    B.append(kb)
    X = pd.concat([p.reset_index(drop=True) for p in A], axis=1)
    X_b = pd.concat([p.reset_index(drop=True) for p in B], axis=1)
    names = [f"f{i}_" + re.sub(r"[^0-9A-Za-z_]", "_", str(c)[:40]) for i, c in enumerate(X.columns)]
    cfg["_categorical"] = [n for n, c in zip(names, X.columns, strict=True) if c in cats]
    X.columns = X_b.columns = names
    return X, X_b


def native_matrix(a, b, cfg, y=None):
    """Numbers as they are and categories as text, for models with their own categorical handling."""
    num, cat, text = column_kinds(a)
    X, X_b = a[num + cat].copy(), b[num + cat].copy()
    for c in cat:
        X[c], X_b[c] = X[c].astype(str), X_b[c].astype(str)
    keys = [k for k in level_keys(a, y, cfg) if k in num]
    for k in keys:  # a numbered key is also a category, whose per-level statistics CatBoost keeps in order
        X[k + "_key"], X_b[k + "_key"] = a[k].astype(str), b[k].astype(str)
    for c in text:
        X[c + "_len"] = a[c].fillna("").astype(str).str.len()
        X_b[c + "_len"] = b[c].fillna("").astype(str).str.len()
    cfg["_categorical"] = list(cat) + [k + "_key" for k in keys]
    return X.reset_index(drop=True), X_b.reset_index(drop=True)


SKEWED = 1.0  # sample skewness above which a non-negative column is log1p-transformed for linear models


def linear_matrix(train, test, cfg, y=None):
    """Median-imputed, scaled numbers with missing flags (log1p first where a column is non-negative and
    right-skewed: a linear model weighs a long tail's few rows too much) + one-hot categories (rare ones
    pooled): sparse. Every statistic comes from `train` (the fold's training rows)."""
    from scipy import sparse
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    num, cat, _ = column_kinds(train)
    keys = [k for k in cfg.get("_keys", []) if k in train.columns]
    cat = [c for c in cat if c not in keys]  # a labelled key gets its own one-hot below, uncapped
    blocks_tr, blocks_te = [], []
    if num:
        a, b = train[num].astype(float), test[num].astype(float)
        skewed = [c for c in num if a[c].nunique() > 2 and a[c].min() >= 0 and a[c].skew() > SKEWED]
        if skewed:
            a[skewed], b[skewed] = np.log1p(a[skewed]), np.log1p(b[skewed].clip(lower=0))
        med = a.median()
        miss = [c for c in num if a[c].isna().any()]
        a2 = pd.concat([a.fillna(med), a[miss].isna().astype(float).add_suffix("_na")], axis=1).fillna(0)
        b2 = pd.concat([b.fillna(med), b[miss].isna().astype(float).add_suffix("_na")], axis=1).fillna(0)
        lo, hi = a2.quantile(0.001), a2.quantile(0.999)
        scaler = StandardScaler().fit(a2.clip(lo, hi, axis=1))
        # rows later in time may lie past the training range (a trend, an area larger than any seen): the
        # line carries on up to one training range beyond it; an outlier is still held
        span = (hi - lo) if test_rows_later(cfg) else 0.0
        blocks_tr.append(sparse.csr_matrix(scaler.transform(a2.clip(lo, hi, axis=1))))
        blocks_te.append(sparse.csr_matrix(scaler.transform(b2.clip(lo - span, hi + span, axis=1))))
    if cat:
        enc = OneHotEncoder(handle_unknown="infrequent_if_exist", min_frequency=5, max_categories=60)
        blocks_tr.append(enc.fit_transform(train[cat].astype(str)))
        blocks_te.append(enc.transform(test[cat].astype(str)))
    if keys:
        # one column per level a key repeats (a numbered key keeps its number above: it may be a quantity)
        enc = OneHotEncoder(handle_unknown="infrequent_if_exist", min_frequency=2)
        blocks_tr.append(enc.fit_transform(train[keys].astype(str)))
        blocks_te.append(enc.transform(test[keys].astype(str)))
    if not blocks_tr:
        blocks_tr, blocks_te = (
            [sparse.csr_matrix(np.zeros((len(train), 1)))],
            [sparse.csr_matrix(np.zeros((len(test), 1)))],
        )
    return sparse.hstack(blocks_tr).tocsr(), sparse.hstack(blocks_te).tocsr()


def dense_matrix(train, test, cfg, y=None):
    """The linear matrix as a dense array (kernel and neighbour models)."""
    a, b = linear_matrix(train, test, {**cfg, "_keys": []})  # a column per key level would not fit dense
    return a.toarray(), b.toarray()


def text_matrix(train, test, cfg, y=None, word=None, char=None, max_features=None):
    """TF-IDF of the text columns (word and char n-grams, sublinear tf; vocabulary from `train`) next to the
    scaled tabular part."""
    from scipy import sparse
    from sklearn.feature_extraction.text import TfidfVectorizer

    word = cfg.get("word_ngrams", (1, 2)) if word is None else word
    char = cfg.get("char_ngrams", (2, 5)) if char is None else char
    max_features = max_features or (50000 if cfg.get("light") else 100000)
    _, _, text = column_kinds(train)

    def joined(df):
        return df[text].fillna("").astype(str).agg(" \n ".join, axis=1) if text else pd.Series([""] * len(df))

    a, b = joined(train), joined(test)
    blocks_tr, blocks_te = [], []
    if word:
        v = TfidfVectorizer(ngram_range=tuple(word), sublinear_tf=True, min_df=2, max_features=max_features,
                            strip_accents="unicode", dtype=np.float32)  # fmt: skip
        blocks_tr.append(v.fit_transform(a))
        blocks_te.append(v.transform(b))
    if char:
        v = TfidfVectorizer(analyzer="char_wb", ngram_range=tuple(char), sublinear_tf=True, min_df=2,
                            max_features=max_features, dtype=np.float32)  # fmt: skip
        blocks_tr.append(v.fit_transform(a))
        blocks_te.append(v.transform(b))
    rest = [c for c in train.columns if c not in text]
    if rest:
        t_tr, t_te = linear_matrix(train[rest], test[rest], cfg)
        blocks_tr.append(t_tr)
        blocks_te.append(t_te)
    return sparse.hstack(blocks_tr).tocsr(), sparse.hstack(blocks_te).tocsr()


def hashed_text(df, cfg):
    """Word and character n-gram counts of the text columns by feature hashing: row-wise, nothing is fitted,
    so it runs once for all rows and each fold only weights and filters the columns."""
    from scipy import sparse
    from sklearn.feature_extraction.text import HashingVectorizer

    _, _, text = column_kinds(df)
    docs = df[text].fillna("").astype(str).agg(" \n ".join, axis=1) if text else pd.Series([""] * len(df))
    word, char = cfg.get("word_ngrams", (1, 2)), cfg.get("char_ngrams", (2, 5))
    common = dict(n_features=2**20, alternate_sign=False, norm=None, dtype=np.float32)
    blocks = []
    if word:
        blocks.append(
            HashingVectorizer(ngram_range=tuple(word), strip_accents="unicode", **common).transform(docs)
        )
    if char:
        blocks.append(
            HashingVectorizer(analyzer="char_wb", ngram_range=tuple(char), **common).transform(docs)
        )
    return sparse.hstack(blocks).tocsr() if blocks else sparse.csr_matrix((len(df), 0), dtype=np.float32)


def tfidf_weights(H_a, H_b, min_df=2, max_features=None):
    """Keep the n-gram columns present in at least `min_df` training rows (the `max_features` most frequent
    when given) and apply sublinear tf-idf with the idf of the training rows."""
    from sklearn.feature_extraction.text import TfidfTransformer

    df = np.asarray((H_a > 0).sum(axis=0)).ravel()
    keep = np.flatnonzero(df >= min_df)
    if max_features and len(keep) > max_features:
        keep = keep[np.argsort(-df[keep], kind="stable")[:max_features]]
    H_a, H_b = H_a[:, keep], H_b[:, keep]
    tf = TfidfTransformer(sublinear_tf=True).fit(H_a)
    return tf.transform(H_a).astype(np.float32), tf.transform(H_b).astype(np.float32)


def hashed_text_matrix(train, test, cfg, y=None):
    """Word+char TF-IDF (idf and vocabulary from the fold's training rows) beside the scaled tabular part."""
    from scipy import sparse

    ra, rb = cfg["_rows"]
    T_a, T_b = tfidf_weights(
        cfg["_hashed"][ra], cfg["_hashed"][rb], max_features=cfg.get("max_text_features")
    )
    _, _, text = column_kinds(train)
    rest = [c for c in train.columns if c not in text]
    if not rest:
        return T_a, T_b
    L_a, L_b = linear_matrix(train[rest], test[rest], cfg)
    return sparse.hstack([T_a, L_a]).tocsr(), sparse.hstack([T_b, L_b]).tocsr()


def compact_text_matrix(train, test, cfg, y=None):
    """The 10k most frequent word n-grams as TF-IDF beside the tree matrix: for boosters on text plus tabular
    columns."""
    from scipy import sparse

    ra, rb = cfg["_rows"]
    words = cfg["_hashed_words"]
    W_a, W_b = tfidf_weights(words[ra], words[rb], max_features=10000)
    tab_a, tab_b = tree_matrix(train, test, cfg, y)
    cfg["_categorical"] = []
    return (
        sparse.hstack([sparse.csr_matrix(tab_a.to_numpy(dtype=np.float32)), W_a]).tocsr(),
        sparse.hstack([sparse.csr_matrix(tab_b.to_numpy(dtype=np.float32)), W_b]).tocsr(),
    )


def read_image(path):
    """Grayscale float image in [0, 255] from .npy, or any format Pillow reads (PNG, JPEG, PGM/PPM, ...)."""
    path = str(path)
    if path.endswith(".npy"):
        a = np.load(path).astype(np.float32)
        return a.mean(axis=2) if a.ndim == 3 else a
    from PIL import Image

    with Image.open(path) as im:
        return np.asarray(im.convert("L"), dtype=np.float32)


def resize(img, size):
    """Area-average downsampling (or nearest upsampling) to size x size."""
    h, w = img.shape
    rows = np.linspace(0, h, size + 1).astype(int)
    cols = np.linspace(0, w, size + 1).astype(int)
    out = np.empty((size, size), dtype=np.float32)
    for i in range(size):
        r0, r1 = rows[i], max(rows[i + 1], rows[i] + 1)
        for j in range(size):
            c0, c1 = cols[j], max(cols[j + 1], cols[j] + 1)
            out[i, j] = img[r0:r1, c0:c1].mean()
    return out


def image_paths(df):
    """Each row's image file: a column holding file names, else the id matched against file stems."""
    found = image_index(CFG["input"])
    col = CFG.get("image_col") if CFG.get("image_col") in df.columns else CFG.get("id")
    paths = [find_image(found, k) for k in df[col].astype(str)]
    missing = sum(p is None for p in paths)
    if missing:
        raise FileNotFoundError(
            f"{missing} of {len(paths)} images not found under {CFG['input']} (by column {col!r})"
        )
    return paths


def image_array(df, size):
    return np.stack([resize(read_image(p), size) for p in image_paths(df)]) / 255.0


def hog(imgs, cells=4, bins=8):
    """Histogram of gradient orientations per cell: cheap shape features."""
    gy, gx = np.gradient(imgs, axis=(1, 2))
    mag, ang = np.hypot(gx, gy), np.mod(np.arctan2(gy, gx), np.pi)
    n, h, w = imgs.shape
    b = np.minimum((ang / np.pi * bins).astype(int), bins - 1)
    feats = []
    for i in range(cells):
        for j in range(cells):
            sl = (
                slice(None),
                slice(i * h // cells, (i + 1) * h // cells),
                slice(j * w // cells, (j + 1) * w // cells),
            )
            m, bb = mag[sl].reshape(n, -1), b[sl].reshape(n, -1)
            feats.append(np.stack([(m * (bb == k)).sum(axis=1) for k in range(bins)], axis=1))
    f = np.concatenate(feats, axis=1)
    return f / (np.linalg.norm(f, axis=1, keepdims=True) + 1e-6)


def image_features(df, cfg):
    """Downsampled pixels (and gradient histograms when cfg['hog']) of each row's image, as columns."""
    size = int(cfg.get("image_size", 16))
    imgs = image_array(df, size)
    X = imgs.reshape(len(imgs), -1)
    if cfg.get("hog"):
        cells, bins = min(int(cfg.get("hog_cells", 4)), size), int(cfg.get("hog_bins", 8))
        X = np.hstack([X, hog(imgs, cells, bins)])
    names = [f"px{i}" for i in range(size * size)] + [f"hog{i}" for i in range(X.shape[1] - size * size)]
    return pd.DataFrame(X.astype(np.float32), columns=names, index=df.index)


def image_matrix(train, test, cfg, y=None):
    """Pixel features of both frames (row-wise: nothing is fitted)."""
    return image_features(train, cfg).to_numpy(), image_features(test, cfg).to_numpy()


def prepare_frames(train, test):
    """Once, before the folds: image files to pixel columns, then the clean component (label-free), then
    infinite numbers to gaps (finite_values)."""
    if CFG.get("image_col") and CFG.get("image_col") in train.columns:
        train = pd.concat([train, image_features(train, CFG)], axis=1)
        test = pd.concat([test, image_features(test, CFG)], axis=1)
    train, test = clean(train.copy(), test.copy(), CFG)
    train, test = finite_values(train), finite_values(test)
    log(f"frames: train {train.shape}, test {test.shape}")
    return train, test


def finite_values(df):
    """+inf and -inf in number columns (a ratio divided by zero, written "inf" by pandas) as gaps: linear
    models and scalers refuse them, and a tree's split on them says nothing a gap does not. Targets are
    left as they are."""
    num = [c for c in df.columns if pd.api.types.is_float_dtype(df[c]) and c not in CFG["target"]]
    found = [c for c in num if np.isinf(df[c].to_numpy()).any()]
    if found:
        log(f"infinite values read as gaps in {found[:5]}{' ...' if len(found) > 5 else ''}")
        df[found] = df[found].replace([np.inf, -np.inf], np.nan)
    return df


REPRESENTATIONS = {
    "tree": tree_matrix,
    "native": native_matrix,
    "linear": linear_matrix,
    "dense": dense_matrix,
    "text": hashed_text_matrix,
    "text-compact": compact_text_matrix,
    "draft": lambda a, b, cfg, y=None: prepare(a, b, cfg),
}


def take(X, idx):
    return X.iloc[idx] if hasattr(X, "iloc") else X[idx]


class FoldData:
    """Per-fold model matrices, built on first use and kept: the feature hooks and every representation
    are fitted on the fold's training rows; its validation rows and the test rows are only transformed."""

    def __init__(self, train, test, splits):
        # A column the test file lacks can't be a feature; left in, it would reach the validation rows
        # (stacked onto the test rows below) and score them with what the test rows never have.
        only = [c for c in train.columns if c not in test.columns and c not in CFG["target"]]
        if only:
            log(f"columns only in the training file, not used: {only}")
        self.train, self.test, self.splits = train.drop(columns=only), test, splits
        self.frames, self.cache = {}, {}

    def fold_frames(self, k):
        if k not in self.frames:
            tr, va = self.splits[k]
            a = self.train.iloc[tr].reset_index(drop=True)
            rest = self.train.iloc[va].drop(columns=[c for c in CFG["target"] if c in self.train.columns])
            b = pd.concat([rest, self.test], ignore_index=True)
            for hook in FEATURE_HOOKS:
                a, b = hook(a, b, CFG)
            self.frames[k] = split_frames(a, b)
        return self.frames[k]

    def hashed(self, rep):
        """Hashed n-gram counts of every train then test row, computed once (text representations)."""
        if rep in ("text", "text-compact") and "_hashed" not in CFG:
            both = pd.concat([self.train, self.test], ignore_index=True)
            for key, cfg in (
                ("_hashed", CFG),
                ("_hashed_words", {**CFG, "char_ngrams": None, "word_ngrams": (1, 2)}),
            ):
                H = hashed_text(both, cfg)
                CFG[key] = H[
                    :, np.unique(H.indices)
                ].tocsr()  # drop hash buckets no row uses (a no-op for models)

    def matrices(self, k, rep, y_tr):
        """(X_train, X_valid, X_test, categorical column names) of fold k in representation `rep`."""
        if (k, rep) not in self.cache:
            a, b = self.fold_frames(k)
            self.hashed(rep)
            tr, va = self.splits[k]
            n = len(self.train)
            CFG["_rows"] = (tr, np.concatenate([va, n + np.arange(len(self.test))]))
            CFG["_categorical"] = []
            X, X_b = REPRESENTATIONS[rep](a, b, CFG, y_tr)
            if CFG.get("fillna"):  # repair: models that refuse NaN/inf get zeros
                if hasattr(X, "fillna"):
                    X, X_b = (d.replace([np.inf, -np.inf], np.nan).fillna(0) for d in (X, X_b))
                elif isinstance(X, np.ndarray):
                    X, X_b = np.nan_to_num(X, posinf=0, neginf=0), np.nan_to_num(X_b, posinf=0, neginf=0)
            n_va = len(self.splits[k][1])
            idx_va, idx_te = np.arange(n_va), np.arange(n_va, X_b.shape[0])
            self.cache[(k, rep)] = (X, take(X_b, idx_va), take(X_b, idx_te), list(CFG["_categorical"]))
            if k == 0:
                log(f"representation {rep}: {X.shape[1]} columns")
        return self.cache[(k, rep)]


# %% model
def kfold(y, cfg, k, repeats=1):
    """Stratified K-fold for classes, plain shuffled K-fold otherwise, seeded by cfg['fold_seed'] (the same
    folds for every node of a run, so their scores compare on equal terms); `repeats` reshuffles, as many
    times more in a final refit that bags (refit_bags)."""
    from sklearn.model_selection import KFold, StratifiedKFold

    k = min(int(k), 3) if cfg.get("light") else int(k)
    seed = int(cfg.get("fold_seed", cfg["seed"]))
    keys = cfg.get("_fold_keys")
    shape = (cfg.get("split") or {}).get("kind") if keys is not None and len(keys) == len(y) else None
    out = []
    n_rep = 1 if cfg.get("light") else int(repeats) * refit_bags()
    for r in range(n_rep):
        if shape == "time":
            out += time_blocks(keys, k, r / n_rep)
        elif shape == "group" and len(set(keys)) >= k:
            out += group_folds(keys, y, k, seed + r, cfg["problem"] in ("binary", "multiclass"))
        elif cfg["problem"] in ("binary", "multiclass") and np.bincount(y).min() >= k:
            splitter = StratifiedKFold(k, shuffle=True, random_state=seed + r)
            out += list(splitter.split(np.zeros(len(y)), y))
        else:
            out += list(KFold(k, shuffle=True, random_state=seed + r).split(np.zeros(len(y))))
    return out


def time_blocks(keys, k, shift=0.0):
    """K folds of consecutive times: rows sorted by time cut into K blocks, each validated by the others;
    `shift` (a share of one block) moves the cuts for a repeat (the last block then wraps to the first rows).
    Every row gets an out-of-fold prediction, and a row's near neighbours in time fall mostly in its own block."""
    order = np.argsort(np.asarray(keys), kind="stable")
    order = np.roll(order, -int(round(shift * len(order) / k)))
    out = []
    for block in np.array_split(order, k):
        mask = np.zeros(len(order), bool)
        mask[block] = True
        out.append((np.flatnonzero(~mask), np.flatnonzero(mask)))
    return out


def group_folds(keys, y, k, seed, stratify):
    """K folds that keep every group whole: class-stratified when the target is classes, otherwise the
    groups, in a seeded order, each go to the fold holding the fewest rows so far."""
    from sklearn.model_selection import StratifiedGroupKFold

    keys = np.asarray(keys)
    if stratify:
        splitter = StratifiedGroupKFold(k, shuffle=True, random_state=seed)
        return list(splitter.split(np.zeros(len(y)), y, keys))
    groups, inverse, sizes = np.unique(keys, return_inverse=True, return_counts=True)
    fold_of = np.zeros(len(groups), int)
    load = np.zeros(k)
    for g in np.random.RandomState(seed).permutation(len(groups)):
        fold_of[g] = int(np.argmin(load))
        load[fold_of[g]] += sizes[g]
    row_fold = fold_of[inverse]
    return [(np.flatnonzero(row_fold != f), np.flatnonzero(row_fold == f)) for f in range(k)]


def folds(y):
    """One partition of the run's validation folds (for hooks that cross-validate something of their own)."""
    return first_partition(make_folds(y, CFG), len(y))


def class_proba(model, X):
    """predict_proba spread over all classes (a fold may miss a rare one); binary -> P(positive)."""
    p = np.asarray(model.predict_proba(X))
    out = np.zeros((p.shape[0], int(CFG["n_classes"])))
    out[:, np.asarray(model.classes_, dtype=int)] = p
    return out[:, 1] if CFG["problem"] == "binary" else out


def lgbm_threads(cfg):
    """OpenMP threads for LightGBM: one on small data, where extra threads mostly wait on each other."""
    return int(cfg.get("threads", 2)) if cfg.get("n_rows", 0) >= 20000 else 1


def min_patience(n_rows):
    """Early-stopping patience floor: generous on small data, where validation curves are noisy."""
    return 300 if n_rows <= 10000 else (150 if n_rows <= 100000 else 50)


def member(name, fit, rep, params, family="gbdt"):
    """One model of the portfolio: how to fit it and which representation of the data it needs."""
    return {"name": name, "fit": fit, "rep": rep, "params": dict(params), "family": family}


# Shapes of tree the `tune` option tries besides the member's own, from strongly regularised to
# high-capacity (leaves, rows per leaf, column and row sampling, L1/L2 penalties).
LGBM_SHAPES = (
    {"num_leaves": 15, "min_data_in_leaf": 30, "lambda_l2": 5.0, "feature_fraction": 0.6},
    {"num_leaves": 7, "min_data_in_leaf": 50, "lambda_l2": 10.0, "feature_fraction": 0.5},
    {"num_leaves": 4, "min_data_in_leaf": 20},
    {"num_leaves": 31, "min_data_in_leaf": 100, "lambda_l2": 1.0},
    {"num_leaves": 31, "bagging_fraction": 0.7, "bagging_freq": 1, "feature_fraction": 0.7, "lambda_l1": 1.0},
    {"num_leaves": 63, "min_data_in_leaf": 10, "feature_fraction": 0.8},
    {"num_leaves": 127, "min_data_in_leaf": 3, "feature_fraction": 0.9},
)


def _lgbm_params(p, cfg):
    """LightGBM's objective for the task's problem (a regression objective set by a hook is kept), quiet,
    seeded, with the thread count for the data's size."""
    if cfg["problem"] == "regression":
        p.setdefault("objective", "regression")
    elif cfg["problem"] == "binary":
        p["objective"] = "binary"
    else:
        p.update(objective="multiclass", num_class=int(cfg["n_classes"]))
    p.update(verbose=-1, seed=int(cfg["seed"]), num_threads=lgbm_threads(cfg))
    return p


def _lgbm_categoricals(X, cfg):
    """The fold's categorical columns that this matrix holds by name (none for an array)."""
    return [c for c in cfg.get("_fold_categorical", []) if hasattr(X, "columns") and c in X.columns]


def search_stop(cfg):
    """When a setting search inside a fold (tree shape, linear strength) stops trying more: half the fold's
    time left, so the chosen setting still has the rest to train; None when the fold has no deadline."""
    deadline = cfg.get("fold_deadline")
    start = time.time()
    return None if deadline is None else start + 0.5 * max(0.0, deadline - start)


def inner_strata(y_tr, cfg):
    """Labels to stratify a setting search's inner split by (None for numbers, or a class with one row):
    a quarter drawn without it can miss a class, and some metrics cannot score such a quarter."""
    if cfg["problem"] == "regression":
        return None
    counts = np.bincount(y_tr)
    return y_tr if counts[counts > 0].min() >= 2 else None


def tune_lgbm(X_tr, y_tr, params, cfg, weight=None):
    """The member's params with the tree shape (LGBM_SHAPES, or its own) that reaches the lowest loss on an
    inner quarter of the fold's training rows; the validation rows of the fold are never seen, so the
    out-of-fold score stays honest. Each shape is fitted at learning rate 0.1 with patience 50 (the ranking
    needs the shape, not the last rounds), and the search stops at half the fold's time share."""
    import lightgbm as lgb
    from sklearn.model_selection import train_test_split

    idx_a, idx_b = train_test_split(
        np.arange(len(y_tr)), test_size=0.25, random_state=int(cfg["seed"]), stratify=inner_strata(y_tr, cfg)
    )
    a, b = take(X_tr, idx_a), take(X_tr, idx_b)
    wa = None if weight is None else weight[idx_a]
    stop_at = search_stop(cfg)
    cats = _lgbm_categoricals(X_tr, cfg)
    best, best_loss = {}, None

    def cut(env):
        # a shape still improving at the search's stop is ranked by its loss so far: on a big table one
        # shape's 2,000 rounds can take the whole fold's share
        if stop_at is not None and env.iteration > 10 and time.time() > stop_at:
            raise lgb.callback.EarlyStopException(env.iteration, env.evaluation_result_list)

    for shape in ({}, *LGBM_SHAPES):
        if stop_at is not None and time.time() > stop_at and best_loss is not None:
            break
        p = _lgbm_params(
            {**params, **shape, "learning_rate": max(0.1, params.get("learning_rate", 0.05))}, cfg
        )
        train_set = lgb.Dataset(a, y_tr[idx_a], weight=wa, categorical_feature=cats or "auto")
        valid_set = lgb.Dataset(b, y_tr[idx_b], reference=train_set)
        booster = lgb.train(p, train_set, 2000, valid_sets=[valid_set],
                            callbacks=[lgb.early_stopping(50, verbose=False), cut])  # fmt: skip
        loss = next(iter(booster.best_score["valid_0"].values()))
        if best_loss is None or loss < best_loss:
            best, best_loss = shape, loss
    cfg["_tuned"] = dict(best)
    log(f"lightgbm tree shape chosen on the fold's inner split: {best or 'its own'}")
    return {**params, **best}


class PredictCost:
    """Seconds a booster of n trees will take to predict the fold's validation and test rows. Thousands of
    rounds on a big table take seconds to predict, and a fold that trains to its deadline and only then
    predicts leaves the next folds less than their share (a 120,000-row table once reached 5,990, 2,631
    and 138 rounds in its three folds; the last fold's model was far from the others). Measured on up to
    2,000 test rows each time the tree count doubles, so the fixed cost of a call fades as the count grows."""

    def __init__(self, X, n_rows):
        self.sample, self.n_rows = take(X, np.arange(min(2000, X.shape[0]))), n_rows
        self.per, self.next = 0.0, 32

    def __call__(self, booster, n_trees):
        if n_trees >= self.next and self.sample.shape[0]:
            t = time.time()
            booster.predict(self.sample, num_iteration=n_trees)
            self.per, self.next = (time.time() - t) / (n_trees * self.sample.shape[0]), 2 * n_trees
        return self.per * n_trees * self.n_rows


def fit_lgbm(X_tr, y_tr, X_va, y_va, X_te, params, cfg):
    """LightGBM with early stopping on the objective's own (smooth) loss, patience that grows with the best
    round (max(floor, 0.3 * best + 20)), and a stop when what is left of the fold's time share would not
    also cover predicting the rounds so far (`PredictCost`). With 'tune', the tree shape is first chosen on
    the fold's training rows (`tune_lgbm`)."""
    import lightgbm as lgb

    p = dict(params)
    tune = p.pop("tune", False)
    rounds = int(p.pop("n_estimators", 10000))
    weight = None
    if p.pop("class_weight", None) == "balanced" and cfg["problem"] != "regression":
        counts = np.bincount(y_tr, minlength=int(cfg["n_classes"]))
        weight = (len(y_tr) / (len(counts) * np.maximum(counts, 1)))[y_tr]
    if tune:
        p = tune_lgbm(X_tr, y_tr, p, cfg, weight)
    p = _lgbm_params(p, cfg)
    floor, deadline = min_patience(len(y_tr)), cfg.get("fold_deadline")
    state = {"best": None, "it": 0}
    predict_cost = PredictCost(X_te, X_va.shape[0] + X_te.shape[0])

    def stopper(env):
        loss = env.evaluation_result_list[0][2]
        if state["best"] is None or loss < state["best"]:
            state["best"], state["it"] = loss, env.iteration
        patience = max(floor, 0.3 * state["it"] + 20)
        late = (
            deadline is not None
            and env.iteration > 10
            and time.time() + predict_cost(env.model, env.iteration + 1) > deadline
        )
        if env.iteration - state["it"] > patience or late:
            raise lgb.callback.EarlyStopException(state["it"], [env.evaluation_result_list[0]])

    cats = _lgbm_categoricals(X_tr, cfg)
    train_set = lgb.Dataset(
        X_tr, y_tr, weight=weight, categorical_feature=cats or "auto", free_raw_data=False
    )
    valid_set = lgb.Dataset(X_va, y_va, reference=train_set)
    booster = lgb.train(p, train_set, rounds, valid_sets=[valid_set], callbacks=[stopper])
    best = booster.best_iteration or state["it"] + 1
    cfg["_rounds"] = best
    return booster.predict(X_va, num_iteration=best), booster.predict(X_te, num_iteration=best)


def fit_catboost(X_tr, y_tr, X_va, y_va, X_te, params, cfg):
    """CatBoost on native categoricals (missing as its own level), early stopping on its loss with the same
    adaptive patience, stopped when the fold's time share is spent."""
    from catboost import CatBoostClassifier, CatBoostRegressor, Pool

    p = dict(params)
    weight = p.pop("class_weight", None)
    floor, deadline = min_patience(len(y_tr)), cfg.get("fold_deadline")
    cats = list(cfg.get("_fold_categorical", []))

    class Stop:
        def __init__(self):
            self.best, self.it = None, 0

        def after_iteration(self, info):
            losses = next(iter(info.metrics.get("validation", {}).values()), None)
            if losses:
                if self.best is None or losses[-1] < self.best:
                    self.best, self.it = losses[-1], info.iteration
                if info.iteration - self.it > max(floor, 0.3 * self.it + 20):
                    return False
            return deadline is None or time.time() < deadline or info.iteration < 10

    common = dict(iterations=int(p.pop("n_estimators", 10000)), random_seed=int(cfg["seed"]),
                  thread_count=int(cfg.get("threads", 2)), verbose=False, allow_writing_files=False, **p)  # fmt: skip
    if cfg["problem"] == "regression":
        model = CatBoostRegressor(**common)
    else:
        if weight == "balanced":
            common["auto_class_weights"] = "Balanced"
        loss = "Logloss" if cfg["problem"] == "binary" else "MultiClass"
        model = CatBoostClassifier(loss_function=loss, **common)
    # CatBoost refuses an eval set holding a class its training rows lack (a rare class that stratified
    # folds could not spread): stop early on the validation rows of the classes it learns
    seen = np.ones(len(y_va), bool) if cfg["problem"] == "regression" else np.isin(y_va, np.unique(y_tr))
    if seen.any():
        model.fit(Pool(X_tr, y_tr, cat_features=cats), callbacks=[Stop()], use_best_model=True,
                  eval_set=Pool(take(X_va, np.flatnonzero(seen)), np.asarray(y_va)[seen], cat_features=cats))  # fmt: skip
    else:
        model.fit(Pool(X_tr, y_tr, cat_features=cats), callbacks=[Stop()])
    te, va = Pool(X_te, cat_features=cats), Pool(X_va, cat_features=cats)
    if cfg["problem"] == "regression":
        return model.predict(va), model.predict(te)
    return class_proba(model, va), class_proba(model, te)


def fit_forest(X_tr, y_tr, X_va, y_va, X_te, params, cfg):
    """Random forest or extra trees (params['kind']), grown while the fold's time lasts: batches of up to
    100 trees, each no bigger than the time left fits at the pace of the batches so far."""
    from sklearn.ensemble import (
        ExtraTreesClassifier,
        ExtraTreesRegressor,
        RandomForestClassifier,
        RandomForestRegressor,
    )

    p = dict(params)
    kind, total = p.pop("kind", "rf"), int(p.pop("n_estimators", 300))
    reg = cfg["problem"] == "regression"
    cls = {("rf", True): RandomForestRegressor, ("rf", False): RandomForestClassifier,
           ("et", True): ExtraTreesRegressor, ("et", False): ExtraTreesClassifier}[(kind, reg)]  # fmt: skip
    if reg:
        p.pop("class_weight", None)
    fill = (lambda X: X.fillna(-999)) if hasattr(X_tr, "fillna") else (lambda X: np.nan_to_num(X, nan=-999))
    X_tr, X_va, X_te = fill(X_tr), fill(X_va), fill(X_te)
    threads = max(1, int(cfg.get("threads", 2)))
    model = cls(n_estimators=0, warm_start=True, n_jobs=threads, random_state=int(cfg["seed"]), **p)
    # with a deadline, a first batch of one tree per thread, to time: 100 deep trees on a big table can take
    # many times the fold's share
    deadline = cfg.get("fold_deadline")
    step = 100 if deadline is None else threads
    while model.n_estimators < total:
        t, add = time.time(), min(step, total - model.n_estimators)
        model.n_estimators += add
        model.fit(X_tr, y_tr)
        if deadline is None:
            continue
        per_tree, left = (time.time() - t) / add, deadline - time.time()
        if left < per_tree:
            break
        step = int(min(100, max(1, 0.8 * left / per_tree)))  # what fits at this pace, with room to predict
    if reg:
        return model.predict(X_va), model.predict(X_te)
    return class_proba(model, X_va), class_proba(model, X_te)


def fit_linear(X_tr, y_tr, X_va, y_va, X_te, params, cfg):
    """L2 logistic regression (classes; liblinear for two) or ridge (numbers); 'tune' picks the strength on an
    inner split of the training rows, and like `tune_lgbm` stops walking its grid at half the fold's time
    share (the model's own strength is scored first, so there is always a choice)."""
    from scipy import sparse
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.multiclass import OneVsRestClassifier

    def make(strength):
        if cfg["problem"] == "regression":
            return Ridge(alpha=strength)
        # liblinear's coordinate descent converges in a few passes on wide sparse data (TF-IDF), where
        # lbfgs can take minutes: one binary model per class there (a 29-class table of 624 rows and 8,753
        # TF-IDF columns: 4 s against 41 s over five folds); dense columns keep the multinomial lbfgs
        kw = {"C": strength, "max_iter": 1000, "class_weight": params.get("class_weight")}
        if cfg["problem"] == "binary":
            return LogisticRegression(solver="liblinear", **kw)
        if sparse.issparse(X_tr):
            return OneVsRestClassifier(LogisticRegression(solver="liblinear", **kw))
        return LogisticRegression(solver="lbfgs", **kw)

    key, default = ("alpha", 3.0) if cfg["problem"] == "regression" else ("C", 1.0)
    strength = params.get(key, default)
    if params.get("tune"):
        from sklearn.model_selection import train_test_split

        a, b, ya, yb = train_test_split(
            X_tr, y_tr, test_size=0.25, random_state=cfg["seed"], stratify=inner_strata(y_tr, cfg)
        )
        factors = (1, 0.3, 3, 0.1, 10, 0.03)  # nearest the model's own first; ties go to the smaller
        grid = [strength * f for f in factors]
        stop_at = search_stop(cfg)
        scores = []
        for s in grid:
            if scores and stop_at is not None and time.time() > stop_at:
                break
            m = make(s).fit(a, ya)
            pred = m.predict(b) if cfg["problem"] == "regression" else class_proba(m, b)
            scores.append(metric_score(yb, log_error_floor(pred, yb)))
        sign = 1 if cfg["lower_is_better"] else -1
        strength = grid[min(range(len(scores)), key=lambda i: (sign * scores[i], factors[i]))]
        log(f"linear strength chosen on the fold's inner split: {key}={strength:g} ({len(scores)} tried)")
    model = make(strength).fit(X_tr, y_tr)
    if cfg["problem"] == "regression":
        return model.predict(X_va), model.predict(X_te)
    return class_proba(model, X_va), class_proba(model, X_te)


def fit_svm(X_tr, y_tr, X_va, y_va, X_te, params, cfg):
    """RBF support vector machine (Platt-scaled probabilities for classes)."""
    from sklearn.svm import SVC, SVR

    if cfg["problem"] == "regression":
        model = SVR(C=params.get("C", 10.0)).fit(X_tr, y_tr)
        return model.predict(X_va), model.predict(X_te)
    model = SVC(C=params.get("C", 10.0), probability=True, random_state=cfg["seed"]).fit(X_tr, y_tr)
    return class_proba(model, X_va), class_proba(model, X_te)


def _empty(n):
    return np.zeros((n, CFG["n_classes"])) if CFG["problem"] == "multiclass" else np.zeros(n)


def _member_params(m):
    params = dict(m["params"])
    for hook in PARAM_HOOKS:
        params = hook(params, {**CFG, "family": m["family"], "member": m["name"]})
    return params


MEMBER_SHARE = 0.5  # the most of the time left one portfolio member may use, unless it is the last


def run_portfolio(data, y, y_fit, n_test, reserve):
    """Fit the model component's members in order, each on every fold, while the time allowance lasts.

    A member is skipped when less than `reserve` plus a minimal share is left; a member before the last gets
    at most MEMBER_SHARE of the time left; each fold gets an equal share of the member's time as a deadline
    its training loop honours (boosters stop adding rounds, forests trees), and a member whose remaining
    folds are projected to need more than twice its time is dropped.
    The first member always completes, so a valid submission is always written: with repeated K-fold it
    stops after the first K folds (every row predicted once) when the repeats are projected not to fit
    (a refine to repeated folds started with 8 s left timed out on its first model, 5 of 15 folds done)."""
    splits, done, errors = data.splits, [], []
    n_first = len(first_partition(splits, len(y)))
    members = models(CFG)[: 2 if CFG.get("light") else None]
    if (names := refit_members()) and (kept := [m for m in members if m["name"] in names]):
        skipped = [m["name"] for m in members if m["name"] not in names]
        log(f"refit: fitting {', '.join(m['name'] for m in kept)}; not {', '.join(skipped) or 'others'} "
            "(no weight in the search-time ensemble)")  # fmt: skip
        members = kept
    for i, m in enumerate(members):
        left = time_left() - reserve
        if done and left < max(2.0, 0.03 * time_budget()):
            log(f"model {m['name']}: skipped ({left:.0f}s left before the ensemble reserve)")
            continue
        params, t0 = _member_params(m), time.time()
        # a member that is not the last may spend at most MEMBER_SHARE of what is left: one slow model
        # (CatBoost whose loss keeps creeping down on separable data) must not starve the cheaper families
        end = time.time() + left * (1.0 if i == len(members) - 1 else MEMBER_SHARE)
        oof, hits, test_pred = _empty(len(y)), np.zeros(len(y)), _empty(n_test)
        try:
            for k, (tr, va) in enumerate(splits):
                share = max(1.0, min(time_left() - reserve, end - time.time()) / (len(splits) - k))
                X_tr, X_va, X_te, cats = data.matrices(k, m["rep"], y_fit[tr])
                cfg = {**CFG, "fold_deadline": time.time() + share, "_fold_categorical": cats}
                p_va, p_te = m["fit"](X_tr, y_fit[tr], X_va, y_fit[va], X_te, params, cfg)
                oof[va] += np.asarray(p_va)
                hits[va] += 1
                test_pred += np.asarray(p_te) / len(splits)
                spent = time.time() - t0
                rest = spent / (k + 1) * (len(splits) - k - 1)  # projected seconds of the folds still to fit
                avail = time_left() - reserve
                if not done and k + 1 == n_first < len(splits) and rest > avail:
                    log(f"model {m['name']}: stopped after the first {n_first} folds (the repeats would need "
                        f"about {rest:.0f}s, {max(0.0, avail):.0f}s left)")  # fmt: skip
                    test_pred *= len(splits) / (k + 1)
                    break
                if done and k + 1 < len(splits) and rest > 2 * min(avail, end - time.time()):
                    raise TimeoutError(f"{len(splits) - k - 1} more folds would overrun the time allowance")
        except Exception as e:  # noqa: BLE001 - one failing member must not cost the others; logged
            log(f"model {m['name']}: dropped ({type(e).__name__}: {str(e)[:200]})")
            errors.append(e)
            continue
        oof = oof / np.maximum(hits, 1).reshape((-1,) + (1,) * (oof.ndim - 1))
        for hook in reversed(TARGET_HOOKS):
            oof, test_pred = hook(oof, CFG, inverse=True), hook(test_pred, CFG, inverse=True)
        score = metric_score(y, log_error_floor(oof, y))
        done.append(
            {"name": m["name"], "oof": oof, "test": test_pred, "score": score, "time": time.time() - t0}
        )
        log(f"model {m['name']}: {CFG['metric']} {score:.6f} in {time.time() - t0:.1f}s")
    if not done:
        raise errors[0] if errors else RuntimeError("the model component defined no models")
    return done


def first_partition(splits, n):
    """The first K folds that cover every row once (repeated K-fold lists several partitions)."""
    seen, out = np.zeros(n, dtype=bool), []
    for tr, va in splits:
        if seen[va].any():
            break
        seen[va] = True
        out.append((tr, va))
    return out


def cross_fit(fit, apply, preds, y, splits):
    """Fit a post-hoc step (ensemble weights, a threshold, a clip range) on the out-of-fold predictions of
    the other folds and apply it to each fold; then fit it on all rows for the test predictions. The
    out-of-fold result is what the step would score on rows it never saw."""
    parts = first_partition(splits, len(y))
    out = None
    for tr, va in parts:
        fitted = fit([p[tr] for p in preds], y[tr])
        res = np.asarray(apply(fitted, [p[va] for p in preds]))
        out = np.zeros((len(y),) + res.shape[1:]) if out is None else out
        out[va] = res
    return out, fit(preds, y)


def _auc(y, p):
    """Binary ROC AUC from ranks (ties share their average rank), as sklearn computes it."""
    _, inverse, counts = np.unique(np.asarray(p), return_inverse=True, return_counts=True)
    ranks = (np.cumsum(counts) - (counts - 1) / 2.0)[inverse]
    pos = np.asarray(y) == 1
    n_pos = pos.sum()
    return (ranks[pos].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * (len(pos) - n_pos))


def fast_score(y, pred):
    """The task metric for the many evaluations of ensemble selection and threshold search: plain numpy for
    the common metrics (same values as metric_score), metric_score for the rest."""
    name, problem, pred = CFG["metric"], CFG["problem"], np.asarray(pred)
    if CFG.get("metric_params") and set(CFG["metric_params"]) - {"pos_label"}:
        return metric_score(y, pred)
    if name == "roc_auc" and problem == "binary" and pred.ndim == 1 and len(np.unique(y)) == 2:
        return float(_auc(y, pred))
    if name == "accuracy" and problem in ("binary", "multiclass"):
        labels = (pred > CFG.get("threshold", 0.5)).astype(int) if pred.ndim == 1 else pred.argmax(axis=1)
        return float(np.mean(labels == np.asarray(y)))
    if name == "log_loss" and problem in ("binary", "multiclass"):
        p = np.clip(pred, 1e-15, 1 - 1e-15)
        if p.ndim == 1:
            p = np.stack([1 - p, p], axis=1)
        p = p / p.sum(axis=1, keepdims=True)
        return float(-np.mean(np.log(p[np.arange(len(y)), np.asarray(y, dtype=int)])))
    if name in CONFUSION_METRICS and problem == "multiclass" and pred.ndim == 2:
        return _confusion_score(name, np.asarray(y, dtype=int), pred.argmax(axis=1), pred.shape[1])
    if CFG["kind"] == "ranking" and problem in ("binary", "multiclass"):  # one true label per row
        p = np.stack([1 - pred, pred], axis=1) if pred.ndim == 1 else pred
        k = int(metric_params().get("k", 5))
        hits = top_classes(p, k) == np.asarray(y, dtype=int)[:, None]
        rank = np.arange(1, hits.shape[1] + 1)
        gain = 1 / np.log2(rank + 1) if str(name).startswith("ndcg") else 1 / rank  # NDCG@k or MAP@k
        return float((hits * gain).sum(axis=1).mean())
    if problem == "regression" and pred.ndim == 1:
        err = np.asarray(y, dtype=float) - pred
        if name in ("rmse", "mse"):
            mse = float(np.mean(err**2))
            return mse if name == "mse" else float(np.sqrt(mse))
        if name == "mae":
            return float(np.mean(np.abs(err)))
        if name == "rmsle" and float(np.min(pred)) > -1:  # as the grader computes it (no clipping here)
            d = np.log1p(np.asarray(y, dtype=float)) - np.log1p(pred)
            return float(np.sqrt(np.mean(d**2)))
    return metric_score(y, pred)


CONFUSION_METRICS = ("balanced_accuracy", "f1_macro", "f1_weighted")


def _confusion_score(name, y, labels, k):
    """Balanced accuracy or macro/weighted F1 of class indices from their confusion counts, as scikit-learn
    computes them (recall over the classes present; F1 over the classes present or predicted, 0 where it is
    undefined): the class-scale search scores thousands of candidates."""
    counts = np.bincount(y * k + labels, minlength=k * k).reshape(k, k).astype(float)
    hits, support, predicted = np.diag(counts), counts.sum(axis=1), counts.sum(axis=0)
    if name == "balanced_accuracy":
        return float(np.mean(hits[support > 0] / support[support > 0]))
    both = support + predicted
    f1 = np.where(both > 0, 2 * hits / np.maximum(both, 1), 0.0)
    if name == "f1_macro":
        return float(f1[both > 0].mean())
    return float((f1 * support).sum() / support.sum())


def _direction(scores):
    return min(scores) if CFG["lower_is_better"] else max(scores)


def caruana_weights(preds, y, steps=25):
    """Greedy forward selection with replacement (Caruana et al.): add, `steps` times, the prediction that
    makes the running average score best; keep the best prefix. Returns weights summing to 1."""
    if len(preds) == 1:
        return np.ones(1)
    counts, total, history = np.zeros(len(preds)), None, []
    for _ in range(steps):
        trial = [fast_score(y, (p if total is None else total + p) / (counts.sum() + 1)) for p in preds]
        j = trial.index(_direction(trial))
        counts[j] += 1
        total = preds[j] if total is None else total + preds[j]
        history.append((trial[j], counts.copy()))
    best = _direction([s for s, _ in history])
    chosen = next(c for s, c in history if s == best)
    return chosen / chosen.sum()


def blend(weights, preds):
    return sum(w * p for w, p in zip(weights, preds, strict=True) if w)


def score_cost(y, pred):
    """Seconds one fast_score call takes on these rows (for planning the ensemble's time)."""
    t0 = time.time()
    for _ in range(3):
        fast_score(y, pred)
    return (time.time() - t0) / 3


def caruana(members, y, splits, cfg, steps=25):
    """Ensemble selection over the members' out-of-fold predictions, cross-fitted for the reported score.
    Fewer selection steps when the time left cannot pay for 25 (logged)."""
    preds = [m["oof"] for m in members]
    runs = len(first_partition(splits, len(y))) + 1
    left = time_left()
    per_step = max(1e-6, score_cost(y, preds[0]) * len(preds) * runs)
    affordable = steps  # no allowance set (a script run by hand): all the steps
    if np.isfinite(left):
        affordable = int(max(left - 1.0, 2.0) / per_step)  # the ensemble always gets a couple of seconds
    if affordable < steps:
        log(f"ensemble: {max(1, affordable)} selection steps instead of {steps} (time)")
        steps = max(1, affordable)
    oof, weights = cross_fit(lambda P, t: caruana_weights(P, t, steps), blend, preds, y, splits)
    note_weights(members, weights)
    log(
        "ensemble weights "
        + ", ".join(f"{m['name']} {w:.2f}" for m, w in zip(members, weights, strict=True) if w)
    )
    return oof, blend(weights, [m["test"] for m in members])


def note_weights(members, weights):
    """Keep the weights the test predictions are blended with (fitted on all rows), by member name, for
    members.json: the final refit fits only the members they use (refit_members)."""
    CFG["_weights"] = {m["name"]: float(w) for m, w in zip(members, weights, strict=True)}


def best_member(members, y, splits, cfg):
    """The single member with the best out-of-fold score (chosen per fold on the others when cross-fitted)."""
    preds = [m["oof"] for m in members]

    def pick(P, t):
        scores = [fast_score(t, p) for p in P]
        return np.eye(len(P))[scores.index(_direction(scores))]

    oof, weights = cross_fit(pick, blend, preds, y, splits)
    note_weights(members, weights)
    log(f"ensemble: best single model {members[int(np.argmax(weights))]['name']}")
    return oof, blend(weights, [m["test"] for m in members])


def _logit(p):
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return np.log(p / (1 - p))


def shift_to_threshold(p, t):
    """Move probabilities so that `t` lands on 0.5 (same order, labels at 0.5 = labels at t)."""
    return 1 / (1 + np.exp(-(_logit(np.asarray(p, dtype=float)) - _logit(t))))


def best_threshold(p, y):
    """The decision threshold on P(positive) that maximises the (label) metric on these rows."""
    grid = np.unique(np.quantile(p, np.linspace(0.02, 0.98, 97)))
    scores = [fast_score(y, shift_to_threshold(p, t)) for t in grid]
    return float(grid[scores.index(_direction(scores))]) if len(grid) else 0.5


def tune_threshold(oof, test_pred, y, splits, cfg):
    """Decision threshold for a label metric, cross-fitted on the out-of-fold probabilities; kept only when
    the cross-fitted score beats 0.5 (for accuracy on calibrated probabilities 0.5 is already optimal, and a
    tuned threshold would only add noise)."""
    if cfg["problem"] != "binary" or cfg["kind"] != "label" or np.ndim(oof) != 1 or len(y) < 50:
        return oof, test_pred
    new_oof, t = cross_fit(lambda P, yy: best_threshold(P[0], yy), lambda t, P: shift_to_threshold(P[0], t),
                           [oof], y, splits)  # fmt: skip
    if not better(fast_score(y, new_oof), fast_score(y, oof)):
        log(f"threshold: kept 0.5 (a tuned one, {t:.3f}, does not help out of fold)")
        return oof, test_pred
    log(f"threshold {t:.3f} (was 0.5)")
    return new_oof, shift_to_threshold(test_pred, t)


CLASS_SCALE_GRID = np.exp(np.linspace(-2.0, 2.0, 17))  # per-class factors tried, about 0.14 to 7.4
CLASS_SCALE_MAX = 20  # more classes: only the inverse class shares are tried (each pass costs K * 17 scores)
CLASS_SCALE_ROWS = 20_000  # the factors are fitted on at most this many rows (a seeded share)


def best_class_scales(P, y):
    """Per-class factors on the probabilities whose argmax maximises the (label) metric on these rows: the
    better of none and the inverse class shares (the rule that maximises balanced accuracy for calibrated
    probabilities), then two passes of one class at a time over CLASS_SCALE_GRID."""
    k = P.shape[1]
    if len(y) > CLASS_SCALE_ROWS:  # a seeded share of the rows: the factors need not see every one
        keep = np.sort(np.random.default_rng(0).choice(len(y), CLASS_SCALE_ROWS, replace=False))
        P, y = P[keep], np.asarray(y)[keep]
    share = np.bincount(np.asarray(y, dtype=int), minlength=k) / max(len(y), 1)
    candidates = [np.ones(k), 1.0 / np.maximum(share, 1.0 / max(len(y), 1))]
    scores = [fast_score(y, P * w) for w in candidates]
    w = candidates[scores.index(_direction(scores))].copy()
    best = fast_score(y, P * w)
    if k > CLASS_SCALE_MAX:
        return w
    for _ in range(2):
        for c in range(k):
            base = w[c]
            for f in CLASS_SCALE_GRID:
                w[c] = base * f
                score = fast_score(y, P * w)
                if better(score, best):
                    best, base = score, w[c]
            w[c] = base
    return w


def scale_classes(P, w):
    Q = np.asarray(P, dtype=float) * w
    return Q / np.maximum(Q.sum(axis=1, keepdims=True), 1e-300)


def tune_class_scales(oof, test_pred, y, splits, cfg):
    """Per-class factors on the probabilities for a label metric over several classes (balanced accuracy,
    macro F1: the most probable class under-predicts the rare ones), cross-fitted on the out-of-fold
    probabilities; kept only when the cross-fitted score beats the plain argmax (for accuracy on calibrated
    probabilities the argmax is already optimal). What tune_threshold is for two classes."""
    if (cfg["problem"] != "multiclass" or cfg["kind"] != "label" or np.ndim(oof) != 2 or len(y) < 50
            or cfg["metric"] == "quadratic_weighted_kappa"):  # fmt: skip
        return oof, test_pred
    new_oof, w = cross_fit(lambda P, yy: best_class_scales(P[0], yy), lambda w, P: scale_classes(P[0], w),
                           [oof], y, splits)  # fmt: skip
    if not better(fast_score(y, new_oof), fast_score(y, oof)):
        log("class scales: kept the most probable class (tuned scales do not help out of fold)")
        return oof, test_pred
    log("class scales " + ", ".join(f"{v:.2f}" for v in w) + " (was the most probable class)")
    return new_oof, scale_classes(test_pred, w)


PRIOR_POWERS = (0.0, 0.25, 0.5, 0.75, 1.0)  # how far the probabilities move toward equal class priors


def _balanced(P, share, power):
    """Each class's probability divided by its share to `power`, renormalised (class scales of share^-power)."""
    return scale_classes(P, np.maximum(share, 1e-12) ** -power)


def _best_prior_power(P, y, k, back):
    share = np.bincount(np.asarray(y, dtype=int), minlength=k) / max(len(y), 1)
    scores = [fast_score(y, back(_balanced(P, share, a))) for a in PRIOR_POWERS]
    return share, PRIOR_POWERS[scores.index(_direction(scores))]


def balance_priors(oof, test_pred, y, splits, cfg):
    """Probabilities moved toward equal class priors for a log loss that weighs every class alike (ICR's
    balanced log loss): its best prediction is each class's probability divided by its share of the rows,
    renormalised. How far (PRIOR_POWERS, 1 = all the way) is chosen on the out-of-fold rows, cross-fitted,
    and kept only when it beats the probabilities as they are: boosters on few rows are not calibrated."""
    if cfg["metric"] != "balanced_log_loss" or cfg["problem"] not in ("binary", "multiclass") or len(y) < 50:
        return oof, test_pred
    flat = np.ndim(oof) == 1
    wide = (lambda p: np.stack([1 - p, p], axis=1)) if flat else (lambda p: np.asarray(p, dtype=float))
    back = (lambda q: q[:, 1]) if flat else (lambda q: q)
    k = wide(oof).shape[1]
    new_oof, (share, power) = cross_fit(lambda P, yy: _best_prior_power(P[0], yy, k, back),
                                        lambda f, P: _balanced(P[0], *f), [wide(oof)], y, splits)  # fmt: skip
    if power == 0.0 or not better(fast_score(y, back(new_oof)), fast_score(y, oof)):
        log("class priors: kept the probabilities as they are (balancing does not help out of fold)")
        return oof, test_pred
    log(f"class priors: probabilities divided by the class shares to the power {power} (balanced log loss)")
    return back(new_oof), back(_balanced(wide(test_pred), share, power))


def _qwk(y, labels, k):
    """Quadratic weighted kappa of class indices (the grader's value for labels in sorted order), numpy only:
    the cut-point search scores hundreds of candidates."""
    observed = np.bincount(y * k + labels, minlength=k * k).reshape(k, k).astype(float)
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / max(observed.sum(), 1.0)
    i, j = np.indices((k, k))
    w = (i - j) ** 2
    denom = (w * expected).sum()
    return 1.0 - (w * observed).sum() / denom if denom > 0 else 0.0


GRADE_ROWS = 30000  # the most rows a cut-point search scores: its cost grows with rows x grades


def grade_cuts(e, y, k, passes=3):
    """Cut points on the expected grade `e` that maximise QWK on these rows (coordinate search from the
    midpoints between grades, each cut moved within its neighbours). Above GRADE_ROWS rows a seeded sample
    is searched: about 0.6 s per 20,000 rows with 11 grades, and a fold's cuts are fitted once per fold."""
    if len(e) > GRADE_ROWS:
        pick = np.random.default_rng(0).choice(len(e), GRADE_ROWS, replace=False)
        e, y = np.asarray(e)[pick], np.asarray(y)[pick]
    cuts = np.arange(k - 1) + 0.5
    for _ in range(passes):
        for i in range(k - 1):
            lo = cuts[i - 1] if i else -0.5
            hi = cuts[i + 1] if i < k - 2 else k - 0.5
            grid = np.linspace(lo, hi, 33)[1:-1]
            scores = [_qwk(y, np.searchsorted(np.r_[cuts[:i], c, cuts[i + 1 :]], e), k) for c in grid]
            cuts[i] = grid[int(np.argmax(scores))]
    return cuts


def graded_scores(e, cuts, k):
    """A row-normalised class matrix whose argmax is the grade the cuts give `e` (a soft vote that later
    blends can average): each class scores how far `e` lies inside its interval."""
    lo = np.r_[-np.inf, cuts][None, :]
    hi = np.r_[cuts, np.inf][None, :]
    inside = np.minimum(e[:, None] - lo, hi - e[:, None])
    z = np.exp(4.0 * (inside - inside.max(axis=1, keepdims=True)))
    return z / z.sum(axis=1, keepdims=True)


def decode_grades(oof, test_pred, y, splits, cfg):
    """Ordered grades scored by quadratic weighted kappa: predict the expected grade from the class
    probabilities and cut it at points tuned for QWK (cross-fitted on the out-of-fold rows), instead of the
    most probable class, which ignores that a near miss costs less than a far one; kept only when it helps
    out of fold."""
    k = int(cfg.get("n_classes") or 0)
    if not ordered_grades(cfg) or np.ndim(oof) != 2 or len(y) < 50:
        return oof, test_pred
    grades = np.arange(k, dtype=float)
    new_oof, cuts = cross_fit(lambda P, yy: grade_cuts(P[0] @ grades, yy, k),
                              lambda c, P: graded_scores(P[0] @ grades, c, k), [oof], y, splits)  # fmt: skip
    if not better(metric_score(y, new_oof), metric_score(y, oof)):
        log("grades: kept the most probable class (cut points on the expected grade do not help out of fold)")
        return oof, test_pred
    log("grades: expected grade cut at " + ", ".join(f"{c:.2f}" for c in cuts))
    return new_oof, graded_scores(np.asarray(test_pred) @ grades, cuts, k)


def ordered_grades(cfg):
    """Classes that are ordered grades scored by quadratic weighted kappa (three or more of them)."""
    return (
        cfg["problem"] == "multiclass"
        and cfg.get("metric") == "quadratic_weighted_kappa"
        and int(cfg.get("n_classes") or 0) >= 3
    )


def grade_matrix(e, k):
    """A predicted grade on the class scale as a class matrix whose expected grade is that prediction (its
    weight split between the two nearest grades), so a regressor on the grade blends with classifiers'
    probabilities and goes through the same cut points (`decode_grades`)."""
    e = np.clip(np.asarray(e, dtype=float), 0.0, k - 1.0)
    lo = np.minimum(np.floor(e).astype(int), k - 2)
    w, rows = e - lo, np.arange(len(e))
    out = np.zeros((len(e), k))
    out[rows, lo], out[rows, lo + 1] = 1.0 - w, w
    return out


def fit_grade_lgbm(X_tr, y_tr, X_va, y_va, X_te, params, cfg):
    """LightGBM regressing on the grade's index instead of classifying it: a squared loss on the grade
    charges a far miss more than a near one, as QWK does, where a classifier's loss treats all misses alike."""
    k = int(cfg["n_classes"])
    reg = {**cfg, "problem": "regression"}
    p_va, p_te = fit_lgbm(X_tr, y_tr.astype(float), X_va, y_va.astype(float), X_te, params, reg)
    return grade_matrix(p_va, k), grade_matrix(p_te, k)


def test_rows_later(cfg):
    """Whether the test rows come later than the training rows by a column (CFG['split'] of kind time, from
    the profile): a forecast, or larger values of a quantity than any seen, where a trend carries targets
    and features past the training range."""
    return (cfg.get("split") or {}).get("kind") == "time"


def clip_to_range(oof, test_pred, y, splits, cfg):
    """Clip regression predictions to the training target range (cross-fitted: each fold's range comes from
    the other folds); not when the test rows come later (test_rows_later): a trend's targets lie past it."""
    if cfg["problem"] != "regression":
        return oof, test_pred
    if test_rows_later(cfg):
        log("predictions not clipped to the training target range: the test rows come later, a trend may "
            "carry them past it")  # fmt: skip
        return oof, test_pred
    new_oof, r = cross_fit(
        lambda P, yy: (np.min(yy), np.max(yy)), lambda r, P: np.clip(P[0], *r), [oof], y, splits
    )
    return new_oof, np.clip(test_pred, *r)


def sibling_predictions(oof, test_pred, y):
    """This model's predictions plus those of earlier valid nodes with the same rows and target encoding."""
    pool = [(np.asarray(oof), np.asarray(test_pred))]
    for sib in CFG.get("siblings", []):
        d = next((Path(p) for p in sib.get("dirs", []) if (Path(p) / "oof.npy").is_file()), None)
        if d is None or not (d / "test_pred.npy").is_file() or not (d / "y.npy").is_file():
            continue
        o, t, ys = (
            np.load(d / "oof.npy"),
            np.load(d / "test_pred.npy"),
            np.load(d / "y.npy", allow_pickle=True),
        )
        if (
            o.shape == pool[0][0].shape
            and t.shape == pool[0][1].shape
            and ys.shape == np.shape(y)
            and np.all(ys == y)
        ):
            pool.append((o, t))
    log(f"ensemble pool: this model + {len(pool) - 1} earlier node(s)")
    return pool


def solve_1d(train, test, y):
    """Portfolio -> ensemble component -> ensemble hooks -> postprocess component and hooks."""
    splits = make_folds(y, CFG)
    y_fit = y.astype(float) if CFG["problem"] == "regression" else y
    for hook in TARGET_HOOKS:
        y_fit = hook(y_fit, CFG)
    data = FoldData(train, test, splits)
    # time kept for the ensemble and post-processing: 25 selection steps over the portfolio, each fold
    # timed on a constant prediction: equal class shares (a metric may insist on rows summing to one)
    k = CFG["n_classes"] if CFG["problem"] == "multiclass" else 0
    per_score = score_cost(y, np.full((len(y), k), 1.0 / k) if k else np.full(len(y), 0.5))
    reserve = 2.0 + per_score * 25 * min(len(models(CFG)), 7) * (len(first_partition(splits, len(y))) + 1)
    members = run_portfolio(data, y, y_fit, len(test), reserve)
    if len(members) == 1:
        note_weights(members, [1.0])
    oof, test_pred = (
        combine(members, y, splits, CFG) if len(members) > 1 else (members[0]["oof"], members[0]["test"])
    )
    CFG["_combined"] = metric_score(y, oof)  # before post-processing, as each member's score is
    if CFG["problem"] == "regression":
        CFG["y_range"] = (float(np.min(y)), float(np.max(y)))
    for hook in ENSEMBLE_HOOKS:
        oof, test_pred = hook(oof, test_pred, y, CFG)
    oof, test_pred = postprocess(oof, test_pred, y, splits, CFG)
    for hook in POST_HOOKS:
        oof, test_pred = hook(oof, CFG), hook(test_pred, CFG)
    oof, test_pred = clip_log_error(oof, test_pred, y)
    CFG["_members"] = CFG.get("_members", []) + members
    return oof, test_pred


LOG_ERROR_METRICS = ("rmsle", "msle", "mean_columnwise_rmsle")


def log_error_floor(pred, y):
    """Log errors reject predictions <= -1, and a non-negative target has no business below 0: `pred` clipped
    at 0 for them, so every score (a member's, an inner split's) sees what would be submitted."""
    if CFG["metric"] in LOG_ERROR_METRICS and float(np.min(y)) >= 0:
        return np.clip(pred, 0, None)
    return pred


def clip_log_error(oof, test_pred, y):
    """log_error_floor on the out-of-fold and the test predictions alike."""
    return log_error_floor(oof, y), log_error_floor(test_pred, y)


def cross_validate(train, test, y):
    """Out-of-fold and test predictions; several target columns are solved one at a time."""
    if np.ndim(y) == 1:
        return solve_1d(train, test, y)
    problem, outs = CFG["problem"], []
    CFG["problem"] = "binary" if problem == "multilabel" else "regression"
    if problem == "multilabel":
        CFG["classes"], CFG["n_classes"] = [0, 1], 2
    for j in range(y.shape[1]):
        outs.append(solve_1d(train, test, y[:, j].astype(int) if problem == "multilabel" else y[:, j]))
    CFG["problem"] = problem
    return np.stack([o[0] for o in outs], axis=1), np.stack([o[1] for o in outs], axis=1)


def report(y, oof, test_pred):
    """Print and save the validation score; keep the predictions (the ensemble's and each model's) for later
    blending/stacking nodes."""
    score = metric_score(y, oof)
    out = Path(CFG["out"])
    out.mkdir(parents=True, exist_ok=True)
    (out / "eval_metric.txt").write_text(f"{score:.6f}\n")
    np.save(out / "oof.npy", np.asarray(oof, dtype=np.float64))
    np.save(out / "test_pred.npy", np.asarray(test_pred, dtype=np.float64))
    np.save(out / "y.npy", np.asarray(y))
    members = CFG.get("_members", [])
    if members and np.ndim(y) == 1:
        np.savez_compressed(out / "members.npz", **{f"oof__{m['name']}": m["oof"] for m in members},
                            **{f"test__{m['name']}": m["test"] for m in members})  # fmt: skip
        # each model's own score beside the combination's, both before post-processing: a refine attempt
        # that would swap the portfolio for one of its own weaker members is known to lose before it runs
        scores = {"metric": CFG["metric"], "lower_is_better": CFG["lower_is_better"],
                  "combined": CFG.get("_combined"), "members": {m["name"]: m["score"] for m in members},
                  "seconds": {m["name"]: round(m["time"], 3) for m in members}}  # fmt: skip
        if CFG.get("_weights"):  # the ensemble component's weights; absent for one that does not say them
            scores["weights"] = CFG["_weights"]
        (out / "members.json").write_text(json.dumps(scores, indent=1) + "\n")
    print(f"Validation {CFG['metric']}: {score:.6f}")
    log(f"done in {time.time() - T0:.1f}s of a {time_budget():.0f}s allowance")
    return score


# %% submit
def class_columns(cols, proba, classes, n_labelled):
    """The sample submission's probability columns from the (n, K) probabilities of `classes`: by class
    name, or by position when no column is named after a class. A column named after no class, beside
    others that are, is a class the `n_labelled` training rows never show: it gets the add-one estimate of
    its share, 1 / (n_labelled + columns), and the known classes keep the rest (log loss punishes a zero
    without end)."""
    names = [str(c) for c in classes]
    known = [str(c) in names for c in cols]
    if not any(known):
        return {c: proba[:, j] for j, c in enumerate(cols)}
    unseen = [c for c, k in zip(cols, known, strict=True) if not k]
    share = 1.0 / (n_labelled + len(cols)) if unseen else 0.0
    kept = 1.0 - share * len(unseen)
    return {
        c: proba[:, names.index(str(c))] * kept if k else np.full(len(proba), share)
        for c, k in zip(cols, known, strict=True)
    }


def id_text(ids):
    """Ids as text, as automind's grader compares them (automind.grading.id_key): integral floats written as
    integers (1.0 is 1), no spaces around them (' A0123 ' from a fixed-width export is 'A0123')."""
    s = pd.Series(ids)
    if pd.api.types.is_float_dtype(s) and s.notna().all() and (s % 1 == 0).all():
        s = s.astype("int64")
    return s.astype(str).str.strip()


def id_order(test_ids, sample_ids):
    """Each sample id's row in the test file (NaN where none), ids compared as id_text writes them; when
    some do not meet and every id is digits, compared as numbers (a spreadsheet that saved the test file
    dropped the leading zeros of '000123')."""
    keys = [id_text(ids) for ids in (test_ids, sample_ids)]
    order = pd.Series(np.arange(len(keys[0])), index=keys[0].to_numpy()).reindex(keys[1].to_numpy())
    if order.isna().any() and all(k.str.fullmatch(r"\d{1,18}").all() for k in keys):
        numbers = [k.astype("int64").to_numpy() for k in keys]
        by_number = pd.Series(np.arange(len(numbers[0])), index=numbers[0]).reindex(numbers[1])
        if by_number.notna().sum() > order.notna().sum():
            log(f"test ids and the sample's meet as numbers only (e.g. {keys[0].iloc[0]!r} and "
                f"{keys[1].iloc[0]!r}: leading zeros dropped): matched so")  # fmt: skip
            return by_number
    return order


def write_submission(test, sample, test_pred):
    """Fill the sample submission's columns (in its row order) from the test predictions."""
    sub = sample.copy()
    id_col = CFG.get("id")
    if id_col and id_col in test.columns and id_col in sub.columns:
        order = id_order(test[id_col], sub[id_col])
        if order.isna().any():
            if len(test) != len(sub):
                raise ValueError(
                    f"{int(order.isna().sum())} sample-submission ids are missing from the test file"
                )
            order = pd.Series(np.arange(len(sub)))
        test_pred = np.asarray(test_pred)[order.to_numpy(dtype=int)]
    elif len(test) != len(sub):
        raise ValueError(f"test has {len(test)} rows but the sample submission has {len(sub)}")
    cols = [c for c in sub.columns if c != id_col]
    if CFG["kind"] == "ranking" and CFG["problem"] in ("binary", "multiclass"):
        sub[cols[0]] = to_ranking(test_pred)
    elif CFG["kind"] == "label":
        values = to_labels(test_pred)
        if np.ndim(values) == 1:
            sub[cols[0]] = values
        else:
            for j, c in enumerate(cols):
                sub[c] = values[:, j]
    elif CFG["problem"] in ("binary", "multiclass") and len(cols) > 1:
        proba = np.stack([1 - test_pred, test_pred], axis=1) if np.ndim(test_pred) == 1 else test_pred
        unseen = [c for c in cols if str(c) not in {str(k) for k in CFG["classes"]}]
        if unseen and len(unseen) < len(cols):
            log(f"sample columns {unseen} name no class of the training rows: each gets an add-one share")
        for c, p in class_columns(cols, proba, CFG["classes"], CFG.get("n_labelled", 0)).items():
            sub[c] = p
    elif CFG["problem"] == "multiclass":
        sub[cols[0]] = to_labels(test_pred)
    elif np.ndim(test_pred) == 2:
        for j, c in enumerate(cols):
            sub[c] = test_pred[:, j]
    else:
        sub[cols[0]] = test_pred
    path = Path(CFG["out"]) / "submission.csv"
    sub.to_csv(path, index=False)
    log(f"wrote {path} ({len(sub)} rows, columns {list(sub.columns)})")
    return sub
