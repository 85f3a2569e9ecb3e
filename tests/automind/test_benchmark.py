"""Bench grid: aggregation (valid rate, avg@k, best@k, medals), tables, resume, variant checks."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from automind.benchmark import JobRecord, aggregate, parse_variants, run_bench, to_html, to_markdown


def _tasks(tmp_path: Path, names: list[str]) -> list[Path]:
    out = []
    for n in names:
        d = tmp_path / "tasks" / n
        d.mkdir(parents=True)
        (d / "description.md").write_text(n)
        out.append(d)
    return out


def test_aggregate_uses_the_metric_direction_and_counts_invalid_runs() -> None:
    recs = [
        JobRecord(
            "t", "default", 0, valid=True, score=0.30, lower_is_better=True, medal="gold", beats_pct=90.0
        ),
        JobRecord(
            "t", "default", 1, valid=True, score=0.20, lower_is_better=True, medal="silver", beats_pct=95.0
        ),
        JobRecord("t", "default", 2, valid=False, error="boom"),
    ]
    (row,) = aggregate(recs)
    assert row.n == 3
    assert row.valid_rate == pytest.approx(2 / 3)
    assert row.best_score == pytest.approx(0.20)  # lower is better
    assert row.avg_score == pytest.approx(0.25)
    assert row.medals == {"gold": 1, "silver": 1}
    assert row.avg_beats_pct == pytest.approx(92.5)


def test_tables_render_every_row() -> None:
    rows = aggregate([JobRecord("a", "default", 0, valid=True, score=0.9), JobRecord("a", "one-pass", 0)])
    md = to_markdown(rows)
    assert md.count("\n| a |") == 2 and "valid_rate" in md
    assert to_html(rows).count("<tr>") == 3


def test_run_bench_grid_logs_records_and_skips_finished_jobs(tmp_path: Path) -> None:
    tasks = _tasks(tmp_path, ["x", "y"])
    calls: list[tuple[str, str, int]] = []
    stores: list[str] = []

    def job(task_dir: str, run_dir: str, variant: str, seed: int, overrides: dict) -> dict:
        calls.append((Path(task_dir).name, variant, seed))
        stores.append(overrides["experience.store"])
        return asdict(JobRecord(Path(task_dir).name, variant, seed, valid=True, score=float(seed)))

    out = tmp_path / "bench"
    recs = run_bench(tasks, out, ["default", "no-knowledge"], 2, {}, job=job)
    assert len(recs) == 8 and len(calls) == 8
    # each job starts from an empty experience store of its own: no job learns from the ones before it
    assert len(set(stores)) == 8 and all(Path(s).parent == out / "experience" for s in stores)
    assert len((out / "records.jsonl").read_text().splitlines()) == 8
    calls.clear()
    again = run_bench(tasks, out, ["default", "no-knowledge", "one-pass"], 2, {}, job=job)
    assert len(again) == 12
    assert {c[1] for c in calls} == {"one-pass"} and len(calls) == 4


def test_unknown_variant_is_named() -> None:
    with pytest.raises(ValueError, match="no-such"):
        parse_variants("default,no-such")


def test_bench_cli_rejects_empty_folder(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from automind.cli import app

    (tmp_path / "empty").mkdir()
    res = CliRunner().invoke(app, ["bench", str(tmp_path / "empty"), "--seeds", "1"])
    assert res.exit_code != 0
    assert "no task folders" in res.output


def test_records_roundtrip_json() -> None:
    rec = JobRecord("t", "default", 0, valid=True, score=1.0)
    assert JobRecord(**json.loads(json.dumps(asdict(rec)))) == rec
