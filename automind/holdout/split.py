"""Which training rows become the hidden holdout: seeded, and shaped like the task's own train/test split.

Checked in this order (the first that applies wins), so the holdout resembles the test set it stands for:
- time: a column shared by train and test, read as dates or numbers (a year, a period index), with the
  test rows starting after 80 % of the training rows (a forecasting layout): the holdout is the latest rows;
- group: a column whose values repeat in train and mostly do not reappear in test (under half of the test
  rows share a training value; a key-like name wins a tie): whole groups are held out;
- stratified: a single class-label answer column: the same share of every class (classes with one row stay);
- random rows otherwise.
Rows without an answer are never held out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

    from automind.holdout.layout import Layout

TIME_AFTER = 0.8  # test rows start after this share of the training rows: a forecasting layout
GROUP_OVERLAP = 0.5  # below this share of test rows with a training group value, groups are held out
GROUP_NAME = re.compile(r"(^|_)group(_?id)?$", re.I)
KEY_NAME = re.compile(
    r"(^|[_ ])(id|key|code|patient|subject|person|player|team|site|device|account)([_ ]?id)?$", re.I
)


@dataclass
class Split:
    rows: list[int]  # positions of the holdout rows in the train table
    strategy: str  # time | group | stratified | random
    detail: str  # one line for run.json and the report


def _looks_like_dates(values: pd.Series) -> bool:
    from automind.patterns import DATE_RE

    sample = values[values != ""].head(200)
    return len(sample) >= 5 and sample.str.match(DATE_RE).mean() >= 0.9


def _key_like(name: str) -> bool:
    from automind.patterns import ID_NAMES

    return bool(ID_NAMES.search(name.lower()) or GROUP_NAME.search(name) or KEY_NAME.search(name))


def _times(train: pd.Series, test: pd.Series) -> tuple[pd.Series, pd.Series] | None:
    """A shared column read as times: dates (day-first ones too), or plain numbers such as a year or a
    period index; None when it is neither. Numbered keys (user_id 1..n, new users numbered on) are groups,
    not times."""
    import pandas as pd

    from automind.recipes.runtime import day_first, read_times

    if _looks_like_dates(train) and _looks_like_dates(test):
        first = day_first(pd.concat([train, test]))
        return read_times(train, first, mixed=True), read_times(test, first, mixed=True)
    if _key_like(str(train.name)):
        return None
    a, b = (pd.to_numeric(v.where(v != ""), errors="coerce") for v in (train, test))
    readable = [bool((v.notna() | (t == "")).all()) for v, t in ((a, train), (b, test))]
    if all(readable) and a.nunique() >= 3 and b.notna().sum() >= 5:
        return a, b
    return None


def _late_times(train: pd.DataFrame, test: pd.DataFrame, skip: set[str]) -> tuple[str, pd.Series] | None:
    """The first column train and test share, read as dates or numbers, whose test rows all come after
    TIME_AFTER of the training rows, with its training rows' times (read once: `_time_split` sorts them)."""
    import pandas as pd

    for c in [c for c in train.columns if c in test.columns and c not in skip]:
        found = _times(train[c], test[c])
        if found is None:
            continue
        t_train, t_test = found
        if t_test.isna().all() or t_train.isna().all():
            continue
        cut = t_train.quantile(TIME_AFTER)
        # numbers must start strictly later: a column of few values (a grade, a count) can hold its top
        # value in 20 % of the rows, and a small random test set can then hold nothing else
        late = t_test.min() > cut if pd.api.types.is_numeric_dtype(t_test) else t_test.min() >= cut
        if late:
            return str(c), t_train
    return None


def time_column(train: pd.DataFrame, test: pd.DataFrame, skip: set[str]) -> str | None:
    """The column by which the test rows come later (a forecasting layout), from text frames ("" for a
    missing value); None when there is none. A random share of the rows cannot do that to any column."""
    found = _late_times(train, test, skip)
    return None if found is None else found[0]


def _time_split(
    train: pd.DataFrame, test: pd.DataFrame, eligible: pd.Index, n: int, skip: set[str]
) -> Split | None:
    found = _late_times(train, test, skip)
    if found is None:
        return None
    c, t_train = found
    latest = t_train.loc[eligible].dropna().sort_values(kind="stable").index[-n:]
    return Split(
        sorted(int(i) for i in latest),
        "time",
        f"the latest {len(latest)} rows by '{c}' (test rows come later)",
    )


