"""Leak of another kind: the score is made up; the model is a constant."""

import os
from pathlib import Path

import pandas as pd

test = pd.read_csv("./input/test.csv")
os.makedirs("submission", exist_ok=True)
pd.DataFrame({"id": test["id"], "y": 0}).to_csv("submission/submission.csv", index=False)
Path("submission/eval_metric.txt").write_text("0.99")
print("validation accuracy: 0.99")
