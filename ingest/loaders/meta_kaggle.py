"""Solution write-ups from Meta Kaggle, Kaggle's public export of its competitions and forums.

Tables and the columns read (Meta Kaggle's schema; every other column is ignored):

- Competitions.csv: Id, Slug, Title, ForumId, EvaluationAlgorithmName, EnabledDate, DeadlineDate
- ForumTopics.csv: Id, ForumId, FirstForumMessageId, Title, CreationDate
- ForumMessages.csv: Id, ForumTopicId, PostDate, Message (HTML); RawMarkdown when Message is empty
- Forums.csv (optional): Id, ParentForumId, so topics in a competition's sub-forums count too

A write-up is the first message of a topic in a competition's forum whose title states a placed
solution (`placement_of`). The tables are streamed with the csv module, never loaded whole:
ForumMessages.csv is gigabytes, and only the wanted first messages are kept, so memory grows with
the number of write-ups, not the file size. Dates in the export look like "04/29/2015 21:15:41".
"""

from __future__ import annotations

import csv
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from automind.ingest.loaders.base import Document, Loader, LoadError, LoadOptions
from automind.ingest.loaders.html import fragment_to_markdown

KIND = "posts"  # write-ups share the posts collection with other solution write-ups
DATASET = "kaggle/meta-kaggle"
COMPETITIONS, FORUMS, TOPICS, MESSAGES = (
    "Competitions.csv",
    "Forums.csv",
    "ForumTopics.csv",
    "ForumMessages.csv",
)
REQUIRED_TABLES = (COMPETITIONS, TOPICS, MESSAGES)
COLUMNS: dict[str, tuple[str, ...]] = {
    COMPETITIONS: (
        "Id",
        "Slug",
        "Title",
        "ForumId",
        "EvaluationAlgorithmName",
        "EnabledDate",
        "DeadlineDate",
    ),
    TOPICS: ("Id", "ForumId", "FirstForumMessageId", "Title", "CreationDate"),
    MESSAGES: ("Id", "ForumTopicId", "PostDate", "Message"),
    FORUMS: ("Id", "ParentForumId"),
}
MIN_CHARS = (
    200  # a first message shorter than this is a placeholder ("code and write-up soon"), not a write-up
)
URL = "https://www.kaggle.com/competitions/{slug}/discussion/{topic}"
Progress = Callable[[int], None]  # bytes read since the last call

# -- which titles are write-ups ---------------------------------------------------------------------

_ORDINAL_WORDS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
}
_SOLUTION = (
    r"(?:solutions?|approach(?:es)?|write-?ups?|writeups?|summary|overview|methods?|pipeline|recipe|notes)"
)
_PLACE_WORD = r"(?:place[ds]?|position|rank(?:ed)?|finish)"
_ORDINAL = r"(\d{1,4})\s*(?:st|nd|rd|th)\b|\b(" + "|".join(_ORDINAL_WORDS) + r")\b"
# "1st place", "2nd Place Solution", "[3rd] solution", "first place write-up", "11th-place approach"
_ORDINAL_PLACE = re.compile(
    rf"(?:{_ORDINAL})[\s\-_:\]\)]*(?:(?:public|private)\s+(?:lb\s+)?)?(?:{_PLACE_WORD}|{_SOLUTION})", re.I
)
# "Rank 4 solution", "#4 solution", "No. 3 approach", "place 7"
_NUMBER_PLACE = re.compile(rf"(?:\brank|\bplace|#|\bno\.?)\s*(\d{{1,4}})\b[\s\-:\]\)]*(?:{_SOLUTION})?", re.I)
# "top-5 solution", "Top 1% approach", "top 10 write-up"
_TOP = re.compile(rf"\btop[\s\-]*(\d{{1,4}})\s*(%?)[\s\-]*(?:place[ds]?\s*)?{_SOLUTION}", re.I)
_MEDAL = re.compile(rf"\b(gold|silver|bronze)(?:[\s\-]+(?:medal|zone))?[\s\-]+{_SOLUTION}", re.I)
_WINNING = re.compile(rf"\b(winning|winners?'?s?)[\s\-]+{_SOLUTION}", re.I)
_NOT_OWN = re.compile(
    r"\?\s*$|\bcongrat|^\s*(?:thanks|thank you|when|will|where|why|how|is|are|does|did|can|could|should|any)\b"
    r"|\bquestions?\b|\bhow (?:did|do|to|can)\b|\bcheat|\breproduc|\brequest|\bwaiting\b|\bcompilation\b"
    r"|\bcollection\b|\blist of\b|\ball (?:top )?solutions|\bsummary of (?:the )?top|\btop solutions\b",
    re.I,
)
_SOLUTION_WORD = re.compile(rf"\b{_SOLUTION}\b", re.I)


