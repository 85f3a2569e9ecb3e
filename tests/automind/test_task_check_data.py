"""`task check` reads the data: what would make a solve or a grade fail is reported, the folder is untouched."""

from __future__ import annotations

import os
import re

import numpy as np
import pandas as pd
import pytest
import yaml
from typer.testing import CliRunner

from automind.cli import app
from automind.prepare import prepare_task

runner = CliRunner()


@pytest.fixture
def task(tmp_path):
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"a": rng.random(60), "b": rng.integers(0, 4, 60), "label": ["x", "y"] * 30})
    return prepare_task(df, tmp_path / "task", "label", "roc_auc")


def _check(task, folder_state, code: int) -> str:
    before = folder_state(task)
    r = runner.invoke(app, ["task", "check", str(task)])
    assert r.exit_code == code, r.output
    assert folder_state(task) == before  # nothing changed, nothing left behind
    return " ".join(re.sub(r"[\u2500-\u257f]", " ", r.output).split())  # box-drawing characters out


def _yaml(task, **changes) -> None:
    spec = yaml.safe_load((task / "task.yaml").read_text())
    for key, value in changes.items():
        *parents, leaf = key.split("__")
        d = spec
        for p in parents:
            d = d.setdefault(p, {})
        d[leaf] = value
    (task / "task.yaml").write_text(yaml.safe_dump(spec))


def _edit_train(task, fn) -> None:
    path = task / "public/train.csv"
    fn(pd.read_csv(path)).to_csv(path, index=False)


def test_a_sound_task_reports_the_sample_score(task, folder_state):
    out = _check(task, folder_state, 0)
    assert "sample submission score 0.5 (roc_auc)" in out and out.endswith("ok")


def test_without_answers_says_the_sample_is_not_graded(task, folder_state):
    (task / "private/answers.csv").unlink()
    out = _check(task, folder_state, 0)
    assert "not graded: no private answers" in out


def test_empty_train_file(task, folder_state):
    (task / "public/train.csv").write_bytes(b"")
    assert "public/train.csv: empty file" in _check(task, folder_state, 1)


def test_test_file_with_a_header_only(task, folder_state):
    path = task / "public/test.csv"
    path.write_text(path.read_text().splitlines()[0] + "\n")
    assert "public/test.csv: has a header but no rows" in _check(task, folder_state, 1)


def test_ragged_train_rows_are_named(task, folder_state):
    with (task / "public/train.csv").open("a") as f:
        f.write("999,0.5,1,x,surplus\n")
    out = _check(task, folder_state, 1)
    assert "1 row(s) whose field count differs from the header's 4: line 50 (5 fields)" in out
    assert "fix those rows" in out and "follow the table's rows" not in out  # a long last row is a row


def test_lines_above_the_header_or_after_the_rows_are_named_with_the_command_that_drops_them(
    task, folder_state
):
    """Batch 37: a title or '#' comments above the header and a source note below the rows were reported as
    thousands of bad rows, with 'an unquoted separator inside a value' as the likely cause."""
    train = task / "public/train.csv"
    rows = train.read_text()
    train.write_text("# exported by logger 2.3\n# units: SI, gaps empty\n" + rows)
    out = _check(task, folder_state, 1)
    assert "Lines 1-2 come before the table's header, which is line 3 ('id,a,b,label')" in out
    assert "tail -n +3 train.csv > NEW.csv" in out and "unquoted separator" not in out
    train.write_text(rows + "\nSource: survey 2023 (provisional)\n48 rows\n")
    out = _check(task, folder_state, 1)
    assert "The last 2 line(s), from line 51, follow the table's rows" in out
    assert "'Source: survey 2023 (provisional)'" in out and "head -n -2 train.csv > NEW.csv" in out


def test_missing_target_column(task, folder_state):
    _edit_train(task, lambda df: df.drop(columns=["label"]))
    out = _check(task, folder_state, 1)
    assert "public/train.csv: no target column (task.yaml target_columns ['label']" in out
    assert "Set target_columns in task.yaml" in out


def test_all_nan_target(task, folder_state):
    _edit_train(task, lambda df: df.assign(label=np.nan))
    assert "target column 'label' is empty (every value is missing)" in _check(task, folder_state, 1)


