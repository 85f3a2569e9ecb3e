"""Clean: split first, fit the scaler on the training part only; refit on all training rows at the end."""

import os

import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

train = pd.read_csv("./input/train.csv")
test = pd.read_csv("./input/test.csv")
TARGET = "y"
features = [c for c in train.columns if c not in ("id", "cat", TARGET)]
X_tr, X_va, y_tr, y_va = train_test_split(train[features], train[TARGET], test_size=0.2, random_state=0)
scaler = StandardScaler().fit(X_tr)
model = LogisticRegression().fit(scaler.transform(X_tr), y_tr)
acc = accuracy_score(y_va, model.predict(scaler.transform(X_va)))
print(f"validation accuracy: {acc:.4f}")
os.makedirs("submission", exist_ok=True)
with open("submission/eval_metric.txt", "w") as f:
    f.write(str(acc))
scaler = StandardScaler().fit(train[features])
model = LogisticRegression().fit(scaler.transform(train[features]), train[TARGET])
pred = model.predict(scaler.transform(test[features]))
pd.DataFrame({"id": test["id"], "y": pred}).to_csv("submission/submission.csv", index=False)
