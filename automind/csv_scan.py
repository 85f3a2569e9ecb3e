"""Scans of a delimited text file before pandas reads it: field counts per row, the first undecodable byte,
and the separator a one-column header betrays; and the encoding a table not written in UTF-8 is read with.
A table may be compressed as Kaggle ships it (train.csv.zip, train.csv.gz, .bz2, .xz): its format is the
suffix before the compression's (`table_suffix`), its bytes are read through `open_bytes`, and pandas
decompresses it by the same suffix. Shared by `task prepare` (reading the user's table), `task check` (the
task's public files), grading, the data analysis, the holdout and the offline recipes."""

from __future__ import annotations

import bz2
import codecs
import csv
import gzip
import io
import itertools
import lzma
import re
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

TABULAR = {".csv": ",", ".tsv": "\t"}  # the separator each tabular suffix promises
# Suffixes that promise no separator (a .txt; the UCI repository's .data and .dat): such a file is a table
# when its first lines split alike by a tab or a comma (`separator`).
PLAIN_TEXT = (".txt", ".data", ".dat")
SNIFF_LINES = 5
COMPRESSED = (".gz", ".zip", ".bz2", ".xz")  # a table's suffix may be followed by one of these (pandas' own)
# The encodings a task's text table is tried in, first that decodes the whole file wins: UTF-8; then Windows'
# Western European code page (what a spreadsheet on Windows saves; it names the bytes 0x80-0x9f that latin-1
# leaves as control codes); then latin-1, which decodes any byte. The recipe scripts try the same order
# (recipes/runtime.py read_table), so automind and its scripts read a file the same way.
TEXT_ENCODINGS = ("utf-8", "cp1252", "latin-1")
# A file that starts with UTF-16's byte-order mark (a spreadsheet's "Unicode text" export) is UTF-16: it is
# read as such before TEXT_ENCODINGS are tried (each of the last two would decode it, into nonsense).
UTF16_MARKS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
# Separators a spreadsheet or a database export commonly uses instead of the comma, as named to the user.
OTHER_SEPARATORS = {";": "';'", "\t": "tabs", "|": "'|'"}


# Leading bytes of the files people pass for a table that are not text: what the file is, what to do.
_NOT_TEXT = [
    (
        b"PK\x03\x04",
        "a zip archive (an Excel .xlsx workbook is one too)",
        "extract the CSV (or save the sheet as CSV)",
    ),
    (b"\x1f\x8b", "gzip-compressed", "decompress it first (gunzip FILE)"),
    (b"BZh", "bzip2-compressed", "decompress it first (bunzip2 FILE)"),
    (b"\xfd7zXZ\x00", "xz-compressed", "decompress it first (unxz FILE)"),
    (b"PAR1", "a Parquet file", "write it as CSV: pandas.read_parquet(FILE).to_csv(OUT, index=False)"),
    (b"\xd0\xcf\x11\xe0", "an old Excel .xls workbook", "save the sheet as CSV from the spreadsheet program"),
    (
        b"SQLite format 3\x00",
        "an SQLite database",
        "export the table: sqlite3 -header -csv DB 'select * from T' > OUT",
    ),
]


def table_suffix(path: Path | str) -> str:
    """The suffix that names a table's format, lower case: ".csv" for train.csv and for train.csv.gz."""
    suffixes = [s.lower() for s in Path(path).suffixes]
    if len(suffixes) >= 2 and suffixes[-1] in COMPRESSED:
        return suffixes[-2]
    return suffixes[-1] if suffixes else ""


class ArchiveError(ValueError):
    """A compressed table automind cannot read as one table (a zip of several files, a broken archive)."""


