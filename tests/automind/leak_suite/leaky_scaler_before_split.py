"""Leak: the scaler sees every training row (validation rows included) before the split."""

import os
from pathlib import Path

import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

train = pd.read_csv("./input/train.csv")
test = pd.read_csv("./input/test.csv")
features = ["x1", "x2"]
X = train[features]
y = train["y"]
scaler = StandardScaler()
X = scaler.fit_transform(X)
X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.2, random_state=0)
model = LogisticRegression().fit(X_tr, y_tr)
acc = accuracy_score(y_va, model.predict(X_va))
print(f"validation accuracy: {acc:.4f}")
os.makedirs("submission", exist_ok=True)
Path("submission/eval_metric.txt").write_text(str(acc))
model.fit(X, y)
pd.DataFrame({"id": test["id"], "y": model.predict(scaler.transform(test[features]))}).to_csv(
    "submission/submission.csv", index=False
)
