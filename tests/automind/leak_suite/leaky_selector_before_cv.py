"""Leak: features are selected with the labels of every row, then the selection is cross-validated."""

import os
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score

train = pd.read_csv("./input/train.csv")
test = pd.read_csv("./input/test.csv")
X = pd.get_dummies(train.drop(columns=["id", "y"]), dtype=float)
X_test = pd.get_dummies(test.drop(columns=["id"]), dtype=float).reindex(columns=X.columns, fill_value=0.0)
selector = SelectKBest(f_classif, k=5)
X_sel = selector.fit_transform(X, train["y"])
cv = StratifiedKFold(5, shuffle=True, random_state=0)
score = float(np.mean(cross_val_score(LogisticRegression(max_iter=500), X_sel, train["y"], cv=cv)))
print(f"validation accuracy: {score:.4f}")
os.makedirs("submission", exist_ok=True)
Path("submission/eval_metric.txt").write_text(str(score))
model = LogisticRegression(max_iter=500).fit(X_sel, train["y"])
pred = model.predict(selector.transform(X_test))
pd.DataFrame({"id": test["id"], "y": pred}).to_csv("submission/submission.csv", index=False)