@contextmanager
def open_bytes(path: Path) -> Iterator[IO[bytes]]:
    """The file's bytes, decompressed when its name ends in a compression suffix (a zip must hold one file,
    as pandas requires)."""
    suffix = path.suffix.lower()
    if suffix not in COMPRESSED or table_suffix(path) == suffix:
        with path.open("rb") as f:
            yield f
        return
    try:
        if suffix == ".zip":
            with zipfile.ZipFile(path) as z:
                names = [n for n in z.namelist() if not n.endswith("/")]
                if len(names) != 1:
                    raise ArchiveError(
                        f"{path}: a zip of {len(names)} files; a table's zip must hold exactly one"
                    )
                with z.open(names[0]) as f:
                    yield f
            return
        stream = {".gz": gzip.GzipFile, ".bz2": bz2.BZ2File, ".xz": lzma.LZMAFile}[suffix](path, "rb")
        with stream as f:
            yield f
    except (zipfile.BadZipFile, gzip.BadGzipFile, lzma.LZMAError, EOFError) as e:
        raise ArchiveError(f"{path}: not a readable {suffix[1:]} archive ({e})") from e


def _kind_of(head: bytes) -> tuple[str, str] | None:
    return next(((what, fix) for magic, what, fix in _NOT_TEXT if head.startswith(magic)), None)


def _head_text(head: bytes) -> str:
    if head.startswith(UTF16_MARKS):
        return head.decode("utf-16", errors="replace")
    return head.decode("utf-8", errors="replace").lstrip("\ufeff")


def _first_row(head: bytes, sep: str) -> list[str]:
    return next(csv.reader(io.StringIO(_head_text(head), newline=""), delimiter=sep), [])


def binary_kind(path: Path) -> tuple[str, str] | None:
    """(what the file is, what to do) when its first bytes (decompressed, for a compressed table's name) say
    it is not delimited text; None for text."""
    try:
        with open_bytes(path) as f:
            return _kind_of(f.read(16))
    except (OSError, ArchiveError):
        return None


def not_text(path: Path) -> str | None:
    """What a file passed as a CSV is when it is not delimited text, and what to do; None for text."""
    kind = binary_kind(path)
    return f"{path} is {kind[0]}, not a CSV: {kind[1]}, then pass the CSV" if kind else None


def header_row(path: Path, sep: str, limit: int = 1 << 20) -> list[str]:
    """The first row's fields as the csv module splits them (bytes that do not decode replaced): enough to
    tell a file written with another separator, without reading the rest."""
    with open_bytes(path) as f:
        return _first_row(f.read(limit), sep)


def table_problem(path: Path, limit: int = 1 << 20, *, sample: bool = False) -> str | None:
    """Why automind cannot read a task's table file as it is named (a broken archive or a zip of several
    files, another binary format behind a table's name, or text split by another separator than its suffix
    promises; for the `sample` submission also every line ending with the separator, `_trailing_separator`,
    or header names with spaces around them, `_padded_names`) and what to do; None when it can. Reads the file's head once."""
    try:
        with open_bytes(path) as f:
            head = f.read(limit)
    except ArchiveError as e:
        return f"{e}. Extract the table into public/ and list it in task.yaml (train_files/test_files)"
    except OSError:
        return None  # an unreadable file is reported where it is read (task check names the permission)
    kind, fmt = _kind_of(head), table_suffix(path)
    if kind is not None:
        if fmt == ".parquet":
            return None
        inside = " inside" if fmt != path.suffix.lower() else ""
        return (
            f"{path} is {kind[0]}{inside}; automind reads a task's tables as .csv/.tsv (plain or compressed: "
            f".gz, .zip, .bz2, .xz), .parquet or .json: {kind[1]} into public/ and list it in task.yaml "
            "(train_files/test_files)"
        )
    lines = _head_text(head).splitlines(keepends=True)[:SNIFF_LINES] if fmt in PLAIN_TEXT else []
    sep = TABULAR.get(fmt) or _split_alike(lines)
    other = None if sep else _split_alike(lines, tuple(s for s in OTHER_SEPARATORS if s != "\t"))
    if other or (not sep and _aligned(lines)):
        how, read = (
            (OTHER_SEPARATORS[other], f"sep={other!r}" + _decimal_hint(lines, other))
            if other
            else ("runs of spaces (a fixed-width print)", "sep=r'\\s+'")
        )
        return (
            f"{path}: its lines split alike by {how}; automind reads a {fmt} table split by tabs or commas. Save a "
            f"comma-separated copy (pandas: read_csv(FILE, {read}).to_csv(NEW.csv, index=False)), {TASK_COPY}"
        )
    if sep and not sample and (row := _data_header(head, sep)):
        return (
            f"{path}: its first line reads as data ({row[:60]!r}: numbers where column names belong), so the table "
            "has no header row and its first row's values would name the columns. Write a copy with the names "
            f"(pandas: read_csv(FILE, header=None, names=[...]).to_csv(NEW.csv, index=False)), {TASK_COPY}"
        )
    hint = re.match(r"sep=(.)\s*$", _head_text(head).split("\n", 1)[0]) if sep else None
    if hint:
        given = hint[1]
        decimal = _decimal_hint(_head_text(head).splitlines()[1 : SNIFF_LINES + 1], given)
        return (
            f"{path}: its first line {hint[0].strip()!r} is Excel's hint of the separator, not the header. Save a "
            f"comma-separated copy without it (pandas: read_csv(FILE, sep={given!r}, skiprows=1{decimal}).to_csv("
            f"NEW.csv, index=False)), {TASK_COPY}"
        )
    guess = looks_separated_by(_first_row(head, sep), sep) if sep else None
    if guess is None:
        if sep and (why := edge_lines(path, head, sep) or _apostrophe_quotes(path, head, sep, TASK_COPY)):
            return why
        return (
            (_trailing_separator(path, head, sep) or _padded_names(path, head, sep))
            if sep and sample
            else None
        )
    decimal = ", plus decimal=',' if numbers are written 1,5" if guess[0] == ";" else ""
    return (
        f"{path}: {guess[1]}. automind reads .csv tables as comma-separated and .tsv as tab-separated, so "
        f"every row would be misread. Save a comma-separated copy (pandas: read_csv(FILE, sep={guess[0]!r}"
        f"{decimal}, then to_csv(NEW, index=False)) and list it in task.yaml (train_files/test_files)"
    )