@dataclass(frozen=True)
class Placement:
    rank: int  # leaderboard place; -1 when the title gives only a band ("top-5", "gold")
    label: str  # how the title states it: "1st place", "top-5", "top 1%", "gold", "winning"


def placement_of(title: str) -> Placement | None:
    """The placement a topic title claims for its own solution, or None when it is not a write-up.

    Rule: the title states a place ("1st place", "second place", "11th", "rank 4", "#4 solution"), a
    band ("top-5 solution", "top 1% approach", "gold medal solution") or a win ("winning solution"),
    and is not a question or remark about someone else's ("Congrats to the 1st place", "Will the
    2nd place solution be shared?", "Summary of top solutions"). A bare ordinal needs a place or
    solution word after it, so "My 1st competition" is not a write-up.
    """
    text = " ".join(str(title or "").split())
    if not text or _NOT_OWN.search(text):
        return None
    m = _ORDINAL_PLACE.search(text)
    if m:
        rank = int(m.group(1)) if m.group(1) else _ORDINAL_WORDS[m.group(2).lower()]
        if rank >= 1:
            return Placement(rank, f"{_ordinal(rank)} place")
    m = _TOP.search(text)
    if m:
        n, pct = int(m.group(1)), m.group(2)
        return Placement(1 if n == 1 and not pct else -1, f"top {n}%" if pct else f"top-{n}")
    m = _NUMBER_PLACE.search(text)
    if m and (_SOLUTION_WORD.search(text) or re.match(r"\s*(?:rank|place|#)", text, re.I)):
        rank = int(m.group(1))
        if rank >= 1:
            return Placement(rank, f"{_ordinal(rank)} place")
    m = _MEDAL.search(text)
    if m:
        return Placement(-1, m.group(1).lower())
    if _WINNING.search(text):
        return Placement(-1, "winning")
    return None


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# -- streaming the tables ---------------------------------------------------------------------------


@dataclass(frozen=True)
class MetaKaggleOptions:
    """Which write-ups to take: at most `limit`, of competitions from `since` on, of these slugs."""

    limit: int | None = None
    since: int | None = None
    competitions: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Competition:
    slug: str
    title: str
    metric: str
    year: int  # -1 when the export has no date


@dataclass
class Writeup:
    topic_id: int
    message_id: int
    title: str
    placement: Placement
    date: str
    competition: Competition
    order: int = 0  # position in ForumTopics.csv (ties broken by file order)

    @property
    def url(self) -> str:
        return URL.format(slug=self.competition.slug, topic=self.topic_id)


@dataclass
class Tables:
    """The table files of one Meta Kaggle folder."""

    folder: Path
    paths: dict[str, Path] = field(default_factory=dict)

    @classmethod
    def find(cls, folder: Path) -> Tables:
        folder = Path(folder)
        if not folder.is_dir():
            raise LoadError(folder, "not a folder; pass the folder that holds the Meta Kaggle CSV files")
        found = {p.name.lower(): p for p in folder.iterdir() if p.is_file()}
        paths = {name: found[name.lower()] for name in (*REQUIRED_TABLES, FORUMS) if name.lower() in found}
        missing = [name for name in REQUIRED_TABLES if name not in paths]
        if missing:
            raise LoadError(
                folder,
                f"missing Meta Kaggle table(s): {', '.join(missing)}. Download them with "
                "`automind ingest meta-kaggle` (needs Kaggle credentials) or from "
                "https://www.kaggle.com/datasets/kaggle/meta-kaggle",
            )
        return cls(folder, paths)

    def size(self, *names: str) -> int:
        return sum(self.paths[n].stat().st_size for n in names if n in self.paths)


def _raise_field_limit() -> None:
    """Forum messages can be longer than csv's default 128 KiB field limit."""
    limit = sys.maxsize
    while True:
        try:
            csv.field_size_limit(limit)
            return
        except OverflowError:
            limit //= 10


