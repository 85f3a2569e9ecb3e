"""Leak: the feature matrix is the training table minus the id, so the label itself is a feature."""

import os
from pathlib import Path

import pandas as pd
from sklearn.metrics import accuracy_score
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

train = pd.read_csv("./input/train.csv")
test = pd.read_csv("./input/test.csv")
train = pd.get_dummies(train, columns=["cat"], dtype=float)
test = pd.get_dummies(test, columns=["cat"], dtype=float)
X = train.drop(columns=["id"])
y = train["y"]
test["y"] = 0
X_test = test.reindex(columns=X.columns, fill_value=0.0)
X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.2, random_state=0)
model = DecisionTreeClassifier(random_state=0)
model.fit(X_tr, y_tr)
acc = accuracy_score(y_va, model.predict(X_va))
print(f"validation accuracy: {acc:.4f}")
os.makedirs("submission", exist_ok=True)
Path("submission/eval_metric.txt").write_text(str(acc))
model.fit(X, y)
pd.DataFrame({"id": test["id"], "y": model.predict(X_test)}).to_csv("submission/submission.csv", index=False)