def _trailing_separator(path: Path, head: bytes, sep: str, rows: int = 50) -> str | None:
    """What to do when every line of a sample submission ends with the separator (a spreadsheet or database
    export): the header's last name and that field of the first rows are empty, so pandas reads an extra
    column 'Unnamed: N' that every submission would then have to fill; None otherwise. (In a training or
    test table such a column is only an empty feature.)"""
    lines = list(
        itertools.islice(csv.reader(io.StringIO(_head_text(head), newline=""), delimiter=sep), rows + 1)
    )
    if len(lines) < 2 or len(lines[0]) < 2 or lines[0][-1].strip():
        return None
    if any(len(row) != len(lines[0]) or row[-1].strip() for row in lines[1:-1] if row):
        return None  # the head's last row may be cut short; a filled last field is data
    given = "tab" if sep == "\t" else repr(sep)
    return (
        f"{path}: every line ends with a {given} (the last column has no name and, in the first rows, no "
        "values), so it reads as an extra empty column that every submission would have to fill. Save it "
        f"without that column (pandas: read_csv(FILE{'' if sep == ',' else f', sep={sep!r}'}).iloc[:, :-1]"
        ".to_csv(FILE, index=False))"
    )


def _padded_names(path: Path, head: bytes, sep: str) -> str | None:
    """What to do when a sample submission's header names have spaces around them ('id, y', a spreadsheet's
    export): a submission must name its columns as the sample does, and ' y' is not the target 'y', so every
    submission would be refused; None otherwise."""
    header = next(csv.reader(io.StringIO(_head_text(head), newline=""), delimiter=sep), [])
    padded = [name for name in header if name != name.strip()]
    if not padded:
        return None
    return (
        f"{path}: the header names {padded} have spaces around them, so a submission would have to name its "
        "columns with those spaces, not as the training table does. Save the header without them (pandas: "
        "df = read_csv(FILE); df.columns = df.columns.str.strip(); df.to_csv(FILE, index=False))"
    )


def default_separator(path: Path) -> str:
    """The field separator of a table: tab for .tsv (or .tsv.gz, ...), a .txt table's own, else the comma."""
    return separator(path) or ","