def test_single_class_target(task, folder_state):
    _edit_train(task, lambda df: df.assign(label="x"))
    assert "target column 'label' has the single value 'x'" in _check(task, folder_state, 1)


def test_sample_submission_that_does_not_grade(task, folder_state):
    answers = pd.read_csv(task / "private/answers.csv").assign(label="x")  # roc_auc needs two classes
    answers.to_csv(task / "private/answers.csv", index=False)
    out = _check(task, folder_state, 1)
    assert "the sample submission does not grade against answers.csv: roc_auc gave a non-finite score" in out


def test_metric_params_the_metric_refuses(task, folder_state):
    _yaml(task, metric__params={"pos_label": "y", "foo": 1})
    out = _check(task, folder_state, 1)
    assert (
        "metric roc_auc does not take parameter(s) ['foo'] (it takes: pos_label, multi_class, average)" in out
    )


@pytest.mark.parametrize("slug", ["../elsewhere", "a/b", "a\\b", ".."])
def test_slug_with_path_separators(task, folder_state, slug):
    _yaml(task, slug=slug)
    assert f"field 'slug': Value error, slug {slug!r} must be one name" in _check(task, folder_state, 1)


def test_non_utf8_train_is_a_warning_naming_the_byte(task, folder_state):
    path = task / "public/train.csv"
    path.write_bytes(path.read_bytes().replace(b",x\n", b",x\xe9\n", 1))
    out = _check(task, folder_state, 0)
    assert "warning: " in out and "public/train.csv: not UTF-8 (byte 0xe9 at offset" in out
    assert "automind and its recipes read it as cp1252" in out


def test_non_utf8_task_yaml_is_a_problem_not_a_traceback(task, folder_state):
    path = task / "task.yaml"
    path.write_bytes(path.read_bytes() + "# r\xe9sum\xe9\n".encode("latin-1"))
    out = _check(task, folder_state, 1)
    assert "task.yaml: not UTF-8 text" in out and "Traceback" not in out


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_train_file(task, folder_state):
    path = task / "public/train.csv"
    path.chmod(0)
    try:
        assert "public/train.csv: cannot be read (Permission denied)" in _check(task, folder_state, 1)
    finally:
        path.chmod(0o644)


def test_rows_are_records_not_lines(tmp_path, folder_state):
    """A free-text field with line breaks is one row: the summary counts records as pandas reads them."""
    notes = ["fine", "two\nlines", "three\nmore\nlines"] * 20
    df = pd.DataFrame({"a": range(60), "note": notes, "label": ["x", "y"] * 30})
    task = prepare_task(df, tmp_path / "task", "label", "roc_auc", test_size=0.25)
    out = _check(task, folder_state, 0)
    n_train, n_test = len(pd.read_csv(task / "public/train.csv")), len(pd.read_csv(task / "public/test.csv"))
    assert (n_train, n_test) == (45, 15)
    assert re.search(rf"train\.csv [\d.]+ K?B {n_train} ", out), out
    assert re.search(rf"test\.csv [\d.]+ K?B {n_test} ", out), out


def test_carriage_return_lines_and_utf16_text_are_read_not_a_traceback(task, folder_state):
    """Batch 38: a file whose lines end in a carriage return alone (classic Mac OS) and a spreadsheet's
    'Unicode text' export (UTF-16 with its byte-order mark, tabs) stopped `task check` with a csv.Error
    traceback; pandas reads both, and so do automind and its recipes now."""
    from automind.recipes import runtime as rt

    pub = task / "public"
    frames = {f: pd.read_csv(pub / f) for f in ("train.csv", "test.csv", "sample_submission.csv")}
    for f, df in frames.items():
        df.to_csv(pub / f, index=False, lineterminator="\r")
    out = _check(task, folder_state, 0)
    assert out.endswith("ok") and "(roc_auc)" in out
    assert rt.read_table(pub / "train.csv").shape == frames["train.csv"].shape
    for part in ("train", "test"):
        text = frames[f"{part}.csv"].assign(b=lambda d: d["b"].map({0: "zéro", 1: "ün", 2: "二", 3: "três"}))
        (pub / f"{part}.txt").write_bytes(text.to_csv(sep="\t", index=False).encode("utf-16"))
        (pub / f"{part}.csv").unlink()
    _yaml(task, train_files=["train.txt"], test_files=["test.txt"])
    out = _check(task, folder_state, 0)
    assert out.endswith("ok") and "read it as utf-16" in out
    train = rt.read_table(pub / "train.txt")
    assert list(train.columns) == list(frames["train.csv"].columns)
    assert set(train["b"]) <= {"zéro", "ün", "二", "três"} and train["a"].dtype == float


