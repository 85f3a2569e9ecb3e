"""bench/paired.py: the paired bootstrap that says whether a graded difference is more than a few lucky rows."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def paired(bench):
    return bench("paired")


@pytest.mark.parametrize("metric", ["accuracy", "rmse"])
def test_a_clear_difference_is_signed_by_the_metric_direction_and_excludes_zero(
    paired, tmp_path, metric, toy_task, wrong_on
):
    task = toy_task(tmp_path, metric, metric, 400)
    good, bad = wrong_on(task, tmp_path / "g.csv", 0.05), wrong_on(task, tmp_path / "b.csv", 0.4)
    gain = paired.paired_gain(task, good, bad, resamples=200)
    assert gain.value > 0 and 0 < gain.low <= gain.value <= gain.high and gain.rows == len(pd.read_csv(good))
    back = paired.paired_gain(task, bad, good, resamples=200)
    assert back.value == pytest.approx(-gain.value) and back.high < 0
    assert str(gain).endswith("*")


def test_a_difference_of_a_few_rows_is_within_the_noise(paired, tmp_path, toy_task, wrong_on):
    task = toy_task(tmp_path, "accuracy", "accuracy", 2000)  # 400 test rows
    # a is wrong on rows 0-79, b on rows 10-93: each is right where the other is wrong on some rows
    a, b = (
        wrong_on(task, tmp_path / "a.csv", 0.20),
        wrong_on(task, tmp_path / "b.csv", 0.21, start=10),
    )
    gain = paired.paired_gain(task, a, b, resamples=300)
    assert (
        gain.value == pytest.approx(4 / 400) and gain.low <= 0.0 <= gain.high and not str(gain).endswith("*")
    )
    same = paired.paired_gain(task, a, a, resamples=50)
    assert (same.value, same.low, same.high) == (0.0, 0.0, 0.0)


def test_pooling_finds_a_gain_that_every_task_shows_but_none_resolves(
    paired, tmp_path, toy_task, slightly_better
):
    tasks = [toy_task(tmp_path, f"t{i}-{m}", m) for i in range(3) for m in ("accuracy", "rmse")]
    items = [(t, *slightly_better(t, tmp_path / f"s{i}")) for i, t in enumerate(tasks)]
    for task, a, b in items:
        one = paired.paired_gain(task, a, b, resamples=300)
        assert one.value > 0 and one.low <= 0.0  # each task alone: inside the noise
    pooled = paired.pooled_gain(items, resamples=300)
    # six pairs, each about 1.4 of its own standard errors better: more wins than losses beyond the noise
    assert (pooled.net, pooled.better, pooled.worse) == (6, 6, 0) and 0 < pooled.low <= pooled.high <= 6
    assert 1.0 < pooled.mean_se < 2.0 and str(pooled).startswith(f"net +6 [+{pooled.low:.0f}, +6] *")


def test_pooling_gains_and_losses_stays_inside_the_noise(paired, tmp_path, toy_task, slightly_better):
    tasks = [toy_task(tmp_path, f"t{i}", "accuracy") for i in range(4)]
    items = [(t, *slightly_better(t, tmp_path / f"s{i}", flip=i % 2 == 1)) for i, t in enumerate(tasks)]
    pooled = paired.pooled_gain(items, resamples=300)
    assert pooled.low < 0 < pooled.high and pooled.net == 0 and abs(pooled.mean_se) < 0.1
    assert (pooled.pairs, pooled.better, pooled.worse) == (4, 2, 2) and "*" not in str(pooled)


def test_one_large_gain_counts_once_in_the_net_wins(paired, tmp_path, toy_task, wrong_on, slightly_better):
    """A huge win on one task and small losses on three: the net count is not carried by the big task."""
    tasks = [toy_task(tmp_path, f"t{i}", "accuracy") for i in range(4)]
    big = tasks[0]
    items = [(big, wrong_on(big, tmp_path / "good.csv", 0.05), wrong_on(big, tmp_path / "bad.csv", 0.4))]
    items += [(t, *slightly_better(t, tmp_path / f"s{i}", flip=True)) for i, t in enumerate(tasks[1:])]
    pooled = paired.pooled_gain(items, resamples=300)
    assert (pooled.net, pooled.better, pooled.worse) == (-2, 1, 3) and pooled.low < 0
    assert pooled.mean_se > 1.0  # the standardised mean, printed beside it, is carried by the big task


def test_the_cli_pairs_each_run_folder_with_its_own_baseline_and_pools_them(
    paired, tmp_path, toy_task, wrong_on
):
    tasks_dir = tmp_path / "tasks"
    tasks = [toy_task(tasks_dir, name, "accuracy") for name in ("alpha", "beta")]
    outs, bases = [tmp_path / "long1", tmp_path / "long2"], [tmp_path / "short1", tmp_path / "short2"]
    for i, task in enumerate(tasks):
        for out, base in zip(outs, bases, strict=True):
            for folder, share in ((out, 0.05), (base, 0.4)):
                (folder / task.root.name / "run").mkdir(parents=True, exist_ok=True)
                wrong_on(task, folder / task.root.name / "run" / "submission.csv", share, start=i)
    script = str(ROOT / "bench" / "paired.py")
    done = subprocess.run([sys.executable, script, str(tasks_dir), *map(str, outs), "--against", *map(str, bases)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    assert [r.split(" | ")[0] for r in rows[1:]] == [
        "| alpha (long1)", "| beta (long1)", "| alpha (long2)", "| beta (long2)", "| pooled (wins - losses)"
    ]  # fmt: skip
    assert (
        all(r.rstrip(" |").endswith("*") for r in rows[1:5])
        and "net +4 [+4, +4] * (4 pairs: 4 better, 0 worse" in rows[-1]
    )
    wrong = subprocess.run([sys.executable, script, str(tasks_dir), *map(str, outs), "--against", str(bases[0])],
                           capture_output=True, text=True, cwd=ROOT, timeout=300)  # fmt: skip
    assert wrong.returncode == 2 and "--against needs one folder per OUT: got 2 OUT and 1" in wrong.stderr
    assert "Traceback" not in wrong.stderr


def test_a_run_without_its_journal_has_no_checkpoint_rather_than_a_crash(paired, tmp_path, toy_task):
    task = toy_task(tmp_path, "accuracy", "accuracy", 400)
    run = tmp_path / "out" / "run"
    run.mkdir(parents=True)
    assert paired.checkpoint_submission(task, run, 1.0) is None
    (run / "run.json").write_text("{not json")
    assert paired.rows_for(task, run.parent, None)["best node at 100 % vs 25 %"] == "-"


def test_a_run_on_a_busy_machine_is_named(paired, tmp_path):
    """Only runs whose run.json says other programs took BUSY_SHARE or more of the CPUs; unreadable is not
    busy."""
    import json

    for name, share in (("busy", 0.45), ("quiet", 0.02)):
        (tmp_path / name).mkdir()
        info = {"budget": {"cpu": {"cpus": 2, "seconds": 120.0, "others_share": share}}}
        (tmp_path / name / "run.json").write_text(json.dumps(info))
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "run.json").write_text("{")
    assert paired.busy_share(tmp_path / "busy") == 0.45
    assert paired.busy_share(tmp_path / "quiet") is None and paired.busy_share(tmp_path / "broken") is None
    assert paired.busy_share(tmp_path / "missing") is None


def test_a_contender_left_out_keeps_its_column_in_the_pooled_row(paired, tmp_path, toy_task, wrong_on):
    """With AutoGluon skipped (no autogluon.csv anywhere), the pooled row still has one cell per column:
    before, that column dropped out and the next column's figure sat under the AutoGluon heading."""
    columns: dict = {}
    for i, name in enumerate(("alpha", "beta")):
        task = toy_task(tmp_path / "tasks", name, "accuracy")
        out = tmp_path / "out" / name
        (out / "run").mkdir(parents=True)
        wrong_on(task, out / "run" / "submission.csv", 0.05, start=i)
        wrong_on(task, out / "flaml.csv", 0.4, start=i)
        cells = paired.rows_for(task, out, None, columns)
        assert list(cells) == ["vs FLAML", "vs AutoGluon", "best node at 100 % vs 25 %"]
    row = paired.pooled_row(columns).strip("| ").split(" | ")
    assert row[0] == "pooled (wins - losses)" and len(row) == 4, row
    assert row[1].startswith("net +2") and row[2:] == ["-", "-"]


