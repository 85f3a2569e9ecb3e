"""Column patterns that both the data analysis and the holdout read: one place, so the two never disagree
on what a user/item key or a date looks like (and neither imports the other for them)."""

from __future__ import annotations

import re

# user/item-style key names (a name only; the holdout's group rule goes by the values)
ID_NAMES = re.compile(
    r"(^|_)(user|item|customer|product|movie|article|session|song|artist|book|shop|store)(_?id)?$"
)
# dates, with an optional time of day: 2021-01-13, 2021/1/13 08:30, 13/01/2021; a month of a year 2021-01;
# an ISO week 2019-W05 (or 2019W05, 2019-W05-3); a quarter 2015Q3, 2015-Q3, Q3 2015;
# a month's name and a four-digit year, with or without a day (and a weekday before it): 'Mar 2019',
# 'Mar-2019', '3 March 2019', 'March 3, 2019', 'Tue, 03 Mar 2019 10:00'; C's and Twitter's
# 'Tue Mar 05 14:22:01 +0000 2019' (the year last). recipes/runtime.py holds a copy
# (its scripts import nothing from automind); a test keeps the two the same.
DATE_PATTERN = (
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
    # log times: '15/Mar/2019:10:20:30 +0000', 'Mar  5 10:20:30' (no year); CJK dates '2019年3月15日'
    r"|^\d{1,2}/(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/\d{4}:\d{1,2}:\d{2}:\d{2}"
    r"|^(?i:(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d{1,2}\s+\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?)$"
    r"|^\d{4}\s*[年년]\s*\d{1,2}\s*[月월]"
    # Oracle's timestamps: '15-MAR-19 02.25.30.123456 PM' (ORACLE_TIME_TEXT)
    r"|^(?i:(0?[1-9]|[12]\d|3[01])-(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)-\d{2}(\d{2})?\s+"
    r"\d{1,2}\.\d{2}\.\d{2}(\.\d+)?(\s*[ap]m)?)$"
)
DATE_RE = re.compile(DATE_PATTERN)

# Characters of scripts written without spaces between words (Japanese kana, CJK ideographs, Thai): there
# one character carries about half a word, so a review of 30 characters is a sentence, not a category level.
UNSPACED = re.compile(r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
TEXT_WORDS, TEXT_CHARS, TEXT_DISTINCT = 6, 50, 0.3
# A web address (a scheme or a leading "www."): its words are the runs of letters and digits between the
# dots, slashes and hyphens ("https://www.ft.com/2019/bank-rates" is seven words), as a text model reads it.
JSON_LIST_RE = re.compile(r"^\s*\[.*\]\s*$", re.DOTALL)  # a list written as JSON: a bag of items
# A cell holding several numbers: an image's pixels '0 12 255 ...', a point '(40.71, -74.00)' or
# 'POINT (-74.0 40.7)', a vector '[0.1, 0.2, 0.3]'. Such a column is a row of numbers, not words: its values
# are split into columns. recipes/runtime.py holds a copy; a test keeps the two the same.
NUMBER_LIST_PATTERN = (
    r"^\s*(?:[A-Za-z]+\s*)?[\[({]?\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
    r"(?:\s*[,;\s]\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)+\s*[\])}]?\s*$"
)
NUMBER_LIST_RE = re.compile(NUMBER_LIST_PATTERN)
NUMBER_TRIM = re.compile(r"^\s*[A-Za-z]*\s*[\[({]?|[\])}]?\s*$")  # the word and brackets around the numbers
NUMBER_SPLIT = re.compile(r"\s*[,;\s]\s*")  # what stands between them
ONE_NUMBER_RE = re.compile(r"^\s*[\[({]?\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*[\])}]?\s*$")
URL_RE = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|www\.)\S+$", re.IGNORECASE)
URL_WORD = re.compile(r"[^\W_]+")


def text_words(value: str) -> float:
    """Words in a value: its space-separated tokens, plus half a word per character of an unspaced script;
    a web address's words are its runs of letters and digits (URL_WORD)."""
    if URL_RE.match(value):
        return len(URL_WORD.findall(value))
    return len(value.split()) + len(UNSPACED.findall(value)) / 2


def mostly_dates(values: list[str]) -> bool:
    """Whether nine in ten of a column's values (a sample, as text) are dates (DATE_RE)."""
    return bool(values) and sum(bool(DATE_RE.match(v)) for v in values) > 0.9 * len(values)


def is_number_list(values: list[str]) -> bool:
    """Whether a column's values (a sample, as text) are rows of numbers: every value holds numbers and at
    least half hold several (NUMBER_LIST_RE; a sequence may be one number long). Pixels, points, vectors,
    sequences: split into numbers, never read as words. Dates ('March 26, 2018') are not lists."""
    if mostly_dates(values):
        return False
    lists = sum(bool(NUMBER_LIST_RE.match(v)) for v in values)
    singles = sum(bool(ONE_NUMBER_RE.match(v)) for v in values)
    return bool(values) and lists + singles == len(values) and 2 * lists >= len(values)


def is_free_text(values: list[str], distinct: int) -> bool:
    """Whether a column's values (a sample of them, as text) are free text: many words or long on average
    (TEXT_WORDS, TEXT_CHARS) or lists written as JSON, and mostly distinct (`distinct` of them, at least
    TEXT_DISTINCT): titles and names stay categories, dates are dates. The data analysis and the recipes both ask this, so
    they name the same columns."""
    if not values or is_number_list(values) or mostly_dates(values):  # 'Tue Mar 05 14:22:01 +0000 2019'
        return False
    words = sum(map(text_words, values)) / len(values)
    chars = sum(map(len, values)) / len(values)
    listed = all(JSON_LIST_RE.match(v) for v in values)  # ingredients, tags: short, yet words, not levels
    return (listed or words >= TEXT_WORDS or chars >= TEXT_CHARS) and distinct > TEXT_DISTINCT * len(values)
