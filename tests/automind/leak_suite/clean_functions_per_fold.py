"""Clean: preprocessing in a function that the fold loop calls with each fold's rows (like the recipes)."""

import os
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score
from sklearn.model_selection import KFold
from sklearn.preprocessing import StandardScaler


def prepare(a, b):
    scaler = StandardScaler().fit(a)
    return scaler.transform(a), scaler.transform(b)


def target_means(frame, key, target):
    return frame.groupby(key)[target].mean()


train = pd.read_csv("./input/train.csv")
test = pd.read_csv("./input/test.csv")
cols = ["x1", "x2"]
oof = np.zeros(len(train))
for tr, va in KFold(5, shuffle=True, random_state=1).split(train):
    a, b = prepare(train.iloc[tr][cols], train.iloc[va][cols])
    oof[va] = LogisticRegression().fit(a, train["y"].iloc[tr]).predict(b)
acc = accuracy_score(train["y"], oof)
print(f"validation accuracy: {acc:.4f}")
os.makedirs("submission", exist_ok=True)
Path("submission/eval_metric.txt").write_text(str(acc))
a, b = prepare(train[cols], test[cols])
pred = LogisticRegression().fit(a, train["y"]).predict(b)
pd.DataFrame({"id": test["id"], "y": pred}).to_csv("submission/submission.csv", index=False)