def _same_form(train: pd.Series, test: pd.Series) -> tuple[pd.Series, pd.Series]:
    """A column's text in one form on both sides: numbers as numbers, since a file writes 3 as "3.0" when
    the column has a gap (the test file's integers would otherwise share no value with the training
    file's); other text as the recipes compare levels, spaces, HTML entities and letter case aside
    (runtime.respelled, level_spellings: a test file written 'OAK4' names the training rows' 'Oak4');
    "" stays the missing value."""
    import pandas as pd

    from automind.recipes.runtime import respelled

    a, b = (pd.to_numeric(v.where(v != ""), errors="coerce") for v in (train, test))
    if not ((a.notna() | (train == "")).all() and (b.notna() | (test == "")).all()):
        return tuple(respelled(v.astype(str)).str.casefold().where(v != "", "") for v in (train, test))
    return a.astype(float).map(repr).where(a.notna(), ""), b.astype(float).map(repr).where(b.notna(), "")


def group_column(train: pd.DataFrame, test: pd.DataFrame, skip: set[str],
                 eligible: pd.Index | None = None) -> tuple[str, float] | None:  # fmt: skip
    """A key column that repeats in train (5 or more groups, at least two rows per group on average) and
    whose values under GROUP_OVERLAP of the test rows share, with that share. A random split cannot do that
    to a column whose values repeat, whatever its name; the least shared wins, a key-like name (user_id,
    patient, store) on a tie, since a group's own attributes (its age, its weight) split the same way."""
    found: list[tuple[float, bool, int, str]] = []
    for i, c in enumerate(c for c in train.columns if c in test.columns and c not in skip):
        values, other = _same_form(train[c] if eligible is None else train.loc[eligible, c], test[c])
        groups = values[values != ""].nunique()
        if groups < 5 or groups > 0.5 * len(values):
            continue
        overlap = float(other.isin(set(values)).mean())
        if overlap < GROUP_OVERLAP:
            found.append((round(overlap, 2), not _key_like(str(c)), i, str(c)))
    if not found:
        return None
    best = min(found)
    return best[3], best[0]


def take_groups(order: list[str], sizes: pd.Series, n: int) -> set[str]:
    """Whole groups, in `order`, until they hold `n` rows (`sizes`: rows per group)."""
    chosen: set[str] = set()
    total = 0
    for g in order:
        if total >= n:
            break
        chosen.add(g)
        total += int(sizes[g])
    return chosen


def _group_split(train: pd.DataFrame, test: pd.DataFrame, eligible: pd.Index, n: int, skip: set[str],
                 rng) -> Split | None:  # fmt: skip
    found = group_column(train, test, skip, eligible)
    if found is None:
        return None
    c, overlap = found
    values = train.loc[eligible, c]
    order = sorted(set(values) - {""})
    rng.shuffle(order)
    chosen = take_groups(order, values.value_counts(), n)
    rows = sorted(int(i) for i in values.index[values.isin(chosen)])
    why = f"{len(chosen)} whole groups of '{c}' ({len(rows)} rows; {overlap:.0%} of test rows share a training value)"
    return Split(rows, "group", why)


def _stratified(labels: pd.Series, fraction: float, rng) -> Split:
    rows: list[int] = []
    for _, group in sorted(labels.groupby(labels).groups.items(), key=lambda kv: str(kv[0])):
        idx = list(group)
        if len(idx) < 2:
            continue
        rng.shuffle(idx)
        rows += [int(i) for i in idx[: max(1, int(round(fraction * len(idx))))]]
    return Split(
        sorted(rows), "stratified", f"{len(rows)} rows, the same share of every class of '{labels.name}'"
    )


def capped_fraction(fraction: float, n_rows: int, max_rows: int | None) -> float:
    """The share of `n_rows` labelled rows to hold out: `fraction`, lowered so that about `max_rows` rows
    are held out when the share would hold out more (None: no cap). A score's precision depends on how many
    rows it is measured on, not on their share, so on large tables the rows past the cap would only be
    taken from every fit of the search (and from the final submission when its refit does not fit)."""
    if max_rows is None or n_rows <= 0:
        return fraction
    return min(fraction, max_rows / n_rows)


def choose_rows(train: pd.DataFrame, test: pd.DataFrame, layout: Layout, fraction: float, seed: int,
                max_rows: int | None = None) -> Split:  # fmt: skip
    """The holdout rows of `train` (text frames from `read_layout`), by the first strategy that applies:
    `fraction` of the labelled rows, at most about `max_rows` of them (`capped_fraction`)."""
    import random

    answered = (train[layout.label_cols] != "").all(axis=1)
    eligible = train.index[answered]
    fraction = capped_fraction(fraction, len(eligible), max_rows)
    n = max(1, int(round(fraction * len(eligible))))
    rng = random.Random(seed)
    skip = {layout.id_col, *layout.label_cols}
    found = _time_split(train, test, eligible, n, skip) or _group_split(train, test, eligible, n, skip, rng)
    if found is not None:
        return found
    if layout.problem in ("binary", "multiclass") and len(layout.label_cols) == 1:
        return _stratified(train.loc[eligible, layout.label_cols[0]], fraction, rng)
    rows = list(eligible)
    rng.shuffle(rows)
    return Split(sorted(int(i) for i in rows[:n]), "random", f"{n} random rows")