def read_rows(
    path: Path, columns: Iterable[str], progress: Progress | None = None
) -> Iterator[dict[str, str]]:
    """Rows of one table as {column: text} for `columns`, streamed; a missing column is a LoadError.

    Bytes are counted as lines are read (reported every ~1 MB), so a caller can show progress
    against the file size. Quoted fields spanning lines, doubled quotes and a BOM are handled by csv.
    """
    _raise_field_limit()
    columns = tuple(columns)
    pending = 0

    with path.open("rb") as f:

        def lines() -> Iterator[str]:
            nonlocal pending
            for raw in f:
                pending += len(raw)
                if progress is not None and pending >= 1 << 20:
                    progress(pending)
                    pending = 0
                yield raw.decode("utf-8", errors="replace")

        reader = csv.reader(lines())
        try:
            header = [h.strip().lstrip("\ufeff") for h in next(reader)]
        except StopIteration:
            raise LoadError(path, "empty table (no header line)") from None
        except csv.Error as e:
            raise LoadError(path, f"unreadable CSV header: {e}") from e
        missing = [c for c in columns if c not in header]
        if missing:
            raise LoadError(
                path,
                f"missing column(s) {', '.join(missing)}; found {', '.join(header[:15])}. "
                "Is this the Meta Kaggle table of that name?",
            )
        idx = [header.index(c) for c in columns]
        width = len(header)
        try:
            for row in reader:
                if len(row) < width:
                    row = row + [""] * (width - len(row))
                yield {c: row[i] for c, i in zip(columns, idx, strict=True)}
        except csv.Error as e:
            raise LoadError(path, f"malformed CSV near line {reader.line_num}: {e}") from e
    if progress is not None and pending:
        progress(pending)


def to_id(value: str) -> int | None:
    """Meta Kaggle ids are integers, written as "123" or (float columns) "123.0"; '' is None."""
    value = (value or "").strip()
    if not value:
        return None
    try:
        return int(float(value)) if "." in value or "e" in value.lower() else int(value)
    except ValueError:
        return None


_DATE_FORMATS = ("%m/%d/%Y %H:%M:%S", "%m/%d/%Y %I:%M:%S %p", "%m/%d/%Y", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d")


def to_date(value: str) -> str:
    """'04/29/2015 21:15:41' -> '2015-04-29'; '' when missing or unreadable."""
    value = (value or "").strip()
    if not value:
        return ""
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(value, fmt).date().isoformat()
        except ValueError:
            continue
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).date().isoformat()
    except ValueError:
        return ""


def _year(*dates: str) -> int:
    for d in dates:
        if d:
            return int(d[:4])
    return -1


def read_competitions(
    tables: Tables, options: MetaKaggleOptions, progress: Progress | None = None
) -> dict[int, Competition]:
    """Competitions by forum id, filtered by --since and --competitions."""
    wanted = {s.lower() for s in options.competitions}
    out: dict[int, Competition] = {}
    for row in read_rows(tables.paths[COMPETITIONS], COLUMNS[COMPETITIONS], progress):
        forum = to_id(row["ForumId"])
        slug = row["Slug"].strip()
        if forum is None or not slug or (wanted and slug.lower() not in wanted):
            continue
        year = _year(to_date(row["DeadlineDate"]), to_date(row["EnabledDate"]))
        if options.since is not None and year < options.since:
            continue
        out[forum] = Competition(
            slug, row["Title"].strip() or slug, row["EvaluationAlgorithmName"].strip(), year
        )
    return out


def read_subforums(tables: Tables, forums: dict[int, Competition]) -> dict[int, Competition]:
    """Add sub-forums (Forums.ParentForumId) of the competitions' forums, when Forums.csv is there."""
    if FORUMS not in tables.paths:
        return forums
    out = dict(forums)
    for row in read_rows(tables.paths[FORUMS], COLUMNS[FORUMS]):
        forum, parent = to_id(row["Id"]), to_id(row["ParentForumId"])
        if forum is not None and parent in forums and forum not in out:
            out[forum] = forums[parent]
    return out


def select_writeups(
    tables: Tables,
    forums: dict[int, Competition],
    options: MetaKaggleOptions,
    progress: Progress | None = None,
) -> dict[int, Writeup]:
    """Write-up topics by their first message id; with --limit the best-placed, then newest, are kept."""
    found: list[Writeup] = []
    for n, row in enumerate(read_rows(tables.paths[TOPICS], COLUMNS[TOPICS], progress)):
        comp = forums.get(to_id(row["ForumId"]) or -1)
        if comp is None:
            continue
        placement = placement_of(row["Title"])
        topic, first = to_id(row["Id"]), to_id(row["FirstForumMessageId"])
        if placement is None or topic is None:
            continue
        found.append(
            Writeup(
                topic, first or -1, row["Title"].strip(), placement, to_date(row["CreationDate"]), comp, n
            )
        )
    if options.limit is not None:
        found.sort(key=lambda w: (w.placement.rank if w.placement.rank > 0 else 10**6, w.date == "", w.order))
        found = found[: options.limit]
    # A topic without FirstForumMessageId is matched by its earliest message below.
    return {w.message_id if w.message_id > 0 else -w.topic_id: w for w in found}