def separator(path: Path) -> str | None:
    """The field separator of a delimited table: the one its suffix promises (.csv, .tsv, plain or
    compressed); for a .txt file a tab or a comma when its first lines (SNIFF_LINES, at least two) split
    into the same number (two or more) of fields by it, the tab first (train.txt of an older competition);
    None otherwise (a .txt of prose, an essay, is no table). recipes/runtime.py read_table reads a .txt
    table the same way."""
    fmt = table_suffix(path)
    if fmt in TABULAR:
        return TABULAR[fmt]
    if fmt not in PLAIN_TEXT or not path.is_file():
        return None
    try:
        with open_bytes(path) as f:
            lines = _head_text(f.read(SNIFF_LINES << 20)).splitlines()[:SNIFF_LINES]  # any line ends
    except (OSError, ArchiveError):
        return None
    return _split_alike(lines)


def _decimal_hint(lines: list[str], sep: str) -> str:
    """ ", decimal=','" for pandas when a table not split by commas writes its numbers with a decimal comma
    ('1,5' as a whole field in its first lines), else ""."""
    fields = (f.strip() for line in lines for f in next(csv.reader([line], delimiter=sep), []))
    return ", decimal=','" if sep != "," and any(re.fullmatch(r"-?\d+,\d+", f) for f in fields) else ""


def _aligned(lines: list[str]) -> bool:
    """Whether a text file's first lines (SNIFF_LINES, at least two) are columns aligned by runs of spaces:
    each splits on whitespace into the same number (two or more) of fields, and some hold two spaces in a row."""
    lines = [ln for ln in lines[:SNIFF_LINES] if ln.strip()]
    widths = {len(ln.split()) for ln in lines}
    return len(lines) >= 2 and len(widths) == 1 and widths.pop() >= 2 and any("  " in ln for ln in lines)


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _data_header(head: bytes, sep: str) -> str | None:
    """The first line when it reads as a row of data, not names: at least half of its fields numbers, one
    with a point or a minus sign (no column is named '-0.475'), in the places where the second line holds
    numbers and nowhere else; None otherwise."""
    rows = list(itertools.islice(csv.reader(io.StringIO(_head_text(head), newline=""), delimiter=sep), 2))
    if len(rows) < 2 or len(rows[0]) != len(rows[1]) or len(rows[0]) < 2:
        return None
    first, second = ([_number(v.strip()) for v in row] for row in rows)
    signed = any(f and any(ch in v for ch in ".-") for f, v in zip(first, rows[0], strict=True))
    if first == second and sum(first) * 2 >= len(first) and signed:
        return sep.join(rows[0])
    return None


def _split_alike(lines: list[str], seps: tuple[str, ...] = ("\t", ",")) -> str | None:
    lines = lines[:SNIFF_LINES]
    while lines and not lines[-1]:  # a file shorter than SNIFF_LINES: readline gives ""
        lines.pop()
    if len(lines) < 2:
        return None
    for sep in seps:
        widths = {len(next(csv.reader([line.rstrip("\r\n")], delimiter=sep), [])) for line in lines}
        if len(widths) == 1 and widths.pop() >= 2:
            return sep
    return None


def looks_separated_by(header: list[str], sep: str = ",") -> tuple[str, str] | None:
    """(separator, what to tell the user) when a one-field header holds another common separator: read
    with `sep`, every row of such a file would be one column."""
    if len(header) != 1:
        return None
    counts = {other: header[0].count(other) for other in OTHER_SEPARATORS if other != sep}
    other, n = max(counts.items(), key=lambda kv: kv[1], default=("", 0))
    if not n:
        return None
    given = "tab" if sep == "\t" else repr(sep)
    return other, (
        f"the header row reads as one column (no {given}); the file looks separated by "
        f"{OTHER_SEPARATORS[other]} ({n} in the header)"
    )


@dataclass
class BadLines:
    """A CSV's header, its row count, and the rows whose field count differs from the header's."""

    header: list[str] = field(default_factory=list)
    rows: int = 0  # rows with the header's field count
    count: int = 0  # rows without it
    lines: list[int] = field(default_factory=list)  # 1-based file line of the first few bad rows
    fields: list[int] = field(default_factory=list)  # field count of each listed line
    escapechar: str | None = None  # "\\" when the file escapes quotes with a backslash (quote_escape)

    @property
    def header_fields(self) -> int:
        return len(self.header)

    def describe(self, limit: int = 8) -> str:
        shown = ", ".join(
            f"{ln} ({n} fields)" for ln, n in zip(self.lines[:limit], self.fields, strict=False)
        )
        more = f" and {self.count - limit} more" if self.count > limit else ""
        return f"{self.count} row(s) whose field count differs from the header's {self.header_fields}: line {shown}{more}"