def test_a_solve_refuses_lines_above_the_header_before_it_starts(task, tmp_path, folder_state):
    """Every draft failed on a '#' comment above the header ('recipes cannot read train.csv: ParserError');
    the solve now stops before it starts, with task check's message."""
    train = task / "public/train.csv"
    train.write_text("# exported by logger 2.3\n" + train.read_text())
    before = folder_state(task)
    r = runner.invoke(
        app, ["solve", str(task), "--llm", "none", "--steps", "1", "--out", str(tmp_path / "run")]
    )
    out = " ".join(r.output.split())
    assert r.exit_code != 0 and "Line 1 comes before the table's header, which is line 2" in out, out
    assert "tail -n +2 train.csv > NEW.csv" in out and "Traceback" not in out
    assert folder_state(task) == before


def test_backslash_escaped_quotes_and_line_breaks_in_header_names_are_read(task, folder_state):
    """Batch 41: a database dump's '\\"' inside quoted text made task check refuse 616 rows and every draft
    fail (ParserError); a header name with a line break in its quotes ('Floor\\nArea') was taken for a title
    above the header. Both files are tables pandas reads with the right options, and automind reads them so."""
    import csv as csvmod

    from automind.analysis import analyze
    from automind.recipes import runtime as rt

    pub = task / "public"
    train = pd.read_csv(pub / "train.csv")
    train["note"] = ['said "fine", thanks', "plain", 'a "b" c'] * (len(train) // 3) + ["x"] * (len(train) % 3)
    train.astype(str).to_csv(pub / "train.csv", index=False, escapechar="\\", doublequote=False,
                             quoting=csvmod.QUOTE_ALL)  # fmt: skip
    assert '\\"fine\\"' in (pub / "train.csv").read_text()
    out = _check(task, folder_state, 0)
    assert out.endswith("ok"), out
    read = rt.read_table(pub / "train.csv")
    assert read.shape == train.shape and read["note"].iloc[0] == 'said "fine", thanks'
    assert "escapechar='\\\\'" in analyze(task).render(20000)
    test = pd.read_csv(pub / "test.csv").rename(columns={"a": "Floor\nArea"})
    test.to_csv(pub / "test.csv", index=False)
    train.rename(columns={"a": "Floor\nArea"}).to_csv(pub / "train.csv", index=False)
    out = _check(task, folder_state, 0)
    assert out.endswith("ok") and "before the table's header" not in out, out
    last = train.assign(note=["ok"] * (len(train) - 1) + ["first line\nsecond, line"])
    last.to_csv(pub / "train.csv", index=False)  # the last row's text breaks a line: no note after the rows
    out = _check(task, folder_state, 0)
    assert out.endswith("ok") and "follow the table's rows" not in out, out


def test_uci_data_files_are_tables_and_semicolon_text_files_are_refused_with_a_command(task, folder_state):
    """Batch 44: train.data / test.data (UCI's names) listed in task.yaml were 'no train table' (the check
    told the user to list what was listed), and the data analysis an LLM plans from never showed a .txt,
    .data or .json training table; a .txt split by ';' got the same wrong advice."""
    from automind.analysis import analyze
    from automind.recipes import runtime as rt

    pub = task / "public"
    for part in ("train", "test"):
        (pub / f"{part}.csv").rename(pub / f"{part}.data")
    _yaml(task, train_files=["train.data"], test_files=["test.data"])
    out = _check(task, folder_state, 0)
    assert out.endswith("ok") and "cannot read" not in out, out
    assert rt.read_table(pub / "train.data").shape == pd.read_csv(pub / "train.data").shape
    shown = {t.path: t for t in analyze(task).tables}
    assert shown["train.data"].rows == len(pd.read_csv(pub / "train.data")) and shown["train.data"].columns
    for part in ("train", "test"):
        pd.read_csv(pub / f"{part}.data").to_csv(pub / f"{part}.txt", sep=";", decimal=",", index=False)
        (pub / f"{part}.data").unlink()
    _yaml(task, train_files=["train.txt"], test_files=["test.txt"])
    out = _check(task, folder_state, 1)
    assert "train.txt: its lines split alike by ';'" in out and "sep=';', decimal=','" in out, out


def test_headerless_and_space_aligned_tables_are_refused_and_large_utf16_ones_read(task, folder_state):
    """Batch 45: a table without its header row was 'no target column (columns: 2370, -0.475...)' and a .txt
    aligned by spaces 'no train table, list it in task.yaml'; both now say what the file is and how to fix
    it. A UTF-16 table over 64 KB was refused for a note after its rows ('\\x00'): its tail was decoded as
    UTF-8."""
    pub = task / "public"
    train = pd.read_csv(pub / "train.csv")
    big = pd.concat([train.assign(b=train["b"].map({0: "zéro", 1: "ün", 2: "二", 3: "três"}))] * 40)
    (pub / "train.txt").write_bytes(big.to_csv(sep="\t", index=False).encode("utf-16"))
    assert (pub / "train.txt").stat().st_size > 64 * 1024
    (pub / "train.csv").unlink()
    _yaml(task, train_files=["train.txt"])
    out = _check(task, folder_state, 0)
    assert out.endswith("ok") and "follow the table's rows" not in out, out
    (pub / "train.txt").write_text(train.to_string(index=False) + "\n")
    out = _check(task, folder_state, 1)
    assert "train.txt: its lines split alike by runs of spaces" in out and r"sep=r'\s+'" in out, out
    (pub / "train.txt").unlink()
    train.to_csv(pub / "train.csv", index=False, header=False)
    _yaml(task, train_files=["train.csv"])
    out = _check(task, folder_state, 1)
    assert "train.csv: its first line reads as data" in out and "header=None, names=[...]" in out, out


def test_single_quoted_fields_are_named_and_a_sample_named_otherwise_is_found(task, folder_state):
    """Batch 47: text quoted with single quotes ('web, app') was '1553 rows whose field count differs ...
    often an unquoted separator'; a sample named gender_submission.csv (Titanic's) was 'sample_submission.csv:
    missing'."""
    import csv as csvmod

    pub = task / "public"
    train = pd.read_csv(pub / "train.csv")
    train["where"] = ["web, app", "store", "phone, call"] * (len(train) // 3) + ["x"] * (len(train) % 3)
    train.to_csv(pub / "train.csv", index=False, quotechar="'", quoting=csvmod.QUOTE_MINIMAL)
    out = _check(task, folder_state, 1)
    assert "train.csv: its text fields are quoted with single quotes ('web, app' is one value)" in out, out
    assert 'quotechar="\'"' in out and "field count differs" not in out
    train.to_csv(pub / "train.csv", index=False)
    (pub / "sample_submission.csv").rename(pub / "gender_submission.csv")
    out = _check(task, folder_state, 0)
    assert out.endswith("ok") and "the sample submission is gender_submission.csv" in out, out


def test_excels_separator_hint_line_is_named_with_a_command_that_works(task, folder_state):
    """Batch 48: 'sep=;' above a ';'-split table was 'the file looks separated by ';'', with a pandas line
    that kept the hint as the header; the command now skips it, and asks for decimal commas only when the
    numbers have them."""
    pub = task / "public"
    train = pd.read_csv(pub / "train.csv")
    (pub / "train.csv").write_text("sep=;\n" + train.to_csv(sep=";", index=False))
    out = _check(task, folder_state, 1)
    assert "its first line 'sep=;' is Excel's hint of the separator" in out, out
    assert "read_csv(FILE, sep=';', skiprows=1).to_csv(NEW.csv, index=False)" in out, out
    (pub / "train.csv").write_text("sep=;\n" + train.to_csv(sep=";", decimal=",", index=False))
    assert "sep=';', skiprows=1, decimal=','" in _check(task, folder_state, 1)
