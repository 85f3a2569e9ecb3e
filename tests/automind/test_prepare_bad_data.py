"""`task prepare` on bad data: a clear error naming the rows/columns, nothing written, or an explicit choice."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from automind.cli import app

runner = CliRunner()


def _prepare(data, out, *extra: str, target: str = "label", metric: str = "accuracy"):
    args = ["task", "prepare", str(out), "--data", str(data), "--target", target, "--metric", metric, *extra]
    return runner.invoke(app, args)


def _text(result) -> str:
    return " ".join(result.output.split())


def _ragged(path, bad_rows=(0, 7, 14)):
    rng = np.random.default_rng(0)
    lines = ["a,b,label"]
    for i in range(60):
        extra = ",oops" if i in bad_rows else ""
        lines.append(f"{rng.random():.3f},{rng.integers(0, 4)},{'xy'[i % 2]}{extra}")
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("bad_rows", [(0, 7, 14), (5, 30)])
def test_ragged_csv_is_refused_with_line_numbers(tmp_path, folder_state, bad_rows):
    data = _ragged(tmp_path / "data.csv", bad_rows)
    before = folder_state(tmp_path)
    r = _prepare(data, tmp_path / "task")
    assert r.exit_code == 1
    lines = ", ".join(f"{i + 2} (4 fields)" for i in bad_rows)  # header is line 1
    assert f"{len(bad_rows)} row(s) whose field count differs from the header's 3: line {lines}" in _text(r)
    assert "--on-bad-lines skip" in _text(r)
    assert folder_state(tmp_path) == before  # no task, no staging folder, data untouched


def test_a_title_above_the_header_is_named_with_the_command_that_drops_it(tmp_path, folder_state):
    data = _ragged(tmp_path / "data.csv", ())
    data.write_text("Survey of plots, 2023\n" + data.read_text())
    before = folder_state(tmp_path)
    r = _prepare(data, tmp_path / "task")
    assert r.exit_code == 1 and folder_state(tmp_path) == before
    assert "Line 1 comes before the table's header, which is line 2 ('a,b,label')" in _text(r)
    assert "tail -n +2 data.csv > NEW.csv), and pass the copy" in _text(r)


def test_ragged_csv_skip_reports_the_count_and_keeps_columns_aligned(tmp_path):
    data = _ragged(tmp_path / "data.csv", (0, 7, 14))
    r = _prepare(data, tmp_path / "task", "--on-bad-lines", "skip")
    assert r.exit_code == 0, r.output
    assert "skipped 3 row(s) whose field count differs" in _text(r) and "line 2 (4 fields), 9" in _text(r)
    train = pd.read_csv(tmp_path / "task/public/train.csv")
    test = pd.read_csv(tmp_path / "task/public/test.csv")
    assert len(train) + len(test) == 57
    assert set(train["label"]) == {"x", "y"} and train["a"].between(0, 1).all()  # not shifted by a column
    r = _prepare(data, tmp_path / "other", "--on-bad-lines", "maybe")
    assert r.exit_code == 1 and "--on-bad-lines 'maybe': use error or skip" in _text(r)


def test_single_class_target_with_a_ranking_metric(tmp_path, folder_state):
    pd.DataFrame({"a": range(50), "label": 1}).to_csv(tmp_path / "d.csv", index=False)
    before = folder_state(tmp_path)
    r = _prepare(tmp_path / "d.csv", tmp_path / "task", metric="roc_auc")
    assert r.exit_code == 1
    assert "target 'label' has the single value 1 in all 50 labelled rows" in _text(r)
    assert folder_state(tmp_path) == before


def test_classification_metric_on_a_continuous_target(tmp_path, folder_state):
    rng = np.random.default_rng(1)
    pd.DataFrame({"a": rng.random(400), "label": rng.random(400) * 100}).to_csv(
        tmp_path / "d.csv", index=False
    )
    before = folder_state(tmp_path)
    r = _prepare(tmp_path / "d.csv", tmp_path / "task")
    assert r.exit_code == 1
    assert "metric 'accuracy' scores class labels, but target 'label' holds continuous numbers" in _text(r)
    assert "400 distinct values" in _text(r) and "rmse" in _text(r)
    assert folder_state(tmp_path) == before


def test_many_integer_classes_need_an_explicit_problem_type(tmp_path):
    pd.DataFrame({"a": range(600), "label": [i % 60 for i in range(600)]}).to_csv(
        tmp_path / "d.csv", index=False
    )
    r = _prepare(tmp_path / "d.csv", tmp_path / "task")
    assert r.exit_code == 1 and "holds 60 distinct integers" in _text(r) and "--problem-type" in _text(r)
    r = _prepare(tmp_path / "d.csv", tmp_path / "task", "--problem-type", "multiclass")
    assert r.exit_code == 0, r.output
    assert "multiclass" in (tmp_path / "task/task.yaml").read_text()


def test_repeated_target(tmp_path, folder_state):
    pd.DataFrame({"a": range(20), "label": [0, 1] * 10}).to_csv(tmp_path / "d.csv", index=False)
    before = folder_state(tmp_path)
    r = runner.invoke(app, ["task", "prepare", str(tmp_path / "t"), "--data", str(tmp_path / "d.csv"),
                            "--target", "label", "--target", "label", "--metric", "rmse"])  # fmt: skip
    assert r.exit_code == 1 and "target column(s) ['label'] given more than once" in _text(r)
    assert folder_state(tmp_path) == before


def test_non_utf8_data_names_the_byte_and_the_option(tmp_path, folder_state):
    rows = "".join(f"{i},caf\xe9 {i % 2},{i % 2}\n" for i in range(40))
    (tmp_path / "d.csv").write_bytes(("a,b,label\n" + rows).encode("latin-1"))
    before = folder_state(tmp_path)
    r = _prepare(tmp_path / "d.csv", tmp_path / "task")
    assert (
        r.exit_code == 1 and "not utf-8 text (byte 0xe9 on line 2)" in _text(r) and "--encoding" in _text(r)
    )
    assert folder_state(tmp_path) == before
    r = _prepare(tmp_path / "d.csv", tmp_path / "task", "--encoding", "latin-1")
    assert r.exit_code == 0, r.output
    assert "café" in (tmp_path / "task/public/train.csv").read_text(encoding="utf-8")


def test_a_split_whose_sample_does_not_grade_writes_nothing(tmp_path, folder_state):
    # one row of class "b": no stratified split, and the held-out answers end up with a single class
    df = pd.DataFrame({"a": range(60), "label": ["a"] * 59 + ["b"]})
    df.to_csv(tmp_path / "d.csv", index=False)
    before = folder_state(tmp_path)
    r = _prepare(tmp_path / "d.csv", tmp_path / "task", "--seed", "1", metric="roc_auc")
    assert r.exit_code == 1 and "the sample submission of this split does not grade" in _text(r)
    assert "the test split has no row of class(es) 'b'" in _text(r)
    assert folder_state(tmp_path) == before


def test_force_over_an_existing_task_keeps_it_when_the_new_data_is_bad(tmp_path, folder_state):
    pd.DataFrame({"a": range(40), "label": [0, 1] * 20}).to_csv(tmp_path / "good.csv", index=False)
    assert _prepare(tmp_path / "good.csv", tmp_path / "task").exit_code == 0
    pd.DataFrame({"a": range(40), "label": 1}).to_csv(tmp_path / "bad.csv", index=False)
    before = folder_state(tmp_path)
    r = _prepare(tmp_path / "bad.csv", tmp_path / "task", "--force")
    assert r.exit_code == 1 and "single value" in _text(r)
    assert folder_state(tmp_path) == before


def test_quoted_separators_and_newlines_are_not_bad_rows(tmp_path):
    rows = "".join(f'{i},"note, with a comma\nand a second line",{i % 2}\n' for i in range(40))
    (tmp_path / "d.csv").write_text("a,note,label\n" + rows + '99,"one field too many",1,extra\n')
    r = _prepare(tmp_path / "d.csv", tmp_path / "task")
    assert (
        r.exit_code == 1
        and "1 row(s) whose field count differs from the header's 3: line 82 (4 fields)" in _text(r)
    )
    r = _prepare(tmp_path / "d.csv", tmp_path / "task", "--on-bad-lines", "skip")
    assert r.exit_code == 0, r.output
    train = pd.read_csv(tmp_path / "task/public/train.csv")
    assert train["note"].str.contains("with a comma\nand a second").all()


def test_undecodable_byte_far_into_the_file_is_located(tmp_path):
    from automind.csv_scan import first_undecodable

    path = tmp_path / "big.csv"
    body = "é,1\n" * 400_000  # two-byte characters across several read blocks
    path.write_bytes(body.encode() + b"\xff,2\n")
    assert first_undecodable(path) == (len(body.encode()), 0xFF, 400_001)
    assert first_undecodable(path, "latin-1") is None


def test_a_correlation_metric_accepts_the_constant_sample(tmp_path):
    """A constant sample submission has no defined Spearman score; that is no reason to refuse the task."""
    import numpy as np
    import pandas as pd

    from automind.grading import grade
    from automind.prepare import prepare_task

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.random(200), "y": rng.random(200)})
    out = Path(prepare_task(df, tmp_path / "task", target="y", metric="spearman"))
    report = grade(out, out / "public" / "sample_submission.csv")
    assert not report.valid and report.score_undefined and "non-finite" in (report.error or "")


def test_rows_without_a_target_are_left_out_and_counted(tmp_path):
    """A survey table where most wages are missing: the split keeps the labelled rows and says how many
    rows it dropped, instead of shrinking the task silently."""
    rng = np.random.default_rng(1)
    wages = rng.normal(20, 5, 80).round(2)
    wages[rng.permutation(80)[:30]] = np.nan
    data = tmp_path / "slid.csv"
    pd.DataFrame({"age": rng.integers(18, 65, 80), "wages": wages}).to_csv(data, index=False)
    r = _prepare(data, tmp_path / "task", target="wages", metric="rmse")
    assert r.exit_code == 0, r.output
    assert f"left out 30 of 80 row(s) of {data} with no value in wages" in _text(r)
    train = pd.read_csv(tmp_path / "task/public/train.csv")
    answers = pd.read_csv(tmp_path / "task/private/answers.csv")
    assert len(train) + len(answers) == 50 and train["wages"].notna().all()
    full = tmp_path / "full.csv"
    pd.DataFrame({"age": [1, 2, 3, 4, 5, 6], "y": [1.0, 2.5, 3, 4, 5, 6]}).to_csv(full, index=False)
    r = _prepare(full, tmp_path / "t2", target="y", metric="rmse")
    assert r.exit_code == 0 and "left out" not in _text(r)


def test_a_metric_undefined_on_the_target_is_named_before_splitting(tmp_path, folder_state):
    # RMSLE cannot score values <= -1: the answers themselves could not be graded, whatever the split
    df = pd.DataFrame({"a": range(60), "label": np.arange(60) - 30.0})
    df.to_csv(tmp_path / "d.csv", index=False)
    before = folder_state(tmp_path)
    r = _prepare(tmp_path / "d.csv", tmp_path / "task", metric="rmsle")
    assert r.exit_code == 1
    assert "metric 'rmsle' cannot score target 'label'" in _text(r) and "30 value(s) <= -1" in _text(r)
    assert "class is too rare" not in _text(r)  # the advice for classification splits does not apply
    assert folder_state(tmp_path) == before
    assert _prepare(tmp_path / "d.csv", tmp_path / "task", metric="rmse").exit_code == 0


def test_duplicate_ids_are_quoted_as_plain_values(tmp_path):
    df = pd.DataFrame({"key": [1, 2, 2, 3] * 15, "a": range(60), "label": ["x", "y"] * 30})
    df.to_csv(tmp_path / "d.csv", index=False)
    r = _prepare(tmp_path / "d.csv", tmp_path / "task", "--id", "key")
    assert r.exit_code == 1 and "id column 'key' has duplicates (e.g. 2)" in _text(r)
    assert "np." not in _text(r)


def _write(path: Path, sep: str, rows: int = 60) -> Path:
    rng = np.random.default_rng(1)
    lines = [sep.join(["a", "b", "label"])]
    lines += [
        sep.join([f"{rng.random():.3f}", "x,y" if sep != "," else "xy", "pq"[i % 2]]) for i in range(rows)
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize(("name", "sep", "said"), [("data.csv", ";", "';'"), ("data.txt", "|", "'|'")])
def test_a_file_with_another_separator_is_named_and_nothing_written(tmp_path, folder_state, name, sep, said):
    """Read with commas, a ';' or '|' file is one column: the error names the separator and the flag."""
    data = _write(tmp_path / name, sep)
    before = folder_state(tmp_path)
    r = _prepare(data, tmp_path / "task")
    assert r.exit_code == 1
    assert f"the header row reads as one column (no ','); the file looks separated by {said}" in _text(r)
    assert "--sep" in _text(r) and "not in the data" not in _text(r)
    assert folder_state(tmp_path) == before
    r = _prepare(data, tmp_path / "task", "--sep", sep)
    assert r.exit_code == 0, r.output
    train = pd.read_csv(tmp_path / "task/public/train.csv")  # the task itself is comma-separated
    assert {"a", "b", "label"} <= set(train.columns) and train["a"].between(0, 1).all()
    assert set(train["b"]) == {"x,y"}  # a comma inside a field of a ';' or tab file stays in the value


@pytest.mark.parametrize("name", ["data.tsv", "data.txt"])
def test_a_tsv_file_is_read_with_tabs(tmp_path, name):
    """A .tsv, and a .txt whose lines split alike by tabs (automind.csv_scan.separator), need no --sep."""
    data = _write(tmp_path / name, "\t")
    r = _prepare(data, tmp_path / "task")
    assert r.exit_code == 0, r.output
    assert set(pd.read_csv(tmp_path / "task/public/train.csv")["label"]) == {"p", "q"}
    r = _prepare(data, tmp_path / "other", "--sep", ";;")
    assert r.exit_code == 1 and "--sep ';;': give one character" in _text(r)


@pytest.mark.parametrize(
    ("name", "head", "said"),
    [
        ("data.xlsx", b"PK\x03\x04rest", "a zip archive (an Excel .xlsx workbook is one too)"),
        ("data.gz", b"\x1f\x8b\x08\x00rest", "gzip-compressed"),
        ("data.parquet", b"PAR1rest", "a Parquet file"),
    ],
)
def test_a_binary_file_is_named_for_what_it_is(tmp_path, folder_state, name, head, said):
    """It used to be called "not utf-8 text" with advice to pass --encoding, which cannot help."""
    data = tmp_path / name
    data.write_bytes(head + bytes(range(256)))
    before = folder_state(tmp_path)
    r = _prepare(data, tmp_path / "task")
    assert r.exit_code == 1 and f"is {said}, not a CSV" in _text(r) and "--encoding" not in _text(r)
    assert folder_state(tmp_path) == before


def test_a_compressed_csv_is_prepared_as_the_table_inside(tmp_path, folder_state):
    """data.csv.gz (as Kaggle and many exports ship tables) is read through its compression, bad rows
    named by line as in a plain file; a broken archive is named for what it is."""
    import gzip

    plain = _ragged(tmp_path / "plain.csv", (3,))
    packed = tmp_path / "data.csv.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    r = _prepare(packed, tmp_path / "task")
    assert r.exit_code == 1 and "line 5" in _text(r)  # the bad row, counted inside the archive
    r = _prepare(packed, tmp_path / "task", "--on-bad-lines", "skip")
    assert r.exit_code == 0, r.output
    assert (
        len(pd.read_csv(tmp_path / "task/public/train.csv"))
        + len(pd.read_csv(tmp_path / "task/private/answers.csv"))
        == 59
    )
    broken = tmp_path / "broken.csv.gz"
    broken.write_bytes(b"\x1f\x8b\x08\x00rest")
    before = folder_state(tmp_path)
    r = _prepare(broken, tmp_path / "other")
    assert r.exit_code == 1 and "not a readable gz archive" in _text(r) and "Traceback" not in r.output
    assert folder_state(tmp_path) == before


def test_a_test_size_that_empties_the_training_set_is_refused(tmp_path, folder_state):
    """0.999 of 60 rows used to end in scikit-learn's traceback."""
    data = _ragged(tmp_path / "data.csv", ())
    before = folder_state(tmp_path)
    r = _prepare(data, tmp_path / "task", "--test-size", "0.999")
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "--test-size 0.999 of 60 labelled row(s) leaves 0 for training and 60 for the test set" in _text(r)
    assert folder_state(tmp_path) == before
    assert _prepare(data, tmp_path / "task", "--test-size", "0.001").exit_code == 0  # one test row is a split