def scan_csv(
    text: io.TextIOBase, sep: str = ",", keep: list[list[str]] | None = None, escapechar: str | None = None
) -> BadLines:
    """Count fields row by row with the csv module (quotes and embedded newlines handled like pandas).

    Blank lines are skipped as pandas skips them; `keep` collects the header and the good rows.
    """
    csv.field_size_limit(2**31 - 1)  # long free-text fields (essays, reviews) are ordinary data
    reader = csv.reader(text, delimiter=sep, escapechar=escapechar)
    header = next(reader, None) or []
    scan = BadLines(header, escapechar=escapechar)
    if keep is not None and header:
        keep.append(header)
    start = reader.line_num + 1
    for row in reader:
        if not any(f.strip() for f in row):
            pass
        elif len(row) != len(header):
            scan.count += 1
            if len(scan.lines) < 20:
                scan.lines.append(start)
                scan.fields.append(len(row))
        else:
            scan.rows += 1
            if keep is not None:
                keep.append(row)
        start = reader.line_num + 1
    return scan


PREAMBLE_LINES = 50  # a header further down than this is not looked for


TASK_COPY = "put it in public/ and list it in task.yaml (train_files/test_files)"


def layout_hint(path: Path, sep: str, bad: BadLines, then: str = TASK_COPY) -> str | None:
    """What the rows whose field count differs are, when they are not rows (edge_lines); None when they are
    among the data (an unquoted separator inside a value, say)."""
    if not bad.count:
        return None
    with open_bytes(path) as f:
        head = f.read(1 << 20)
    why = edge_lines(path, head, sep, then) or _apostrophe_quotes(path, head, sep, then)
    return why.removeprefix(f"{path}: ") if why else None  # the caller names the file


def _apostrophe_quotes(path: Path, head: bytes, sep: str, then: str) -> str | None:
    """What to do when a table quotes its text fields with single quotes ("'web, app'", as some database and
    Python exports write them): its rows (the head's, the last maybe cut, left out) split into one width
    only when the apostrophe quotes; None otherwise."""
    text = _head_text(head)
    if "'" not in text:
        return None
    from automind.recipes.runtime import row_widths  # backslash_quotes' rule: one width only when quoted so

    widths, plain = row_widths(text, sep, quotechar="'"), row_widths(text, sep)
    if widths is None or len(widths) != 1 or plain is None or len(plain) == 1:
        return None
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=sep, quotechar="'")
    quoted = next((v for r in itertools.islice(rows, 1, None) for v in r if sep in v), None)
    if quoted is None:
        return None
    return (f"{path}: its text fields are quoted with single quotes ({quoted[:40]!r} is one value), which pandas "
            f"does not take for quotes. Write a copy (pandas: read_csv(FILE, quotechar=\"'\").to_csv(NEW.csv, "
            f"index=False)), {then}")  # fmt: skip


TAIL_BYTES = 1 << 16  # the end of a file read for lines after its rows