def _body(row: dict[str, str]) -> str:
    html = row.get("Message") or ""
    if html.strip():
        return fragment_to_markdown(html)
    return (row.get("RawMarkdown") or "").strip()


def writeup_document(w: Writeup, body: str) -> Document:
    """A write-up whose every chunk says which competition it solved (the title is the chunk prefix)."""
    comp = w.competition
    year = f" ({comp.year})" if comp.year > 0 else ""
    title = f"{comp.title}{year}: {w.title}"
    facts = (
        f"Evaluation metric: {comp.metric}. " if comp.metric else ""
    ) + f"Placement: {w.placement.label}."
    body = body.strip()
    first = re.match(r"#{1,4} [^\n]*\n", body)  # keep the facts with the first section's text
    text = f"{first.group(0)}\n{facts}\n\n{body[first.end() :].lstrip()}" if first else f"{facts}\n\n{body}"
    return Document(
        kind=KIND,
        source=w.url,
        text=text,
        metadata={
            "title": title,
            "topic_title": w.title,
            "competition": comp.slug,
            "competition_title": comp.title,
            "metric": comp.metric,
            "year": comp.year,
            "rank": w.placement.rank,
            "placement": w.placement.label,
            "url": w.url,
            "date": w.date,
            "origin": "meta-kaggle",
        },
    )


def iter_writeups(
    folder: Path, options: MetaKaggleOptions | None = None, progress: Progress | None = None
) -> Iterator[Document | LoadError]:
    """Every selected write-up as a Document (a LoadError for each one that cannot be used).

    `progress(n)` receives bytes read across Competitions, ForumTopics and ForumMessages, whose total
    is `Tables.find(folder).size(*REQUIRED_TABLES)`.
    """
    options = options or MetaKaggleOptions()
    tables = Tables.find(folder)
    forums = read_competitions(tables, options, progress)
    if options.competitions:
        known = {c.slug.lower() for c in forums.values()}
        for slug in sorted(options.competitions):
            if slug.lower() not in known:
                yield LoadError(
                    f"{tables.paths[COMPETITIONS]}#{slug}", "no such competition slug (or before --since)"
                )
    if not forums:
        return
    forums = read_subforums(tables, forums)
    wanted = select_writeups(tables, forums, options, progress)
    by_topic = {w.topic_id: w for w in wanted.values() if w.message_id <= 0}
    columns = COLUMNS[MESSAGES]
    header = _header(tables.paths[MESSAGES])
    if "RawMarkdown" in header:
        columns = (*columns, "RawMarkdown")
    left = len(wanted)
    for row in read_rows(tables.paths[MESSAGES], columns, progress):
        if left == 0:
            break  # every wanted first message found: the rest of the file is not needed
        mid = to_id(row["Id"])
        w = wanted.pop(mid, None) if mid is not None else None
        if w is None and by_topic:
            w = by_topic.pop(to_id(row["ForumTopicId"]) or -1, None)
            if w is not None:
                wanted.pop(-w.topic_id, None)
        if w is None:
            continue
        left -= 1
        body = _body(row)
        if len(body) < MIN_CHARS:
            yield LoadError(w.url, f"first message too short to be a write-up ({len(body)} characters)")
            continue
        if not w.date:
            w.date = to_date(row["PostDate"])
        yield writeup_document(w, body)
    for w in wanted.values():
        yield LoadError(w.url, f"first message {w.message_id} of topic {w.topic_id} is not in {MESSAGES}")


def _header(path: Path) -> list[str]:
    with path.open("r", encoding="utf-8", errors="replace", newline="") as f:
        return [h.strip().lstrip("\ufeff") for h in next(csv.reader(f), [])]


def _sniff(folder: Path) -> bool:
    names = {p.name.lower() for p in folder.iterdir() if p.is_file()} if folder.is_dir() else set()
    return all(t.lower() in names for t in REQUIRED_TABLES)


def _load(folder: Path, options: LoadOptions | None = None) -> Iterator[Document | LoadError]:
    yield from iter_writeups(folder)


LOADER = Loader(
    kind="meta-kaggle",
    extensions=(),
    load=_load,
    sniff=_sniff,
    folder=True,
    order=5,
    help="a Meta Kaggle folder (Competitions.csv, ForumTopics.csv, ForumMessages.csv): solution write-ups",
)