def _run_with_draft(folder: Path, task, wrong_on, final_share: float, draft_share: float) -> None:
    """A run folder whose final submission is wrong on `final_share` of the rows and whose portfolio draft
    node (node 1; node 0 is a LightGBM draft) on `draft_share`."""
    import json

    run = folder / task.root.name / "run"
    wrong_on(task, run / "submission.csv", final_share)
    nodes = [
        {"id": "0", "action": "draft", "plan": "Recipe pipeline `rcp-lgbm-kfold`: ...", "is_buggy": False},
        {"id": "1", "action": "draft", "plan": "Recipe pipeline `rcp-portfolio`: ...", "is_buggy": False},
    ]
    wrong_on(task, run / "nodes" / "0" / "submission" / "submission.csv", 0.5)
    wrong_on(task, run / "nodes" / "1" / "submission" / "submission.csv", draft_share)
    (run / "journal.json").write_text(json.dumps({"nodes": nodes}))


def test_draft_compares_the_named_draft_nodes_not_the_final_submissions(paired, tmp_path, toy_task, wrong_on):
    """The new runs' final submissions are worse than the old ones' while their portfolio drafts are better:
    --draft reads the drafts (a gain beyond the noise), without it the finals (a loss)."""
    tasks_dir = tmp_path / "tasks"
    task = toy_task(tasks_dir, "alpha", "accuracy")
    _run_with_draft(tmp_path / "new", task, wrong_on, final_share=0.4, draft_share=0.05)
    _run_with_draft(tmp_path / "old", task, wrong_on, final_share=0.05, draft_share=0.4)
    script = [sys.executable, str(ROOT / "bench" / "paired.py"), str(tasks_dir), str(tmp_path / "new")]
    against = ["--against", str(tmp_path / "old")]
    drafts = subprocess.run([*script, *against, "--draft", "rcp-portfolio"], capture_output=True, text=True,
                            cwd=ROOT, timeout=300)  # fmt: skip
    finals = subprocess.run([*script, *against], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert drafts.returncode == 0 and finals.returncode == 0, drafts.stderr + finals.stderr
    draft_row = next(r for r in drafts.stdout.splitlines() if r.startswith("| alpha"))
    final_row = next(r for r in finals.stdout.splitlines() if r.startswith("| alpha"))
    assert "rcp-portfolio vs other run" in drafts.stdout
    assert draft_row.startswith("| alpha | +0.35") and draft_row.rstrip(" |").endswith("*")
    assert final_row.startswith("| alpha | -0.35") and final_row.rstrip(" |").endswith("*")
    missing = paired.draft_submission(task, tmp_path / "new" / "alpha" / "run", "rcp-linear-baseline")
    assert missing is None  # no such draft in the run: a '-' cell, not another node
    alone = subprocess.run([*script, "--draft", "rcp-portfolio"], capture_output=True, text=True, cwd=ROOT,
                           timeout=300)  # fmt: skip
    assert alone.returncode == 2 and "give the other runs with --against" in alone.stderr
    assert "Traceback" not in alone.stderr
