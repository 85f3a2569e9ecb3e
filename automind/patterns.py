"""Column patterns that both the data analysis and the holdout read: one place, so the two never disagree
on what a user/item key or a date looks like (and neither imports the other for them)."""

from __future__ import annotations

import re

# user/item-style key names (a name only; the holdout's group rule goes by the values)
ID_NAMES = re.compile(
    r"(^|_)(user|item|customer|product|movie|article|session|song|artist|book|shop|store)(_?id)?$"
)
# dates, with an optional time of day: 2021-01-13, 2021/1/13 08:30, 13/01/2021
DATE_RE = re.compile(
    r"^\d{4}[-/]\d{1,2}[-/]\d{1,2}([ T]\d{1,2}:\d{2}(:\d{2})?)?|^\d{1,2}[-/]\d{1,2}[-/]\d{4}"
)
