"""bench/offline_vs_automl.py: a contender that lost models to its install is reported, not hidden.

AutoGluon logs a model that fails to train and goes on without it; with xgboost 2.x under scikit-learn 1.9
its XGBoost model failed on every task, unnoticed, until the bench listed the failures."""

from __future__ import annotations

import pandas as pd


class _Predictor:
    def __init__(self, failures: pd.DataFrame | None) -> None:
        self.failures = failures

    def model_failures(self) -> pd.DataFrame | None:
        return self.failures


def test_each_failed_autogluon_model_is_named_with_its_error(bench):
    mod = bench("offline_vs_automl")
    df = pd.DataFrame(
        [
            {
                "model": "XGBoost",
                "exc_type": "AttributeError",
                "exc_str": " `_estimator_type` undefined. " * 9,
            },
            {"model": "NeuralNetFastAI", "exc_type": "ImportError", "exc_str": "Import fastai failed."},
        ]
    )
    got = mod.model_failures(_Predictor(df))
    assert set(got) == {"XGBoost", "NeuralNetFastAI"}
    assert got["NeuralNetFastAI"] == "ImportError: Import fastai failed."
    assert got["XGBoost"].startswith("AttributeError: `_estimator_type` undefined.")
    assert len(got["XGBoost"]) <= len("AttributeError: ") + 100
    assert mod.model_failures(_Predictor(pd.DataFrame())) == {}
    assert mod.model_failures(_Predictor(None)) == {}


def test_the_tables_end_with_the_failed_models(bench, toy_task, tmp_path, monkeypatch, capsys):
    mod = bench("offline_vs_automl")
    toy_task(tmp_path / "tasks", "alpha", "accuracy", n=200)

    def fake_autogluon(task, budget, out, jobs):
        return {"t": 1.0, "report": None, "note": "no submission", "failed": {"XGBoost": "AttributeError: x"}}

    monkeypatch.setattr(mod, "autogluon", fake_autogluon)
    monkeypatch.setattr(
        "sys.argv",
        ["offline_vs_automl.py", str(tmp_path / "tasks"), "--budget", "5", "--out", str(tmp_path / "out"),
         "--skip", "automind", "flaml"],
    )  # fmt: skip
    mod.main()
    printed = capsys.readouterr().out
    tail = printed[printed.index("contender models that failed to train") :]
    assert "- alpha: AutoGluon's XGBoost failed to train (AttributeError: x)" in tail