def edge_lines(path: Path, head: bytes, sep: str, then: str = TASK_COPY) -> str | None:
    """Lines above a table's header (a title, '#' comments: the first line has fewer fields than the rows,
    and a later line of the first PREAMBLE_LINES has theirs) or after its last row (at most five lines of at
    most half the header's fields, a source note or a total; looked for at the end of an uncompressed file),
    with the command that writes a copy without them and `then`, what to do with the copy; None otherwise.
    Reads the file's head (given) and its last TAIL_BYTES only."""
    text = _head_text(head)
    lines = text.splitlines()
    fields, starts = _records(text, sep)  # a quoted field may hold line breaks (a header's 'Floor\nArea')
    plain = (
        table_suffix(path) == "".join(Path(path).suffixes[-1:]).lower()
    )  # not compressed: shell commands work
    if len(fields) > 2 and fields[0]:
        width = max(set(fields[1:]), key=fields[1:].count)  # the rows' field count
        top = next((i for i, n in enumerate(fields) if n == width), None)
        if top is not None and width > fields[0] and all(n == width for n in fields[top:] if n):
            line = starts[top]  # the header's first line, 0-based
            fix = f" (tail -n +{line + 1} {path.name} > NEW.csv)" if plain else ""
            span = "Line 1 comes" if line == 1 else f"Lines 1-{line} come"
            return (f"{path}: {span} before the table's header, which is line {line + 1} ({lines[line][:60]!r}): "
                    f"a title or comments ({lines[0][:60]!r}); automind reads line 1 as the header. Write a copy without "
                    f"them{fix}, {then}")  # fmt: skip
    if not plain or not fields or fields[0] < 2:
        return None
    size = path.stat().st_size
    wide = {codecs.BOM_UTF16_LE: "utf-16-le", codecs.BOM_UTF16_BE: "utf-16-be"}.get(head[:2])
    with open(path, "rb") as f:
        start = max(0, size - TAIL_BYTES)
        f.seek(start - start % 2 if wide else start)  # a UTF-16 character is two bytes: start on one
        block = f.read()
        text = block.decode(wide, errors="replace").lstrip("\ufeff") if wide else _head_text(block)
        tail = text.splitlines()[1:]  # the first may be cut
    counts = [len(next(csv.reader([ln], delimiter=sep), [])) if ln.strip() else 0 for ln in tail]
    if any(ln.count('"') % 2 for ln in tail[-8:]):
        return None  # a line break inside a quoted value, not a note (the tail's lines are not records)
    end = len(counts)
    while end and counts[end - 1] == 0:
        end -= 1
    start = end
    while start and (counts[start - 1] == 0 or counts[start - 1] <= fields[0] // 2):
        start -= 1
    notes = [n for n in counts[start:end] if n]
    if not (1 <= len(notes) <= 5) or not start or counts[start - 1] != fields[0]:
        return None
    while counts[start] == 0:
        start += 1
    ends = b"\n" if b"\n" in head else b"\r"  # a file of carriage returns alone counts those
    with open(path, "rb") as f:
        total = sum(block.count(ends) for block in iter(lambda: f.read(1 << 20), b""))
        f.seek(-2 if wide else -1, 2)
        last = f.read().decode(wide or "latin-1", errors="replace")
        total += last[-1:] not in ("\r", "\n")  # a last line without its line end
    after = len(tail) - start  # lines from the first note to the end
    first = total - after + 1
    fix = f" (head -n -{after} {path.name} > NEW.csv)" if plain else ""
    return (f"{path}: The last {after} line(s), from line {first}, follow the table's rows and are not rows (a "
            f"note or a total: {tail[start].strip()[:60]!r}). Write a copy without them{fix}, {then}")  # fmt: skip


def _records(text: str, sep: str) -> tuple[list[int], list[int]]:
    """The field count (0 for a blank line) and the 0-based first line of the first PREAMBLE_LINES + 1
    records of a table's head, split as the csv module splits them (quoted line breaks kept in a field)."""
    csv.field_size_limit(2**31 - 1)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    fields: list[int] = []
    starts: list[int] = []
    line = 0
    try:
        for row in itertools.islice(reader, PREAMBLE_LINES + 1):
            fields.append(0 if not row or (len(row) == 1 and not row[0].strip()) else len(row))
            starts.append(line)
            line = reader.line_num
    except csv.Error:  # a head cut inside a quoted field
        pass
    return fields, starts


def first_undecodable(
    path: Path, encoding: str = "utf-8", chunk: int = 1 << 20
) -> tuple[int, int, int] | None:
    """(file offset, byte value, 1-based line) of the first byte not valid in encoding, or None; chunked."""
    decoder = codecs.getincrementaldecoder(encoding)()
    offset, lines = 0, 1
    with open_bytes(path) as f:
        while block := f.read(chunk):
            try:
                decoder.decode(block)
            except UnicodeDecodeError as e:
                # the decoder may hold back the start of a multi-byte character from the previous block
                at = max(0, e.start - len(e.object) + len(block))
                return offset + at, block[at], lines + block[:at].count(b"\n")
            offset += len(block)
            lines += block.count(b"\n")
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            return offset, 0, lines  # a multi-byte character cut off at the end of the file
    return None


def _cr_lines(path: Path, chunk: int = 1 << 20) -> bool:
    """Whether a file's lines end in a carriage return alone (classic Mac OS; pandas reads them): its rows are
    then counted by the csv module, which splits lines as pandas does, not by b"\n"."""
    with open_bytes(path) as f:
        head = f.read(chunk)
    return b"\r" in head and b"\n" not in head


def _has_byte(path: Path, byte: bytes, chunk: int = 1 << 20) -> bool:
    with open_bytes(path) as f:
        return any(byte in block for block in iter(lambda: f.read(chunk), b""))


def scan_csv_file(path: Path, sep: str = ",", encoding: str = "utf-8", errors: str = "strict") -> BadLines:
    """scan_csv over a file; without any quote character a row is one line, so fields are counted on bytes
    (about four times faster than the csv module on a large file)."""
    ascii_compatible = 'a,"\n'.encode(encoding, errors="replace") == b'a,"\n'
    if not ascii_compatible or _has_byte(path, b'"') or _cr_lines(path):
        with open_bytes(path) as raw:
            text = io.TextIOWrapper(raw, encoding=encoding, errors=errors, newline="")
            return scan_csv(text, sep, escapechar=quote_escape(path, sep))
    delim = sep.encode()
    with open_bytes(path) as f:
        first = f.readline()
        header = first.decode(encoding, errors="replace").rstrip("\r\n")
        scan = BadLines(header.split(sep) if header else [])
        want = len(scan.header) - 1
        for number, line in enumerate(f, start=2):
            n = line.count(delim)
            if n == want:
                scan.rows += 1
            elif line.strip():
                scan.count += 1
                if len(scan.lines) < 20:
                    scan.lines.append(number)
                    scan.fields.append(n + 1)
    return scan


def text_encoding(path: Path) -> str:
    """UTF-16 for a file that starts with its byte-order mark (UTF16_MARKS), else the first of TEXT_ENCODINGS
    that decodes the whole file (a chunked scan)."""
    with open_bytes(path) as f:
        if f.read(2) in UTF16_MARKS:
            return "utf-16"
    for encoding in TEXT_ENCODINGS[:-1]:
        if first_undecodable(path, encoding) is None:
            return encoding
    return TEXT_ENCODINGS[-1]


def quote_escape(path: Path, sep: str = ",") -> str | None:
    """ "\\" when a table escapes quotes inside its fields with a backslash, as a database dump writes them
    (judged on its head by recipes/runtime.py's backslash_quotes, so automind and its scripts read the file
    alike); None otherwise, or when the file cannot be read."""
    try:
        with open_bytes(path) as f:
            head = f.read(4 << 20)
    except (OSError, ArchiveError):
        return None
    if b"\\" not in head:
        return None
    from automind.recipes.runtime import HEAD_CHARS, backslash_quotes

    return "\\" if backslash_quotes(_head_text(head)[:HEAD_CHARS], sep) else None


def read_csv(path: Path, **kw: Any) -> pd.DataFrame:
    """pandas.read_csv for a task's table: UTF-8, else the encoding `text_encoding` finds, named in the
    frame's attrs["encoding"] so a caller can say so; quotes escaped with a backslash read as such
    (quote_escape, named in attrs["escapechar"]). A UTF-8 file costs one read; only a file pandas fails to
    decode is scanned."""
    import pandas as pd

    if "escapechar" not in kw and not isinstance(path, io.IOBase):
        kw["escapechar"] = quote_escape(Path(path), kw.get("sep") or ",")
    try:
        df = pd.read_csv(path, **kw)
    except UnicodeDecodeError:
        encoding = text_encoding(Path(path))
        df = pd.read_csv(path, **{**kw, "encoding": encoding})
        df.attrs["encoding"] = encoding
    if kw.get("escapechar"):
        df.attrs["escapechar"] = kw["escapechar"]
    return df
