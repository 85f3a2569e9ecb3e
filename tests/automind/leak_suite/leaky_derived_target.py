"""Leak: a column computed from the label (a 'flag') is left among the features."""

import os
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score

TARGET = "y"
train = pd.read_csv("./input/train.csv")
test = pd.read_csv("./input/test.csv")
train["risk_flag"] = (train[TARGET] > 0).astype(int) * 2 - 1
test["risk_flag"] = 0
X = train.drop(columns=["id", "cat", TARGET])
y = train[TARGET]
model = LogisticRegression(max_iter=500)
score = float(np.mean(cross_val_score(model, X, y, cv=5, scoring="accuracy")))
print(f"validation accuracy: {score:.4f}")
os.makedirs("submission", exist_ok=True)
Path("submission/eval_metric.txt").write_text(str(score))
model.fit(X, y)
pred = model.predict(test[X.columns])
pd.DataFrame({"id": test["id"], "y": pred}).to_csv("submission/submission.csv", index=False)
